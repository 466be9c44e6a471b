// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's objects of the network side: MANAGE_ARP (the ARP
 * cache), WS_NODE (the work scheduler tree), CREATE_AH and DESTROY_AH
 * (address vectors), CREATE_MCG, MODIFY_MCG and DESTROY_MCG (multicast
 * groups) and MANAGE_PUSH_PAGE (push pages), and each as a test reads it.
 */
#include <linux/bitfield.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "irdma_hw_priv.h"

void irdma_hw_decode_arp(struct irdma_hw_wqe *w)
{
	u64 hdr = w->qword[3];

	w->arp.idx = FIELD_GET(HW_ARP_IDX, hdr);
	w->arp.valid = FIELD_GET(HW_ARP_VALID, hdr);
	w->arp.permanent = FIELD_GET(HW_ARP_PERMANENT, hdr);
	irdma_hw_mac(FIELD_GET(HW_ARP_MAC, w->qword[2]), w->arp.mac);
}

/* MANAGE_ARP: add an entry, or delete one that is there */
void irdma_hw_manage_arp(struct irdma_hw_model *hw,
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

void irdma_hw_decode_ws(struct irdma_hw_wqe *w)
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
void irdma_hw_ws_node(struct irdma_hw_model *hw,
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

void irdma_hw_decode_ah(struct irdma_hw_wqe *w)
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
void irdma_hw_create_ah(struct irdma_hw_model *hw,
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

void irdma_hw_destroy_ah(struct irdma_hw_model *hw,
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

void irdma_hw_decode_mcg(struct irdma_hw_wqe *w)
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
void irdma_hw_mcg(struct irdma_hw_model *hw, struct irdma_hw_wqe *w)
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

void irdma_hw_decode_push(struct irdma_hw_wqe *w)
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
void irdma_hw_manage_push_page(struct irdma_hw_model *hw,
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
