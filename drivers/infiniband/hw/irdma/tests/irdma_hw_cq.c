// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's CQs: CREATE_CQ, MODIFY_CQ (a resize) and
 * DESTROY_CQ of the control CQ (CQ 0) and of the verbs' CQs, a CQ's arm
 * (CQARM), and the completions a test writes into a CQ's ring
 * (irdma_hw_model_cq_post()).  irdma_hw_model.c says how the model runs.
 */
#include <linux/bitfield.h>
#include <linux/io.h>
#include <linux/spinlock.h>

#include "irdma_hw_priv.h"

void irdma_hw_decode_cq(const struct irdma_hw_gen *gen,
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

void irdma_hw_create_cq(struct irdma_hw_model *hw,
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
void irdma_hw_modify_cq(struct irdma_hw_model *hw,
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

void irdma_hw_destroy_cq(struct irdma_hw_model *hw,
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

/*
 * CQARM written with a CQ's ID: the arm request is in the CQ's shadow
 * area.  An arm asks for one event, on the next CQE or the next solicited
 * one; a later arm replaces it.
 */
void irdma_hw_cq_arm(struct irdma_hw_model *hw, u32 cq_id)
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
