/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * The test seam of irdma's verbs.c: the only places through which it
 * rings doorbells.  With CONFIG_KUNIT they are visible and carry
 * KUNIT_STATIC_STUB_REDIRECT, so the KUnit suites in tests/ can watch them
 * on a device that exists only in memory, whose ops irdma_set_device_ops()
 * sets as registration would.
 */
#ifndef IRDMA_VERBS_SEAM_H
#define IRDMA_VERBS_SEAM_H

#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "main.h"

#if IS_ENABLED(CONFIG_KUNIT)
void irdma_verbs_ring_sq(struct irdma_qp *iwqp);
void irdma_verbs_arm_cq(struct irdma_cq *iwcq, enum irdma_cmpl_notify type);
void irdma_set_device_ops(struct ib_device *ibdev, bool roce);
#endif

#endif /* IRDMA_VERBS_SEAM_H */
