// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the RDMA R/W context API's error paths: bad input, a
 * mapping, allocation or post that fails at each step, and a context
 * destroyed twice or the wrong way.  Each must return an errno or do
 * nothing, and leave nothing behind: no DMA mapping, no MR out of the
 * pool, no memory.
 */
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/t10-pi.h>
#include <kunit/test.h>

#include "ib_mock.h"
#include "rw_kunit_helpers.h"
#include "rw_under_test.h"
#include "warn_watch.h"

/* Input rw_test_bad_input() gives rdma_rw_ctx_init(). */
struct rw_bad {
	const char *name;
	u32 nents, offset;
	enum dma_data_direction dir;
};

static const struct rw_bad rw_bad_inputs[] = {
	{ "no entries", 0, 0, DMA_FROM_DEVICE },
	{ "offset at the end, read", 3, 3 * PAGE_SIZE, DMA_FROM_DEVICE },
	{ "offset at the end, write", 3, 3 * PAGE_SIZE, DMA_TO_DEVICE },
	{ "offset U32_MAX", 3, U32_MAX, DMA_TO_DEVICE },
	{ "bidirectional", 3, 0, DMA_BIDIRECTIONAL },
	{ "no direction", 3, 0, DMA_NONE },
};

static void rw_bad_desc(const struct rw_bad *b, char *desc)
{
	strscpy(desc, b->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rw_bad, rw_bad_inputs, rw_bad_desc);

/*
 * Bad input: an errno, nothing taken from the pool, and an I/O that works.
 * The kernel-doc asks for DMA_TO_DEVICE or DMA_FROM_DEVICE; this series
 * refuses the others too, and leaves a failed context to a destroy.
 */
/*
 * An sg_offset at or past the end of the data is the caller's bug.  This
 * series refuses it quietly; the base rw.c faults on it, and once its walk
 * is fixed (the fixes series) refuses it with WARN_ON_ONCE().
 */
static void rw_expect_offset_warning(struct kunit *test)
{
	if (RW_BASE)
		warn_watch_expect_once(test,
				       "rdma_rw_ctx_init() with an sg_offset past the data");
	else
		warn_watch_expect(test, 0);
}

static void rw_test_bad_input(struct kunit *test)
{
	static const struct rw_shape shape = { "bad", 3, 0, 0, 0 };
	const struct rw_bad *b = test->param_value;
	bool past_end = b->nents && b->offset >= 3 * PAGE_SIZE;
	struct ib_mock *mock;
	struct rw_buf *buf;
	struct rdma_rw_ctx ctx;

	if (b->dir != DMA_TO_DEVICE && b->dir != DMA_FROM_DEVICE)
		rw_series_promise(test, "refusing a direction");
	if (past_end)
		rw_base_faults(test);
	mock = ib_mock_create(test, &ib_mock_iwarp, RW_CTXS, 0);
	buf = rw_buf_alloc(test, &shape);
	rw_ctx_fresh(&ctx);
	rw_expect_refused(test, -EINVAL,
			  rdma_rw_ctx_init(&ctx, mock->qp, RW_PORT, buf->sgl,
					   b->nents, b->offset,
					   mock->remote_addr,
					   mock->remote_rkey, b->dir));
	if (past_end)
		rw_expect_offset_warning(test);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
	if (!RW_BASE)
		rdma_rw_ctx_destroy(&ctx, mock->qp, RW_PORT, buf->sgl, 3,
				    DMA_FROM_DEVICE);
	rw_expect_pool_whole(test, mock, RW_CTXS);
	rw_do_io(test, mock, buf, 0, DMA_FROM_DEVICE, RW_SG);
}

/* A QP created without MR pools never gets an MR: -EINVAL, not -EAGAIN. */
static void rw_test_no_pool(struct kunit *test)
{
	static const struct rw_shape shape = { "nopool", 2, 0, 0, 0 };
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_iwarp, 0, 0);
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	struct rdma_rw_ctx ctx;

	rw_ctx_fresh(&ctx);
	rw_expect_refused(test, -EINVAL,
			  rw_init(&ctx, mock, buf, 0, DMA_FROM_DEVICE, RW_SG));
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
}

/*
 * A registration that maps short fails with -EINVAL, one the device
 * refuses with the device's errno; either way the MRs go back.
 */
static void rw_test_map_fails(struct kunit *test)
{
	static const struct rw_shape shape = { "mapfail", 9, 0, 0, 0 };
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_small_mr, RW_CTXS,
					      0);
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	const struct {
		unsigned int map_short;
		int map_error;
		int ret;
	} faults[] = {
		{ 1, 0, -EINVAL },
		{ 0, -EIO, -EIO },
	};
	struct rdma_rw_ctx ctx;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(faults); i++) {
		mock->map_short = faults[i].map_short;
		mock->map_error = faults[i].map_error;
		rw_ctx_fresh(&ctx);
		rw_expect_refused(test, faults[i].ret,
				  rw_init(&ctx, mock, buf, 0, DMA_FROM_DEVICE,
					  RW_SG));
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
		rw_expect_pool_whole(test, mock, RW_CTXS);
	}
	mock->map_short = 0;
	mock->map_error = 0;
	rw_do_io(test, mock, buf, 0, DMA_FROM_DEVICE, RW_SG);
}

/* ib_post_send()'s error comes back; destroy still returns everything. */
static void rw_test_post_fails(struct kunit *test)
{
	static const struct rw_shape shape = { "postfail", 9, 0, 0, 0 };
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_small_mr, RW_CTXS,
					      0);
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	struct rdma_rw_ctx ctx;

	KUNIT_ASSERT_GT(test, rw_init(&ctx, mock, buf, 0, DMA_FROM_DEVICE,
				      RW_SG), 0);
	mock->fail_post_at = 2;
	KUNIT_EXPECT_EQ(test, -EINVAL, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
							NULL, NULL));
	rw_destroy(&ctx, mock, buf, DMA_FROM_DEVICE, RW_SG);
	rw_expect_pool_whole(test, mock, RW_CTXS);
}

/* A failed MR allocation fails QP creation and leaves no MR behind. */
/* Work requests of @opcode in the mock's log. */
static unsigned int rw_logged(struct ib_mock *mock, enum ib_wr_opcode opcode)
{
	unsigned int i, n = 0;

	for (i = 0; i < mock->nr_log; i++)
		n += mock->log[i].opcode == opcode;
	return n;
}

/*
 * An I/O through a new context, posted once, or refused by the mock at its
 * first work request with @refuse and then posted again.
 */
static void rw_post_refused_io(struct kunit *test, struct ib_mock *mock,
			       struct rw_buf *buf, enum dma_data_direction dir,
			       bool refuse)
{
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct rdma_rw_ctx ctx;

	KUNIT_ASSERT_GT(test, rw_init(&ctx, mock, buf, 0, dir, RW_SG), 0);
	ib_mock_clear_log(mock);
	if (refuse) {
		mock->fail_post_at = 1;
		KUNIT_EXPECT_LT(test, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						       &done.cqe, NULL), 0);
	}
	KUNIT_EXPECT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	ib_mock_expect_done(test, mock, &done);
	rw_destroy(&ctx, mock, buf, dir, RW_SG);
}

/*
 * isert links and posts a context again when ib_post_send() refused it,
 * which rdma_rw_ctx_wrs()'s kernel-doc allows while none of its work
 * requests reached the device.  The second post must move every byte,
 * through MRs whose keys the device takes, and leave the pool whole.  Each
 * profile runs an I/O first, so that the refused one gets MRs that are
 * still registered: an InfiniBand READ past max_sgl_rd must invalidate
 * each by the key it holds before registering it again, an iWARP READ
 * had its MRs invalidated by the READ response; and an InfiniBand WRITE
 * of SGEs.
 */
static void rw_test_repost_refused(struct kunit *test)
{
	static const struct rw_shape shape = { "repost", 9, 100, 77, 0 };
	static const struct {
		const struct ib_mock_profile *profile;
		enum dma_data_direction dir;
		bool inv;
	} runs[] = {
		{ &ib_mock_sgl_rd, DMA_FROM_DEVICE, true },
		{ &ib_mock_small_mr, DMA_FROM_DEVICE, false },
		{ &ib_mock_ib, DMA_TO_DEVICE, false },
	};
	unsigned int i, pool;

	for (i = 0; i < ARRAY_SIZE(runs); i++) {
		struct ib_mock *mock = ib_mock_create(test, runs[i].profile,
						      RW_CTXS, 0);
		struct rw_buf *buf = rw_buf_alloc(test, &shape);

		pool = ib_mock_pool_free(mock, &mock->qp->rdma_mrs);
		rw_fill_remote(mock, rw_xfer_len(buf, 0));
		rw_post_refused_io(test, mock, buf, runs[i].dir, false);
		rw_post_refused_io(test, mock, buf, runs[i].dir, true);
		KUNIT_EXPECT_EQ(test, rw_logged(mock, IB_WR_LOCAL_INV) > 0,
				runs[i].inv);
		rw_expect_pool_whole(test, mock, pool);
		rw_check_data(test, mock, buf, 0, runs[i].dir);
	}
}

static void rw_test_alloc_mr_fails(struct kunit *test)
{
	struct ib_mock *mock = ib_mock_create_device(test, &ib_mock_iwarp);

	mock->fail_alloc_mr = 5;
	KUNIT_EXPECT_EQ(test, -ENOMEM,
			PTR_ERR(ib_mock_create_qp(mock, RW_CTXS, 0)));
	KUNIT_EXPECT_EQ(test, mock->mrs, 0);
}

/*
 * A QP with IB_QP_CREATE_INTEGRITY_EN takes plain MRs and as many
 * integrity MRs: whichever of them cannot be allocated, creation fails
 * with the allocation's error and leaves no MR of either kind.
 */
static void rw_test_alloc_integrity_mr_fails(struct kunit *test)
{
	struct ib_mock *mock = ib_mock_create_device(test, &ib_mock_pi);
	const u32 integrity = IB_QP_CREATE_INTEGRITY_EN;
	struct ib_qp *qp;
	u32 n;

	for (n = 1; n <= 2 * RW_CTXS; n++) {
		mock->fail_alloc_mr = n;
		qp = ib_mock_create_qp(mock, RW_CTXS, integrity);
		KUNIT_EXPECT_EQ(test, PTR_ERR(qp), -ENOMEM);
		KUNIT_EXPECT_EQ(test, mock->mrs, 0);
	}
}

/* A device profile, with or without DMA segment limits to cut at. */
struct rw_iter_case {
	const struct ib_mock_profile *profile;
	bool dma_limits;
};

static const struct rw_iter_case rw_iter_cases[] = {
	{ &ib_mock_ib }, { &ib_mock_ib, true },
	{ &ib_mock_roce }, { &ib_mock_roce, true },
	{ &ib_mock_iwarp }, { &ib_mock_iwarp, true },
	{ &ib_mock_sgl_rd }, { &ib_mock_sgl_rd, true },
	{ &ib_mock_sge1 }, { &ib_mock_sge1, true },
	{ &ib_mock_sge2 }, { &ib_mock_sge2, true },
	{ &ib_mock_small_mr }, { &ib_mock_small_mr, true },
	{ &ib_mock_pi }, { &ib_mock_pi, true },
};

static void rw_iter_desc(const struct rw_iter_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s%s", c->profile->name,
		 c->dma_limits ? " dma-limits" : "");
}

KUNIT_ARRAY_PARAM(rw_iter, rw_iter_cases, rw_iter_desc);

/*
 * bio_vec input rw.c must refuse on every device, whether or not its DMA
 * limits cut the segments: an errno, a context destroy leaves alone,
 * nothing mapped or taken from the pool, and then an I/O that works.
 * Where a READ takes MRs, with the pool's only MR held it gets -EAGAIN.
 */
static void rw_test_bvec_bad_input(struct kunit *test)
{
	static const struct rw_shape shape = { "bvec", 3, 0, 0, 0 };
	const struct rw_iter_case *c = test->param_value;
	struct rw_buf *buf, *held;
	struct rw_dma_mark mark;
	struct ib_mock *mock;
	struct {
		u32 nr_bvec;
		struct bvec_iter iter;
		enum dma_data_direction dir;
	} bad[] = {
		{ 0, { .bi_size = 1 }, DMA_FROM_DEVICE },
		{ 3, { .bi_size = 0 }, DMA_FROM_DEVICE },
		{ 3, { .bi_size = 3 * PAGE_SIZE + 1 }, DMA_FROM_DEVICE },
		{ 3, { .bi_size = 3 * PAGE_SIZE + 1 }, DMA_TO_DEVICE },
		{ 3, { .bi_size = 1, .bi_idx = 3 }, DMA_TO_DEVICE },
		{ 3, { .bi_size = 1, .bi_bvec_done = PAGE_SIZE + 1 },
		  DMA_TO_DEVICE },
		/* At the end of the last segment: nothing is left to move. */
		{ 3, { .bi_size = 1, .bi_idx = 2, .bi_bvec_done = PAGE_SIZE },
		  DMA_FROM_DEVICE },
		{ 3, { .bi_size = 1 }, DMA_BIDIRECTIONAL },
	};
	struct rdma_rw_ctx ctx, hold;
	u32 i;

	rw_need_bvec(test);
	mock = ib_mock_create(test, c->profile, 1, 0);
	if (c->dma_limits) {
		rw_need_dma_counted(test);
		dma_set_max_seg_size(mock->dev->dma_device, PAGE_SIZE);
		dma_set_seg_boundary(mock->dev->dma_device, PAGE_SIZE / 2 - 1);
	}
	buf = rw_buf_alloc(test, &shape);
	mark = rw_dma_mark(mock);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ctx.nr_ops = 42;
		KUNIT_EXPECT_EQ_MSG(test, -EINVAL,
				    rw_init_bvec(&ctx, mock->qp, buf->bvecs,
						 bad[i].nr_bvec, bad[i].iter,
						 mock->remote_addr,
						 mock->remote_rkey, bad[i].dir),
				    "bad input %u", i);
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
		rw_destroy_bvec(&ctx, mock->qp, buf->bvecs, 3, bad[i].dir);
	}
	rw_expect_dma_undone(test, mock, &mark);

	/*
	 * What follows maps a scatterlist of whole pages, which the limits
	 * refuse, and rw_do_io() counts a mapping per page.
	 */
	if (c->dma_limits) {
		dma_set_max_seg_size(mock->dev->dma_device, UINT_MAX);
		dma_set_seg_boundary(mock->dev->dma_device, ULONG_MAX);
	}

	/* The device may not write one buffer through two mappings. */
	if (rw_expect_mr(c->profile, 3, DMA_FROM_DEVICE)) {
		held = rw_buf_alloc(test, &shape);
		KUNIT_ASSERT_GT(test, rw_init(&hold, mock, held, 0,
					      DMA_FROM_DEVICE, RW_SG), 0);
		KUNIT_EXPECT_EQ(test, -EAGAIN, rw_init(&ctx, mock, buf, 0,
						       DMA_FROM_DEVICE,
						       RW_BVEC));
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
		rw_destroy(&hold, mock, held, DMA_FROM_DEVICE, RW_SG);
		rw_expect_pool_whole(test, mock, 1);
	}
	rw_do_io(test, mock, buf, 0, DMA_FROM_DEVICE, RW_BVEC);
}

/*
 * A signature I/O over the first entries of a struct rw_buf, with its PI
 * in a page of its own: PI in memory, none on the wire, nothing checked,
 * so that any data will do.
 */
struct rw_sig {
	struct scatterlist prot_sg;
	struct ib_sig_attrs attrs;
	u32 nents;
};

static void rw_sig_prepare(struct rw_sig *sig, struct page *prot_page,
			   u32 nents, bool short_pi)
{
	u32 prot_len = nents * (PAGE_SIZE / 512) * sizeof(struct t10_pi_tuple);

	if (short_pi)
		prot_len -= sizeof(struct t10_pi_tuple);
	sig->nents = nents;
	sg_init_table(&sig->prot_sg, 1);
	sg_set_page(&sig->prot_sg, prot_page, prot_len, 0);
	memset(&sig->attrs, 0, sizeof(sig->attrs));
	sig->attrs.mem.sig_type = IB_SIG_TYPE_T10_DIF;
	sig->attrs.mem.sig.dif.bg_type = IB_T10DIF_CRC;
	sig->attrs.mem.sig.dif.pi_interval = 512;
	sig->attrs.wire.sig_type = IB_SIG_TYPE_NONE;
}

static int rw_sig_init(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
		       struct rw_buf *buf, struct rw_sig *sig,
		       struct ib_sig_attrs *attrs, enum dma_data_direction dir)
{
	return rdma_rw_ctx_signature_init(ctx, mock->qp, RW_PORT, buf->sgl,
					  sig->nents, &sig->prot_sg, 1, attrs,
					  mock->remote_addr + RW_REMOTE_OFF,
					  mock->remote_rkey, dir);
}

static void rw_sig_destroy(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
			   struct rw_buf *buf, struct rw_sig *sig,
			   enum dma_data_direction dir)
{
	rdma_rw_ctx_destroy_signature(ctx, mock->qp, RW_PORT, buf->sgl,
				      sig->nents, &sig->prot_sg, 1, dir);
}

/* Init, post, complete and destroy one signature I/O; check the data. */
static void rw_sig_do_io(struct kunit *test, struct ib_mock *mock,
			 struct rw_buf *buf, struct rw_sig *sig,
			 enum dma_data_direction dir)
{
	struct rw_dma_mark mark = rw_dma_mark(mock);
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct ib_mr_status status;
	struct rdma_rw_ctx ctx;
	size_t bad = 0;
	u32 i, j;

	rw_fill_remote(mock, sig->nents * PAGE_SIZE);
	KUNIT_ASSERT_GT(test, rw_sig_init(&ctx, mock, buf, sig, &sig->attrs,
					  dir), 0);
	if (mock->dma_counted) {
		KUNIT_EXPECT_EQ(test, mock->dma_maps - mark.maps, 2);
		KUNIT_EXPECT_TRUE(test, ib_mock_dma_sg_live(mock, buf->sgl,
							    sig->nents, dir));
		KUNIT_EXPECT_TRUE(test, ib_mock_dma_sg_live(mock, &sig->prot_sg,
							    1, dir));
	}
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	ib_mock_expect_done(test, mock, &done);
	KUNIT_EXPECT_EQ(test, 0, ib_check_mr_status(ctx.reg->mr,
						    IB_MR_CHECK_SIG_STATUS,
						    &status));
	KUNIT_EXPECT_EQ(test, status.fail_status, 0);
	rw_sig_destroy(&ctx, mock, buf, sig, dir);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
	rw_expect_dma_undone(test, mock, &mark);

	/* Both sides hold the source's bytes. */
	for (i = 0; i < sig->nents; i++) {
		u8 *p = page_address(buf->pages[i]);

		for (j = 0; j < PAGE_SIZE; j++) {
			size_t at = RW_REMOTE_OFF + i * PAGE_SIZE + j;
			u8 want = dir == DMA_TO_DEVICE ? rw_local_byte(i, j) :
							 rw_remote_byte(at);

			bad += p[j] != want || mock->remote[at] != want;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "signature I/O data wrong");
}

/* What else goes wrong in an init that must fail. */
enum rw_quirk {
	RW_Q_NONE,
	RW_Q_EMPTY,		/* no entries */
	RW_Q_NO_ATTRS,		/* signature: no attributes */
	RW_Q_NO_INTEGRITY,	/* signature: a QP without integrity */
	RW_Q_SHORT_PI,		/* signature: PI buffer a tuple short */
};

/**
 * struct rw_fault - an init that must fail and leave nothing behind
 * @name:	for the test description
 * @api:	RW_SG, RW_BVEC or RW_SIG
 * @profile:	the device
 * @dir:	the direction asked for
 * @nents:	pages of the buffer; data pages of a signature I/O
 * @offset:	where the I/O starts: sg_offset, or the bio_vec iterator's
 * @ctxs:	R/W contexts the QP is sized for, so MRs in its pool(s)
 * @held:	MRs taken from the pool before the init
 * @fail_dma_map: the DMA mapping that fails (1 = the first), or 0
 * @map_short:	&ib_mock.map_short for the init
 * @map_error:	&ib_mock.map_error for the init
 * @quirk:	anything else that is wrong
 * @err:	the errno expected
 */
struct rw_fault {
	const char *name;
	enum rw_api api;
	const struct ib_mock_profile *profile;
	enum dma_data_direction dir;
	u32 nents;
	u32 offset;
	u32 ctxs;
	u32 held;
	unsigned int fail_dma_map;
	unsigned int map_short;
	int map_error;
	enum rw_quirk quirk;
	int err;
};

#define RW_RD	DMA_FROM_DEVICE
#define RW_WR	DMA_TO_DEVICE
#define RW_BIDI	DMA_BIDIRECTIONAL

static const struct rw_fault rw_faults[] = {
	{ "sg: no entries", RW_SG, &ib_mock_ib, RW_RD, 3, 0, 1,
	  .quirk = RW_Q_EMPTY, .err = -EINVAL },
	{ "sg: bidirectional", RW_SG, &ib_mock_ib, RW_BIDI, 3, 0, 1,
	  .err = -EINVAL },
	{ "sg: offset at the end", RW_SG, &ib_mock_ib, RW_WR, 3,
	  3 * PAGE_SIZE, 1, .err = -EINVAL },
	{ "sg: offset past the end", RW_SG, &ib_mock_iwarp, RW_RD, 3,
	  3 * PAGE_SIZE + 1, 1, .err = -EINVAL },
	{ "sg: DMA mapping fails", RW_SG, &ib_mock_ib, RW_WR, 3, 0, 1,
	  .fail_dma_map = 1, .err = -ENOMEM },
	{ "sg: DMA mapping fails, MR I/O", RW_SG, &ib_mock_iwarp, RW_RD, 3, 0,
	  1, .fail_dma_map = 1, .err = -ENOMEM },
	{ "sg: no MR pool", RW_SG, &ib_mock_iwarp, RW_RD, 3, 0, 0,
	  .err = -EINVAL },
	{ "sg: MR pool empty", RW_SG, &ib_mock_iwarp, RW_RD, 3, 0, 1, 1,
	  .err = -EAGAIN },
	{ "sg: MR pool runs out midway", RW_SG, &ib_mock_small_mr, RW_RD, 9,
	  0, 3, 1, .err = -EAGAIN },
	{ "sg: MR maps short", RW_SG, &ib_mock_small_mr, RW_RD, 9, 0, 3,
	  .map_short = 1, .err = -EINVAL },
	{ "sg: MR map fails", RW_SG, &ib_mock_small_mr, RW_RD, 9, 0, 3,
	  .map_error = -EIO, .err = -EIO },
	{ "sg: offset skips 2 entries, then MR pool empty", RW_SG,
	  &ib_mock_iwarp, RW_RD, 4, 2 * PAGE_SIZE + 5, 1, 1, .err = -EAGAIN },
	{ "sg: offset skips 1 entry, then MR map fails", RW_SG,
	  &ib_mock_small_mr, RW_RD, 9, PAGE_SIZE, 3, .map_error = -EIO,
	  .err = -EIO },
	{ "sg: offset skips 2 entries, then DMA mapping fails", RW_SG,
	  &ib_mock_ib, RW_WR, 4, 2 * PAGE_SIZE + 5, 1, .fail_dma_map = 1,
	  .err = -ENOMEM },

	{ "bvec: no entries", RW_BVEC, &ib_mock_ib, RW_RD, 3, 0, 1,
	  .quirk = RW_Q_EMPTY, .err = -EINVAL },
	{ "bvec: empty iterator", RW_BVEC, &ib_mock_ib, RW_WR, 3,
	  3 * PAGE_SIZE, 1, .err = -EINVAL },
	{ "bvec: bidirectional", RW_BVEC, &ib_mock_ib, RW_BIDI, 3, 0, 1,
	  .err = -EINVAL },
	{ "bvec: DMA mapping of the one SGE fails", RW_BVEC, &ib_mock_ib,
	  RW_WR, 1, 0, 1, .fail_dma_map = 1, .err = -ENOMEM },
	{ "bvec: 1st of 3 DMA mappings fails", RW_BVEC, &ib_mock_ib, RW_RD, 3,
	  0, 1, .fail_dma_map = 1, .err = -ENOMEM },
	{ "bvec: 3rd of 3 DMA mappings fails", RW_BVEC, &ib_mock_ib, RW_RD, 3,
	  0, 1, .fail_dma_map = 3, .err = -ENOMEM },
	{ "bvec: 3rd of 5 DMA mappings fails, 3 WRs", RW_BVEC, &ib_mock_sge1,
	  RW_WR, 5, 0, 1, .fail_dma_map = 3, .err = -ENOMEM },
	{ "bvec: DMA mapping fails, MR I/O", RW_BVEC, &ib_mock_iwarp, RW_RD, 3,
	  0, 1, .fail_dma_map = 1, .err = -ENOMEM },
	{ "bvec: no MR pool", RW_BVEC, &ib_mock_iwarp, RW_RD, 3, 0, 0,
	  .err = -EINVAL },
	{ "bvec: MR pool empty", RW_BVEC, &ib_mock_iwarp, RW_RD, 3, 0, 1, 1,
	  .err = -EAGAIN },
	{ "bvec: MR pool runs out midway", RW_BVEC, &ib_mock_small_mr, RW_RD,
	  9, 0, 3, 1, .err = -EAGAIN },
	{ "bvec: MR maps short", RW_BVEC, &ib_mock_small_mr, RW_RD, 9, 0, 3,
	  .map_short = 1, .err = -EINVAL },
	{ "bvec: MR map fails", RW_BVEC, &ib_mock_small_mr, RW_RD, 9, 0, 3,
	  .map_error = -EIO, .err = -EIO },
	{ "bvec: iterator skips 2 entries, then MR pool empty", RW_BVEC,
	  &ib_mock_iwarp, RW_RD, 4, 2 * PAGE_SIZE + 5, 1, 1, .err = -EAGAIN },
	{ "bvec: iterator skips 1 entry, then 2nd DMA mapping fails", RW_BVEC,
	  &ib_mock_ib, RW_WR, 4, PAGE_SIZE + 5, 1, .fail_dma_map = 2,
	  .err = -ENOMEM },

	{ "sig: QP without integrity", RW_SIG, &ib_mock_pi, RW_WR, 1, 0, 1,
	  .quirk = RW_Q_NO_INTEGRITY, .err = -EOPNOTSUPP },
	{ "sig: no data entries", RW_SIG, &ib_mock_pi, RW_WR, 1, 0, 1,
	  .quirk = RW_Q_EMPTY, .err = -EINVAL },
	{ "sig: no attributes", RW_SIG, &ib_mock_pi, RW_WR, 1, 0, 1,
	  .quirk = RW_Q_NO_ATTRS, .err = -EINVAL },
	{ "sig: bidirectional", RW_SIG, &ib_mock_pi, RW_BIDI, 1, 0, 1,
	  .err = -EINVAL },
	{ "sig: too many data entries", RW_SIG, &ib_mock_pi, RW_WR, 17, 0, 1,
	  .err = -EINVAL },
	{ "sig: data DMA mapping fails", RW_SIG, &ib_mock_pi, RW_WR, 2, 0, 1,
	  .fail_dma_map = 1, .err = -ENOMEM },
	{ "sig: PI DMA mapping fails", RW_SIG, &ib_mock_pi, RW_RD, 2, 0, 1,
	  .fail_dma_map = 2, .err = -ENOMEM },
	{ "sig: integrity pool empty", RW_SIG, &ib_mock_pi, RW_WR, 2, 0, 1, 1,
	  .err = -EAGAIN },
	{ "sig: PI map fails", RW_SIG, &ib_mock_pi, RW_RD, 2, 0, 1,
	  .map_error = -EIO, .err = -EIO },
	{ "sig: PI maps short", RW_SIG, &ib_mock_pi, RW_WR, 2, 0, 1,
	  .map_short = 1, .err = -EINVAL },
	{ "sig: PI buffer short", RW_SIG, &ib_mock_pi, RW_WR, 2, 0, 1,
	  .quirk = RW_Q_SHORT_PI, .err = -EINVAL },
};

static void rw_fault_desc(const struct rw_fault *f, char *desc)
{
	strscpy(desc, f->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(rw_fault, rw_faults, rw_fault_desc);

/*
 * The mock counts DMA mappings, and can fail them, only where devices
 * can have DMA ops of their own: not on UML.
 */
static int rw_fault_init(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
			 struct rw_buf *buf, struct rw_sig *sig,
			 const struct rw_fault *f)
{
	u32 nents = f->quirk == RW_Q_EMPTY ? 0 : f->nents;
	u64 remote = mock->remote_addr + RW_REMOTE_OFF;

	switch (f->api) {
	case RW_SG:
		return rdma_rw_ctx_init(ctx, mock->qp, RW_PORT, buf->sgl, nents,
					f->offset, remote, mock->remote_rkey,
					f->dir);
	case RW_BVEC:
		return rw_init_bvec(ctx, mock->qp, buf->bvecs, nents,
				    rw_bvec_iter(buf, f->offset), remote,
				    mock->remote_rkey, f->dir);
	default:
		sig->nents = nents;
		return rw_sig_init(ctx, mock, buf, sig,
				   f->quirk == RW_Q_NO_ATTRS ? NULL :
				   &sig->attrs, f->dir);
	}
}

static void rw_fault_destroy(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
			     struct rw_buf *buf, struct rw_sig *sig,
			     const struct rw_fault *f)
{
	if (f->api == RW_SIG)
		rw_sig_destroy(ctx, mock, buf, sig, f->dir);
	else
		rw_destroy(ctx, mock, buf, f->dir, f->api);
}

/*
 * Every way an init fails: an errno and a context that destroy leaves
 * alone, no work request posted, every MR back in the pool and, where
 * DMA mappings are counted, each one made undone by an exact unmap; then
 * an I/O that works.  That I/O is a READ after a bad direction, a WRITE
 * on a QP without MRs, and it starts at the offset of the failed one
 * unless that was past the end.
 */
static void rw_test_init_fault(struct kunit *test)
{
	const struct rw_fault *f = test->param_value;
	bool pi = f->api == RW_SIG && f->quirk != RW_Q_NO_INTEGRITY;
	struct rw_shape shape = { "fault", f->nents + (f->api == RW_SIG) };
	struct ib_mock *mock = ib_mock_create(test, f->profile, f->ctxs,
					      pi ? IB_QP_CREATE_INTEGRITY_EN :
						   0);
	struct list_head *pool = pi ? &mock->qp->sig_mrs : &mock->qp->rdma_mrs;
	unsigned int posted = mock->nr_posted, unmaps;
	unsigned int free = ib_mock_pool_free(mock, pool);
	struct ib_mr *held[2] = {};
	enum dma_data_direction dir;
	struct rw_dma_mark mark;
	struct rdma_rw_ctx ctx;
	struct rw_buf *buf;
	bool past_end = f->api == RW_SG && f->offset >= f->nents * PAGE_SIZE;
	struct rw_sig sig;
	u32 i;

	if (f->api == RW_BVEC)
		rw_need_bvec(test);
	if (f->fail_dma_map)
		rw_need_dma_counted(test);
	if (f->dir == RW_BIDI)
		rw_series_promise(test, "refusing a direction");
	if (f->quirk == RW_Q_NO_ATTRS)
		rw_series_promise(test, "refusing NULL signature attributes");
	/* ib_map_mr_sg_pi() returns 0 or an errno, never a count */
	if (f->api == RW_SIG && f->map_short)
		rw_series_promise(test, "refusing a positive ib_map_mr_sg_pi() return");
	if (past_end)
		rw_base_faults(test);
	buf = rw_buf_alloc(test, &shape);
	if (f->api == RW_SIG)
		rw_sig_prepare(&sig, buf->pages[f->nents], f->nents,
			       f->quirk == RW_Q_SHORT_PI);

	KUNIT_ASSERT_LE(test, f->held, ARRAY_SIZE(held));
	for (i = 0; i < f->held; i++) {
		held[i] = ib_mr_pool_get(mock->qp, pool);
		KUNIT_ASSERT_NOT_NULL(test, held[i]);
	}
	mock->fail_dma_map = f->fail_dma_map;
	mock->map_short = f->map_short;
	mock->map_error = f->map_error;

	mark = rw_dma_mark(mock);
	rw_ctx_fresh(&ctx);
	rw_expect_refused(test, f->err, rw_fault_init(&ctx, mock, buf, &sig, f));
	if (past_end)
		rw_expect_offset_warning(test);
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, f->held);
	KUNIT_EXPECT_EQ(test, mock->nr_posted, posted);
	rw_expect_dma_undone(test, mock, &mark);
	if (mock->dma_counted && f->fail_dma_map) {
		/* The injected failure was reached, and mapped nothing. */
		KUNIT_EXPECT_EQ(test, mock->fail_dma_map, 0);
		KUNIT_EXPECT_EQ(test, mock->dma_maps - mark.maps,
				f->fail_dma_map - 1);
	}
	if (!RW_BASE) {
		unmaps = mock->dma_unmaps;
		rw_fault_destroy(&ctx, mock, buf, &sig, f);
		KUNIT_EXPECT_EQ(test, mock->dma_unmaps, unmaps);
	}

	mock->fail_dma_map = 0;
	mock->map_short = 0;
	mock->map_error = 0;
	for (i = 0; i < f->held; i++)
		ib_mr_pool_put(mock->qp, pool, held[i]);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(mock, pool), free);

	dir = f->dir == RW_BIDI ? DMA_FROM_DEVICE : f->dir;
	if (!f->ctxs)
		dir = DMA_TO_DEVICE;
	if (pi) {
		rw_sig_prepare(&sig, buf->pages[f->nents],
			       min(f->nents, ib_mock_pi.max_pi_fr_pages),
			       false);
		rw_sig_do_io(test, mock, buf, &sig, dir);
	} else {
		rw_do_io(test, mock, buf,
			 f->offset < rw_xfer_len(buf, 0) ? f->offset : 0, dir,
			 f->api == RW_BVEC ? RW_BVEC : RW_SG);
	}
}

#if IS_ENABLED(CONFIG_FAILSLAB) && IS_ENABLED(CONFIG_FAULT_INJECTION_DEBUG_FS)
/*
 * Allocation failures come from the kernel's own fault injection: failslab
 * fails the Nth slab allocation of a task whose fail_nth is N (what
 * /proc/<pid>/fail-nth sets).  By default it leaves alone allocations that
 * may sleep, which is every one rw.c makes, and dumps a stack for each
 * failure.  Both are debugfs knobs (warn_watch_knob()).
 */
struct rw_failslab {
	bool *ignore_gfp_wait;
	unsigned long *verbose;
	bool was_ignoring;
	unsigned long was_verbose;
};

static void rw_failslab_restore(void *data)
{
	struct rw_failslab *fs = data;

	WRITE_ONCE(*fs->ignore_gfp_wait, fs->was_ignoring);
	WRITE_ONCE(*fs->verbose, fs->was_verbose);
}

/* Let fail_nth fail any slab allocation, quietly, until the case ends. */
static void rw_failslab_arm(struct kunit *test)
{
	struct rw_failslab *fs = kunit_kzalloc(test, sizeof(*fs), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fs);
	fs->ignore_gfp_wait = warn_watch_knob("failslab",
					      "ignore-gfp-wait");
	fs->verbose = warn_watch_knob("failslab", "verbose");
	KUNIT_ASSERT_NOT_NULL(test, fs->ignore_gfp_wait);
	KUNIT_ASSERT_NOT_NULL(test, fs->verbose);
	fs->was_ignoring = *fs->ignore_gfp_wait;
	fs->was_verbose = *fs->verbose;
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rw_failslab_restore,
							   fs));
	WRITE_ONCE(*fs->ignore_gfp_wait, false);
	WRITE_ONCE(*fs->verbose, 0);
}

/*
 * dma-debug tracks the cachelines of device-writable mappings in a radix
 * tree, whose nodes it allocates without sleeping: from the slab, else
 * from the CPU's preloaded nodes; with neither, it turns itself off for
 * the rest of the boot.  fail_nth fails that slab allocation like any
 * other, so the CPU the init runs on gets nodes preloaded to fall back on.
 */
static void rw_preload_dma_debug(void)
{
	if (IS_ENABLED(CONFIG_DMA_API_DEBUG) && !radix_tree_preload(GFP_KERNEL))
		radix_tree_preload_end();
}

/* From here on, fail the @nth slab allocation of this task. */
static void rw_fail_nth_arm(unsigned int nth)
{
	migrate_disable();
	rw_preload_dma_debug();
	current->fail_nth = nth;
}

/* Stop failing.  Return: whether the count got to its failure. */
static bool rw_fail_nth_disarm(void)
{
	bool reached = !current->fail_nth;

	current->fail_nth = 0;
	migrate_enable();
	return reached;
}
#else
static void rw_failslab_arm(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS");
}

static void rw_fail_nth_arm(unsigned int nth)
{
}

static bool rw_fail_nth_disarm(void)
{
	return false;
}
#endif

/*
 * Run @init's fault case with the @nth slab allocation of this task
 * failing.  Return: whether the count got that far, and the init's result
 * in @ret.
 */
static bool rw_fail_nth(unsigned int nth, int *ret, struct rdma_rw_ctx *ctx,
			struct ib_mock *mock, struct rw_buf *buf,
			struct rw_sig *sig, const struct rw_fault *f)
{
	rw_fail_nth_arm(nth);
	*ret = rw_fault_init(ctx, mock, buf, sig, f);
	return rw_fail_nth_disarm();
}

/*
 * I/Os that need memory beyond struct rdma_rw_ctx: more SGEs, work
 * requests or MRs than it holds, a scatterlist built for bio_vecs, a
 * signature context.
 */
static const struct rw_fault rw_alloc_ios[] = {
	{ "sg: SGE list", RW_SG, &ib_mock_ib, RW_WR, 40, 0, 1 },
	{ "sg: SGE lists after an offset", RW_SG, &ib_mock_sge2, RW_RD, 20,
	  PAGE_SIZE + 5, 1 },
	{ "sg: one MR", RW_SG, &ib_mock_iwarp, RW_RD, 40, 0, 1 },
	{ "sg: three MRs", RW_SG, &ib_mock_small_mr, RW_RD, 9, 0, 3 },
	{ "bvec: SGE list", RW_BVEC, &ib_mock_ib, RW_WR, 40, 0, 1 },
	{ "bvec: one MR", RW_BVEC, &ib_mock_iwarp, RW_RD, 40, 0, 1 },
	{ "bvec: three MRs", RW_BVEC, &ib_mock_small_mr, RW_RD, 9, 0, 3 },
	{ "sig: WRITE", RW_SIG, &ib_mock_pi, RW_WR, 2, 0, 1 },
	{ "sig: READ", RW_SIG, &ib_mock_pi, RW_RD, 2, 0, 1 },
};

KUNIT_ARRAY_PARAM(rw_alloc, rw_alloc_ios, rw_fault_desc);

/*
 * A context that init built although an allocation failed: it must work,
 * and a signature one must pass its check, which a ULP makes before the
 * MR can be registered again.
 */
static void rw_alloc_survived(struct kunit *test, struct ib_mock *mock,
			      struct rdma_rw_ctx *ctx, bool pi)
{
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct ib_mr_status status;

	KUNIT_EXPECT_EQ(test, 0, rdma_rw_ctx_post(ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	ib_mock_expect_done(test, mock, &done);
	if (!pi)
		return;
	KUNIT_EXPECT_EQ(test, 0, ib_check_mr_status(ctx->reg->mr,
						    IB_MR_CHECK_SIG_STATUS,
						    &status));
	KUNIT_EXPECT_EQ(test, status.fail_status, 0);
}

/*
 * Each allocation an init makes fails in turn, the first, then the
 * second, and so on until an init makes fewer than that.  An init whose
 * allocation failed returns -ENOMEM with nothing mapped, posted or taken
 * from the pool, or survives the failure with a context that works; the
 * I/O after it works either way.  A bio_vec I/O of SGEs maps each of its
 * 40 pieces (the mock allocates per mapping), and the MR cases on x86_64
 * reach 44 to 61 allocations more whose failure the init survives, a
 * count that varies from boot to boot: the bound leaves room for both.
 */
static void rw_test_alloc_fails(struct kunit *test)
{
	const struct rw_fault *f = test->param_value;
	bool pi = f->api == RW_SIG;
	struct rw_shape shape = { "alloc", f->nents + pi };
	unsigned int n, refused = 0, free;
	struct ib_mock *mock;
	struct list_head *pool;
	struct rw_buf *buf;
	struct rw_sig sig;

	if (f->api == RW_BVEC)
		rw_need_bvec(test);
	rw_failslab_arm(test);
	mock = ib_mock_create(test, f->profile, f->ctxs,
			      pi ? IB_QP_CREATE_INTEGRITY_EN : 0);
	pool = pi ? &mock->qp->sig_mrs : &mock->qp->rdma_mrs;
	free = ib_mock_pool_free(mock, pool);
	buf = rw_buf_alloc(test, &shape);
	if (pi)
		rw_sig_prepare(&sig, buf->pages[f->nents], f->nents, false);

	for (n = 1; n < 200; n++) {
		struct rw_dma_mark mark = rw_dma_mark(mock);
		unsigned int posted = mock->nr_posted;
		struct rdma_rw_ctx ctx;
		bool reached;
		int ret;

		rw_ctx_fresh(&ctx);
		reached = rw_fail_nth(n, &ret, &ctx, mock, buf, &sig, f);
		if (ret > 0) {
			rw_alloc_survived(test, mock, &ctx, pi);
			rw_fault_destroy(&ctx, mock, buf, &sig, f);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
					    "allocation %u failed", n);
			KUNIT_EXPECT_TRUE(test, reached);
			KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
			KUNIT_EXPECT_EQ(test, mock->nr_posted, posted);
			refused++;
		}
		KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
		KUNIT_EXPECT_EQ(test, ib_mock_pool_free(mock, pool), free);
		rw_expect_dma_undone(test, mock, &mark);
		if (!reached)
			break;

		if (pi)
			rw_sig_do_io(test, mock, buf, &sig, f->dir);
		else
			rw_do_io(test, mock, buf, f->offset, f->dir, f->api);
	}
	KUNIT_EXPECT_LT_MSG(test, n, 200, "init never got through");
	KUNIT_EXPECT_GT_MSG(test, refused, 0, "no allocation failed");
	kunit_info(test, "%u slab allocations, %u of them refused the I/O\n",
		   n - 1, refused);
}

/*
 * DMA entries longer than a page can need more MRs than their count
 * foretells, and the registrations' array then grows: that allocation
 * fails like the others, with -ENOMEM and nothing left behind.  One entry
 * of 8 pages takes two of small_mr's 4-page MRs.
 */
static void rw_test_alloc_fails_long_entry(struct kunit *test)
{
	const u32 pages = 8;
	unsigned int n, refused = 0;
	struct scatterlist sg;
	struct ib_mock *mock;

	rw_series_promise(test, "MRs filled by pages");
	rw_failslab_arm(test);
	mock = ib_mock_create(test, &ib_mock_small_mr, 2, 0);
	sg_init_table(&sg, 1);
	sg_set_page(&sg, rw_block_alloc(test, pages), pages * PAGE_SIZE, 0);

	for (n = 1; n < 100; n++) {
		struct rw_dma_mark mark = rw_dma_mark(mock);
		struct rdma_rw_ctx ctx;
		bool reached;
		int ret;

		rw_ctx_fresh(&ctx);
		rw_fail_nth_arm(n);
		ret = rdma_rw_ctx_init(&ctx, mock->qp, RW_PORT, &sg, 1, 0,
				       mock->remote_addr, mock->remote_rkey,
				       DMA_FROM_DEVICE);
		reached = rw_fail_nth_disarm();
		if (ret > 0) {
			rdma_rw_ctx_destroy(&ctx, mock->qp, RW_PORT, &sg, 1,
					    DMA_FROM_DEVICE);
		} else {
			KUNIT_EXPECT_EQ_MSG(test, ret, -ENOMEM,
					    "allocation %u failed", n);
			KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
			refused++;
		}
		rw_expect_pool_whole(test, mock, 2);
		rw_expect_dma_undone(test, mock, &mark);
		if (!reached)
			break;
	}
	KUNIT_EXPECT_LT_MSG(test, n, 100, "init never got through");
	KUNIT_EXPECT_GT_MSG(test, refused, 0, "no allocation failed");
}

/* An I/O of each kind whose context holds MRs or SGE lists to release. */
static const struct rw_fault rw_release_ios[] = {
	{ "sg: MR", RW_SG, &ib_mock_iwarp, RW_RD, 5, 0, 1 },
	{ "sg: SGE list", RW_SG, &ib_mock_sge2, RW_WR, 5, 0, 1 },
	{ "bvec: MR", RW_BVEC, &ib_mock_iwarp, RW_RD, 5, 0, 1 },
	{ "bvec: SGE list", RW_BVEC, &ib_mock_sge2, RW_WR, 5, 0, 1 },
	{ "sig", RW_SIG, &ib_mock_pi, RW_WR, 2, 0, 1 },
};

KUNIT_ARRAY_PARAM(rw_release, rw_release_ios, rw_fault_desc);

/*
 * Destroy empties the context, so destroying it again releases nothing:
 * no unmap (the mock fails an unmap of nothing live), no MR back in the
 * pool twice; and the pool still serves an I/O.
 */
static void rw_test_destroy_twice(struct kunit *test)
{
	const struct rw_fault *f = test->param_value;
	bool pi = f->api == RW_SIG;
	struct rw_shape shape = { "twice", f->nents + pi };
	struct ib_mock *mock = ib_mock_create(test, f->profile, f->ctxs,
					      pi ? IB_QP_CREATE_INTEGRITY_EN :
						   0);
	struct list_head *pool = pi ? &mock->qp->sig_mrs : &mock->qp->rdma_mrs;
	unsigned int free = ib_mock_pool_free(mock, pool);
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	struct rw_dma_mark mark;
	struct rdma_rw_ctx ctx;
	struct rw_sig sig;

	rw_series_promise(test, "destroying a context twice");
	if (pi)
		rw_sig_prepare(&sig, buf->pages[f->nents], f->nents, false);
	mark = rw_dma_mark(mock);
	KUNIT_ASSERT_GT(test, rw_fault_init(&ctx, mock, buf, &sig, f), 0);
	rw_fault_destroy(&ctx, mock, buf, &sig, f);
	rw_fault_destroy(&ctx, mock, buf, &sig, f);
	rw_expect_dma_undone(test, mock, &mark);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(mock, pool), free);

	if (pi)
		rw_sig_do_io(test, mock, buf, &sig, f->dir);
	else
		rw_do_io(test, mock, buf, 0, f->dir, f->api);
}

/*
 * The destroy of another API (a bio_vec or signature context passed to
 * rdma_rw_ctx_destroy(), a scatterlist one to rdma_rw_ctx_destroy_bvec())
 * warns (once per boot) and leaves the context alone: nothing unmapped,
 * no MR put back; the right destroy then releases all of it.
 */
static void rw_test_wrong_destroy(struct kunit *test)
{
	const struct rw_fault *f = test->param_value;
	bool pi = f->api == RW_SIG;
	struct rw_shape shape = { "wrong", f->nents + pi };
	struct ib_mock *mock = ib_mock_create(test, f->profile, f->ctxs,
					      pi ? IB_QP_CREATE_INTEGRITY_EN :
						   0);
	struct list_head *pool = pi ? &mock->qp->sig_mrs : &mock->qp->rdma_mrs;
	unsigned int free = ib_mock_pool_free(mock, pool), used, unmaps;
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	struct rw_dma_mark mark;
	struct rdma_rw_ctx ctx;
	struct rw_sig sig;

	rw_series_promise(test, "refusing the destroy of another API");
	if (pi)
		rw_sig_prepare(&sig, buf->pages[f->nents], f->nents, false);
	mark = rw_dma_mark(mock);
	KUNIT_ASSERT_GT(test, rw_fault_init(&ctx, mock, buf, &sig, f), 0);
	used = mock->qp->mrs_used;
	unmaps = mock->dma_unmaps;

	if (f->api == RW_SG) {
		rw_destroy(&ctx, mock, buf, f->dir, RW_BVEC);
		warn_watch_expect_once(test,
				       "rdma_rw_ctx_destroy_bvec() of a scatterlist context");
	} else {
		rw_destroy(&ctx, mock, buf, f->dir, RW_SG);
		warn_watch_expect_once(test,
				       "rdma_rw_ctx_destroy() of a bio_vec or signature context");
	}
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, used);
	KUNIT_EXPECT_EQ(test, mock->dma_unmaps, unmaps);

	rw_fault_destroy(&ctx, mock, buf, &sig, f);
	rw_expect_dma_undone(test, mock, &mark);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(mock, pool), free);
}

static struct kunit_case rw_error_cases[] = {
	KUNIT_CASE_PARAM(rw_test_bad_input, rw_bad_gen_params),
	KUNIT_CASE(rw_test_no_pool),
	KUNIT_CASE(rw_test_map_fails),
	KUNIT_CASE(rw_test_post_fails),
	KUNIT_CASE(rw_test_repost_refused),
	KUNIT_CASE(rw_test_alloc_mr_fails),
	KUNIT_CASE(rw_test_alloc_integrity_mr_fails),
	KUNIT_CASE_PARAM(rw_test_bvec_bad_input, rw_iter_gen_params),
	KUNIT_CASE_PARAM(rw_test_init_fault, rw_fault_gen_params),
	KUNIT_CASE_PARAM(rw_test_alloc_fails, rw_alloc_gen_params),
	KUNIT_CASE(rw_test_alloc_fails_long_entry),
	KUNIT_CASE_PARAM(rw_test_destroy_twice, rw_release_gen_params),
	KUNIT_CASE_PARAM(rw_test_wrong_destroy, rw_release_gen_params),
	{}
};

static struct kunit_suite rw_error_suite = {
	.name = "ib_core_rw_error",
	.suite_init = rw_suite_init_common,
	.suite_exit = warn_watch_suite_exit,
	.init = warn_watch_case_init,
	.test_cases = rw_error_cases,
};

kunit_test_suite(rw_error_suite);
