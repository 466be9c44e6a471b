// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: R/W contexts racing on one QP.  Threads set up, post, complete
 * and release I/Os at once through one QP whose MR pools hold fewer MRs
 * than the threads want, so that an empty pool (the -EAGAIN that ULPs
 * retry on) and its refill race with the rest.  Every I/O's data is
 * checked, and at the end no MR is lost or doubled: the pools are whole.
 *
 * Threads race on as many CPUs as the kernel has; where it has one (UML),
 * they still interleave at the points where an I/O sleeps holding its MRs.
 *
 * The I/Os spend nearly all their time on data, a few instructions in
 * thousands in the pools; the churn case does nothing but take MRs from
 * the pools and give them back, so that a lock missing there shows.
 */
#include <kunit/test.h>
#include <linux/bvec.h>
#include <linux/crc-t10dif.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/scatterlist.h>
#include <linux/t10-pi.h>
#include <rdma/rw.h>

#include "ib_mock.h"
#include "rw_under_test.h"
#include "warn_watch.h"

#define RACE_PORT	1
#define RACE_THREADS	4
#define RACE_IOS	64	/* per thread */
#define RACE_CHURNS	4096	/* per thread */
#define RACE_CHURN_HOLD	256	/* one init in this many sleeps */
#define RACE_MAX_PAGES	9
#define RACE_SQ_WRS	64	/* the ULP's share of the send queue */
#define RACE_PI_INTERVAL 512
#define RACE_REF_TAG	0x2a00
/* An I/O that cannot get its MRs for this long found them lost. */
#define RACE_RETRIES	20000

enum race_api { RACE_SG, RACE_BVEC, RACE_SIG };

/**
 * struct race_case - one race
 * @name:	description
 * @profile:	the device
 * @integrity:	create the QP with integrity MRs
 * @ctxs:	R/W contexts the QP is sized for, which fills its pools
 * @pages:	pages per I/O
 * @apis:	the APIs the threads' I/Os take in turn
 * @nr_apis:	entries of @apis
 */
struct race_case {
	const char *name;
	const struct ib_mock_profile *profile;
	bool integrity;
	u32 ctxs;
	u32 pages;
	enum race_api apis[3];
	u32 nr_apis;
};

/*
 * Pools by the device's rules: iWARP READs take an MR each, and one of 9
 * pages takes three MRs of 4 pages; every signature I/O takes an
 * integrity MR.  Each pool holds what one I/O needs, not four.
 */
static const struct race_case race_cases[] = {
	{ "iwarp: one MR per READ, pool of 1", &ib_mock_iwarp, false, 1, 4,
	  { RACE_SG, RACE_BVEC }, 2 },
	{ "small_mr: three MRs per READ, pool of 3", &ib_mock_small_mr, false,
	  3, 9, { RACE_SG, RACE_BVEC }, 2 },
	{ "pi: one integrity MR per signature I/O, pool of 1", &ib_mock_pi,
	  true, 1, 4, { RACE_SIG, RACE_SG, RACE_SIG }, 3 },
};

static void race_case_desc(const struct race_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(race, race_cases, race_case_desc);

struct race;

/**
 * struct race_thread - one thread's buffer and progress
 * @race:	the race it runs in
 * @id:		index; its remote region follows those of lower ids
 * @pages:	the data
 * @prot:	the memory PI of signature I/Os
 * @sg:		@pages as a scatterlist
 * @prot_sg:	@prot as a scatterlist
 * @bvecs:	@pages as bio_vecs
 * @ios:	I/Os done and checked, or inits undone by the churn
 * @exited:	completed as the thread exits
 */
struct race_thread {
	struct race *race;
	u32 id;
	struct page *pages[RACE_MAX_PAGES];
	struct page *prot;
	struct scatterlist sg[RACE_MAX_PAGES];
	struct scatterlist prot_sg;
	struct bio_vec bvecs[RACE_MAX_PAGES];
	u32 ios;
	struct completion exited;
};

/**
 * struct race - the threads and what they share
 * @test:	the case
 * @c:		its parameters
 * @mock:	the device and its QP
 * @poll_lock:	serializes polling
 * @refused:	inits refused with -EAGAIN, for an empty pool
 * @threads:	the threads
 */
struct race {
	struct kunit *test;
	const struct race_case *c;
	struct ib_mock *mock;
	/* Serializes polling: ib_process_cq_direct() is not reentrant. */
	struct mutex poll_lock;
	atomic_t refused;
	struct race_thread threads[RACE_THREADS];
};

static size_t race_len(const struct race *race)
{
	return race->c->pages * PAGE_SIZE;
}

static u8 race_byte(u32 seed, size_t pos)
{
	return seed + pos * 7 + (pos >> 8);
}

static u64 race_remote_off(const struct race_thread *t)
{
	return (u64)t->id * RACE_MAX_PAGES * PAGE_SIZE;
}

/* Page @i of the I/O's data: local, or in the thread's remote region. */
static u8 *race_page(struct race_thread *t, bool remote, u32 i)
{
	if (remote)
		return t->race->mock->remote + race_remote_off(t) +
		       i * PAGE_SIZE;
	return page_address(t->pages[i]);
}

/*
 * @seed's pattern in the local or remote data.  The patterns of seed and
 * ~seed differ in every byte, which makes ~seed the junk to overwrite.
 */
static void race_fill(struct race_thread *t, bool remote, u32 seed)
{
	u32 i, j;

	for (i = 0; i < t->race->c->pages; i++) {
		u8 *p = race_page(t, remote, i);

		for (j = 0; j < PAGE_SIZE; j++)
			p[j] = race_byte(seed, i * PAGE_SIZE + j);
	}
}

/* Where the data first differs from @seed's pattern, or its length. */
static size_t race_first_bad(struct race_thread *t, bool remote, u32 seed)
{
	u32 i, j;

	for (i = 0; i < t->race->c->pages; i++) {
		const u8 *p = race_page(t, remote, i);

		for (j = 0; j < PAGE_SIZE; j++)
			if (p[j] != race_byte(seed, i * PAGE_SIZE + j))
				return i * PAGE_SIZE + j;
	}
	return race_len(t->race);
}

/* T10-DIF Type 1 in memory, CRC guard; nothing on the wire. */
static void race_sig_attrs(struct ib_sig_attrs *attrs)
{
	*attrs = (struct ib_sig_attrs) {
		.check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_REFTAG,
		.mem.sig_type = IB_SIG_TYPE_T10_DIF,
		.mem.sig.dif = {
			.bg_type = IB_T10DIF_CRC,
			.pi_interval = RACE_PI_INTERVAL,
			.ref_tag = RACE_REF_TAG,
			.ref_remap = true,
		},
		.wire.sig_type = IB_SIG_TYPE_NONE,
	};
}

/* The tuple of data interval @block, as T10-DIF Type 1 defines it. */
static struct t10_pi_tuple race_tuple(struct race_thread *t, u32 block)
{
	u32 per_page = PAGE_SIZE / RACE_PI_INTERVAL;
	u8 *data = page_address(t->pages[block / per_page]) +
		   block % per_page * RACE_PI_INTERVAL;

	return (struct t10_pi_tuple) {
		.guard_tag = cpu_to_be16(crc_t10dif(data, RACE_PI_INTERVAL)),
		.ref_tag = cpu_to_be32(RACE_REF_TAG + block),
	};
}

static u32 race_blocks(struct race_thread *t)
{
	return race_len(t->race) / RACE_PI_INTERVAL;
}

static void race_make_pi(struct race_thread *t)
{
	struct t10_pi_tuple *pi = page_address(t->prot);
	u32 b;

	for (b = 0; b < race_blocks(t); b++)
		pi[b] = race_tuple(t, b);
}

static bool race_pi_good(struct race_thread *t)
{
	struct t10_pi_tuple *pi = page_address(t->prot);
	u32 b;

	for (b = 0; b < race_blocks(t); b++) {
		struct t10_pi_tuple want = race_tuple(t, b);

		if (memcmp(&pi[b], &want, sizeof(want)))
			return false;
	}
	return true;
}

static int race_init(struct race_thread *t, struct rdma_rw_ctx *ctx,
		     enum race_api api, enum dma_data_direction dir)
{
	struct ib_mock *mock = t->race->mock;
	u64 addr = mock->remote_addr + race_remote_off(t);
	u32 n = t->race->c->pages;
	struct ib_sig_attrs attrs;

	switch (api) {
	case RACE_SIG:
		race_sig_attrs(&attrs);
		return rdma_rw_ctx_signature_init(ctx, mock->qp, RACE_PORT,
						  t->sg, n, &t->prot_sg, 1,
						  &attrs, addr,
						  mock->remote_rkey, dir);
#if !RW_BASE
	case RACE_BVEC: {
		struct bvec_iter iter = { .bi_size = race_len(t->race) };

		return rdma_rw_ctx_init_bvec(ctx, mock->qp, RACE_PORT,
					     t->bvecs, n, iter, addr,
					     mock->remote_rkey, dir);
	}
#endif
	default:
		return rdma_rw_ctx_init(ctx, mock->qp, RACE_PORT, t->sg, n, 0,
					addr, mock->remote_rkey, dir);
	}
}

static void race_destroy(struct race_thread *t, struct rdma_rw_ctx *ctx,
			 enum race_api api, enum dma_data_direction dir)
{
	struct ib_qp *qp = t->race->mock->qp;
	u32 n = t->race->c->pages;

	switch (api) {
	case RACE_SIG:
		rdma_rw_ctx_destroy_signature(ctx, qp, RACE_PORT, t->sg, n,
					      &t->prot_sg, 1, dir);
		break;
#if !RW_BASE
	case RACE_BVEC:
		rdma_rw_ctx_destroy_bvec(ctx, qp, RACE_PORT, t->bvecs, n, dir);
		break;
#endif
	default:
		rdma_rw_ctx_destroy(ctx, qp, RACE_PORT, t->sg, n, dir);
		break;
	}
}

/* Init, retrying while the pool is empty as ULPs do. */
static int race_init_retry(struct race_thread *t, struct rdma_rw_ctx *ctx,
			   enum race_api api, enum dma_data_direction dir)
{
	int ret, tries;

	for (tries = 0; tries < RACE_RETRIES; tries++) {
		ret = race_init(t, ctx, api, dir);
		if (ret != -EAGAIN)
			return ret;
		atomic_inc(&t->race->refused);
		usleep_range(10, 50);
	}
	return ret;
}

/*
 * The mock executes work requests as they are posted, so the completion
 * is queued by the time ib_post_send() returns: one poll, ours or another
 * thread's, delivers it.
 */
static enum ib_wc_status race_complete(struct race *race,
				       struct ib_mock_done *done)
{
	enum ib_wc_status status = IB_WC_GENERAL_ERR;

	mutex_lock(&race->poll_lock);
	ib_mock_poll(race->mock);
	if (done->calls == 1)
		status = done->status;
	mutex_unlock(&race->poll_lock);
	return status;
}

/* One I/O through @api in @dir, checked. */
static bool race_io(struct race_thread *t, u32 i)
{
	struct race *race = t->race;
	struct kunit *test = race->test;
	enum race_api api = race->c->apis[i / 2 % race->c->nr_apis];
	enum dma_data_direction dir = (t->id + i) % 2 ? DMA_FROM_DEVICE :
							 DMA_TO_DEVICE;
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	u32 seed = t->id << 16 | i;
	struct ib_mr_status st = {};
	struct rdma_rw_ctx ctx;
	struct ib_mr *sig_mr;
	int ret;

	if (RW_BASE && api == RACE_BVEC)
		api = RACE_SG;
	if (dir == DMA_TO_DEVICE) {
		race_fill(t, false, seed);
		race_fill(t, true, ~seed);
		if (api == RACE_SIG)
			race_make_pi(t);
	} else {
		race_fill(t, false, ~seed);
		race_fill(t, true, seed);
		memset(page_address(t->prot), 0xa5, PAGE_SIZE);
	}

	ret = race_init_retry(t, &ctx, api, dir);
	if (ret <= 0) {
		KUNIT_FAIL(test, "thread %u, I/O %u: init: %d", t->id, i, ret);
		return false;
	}
	sig_mr = api == RACE_SIG ? ctx.reg->mr : NULL;
	ret = rdma_rw_ctx_post(&ctx, race->mock->qp, RACE_PORT, &done.cqe,
			       NULL);
	if (ret) {
		KUNIT_FAIL(test, "thread %u, I/O %u: post: %d", t->id, i, ret);
		race_destroy(t, &ctx, api, dir);
		return false;
	}
	/* Hold the MRs a while: the other threads meet an empty pool. */
	if (i % 4 == 0)
		schedule_timeout_uninterruptible(1);
	KUNIT_EXPECT_EQ_MSG(test, race_complete(race, &done), IB_WC_SUCCESS,
			    "thread %u, I/O %u", t->id, i);
	if (sig_mr) {
		KUNIT_EXPECT_EQ(test, 0, ib_check_mr_status(sig_mr,
							    IB_MR_CHECK_SIG_STATUS,
							    &st));
		KUNIT_EXPECT_EQ_MSG(test, st.fail_status, 0,
				    "thread %u, I/O %u", t->id, i);
	}
	race_destroy(t, &ctx, api, dir);

	if (dir == DMA_TO_DEVICE) {
		KUNIT_EXPECT_EQ_MSG(test, race_first_bad(t, true, seed),
				    race_len(race),
				    "thread %u, I/O %u: WRITE data", t->id, i);
	} else {
		KUNIT_EXPECT_EQ_MSG(test, race_first_bad(t, false, seed),
				    race_len(race),
				    "thread %u, I/O %u: READ data", t->id, i);
		if (api == RACE_SIG)
			KUNIT_EXPECT_TRUE_MSG(test, race_pi_good(t),
					      "thread %u, I/O %u: READ PI",
					      t->id, i);
	}
	return true;
}

static int race_thread_fn(void *data)
{
	struct race_thread *t = data;

	while (t->ios < RACE_IOS && race_io(t, t->ios))
		t->ios++;
	kthread_complete_and_exit(&t->exited, 0);
}

/*
 * An init and its destroy, nothing posted and no data touched: MRs out of
 * the pools and back.  A READ, which takes an MR on every device here.
 */
static bool race_churn(struct race_thread *t, u32 i)
{
	struct race *race = t->race;
	enum race_api api = race->c->apis[i % race->c->nr_apis];
	struct rdma_rw_ctx ctx;
	int ret;

	if (RW_BASE && api == RACE_BVEC)
		api = RACE_SG;
	ret = race_init_retry(t, &ctx, api, DMA_FROM_DEVICE);
	if (ret <= 0) {
		KUNIT_FAIL(race->test, "thread %u, init %u: %d", t->id, i,
			   ret);
		return false;
	}
	/* Now and then, hold the MRs: on one CPU too, others find none. */
	if (i % RACE_CHURN_HOLD == 0)
		usleep_range(10, 20);
	race_destroy(t, &ctx, api, DMA_FROM_DEVICE);
	return true;
}

static int race_churn_fn(void *data)
{
	struct race_thread *t = data;

	while (t->ios < RACE_CHURNS && race_churn(t, t->ios))
		t->ios++;
	kthread_complete_and_exit(&t->exited, 0);
}

static void race_free_page(void *page)
{
	__free_page(page);
}

static struct page *race_alloc_page(struct kunit *test)
{
	struct page *page = alloc_page(GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, page);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   race_free_page,
							   page));
	return page;
}

static void race_thread_setup(struct race *race, struct race_thread *t,
			      u32 id)
{
	u32 i, n = race->c->pages;

	t->race = race;
	t->id = id;
	init_completion(&t->exited);
	sg_init_table(t->sg, n);
	for (i = 0; i < n; i++) {
		t->pages[i] = race_alloc_page(race->test);
		sg_set_page(&t->sg[i], t->pages[i], PAGE_SIZE, 0);
		bvec_set_page(&t->bvecs[i], t->pages[i], PAGE_SIZE, 0);
	}
	t->prot = race_alloc_page(race->test);
	sg_init_one(&t->prot_sg, page_address(t->prot),
		    race_len(race) / RACE_PI_INTERVAL *
		    sizeof(struct t10_pi_tuple));
}

/* The device, its QP with pools for @c->ctxs contexts, and the threads. */
static struct race *race_setup(struct kunit *test)
{
	const struct race_case *c = test->param_value;
	struct race *race = kunit_kzalloc(test, sizeof(*race), GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, race);
	race->test = test;
	race->c = c;
	mutex_init(&race->poll_lock);
	race->mock = ib_mock_create_device(test, c->profile);
	race->mock->qp_max_send_wr = RACE_SQ_WRS;
	race->mock->qp = ib_mock_create_qp(race->mock, c->ctxs,
					   c->integrity ?
					   IB_QP_CREATE_INTEGRITY_EN : 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(race->mock->qp));
	for (i = 0; i < RACE_THREADS; i++)
		race_thread_setup(race, &race->threads[i], i);
	return race;
}

/*
 * Run @fn in every thread until each has done @ios, and check that then
 * no MR is lost, doubled or counted as in use, and no DMA left mapped.
 */
static void race_run(struct race *race, int (*fn)(void *data), u32 ios)
{
	struct kunit *test = race->test;
	struct ib_qp *qp = race->mock->qp;
	unsigned int mrs = ib_mock_pool_free(race->mock, &qp->rdma_mrs);
	unsigned int sig_mrs = ib_mock_pool_free(race->mock, &qp->sig_mrs);
	u32 i;

	/* No assertion from here on: the threads use what the test owns. */
	for (i = 0; i < RACE_THREADS; i++) {
		struct race_thread *t = &race->threads[i];
		struct task_struct *task;

		task = kthread_run(fn, t, "rw_race/%u", i);
		if (IS_ERR(task)) {
			KUNIT_FAIL(test, "thread %u: %pe", i, task);
			complete(&t->exited);
		}
	}
	for (i = 0; i < RACE_THREADS; i++) {
		wait_for_completion(&race->threads[i].exited);
		KUNIT_EXPECT_EQ_MSG(test, race->threads[i].ios, ios,
				    "thread %u", i);
	}

	KUNIT_EXPECT_EQ(test, qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(race->mock, &qp->rdma_mrs),
			mrs);
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(race->mock, &qp->sig_mrs),
			sig_mrs);
	KUNIT_EXPECT_EQ(test, race->mock->dma_live, 0);
	KUNIT_EXPECT_GT_MSG(test, atomic_read(&race->refused), 0,
			    "no thread met an empty pool: nothing raced");
	kunit_info(test, "%u threads on %u CPUs, %u inits, %d refused for an empty pool\n",
		   RACE_THREADS, num_online_cpus(), RACE_THREADS * ios,
		   atomic_read(&race->refused));
}

static void rw_test_race(struct kunit *test)
{
	race_run(race_setup(test), race_thread_fn, RACE_IOS);
}

static void rw_test_race_churn(struct kunit *test)
{
	race_run(race_setup(test), race_churn_fn, RACE_CHURNS);
}

static struct kunit_case race_test_cases[] = {
	KUNIT_CASE_PARAM(rw_test_race, race_gen_params),
	KUNIT_CASE_PARAM(rw_test_race_churn, race_gen_params),
	{}
};

static struct kunit_suite race_test_suite = {
	.name = "ib_core_rw_race",
	.suite_init = rw_suite_init_common,
	.suite_exit = warn_watch_suite_exit,
	.init = warn_watch_case_init,
	.test_cases = race_test_cases,
};

kunit_test_suite(race_test_suite);

MODULE_DESCRIPTION("KUnit tests of R/W contexts racing on one QP");
MODULE_LICENSE("GPL");
