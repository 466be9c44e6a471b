// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_fastreg: fast registration through irdma's
 * verbs, as the RDMA R/W API drives it.
 *
 * The cases call ib_alloc_mr(), ib_map_mr_sg(), ib_post_send() and
 * ib_dereg_mr() on the mock device of irdma_mock.c, whose CQP is the
 * driver's own, answered by the firmware model of irdma_hw_model.c, and
 * whose SQ is a ring in memory.  They check what the hardware is given:
 * the CQP WQEs that reserve and release a STag, as the model decoded and
 * executed them, the PBLEs behind an MR (level 1 and level
 * 2, found through their HMC indexes), and the FAST_REGISTER,
 * LOCAL_INVALIDATE and RDMA READ/WRITE WQEs, decoded with the hardware's
 * field masks.  Every failing verb must leave STags, PBLEs, CQP requests
 * and MR objects as they were.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"

/* The mock's default PBLE pool: 1024 PBLEs, then 4096 more on demand */
#define HEAD_PBLES	(2 * PBLE_PER_PAGE)
#define TAIL_PBLES	(8 * PBLE_PER_PAGE)

/* Page addresses the cases map: apart, so that no two pages touch */
#define FAKE_DMA_BASE	0x100000000ULL

/* A CQP error the driver maps to -EIO, and the busy one it maps to -EBUSY */
#define FR_TEST_MAJ		0x0100
#define FR_TEST_MIN		0x0002
#define FR_TEST_MAJ_BUSY	0xffff
#define FR_TEST_MIN_BUSY	0x8002

/* What a failing verb must give back, and a verb that succeeds take */
struct fastreg_count {
	u32 stags;
	u64 used_pbles;
	u32 cqp_avail;
	int mrs;
};

static void fastreg_count(struct irdma_mock *mock, struct fastreg_count *c)
{
	struct irdma_chunk *chunk;
	u64 total = 0;

	list_for_each_entry(chunk, &mock->pble_rsrc.pinfo.clist, list)
		total += chunk->size / sizeof(u64);
	c->stags = bitmap_weight(mock->rf.allocated_mrs, mock->rf.max_mr);
	c->used_pbles = total - mock->pble_rsrc.pinfo.free_pble_cnt;
	c->cqp_avail = irdma_mock_cqp_avail(mock);
	c->mrs = rdma_restrack_count(&mock->iwdev->ibdev, RDMA_RESTRACK_MR,
				     false);
}

static void expect_count(struct kunit *test, struct irdma_mock *mock,
			 const struct fastreg_count *was)
{
	struct fastreg_count now;

	fastreg_count(mock, &now);
	KUNIT_EXPECT_EQ(test, now.stags, was->stags);
	KUNIT_EXPECT_EQ(test, now.used_pbles, was->used_pbles);
	KUNIT_EXPECT_EQ(test, now.cqp_avail, was->cqp_avail);
	KUNIT_EXPECT_EQ(test, now.mrs, was->mrs);
}

static struct ib_pd *mock_pd(struct irdma_mock *mock)
{
	return &mock->pd.ibpd;
}

static struct irdma_pble_alloc *mr_pbles(struct ib_mr *mr)
{
	return &to_iwmr(mr)->iwpbl.pble_alloc;
}

KUNIT_DEFINE_ACTION_WRAPPER(fastreg_free_sgt, sg_free_table,
			    struct sg_table *);

/*
 * A DMA-mapped list as ib_map_mr_sg() reads it: @nents entries of
 * @page_size bytes each, only their DMA address and length set; entry i
 * at FAKE_DMA_BASE + 2 * i pages.
 */
static struct scatterlist *fake_sgl(struct kunit *test, u32 nents,
				    u32 page_size)
{
	struct sg_table *sgt = kunit_kzalloc(test, sizeof(*sgt), GFP_KERNEL);
	struct scatterlist *sg;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, sgt);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(sgt, nents, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, fastreg_free_sgt,
							sgt), 0);
	for_each_sg(sgt->sgl, sg, nents, i) {
		sg_dma_address(sg) = FAKE_DMA_BASE + 2ULL * i * page_size;
		sg_dma_len(sg) = page_size;
	}
	return sgt->sgl;
}

static u64 fake_page(u32 i, u32 page_size)
{
	return FAKE_DMA_BASE + 2ULL * i * page_size;
}

static struct ib_mr *alloc_mr(struct kunit *test, struct irdma_mock *mock,
			      u32 max_num_sg)
{
	struct ib_mr *mr = ib_alloc_mr(mock_pd(mock), IB_MR_TYPE_MEM_REG,
				       max_num_sg);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	return mr;
}

/* Counts of irdma_alloc_mr() refuses, and nothing is taken */
struct alloc_refused_case {
	const char *name;
	enum ib_mr_type type;
	u32 max_num_sg;
};

static const struct alloc_refused_case alloc_refused_cases[] = {
	{ "SG_GAPS", IB_MR_TYPE_SG_GAPS, 16 },
	{ "INTEGRITY", IB_MR_TYPE_INTEGRITY, 16 },
	{ "DMA", IB_MR_TYPE_DMA, 16 },
	{ "no pages", IB_MR_TYPE_MEM_REG, 0 },
	{ "one page too many", IB_MR_TYPE_MEM_REG, IRDMA_MAX_PAGES_PER_FMR + 1 },
	{ "U32_MAX pages", IB_MR_TYPE_MEM_REG, U32_MAX },
};

static void alloc_refused_desc(const struct alloc_refused_case *c,
			       char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(alloc_refused, alloc_refused_cases, alloc_refused_desc);

/* Called as the core does, past ib_alloc_mr()'s own INTEGRITY check */
static void fastreg_alloc_refused(struct kunit *test)
{
	const struct alloc_refused_case *c = test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	u64 seq = irdma_hw_model_wqes(mock->hw);
	struct fastreg_count was;
	struct ib_mr *mr;

	fastreg_count(mock, &was);
	mr = ibdev->ops.alloc_mr(mock_pd(mock), c->type, c->max_num_sg);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_wqes(mock->hw), seq);
	expect_count(test, mock, &was);
}

/* MR sizes and the PBLE list each gets from the mock's pool */
struct alloc_case {
	u32 max_num_sg;
	enum irdma_pble_level level;
	bool grows;
};

static const struct alloc_case alloc_cases[] = {
	{ 1, PBLE_LEVEL_1, false },
	{ 2, PBLE_LEVEL_1, false },
	{ 256, PBLE_LEVEL_1, false },
	{ HEAD_PBLES, PBLE_LEVEL_1, false },
	{ HEAD_PBLES + 1, PBLE_LEVEL_1, true },
	{ TAIL_PBLES, PBLE_LEVEL_1, true },
	{ TAIL_PBLES + 1, PBLE_LEVEL_2, true },
	{ HEAD_PBLES + TAIL_PBLES - 16, PBLE_LEVEL_2, true },
};

static void alloc_desc(const struct alloc_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u pages, level %d%s",
		 c->max_num_sg, c->level, c->grows ? ", pool grows" : "");
}

KUNIT_ARRAY_PARAM(alloc, alloc_cases, alloc_desc);

/*
 * alloc_mr reserves a STag through ALLOC_STAG and a PBLE list of the
 * MR's size; dereg_mr releases both, the STag through DEALLOC_STAG.  The
 * hardware's STag table holds the STag in between.
 */
static void fastreg_alloc_dereg(struct kunit *test)
{
	const struct alloc_case *c = test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	u32 pd_id = mock->pd.sc_pd.pd_id;
	struct fastreg_count was, now;
	struct irdma_hw_wqe w;
	u32 chunks, idx, pd;
	struct ib_mr *mr;

	chunks = list_count_nodes(&mock->pble_rsrc.pinfo.clist);
	fastreg_count(mock, &was);
	mr = alloc_mr(test, mock, c->max_num_sg);

	KUNIT_EXPECT_EQ(test, mr->lkey, mr->rkey);
	KUNIT_EXPECT_TRUE(test, test_bit((mr->rkey & mock->rf.mr_stagmask) >>
					 IRDMA_CQPSQ_STAG_IDX_S,
					 mock->rf.allocated_mrs));
	idx = mr->rkey >> IRDMA_CQPSQ_STAG_IDX_S;
	KUNIT_EXPECT_EQ(test, mr_pbles(mr)->level, c->level);
	KUNIT_EXPECT_EQ(test, list_count_nodes(&mock->pble_rsrc.pinfo.clist),
			chunks + c->grows);
	fastreg_count(mock, &now);
	KUNIT_EXPECT_EQ(test, now.stags, was.stags + 1);
	KUNIT_EXPECT_GE(test, now.used_pbles, was.used_pbles + c->max_num_sg);
	KUNIT_EXPECT_EQ(test, now.mrs, was.mrs + 1);

	irdma_mock_last_wqe(mock, IRDMA_HW_OP_ALLOC_STAG, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_TRUE(test, w.stag.mr);
	KUNIT_EXPECT_EQ(test, w.stag.idx, idx);
	KUNIT_EXPECT_EQ(test, w.stag.pd, pd_id);
	KUNIT_EXPECT_EQ(test, w.stag.len, (u64)c->max_num_sg * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, w.stag.remote);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_stag(mock->hw, idx, &pd));
	KUNIT_EXPECT_EQ(test, pd, pd_id);

	/* The PBLEs go back to the pool: expect_count() below */
	KUNIT_ASSERT_EQ(test, ib_dereg_mr(mr), 0);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_DEALLOC_STAG, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.stag.idx, idx);
	KUNIT_EXPECT_EQ(test, w.stag.pd, pd_id);
	KUNIT_EXPECT_TRUE(test, w.stag.mr);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_stag(mock->hw, idx, &pd));
	expect_count(test, mock, &was);
}

/* Lists map_mr_sg is given, and the PBLE level of the MR it fills */
struct map_case {
	u32 max_num_sg;
	u32 nents;
	u32 page_size;
	u32 offset;
	enum irdma_pble_level level;
	u32 tail_pages;
};

static const struct map_case map_cases[] = {
	{ 1, 1, SZ_4K, 0, PBLE_LEVEL_1 },
	{ 16, 1, SZ_4K, 100, PBLE_LEVEL_1 },
	{ 16, 16, SZ_4K, 0, PBLE_LEVEL_1 },
	{ 256, 256, SZ_4K, 4095, PBLE_LEVEL_1 },
	{ HEAD_PBLES, HEAD_PBLES, SZ_4K, 512, PBLE_LEVEL_1 },
	{ 64, 64, SZ_2M, 0, PBLE_LEVEL_1 },
	{ 4, 3, SZ_1G, 12345, PBLE_LEVEL_1 },
	{ TAIL_PBLES + 1, 1, SZ_4K, 0, PBLE_LEVEL_2 },
	{ TAIL_PBLES + 1, PBLE_PER_PAGE + 1, SZ_4K, 8, PBLE_LEVEL_2 },
	{ TAIL_PBLES + 1, TAIL_PBLES + 1, SZ_4K, 0, PBLE_LEVEL_2 },
	/* the most irdma maps, in the one chunk that holds as many */
	{ IRDMA_MAX_PAGES_PER_FMR, IRDMA_MAX_PAGES_PER_FMR, SZ_4K, 0,
	  PBLE_LEVEL_1, IRDMA_HMC_PD_CNT_IN_SD },
	/* ... and at level 2, when that takes every PBLE of the pool */
	{ IRDMA_MAX_PAGES_PER_FMR, IRDMA_MAX_PAGES_PER_FMR, SZ_4K, 64,
	  PBLE_LEVEL_2, IRDMA_HMC_PD_CNT_IN_SD - 1 },
};

static void map_desc(const struct map_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE,
		 "%u of %u pages of %uK at +%u, level %d%s", c->nents,
		 c->max_num_sg, c->page_size / SZ_1K, c->offset, c->level,
		 c->tail_pages ? ", big pool" : "");
}

KUNIT_ARRAY_PARAM(map, map_cases, map_desc);

/* The PBLEs hold the list's page addresses, in order, at either level */
static void fastreg_map_pbles(struct kunit *test)
{
	const struct map_case *c = test->param_value;
	const struct irdma_mock_params params = {
		.pble_tail_pages = c->tail_pages,
	};
	struct irdma_mock *mock = irdma_mock_create(test, &params);
	struct scatterlist *sgl = fake_sgl(test, c->nents, c->page_size);
	unsigned int offset = c->offset;
	struct ib_mr *mr = alloc_mr(test, mock, c->max_num_sg);
	u32 i, bad = 0;

	KUNIT_ASSERT_EQ(test, mr_pbles(mr)->level, c->level);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sgl, c->nents, &offset,
					   c->page_size), c->nents);
	KUNIT_EXPECT_EQ(test, to_iwmr(mr)->npages, c->nents);
	KUNIT_EXPECT_EQ(test, mr->iova, fake_page(0, c->page_size) + c->offset);
	KUNIT_EXPECT_EQ(test, mr->length,
			(u64)c->nents * c->page_size - c->offset);
	for (i = 0; i < c->nents; i++)
		bad += irdma_mock_mr_page(mock, mr, i) !=
		       fake_page(i, c->page_size);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/* A list longer than the MR stops at its size, as ib_map_mr_sg() says */
static void fastreg_map_too_long(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct scatterlist *sgl = fake_sgl(test, 9, SZ_4K);
	struct ib_mr *mr = alloc_mr(test, mock, 8);

	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sgl, 9, NULL, SZ_4K), 8);
	KUNIT_EXPECT_EQ(test, mr->length, 8 * SZ_4K);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/*
 * Page sizes the REG_MR WQE cannot encode, or the device lacks, are
 * refused at map time; they were registered as 4K pages before.
 */
struct page_size_case {
	u32 page_size;
	u64 cap;
};

static const struct page_size_case page_size_refused_cases[] = {
	{ SZ_8K, SZ_4K | SZ_2M | SZ_1G },
	{ SZ_64K, SZ_4K | SZ_2M | SZ_1G },
	{ SZ_4M, SZ_4K | SZ_2M | SZ_1G },
	{ SZ_2M, SZ_4K },
	{ SZ_1G, SZ_4K | SZ_2M },
};

static void page_size_desc(const struct page_size_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%uK, device caps %#llx",
		 c->page_size / SZ_1K, c->cap);
}

KUNIT_ARRAY_PARAM(page_size_refused, page_size_refused_cases,
		  page_size_desc);

static void fastreg_page_size_refused(struct kunit *test)
{
	const struct page_size_case *c = test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct scatterlist *sgl = fake_sgl(test, 2, c->page_size);
	struct ib_mr *mr = alloc_mr(test, mock, 2);

	mock->rf.sc_dev.hw_attrs.page_size_cap = c->cap;
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sgl, 2, NULL, c->page_size),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, to_iwmr(mr)->npages, 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/* The SQ doorbells the hardware has seen for @iwqp (WQEALLOC writes) */
static u32 sq_doorbells(struct irdma_qp *iwqp)
{
	struct irdma_mock *mock = irdma_mock_from_rf(iwqp->iwdev->rf);

	return irdma_hw_model_sq_doorbells(mock->hw, iwqp->sc_qp.qp_uk.qp_id);
}

/*
 * One send WR list; the SQ index of its first WQE.  What it writes to
 * the SQ reaches the hardware: a doorbell at least, and the hardware's
 * tail at the SQ's head when post_send returns.
 */
static u32 post(struct kunit *test, struct irdma_qp *iwqp,
		const struct ib_send_wr *wr, int expect,
		const struct ib_send_wr *expect_bad)
{
	struct irdma_mock *mock = irdma_mock_from_rf(iwqp->iwdev->rf);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	u32 head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring);
	const struct ib_send_wr *bad = NULL;
	u32 rung = sq_doorbells(iwqp);

	KUNIT_EXPECT_EQ(test, ib_post_send(&iwqp->ibqp, wr, &bad), expect);
	KUNIT_EXPECT_PTR_EQ(test, bad, expect_bad);
	if (IRDMA_RING_CURRENT_HEAD(uk->sq_ring) != head)
		KUNIT_EXPECT_GT(test, sq_doorbells(iwqp), rung);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_tail(mock->hw, uk->qp_id),
			IRDMA_RING_CURRENT_HEAD(uk->sq_ring));
	return head;
}

/* The hardware's decoding of the first WQE at or after @idx that is not
 * a NOP; its index
 */
static u32 decode(struct kunit *test, struct irdma_qp *iwqp, u32 idx,
		  struct irdma_hw_sq_wqe *wqe)
{
	int at = irdma_mock_sq_next_wqe(iwqp, idx, wqe);

	KUNIT_ASSERT_GE(test, at, 0);
	KUNIT_EXPECT_EQ(test, wqe->valid, iwqp->sc_qp.qp_uk.swqe_polarity);
	return at;
}

/* REG_MR WQEs: how the MR's pages reach the hardware at each size */
struct reg_case {
	const char *name;
	u32 max_num_sg;
	u32 nents;
	u32 page_size;
	int access;
	u8 rights;
	u8 pbl_size;
	u8 hpage;
};

/* The hardware's rights: local read always, the rest as asked */
#define LR	IRDMA_ACCESS_FLAGS_LOCALREAD
#define LW	IRDMA_ACCESS_FLAGS_LOCALWRITE
#define RR	IRDMA_ACCESS_FLAGS_REMOTEREAD
#define RW	IRDMA_ACCESS_FLAGS_REMOTEWRITE

static const struct reg_case reg_cases[] = {
	{ "one page, address in the WQE", 8, 1, SZ_4K,
	  IB_ACCESS_LOCAL_WRITE, LR | LW, 0, IRDMA_PAGE_SIZE_4K },
	{ "level 1", 64, 64, SZ_4K,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, LR | LW | RW, 1,
	  IRDMA_PAGE_SIZE_4K },
	{ "level 1, 2M pages", 16, 5, SZ_2M,
	  IB_ACCESS_REMOTE_READ, LR | RR, 1, IRDMA_PAGE_SIZE_2M },
	{ "level 1, 1G pages", 4, 2, SZ_1G,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ, LR | LW | RR, 1,
	  IRDMA_PAGE_SIZE_1G },
	{ "level 2", TAIL_PBLES + 1, TAIL_PBLES + 1, SZ_4K,
	  IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE, LR | LW | RW, 3,
	  IRDMA_PAGE_SIZE_4K },
	{ "level 2, partly used", TAIL_PBLES + 1, 700, SZ_4K,
	  IB_ACCESS_LOCAL_WRITE, LR | LW, 3, IRDMA_PAGE_SIZE_4K },
	{ "level 2, one page", TAIL_PBLES + 1, 1, SZ_4K,
	  0, LR, 0, IRDMA_PAGE_SIZE_4K },
};

#undef LR
#undef LW
#undef RR
#undef RW

static void reg_desc(const struct reg_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reg, reg_cases, reg_desc);

/*
 * A REG_MR WQE carries the STag's index and key, the region, the rights
 * and page size, and the page list: a single page directly, a level-1
 * list by its first PBLE (chunk size 1), a level-2 list by its root
 * (chunk size 3).  Level 2 was described as level 1 before.
 */
static void fastreg_post_reg_mr(struct kunit *test)
{
	const struct reg_case *c = test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, NULL);
	struct scatterlist *sgl = fake_sgl(test, c->nents, c->page_size);
	struct ib_mr *mr = alloc_mr(test, mock, c->max_num_sg);
	struct irdma_pble_alloc *pbles = mr_pbles(mr);
	struct ib_reg_wr wr = {
		.wr = {
			.wr_id = 0x5eed,
			.opcode = IB_WR_REG_MR,
			.send_flags = IB_SEND_SIGNALED,
		},
		.mr = mr,
		.access = c->access,
	};
	struct irdma_hw_sq_wqe wqe;
	struct irdma_hw_mr hw;
	u32 head, i, bad = 0;

	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sgl, c->nents, NULL,
					   c->page_size), c->nents);
	ib_update_fast_reg_key(mr, 0xa7);
	wr.key = mr->rkey;
	head = post(test, iwqp, &wr.wr, 0, NULL);

	decode(test, iwqp, head, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_FAST_REGISTER);
	KUNIT_EXPECT_EQ(test, wqe.fr_index, mr->rkey >> IRDMA_CQPSQ_STAG_IDX_S);
	KUNIT_EXPECT_EQ(test, wqe.fr_key, 0xa7);
	KUNIT_EXPECT_EQ(test, wqe.fr_va, mr->iova);
	KUNIT_EXPECT_EQ(test, wqe.fr_len, mr->length);
	KUNIT_EXPECT_EQ(test, wqe.fr_rights, c->rights);
	KUNIT_EXPECT_TRUE(test, wqe.fr_va_based);
	KUNIT_EXPECT_EQ(test, wqe.fr_hpage_size, c->hpage);
	KUNIT_EXPECT_EQ(test, wqe.fr_pbl_size, c->pbl_size);
	KUNIT_EXPECT_TRUE(test, wqe.local_fence);
	KUNIT_EXPECT_TRUE(test, wqe.signaled);
	KUNIT_EXPECT_EQ(test, iwqp->sc_qp.qp_uk.sq_wrtrk_array[head].wrid,
			0x5eed);
	switch (c->pbl_size) {
	case 0:
		KUNIT_EXPECT_EQ(test, wqe.fr_pbl_addr, fake_page(0, c->page_size));
		break;
	case 1:
		KUNIT_EXPECT_EQ(test, wqe.fr_first_pble, pbles->level1.idx);
		break;
	case 3:
		KUNIT_EXPECT_EQ(test, wqe.fr_first_pble, pbles->level2.root.idx);
		break;
	}
	/* The pages the hardware found behind the STag, at any level */
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_mr(mock->hw, wqe.fr_index, &hw));
	KUNIT_EXPECT_EQ(test, hw.page_size, c->page_size);
	KUNIT_ASSERT_EQ(test, hw.npages, c->nents);
	for (i = 0; i < c->nents; i++)
		bad += irdma_hw_model_mr_page(mock->hw, wqe.fr_index, i) !=
		       fake_page(i, c->page_size);
	KUNIT_EXPECT_EQ(test, bad, 0);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/* A page size changed after the map is refused at post, with bad_wr */
static void fastreg_post_reg_mr_bad_page_size(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, NULL);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	struct scatterlist *sgl = fake_sgl(test, 4, SZ_4K);
	struct ib_mr *mr = alloc_mr(test, mock, 4);
	struct ib_reg_wr wr = {
		.wr.opcode = IB_WR_REG_MR,
		.mr = mr,
		.key = mr->rkey,
		.access = IB_ACCESS_LOCAL_WRITE,
	};
	u32 head;

	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sgl, 4, NULL, SZ_4K), 4);
	mr->page_size = SZ_16K;
	head = post(test, iwqp, &wr.wr, -EINVAL, &wr.wr);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(uk->sq_ring), head);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/*
 * LOCAL_INV names the STag and always carries the local fence: the WQEs
 * before it may still be using the STag.
 */
static void fastreg_post_local_inv(struct kunit *test)
{
	static const int flags[] = { 0, IB_SEND_SIGNALED, IB_SEND_FENCE };
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, NULL);
	struct irdma_hw_sq_wqe wqe;
	struct ib_send_wr wr = {
		.opcode = IB_WR_LOCAL_INV,
		.ex.invalidate_rkey = 0x0012ab7e,
	};
	u32 i, head;

	for (i = 0; i < ARRAY_SIZE(flags); i++) {
		wr.send_flags = flags[i];
		head = post(test, iwqp, &wr, 0, NULL);
		decode(test, iwqp, head, &wqe);
		KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_LOCAL_INV);
		KUNIT_EXPECT_EQ(test, wqe.inv_stag, 0x0012ab7e);
		KUNIT_EXPECT_TRUE(test, wqe.local_fence);
		KUNIT_EXPECT_EQ(test, wqe.signaled,
				!!(flags[i] & IB_SEND_SIGNALED));
		KUNIT_EXPECT_EQ(test, wqe.read_fence,
				!!(flags[i] & IB_SEND_FENCE));
	}
}

/*
 * What the R/W API posts for an iWARP READ into an MR: REG_MR, then
 * RDMA_READ_WITH_INV of the MR, in one list, both taken by the hardware;
 * then LOCAL_INV and REG_MR again with a new key, as the next I/O does.
 */
static void fastreg_post_chain(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, NULL);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	struct scatterlist *sgl = fake_sgl(test, 3, SZ_4K);
	struct ib_mr *mr = alloc_mr(test, mock, 8);
	struct ib_sge sge;
	struct ib_reg_wr reg = {
		.wr.opcode = IB_WR_REG_MR,
		.mr = mr,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	struct ib_rdma_wr read = {
		.wr = {
			.opcode = IB_WR_RDMA_READ_WITH_INV,
			.send_flags = IB_SEND_SIGNALED,
			.sg_list = &sge,
			.num_sge = 1,
		},
		.remote_addr = 0x7f00deadb000ULL,
		.rkey = 0x0badcafe,
	};
	struct ib_send_wr inv = { .opcode = IB_WR_LOCAL_INV };
	struct irdma_hw_sq_wqe wqe;
	struct irdma_hw_mr hw;
	u32 head, key, i;

	for (i = 0; i < 2; i++) {
		KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sgl, 3, NULL, SZ_4K), 3);
		reg.key = mr->rkey;
		sge = (struct ib_sge){ .addr = mr->iova, .length = mr->length,
				       .lkey = mr->lkey };
		read.wr.ex.invalidate_rkey = mr->rkey;
		reg.wr.next = &read.wr;
		head = post(test, iwqp, &reg.wr, 0, NULL);

		decode(test, iwqp, head, &wqe);
		KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_FAST_REGISTER);
		KUNIT_EXPECT_EQ(test, wqe.fr_key, mr->rkey & 0xff);
		decode(test, iwqp, head + wqe.quanta, &wqe);
		KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_READ_LOC_INV);
		KUNIT_EXPECT_EQ(test, wqe.rem_stag, 0x0badcafe);
		KUNIT_EXPECT_EQ(test, wqe.rem_to, 0x7f00deadb000ULL);
		KUNIT_ASSERT_EQ(test, wqe.num_frags, 1);
		KUNIT_EXPECT_EQ(test, wqe.frag[0].addr, mr->iova);
		KUNIT_EXPECT_EQ(test, wqe.frag[0].length, 3 * SZ_4K);
		KUNIT_EXPECT_EQ(test, wqe.frag[0].stag, mr->lkey);
		KUNIT_EXPECT_TRUE(test, wqe.signaled);
		KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(uk->sq_ring),
				head + 2);

		/* the next I/O: invalidate, and a new key on the same STag */
		key = mr->rkey;
		inv.ex.invalidate_rkey = key;
		head = post(test, iwqp, &inv, 0, NULL);
		decode(test, iwqp, head, &wqe);
		KUNIT_EXPECT_EQ(test, wqe.inv_stag, key);
		KUNIT_EXPECT_FALSE(test, irdma_hw_model_mr(mock->hw, key >> 8,
							   &hw));
		ib_update_fast_reg_key(mr, ib_inc_rkey(key));
		KUNIT_EXPECT_EQ(test, mr->rkey >> 8, key >> 8);
	}
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/*
 * A READ with more SGEs than the device reads into is refused: bad_wr
 * points at it, the WRs before it are in the ring and rung.
 */
static void fastreg_post_read_too_many_sges(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_mock_qp_attr attr = { .max_sq_sge = 13 };
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, &attr);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	u32 max = mock->iwdev->ibdev.attrs.max_sge_rd;
	struct ib_sge sge[14];
	struct ib_rdma_wr write = {
		.wr = { .opcode = IB_WR_RDMA_WRITE, .sg_list = sge,
			.num_sge = 2 },
	};
	struct ib_rdma_wr read = {
		.wr = { .opcode = IB_WR_RDMA_READ, .sg_list = sge,
			.num_sge = max + 1 },
	};
	struct irdma_hw_sq_wqe wqe;
	u32 head, i;

	KUNIT_ASSERT_LT(test, max, ARRAY_SIZE(sge));
	for (i = 0; i < ARRAY_SIZE(sge); i++)
		sge[i] = (struct ib_sge){ .addr = SZ_1M * (i + 1),
					  .length = 64, .lkey = 0x100 + i };
	write.wr.next = &read.wr;
	head = post(test, iwqp, &write.wr, -EINVAL, &read.wr);
	decode(test, iwqp, head, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_RDMA_WRITE);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(uk->sq_ring),
			head + wqe.quanta);

	read.wr.num_sge = max;
	head = post(test, iwqp, &read.wr, 0, NULL);
	decode(test, iwqp, head, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_RDMA_READ);
	KUNIT_ASSERT_EQ(test, wqe.num_frags, max);
	for (i = 0; i < max; i++)
		KUNIT_EXPECT_EQ(test, wqe.frag[i].stag, sge[i].lkey);
}

/*
 * An ALLOC_STAG the hardware completes with an error fails alloc_mr with
 * -EIO, nothing kept, on either side
 */
static void fastreg_alloc_cqp_fails(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	u64 seq = irdma_hw_model_wqes(mock->hw);
	struct fastreg_count was;
	struct irdma_hw_wqe w;
	struct ib_mr *mr;
	u32 pd;

	fastreg_count(mock, &was);
	irdma_hw_model_fail_next(mock->hw, IRDMA_HW_OP_ALLOC_STAG,
				 FR_TEST_MAJ, FR_TEST_MIN);
	mr = ib_alloc_mr(mock_pd(mock), IB_MR_TYPE_MEM_REG, 32);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EIO);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_wqes(mock->hw), seq + 1);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_ALLOC_STAG, &w);
	KUNIT_EXPECT_TRUE(test, w.error);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_stag(mock->hw, w.stag.idx,
						     &pd));
	expect_count(test, mock, &was);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

/* More pages than the PBLE pool holds: -ENOMEM, no STag kept */
static void fastreg_alloc_pbles_exhausted(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct fastreg_count was;
	struct ib_mr *mr;

	fastreg_count(mock, &was);
	mr = ib_alloc_mr(mock_pd(mock), IB_MR_TYPE_MEM_REG,
			 HEAD_PBLES + TAIL_PBLES + 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -ENOMEM);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(mock->hw,
						      IRDMA_HW_OP_ALLOC_STAG),
			0);
	expect_count(test, mock, &was);
}

/* Every STag taken: -ENOMEM; all of them given back by dereg_mr */
static void fastreg_alloc_stags_exhausted(struct kunit *test)
{
	const struct irdma_mock_params params = { .max_mr = 16 };
	struct irdma_mock *mock = irdma_mock_create(test, &params);
	u32 free = mock->rf.max_mr - bitmap_weight(mock->rf.allocated_mrs,
						   mock->rf.max_mr);
	struct fastreg_count was;
	struct ib_mr **mrs;
	struct ib_mr *mr;
	u32 i;

	mrs = kunit_kcalloc(test, free, sizeof(*mrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mrs);
	fastreg_count(mock, &was);
	for (i = 0; i < free; i++)
		mrs[i] = alloc_mr(test, mock, 4);
	mr = ib_alloc_mr(mock_pd(mock), IB_MR_TYPE_MEM_REG, 4);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -ENOMEM);
	for (i = 0; i < free; i++)
		KUNIT_EXPECT_EQ(test, ib_dereg_mr(mrs[i]), 0);
	expect_count(test, mock, &was);
}

/*
 * A DEALLOC_STAG the hardware refuses as busy fails dereg_mr with -EBUSY
 * and keeps the MR whole, the STag still valid in the hardware, so that
 * it can be deregistered again.
 */
static void fastreg_dereg_cqp_fails(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct fastreg_count was, held, now;
	struct ib_mr *mr;
	u32 idx, pd;

	fastreg_count(mock, &was);
	mr = alloc_mr(test, mock, 600);
	idx = mr->rkey >> IRDMA_CQPSQ_STAG_IDX_S;
	fastreg_count(mock, &held);
	irdma_hw_model_fail_next(mock->hw, IRDMA_HW_OP_DEALLOC_STAG,
				 FR_TEST_MAJ_BUSY, FR_TEST_MIN_BUSY);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), -EBUSY);
	fastreg_count(mock, &now);
	KUNIT_EXPECT_EQ(test, now.stags, held.stags);
	KUNIT_EXPECT_EQ(test, now.used_pbles, held.used_pbles);
	KUNIT_EXPECT_EQ(test, now.cqp_avail, held.cqp_avail);
	KUNIT_EXPECT_TRUE(test, irdma_hw_model_stag(mock->hw, idx, &pd));

	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_stag(mock->hw, idx, &pd));
	expect_count(test, mock, &was);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

static struct kunit_case irdma_verbs_fastreg_cases[] = {
	KUNIT_CASE_PARAM(fastreg_alloc_refused, alloc_refused_gen_params),
	KUNIT_CASE_PARAM(fastreg_alloc_dereg, alloc_gen_params),
	KUNIT_CASE_PARAM(fastreg_map_pbles, map_gen_params),
	KUNIT_CASE(fastreg_map_too_long),
	KUNIT_CASE_PARAM(fastreg_page_size_refused,
			 page_size_refused_gen_params),
	KUNIT_CASE_PARAM(fastreg_post_reg_mr, reg_gen_params),
	KUNIT_CASE(fastreg_post_reg_mr_bad_page_size),
	KUNIT_CASE(fastreg_post_local_inv),
	KUNIT_CASE(fastreg_post_chain),
	KUNIT_CASE(fastreg_post_read_too_many_sges),
	KUNIT_CASE(fastreg_alloc_cqp_fails),
	KUNIT_CASE(fastreg_alloc_pbles_exhausted),
	KUNIT_CASE(fastreg_alloc_stags_exhausted),
	KUNIT_CASE(fastreg_dereg_cqp_fails),
	{}
};

static struct kunit_suite irdma_verbs_fastreg_suite = {
	.name = "irdma_verbs_fastreg",
	.test_cases = irdma_verbs_fastreg_cases,
};

kunit_test_suite(irdma_verbs_fastreg_suite);
