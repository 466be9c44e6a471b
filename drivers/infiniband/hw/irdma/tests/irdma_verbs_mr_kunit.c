// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_mr: memory registration on an irdma device
 * without hardware (the mock of irdma_mock.c, whose CQP is the driver's
 * own, answered by the firmware model of irdma_hw_model.c).
 *
 * The cases here hold for the driver's lower layers alone: the mock
 * device itself, the PBLE allocator (level 1 and level 2 lists over the
 * HMC, and its growth by one SD, which the model sees programmed), the
 * CQP request pool and the CQP's request path, and the SQ WQE builders
 * of uk.c and ctrl.c writing RDMA WRITE, RDMA READ, LOCAL_INVALIDATE and
 * FAST_REGISTER WQEs into a QP's ring in memory, decoded with the
 * hardware's field masks.  The cases
 * that go through the verbs themselves are in
 * irdma_verbs_fastreg_kunit.c,
 * but for get_dma_mr, whose REG_MR the model decodes here.
 */
#include <kunit/test.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "../icrdma_hw.h"

/* The mock's default PBLE layout: 2 pages, then 8 more on demand */
#define HEAD_PBLES	(2 * PBLE_PER_PAGE)
#define TAIL_PBLES	(8 * PBLE_PER_PAGE)

/*
 * An SD command of UPDATE_PE_SDS as the E810 reads it: the SD's index and
 * the bit that makes it a write; the SD's data: valid, direct rather than
 * paged, and the address of the PD page (or backing page).
 */
#define MR_TEST_SD_IDX		GENMASK(11, 0)
#define MR_TEST_SD_WRITE	BIT(31)
#define MR_TEST_SD_VALID	BIT_ULL(0)
#define MR_TEST_SD_DIRECT	BIT_ULL(1)
#define MR_TEST_SD_ADDR		GENMASK_ULL(63, 12)

/* The access rights of REG_MR's WQE, as the hardware reads them */
#define MR_TEST_HW_LOCAL_READ	BIT(0)
#define MR_TEST_HW_LOCAL_WRITE	BIT(1)
#define MR_TEST_HW_REMOTE_READ	BIT(2)
#define MR_TEST_HW_REMOTE_WRITE	BIT(3)

/* An error for the model to inject, which the driver maps to -EIO */
#define MR_TEST_MAJ		0x0100
#define MR_TEST_MIN		0x0002

static u32 count_chunks(struct irdma_mock *mock)
{
	return list_count_nodes(&mock->pble_rsrc.pinfo.clist);
}

static u64 free_pbles(struct irdma_mock *mock)
{
	return mock->pble_rsrc.pinfo.free_pble_cnt;
}

/* The mock builds as an E810 in iWARP mode, with the driver's own setup */
static void irdma_mock_builds(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_sc_dev *dev = &mock->rf.sc_dev;
	struct irdma_uk_attrs *uk = &dev->hw_attrs.uk_attrs;
	uintptr_t bar = (uintptr_t)mock->bar;
	struct irdma_hmc_sd_entry *sd;
	struct irdma_hw_sd hw_sd;

	KUNIT_EXPECT_EQ(test, uk->hw_rev, IRDMA_GEN_2);
	KUNIT_EXPECT_EQ(test, uk->max_hw_wq_frags, 13);
	KUNIT_EXPECT_EQ(test, uk->max_hw_read_sges, 13);
	KUNIT_EXPECT_EQ(test, uk->max_hw_sq_chunk, IRDMA_MAX_QUANTA_PER_WR);
	KUNIT_EXPECT_EQ(test, uk->min_hw_wq_size, ICRDMA_MIN_WQ_SIZE);
	KUNIT_EXPECT_EQ(test, dev->hw_attrs.page_size_cap,
			SZ_4K | SZ_2M | SZ_1G);
	KUNIT_EXPECT_EQ(test, (uintptr_t)dev->wqe_alloc_db,
			bar + PFPE_WQEALLOC);
	KUNIT_EXPECT_EQ(test, (uintptr_t)dev->cq_arm_db, bar + PFPE_CQARM);
	KUNIT_EXPECT_EQ(test, (uintptr_t)dev->db_addr,
			bar + ICRDMA_DB_ADDR_OFFSET);
	KUNIT_EXPECT_PTR_EQ(test, to_ibdev(dev), &mock->iwdev->ibdev);
	KUNIT_EXPECT_FALSE(test, mock->iwdev->roce_mode);
	/* verbs.c's iWARP ops, port and attributes, as registration gives */
	KUNIT_EXPECT_EQ(test, mock->iwdev->ibdev.node_type, RDMA_NODE_RNIC);
	KUNIT_EXPECT_NOT_NULL(test, mock->iwdev->ibdev.ops.iw_connect);
	KUNIT_EXPECT_NULL(test, mock->iwdev->ibdev.ops.dealloc_driver);
	KUNIT_EXPECT_TRUE(test, rdma_protocol_iwarp(&mock->iwdev->ibdev, 1));
	KUNIT_EXPECT_EQ(test, mock->iwdev->ibdev.attrs.max_fast_reg_page_list_len,
			IRDMA_MAX_PAGES_PER_FMR);

	/* Stags: 4096 MRs take 14 index bits (the minimum) above the key */
	KUNIT_EXPECT_EQ(test, mock->rf.max_mr, 4096);
	KUNIT_EXPECT_EQ(test, mock->rf.mr_stagmask, 0x003fffff);
	KUNIT_EXPECT_TRUE(test, test_bit(0, mock->rf.allocated_mrs));
	KUNIT_EXPECT_EQ(test, find_next_bit(mock->rf.allocated_mrs,
					    mock->rf.max_mr, 1),
			(unsigned long)mock->rf.max_mr);

	/* PBLEs: the head chunk, the rest left for later, one SD written */
	KUNIT_EXPECT_EQ(test, count_chunks(mock), 1);
	KUNIT_EXPECT_EQ(test, free_pbles(mock), HEAD_PBLES);
	KUNIT_EXPECT_EQ(test, mock->pble_rsrc.pinfo.total_pble_alloc,
			HEAD_PBLES);
	KUNIT_EXPECT_EQ(test, mock->pble_rsrc.unallocated_pble, TAIL_PBLES);
	KUNIT_EXPECT_EQ(test, mock->pble_rsrc.stats_paged_sds, 1);
	sd = &dev->hmc_info->sd_table.sd_entry[1];
	KUNIT_EXPECT_TRUE(test, sd->valid);
	KUNIT_EXPECT_EQ(test, sd->entry_type, IRDMA_SD_TYPE_PAGED);
	KUNIT_EXPECT_FALSE(test, dev->hmc_info->sd_table.sd_entry[2].valid);
	/* ... as the hardware was told: SD 1 written, paged, SD 2 not */
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(mock->hw,
						      IRDMA_HW_OP_UPDATE_PE_SDS),
			1);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_sd(mock->hw, 1, &hw_sd));
	KUNIT_EXPECT_EQ(test, hw_sd.writes, 1);
	KUNIT_EXPECT_TRUE(test, hw_sd.data & MR_TEST_SD_VALID);
	KUNIT_EXPECT_FALSE(test, hw_sd.data & MR_TEST_SD_DIRECT);
	KUNIT_EXPECT_EQ(test, hw_sd.data & MR_TEST_SD_ADDR,
			sd->u.pd_table.pd_page_addr.pa);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_sd(mock->hw, 2, &hw_sd));
	KUNIT_EXPECT_EQ(test, hw_sd.writes, 0);

	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock), 16);
}

/* Several mocks, QPs and a grown PBLE resource, all released by KUnit */
static void irdma_mock_many(struct kunit *test)
{
	struct irdma_mock_params params = { .max_mr = 64 };
	int i;

	for (i = 0; i < 3; i++) {
		struct irdma_mock *mock = irdma_mock_create(test, &params);
		struct irdma_pble_alloc palloc = {};

		irdma_mock_create_qp(mock, NULL);
		irdma_mock_create_qp(mock, NULL);
		KUNIT_ASSERT_EQ(test, irdma_get_pble(&mock->pble_rsrc, &palloc,
						     HEAD_PBLES + 1, 0), 0);
		KUNIT_EXPECT_EQ(test, count_chunks(mock), 2);
		irdma_free_pble(&mock->pble_rsrc, &palloc);
		KUNIT_EXPECT_EQ(test, mock->rf.mr_stagmask, 0x003fffff);
	}
}

/*
 * One irdma_get_pble() request, after an optional setup: @gap PBLEs
 * allocated, then @pin more, then the @gap ones freed again, which leaves
 * a hole before the pinned ones.
 */
struct pble_case {
	const char *name;
	u32 gap;
	u32 pin;
	u32 count;
	u8 lvl;
	int ret;
	enum irdma_pble_level level;
	u32 chunks;
};

static const struct pble_case pble_cases[] = {
	{ .name = "64 PBLEs: level 1 in the first chunk",
	  .count = 64, .ret = 0, .level = PBLE_LEVEL_1, .chunks = 1 },
	{ .name = "1 PBLE: level 1",
	  .count = 1, .ret = 0, .level = PBLE_LEVEL_1, .chunks = 1 },
	{ .name = "the whole first chunk: level 1",
	  .count = HEAD_PBLES, .ret = 0, .level = PBLE_LEVEL_1, .chunks = 1 },
	{ .name = "one more than the first chunk: grows, level 1",
	  .count = HEAD_PBLES + 1, .ret = 0, .level = PBLE_LEVEL_1,
	  .chunks = 2 },
	{ .name = "the whole second chunk: grows, level 1",
	  .count = TAIL_PBLES, .ret = 0, .level = PBLE_LEVEL_1, .chunks = 2 },
	{ .name = "more than any chunk: grows, level 2 across both",
	  .count = TAIL_PBLES + 1, .ret = 0, .level = PBLE_LEVEL_2,
	  .chunks = 2 },
	{ .name = "every PBLE there is, less the level-2 root: level 2",
	  .count = HEAD_PBLES + TAIL_PBLES - 2 * 8, .ret = 0,
	  .level = PBLE_LEVEL_2, .chunks = 2 },
	{ .name = "more than there are: -ENOMEM",
	  .count = HEAD_PBLES + TAIL_PBLES + 1, .ret = -ENOMEM, .chunks = 2 },
	{ .name = "more than any chunk, level 1 only: -ENOMEM",
	  .count = TAIL_PBLES + 1, .lvl = PBLE_LEVEL_1, .ret = -ENOMEM,
	  .chunks = 2 },
	{ .name = "fragmented: level 2 though enough are free",
	  .gap = HEAD_PBLES + 1, .pin = 8, .count = TAIL_PBLES - 1032 + 8,
	  .ret = 0, .level = PBLE_LEVEL_2, .chunks = 2 },
	{ .name = "fragmented: level 1 in the hole",
	  .gap = HEAD_PBLES + 1, .pin = 8, .count = 1032, .ret = 0,
	  .level = PBLE_LEVEL_1, .chunks = 2 },
	{ .name = "fragmented, level 1 only: -ENOMEM",
	  .gap = HEAD_PBLES + 1, .pin = 8, .count = TAIL_PBLES - 1032 + 8,
	  .lvl = PBLE_LEVEL_1, .ret = -ENOMEM, .chunks = 2 },
};

KUNIT_ARRAY_PARAM_DESC(pble, pble_cases, name);

/* Every PBLE of a level-1 list is where its index says, and writable */
static void check_level1(struct kunit *test, struct irdma_mock *mock,
			 struct irdma_pble_info *lvl1, u32 count)
{
	u32 i;

	KUNIT_EXPECT_EQ(test, lvl1->cnt, count);
	KUNIT_EXPECT_PTR_EQ(test, lvl1->addr, irdma_mock_pble(mock, lvl1->idx));
	KUNIT_ASSERT_PTR_EQ(test, lvl1->addr + count - 1,
			    irdma_mock_pble(mock, lvl1->idx + count - 1));
	for (i = 0; i < count; i++)
		lvl1->addr[i] = (u64)i << PAGE_SHIFT;
}

/*
 * A level-2 list: the root holds the HMC index of each leaf, the leaves
 * are full 512-entry pages but for the last, and together hold @count.
 */
static void check_level2(struct kunit *test, struct irdma_mock *mock,
			 struct irdma_pble_level2 *lvl2, u32 count)
{
	u32 leaves = DIV_ROUND_UP(count, PBLE_PER_PAGE), total = 0, i;

	KUNIT_ASSERT_EQ(test, lvl2->leaf_cnt, leaves);
	KUNIT_EXPECT_EQ(test, lvl2->root.cnt, leaves);
	KUNIT_EXPECT_PTR_EQ(test, lvl2->root.addr,
			    irdma_mock_pble(mock, lvl2->root.idx));
	for (i = 0; i < leaves; i++) {
		struct irdma_pble_info *leaf = &lvl2->leaf[i];
		u32 want = i + 1 < leaves ? PBLE_PER_PAGE :
			   count - (leaves - 1) * PBLE_PER_PAGE;

		KUNIT_EXPECT_EQ(test, lvl2->root.addr[i], (u64)leaf->idx);
		KUNIT_EXPECT_EQ(test, leaf->cnt, want);
		check_level1(test, mock, leaf, leaf->cnt);
		total += leaf->cnt;
	}
	KUNIT_EXPECT_EQ(test, total, count);
}

static void irdma_pble_get(struct kunit *test)
{
	const struct pble_case *c = test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_hmc_pble_rsrc *rsrc = &mock->pble_rsrc;
	struct irdma_pble_alloc gap = {}, pin = {}, palloc = {};
	u64 before, total, lvl1, lvl2;
	int ret;

	if (c->gap)
		KUNIT_ASSERT_EQ(test, irdma_get_pble(rsrc, &gap, c->gap, 0), 0);
	if (c->pin)
		KUNIT_ASSERT_EQ(test, irdma_get_pble(rsrc, &pin, c->pin, 0), 0);
	if (c->gap)
		irdma_free_pble(rsrc, &gap);
	before = free_pbles(mock);
	total = rsrc->pinfo.total_pble_alloc;
	lvl1 = rsrc->stats_lvl1;
	lvl2 = rsrc->stats_lvl2;

	ret = irdma_get_pble(rsrc, &palloc, c->count, c->lvl);
	KUNIT_ASSERT_EQ(test, ret, c->ret);
	KUNIT_EXPECT_EQ(test, count_chunks(mock), c->chunks);
	if (ret) {
		KUNIT_EXPECT_EQ(test, palloc.level, PBLE_LEVEL_0);
		/* A failed request takes nothing, though it grew the pool */
		KUNIT_EXPECT_EQ(test, free_pbles(mock),
				rsrc->pinfo.total_pble_alloc - c->pin);
		return;
	}

	KUNIT_EXPECT_EQ(test, palloc.level, c->level);
	KUNIT_EXPECT_EQ(test, palloc.total_cnt, c->count);
	if (palloc.level == PBLE_LEVEL_1) {
		KUNIT_EXPECT_EQ(test, rsrc->stats_lvl1, lvl1 + 1);
		check_level1(test, mock, &palloc.level1, c->count);
	} else if (palloc.level == PBLE_LEVEL_2) {
		KUNIT_EXPECT_EQ(test, rsrc->stats_lvl2, lvl2 + 1);
		check_level2(test, mock, &palloc.level2, c->count);
	}

	/* Freeing gives back what was taken, and keeps what was added */
	irdma_free_pble(rsrc, &palloc);
	KUNIT_EXPECT_EQ(test, free_pbles(mock),
			before + rsrc->pinfo.total_pble_alloc - total);
	if (c->pin)
		irdma_free_pble(rsrc, &pin);
	KUNIT_EXPECT_EQ(test, free_pbles(mock), rsrc->pinfo.total_pble_alloc);
	KUNIT_EXPECT_EQ(test, rsrc->stats_alloc_freed,
			rsrc->stats_alloc_ok);
}

/*
 * Growing the PBLE resource maps the new chunk's pages into the next SD,
 * invalidates each PD in the function's cache, and has the CQP write the
 * SD: visible in memory, and in the SD table of the firmware model.
 */
static void irdma_pble_grow_programs_sd(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_hmc_info *hmc = mock->rf.sc_dev.hmc_info;
	struct irdma_hmc_sd_entry *sd = &hmc->sd_table.sd_entry[2];
	struct irdma_pble_alloc palloc = {};
	struct irdma_chunk *chunk;
	struct irdma_hw_sd hw_sd;
	struct irdma_hw_wqe w;
	u64 *pd_page;
	u32 pdinv, i;

	KUNIT_ASSERT_EQ(test, irdma_get_pble(&mock->pble_rsrc, &palloc,
					     HEAD_PBLES + 1, 0), 0);
	KUNIT_ASSERT_EQ(test, count_chunks(mock), 2);
	KUNIT_EXPECT_EQ(test, mock->pble_rsrc.unallocated_pble, 0);
	KUNIT_EXPECT_EQ(test, mock->pble_rsrc.stats_paged_sds, 2);
	/* The newest chunk is first on the list */
	chunk = list_first_entry(&mock->pble_rsrc.pinfo.clist,
				 struct irdma_chunk, list);
	KUNIT_EXPECT_EQ(test, chunk->type, PBLE_SD_PAGED);
	KUNIT_EXPECT_EQ(test, chunk->pg_cnt, TAIL_PBLES / PBLE_PER_PAGE);
	KUNIT_EXPECT_EQ(test, chunk->fpm_addr, 2ULL * IRDMA_HMC_DIRECT_BP_SIZE);

	KUNIT_ASSERT_TRUE(test, sd->valid);
	KUNIT_EXPECT_EQ(test, sd->entry_type, IRDMA_SD_TYPE_PAGED);
	pd_page = sd->u.pd_table.pd_page_addr.va;
	for (i = 0; i < chunk->pg_cnt; i++) {
		struct irdma_hmc_pd_entry *pd = &sd->u.pd_table.pd_entry[i];

		KUNIT_EXPECT_TRUE(test, pd->valid);
		KUNIT_EXPECT_TRUE(test, pd->rsrc_pg);
		KUNIT_EXPECT_EQ(test, pd->bp.addr.pa,
				(u64)chunk->dmainfo.dmaaddrs[i]);
		KUNIT_EXPECT_PTR_EQ(test, pd->bp.addr.va,
				    chunk->vaddr + i * IRDMA_HMC_PAGED_BP_SIZE);
		/* The PD page holds each page's address with its valid bit */
		KUNIT_EXPECT_EQ(test, pd_page[i],
				(u64)chunk->dmainfo.dmaaddrs[i] | 1);
	}
	KUNIT_EXPECT_FALSE(test, sd->u.pd_table.pd_entry[i].valid);

	/* The last PD invalidated, in the register the driver writes */
	pdinv = irdma_mock_reg(mock, IRDMA_PFHMC_PDINV);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_PFHMC_PDINV_PMSDIDX, pdinv), 2);
	KUNIT_EXPECT_EQ(test, FIELD_GET(IRDMA_PFHMC_PDINV_PMPDIDX, pdinv),
			chunk->pg_cnt - 1);

	/*
	 * The SD, written through the CQP: the second UPDATE_PE_SDS, one
	 * entry, a paged SD at the PD page, now in the hardware's table
	 */
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(mock->hw,
						      IRDMA_HW_OP_UPDATE_PE_SDS),
			2);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_UPDATE_PE_SDS, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_ASSERT_EQ(test, w.sds.cnt + w.sds.mem, 1);
	KUNIT_EXPECT_EQ(test, w.sds.cmd[0] & MR_TEST_SD_IDX, 2);
	KUNIT_EXPECT_TRUE(test, w.sds.cmd[0] & MR_TEST_SD_WRITE);
	KUNIT_EXPECT_TRUE(test, w.sds.data[0] & MR_TEST_SD_VALID);
	KUNIT_EXPECT_FALSE(test, w.sds.data[0] & MR_TEST_SD_DIRECT);
	KUNIT_EXPECT_EQ(test, w.sds.data[0] & MR_TEST_SD_ADDR,
			sd->u.pd_table.pd_page_addr.pa);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_sd(mock->hw, 2, &hw_sd));
	KUNIT_EXPECT_EQ(test, hw_sd.writes, 1);
	KUNIT_EXPECT_EQ(test, hw_sd.data, w.sds.data[0]);

	irdma_free_pble(&mock->pble_rsrc, &palloc);
}

/* The CQP request pool: taken and given back, then overflowing */
static void irdma_cqp_request_pool(struct kunit *test)
{
	struct irdma_mock_params params = { .cqp_requests = 4 };
	struct irdma_mock *mock = irdma_mock_create(test, &params);
	struct irdma_cqp *cqp = &mock->rf.cqp;
	struct irdma_cqp_request *req[5];
	unsigned long seen = 0;
	int i;

	for (i = 0; i < ARRAY_SIZE(req); i++) {
		req[i] = irdma_alloc_and_get_cqp_request(cqp, true);
		KUNIT_ASSERT_NOT_NULL(test, req[i]);
		KUNIT_EXPECT_TRUE(test, req[i]->waiting);
		KUNIT_EXPECT_EQ(test, refcount_read(&req[i]->refcnt), 1);
	}
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock), 0);
	/*
	 * Each request of the pool once; bring-up's SD command took one and
	 * gave it back, so the free list's order is no longer the pool's
	 */
	for (i = 0; i < 4; i++) {
		KUNIT_EXPECT_FALSE(test, req[i]->dynamic);
		KUNIT_ASSERT_TRUE(test, req[i] >= mock->cqp_pool &&
				  req[i] < mock->cqp_pool + 4);
		seen |= BIT(req[i] - mock->cqp_pool);
	}
	KUNIT_EXPECT_EQ(test, seen, 0xf);
	/* An empty pool hands out an allocated request, freed on put */
	KUNIT_EXPECT_TRUE(test, req[4]->dynamic);

	for (i = 0; i < ARRAY_SIZE(req); i++)
		irdma_put_cqp_request(cqp, req[i]);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock), 4);
}

/*
 * The CQP's request path completes what verbs.c will send it: an
 * ALLOC_STAG for a fast-register MR as the driver builds it, which the
 * hardware reads as such, then the same failing in its CQE.
 */
static void irdma_cqp_exec_alloc_stag(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_cqp *cqp = &mock->rf.cqp;
	struct irdma_allocate_stag_info *info;
	u64 seq = irdma_hw_model_wqes(mock->hw);
	struct irdma_cqp_request *req;
	struct irdma_hw_wqe w;
	int round;
	u32 pd;

	for (round = 0; round < 2; round++) {
		req = irdma_alloc_and_get_cqp_request(cqp, true);
		KUNIT_ASSERT_NOT_NULL(test, req);
		info = &req->info.in.u.alloc_stag.info;
		info->page_size = PAGE_SIZE;
		info->stag_idx = 42;
		info->pd_id = mock->pd.sc_pd.pd_id;
		info->total_len = 32 * PAGE_SIZE;
		info->remote_access = true;
		req->info.cqp_cmd = IRDMA_OP_ALLOC_STAG;
		req->info.post_sq = 1;
		req->info.in.u.alloc_stag.dev = &mock->rf.sc_dev;
		req->info.in.u.alloc_stag.scratch = (uintptr_t)req;
		if (round)
			irdma_hw_model_fail_next(mock->hw,
						 IRDMA_HW_OP_ALLOC_STAG,
						 MR_TEST_MAJ, MR_TEST_MIN);

		KUNIT_EXPECT_EQ(test, irdma_handle_cqp_op(&mock->rf, req),
				round ? -EIO : 0);
		KUNIT_EXPECT_EQ(test, req->compl_info.error, !!round);
		KUNIT_EXPECT_EQ(test, req->compl_info.maj_err_code,
				round ? MR_TEST_MAJ : 0);
		KUNIT_EXPECT_EQ(test, req->compl_info.min_err_code,
				round ? MR_TEST_MIN : 0);
		/* The caller's reference is still the only one */
		KUNIT_EXPECT_EQ(test, refcount_read(&req->refcnt), 1);
		irdma_put_cqp_request(cqp, req);
	}

	KUNIT_ASSERT_EQ(test, irdma_hw_model_wqes(mock->hw), seq + 2);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_wqe(mock->hw, seq, &w));
	KUNIT_EXPECT_EQ(test, w.opcode, IRDMA_HW_OP_ALLOC_STAG);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.stag.idx, 42);
	KUNIT_EXPECT_EQ(test, w.stag.len, 32 * PAGE_SIZE);
	KUNIT_EXPECT_TRUE(test, irdma_hw_model_stag(mock->hw, 42, &pd));
	KUNIT_EXPECT_EQ(test, pd, mock->pd.sc_pd.pd_id);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_ALLOC_STAG, &w);
	KUNIT_EXPECT_TRUE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.stag.idx, 42);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock), 16);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

/*
 * get_dma_mr: one REG_MR gives the hardware an STag over all of memory,
 * VA-based from VA 0 with length 0 (no bound) and no PBL, its page address
 * 0, with the rights asked in the PD.  Dereg gives the STag back through
 * DEALLOC_STAG: neither the model nor the driver holds it after.
 */
static void irdma_get_dma_mr_reg(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	u32 stags = bitmap_weight(mock->rf.allocated_mrs, mock->rf.max_mr);
	u32 pd_id = mock->pd.sc_pd.pd_id;
	struct irdma_hw_reg reg;
	struct irdma_hw_wqe w;
	struct ib_mr *mr;
	u32 idx, pd;

	mr = ibdev->ops.get_dma_mr(&mock->pd.ibpd,
				   IB_ACCESS_LOCAL_WRITE |
				   IB_ACCESS_REMOTE_READ |
				   IB_ACCESS_REMOTE_WRITE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	mr->device = ibdev;
	mr->pd = &mock->pd.ibpd;
	KUNIT_EXPECT_EQ(test, mr->lkey, mr->rkey);
	idx = mr->rkey >> 8;
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_REG_MR, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_reg(mock->hw, idx, &reg));
	KUNIT_EXPECT_EQ(test, reg.key, (u8)mr->rkey);
	KUNIT_EXPECT_EQ(test, reg.pd, pd_id);
	KUNIT_EXPECT_TRUE(test, reg.va_based);
	KUNIT_EXPECT_EQ(test, reg.va, 0);
	KUNIT_EXPECT_EQ(test, reg.len, 0);
	KUNIT_EXPECT_EQ(test, reg.pbl_size, 0);
	KUNIT_EXPECT_EQ(test, reg.pa, 0);
	KUNIT_EXPECT_EQ(test, reg.rights,
			MR_TEST_HW_LOCAL_READ | MR_TEST_HW_LOCAL_WRITE |
			MR_TEST_HW_REMOTE_READ | MR_TEST_HW_REMOTE_WRITE);
	KUNIT_EXPECT_TRUE(test, reg.remote);

	KUNIT_ASSERT_EQ(test, ibdev->ops.dereg_mr(mr, NULL), 0);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_DEALLOC_STAG, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.stag.idx, idx);
	KUNIT_EXPECT_EQ(test, w.stag.pd, pd_id);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_stag(mock->hw, idx, &pd));
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_reg(mock->hw, idx, &reg));
	KUNIT_EXPECT_EQ(test, bitmap_weight(mock->rf.allocated_mrs,
					    mock->rf.max_mr), stags);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock), 16);
}

/* The SQ tail the hardware last wrote into @uk's doorbell shadow area */
static u32 shadow_sq_tail(struct irdma_qp_uk *uk)
{
	return FIELD_GET(IRDMA_QP_DBSA_HW_SQ_TAIL,
			 le64_to_cpu(READ_ONCE(uk->shadow_area[0])));
}

/*
 * A QP's SQ in memory: iWARP's connection WQEs at the head, the
 * hardware's SQ tail in the doorbell shadow area, where it stopped, and
 * a doorbell the driver rings only when that tail has reached the first
 * WQE it has not rung for: a busy hardware takes the rest without one.
 */
static void irdma_qp_sq_in_memory(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, NULL);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	struct ib_sge sge = { .addr = 0x1000, .length = 8, .lkey = 0x100 };
	struct irdma_post_sq_info info = {
		.op_type = IRDMA_OP_TYPE_RDMA_WRITE,
		.op.rdma_write = { .lo_sg_list = &sge, .num_lo_sges = 1,
				   .rem_addr = { .addr = 0x2000,
						 .lkey = 0x200 } },
	};
	u32 head;

	KUNIT_EXPECT_GE(test, IRDMA_RING_SIZE(uk->sq_ring), 512);
	KUNIT_EXPECT_EQ(test, uk->conn_wqes, 3);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(uk->sq_ring), 3);
	KUNIT_EXPECT_EQ(test, uk->swqe_polarity, 1);
	KUNIT_EXPECT_EQ(test, (uintptr_t)uk->wqe_alloc_db,
			(uintptr_t)mock->bar + PFPE_WQEALLOC);
	KUNIT_EXPECT_NE(test, uk->qp_id, 0);
	/* Past the connection WQEs on the way to RTS */
	KUNIT_EXPECT_EQ(test, shadow_sq_tail(uk), 3);

	/* Idle: the WQE rings the doorbell with the QP's number, is taken */
	irdma_mock_set_reg(mock, IRDMA_WQEALLOC, 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_rdma_write(uk, &info, true), 0);
	head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring);
	KUNIT_EXPECT_EQ(test, irdma_mock_reg(mock, IRDMA_WQEALLOC), uk->qp_id);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_doorbells(mock->hw, uk->qp_id),
			1);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_tail(mock->hw, uk->qp_id),
			head);
	KUNIT_EXPECT_EQ(test, shadow_sq_tail(uk), head);

	/*
	 * Busy: the next WQE is rung for, but the hardware's tail stays
	 * where it was; the one after it is not rung for
	 */
	irdma_hw_model_sq_hold(mock->hw, uk->qp_id, true);
	KUNIT_ASSERT_EQ(test, irdma_uk_rdma_write(uk, &info, true), 0);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_doorbells(mock->hw, uk->qp_id),
			2);
	irdma_mock_set_reg(mock, IRDMA_WQEALLOC, 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_rdma_write(uk, &info, true), 0);
	KUNIT_EXPECT_EQ(test, irdma_mock_reg(mock, IRDMA_WQEALLOC), 0);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_doorbells(mock->hw, uk->qp_id),
			2);
	KUNIT_EXPECT_EQ(test, shadow_sq_tail(uk), head);

	/* Free again, it takes both, doorbell or not, and says so */
	irdma_hw_model_sq_hold(mock->hw, uk->qp_id, false);
	head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_tail(mock->hw, uk->qp_id),
			head);
	KUNIT_EXPECT_EQ(test, shadow_sq_tail(uk), head);

	/*
	 * Without a doorbell, as post_send builds its WQEs, then rung once
	 * for all of them, as post_send rings it
	 */
	KUNIT_ASSERT_EQ(test, irdma_uk_rdma_write(uk, &info, false), 0);
	KUNIT_ASSERT_EQ(test, irdma_uk_rdma_write(uk, &info, false), 0);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_doorbells(mock->hw, uk->qp_id),
			2);
	irdma_uk_qp_post_wr(uk);
	head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_doorbells(mock->hw, uk->qp_id),
			3);
	KUNIT_EXPECT_EQ(test, irdma_mock_reg(mock, IRDMA_WQEALLOC), uk->qp_id);
	KUNIT_EXPECT_EQ(test, shadow_sq_tail(uk), head);
}

/* How many 32-byte quanta an SQ WQE of so many fragments takes */
struct quanta_case {
	const char *name;
	u32 frags;
	int ret;
	u16 quanta;
};

static const struct quanta_case quanta_cases[] = {
	{ "no fragment", 0, 0, 1 },
	{ "1 fragment", 1, 0, 1 },
	{ "2 fragments", 2, 0, 2 },
	{ "3 fragments", 3, 0, 2 },
	{ "4 fragments", 4, 0, 3 },
	{ "7 fragments", 7, 0, 4 },
	{ "13 fragments, the most SGEs", 13, 0, 7 },
	{ "14 fragments, 13 SGEs and immediate data", 14, 0, 8 },
	{ "15 fragments", 15, 0, 8 },
	{ "16 fragments: too many", 16, -EINVAL, 0 },
};

KUNIT_ARRAY_PARAM_DESC(quanta, quanta_cases, name);

static void irdma_sq_wqe_quanta(struct kunit *test)
{
	const struct quanta_case *c = test->param_value;
	u16 quanta = 0;

	KUNIT_ASSERT_EQ(test, irdma_fragcnt_to_quanta_sq(c->frags, &quanta),
			c->ret);
	if (!c->ret)
		KUNIT_EXPECT_EQ(test, quanta, c->quanta);
	/* Never more than the hardware puts in one WQE */
	KUNIT_EXPECT_LE(test, quanta, IRDMA_MAX_QUANTA_PER_WR);
}

/* An RDMA WRITE or READ WQE with a number of local SGEs */
struct rw_case {
	const char *name;
	bool read;
	bool inv;
	bool signaled;
	bool fence;
	u32 nsge;
	u16 quanta;
};

static const struct rw_case rw_cases[] = {
	{ "WRITE, 1 SGE", false, false, true, false, 1, 1 },
	{ "WRITE, 2 SGEs (padded)", false, false, false, false, 2, 2 },
	{ "WRITE, 3 SGEs", false, false, true, true, 3, 2 },
	{ "WRITE, 4 SGEs (padded)", false, false, true, false, 4, 3 },
	{ "WRITE, 13 SGEs", false, false, true, false, 13, 7 },
	{ "READ, 1 SGE", true, false, true, false, 1, 1 },
	{ "READ, 2 SGEs (padded)", true, false, true, true, 2, 2 },
	{ "READ, 13 SGEs", true, false, false, false, 13, 7 },
	{ "READ with invalidate, 1 SGE", true, true, true, false, 1, 1 },
};

KUNIT_ARRAY_PARAM_DESC(rw, rw_cases, name);

static void irdma_qp_rdma_rw_wqe(struct kunit *test)
{
	const struct rw_case *c = test->param_value;
	struct irdma_mock_qp_attr attr = { .max_sq_sge = 13 };
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, &attr);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	struct irdma_post_sq_info info = {};
	struct ib_sge sge[13];
	struct irdma_mock_wqe wqe;
	u32 head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring), at, i;
	int ret;

	for (i = 0; i < c->nsge; i++) {
		sge[i].addr = 0x100000ULL * (i + 1) + 8 * i;
		sge[i].length = 512 + i;
		sge[i].lkey = 0x1000 + i;
	}
	info.wr_id = 0xabcd0000 + c->nsge;
	info.signaled = c->signaled;
	info.read_fence = c->fence;
	if (c->read) {
		info.op_type = IRDMA_OP_TYPE_RDMA_READ;
		info.op.rdma_read.lo_sg_list = sge;
		info.op.rdma_read.num_lo_sges = c->nsge;
		info.op.rdma_read.rem_addr.addr = 0x7f0000001000ULL;
		info.op.rdma_read.rem_addr.lkey = 0x12345678;
		ret = irdma_uk_rdma_read(uk, &info, c->inv, false);
	} else {
		info.op_type = IRDMA_OP_TYPE_RDMA_WRITE;
		info.op.rdma_write.lo_sg_list = sge;
		info.op.rdma_write.num_lo_sges = c->nsge;
		info.op.rdma_write.rem_addr.addr = 0x7f0000001000ULL;
		info.op.rdma_write.rem_addr.lkey = 0x12345678;
		ret = irdma_uk_rdma_write(uk, &info, false);
	}
	KUNIT_ASSERT_EQ(test, ret, 0);

	/* A WQE never crosses an 8-quanta chunk: NOPs fill up the rest */
	at = c->quanta > 8 - head % 8 ? round_up(head, 8) : head;
	for (i = head; i < at; i++) {
		KUNIT_ASSERT_EQ(test, irdma_mock_sq_wqe(iwqp, i, &wqe), 0);
		KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMAQP_OP_NOP);
		KUNIT_EXPECT_EQ(test, wqe.valid, uk->swqe_polarity);
	}
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(uk->sq_ring),
			at + c->quanta);

	KUNIT_ASSERT_EQ(test, irdma_mock_sq_wqe(iwqp, at, &wqe), 0);
	KUNIT_EXPECT_EQ(test, wqe.opcode,
			!c->read ? IRDMAQP_OP_RDMA_WRITE :
			c->inv ? IRDMAQP_OP_RDMA_READ_LOC_INV :
			IRDMAQP_OP_RDMA_READ);
	KUNIT_EXPECT_EQ(test, wqe.quanta, c->quanta);
	KUNIT_EXPECT_EQ(test, wqe.valid, uk->swqe_polarity);
	KUNIT_EXPECT_EQ(test, wqe.signaled, c->signaled);
	KUNIT_EXPECT_EQ(test, wqe.read_fence, c->fence);
	KUNIT_EXPECT_FALSE(test, wqe.local_fence);
	KUNIT_EXPECT_EQ(test, wqe.rem_stag, 0x12345678);
	KUNIT_EXPECT_EQ(test, wqe.rem_to, 0x7f0000001000ULL);
	/* GEN2 pads an even number of fragments with a null one */
	KUNIT_EXPECT_EQ(test, wqe.addl_frags, c->nsge - 1 + !(c->nsge & 1));
	KUNIT_ASSERT_EQ(test, wqe.num_frags, c->nsge);
	for (i = 0; i < c->nsge; i++) {
		KUNIT_EXPECT_EQ(test, wqe.frag[i].addr, sge[i].addr);
		KUNIT_EXPECT_EQ(test, wqe.frag[i].length, sge[i].length);
		KUNIT_EXPECT_EQ(test, wqe.frag[i].lkey, sge[i].lkey);
	}
	KUNIT_EXPECT_EQ(test, uk->sq_wrtrk_array[at].wrid, info.wr_id);
	KUNIT_EXPECT_EQ(test, uk->sq_wrtrk_array[at].wr_len,
			c->nsge * 512 + c->nsge * (c->nsge - 1) / 2);
}

/* LOCAL_INVALIDATE names its target STag in the first fragment's slot */
static void irdma_qp_local_inv_wqe(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, NULL);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	u32 head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring);
	struct irdma_post_sq_info info = {
		.wr_id = 7,
		.op_type = IRDMA_OP_TYPE_INV_STAG,
		.signaled = true,
		.local_fence = true,
		.op.inv_local_stag.target_stag = 0x00abcd42,
	};
	struct irdma_mock_wqe wqe;

	KUNIT_ASSERT_EQ(test, irdma_uk_stag_local_invalidate(uk, &info, false),
			0);
	KUNIT_ASSERT_EQ(test, irdma_mock_sq_wqe(iwqp, head, &wqe), 0);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMAQP_OP_LOCAL_INVALIDATE);
	KUNIT_EXPECT_EQ(test, wqe.inv_stag, 0x00abcd42);
	KUNIT_EXPECT_EQ(test, wqe.quanta, 1);
	KUNIT_EXPECT_TRUE(test, wqe.signaled);
	KUNIT_EXPECT_TRUE(test, wqe.local_fence);
	KUNIT_EXPECT_EQ(test, wqe.valid, uk->swqe_polarity);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(uk->sq_ring), head + 1);
}

/*
 * FAST_REGISTER from a level-1 PBLE list, filled as irdma_set_page()
 * fills it: the WQE points the hardware at the list's first PBLE.
 */
static void irdma_qp_fast_reg_wqe(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, NULL);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	u32 head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring), i;
	struct irdma_fast_reg_stag_info info = {};
	struct irdma_pble_alloc palloc = {};
	struct irdma_mock_wqe wqe;

	KUNIT_ASSERT_EQ(test, irdma_get_pble(&mock->pble_rsrc, &palloc, 16, 0),
			0);
	KUNIT_ASSERT_EQ(test, palloc.level, PBLE_LEVEL_1);
	for (i = 0; i < 16; i++)
		palloc.level1.addr[i] = 0x40000000ULL + i * PAGE_SIZE;

	info.wr_id = 99;
	info.signaled = true;
	info.access_rights = IRDMA_ACCESS_FLAGS_LOCALREAD |
			     IRDMA_ACCESS_FLAGS_LOCALWRITE |
			     IRDMA_ACCESS_FLAGS_REMOTEWRITE;
	info.stag_key = 0x5a;
	info.stag_idx = 0x1234;
	info.page_size = PAGE_SIZE;
	info.addr_type = IRDMA_ADDR_TYPE_VA_BASED;
	info.va = (void *)0x40000200UL;
	info.total_len = 16 * PAGE_SIZE - 0x200;
	info.reg_addr_pa = *palloc.level1.addr;
	info.first_pm_pbl_index = palloc.level1.idx;
	info.local_fence = true;
	info.chunk_size = 1;
	KUNIT_ASSERT_EQ(test, irdma_sc_mr_fast_register(&iwqp->sc_qp, &info,
							false), 0);

	KUNIT_ASSERT_EQ(test, irdma_mock_sq_wqe(iwqp, head, &wqe), 0);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMAQP_OP_FAST_REGISTER);
	KUNIT_EXPECT_EQ(test, wqe.quanta, 1);
	KUNIT_EXPECT_EQ(test, wqe.fr_va, 0x40000200ULL);
	KUNIT_EXPECT_EQ(test, wqe.fr_len, 16 * PAGE_SIZE - 0x200);
	KUNIT_EXPECT_EQ(test, wqe.fr_key, 0x5a);
	KUNIT_EXPECT_EQ(test, wqe.fr_index, 0x1234);
	KUNIT_EXPECT_EQ(test, wqe.fr_rights, IRDMA_ACCESS_FLAGS_LOCALREAD |
			IRDMA_ACCESS_FLAGS_LOCALWRITE |
			IRDMA_ACCESS_FLAGS_REMOTEWRITE);
	KUNIT_EXPECT_TRUE(test, wqe.fr_va_based);
	KUNIT_EXPECT_EQ(test, wqe.fr_pbl_size, 1);
	KUNIT_EXPECT_EQ(test, wqe.fr_hpage_size, IRDMA_PAGE_SIZE_4K);
	KUNIT_EXPECT_EQ(test, wqe.fr_first_pble, palloc.level1.idx);
	KUNIT_EXPECT_EQ(test, wqe.fr_pbl_addr, 0x40000000ULL);
	KUNIT_EXPECT_TRUE(test, wqe.signaled);
	KUNIT_EXPECT_TRUE(test, wqe.local_fence);
	KUNIT_EXPECT_EQ(test, wqe.valid, uk->swqe_polarity);
	KUNIT_EXPECT_EQ(test, uk->sq_wrtrk_array[head].wrid, 99);

	irdma_free_pble(&mock->pble_rsrc, &palloc);
}

/*
 * Around the ring: a WQE that would cross an 8-quanta chunk is preceded
 * by NOPs, and the valid bit the WQEs carry flips at each wrap.
 */
static void irdma_qp_sq_wraps(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_qp *iwqp = irdma_mock_create_qp(mock, NULL);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	u32 size = IRDMA_RING_SIZE(uk->sq_ring), posted = 0, head, nops = 0;
	struct ib_sge sge[4] = {};
	struct irdma_post_sq_info info = {
		.op_type = IRDMA_OP_TYPE_RDMA_WRITE,
		.op.rdma_write = { .lo_sg_list = sge, .num_lo_sges = 4 },
	};
	struct irdma_mock_wqe wqe;
	u8 polarity = uk->swqe_polarity;

	/* 3-quanta WQEs, retired at once, until the head has wrapped */
	while (posted < size + 8) {
		head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring);
		KUNIT_ASSERT_EQ(test, irdma_uk_rdma_write(uk, &info, false),
				0);
		posted += (IRDMA_RING_CURRENT_HEAD(uk->sq_ring) - head + size) %
			  size;
		IRDMA_RING_SET_TAIL(uk->sq_ring,
				    IRDMA_RING_CURRENT_HEAD(uk->sq_ring));
	}
	KUNIT_EXPECT_NE(test, uk->swqe_polarity, polarity);

	/* Every 8-quanta chunk: NOPs, then WQEs that fit, none across */
	for (head = 0; head < IRDMA_RING_CURRENT_HEAD(uk->sq_ring);) {
		KUNIT_ASSERT_EQ(test, irdma_mock_sq_wqe(iwqp, head, &wqe), 0);
		KUNIT_EXPECT_EQ(test, wqe.valid, uk->swqe_polarity);
		if (wqe.opcode == IRDMAQP_OP_NOP) {
			nops++;
			head++;
			continue;
		}
		KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMAQP_OP_RDMA_WRITE);
		KUNIT_EXPECT_EQ(test, wqe.quanta, 3);
		KUNIT_EXPECT_LE(test, head % 8 + 3, 8);
		head += 3;
	}
	KUNIT_EXPECT_GT(test, nops, 0);
}

static struct kunit_case irdma_verbs_mr_cases[] = {
	KUNIT_CASE(irdma_mock_builds),
	KUNIT_CASE(irdma_mock_many),
	KUNIT_CASE_PARAM(irdma_pble_get, pble_gen_params),
	KUNIT_CASE(irdma_pble_grow_programs_sd),
	KUNIT_CASE(irdma_cqp_request_pool),
	KUNIT_CASE(irdma_cqp_exec_alloc_stag),
	KUNIT_CASE(irdma_get_dma_mr_reg),
	KUNIT_CASE(irdma_qp_sq_in_memory),
	KUNIT_CASE_PARAM(irdma_sq_wqe_quanta, quanta_gen_params),
	KUNIT_CASE_PARAM(irdma_qp_rdma_rw_wqe, rw_gen_params),
	KUNIT_CASE(irdma_qp_local_inv_wqe),
	KUNIT_CASE(irdma_qp_fast_reg_wqe),
	KUNIT_CASE(irdma_qp_sq_wraps),
	{}
};

static struct kunit_suite irdma_verbs_mr_suite = {
	.name = "irdma_verbs_mr",
	.test_cases = irdma_verbs_mr_cases,
};

kunit_test_suite(irdma_verbs_mr_suite);
