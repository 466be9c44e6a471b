// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's QPs: CREATE_QP, MODIFY_QP, DESTROY_QP and
 * FLUSH_WQES of iWARP and RoCE (RC, UD) QPs, each QP's host context read
 * where the command points, the states a QP may move through, and the RQ
 * WQEs a test reads with the hardware's layout.
 */
#include <linux/bitfield.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "irdma_hw_priv.h"

void irdma_hw_decode_qp(struct irdma_hw_wqe *w)
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

void irdma_hw_decode_flush(struct irdma_hw_wqe *w)
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
bool irdma_hw_cq_exists(struct irdma_hw_model *hw, u32 id)
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

void irdma_hw_mac(u64 v, u8 *mac)
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

void irdma_hw_create_qp(struct irdma_hw_model *hw,
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
void irdma_hw_do_modify_qp(struct irdma_hw_model *hw,
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

void irdma_hw_destroy_qp(struct irdma_hw_model *hw,
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
void irdma_hw_do_flush_wqes(struct irdma_hw_model *hw,
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
