/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What rw.c shows its KUnit tests (drivers/infiniband/core/tests/), and
 * nobody else.
 */
#ifndef _RDMA_RW_PRIV_H
#define _RDMA_RW_PRIV_H

#include <linux/types.h>

#if IS_ENABLED(CONFIG_KUNIT)
/* ib_core's force_mr parameter: MRs for every RDMA READ and WRITE. */
extern bool rdma_rw_force_mr;
#endif

#endif /* _RDMA_RW_PRIV_H */
