/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * A software model of the E810's RDMA firmware for KUnit: it answers the
 * control QP (CQP) at the hardware interface.  See irdma_hw_model.c.
 *
 * What 6.12's irdma expects of the hardware below it, and so what the model
 * does (files of drivers/infiniband/hw/irdma/ in the base tree):
 *
 * - It answers inside the doorbell.  irdma_sc_cqp_create() (ctrl.c) spins
 *   IRDMA_DONE_COUNT times IRDMA_SLEEP_COUNT us for CCQPSTATUS right after
 *   writing CCQPLOW, irdma_cqp_poll_registers() as long for CQPTAIL, and
 *   irdma_sc_poll_for_cqp_op_done() 100 times that for a CCQ CQE.  It
 *   raises no interrupt: irdma_wait_event() (utils.c) drains the CCQ
 *   before each wait, and the next waiter reaps the commands nobody waits
 *   for (MANAGE_ARP, DESTROY_AH).
 * - One CCQ CQE per CQP WQE, in ring order: irdma_sc_ccq_get_cqe_info()
 *   moves the CQP SQ tail by one per CQE, finds the request by the CQE's
 *   WQE index, reads the opcode from the WQE itself and takes qword 1 as
 *   the CQP, the pointer in qword 3 of the host context.  The CCQ's own
 *   DESTROY_CQ is awaited on CQPTAIL (irdma_sc_ccq_destroy()): no CQE.
 * - Any CQE error is -EIO to a waiting verb, major 0xffff with minor
 *   0x8002 -EBUSY (irdma_wait_event()); the model's own errors are -EIO.
 * - Rings are taken by the valid bit alone: 1 on the first pass, flipped
 *   at each wrap, the header qword written last.  irdma_clr_wqes() (uk.c)
 *   keeps the next 128 SQ quanta at the other polarity, and
 *   irdma_qp_get_next_send_wqe() pads with NOPs so that no WQE crosses
 *   IRDMA_MAX_QUANTA_PER_WR quanta; a WQE's length comes from the WQE,
 *   never from the driver's sq_wrtrk_array.
 * - irdma_uk_qp_post_wr() rings WQEALLOC only if the SQ tail the hardware
 *   writes in qword 0 of the QP's shadow area lies among the WQEs posted
 *   since its last call: the model writes it after each walk.
 * - UPDATE_PE_SDS holds entries 0 (no valid bit) to 2 in the WQE and
 *   memcpy()s the rest, CPU-endian, to cqp->sdbuf (cqp_sds_wqe_fill());
 *   irdma_add_pd_table_entry() (hmc.c) writes a paged SD's PD entries
 *   straight to DMA memory, where the model reads them.  PBLE i is at FPM
 *   address hmc_obj[IRDMA_HMC_IW_PBLE].base + 8 * i (pble.c); a level-1
 *   list holds page addresses, a level-2 root its leaves' PBLE indexes
 *   (get_lvl2_pble()).
 * - irdma_req_notify_cq() (verbs.c) rings CQARM only while the CQ is not
 *   armed or to widen a solicited arm, and only the CEQ handler clears the
 *   flag (irdma_iwarp_ce_handler(), hw.c): the model counts the event an
 *   arm asks for rather than write a CEQE that nothing would take.
 * - irdma_uk_cq_poll_cmpl() (uk.c) completes all of a flushed queue's WQEs
 *   from one flush CQE: a test posts one per queue, not one per WQE.
 */
#ifndef IRDMA_HW_MODEL_H
#define IRDMA_HW_MODEL_H

#include <linux/types.h>

struct device;
struct kunit;

/* CQP opcodes the model knows, from the E810's CQP WQE format */
#define IRDMA_HW_OP_CREATE_QP		0x00
#define IRDMA_HW_OP_MODIFY_QP		0x01
#define IRDMA_HW_OP_DESTROY_QP		0x02
#define IRDMA_HW_OP_CREATE_CQ		0x03
#define IRDMA_HW_OP_MODIFY_CQ		0x04
#define IRDMA_HW_OP_DESTROY_CQ		0x05
#define IRDMA_HW_OP_ALLOC_STAG		0x09
#define IRDMA_HW_OP_REG_MR		0x0a
#define IRDMA_HW_OP_DEALLOC_STAG	0x0d
#define IRDMA_HW_OP_MANAGE_ARP		0x0f
#define IRDMA_HW_OP_MANAGE_PUSH_PAGE	0x11
#define IRDMA_HW_OP_CREATE_AH		0x1c
#define IRDMA_HW_OP_DESTROY_AH		0x1e
#define IRDMA_HW_OP_UPDATE_PE_SDS	0x1f
#define IRDMA_HW_OP_FLUSH_WQES		0x22
#define IRDMA_HW_OP_CREATE_MCG		0x26
#define IRDMA_HW_OP_MODIFY_MCG		0x27
#define IRDMA_HW_OP_DESTROY_MCG		0x28
#define IRDMA_HW_OP_WS_NODE		0x2c
#define IRDMA_HW_OP_GATHER_STATS	0x2e
#define IRDMA_HW_OP_MAX			0x40

/* iWARP QP states of the QP context and the QP commands' NEXTIWSTATE */
#define IRDMA_HW_QPS_INVALID		0
#define IRDMA_HW_QPS_IDLE		1
#define IRDMA_HW_QPS_RTS		2
#define IRDMA_HW_QPS_CLOSING		3
#define IRDMA_HW_QPS_RTR		4
#define IRDMA_HW_QPS_TERMINATE		5
#define IRDMA_HW_QPS_ERROR		6
/* RoCE's SQD shares CLOSING's encoding */
#define IRDMA_HW_QPS_SQD		3

/* QP types of the QP commands' QPTYPE field */
#define IRDMA_HW_QPT_IWARP		1
#define IRDMA_HW_QPT_ROCE_RC		3
#define IRDMA_HW_QPT_ROCE_UD		4

/* SQ WQE opcodes the model knows, from the E810's SQ WQE format */
#define IRDMA_HW_SQ_OP_RDMA_WRITE	0x00
#define IRDMA_HW_SQ_OP_RDMA_READ	0x01
#define IRDMA_HW_SQ_OP_SEND		0x03
#define IRDMA_HW_SQ_OP_SEND_SOL_INV	0x06
#define IRDMA_HW_SQ_OP_FAST_REGISTER	0x09
#define IRDMA_HW_SQ_OP_LOCAL_INV	0x0a
#define IRDMA_HW_SQ_OP_READ_LOC_INV	0x0b
#define IRDMA_HW_SQ_OP_NOP		0x0c
#define IRDMA_HW_SQ_OP_RDMA_WRITE_SOL	0x0d

/* Fragment slots of an SQ WQE: 13 SGEs, immediate data or padding */
#define IRDMA_HW_SQ_FRAGS		15

/* Work scheduler node operations of the WS_NODE command */
#define IRDMA_HW_WS_ADD			0
#define IRDMA_HW_WS_MODIFY		1
#define IRDMA_HW_WS_DELETE		2
/* Work scheduler node IDs, ARP cache entries and AHs the model keeps */
#define IRDMA_HW_WS_NODES		1024
#define IRDMA_HW_ARP_ENTRIES		4096
#define IRDMA_HW_AHS			1024
#define IRDMA_HW_MCGS			1024
/* An E810 function's push pages; an X722 has none */
#define IRDMA_HW_PUSH_PAGES		1024
/* QPs a multicast group context holds */
#define IRDMA_HW_MCG_QPS		8

/* Decoded CQP WQEs the model keeps, the last ones */
#define IRDMA_HW_LOG_LEN		64
/* SD entries an UPDATE_PE_SDS WQE carries in its own qwords */
#define IRDMA_HW_SDS_IN_WQE		3
/* The statistics block GATHER_STATS writes */
#define IRDMA_HW_STATS_LEN		1024

/* The errors the model itself completes a WQE with (major 0xfffe) */
#define IRDMA_HW_MAJ_MODEL		0xfffe
enum irdma_hw_model_min {
	IRDMA_HW_MIN_OPCODE = 1,	/* an opcode the model does not execute */
	IRDMA_HW_MIN_BAD_ID,		/* an object ID out of range */
	IRDMA_HW_MIN_IN_USE,		/* an STag that is already allocated */
	IRDMA_HW_MIN_NO_STAG,		/* an STag that is not allocated */
	IRDMA_HW_MIN_PD,		/* an STag of another PD */
	IRDMA_HW_MIN_DMA,		/* an address the model cannot reach */
	IRDMA_HW_MIN_EXISTS,		/* a QP or CQ ID that is in use */
	IRDMA_HW_MIN_NO_OBJ,		/* a QP or CQ that does not exist */
	IRDMA_HW_MIN_CTX,		/* a QP context the model refuses */
};

/**
 * struct irdma_hw_sd - an SD entry as UPDATE_PE_SDS programmed it
 * @data: the entry's data word: the backing page address and its flags
 * @writes: how many times it was written (set or cleared)
 */
struct irdma_hw_sd {
	u64 data;
	u32 writes;
};

/**
 * struct irdma_hw_wqe - a CQP WQE as the model decoded it
 * @seq: its place among all the WQEs the model took, from 0
 * @idx: its index in the CQP SQ
 * @opcode: IRDMA_HW_OP_*
 * @polarity: the valid bit it was written with
 * @error: the model completed it with an error (injected or its own)
 * @maj: the major error code of its completion
 * @min: the minor one
 * @qword: its eight qwords, CPU-endian, as the model read them
 * @cq: CREATE_CQ / MODIFY_CQ / DESTROY_CQ fields (@cq.resize and
 *	@cq.pbl_size: MODIFY_CQ and CREATE_CQ)
 * @qp: CREATE_QP / MODIFY_QP / DESTROY_QP fields
 * @flush: FLUSH_WQES fields
 * @stag: ALLOC_STAG / DEALLOC_STAG / REG_MR fields (@stag.key, @stag.va,
 *	@stag.pa and @stag.va_based: REG_MR only)
 * @sds: UPDATE_PE_SDS fields: @sds.cnt entries in the WQE, @sds.mem more
 *	in memory (not copied here)
 * @stats: GATHER_STATS fields: where the block goes, and whose counters
 *	(a statistics instance or an HMC function) it asks for
 * @arp: MANAGE_ARP fields: add (@arp.valid) or delete an ARP cache entry
 * @ws: WS_NODE fields: add, modify or delete a work scheduler node
 * @ah: CREATE_AH / DESTROY_AH fields: an address vector, IPs host-endian
 *	(an IPv4 one in @ah.dest_ip[3] and @ah.src_ip[3])
 * @mcg: CREATE_MCG / MODIFY_MCG / DESTROY_MCG fields (@mcg.n and
 *	@mcg.qp: the members the model read from the group context)
 * @push: MANAGE_PUSH_PAGE fields: take a push page for a QS handle
 *	(@push.free clear) or give back page @push.idx
 * @ret: what the completion returns in its CQE (a leaf's QS handle, the
 *	index of the push page taken)
 */
struct irdma_hw_wqe {
	u64 seq;
	u32 idx;
	u8 opcode;
	bool polarity;
	bool error;
	u16 maj;
	u16 min;
	u64 qword[8];
	union {
		struct {
			u32 id;
			u32 size;
			u32 ceq_id;
			bool ceq_id_valid;
			bool check_overflow;
			bool virtual_map;
			bool ceqe_mask;
			bool avoid_mem_cflct;
			u64 ctx;
			u64 ring_pa;
			u64 shadow_pa;
			u32 shadow_threshold;
			bool resize;
			u8 pbl_size;
			u32 first_pble;
		} cq;
		struct {
			u32 id;
			u8 type;
			u8 next_state;
			bool ord_valid;
			bool tcp_ctx_valid;
			bool cached_valid;
			bool virtual_map;
			bool cq_num_valid;
			bool mac_valid;
			bool arp_valid;
			bool reset_conn;
			bool remove_hash;
			bool ignore_mw_bound;
			u8 term_actions;
			u64 ctx_pa;
			u64 shadow_pa;
		} qp;
		struct {
			u32 qp_id;
			bool sq;
			bool rq;
			bool user_code;
			bool gen_ae;
			u16 sq_maj;
			u16 sq_min;
			u16 rq_maj;
			u16 rq_min;
		} flush;
		struct {
			u32 idx;
			u32 pd;
			u64 len;
			bool mr;
			u8 rights;
			u8 pbl_size;
			u8 hpage_size;
			bool remote;
			u32 first_pble;
			u8 hmc_fn;
			u8 key;
			u64 va;
			u64 pa;
			bool va_based;
		} stag;
		struct {
			u32 cnt;
			u32 mem;
			u8 hmc_fn;
			u32 cmd[IRDMA_HW_SDS_IN_WQE];
			u64 data[IRDMA_HW_SDS_IN_WQE];
		} sds;
		struct {
			u64 buf_pa;
			u8 hmc_fn;
			bool use_hmc_fn;
			bool use_inst;
			u8 inst;
		} stats;
		struct {
			u32 idx;
			bool valid;
			bool permanent;
			u8 mac[6];
		} arp;
		struct {
			u8 op;
			u32 id;
			u32 parent;
			u32 vsi;
			u8 tc;
			u8 weight;
			u8 prio_type;
			bool leaf;
			bool enable;
		} ws;
		struct {
			u32 idx;
			u32 pd;
			u8 mac[6];
			u16 vlan_tag;
			bool insert_vlan;
			u8 tc;
			u32 arp_idx;
			u32 flow_label;
			u8 hop_limit;
			bool ipv4;
			bool loopback;
			u32 dest_ip[4];
			u32 src_ip[4];
		} ah;
		struct irdma_hw_mcg {
			u32 idx;
			u8 mac[6];
			u32 ip[4];
			bool ipv4;
			bool vlan_valid;
			u16 vlan_id;
			u16 qs_handle;
			u8 hmc_fn;
			u64 ctx_pa;
			u32 n;
			u32 qp[IRDMA_HW_MCG_QPS];
		} mcg;
		struct {
			u32 idx;
			u16 qs_handle;
			u8 type;
			bool free;
		} push;
	};
	u32 ret;
};

/**
 * struct irdma_hw_sge - a fragment of an SQ WQE
 * @addr: its tagged offset
 * @length: its length
 * @stag: the STag it is under
 */
struct irdma_hw_sge {
	u64 addr;
	u32 length;
	u32 stag;
};

/**
 * struct irdma_hw_sq_wqe - an SQ WQE as the model decoded it
 * @idx: its index in the SQ, in 32-byte quanta
 * @quanta: its length in quanta, from its own fields
 * @opcode: IRDMA_HW_SQ_OP_*
 * @valid: the valid bit it was written with
 * @signaled: it asks for a completion
 * @read_fence: it waits for earlier RDMA READs
 * @local_fence: it waits for all earlier WQEs
 * @rem_stag: RDMA READ / WRITE: the remote STag
 * @rem_to: RDMA READ / WRITE: the remote tagged offset
 * @num_frags: RDMA READ / WRITE / SEND: local fragments, padding left out
 * @frag: the fragments
 * @imm: RDMA WRITE / SEND: it carries immediate data, in @imm_data
 * @imm_data: the immediate data
 * @ah_idx: SEND of a UD QP: the AH it goes to, an index CREATE_AH took
 * @dest_qpn: SEND of a UD QP: the destination QP
 * @qkey: SEND of a UD QP: the Q_Key it carries
 * @inv_stag: LOCAL_INV: the STag it invalidates
 * @fr_va: FAST_REGISTER: the base VA
 * @fr_len: FAST_REGISTER: the region's length
 * @fr_key: FAST_REGISTER: the STag's key, its low 8 bits
 * @fr_index: FAST_REGISTER: the STag's index, its upper 24 bits
 * @fr_rights: FAST_REGISTER: the access rights
 * @fr_va_based: FAST_REGISTER: tagged offsets are VAs
 * @fr_pbl_size: FAST_REGISTER: 0 a single page in @fr_pbl_addr, 1 a
 *	level-1 PBL from @fr_first_pble, 3 a level-2 root at @fr_first_pble
 * @fr_hpage_size: FAST_REGISTER: 0 4 KiB, 1 2 MiB, 2 1 GiB pages
 * @fr_first_pble: FAST_REGISTER: the HMC index of the first PBLE
 * @fr_pbl_addr: FAST_REGISTER: the single page's address
 */
struct irdma_hw_sq_wqe {
	u32 idx;
	u8 quanta;
	u8 opcode;
	bool valid;
	bool signaled;
	bool read_fence;
	bool local_fence;
	u32 rem_stag;
	u64 rem_to;
	u32 num_frags;
	struct irdma_hw_sge frag[IRDMA_HW_SQ_FRAGS];
	bool imm;
	u64 imm_data;
	u32 ah_idx;
	u32 dest_qpn;
	u32 qkey;
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
 * struct irdma_hw_mr - a fast-registered STag, as the model keeps it
 * @key: the key it was registered with
 * @va: its base VA
 * @len: its length
 * @page_size: the size of its pages
 * @npages: the pages it spans
 */
struct irdma_hw_mr {
	u8 key;
	u64 va;
	u64 len;
	u64 page_size;
	u32 npages;
};

/**
 * struct irdma_hw_reg - an STag REG_MR registered, as the model keeps it
 * @key: the key it was registered with
 * @pd: its PD
 * @va: its base VA (VA-based) or its first byte's offset in its page
 * @len: its length; 0 for all of memory
 * @rights: its access rights, IRDMA_ACCESS_FLAGS_* of the hardware
 * @remote: remote access enabled
 * @va_based: tagged offsets are VAs rather than zero-based
 * @pbl_size: 0 when @pa is its one page, else the PBL's level (1 or 3)
 * @first_pble: the PBL's first PBLE (level 1) or root PBLE (level 2)
 * @pa: its page's address, with no PBL
 * @page_size: the size of its pages
 * @npages: the pages it spans, followed through the PBL when registered
 */
struct irdma_hw_reg {
	u8 key;
	u32 pd;
	u64 va;
	u64 len;
	u8 rights;
	bool remote;
	bool va_based;
	u8 pbl_size;
	u32 first_pble;
	u64 pa;
	u64 page_size;
	u32 npages;
};

/**
 * struct irdma_hw_cq - a CQ as the model holds it, for the tests
 * @size: its ring's size in CQEs
 * @ring_pa: the ring's address
 * @shadow_pa: its shadow area's address
 * @ceq_id: the CEQ it reports to
 * @ceq_id_valid: it reports to one
 * @check_overflow: CQEs are not written over unread ones
 * @head: where the model writes its next CQE
 * @polarity: that CQE's valid bit
 * @resizes: MODIFY_CQs that gave it a new ring
 * @arms: CQARM doorbells rung for it
 * @arm_next: the last arm asked for an event on the next CQE
 * @arm_se: ... on the next solicited CQE
 * @arm_seq: the arm sequence number of the last arm
 * @armed: an event is due on the next (solicited) CQE
 * @events: events the model raised on it (CEQEs of a real E810)
 */
struct irdma_hw_cq {
	u32 size;
	u64 ring_pa;
	u64 shadow_pa;
	u32 ceq_id;
	bool ceq_id_valid;
	bool check_overflow;
	u32 head;
	bool polarity;
	u32 resizes;
	u32 arms;
	bool arm_next;
	bool arm_se;
	u8 arm_seq;
	bool armed;
	u32 events;
};

/**
 * struct irdma_hw_qp - a QP as the model holds it, for the tests
 * @type: IRDMA_HW_QPT_*
 * @state: IRDMA_HW_QPS_*, as the last QP command set it
 * @ctx_pa: its host context's address
 * @shadow_pa: its doorbell shadow area's address
 * @sq_pa: from its context: the SQ's address, or with @virtual_map the
 *	PBLE index of its level-1 PBL
 * @rq_pa: the RQ's address, or PBLE index
 * @virtual_map: the rings are virtually mapped (the CQP WQE's VQ bit)
 * @sq_quanta: the SQ's size in 32-byte quanta
 * @rq_quanta: the RQ's size in 32-byte quanta
 * @rq_wqe_shift: an RQ WQE is 32 << @rq_wqe_shift bytes
 * @send_cq: the CQ of its SQ
 * @recv_cq: the CQ of its RQ
 * @pd: its PD
 * @comp_ctx: what its CQEs carry as their QP context
 * @iwarp: the context's iWARP mode bit (iWARP QPs only)
 * @roce: RoCE QPs: their context's RoCE fields (addresses host-endian,
 *	an IPv4 one in word 3), as the last QP command read them
 * @modifies: MODIFY_QPs taken
 * @flushes: FLUSH_WQESs taken
 * @sq_flushed: a flush of the SQ was asked for
 * @rq_flushed: a flush of the RQ was asked for
 * @doorbells: WQEALLOC writes with its ID
 */
struct irdma_hw_qp {
	u8 type;
	u8 state;
	u64 ctx_pa;
	u64 shadow_pa;
	u64 sq_pa;
	u64 rq_pa;
	bool virtual_map;
	u32 sq_quanta;
	u32 rq_quanta;
	u8 rq_wqe_shift;
	u32 send_cq;
	u32 recv_cq;
	u32 pd;
	u64 comp_ctx;
	bool iwarp;
	struct {
		u32 dest_qp;
		u32 qkey;
		u16 pkey;
		u32 snd_mss;
		u32 arp_idx;
		u16 vlan_tag;
		bool insert_vlan;
		bool ipv4;
		u32 dest_ip[4];
		u32 local_ip[4];
		u8 ttl;
		u8 tos;
		u32 flow_label;
		u16 src_port;
		u16 dst_port;
		u32 psn_nxt;
		u32 epsn;
		u8 ord;
		bool rd_ok;
		bool wr_ok;
		u8 rnr_thresh;
		u8 rexmit_thresh;
		u16 qs_handle;
		u8 mac[6];
	} roce;
	u32 modifies;
	u32 flushes;
	bool sq_flushed;
	bool rq_flushed;
	u32 doorbells;
};

/**
 * struct irdma_hw_ws_node - a work scheduler node as the model holds it
 * @parent: its parent's ID (its own for the root)
 * @vsi: the VSI it serves
 * @tc: its traffic class
 * @leaf: a leaf, which QPs name by its QS handle
 * @enable: enabled by the last ADD or MODIFY
 * @qs_handle: the QS handle the ADD of a leaf returned
 */
struct irdma_hw_ws_node {
	u32 parent;
	u32 vsi;
	u8 tc;
	bool leaf;
	bool enable;
	u16 qs_handle;
};

/**
 * struct irdma_hw_rq_wqe - an RQ WQE as the wire engine reads it
 * @valid: its valid bit
 * @num_frags: its fragments, padding left out
 * @frag: the fragments
 */
struct irdma_hw_rq_wqe {
	bool valid;
	u32 num_frags;
	struct irdma_hw_sge frag[IRDMA_HW_SQ_FRAGS];
};

/**
 * struct irdma_hw_cqe - a completion for the model to write into a CQ
 * @qp_id: the QP whose WQE it completes; the CQE carries the completion
 *	context of that QP's host context
 * @sq: of an SQ WQE, else of an RQ WQE
 * @wqe_idx: the WQE's index in its queue, in quanta
 * @op: the CQE's opcode field
 * @bytes: bytes received, for an RQ WQE
 * @error: the WQE failed
 * @maj: the major error code
 * @min: the minor one
 * @solicited: the message asked for a solicited event
 */
struct irdma_hw_cqe {
	u32 qp_id;
	bool sq;
	u32 wqe_idx;
	u8 op;
	u32 bytes;
	bool error;
	u16 maj;
	u16 min;
	bool solicited;
};

/**
 * struct irdma_hw_model_params - what the model is a model of
 * @bar: BAR0 of the function: the registers the driver writes and reads
 * @bar_len: its length
 * @dma_dev: the device the driver maps its DMA memory on
 * @stags: STag indexes, the size of the function's MR object
 * @sds: SD entries of the function's HMC
 * @qps: QP IDs, the size of the function's QP object
 * @cqs: CQ IDs, the size of the function's CQ object
 * @pble_fpm: the FPM address of the function's PBLE object
 * @x722: an X722 (GEN1) function rather than an E810 (GEN2) one
 */
struct irdma_hw_model_params {
	void *bar;
	size_t bar_len;
	struct device *dma_dev;
	u32 stags;
	u32 sds;
	u32 qps;
	u32 cqs;
	u64 pble_fpm;
	bool x722;
};

struct irdma_hw_model *irdma_hw_model_create(struct kunit *test,
					     const struct irdma_hw_model_params *p);
void irdma_hw_model_fail_next(struct irdma_hw_model *hw, u8 opcode, u16 maj,
			      u16 min);
u64 irdma_hw_model_wqes(struct irdma_hw_model *hw);
bool irdma_hw_model_wqe(struct irdma_hw_model *hw, u64 seq,
			struct irdma_hw_wqe *wqe);
u32 irdma_hw_model_op_count(struct irdma_hw_model *hw, u8 opcode);
bool irdma_hw_model_stag(struct irdma_hw_model *hw, u32 idx, u32 *pd);
bool irdma_hw_model_sd(struct irdma_hw_model *hw, u32 idx,
		       struct irdma_hw_sd *sd);
u32 irdma_hw_model_ccq_arms(struct irdma_hw_model *hw);
u32 irdma_hw_model_sq_doorbells(struct irdma_hw_model *hw, u32 qp_id);
bool irdma_hw_model_cqp_up(struct irdma_hw_model *hw);
void irdma_hw_model_add_sq(struct irdma_hw_model *hw, u32 qp_id, u64 sq_pa,
			   u32 quanta, u32 start, u64 shadow_pa);
void irdma_hw_model_read_sq(struct irdma_hw_model *hw, u32 qp_id);
void irdma_hw_model_sq_hold(struct irdma_hw_model *hw, u32 qp_id, bool hold);
bool irdma_hw_model_sq_wqe(struct irdma_hw_model *hw, u32 qp_id, u32 idx,
			   struct irdma_hw_sq_wqe *wqe);
u32 irdma_hw_model_sq_tail(struct irdma_hw_model *hw, u32 qp_id);
bool irdma_hw_model_mr(struct irdma_hw_model *hw, u32 idx,
		       struct irdma_hw_mr *mr);
u64 irdma_hw_model_mr_page(struct irdma_hw_model *hw, u32 idx, u32 n);
bool irdma_hw_model_reg(struct irdma_hw_model *hw, u32 idx,
			struct irdma_hw_reg *reg);
u64 irdma_hw_model_reg_page(struct irdma_hw_model *hw, u32 idx, u32 n);
bool irdma_hw_model_cq(struct irdma_hw_model *hw, u32 cq_id,
		       struct irdma_hw_cq *cq);
bool irdma_hw_model_qp(struct irdma_hw_model *hw, u32 qp_id,
		       struct irdma_hw_qp *qp);
int irdma_hw_model_cq_post(struct irdma_hw_model *hw, u32 cq_id,
			   const struct irdma_hw_cqe *cqe);
bool irdma_hw_model_rq_wqe(struct irdma_hw_model *hw, u32 qp_id, u32 idx,
			   struct irdma_hw_rq_wqe *wqe);
bool irdma_hw_model_arp(struct irdma_hw_model *hw, u32 idx, u8 *mac);
u32 irdma_hw_model_ws_find(struct irdma_hw_model *hw, u16 qs_handle,
			   struct irdma_hw_ws_node *node);
u32 irdma_hw_model_ws_nodes(struct irdma_hw_model *hw);
bool irdma_hw_model_ah(struct irdma_hw_model *hw, u32 idx,
		       struct irdma_hw_wqe *create);
bool irdma_hw_model_mcg(struct irdma_hw_model *hw, u32 idx,
			struct irdma_hw_mcg *mcg);
u32 irdma_hw_model_mcgs(struct irdma_hw_model *hw);
bool irdma_hw_model_push_page(struct irdma_hw_model *hw, u32 idx,
			      u16 *qs_handle);
u32 irdma_hw_model_push_pages(struct irdma_hw_model *hw);

#endif /* IRDMA_HW_MODEL_H */
