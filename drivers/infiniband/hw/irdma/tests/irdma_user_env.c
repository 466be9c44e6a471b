// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The helpers of irdma_user_env.h, which the user-verbs suites share.
 *
 * kunit_vm_mmap() gives the test's kthread an mm and an anonymous mapping;
 * the udata's request and response buffers are __user pointers into it,
 * and the memory user space registers (a QP's or CQ's rings) are pages of
 * it, which ib_umem_get() pins.  The ucontext, CQ and QP are allocated the
 * way the RDMA core allocates them before it calls the driver.
 */
#include <kunit/test.h>
#include <linux/mman.h>
#include <linux/dma-direct.h>
#include <rdma/uverbs_ioctl.h>

#include "../../../core/core_priv.h"
#include "../../../core/restrack.h"
#include "../../../core/uverbs.h"
#include "irdma_user_env.h"

static void __user *user_ptr(struct user_env *env, unsigned long off)
{
	return (void __user *)(env->base + off);
}

unsigned long user_page(struct user_env *env, u32 n)
{
	return env->base + (unsigned long)n * PAGE_SIZE;
}

struct user_env *user_env_create(struct kunit *test,
				 enum irdma_mock_profile profile)
{
	struct irdma_mock_params p = { .profile = profile };
	struct user_env *env;

	env = kunit_kzalloc(test, sizeof(*env), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env);
	env->test = test;
	env->mock = irdma_mock_create(test, &p);
	env->base = kunit_vm_mmap(test, NULL, 0, USER_PAGES * PAGE_SIZE,
				  PROT_READ | PROT_WRITE,
				  MAP_ANONYMOUS | MAP_PRIVATE, 0);
	KUNIT_ASSERT_NE_MSG(test, env->base, 0, "kunit_vm_mmap failed");

	/* the ucontext's mmap entries are inserted under its file's lock */
	env->ufile = kunit_kzalloc(test, sizeof(*env->ufile), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env->ufile);
	mutex_init(&env->ufile->umap_lock);
	INIT_LIST_HEAD(&env->ufile->umaps);

	env->attrs = kunit_kzalloc(test, sizeof(*env->attrs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, env->attrs);
	env->attrs->ufile = env->ufile;
	return env;
}

/*
 * Write @req to the request buffer and point the udata at it and at a
 * response buffer of @outlen bytes, cleared, as uverbs passes them.
 */
struct ib_udata *user_udata(struct user_env *env, const void *req,
			    size_t inlen, size_t outlen)
{
	struct ib_udata *udata = &env->attrs->driver_udata;
	struct kunit *test = env->test;

	KUNIT_ASSERT_EQ(test, copy_to_user(user_ptr(env, USER_IN_OFF), req,
					   inlen), 0);
	KUNIT_ASSERT_EQ(test, clear_user(user_ptr(env, USER_OUT_OFF),
					 PAGE_SIZE - USER_OUT_OFF), 0);
	udata->inbuf = user_ptr(env, USER_IN_OFF);
	udata->inlen = inlen;
	udata->outbuf = user_ptr(env, USER_OUT_OFF);
	udata->outlen = outlen;
	return udata;
}

/* The udata of a destroy: no request, no response */
struct ib_udata *user_udata_none(struct user_env *env)
{
	struct ib_udata *udata = &env->attrs->driver_udata;

	udata->inbuf = NULL;
	udata->inlen = 0;
	udata->outbuf = NULL;
	udata->outlen = 0;
	return udata;
}

void user_resp(struct user_env *env, void *resp, size_t len)
{
	KUNIT_ASSERT_EQ(env->test, copy_from_user(resp,
						  user_ptr(env, USER_OUT_OFF),
						  len), 0);
}

s64 user_pinned(void)
{
	return atomic64_read(&current->mm->pinned_vm);
}

/* The physical page behind a user address, which the hardware must see */
phys_addr_t user_phys(struct kunit *test, unsigned long va)
{
	struct page *page;
	phys_addr_t phys;

	KUNIT_ASSERT_EQ(test, get_user_pages_fast(va, 1, 0, &page), 1);
	phys = page_to_phys(page);
	put_page(page);
	return phys;
}

void user_expect_dma(struct user_env *env, u64 dma, unsigned long va)
{
	KUNIT_EXPECT_EQ(env->test, (u64)dma_to_phys(env->mock->dev, dma),
			(u64)user_phys(env->test, va));
}

/* What the core does with a ucontext the driver has given up on */
void user_free_ucontext(struct ib_ucontext *uctx)
{
	kfree(uctx);
}

void user_dealloc_ucontext(void *data)
{
	struct ib_ucontext *uctx = data;

	uctx->device->ops.dealloc_ucontext(uctx);
	user_free_ucontext(uctx);
}

/*
 * ib_alloc_ucontext() and ib_init_ucontext() of uverbs: the driver object
 * zeroed, its device, file and mmap xarray set, then alloc_ucontext.
 */
int user_try_ucontext(struct user_env *env, struct ib_udata *udata,
		      struct ib_ucontext **out)
{
	struct ib_device *ibdev = &env->mock->iwdev->ibdev;
	struct ib_ucontext *uctx;
	int ret;

	uctx = rdma_zalloc_drv_obj(ibdev, ib_ucontext);
	KUNIT_ASSERT_NOT_NULL(env->test, uctx);
	uctx->device = ibdev;
	uctx->ufile = env->ufile;
	xa_init_flags(&uctx->mmap_xa, XA_FLAGS_ALLOC);
	env->attrs->context = uctx;

	ret = ibdev->ops.alloc_ucontext(uctx, udata);
	if (ret) {
		KUNIT_EXPECT_TRUE(env->test, xa_empty(&uctx->mmap_xa));
		env->attrs->context = NULL;
		user_free_ucontext(uctx);
		return ret;
	}
	*out = uctx;
	return 0;
}

struct irdma_alloc_ucontext_req user_uctx_req(u8 ver)
{
	return (struct irdma_alloc_ucontext_req) {
		.userspace_ver = ver,
		.comp_mask = IRDMA_ALLOC_UCTX_USE_RAW_ATTR,
	};
}

/* An rdma-core provider's ucontext; released when the test ends */
void user_open(struct user_env *env)
{
	struct irdma_alloc_ucontext_req req = user_uctx_req(IRDMA_ABI_VER);
	struct irdma_alloc_ucontext_resp resp;
	struct kunit *test = env->test;
	struct ib_udata *udata;
	int ret;

	udata = user_udata(env, &req, sizeof(req), sizeof(resp));
	KUNIT_ASSERT_EQ(test, user_try_ucontext(env, udata, &env->uctx), 0);
	ret = kunit_add_action_or_reset(test, user_dealloc_ucontext,
					env->uctx);
	KUNIT_ASSERT_EQ(test, ret, 0);
	user_resp(env, &resp, sizeof(resp));
	env->feature_flags = resp.feature_flags;
	env->pd = irdma_mock_alloc_pd(env->mock);
}

void user_dereg(void *data)
{
	struct user_mr_ctx *c = data;
	struct ib_udata *udata = user_udata_none(c->env);

	KUNIT_EXPECT_EQ(c->env->test, c->mr->device->ops.dereg_mr(c->mr, udata),
			0);
}

/* uverbs' reg_mr: the driver's reg_user_mr, then the MR's core fields */
struct ib_mr *user_try_reg(struct user_env *env,
			   const struct irdma_mem_reg_req *req,
			   size_t inlen, unsigned long va, u64 len)
{
	struct ib_device *ibdev = &env->mock->iwdev->ibdev;
	struct ib_udata *udata = user_udata(env, req, inlen, 0);
	struct ib_mr *mr;

	mr = ibdev->ops.reg_user_mr(env->pd, va, len, va,
				    IB_ACCESS_LOCAL_WRITE, udata);
	if (IS_ERR(mr))
		return mr;
	mr->device = ibdev;
	mr->pd = env->pd;
	mr->type = IB_MR_TYPE_USER;
	mr->iova = va;
	mr->length = len;
	return mr;
}

/*
 * A registration that must succeed, deregistered when the test ends, or
 * before by kunit_release_action() of user_dereg() on what this returns
 */
struct user_mr_ctx *user_reg_ctx(struct user_env *env,
				 const struct irdma_mem_reg_req *req,
				 unsigned long va, u64 len)
{
	struct kunit *test = env->test;
	struct user_mr_ctx *c;
	int ret;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->env = env;
	c->mr = user_try_reg(env, req, sizeof(*req), va, len);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c->mr);
	ret = kunit_add_action_or_reset(test, user_dereg, c);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return c;
}

struct ib_mr *user_reg(struct user_env *env,
		       const struct irdma_mem_reg_req *req,
		       unsigned long va, u64 len)
{
	return user_reg_ctx(env, req, va, len)->mr;
}

/* The rings of a CQ of @pages pages at @page, and its shadow area */
void user_reg_cq_rings(struct user_env *env, u32 page, u16 pages)
{
	struct irdma_mem_reg_req req = {
		.reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = pages,
	};
	u32 len = pages;

	/*
	 * A device that resizes CQs takes the shadow area as a registration
	 * of its own, which outlives the ring; otherwise it follows it.
	 */
	if (env->feature_flags & IRDMA_FEATURE_CQ_RESIZE) {
		struct irdma_mem_reg_req shadow = {
			.reg_type = IRDMA_MEMREG_TYPE_CQ, .cq_pages = 1,
		};

		user_reg(env, &shadow, user_page(env, page + pages),
			 PAGE_SIZE);
	} else {
		len++;
	}
	user_reg(env, &req, user_page(env, page), len * PAGE_SIZE);
}

struct irdma_create_cq_req user_cq_req(struct user_env *env, u32 page,
				       u32 pages)
{
	return (struct irdma_create_cq_req) {
		.user_cq_buf = user_page(env, page),
		.user_shadow_area = user_page(env, page + pages),
	};
}

void user_destroy_cq(void *data)
{
	struct user_cq_ctx *c = data;

	KUNIT_EXPECT_EQ(c->env->test,
			ib_destroy_cq_user(c->cq, user_udata_none(c->env)), 0);
}

/* uverbs' create_cq: a zeroed driver CQ object, then create_cq */
struct ib_cq *user_try_cq(struct user_env *env,
			  const struct irdma_create_cq_req *req,
			  size_t inlen, size_t outlen, int cqe)
{
	struct ib_device *ibdev = &env->mock->iwdev->ibdev;
	struct ib_cq_init_attr attr = { .cqe = cqe };
	struct ib_cq *cq;
	int ret;

	cq = rdma_zalloc_drv_obj(ibdev, ib_cq);
	KUNIT_ASSERT_NOT_NULL(env->test, cq);
	cq->device = ibdev;
	atomic_set(&cq->usecnt, 0);
	rdma_restrack_new(&cq->res, RDMA_RESTRACK_CQ);
	rdma_restrack_set_name(&cq->res, NULL);
	user_udata(env, req, inlen, outlen);
	ret = ibdev->ops.create_cq(cq, &attr, env->attrs);
	if (ret) {
		rdma_restrack_put(&cq->res);
		kfree(cq);
		return ERR_PTR(ret);
	}
	rdma_restrack_add(&cq->res);
	return cq;
}

/*
 * A CQ on the one-page ring at @page, registered already; destroyed when
 * the test ends, or before by kunit_release_action() of user_destroy_cq()
 * on what this returns
 */
struct user_cq_ctx *user_cq_ctx(struct user_env *env, u32 page,
				struct irdma_create_cq_resp *resp)
{
	struct irdma_create_cq_req req = user_cq_req(env, page, 1);
	struct kunit *test = env->test;
	struct user_cq_ctx *c;
	int ret;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->env = env;
	c->cq = user_try_cq(env, &req, sizeof(req), sizeof(*resp),
			    USER_CQ_CQES);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c->cq);
	ret = kunit_add_action_or_reset(test, user_destroy_cq, c);
	KUNIT_ASSERT_EQ(test, ret, 0);
	user_resp(env, resp, sizeof(*resp));
	return c;
}

/* A CQ on the one-page ring at @page; destroyed when the test ends */
struct ib_cq *user_cq(struct user_env *env, u32 page,
		      struct irdma_create_cq_resp *resp)
{
	user_reg_cq_rings(env, page, 1);
	return user_cq_ctx(env, page, resp)->cq;
}

const struct irdma_mem_reg_req user_qp_reg = {
	.reg_type = IRDMA_MEMREG_TYPE_QP,
	.sq_pages = USER_QP_SQ_PAGES, .rq_pages = USER_QP_RQ_PAGES,
};

static void user_reg_qp_rings(struct user_env *env, u32 page)
{
	user_reg(env, &user_qp_reg, user_page(env, page),
		 USER_QP_PAGES * PAGE_SIZE);
}

struct ib_qp_init_attr user_qp_attr(struct ib_cq *cq)
{
	return (struct ib_qp_init_attr) {
		.send_cq = cq, .recv_cq = cq, .qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
}

void user_destroy_qp(void *data)
{
	struct user_qp_ctx *c = data;

	KUNIT_EXPECT_EQ(c->env->test,
			ib_destroy_qp_user(c->qp, user_udata_none(c->env)), 0);
}

/* uverbs' create_qp, through ib_create_qp_user() */
struct ib_qp *user_try_qp(struct user_env *env, struct ib_cq *cq,
			  unsigned long rings, size_t inlen,
			  size_t outlen)
{
	struct ib_qp_init_attr attr = user_qp_attr(cq);
	struct irdma_create_qp_req req = {
		.user_wqe_bufs = rings, .user_compl_ctx = 0x1234,
	};
	struct ib_udata *udata = user_udata(env, &req, inlen, outlen);
	struct ib_qp *qp;

	qp = ib_create_qp_user(&env->mock->iwdev->ibdev, env->pd, &attr,
			       udata, NULL, NULL);
	/* uverbs counts the QP's users of its PD and CQs, as destroy drops */
	if (!IS_ERR(qp))
		ib_qp_usecnt_inc(qp);
	return qp;
}

/*
 * A QP on the rings at @page, registered already; destroyed when the test
 * ends, or before by kunit_release_action() of user_destroy_qp() on what
 * this returns
 */
struct user_qp_ctx *user_qp_ctx(struct user_env *env, struct ib_cq *cq,
				u32 page,
				struct irdma_create_qp_resp *resp)
{
	struct kunit *test = env->test;
	struct user_qp_ctx *c;
	int ret;

	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->env = env;
	c->qp = user_try_qp(env, cq, user_page(env, page),
			    sizeof(struct irdma_create_qp_req), sizeof(*resp));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c->qp);
	ret = kunit_add_action_or_reset(test, user_destroy_qp, c);
	KUNIT_ASSERT_EQ(test, ret, 0);
	user_resp(env, resp, sizeof(*resp));
	return c;
}

/* A QP on the rings at @page; destroyed when the test ends */
struct ib_qp *user_qp(struct user_env *env, struct ib_cq *cq, u32 page,
		      struct irdma_create_qp_resp *resp)
{
	user_reg_qp_rings(env, page);
	return user_qp_ctx(env, cq, page, resp)->qp;
}

/*
 * Page @n of a QP ring the hardware was given at @pa: by address, or
 * through the level-1 PBL at PBLE index @pa.
 */
u64 user_ring_page(struct user_env *env, bool vq, u64 pa, u32 n)
{
	u64 *pble;

	if (!vq)
		return pa + (u64)n * PAGE_SIZE;
	pble = irdma_mock_pble(env->mock, pa + n);
	KUNIT_ASSERT_NOT_NULL(env->test, pble);
	return *pble;
}

void user_save(struct user_env *env, enum irdma_mock_objs kind,
	       struct user_before *before)
{
	irdma_mock_save_ids(env->mock, kind, &before->ids);
	before->pinned = user_pinned();
}

/* A failed create_qp took no QP ID, CQP request or pin */
void qp_expect_nothing(struct user_env *env, struct ib_qp *qp,
		       int err, const struct user_before *before)
{
	KUNIT_EXPECT_EQ(env->test, PTR_ERR_OR_ZERO(qp), err);
	if (!IS_ERR(qp))
		ib_destroy_qp_user(qp, user_udata_none(env));
	irdma_mock_expect_ids(env->mock, &before->ids);
	KUNIT_EXPECT_EQ(env->test, user_pinned(), before->pinned);
}

/* uverbs' resize_cq: the driver's, with the new ring at @page */
int user_try_resize(struct user_env *env, struct ib_cq *cq, u32 page,
		    int cqe)
{
	struct irdma_resize_cq_req req = {
		.user_cq_buffer = user_page(env, page),
	};

	return cq->device->ops.resize_cq(cq, cqe,
					 user_udata(env, &req, sizeof(req), 0));
}
