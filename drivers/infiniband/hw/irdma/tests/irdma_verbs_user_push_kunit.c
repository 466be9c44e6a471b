// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_user_push: the push pages of a user QP, through
 * modify_qp with a driver udata in a user process of irdma_user_env.h.
 * A user QP of a device in push mode gets a push page through the CQP
 * (MANAGE_PUSH_PAGE) on its way to INIT or RTR, and user space two mmap
 * keys for it in the modify_qp response: the push page's WQE page,
 * write-combined, and its doorbell page, uncached.  The keys must name the
 * BAR pages of the push page MANAGE_PUSH_PAGE took, and go when the QP
 * does; a key that cannot be made must leave nothing published.  6.12
 * turns push mode on nowhere (iwdev->push_mode, which the driver reads,
 * stays 0), so the cases turn it on as a device that offers it would.
 */
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <rdma/irdma-abi.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "irdma_user_env.h"

/*
 * E810's push pages in BAR 0 from 8 MiB on: push page N's WQE page N pages
 * in, the doorbell page user space rings for it the page after
 */
#define E810_PUSH_BAR_OFFSET	SZ_8M

/* The pages of the ucontext's mmap keys, entries and removed ones alike */
static u32 user_mmap_pages(struct ib_ucontext *uctx)
{
	struct rdma_user_mmap_entry *e;
	unsigned long pgoff;
	u32 n = 0;

	xa_for_each(&uctx->mmap_xa, pgoff, e)
		n++;
	return n;
}

/*
 * The entry behind an mmap key of the ucontext, with a reference that the
 * caller puts, as uverbs' mmap() takes one; NULL if the key names none.
 */
static struct irdma_user_mmap_entry *user_mmap_entry(struct user_env *env,
						     u64 key)
{
	struct rdma_user_mmap_entry *e;

	e = rdma_user_mmap_entry_get_pgoff(env->uctx, key >> PAGE_SHIFT);
	return e ? container_of(e, struct irdma_user_mmap_entry, rdma_entry) :
		   NULL;
}

/* A user QP of a device in push mode and the rings it is on */
struct user_push_qp {
	struct ib_qp *qp;
	struct user_qp_ctx *qp_ctx;
	struct user_mr_ctx *rings;
};

/* On the rings at USER_QP_PAGE; gone when the test ends, or before */
static void user_push_qp(struct user_env *env, struct ib_cq *cq,
			 struct user_push_qp *p)
{
	struct irdma_pci_f *rf = &env->mock->rf;
	struct kunit *test = env->test;

	KUNIT_ASSERT_GT(test, rf->sc_dev.hw_attrs.max_hw_device_pages, 0);
	env->mock->iwdev->push_mode = true;
	p->rings = user_reg_ctx(env, &user_qp_reg, user_page(env, USER_QP_PAGE),
				USER_QP_PAGES * PAGE_SIZE);
	p->qp_ctx = kunit_kzalloc(test, sizeof(*p->qp_ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->qp_ctx);
	p->qp_ctx->env = env;
	p->qp = user_try_qp(env, cq, user_page(env, USER_QP_PAGE),
			    sizeof(struct irdma_create_qp_req),
			    sizeof(struct irdma_create_qp_resp));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->qp);
	p->qp_ctx->qp = p->qp;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, user_destroy_qp,
							p->qp_ctx), 0);
}

/*
 * Destroy the QP, then deregister its rings, whose pages a later QP's
 * registration must not map a second time while they are mapped
 */
static void user_push_qp_destroy(struct user_env *env, struct user_push_qp *p)
{
	kunit_release_action(env->test, user_destroy_qp, p->qp_ctx);
	kunit_release_action(env->test, user_dereg, p->rings);
}

/*
 * uverbs' modify_qp of a user QP to @state, with room for the response
 * in the udata if @resp (no request); the response in @resp.
 */
static int user_modify_qp(struct user_env *env, struct ib_qp *qp,
			  enum ib_qp_state state,
			  struct irdma_modify_qp_resp *resp)
{
	struct ib_qp_attr attr = { .qp_state = state };
	struct ib_udata *udata;
	int ret;

	udata = user_udata(env, NULL, 0, resp ? sizeof(*resp) : 0);
	ret = qp->device->ops.modify_qp(qp, &attr, IB_QP_STATE, udata);
	if (resp)
		user_resp(env, resp, sizeof(*resp));
	return ret;
}

/*
 * The push page a MANAGE_PUSH_PAGE took, the QP's, in the response:
 * two keys of the ucontext, the WQE page write-combined and the doorbell
 * page uncached, at push page @idx's BAR offsets.
 */
static void user_expect_push_keys(struct user_env *env,
				  const struct irdma_modify_qp_resp *resp,
				  u32 idx)
{
	struct kunit *test = env->test;
	struct irdma_user_mmap_entry *wqe, *db;

	KUNIT_EXPECT_EQ(test, resp->push_valid, 1);
	KUNIT_EXPECT_EQ(test, resp->push_offset, 0);
	KUNIT_EXPECT_NE(test, resp->push_wqe_mmap_key, resp->push_db_mmap_key);
	wqe = user_mmap_entry(env, resp->push_wqe_mmap_key);
	db = user_mmap_entry(env, resp->push_db_mmap_key);
	KUNIT_EXPECT_NOT_NULL(test, wqe);
	KUNIT_EXPECT_NOT_NULL(test, db);
	if (wqe) {
		KUNIT_EXPECT_EQ(test, wqe->bar_offset,
				E810_PUSH_BAR_OFFSET + (u64)idx * SZ_4K);
		KUNIT_EXPECT_EQ(test, wqe->mmap_flag, IRDMA_MMAP_IO_WC);
		rdma_user_mmap_entry_put(&wqe->rdma_entry);
	}
	if (db) {
		KUNIT_EXPECT_EQ(test, db->bar_offset,
				E810_PUSH_BAR_OFFSET + (u64)(idx + 1) * SZ_4K);
		KUNIT_EXPECT_EQ(test, db->mmap_flag, IRDMA_MMAP_IO_NC);
		rdma_user_mmap_entry_put(&db->rdma_entry);
	}
}

/* The QP's push page given back through the CQP since WQE @seq */
static void user_expect_push_freed(struct user_env *env, u64 seq, u32 idx)
{
	struct kunit *test = env->test;
	struct irdma_hw_wqe w;

	irdma_mock_wqe_since(env->mock, seq, IRDMA_HW_OP_MANAGE_PUSH_PAGE, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_TRUE(test, w.push.free);
	KUNIT_EXPECT_EQ(test, w.push.idx, idx);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_push_page(env->mock->hw, idx,
							  NULL));
	KUNIT_EXPECT_EQ(test, irdma_hw_model_push_pages(env->mock->hw), 0);
	/* the command does not wait: the CCQ's event completes it */
	irdma_mock_ccq_event(env->mock);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(env->mock), 16);
}

/*
 * RESET to INIT of a user QP in push mode: a MANAGE_PUSH_PAGE takes a
 * push page for the QP's QS handle, and the response gives user space
 * the keys of that page's WQE and doorbell pages.  A mapping of a key
 * (a reference on its entry) outlives destroy_qp, which withdraws both
 * keys exactly once and gives the page back through the CQP: once the
 * mapping goes, the ucontext's mmap keys are those it had before.
 */
static void qp_push_page(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp cq_resp;
	struct irdma_user_mmap_entry *mapped;
	struct irdma_modify_qp_resp resp;
	struct user_push_qp p;
	struct irdma_hw_wqe w;
	struct ib_cq *cq;
	u32 keys, push;
	u64 seq;
	u16 qs;

	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	user_push_qp(env, cq, &p);
	keys = user_mmap_pages(env->uctx);
	push = irdma_hw_model_op_count(env->mock->hw,
				       IRDMA_HW_OP_MANAGE_PUSH_PAGE);
	seq = irdma_hw_model_wqes(env->mock->hw);

	KUNIT_ASSERT_EQ(test, user_modify_qp(env, p.qp, IB_QPS_INIT, &resp),
			0);
	KUNIT_ASSERT_EQ(test, irdma_hw_model_op_count(env->mock->hw,
						      IRDMA_HW_OP_MANAGE_PUSH_PAGE),
			push + 1);
	irdma_mock_wqe_since(env->mock, seq, IRDMA_HW_OP_MANAGE_PUSH_PAGE, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_FALSE(test, w.push.free);
	KUNIT_EXPECT_EQ(test, w.push.type, 0);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_push_page(env->mock->hw, w.ret,
							 &qs));
	KUNIT_EXPECT_EQ(test, qs, w.push.qs_handle);
	user_expect_push_keys(env, &resp, w.ret);
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys + 2);

	/* user space maps the WQE page */
	mapped = user_mmap_entry(env, resp.push_wqe_mmap_key);
	KUNIT_ASSERT_NOT_NULL(test, mapped);
	seq = irdma_hw_model_wqes(env->mock->hw);
	user_push_qp_destroy(env, &p);
	KUNIT_EXPECT_NULL(test, user_mmap_entry(env, resp.push_wqe_mmap_key));
	KUNIT_EXPECT_NULL(test, user_mmap_entry(env, resp.push_db_mmap_key));
	KUNIT_EXPECT_TRUE(test, mapped->rdma_entry.driver_removed);
	/* the doorbell page's key is gone, the mapped one's until unmapped */
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys + 1);
	rdma_user_mmap_entry_put(&mapped->rdma_entry);
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys);
	user_expect_push_freed(env, seq, w.ret);
}

#if IS_ENABLED(CONFIG_FAILSLAB) && IS_ENABLED(CONFIG_FAULT_INJECTION_DEBUG_FS)
/*
 * The doorbell page's key can only fail to be made for want of memory:
 * the kernel's fault injection fails the Nth slab allocation of a task
 * whose fail_nth is N.  By default failslab leaves alone allocations that
 * may sleep, which every one of these is, and dumps a stack for each
 * failure; both are debugfs knobs, whose files hold the variables'
 * addresses in their inode's i_private.
 */
struct user_failslab {
	bool *ignore_gfp_wait;
	unsigned long *verbose;
	bool was_ignoring;
	unsigned long was_verbose;
};

static void *user_failslab_knob(const char *name)
{
	struct dentry *dir = debugfs_lookup("failslab", NULL);
	struct dentry *file;
	void *data = NULL;

	if (!dir)
		return NULL;
	file = debugfs_lookup(name, dir);
	if (file) {
		data = d_inode(file)->i_private;
		dput(file);
	}
	dput(dir);
	return data;
}

static void user_failslab_restore(void *data)
{
	struct user_failslab *fs = data;

	WRITE_ONCE(*fs->ignore_gfp_wait, fs->was_ignoring);
	WRITE_ONCE(*fs->verbose, fs->was_verbose);
}

/* Let fail_nth fail any slab allocation, quietly, until the case ends */
static void user_failslab_arm(struct kunit *test)
{
	struct user_failslab *fs = kunit_kzalloc(test, sizeof(*fs),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fs);
	fs->ignore_gfp_wait = user_failslab_knob("ignore-gfp-wait");
	fs->verbose = user_failslab_knob("verbose");
	KUNIT_ASSERT_NOT_NULL(test, fs->ignore_gfp_wait);
	KUNIT_ASSERT_NOT_NULL(test, fs->verbose);
	fs->was_ignoring = *fs->ignore_gfp_wait;
	fs->was_verbose = *fs->verbose;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							user_failslab_restore,
							fs), 0);
	WRITE_ONCE(*fs->ignore_gfp_wait, false);
	WRITE_ONCE(*fs->verbose, 0);
}

/*
 * INIT to INIT of a QP that has its push page but no keys yet, its @nth
 * slab allocation failed: the modify's result.  *@left: how many more
 * allocations the count had to go, 0 if the failure was reached.
 */
static int user_push_keys_failing(struct user_env *env, struct ib_qp *qp,
				  unsigned int nth, unsigned int *left,
				  struct irdma_modify_qp_resp *resp)
{
	int ret;

	current->fail_nth = nth;
	ret = user_modify_qp(env, qp, IB_QPS_INIT, resp);
	*left = current->fail_nth;
	current->fail_nth = 0;
	return ret;
}
#else
static void user_failslab_arm(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS");
}

static int user_push_keys_failing(struct user_env *env, struct ib_qp *qp,
				  unsigned int nth, unsigned int *left,
				  struct irdma_modify_qp_resp *resp)
{
	*left = nth;
	return -EOPNOTSUPP;
}
#endif

/* Allocations the count of user_push_keys_failing() starts from */
#define USER_FAIL_COUNT		1000

/*
 * A QP in INIT with its push page, but no key for it given out yet; the
 * push page's index in *@idx
 */
static void user_push_qp_init(struct user_env *env, struct ib_cq *cq,
			      struct user_push_qp *p, u32 *idx)
{
	u64 seq = irdma_hw_model_wqes(env->mock->hw);
	struct irdma_hw_wqe w;

	user_push_qp(env, cq, p);
	/* no room for a response: no keys */
	KUNIT_ASSERT_EQ(env->test, user_modify_qp(env, p->qp, IB_QPS_INIT,
						  NULL), 0);
	irdma_mock_wqe_since(env->mock, seq, IRDMA_HW_OP_MANAGE_PUSH_PAGE, &w);
	KUNIT_ASSERT_FALSE(env->test, w.error);
	KUNIT_ASSERT_TRUE(env->test, irdma_hw_model_push_page(env->mock->hw,
							      w.ret, NULL));
	*idx = w.ret;
}

/*
 * The WQE page's key made, the doorbell page's refused for want of
 * memory: modify_qp succeeds without push mode (push_valid 0) and the
 * WQE page's key is withdrawn, the ucontext's keys as before.  The QP
 * keeps no hold on what it withdrew: the next modify makes both keys,
 * and destroy_qp withdraws them once and gives the page back.
 *
 * The doorbell page's key is the last of the modify's allocations whose
 * failure costs the keys (a failed xarray node allocation is retried
 * with one that may sleep): the modify is tried with each allocation
 * failed from the last on until one gives no keys.
 */
static void qp_push_page_db_key_refused(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp cq_resp;
	struct irdma_modify_qp_resp resp;
	unsigned int nth, allocs, left;
	struct user_push_qp p;
	struct irdma_qp *iwqp;
	struct ib_cq *cq;
	u32 keys, idx;
	u64 seq;
	int ret;

	user_failslab_arm(test);
	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	keys = user_mmap_pages(env->uctx);

	user_push_qp_init(env, cq, &p, &idx);
	KUNIT_ASSERT_EQ(test, user_push_keys_failing(env, p.qp,
						     USER_FAIL_COUNT, &left,
						     &resp), 0);
	KUNIT_ASSERT_GT(test, left, 0);
	allocs = USER_FAIL_COUNT - left;
	KUNIT_ASSERT_EQ(test, resp.push_valid, 1);
	user_push_qp_destroy(env, &p);
	irdma_mock_ccq_event(env->mock);
	KUNIT_ASSERT_EQ(test, user_mmap_pages(env->uctx), keys);

	for (nth = allocs; nth; nth--) {
		user_push_qp_init(env, cq, &p, &idx);
		ret = user_push_keys_failing(env, p.qp, nth, &left, &resp);
		if (!ret && !left && !resp.push_valid)
			break;
		user_push_qp_destroy(env, &p);
		irdma_mock_ccq_event(env->mock);
	}
	KUNIT_ASSERT_GT_MSG(test, nth, 0,
			    "no failed allocation of %u cost the keys", allocs);
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys);

	iwqp = to_iwqp(p.qp);
	KUNIT_EXPECT_EQ(test, user_modify_qp(env, p.qp, IB_QPS_INIT, &resp),
			0);
	KUNIT_EXPECT_EQ(test, resp.push_valid, 1);
	if (resp.push_valid) {
		user_expect_push_keys(env, &resp, idx);
		KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys + 2);
	} else if (iwqp->push_wqe_mmap_entry || iwqp->push_db_mmap_entry) {
		/*
		 * The QP still points at an entry it withdrew, which was
		 * freed then: destroy_qp would withdraw it again, a use
		 * after free that can take the kernel down.
		 */
		KUNIT_FAIL(test, "the QP holds a withdrawn mmap entry");
		iwqp->push_wqe_mmap_entry = NULL;
		iwqp->push_db_mmap_entry = NULL;
	}
	seq = irdma_hw_model_wqes(env->mock->hw);
	user_push_qp_destroy(env, &p);
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys);
	user_expect_push_freed(env, seq, idx);
}

static struct kunit_case irdma_verbs_user_push_cases[] = {
	KUNIT_CASE(qp_push_page),
	KUNIT_CASE(qp_push_page_db_key_refused),
	{}
};

static struct kunit_suite irdma_verbs_user_push_suite = {
	.name = "irdma_verbs_user_push",
	.test_cases = irdma_verbs_user_push_cases,
};

kunit_test_suite(irdma_verbs_user_push_suite);
