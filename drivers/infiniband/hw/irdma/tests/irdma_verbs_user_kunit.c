// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_user: the user-space verbs of irdma through the
 * entry points uverbs calls (alloc_ucontext, reg_user_mr, create_cq,
 * resize_cq and create_qp with a driver udata), in a user process of
 * irdma_user_env.h.  The cases judge the ABI of
 * include/uapi/rdma/irdma-abi.h and what the firmware model was told: the
 * pages a CQ or QP created from user rings points the hardware at must be
 * the pinned pages of those rings, and so must the pages of a MEM region,
 * which REG_MR gives it.  A verb that fails must give back its IDs and CQP
 * requests and leave no page pinned.
 */
#include <kunit/test.h>
#include <linux/dma-direct.h>
#include <rdma/irdma-abi.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "irdma_user_env.h"

/* A MEM region: bytes into its first page, and the pages it spans */
#define USER_MEM_PAGE		8
#define USER_MEM_OFF		256
#define USER_MEM_PAGES		4

/* The access rights of REG_MR's WQE, as the hardware reads them */
#define USER_HW_LOCAL_READ	BIT(0)
#define USER_HW_LOCAL_WRITE	BIT(1)

/* E810's doorbell page in BAR 0: 64 KiB below its 8 MiB */
#define E810_DB_BAR_OFFSET	(SZ_8M - SZ_64K)

/*
 * rdma-core's provider (ABI 5) and an older irdma one (ABI 4) both get
 * the E810's limits and a doorbell page to map.
 */
static void uctx_abi_accepted(struct kunit *test)
{
	const u8 *ver = test->param_value;
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_alloc_ucontext_req req = user_uctx_req(*ver);
	struct irdma_alloc_ucontext_resp resp;
	struct irdma_user_mmap_entry *db;
	struct rdma_user_mmap_entry *e;
	struct ib_ucontext *uctx;

	KUNIT_ASSERT_EQ(test, user_try_ucontext(env,
						user_udata(env, &req,
							   sizeof(req),
							   sizeof(resp)),
						&uctx), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							user_dealloc_ucontext,
							uctx), 0);
	user_resp(env, &resp, sizeof(resp));
	KUNIT_EXPECT_EQ(test, resp.kernel_ver, IRDMA_ABI_VER);
	KUNIT_EXPECT_EQ(test, resp.hw_rev, IRDMA_GEN_2);
	KUNIT_EXPECT_EQ(test, resp.max_hw_wq_frags, IRDMA_MAX_WQ_FRAGMENT_COUNT);
	KUNIT_EXPECT_EQ(test, resp.max_hw_read_sges, IRDMA_MAX_SGE_RD);
	KUNIT_EXPECT_EQ(test, resp.max_hw_inline, IRDMA_MAX_INLINE_DATA_SIZE);
	KUNIT_EXPECT_EQ(test, resp.max_hw_rq_quanta, IRDMA_QP_SW_MAX_RQ_QUANTA);
	KUNIT_EXPECT_EQ(test, resp.max_hw_wq_quanta, IRDMA_QP_SW_MAX_WQ_QUANTA);
	KUNIT_EXPECT_EQ(test, resp.max_hw_sq_chunk, IRDMA_MAX_QUANTA_PER_WR);
	KUNIT_EXPECT_EQ(test, resp.min_hw_cq_size, IRDMA_MIN_CQ_SIZE);
	KUNIT_EXPECT_EQ(test, resp.max_hw_cq_size, IRDMA_MAX_CQ_SIZE);
	KUNIT_EXPECT_TRUE(test, resp.comp_mask & IRDMA_ALLOC_UCTX_USE_RAW_ATTR);
	KUNIT_EXPECT_TRUE(test,
			  resp.comp_mask & IRDMA_ALLOC_UCTX_MIN_HW_WQ_SIZE);
	KUNIT_EXPECT_GT(test, resp.min_hw_wq_size, 0);

	/* the key mmap() is called with finds the doorbell page, uncached */
	KUNIT_EXPECT_EQ(test, resp.db_mmap_key % PAGE_SIZE, 0);
	e = rdma_user_mmap_entry_get_pgoff(uctx,
					   resp.db_mmap_key >> PAGE_SHIFT);
	KUNIT_ASSERT_NOT_NULL(test, e);
	db = container_of(e, struct irdma_user_mmap_entry, rdma_entry);
	KUNIT_EXPECT_EQ(test, db->bar_offset, E810_DB_BAR_OFFSET);
	KUNIT_EXPECT_EQ(test, db->mmap_flag, IRDMA_MMAP_IO_NC);
	KUNIT_EXPECT_EQ(test, e->npages, 1);
	rdma_user_mmap_entry_put(e);
}

static const u8 uctx_good_abi[] = { 4, IRDMA_ABI_VER };

static void uctx_abi_desc(const u8 *ver, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "abi_%u", *ver);
}

KUNIT_ARRAY_PARAM(uctx_good_abi, uctx_good_abi, uctx_abi_desc);

/* ABI versions irdma never had are refused, with nothing published */
static void uctx_abi_refused(struct kunit *test)
{
	const u8 *ver = test->param_value;
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_alloc_ucontext_req req = user_uctx_req(*ver);
	struct irdma_alloc_ucontext_resp resp;
	struct ib_udata *udata;
	struct ib_ucontext *uctx;

	udata = user_udata(env, &req, sizeof(req), sizeof(resp));
	KUNIT_EXPECT_EQ(test, user_try_ucontext(env, udata, &uctx), -EINVAL);
	user_resp(env, &resp, sizeof(resp));
	KUNIT_EXPECT_EQ(test, resp.kernel_ver, 0);
}

static const u8 uctx_bad_abi[] = { 0, 3, IRDMA_ABI_VER + 1, 0xff };

KUNIT_ARRAY_PARAM(uctx_bad_abi, uctx_bad_abi, uctx_abi_desc);

/*
 * libi40iw's response, which ends at rsvd, asks for the GEN_1 ABI: an
 * E810 cannot give it.
 */
static void uctx_legacy_resp_refused(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_alloc_ucontext_req req = user_uctx_req(4);
	struct ib_ucontext *uctx;
	struct ib_udata *udata;

	udata = user_udata(env, &req, sizeof(req),
			   offsetofend(struct irdma_alloc_ucontext_resp, rsvd));
	KUNIT_EXPECT_EQ(test, user_try_ucontext(env, udata, &uctx),
			-EOPNOTSUPP);
}

/* A request shorter than its ABI version, or no room for a response */
static void uctx_short_udata(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_alloc_ucontext_req req = user_uctx_req(IRDMA_ABI_VER);
	struct irdma_alloc_ucontext_resp resp;
	struct ib_ucontext *uctx;
	struct ib_udata *udata;

	udata = user_udata(env, &req, offsetof(typeof(req), userspace_ver),
			   sizeof(resp));
	KUNIT_EXPECT_EQ(test, user_try_ucontext(env, udata, &uctx), -EINVAL);
	udata = user_udata(env, &req, sizeof(req), sizeof(u32));
	KUNIT_EXPECT_EQ(test, user_try_ucontext(env, udata, &uctx), -EINVAL);
}

/* dealloc_ucontext takes the doorbell page back from mmap() */
static void uctx_dealloc_unpublishes(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_alloc_ucontext_req req = user_uctx_req(IRDMA_ABI_VER);
	struct irdma_alloc_ucontext_resp resp;
	struct ib_ucontext *uctx;
	struct ib_udata *udata;

	udata = user_udata(env, &req, sizeof(req), sizeof(resp));
	KUNIT_ASSERT_EQ(test, user_try_ucontext(env, udata, &uctx), 0);
	KUNIT_EXPECT_FALSE(test, xa_empty(&uctx->mmap_xa));
	uctx->device->ops.dealloc_ucontext(uctx);
	KUNIT_EXPECT_TRUE(test, xa_empty(&uctx->mmap_xa));
	user_free_ucontext(uctx);
}

/*
 * A CQ on a registered user ring: the hardware writes its CQEs into the
 * pinned ring page and its shadow area into the page registered for it.
 */
static void cq_on_user_ring(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp resp;
	struct irdma_hw_cq hw;
	struct ib_cq *cq;

	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &resp);
	KUNIT_EXPECT_EQ(test, resp.cq_id, to_iwcq(cq)->cq_num);
	KUNIT_EXPECT_GE(test, resp.cq_size, USER_CQ_CQES);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_cq(env->mock->hw, resp.cq_id,
						  &hw));
	KUNIT_EXPECT_EQ(test, hw.size, resp.cq_size);
	user_expect_dma(env, hw.ring_pa, user_page(env, USER_RING_PAGE));
	user_expect_dma(env, hw.shadow_pa, user_page(env, USER_RING_PAGE + 1));
}

static void user_expect_ring(struct user_env *env, bool vq, u64 pa,
			     unsigned long va, u32 pages)
{
	u32 i;

	for (i = 0; i < pages; i++)
		user_expect_dma(env, user_ring_page(env, vq, pa, i),
				va + i * PAGE_SIZE);
}

/*
 * A QP on registered user rings: each page of the SQ and RQ the hardware
 * is given is the pinned page of the ring user space registered, the
 * shadow area the page after them, and each ring fits its pages.
 */
static void qp_on_user_rings(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp cq_resp;
	struct irdma_create_qp_resp resp;
	unsigned long rings;
	struct irdma_hw_qp hw;
	struct ib_qp *qp;
	struct ib_cq *cq;

	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	qp = user_qp(env, cq, USER_QP_PAGE, &resp);
	rings = user_page(env, USER_QP_PAGE);
	KUNIT_EXPECT_EQ(test, resp.qp_id, qp->qp_num);
	KUNIT_EXPECT_GT(test, resp.actual_sq_size, 0);
	KUNIT_EXPECT_GT(test, resp.actual_rq_size, 0);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_qp(env->mock->hw, resp.qp_id,
						  &hw));
	KUNIT_EXPECT_EQ(test, hw.send_cq, cq_resp.cq_id);
	KUNIT_EXPECT_EQ(test, hw.recv_cq, cq_resp.cq_id);
	KUNIT_EXPECT_EQ(test, hw.comp_ctx, 0x1234);
	KUNIT_EXPECT_LE(test, hw.sq_quanta * 32,
			USER_QP_SQ_PAGES * PAGE_SIZE);
	KUNIT_EXPECT_LE(test, hw.rq_quanta * 32,
			USER_QP_RQ_PAGES * PAGE_SIZE);
	user_expect_ring(env, hw.virtual_map, hw.sq_pa, rings,
			 USER_QP_SQ_PAGES);
	user_expect_ring(env, hw.virtual_map, hw.rq_pa,
			 rings + USER_QP_SQ_PAGES * PAGE_SIZE, USER_QP_RQ_PAGES);
	user_expect_dma(env, hw.shadow_pa,
			rings + (USER_QP_PAGES - 1) * PAGE_SIZE);
}

/* A failed create_cq took no ID, CQP request or pin */
static void cq_expect_nothing(struct user_env *env, struct ib_cq *cq,
			      int err, const struct user_before *before)
{
	KUNIT_EXPECT_EQ(env->test, PTR_ERR_OR_ZERO(cq), err);
	/* a CQ made in spite of the bad input must not outlive the test */
	if (!IS_ERR(cq))
		ib_destroy_cq_user(cq, user_udata_none(env));
	irdma_mock_expect_ids(env->mock, &before->ids);
	KUNIT_EXPECT_EQ(env->test, user_pinned(), before->pinned);
}

/**
 * struct create_bad - a user create_cq or create_qp the driver must refuse
 * @name: what is wrong
 * @qp: a QP, on a CQ of its own, rather than a CQ
 * @reg: the rings registered before the create, none if its reg_type
 *	is 0: a CQ's ring of @reg.cq_pages pages at USER_RING_PAGE, or a
 *	QP's SQ and RQ of @reg.sq_pages and @reg.rq_pages at USER_QP_PAGE,
 *	each with its shadow area
 * @inlen: the request's length in the udata, 0 for all of it
 * @outlen: the room for the response, 0 for all of it
 * @cqe: the CQEs a CQ asks for
 * @err: the errno
 */
struct create_bad {
	const char *name;
	bool qp;
	struct irdma_mem_reg_req reg;
	size_t inlen;
	size_t outlen;
	int cqe;
	int err;
};

#define CQ_RING(pages)	{ .reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = (pages) }
#define QP_RINGS(sq, rq) \
	{ .reg_type = IRDMA_MEMREG_TYPE_QP, .sq_pages = (sq), .rq_pages = (rq) }

static const struct create_bad create_bad_cases[] = {
	/* create_cq with no ring registered at user_cq_buf */
	{ "cq_no_registered_ring", .cqe = USER_CQ_CQES, .err = -EPROTO },
	/* a request without user_cq_buf, or no room for the response */
	{ "cq_short_request", .reg = CQ_RING(1),
	  .inlen = sizeof(u32), .cqe = USER_CQ_CQES, .err = -EINVAL },
	{ "cq_short_response", .reg = CQ_RING(1),
	  .outlen = sizeof(u32), .cqe = USER_CQ_CQES, .err = -EINVAL },
	/* twice the CQEs its one registered ring page holds */
	{ "cq_ring_smaller_than_queue", .reg = CQ_RING(1),
	  .cqe = 2 * USER_CQ_CQES, .err = -EINVAL },
	/* create_qp with no rings registered at user_wqe_bufs */
	{ "qp_no_registered_rings", .qp = true, .err = -ENODATA },
	/* a request cut short, or a response buffer too small */
	{ "qp_short_request", .qp = true,
	  .reg = QP_RINGS(USER_QP_SQ_PAGES, USER_QP_RQ_PAGES),
	  .inlen = sizeof(u32), .err = -EINVAL },
	{ "qp_short_response", .qp = true,
	  .reg = QP_RINGS(USER_QP_SQ_PAGES, USER_QP_RQ_PAGES),
	  .outlen = sizeof(u8), .err = -EINVAL },
	/*
	 * One page of SQ and one of RQ for the QP of user_qp_attr(), whose
	 * SQ takes 16 KiB: the hardware would be given an SQ past the pinned
	 * pages.
	 */
	{ "qp_rings_smaller_than_queues", .qp = true, .reg = QP_RINGS(1, 1),
	  .err = -EINVAL },
};

static void create_bad_desc(const struct create_bad *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(create_bad, create_bad_cases, create_bad_desc);

static void create_bad_cq(struct user_env *env, const struct create_bad *c)
{
	size_t outlen = c->outlen ?: sizeof(struct irdma_create_cq_resp);
	struct irdma_create_cq_req req;
	struct user_before before;
	struct ib_cq *cq;

	if (c->reg.reg_type)
		user_reg_cq_rings(env, USER_RING_PAGE, c->reg.cq_pages);
	req = user_cq_req(env, USER_RING_PAGE, c->reg.cq_pages ?: 1);
	user_save(env, IRDMA_MOCK_CQS, &before);
	cq = user_try_cq(env, &req, c->inlen ?: sizeof(req), outlen, c->cqe);
	cq_expect_nothing(env, cq, c->err, &before);
}

static void create_bad_qp(struct user_env *env, const struct create_bad *c)
{
	size_t inlen = c->inlen ?: sizeof(struct irdma_create_qp_req);
	size_t outlen = c->outlen ?: sizeof(struct irdma_create_qp_resp);
	unsigned long rings = user_page(env, USER_QP_PAGE);
	struct irdma_create_cq_resp cq_resp;
	struct user_before before;
	struct ib_qp *qp;
	struct ib_cq *cq;

	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	if (c->reg.reg_type)
		user_reg(env, &c->reg, rings,
			 (c->reg.sq_pages + c->reg.rq_pages + 1) * PAGE_SIZE);
	user_save(env, IRDMA_MOCK_QPS, &before);
	qp = user_try_qp(env, cq, rings, inlen, outlen);
	qp_expect_nothing(env, qp, c->err, &before);
}

/*
 * Each refused create_cq or create_qp is refused with its errno, and
 * with the IDs, CQP requests and pinned pages as they were before it.
 */
static void create_refused(struct kunit *test)
{
	const struct create_bad *c = test->param_value;
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);

	user_open(env);
	if (c->qp)
		create_bad_qp(env, c);
	else
		create_bad_cq(env, c);
}

/* A CQ's new ring of @pages pages at @page, registered for a resize */
static void user_reg_resize_ring(struct user_env *env, u32 page, u16 pages)
{
	struct irdma_mem_reg_req req = {
		.reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = pages,
	};

	user_reg(env, &req, user_page(env, page), pages * PAGE_SIZE);
}

/*
 * A resize of a user CQ onto a new registered ring: through MODIFY_CQ the
 * hardware is given the pinned page of that ring, and a CQ that holds the
 * CQEs asked for and fits the page; the shadow area stays.
 */
static void cq_resize_on_user_ring(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp resp;
	struct irdma_hw_cq hw;
	struct ib_cq *cq;

	user_open(env);
	/* first, so that the CQ on it is destroyed before it is deregistered */
	user_reg_resize_ring(env, USER_RESIZE_PAGE, 1);
	cq = user_cq(env, USER_RING_PAGE, &resp);
	KUNIT_ASSERT_EQ(test, user_try_resize(env, cq, USER_RESIZE_PAGE,
					      USER_CQ_CQES / 2), 0);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_cq(env->mock->hw, resp.cq_id,
						  &hw));
	KUNIT_EXPECT_EQ(test, hw.resizes, 1);
	KUNIT_EXPECT_GE(test, hw.size, USER_CQ_CQES / 2);
	KUNIT_EXPECT_LE(test, hw.size, USER_CQ_CQES);
	user_expect_dma(env, hw.ring_pa, user_page(env, USER_RESIZE_PAGE));
	user_expect_dma(env, hw.shadow_pa, user_page(env, USER_RING_PAGE + 1));
}

/*
 * A resize to twice the CQEs the new ring's one registered page holds:
 * refused before any MODIFY_CQ, the CQ on its old ring, and its IDs, CQP
 * requests and pinned pages as they were.
 */
static void cq_resize_ring_smaller_than_queue(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp resp;
	struct user_before before;
	struct irdma_hw_cq hw;
	struct ib_cq *cq;

	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &resp);
	user_reg_resize_ring(env, USER_RESIZE_PAGE, 1);
	user_save(env, IRDMA_MOCK_CQS, &before);
	KUNIT_EXPECT_EQ(test, user_try_resize(env, cq, USER_RESIZE_PAGE,
					      2 * USER_CQ_CQES), -EINVAL);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_cq(env->mock->hw, resp.cq_id,
						  &hw));
	KUNIT_EXPECT_EQ(test, hw.resizes, 0);
	KUNIT_EXPECT_EQ(test, hw.size, resp.cq_size);
	user_expect_dma(env, hw.ring_pa, user_page(env, USER_RING_PAGE));
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env->mock->hw,
						      IRDMA_HW_OP_MODIFY_CQ),
			0);
	irdma_mock_expect_ids(env->mock, &before.ids);
	KUNIT_EXPECT_EQ(test, user_pinned(), before.pinned);
}

/* A failed reg_user_mr pinned nothing and took no STag or PBLE */
static void reg_expect_nothing(struct user_env *env, struct ib_mr *mr,
			       int err, s64 pinned, u32 pble_unalloc)
{
	struct kunit *test = env->test;

	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), err);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned);
	KUNIT_EXPECT_EQ(test, (u32)env->mock->pble_rsrc.unallocated_pble,
			pble_unalloc);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env->mock->hw,
						      IRDMA_HW_OP_ALLOC_STAG),
			0);
}

/**
 * struct reg_bad - a reg_user_mr the driver must refuse
 * @name: what is wrong
 * @req: the request
 * @inlen: its length in the udata
 * @page: where the registration starts, in pages of the mapping
 * @off: and bytes into that page
 * @len: its length
 * @err: the errno
 */
struct reg_bad {
	const char *name;
	struct irdma_mem_reg_req req;
	size_t inlen;
	u32 page;
	u32 off;
	u64 len;
	int err;
};

static const struct reg_bad reg_bad_cases[] = {
	{ "short_udata", { .reg_type = IRDMA_MEMREG_TYPE_QP, .sq_pages = 1,
			   .rq_pages = 1 },
	  offsetof(struct irdma_mem_reg_req, sq_pages), 1, 0,
	  3 * PAGE_SIZE, -EINVAL },
	{ "bad_reg_type", { .reg_type = 3, .cq_pages = 1 },
	  sizeof(struct irdma_mem_reg_req), 1, 0, 2 * PAGE_SIZE, -EINVAL },
	{ "qp_unaligned", { .reg_type = IRDMA_MEMREG_TYPE_QP, .sq_pages = 1,
			    .rq_pages = 1 },
	  sizeof(struct irdma_mem_reg_req), 1, 64, 3 * PAGE_SIZE, -EINVAL },
	{ "qp_no_shadow", { .reg_type = IRDMA_MEMREG_TYPE_QP, .sq_pages = 1,
			    .rq_pages = 1 },
	  sizeof(struct irdma_mem_reg_req), 1, 0, 2 * PAGE_SIZE, -EINVAL },
	{ "qp_too_small", { .reg_type = IRDMA_MEMREG_TYPE_QP, .sq_pages = 4,
			    .rq_pages = 4 },
	  sizeof(struct irdma_mem_reg_req), 1, 0, 3 * PAGE_SIZE, -EINVAL },
	{ "cq_too_small", { .reg_type = IRDMA_MEMREG_TYPE_CQ,
			    .cq_pages = 4 },
	  sizeof(struct irdma_mem_reg_req), 1, 0, 2 * PAGE_SIZE, -EINVAL },
};

static void reg_bad_desc(const struct reg_bad *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(reg_bad, reg_bad_cases, reg_bad_desc);

/* Each refused registration is refused with nothing held */
static void reg_user_mr_refused(struct kunit *test)
{
	const struct reg_bad *c = test->param_value;
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	unsigned long va;
	u32 pble_unalloc;
	struct ib_mr *mr;
	s64 pinned;

	user_open(env);
	va = user_page(env, c->page) + c->off;
	pinned = user_pinned();
	pble_unalloc = env->mock->pble_rsrc.unallocated_pble;
	mr = user_try_reg(env, &c->req, c->inlen, va, c->len);
	reg_expect_nothing(env, mr, c->err, pinned, pble_unalloc);
}

/* ... and the byte behind user address @u, not only its page */
static void user_expect_byte(struct user_env *env, u64 dma, unsigned long u)
{
	KUNIT_EXPECT_EQ(env->test, (u64)dma_to_phys(env->mock->dev, dma),
			(u64)user_phys(env->test, u) + offset_in_page(u));
}

/*
 * The address the hardware reaches user address @u of a region at: its
 * page of the region, as the model followed the PBL (or the page address
 * of a PBL-less region), and the offset in that page.
 */
static u64 user_reg_addr(struct user_env *env, u32 idx,
			 const struct irdma_hw_reg *reg, unsigned long va,
			 unsigned long u)
{
	u64 rel = (reg->va & (reg->page_size - 1)) + (u - va);
	u64 page = irdma_hw_model_reg_page(env->mock->hw, idx,
					   rel / reg->page_size);

	KUNIT_ASSERT_NE(env->test, page, U64_MAX);
	return page + rel % reg->page_size;
}

/*
 * A MEM region over user pages: one REG_MR gives the hardware the
 * region's VA, length and rights in the PD, and each byte of it is in
 * the pinned page of the user's buffer.  Dereg gives the STag back
 * through DEALLOC_STAG, unpins the pages and frees the PBLEs.
 */
static void reg_user_mr_mem(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	const struct irdma_mem_reg_req req = {
		.reg_type = IRDMA_MEMREG_TYPE_MEM,
	};
	unsigned long va = user_page(env, USER_MEM_PAGE) + USER_MEM_OFF;
	u64 len = USER_MEM_PAGES * PAGE_SIZE - 2 * USER_MEM_OFF;
	u32 pble_unalloc, stags, pd_id, idx, pd, i;
	struct irdma_hw_reg reg;
	struct irdma_hw_wqe w;
	unsigned long u;
	struct ib_mr *mr;
	s64 pinned;

	user_open(env);
	pd_id = to_iwpd(env->pd)->sc_pd.pd_id;
	pinned = user_pinned();
	pble_unalloc = env->mock->pble_rsrc.unallocated_pble;
	stags = bitmap_weight(env->mock->rf.allocated_mrs,
			      env->mock->rf.max_mr);
	mr = user_try_reg(env, &req, sizeof(req), va, len);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned + USER_MEM_PAGES);
	idx = mr->rkey >> 8;
	irdma_mock_last_wqe(env->mock, IRDMA_HW_OP_REG_MR, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_reg(env->mock->hw, idx, &reg));
	KUNIT_EXPECT_EQ(test, reg.key, (u8)mr->rkey);
	KUNIT_EXPECT_EQ(test, reg.pd, pd_id);
	KUNIT_EXPECT_TRUE(test, reg.va_based);
	KUNIT_EXPECT_EQ(test, reg.va, (u64)va);
	KUNIT_EXPECT_EQ(test, reg.len, len);
	KUNIT_EXPECT_EQ(test, reg.rights,
			USER_HW_LOCAL_READ | USER_HW_LOCAL_WRITE);
	KUNIT_EXPECT_FALSE(test, reg.remote);
	/* its first byte, each page boundary in it, and its last byte */
	user_expect_byte(env, user_reg_addr(env, idx, &reg, va, va), va);
	for (i = 1; i < USER_MEM_PAGES; i++) {
		u = user_page(env, USER_MEM_PAGE + i);
		user_expect_byte(env, user_reg_addr(env, idx, &reg, va, u), u);
	}
	u = va + len - 1;
	user_expect_byte(env, user_reg_addr(env, idx, &reg, va, u), u);

	KUNIT_ASSERT_EQ(test, mr->device->ops.dereg_mr(mr,
						       user_udata_none(env)),
			0);
	irdma_mock_last_wqe(env->mock, IRDMA_HW_OP_DEALLOC_STAG, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.stag.idx, idx);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_stag(env->mock->hw, idx, &pd));
	KUNIT_EXPECT_EQ(test, user_pinned(), pinned);
	KUNIT_EXPECT_EQ(test, (u32)env->mock->pble_rsrc.unallocated_pble,
			pble_unalloc);
	KUNIT_EXPECT_EQ(test, bitmap_weight(env->mock->rf.allocated_mrs,
					    env->mock->rf.max_mr), stags);
}

static struct kunit_case irdma_verbs_user_cases[] = {
	KUNIT_CASE_PARAM(uctx_abi_accepted, uctx_good_abi_gen_params),
	KUNIT_CASE_PARAM(uctx_abi_refused, uctx_bad_abi_gen_params),
	KUNIT_CASE(uctx_legacy_resp_refused),
	KUNIT_CASE(uctx_short_udata),
	KUNIT_CASE(uctx_dealloc_unpublishes),
	KUNIT_CASE(cq_on_user_ring),
	KUNIT_CASE(qp_on_user_rings),
	KUNIT_CASE_PARAM(create_refused, create_bad_gen_params),
	KUNIT_CASE(cq_resize_on_user_ring),
	KUNIT_CASE(cq_resize_ring_smaller_than_queue),
	KUNIT_CASE_PARAM(reg_user_mr_refused, reg_bad_gen_params),
	KUNIT_CASE(reg_user_mr_mem),
	{}
};

static struct kunit_suite irdma_verbs_user_suite = {
	.name = "irdma_verbs_user",
	.test_cases = irdma_verbs_user_cases,
};

kunit_test_suite(irdma_verbs_user_suite);
