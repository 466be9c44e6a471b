// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's WARNs, counted per KUnit case.  Every WARN ends in the
 * error_report_end tracepoint; a suite registers for it, and each of its
 * cases fails if a WARN fired during it that the case did not claim with
 * warn_watch_expect().  KUnit runs one case at a time, so a WARN from
 * anywhere in the kernel while a case runs counts against that case.
 *
 * dma-debug (CONFIG_DMA_API_DEBUG) WARNs for the first DMA-API error of a
 * boot only and counts the others; a case also fails if that count grew
 * while it ran.
 */
#include <linux/atomic.h>
#include <linux/debugfs.h>
#include <linux/module.h>
#include <linux/string.h>
#include <trace/events/error_report.h>

#include "warn_watch.h"

static atomic_t warn_watch_count;
/* Where the first unclaimed WARN fired, for the failure message. */
static unsigned long warn_watch_first;
/* The misuses that drew their WARN_ON_ONCE() in this boot. */
static char warn_watch_warned[8][80];
static unsigned int warn_watch_nr_warned;
/* dma-debug's error count, NULL without dma-debug. */
static u32 *warn_watch_dma_errors;
static u32 warn_watch_dma_errors_start;

static void warn_watch_probe(void *data, enum error_detector detector,
			     unsigned long caller)
{
	if (detector != ERROR_DETECTOR_WARN)
		return;
	if (atomic_inc_return(&warn_watch_count) == 1)
		WRITE_ONCE(warn_watch_first, caller);
}

/**
 * warn_watch_knob - the variable behind a debugfs file of a kernel checker
 * @dir:	the file's directory in debugfs' root, as "failslab"
 * @name:	the file, as "verbose"
 *
 * Files that show a variable (debugfs_create_u32() and the like) keep its
 * address in their inode's i_private, as debugfs documents.
 *
 * Return: the variable, or NULL if there is no such file.
 */
void *warn_watch_knob(const char *dir, const char *name)
{
	struct dentry *parent = debugfs_lookup(dir, NULL);
	struct dentry *file;
	void *data = NULL;

	if (!parent)
		return NULL;
	file = debugfs_lookup(name, parent);
	if (file) {
		data = d_inode(file)->i_private;
		dput(file);
	}
	dput(parent);
	return data;
}
EXPORT_SYMBOL_GPL(warn_watch_knob);

/**
 * warn_watch_register - start counting WARNs, from a suite's suite_init
 *
 * Return: 0, or the error of the tracepoint registration (-ENOSYS in a
 * kernel without tracepoints).
 */
int warn_watch_register(void)
{
	if (IS_ENABLED(CONFIG_DMA_API_DEBUG))
		warn_watch_dma_errors = warn_watch_knob("dma-api",
							"error_count");
	return register_trace_error_report_end(warn_watch_probe, NULL);
}
EXPORT_SYMBOL_GPL(warn_watch_register);

/**
 * warn_watch_suite_exit - stop counting: a suite's suite_exit
 * @suite:	the suite
 */
void warn_watch_suite_exit(struct kunit_suite *suite)
{
	unregister_trace_error_report_end(warn_watch_probe, NULL);
	tracepoint_synchronize_unregister();
}
EXPORT_SYMBOL_GPL(warn_watch_suite_exit);

static u32 warn_watch_dma_count(void)
{
	return warn_watch_dma_errors ? READ_ONCE(*warn_watch_dma_errors) : 0;
}

static void warn_watch_check(void *data)
{
	struct kunit *test = data;
	u32 dma_errors = warn_watch_dma_count() - warn_watch_dma_errors_start;

	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&warn_watch_count), 0,
			    "unexpected WARN, the first with caller %pS",
			    (void *)READ_ONCE(warn_watch_first));
	KUNIT_EXPECT_EQ_MSG(test, dma_errors, 0,
			    "DMA-API errors found by dma-debug (the boot's first is in the kernel log)");
}

/**
 * warn_watch_case_init - count the WARNs of @test: a suite's init
 * @test:	the case about to run
 *
 * The check runs at the very end of the case, after the teardown actions
 * the case adds, so that a WARN in a teardown counts too.
 *
 * Return: 0, or the error of adding the check.
 */
int warn_watch_case_init(struct kunit *test)
{
	atomic_set(&warn_watch_count, 0);
	warn_watch_dma_errors_start = warn_watch_dma_count();
	return kunit_add_action_or_reset(test, warn_watch_check, test);
}
EXPORT_SYMBOL_GPL(warn_watch_case_init);

/**
 * warn_watch_expect - claim the WARNs a case expects
 * @test:	the case
 * @n:		WARNs expected since the case began or last claimed them
 *
 * Expects exactly @n, and claims them, so that they do not fail the case
 * at its end.
 */
void warn_watch_expect(struct kunit *test, int n)
{
	KUNIT_EXPECT_EQ(test, atomic_xchg(&warn_watch_count, 0), n);
}
EXPORT_SYMBOL_GPL(warn_watch_expect);

/**
 * warn_watch_expect_once - claim the warning of a WARN_ON_ONCE() site
 * @test:	the case
 * @misuse:	what the case did that draws the warning, naming the call
 *
 * A WARN_ON_ONCE() warns the first time it is hit in a boot only.  So
 * @misuse must have drawn exactly one WARN now, or have drawn one earlier
 * in this boot, as recorded here; never more than one.  (The kernel can
 * re-arm such sites through debugfs' clear_warn_once, but that file takes
 * writes from user memory only, which a KUnit case gets from
 * kunit_vm_mmap(), whose mm Linux 6.12 never frees.)
 */
void warn_watch_expect_once(struct kunit *test, const char *misuse)
{
	int n = atomic_xchg(&warn_watch_count, 0);
	unsigned int i;

	KUNIT_EXPECT_LE_MSG(test, n, 1, "%s", misuse);
	for (i = 0; i < warn_watch_nr_warned; i++)
		if (!strcmp(warn_watch_warned[i], misuse))
			return;
	KUNIT_EXPECT_EQ_MSG(test, n, 1, "no WARN for %s, now or before",
			    misuse);
	if (n && !WARN_ON(warn_watch_nr_warned ==
			  ARRAY_SIZE(warn_watch_warned)))
		strscpy(warn_watch_warned[warn_watch_nr_warned++], misuse);
}
EXPORT_SYMBOL_GPL(warn_watch_expect_once);

MODULE_DESCRIPTION("Counting the kernel's WARNs and DMA-API errors in KUnit cases");
MODULE_LICENSE("GPL");
