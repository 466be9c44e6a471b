// SPDX-License-Identifier: GPL-2.0-only
/*
 * A second rw.c for ib_core_rw_bench: the one of the tree this series
 * applies to, built into the same kernel, so that one boot times both on
 * the same buffers and QPs, batch for batch, and what moves a whole boot
 * (where the kernel and its buffers landed, the host's load) weighs on
 * both alike.  tools/series/bench.sh copies that tree's rw.c and rw.h into
 * rw_bench_base/ before it builds; the Kconfig option exists only when
 * they are there.
 *
 * Every global name of the copy is renamed here, so it shares nothing with
 * ib_core's rw.c but the device, the QP and its MR pools, which ib_core
 * set up.  Its exports go out under the new names, for nobody.
 */
#define rdma_rw_ctx			rwb_base_ctx
#define rdma_rw_reg_ctx			rwb_base_reg_ctx
#define rdma_rw_ctx_init		rwb_base_ctx_init
#define rdma_rw_ctx_destroy		rwb_base_ctx_destroy
#define rdma_rw_ctx_wrs			rwb_base_ctx_wrs
#define rdma_rw_ctx_post		rwb_base_ctx_post
#define rdma_rw_ctx_signature_init	rwb_base_ctx_signature_init
#define rdma_rw_ctx_destroy_signature	rwb_base_ctx_destroy_signature
#define rdma_rw_mr_factor		rwb_base_mr_factor
#define rdma_rw_max_send_wr		rwb_base_max_send_wr
#define rdma_rw_init_qp			rwb_base_init_qp
#define rdma_rw_init_mrs		rwb_base_init_mrs
#define rdma_rw_cleanup_mrs		rwb_base_cleanup_mrs

/* First, so that the copy's own #include <rdma/rw.h> finds it included. */
#include "rw_bench_base/rw.h"
#include "rw_bench_base.h"
#include "rw_bench_base/rw.c"

static_assert(sizeof(struct rwb_base_ctx) <= RWB_BASE_CTX_SIZE);
