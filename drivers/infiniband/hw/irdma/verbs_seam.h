/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What irdma's verbs.c shows KUnit tests: with CONFIG_KUNIT,
 * irdma_set_device_ops() is visible, so that the suites in tests/ can give
 * a device that exists only in memory the ops that registration would.
 */
#ifndef IRDMA_VERBS_SEAM_H
#define IRDMA_VERBS_SEAM_H

#include <kunit/visibility.h>

#include "main.h"

#if IS_ENABLED(CONFIG_KUNIT)
void irdma_set_device_ops(struct ib_device *ibdev, bool roce);
#endif

#endif /* IRDMA_VERBS_SEAM_H */
