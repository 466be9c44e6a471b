/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which rw.c the R/W suites judge: this series' own, or with
 * CONFIG_INFINIBAND_RW_KUNIT_TEST_BASE_RW the base tree's (Linux 6.12's,
 * tools/series/base-rw.sh).  The base rw.c is held to the API's
 * kernel-doc and to what in-tree ULPs rely on; what this series promises
 * beyond that is checked on its own rw.c alone.
 */
#ifndef _RW_UNDER_TEST_H
#define _RW_UNDER_TEST_H

#include <kunit/test.h>
#include <rdma/rw.h>

#include "ib_mock.h"
#include "warn_watch.h"

#define RW_BASE	IS_ENABLED(CONFIG_INFINIBAND_RW_KUNIT_TEST_BASE_RW)

/*
 * What this series' rw.c promises beyond the API's kernel-doc (its own
 * errno for each refusal, bidirectional I/O refused, a destroy that
 * leaves a failed context alone) is not asked of the base rw.c.
 */
static inline void rw_series_promise(struct kunit *test, const char *what)
{
	if (RW_BASE)
		kunit_skip(test, "%s: this series' promise, not the base rw.c's",
			   what);
}

/*
 * A refused init: @want exactly, or from the base rw.c any errno but
 * where the API names it: -EAGAIN for an empty MR pool, which ULPs
 * retry on and rw.c itself falls back on.
 */
static inline void rw_expect_refused(struct kunit *test, int want, int got)
{
	if (RW_BASE && want != -EAGAIN)
		KUNIT_EXPECT_LT(test, got, 0);
	else
		KUNIT_EXPECT_EQ(test, got, want);
}

/*
 * A context as a ULP hands it to init: any garbage for this series'
 * rw.c, which zeroes nr_ops whenever init fails; zeroed for the base
 * rw.c, where a ULP relying on nr_ops (isert) zeroes it first.
 */
static inline void rw_ctx_fresh(struct rdma_rw_ctx *ctx)
{
	if (RW_BASE)
		memset(ctx, 0, sizeof(*ctx));
	else
		ctx->nr_ops = 42;
}

/*
 * A case that reaches a fault in the base rw.c (a NULL or divide-by-zero
 * fault, or BUG()), which UML turns into a panic that ends the run.  The
 * x86_64 kernel survives it, failing the case: it runs the case there.
 */
static inline void rw_base_faults(struct kunit *test)
{
	if (RW_BASE && IS_ENABLED(CONFIG_UML))
		kunit_skip(test,
			   "faults on the base rw.c, a panic on UML: x86_64 runs it");
}

/*
 * The suite_init of the R/W suites: WARNs counted, the mock as strict as
 * the rw.c under test allows (the base rw.c registers a WRITE's source
 * writable).
 */
static inline int rw_suite_init_common(struct kunit_suite *suite)
{
	ib_mock_lax_access = RW_BASE;
	return warn_watch_register();
}

#endif /* _RW_UNDER_TEST_H */
