/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A mock irdma device for KUnit: an E810 (GEN2) function in iWARP or
 * RoCEv2 mode, or an X722 (GEN1) one in iWARP mode, that lives in memory
 * only.  See irdma_mock.c.
 */
#ifndef IRDMA_MOCK_H
#define IRDMA_MOCK_H

#include "../main.h"

struct irdma_hw_model;
struct irdma_hw_sq_wqe;
struct irdma_hw_wqe;
struct kunit;

/**
 * enum irdma_mock_profile - what a mock device is
 * @IRDMA_MOCK_E810_IWARP: an E810 (GEN2) function in iWARP mode
 * @IRDMA_MOCK_E810_ROCE: an E810 function in RoCEv2 mode: its netdev is
 *	registered, so that the RDMA core finds its default GID, and the
 *	mock plays ice's part in the work scheduler (register_qset)
 * @IRDMA_MOCK_X722_IWARP: an X722 (GEN1) function, iWARP only: the
 *	driver's i40iw_init_hw() sets up its register map and limits, and
 *	the model reads its WQEs with GEN1's layouts
 */
enum irdma_mock_profile {
	IRDMA_MOCK_E810_IWARP,
	IRDMA_MOCK_E810_ROCE,
	IRDMA_MOCK_X722_IWARP,
};

/**
 * struct irdma_mock_params - the shape of a mock device
 * @max_mr: MR objects of the HMC: the size of the stag bitmap
 * @pble_head_pages: pages of PBLEs at the end of the first segment
 *	descriptor (SD) the PBLE object occupies; the mock's PBLE resource
 *	starts with them, in one chunk
 * @pble_tail_pages: pages of PBLEs in the next SD, which the PBLE
 *	allocator adds as a second chunk the first time the first one
 *	cannot satisfy a request
 * @cqp_requests: CQP requests in the preallocated pool
 * @profile: the device, E810 in iWARP mode (0) by default
 *
 * A zero field takes its default: 4096 MRs, 2 head pages (1024 PBLEs),
 * 8 tail pages (4096 PBLEs) and 16 requests.
 */
struct irdma_mock_params {
	u32 max_mr;
	u32 pble_head_pages;
	u32 pble_tail_pages;
	u32 cqp_requests;
	enum irdma_mock_profile profile;
};

/**
 * struct irdma_mock - a mock irdma device
 * @test: the test that owns it; everything goes with the test
 * @dev: a device on the KUnit bus with a 64-bit DMA mask, the device of
 *	every DMA mapping and coherent buffer of the mock
 * @rf: the PCI function, whose @rf.sc_dev is initialised by the driver's
 *	own irdma_sc_dev_init() over @bar, and whose resource bitmaps come
 *	from its irdma_initialize_hw_rsrc()
 * @iwdev: the RDMA device, from ib_alloc_device() and registered by the
 *	driver's irdma_ib_register_device(): verbs.c's ops, one iWARP port
 *	over a netdev of its own, DMA mappings on @dev
 * @bar: BAR0 in memory: the registers and doorbells the driver writes
 * @bar_len: its size
 * @hw: the firmware model behind @bar, which answers the driver's CQP
 * @resets: resets the driver asked the board for (a CQP that timed out)
 * @pble_rsrc: @rf's PBLE resource, over an HMC whose SD table the mock
 *	sets up; SDs are programmed through @rf's CQP, by the model
 * @pd: a protection domain for QPs and MRs, its PD ID taken from
 *	@rf.allocated_pds
 * @cqp_pool: the preallocated CQP requests of @rf.cqp
 * @cqp_pool_len: their number
 * @netdev_registered: the netdev is registered (RoCE)
 * @qsets: queue sets ice holds for the function's work scheduler leaves
 * @qset_calls: register_qset calls ice got
 * @qset_refuse: the errno ice gives the next register_qset, or 0
 */
struct irdma_mock {
	struct kunit *test;
	struct device *dev;
	struct irdma_pci_f rf;
	struct irdma_device *iwdev;
	void *bar;
	size_t bar_len;
	struct irdma_hw_model *hw;
	u32 resets;
	struct irdma_hmc_pble_rsrc pble_rsrc;
	struct irdma_pd pd;
	struct irdma_cqp_request *cqp_pool;
	u32 cqp_pool_len;
	bool netdev_registered;
	int qsets;
	u32 qset_calls;
	int qset_refuse;
};

/**
 * struct irdma_mock_qp_attr - the shape of a mock QP
 * @sq_wrs: work requests the SQ must hold
 * @rq_wrs: work requests the RQ must hold
 * @max_sq_sge: SGEs per send work request
 * @max_rq_sge: SGEs per receive work request
 * @max_inline: inline data bytes per send work request
 *
 * A zero field takes its default: 128 send and 32 receive work requests,
 * 4 and 1 SGEs, no inline data.
 */
struct irdma_mock_qp_attr {
	u32 sq_wrs;
	u32 rq_wrs;
	u32 max_sq_sge;
	u32 max_rq_sge;
	u32 max_inline;
};

/* At most this many fragments in an SQ WQE, with the GEN2 padding one */
#define IRDMA_MOCK_WQE_MAX_FRAGS	(IRDMA_MAX_WQ_FRAGMENT_COUNT + 1)

/**
 * struct irdma_mock_wqe - an SQ WQE as the hardware reads it
 * @qword: its first 32 bytes, CPU-endian
 * @quanta: its length in 32-byte quanta, as uk.c recorded it
 * @opcode: IRDMAQPSQ_OPCODE, an IRDMAQP_OP_* value
 * @valid: IRDMAQPSQ_VALID, the polarity the WQE was written with
 * @signaled: IRDMAQPSQ_SIGCOMPL
 * @read_fence: IRDMAQPSQ_READFENCE
 * @local_fence: IRDMAQPSQ_LOCALFENCE
 * @addl_frags: IRDMAQPSQ_ADDFRAGCNT: fragments beyond the first,
 *	including the null one GEN2 pads an even count with
 * @rem_stag: remote STag of RDMA READ and WRITE (IRDMAQPSQ_REMSTAG)
 * @rem_to: remote tagged offset of RDMA READ and WRITE
 * @num_frags: local fragments, padding left out
 * @frag: the fragments: address, length and STag
 * @inv_stag: the STag a LOCAL_INVALIDATE targets
 * @fr_va: FAST_REGISTER: the base VA (or first byte offset)
 * @fr_len: FAST_REGISTER: the region's length (IRDMAQPSQ_STAGLEN)
 * @fr_key: FAST_REGISTER: the STag's key (IRDMAQPSQ_STAGKEY)
 * @fr_index: FAST_REGISTER: the STag's index (IRDMAQPSQ_STAGINDEX)
 * @fr_rights: FAST_REGISTER: IRDMA_ACCESS_FLAGS_* (IRDMAQPSQ_STAGRIGHTS)
 * @fr_va_based: FAST_REGISTER: IRDMAQPSQ_VABASEDTO
 * @fr_pbl_size: FAST_REGISTER: IRDMAQPSQ_LPBLSIZE, the kind of page list
 *	@fr_pbl_addr and @fr_first_pble describe (1: a level-1 PBL)
 * @fr_hpage_size: FAST_REGISTER: IRDMAQPSQ_HPAGESIZE, an IRDMA_PAGE_SIZE_*
 * @fr_first_pble: FAST_REGISTER: the index of the first PBLE in the HMC
 * @fr_pbl_addr: FAST_REGISTER: the address in IRDMAQPSQ_PBLADDR
 */
struct irdma_mock_wqe {
	u64 qword[4];
	u16 quanta;
	u8 opcode;
	bool valid;
	bool signaled;
	bool read_fence;
	bool local_fence;
	u8 addl_frags;
	u32 rem_stag;
	u64 rem_to;
	u32 num_frags;
	struct ib_sge frag[IRDMA_MOCK_WQE_MAX_FRAGS];
	u32 inv_stag;
	u64 fr_va;
	u64 fr_len;
	u8 fr_key;
	u32 fr_index;
	u8 fr_rights;
	bool fr_va_based;
	u8 fr_pbl_size;
	u8 fr_hpage_size;
	u32 fr_first_pble;
	u64 fr_pbl_addr;
};

/**
 * enum irdma_mock_objs - objects whose IDs irdma_mock_save_ids() keeps
 * @IRDMA_MOCK_CQS: CQs: allocated_cqs, cq_table, CREATE_CQ, restrack's CQs
 * @IRDMA_MOCK_QPS: QPs: allocated_qps, qp_table, CREATE_QP, restrack's QPs
 * @IRDMA_MOCK_AHS: AHs: allocated_ahs, CREATE_AH; neither a table nor
 *	restrack entries
 */
enum irdma_mock_objs {
	IRDMA_MOCK_CQS,
	IRDMA_MOCK_QPS,
	IRDMA_MOCK_AHS,
};

/**
 * struct irdma_mock_ids - a kind of object's IDs as they were
 * @kind: which IDs
 * @max: how many IDs the function has of them
 * @ids: the ID bitmap (allocated_cqs, allocated_qps or allocated_ahs),
 *	copied
 * @table: the objects the event handlers find by ID (cq_table or
 *	qp_table), copied; AHs have none
 * @cqp_avail: free CQP requests
 * @creates: CREATE_CQ, CREATE_QP or CREATE_AH WQEs the model took
 * @tracked: such objects the RDMA core tracks on the device (not AHs)
 *
 * What a verb that fails must give back: irdma_mock_save_ids() takes it
 * before, irdma_mock_expect_ids() compares after.
 */
struct irdma_mock_ids {
	enum irdma_mock_objs kind;
	u32 max;
	unsigned long *ids;
	void **table;
	u32 cqp_avail;
	u32 creates;
	int tracked;
};

struct irdma_mock *irdma_mock_create(struct kunit *test,
				     const struct irdma_mock_params *params);
struct irdma_mock *irdma_mock_from_rf(struct irdma_pci_f *rf);
void irdma_mock_stop_cqp(struct irdma_mock *mock);

struct irdma_cq *irdma_mock_create_cq(struct irdma_mock *mock, u32 cqes);
struct irdma_qp *irdma_mock_create_qp(struct irdma_mock *mock,
				      const struct irdma_mock_qp_attr *attr);

struct ib_pd *irdma_mock_alloc_pd(struct irdma_mock *mock);
struct ib_cq *irdma_mock_verbs_cq(struct irdma_mock *mock, int cqe);
struct ib_qp *irdma_mock_verbs_qp(struct irdma_mock *mock, struct ib_pd *pd,
				  struct ib_cq *cq, const struct ib_qp_cap *cap);

void irdma_mock_save_ids(struct irdma_mock *mock, enum irdma_mock_objs kind,
			 struct irdma_mock_ids *s);
void irdma_mock_expect_ids(struct irdma_mock *mock,
			   const struct irdma_mock_ids *was);

void irdma_mock_ccq_event(struct irdma_mock *mock);
void irdma_mock_tc_change(struct irdma_mock *mock, bool begin, bool reset);
int irdma_mock_cqp_cmd(struct irdma_mock *mock, u8 cmd, void *obj);

u64 *irdma_mock_pble(struct irdma_mock *mock, u32 idx);
u64 irdma_mock_mr_page(struct irdma_mock *mock, struct ib_mr *mr, u32 i);
u32 irdma_mock_cqp_avail(struct irdma_mock *mock);
void irdma_mock_last_wqe(struct irdma_mock *mock, u8 opcode,
			 struct irdma_hw_wqe *w);
void irdma_mock_wqe_since(struct irdma_mock *mock, u64 seq, u8 opcode,
			  struct irdma_hw_wqe *w);
u32 irdma_mock_reg(struct irdma_mock *mock, enum irdma_registers reg);
void irdma_mock_set_reg(struct irdma_mock *mock, enum irdma_registers reg,
			u32 val);

int irdma_mock_sq_wqe(struct irdma_qp *iwqp, u32 idx,
		      struct irdma_mock_wqe *wqe);
int irdma_mock_sq_next_wqe(struct irdma_qp *iwqp, u32 idx,
			   struct irdma_hw_sq_wqe *wqe);

#endif /* IRDMA_MOCK_H */
