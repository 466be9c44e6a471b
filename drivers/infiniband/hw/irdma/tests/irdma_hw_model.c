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
 * Every field is read with the model's own layouts (irdma_hw_priv.h),
 * written from the hardware's WQE, CQE and register formats rather than
 * taken from the driver's defs.h, so that a wrong encoding in the driver shows as a wrong
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
 *
 * This file is the model's core: the function's registers, the CQP and
 * its completions in the CCQ, the doorbell hook and the model's life.
 * The commands execute in a file per object: irdma_hw_cq.c (CQs),
 * irdma_hw_qp.c (QPs), irdma_hw_mr.c (STags), irdma_hw_hmc.c (SDs, PBLEs
 * and statistics) and irdma_hw_net.c (ARP cache, work scheduler, AHs,
 * multicast groups, push pages); irdma_hw_sq.c reads the verbs' SQs.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "irdma_hw_priv.h"
#include "../osdep.h"

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
u64 irdma_hw_field(u64 v, u64 mask)
{
	return (v & mask) >> __ffs64(mask);
}

/*
 * The live models, found by BAR address.  The lock also guards every
 * model's state: the hook, which runs with interrupts off, holds it while
 * the model works, and the tests' accessors take it to read.
 */
static LIST_HEAD(irdma_hw_models);
DEFINE_SPINLOCK(irdma_hw_lock);

void irdma_hw_fault(struct irdma_hw_model *hw, const char *why)
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
void *irdma_hw_dma(struct irdma_hw_model *hw, u64 addr, size_t len)
{
	phys_addr_t phys = dma_to_phys(hw->dma_dev, addr);

	if (!addr || !pfn_valid(PHYS_PFN(phys)) ||
	    !pfn_valid(PHYS_PFN(phys + len - 1))) {
		irdma_hw_fault(hw, "a DMA address outside memory");
		return NULL;
	}
	return phys_to_virt(phys);
}

u64 irdma_hw_q(const __le64 *p, u32 i)
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

void irdma_hw_refuse(struct irdma_hw_wqe *w, u16 min)
{
	w->error = true;
	w->maj = IRDMA_HW_MAJ_MODEL;
	w->min = min;
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
		irdma_hw_do_modify_qp(hw, w);
		break;
	case IRDMA_HW_OP_DESTROY_QP:
		irdma_hw_destroy_qp(hw, w);
		break;
	case IRDMA_HW_OP_FLUSH_WQES:
		irdma_hw_do_flush_wqes(hw, w);
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
