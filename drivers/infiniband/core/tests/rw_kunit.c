// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the RDMA R/W context API (rw.c), run through the mock
 * device of ib_mock.c: each I/O is posted and executed, and the tests
 * check the bytes that moved, the work requests that moved them and that
 * the QP's MR pool is whole again afterwards.  This suite moves data: every
 * device profile, API, direction and buffer shape, MRs and their reuse,
 * the QP's limits and the sizing helpers.  Its neighbours take the error
 * paths (rw_error_kunit.c) and the DMA mappings (rw_dma_kunit.c).
 */
#include <linux/mm.h>
#include <kunit/test.h>

#include "ib_mock.h"
#include "rw_kunit_helpers.h"
#include "rw_under_test.h"
#include "warn_watch.h"

static const struct rw_shape rw_shapes[] = {
	{ "1byte", 1, 0, 1, 0, true },
	{ "page", 1, 0, 0, 0 },
	{ "unaligned", 3, 100, 77, 0, true },
	{ "3pages", 3, 0, 0, 0 },
	{ "4pages", 4, 0, 0, 0 },
	{ "5pages", 5, 0, 0, 0, true },
	{ "8pages", 8, 0, 0, 0 },
	{ "9pages", 9, 0, 0, 0 },
	{ "offset_in_first", 4, 0, 0, 512 },
	{ "offset_crossing", 4, 0, 0, PAGE_SIZE + 5, true },
	{ "offset_to_last", 3, 8, 0, 2 * PAGE_SIZE - 8 },
	{ "64pages", 64, 0, 0, 0, true },
	{ "1024pages", 1024, 0, 0, 0 },
};

/* Shapes that also run with force_mr. */
#define RW_FORCED_SHAPES	5

static const struct ib_mock_profile *const rw_profiles[] = {
	&ib_mock_ib, &ib_mock_roce, &ib_mock_iwarp, &ib_mock_sgl_rd,
	&ib_mock_sge1, &ib_mock_sge2, &ib_mock_small_mr, &ib_mock_pi,
};

struct rw_case {
	const struct ib_mock_profile *profile;
	const struct rw_shape *shape;
	enum dma_data_direction dir;
	enum rw_api api;
	bool force_mr;
};

/* The cases of rw_test_data(), then those of rw_test_force_mr(). */
static struct rw_case rw_cases[2 * ARRAY_SIZE(rw_profiles) * 2 *
			       (ARRAY_SIZE(rw_shapes) + RW_FORCED_SHAPES)];
static const struct rw_case *rw_forced_cases;

static const void *rw_next_case(const struct rw_case *c,
				const struct rw_case *end, char *desc)
{
	if (c == end)
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s %s %s%s",
		 c->api == RW_BVEC ? "bvec" : "sg", c->profile->name,
		 c->dir == DMA_TO_DEVICE ? "write" : "read", c->shape->name,
		 c->force_mr ? " force_mr" : "");
	return c;
}

static const void *rw_case_gen(const void *prev, char *desc)
{
	return rw_next_case(prev ? (const struct rw_case *)prev + 1 : rw_cases,
			    rw_forced_cases, desc);
}

static const void *rw_forced_case_gen(const void *prev, char *desc)
{
	return rw_next_case(prev ? (const struct rw_case *)prev + 1 :
			    rw_forced_cases,
			    rw_cases + ARRAY_SIZE(rw_cases), desc);
}

static void rw_test_data(struct kunit *test)
{
	const struct rw_case *c = test->param_value;
	struct ib_mock *mock;
	struct rw_buf *buf;

	if (c->api == RW_BVEC)
		rw_need_bvec(test);
	if (c->force_mr)
		rw_force_mr(test);
	/*
	 * The base rw.c fills plain MRs of an integrity QP only to the
	 * integrity page-list length, while rdma_rw_mr_factor() sizes the
	 * pool by the plain one.  No in-tree device has an integrity list
	 * shorter than the 256 pages rw.c caps both at.
	 */
	if (c->profile->max_pi_fr_pages &&
	    c->shape->nents > c->profile->max_pi_fr_pages &&
	    rw_expect_mr(c->profile, c->shape->nents, c->dir))
		rw_series_promise(test,
				  "plain MRs of an integrity QP at the plain list length");
	mock = ib_mock_create_device(test, c->profile);
	buf = rw_buf_alloc(test, c->shape);

	/*
	 * One MR per page: no I/O can need more, whatever size rw.c makes
	 * its MRs, and rw_check_chain() holds the MRs taken to
	 * rdma_rw_mr_factor() apart from the pool.  Integrity is enabled
	 * where the device has it, as nvmet-rdma does.  rw.c adds send
	 * queue slots per context for a registration's three work
	 * requests, but where only READs register (iWARP, max_sgl_rd) a
	 * WRITE's SGE list takes more: ULPs count the work requests init
	 * returns against their own share of the queue (nvmet-rdma's
	 * sq_wr_avail), which here holds one per page.
	 */
	mock->qp_max_send_wr = c->shape->nents;
	mock->qp = ib_mock_create_qp(mock, c->shape->nents,
				     c->profile->max_pi_fr_pages ?
				     IB_QP_CREATE_INTEGRITY_EN : 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->qp));
	rw_do_io(test, mock, buf, c->shape->sg_offset, c->dir, c->api);
}

/* rw_test_data() for the shapes that run with ib_core's force_mr on. */
static void rw_test_force_mr(struct kunit *test)
{
	rw_test_data(test);
}

/*
 * Thousands of I/Os through one MR: each registration must bump the key
 * and invalidate what the previous one left valid, or the mock refuses.
 */
static void rw_test_mr_reuse(struct kunit *test)
{
	static const struct rw_shape shape = { "mr", 8, 0, 0, 0 };
	const struct ib_mock_profile *const profiles[] = {
		&ib_mock_iwarp, &ib_mock_sgl_rd,
	};
	u32 i, n, w;

	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		struct ib_mock *mock = ib_mock_create(test, profiles[i], 1, 0);
		struct rw_buf *buf = rw_buf_alloc(test, &shape);
		u32 key = 0;

		for (n = 0; n < 2000 && test->status == KUNIT_SUCCESS; n++) {
			rw_do_io(test, mock, buf, 0, DMA_FROM_DEVICE, RW_SG);
			/* Every registration gets a key of its own. */
			for (w = 0; w < mock->nr_log; w++) {
				if (mock->log[w].opcode != IB_WR_REG_MR)
					continue;
				KUNIT_EXPECT_NE(test, mock->log[w].key, key);
				key = mock->log[w].key;
			}
		}
	}
}

/*
 * The same MRs again and again for an I/O that takes two of them: a WRITE
 * leaves its MRs registered, so the next must invalidate each before it
 * registers it again, the second as the first, or the mock refuses.  An
 * iWARP WRITE registers only with force_mr; small_mr has 4 pages an MR.
 */
static void rw_test_mr_reuse_two(struct kunit *test)
{
	static const struct rw_shape shape = { "two MRs", 8, 0, 0, 0 };
	struct ib_mock *mock;
	struct rw_buf *buf;
	int n;

	rw_force_mr(test);
	mock = ib_mock_create_device(test, &ib_mock_small_mr);
	mock->qp = ib_mock_create_qp(mock, rdma_rw_mr_factor(mock->dev, RW_PORT,
							     shape.nents), 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->qp));
	KUNIT_ASSERT_EQ(test, ib_mock_pool_free(mock, &mock->qp->rdma_mrs), 2);
	buf = rw_buf_alloc(test, &shape);
	for (n = 0; n < 3 && test->status == KUNIT_SUCCESS; n++)
		rw_do_io(test, mock, buf, 0, DMA_TO_DEVICE, RW_SG);
}

/* Several contexts of one command go out in one post. */
static void rw_test_chain(struct kunit *test)
{
	static const struct rw_shape shape = { "chain", 3, 0, 0, 0 };
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_iwarp, RW_CTXS, 0);
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct rdma_rw_ctx ctx[3];
	struct rw_buf *buf[3];
	struct ib_send_wr *first = NULL;
	int i, wqes = 0;

	rw_fill_remote(mock, 9 * PAGE_SIZE);
	for (i = 0; i < 3; i++) {
		buf[i] = rw_buf_alloc(test, &shape);
		wqes += rdma_rw_ctx_init(&ctx[i], mock->qp, RW_PORT, buf[i]->sgl,
					 3, 0, mock->remote_addr +
					 i * 3 * PAGE_SIZE, mock->remote_rkey,
					 DMA_FROM_DEVICE);
	}
	for (i = 2; i >= 0; i--)
		first = rdma_rw_ctx_wrs(&ctx[i], mock->qp, RW_PORT,
					first ? NULL : &done.cqe, first);
	ib_mock_clear_log(mock);
	KUNIT_ASSERT_EQ(test, 0, ib_post_send(mock->qp, first, NULL));
	KUNIT_EXPECT_EQ(test, mock->nr_log, wqes);
	ib_mock_expect_done(test, mock, &done);

	for (i = 0; i < 3; i++) {
		u8 *p = page_address(buf[i]->pages[1]);

		KUNIT_EXPECT_EQ(test, p[17],
				rw_remote_byte((i * 3 + 1) * PAGE_SIZE + 17));
		rdma_rw_ctx_destroy(&ctx[i], mock->qp, RW_PORT, buf[i]->sgl, 3,
				    DMA_FROM_DEVICE);
	}
	rw_expect_pool_whole(test, mock, RW_CTXS);
}

/*
 * With every MR taken, a READ that only prefers MRs (max_sgl_rd) falls
 * back to SGEs; one that needs them (iWARP, or any with force_mr) gets
 * -EAGAIN and a context that a destroy leaves alone.
 */
static void rw_pool_exhausted(struct kunit *test,
			      const struct ib_mock_profile *profile,
			      bool force_mr)
{
	static const struct rw_shape shape = { "exhaust", 8, 0, 0, 0 };
	bool fallback = profile == &ib_mock_sgl_rd && !force_mr;
	struct rw_buf *held, *buf;
	struct rdma_rw_ctx hold, ctx;
	struct ib_mock *mock;
	int ret;

	rw_ctx_fresh(&ctx);
	if (force_mr)
		rw_force_mr(test);
	held = rw_buf_alloc(test, &shape);
	buf = rw_buf_alloc(test, &shape);
	mock = ib_mock_create(test, profile, 1, 0);
	ret = rdma_rw_ctx_init(&hold, mock->qp, RW_PORT, held->sgl, 8, 0,
			       mock->remote_addr, mock->remote_rkey,
			       DMA_FROM_DEVICE);
	KUNIT_ASSERT_GT(test, ret, 0);
	KUNIT_ASSERT_EQ(test, mock->qp->mrs_used, 1);

	ret = rdma_rw_ctx_init(&ctx, mock->qp, RW_PORT, buf->sgl, 8, 0,
			       mock->remote_addr, mock->remote_rkey,
			       DMA_FROM_DEVICE);
	if (!fallback) {
		KUNIT_EXPECT_EQ(test, ret, -EAGAIN);
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
	} else {
		KUNIT_EXPECT_EQ(test, ret, 1);
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 1);
		KUNIT_EXPECT_EQ(test, rdma_rw_ctx_wrs(&ctx, mock->qp, RW_PORT,
						      NULL, NULL)->num_sge, 8);
	}
	if (fallback || !RW_BASE)
		rdma_rw_ctx_destroy(&ctx, mock->qp, RW_PORT, buf->sgl, 8,
				    DMA_FROM_DEVICE);
	rdma_rw_ctx_destroy(&hold, mock->qp, RW_PORT, held->sgl, 8,
			    DMA_FROM_DEVICE);
	rw_expect_pool_whole(test, mock, 1);
	rw_do_io(test, mock, buf, 0, DMA_FROM_DEVICE, RW_SG);
}

static void rw_test_pool_exhausted(struct kunit *test)
{
	rw_pool_exhausted(test, &ib_mock_sgl_rd, false);
	rw_pool_exhausted(test, &ib_mock_iwarp, false);
}

static void rw_test_force_mr_pool_exhausted(struct kunit *test)
{
	rw_pool_exhausted(test, &ib_mock_sgl_rd, true);
	rw_pool_exhausted(test, &ib_mock_ib, true);
}

/*
 * The sizing helpers: MR factor and send queue depth, with limits of 0
 * and counts that would overflow.
 */
static void rw_test_sizing(struct kunit *test)
{
	struct ib_mock *ib = ib_mock_create_device(test, &ib_mock_ib);
	struct ib_mock *iw = ib_mock_create_device(test, &ib_mock_iwarp);

	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(ib->dev, RW_PORT, 30), 1);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(ib->dev, RW_PORT, 31), 2);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(iw->dev, RW_PORT, 256), 1);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(iw->dev, RW_PORT, 257), 2);

	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(ib->dev, RW_PORT, 100, 0),
			100);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(iw->dev, RW_PORT, 100, 0),
			300);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(ib->dev, RW_PORT, 100,
						  IB_QP_CREATE_INTEGRITY_EN),
			300);
	KUNIT_EXPECT_EQ(test, rdma_rw_max_send_wr(iw->dev, RW_PORT, U32_MAX,
						  0), UINT_MAX);

	/* ib_create_qp() adds the contexts' WRs to the ULP's own ... */
	KUNIT_ASSERT_FALSE(test, IS_ERR(ib_mock_create_qp(iw, 100, 0)));
	KUNIT_EXPECT_EQ(test, iw->max_send_wr, 16 + 300);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ib_mock_create_qp(ib, 100, 0)));
	KUNIT_EXPECT_EQ(test, ib->max_send_wr, 16 + 100);
	/* ... capped at max_qp_wr. */
	iw->fail_alloc_mr = 1;
	KUNIT_EXPECT_TRUE(test, IS_ERR(ib_mock_create_qp(iw, 0x60000000, 0)));
	KUNIT_EXPECT_EQ(test, iw->max_send_wr, ib_mock_iwarp.max_qp_wr);
}

/*
 * Sizes no in-tree ULP asks for (they size for a few hundred pages and a
 * few thousand contexts), where the arithmetic would wrap.
 */
static void rw_test_sizing_overflow(struct kunit *test)
{
	struct ib_mock *ib, *iw;

	rw_series_promise(test, "sizes that cannot wrap");
	ib = ib_mock_create_device(test, &ib_mock_ib);
	iw = ib_mock_create_device(test, &ib_mock_iwarp);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(ib->dev, RW_PORT, U32_MAX),
			U32_MAX / 30 + 1);
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(iw->dev, RW_PORT, U32_MAX),
			U32_MAX / 256 + 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(ib_mock_create_qp(ib, U32_MAX - 8, 0)));
	KUNIT_EXPECT_EQ(test, ib->max_send_wr, ib_mock_ib.max_qp_wr);
}

/*
 * Limits of 0 count as 1 rather than dividing by zero.  No in-tree
 * device that does RDMA READ or registration reports them.
 */
static void rw_test_sizing_zero_limits(struct kunit *test)
{
	struct ib_mock *ib, *iw;

	rw_series_promise(test, "limits of 0");
	ib = ib_mock_create_device(test, &ib_mock_ib);
	iw = ib_mock_create_device(test, &ib_mock_iwarp);
	ib->dev->attrs.max_sge_rd = 0;
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(ib->dev, RW_PORT, 7), 7);
	iw->dev->attrs.max_fast_reg_page_list_len = 0;
	KUNIT_EXPECT_EQ(test, rdma_rw_mr_factor(iw->dev, RW_PORT, 7), 7);
}

/*
 * The bytes of @start over @bvecs moved between local and remote memory:
 * each as the block layer's own walk (for_each_bvec()) yields it, in that
 * order, from the remote buffer's start on.
 */
static void rw_expect_walk_moved(struct kunit *test, struct ib_mock *mock,
				 const struct bio_vec *bvecs,
				 struct bvec_iter start)
{
	const u8 *remote = mock->remote + RW_REMOTE_OFF;
	size_t pos = 0, bad = 0, i;
	struct bvec_iter iter;
	struct bio_vec bv;

	for_each_bvec(bv, bvecs, iter, start) {
		const u8 *local = page_address(bv.bv_page) + bv.bv_offset;

		for (i = 0; i < bv.bv_len; i++)
			bad += local[i] != remote[pos++];
	}
	KUNIT_EXPECT_EQ(test, pos, start.bi_size);
	KUNIT_EXPECT_EQ(test, bad, 0);
}

/*
 * A bio_vec array may hold empty segments, which the block layer's walk
 * steps over, and an iterator may start at the very end of a segment: the
 * I/O moves the bytes that walk yields and no others.  Here it starts at
 * the end of the first page, and an empty segment comes before each of
 * the two that hold data.
 */
static void rw_empty_segments_io(struct kunit *test,
				 const struct ib_mock_profile *profile,
				 enum dma_data_direction dir)
{
	static const struct rw_shape shape = { "3pages", 3 };
	const struct bvec_iter start = {
		.bi_bvec_done = PAGE_SIZE,
		.bi_size = 2 * PAGE_SIZE - 8,
	};
	struct ib_mock *mock = ib_mock_create(test, profile, 1, 0);
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	const u8 *first = page_address(buf->pages[0]);
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct rdma_rw_ctx ctx;
	struct bio_vec bvecs[5];
	u32 j, bad = 0;

	bvecs[0] = buf->bvecs[0];
	bvec_set_page(&bvecs[1], buf->pages[1], 0, 0);
	bvec_set_page(&bvecs[2], buf->pages[1], PAGE_SIZE - 8, 8);
	bvec_set_page(&bvecs[3], buf->pages[2], 0, 0);
	bvecs[4] = buf->bvecs[2];
	rw_fill_remote(mock, start.bi_size);

	KUNIT_ASSERT_GT(test, rw_init_bvec(&ctx, mock->qp, bvecs,
					   ARRAY_SIZE(bvecs), start,
					   mock->remote_addr + RW_REMOTE_OFF,
					   mock->remote_rkey, dir), 0);
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	KUNIT_EXPECT_GT(test, ib_mock_poll(mock), 0);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
	rw_destroy_bvec(&ctx, mock->qp, bvecs, ARRAY_SIZE(bvecs), dir);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);

	rw_expect_walk_moved(test, mock, bvecs, start);
	/* The page the I/O starts at the end of: untouched. */
	for (j = 0; j < PAGE_SIZE; j++)
		bad += first[j] != rw_local_byte(0, j);
	KUNIT_EXPECT_EQ(test, bad, 0);
}

static void rw_test_bvec_empty_segments(struct kunit *test)
{
	const struct ib_mock_profile *const profiles[] = {
		&ib_mock_ib, &ib_mock_iwarp, &ib_mock_sge1,
	};
	u32 p;

	rw_need_bvec(test);
	for (p = 0; p < ARRAY_SIZE(profiles); p++) {
		rw_empty_segments_io(test, profiles[p], DMA_TO_DEVICE);
		rw_empty_segments_io(test, profiles[p], DMA_FROM_DEVICE);
	}
}

/*
 * A bio_vec over four contiguous pages is one SGE for SGE devices, and
 * four page entries of one MR for iWARP.
 */
static void rw_test_bvec_multipage(struct kunit *test)
{
	const struct ib_mock_profile *const profiles[] = {
		&ib_mock_ib, &ib_mock_iwarp,
	};
	const u32 off = 100, len = 4 * PAGE_SIZE - off - 50;
	u32 i, j, bad;

	rw_need_bvec(test);
	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		struct ib_mock *mock = ib_mock_create(test, profiles[i], 1, 0);
		struct ib_mock_done done = IB_MOCK_DONE_INIT;
		struct page *pages = alloc_pages(GFP_KERNEL, 2);
		struct bvec_iter iter = { .bi_size = len };
		struct rdma_rw_ctx ctx;
		struct bio_vec bv;
		u8 *p;

		KUNIT_ASSERT_NOT_NULL(test, pages);
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test, rw_free_order2,
							  pages));
		p = page_address(pages);
		memset(p, 0, 4 * PAGE_SIZE);
		bvec_set_page(&bv, pages, len, off);
		rw_fill_remote(mock, len);

		KUNIT_ASSERT_GT(test, rw_init_bvec(&ctx, mock->qp, &bv, 1, iter,
						   mock->remote_addr,
						   mock->remote_rkey,
						   DMA_FROM_DEVICE), 0);
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 1);
		ib_mock_clear_log(mock);
		KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp,
							  RW_PORT, &done.cqe,
							  NULL));
		ib_mock_expect_done(test, mock, &done);
		if (profiles[i] == &ib_mock_iwarp) {
			KUNIT_EXPECT_EQ(test, mock->log[0].opcode,
					IB_WR_REG_MR);
			KUNIT_EXPECT_EQ(test, mock->log[0].length, len);
		} else {
			KUNIT_EXPECT_EQ(test, mock->log[0].num_sge, 1);
			KUNIT_EXPECT_EQ(test, mock->log[0].sge[0].length, len);
		}
		rw_destroy_bvec(&ctx, mock->qp, &bv, 1, DMA_FROM_DEVICE);
		KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);

		for (j = 0, bad = 0; j < 4 * PAGE_SIZE; j++) {
			bool in = j >= off && j < off + len;

			bad += p[j] != (in ? rw_remote_byte(j - off) : 0);
		}
		KUNIT_EXPECT_EQ(test, bad, 0);
	}
}

/**
 * struct rw_long - a READ whose DMA entries span several pages each, as an
 *	IOMMU makes them by merging pages
 * @name:	for the test description
 * @profile:	the device
 * @pages:	pages of each entry, back to back in one block; 0 ends them
 * @first_off:	where the data starts in the first page
 * @last_short:	bytes the data stops short of the end of the last page
 */
struct rw_long {
	const char *name;
	const struct ib_mock_profile *profile;
	u32 pages[3];
	u32 first_off;
	u32 last_short;
};

static const struct rw_long rw_longs[] = {
	{ "small_mr 16-page entry", &ib_mock_small_mr, { 16 } },
	{ "small_mr 16-page entry unaligned", &ib_mock_small_mr, { 16 }, 100,
	  50 },
	{ "small_mr entries of 1 6 1 pages", &ib_mock_small_mr, { 1, 6, 1 } },
	{ "small_mr entries of 3 5 7 pages", &ib_mock_small_mr, { 3, 5, 7 },
	  8, 1 },
	{ "iwarp 2MiB entry", &ib_mock_iwarp, { 512 } },
};

static void rw_long_desc(const struct rw_long *l, char *desc)
{
	strscpy(desc, l->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rw_long, rw_longs, rw_long_desc);

/*
 * Memory registration goes by pages, whatever the DMA entries: each MR
 * holds no more pages than the device's page list, an entry longer than
 * what is left of an MR carries on in the next one, and a QP whose pool
 * was sized with rdma_rw_mr_factor() for the I/O's pages has MRs enough.
 * Where the device's list is below rw.c's own cap on MR size, that is
 * also the fewest MRs the pages fit in.
 */
static void rw_test_mr_by_pages(struct kunit *test)
{
	const struct rw_long *l = test->param_value;
	const struct ib_mock_profile *p = l->profile;
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	u32 i, nents = 0, pages = 0, mrs = 0, bad = 0;
	struct scatterlist sgl[ARRAY_SIZE(l->pages)];
	size_t xfer, len;
	struct rdma_rw_ctx ctx;
	struct ib_mock *mock;
	struct page *block;
	u8 *data;

	rw_series_promise(test, "MRs filled by pages");
	while (nents < ARRAY_SIZE(l->pages) && l->pages[nents])
		pages += l->pages[nents++];
	block = rw_block_alloc(test, pages);
	data = page_address(block);
	sg_init_table(sgl, nents);
	for (i = 0, len = 0; i < nents; i++) {
		u32 off = i ? 0 : l->first_off;
		u32 cut = i == nents - 1 ? l->last_short : 0;

		sg_set_page(&sgl[i], nth_page(block, len / PAGE_SIZE),
			    l->pages[i] * PAGE_SIZE - off - cut, off);
		len += l->pages[i] * PAGE_SIZE;
	}
	xfer = pages * PAGE_SIZE - l->first_off - l->last_short;

	mock = ib_mock_create_device(test, p);
	mock->qp = ib_mock_create_qp(mock, rdma_rw_mr_factor(mock->dev, RW_PORT,
							     pages), 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->qp));
	rw_fill_remote(mock, xfer);

	KUNIT_ASSERT_GT(test, rdma_rw_ctx_init(&ctx, mock->qp, RW_PORT, sgl,
					       nents, 0, mock->remote_addr,
					       mock->remote_rkey,
					       DMA_FROM_DEVICE), 0);
	ib_mock_clear_log(mock);
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	ib_mock_expect_done(test, mock, &done);

	for (i = 0, len = 0; i < mock->nr_log; i++) {
		struct ib_mock_wr *wr = &mock->log[i];

		if (!rw_is_data_wr(wr->opcode))
			continue;
		KUNIT_EXPECT_EQ(test, wr->remote_addr, mock->remote_addr + len);
		KUNIT_EXPECT_LE(test, DIV_ROUND_UP(offset_in_page(wr->sge[0].addr) +
						   wr->length, PAGE_SIZE),
				p->max_fr_pages);
		len += wr->length;
		mrs++;
	}
	KUNIT_EXPECT_EQ(test, len, xfer);
	if (p->max_fr_pages < 256)
		KUNIT_EXPECT_EQ(test, mrs, DIV_ROUND_UP(pages, p->max_fr_pages));
	rdma_rw_ctx_destroy(&ctx, mock->qp, RW_PORT, sgl, nents,
			    DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);

	for (i = 0; i < pages * PAGE_SIZE; i++) {
		bool in = i >= l->first_off && i - l->first_off < xfer;

		bad += data[i] != (in ? rw_remote_byte(i - l->first_off) : 0);
	}
	KUNIT_EXPECT_EQ(test, bad, 0);
}

/*
 * An I/O that needs more MRs than the QP has in all fails with -EINVAL:
 * -EAGAIN would have the ULP wait for MRs that never come.  With some of
 * them out with another I/O, -EAGAIN is right, and the I/O fits once they
 * are back.
 */
static void rw_test_pool_too_small(struct kunit *test)
{
	static const struct rw_shape big = { "big", 9, 0, 0, 0 };
	static const struct rw_shape one = { "one", 1, 0, 0, 0 };
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_small_mr, 2, 0);
	struct rw_buf *buf = rw_buf_alloc(test, &big);
	struct rw_buf *held = rw_buf_alloc(test, &one);
	struct rdma_rw_ctx ctx, hold;

	rw_series_promise(test, "-EINVAL for an I/O bigger than the pool");
	/* 9 pages take 3 MRs of 4 pages; the pool has 2. */
	rw_ctx_fresh(&ctx);
	KUNIT_EXPECT_EQ(test, -EINVAL, rw_init(&ctx, mock, buf, 0,
					       DMA_FROM_DEVICE, RW_SG));
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
	rw_expect_pool_whole(test, mock, 2);

	/* 8 pages take both MRs: while one is out, wait for it. */
	KUNIT_ASSERT_GT(test, rw_init(&hold, mock, held, 0, DMA_FROM_DEVICE,
				      RW_SG), 0);
	KUNIT_EXPECT_EQ(test, -EAGAIN, rdma_rw_ctx_init(&ctx, mock->qp, RW_PORT,
							buf->sgl, 8, 0,
							mock->remote_addr,
							mock->remote_rkey,
							DMA_FROM_DEVICE));
	rdma_rw_ctx_destroy(&hold, mock->qp, RW_PORT, held->sgl, 1,
			    DMA_FROM_DEVICE);
	rw_expect_pool_whole(test, mock, 2);
	KUNIT_EXPECT_GT(test, rdma_rw_ctx_init(&ctx, mock->qp, RW_PORT,
					       buf->sgl, 8, 0,
					       mock->remote_addr,
					       mock->remote_rkey,
					       DMA_FROM_DEVICE), 0);
	rdma_rw_ctx_destroy(&ctx, mock->qp, RW_PORT, buf->sgl, 8,
			    DMA_FROM_DEVICE);
	rw_expect_pool_whole(test, mock, 2);
}

/*
 * Where MRs are only what the device prefers (a READ of more SGEs than
 * max_sgl_rd), any failed registration falls back to SGEs, for both APIs:
 * a map that makes no progress, an errno from the driver, no MR left.
 */
static void rw_test_optional_mr_fails(struct kunit *test)
{
	static const struct rw_shape shape = { "sgl_rd", 9, 0, 0, 0 };
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_sgl_rd, 1, 0);
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	enum rw_api api;
	u32 i;

	rw_series_promise(test, "SGEs after any failed optional registration");
	for (api = RW_SG; api < RW_BUF_APIS; api++) {
		for (i = 0; i < 2; i++) {
			struct ib_mock_done done = IB_MOCK_DONE_INIT;
			struct rdma_rw_ctx ctx;

			mock->map_short = i ? 0 : shape.nents;
			mock->map_error = i ? -EIO : 0;
			rw_fill_remote(mock, rw_xfer_len(buf, 0));
			KUNIT_ASSERT_GT(test, rw_init(&ctx, mock, buf, 0,
						      DMA_FROM_DEVICE, api), 0);
			rw_expect_pool_whole(test, mock, 1);
			ib_mock_clear_log(mock);
			KUNIT_ASSERT_EQ(test, 0,
					rdma_rw_ctx_post(&ctx, mock->qp,
							 RW_PORT, &done.cqe,
							 NULL));
			ib_mock_expect_done(test, mock, &done);
			KUNIT_EXPECT_EQ(test, mock->log[0].opcode,
					IB_WR_RDMA_READ);
			rw_destroy(&ctx, mock, buf, DMA_FROM_DEVICE, api);
			rw_check_data(test, mock, buf, 0, DMA_FROM_DEVICE);
			rw_buf_refill(buf);
		}
	}
}

/*
 * Posting a context that holds no work requests (never set up, failed or
 * destroyed) posts nothing, not even the chained response, and says so:
 * -EINVAL and a warning (once per boot).
 */
static void rw_test_post_empty(struct kunit *test)
{
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_ib, 1, 0);
	struct ib_send_wr rsp = { .opcode = IB_WR_SEND };
	struct rdma_rw_ctx ctx = { .nr_ops = 0 };
	unsigned int posted = mock->nr_posted;

	rw_series_promise(test, "-EINVAL for posting an empty context");
	KUNIT_EXPECT_EQ(test, -EINVAL, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
							NULL, &rsp));
	warn_watch_expect_once(test, "rdma_rw_ctx_post() of an empty context");
	KUNIT_EXPECT_EQ(test, mock->nr_posted, posted);
}

/*
 * rdma_rw_ctx_wrs() of such a context adds nothing either: it warns (once
 * per boot) and gives back the ULP's own chain as it was.  It has no way
 * to refuse: nvmet-rdma, ib_srpt, svcrdma and ksmbd pass what it returns
 * to ib_post_send() unchecked, where NULL or an error pointer would oops.
 */
static void rw_test_wrs_empty(struct kunit *test)
{
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_ib, 1, 0);
	struct ib_send_wr rsp = { .opcode = IB_WR_SEND };
	struct rdma_rw_ctx ctx = { .nr_ops = 0 };
	unsigned int posted = mock->nr_posted;

	rw_series_promise(test, "the ULP's chain alone from an empty context");
	KUNIT_EXPECT_PTR_EQ(test, &rsp, rdma_rw_ctx_wrs(&ctx, mock->qp, RW_PORT,
							NULL, &rsp));
	warn_watch_expect_once(test, "rdma_rw_ctx_wrs() of an empty context");
	KUNIT_EXPECT_NULL(test, rsp.next);
	KUNIT_EXPECT_EQ(test, rsp.send_flags, 0);
	KUNIT_EXPECT_EQ(test, mock->nr_posted, posted);
}

/*
 * A QP created with fewer SGEs than the device takes: its own limit
 * governs every work request (the mock refuses more at post time), for
 * WRITE and READ, through both APIs.
 */
static void rw_test_qp_sge_limit(struct kunit *test)
{
	static const struct rw_shape shape = { "9pages", 9, 0, 0, 0 };
	struct ib_mock *mock = ib_mock_create_device(test, &ib_mock_ib);
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	enum rw_api api;
	int d;

	mock->qp_max_send_sge = 3;
	mock->qp = ib_mock_create_qp(mock, RW_CTXS, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->qp));
	KUNIT_ASSERT_EQ(test, mock->qp->max_write_sge, 3);
	KUNIT_ASSERT_EQ(test, mock->qp->max_read_sge, 3);
	for (api = RW_SG; api < RW_BUF_APIS; api++) {
		for (d = 0; d < 2; d++) {
			rw_do_io(test, mock, buf, 0,
				 d ? DMA_FROM_DEVICE : DMA_TO_DEVICE, api);
			KUNIT_EXPECT_EQ(test, mock->nr_log, 3);
			rw_buf_refill(buf);
		}
	}
}

/*
 * ib_create_qp() grows the send queue for max_rdma_ctxs contexts
 * (rdma_rw_init_qp()): as many contexts in flight at once as the QP was
 * sized for, each with its LOCAL_INV, REG_MR and READ, fit in what the QP
 * gets beyond the ULP's own work requests (one here).  The mock's send
 * queue refuses what does not fit, as hardware does.
 */
static void rw_test_send_queue_depth(struct kunit *test)
{
	static const struct rw_shape shape = { "9pages", 9, 0, 0, 0 };
	struct ib_mock *mock = ib_mock_create_device(test, &ib_mock_sgl_rd);
	struct ib_mock_done done[2] = { IB_MOCK_DONE_INIT, IB_MOCK_DONE_INIT };
	struct rw_buf *bufs[ARRAY_SIZE(done)];
	struct rdma_rw_ctx ctx[ARRAY_SIZE(done)];
	int round, i, wqes;

	/* One MR each: 9 SGEs are more than max_sgl_rd, 9 pages fit. */
	mock->qp_max_send_wr = 1;
	mock->qp = ib_mock_create_qp(mock, ARRAY_SIZE(ctx), 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->qp));
	for (i = 0; i < ARRAY_SIZE(bufs); i++)
		bufs[i] = rw_buf_alloc(test, &shape);

	/* The second round invalidates what the first registered. */
	for (round = 0; round < 2; round++) {
		for (i = 0, wqes = 0; i < ARRAY_SIZE(ctx); i++) {
			int n = rw_init(&ctx[i], mock, bufs[i], 0,
					DMA_FROM_DEVICE, RW_SG);

			KUNIT_ASSERT_GT(test, n, 0);
			wqes += n;
			KUNIT_EXPECT_EQ(test, 0,
					rdma_rw_ctx_post(&ctx[i], mock->qp,
							 RW_PORT,
							 &done[i].cqe, NULL));
		}
		KUNIT_EXPECT_EQ(test, wqes, (round ? 3 : 2) * ARRAY_SIZE(ctx));
		KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), ARRAY_SIZE(ctx));
		for (i = 0; i < ARRAY_SIZE(ctx); i++) {
			KUNIT_EXPECT_EQ(test, done[i].status, IB_WC_SUCCESS);
			rw_destroy(&ctx[i], mock, bufs[i], DMA_FROM_DEVICE,
				   RW_SG);
		}
	}
}

/*
 * Every profile, API, direction and shape, or with force_mr the shapes
 * marked for it, into the cases from @c up to @end.  Return: where the
 * next case goes, or NULL if they do not fit.
 */
static struct rw_case *rw_add_cases(struct rw_case *c, struct rw_case *end,
				    bool force_mr)
{
	u32 a, p, s, d;

	for (a = 0; a < 2; a++)
		for (p = 0; p < ARRAY_SIZE(rw_profiles); p++)
			for (d = 0; d < 2; d++)
				for (s = 0; s < ARRAY_SIZE(rw_shapes); s++) {
					if (force_mr && !rw_shapes[s].force_mr)
						continue;
					if (!c || c == end)
						return NULL;
					*c++ = (struct rw_case) {
						.profile = rw_profiles[p],
						.shape = &rw_shapes[s],
						.dir = d ? DMA_FROM_DEVICE :
							   DMA_TO_DEVICE,
						.api = a ? RW_BVEC : RW_SG,
						.force_mr = force_mr,
					};
				}
	return c;
}

static int rw_suite_init(struct kunit_suite *suite)
{
	struct rw_case *end = rw_cases + ARRAY_SIZE(rw_cases);
	struct rw_case *forced = rw_add_cases(rw_cases, end, false);

	rw_forced_cases = forced;
	if (rw_add_cases(forced, end, true) != end)
		return -EINVAL;
	return rw_suite_init_common(suite);
}

static struct kunit_case rw_test_cases[] = {
	KUNIT_CASE_PARAM(rw_test_data, rw_case_gen),
	KUNIT_CASE_SLOW(rw_test_mr_reuse),
	KUNIT_CASE(rw_test_mr_reuse_two),
	KUNIT_CASE(rw_test_chain),
	KUNIT_CASE(rw_test_pool_exhausted),
	KUNIT_CASE_PARAM(rw_test_force_mr, rw_forced_case_gen),
	KUNIT_CASE(rw_test_force_mr_pool_exhausted),
	KUNIT_CASE(rw_test_sizing),
	KUNIT_CASE(rw_test_sizing_overflow),
	KUNIT_CASE(rw_test_sizing_zero_limits),
	KUNIT_CASE(rw_test_bvec_multipage),
	KUNIT_CASE(rw_test_bvec_empty_segments),
	KUNIT_CASE_PARAM(rw_test_mr_by_pages, rw_long_gen_params),
	KUNIT_CASE(rw_test_pool_too_small),
	KUNIT_CASE(rw_test_optional_mr_fails),
	KUNIT_CASE(rw_test_post_empty),
	KUNIT_CASE(rw_test_wrs_empty),
	KUNIT_CASE(rw_test_qp_sge_limit),
	KUNIT_CASE(rw_test_send_queue_depth),
	{}
};

static struct kunit_suite rw_test_suite = {
	.name = "ib_core_rw",
	.suite_init = rw_suite_init,
	.suite_exit = warn_watch_suite_exit,
	.init = warn_watch_case_init,
	.test_cases = rw_test_cases,
};

kunit_test_suite(rw_test_suite);

MODULE_DESCRIPTION("KUnit tests for the RDMA R/W context API");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
