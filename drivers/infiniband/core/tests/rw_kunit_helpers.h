/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the R/W suites (rw_kunit.c, rw_error_kunit.c, rw_dma_kunit.c)
 * share: buffers filled with a pattern of their own, one I/O run through
 * the mock device of ib_mock.h and checked byte by byte and work request
 * by work request, and the mock's DMA and MR pool counters.
 */
#ifndef _RW_KUNIT_HELPERS_H
#define _RW_KUNIT_HELPERS_H

#include <kunit/test.h>
#include <linux/bvec.h>
#include <linux/scatterlist.h>
#include <rdma/rw.h>

#include "ib_mock.h"

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

/* The two ways to hand rw.c a buffer, and signature I/O (rw_faults). */
enum rw_api {
	RW_SG,
	RW_BVEC,
	RW_SIG,
};

#if IS_ENABLED(CONFIG_INFINIBAND_RW_KUNIT_TEST_BASE_RW)
/* Only the scatterlist API to take a buffer through (rw_io_every_way()). */
#define RW_BUF_APIS	1
#else
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

/* The mock's DMA counters at some point, to compare with later. */
struct rw_dma_mark {
	unsigned int maps;
	unsigned int unmaps;
	unsigned int live;
};

void rw_force_mr(struct kunit *test);
void rw_need_bvec(struct kunit *test);
void rw_need_dma_counted(struct kunit *test);
int rw_init_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		 const struct bio_vec *bvecs, u32 nr_bvec,
		 struct bvec_iter iter, u64 remote_addr, u32 rkey,
		 enum dma_data_direction dir);
void rw_destroy_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		     const struct bio_vec *bvecs, u32 nr_bvec,
		     enum dma_data_direction dir);

u8 rw_local_byte(u32 page, u32 off);
u8 rw_remote_byte(size_t off);
struct rw_buf *rw_buf_new(struct kunit *test, u32 nents);
void rw_buf_set(struct rw_buf *buf, u32 i, struct page *page, u32 off,
		u32 len);
void rw_buf_refill(struct rw_buf *buf);
struct rw_buf *rw_buf_alloc(struct kunit *test,
			    const struct rw_shape *shape);
void rw_free_order2(void *page);
struct page *rw_block_alloc(struct kunit *test, u32 nr_pages);
void rw_fill_remote(struct ib_mock *mock, size_t xfer);
size_t rw_xfer_len(struct rw_buf *buf, u32 sg_offset);
struct bvec_iter rw_bvec_iter(struct rw_buf *buf, u32 sg_offset);

int rw_init(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
	    struct rw_buf *buf, u32 sg_offset,
	    enum dma_data_direction dir, enum rw_api api);
void rw_destroy(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
		struct rw_buf *buf, enum dma_data_direction dir,
		enum rw_api api);
void rw_do_io(struct kunit *test, struct ib_mock *mock,
	      struct rw_buf *buf, u32 sg_offset,
	      enum dma_data_direction dir, enum rw_api api);

void rw_check_data(struct kunit *test, struct ib_mock *mock,
		   struct rw_buf *buf, u32 sg_offset,
		   enum dma_data_direction dir);
bool rw_is_data_wr(enum ib_wr_opcode opcode);
void rw_check_chain(struct kunit *test, struct ib_mock *mock,
		    struct rdma_rw_ctx *ctx, u32 nents, size_t xfer,
		    enum dma_data_direction dir, bool mr);
bool rw_expect_mr(const struct ib_mock_profile *p, u32 nents,
		  enum dma_data_direction dir);
void rw_expect_pool_whole(struct kunit *test, struct ib_mock *mock,
			  unsigned int nr);
struct rw_dma_mark rw_dma_mark(struct ib_mock *mock);
void rw_expect_dma_undone(struct kunit *test, struct ib_mock *mock,
			  const struct rw_dma_mark *mark);

#endif /* _RW_KUNIT_HELPERS_H */
