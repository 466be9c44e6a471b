// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite irdma_verbs_mr: memory registration on an irdma device
 * without hardware.
 */
#include <kunit/test.h>

#include "../main.h"

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
	KUNIT_CASE_PARAM(irdma_sq_wqe_quanta, quanta_gen_params),
	{}
};

static struct kunit_suite irdma_verbs_mr_suite = {
	.name = "irdma_verbs_mr",
	.test_cases = irdma_verbs_mr_cases,
};

kunit_test_suite(irdma_verbs_mr_suite);
