// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's SQs: the WQEALLOC doorbell of a QP, the SQ WQEs
 * taken from its ring by the valid bit of each pass and decoded into the
 * QP's log, FAST_REGISTER and LOCAL_INV handed to the STag table
 * (irdma_hw_mr.c), the SQ tail written into the QP's doorbell shadow
 * area; and the SQs a test gives the model, holds or reads.
 */
#include <kunit/test.h>
#include <linux/bitfield.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "irdma_hw_priv.h"

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
u32 irdma_hw_sq_frags(const struct irdma_hw_gen *gen,
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
void irdma_hw_sq_doorbell(struct irdma_hw_model *hw, u32 qp_id)
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
