/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The firmware model's own header, shared by its files and by nothing
 * else: the register, WQE, CQE and context layouts the model reads with
 * (written from the hardware's formats, not taken from the driver's
 * defs.h), the state of the objects it keeps, and the functions one of
 * its files calls in another.  What the tests see is irdma_hw_model.h.
 */
#ifndef IRDMA_HW_PRIV_H
#define IRDMA_HW_PRIV_H

#include <linux/bits.h>
#include <linux/sizes.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>

#include "irdma_hw_model.h"

#define HW_CQPTAIL_WQTAIL	GENMASK(10, 0)
#define HW_CQPTAIL_OP_ERR	BIT(31)
#define HW_CCQPSTATUS_DONE	BIT(0)
#define HW_CCQPSTATUS_ERR	BIT(31)
#define HW_CQPERR_MAJ		GENMASK(31, 16)
#define HW_CQPERR_MIN		GENMASK(15, 0)

/* CQP host context: qword 0, 1 (SQ address), 3 (completion ctx), 4 */
#define HW_CQPCTX_SQSIZE	GENMASK_ULL(11, 8)
#define HW_CQPCTX_HW_MAJ	GENMASK_ULL(31, 16)
#define HW_CQPCTX_LEN		64
#define HW_CQP_SQSIZE_MIN	1	/* 4 WQEs */
#define HW_CQP_SQSIZE_MAX	10	/* 2048 WQEs, what WQTAIL can hold */

/* A CQP WQE: 64 bytes, its header in qword 3 and written last */
#define HW_CQP_WQE_QWORDS	8
#define HW_WQE_OPCODE		GENMASK_ULL(37, 32)
#define HW_WQE_VALID		BIT_ULL(63)

/* CREATE_CQ / DESTROY_CQ */
#define HW_CQ_SIZE		GENMASK_ULL(20, 0)		/* qword 0 */
#define HW_CQ_CTX		GENMASK_ULL(62, 0)		/* qword 1 */
#define HW_CQ_SHADOW_THRESH	GENMASK_ULL(17, 0)		/* qword 2 */
#define HW_CQ_CHKOVERFLOW	BIT_ULL(46)
#define HW_CQ_VIRTMAP		BIT_ULL(47)
#define HW_CQ_ENCEQEMASK	BIT_ULL(48)
#define HW_CQ_CEQ_ID_VALID	BIT_ULL(49)
#define HW_CQ_AVOIDMEMCNFLCT	BIT_ULL(61)

/* MODIFY_CQ: a new ring (the resize bit), how it is mapped */
#define HW_CQ_RESIZE		BIT_ULL(43)			/* header */
#define HW_CQ_PBL_SIZE		GENMASK_ULL(45, 44)
#define HW_CQ_FIRST_PBLE	GENMASK_ULL(27, 0)		/* qword 6 */

/*
 * CREATE_QP / MODIFY_QP / DESTROY_QP: the QP's host context address in
 * qword 2, its doorbell shadow area in qword 5, the rest in the header.
 */
#define HW_QP_ID		GENMASK_ULL(23, 0)		/* header */
#define HW_QP_ORDVALID		BIT_ULL(42)
#define HW_QP_TOECTXVALID	BIT_ULL(43)
#define HW_QP_CACHEDVALID	BIT_ULL(44)
#define HW_QP_VQ		BIT_ULL(45)
#define HW_QP_CQNUMVALID	BIT_ULL(47)
#define HW_QP_TYPE		GENMASK_ULL(50, 48)
#define HW_QP_MACVALID		BIT_ULL(51)
#define HW_QP_IGNOREMWBOUND	BIT_ULL(54)
#define HW_QP_REMOVEHASH	BIT_ULL(55)
#define HW_QP_TERMACT		GENMASK_ULL(57, 56)
#define HW_QP_RESETCON		BIT_ULL(58)
#define HW_QP_ARPVALID		BIT_ULL(59)
#define HW_QP_NEXTSTATE		GENMASK_ULL(62, 60)

/* FLUSH_WQES: the flush codes in qword 2, what to flush in the header */
#define HW_FLUSH_RQ_MIN		GENMASK_ULL(15, 0)		/* qword 2 */
#define HW_FLUSH_RQ_MAJ		GENMASK_ULL(31, 16)
#define HW_FLUSH_SQ_MIN		GENMASK_ULL(47, 32)
#define HW_FLUSH_SQ_MAJ		GENMASK_ULL(63, 48)
#define HW_FLUSH_GEN_AE		BIT_ULL(59)			/* header */
#define HW_FLUSH_USER_CODE	BIT_ULL(60)
#define HW_FLUSH_SQ		BIT_ULL(61)
#define HW_FLUSH_RQ		BIT_ULL(62)

/*
 * The QP host context, the fields the model reads: qword 0 the RQ WQE
 * size, qwords 1 and 2 the SQ and RQ addresses, qword 3 their sizes
 * (4 << n quanta), qword 7 the PD (its two high bits in qword 0),
 * qword 17 the CQs, qword 20 the iWARP mode bit, qword 21 the completion
 * context every CQE of the QP carries.
 */
#define HW_QPC_LEN		256
#define HW_QPC_RQWQESIZE	GENMASK_ULL(9, 8)		/* qword 0 */
#define HW_QPC_PDIDXHI		GENMASK_ULL(21, 20)
#define HW_QPC_RQSIZE		GENMASK_ULL(11, 8)		/* qword 3 */
#define HW_QPC_SQSIZE		GENMASK_ULL(15, 12)
#define HW_QPC_PDIDX		GENMASK_ULL(63, 48)		/* qword 7 */
#define HW_QPC_TXCQ		GENMASK_ULL(18, 0)		/* qword 17 */
#define HW_QPC_RXCQ		GENMASK_ULL(50, 32)
#define HW_QPC_IWARPMODE	BIT_ULL(28)			/* qword 20 */
#define HW_QPC_WQ_QUANTA_MIN	4
/* The RoCE QP context */
#define HW_QPC_IPV4		BIT_ULL(3)			/* qword 0 */
#define HW_QPC_INSVLAN		BIT_ULL(5)
#define HW_QPC_TTL		GENMASK_ULL(7, 0)		/* qword 3 */
#define HW_QPC_TOS		GENMASK_ULL(31, 24)
#define HW_QPC_SRCPORT		GENMASK_ULL(47, 32)
#define HW_QPC_DSTPORT		GENMASK_ULL(63, 48)
#define HW_QPC_IP_HI		GENMASK_ULL(63, 32)		/* qwords 4, 5 */
#define HW_QPC_IP_LO		GENMASK_ULL(31, 0)
#define HW_QPC_SNDMSS		GENMASK_ULL(29, 16)		/* qword 6 */
#define HW_QPC_VLANTAG		GENMASK_ULL(47, 32)
#define HW_QPC_ARPIDX		GENMASK_ULL(63, 48)
#define HW_QPC_FLOWLABEL	GENMASK_ULL(19, 0)		/* qword 7 */
#define HW_QPC_PKEY		GENMASK_ULL(47, 32)
#define HW_QPC_DESTQP		GENMASK_ULL(23, 0)		/* qword 8 */
#define HW_QPC_QKEY		GENMASK_ULL(63, 32)
#define HW_QPC_PSN		GENMASK_ULL(23, 0)		/* qwords 10, 11 */
#define HW_QPC_REXMIT		GENMASK_ULL(53, 48)		/* qword 16 */
#define HW_QPC_RNRNAK		GENMASK_ULL(56, 54)
#define HW_QPC_MAC		GENMASK_ULL(63, 16)		/* qword 19 */
#define HW_QPC_ORDSIZE		GENMASK_ULL(7, 0)		/* qword 20 */
#define HW_QPC_WRRDRSPOK	BIT_ULL(20)
#define HW_QPC_RDOK		BIT_ULL(21)
#define HW_QPC_QSHANDLE		GENMASK_ULL(25, 16)		/* qword 22 */
/* The RoCE MTUs a QP may send with */
#define HW_ROCE_MSS_MIN		256
#define HW_ROCE_MSS_MAX		4096

/* MANAGE_ARP */
#define HW_ARP_IDX		GENMASK_ULL(11, 0)		/* header */
#define HW_ARP_VALID		BIT_ULL(42)
#define HW_ARP_PERMANENT	BIT_ULL(43)
#define HW_ARP_MAC		GENMASK_ULL(47, 0)		/* qword 2 */

/* MANAGE_PUSH_PAGE */
#define HW_PUSH_QS_HANDLE	GENMASK_ULL(9, 0)		/* qword 2 */
#define HW_PUSH_IDX		GENMASK_ULL(9, 0)		/* header */
#define HW_PUSH_TYPE		GENMASK_ULL(61, 60)
#define HW_PUSH_FREE		BIT_ULL(62)

/* CREATE_MCG / MODIFY_MCG / DESTROY_MCG, and the group context */
#define HW_MCG_MAC		GENMASK_ULL(47, 0)		/* qword 0 */
#define HW_MCG_HMC_FN		GENMASK_ULL(5, 0)		/* qword 1 */
#define HW_MCG_QS_HANDLE	GENMASK_ULL(9, 0)		/* qword 2 */
#define HW_MCG_VLAN_ID		GENMASK_ULL(43, 32)
#define HW_MCG_IDX		GENMASK_ULL(12, 0)		/* header */
#define HW_MCG_VLAN_VALID	BIT_ULL(59)
#define HW_MCG_IPV4		BIT_ULL(60)
#define HW_MCGCTX_QPID		GENMASK_ULL(17, 0)
#define HW_MCGCTX_VALID		BIT_ULL(31)

/* WS_NODE */
#define HW_WS_ID		GENMASK_ULL(9, 0)		/* header */
#define HW_WS_PARENT		GENMASK_ULL(25, 16)
#define HW_WS_NODEOP		GENMASK_ULL(53, 52)
#define HW_WS_TC		GENMASK_ULL(58, 56)
#define HW_WS_PRIOTYPE		GENMASK_ULL(60, 59)
#define HW_WS_LEAF		BIT_ULL(61)
#define HW_WS_ENABLE		BIT_ULL(62)
#define HW_WS_WEIGHT		GENMASK_ULL(38, 32)		/* qword 4 */
#define HW_WS_VSI		GENMASK_ULL(57, 48)

/* CREATE_AH / DESTROY_AH: the address vector */
#define HW_AH_MAC		GENMASK_ULL(63, 16)		/* qword 0 */
#define HW_AH_VLAN		GENMASK_ULL(15, 0)		/* qword 1 */
#define HW_AH_TC		GENMASK_ULL(39, 32)
#define HW_AH_PD_LO		GENMASK_ULL(63, 48)
#define HW_AH_FLOWLABEL		GENMASK_ULL(19, 0)		/* qword 2 */
#define HW_AH_PD_HI		GENMASK_ULL(21, 20)
#define HW_AH_HOPLIMIT		GENMASK_ULL(39, 32)
#define HW_AH_ARPIDX		GENMASK_ULL(63, 48)
#define HW_AH_IDX		GENMASK_ULL(16, 0)		/* header */
#define HW_AH_IPV4		BIT_ULL(59)
#define HW_AH_INSVLAN		BIT_ULL(60)
#define HW_AH_LOOPBACK		BIT_ULL(62)

/* ALLOC_STAG / DEALLOC_STAG */
#define HW_STAG_LEN		GENMASK_ULL(45, 0)		/* qword 1 */
#define HW_STAG_IDX		GENMASK_ULL(31, 8)		/* qword 2 */
#define HW_STAG_HMC_FN		GENMASK_ULL(5, 0)		/* qword 5 */
#define HW_STAG_FIRST_PBLE	GENMASK_ULL(27, 0)		/* qword 6 */
#define HW_STAG_MR		BIT_ULL(43)			/* header */
#define HW_STAG_PBL_SIZE	GENMASK_ULL(45, 44)
#define HW_STAG_HPAGE_SIZE	GENMASK_ULL(47, 46)
#define HW_STAG_RIGHTS		GENMASK_ULL(52, 48)
#define HW_STAG_REMOTE		BIT_ULL(53)
/* REG_MR adds to those: */
#define HW_REG_KEY		GENMASK_ULL(7, 0)		/* qword 2 */
#define HW_REG_VA_BASED		BIT_ULL(59)			/* header */

/*
 * UPDATE_PE_SDS: entry 0 in qwords 0-1, entries 1 and 2 in qwords 4-5 and
 * 6-7 when their valid bit is set, more in memory at the address in
 * qword 2 (16 bytes each, command then data; the header counts them).
 */
#define HW_SDS_CMD		GENMASK_ULL(31, 0)
#define HW_SDS_ENTRY_VALID	BIT_ULL(63)
#define HW_SDS_HMC_FN		GENMASK_ULL(5, 0)
#define HW_SDS_MEM_ADDR		GENMASK_ULL(63, 6)
#define HW_SDS_MEM_COUNT	GENMASK_ULL(3, 0)		/* header */
#define HW_SDS_MEM_MAX		8
#define HW_SD_CMD_IDX		GENMASK(11, 0)
#define HW_SD_CMD_WRITE		BIT(31)

/*
 * GATHER_STATS: the block's address in qword 4, the HMC function in
 * qword 5; the header picks an instance or that function.
 */
#define HW_STATS_HMC_FN		GENMASK_ULL(5, 0)		/* qword 5 */
#define HW_STATS_INST		GENMASK_ULL(6, 0)		/* header */
#define HW_STATS_USE_HMC_FN	BIT_ULL(60)
#define HW_STATS_USE_INST	BIT_ULL(61)

/*
 * An SQ WQE: 1 to 8 quanta of 32 bytes, its header in qword 3.  Fragment
 * slots are 16 bytes: the first in qwords 0-1, the others from byte 32
 * on; immediate data takes qword 0 and moves every fragment to byte 32.
 */
#define HW_SQ_QUANTUM		32
#define HW_SQ_REMSTAG		GENMASK_ULL(31, 0)		/* header */
#define HW_SQ_ADDFRAGCNT	GENMASK_ULL(41, 38)
#define HW_SQ_IMMDATA		BIT_ULL(47)
#define HW_SQ_INLINE_LEN	GENMASK_ULL(55, 48)
#define HW_SQ_INLINE		BIT_ULL(57)
#define HW_SQ_READFENCE		BIT_ULL(60)
#define HW_SQ_LOCALFENCE	BIT_ULL(61)
#define HW_SQ_SIGCOMPL		BIT_ULL(62)
/* A UD QP's SEND: its AH in the header, the destination in qword 2 */
#define HW_SQ_AH_IDX		GENMASK_ULL(16, 0)		/* header */
#define HW_SQ_QKEY		GENMASK_ULL(31, 0)		/* qword 2 */
#define HW_SQ_DEST_QPN		GENMASK_ULL(55, 32)

/* FAST_REGISTER */
#define HW_FR_PBLE_HI		GENMASK_ULL(11, 0)		/* qword 1 */
#define HW_FR_PBL_ADDR		GENMASK_ULL(63, 12)
#define HW_FR_LEN		GENMASK_ULL(40, 0)		/* qword 2 */
#define HW_FR_PBLE_LO		GENMASK_ULL(63, 48)
#define HW_FR_KEY		GENMASK_ULL(7, 0)		/* header */
#define HW_FR_IDX		GENMASK_ULL(31, 8)
#define HW_FR_PBL_SIZE		GENMASK_ULL(45, 44)
#define HW_FR_HPAGE_SIZE	GENMASK_ULL(47, 46)
#define HW_FR_RIGHTS		GENMASK_ULL(52, 48)
#define HW_FR_VA_BASED		BIT_ULL(53)
#define HW_FR_PBLE_LO_BITS	16
#define HW_PBL_SINGLE		0
#define HW_PBL_LEVEL1		1
#define HW_PBL_LEVEL2		3

/*
 * SD entry data: a DIRECT SD is 2 MiB of backing memory at its address; a
 * paged one points to a page of 512 PD entries, each the address of a
 * 4-KiB backing page with bit 0 set.
 */
#define HW_SD_VALID		BIT_ULL(0)
#define HW_SD_DIRECT		BIT_ULL(1)
#define HW_SD_ADDR		GENMASK_ULL(63, 12)
#define HW_PD_VALID		BIT_ULL(0)
#define HW_PD_ADDR		GENMASK_ULL(63, 12)
#define HW_SD_SPAN		SZ_2M
#define HW_PD_SPAN		SZ_4K
#define HW_PBLES_PER_LEAF	512

/*
 * A CQE: 32 bytes, its valid bit in qword 3 and written last.  A CCQ CQE
 * carries the CQP's completion context in qword 1 and the WQE's return
 * value in qword 2; a QP's, the bytes received in qword 0, the QP's
 * completion context in qword 1 and its ID in qword 2.
 */
#define HW_CQE_QWORDS		4
#define HW_CQE_RET		GENMASK_ULL(31, 0)		/* qword 2 */
#define HW_CQE_PAYLOAD		GENMASK_ULL(31, 0)		/* qword 0 */
#define HW_CQE_QPID		GENMASK_ULL(55, 32)		/* qword 2 */
#define HW_CQE_SOLICITED	BIT_ULL(54)			/* qword 3 */
#define HW_CQE_OP		GENMASK_ULL(61, 56)
#define HW_CQE_SQ		BIT_ULL(62)
#define HW_CQE_MIN		GENMASK_ULL(15, 0)		/* qword 3 */
#define HW_CQE_MAJ		GENMASK_ULL(31, 16)
#define HW_CQE_WQE_IDX		GENMASK_ULL(46, 32)
#define HW_CQE_ERROR		BIT_ULL(55)
#define HW_CQE_VALID		BIT_ULL(63)

/*
 * A CQ's shadow area: qword 0 the consumer's head, qword 4 its arm
 * request: arm for the next CQE, for the next solicited one, and a
 * sequence number the consumer counts its arms with.
 */
#define HW_SHADOW_LEN		64
#define HW_SHADOW_ARM_NEXT	BIT_ULL(14)
#define HW_SHADOW_ARM_NEXT_SE	BIT_ULL(15)
#define HW_SHADOW_ARM_SEQ	GENMASK_ULL(17, 16)

/*
 * A QP's doorbell shadow area, 64 bytes at the address CREATE_QP gives
 * in its qword 5: the hardware writes its SQ tail, the next quantum it
 * takes, into qword 0, where the driver reads it before ringing WQEALLOC.
 */
#define HW_QP_SHADOW_LEN	64
#define HW_QP_SHADOW_SQ_TAIL	GENMASK_ULL(14, 0)		/* qword 0 */

/*
 * An STag's index field is its upper 24 bits; the MR object it names is in
 * the low ones, at least 14 of them, and the driver keeps the rest for a
 * key of its own (the stag mask of irdma_initialize_hw_rsrc()).  The model
 * holds the whole field and wants it back on DEALLOC_STAG.
 */
#define HW_STAG_OBJ_BITS_MIN	14

/* A CQ other than the CCQ: what the tests read, and where it lives */
struct irdma_hw_cq_state {
	bool used;
	struct irdma_hw_cq cq;
	__le64 *ring;
	__le64 *shadow;
};

/* A multicast group CREATE_MCG made, with its members */
struct irdma_hw_mcg_state {
	bool used;
	struct irdma_hw_mcg mcg;
};

/* An address vector CREATE_AH made */
struct irdma_hw_ah_state {
	bool used;
	struct irdma_hw_wqe create;
};

/* A work scheduler node WS_NODE added */
struct irdma_hw_ws_state {
	bool used;
	struct irdma_hw_ws_node node;
};

/* An ARP cache entry MANAGE_ARP added */
struct irdma_hw_arp_state {
	bool valid;
	u8 mac[6];
};

/* A push page MANAGE_PUSH_PAGE took, and the QS handle it took it for */
struct irdma_hw_push_state {
	bool used;
	u16 qs_handle;
};

/* A QP created by CREATE_QP */
struct irdma_hw_qp_state {
	bool used;
	struct irdma_hw_qp qp;
};

struct irdma_hw_stag {
	bool used;
	u32 idx;
	u32 pd;
	bool registered;
	struct irdma_hw_mr mr;
	bool reg_mr;
	struct irdma_hw_reg reg;
	u64 *pages;
};

/*
 * A QP's SQ as the model consumes it: where the mock set it up, the next
 * quantum the model takes and the valid bit of this pass of the ring, and
 * the log of decoded WQEs, by the quantum each starts at: the last WQE
 * taken there.  A WQE has at least one quantum, so a whole pass fits.
 * The SQ of a UD QP carries each SEND's destination in the WQE.
 * The model writes its tail into the QP's doorbell shadow area whenever
 * it has taken WQEs.  While the SQ is held, doorbells are counted and no
 * WQE is taken, as when the hardware is busy elsewhere.
 */
struct irdma_hw_sq {
	__le64 *ring;
	__le64 *shadow;
	u32 quanta;
	u32 tail;
	bool polarity;
	bool held;
	bool ud;
	struct irdma_hw_sq_wqe *log;
};

/**
 * struct irdma_hw_gen - what differs between the generations the model plays
 * @cqptail: BAR0 offset of CQPTAIL
 * @cqpdb: of CQPDB
 * @ccqpstatus: of CCQPSTATUS
 * @ccqphigh: of CCQPHIGH
 * @ccqplow: of CCQPLOW
 * @cqarm: of CQARM
 * @cqperrcodes: of CQPERRCODES
 * @wqealloc: of WQEALLOC
 * @cqp_hw_maj: the hardware major version a CQP host context must name
 * @cq_id: the CQ ID field of a CQ command's header
 * @cq_ceq_id: its CEQ ID field
 * @stag_pd: the PD ID field of ALLOC_STAG's qword 1
 * @frag_len: the length field of an SQ or RQ fragment's second qword
 * @frag_stag: its STag field
 * @inline_first: inline bytes in the first quantum of an SQ WQE
 * @inline_more: inline bytes in each later quantum
 * @sq_quanta_max: quanta of the longest SQ WQE
 */
struct irdma_hw_gen {
	u32 cqptail;
	u32 cqpdb;
	u32 ccqpstatus;
	u32 ccqphigh;
	u32 ccqplow;
	u32 cqarm;
	u32 cqperrcodes;
	u32 wqealloc;
	u8 cqp_hw_maj;
	u64 cq_id;
	u64 cq_ceq_id;
	u64 stag_pd;
	u64 frag_len;
	u64 frag_stag;
	u32 inline_first;
	u32 inline_more;
	u32 sq_quanta_max;
};

/**
 * struct irdma_hw_model - the firmware of one function
 * @node: in irdma_hw_models
 * @test: the test the model belongs to
 * @bar: the function's BAR0
 * @bar_len: its length
 * @dma_dev: the device the driver's DMA addresses are for
 * @gen: the generation's registers and field layouts
 * @cqp_up: the CQP has a host context
 * @sq: the CQP SQ
 * @sq_size: its size in WQEs
 * @sq_tail: the next WQE the model takes
 * @sq_polarity: the valid bit of WQEs in the current pass of the ring
 * @cqp_ctx: what every CCQ CQE echoes in qword 1
 * @ccq_up: the CCQ exists
 * @ccq: its ring
 * @ccq_shadow: its shadow area
 * @ccq_size: its size in CQEs
 * @ccq_head: where the model writes the next CQE
 * @ccq_polarity: the valid bit of CQEs in the current pass of the ring
 * @ccq_check_overflow: the CCQ was created asking for overflow checks
 * @ccq_arms: arm requests of the CCQ for its next completion
 * @sq_dbs: SQ doorbells (WQEALLOC writes), by QP ID
 * @qp_sqs: the SQs the model knows, by QP ID
 * @nqps: QP IDs the function has
 * @qps: the QPs CREATE_QP made, by QP ID
 * @cqs: the CQs CREATE_CQ made, by CQ ID; CQ 0 is the CCQ, kept apart
 * @ncqs: CQ IDs the function has
 * @stags: the STag table, by MR object
 * @nstags: its size
 * @stag_obj: the bits of an STag's index field that name its MR object
 * @sds: the SD table, by index
 * @nsds: its size
 * @pble_fpm: the FPM address of the PBLE object
 * @arps: the ARP cache, by index
 * @ws: the work scheduler tree, by node ID
 * @next_qs: the QS handle the next leaf gets
 * @ahs: the address vectors, by AH index
 * @mcgs: the multicast groups, by group index
 * @push: the push pages, by index
 * @npush: how many the function has
 * @fail_armed: the next WQE of @fail_opcode fails
 * @fail_opcode: its opcode
 * @fail_maj: the major error code it fails with
 * @fail_min: the minor one
 * @wqes: the WQEs the model took
 * @op_count: of them, per opcode
 * @log: the last %IRDMA_HW_LOG_LEN of them, by sequence number
 * @fault: the first thing the model could not do, or NULL
 */
struct irdma_hw_model {
	struct list_head node;
	struct kunit *test;
	u8 __iomem *bar;
	size_t bar_len;
	struct device *dma_dev;
	const struct irdma_hw_gen *gen;

	bool cqp_up;
	__le64 *sq;
	u32 sq_size;
	u32 sq_tail;
	bool sq_polarity;
	u64 cqp_ctx;

	bool ccq_up;
	__le64 *ccq;
	__le64 *ccq_shadow;
	u32 ccq_size;
	u32 ccq_head;
	bool ccq_polarity;
	bool ccq_check_overflow;
	u32 ccq_arms;

	u32 *sq_dbs;
	struct irdma_hw_sq **qp_sqs;
	u32 nqps;
	struct irdma_hw_qp_state *qps;
	struct irdma_hw_cq_state *cqs;
	u32 ncqs;

	struct irdma_hw_stag *stags;
	u32 nstags;
	u32 stag_obj;
	struct irdma_hw_sd *sds;
	u32 nsds;
	u64 pble_fpm;

	struct irdma_hw_arp_state *arps;
	struct irdma_hw_ws_state *ws;
	u16 next_qs;
	struct irdma_hw_ah_state *ahs;
	struct irdma_hw_mcg_state *mcgs;
	struct irdma_hw_push_state *push;
	u32 npush;

	bool fail_armed;
	u8 fail_opcode;
	u16 fail_maj;
	u16 fail_min;

	u64 wqes;
	u32 op_count[IRDMA_HW_OP_MAX];
	struct irdma_hw_wqe log[IRDMA_HW_LOG_LEN];
	const char *fault;
};

/* irdma_hw_model.c */
u64 irdma_hw_field(u64 v, u64 mask);
extern spinlock_t irdma_hw_lock;
void irdma_hw_fault(struct irdma_hw_model *hw, const char *why);
void *irdma_hw_dma(struct irdma_hw_model *hw, u64 addr, size_t len);
u64 irdma_hw_q(const __le64 *p, u32 i);
void irdma_hw_refuse(struct irdma_hw_wqe *w, u16 min);

/* irdma_hw_cq.c */
void irdma_hw_decode_cq(const struct irdma_hw_gen *gen,
			struct irdma_hw_wqe *w);
void irdma_hw_create_cq(struct irdma_hw_model *hw,
			struct irdma_hw_wqe *w);
void irdma_hw_modify_cq(struct irdma_hw_model *hw,
			struct irdma_hw_wqe *w);
void irdma_hw_destroy_cq(struct irdma_hw_model *hw,
			 struct irdma_hw_wqe *w);
void irdma_hw_cq_arm(struct irdma_hw_model *hw, u32 cq_id);

/* irdma_hw_qp.c */
void irdma_hw_decode_qp(struct irdma_hw_wqe *w);
void irdma_hw_decode_flush(struct irdma_hw_wqe *w);
bool irdma_hw_cq_exists(struct irdma_hw_model *hw, u32 id);
void irdma_hw_mac(u64 v, u8 *mac);
void irdma_hw_create_qp(struct irdma_hw_model *hw,
			struct irdma_hw_wqe *w);
/* Not irdma_hw_modify_qp() and irdma_hw_flush_wqes(): the driver's */
void irdma_hw_do_modify_qp(struct irdma_hw_model *hw,
			   struct irdma_hw_wqe *w);
void irdma_hw_destroy_qp(struct irdma_hw_model *hw,
			 struct irdma_hw_wqe *w);
void irdma_hw_do_flush_wqes(struct irdma_hw_model *hw,
			    struct irdma_hw_wqe *w);

/* irdma_hw_sq.c */
u32 irdma_hw_sq_frags(const struct irdma_hw_gen *gen,
		      const __le64 *q, u64 hdr,
		      struct irdma_hw_sq_wqe *w);
void irdma_hw_sq_doorbell(struct irdma_hw_model *hw, u32 qp_id);

/* irdma_hw_mr.c */
void irdma_hw_decode_stag(const struct irdma_hw_gen *gen,
			  struct irdma_hw_wqe *w);
void irdma_hw_decode_reg(const struct irdma_hw_gen *gen,
			 struct irdma_hw_wqe *w);
void irdma_hw_alloc_stag(struct irdma_hw_model *hw,
			 struct irdma_hw_wqe *w);
void irdma_hw_dealloc_stag(struct irdma_hw_model *hw,
			   struct irdma_hw_wqe *w);
void irdma_hw_reg_mr(struct irdma_hw_model *hw, struct irdma_hw_wqe *w);
void irdma_hw_fast_register(struct irdma_hw_model *hw,
			    const struct irdma_hw_sq_wqe *w);
void irdma_hw_local_inv(struct irdma_hw_model *hw, u32 stag);

/* irdma_hw_hmc.c */
void irdma_hw_decode_sds(struct irdma_hw_wqe *w);
void irdma_hw_update_sds(struct irdma_hw_model *hw,
			 struct irdma_hw_wqe *w);
void irdma_hw_decode_stats(struct irdma_hw_wqe *w);
void irdma_hw_gather_stats(struct irdma_hw_model *hw,
			   struct irdma_hw_wqe *w);
u64 irdma_hw_pble(struct irdma_hw_model *hw, u64 idx);
u64 irdma_hw_pbl_page(struct irdma_hw_model *hw, u8 lvl, u32 first,
		      u32 n);

/* irdma_hw_net.c */
void irdma_hw_decode_arp(struct irdma_hw_wqe *w);
void irdma_hw_manage_arp(struct irdma_hw_model *hw,
			 struct irdma_hw_wqe *w);
void irdma_hw_decode_ws(struct irdma_hw_wqe *w);
void irdma_hw_ws_node(struct irdma_hw_model *hw,
		      struct irdma_hw_wqe *w);
void irdma_hw_decode_ah(struct irdma_hw_wqe *w);
void irdma_hw_create_ah(struct irdma_hw_model *hw,
			struct irdma_hw_wqe *w);
void irdma_hw_destroy_ah(struct irdma_hw_model *hw,
			 struct irdma_hw_wqe *w);
void irdma_hw_decode_mcg(struct irdma_hw_wqe *w);
void irdma_hw_mcg(struct irdma_hw_model *hw, struct irdma_hw_wqe *w);
void irdma_hw_decode_push(struct irdma_hw_wqe *w);
void irdma_hw_manage_push_page(struct irdma_hw_model *hw,
			       struct irdma_hw_wqe *w);

#endif /* IRDMA_HW_PRIV_H */
