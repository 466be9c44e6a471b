// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's STag table: ALLOC_STAG (MRs and MWs), REG_MR,
 * DEALLOC_STAG and the FAST_REGISTER and LOCAL_INV WQEs of an SQ, each
 * region followed through its PBL to its pages; and the table as a test
 * reads it.
 */
#include <linux/bitfield.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "irdma_hw_priv.h"

void irdma_hw_decode_stag(const struct irdma_hw_gen *gen,
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

/*
 * REG_MR's own fields: the key, the VA (or first byte offset) in qword 0
 * and, with no PBL, the page's address in qword 4
 */
void irdma_hw_decode_reg(const struct irdma_hw_gen *gen,
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

void irdma_hw_alloc_stag(struct irdma_hw_model *hw,
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

void irdma_hw_dealloc_stag(struct irdma_hw_model *hw,
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
void irdma_hw_reg_mr(struct irdma_hw_model *hw, struct irdma_hw_wqe *w)
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
void irdma_hw_fast_register(struct irdma_hw_model *hw,
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

void irdma_hw_local_inv(struct irdma_hw_model *hw, u32 stag)
{
	struct irdma_hw_stag *s = irdma_hw_stag(hw, stag >> 8);

	if (s && s->idx == stag >> 8)
		s->registered = false;
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
