// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the RDMA R/W context API (rw.c), run through the mock
 * device of ib_mock.c: each I/O is posted and executed, and the tests
 * check the bytes that moved, the work requests that moved them and that
 * the QP's MR pool is whole again afterwards.
 */
#include <kunit/test.h>
#include <kunit/test-bug.h>
#include <linux/debugfs.h>
#include <linux/mm.h>
#include <linux/radix-tree.h>
#include <linux/scatterlist.h>
#include <linux/sched.h>
#include <linux/t10-pi.h>
#include <rdma/rw.h>

#if !IS_ENABLED(CONFIG_INFINIBAND_RW_KUNIT_TEST_BASE_RW)
#include "../rw_priv.h"
#endif
#include "ib_mock.h"
#include "rw_under_test.h"
#include "warn_watch.h"

#define RW_PORT		1
#define RW_CTXS		8
/* Where the I/O lands in the remote buffer: deliberately unaligned. */
#define RW_REMOTE_OFF	4099

/**
 * struct rw_shape - a local buffer layout
 * @name:	for the test description
 * @nents:	scatterlist entries, one page each
 * @first_off:	where the data starts in the first page
 * @last_len:	bytes of the last entry, 0 for up to the page end
 * @sg_offset:	offset passed to rdma_rw_ctx_init()
 * @force_mr:	also run it with ib_core's force_mr on
 */
struct rw_shape {
	const char *name;
	u32 nents;
	u32 first_off;
	u32 last_len;
	u32 sg_offset;
	bool force_mr;
};

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

/* The two ways to hand rw.c a buffer, and signature I/O (rw_faults). */
enum rw_api {
	RW_SG,
	RW_BVEC,
	RW_SIG,
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

#if IS_ENABLED(CONFIG_INFINIBAND_RW_KUNIT_TEST_BASE_RW)
/*
 * The base tree's rw.c keeps force_mr to itself, so only the kernel
 * command line sets it (ib_core.force_mr=1).  A run that boots so says
 * it here too, and runs the force_mr cases (rw_test_force_mr*) alone.
 */
static bool rw_boot_force_mr;
module_param_named(force_mr, rw_boot_force_mr, bool, 0444);
MODULE_PARM_DESC(force_mr, "The kernel was booted with ib_core.force_mr=1");

static bool rw_force_mr_is_on(void)
{
	return rw_boot_force_mr;
}

static void rw_force_mr(struct kunit *test)
{
	if (!rw_boot_force_mr)
		kunit_skip(test,
			   "boot with ib_core.force_mr=1 rw_kunit.force_mr=1");
}

/* Every case that calls the bio_vec API skips first, so none gets here. */
static int rw_init_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			const struct bio_vec *bvecs, u32 nr_bvec,
			struct bvec_iter iter, u64 remote_addr, u32 rkey,
			enum dma_data_direction dir)
{
	KUNIT_FAIL(kunit_get_current_test(), "the base rw.c has no bio_vec API");
	return -EOPNOTSUPP;
}

static void rw_destroy_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			    const struct bio_vec *bvecs, u32 nr_bvec,
			    enum dma_data_direction dir)
{
}

static void rw_need_bvec(struct kunit *test)
{
	kunit_skip(test, "the base rw.c has no bio_vec API");
}

/* Only the scatterlist API to take a buffer through (rw_io_every_way()). */
#define RW_BUF_APIS	1
#else
static bool rw_force_mr_is_on(void)
{
	return rdma_rw_force_mr;
}

static void rw_restore_force_mr(void *was_on)
{
	rdma_rw_force_mr = !!was_on;
}

/* Turn ib_core's force_mr on until the test ends. */
static void rw_force_mr(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rw_restore_force_mr,
						  rdma_rw_force_mr ?
						  test : NULL));
	rdma_rw_force_mr = true;
}

static int rw_init_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			const struct bio_vec *bvecs, u32 nr_bvec,
			struct bvec_iter iter, u64 remote_addr, u32 rkey,
			enum dma_data_direction dir)
{
	return rdma_rw_ctx_init_bvec(ctx, qp, RW_PORT, bvecs, nr_bvec, iter,
				     remote_addr, rkey, dir);
}

static void rw_destroy_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			    const struct bio_vec *bvecs, u32 nr_bvec,
			    enum dma_data_direction dir)
{
	rdma_rw_ctx_destroy_bvec(ctx, qp, RW_PORT, bvecs, nr_bvec, dir);
}

static void rw_need_bvec(struct kunit *test)
{
}

#define RW_BUF_APIS	2
#endif

/*
 * Single pages, filled with a pattern of their own, described both as a
 * scatterlist and as a bio_vec array.
 */
struct rw_buf {
	struct scatterlist *sgl;
	struct bio_vec *bvecs;
	struct page **pages;
	u32 nents;
};

static u8 rw_local_byte(u32 page, u32 off)
{
	return (page * 131 + off * 7 + 1) & 0xff;
}

static u8 rw_remote_byte(size_t off)
{
	return (off * 13 + 0x5a) & 0xff;
}

static void rw_free_pages(void *data)
{
	struct rw_buf *buf = data;
	u32 i;

	for (i = 0; i < buf->nents; i++)
		if (buf->pages[i])
			__free_page(buf->pages[i]);
}

/* A buffer of @nents entries, for the caller to fill with rw_buf_set(). */
static struct rw_buf *rw_buf_new(struct kunit *test, u32 nents)
{
	struct rw_buf *buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf->nents = nents;
	buf->sgl = kunit_kcalloc(test, nents, sizeof(*buf->sgl), GFP_KERNEL);
	buf->bvecs = kunit_kcalloc(test, nents, sizeof(*buf->bvecs),
				   GFP_KERNEL);
	buf->pages = kunit_kcalloc(test, nents, sizeof(*buf->pages),
				   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf->sgl);
	KUNIT_ASSERT_NOT_NULL(test, buf->bvecs);
	KUNIT_ASSERT_NOT_NULL(test, buf->pages);
	sg_init_table(buf->sgl, nents);
	return buf;
}

static void rw_fill_page(struct rw_buf *buf, u32 i)
{
	u8 *p = page_address(buf->pages[i]);
	u32 j;

	for (j = 0; j < PAGE_SIZE; j++)
		p[j] = rw_local_byte(i, j);
}

/* Entry @i: @len bytes at @off in @page, which gets the pattern of page @i. */
static void rw_buf_set(struct rw_buf *buf, u32 i, struct page *page, u32 off,
		       u32 len)
{
	buf->pages[i] = page;
	rw_fill_page(buf, i);
	sg_set_page(&buf->sgl[i], page, len, off);
	bvec_set_page(&buf->bvecs[i], page, len, off);
}

/* Undo what READs wrote: every page gets its pattern again. */
static void rw_buf_refill(struct rw_buf *buf)
{
	u32 i;

	for (i = 0; i < buf->nents; i++)
		rw_fill_page(buf, i);
}

static struct rw_buf *rw_buf_alloc(struct kunit *test,
				   const struct rw_shape *shape)
{
	struct rw_buf *buf = rw_buf_new(test, shape->nents);
	u32 i;

	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rw_free_pages,
							   buf));
	for (i = 0; i < buf->nents; i++) {
		u32 off = i ? 0 : shape->first_off;
		u32 len = PAGE_SIZE - off;
		struct page *page = alloc_page(GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, page);
		if (i == buf->nents - 1 && shape->last_len)
			len = shape->last_len;
		rw_buf_set(buf, i, page, off, len);
	}
	return buf;
}

/* The part of the remote buffer an I/O of @xfer bytes may touch, and more. */
static size_t rw_remote_window(struct ib_mock *mock, size_t xfer)
{
	return min(mock->remote_len, RW_REMOTE_OFF + xfer + 2 * PAGE_SIZE);
}

static void rw_fill_remote(struct ib_mock *mock, size_t xfer)
{
	size_t i;

	for (i = 0; i < rw_remote_window(mock, xfer); i++)
		mock->remote[i] = rw_remote_byte(i);
}

/* Bytes of the transfer: the list from @sg_offset to its end. */
static size_t rw_xfer_len(struct rw_buf *buf, u32 sg_offset)
{
	size_t len = 0;
	u32 i;

	for (i = 0; i < buf->nents; i++)
		len += buf->sgl[i].length;
	return len - sg_offset;
}

/*
 * Check every byte of the local pages and of the remote buffer: the
 * transfer's bytes went where they should, and nothing else changed.
 */
static void rw_check_data(struct kunit *test, struct ib_mock *mock,
			  struct rw_buf *buf, u32 sg_offset,
			  enum dma_data_direction dir)
{
	size_t xfer = rw_xfer_len(buf, sg_offset), pos = 0, bad = 0, i;
	u32 e, j;

	for (e = 0; e < buf->nents; e++) {
		struct scatterlist *sg = &buf->sgl[e];
		u8 *p = page_address(buf->pages[e]);

		for (j = 0; j < PAGE_SIZE; j++) {
			bool in = j >= sg->offset && j < sg->offset + sg->length;
			size_t at;
			u8 want;

			if (!in || pos++ < sg_offset || dir == DMA_TO_DEVICE) {
				bad += p[j] != rw_local_byte(e, j);
				continue;
			}
			at = RW_REMOTE_OFF + pos - 1 - sg_offset;
			want = rw_remote_byte(at);
			bad += p[j] != want;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "local bytes wrong");

	bad = 0;
	for (i = 0; i < rw_remote_window(mock, xfer); i++) {
		u8 want = rw_remote_byte(i);

		if (dir == DMA_TO_DEVICE && i >= RW_REMOTE_OFF &&
		    i < RW_REMOTE_OFF + xfer)
			continue;
		bad += mock->remote[i] != want;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "remote bytes outside the I/O");
	if (dir != DMA_TO_DEVICE)
		return;

	/* WRITE: the remote range holds the local stream, in order. */
	bad = 0;
	pos = 0;
	for (e = 0; e < buf->nents; e++) {
		struct scatterlist *sg = &buf->sgl[e];

		for (j = sg->offset; j < sg->offset + sg->length; j++, pos++) {
			if (pos < sg_offset)
				continue;
			bad += mock->remote[RW_REMOTE_OFF + pos - sg_offset] !=
			       rw_local_byte(e, j);
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "remote bytes of the WRITE wrong");
}

/* Entries the I/O starts in and covers once the offset is skipped. */
static u32 rw_io_nents(struct rw_buf *buf, u32 sg_offset)
{
	u32 i = 0;

	while (sg_offset >= buf->sgl[i].length)
		sg_offset -= buf->sgl[i++].length;
	return buf->nents - i;
}

static bool rw_is_data_wr(enum ib_wr_opcode opcode)
{
	return opcode == IB_WR_RDMA_WRITE || opcode == IB_WR_RDMA_READ ||
	       opcode == IB_WR_RDMA_READ_WITH_INV;
}

/*
 * The chain of an I/O of @nents pages keeps the device's rules and the
 * API's promises, without repeating how rw.c builds it: per MR
 * [LOCAL_INV], REG_MR and one data WR through the MR's new key, in as many
 * MRs as rdma_rw_mr_factor() gives for the pages (the figure ULPs size
 * their pools by); or SGE lists within the QP's limit, in the fewest WRs
 * that limit allows.  The remote addresses follow each other and only the
 * last work request is signalled.
 * The mock refuses an MR over the device's page list or an SGE list over
 * the QP's, so this does not check them again.
 */
static void rw_check_chain(struct kunit *test, struct ib_mock *mock,
			   struct rdma_rw_ctx *ctx, u32 nents, size_t xfer,
			   enum dma_data_direction dir, bool mr)
{
	const struct ib_mock_profile *p = mock->profile;
	bool iwarp = p->protocol == RDMA_CORE_CAP_PROT_IWARP;
	bool read = dir == DMA_FROM_DEVICE;
	u32 max_sge = read ? mock->qp->max_read_sge : mock->qp->max_write_sge;
	enum ib_wr_opcode data_op = !read ? IB_WR_RDMA_WRITE :
				    mr && iwarp ? IB_WR_RDMA_READ_WITH_INV :
						  IB_WR_RDMA_READ;
	u64 remote = mock->remote_addr + RW_REMOTE_OFF;
	u32 i, data_wrs = 0, regs = 0, reg_key = 0;
	bool in_mr = false;
	/*
	 * Least privilege: a READ's sink is written locally, and on iWARP
	 * by the peer's response; a WRITE's source is only read.  The base
	 * rw.c grants LOCAL_WRITE (and REMOTE_WRITE on iWARP) either way.
	 */
	int reg_access = read || RW_BASE ? IB_ACCESS_LOCAL_WRITE |
			 (iwarp ? IB_ACCESS_REMOTE_WRITE : 0) : 0;

	for (i = 0; i < mock->nr_log; i++) {
		struct ib_mock_wr *wr = &mock->log[i];

		KUNIT_EXPECT_EQ(test, wr->status, IB_WC_SUCCESS);
		KUNIT_EXPECT_EQ(test, wr->signaled, i == mock->nr_log - 1);
		if (wr->opcode == IB_WR_LOCAL_INV) {
			KUNIT_EXPECT_TRUE(test, mr && !in_mr);
			continue;
		}
		if (wr->opcode == IB_WR_REG_MR) {
			KUNIT_EXPECT_TRUE(test, mr && !in_mr);
			KUNIT_EXPECT_EQ(test, wr->access, reg_access);
			reg_key = wr->key;
			in_mr = true;
			regs++;
			continue;
		}
		KUNIT_ASSERT_TRUE(test, rw_is_data_wr(wr->opcode));
		KUNIT_EXPECT_EQ(test, wr->opcode, data_op);
		KUNIT_EXPECT_EQ(test, in_mr, mr);
		if (mr)
			KUNIT_EXPECT_EQ(test, wr->num_sge, 1);
		KUNIT_EXPECT_EQ(test, wr->remote_addr, remote);
		KUNIT_EXPECT_EQ(test, wr->rkey, mock->remote_rkey);
		if (mr) {
			KUNIT_EXPECT_EQ(test, wr->sge[0].lkey, reg_key);
			if (data_op == IB_WR_RDMA_READ_WITH_INV)
				KUNIT_EXPECT_EQ(test, wr->key, reg_key);
		}
		remote += wr->length;
		in_mr = false;
		data_wrs++;
	}
	KUNIT_EXPECT_EQ(test, data_wrs, ctx->nr_ops);
	if (mr)
		KUNIT_EXPECT_EQ(test, regs, rdma_rw_mr_factor(mock->dev, RW_PORT,
							      nents));
	else
		KUNIT_EXPECT_EQ(test, data_wrs, DIV_ROUND_UP(nents, max_sge));
	KUNIT_EXPECT_EQ(test, remote - mock->remote_addr - RW_REMOTE_OFF, xfer);
}

static struct bvec_iter rw_bvec_iter(struct rw_buf *buf, u32 sg_offset)
{
	struct bvec_iter iter = { .bi_size = rw_xfer_len(buf, 0) };

	bvec_iter_advance(buf->bvecs, &iter, sg_offset);
	return iter;
}

static int rw_init(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
		   struct rw_buf *buf, u32 sg_offset,
		   enum dma_data_direction dir, enum rw_api api)
{
	u64 remote = mock->remote_addr + RW_REMOTE_OFF;

	if (api == RW_BVEC)
		return rw_init_bvec(ctx, mock->qp, buf->bvecs, buf->nents,
				    rw_bvec_iter(buf, sg_offset), remote,
				    mock->remote_rkey, dir);
	return rdma_rw_ctx_init(ctx, mock->qp, RW_PORT, buf->sgl, buf->nents,
				sg_offset, remote, mock->remote_rkey, dir);
}

static void rw_destroy(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
		       struct rw_buf *buf, enum dma_data_direction dir,
		       enum rw_api api)
{
	if (api == RW_BVEC)
		rw_destroy_bvec(ctx, mock->qp, buf->bvecs, buf->nents, dir);
	else
		rdma_rw_ctx_destroy(ctx, mock->qp, RW_PORT, buf->sgl,
				    buf->nents, dir);
}

/*
 * Whether the I/O must go through MRs, by rules from outside rw.c: with
 * ib_core's force_mr on, as the parameter says; an iWARP READ, whose
 * response lands through a remotely writable STag (RFC 5040, which the
 * mock enforces); and a READ of more entries (one page or segment each)
 * than the max_sgl_rd the device reports as the most it reads well
 * without registering.
 */
static bool rw_expect_mr(const struct ib_mock_profile *p, u32 nents,
			 enum dma_data_direction dir)
{
	if (rw_force_mr_is_on())
		return true;
	if (dir != DMA_FROM_DEVICE)
		return false;
	if (p->protocol == RDMA_CORE_CAP_PROT_IWARP)
		return true;
	return p->max_sgl_rd && nents > p->max_sgl_rd;
}

/* The mock's DMA counters at some point, to compare with later. */
struct rw_dma_mark {
	unsigned int maps;
	unsigned int unmaps;
	unsigned int live;
};

static struct rw_dma_mark rw_dma_mark(struct ib_mock *mock)
{
	return (struct rw_dma_mark) {
		mock->dma_maps, mock->dma_unmaps, mock->dma_live,
	};
}

/*
 * Everything mapped since @mark is unmapped again, each mapping by an
 * unmap that matched it exactly (the mock fails the test otherwise).
 * Nothing to count with virtual DMA.
 */
static void rw_expect_dma_undone(struct kunit *test, struct ib_mock *mock,
				 const struct rw_dma_mark *mark)
{
	if (!mock->dma_counted)
		return;
	KUNIT_EXPECT_EQ(test, mock->dma_live, mark->live);
	KUNIT_EXPECT_EQ(test, mock->dma_unmaps - mark->unmaps,
			mock->dma_maps - mark->maps);
}

/*
 * How many of the buffer's entries have the bytes the I/O moves (from
 * @sg_offset on) inside one live DMA entry in direction @dir.
 */
static u32 rw_io_mapped(struct ib_mock *mock, struct rw_buf *buf,
			u32 sg_offset, enum dma_data_direction dir)
{
	u32 i, n = 0;

	for (i = 0; i < buf->nents; i++) {
		struct scatterlist *sg = &buf->sgl[i];
		u32 skip = min(sg_offset, sg->length);

		sg_offset -= skip;
		if (skip < sg->length)
			n += ib_mock_dma_mapped(mock, sg_page(sg),
						sg->offset + skip,
						sg->length - skip, dir);
	}
	return n;
}

/* No MR out, and all @nr of the pool back on its free list. */
static void rw_expect_pool_whole(struct kunit *test, struct ib_mock *mock,
				 unsigned int nr)
{
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(mock, &mock->qp->rdma_mrs), nr);
}

/*
 * What init mapped, counted since @mark: the caller's whole list, as
 * passed, for the scatterlist API; for the bio_vec API one page mapping per
 * segment moved, or one scatterlist behind an IOMMU (the mock merging
 * entries), whether SGEs or MRs carry the I/O.  Either way every byte to
 * move is mapped in the I/O's direction.
 */
static void rw_expect_dma_init(struct kunit *test, struct ib_mock *mock,
			       struct rw_buf *buf, u32 sg_offset,
			       enum dma_data_direction dir, enum rw_api api,
			       const struct rw_dma_mark *mark)
{
	u32 nents = rw_io_nents(buf, sg_offset);
	u32 maps = 1;

	if (!mock->dma_counted)
		return;
	/* bio_vec pieces are mapped one by one unless they need a list. */
	if (api == RW_BVEC && !mock->dma_merge &&
	    !rw_expect_mr(mock->profile, nents, dir))
		maps = nents;
	KUNIT_EXPECT_EQ(test, mock->dma_maps - mark->maps, maps);
	KUNIT_EXPECT_EQ(test, mock->dma_live - mark->live, maps);
	KUNIT_EXPECT_EQ(test, mock->dma_unmaps, mark->unmaps);
	if (api == RW_SG)
		KUNIT_EXPECT_TRUE(test, ib_mock_dma_sg_live(mock, buf->sgl,
							    buf->nents, dir));
	KUNIT_EXPECT_EQ(test, rw_io_mapped(mock, buf, sg_offset, dir), nents);
}

/* Init, post, complete and destroy one I/O, and check all of it. */
static void rw_do_io(struct kunit *test, struct ib_mock *mock,
		     struct rw_buf *buf, u32 sg_offset,
		     enum dma_data_direction dir, enum rw_api api)
{
	size_t xfer = rw_xfer_len(buf, sg_offset);
	u32 nents = rw_io_nents(buf, sg_offset);
	struct rw_dma_mark mark = rw_dma_mark(mock);
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct rdma_rw_ctx ctx;
	unsigned int posted;
	int wqes;

	rw_fill_remote(mock, xfer);
	wqes = rw_init(&ctx, mock, buf, sg_offset, dir, api);
	KUNIT_ASSERT_GT(test, wqes, 0);
	rw_expect_dma_init(test, mock, buf, sg_offset, dir, api, &mark);

	ib_mock_clear_log(mock);
	posted = mock->nr_posted;
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	KUNIT_EXPECT_EQ(test, mock->nr_posted - posted, wqes);
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.calls, 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);

	rw_check_chain(test, mock, &ctx, nents, xfer, dir,
		       rw_expect_mr(mock->profile, nents, dir));
	rw_destroy(&ctx, mock, buf, dir, api);
	if (!RW_BASE)
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
	rw_expect_dma_undone(test, mock, &mark);
	if (mock->dma_counted)
		KUNIT_EXPECT_EQ(test, rw_io_mapped(mock, buf, sg_offset, dir),
				0);
	rw_check_data(test, mock, buf, sg_offset, dir);
}

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
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.calls, 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);

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
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
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

static void rw_need_dma_counted(struct kunit *test)
{
	if (!IB_MOCK_DMA_COUNTED)
		kunit_skip(test,
			   "no DMA ops here: the mock cannot count or fail mappings");
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

static void rw_free_order2(void *page)
{
	__free_pages(page, 2);
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
		KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
		KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
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

static void rw_free_block(void *page)
{
	__free_pages(page, compound_order(page));
}

/* A zeroed block of at least @nr_pages pages, freed at the test's end. */
static struct page *rw_block_alloc(struct kunit *test, u32 nr_pages)
{
	struct page *block = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_ZERO,
					 order_base_2(nr_pages));

	KUNIT_ASSERT_NOT_NULL(test, block);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rw_free_block,
							   block));
	return block;
}

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
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);

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
			KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
			KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
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
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
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
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
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

/* @buf through each API there is, in both directions, at each of @offsets */
static void rw_io_every_way(struct kunit *test, struct ib_mock *mock,
			    struct rw_buf *buf, const u32 *offsets, u32 n)
{
	static const enum dma_data_direction dirs[] = {
		DMA_TO_DEVICE, DMA_FROM_DEVICE,
	};
	u32 a, d, o;

	for (a = 0; a < RW_BUF_APIS; a++)
		for (d = 0; d < ARRAY_SIZE(dirs); d++)
			for (o = 0; o < n; o++) {
				rw_buf_refill(buf);
				rw_do_io(test, mock, buf, offsets[o], dirs[d],
					 a ? RW_BVEC : RW_SG);
			}
}

/*
 * The regression upstream fixed in 8e913a8d89cd: an offset that skips
 * whole entries moves rw.c's cursor, not the list to unmap.  Destroy must
 * unmap the caller's list and count as passed to init (rw_do_io() checks
 * that where mappings are counted, and the mock fails any other unmap);
 * rw_faults has the failing inits after a skip.  Offsets skip 0 to 4 of 5
 * entries, the first of which starts 8 bytes before its page ends.
 */
static void rw_test_offset_skip(struct kunit *test)
{
	static const struct rw_shape shape = { "skip", 5, PAGE_SIZE - 8 };
	const struct ib_mock_profile *const profiles[] = {
		&ib_mock_ib, &ib_mock_iwarp, &ib_mock_sge1, &ib_mock_small_mr,
	};
	const u32 offsets[] = {
		7, 8, 8 + 5, 8 + PAGE_SIZE, 8 + 3 * PAGE_SIZE + 1,
	};
	u32 p;

	for (p = 0; p < ARRAY_SIZE(profiles); p++) {
		struct ib_mock *mock = ib_mock_create(test, profiles[p],
						      RW_CTXS, 0);
		struct rw_buf *buf = rw_buf_alloc(test, &shape);

		rw_io_every_way(test, mock, buf, offsets, ARRAY_SIZE(offsets));
	}
}

/* A piece of a bio_vec I/O that lies in one page. */
struct rw_piece {
	struct page *page;
	u32 off;
	u32 len;
};

/**
 * struct rw_bvec_io - a bio_vec I/O and the bytes it moves
 * @bvecs:	the bio_vecs init gets
 * @nr_bvec:	how many
 * @iter:	the bytes of them to move
 * @pieces:	those bytes, page by page, in order
 * @nr_pieces:	how many
 */
struct rw_bvec_io {
	const struct bio_vec *bvecs;
	u32 nr_bvec;
	struct bvec_iter iter;
	const struct rw_piece *pieces;
	u32 nr_pieces;
};

/* How many of the pieces lie inside one live DMA entry in direction @dir. */
static u32 rw_pieces_mapped(struct ib_mock *mock, const struct rw_bvec_io *io,
			    enum dma_data_direction dir)
{
	const struct rw_piece *pieces = io->pieces;
	u32 i, n = 0;

	for (i = 0; i < io->nr_pieces; i++)
		n += ib_mock_dma_mapped(mock, pieces[i].page, pieces[i].off,
					pieces[i].len, dir);
	return n;
}

/* One I/O of @io; piece i holds bytes of value i + 1. */
static void rw_bvec_dma_io(struct kunit *test, struct ib_mock *mock,
			   const struct rw_bvec_io *io,
			   enum dma_data_direction dir)
{
	const struct rw_piece *pieces = io->pieces;
	struct rw_dma_mark mark = rw_dma_mark(mock);
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	size_t pos = RW_REMOTE_OFF, bad = 0;
	struct rdma_rw_ctx ctx;
	u32 i, j;

	for (i = 0; i < io->nr_pieces; i++)
		memset(page_address(pieces[i].page) + pieces[i].off, i + 1,
		       pieces[i].len);
	rw_fill_remote(mock, io->iter.bi_size);
	KUNIT_ASSERT_GT(test, rw_init_bvec(&ctx, mock->qp, io->bvecs,
					   io->nr_bvec, io->iter,
					   mock->remote_addr + RW_REMOTE_OFF,
					   mock->remote_rkey, dir), 0);
	if (mock->dma_counted) {
		/* An IOMMU gets the I/O as one request. */
		if (mock->dma_merge)
			KUNIT_EXPECT_EQ(test, mock->dma_maps - mark.maps, 1);
		KUNIT_EXPECT_EQ(test, rw_pieces_mapped(mock, io, dir),
				io->nr_pieces);
	}
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
	rw_destroy_bvec(&ctx, mock->qp, io->bvecs, io->nr_bvec, dir);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
	rw_expect_dma_undone(test, mock, &mark);
	if (mock->dma_counted)
		KUNIT_EXPECT_EQ(test, rw_pieces_mapped(mock, io, dir), 0);

	/* Both sides hold the stream of pieces, in order. */
	for (i = 0; i < io->nr_pieces; i++) {
		u8 *p = page_address(pieces[i].page);

		for (j = pieces[i].off; j < pieces[i].off + pieces[i].len;
		     j++, pos++) {
			u8 want = dir == DMA_TO_DEVICE ? i + 1 :
							 rw_remote_byte(pos);

			bad += p[j] != want || mock->remote[pos] != want;
		}
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0, "%s %s: data wrong",
			    mock->profile->name,
			    dir == DMA_TO_DEVICE ? "write" : "read");
}

/*
 * bio_vec I/O maps every byte it moves, behind an IOMMU (the mock merging
 * DMA entries) in one call into the DMA layer; its destroy unmaps exactly
 * what it mapped (the mock fails the test otherwise) and leaves nothing
 * mapped.  Segments: 4 pages from an offset of 100, of
 * which the iterator skips 50 bytes, a whole page, and 1000 bytes of a
 * third.
 */
static void rw_test_bvec_dma(struct kunit *test)
{
	const struct ib_mock_profile *const profiles[] = {
		&ib_mock_ib, &ib_mock_sge1, &ib_mock_iwarp, &ib_mock_small_mr,
	};
	static const struct rw_shape shape = { "single", 2 };
	const u32 total = 4 * PAGE_SIZE - 100 + PAGE_SIZE + 1000;
	struct rw_piece pieces[6];
	struct bio_vec bvecs[3];
	struct rw_bvec_io io = {
		bvecs, ARRAY_SIZE(bvecs),
		{ .bi_size = total - 50, .bi_bvec_done = 50 },
		pieces, ARRAY_SIZE(pieces),
	};
	struct rw_buf *single;
	struct page *block;
	u32 p, i;

	rw_need_bvec(test);
	block = alloc_pages(GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, block);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rw_free_order2,
							   block));
	single = rw_buf_alloc(test, &shape);
	bvec_set_page(&bvecs[0], block, 4 * PAGE_SIZE - 100, 100);
	bvec_set_page(&bvecs[1], single->pages[0], PAGE_SIZE, 0);
	bvec_set_page(&bvecs[2], single->pages[1], 1000, 0);
	pieces[0] = (struct rw_piece) { block, 150, PAGE_SIZE - 150 };
	for (i = 1; i < 4; i++)
		pieces[i] = (struct rw_piece) { nth_page(block, i), 0,
						PAGE_SIZE };
	pieces[4] = (struct rw_piece) { single->pages[0], 0, PAGE_SIZE };
	pieces[5] = (struct rw_piece) { single->pages[1], 0, 1000 };

	for (p = 0; p < 2 * ARRAY_SIZE(profiles); p++) {
		struct ib_mock *mock = ib_mock_create(test, profiles[p / 2],
						      RW_CTXS, 0);

		mock->dma_merge = p % 2;
		rw_bvec_dma_io(test, mock, &io, DMA_TO_DEVICE);
		rw_bvec_dma_io(test, mock, &io, DMA_FROM_DEVICE);
	}
}

/*
 * Segments shorter than a page are each a piece of their own: eight of
 * 512 bytes, from two pages in turn, so that no two are adjacent, make
 * eight SGEs or eight pages of MRs (more MRs where an MR takes pages
 * that start and end on page boundaries only), for all of their 4 KiB.
 */
static void rw_test_bvec_small_segments(struct kunit *test)
{
	const struct ib_mock_profile *const profiles[] = {
		&ib_mock_ib, &ib_mock_sge1, &ib_mock_iwarp, &ib_mock_sgl_rd,
		&ib_mock_small_mr,
	};
	static const struct rw_shape shape = { "two", 2 };
	struct rw_piece pieces[8];
	struct bio_vec bvecs[8];
	struct rw_bvec_io io = {
		bvecs, ARRAY_SIZE(bvecs), { .bi_size = 8 * 512 },
		pieces, ARRAY_SIZE(pieces),
	};
	struct rw_buf *two;
	u32 p, i;

	rw_need_bvec(test);
	two = rw_buf_alloc(test, &shape);
	for (i = 0; i < ARRAY_SIZE(bvecs); i++) {
		pieces[i] = (struct rw_piece) { two->pages[i % 2],
						i / 2 * 512, 512 };
		bvec_set_page(&bvecs[i], pieces[i].page, 512, pieces[i].off);
	}

	for (p = 0; p < ARRAY_SIZE(profiles); p++) {
		struct ib_mock *mock = ib_mock_create(test, profiles[p],
						      RW_CTXS, 0);

		rw_bvec_dma_io(test, mock, &io, DMA_TO_DEVICE);
		rw_bvec_dma_io(test, mock, &io, DMA_FROM_DEVICE);
	}
}

/*
 * Cases about DMA mappings as such, which the mock counts only where
 * devices can have DMA ops of their own; elsewhere they skip.
 */

static void rw_free_order3(void *page)
{
	__free_pages(page, 3);
}

/*
 * A large folio's bio_vec is cut where the device's DMA limits say: at
 * its maximum segment (3 pages here), at its segment boundary (every 4
 * pages) and at the longest mapping a bounce buffer makes (2.5 pages);
 * then at the maximum segment alone, with no boundary to cut at.  The
 * mock refuses a mapping beyond any limit, failing the test, as swiotlb
 * and dma-debug would; the data must still arrive whole, through SGEs and
 * through MRs.
 */
static void rw_test_bvec_dma_limits(struct kunit *test)
{
	const struct ib_mock_profile *const profiles[] = {
		&ib_mock_ib, &ib_mock_sge1, &ib_mock_iwarp, &ib_mock_small_mr,
	};
	struct rw_piece pieces[8];
	struct bio_vec bv;
	struct rw_bvec_io io = {
		&bv, 1, { .bi_size = 8 * PAGE_SIZE - 150 },
		pieces, ARRAY_SIZE(pieces),
	};
	struct page *block;
	u32 p, i;

	rw_need_bvec(test);
	rw_need_dma_counted(test);
	block = alloc_pages(GFP_KERNEL, 3);
	KUNIT_ASSERT_NOT_NULL(test, block);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rw_free_order3,
							   block));
	bvec_set_page(&bv, block, io.iter.bi_size, 100);
	for (i = 0; i < ARRAY_SIZE(pieces); i++)
		pieces[i] = (struct rw_piece) { nth_page(block, i), 0,
						PAGE_SIZE };
	pieces[0].off = 100;
	pieces[0].len -= 100;
	pieces[7].len -= 50;

	for (p = 0; p < ARRAY_SIZE(profiles); p++) {
		struct ib_mock *mock = ib_mock_create(test, profiles[p],
						      RW_CTXS, 0);
		struct device *dev = mock->dev->dma_device;

		dma_set_max_seg_size(dev, 3 * PAGE_SIZE);
		dma_set_seg_boundary(dev, 4 * PAGE_SIZE - 1);
		mock->dma_max_mapping = 5 * PAGE_SIZE / 2;
		rw_bvec_dma_io(test, mock, &io, DMA_TO_DEVICE);
		rw_bvec_dma_io(test, mock, &io, DMA_FROM_DEVICE);

		dma_set_seg_boundary(dev, ULONG_MAX);
		mock->dma_max_mapping = 0;
		rw_bvec_dma_io(test, mock, &io, DMA_TO_DEVICE);
		rw_bvec_dma_io(test, mock, &io, DMA_FROM_DEVICE);
	}
}

/*
 * Three bio_vecs of adjacent pages are one request to an IOMMU that
 * merges: one DMA entry, so one SGE of all three pages.
 */
static void rw_test_bvec_dma_merged(struct kunit *test)
{
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct bvec_iter iter = { .bi_size = 3 * PAGE_SIZE };
	struct bio_vec bvecs[3];
	struct rdma_rw_ctx ctx;
	struct ib_mock *mock;
	struct page *block;
	u32 i;

	rw_need_bvec(test);
	rw_need_dma_counted(test);
	mock = ib_mock_create(test, &ib_mock_ib, RW_CTXS, 0);
	mock->dma_merge = true;
	block = alloc_pages(GFP_KERNEL, 2);
	KUNIT_ASSERT_NOT_NULL(test, block);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   rw_free_order2,
							   block));
	for (i = 0; i < ARRAY_SIZE(bvecs); i++)
		bvec_set_page(&bvecs[i], nth_page(block, i), PAGE_SIZE, 0);

	KUNIT_ASSERT_EQ(test, rw_init_bvec(&ctx, mock->qp, bvecs, 3, iter,
					   mock->remote_addr,
					   mock->remote_rkey, DMA_TO_DEVICE),
			1);
	ib_mock_clear_log(mock);
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	KUNIT_ASSERT_EQ(test, mock->nr_log, 1);
	KUNIT_EXPECT_EQ(test, mock->log[0].num_sge, 1);
	KUNIT_EXPECT_EQ(test, mock->log[0].sge[0].length, 3 * PAGE_SIZE);
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
	rw_destroy_bvec(&ctx, mock->qp, bvecs, 3, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, mock->dma_live, 0);
}

/*
 * Where the mock merges DMA entries as an IOMMU may, a list maps to fewer
 * DMA entries than it has: here pages 0-3 of a block become one, page 5
 * another.  The unmap must still name the list and the count passed to
 * map, also when the offset skips the merged entry.
 */
static void rw_dma_merged(struct kunit *test,
			  const struct ib_mock_profile *const *profiles,
			  u32 nr_profiles)
{
	static const u32 pages[] = { 0, 1, 2, 3, 5 };
	const u32 offsets[] = { 0, 100, 4 * PAGE_SIZE, 4 * PAGE_SIZE + 10 };
	u32 p, i;

	rw_need_dma_counted(test);
	for (p = 0; p < nr_profiles; p++) {
		struct ib_mock *mock = ib_mock_create(test, profiles[p],
						      RW_CTXS, 0);
		struct rw_buf *buf = rw_buf_new(test, ARRAY_SIZE(pages));
		struct page *block;

		KUNIT_ASSERT_TRUE(test, mock->dma_counted);
		mock->dma_merge = true;
		block = alloc_pages(GFP_KERNEL, 3);
		KUNIT_ASSERT_NOT_NULL(test, block);
		KUNIT_ASSERT_EQ(test, 0,
				kunit_add_action_or_reset(test, rw_free_order3,
							  block));
		for (i = 0; i < ARRAY_SIZE(pages); i++)
			rw_buf_set(buf, i, nth_page(block, pages[i]), 0,
				   PAGE_SIZE);

		KUNIT_ASSERT_EQ(test, 2, ib_dma_map_sg(mock->dev, buf->sgl,
						       buf->nents,
						       DMA_TO_DEVICE));
		KUNIT_EXPECT_EQ(test, sg_dma_len(&buf->sgl[0]), 4 * PAGE_SIZE);
		KUNIT_EXPECT_EQ(test, sg_dma_len(&buf->sgl[1]), PAGE_SIZE);
		ib_dma_unmap_sg(mock->dev, buf->sgl, buf->nents, DMA_TO_DEVICE);
		KUNIT_EXPECT_EQ(test, mock->dma_live, 0);

		rw_io_every_way(test, mock, buf, offsets, ARRAY_SIZE(offsets));
	}
}

static void rw_test_dma_merged(struct kunit *test)
{
	const struct ib_mock_profile *const profiles[] = {
		&ib_mock_ib, &ib_mock_iwarp,
	};

	rw_dma_merged(test, profiles, ARRAY_SIZE(profiles));
}

/* With MRs of 4 pages, the merged entry and the page after take two. */
static void rw_test_dma_merged_mr_pages(struct kunit *test)
{
	const struct ib_mock_profile *const profiles[] = { &ib_mock_small_mr };

	rw_series_promise(test, "MRs filled by pages");
	rw_dma_merged(test, profiles, ARRAY_SIZE(profiles));
}

/*
 * The mock's DMA bookkeeping itself: bus addresses are neither virtual nor
 * physical ones, and an unmap must name a live mapping exactly, or it
 * counts as bad (and would fail the test, but for dma_expect_bad) and
 * undoes nothing.  The bad unmaps go to the mock alone, out of dma-debug's
 * sight, whose own books stay right.
 */
static void rw_test_dma_checker(struct kunit *test)
{
	static const struct rw_shape shape = { "checker", 3 };
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_ib, 1, 0);
	struct ib_device *dev = mock->dev;
	struct rw_buf *buf;
	u64 addr, phys;
	u32 i;

	rw_need_dma_counted(test);
	KUNIT_ASSERT_TRUE(test, mock->dma_counted);
	buf = rw_buf_alloc(test, &shape);

	KUNIT_ASSERT_EQ(test, 3, ib_dma_map_sg(dev, buf->sgl, 3,
					       DMA_TO_DEVICE));
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, sg_dma_address(&buf->sgl[i]),
				page_to_phys(buf->pages[i]) +
				IB_MOCK_DMA_OFFSET);
	KUNIT_EXPECT_TRUE(test, ib_mock_dma_sg_live(mock, buf->sgl, 3,
						    DMA_TO_DEVICE));
	KUNIT_EXPECT_TRUE(test, ib_mock_dma_mapped(mock, buf->pages[1], 0,
						   PAGE_SIZE, DMA_TO_DEVICE));
	KUNIT_EXPECT_FALSE(test, ib_mock_dma_mapped(mock, buf->pages[1], 0,
						    PAGE_SIZE,
						    DMA_FROM_DEVICE));

	mock->dma_expect_bad = true;
	/* The list without its head, as after an offset skip. */
	ib_mock_dma_unmap_sg_raw(mock, &buf->sgl[1], 2, DMA_TO_DEVICE);
	/* The count of DMA entries, or any other count. */
	ib_mock_dma_unmap_sg_raw(mock, buf->sgl, 2, DMA_TO_DEVICE);
	ib_mock_dma_unmap_sg_raw(mock, buf->sgl, 3, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, mock->dma_bad, 3);
	KUNIT_EXPECT_EQ(test, mock->dma_unmaps, 0);
	KUNIT_EXPECT_EQ(test, mock->dma_live, 1);
	/* Mapping a list that is mapped already. */
	KUNIT_EXPECT_EQ(test, 3, ib_dma_map_sg(dev, buf->sgl, 3,
					       DMA_TO_DEVICE));
	KUNIT_EXPECT_EQ(test, mock->dma_bad, 4);
	ib_dma_unmap_sg(dev, buf->sgl, 3, DMA_TO_DEVICE);
	ib_dma_unmap_sg(dev, buf->sgl, 3, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, mock->dma_bad, 4);
	KUNIT_EXPECT_EQ(test, mock->dma_live, 0);
	KUNIT_EXPECT_FALSE(test, ib_mock_dma_sg_live(mock, buf->sgl, 3,
						     DMA_TO_DEVICE));

	addr = ib_dma_map_page(dev, buf->pages[0], 100, 200, DMA_FROM_DEVICE);
	KUNIT_ASSERT_FALSE(test, ib_dma_mapping_error(dev, addr));
	phys = page_to_phys(buf->pages[0]) + 100;
	KUNIT_EXPECT_EQ(test, addr, phys + IB_MOCK_DMA_OFFSET);
	ib_mock_dma_unmap_page_raw(mock, addr, 199, DMA_FROM_DEVICE);
	ib_mock_dma_unmap_page_raw(mock, addr + 1, 199, DMA_FROM_DEVICE);
	ib_mock_dma_unmap_page_raw(mock, addr, 200, DMA_TO_DEVICE);
	ib_mock_dma_unmap_page_raw(mock, phys, 200, DMA_FROM_DEVICE);
	ib_mock_dma_unmap_page_raw(mock,
				   (uintptr_t)page_address(buf->pages[0]) + 100,
				   200, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, mock->dma_bad, 9);
	KUNIT_EXPECT_EQ(test, mock->dma_live, 1);
	ib_dma_unmap_page(dev, addr, 200, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, mock->dma_bad, 9);
	KUNIT_EXPECT_EQ(test, mock->dma_live, 0);
	mock->dma_expect_bad = false;

	/* Injected failures map nothing. */
	mock->fail_dma_map = 1;
	KUNIT_EXPECT_EQ(test, 0, ib_dma_map_sg(dev, buf->sgl, 3,
					       DMA_TO_DEVICE));
	mock->fail_dma_map = 2;
	addr = ib_dma_map_page(dev, buf->pages[0], 0, PAGE_SIZE,
			       DMA_TO_DEVICE);
	KUNIT_EXPECT_FALSE(test, ib_dma_mapping_error(dev, addr));
	KUNIT_EXPECT_TRUE(test,
			  ib_dma_mapping_error(dev,
					       ib_dma_map_page(dev,
							       buf->pages[1], 0,
							       PAGE_SIZE,
							       DMA_TO_DEVICE)));
	ib_dma_unmap_page(dev, addr, PAGE_SIZE, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, mock->dma_maps, 4);
	KUNIT_EXPECT_EQ(test, mock->dma_unmaps, 4);
	KUNIT_EXPECT_EQ(test, mock->dma_live, 0);
}

/* What an SGE of rw_post_sge() points at. */
enum rw_sge_addr {
	RW_SGE_BUS,		/* the bus address of the mapping */
	RW_SGE_VIRT,		/* the page's kernel virtual address */
	RW_SGE_PHYS,		/* its physical address */
	RW_SGE_LONG,		/* the bus address, one byte too long */
	RW_SGE_UNMAPPED,	/* the bus address, after the unmap */
};

/*
 * Map a page with map_page in direction @mapped, on a mock of its own,
 * post one @opcode of one SGE through the local DMA lkey that points at
 * it as @how says, and return how that completed.
 */
static enum ib_wc_status rw_post_sge(struct kunit *test,
				     enum ib_wr_opcode opcode,
				     enum dma_data_direction mapped,
				     enum rw_sge_addr how)
{
	static const struct rw_shape shape = { "sge", 1 };
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_ib, 1, 0);
	struct page *page = rw_buf_alloc(test, &shape)->pages[0];
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct ib_sge sge = {
		.length = PAGE_SIZE,
		.lkey = mock->pd->local_dma_lkey,
	};
	struct ib_rdma_wr wr = {
		.wr = {
			.wr_cqe = &done.cqe,
			.opcode = opcode,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = mock->remote_addr,
		.rkey = mock->remote_rkey,
	};
	u64 bus;

	bus = ib_dma_map_page(mock->dev, page, 0, PAGE_SIZE, mapped);
	KUNIT_ASSERT_FALSE(test, ib_dma_mapping_error(mock->dev, bus));
	sge.addr = bus;
	if (how == RW_SGE_VIRT)
		sge.addr = (uintptr_t)page_address(page);
	else if (how == RW_SGE_PHYS)
		sge.addr = page_to_phys(page);
	else if (how == RW_SGE_LONG)
		sge.length++;
	else if (how == RW_SGE_UNMAPPED)
		ib_dma_unmap_page(mock->dev, bus, PAGE_SIZE, mapped);

	KUNIT_EXPECT_EQ(test, 0, ib_post_send(mock->qp, &wr.wr, NULL));
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	if (how != RW_SGE_UNMAPPED)
		ib_dma_unmap_page(mock->dev, bus, PAGE_SIZE, mapped);
	return done.status;
}

/*
 * The QP reaches local memory only through bus addresses inside a live
 * mapping whose direction allows the access: not through virtual or
 * physical addresses, past the end of a mapping, against its direction or
 * after its unmap; through an SGE or an MR alike.
 */
static void rw_test_dma_access(struct kunit *test)
{
	static const struct rw_shape shape = { "stale", 3 };
	const enum ib_wc_status refused = IB_WC_LOC_PROT_ERR;
	const enum ib_wc_status ok = IB_WC_SUCCESS;
	struct ib_mock *mock = ib_mock_create(test, &ib_mock_iwarp, 1, 0);
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct rdma_rw_ctx ctx;
	struct rw_buf *buf;

	rw_need_dma_counted(test);
	KUNIT_ASSERT_TRUE(test, mock->dma_counted);
	KUNIT_EXPECT_EQ(test, ok, rw_post_sge(test, IB_WR_RDMA_WRITE,
					      DMA_TO_DEVICE, RW_SGE_BUS));
	KUNIT_EXPECT_EQ(test, ok, rw_post_sge(test, IB_WR_RDMA_READ,
					      DMA_FROM_DEVICE, RW_SGE_BUS));
	KUNIT_EXPECT_EQ(test, ok, rw_post_sge(test, IB_WR_RDMA_READ,
					      DMA_BIDIRECTIONAL, RW_SGE_BUS));
	KUNIT_EXPECT_EQ(test, refused, rw_post_sge(test, IB_WR_RDMA_WRITE,
						   DMA_TO_DEVICE,
						   RW_SGE_VIRT));
	KUNIT_EXPECT_EQ(test, refused, rw_post_sge(test, IB_WR_RDMA_WRITE,
						   DMA_TO_DEVICE,
						   RW_SGE_PHYS));
	KUNIT_EXPECT_EQ(test, refused, rw_post_sge(test, IB_WR_RDMA_WRITE,
						   DMA_TO_DEVICE,
						   RW_SGE_LONG));
	KUNIT_EXPECT_EQ(test, refused, rw_post_sge(test, IB_WR_RDMA_WRITE,
						   DMA_TO_DEVICE,
						   RW_SGE_UNMAPPED));
	KUNIT_EXPECT_EQ(test, refused, rw_post_sge(test, IB_WR_RDMA_READ,
						   DMA_TO_DEVICE, RW_SGE_BUS));
	KUNIT_EXPECT_EQ(test, refused, rw_post_sge(test, IB_WR_RDMA_WRITE,
						   DMA_FROM_DEVICE,
						   RW_SGE_BUS));

	/* An MR over a list that was unmapped behind rw.c's back. */
	buf = rw_buf_alloc(test, &shape);
	KUNIT_ASSERT_GT(test, rw_init(&ctx, mock, buf, 0, DMA_FROM_DEVICE,
				      RW_SG), 0);
	ib_mock_dma_unmap_sg_raw(mock, buf->sgl, 3, DMA_FROM_DEVICE);
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, RW_PORT,
						  &done.cqe, NULL));
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.status, refused);
	mock->dma_expect_bad = true;
	rw_destroy(&ctx, mock, buf, DMA_FROM_DEVICE, RW_SG);
	KUNIT_EXPECT_EQ(test, mock->dma_bad, 1);
	KUNIT_EXPECT_EQ(test, mock->dma_live, 0);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
}

/*
 * A mapping that a test leaks is reported, and undone as the mock goes:
 * dma-debug never forgets a mapping, so the next mapping of its cacheline,
 * in whatever test gets that memory, would count as an overlap against
 * that test.  The leaks happen in a test of their own here, and the same
 * cachelines are mapped again afterwards.
 */
static void rw_test_dma_leak_undone(struct kunit *test)
{
	static const struct rw_shape shape = { "leak", 1 };
	static const unsigned int offsets[] = { 0, 2 * SMP_CACHE_BYTES };
	struct rw_buf *buf = rw_buf_alloc(test, &shape);
	struct kunit leaker;
	struct ib_mock *mock;
	u64 addr;
	u32 i;

	rw_need_dma_counted(test);
	kunit_init_test(&leaker, "leaker", NULL);
	mock = ib_mock_create_device(&leaker, &ib_mock_ib);
	KUNIT_EXPECT_EQ(test, 1, ib_dma_map_sg(mock->dev, buf->sgl, 1,
					       DMA_FROM_DEVICE));
	addr = ib_dma_map_page(mock->dev, buf->pages[0], offsets[1], 64,
			       DMA_FROM_DEVICE);
	KUNIT_EXPECT_FALSE(test, ib_dma_mapping_error(mock->dev, addr));
	kunit_cleanup(&leaker);
	KUNIT_EXPECT_EQ(test, leaker.status, KUNIT_FAILURE);

	/* warn_watch fails the case on any overlap dma-debug counts. */
	mock = ib_mock_create_device(test, &ib_mock_ib);
	for (i = 0; i < ARRAY_SIZE(offsets); i++) {
		addr = ib_dma_map_page(mock->dev, buf->pages[0], offsets[i], 64,
				       DMA_FROM_DEVICE);
		KUNIT_ASSERT_FALSE(test, ib_dma_mapping_error(mock->dev, addr));
		ib_dma_unmap_page(mock->dev, addr, 64, DMA_FROM_DEVICE);
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

	/* The base rw.c registers a WRITE's source writable. */
	ib_mock_lax_access = RW_BASE;
	rw_forced_cases = forced;
	if (rw_add_cases(forced, end, true) != end)
		return -EINVAL;
	return warn_watch_register();
}

static struct kunit_case rw_test_cases[] = {
	KUNIT_CASE_PARAM(rw_test_data, rw_case_gen),
	KUNIT_CASE_SLOW(rw_test_mr_reuse),
	KUNIT_CASE(rw_test_chain),
	KUNIT_CASE(rw_test_pool_exhausted),
	KUNIT_CASE_PARAM(rw_test_force_mr, rw_forced_case_gen),
	KUNIT_CASE(rw_test_force_mr_pool_exhausted),
	KUNIT_CASE_PARAM(rw_test_bad_input, rw_bad_gen_params),
	KUNIT_CASE(rw_test_no_pool),
	KUNIT_CASE(rw_test_map_fails),
	KUNIT_CASE(rw_test_post_fails),
	KUNIT_CASE(rw_test_repost_refused),
	KUNIT_CASE(rw_test_alloc_mr_fails),
	KUNIT_CASE(rw_test_sizing),
	KUNIT_CASE(rw_test_sizing_overflow),
	KUNIT_CASE(rw_test_sizing_zero_limits),
	KUNIT_CASE_PARAM(rw_test_bvec_bad_input, rw_iter_gen_params),
	KUNIT_CASE(rw_test_bvec_multipage),
	KUNIT_CASE_PARAM(rw_test_mr_by_pages, rw_long_gen_params),
	KUNIT_CASE(rw_test_pool_too_small),
	KUNIT_CASE(rw_test_optional_mr_fails),
	KUNIT_CASE(rw_test_post_empty),
	KUNIT_CASE(rw_test_wrs_empty),
	KUNIT_CASE(rw_test_qp_sge_limit),
	KUNIT_CASE(rw_test_send_queue_depth),
	KUNIT_CASE_PARAM(rw_test_init_fault, rw_fault_gen_params),
	KUNIT_CASE_PARAM(rw_test_alloc_fails, rw_alloc_gen_params),
	KUNIT_CASE(rw_test_alloc_fails_long_entry),
	KUNIT_CASE_PARAM(rw_test_destroy_twice, rw_release_gen_params),
	KUNIT_CASE_PARAM(rw_test_wrong_destroy, rw_release_gen_params),
	KUNIT_CASE(rw_test_offset_skip),
	KUNIT_CASE(rw_test_bvec_dma),
	KUNIT_CASE(rw_test_bvec_small_segments),
	KUNIT_CASE(rw_test_bvec_dma_limits),
	KUNIT_CASE(rw_test_bvec_dma_merged),
	KUNIT_CASE(rw_test_dma_merged),
	KUNIT_CASE(rw_test_dma_merged_mr_pages),
	KUNIT_CASE(rw_test_dma_checker),
	KUNIT_CASE(rw_test_dma_access),
	KUNIT_CASE(rw_test_dma_leak_undone),
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
