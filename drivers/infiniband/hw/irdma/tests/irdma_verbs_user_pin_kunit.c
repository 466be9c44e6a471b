// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_user_pin: how long the pages of a user CQ's or
 * QP's rings stay pinned and reachable by the hardware.  The registration
 * user space makes of its rings pins them; a CQ or QP created on them must
 * hold that registration's pages until it is destroyed, whatever user
 * space deregisters meanwhile, and a resized CQ moves its hold to the new
 * ring.  Judged by the mm's pinned-page count and by the pages the
 * firmware model was given.
 */
#include <kunit/test.h>
#include <linux/dma-direct.h>
#include <rdma/irdma-abi.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "irdma_user_env.h"

/*
 * Rings deregistered before create_qp are gone: create_qp finds none,
 * and the pages are unpinned.
 */
static void qp_rings_dereg_before_create(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	unsigned long rings = user_page(env, USER_QP_PAGE);
	struct irdma_create_cq_resp cq_resp;
	struct user_before before;
	struct ib_qp *qp;
	struct ib_mr *mr;
	struct ib_cq *cq;
	s64 pinned;

	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	pinned = user_pinned();
	mr = user_try_reg(env, &user_qp_reg, sizeof(user_qp_reg), rings,
			  USER_QP_PAGES * PAGE_SIZE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned + USER_QP_PAGES);
	KUNIT_EXPECT_EQ(test, mr->device->ops.dereg_mr(mr,
						       user_udata_none(env)),
			0);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned);

	user_save(env, IRDMA_MOCK_QPS, &before);
	qp = user_try_qp(env, cq, user_page(env, USER_QP_PAGE),
			 sizeof(struct irdma_create_qp_req),
			 sizeof(struct irdma_create_qp_resp));
	qp_expect_nothing(env, qp, -ENODATA, &before);
}

/* Destroying a user CQ and QP unpins nothing: their MRs hold the rings */
static void rings_pinned_until_dereg(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp cq_resp;
	struct irdma_create_qp_resp resp;
	s64 pinned = user_pinned();
	struct ib_cq *cq;

	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	user_qp(env, cq, USER_QP_PAGE, &resp);
	/* ring and shadow of the CQ, SQ, RQ and shadow of the QP */
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned + 2 + USER_QP_PAGES);
}

/*
 * The registrations of a live CQ's or QP's rings.  User space registers
 * them before the create, and nothing but the driver ties them to the
 * queue: the core lets user space deregister them at any time.  While
 * the hardware may write to a ring, its pages must stay pinned and the
 * PBLEs the queue's context names allocated, so dereg_mr refuses such a
 * registration with -EBUSY (as Linux does since a7d0a6b58256 and
 * f67d8a08f60c, "RDMA/irdma: Add refcounting to user ring MRs"); once
 * the queue is destroyed it deregisters and everything is given back.
 */

/*
 * dereg_mr of @c; when it succeeds the MR is gone, and the end of the test
 * must not deregister it again
 */
static int user_try_dereg(struct user_mr_ctx *c)
{
	struct kunit *test = c->env->test;
	int ret;

	ret = c->mr->device->ops.dereg_mr(c->mr, user_udata_none(c->env));
	if (!ret)
		kunit_remove_action(test, user_dereg, c);
	return ret;
}

static bool user_phys_pinned(phys_addr_t phys)
{
	return folio_maybe_dma_pinned(page_folio(pfn_to_page(PHYS_PFN(phys))));
}

/* Is the page the hardware reaches at @dma pinned, for the hardware? */
static void user_expect_dma_pinned(struct user_env *env, u64 dma)
{
	KUNIT_EXPECT_TRUE_MSG(env->test,
			      user_phys_pinned(dma_to_phys(env->mock->dev, dma)),
			      "the hardware writes to an unpinned page");
}

/* ... and the page at user address @va is no longer pinned */
static void user_expect_unpinned(struct user_env *env, unsigned long va)
{
	KUNIT_EXPECT_FALSE(env->test,
			   user_phys_pinned(user_phys(env->test, va)));
}

static const struct irdma_mem_reg_req user_cq_page_reg = {
	.reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = 1,
};

/*
 * The ucontext, then a CQ on rings of its own: its ring at USER_RING_PAGE
 * (@ring) and its shadow area at the page after it (@shadow), each
 * registered before the CQ is created over them.
 */
static struct user_cq_ctx *user_cq_on_rings(struct user_env *env,
					    struct user_mr_ctx **ring,
					    struct user_mr_ctx **shadow,
					    struct irdma_create_cq_resp *resp)
{
	struct kunit *test = env->test;

	user_open(env);
	/* E810 resizes CQs: the shadow area is a registration of its own */
	KUNIT_ASSERT_TRUE(test, env->feature_flags & IRDMA_FEATURE_CQ_RESIZE);
	*ring = user_reg_ctx(env, &user_cq_page_reg,
			     user_page(env, USER_RING_PAGE), PAGE_SIZE);
	*shadow = user_reg_ctx(env, &user_cq_page_reg,
			       user_page(env, USER_RING_PAGE + 1), PAGE_SIZE);
	return user_cq_ctx(env, USER_RING_PAGE, resp);
}

static void cq_rings_held_until_destroy(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct user_mr_ctx *ring, *shadow;
	struct irdma_create_cq_resp resp;
	struct user_cq_ctx *c;
	struct irdma_hw_cq hw;
	s64 pinned;

	pinned = user_pinned();
	c = user_cq_on_rings(env, &ring, &shadow, &resp);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_cq(env->mock->hw, resp.cq_id,
						  &hw));

	KUNIT_EXPECT_EQ(test, user_try_dereg(ring), -EBUSY);
	KUNIT_EXPECT_EQ(test, user_try_dereg(shadow), -EBUSY);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned + 2);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_cq(env->mock->hw, resp.cq_id,
						  &hw));
	user_expect_dma(env, hw.ring_pa, user_page(env, USER_RING_PAGE));
	user_expect_dma_pinned(env, hw.ring_pa);
	user_expect_dma(env, hw.shadow_pa, user_page(env, USER_RING_PAGE + 1));
	user_expect_dma_pinned(env, hw.shadow_pa);

	kunit_release_action(test, user_destroy_cq, c);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_cq(env->mock->hw, resp.cq_id,
						   &hw));
	/* user_dereg() expects both deregistrations to succeed now */
	kunit_release_action(test, user_dereg, ring);
	kunit_release_action(test, user_dereg, shadow);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned);
	user_expect_unpinned(env, user_page(env, USER_RING_PAGE));
	user_expect_unpinned(env, user_page(env, USER_RING_PAGE + 1));
}

static void qp_rings_held_until_destroy(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	unsigned long va = user_page(env, USER_QP_PAGE);
	struct irdma_create_cq_resp cq_resp;
	struct irdma_create_qp_resp resp;
	struct user_mr_ctx *rings;
	u64 pbles_freed;
	struct user_qp_ctx *c;
	struct irdma_hw_qp hw;
	struct ib_cq *cq;
	u64 page;
	s64 pinned;
	u32 i;

	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	pinned = user_pinned();
	rings = user_reg_ctx(env, &user_qp_reg, va, USER_QP_PAGES * PAGE_SIZE);
	c = user_qp_ctx(env, cq, USER_QP_PAGE, &resp);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_qp(env->mock->hw, resp.qp_id,
						  &hw));
	pbles_freed = env->mock->pble_rsrc.freedpbles;

	KUNIT_EXPECT_EQ(test, user_try_dereg(rings), -EBUSY);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned + USER_QP_PAGES);
	/* the PBLEs the QP's context names (virtual_map) are not freed */
	KUNIT_EXPECT_EQ(test, env->mock->pble_rsrc.freedpbles, pbles_freed);
	for (i = 0; i < USER_QP_SQ_PAGES; i++) {
		page = user_ring_page(env, hw.virtual_map, hw.sq_pa, i);
		user_expect_dma(env, page, va + i * PAGE_SIZE);
		user_expect_dma_pinned(env, page);
	}
	page = user_ring_page(env, hw.virtual_map, hw.rq_pa, 0);
	user_expect_dma(env, page, va + USER_QP_SQ_PAGES * PAGE_SIZE);
	user_expect_dma_pinned(env, page);
	user_expect_dma_pinned(env, hw.shadow_pa);

	kunit_release_action(test, user_destroy_qp, c);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(env->mock->hw, resp.qp_id,
						   &hw));
	kunit_release_action(test, user_dereg, rings);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned);
	if (hw.virtual_map)
		KUNIT_EXPECT_GT(test, env->mock->pble_rsrc.freedpbles,
				pbles_freed);
	for (i = 0; i < USER_QP_PAGES; i++)
		user_expect_unpinned(env, va + i * PAGE_SIZE);
}

/*
 * A resize moves the hold to the new ring: the old one, which the
 * hardware no longer writes, deregisters; the new one is refused until
 * the CQ is destroyed.
 */
static void cq_resize_moves_ring_hold(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct user_mr_ctx *ring, *shadow, *next;
	struct irdma_create_cq_resp resp;
	struct user_cq_ctx *c;
	struct irdma_hw_cq hw;
	s64 pinned;

	c = user_cq_on_rings(env, &ring, &shadow, &resp);
	next = user_reg_ctx(env, &user_cq_page_reg,
			    user_page(env, USER_RESIZE_PAGE), PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, user_try_resize(env, c->cq, USER_RESIZE_PAGE,
					      USER_CQ_CQES / 2), 0);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_cq(env->mock->hw, resp.cq_id,
						  &hw));
	user_expect_dma(env, hw.ring_pa, user_page(env, USER_RESIZE_PAGE));

	pinned = user_pinned();
	KUNIT_EXPECT_EQ(test, user_try_dereg(ring), 0);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned - 1);
	KUNIT_EXPECT_EQ(test, user_try_dereg(next), -EBUSY);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned - 1);
	user_expect_dma_pinned(env, hw.ring_pa);

	kunit_release_action(test, user_destroy_cq, c);
	kunit_release_action(test, user_dereg, next);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned - 2);
}

static struct kunit_case irdma_verbs_user_pin_cases[] = {
	KUNIT_CASE(qp_rings_dereg_before_create),
	KUNIT_CASE(rings_pinned_until_dereg),
	KUNIT_CASE(cq_rings_held_until_destroy),
	KUNIT_CASE(qp_rings_held_until_destroy),
	KUNIT_CASE(cq_resize_moves_ring_hold),
	{}
};

static struct kunit_suite irdma_verbs_user_pin_suite = {
	.name = "irdma_verbs_user_pin",
	.test_cases = irdma_verbs_user_pin_cases,
};

kunit_test_suite(irdma_verbs_user_pin_suite);
