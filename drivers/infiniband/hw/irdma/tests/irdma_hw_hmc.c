// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The firmware model's HMC: UPDATE_PE_SDS, which writes the SD table's
 * entries, the PBLEs found through that table by their FPM address, and
 * GATHER_STATS, whose statistics block the model fills with zeros.
 */
#include <linux/bitfield.h>
#include <linux/spinlock.h>
#include <linux/string.h>

#include "irdma_hw_priv.h"

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

void irdma_hw_decode_sds(struct irdma_hw_wqe *w)
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

void irdma_hw_update_sds(struct irdma_hw_model *hw,
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

void irdma_hw_decode_stats(struct irdma_hw_wqe *w)
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
void irdma_hw_gather_stats(struct irdma_hw_model *hw,
			   struct irdma_hw_wqe *w)
{
	void *buf = irdma_hw_dma(hw, w->stats.buf_pa, IRDMA_HW_STATS_LEN);

	if (!buf) {
		irdma_hw_refuse(w, IRDMA_HW_MIN_DMA);
		return;
	}
	memset(buf, 0, IRDMA_HW_STATS_LEN);
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
u64 irdma_hw_pble(struct irdma_hw_model *hw, u64 idx)
{
	__le64 *pble = irdma_hw_fpm(hw, hw->pble_fpm + idx * sizeof(u64));

	return pble ? le64_to_cpu(*pble) : U64_MAX;
}

/* Page @n of a PBL of level @lvl (1 or 2) that starts at PBLE @first */
u64 irdma_hw_pbl_page(struct irdma_hw_model *hw, u8 lvl, u32 first,
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
