// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite irdma_verbs_mr: memory registration on an irdma device
 * without hardware (the mock of irdma_mock.c).
 *
 * The mock device builds, and tears down with the test.
 */
#include <kunit/test.h>

#include "irdma_mock.h"
#include "../icrdma_hw.h"

/* The mock's default PBLE layout: 2 pages, then 8 more on demand */
#define HEAD_PBLES	(2 * PBLE_PER_PAGE)
#define TAIL_PBLES	(8 * PBLE_PER_PAGE)

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
	KUNIT_EXPECT_EQ(test, mock->sd_updates, 1);
	sd = &dev->hmc_info->sd_table.sd_entry[1];
	KUNIT_EXPECT_TRUE(test, sd->valid);
	KUNIT_EXPECT_EQ(test, sd->entry_type, IRDMA_SD_TYPE_PAGED);
	KUNIT_EXPECT_FALSE(test, dev->hmc_info->sd_table.sd_entry[2].valid);

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

static struct kunit_case irdma_verbs_mr_cases[] = {
	KUNIT_CASE(irdma_mock_builds),
	KUNIT_CASE(irdma_mock_many),
	KUNIT_CASE_PARAM(irdma_sq_wqe_quanta, quanta_gen_params),
	{}
};

static struct kunit_suite irdma_verbs_mr_suite = {
	.name = "irdma_verbs_mr",
	.test_cases = irdma_verbs_mr_cases,
};

kunit_test_suite(irdma_verbs_mr_suite);
