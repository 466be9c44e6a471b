// SPDX-License-Identifier: GPL-2.0-only
/*
 * A KUnit benchmark of the RDMA R/W context API: the cost of one I/O through
 * rdma_rw_ctx_init(), rdma_rw_ctx_wrs() and rdma_rw_ctx_destroy(), and the
 * work requests, MRs and bytes it takes, over the mock device of ib_mock.c.
 *
 * Each case prints one line of figures per API and checks nothing about
 * them: a case fails only when the API fails.  The suite uses the public
 * API alone, so that it builds against any rw.c; the bio_vec API needs
 * rdma_rw_ctx_init_bvec() and comes with
 * CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BVEC, and the base tree's rw.c,
 * built in beside ours (rw_bench_base.c), with
 * CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BASE.
 *
 * The time of an I/O is the median over @batches batches of @batch I/Os,
 * each an init, a wrs and a destroy, nothing posted.  Beside it, the floor:
 * the same DMA mapping, MR mapping and filling of SGEs and work requests
 * of the same shape, with every decision known in advance and nothing
 * allocated.  The APIs and the floor take their batches in turn, so that
 * a machine whose speed changes during a case slows them alike.
 */
#include <kunit/test.h>
#include <linux/ktime.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>
#include <trace/events/kmem.h>

#include "ib_mock.h"
#include "rw_bench_base.h"

#define RWB_PORT	1
#define RWB_CTXS	8
#define RWB_MAX_PAGES	1024
#define RWB_MAX_BATCHES	32

static unsigned int batch = 10000;
module_param(batch, uint, 0444);
MODULE_PARM_DESC(batch, "I/Os per timed batch (default 10000)");

static unsigned int batches = 5;
module_param(batches, uint, 0444);
MODULE_PARM_DESC(batches, "timed batches per case, the median is kept (default 5)");

static const struct ib_mock_profile *const rwb_profiles[] = {
	&ib_mock_ib, &ib_mock_iwarp, &ib_mock_sgl_rd, &ib_mock_pi,
};

static const u32 rwb_pages[] = { 1, 4, 16, 64, 256, RWB_MAX_PAGES };

enum rwb_api {
	RWB_SG,
	RWB_BVEC,
	RWB_BASE,
	RWB_NR_APIS,
};

static const char *const rwb_api_names[RWB_NR_APIS] = {
	[RWB_SG] = "sg", [RWB_BVEC] = "bvec", [RWB_BASE] = "base",
};

/* Ours' scatterlist API is always there; the others as configured. */
static bool rwb_api_built(enum rwb_api api)
{
	if (api == RWB_BVEC)
		return IS_ENABLED(CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BVEC);
	if (api == RWB_BASE)
		return IS_ENABLED(CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BASE);
	return true;
}

/**
 * struct rwb_case - one buffer and device of the benchmark
 * @profile:	the mock device
 * @dir:	DMA_FROM_DEVICE for RDMA READ, DMA_TO_DEVICE for WRITE
 * @pages:	size of the buffer in pages
 * @contig:	one physically contiguous entry, or one entry per page
 */
struct rwb_case {
	const struct ib_mock_profile *profile;
	enum dma_data_direction dir;
	u32 pages;
	bool contig;
};

#define RWB_NR_CASES	(ARRAY_SIZE(rwb_profiles) * 2 * \
			 ARRAY_SIZE(rwb_pages) * 2)

static struct rwb_case rwb_cases[RWB_NR_CASES];

/* The buffers, allocated once for the suite. */
static struct page *rwb_contig;
static struct page *rwb_frag[RWB_MAX_PAGES];

static void rwb_fill_cases(void)
{
	struct rwb_case *c = rwb_cases;
	unsigned int p, d, n, k;

	for (p = 0; p < ARRAY_SIZE(rwb_profiles); p++)
		for (d = 0; d < 2; d++)
			for (n = 0; n < ARRAY_SIZE(rwb_pages); n++)
				for (k = 0; k < 2; k++, c++) {
					c->profile = rwb_profiles[p];
					c->dir = d ? DMA_TO_DEVICE :
						 DMA_FROM_DEVICE;
					c->pages = rwb_pages[n];
					c->contig = !k;
				}
}

static const char *rwb_dir_name(enum dma_data_direction dir)
{
	return dir == DMA_FROM_DEVICE ? "READ" : "WRITE";
}

/* Not const: KUNIT_ARRAY_PARAM() passes the elements as its array has them. */
static void rwb_case_desc(struct rwb_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s %u pages %s",
		 c->profile->name, rwb_dir_name(c->dir), c->pages,
		 c->contig ? "contig" : "frag");
}

KUNIT_ARRAY_PARAM(rwb, rwb_cases, rwb_case_desc);

/**
 * struct rwb_io - the buffer of a case, as a scatterlist and as bio_vecs
 * @sgl:	the scatterlist, one array
 * @bvecs:	the same buffer as bio_vecs
 * @iter:	the whole of @bvecs
 * @nents:	entries in either
 * @len:	bytes of the I/O
 *
 * @iter is built once, as a ULP keeps it in its request.  Built in the
 * loop, right before the call, GCC assembles the packed struct from
 * stores of mixed widths and copies it to the stack with a load that
 * spans two of them, which the CPU cannot forward: about 8 ns more per
 * I/O on the machine this was measured on, a cost of the caller's code
 * and not of rw.c.
 */
struct rwb_io {
	struct scatterlist *sgl;
	struct bio_vec *bvecs;
	struct bvec_iter iter;
	u32 nents;
	u32 len;
};

static void rwb_io_init(struct kunit *test, const struct rwb_case *c,
			struct rwb_io *io)
{
	u32 i;

	io->nents = c->contig ? 1 : c->pages;
	io->len = c->pages * PAGE_SIZE;
	io->iter = (struct bvec_iter){ .bi_size = io->len };
	io->sgl = kunit_kcalloc(test, io->nents, sizeof(*io->sgl), GFP_KERNEL);
	io->bvecs = kunit_kcalloc(test, io->nents, sizeof(*io->bvecs),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, io->sgl);
	KUNIT_ASSERT_NOT_NULL(test, io->bvecs);
	sg_init_table(io->sgl, io->nents);
	if (c->contig) {
		sg_set_page(io->sgl, rwb_contig, io->len, 0);
		bvec_set_page(io->bvecs, rwb_contig, io->len, 0);
		return;
	}
	for (i = 0; i < io->nents; i++) {
		sg_set_page(&io->sgl[i], rwb_frag[i], PAGE_SIZE, 0);
		bvec_set_page(&io->bvecs[i], rwb_frag[i], PAGE_SIZE, 0);
	}
}

/* A context of ours, or of the base's rw.c, whose layout is its own. */
union rwb_ctx {
	struct rdma_rw_ctx ours;
	u8 base[RWB_BASE_CTX_SIZE] __aligned(8);
};

#ifdef CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BASE
static struct rwb_base_ctx *rwb_base(union rwb_ctx *ctx)
{
	return (struct rwb_base_ctx *)ctx->base;
}
#endif

/* One I/O of the case, up to the chain of work requests; 0 or an errno. */
static int rwb_init(union rwb_ctx *ctx, struct ib_mock *mock,
		    const struct rwb_case *c, enum rwb_api api,
		    struct rwb_io *io)
{
	int ret;

	switch (api) {
#ifdef CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BVEC
	case RWB_BVEC:
		ret = rdma_rw_ctx_init_bvec(&ctx->ours, mock->qp, RWB_PORT,
					    io->bvecs, io->nents, io->iter,
					    mock->remote_addr,
					    mock->remote_rkey, c->dir);
		break;
#endif
#ifdef CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BASE
	case RWB_BASE:
		ret = rwb_base_ctx_init(rwb_base(ctx), mock->qp, RWB_PORT,
					io->sgl, io->nents, 0,
					mock->remote_addr, mock->remote_rkey,
					c->dir);
		break;
#endif
	default:
		ret = rdma_rw_ctx_init(&ctx->ours, mock->qp, RWB_PORT, io->sgl,
				       io->nents, 0, mock->remote_addr,
				       mock->remote_rkey, c->dir);
		break;
	}
	return ret < 0 ? ret : 0;
}

static struct ib_send_wr *rwb_wrs(union rwb_ctx *ctx, struct ib_mock *mock,
				  enum rwb_api api)
{
#ifdef CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BASE
	if (api == RWB_BASE)
		return rwb_base_ctx_wrs(rwb_base(ctx), mock->qp, RWB_PORT,
					NULL, NULL);
#endif
	return rdma_rw_ctx_wrs(&ctx->ours, mock->qp, RWB_PORT, NULL, NULL);
}

static void rwb_destroy(union rwb_ctx *ctx, struct ib_mock *mock,
			const struct rwb_case *c, enum rwb_api api,
			struct rwb_io *io)
{
	switch (api) {
#ifdef CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BVEC
	case RWB_BVEC:
		rdma_rw_ctx_destroy_bvec(&ctx->ours, mock->qp, RWB_PORT,
					 io->bvecs, io->nents, c->dir);
		break;
#endif
#ifdef CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BASE
	case RWB_BASE:
		rwb_base_ctx_destroy(rwb_base(ctx), mock->qp, RWB_PORT,
				     io->sgl, io->nents, c->dir);
		break;
#endif
	default:
		rdma_rw_ctx_destroy(&ctx->ours, mock->qp, RWB_PORT, io->sgl,
				    io->nents, c->dir);
		break;
	}
}

/**
 * struct rwb_shape - the work requests one I/O took
 * @wqes:	work requests in the chain
 * @rdma:	RDMA READ and WRITE work requests among them
 * @regs:	REG_MR work requests
 * @invs:	LOCAL_INV work requests
 * @max_sge:	SGEs of the largest RDMA work request
 * @sges:	SGEs of all RDMA work requests
 */
struct rwb_shape {
	u32 wqes;
	u32 rdma;
	u32 regs;
	u32 invs;
	u32 max_sge;
	u32 sges;
};

static void rwb_chain_shape(struct ib_send_wr *wr, struct rwb_shape *s)
{
	memset(s, 0, sizeof(*s));
	for (; wr; wr = wr->next) {
		s->wqes++;
		switch (wr->opcode) {
		case IB_WR_REG_MR:
		case IB_WR_REG_MR_INTEGRITY:
			s->regs++;
			break;
		case IB_WR_LOCAL_INV:
			s->invs++;
			break;
		default:
			s->rdma++;
			s->sges += wr->num_sge;
			s->max_sge = max_t(u32, s->max_sge, wr->num_sge);
			break;
		}
	}
}

/*
 * Bytes allocated by the benchmark's own task while rwb_counting is set,
 * through the allocator tracepoints.  kmalloc() beyond the largest slab
 * cache takes whole pages, which the page allocator's tracepoint already
 * counts.  A slab that has to grow for an allocation counts its new page
 * too; rare once the loop runs, and the figure is taken after a warm-up.
 */
static struct task_struct *rwb_counting;
static u64 rwb_bytes;

static void rwb_count_kmalloc(void *data, unsigned long call_site,
			      const void *ptr, size_t bytes_req,
			      size_t bytes_alloc, gfp_t gfp_flags, int node)
{
	if (current == READ_ONCE(rwb_counting) &&
	    bytes_alloc <= KMALLOC_MAX_CACHE_SIZE)
		rwb_bytes += bytes_alloc;
}

static void rwb_count_cache(void *data, unsigned long call_site,
			    const void *ptr, struct kmem_cache *s,
			    gfp_t gfp_flags, int node)
{
	if (current == READ_ONCE(rwb_counting))
		rwb_bytes += kmem_cache_size(s);
}

static void rwb_count_pages(void *data, struct page *page,
			    unsigned int order, gfp_t gfp_flags,
			    int migratetype)
{
	if (current == READ_ONCE(rwb_counting))
		rwb_bytes += PAGE_SIZE << order;
}

/* Start counting; false when the kernel has no tracepoints to count with. */
static bool rwb_count_start(void)
{
	rwb_bytes = 0;
	if (register_trace_kmalloc(rwb_count_kmalloc, NULL))
		return false;
	if (register_trace_kmem_cache_alloc(rwb_count_cache, NULL)) {
		unregister_trace_kmalloc(rwb_count_kmalloc, NULL);
		return false;
	}
	if (register_trace_mm_page_alloc(rwb_count_pages, NULL)) {
		unregister_trace_kmem_cache_alloc(rwb_count_cache, NULL);
		unregister_trace_kmalloc(rwb_count_kmalloc, NULL);
		return false;
	}
	WRITE_ONCE(rwb_counting, current);
	return true;
}

static void rwb_count_stop(void)
{
	WRITE_ONCE(rwb_counting, NULL);
	unregister_trace_mm_page_alloc(rwb_count_pages, NULL);
	unregister_trace_kmem_cache_alloc(rwb_count_cache, NULL);
	unregister_trace_kmalloc(rwb_count_kmalloc, NULL);
	tracepoint_synchronize_unregister();
}

/**
 * struct rwb_floor - what the floor fills, allocated once per case
 * @sges:	one per DMA entry, or one per MR
 * @rdma:	the RDMA READ or WRITE work requests
 * @regs:	the REG_MR work requests
 * @invs:	the LOCAL_INV work requests
 * @mrs:	the MRs taken from the pool
 */
struct rwb_floor {
	struct ib_sge *sges;
	struct ib_rdma_wr *rdma;
	struct ib_reg_wr *regs;
	struct ib_send_wr *invs;
	struct ib_mr **mrs;
};

/*
 * The floor: one I/O of the given shape, built with nothing to decide.
 * Map the buffer; with MRs, take them from the pool, map the buffer into
 * them and link invalidation, registration and transfer per MR; without,
 * one SGE per DMA entry, @s->max_sge to a work request.  Then release it
 * all.  Returns the work requests built.
 */
static u32 rwb_floor_io(struct ib_mock *mock, const struct rwb_case *c,
			struct rwb_io *io, const struct rwb_shape *s,
			struct rwb_floor *f)
{
	struct ib_device *dev = mock->dev;
	struct ib_qp *qp = mock->qp;
	enum ib_wr_opcode op = c->dir == DMA_FROM_DEVICE ?
			       IB_WR_RDMA_READ : IB_WR_RDMA_WRITE;
	struct ib_send_wr *prev = NULL, *first = NULL;
	struct scatterlist *sg;
	u64 remote = mock->remote_addr;
	u32 i, n, wqes = 0;

	n = ib_dma_map_sg(dev, io->sgl, io->nents, c->dir);
	if (s->regs) {
		unsigned int off = 0;
		int left = n;

		sg = io->sgl;
		for (i = 0; i < s->regs; i++) {
			struct ib_mr *mr = ib_mr_pool_get(qp, &qp->rdma_mrs);
			int mapped;

			f->mrs[i] = mr;
			mapped = ib_map_mr_sg(mr, sg, left, &off, PAGE_SIZE);
			sg += mapped;
			left -= mapped;
			if (i < s->invs) {
				f->invs[i].opcode = IB_WR_LOCAL_INV;
				f->invs[i].ex.invalidate_rkey = mr->rkey;
				f->invs[i].next = &f->regs[i].wr;
				if (prev)
					prev->next = &f->invs[i];
				else
					first = &f->invs[i];
			} else if (prev) {
				prev->next = &f->regs[i].wr;
			} else {
				first = &f->regs[i].wr;
			}
			ib_update_fast_reg_key(mr, ib_inc_rkey(mr->rkey));
			f->regs[i].wr.opcode = IB_WR_REG_MR;
			f->regs[i].wr.next = &f->rdma[i].wr;
			f->regs[i].mr = mr;
			f->regs[i].key = mr->rkey;
			f->regs[i].access = IB_ACCESS_LOCAL_WRITE;
			f->sges[i].addr = mr->iova;
			f->sges[i].length = mr->length;
			f->sges[i].lkey = mr->lkey;
			f->rdma[i].wr.opcode = op;
			f->rdma[i].wr.sg_list = &f->sges[i];
			f->rdma[i].wr.num_sge = 1;
			f->rdma[i].wr.next = NULL;
			f->rdma[i].remote_addr = remote;
			f->rdma[i].rkey = mock->remote_rkey;
			remote += mr->length;
			prev = &f->rdma[i].wr;
		}
		wqes = s->regs * 2 + min(s->invs, s->regs);
		for (i = 0; i < s->regs; i++)
			ib_mr_pool_put(qp, &qp->rdma_mrs, f->mrs[i]);
	} else {
		struct ib_rdma_wr *wr = NULL;

		for_each_sg(io->sgl, sg, n, i) {
			struct ib_sge *sge = &f->sges[i];

			if (i % s->max_sge == 0) {
				wr = &f->rdma[i / s->max_sge];
				wr->wr.opcode = op;
				wr->wr.sg_list = sge;
				wr->wr.num_sge = 0;
				wr->wr.next = NULL;
				wr->remote_addr = remote;
				wr->rkey = mock->remote_rkey;
				if (prev)
					prev->next = &wr->wr;
				else
					first = &wr->wr;
				prev = &wr->wr;
				wqes++;
			}
			sge->addr = sg_dma_address(sg);
			sge->length = sg_dma_len(sg);
			sge->lkey = mock->pd->local_dma_lkey;
			wr->wr.num_sge++;
			remote += sge->length;
		}
	}
	ib_dma_unmap_sg(dev, io->sgl, io->nents, c->dir);
	/* Keep the chain alive until here, as a ULP would post it. */
	barrier_data(first);
	return wqes;
}

static int rwb_cmp(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/* Median over the batches, in tenths of a nanosecond per I/O. */
static u64 rwb_median(u64 *t, unsigned int n)
{
	sort(t, n, sizeof(*t), rwb_cmp, NULL);
	return n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
}

static unsigned int rwb_batches(void)
{
	return clamp(batches, 1U, (unsigned int)RWB_MAX_BATCHES);
}

/* One batch of @api's I/Os, each an init, a wrs and a destroy. */
static int rwb_time_api(struct ib_mock *mock, const struct rwb_case *c,
			enum rwb_api api, struct rwb_io *io, u64 *t)
{
	u64 start = ktime_get_ns();
	union rwb_ctx ctx;
	unsigned int i;
	int ret;

	for (i = 0; i < batch; i++) {
		ret = rwb_init(&ctx, mock, c, api, io);
		if (ret)
			return ret;
		barrier_data(rwb_wrs(&ctx, mock, api));
		rwb_destroy(&ctx, mock, c, api, io);
	}
	*t = div_u64((ktime_get_ns() - start) * 10, max(batch, 1U));
	return 0;
}

/* One batch of the floor. */
static void rwb_time_floor(struct ib_mock *mock, const struct rwb_case *c,
			   struct rwb_io *io, const struct rwb_shape *s,
			   struct rwb_floor *f, u64 *t)
{
	u64 start = ktime_get_ns();
	unsigned int i;

	for (i = 0; i < batch; i++)
		barrier_data((void *)(uintptr_t)rwb_floor_io(mock, c, io, s, f));
	*t = div_u64((ktime_get_ns() - start) * 10, max(batch, 1U));
}

static void rwb_floor_alloc(struct kunit *test, const struct rwb_shape *s,
			    u32 nents, struct rwb_floor *f)
{
	f->sges = kunit_kcalloc(test, max(nents, s->regs), sizeof(*f->sges),
				GFP_KERNEL);
	f->rdma = kunit_kcalloc(test, max(s->rdma, 1U), sizeof(*f->rdma),
				GFP_KERNEL);
	f->regs = kunit_kcalloc(test, max(s->regs, 1U), sizeof(*f->regs),
				GFP_KERNEL);
	f->invs = kunit_kcalloc(test, max(s->invs, 1U), sizeof(*f->invs),
				GFP_KERNEL);
	f->mrs = kunit_kcalloc(test, max(s->regs, 1U), sizeof(*f->mrs),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, f->sges);
	KUNIT_ASSERT_NOT_NULL(test, f->rdma);
	KUNIT_ASSERT_NOT_NULL(test, f->regs);
	KUNIT_ASSERT_NOT_NULL(test, f->invs);
	KUNIT_ASSERT_NOT_NULL(test, f->mrs);
}

/**
 * struct rwb_api_run - what one API did in a case
 * @on:		built, and its I/Os went through
 * @shape:	the work requests of one I/O
 * @mrs:	MRs one I/O took from the pool
 * @bytes:	bytes one I/O allocated, or "-" when they cannot be counted
 * @t:		the timed batches, tenths of a nanosecond per I/O
 */
struct rwb_api_run {
	bool on;
	struct rwb_shape shape;
	u32 mrs;
	char bytes[24];
	u64 t[RWB_MAX_BATCHES];
};

static void rwb_print(struct kunit *test, const struct rwb_case *c,
		      enum rwb_api api, const char *figures)
{
	kunit_info(test, "rw_bench: api=%s profile=%s dir=%s pages=%u buf=%s %s\n",
		   rwb_api_names[api], c->profile->name, rwb_dir_name(c->dir),
		   c->pages, c->contig ? "contig" : "frag", figures);
}

/*
 * Two I/Os of @api first, so that the one measured finds the MRs as every
 * I/O of a run does: used before.  Then one I/O whose work requests, MRs
 * and allocations are counted.  An I/O that ours refuses fails the case:
 * every I/O of the matrix is one the API must carry.  The base's refusals
 * are its own, printed for the table and not failed on.
 */
static void rwb_probe(struct kunit *test, struct ib_mock *mock,
		      const struct rwb_case *c, enum rwb_api api,
		      struct rwb_io *io, struct rwb_api_run *run)
{
	struct list_head *pool = &mock->qp->rdma_mrs;
	unsigned int free_before, i;
	union rwb_ctx ctx;
	char err[24];
	bool counted;
	int ret;

	for (i = 0; i < 2; i++) {
		ret = rwb_init(&ctx, mock, c, api, io);
		if (ret) {
			if (api != RWB_BASE)
				KUNIT_FAIL(test, "%s init returned %d",
					   rwb_api_names[api], ret);
			snprintf(err, sizeof(err), "error=%d", ret);
			rwb_print(test, c, api, err);
			return;
		}
		rwb_wrs(&ctx, mock, api);
		rwb_destroy(&ctx, mock, c, api, io);
	}

	free_before = ib_mock_pool_free(mock, pool);
	counted = rwb_count_start();
	ret = rwb_init(&ctx, mock, c, api, io);
	KUNIT_ASSERT_EQ(test, ret, 0);
	run->mrs = free_before - ib_mock_pool_free(mock, pool);
	rwb_chain_shape(rwb_wrs(&ctx, mock, api), &run->shape);
	rwb_destroy(&ctx, mock, c, api, io);
	if (counted) {
		rwb_count_stop();
		snprintf(run->bytes, sizeof(run->bytes), "%llu", rwb_bytes);
	} else {
		strscpy(run->bytes, "-", sizeof(run->bytes));
	}
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(mock, pool), free_before);
	KUNIT_EXPECT_GT(test, run->shape.rdma, 0);
	run->on = true;
}

static void rw_bench(struct kunit *test)
{
	const struct rwb_case *c = test->param_value;
	u64 t_floor[RWB_MAX_BATCHES], floor_ns, ns;
	struct rwb_api_run *runs;
	const struct rwb_shape *shape;
	struct rwb_floor floor;
	struct ib_mock *mock;
	char figures[200];
	struct rwb_io io;
	unsigned int b;
	u32 floor_wqes;
	int api, ret;

	mock = ib_mock_create(test, c->profile, RWB_CTXS,
			      c->profile->max_pi_fr_pages ?
			      IB_QP_CREATE_INTEGRITY_EN : 0);
	/* Nothing is posted; should anything be, it is not recorded. */
	mock->log_cap = 0;
	rwb_io_init(test, c, &io);
	runs = kunit_kcalloc(test, RWB_NR_APIS, sizeof(*runs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, runs);

	for (api = 0; api < RWB_NR_APIS; api++)
		if (rwb_api_built(api))
			rwb_probe(test, mock, c, api, &io, &runs[api]);
	if (!runs[RWB_SG].on)
		return;

	/* The floor takes the shape of ours' scatterlist I/O. */
	shape = &runs[RWB_SG].shape;
	rwb_floor_alloc(test, shape, io.nents, &floor);
	floor_wqes = rwb_floor_io(mock, c, &io, shape, &floor);

	for (b = 0; b < rwb_batches(); b++) {
		for (api = 0; api < RWB_NR_APIS; api++) {
			if (!runs[api].on)
				continue;
			ret = rwb_time_api(mock, c, api, &io, &runs[api].t[b]);
			KUNIT_ASSERT_EQ(test, ret, 0);
		}
		rwb_time_floor(mock, c, &io, shape, &floor, &t_floor[b]);
		cond_resched();
	}

	floor_ns = rwb_median(t_floor, rwb_batches());
	for (api = 0; api < RWB_NR_APIS; api++) {
		const struct rwb_api_run *run = &runs[api];

		if (!run->on)
			continue;
		ns = rwb_median(runs[api].t, rwb_batches());
		snprintf(figures, sizeof(figures),
			 "ns=%llu.%llu floor_ns=%llu.%llu wqes=%u mrs=%u bytes=%s sges=%u floor_wqes=%u batch=%u batches=%u",
			 ns / 10, ns % 10, floor_ns / 10, floor_ns % 10,
			 run->shape.wqes, run->mrs, run->bytes, run->shape.sges,
			 floor_wqes, batch, rwb_batches());
		rwb_print(test, c, api, figures);
	}
}

static int rwb_suite_init(struct kunit_suite *suite)
{
	unsigned int i;

	rwb_fill_cases();
	rwb_contig = alloc_pages(GFP_KERNEL, get_order(RWB_MAX_PAGES *
						       PAGE_SIZE));
	if (!rwb_contig)
		return -ENOMEM;
	for (i = 0; i < RWB_MAX_PAGES; i++) {
		rwb_frag[i] = alloc_page(GFP_KERNEL);
		if (!rwb_frag[i])
			return -ENOMEM;
	}
	return 0;
}

static void rwb_suite_exit(struct kunit_suite *suite)
{
	unsigned int i;

	for (i = 0; i < RWB_MAX_PAGES; i++) {
		if (rwb_frag[i])
			__free_page(rwb_frag[i]);
		rwb_frag[i] = NULL;
	}
	if (rwb_contig)
		__free_pages(rwb_contig, get_order(RWB_MAX_PAGES * PAGE_SIZE));
	rwb_contig = NULL;
}

static struct kunit_case rw_bench_cases[] = {
	KUNIT_CASE_PARAM(rw_bench, rwb_gen_params),
	{}
};

static struct kunit_suite rw_bench_suite = {
	.name = "ib_core_rw_bench",
	.suite_init = rwb_suite_init,
	.suite_exit = rwb_suite_exit,
	.test_cases = rw_bench_cases,
};

kunit_test_suite(rw_bench_suite);

MODULE_DESCRIPTION("KUnit benchmark of the RDMA R/W API");
MODULE_LICENSE("GPL");
