// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A software model of the E810's RDMA firmware, for KUnit.
 *
 * The model answers the control QP (CQP) where the hardware does: the
 * driver writes BAR0 registers and DMA memory, and irdma_kunit_db()
 * (osdep.h) calls the model right after each doorbell, in the driver's
 * own context, before the driver polls for the answer:
 *
 *  - CCQPLOW with the CQP host context's address: the model reads the
 *    context (SQ size and address, the completion context every CCQ CQE
 *    must echo) and reports the CQP up in CCQPSTATUS; with 0, down;
 *  - CQPDB with the new SQ head: the model takes the WQEs from its own
 *    tail to that head, each only if its valid bit says the current pass
 *    of the ring, decodes and executes it, writes one CQE per WQE into the
 *    control CQ (CCQ) once there is one, and moves CQPTAIL;
 *  - CQARM with a CQ's ID: the model reads the arm request in the CQ's
 *    shadow area and raises one event (a CEQE on a real E810, counted
 *    here) on the next CQE it writes there, or the next solicited one;
 *    for a CQ it has not created, it faults;
 *  - WQEALLOC with the ID of a QP that CREATE_QP made: the model counts
 *    the doorbell, and takes the SQ's WQEs as below once the QP is in RTS
 *    and a test has asked the model to read that SQ
 *    (irdma_hw_model_read_sq(): a RoCE QP that ULPs post to); an iWARP QP
 *    never reaches RTS without a connection;
 *  - WQEALLOC with the ID of a QP the mock gave it an SQ of, in RTS
 *    (irdma_hw_model_add_sq()): the model counts the QP's SQ doorbells and
 *    takes the SQ WQEs from its own tail on while their valid bit says the
 *    current pass of the ring, decodes each into the QP's log, registers
 *    FAST_REGISTER STags (following their PBLs through the SD table to
 *    the pages) and invalidates LOCAL_INV ones, then writes its SQ tail
 *    into the QP's doorbell shadow area, where the driver reads it to
 *    decide whether the next WQEs need a doorbell.  A test can hold the
 *    SQ, as if the hardware were busy: doorbells are counted, the WQEs
 *    are taken when it lets go, doorbell or not.
 *
 * Every field is read with this file's own layouts, written from the
 * hardware's WQE, CQE and register formats rather than taken from the
 * driver's defs.h, so that a wrong encoding in the driver shows as a wrong
 * decoded value.  Executed so far: CREATE_CQ, MODIFY_CQ (a resize) and
 * DESTROY_CQ, of the CCQ and of the verbs' CQs; CREATE_QP, MODIFY_QP,
 * DESTROY_QP and FLUSH_WQES of iWARP and RoCE (RC, UD) QPs, each QP's
 * host context read where the command points, with RoCE's layout for a
 * RoCE QP; MANAGE_ARP (the ARP cache), WS_NODE (the work scheduler tree,
 * a leaf's QS handle returned in the CQE), CREATE_AH and DESTROY_AH,
 * MANAGE_PUSH_PAGE (a push page taken, its index returned in the CQE, or
 * given back);
 * ALLOC_STAG (MRs and MWs), REG_MR (an STag and its region at once, the
 * PBL followed when it runs), DEALLOC_STAG, UPDATE_PE_SDS and GATHER_STATS
 * (all counters zero: the model moves no packets).  Each keeps its
 * objects' state, and a command the hardware would refuse (a QP or CQ ID
 * in use, one that does not exist, a state
 * the QP cannot move to) completes with an error of the model's own
 * kind (IRDMA_HW_MAJ_MODEL) that the driver sees as any CQP error.  A
 * test writes a QP's completions into its CQ with
 * irdma_hw_model_cq_post(), as the hardware writes them.  Anything else
 * completes with an error of the model's own (IRDMA_HW_MAJ_MODEL) and is a
 * fault of the model, which the test fails on.
 *
 * The doorbell hook runs in atomic context, under the driver's spinlocks:
 * the model never sleeps and never calls into the driver.  Its DMA
 * addresses become CPU pointers through the linear map, which holds on
 * x86_64 with dma-direct and no IOMMU; irdma_hw_model_create() checks it.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/rculist.h>
#include <linux/sizes.h>
#include <linux/slab.h>

#include "irdma_hw_model.h"
#include "../osdep.h"

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

/*
 * An E810 PF (GEN2): its register map; fragments carry their valid bit in
 * bit 63, the length below it and the STag in the low half; inline data
 * takes 8 bytes of the first quantum and 31 of each later one.
 */
static const struct irdma_hw_gen irdma_hw_e810 = {
	.cqptail = 0x500880,
	.cqpdb = 0x500800,
	.ccqpstatus = 0x50a000,
	.ccqphigh = 0x50a100,
	.ccqplow = 0x50a080,
	.cqarm = 0x502c00,
	.cqperrcodes = 0x50a200,
	.wqealloc = 0x504400,
	.cqp_hw_maj = 1,
	.cq_id = GENMASK_ULL(18, 0),
	.cq_ceq_id = GENMASK_ULL(31, 22),
	.stag_pd = GENMASK_ULL(63, 46),
	.frag_len = GENMASK_ULL(62, 32),
	.frag_stag = GENMASK_ULL(31, 0),
	.inline_first = 8,
	.inline_more = 31,
	.sq_quanta_max = 8,
};

/*
 * An X722 PF (GEN1): the i40e register map; 16-bit CQ IDs, 7-bit CEQ IDs
 * and 15-bit PD IDs; a fragment has no valid bit, its length is the low
 * half and its STag the high one; inline data takes 16 bytes of the
 * first quantum and 32 of the second; no WQE is longer than 2 quanta.
 */
static const struct irdma_hw_gen irdma_hw_x722 = {
	.cqptail = 0x008080,
	.cqpdb = 0x008000,
	.ccqpstatus = 0x008100,
	.ccqphigh = 0x008200,
	.ccqplow = 0x008180,
	.cqarm = 0x131080,
	.cqperrcodes = 0x008880,
	.wqealloc = 0x138c00,
	.cqp_hw_maj = 0,
	.cq_id = GENMASK_ULL(15, 0),
	.cq_ceq_id = GENMASK_ULL(30, 24),
	.stag_pd = GENMASK_ULL(62, 48),
	.frag_len = GENMASK_ULL(31, 0),
	.frag_stag = GENMASK_ULL(63, 32),
	.inline_first = 16,
	.inline_more = 32,
	.sq_quanta_max = 2,
};

/* A field of @v under a mask known only at run time */
static u64 irdma_hw_field(u64 v, u64 mask)
{
	return (v & mask) >> __ffs64(mask);
}

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

/*
 * The live models, found by BAR address.  The lock also guards every
 * model's state: the hook, which runs with interrupts off, holds it while
 * the model works, and the tests' accessors take it to read.
 */
static LIST_HEAD(irdma_hw_models);
static DEFINE_SPINLOCK(irdma_hw_lock);

static void irdma_hw_fault(struct irdma_hw_model *hw, const char *why)
{
	if (hw->fault)
		return;
	hw->fault = why;
	pr_err("irdma_hw_model: %s\n", why);
}

static u32 irdma_hw_rd(struct irdma_hw_model *hw, u32 reg)
{
	return readl(hw->bar + reg);
}

static void irdma_hw_wr(struct irdma_hw_model *hw, u32 reg, u32 val)
{
	writel(val, hw->bar + reg);
}

/* The CPU's view of @len bytes at DMA address @addr, or NULL */
static void *irdma_hw_dma(struct irdma_hw_model *hw, u64 addr, size_t len)
{
	phys_addr_t phys = dma_to_phys(hw->dma_dev, addr);

	if (!addr || !pfn_valid(PHYS_PFN(phys)) ||
	    !pfn_valid(PHYS_PFN(phys + len - 1))) {
		irdma_hw_fault(hw, "a DMA address outside memory");
		return NULL;
	}
	return phys_to_virt(phys);
}

static u64 irdma_hw_q(const __le64 *p, u32 i)
{
	return le64_to_cpu(READ_ONCE(p[i]));
}

/* CCQPLOW written: the CQP's host context is at CCQPHIGH:CCQPLOW, or gone */
static void irdma_hw_cqp_ctx(struct irdma_hw_model *hw, u32 low)
{
	u64 pa = (u64)irdma_hw_rd(hw, hw->gen->ccqphigh) << 32 | low;
	__le64 *ctx;
	u32 enc;

	hw->cqp_up = false;
	hw->ccq_up = false;
	irdma_hw_wr(hw, hw->gen->ccqpstatus, 0);
	if (!pa)
		return;

	ctx = irdma_hw_dma(hw, pa, HW_CQPCTX_LEN);
	if (!ctx)
		goto refuse;
	enc = FIELD_GET(HW_CQPCTX_SQSIZE, irdma_hw_q(ctx, 0));
	if (enc < HW_CQP_SQSIZE_MIN || enc > HW_CQP_SQSIZE_MAX ||
	    FIELD_GET(HW_CQPCTX_HW_MAJ, irdma_hw_q(ctx, 4)) !=
	    hw->gen->cqp_hw_maj) {
		irdma_hw_fault(hw, "a CQP host context the hardware refuses");
		goto refuse;
	}
	hw->sq_size = 2U << enc;
	hw->sq = irdma_hw_dma(hw, irdma_hw_q(ctx, 1),
			      hw->sq_size * HW_CQP_WQE_QWORDS * sizeof(u64));
	if (!hw->sq)
		goto refuse;
	hw->cqp_ctx = irdma_hw_q(ctx, 3);
	hw->sq_tail = 0;
	hw->sq_polarity = true;
	hw->cqp_up = true;
	irdma_hw_wr(hw, hw->gen->cqptail, 0);
	irdma_hw_wr(hw, hw->gen->ccqpstatus, HW_CCQPSTATUS_DONE);
	return;

refuse:
	irdma_hw_wr(hw, hw->gen->ccqpstatus, HW_CCQPSTATUS_ERR);
}

static void irdma_hw_refuse(struct irdma_hw_wqe *w, u16 min)
{
	w->error = true;
	w->maj = IRDMA_HW_MAJ_MODEL;
	w->min = min;
}

static void irdma_hw_decode_cq(const struct irdma_hw_gen *gen,
			       struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3];

	w->cq.id = irdma_hw_field(hdr, gen->cq_id);
	w->cq.ceq_id = irdma_hw_field(hdr, gen->cq_ceq_id);
	w->cq.check_overflow = FIELD_GET(HW_CQ_CHKOVERFLOW, hdr);
	w->cq.virtual_map = FIELD_GET(HW_CQ_VIRTMAP, hdr);
	w->cq.ceqe_mask = FIELD_GET(HW_CQ_ENCEQEMASK, hdr);
	w->cq.ceq_id_valid = FIELD_GET(HW_CQ_CEQ_ID_VALID, hdr);
	w->cq.avoid_mem_cflct = FIELD_GET(HW_CQ_AVOIDMEMCNFLCT, hdr);
	w->cq.size = FIELD_GET(HW_CQ_SIZE, w->qword[0]);
	w->cq.ctx = FIELD_GET(HW_CQ_CTX, w->qword[1]);
	w->cq.shadow_threshold = FIELD_GET(HW_CQ_SHADOW_THRESH, w->qword[2]);
	w->cq.ring_pa = w->qword[4];
	w->cq.shadow_pa = w->qword[5];
	w->cq.resize = FIELD_GET(HW_CQ_RESIZE, hdr);
	w->cq.pbl_size = FIELD_GET(HW_CQ_PBL_SIZE, hdr);
	w->cq.first_pble = FIELD_GET(HW_CQ_FIRST_PBLE, w->qword[6]);
}

/* The CCQ: CQ 0, a ring of 32-byte CQEs in one piece */
static void irdma_hw_create_ccq(struct irdma_hw_model *hw,
				struct irdma_hw_wqe *w)
{
	if (w->cq.virtual_map || w->cq.avoid_mem_cflct || w->cq.size < 2) {
		irdma_hw_fault(hw, "a CQ the model does not implement");
		irdma_hw_refuse(w, IRDMA_HW_MIN_OPCODE);
		return;
	}
	hw->ccq = irdma_hw_dma(hw, w->cq.ring_pa,
			       w->cq.size * HW_CQE_QWORDS * sizeof(u64));
	hw->ccq_shadow = irdma_hw_dma(hw, w->cq.shadow_pa, HW_SHADOW_LEN);
	if (!hw->ccq || !hw->ccq_shadow) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
		return;
	}
	hw->ccq_size = w->cq.size;
	hw->ccq_head = 0;
	hw->ccq_polarity = true;
	hw->ccq_check_overflow = w->cq.check_overflow;
	hw->ccq_up = true;
}

/* A CQ's slot, or NULL (and the WQE refused) for the CCQ's or one past them */
static struct irdma_hw_cq_state *irdma_hw_cq_slot(struct irdma_hw_model *hw,
						  struct irdma_hw_wqe *w)
{
	if (!w->cq.id || w->cq.id >= hw->ncqs) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return NULL;
	}
	return &hw->cqs[w->cq.id];
}

/* A ring in one piece: the model maps no PBL for a CQ */
static bool irdma_hw_cq_map(struct irdma_hw_model *hw, struct irdma_hw_wqe *w,
			    struct irdma_hw_cq_state *c)
{
	__le64 *ring, *shadow;

	if (w->cq.virtual_map || w->cq.avoid_mem_cflct || w->cq.size < 2) {
		irdma_hw_fault(hw, "a CQ the model does not implement");
		irdma_hw_refuse(w, IRDMA_HW_MIN_OPCODE);
		return false;
	}
	ring = irdma_hw_dma(hw, w->cq.ring_pa,
			    (size_t)w->cq.size * HW_CQE_QWORDS * sizeof(u64));
	shadow = irdma_hw_dma(hw, w->cq.shadow_pa, HW_SHADOW_LEN);
	if (!ring || !shadow) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
		return false;
	}
	c->ring = ring;
	c->shadow = shadow;
	c->cq.size = w->cq.size;
	c->cq.ring_pa = w->cq.ring_pa;
	c->cq.shadow_pa = w->cq.shadow_pa;
	/* A new ring is written from its start, valid bit 1 */
	c->cq.head = 0;
	c->cq.polarity = true;
	return true;
}

static void irdma_hw_create_cq(struct irdma_hw_model *hw,
			       struct irdma_hw_wqe *w)
{
	struct irdma_hw_cq_state *c;

	if (!w->cq.id) {
		irdma_hw_create_ccq(hw, w);
		return;
	}
	c = irdma_hw_cq_slot(hw, w);
	if (!c)
		return;
	if (c->used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_EXISTS);
		return;
	}
	memset(c, 0, sizeof(*c));
	if (!irdma_hw_cq_map(hw, w, c))
		return;
	c->cq.ceq_id = w->cq.ceq_id;
	c->cq.ceq_id_valid = w->cq.ceq_id_valid;
	c->cq.check_overflow = w->cq.check_overflow;
	c->used = true;
}

/* MODIFY_CQ: a resize gives the CQ a new ring; the model does no other */
static void irdma_hw_modify_cq(struct irdma_hw_model *hw,
			       struct irdma_hw_wqe *w)
{
	struct irdma_hw_cq_state *c = irdma_hw_cq_slot(hw, w);

	if (!c)
		return;
	if (!c->used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
		return;
	}
	if (!w->cq.resize) {
		irdma_hw_fault(hw, "a MODIFY_CQ the model does not implement");
		irdma_hw_refuse(w, IRDMA_HW_MIN_OPCODE);
		return;
	}
	/* The shadow area stays: MODIFY_CQ repeats it, it must not move */
	if (w->cq.shadow_pa != c->cq.shadow_pa) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
		return;
	}
	if (irdma_hw_cq_map(hw, w, c))
		c->cq.resizes++;
}

static void irdma_hw_destroy_cq(struct irdma_hw_model *hw,
				struct irdma_hw_wqe *w)
{
	struct irdma_hw_cq_state *c;

	if (!w->cq.id) {
		if (!hw->ccq_up) {
			irdma_hw_fault(hw, "DESTROY_CQ of a CCQ not created");
			irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
			return;
		}
		hw->ccq_up = false;
		return;
	}
	c = irdma_hw_cq_slot(hw, w);
	if (!c)
		return;
	if (!c->used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
		return;
	}
	c->used = false;
}

static void irdma_hw_decode_qp(struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3];

	w->qp.id = FIELD_GET(HW_QP_ID, hdr);
	w->qp.type = FIELD_GET(HW_QP_TYPE, hdr);
	w->qp.next_state = FIELD_GET(HW_QP_NEXTSTATE, hdr);
	w->qp.ord_valid = FIELD_GET(HW_QP_ORDVALID, hdr);
	w->qp.tcp_ctx_valid = FIELD_GET(HW_QP_TOECTXVALID, hdr);
	w->qp.cached_valid = FIELD_GET(HW_QP_CACHEDVALID, hdr);
	w->qp.virtual_map = FIELD_GET(HW_QP_VQ, hdr);
	w->qp.cq_num_valid = FIELD_GET(HW_QP_CQNUMVALID, hdr);
	w->qp.mac_valid = FIELD_GET(HW_QP_MACVALID, hdr);
	w->qp.arp_valid = FIELD_GET(HW_QP_ARPVALID, hdr);
	w->qp.reset_conn = FIELD_GET(HW_QP_RESETCON, hdr);
	w->qp.remove_hash = FIELD_GET(HW_QP_REMOVEHASH, hdr);
	w->qp.ignore_mw_bound = FIELD_GET(HW_QP_IGNOREMWBOUND, hdr);
	w->qp.term_actions = FIELD_GET(HW_QP_TERMACT, hdr);
	w->qp.ctx_pa = w->qword[2];
	w->qp.shadow_pa = w->qword[5];
}

static void irdma_hw_decode_flush(struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3], codes = w->qword[2];

	w->flush.qp_id = FIELD_GET(HW_QP_ID, hdr);
	w->flush.sq = FIELD_GET(HW_FLUSH_SQ, hdr);
	w->flush.rq = FIELD_GET(HW_FLUSH_RQ, hdr);
	w->flush.user_code = FIELD_GET(HW_FLUSH_USER_CODE, hdr);
	w->flush.gen_ae = FIELD_GET(HW_FLUSH_GEN_AE, hdr);
	w->flush.sq_maj = FIELD_GET(HW_FLUSH_SQ_MAJ, codes);
	w->flush.sq_min = FIELD_GET(HW_FLUSH_SQ_MIN, codes);
	w->flush.rq_maj = FIELD_GET(HW_FLUSH_RQ_MAJ, codes);
	w->flush.rq_min = FIELD_GET(HW_FLUSH_RQ_MIN, codes);
}

static struct irdma_hw_qp_state *irdma_hw_qp_slot(struct irdma_hw_model *hw,
						  struct irdma_hw_wqe *w,
						  u32 id)
{
	if (id >= hw->nqps) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return NULL;
	}
	return &hw->qps[id];
}

/* A CQ a QP context may name: one CREATE_CQ made, not the CCQ */
static bool irdma_hw_cq_exists(struct irdma_hw_model *hw, u32 id)
{
	return id && id < hw->ncqs && hw->cqs[id].used;
}

/* An IPv6 address in two qwords, word 0 the high half of the second */
static void irdma_hw_ip(const __le64 *ctx, u32 hi, u32 lo, u32 *ip)
{
	ip[0] = FIELD_GET(HW_QPC_IP_HI, irdma_hw_q(ctx, hi));
	ip[1] = FIELD_GET(HW_QPC_IP_LO, irdma_hw_q(ctx, hi));
	ip[2] = FIELD_GET(HW_QPC_IP_HI, irdma_hw_q(ctx, lo));
	ip[3] = FIELD_GET(HW_QPC_IP_LO, irdma_hw_q(ctx, lo));
}

static void irdma_hw_mac(u64 v, u8 *mac)
{
	int i;

	for (i = 0; i < 6; i++)
		mac[i] = v >> (8 * (5 - i));
}

/* The fields of a RoCE QP's context that the wire engine sends with */
static void irdma_hw_read_roce_qpc(const __le64 *ctx, struct irdma_hw_qp *qp)
{
	u64 q0 = irdma_hw_q(ctx, 0), q3 = irdma_hw_q(ctx, 3);
	u64 q6 = irdma_hw_q(ctx, 6), q7 = irdma_hw_q(ctx, 7);
	u64 q8 = irdma_hw_q(ctx, 8), q16 = irdma_hw_q(ctx, 16);
	u64 q20 = irdma_hw_q(ctx, 20);

	qp->roce.ipv4 = FIELD_GET(HW_QPC_IPV4, q0);
	qp->roce.insert_vlan = FIELD_GET(HW_QPC_INSVLAN, q0);
	qp->roce.ttl = FIELD_GET(HW_QPC_TTL, q3);
	qp->roce.tos = FIELD_GET(HW_QPC_TOS, q3);
	qp->roce.src_port = FIELD_GET(HW_QPC_SRCPORT, q3);
	qp->roce.dst_port = FIELD_GET(HW_QPC_DSTPORT, q3);
	irdma_hw_ip(ctx, 5, 4, qp->roce.dest_ip);
	irdma_hw_ip(ctx, 24, 23, qp->roce.local_ip);
	qp->roce.snd_mss = FIELD_GET(HW_QPC_SNDMSS, q6);
	qp->roce.vlan_tag = FIELD_GET(HW_QPC_VLANTAG, q6);
	qp->roce.arp_idx = FIELD_GET(HW_QPC_ARPIDX, q6);
	qp->roce.flow_label = FIELD_GET(HW_QPC_FLOWLABEL, q7);
	qp->roce.pkey = FIELD_GET(HW_QPC_PKEY, q7);
	qp->roce.dest_qp = FIELD_GET(HW_QPC_DESTQP, q8);
	qp->roce.qkey = FIELD_GET(HW_QPC_QKEY, q8);
	qp->roce.psn_nxt = FIELD_GET(HW_QPC_PSN, irdma_hw_q(ctx, 10));
	qp->roce.epsn = FIELD_GET(HW_QPC_PSN, irdma_hw_q(ctx, 11));
	qp->roce.rexmit_thresh = FIELD_GET(HW_QPC_REXMIT, q16);
	qp->roce.rnr_thresh = FIELD_GET(HW_QPC_RNRNAK, q16);
	irdma_hw_mac(FIELD_GET(HW_QPC_MAC, irdma_hw_q(ctx, 19)), qp->roce.mac);
	qp->roce.ord = FIELD_GET(HW_QPC_ORDSIZE, q20);
	qp->roce.wr_ok = FIELD_GET(HW_QPC_WRRDRSPOK, q20);
	qp->roce.rd_ok = FIELD_GET(HW_QPC_RDOK, q20);
	qp->roce.qs_handle = FIELD_GET(HW_QPC_QSHANDLE, irdma_hw_q(ctx, 22));
}

static u64 irdma_hw_pble(struct irdma_hw_model *hw, u64 idx);

/*
 * A QP ring of @len bytes: at @pa, or for a virtually mapped QP (VQ) in
 * the 4 KiB pages the level-1 PBL at PBLE index @pa lists, as user space
 * rings that are not physically contiguous are given.
 */
static bool irdma_hw_qp_ring_ok(struct irdma_hw_model *hw, bool vq, u64 pa,
				size_t len)
{
	u64 i, page;

	if (!vq)
		return irdma_hw_dma(hw, pa, len);
	for (i = 0; i < DIV_ROUND_UP(len, SZ_4K); i++) {
		page = irdma_hw_pble(hw, pa + i);
		if (page == U64_MAX || !irdma_hw_dma(hw, page, SZ_4K))
			return false;
	}
	return true;
}

/*
 * The QP's host context, read as the hardware reads it when a QP command
 * names it; false if it is not in memory or names what does not exist.
 */
static bool irdma_hw_read_qpc(struct irdma_hw_model *hw,
			      struct irdma_hw_wqe *w, struct irdma_hw_qp *qp)
{
	__le64 *ctx = irdma_hw_dma(hw, w->qp.ctx_pa, HW_QPC_LEN);
	u64 q0, q3, q17;

	if (!ctx || !irdma_hw_dma(hw, w->qp.shadow_pa, HW_QP_SHADOW_LEN)) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
		return false;
	}
	q0 = irdma_hw_q(ctx, 0);
	q3 = irdma_hw_q(ctx, 3);
	q17 = irdma_hw_q(ctx, 17);
	qp->ctx_pa = w->qp.ctx_pa;
	qp->shadow_pa = w->qp.shadow_pa;
	qp->sq_pa = irdma_hw_q(ctx, 1);
	qp->rq_pa = irdma_hw_q(ctx, 2);
	qp->sq_quanta = HW_QPC_WQ_QUANTA_MIN << FIELD_GET(HW_QPC_SQSIZE, q3);
	qp->rq_quanta = HW_QPC_WQ_QUANTA_MIN << FIELD_GET(HW_QPC_RQSIZE, q3);
	qp->rq_wqe_shift = FIELD_GET(HW_QPC_RQWQESIZE, q0);
	qp->pd = FIELD_GET(HW_QPC_PDIDX, irdma_hw_q(ctx, 7)) |
		 FIELD_GET(HW_QPC_PDIDXHI, q0) << 16;
	qp->send_cq = FIELD_GET(HW_QPC_TXCQ, q17);
	qp->recv_cq = FIELD_GET(HW_QPC_RXCQ, q17);
	if (w->qp.type == IRDMA_HW_QPT_IWARP)
		qp->iwarp = FIELD_GET(HW_QPC_IWARPMODE, irdma_hw_q(ctx, 20));
	else
		irdma_hw_read_roce_qpc(ctx, qp);
	qp->comp_ctx = irdma_hw_q(ctx, 21);
	qp->virtual_map = w->qp.virtual_map;
	if (!irdma_hw_qp_ring_ok(hw, qp->virtual_map, qp->sq_pa,
				 (size_t)qp->sq_quanta * HW_SQ_QUANTUM) ||
	    !irdma_hw_qp_ring_ok(hw, qp->virtual_map, qp->rq_pa,
				 (size_t)qp->rq_quanta * HW_SQ_QUANTUM)) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
		return false;
	}
	/* An assumption of the model: the hardware checks the CQs it posts to */
	if (w->qp.cq_num_valid && (!irdma_hw_cq_exists(hw, qp->send_cq) ||
				   !irdma_hw_cq_exists(hw, qp->recv_cq))) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_CTX);
		return false;
	}
	return true;
}

/*
 * The states a QP command may move a QP to, from the one it is in: an
 * iWARP QP goes from IDLE to RTS, a RoCE one through RTR, and may be
 * suspended (SQD, CLOSING's encoding) from RTS.
 */
static bool irdma_hw_qp_next_ok(u8 type, u8 from, u8 to)
{
	bool roce = type != IRDMA_HW_QPT_IWARP;

	switch (to) {
	case IRDMA_HW_QPS_IDLE:
		return from == IRDMA_HW_QPS_INVALID || from == IRDMA_HW_QPS_IDLE;
	case IRDMA_HW_QPS_RTR:
		return roce && (from == IRDMA_HW_QPS_IDLE ||
				from == IRDMA_HW_QPS_RTR);
	case IRDMA_HW_QPS_RTS:
		if (roce)
			return from == IRDMA_HW_QPS_RTR ||
			       from == IRDMA_HW_QPS_RTS ||
			       from == IRDMA_HW_QPS_SQD;
		return from == IRDMA_HW_QPS_IDLE || from == IRDMA_HW_QPS_RTS;
	case IRDMA_HW_QPS_CLOSING:
	case IRDMA_HW_QPS_TERMINATE:
		return from == IRDMA_HW_QPS_RTS || from == to;
	case IRDMA_HW_QPS_ERROR:
		return true;
	}
	return false;
}

/*
 * An assumption of the model: a connected RoCE QP is only moved to RTR
 * and RTS with a path the wire engine can send on: a destination QP, an
 * MTU RoCE has, and an ARP cache entry for the next hop's MAC.
 */
static bool irdma_hw_roce_path_ok(struct irdma_hw_model *hw,
				  const struct irdma_hw_qp *qp, u8 next)
{
	if (qp->type != IRDMA_HW_QPT_ROCE_RC ||
	    (next != IRDMA_HW_QPS_RTR && next != IRDMA_HW_QPS_RTS))
		return true;
	return qp->roce.dest_qp &&
	       qp->roce.snd_mss >= HW_ROCE_MSS_MIN &&
	       qp->roce.snd_mss <= HW_ROCE_MSS_MAX &&
	       qp->roce.arp_idx < IRDMA_HW_ARP_ENTRIES &&
	       hw->arps[qp->roce.arp_idx].valid;
}

static void irdma_hw_create_qp(struct irdma_hw_model *hw,
			       struct irdma_hw_wqe *w)
{
	struct irdma_hw_qp_state *q = irdma_hw_qp_slot(hw, w, w->qp.id);
	struct irdma_hw_qp qp = {};

	if (!q)
		return;
	if (q->used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_EXISTS);
		return;
	}
	if (w->qp.type != IRDMA_HW_QPT_IWARP &&
	    w->qp.type != IRDMA_HW_QPT_ROCE_RC &&
	    w->qp.type != IRDMA_HW_QPT_ROCE_UD) {
		irdma_hw_fault(hw, "a QP the model does not implement");
		irdma_hw_refuse(w, IRDMA_HW_MIN_OPCODE);
		return;
	}
	if (!irdma_hw_qp_next_ok(w->qp.type, IRDMA_HW_QPS_INVALID,
				 w->qp.next_state)) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_CTX);
		return;
	}
	if (!irdma_hw_read_qpc(hw, w, &qp))
		return;
	qp.type = w->qp.type;
	qp.state = w->qp.next_state;
	q->qp = qp;
	q->used = true;
}

/* MODIFY_QP: the context is read again, the state moves */
static void irdma_hw_modify_qp(struct irdma_hw_model *hw,
			       struct irdma_hw_wqe *w)
{
	struct irdma_hw_qp_state *q = irdma_hw_qp_slot(hw, w, w->qp.id);
	struct irdma_hw_qp qp;

	if (!q)
		return;
	if (!q->used || q->qp.ctx_pa != w->qp.ctx_pa) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
		return;
	}
	if (w->qp.type != q->qp.type ||
	    !irdma_hw_qp_next_ok(q->qp.type, q->qp.state, w->qp.next_state)) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_CTX);
		return;
	}
	qp = q->qp;
	if (!irdma_hw_read_qpc(hw, w, &qp))
		return;
	if (!irdma_hw_roce_path_ok(hw, &qp, w->qp.next_state)) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_CTX);
		return;
	}
	qp.state = w->qp.next_state;
	qp.modifies++;
	q->qp = qp;
}

static void irdma_hw_destroy_qp(struct irdma_hw_model *hw,
				struct irdma_hw_wqe *w)
{
	struct irdma_hw_qp_state *q = irdma_hw_qp_slot(hw, w, w->qp.id);

	if (!q)
		return;
	if (!q->used || q->qp.ctx_pa != w->qp.ctx_pa) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
		return;
	}
	q->used = false;
	/* A later QP of this ID has an SQ of its own */
	hw->qp_sqs[w->qp.id] = NULL;
}

/*
 * FLUSH_WQES: the model takes the WQEs of a QP it created at their
 * doorbell, if ever, and completes none of them, so there is nothing of
 * them in flight to flush: the completion says so (minor code 0), and the
 * driver completes what is posted itself.
 */
static void irdma_hw_flush_wqes(struct irdma_hw_model *hw,
				struct irdma_hw_wqe *w)
{
	struct irdma_hw_qp_state *q = irdma_hw_qp_slot(hw, w, w->flush.qp_id);

	if (!q)
		return;
	if (!q->used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
		return;
	}
	q->qp.flushes++;
	q->qp.sq_flushed |= w->flush.sq;
	q->qp.rq_flushed |= w->flush.rq;
}

static void irdma_hw_decode_stag(const struct irdma_hw_gen *gen,
				 struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3];

	w->stag.len = FIELD_GET(HW_STAG_LEN, w->qword[1]);
	w->stag.pd = irdma_hw_field(w->qword[1], gen->stag_pd);
	w->stag.idx = FIELD_GET(HW_STAG_IDX, w->qword[2]);
	w->stag.hmc_fn = FIELD_GET(HW_STAG_HMC_FN, w->qword[5]);
	w->stag.first_pble = FIELD_GET(HW_STAG_FIRST_PBLE, w->qword[6]);
	w->stag.mr = FIELD_GET(HW_STAG_MR, hdr);
	w->stag.pbl_size = FIELD_GET(HW_STAG_PBL_SIZE, hdr);
	w->stag.hpage_size = FIELD_GET(HW_STAG_HPAGE_SIZE, hdr);
	w->stag.rights = FIELD_GET(HW_STAG_RIGHTS, hdr);
	w->stag.remote = FIELD_GET(HW_STAG_REMOTE, hdr);
}

static void irdma_hw_reg_mr(struct irdma_hw_model *hw, struct irdma_hw_wqe *w);

/*
 * REG_MR's own fields: the key, the VA (or first byte offset) in qword 0
 * and, with no PBL, the page's address in qword 4
 */
static void irdma_hw_decode_reg(const struct irdma_hw_gen *gen,
				struct irdma_hw_wqe *w)
{
	irdma_hw_decode_stag(gen, w);
	w->stag.key = FIELD_GET(HW_REG_KEY, w->qword[2]);
	w->stag.va = w->qword[0];
	w->stag.pa = w->qword[4];
	w->stag.va_based = FIELD_GET(HW_REG_VA_BASED, w->qword[3]);
}

/*
 * An STag index is taken once, by an MR or an MW, and given back by its
 * PD (an assumption of the model: the E810's own checks are not public).
 */
static struct irdma_hw_stag *irdma_hw_stag(struct irdma_hw_model *hw,
					   u32 idx)
{
	u32 obj = idx & hw->stag_obj;

	return obj < hw->nstags ? &hw->stags[obj] : NULL;
}

static void irdma_hw_alloc_stag(struct irdma_hw_model *hw,
				struct irdma_hw_wqe *w)
{
	struct irdma_hw_stag *s = irdma_hw_stag(hw, w->stag.idx);

	if (!s) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return;
	}
	if (s->used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_IN_USE);
		return;
	}
	s->used = true;
	s->idx = w->stag.idx;
	s->pd = w->stag.pd;
}

static void irdma_hw_dealloc_stag(struct irdma_hw_model *hw,
				  struct irdma_hw_wqe *w)
{
	struct irdma_hw_stag *s = irdma_hw_stag(hw, w->stag.idx);

	if (!s) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return;
	}
	if (!s->used || s->idx != w->stag.idx) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_NO_STAG);
		return;
	}
	if (s->pd != w->stag.pd) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_PD);
		return;
	}
	s->used = false;
	s->reg_mr = false;
}

/* One SD entry: a write sets or clears it, with the data it comes with */
static bool irdma_hw_write_sd(struct irdma_hw_model *hw, u32 cmd, u64 data)
{
	u32 idx = FIELD_GET(HW_SD_CMD_IDX, cmd);

	if (!(cmd & HW_SD_CMD_WRITE) || idx >= hw->nsds)
		return false;
	hw->sds[idx].data = data;
	hw->sds[idx].writes++;
	return true;
}

static void irdma_hw_decode_sds(struct irdma_hw_wqe *w)
{
	const u64 cmd[IRDMA_HW_SDS_IN_WQE] = {
		w->qword[0], w->qword[4], w->qword[6]
	};
	const u64 data[IRDMA_HW_SDS_IN_WQE] = {
		w->qword[1], w->qword[5], w->qword[7]
	};
	u32 i;

	w->sds.mem = FIELD_GET(HW_SDS_MEM_COUNT, w->qword[3]);
	w->sds.hmc_fn = FIELD_GET(HW_SDS_HMC_FN, w->qword[2]);
	for (i = 0; i < IRDMA_HW_SDS_IN_WQE; i++) {
		if (i && !(cmd[i] & HW_SDS_ENTRY_VALID))
			break;
		w->sds.cmd[i] = FIELD_GET(HW_SDS_CMD, cmd[i]);
		w->sds.data[i] = data[i];
	}
	w->sds.cnt = i;
}

static void irdma_hw_update_sds(struct irdma_hw_model *hw,
				struct irdma_hw_wqe *w)
{
	const u64 *extra = NULL;
	u32 i;

	if (w->sds.mem > HW_SDS_MEM_MAX) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return;
	}
	if (w->sds.mem) {
		extra = irdma_hw_dma(hw, w->qword[2] & HW_SDS_MEM_ADDR,
				     w->sds.mem * 2 * sizeof(u64));
		if (!extra) {
			irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
			return;
		}
	}
	for (i = 0; i < w->sds.cnt; i++)
		if (!irdma_hw_write_sd(hw, w->sds.cmd[i], w->sds.data[i]))
			goto bad;
	/* The driver copies these from its own structures, CPU-endian */
	for (i = 0; i < w->sds.mem; i++)
		if (!irdma_hw_write_sd(hw, extra[2 * i], extra[2 * i + 1]))
			goto bad;
	return;
bad:
	irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
}

static void irdma_hw_decode_stats(struct irdma_hw_wqe *w)
{
	w->stats.buf_pa = w->qword[4];
	w->stats.hmc_fn = FIELD_GET(HW_STATS_HMC_FN, w->qword[5]);
	w->stats.use_hmc_fn = FIELD_GET(HW_STATS_USE_HMC_FN, w->qword[3]);
	w->stats.use_inst = FIELD_GET(HW_STATS_USE_INST, w->qword[3]);
	w->stats.inst = FIELD_GET(HW_STATS_INST, w->qword[3]);
}

/*
 * The counters of the function, written to the block the WQE names.  The
 * model moves no packets, so every counter it has is zero.
 */
static void irdma_hw_gather_stats(struct irdma_hw_model *hw,
				  struct irdma_hw_wqe *w)
{
	void *buf = irdma_hw_dma(hw, w->stats.buf_pa, IRDMA_HW_STATS_LEN);

	if (!buf) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
		return;
	}
	memset(buf, 0, IRDMA_HW_STATS_LEN);
}

static void irdma_hw_decode_arp(struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3];

	w->arp.idx = FIELD_GET(HW_ARP_IDX, hdr);
	w->arp.valid = FIELD_GET(HW_ARP_VALID, hdr);
	w->arp.permanent = FIELD_GET(HW_ARP_PERMANENT, hdr);
	irdma_hw_mac(FIELD_GET(HW_ARP_MAC, w->qword[2]), w->arp.mac);
}

/* MANAGE_ARP: add an entry, or delete one that is there */
static void irdma_hw_manage_arp(struct irdma_hw_model *hw,
				struct irdma_hw_wqe *w)
{
	struct irdma_hw_arp_state *a;

	if (w->arp.idx >= IRDMA_HW_ARP_ENTRIES) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return;
	}
	a = &hw->arps[w->arp.idx];
	if (!w->arp.valid) {
		if (!a->valid)
			irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
		a->valid = false;
		return;
	}
	a->valid = true;
	memcpy(a->mac, w->arp.mac, sizeof(a->mac));
}

static void irdma_hw_decode_ws(struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3], q4 = w->qword[4];

	w->ws.op = FIELD_GET(HW_WS_NODEOP, hdr);
	w->ws.id = FIELD_GET(HW_WS_ID, hdr);
	w->ws.parent = FIELD_GET(HW_WS_PARENT, hdr);
	w->ws.tc = FIELD_GET(HW_WS_TC, hdr);
	w->ws.prio_type = FIELD_GET(HW_WS_PRIOTYPE, hdr);
	w->ws.leaf = FIELD_GET(HW_WS_LEAF, hdr);
	w->ws.enable = FIELD_GET(HW_WS_ENABLE, hdr);
	w->ws.weight = FIELD_GET(HW_WS_WEIGHT, q4);
	w->ws.vsi = FIELD_GET(HW_WS_VSI, q4);
}

static bool irdma_hw_ws_has_children(struct irdma_hw_model *hw, u32 id)
{
	u32 i;

	for (i = 0; i < IRDMA_HW_WS_NODES; i++)
		if (i != id && hw->ws[i].used && hw->ws[i].node.parent == id)
			return true;
	return false;
}

/*
 * WS_NODE: the work scheduler tree.  A node is added under a parent that
 * exists (the root is its own parent), and a leaf's ADD returns the QS
 * handle QPs name it by; only a node without children is deleted.
 */
static void irdma_hw_ws_node(struct irdma_hw_model *hw,
			     struct irdma_hw_wqe *w)
{
	struct irdma_hw_ws_state *n = &hw->ws[w->ws.id];

	switch (w->ws.op) {
	case IRDMA_HW_WS_ADD:
		if (n->used) {
			irdma_hw_refuse(w, IRDMA_HW_MIN_EXISTS);
			return;
		}
		if (w->ws.parent != w->ws.id && !hw->ws[w->ws.parent].used) {
			irdma_hw_refuse(w, IRDMA_HW_MIN_CTX);
			return;
		}
		n->used = true;
		n->node = (struct irdma_hw_ws_node){
			.parent = w->ws.parent, .vsi = w->ws.vsi,
			.tc = w->ws.tc, .leaf = w->ws.leaf,
			.enable = w->ws.enable,
		};
		if (w->ws.leaf) {
			n->node.qs_handle = hw->next_qs;
			hw->next_qs = hw->next_qs % (HW_QPC_QSHANDLE >> 16) + 1;
			w->ret = n->node.qs_handle;
		}
		return;
	case IRDMA_HW_WS_MODIFY:
		if (!n->used) {
			irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
			return;
		}
		n->node.enable = w->ws.enable;
		return;
	case IRDMA_HW_WS_DELETE:
		if (!n->used) {
			irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
			return;
		}
		if (irdma_hw_ws_has_children(hw, w->ws.id)) {
			irdma_hw_refuse(w, IRDMA_HW_MIN_IN_USE);
			return;
		}
		n->used = false;
		return;
	}
	irdma_hw_fault(hw, "a WS_NODE operation the model does not implement");
	irdma_hw_refuse(w, IRDMA_HW_MIN_OPCODE);
}

static void irdma_hw_decode_ah(struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3], q1 = w->qword[1], q2 = w->qword[2];

	w->ah.idx = FIELD_GET(HW_AH_IDX, hdr);
	w->ah.ipv4 = FIELD_GET(HW_AH_IPV4, hdr);
	w->ah.insert_vlan = FIELD_GET(HW_AH_INSVLAN, hdr);
	w->ah.loopback = FIELD_GET(HW_AH_LOOPBACK, hdr);
	irdma_hw_mac(FIELD_GET(HW_AH_MAC, w->qword[0]), w->ah.mac);
	w->ah.vlan_tag = FIELD_GET(HW_AH_VLAN, q1);
	w->ah.tc = FIELD_GET(HW_AH_TC, q1);
	w->ah.pd = FIELD_GET(HW_AH_PD_LO, q1) |
		   FIELD_GET(HW_AH_PD_HI, q2) << 16;
	w->ah.flow_label = FIELD_GET(HW_AH_FLOWLABEL, q2);
	w->ah.hop_limit = FIELD_GET(HW_AH_HOPLIMIT, q2);
	w->ah.arp_idx = FIELD_GET(HW_AH_ARPIDX, q2);
	if (w->ah.ipv4) {
		w->ah.dest_ip[3] = FIELD_GET(HW_QPC_IP_LO, w->qword[4]);
		w->ah.src_ip[3] = FIELD_GET(HW_QPC_IP_LO, w->qword[6]);
		return;
	}
	w->ah.dest_ip[0] = FIELD_GET(HW_QPC_IP_HI, w->qword[5]);
	w->ah.dest_ip[1] = FIELD_GET(HW_QPC_IP_LO, w->qword[5]);
	w->ah.dest_ip[2] = FIELD_GET(HW_QPC_IP_HI, w->qword[4]);
	w->ah.dest_ip[3] = FIELD_GET(HW_QPC_IP_LO, w->qword[4]);
	w->ah.src_ip[0] = FIELD_GET(HW_QPC_IP_HI, w->qword[7]);
	w->ah.src_ip[1] = FIELD_GET(HW_QPC_IP_LO, w->qword[7]);
	w->ah.src_ip[2] = FIELD_GET(HW_QPC_IP_HI, w->qword[6]);
	w->ah.src_ip[3] = FIELD_GET(HW_QPC_IP_LO, w->qword[6]);
}

/*
 * CREATE_AH takes a free AH index; an assumption of the model: the
 * destination's MAC must be in the ARP cache, where the wire engine finds
 * it.  DESTROY_AH frees an index CREATE_AH took.
 */
static void irdma_hw_create_ah(struct irdma_hw_model *hw,
			       struct irdma_hw_wqe *w)
{
	struct irdma_hw_ah_state *a;

	if (w->ah.idx >= IRDMA_HW_AHS) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return;
	}
	a = &hw->ahs[w->ah.idx];
	if (a->used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_EXISTS);
		return;
	}
	if (w->ah.arp_idx >= IRDMA_HW_ARP_ENTRIES ||
	    !hw->arps[w->ah.arp_idx].valid) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_CTX);
		return;
	}
	a->used = true;
	a->create = *w;
}

static void irdma_hw_destroy_ah(struct irdma_hw_model *hw,
				struct irdma_hw_wqe *w)
{
	if (w->ah.idx >= IRDMA_HW_AHS) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return;
	}
	if (!hw->ahs[w->ah.idx].used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
		return;
	}
	hw->ahs[w->ah.idx].used = false;
}

static void irdma_hw_decode_mcg(struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3], q2 = w->qword[2];

	w->mcg.idx = FIELD_GET(HW_MCG_IDX, hdr);
	w->mcg.ipv4 = FIELD_GET(HW_MCG_IPV4, hdr);
	w->mcg.vlan_valid = FIELD_GET(HW_MCG_VLAN_VALID, hdr);
	irdma_hw_mac(FIELD_GET(HW_MCG_MAC, w->qword[0]), w->mcg.mac);
	w->mcg.hmc_fn = FIELD_GET(HW_MCG_HMC_FN, w->qword[1]);
	w->mcg.qs_handle = FIELD_GET(HW_MCG_QS_HANDLE, q2);
	w->mcg.vlan_id = FIELD_GET(HW_MCG_VLAN_ID, q2);
	w->mcg.ctx_pa = w->qword[4];
	if (w->mcg.ipv4) {
		w->mcg.ip[3] = FIELD_GET(HW_QPC_IP_LO, w->qword[6]);
		return;
	}
	w->mcg.ip[0] = FIELD_GET(HW_QPC_IP_HI, w->qword[7]);
	w->mcg.ip[1] = FIELD_GET(HW_QPC_IP_LO, w->qword[7]);
	w->mcg.ip[2] = FIELD_GET(HW_QPC_IP_HI, w->qword[6]);
	w->mcg.ip[3] = FIELD_GET(HW_QPC_IP_LO, w->qword[6]);
}

/*
 * The multicast groups: CREATE_MCG takes a free group index, MODIFY_MCG
 * changes one that exists, each reading the group's members (QP IDs)
 * from the context the WQE points to; DESTROY_MCG frees the index.
 */
static void irdma_hw_mcg(struct irdma_hw_model *hw, struct irdma_hw_wqe *w)
{
	struct irdma_hw_mcg_state *g;
	bool create;
	__le64 *ctx;
	u32 i;

	if (w->mcg.idx >= IRDMA_HW_MCGS) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return;
	}
	g = &hw->mcgs[w->mcg.idx];
	create = w->opcode == IRDMA_HW_OP_CREATE_MCG;
	if (g->used == create) {
		irdma_hw_refuse(w, g->used ? IRDMA_HW_MIN_EXISTS :
					     IRDMA_HW_MIN_NO_OBJ);
		return;
	}
	if (w->opcode == IRDMA_HW_OP_DESTROY_MCG) {
		g->used = false;
		return;
	}
	ctx = irdma_hw_dma(hw, w->mcg.ctx_pa, IRDMA_HW_MCG_QPS * sizeof(u64));
	if (!ctx) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
		return;
	}
	for (i = 0; i < IRDMA_HW_MCG_QPS; i++) {
		u64 e = irdma_hw_q(ctx, i);

		if (FIELD_GET(HW_MCGCTX_VALID, e))
			w->mcg.qp[w->mcg.n++] = FIELD_GET(HW_MCGCTX_QPID, e);
	}
	g->used = true;
	g->mcg = w->mcg;
}

static void irdma_hw_decode_push(struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3];

	w->push.idx = FIELD_GET(HW_PUSH_IDX, hdr);
	w->push.type = FIELD_GET(HW_PUSH_TYPE, hdr);
	w->push.free = hdr & HW_PUSH_FREE;
	w->push.qs_handle = FIELD_GET(HW_PUSH_QS_HANDLE, w->qword[2]);
}

/*
 * MANAGE_PUSH_PAGE takes the lowest free push page and returns its index
 * in the CQE, or gives back the page it names, which must be taken.  An
 * assumption of the model: with none free, the command fails; the driver
 * goes on without a push page then, as it does when the index returned
 * is past its push pages.  Type 0, the regular page, is the only one the
 * model knows.
 */
static void irdma_hw_manage_push_page(struct irdma_hw_model *hw,
				      struct irdma_hw_wqe *w)
{
	u32 i;

	if (w->push.type) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_OPCODE);
		return;
	}
	if (w->push.free) {
		if (w->push.idx >= hw->npush) {
			irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
			return;
		}
		if (!hw->push[w->push.idx].used) {
			irdma_hw_refuse(w, IRDMA_HW_MIN_NO_OBJ);
			return;
		}
		hw->push[w->push.idx].used = false;
		return;
	}
	for (i = 0; i < hw->npush; i++) {
		if (!hw->push[i].used) {
			hw->push[i].used = true;
			hw->push[i].qs_handle = w->push.qs_handle;
			w->ret = i;
			return;
		}
	}
	irdma_hw_refuse(w, IRDMA_HW_MIN_IN_USE);
}

/* Every field of the WQE, whether the model then executes it or not */
static void irdma_hw_decode(const struct irdma_hw_gen *gen,
			    struct irdma_hw_wqe *w)
{
	switch (w->opcode) {
	case IRDMA_HW_OP_CREATE_CQ:
	case IRDMA_HW_OP_MODIFY_CQ:
	case IRDMA_HW_OP_DESTROY_CQ:
		irdma_hw_decode_cq(gen, w);
		break;
	case IRDMA_HW_OP_CREATE_QP:
	case IRDMA_HW_OP_MODIFY_QP:
	case IRDMA_HW_OP_DESTROY_QP:
		irdma_hw_decode_qp(w);
		break;
	case IRDMA_HW_OP_FLUSH_WQES:
		irdma_hw_decode_flush(w);
		break;
	case IRDMA_HW_OP_ALLOC_STAG:
	case IRDMA_HW_OP_DEALLOC_STAG:
		irdma_hw_decode_stag(gen, w);
		break;
	case IRDMA_HW_OP_REG_MR:
		irdma_hw_decode_reg(gen, w);
		break;
	case IRDMA_HW_OP_UPDATE_PE_SDS:
		irdma_hw_decode_sds(w);
		break;
	case IRDMA_HW_OP_GATHER_STATS:
		irdma_hw_decode_stats(w);
		break;
	case IRDMA_HW_OP_MANAGE_ARP:
		irdma_hw_decode_arp(w);
		break;
	case IRDMA_HW_OP_WS_NODE:
		irdma_hw_decode_ws(w);
		break;
	case IRDMA_HW_OP_CREATE_AH:
	case IRDMA_HW_OP_DESTROY_AH:
		irdma_hw_decode_ah(w);
		break;
	case IRDMA_HW_OP_CREATE_MCG:
	case IRDMA_HW_OP_MODIFY_MCG:
	case IRDMA_HW_OP_DESTROY_MCG:
		irdma_hw_decode_mcg(w);
		break;
	case IRDMA_HW_OP_MANAGE_PUSH_PAGE:
		irdma_hw_decode_push(w);
		break;
	}
}

static void irdma_hw_execute(struct irdma_hw_model *hw,
			     struct irdma_hw_wqe *w)
{
	switch (w->opcode) {
	case IRDMA_HW_OP_CREATE_CQ:
		irdma_hw_create_cq(hw, w);
		break;
	case IRDMA_HW_OP_MODIFY_CQ:
		irdma_hw_modify_cq(hw, w);
		break;
	case IRDMA_HW_OP_DESTROY_CQ:
		irdma_hw_destroy_cq(hw, w);
		break;
	case IRDMA_HW_OP_CREATE_QP:
		irdma_hw_create_qp(hw, w);
		break;
	case IRDMA_HW_OP_MODIFY_QP:
		irdma_hw_modify_qp(hw, w);
		break;
	case IRDMA_HW_OP_DESTROY_QP:
		irdma_hw_destroy_qp(hw, w);
		break;
	case IRDMA_HW_OP_FLUSH_WQES:
		irdma_hw_flush_wqes(hw, w);
		break;
	case IRDMA_HW_OP_ALLOC_STAG:
		irdma_hw_alloc_stag(hw, w);
		break;
	case IRDMA_HW_OP_DEALLOC_STAG:
		irdma_hw_dealloc_stag(hw, w);
		break;
	case IRDMA_HW_OP_REG_MR:
		irdma_hw_reg_mr(hw, w);
		break;
	case IRDMA_HW_OP_UPDATE_PE_SDS:
		irdma_hw_update_sds(hw, w);
		break;
	case IRDMA_HW_OP_GATHER_STATS:
		irdma_hw_gather_stats(hw, w);
		break;
	case IRDMA_HW_OP_MANAGE_ARP:
		irdma_hw_manage_arp(hw, w);
		break;
	case IRDMA_HW_OP_WS_NODE:
		irdma_hw_ws_node(hw, w);
		break;
	case IRDMA_HW_OP_CREATE_AH:
		irdma_hw_create_ah(hw, w);
		break;
	case IRDMA_HW_OP_DESTROY_AH:
		irdma_hw_destroy_ah(hw, w);
		break;
	case IRDMA_HW_OP_CREATE_MCG:
	case IRDMA_HW_OP_MODIFY_MCG:
	case IRDMA_HW_OP_DESTROY_MCG:
		irdma_hw_mcg(hw, w);
		break;
	case IRDMA_HW_OP_MANAGE_PUSH_PAGE:
		irdma_hw_manage_push_page(hw, w);
		break;
	default:
		irdma_hw_fault(hw, "a CQP opcode the model does not implement");
		irdma_hw_refuse(w, IRDMA_HW_MIN_OPCODE);
	}
}

/* The CCQ holds one CQE less than its size: one more would overflow it */
static bool irdma_hw_ccq_full(struct irdma_hw_model *hw)
{
	u32 consumer = irdma_hw_q(hw->ccq_shadow, 0) % hw->ccq_size;

	return (hw->ccq_head + 1) % hw->ccq_size == consumer;
}

static void irdma_hw_ccq_post(struct irdma_hw_model *hw,
			      const struct irdma_hw_wqe *w)
{
	__le64 *cqe = &hw->ccq[hw->ccq_head * HW_CQE_QWORDS];

	if (hw->ccq_check_overflow && irdma_hw_ccq_full(hw)) {
		irdma_hw_fault(hw, "the CCQ overflows");
		return;
	}
	cqe[0] = 0;
	cqe[1] = cpu_to_le64(hw->cqp_ctx);
	cqe[2] = cpu_to_le64(FIELD_PREP(HW_CQE_RET, w->ret));
	dma_wmb();	/* the CQE before its valid bit */
	WRITE_ONCE(cqe[3],
		   cpu_to_le64(FIELD_PREP(HW_CQE_MIN, w->min) |
			       FIELD_PREP(HW_CQE_MAJ, w->maj) |
			       FIELD_PREP(HW_CQE_WQE_IDX, w->idx) |
			       FIELD_PREP(HW_CQE_ERROR, w->error) |
			       FIELD_PREP(HW_CQE_VALID, hw->ccq_polarity)));
	if (++hw->ccq_head == hw->ccq_size) {
		hw->ccq_head = 0;
		hw->ccq_polarity = !hw->ccq_polarity;
	}
}

/*
 * Take the WQE at the SQ tail, execute it and complete it: a CQE in the
 * CCQ if there is one after it (so also for the CCQ's own creation, but
 * not for its destruction), CQPTAIL moved
 * past it in any case, for a driver that polls the registers instead.
 * The error codes also go to CQPERRCODES, and OP_ERR to CQPTAIL, until
 * the next WQE (an assumption: the driver only looks while it polls).
 */
static bool irdma_hw_cqp_step(struct irdma_hw_model *hw)
{
	__le64 *raw = &hw->sq[hw->sq_tail * HW_CQP_WQE_QWORDS];
	u64 hdr = irdma_hw_q(raw, 3);
	struct irdma_hw_wqe *w;
	u32 i;

	if (FIELD_GET(HW_WQE_VALID, hdr) != hw->sq_polarity) {
		irdma_hw_fault(hw, "CQPDB rung for a WQE that is not valid");
		return false;
	}
	dma_rmb();	/* the header before the rest of the WQE */

	w = &hw->log[hw->wqes % IRDMA_HW_LOG_LEN];
	memset(w, 0, sizeof(*w));
	w->seq = hw->wqes++;
	w->idx = hw->sq_tail;
	w->polarity = hw->sq_polarity;
	for (i = 0; i < HW_CQP_WQE_QWORDS; i++)
		w->qword[i] = irdma_hw_q(raw, i);
	w->opcode = FIELD_GET(HW_WQE_OPCODE, w->qword[3]);
	hw->op_count[w->opcode]++;
	irdma_hw_decode(hw->gen, w);

	if (hw->fail_armed && hw->fail_opcode == w->opcode) {
		hw->fail_armed = false;
		w->error = true;
		w->maj = hw->fail_maj;
		w->min = hw->fail_min;
	} else {
		irdma_hw_execute(hw, w);
	}

	if (hw->ccq_up)
		irdma_hw_ccq_post(hw, w);

	if (++hw->sq_tail == hw->sq_size) {
		hw->sq_tail = 0;
		hw->sq_polarity = !hw->sq_polarity;
	}
	irdma_hw_wr(hw, hw->gen->cqperrcodes,
		    FIELD_PREP(HW_CQPERR_MAJ, w->maj) |
		    FIELD_PREP(HW_CQPERR_MIN, w->min));
	irdma_hw_wr(hw, hw->gen->cqptail,
		    FIELD_PREP(HW_CQPTAIL_WQTAIL, hw->sq_tail) |
		    (w->error ? HW_CQPTAIL_OP_ERR : 0));
	return true;
}

/* CQPDB written: the driver's SQ head */
static void irdma_hw_cqp_doorbell(struct irdma_hw_model *hw, u32 head)
{
	if (!hw->cqp_up || head >= hw->sq_size) {
		irdma_hw_fault(hw, "CQPDB rung without a CQP, or past its SQ");
		return;
	}
	while (hw->sq_tail != head)
		if (!irdma_hw_cqp_step(hw))
			return;
}

/*
 * CQARM written with a CQ's ID: the arm request is in the CQ's shadow
 * area.  An arm asks for one event, on the next CQE or the next solicited
 * one; a later arm replaces it.
 */
static void irdma_hw_cq_arm(struct irdma_hw_model *hw, u32 cq_id)
{
	struct irdma_hw_cq_state *c;
	u64 arm;

	if (!cq_id) {
		if (!hw->ccq_up) {
			irdma_hw_fault(hw, "CQARM rung for a CQ the model lacks");
			return;
		}
		if (irdma_hw_q(hw->ccq_shadow, 4) & HW_SHADOW_ARM_NEXT)
			hw->ccq_arms++;
		return;
	}
	if (!irdma_hw_cq_exists(hw, cq_id)) {
		irdma_hw_fault(hw, "CQARM rung for a CQ the model lacks");
		return;
	}
	c = &hw->cqs[cq_id];
	arm = irdma_hw_q(c->shadow, 4);
	c->cq.arms++;
	c->cq.arm_next = FIELD_GET(HW_SHADOW_ARM_NEXT, arm);
	c->cq.arm_se = FIELD_GET(HW_SHADOW_ARM_NEXT_SE, arm);
	c->cq.arm_seq = FIELD_GET(HW_SHADOW_ARM_SEQ, arm);
	c->cq.armed = c->cq.arm_next || c->cq.arm_se;
}

/* The CQ holds one CQE less than its size: one more would overflow it */
static bool irdma_hw_cq_full(struct irdma_hw_cq_state *c)
{
	u32 consumer = irdma_hw_q(c->shadow, 0) % c->cq.size;

	return (c->cq.head + 1) % c->cq.size == consumer;
}

/* One CQE of a QP's WQE into a CQ, and the event an arm asked for */
static int irdma_hw_cq_write(struct irdma_hw_model *hw,
			     struct irdma_hw_cq_state *c,
			     const struct irdma_hw_cqe *e)
{
	__le64 *cqe = &c->ring[c->cq.head * HW_CQE_QWORDS];
	struct irdma_hw_qp_state *q;

	if (e->qp_id >= hw->nqps || !hw->qps[e->qp_id].used)
		return -ENOENT;
	q = &hw->qps[e->qp_id];
	if (c->cq.check_overflow && irdma_hw_cq_full(c))
		return -ENOSPC;
	cqe[0] = cpu_to_le64(FIELD_PREP(HW_CQE_PAYLOAD, e->bytes));
	cqe[1] = cpu_to_le64(q->qp.comp_ctx);
	cqe[2] = cpu_to_le64(FIELD_PREP(HW_CQE_QPID, e->qp_id));
	dma_wmb();	/* the CQE before its valid bit */
	WRITE_ONCE(cqe[3],
		   cpu_to_le64(FIELD_PREP(HW_CQE_MIN, e->min) |
			       FIELD_PREP(HW_CQE_MAJ, e->maj) |
			       FIELD_PREP(HW_CQE_WQE_IDX, e->wqe_idx) |
			       FIELD_PREP(HW_CQE_ERROR, e->error) |
			       FIELD_PREP(HW_CQE_SOLICITED, e->solicited) |
			       FIELD_PREP(HW_CQE_OP, e->op) |
			       FIELD_PREP(HW_CQE_SQ, e->sq) |
			       FIELD_PREP(HW_CQE_VALID, c->cq.polarity)));
	if (++c->cq.head == c->cq.size) {
		c->cq.head = 0;
		c->cq.polarity = !c->cq.polarity;
	}
	if (c->cq.armed && (c->cq.arm_next || e->solicited)) {
		c->cq.armed = false;
		c->cq.events++;
	}
	return 0;
}

/* The host address behind an FPM address of the HMC, through its SD */
static __le64 *irdma_hw_fpm(struct irdma_hw_model *hw, u64 fpm)
{
	u64 sd = fpm / HW_SD_SPAN, off = fpm % HW_SD_SPAN, data;
	__le64 *pd;

	data = sd < hw->nsds ? hw->sds[sd].data : 0;
	if (!(data & HW_SD_VALID))
		return NULL;
	if (data & HW_SD_DIRECT)
		return irdma_hw_dma(hw, (data & HW_SD_ADDR) + off, sizeof(u64));
	pd = irdma_hw_dma(hw, data & HW_SD_ADDR, HW_PD_SPAN);
	if (!pd)
		return NULL;
	data = le64_to_cpu(pd[off / HW_PD_SPAN]);
	if (!(data & HW_PD_VALID))
		return NULL;
	return irdma_hw_dma(hw, (data & HW_PD_ADDR) + off % HW_PD_SPAN,
			    sizeof(u64));
}

/* PBLE @idx, or U64_MAX where no SD or PD backs it */
static u64 irdma_hw_pble(struct irdma_hw_model *hw, u64 idx)
{
	__le64 *pble = irdma_hw_fpm(hw, hw->pble_fpm + idx * sizeof(u64));

	return pble ? le64_to_cpu(*pble) : U64_MAX;
}

/* Page @n of a PBL of level @lvl (1 or 2) that starts at PBLE @first */
static u64 irdma_hw_pbl_page(struct irdma_hw_model *hw, u8 lvl, u32 first,
			     u32 n)
{
	u64 leaf;

	switch (lvl) {
	case HW_PBL_LEVEL1:
		return irdma_hw_pble(hw, (u64)first + n);
	case HW_PBL_LEVEL2:
		leaf = irdma_hw_pble(hw, (u64)first + n / HW_PBLES_PER_LEAF);
		if (leaf == U64_MAX)
			return U64_MAX;
		return irdma_hw_pble(hw, leaf + n % HW_PBLES_PER_LEAF);
	}
	return U64_MAX;
}

/* Page @n of a FAST_REGISTER's list, at the level its WQE says */
static u64 irdma_hw_fr_page(struct irdma_hw_model *hw,
			    const struct irdma_hw_sq_wqe *w, u32 n)
{
	if (w->fr_pbl_size == HW_PBL_SINGLE)
		return n ? U64_MAX : w->fr_pbl_addr;
	return irdma_hw_pbl_page(hw, w->fr_pbl_size, w->fr_first_pble, n);
}

/*
 * Page @n of a REG_MR region: with no PBL the region is physically
 * contiguous from the address in the WQE, whatever its length.
 */
static u64 irdma_hw_reg_page(struct irdma_hw_model *hw,
			     const struct irdma_hw_reg *r, u32 n)
{
	if (r->pbl_size == HW_PBL_SINGLE)
		return r->pa + (u64)n * r->page_size;
	return irdma_hw_pbl_page(hw, r->pbl_size, r->first_pble, n);
}

/*
 * The pages of a REG_MR region, read now as the hardware may read its PBL
 * any time after the command.  All of memory (length 0) has no list.
 */
static bool irdma_hw_reg_follow(struct irdma_hw_model *hw,
				struct irdma_hw_stag *s)
{
	struct irdma_hw_reg *r = &s->reg;
	u32 n;

	kfree(s->pages);
	s->pages = NULL;
	if (!r->npages)
		return true;
	s->pages = kmalloc_array(r->npages, sizeof(u64), GFP_ATOMIC);
	if (!s->pages) {
		irdma_hw_fault(hw, "no memory for an STag's page list");
		return false;
	}
	for (n = 0; n < r->npages; n++) {
		s->pages[n] = irdma_hw_reg_page(hw, r, n);
		if (s->pages[n] == U64_MAX)
			irdma_hw_fault(hw, "a PBL the HMC does not back");
	}
	return true;
}

/*
 * REG_MR: a free STag index is taken, as by ALLOC_STAG, and given its
 * region in the same command.
 */
static void irdma_hw_reg_mr(struct irdma_hw_model *hw, struct irdma_hw_wqe *w)
{
	struct irdma_hw_stag *s = irdma_hw_stag(hw, w->stag.idx);
	u64 psz = (u64)SZ_4K << (9 * w->stag.hpage_size);
	struct irdma_hw_reg *r;

	if (!s) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_BAD_ID);
		return;
	}
	if (s->used) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_IN_USE);
		return;
	}
	r = &s->reg;
	*r = (struct irdma_hw_reg){
		.key = w->stag.key, .pd = w->stag.pd, .va = w->stag.va,
		.len = w->stag.len, .rights = w->stag.rights,
		.remote = w->stag.remote, .va_based = w->stag.va_based,
		.pbl_size = w->stag.pbl_size,
		.first_pble = w->stag.first_pble, .pa = w->stag.pa,
		.page_size = psz,
		.npages = DIV_ROUND_UP_ULL((w->stag.va & (psz - 1)) +
					   w->stag.len, psz),
	};
	if (!irdma_hw_reg_follow(hw, s))
		return;
	s->used = true;
	s->idx = w->stag.idx;
	s->pd = w->stag.pd;
	s->registered = false;
	s->reg_mr = true;
}

/* FAST_REGISTER: the STag takes the region and its pages, as of now */
static void irdma_hw_fast_register(struct irdma_hw_model *hw,
				   const struct irdma_hw_sq_wqe *w)
{
	struct irdma_hw_stag *s = irdma_hw_stag(hw, w->fr_index);
	u64 psz = (u64)SZ_4K << (9 * w->fr_hpage_size);
	u32 n, npages;

	if (!s || !s->used || s->idx != w->fr_index) {
		irdma_hw_fault(hw, "FAST_REGISTER of an STag not allocated");
		return;
	}
	/* its page list is REG_MR's, which FAST_REGISTER must not replace */
	if (s->reg_mr) {
		irdma_hw_fault(hw, "FAST_REGISTER of an STag REG_MR registered");
		return;
	}
	npages = DIV_ROUND_UP_ULL((w->fr_va & (psz - 1)) + w->fr_len, psz);
	kfree(s->pages);
	s->pages = kmalloc_array(npages, sizeof(u64), GFP_ATOMIC);
	if (!s->pages) {
		irdma_hw_fault(hw, "no memory for an STag's page list");
		return;
	}
	for (n = 0; n < npages; n++) {
		s->pages[n] = irdma_hw_fr_page(hw, w, n);
		if (s->pages[n] == U64_MAX)
			irdma_hw_fault(hw, "a PBL the HMC does not back");
	}
	s->registered = true;
	s->mr = (struct irdma_hw_mr){ .key = w->fr_key, .va = w->fr_va,
				      .len = w->fr_len, .page_size = psz,
				      .npages = npages };
}

static void irdma_hw_local_inv(struct irdma_hw_model *hw, u32 stag)
{
	struct irdma_hw_stag *s = irdma_hw_stag(hw, stag >> 8);

	if (s && s->idx == stag >> 8)
		s->registered = false;
}

/* Fragment slot @i of an SQ WQE that starts at @q */
static void irdma_hw_sq_frag(const struct irdma_hw_gen *gen,
			     const __le64 *q, u32 i, bool imm,
			     struct irdma_hw_sge *sge)
{
	u32 qw = imm ? 4 + 2 * i : (i ? 2 + 2 * i : 0);
	u64 ctl = irdma_hw_q(q, qw + 1);

	sge->addr = irdma_hw_q(q, qw);
	sge->length = irdma_hw_field(ctl, gen->frag_len);
	sge->stag = irdma_hw_field(ctl, gen->frag_stag);
}

/*
 * The fragments of a READ, WRITE or SEND; ADDFRAGCNT counts the null one
 * an even number is padded with, which is left out.  Returns the slots.
 */
static u32 irdma_hw_sq_frags(const struct irdma_hw_gen *gen,
			     const __le64 *q, u64 hdr,
			     struct irdma_hw_sq_wqe *w)
{
	bool imm = hdr & HW_SQ_IMMDATA;
	u32 slots = FIELD_GET(HW_SQ_ADDFRAGCNT, hdr) + 1, i;
	u32 frags = slots - imm;
	struct irdma_hw_sge *last;

	for (i = 0; i < frags && i < IRDMA_HW_SQ_FRAGS; i++)
		irdma_hw_sq_frag(gen, q, i, imm, &w->frag[i]);
	w->num_frags = i;
	last = &w->frag[i - 1];
	if (i > 1 && !last->addr && !last->length && !last->stag)
		w->num_frags--;
	return slots;
}

/* Quanta of an inline WQE: the first holds some data, each later one more */
static u32 irdma_hw_inline_quanta(const struct irdma_hw_gen *gen, u64 hdr)
{
	u32 len = FIELD_GET(HW_SQ_INLINE_LEN, hdr);

	if (len <= gen->inline_first)
		return 1;
	return 1 + DIV_ROUND_UP(len - gen->inline_first, gen->inline_more);
}

static void irdma_hw_decode_fr(const __le64 *q, u64 hdr,
			       struct irdma_hw_sq_wqe *w)
{
	u64 q1 = irdma_hw_q(q, 1), q2 = irdma_hw_q(q, 2);

	w->fr_va = irdma_hw_q(q, 0);
	w->fr_len = FIELD_GET(HW_FR_LEN, q2);
	w->fr_first_pble = FIELD_GET(HW_FR_PBLE_LO, q2) |
			   FIELD_GET(HW_FR_PBLE_HI, q1) << HW_FR_PBLE_LO_BITS;
	w->fr_pbl_addr = q1 & HW_FR_PBL_ADDR;
	w->fr_key = FIELD_GET(HW_FR_KEY, hdr);
	w->fr_index = FIELD_GET(HW_FR_IDX, hdr);
	w->fr_rights = FIELD_GET(HW_FR_RIGHTS, hdr);
	w->fr_va_based = hdr & HW_FR_VA_BASED;
	w->fr_pbl_size = FIELD_GET(HW_FR_PBL_SIZE, hdr);
	w->fr_hpage_size = FIELD_GET(HW_FR_HPAGE_SIZE, hdr);
}

/*
 * The destination of a UD QP's SEND: the AH in the header, where an RC
 * SEND with invalidate has its STag, and the QP and Q_Key in qword 2.
 */
static void irdma_hw_decode_ud(const __le64 *q, u64 hdr,
			       struct irdma_hw_sq_wqe *w)
{
	u64 q2 = irdma_hw_q(q, 2);

	w->ah_idx = FIELD_GET(HW_SQ_AH_IDX, hdr);
	w->dest_qpn = FIELD_GET(HW_SQ_DEST_QPN, q2);
	w->qkey = FIELD_GET(HW_SQ_QKEY, q2);
}

/* The per-opcode fields of an SQ WQE and its length; false if unknown */
static bool irdma_hw_decode_sq(const struct irdma_hw_gen *gen,
			       const __le64 *q, u64 hdr, bool ud,
			       struct irdma_hw_sq_wqe *w)
{
	w->quanta = 1;
	switch (w->opcode) {
	case IRDMA_HW_SQ_OP_RDMA_WRITE:
	case IRDMA_HW_SQ_OP_RDMA_WRITE_SOL:
	case IRDMA_HW_SQ_OP_RDMA_READ:
	case IRDMA_HW_SQ_OP_READ_LOC_INV:
		w->rem_stag = FIELD_GET(HW_SQ_REMSTAG, hdr);
		w->rem_to = irdma_hw_q(q, 2);
		fallthrough;
	case IRDMA_HW_SQ_OP_SEND ... IRDMA_HW_SQ_OP_SEND_SOL_INV:
		if (ud && w->opcode >= IRDMA_HW_SQ_OP_SEND &&
		    w->opcode <= IRDMA_HW_SQ_OP_SEND_SOL_INV)
			irdma_hw_decode_ud(q, hdr, w);
		/* before any fragment, in fragment 0's place */
		w->imm = hdr & HW_SQ_IMMDATA;
		if (w->imm)
			w->imm_data = irdma_hw_q(q, 0);
		if (hdr & HW_SQ_INLINE)
			w->quanta = irdma_hw_inline_quanta(gen, hdr);
		else
			w->quanta = (irdma_hw_sq_frags(gen, q, hdr, w) + 2) / 2;
		return w->quanta <= gen->sq_quanta_max;
	case IRDMA_HW_SQ_OP_FAST_REGISTER:
		irdma_hw_decode_fr(q, hdr, w);
		return true;
	case IRDMA_HW_SQ_OP_LOCAL_INV:
		/* Where fragment 0's STag goes, in either layout */
		w->inv_stag = irdma_hw_field(irdma_hw_q(q, 1), gen->frag_stag);
		return true;
	case IRDMA_HW_SQ_OP_NOP:
		return true;
	}
	return false;
}

/* Takes the WQE at the SQ's tail if it is there; false if not */
static bool irdma_hw_sq_step(struct irdma_hw_model *hw, struct irdma_hw_sq *sq)
{
	const __le64 *q = sq->ring + sq->tail * (HW_SQ_QUANTUM / 8);
	struct irdma_hw_sq_wqe *w;
	u64 hdr = irdma_hw_q(q, 3);

	if (!!(hdr & HW_WQE_VALID) != sq->polarity)
		return false;
	w = &sq->log[sq->tail];
	*w = (struct irdma_hw_sq_wqe){
		.idx = sq->tail,
		.opcode = FIELD_GET(HW_WQE_OPCODE, hdr),
		.valid = sq->polarity,
		.signaled = hdr & HW_SQ_SIGCOMPL,
		.read_fence = hdr & HW_SQ_READFENCE,
		.local_fence = hdr & HW_SQ_LOCALFENCE,
	};
	if (!irdma_hw_decode_sq(hw->gen, q, hdr, sq->ud, w) ||
	    sq->tail + w->quanta > sq->quanta) {
		irdma_hw_fault(hw, "an SQ WQE the model cannot decode");
		w->quanta = 0;
		return false;
	}
	if (w->opcode == IRDMA_HW_SQ_OP_FAST_REGISTER)
		irdma_hw_fast_register(hw, w);
	else if (w->opcode == IRDMA_HW_SQ_OP_LOCAL_INV)
		irdma_hw_local_inv(hw, w->inv_stag);
	sq->tail += w->quanta;
	if (sq->tail == sq->quanta) {
		sq->tail = 0;
		sq->polarity = !sq->polarity;
	}
	return true;
}

/* Tells the driver, in the QP's shadow area, where the SQ's tail is */
static void irdma_hw_sq_publish(struct irdma_hw_sq *sq)
{
	WRITE_ONCE(sq->shadow[0],
		   cpu_to_le64(FIELD_PREP(HW_QP_SHADOW_SQ_TAIL, sq->tail)));
}

/* Takes every WQE that is there, then publishes the tail */
static void irdma_hw_sq_run(struct irdma_hw_model *hw, struct irdma_hw_sq *sq)
{
	u32 n;

	for (n = 0; n < sq->quanta && irdma_hw_sq_step(hw, sq); n++)
		;
	irdma_hw_sq_publish(sq);
}

/* WQEALLOC written: a QP has new WQEs in its SQ */
static void irdma_hw_sq_doorbell(struct irdma_hw_model *hw, u32 qp_id)
{
	struct irdma_hw_sq *sq;

	if (qp_id < hw->nqps && hw->qps[qp_id].used &&
	    (!hw->qp_sqs[qp_id] ||
	     hw->qps[qp_id].qp.state != IRDMA_HW_QPS_RTS)) {
		/*
		 * Noted; the SQ is read in RTS, and only of a QP the test
		 * asked the model to read it of
		 */
		hw->sq_dbs[qp_id]++;
		hw->qps[qp_id].qp.doorbells++;
		return;
	}
	if (qp_id < hw->nqps && hw->qps[qp_id].used)
		hw->qps[qp_id].qp.doorbells++;
	if (qp_id >= hw->nqps || !hw->qp_sqs[qp_id]) {
		irdma_hw_fault(hw, "WQEALLOC rung for a QP the model lacks");
		return;
	}
	hw->sq_dbs[qp_id]++;
	sq = hw->qp_sqs[qp_id];
	if (!sq->held)
		irdma_hw_sq_run(hw, sq);
}

static void irdma_hw_reg_written(struct irdma_hw_model *hw, u32 reg, u32 val)
{
	const struct irdma_hw_gen *gen = hw->gen;

	if (reg == gen->ccqplow)
		irdma_hw_cqp_ctx(hw, val);
	else if (reg == gen->cqpdb)
		irdma_hw_cqp_doorbell(hw, val);
	else if (reg == gen->cqarm)
		irdma_hw_cq_arm(hw, val);
	else if (reg == gen->wqealloc)
		irdma_hw_sq_doorbell(hw, val);
	else
		irdma_hw_fault(hw, "a doorbell the model does not know");
}

/* irdma_kunit_db(): a doorbell of some function, maybe a model's */
static void irdma_hw_doorbell(u32 __iomem *reg, u32 val)
{
	unsigned long addr = (__force unsigned long)reg;
	struct irdma_hw_model *hw;
	unsigned long flags;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	list_for_each_entry(hw, &irdma_hw_models, node) {
		unsigned long bar = (__force unsigned long)hw->bar;

		if (addr >= bar && addr - bar < hw->bar_len) {
			irdma_hw_reg_written(hw, addr - bar, val);
			break;
		}
	}
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
}

static const struct irdma_kunit_hw irdma_hw_hook = {
	.doorbell = irdma_hw_doorbell,
};

static void irdma_hw_model_destroy(void *data)
{
	struct irdma_hw_model *hw = data;
	unsigned long flags;
	bool last;
	u32 i;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	list_del(&hw->node);
	last = list_empty(&irdma_hw_models);
	if (last)
		RCU_INIT_POINTER(irdma_kunit_hw, NULL);
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	/* No doorbell may still be on its way into the model */
	if (last)
		synchronize_rcu();
	KUNIT_EXPECT_NULL_MSG(hw->test, hw->fault, "model fault: %s",
			      hw->fault);
	for (i = 0; i < hw->nstags; i++)
		kfree(hw->stags[i].pages);
}

/* The model reaches DMA memory through the linear map: check that it can */
static void irdma_hw_check_dma(struct kunit *test, struct device *dev)
{
	dma_addr_t pa;
	void *va;

	va = dma_alloc_coherent(dev, PAGE_SIZE, &pa, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, va);
	KUNIT_EXPECT_PTR_EQ_MSG(test, phys_to_virt(dma_to_phys(dev, pa)), va,
				"DMA is not dma-direct: the model cannot see it");
	dma_free_coherent(dev, PAGE_SIZE, va, pa);
}

/**
 * irdma_hw_model_create - start the firmware of a function
 * @test: the test it belongs to; KUnit stops it when the test ends, after
 *	everything registered later, such as the driver's own teardown
 * @p: the function: its BAR, DMA device and table sizes
 *
 * From now on the function's CQP, CQ arm and SQ doorbells come to the
 * model.
 *
 * Return: the model; a failure fails the test.
 */
struct irdma_hw_model *irdma_hw_model_create(struct kunit *test,
					     const struct irdma_hw_model_params *p)
{
	struct irdma_hw_model *hw;
	unsigned long flags;
	int ret;

	irdma_hw_check_dma(test, p->dma_dev);
	hw = kunit_kzalloc(test, sizeof(*hw), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hw);
	hw->test = test;
	hw->bar = (u8 __iomem __force *)p->bar;
	hw->bar_len = p->bar_len;
	hw->dma_dev = p->dma_dev;
	hw->gen = p->x722 ? &irdma_hw_x722 : &irdma_hw_e810;
	hw->nstags = p->stags;
	hw->stag_obj = BIT(max(order_base_2(p->stags), HW_STAG_OBJ_BITS_MIN)) -
		       1;
	hw->stags = kunit_kcalloc(test, p->stags, sizeof(*hw->stags),
				  GFP_KERNEL);
	hw->nsds = p->sds;
	hw->sds = kunit_kcalloc(test, p->sds, sizeof(*hw->sds), GFP_KERNEL);
	hw->nqps = p->qps;
	hw->sq_dbs = kunit_kcalloc(test, p->qps, sizeof(*hw->sq_dbs),
				   GFP_KERNEL);
	hw->qp_sqs = kunit_kcalloc(test, p->qps, sizeof(*hw->qp_sqs),
				   GFP_KERNEL);
	hw->qps = kunit_kcalloc(test, p->qps, sizeof(*hw->qps), GFP_KERNEL);
	hw->ncqs = p->cqs;
	hw->cqs = kunit_kcalloc(test, p->cqs, sizeof(*hw->cqs), GFP_KERNEL);
	hw->pble_fpm = p->pble_fpm;
	hw->arps = kunit_kcalloc(test, IRDMA_HW_ARP_ENTRIES, sizeof(*hw->arps),
				 GFP_KERNEL);
	hw->ws = kunit_kcalloc(test, IRDMA_HW_WS_NODES, sizeof(*hw->ws),
			       GFP_KERNEL);
	hw->ahs = kunit_kcalloc(test, IRDMA_HW_AHS, sizeof(*hw->ahs),
				GFP_KERNEL);
	hw->mcgs = kunit_kcalloc(test, IRDMA_HW_MCGS, sizeof(*hw->mcgs),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hw->mcgs);
	hw->npush = p->x722 ? 0 : IRDMA_HW_PUSH_PAGES;
	hw->push = kunit_kcalloc(test, IRDMA_HW_PUSH_PAGES, sizeof(*hw->push),
				 GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hw->push);
	hw->next_qs = 1;
	KUNIT_ASSERT_NOT_NULL(test, hw->arps);
	KUNIT_ASSERT_NOT_NULL(test, hw->ws);
	KUNIT_ASSERT_NOT_NULL(test, hw->ahs);
	KUNIT_ASSERT_NOT_NULL(test, hw->qps);
	KUNIT_ASSERT_NOT_NULL(test, hw->cqs);
	KUNIT_ASSERT_NOT_NULL(test, hw->stags);
	KUNIT_ASSERT_NOT_NULL(test, hw->sds);
	KUNIT_ASSERT_NOT_NULL(test, hw->sq_dbs);
	KUNIT_ASSERT_NOT_NULL(test, hw->qp_sqs);

	spin_lock_irqsave(&irdma_hw_lock, flags);
	list_add(&hw->node, &irdma_hw_models);
	rcu_assign_pointer(irdma_kunit_hw, &irdma_hw_hook);
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	ret = kunit_add_action_or_reset(test, irdma_hw_model_destroy, hw);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return hw;
}

/**
 * irdma_hw_model_fail_next - fail the next CQP WQE of an opcode
 * @hw: the model
 * @opcode: an IRDMA_HW_OP_* opcode
 * @maj: the major error code its CQE carries
 * @min: the minor one
 *
 * The WQE is not executed: it changes nothing in the model.
 */
void irdma_hw_model_fail_next(struct irdma_hw_model *hw, u8 opcode, u16 maj,
			      u16 min)
{
	unsigned long flags;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	hw->fail_armed = true;
	hw->fail_opcode = opcode;
	hw->fail_maj = maj;
	hw->fail_min = min;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
}

/**
 * irdma_hw_model_wqes - count the CQP WQEs the model took
 * @hw: the model
 *
 * Return: their number, which is also the sequence number of the next.
 */
u64 irdma_hw_model_wqes(struct irdma_hw_model *hw)
{
	unsigned long flags;
	u64 n;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	n = hw->wqes;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return n;
}

/**
 * irdma_hw_model_wqe - read a decoded CQP WQE back
 * @hw: the model
 * @seq: its sequence number
 * @wqe: where to copy it
 *
 * Return: false if the model has not taken it, or no longer keeps it.
 */
bool irdma_hw_model_wqe(struct irdma_hw_model *hw, u64 seq,
			struct irdma_hw_wqe *wqe)
{
	unsigned long flags;
	bool kept;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	kept = seq < hw->wqes && hw->wqes - seq <= IRDMA_HW_LOG_LEN;
	if (kept)
		*wqe = hw->log[seq % IRDMA_HW_LOG_LEN];
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return kept;
}

/**
 * irdma_hw_model_op_count - count the CQP WQEs of one opcode
 * @hw: the model
 * @opcode: an IRDMA_HW_OP_* opcode
 *
 * Return: how many the model took, failed or not.
 */
u32 irdma_hw_model_op_count(struct irdma_hw_model *hw, u8 opcode)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	n = opcode < IRDMA_HW_OP_MAX ? hw->op_count[opcode] : 0;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return n;
}

/**
 * irdma_hw_model_stag - look an STag up in the model's table
 * @hw: the model
 * @idx: its index field (the STag without its 8-bit key)
 * @pd: where to put the PD it was allocated to
 *
 * Return: whether it is allocated, under this very index field.
 */
bool irdma_hw_model_stag(struct irdma_hw_model *hw, u32 idx, u32 *pd)
{
	struct irdma_hw_stag *s;
	unsigned long flags;
	bool used = false;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	s = irdma_hw_stag(hw, idx);
	if (s && s->used && s->idx == idx) {
		used = true;
		*pd = s->pd;
	}
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return used;
}

/**
 * irdma_hw_model_sd - read an SD entry of the model's table
 * @hw: the model
 * @idx: the SD's index
 * @sd: where to copy it
 *
 * Return: false if @idx is outside the table.
 */
bool irdma_hw_model_sd(struct irdma_hw_model *hw, u32 idx,
		       struct irdma_hw_sd *sd)
{
	unsigned long flags;

	if (idx >= hw->nsds)
		return false;
	spin_lock_irqsave(&irdma_hw_lock, flags);
	*sd = hw->sds[idx];
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return true;
}

/**
 * irdma_hw_model_ccq_arms - count the CCQ's arm requests
 * @hw: the model
 *
 * Return: how many asked for an event on the CCQ's next completion.
 */
u32 irdma_hw_model_ccq_arms(struct irdma_hw_model *hw)
{
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	n = hw->ccq_arms;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return n;
}

/**
 * irdma_hw_model_sq_doorbells - count the SQ doorbells of a QP
 * @hw: the model
 * @qp_id: the QP's ID
 *
 * Return: how many times WQEALLOC was written with @qp_id.
 */
u32 irdma_hw_model_sq_doorbells(struct irdma_hw_model *hw, u32 qp_id)
{
	unsigned long flags;
	u32 n = 0;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	if (qp_id < hw->nqps)
		n = hw->sq_dbs[qp_id];
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return n;
}

/**
 * irdma_hw_model_cqp_up - tell whether the CQP has a host context
 * @hw: the model
 *
 * Return: true between the CCQPLOW writes of CQP create and destroy.
 */
bool irdma_hw_model_cqp_up(struct irdma_hw_model *hw)
{
	unsigned long flags;
	bool up;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	up = hw->cqp_up;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return up;
}

static void irdma_hw_kvfree(void *p)
{
	kvfree(p);
}

/* An SQ the model takes WQEs of from @start on, with valid bit 1 first */
static void irdma_hw_sq_add(struct irdma_hw_model *hw, u32 qp_id, u64 sq_pa,
			    u32 quanta, u32 start, u64 shadow_pa, bool ud)
{
	struct kunit *test = hw->test;
	struct irdma_hw_sq *sq;
	unsigned long flags;
	int ret;

	KUNIT_ASSERT_LT(test, qp_id, hw->nqps);
	KUNIT_ASSERT_LT(test, start, quanta);
	sq = kunit_kzalloc(test, sizeof(*sq), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sq);
	sq->log = kvcalloc(quanta, sizeof(*sq->log), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, sq->log);
	ret = kunit_add_action_or_reset(test, irdma_hw_kvfree, sq->log);
	KUNIT_ASSERT_EQ(test, ret, 0);
	sq->ring = irdma_hw_dma(hw, sq_pa, (size_t)quanta * HW_SQ_QUANTUM);
	KUNIT_ASSERT_NOT_NULL(test, sq->ring);
	sq->shadow = irdma_hw_dma(hw, shadow_pa, HW_QP_SHADOW_LEN);
	KUNIT_ASSERT_NOT_NULL(test, sq->shadow);
	sq->quanta = quanta;
	sq->tail = start;
	sq->polarity = true;
	sq->ud = ud;
	spin_lock_irqsave(&irdma_hw_lock, flags);
	hw->qp_sqs[qp_id] = sq;
	irdma_hw_sq_publish(sq);
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
}

/**
 * irdma_hw_model_add_sq - give the model a QP's SQ, as QP create would
 * @hw: the model
 * @qp_id: the QP's ID
 * @sq_pa: the SQ ring's DMA address
 * @quanta: its size in 32-byte quanta
 * @start: the first quantum the driver posts to; the ones before it the
 *	hardware consumed on the way to RTS
 * @shadow_pa: the DMA address of the QP's doorbell shadow area
 *
 * The model takes the SQ's WQEs from @start on, the first pass of the
 * ring with valid bit 1, and writes @start as its tail into the shadow
 * area now, as it writes every later tail.
 */
void irdma_hw_model_add_sq(struct irdma_hw_model *hw, u32 qp_id, u64 sq_pa,
			   u32 quanta, u32 start, u64 shadow_pa)
{
	irdma_hw_sq_add(hw, qp_id, sq_pa, quanta, start, shadow_pa, false);
}

/**
 * irdma_hw_model_read_sq - read the SQ of a QP CREATE_QP made
 * @hw: the model
 * @qp_id: the QP's ID
 *
 * From now on, while the QP is in RTS, the model takes the WQEs of its SQ
 * where its host context put the ring (physically contiguous: a kernel
 * QP's) and its doorbell shadow area, from quantum 0 on, as for an SQ of
 * irdma_hw_model_add_sq(); a UD QP's SENDs with their destination.  The
 * SQ goes with the QP on DESTROY_QP.  Only a QP with no WQE posted yet: a
 * fresh RoCE QP, whose SQ has no connection WQEs.
 */
void irdma_hw_model_read_sq(struct irdma_hw_model *hw, u32 qp_id)
{
	struct kunit *test = hw->test;
	struct irdma_hw_qp qp;
	unsigned long flags;
	bool used;

	KUNIT_ASSERT_LT(test, qp_id, hw->nqps);
	spin_lock_irqsave(&irdma_hw_lock, flags);
	used = hw->qps[qp_id].used && !hw->qp_sqs[qp_id];
	qp = hw->qps[qp_id].qp;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	KUNIT_ASSERT_TRUE_MSG(test, used, "QP %u: no CREATE_QP, or read", qp_id);
	KUNIT_ASSERT_FALSE(test, qp.virtual_map);
	KUNIT_ASSERT_NE(test, qp.type, IRDMA_HW_QPT_IWARP);
	irdma_hw_sq_add(hw, qp_id, qp.sq_pa, qp.sq_quanta, 0, qp.shadow_pa,
			qp.type == IRDMA_HW_QPT_ROCE_UD);
}

/**
 * irdma_hw_model_sq_hold - keep the hardware off a QP's SQ, or let it on
 * @hw: the model
 * @qp_id: the QP's ID, of an SQ the model has
 * @hold: true to hold the SQ, false to release it
 *
 * While the SQ is held, its doorbells are counted and no WQE is taken:
 * the tail in the shadow area stays behind, as while the hardware is
 * busy.  Released, the model takes every WQE posted meanwhile, doorbell
 * or not, as the hardware does once it gets to them, and writes its tail.
 */
void irdma_hw_model_sq_hold(struct irdma_hw_model *hw, u32 qp_id, bool hold)
{
	struct irdma_hw_sq *sq;
	unsigned long flags;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	sq = qp_id < hw->nqps ? hw->qp_sqs[qp_id] : NULL;
	if (!sq) {
		irdma_hw_fault(hw, "a hold on an SQ the model lacks");
	} else {
		sq->held = hold;
		if (!hold)
			irdma_hw_sq_run(hw, sq);
	}
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
}

/**
 * irdma_hw_model_sq_wqe - read the last WQE the model took at an SQ index
 * @hw: the model
 * @qp_id: the QP's ID
 * @idx: the WQE's index in the SQ, in quanta
 * @wqe: where to copy it
 *
 * Return: true if the model took a WQE that started at @idx.
 */
bool irdma_hw_model_sq_wqe(struct irdma_hw_model *hw, u32 qp_id, u32 idx,
			   struct irdma_hw_sq_wqe *wqe)
{
	struct irdma_hw_sq *sq;
	unsigned long flags;
	bool found;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	sq = qp_id < hw->nqps ? hw->qp_sqs[qp_id] : NULL;
	found = sq && idx < sq->quanta && sq->log[idx].quanta;
	if (found)
		*wqe = sq->log[idx];
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return found;
}

/**
 * irdma_hw_model_sq_tail - the next SQ quantum the model takes
 * @hw: the model
 * @qp_id: the QP's ID
 *
 * Return: the index, or U32_MAX for a QP the model has no SQ of.
 */
u32 irdma_hw_model_sq_tail(struct irdma_hw_model *hw, u32 qp_id)
{
	unsigned long flags;
	u32 tail = U32_MAX;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	if (qp_id < hw->nqps && hw->qp_sqs[qp_id])
		tail = hw->qp_sqs[qp_id]->tail;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return tail;
}

/*
 * Page @n of the region that REG_MR (@reg_mr true) or FAST_REGISTER gave
 * the STag at @idx, as the model followed it then; U64_MAX if the STag has
 * no such region or the region fewer pages.  The two never share an STag.
 */
static u64 irdma_hw_region_page(struct irdma_hw_model *hw, u32 idx, u32 n,
				bool reg_mr)
{
	struct irdma_hw_stag *s;
	unsigned long flags;
	u64 page = U64_MAX;
	u32 npages = 0;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	s = irdma_hw_stag(hw, idx);
	if (s && s->used && s->idx == idx) {
		if (reg_mr && s->reg_mr)
			npages = s->reg.npages;
		else if (!reg_mr && s->registered)
			npages = s->mr.npages;
		if (n < npages)
			page = s->pages[n];
	}
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return page;
}

/**
 * irdma_hw_model_mr - look a fast-registered STag up
 * @hw: the model
 * @idx: the STag's index, its upper 24 bits
 * @mr: where to copy what FAST_REGISTER gave it
 *
 * Return: true if the STag is allocated and registered, not invalidated.
 */
bool irdma_hw_model_mr(struct irdma_hw_model *hw, u32 idx,
		       struct irdma_hw_mr *mr)
{
	struct irdma_hw_stag *s;
	unsigned long flags;
	bool reg;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	s = irdma_hw_stag(hw, idx);
	reg = s && s->used && s->idx == idx && s->registered;
	if (reg)
		*mr = s->mr;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return reg;
}

/**
 * irdma_hw_model_mr_page - a page of a fast-registered STag
 * @hw: the model
 * @idx: the STag's index, its upper 24 bits
 * @n: the page's place in the region
 *
 * Return: the page's address as the model followed it through the PBL
 * when the STag was registered, or U64_MAX.
 */
u64 irdma_hw_model_mr_page(struct irdma_hw_model *hw, u32 idx, u32 n)
{
	return irdma_hw_region_page(hw, idx, n, false);
}

/**
 * irdma_hw_model_reg - look an STag REG_MR registered up
 * @hw: the model
 * @idx: the STag's index, its upper 24 bits
 * @reg: where to copy what REG_MR gave it
 *
 * Return: true if REG_MR took the STag and no DEALLOC_STAG gave it back.
 */
bool irdma_hw_model_reg(struct irdma_hw_model *hw, u32 idx,
			struct irdma_hw_reg *reg)
{
	struct irdma_hw_stag *s;
	unsigned long flags;
	bool reg_mr;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	s = irdma_hw_stag(hw, idx);
	reg_mr = s && s->used && s->idx == idx && s->reg_mr;
	if (reg_mr)
		*reg = s->reg;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return reg_mr;
}

/**
 * irdma_hw_model_reg_page - a page of an STag REG_MR registered
 * @hw: the model
 * @idx: the STag's index, its upper 24 bits
 * @n: the page's place in the region
 *
 * Return: the page's address as the model followed it when the STag was
 * registered, or U64_MAX.
 */
u64 irdma_hw_model_reg_page(struct irdma_hw_model *hw, u32 idx, u32 n)
{
	return irdma_hw_region_page(hw, idx, n, true);
}

/**
 * irdma_hw_model_cq - look a CQ up, as CREATE_CQ and later commands left it
 * @hw: the model
 * @cq_id: its ID; not the CCQ's
 * @cq: where to copy it
 *
 * Return: whether a CREATE_CQ made it and no DESTROY_CQ took it since.
 */
bool irdma_hw_model_cq(struct irdma_hw_model *hw, u32 cq_id,
		       struct irdma_hw_cq *cq)
{
	unsigned long flags;
	bool used;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	used = irdma_hw_cq_exists(hw, cq_id);
	if (used)
		*cq = hw->cqs[cq_id].cq;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return used;
}

/**
 * irdma_hw_model_qp - look a QP up, as the QP commands left it
 * @hw: the model
 * @qp_id: its ID
 * @qp: where to copy it
 *
 * Return: whether a CREATE_QP made it and no DESTROY_QP took it since.
 */
bool irdma_hw_model_qp(struct irdma_hw_model *hw, u32 qp_id,
		       struct irdma_hw_qp *qp)
{
	unsigned long flags;
	bool used;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	used = qp_id < hw->nqps && hw->qps[qp_id].used;
	if (used)
		*qp = hw->qps[qp_id].qp;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return used;
}

/**
 * irdma_hw_model_cq_post - complete a QP's WQE into a CQ, as hardware does
 * @hw: the model
 * @cq_id: the CQ, one CREATE_CQ made
 * @cqe: the completion
 *
 * Writes the CQE at the CQ's head, with the completion context of the
 * QP's host context, and raises the event an arm asked for.
 *
 * Return: 0; -ENOENT for a CQ or QP the model lacks, -ENOSPC if the CQ
 * was created with overflow checks and is full.
 */
int irdma_hw_model_cq_post(struct irdma_hw_model *hw, u32 cq_id,
			   const struct irdma_hw_cqe *cqe)
{
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	if (irdma_hw_cq_exists(hw, cq_id))
		ret = irdma_hw_cq_write(hw, &hw->cqs[cq_id], cqe);
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return ret;
}

/**
 * irdma_hw_model_rq_wqe - read an RQ WQE as the wire engine would
 * @hw: the model
 * @qp_id: a QP CREATE_QP made
 * @idx: the WQE's index in the RQ, in WQEs
 * @wqe: where to decode it
 *
 * Finds the RQ, its size and its WQE size in the QP's host context, and
 * reads the WQE's header and fragments with the hardware's layout.
 *
 * Return: false for a QP the model lacks or an index past the RQ.
 */
bool irdma_hw_model_rq_wqe(struct irdma_hw_model *hw, u32 qp_id, u32 idx,
			   struct irdma_hw_rq_wqe *wqe)
{
	struct irdma_hw_sq_wqe sq = {};
	struct irdma_hw_qp *qp;
	unsigned long flags;
	bool found = false;
	const __le64 *q;
	u32 quanta;
	u64 hdr;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	if (qp_id >= hw->nqps || !hw->qps[qp_id].used)
		goto out;
	qp = &hw->qps[qp_id].qp;
	quanta = 1U << qp->rq_wqe_shift;
	if ((u64)(idx + 1) * quanta > qp->rq_quanta)
		goto out;
	q = irdma_hw_dma(hw, qp->rq_pa + (u64)idx * quanta * HW_SQ_QUANTUM,
			 quanta * HW_SQ_QUANTUM);
	if (!q)
		goto out;
	hdr = irdma_hw_q(q, 3);
	irdma_hw_sq_frags(hw->gen, q, hdr & ~HW_SQ_IMMDATA, &sq);
	wqe->valid = FIELD_GET(HW_WQE_VALID, hdr);
	wqe->num_frags = sq.num_frags;
	memcpy(wqe->frag, sq.frag, sizeof(wqe->frag));
	found = true;
out:
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return found;
}

/**
 * irdma_hw_model_arp - look an ARP cache entry up
 * @hw: the model
 * @idx: its index
 * @mac: where to copy its MAC, 6 bytes
 *
 * Return: whether MANAGE_ARP added it and did not delete it since.
 */
bool irdma_hw_model_arp(struct irdma_hw_model *hw, u32 idx, u8 *mac)
{
	unsigned long flags;
	bool valid;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	valid = idx < IRDMA_HW_ARP_ENTRIES && hw->arps[idx].valid;
	if (valid)
		memcpy(mac, hw->arps[idx].mac, sizeof(hw->arps[idx].mac));
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return valid;
}

/**
 * irdma_hw_model_ws_find - find the leaf a QS handle names
 * @hw: the model
 * @qs_handle: the handle, as a QP context carries it
 * @node: where to copy the leaf
 *
 * Return: the leaf's node ID, or %IRDMA_HW_WS_NODES if no leaf has it.
 */
u32 irdma_hw_model_ws_find(struct irdma_hw_model *hw, u16 qs_handle,
			   struct irdma_hw_ws_node *node)
{
	unsigned long flags;
	u32 i;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	for (i = 0; i < IRDMA_HW_WS_NODES; i++) {
		struct irdma_hw_ws_state *n = &hw->ws[i];

		if (n->used && n->node.leaf && n->node.qs_handle == qs_handle) {
			*node = n->node;
			break;
		}
	}
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return i;
}

/* How many of a table's @n entries are in use, under the model's lock */
#define irdma_hw_count_used(table, n) ({				\
	unsigned long __flg;						\
	u32 __i, __inuse = 0;						\
									\
	spin_lock_irqsave(&irdma_hw_lock, __flg);			\
	for (__i = 0; __i < (n); __i++)					\
		__inuse += (table)[__i].used;				\
	spin_unlock_irqrestore(&irdma_hw_lock, __flg);			\
	__inuse;							\
})

/**
 * irdma_hw_model_ws_nodes - count the work scheduler nodes
 * @hw: the model
 *
 * Return: how many WS_NODE added and did not delete.
 */
u32 irdma_hw_model_ws_nodes(struct irdma_hw_model *hw)
{
	return irdma_hw_count_used(hw->ws, IRDMA_HW_WS_NODES);
}

/**
 * irdma_hw_model_ah - look an address vector up
 * @hw: the model
 * @idx: its AH index
 * @create: where to copy the CREATE_AH WQE that made it
 *
 * Return: whether CREATE_AH made it and DESTROY_AH did not take it away.
 */
bool irdma_hw_model_ah(struct irdma_hw_model *hw, u32 idx,
		       struct irdma_hw_wqe *create)
{
	unsigned long flags;
	bool used;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	used = idx < IRDMA_HW_AHS && hw->ahs[idx].used;
	if (used)
		*create = hw->ahs[idx].create;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return used;
}

/**
 * irdma_hw_model_mcg - look a multicast group up
 * @hw: the model
 * @idx: its group index
 * @mcg: where to copy it, with the members the last command gave it
 *
 * Return: whether CREATE_MCG made it and DESTROY_MCG did not take it away.
 */
bool irdma_hw_model_mcg(struct irdma_hw_model *hw, u32 idx,
			struct irdma_hw_mcg *mcg)
{
	unsigned long flags;
	bool used;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	used = idx < IRDMA_HW_MCGS && hw->mcgs[idx].used;
	if (used)
		*mcg = hw->mcgs[idx].mcg;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return used;
}

/**
 * irdma_hw_model_mcgs - count the multicast groups
 * @hw: the model
 *
 * Return: how many CREATE_MCG made and DESTROY_MCG did not take away.
 */
u32 irdma_hw_model_mcgs(struct irdma_hw_model *hw)
{
	return irdma_hw_count_used(hw->mcgs, IRDMA_HW_MCGS);
}

/**
 * irdma_hw_model_push_page - look a push page up
 * @hw: the model
 * @idx: its index
 * @qs_handle: where to copy the QS handle it was taken for, or NULL
 *
 * Return: whether MANAGE_PUSH_PAGE took it and has not given it back.
 */
bool irdma_hw_model_push_page(struct irdma_hw_model *hw, u32 idx,
			      u16 *qs_handle)
{
	unsigned long flags;
	bool used;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	used = idx < hw->npush && hw->push[idx].used;
	if (used && qs_handle)
		*qs_handle = hw->push[idx].qs_handle;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return used;
}

/**
 * irdma_hw_model_push_pages - count the push pages taken
 * @hw: the model
 *
 * Return: how many MANAGE_PUSH_PAGE took and did not give back.
 */
u32 irdma_hw_model_push_pages(struct irdma_hw_model *hw)
{
	unsigned long flags;
	u32 i, n = 0;

	spin_lock_irqsave(&irdma_hw_lock, flags);
	for (i = 0; i < hw->npush; i++)
		n += hw->push[i].used;
	spin_unlock_irqrestore(&irdma_hw_lock, flags);
	return n;
}
