/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The base tree's rw.c as ib_core_rw_bench times it beside ours: its
 * scatterlist entry points under names of their own (rw_bench_base.c).
 */
#ifndef _RW_BENCH_BASE_H
#define _RW_BENCH_BASE_H

#include <linux/dma-direction.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>

/* Room for the base's struct rdma_rw_ctx; rw_bench_base.c checks it. */
#define RWB_BASE_CTX_SIZE	256

struct rwb_base_ctx;

int rwb_base_ctx_init(struct rwb_base_ctx *ctx, struct ib_qp *qp,
		      u32 port_num, struct scatterlist *sg, u32 sg_cnt,
		      u32 sg_offset, u64 remote_addr, u32 rkey,
		      enum dma_data_direction dir);
struct ib_send_wr *rwb_base_ctx_wrs(struct rwb_base_ctx *ctx,
				    struct ib_qp *qp, u32 port_num,
				    struct ib_cqe *cqe,
				    struct ib_send_wr *chain_wr);
void rwb_base_ctx_destroy(struct rwb_base_ctx *ctx, struct ib_qp *qp,
			  u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			  enum dma_data_direction dir);

#endif /* _RW_BENCH_BASE_H */
