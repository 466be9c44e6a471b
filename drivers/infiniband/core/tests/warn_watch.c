// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kernel's WARNs, counted per KUnit case.  Every WARN ends in the
 * error_report_end tracepoint; a suite registers for it, and each of its
 * cases fails if a WARN fired during it that the case did not claim with
 * warn_watch_expect().  KUnit runs one case at a time, so a WARN from
 * anywhere in the kernel while a case runs counts against that case.
 */
#include <linux/atomic.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/mman.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/uaccess.h>
#include <trace/events/error_report.h>

#include "warn_watch.h"

static atomic_t warn_watch_count;
/* Where the first unclaimed WARN fired, for the failure message. */
static unsigned long warn_watch_first;

static void warn_watch_probe(void *data, enum error_detector detector,
			     unsigned long caller)
{
	if (detector != ERROR_DETECTOR_WARN)
		return;
	if (atomic_inc_return(&warn_watch_count) == 1)
		WRITE_ONCE(warn_watch_first, caller);
}

/**
 * warn_watch_register - start counting WARNs, from a suite's suite_init
 *
 * Return: 0, or the error of the tracepoint registration (-ENOSYS in a
 * kernel without tracepoints).
 */
int warn_watch_register(void)
{
	return register_trace_error_report_end(warn_watch_probe, NULL);
}
EXPORT_SYMBOL_GPL(warn_watch_register);

/**
 * warn_watch_unregister - stop counting, from the suite's suite_exit
 */
void warn_watch_unregister(void)
{
	unregister_trace_error_report_end(warn_watch_probe, NULL);
	tracepoint_synchronize_unregister();
}
EXPORT_SYMBOL_GPL(warn_watch_unregister);

static void warn_watch_check(void *data)
{
	struct kunit *test = data;

	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&warn_watch_count), 0,
			    "unexpected WARN, the first with caller %pS",
			    (void *)READ_ONCE(warn_watch_first));
}

/**
 * warn_watch_case - count the WARNs of @test, from the suite's init
 * @test:	the case about to run
 *
 * The check runs at the very end of the case, after the teardown actions
 * the case adds, so that a WARN in a teardown counts too.
 */
void warn_watch_case(struct kunit *test)
{
	int ret;

	atomic_set(&warn_watch_count, 0);
	ret = kunit_add_action_or_reset(test, warn_watch_check, test);
	KUNIT_ASSERT_EQ(test, ret, 0);
}
EXPORT_SYMBOL_GPL(warn_watch_case);

/*
 * Write "1" to @file.  A debugfs attribute takes writes from user memory
 * alone (kernel_write() needs write_iter, which it lacks), so the byte
 * goes through a user mapping of the test's own.
 */
static ssize_t warn_watch_write_one(struct kunit *test, struct file *file)
{
	unsigned long ubuf = kunit_vm_mmap(test, NULL, 0, PAGE_SIZE,
					   PROT_READ | PROT_WRITE,
					   MAP_ANONYMOUS | MAP_PRIVATE, 0);
	loff_t pos = 0;

	if (IS_ERR_OR_NULL((void *)ubuf))
		return -ENOMEM;
	if (copy_to_user((char __user *)ubuf, "1", 1))
		return -EFAULT;
	return file->f_op->write(file, (char __user *)ubuf, 1, &pos);
}

/**
 * warn_watch_rearm - let every WARN_ONCE() site fire again
 * @test:	the case that expects a warning
 *
 * Writes to debugfs' clear_warn_once, the kernel's own switch for this,
 * through a mount of debugfs of our own (KUnit runs before anything is
 * mounted): a case that expects a WARN from a WARN_ON_ONCE() must see it
 * even when an earlier case fired the same site.
 */
void warn_watch_rearm(struct kunit *test)
{
	struct file_system_type *type = get_fs_type("debugfs");
	struct vfsmount *mnt;
	struct file *file;
	ssize_t written = 0;

	KUNIT_ASSERT_NOT_NULL_MSG(test, type, "no debugfs");
	mnt = kern_mount(type);
	/* put_filesystem(), which modules cannot call */
	module_put(type->owner);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(mnt), "debugfs mount: %pe", mnt);

	file = file_open_root_mnt(mnt, "clear_warn_once", O_WRONLY, 0);
	if (!IS_ERR(file)) {
		written = warn_watch_write_one(test, file);
		fput(file);
	}
	kern_unmount(mnt);
	KUNIT_ASSERT_FALSE_MSG(test, IS_ERR(file), "clear_warn_once: %pe",
			       file);
	KUNIT_ASSERT_EQ(test, written, 1);
}
EXPORT_SYMBOL_GPL(warn_watch_rearm);

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

MODULE_DESCRIPTION("Counting the kernel's WARNs in KUnit cases");
MODULE_LICENSE("GPL");
