/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A software RDMA device for KUnit: it executes the send work requests a
 * QP is given against memory, the way an HCA would, so that tests of the
 * RDMA R/W API can check the bytes that moved and the chains that moved
 * them.
 */
#ifndef _IB_MOCK_H
#define _IB_MOCK_H

#include <kunit/test.h>
#include <rdma/ib_verbs.h>

/**
 * struct ib_mock_profile - the kind of device to mock
 * @name:	short name, for parameterized test descriptions
 * @protocol:	RDMA_CORE_CAP_PROT_IB, _ROCE or _IWARP
 * @max_send_sge: SGEs per send/RDMA WRITE work request
 * @max_sge_rd:	SGEs per RDMA READ work request
 * @max_sgl_rd:	READ SGE count above which the device prefers an MR, or 0
 * @max_fr_pages: pages per fast-registration MR
 * @max_pi_fr_pages: pages per integrity MR; 0 without integrity support
 * @max_mr_size: longest MR a registration may describe
 * @max_qp_wr:	send queue depth limit
 * @no_local_dma_lkey: no lkey covers all of memory on the device (no
 *		IBK_LOCAL_DMA_LKEY): ib_alloc_pd() gives each PD a DMA MR
 *		of its own, whose key differs from the device's
 */
struct ib_mock_profile {
	const char *name;
	u32 protocol;
	u32 max_send_sge;
	u32 max_sge_rd;
	u32 max_sgl_rd;
	u32 max_fr_pages;
	u32 max_pi_fr_pages;
	u64 max_mr_size;
	u32 max_qp_wr;
	bool no_local_dma_lkey;
};

extern const struct ib_mock_profile ib_mock_ib;
extern const struct ib_mock_profile ib_mock_roce;
extern const struct ib_mock_profile ib_mock_iwarp;
extern const struct ib_mock_profile ib_mock_sgl_rd;
extern const struct ib_mock_profile ib_mock_sge1;
extern const struct ib_mock_profile ib_mock_sge2;
extern const struct ib_mock_profile ib_mock_small_mr;
extern const struct ib_mock_profile ib_mock_pi;

/*
 * Whether the mock counts DMA mappings: where devices can have DMA ops of
 * their own.  Elsewhere it registers with virtual DMA and counts nothing.
 */
#define IB_MOCK_DMA_COUNTED	IS_ENABLED(CONFIG_ARCH_HAS_DMA_OPS)

/*
 * With counting DMA, the bus address of a byte is its physical address plus
 * this, so that a virtual or physical address used as a DMA address points
 * at nothing the device can reach.
 */
#define IB_MOCK_DMA_OFFSET	0x0dba000000000000ULL

/* SGEs of a work request the log keeps. */
#define IB_MOCK_LOG_SGES	4

/**
 * struct ib_mock_wr - one posted send work request, as the mock saw it
 * @opcode:	the work request's opcode
 * @send_flags:	its flags
 * @num_sge:	its SGE count; the first IB_MOCK_LOG_SGES are in @sge
 * @sge:	its first SGEs
 * @remote_addr: RDMA READ/WRITE: remote address
 * @rkey:	RDMA READ/WRITE: remote key
 * @key:	REG_MR: the new key; LOCAL_INV, READ_WITH_INV: key invalidated
 * @access:	REG_MR: access flags
 * @length:	REG_MR: length registered; RDMA READ/WRITE: bytes moved
 * @status:	how it completed
 * @signaled:	it produced a completion
 */
struct ib_mock_wr {
	enum ib_wr_opcode opcode;
	int send_flags;
	u32 num_sge;
	struct ib_sge sge[IB_MOCK_LOG_SGES];
	u64 remote_addr;
	u32 rkey;
	u32 key;
	int access;
	u64 length;
	enum ib_wc_status status;
	bool signaled;
};

/**
 * struct ib_mock - a registered mock device with one PD, CQ and RC QP
 * @test:	the test that owns it; everything is released at its end
 * @profile:	the device's profile
 * @dev:	the registered device
 * @pd:		protection domain of @qp
 * @cq:		completion queue of @qp, polled with ib_mock_poll()
 * @qp:		the QP, created through ib_create_qp()
 * @remote:	the peer's memory that RDMA READ/WRITE reach
 * @remote_len:	size of @remote
 * @remote_addr: address of @remote for the peer
 * @remote_rkey: key that grants access to @remote
 * @log:	posted work requests, oldest first
 * @nr_log:	entries in @log; posts beyond its capacity are not logged
 * @log_cap:	capacity of @log
 * @nr_posted:	work requests posted since the mock was created
 * @fail_alloc_mr: fail the Nth alloc_mr from now (1 = the next), or 0
 * @map_short:	map_mr_sg maps this many entries fewer than it could
 * @map_error:	map_mr_sg fails with this errno, or 0
 * @sig_map_unchecked: map_mr_sg_pi takes any signature attributes, as
 *		mlx5_ib_map_mr_sg_pi() does: mlx5 reads them only when it
 *		builds the registration's WQE
 * @fail_post_at: refuse the Nth work request posted from now, or 0
 * @mrs:	fast-registration and integrity MRs allocated and not yet
 *		freed
 * @max_send_wr: send queue depth of the last QP created, as the driver saw it
 * @qp_max_send_wr: &ib_qp_cap.max_send_wr the QPs ib_mock_create_qp()
 *		creates from now on ask for, before rw.c adds its contexts'
 *		share; 0, the default, for 16
 * @qp_max_send_sge: &ib_qp_cap.max_send_sge of those QPs; 0, the
 *		default, for the device's maximum
 * @dma_counted: the device maps through the mock's counting DMA ops (see
 *		ib_mock_dma.c); false with virtual DMA, where the fields below
 *		stay 0
 * @dma_merge:	map_sg merges entries that follow each other in bus
 *		address space into one DMA entry, as an IOMMU may, and the
 *		DMA ops report a merge boundary (dma_get_merge_boundary())
 * @dma_max_mapping: the longest mapping the DMA ops make, as a bounce
 *		buffer limits it (dma_max_mapping_size()); 0 for no limit.
 *		The device's segment limits are its &device.dma_parms.
 * @dma_expect_bad: a misuse of the DMA API, such as an unmap that matches
 *		no live mapping, counts in @dma_bad instead of failing the
 *		test: for tests of the mock itself
 * @fail_dma_map: fail the Nth DMA mapping (map_sg or map_page) from now,
 *		or 0
 * @dma_maps:	map_sg and map_page calls that mapped
 * @dma_unmaps:	unmap_sg and unmap_page calls that undid a live mapping
 * @dma_live:	mappings made and not undone yet
 * @dma_bad:	misuses of the DMA API, with @dma_expect_bad
 */
struct ib_mock {
	struct kunit *test;
	const struct ib_mock_profile *profile;
	struct ib_device *dev;
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;

	u8 *remote;
	size_t remote_len;
	u64 remote_addr;
	u32 remote_rkey;

	struct ib_mock_wr *log;
	unsigned int nr_log;
	unsigned int log_cap;
	unsigned int nr_posted;

	unsigned int fail_alloc_mr;
	unsigned int map_short;
	int map_error;
	bool sig_map_unchecked;
	unsigned int fail_post_at;
	int mrs;
	u32 max_send_wr;
	u32 qp_max_send_wr;
	u32 qp_max_send_sge;

	bool dma_counted;
	bool dma_merge;
	size_t dma_max_mapping;
	bool dma_expect_bad;
	unsigned int fail_dma_map;
	unsigned int dma_maps;
	unsigned int dma_unmaps;
	unsigned int dma_live;
	unsigned int dma_bad;
};

/**
 * struct ib_mock_done - a completion for a test to check
 * @cqe:	give it to the work request that is to complete here
 * @calls:	completions delivered to it by ib_mock_poll()
 * @status:	status of the last of them
 *
 * Initialize with IB_MOCK_DONE_INIT.
 */
struct ib_mock_done {
	struct ib_cqe cqe;
	int calls;
	enum ib_wc_status status;
};

void ib_mock_cqe_done(struct ib_cq *cq, struct ib_wc *wc);

#define IB_MOCK_DONE_INIT	{ .cqe.done = ib_mock_cqe_done }

extern bool ib_mock_lax_access;

struct ib_mock *ib_mock_create(struct kunit *test,
			       const struct ib_mock_profile *profile,
			       u32 max_rdma_ctxs, u32 create_flags);
struct ib_mock *ib_mock_create_device(struct kunit *test,
				      const struct ib_mock_profile *profile);
struct ib_qp *ib_mock_create_qp(struct ib_mock *mock, u32 max_rdma_ctxs,
				u32 create_flags);
int ib_mock_poll(struct ib_mock *mock);
void ib_mock_expect_done(struct kunit *test, struct ib_mock *mock,
			 struct ib_mock_done *done);
void ib_mock_clear_log(struct ib_mock *mock);
unsigned int ib_mock_pool_free(struct ib_mock *mock, struct list_head *pool);
bool ib_mock_dma_sg_live(struct ib_mock *mock, struct scatterlist *sg,
			 int nents, enum dma_data_direction dir);
bool ib_mock_dma_mapped(struct ib_mock *mock, struct page *page,
			unsigned int offset, size_t len,
			enum dma_data_direction dir);
void ib_mock_dma_unmap_sg_raw(struct ib_mock *mock, struct scatterlist *sg,
			      int nents, enum dma_data_direction dir);
void ib_mock_dma_unmap_page_raw(struct ib_mock *mock, dma_addr_t addr,
				size_t size, enum dma_data_direction dir);

#endif /* _IB_MOCK_H */
