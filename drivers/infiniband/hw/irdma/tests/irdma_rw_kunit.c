// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_rw: the RDMA R/W API (drivers/infiniband/core/rw.c)
 * over irdma, both driven through one mock QP.
 *
 * rdma_rw_ctx_init() and rdma_rw_ctx_post() run on a QP of the mock
 * device of irdma_mock.c, whose MR pool holds MRs from irdma's own
 * alloc_mr, their STags allocated through the driver's CQP by the
 * firmware model of irdma_hw_model.c, and whose SQ is a ring in memory.  The cases decode what the
 * hardware would execute: for an iWARP RDMA READ, one FAST_REGISTER of
 * an MR over the local pages and one RDMA_READ_WITH_INV into it per MR;
 * for an RDMA WRITE, WRITEs whose fragments are the DMA addresses of the
 * pages themselves.
 */
#include <kunit/test.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"

/* Pages per MR of the R/W API (RDMA_RW_MAX_PAGES_PER_MR; irdma has more) */
#define RW_PAGES_PER_MR		256
#define RW_POOL_MRS		4
#define REMOTE_ADDR		0x7f0012340000ULL
#define REMOTE_KEY		0x00c0ffee

struct rw_env {
	struct irdma_mock *mock;
	struct irdma_qp *iwqp;
	struct ib_qp *qp;
	struct sg_table sgt;
};

static void rw_free_pool(void *data)
{
	struct ib_qp *qp = data;

	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
}

static void rw_free_pages(void *data)
{
	struct sg_table *sgt = data;
	struct scatterlist *sg;
	u32 i;

	for_each_sgtable_sg(sgt, sg, i)
		if (sg_page(sg))
			__free_page(sg_page(sg));
	sg_free_table(sgt);
}

/*
 * A mock irdma QP with an MR pool as ib_create_qp() gives one for
 * max_rdma_ctxs, and @npages separate pages to move, one sg entry each.
 */
static struct rw_env *rw_env_create(struct kunit *test, u32 npages)
{
	struct irdma_mock_qp_attr attr = { .sq_wrs = 512, .max_sq_sge = 13 };
	struct rw_env *env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	struct scatterlist *sg;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, env);
	env->mock = irdma_mock_create(test, NULL);
	env->iwqp = irdma_mock_create_qp(env->mock, &attr);
	env->qp = &env->iwqp->ibqp;
	KUNIT_ASSERT_EQ(test, ib_mr_pool_init(env->qp, &env->qp->rdma_mrs,
					      RW_POOL_MRS, IB_MR_TYPE_MEM_REG,
					      RW_PAGES_PER_MR, 0), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rw_free_pool,
							env->qp), 0);

	KUNIT_ASSERT_EQ(test, sg_alloc_table(&env->sgt, npages, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, rw_free_pages,
							&env->sgt), 0);
	for_each_sgtable_sg(&env->sgt, sg, i) {
		struct page *page = alloc_page(GFP_KERNEL);

		KUNIT_ASSERT_NOT_NULL(test, page);
		sg_set_page(sg, page, PAGE_SIZE, 0);
	}
	return env;
}

static u32 sq_head(struct rw_env *env)
{
	return IRDMA_RING_CURRENT_HEAD(env->iwqp->sc_qp.qp_uk.sq_ring);
}

/* The next WQE at or after @idx that is not a NOP, and its index */
static u32 next_wqe(struct kunit *test, struct rw_env *env, u32 idx,
		    struct irdma_hw_sq_wqe *wqe)
{
	int at = irdma_mock_sq_next_wqe(env->iwqp, idx, wqe);

	KUNIT_ASSERT_GE(test, at, 0);
	KUNIT_EXPECT_EQ(test, wqe->valid, env->iwqp->sc_qp.qp_uk.swqe_polarity);
	return at;
}

static void rw_done(struct ib_cq *cq, struct ib_wc *wc)
{
}

static struct ib_cqe rw_cqe = { .done = rw_done };

/*
 * Posts @ctx and returns the SQ index of its first WQE.  The hardware has
 * been rung for it and has taken every WQE up to the SQ's head.
 */
static u32 rw_post(struct kunit *test, struct rw_env *env,
		   struct rdma_rw_ctx *ctx)
{
	u32 qp_id = env->iwqp->sc_qp.qp_uk.qp_id;
	u32 head = sq_head(env);
	u32 rung = irdma_hw_model_sq_doorbells(env->mock->hw, qp_id);

	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_post(ctx, env->qp, 1, &rw_cqe, NULL),
			0);
	KUNIT_EXPECT_GT(test, irdma_hw_model_sq_doorbells(env->mock->hw, qp_id),
			rung);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_tail(env->mock->hw, qp_id),
			sq_head(env));
	return head;
}

/* Buffer shapes: pages, and how far into the first one the data starts */
struct rw_case {
	u32 npages;
	u32 offset;
};

static const struct rw_case rw_cases[] = {
	{ 1, 0 },
	{ 1, 3000 },
	{ 8, 0 },
	{ 13, 512 },
	{ 14, 1 },
	{ 40, 100 },
	{ RW_PAGES_PER_MR, 0 },
	{ RW_PAGES_PER_MR + 1, 4095 },
	{ 3 * RW_PAGES_PER_MR - 5, 8 },
};

static void rw_desc(const struct rw_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u pages at +%u", c->npages,
		 c->offset);
}

KUNIT_ARRAY_PARAM(rw, rw_cases, rw_desc);

static u64 sg_addr(struct rw_env *env, u32 i)
{
	struct scatterlist *sg;
	u32 j;

	for_each_sgtable_dma_sg(&env->sgt, sg, j)
		if (j == i)
			return sg_dma_address(sg);
	return U64_MAX;
}

/*
 * One MR of an iWARP READ, from SQ index @idx, as the hardware decoded
 * it: a FAST_REGISTER, of a STag the hardware allocated to the QP's PD,
 * with remote write access of @pages pages from sg entry @page, which
 * the hardware found through the PBL, then an RDMA_READ_WITH_INV of the
 * remote buffer at @remote into the whole MR.  Returns the index after
 * them.
 */
static u32 expect_mr_read(struct kunit *test, struct rw_env *env, u32 idx,
			  struct ib_mr *mr, u32 page, u32 pages, u64 remote,
			  bool last)
{
	struct irdma_hw_model *hw = env->mock->hw;
	struct irdma_hw_sq_wqe wqe;
	struct irdma_hw_mr reg;
	u32 p, pd, bad = 0;

	idx = next_wqe(test, env, idx, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_FAST_REGISTER);
	KUNIT_EXPECT_EQ(test, wqe.fr_index, mr->rkey >> IRDMA_CQPSQ_STAG_IDX_S);
	KUNIT_EXPECT_EQ(test, wqe.fr_key, mr->rkey & 0xff);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_stag(hw, wqe.fr_index, &pd));
	KUNIT_EXPECT_EQ(test, pd, env->mock->pd.sc_pd.pd_id);
	KUNIT_EXPECT_EQ(test, wqe.fr_rights, IRDMA_ACCESS_FLAGS_LOCALREAD |
			IRDMA_ACCESS_FLAGS_LOCALWRITE |
			IRDMA_ACCESS_FLAGS_REMOTEWRITE);
	KUNIT_EXPECT_EQ(test, wqe.fr_va, mr->iova);
	KUNIT_EXPECT_EQ(test, wqe.fr_len, mr->length);
	KUNIT_EXPECT_EQ(test, wqe.fr_hpage_size, IRDMA_PAGE_SIZE_4K);
	KUNIT_EXPECT_EQ(test, wqe.fr_pbl_size, pages > 1);
	if (pages == 1)
		KUNIT_EXPECT_EQ(test, wqe.fr_pbl_addr, sg_addr(env, page));
	KUNIT_EXPECT_EQ(test, to_iwmr(mr)->npages, pages);
	/* What the hardware registered, its pages followed through the PBL */
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_mr(hw, wqe.fr_index, &reg));
	KUNIT_EXPECT_EQ(test, reg.va, mr->iova);
	KUNIT_EXPECT_EQ(test, reg.len, mr->length);
	KUNIT_ASSERT_EQ(test, reg.npages, pages);
	for (p = 0; p < pages; p++)
		bad += irdma_hw_model_mr_page(hw, wqe.fr_index, p) !=
		       sg_addr(env, page + p);
	KUNIT_EXPECT_EQ(test, bad, 0);

	idx = next_wqe(test, env, idx + wqe.quanta, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_READ_LOC_INV);
	KUNIT_EXPECT_EQ(test, wqe.rem_stag, REMOTE_KEY);
	KUNIT_EXPECT_EQ(test, wqe.rem_to, remote);
	KUNIT_ASSERT_EQ(test, wqe.num_frags, 1);
	KUNIT_EXPECT_EQ(test, wqe.frag[0].addr, mr->iova);
	KUNIT_EXPECT_EQ(test, wqe.frag[0].length, mr->length);
	KUNIT_EXPECT_EQ(test, wqe.frag[0].stag, mr->lkey);
	KUNIT_EXPECT_EQ(test, wqe.signaled, last);
	return idx + wqe.quanta;
}

/*
 * An iWARP READ lands in MRs of up to 256 pages, each registered and read
 * into (expect_mr_read()); only the last WQE is signalled.  Twice, the
 * second time with new keys, and every MR back in the pool at the end.
 */
static void irdma_rw_read_registers(struct kunit *test)
{
	const struct rw_case *c = test->param_value;
	struct rw_env *env = rw_env_create(test, c->npages);
	u32 nr_mrs = DIV_ROUND_UP(c->npages, RW_PAGES_PER_MR);
	u32 qp_id = env->iwqp->sc_qp.qp_uk.qp_id;
	u32 keys[RW_POOL_MRS] = {};
	struct rdma_rw_ctx ctx;
	u32 io, m, idx, page, pages;
	struct ib_mr *mr;
	u64 remote;

	KUNIT_ASSERT_LE(test, nr_mrs, RW_POOL_MRS);
	for (io = 0; io < 2; io++) {
		KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, 1,
						       env->sgt.sgl,
						       c->npages, c->offset,
						       REMOTE_ADDR, REMOTE_KEY,
						       DMA_FROM_DEVICE),
				2 * nr_mrs);
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, nr_mrs);
		KUNIT_EXPECT_EQ(test, env->qp->mrs_used, nr_mrs);
		idx = rw_post(test, env, &ctx);

		remote = REMOTE_ADDR;
		for (m = 0, page = 0; m < nr_mrs; m++, page += pages) {
			mr = ctx.reg[m].mr;
			pages = min(c->npages - page, RW_PAGES_PER_MR);
			KUNIT_EXPECT_EQ(test, mr->iova, sg_addr(env, page) +
					(m ? 0 : c->offset));
			KUNIT_EXPECT_NE(test, mr->rkey, keys[m]);
			keys[m] = mr->rkey;
			idx = expect_mr_read(test, env, idx, mr, page, pages,
					     remote, m == nr_mrs - 1);
			remote += mr->length;
		}
		KUNIT_EXPECT_EQ(test, remote, REMOTE_ADDR +
				c->npages * PAGE_SIZE - c->offset);
		KUNIT_EXPECT_EQ(test, idx, sq_head(env));
		KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_tail(env->mock->hw,
							     qp_id), idx);
		rdma_rw_ctx_destroy(&ctx, env->qp, 1, env->sgt.sgl, c->npages,
				    DMA_FROM_DEVICE);
		KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	}
	KUNIT_EXPECT_EQ(test, list_count_nodes(&env->qp->rdma_mrs),
			RW_POOL_MRS);
}

/*
 * A WRITE takes no MR: WRITEs of up to max_write_sge fragments, each a
 * page's DMA address under the PD's local DMA lkey, walking the remote
 * buffer; only the last one signalled.
 */
static void irdma_rw_write_sges(struct kunit *test)
{
	const struct rw_case *c = test->param_value;
	struct rw_env *env = rw_env_create(test, c->npages);
	u32 max_sge = env->qp->max_write_sge;
	u32 nr_wrs = DIV_ROUND_UP(c->npages, max_sge);
	u32 lkey = env->qp->pd->local_dma_lkey;
	struct irdma_hw_sq_wqe wqe;
	struct rdma_rw_ctx ctx;
	u32 w, f, page, idx;
	u64 remote, expect;

	KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx, env->qp, 1, env->sgt.sgl,
					       c->npages, c->offset,
					       REMOTE_ADDR, REMOTE_KEY,
					       DMA_TO_DEVICE), nr_wrs);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
	idx = rw_post(test, env, &ctx);

	remote = REMOTE_ADDR;
	for (w = 0, page = 0; w < nr_wrs; w++) {
		idx = next_wqe(test, env, idx, &wqe);
		KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_RDMA_WRITE);
		KUNIT_EXPECT_EQ(test, wqe.rem_stag, REMOTE_KEY);
		KUNIT_EXPECT_EQ(test, wqe.rem_to, remote);
		KUNIT_EXPECT_EQ(test, wqe.signaled, w == nr_wrs - 1);
		KUNIT_ASSERT_EQ(test, wqe.num_frags,
				min(c->npages - page, max_sge));
		for (f = 0; f < wqe.num_frags; f++, page++) {
			expect = sg_addr(env, page) + (page ? 0 : c->offset);
			KUNIT_EXPECT_EQ(test, wqe.frag[f].addr, expect);
			KUNIT_EXPECT_EQ(test, wqe.frag[f].length,
					PAGE_SIZE - (page ? 0 : c->offset));
			KUNIT_EXPECT_EQ(test, wqe.frag[f].stag, lkey);
			remote += wqe.frag[f].length;
		}
		idx += wqe.quanta;
	}
	KUNIT_EXPECT_EQ(test, remote,
			REMOTE_ADDR + c->npages * PAGE_SIZE - c->offset);
	rdma_rw_ctx_destroy(&ctx, env->qp, 1, env->sgt.sgl, c->npages,
			    DMA_TO_DEVICE);
}

/*
 * With every MR of the pool in use, an iWARP READ cannot fall back to
 * SGEs: -EAGAIN, and the next one works once an I/O gives its MR back.
 * Each I/O reads into a page of its own: the device may not write one
 * buffer through two mappings at once.
 */
static void irdma_rw_read_pool_empty(struct kunit *test)
{
	struct rw_env *env = rw_env_create(test, RW_POOL_MRS + 1);
	struct scatterlist *sgs[RW_POOL_MRS + 1], *sg;
	struct rdma_rw_ctx ctx[RW_POOL_MRS + 1];
	u32 i;

	for_each_sgtable_sg(&env->sgt, sg, i)
		sgs[i] = sg;
	for (i = 0; i < RW_POOL_MRS; i++)
		KUNIT_ASSERT_EQ(test, rdma_rw_ctx_init(&ctx[i], env->qp, 1,
						       sgs[i], 1, 0,
						       REMOTE_ADDR, REMOTE_KEY,
						       DMA_FROM_DEVICE), 2);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx[i], env->qp, 1, sgs[i], 1,
					       0, REMOTE_ADDR, REMOTE_KEY,
					       DMA_FROM_DEVICE),
			-EAGAIN);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, RW_POOL_MRS);

	rdma_rw_ctx_destroy(&ctx[0], env->qp, 1, sgs[0], 1, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, rdma_rw_ctx_init(&ctx[0], env->qp, 1, sgs[i], 1,
					       0, REMOTE_ADDR, REMOTE_KEY,
					       DMA_FROM_DEVICE), 2);
	rdma_rw_ctx_destroy(&ctx[0], env->qp, 1, sgs[i], 1, DMA_FROM_DEVICE);
	for (i = 1; i < RW_POOL_MRS; i++)
		rdma_rw_ctx_destroy(&ctx[i], env->qp, 1, sgs[i], 1,
				    DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, env->qp->mrs_used, 0);
}

static struct kunit_case irdma_rw_cases[] = {
	KUNIT_CASE_PARAM(irdma_rw_read_registers, rw_gen_params),
	KUNIT_CASE_PARAM(irdma_rw_write_sges, rw_gen_params),
	KUNIT_CASE(irdma_rw_read_pool_empty),
	{}
};

static struct kunit_suite irdma_rw_suite = {
	.name = "irdma_rw",
	.test_cases = irdma_rw_cases,
};

kunit_test_suite(irdma_rw_suite);
