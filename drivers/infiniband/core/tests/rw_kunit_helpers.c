// SPDX-License-Identifier: GPL-2.0-only
/*
 * The R/W suites' helpers (rw_kunit_helpers.h): buffers, one I/O through
 * the mock device and what must hold after it.
 */
#include <kunit/test-bug.h>
#include <linux/mm.h>

#if !IS_ENABLED(CONFIG_INFINIBAND_RW_KUNIT_TEST_BASE_RW)
#include "../rw_priv.h"
#endif
#include "rw_kunit_helpers.h"
#include "rw_under_test.h"

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

void rw_force_mr(struct kunit *test)
{
	if (!rw_boot_force_mr)
		kunit_skip(test,
			   "boot with ib_core.force_mr=1 ib_core_rw_kunit.force_mr=1");
}

/* Every case that calls the bio_vec API skips first, so none gets here. */
int rw_init_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		 const struct bio_vec *bvecs, u32 nr_bvec,
		 struct bvec_iter iter, u64 remote_addr, u32 rkey,
		 enum dma_data_direction dir)
{
	KUNIT_FAIL(kunit_get_current_test(), "the base rw.c has no bio_vec API");
	return -EOPNOTSUPP;
}

void rw_destroy_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		     const struct bio_vec *bvecs, u32 nr_bvec,
		     enum dma_data_direction dir)
{
}

void rw_need_bvec(struct kunit *test)
{
	kunit_skip(test, "the base rw.c has no bio_vec API");
}

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
void rw_force_mr(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, 0,
			kunit_add_action_or_reset(test, rw_restore_force_mr,
						  rdma_rw_force_mr ?
						  test : NULL));
	rdma_rw_force_mr = true;
}

int rw_init_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		 const struct bio_vec *bvecs, u32 nr_bvec,
		 struct bvec_iter iter, u64 remote_addr, u32 rkey,
		 enum dma_data_direction dir)
{
	return rdma_rw_ctx_init_bvec(ctx, qp, RW_PORT, bvecs, nr_bvec, iter,
				     remote_addr, rkey, dir);
}

void rw_destroy_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		     const struct bio_vec *bvecs, u32 nr_bvec,
		     enum dma_data_direction dir)
{
	rdma_rw_ctx_destroy_bvec(ctx, qp, RW_PORT, bvecs, nr_bvec, dir);
}

void rw_need_bvec(struct kunit *test)
{
}
#endif

u8 rw_local_byte(u32 page, u32 off)
{
	return (page * 131 + off * 7 + 1) & 0xff;
}

u8 rw_remote_byte(size_t off)
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
struct rw_buf *rw_buf_new(struct kunit *test, u32 nents)
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
void rw_buf_set(struct rw_buf *buf, u32 i, struct page *page, u32 off,
		u32 len)
{
	buf->pages[i] = page;
	rw_fill_page(buf, i);
	sg_set_page(&buf->sgl[i], page, len, off);
	bvec_set_page(&buf->bvecs[i], page, len, off);
}

/* Undo what READs wrote: every page gets its pattern again. */
void rw_buf_refill(struct rw_buf *buf)
{
	u32 i;

	for (i = 0; i < buf->nents; i++)
		rw_fill_page(buf, i);
}

struct rw_buf *rw_buf_alloc(struct kunit *test,
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

void rw_fill_remote(struct ib_mock *mock, size_t xfer)
{
	size_t i;

	for (i = 0; i < rw_remote_window(mock, xfer); i++)
		mock->remote[i] = rw_remote_byte(i);
}

/* Bytes of the transfer: the list from @sg_offset to its end. */
size_t rw_xfer_len(struct rw_buf *buf, u32 sg_offset)
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
void rw_check_data(struct kunit *test, struct ib_mock *mock,
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

bool rw_is_data_wr(enum ib_wr_opcode opcode)
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
void rw_check_chain(struct kunit *test, struct ib_mock *mock,
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

struct bvec_iter rw_bvec_iter(struct rw_buf *buf, u32 sg_offset)
{
	struct bvec_iter iter = { .bi_size = rw_xfer_len(buf, 0) };

	bvec_iter_advance(buf->bvecs, &iter, sg_offset);
	return iter;
}

int rw_init(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
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

void rw_destroy(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
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
bool rw_expect_mr(const struct ib_mock_profile *p, u32 nents,
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

struct rw_dma_mark rw_dma_mark(struct ib_mock *mock)
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
void rw_expect_dma_undone(struct kunit *test, struct ib_mock *mock,
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
void rw_expect_pool_whole(struct kunit *test, struct ib_mock *mock,
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
void rw_do_io(struct kunit *test, struct ib_mock *mock,
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
	ib_mock_expect_done(test, mock, &done);

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

void rw_need_dma_counted(struct kunit *test)
{
	if (!IB_MOCK_DMA_COUNTED)
		kunit_skip(test,
			   "no DMA ops here: the mock cannot count or fail mappings");
}

void rw_free_order2(void *page)
{
	__free_pages(page, 2);
}

static void rw_free_block(void *page)
{
	__free_pages(page, compound_order(page));
}

/* A zeroed block of at least @nr_pages pages, freed at the test's end. */
struct page *rw_block_alloc(struct kunit *test, u32 nr_pages)
{
	struct page *block = alloc_pages(GFP_KERNEL | __GFP_COMP | __GFP_ZERO,
					 order_base_2(nr_pages));

	KUNIT_ASSERT_NOT_NULL(test, block);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, rw_free_block,
							   block));
	return block;
}
