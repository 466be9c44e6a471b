// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the DMA mappings the RDMA R/W context API makes: bio_vec
 * segments cut at the device's DMA limits and merged behind an IOMMU,
 * every mapping undone exactly as it was made, and no SGE or MR that
 * reaches past what was mapped.  Where the mock can count mappings (DMA
 * ops of its own, as on x86_64), that is; elsewhere most cases skip.
 */
#include <linux/mm.h>
#include <kunit/test.h>

#include "ib_mock.h"
#include "rw_kunit_helpers.h"
#include "rw_under_test.h"
#include "warn_watch.h"

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
	ib_mock_expect_done(test, mock, &done);
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
	ib_mock_expect_done(test, mock, &done);
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

static struct kunit_case rw_dma_cases[] = {
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

static struct kunit_suite rw_dma_suite = {
	.name = "ib_core_rw_dma",
	.suite_init = rw_suite_init_common,
	.suite_exit = warn_watch_suite_exit,
	.init = warn_watch_case_init,
	.test_cases = rw_dma_cases,
};

kunit_test_suite(rw_dma_suite);
