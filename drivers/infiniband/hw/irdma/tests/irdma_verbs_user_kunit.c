// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_user: the user-space verbs of irdma through the
 * entry points uverbs calls: alloc_ucontext, reg_user_mr, create_cq,
 * resize_cq, create_qp and modify_qp with a driver udata.
 *
 * kunit_vm_mmap() gives the test's kthread an mm and an anonymous mapping;
 * the udata's request and response buffers are __user pointers into it,
 * and the memory user space registers (a QP's or CQ's rings) are pages of
 * it, which ib_umem_get() pins.  The ucontext, CQ and QP are allocated the
 * way the RDMA core allocates them before it calls the driver.  The cases
 * judge the ABI of include/uapi/rdma/irdma-abi.h and what the firmware
 * model was told: the pages a CQ or QP created from user rings points the
 * hardware at must be the pinned pages of those rings, and so must the
 * pages of a MEM region, which REG_MR gives it; the mmap keys of a push
 * page must name the BAR pages of the one MANAGE_PUSH_PAGE took.  A verb
 * that fails must give back its IDs and CQP requests and leave no page
 * pinned.
 */
#include <kunit/test.h>
#include <linux/debugfs.h>
#include <linux/mman.h>
#include <linux/dma-direct.h>
#include <rdma/irdma-abi.h>
#include <rdma/uverbs_ioctl.h>

#include "../../../core/core_priv.h"
#include "../../../core/restrack.h"
#include "../../../core/uverbs.h"
#include "irdma_hw_model.h"
#include "irdma_mock.h"

/* Pages of the user mapping: the first holds the udata buffers */
#define USER_PAGES		16
#define USER_IN_OFF		0
#define USER_OUT_OFF		2048
/* The first page of the mapping user memory is registered from */
#define USER_RING_PAGE		1
/* A CQ's new ring for a resize, past its ring and shadow */
#define USER_RESIZE_PAGE	3
/* Where the QP rings are registered, past a CQ ring and its shadow */
#define USER_QP_PAGE		4

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
 * Its push pages from 8 MiB on: push page N's WQE page N pages in, the
 * doorbell page user space rings for it the page after
 */
#define E810_PUSH_BAR_OFFSET	SZ_8M

/* A CQ ring of one page: 128 CQEs of 32 bytes */
#define USER_CQ_CQES		(PAGE_SIZE / 32)

/**
 * struct user_env - a user process with an open irdma ucontext
 * @test: the test
 * @mock: the device
 * @base: the user mapping
 * @ufile: the uverbs file the ucontext belongs to
 * @attrs: the bundle uverbs hands the driver; @attrs->driver_udata
 *	points into the first page of @base
 * @uctx: the ucontext, once alloc_ucontext succeeded
 * @pd: the PD user memory is registered in
 * @feature_flags: the ucontext response's feature flags
 */
struct user_env {
	struct kunit *test;
	struct irdma_mock *mock;
	unsigned long base;
	struct ib_uverbs_file *ufile;
	struct uverbs_attr_bundle *attrs;
	struct ib_ucontext *uctx;
	struct ib_pd *pd;
	u64 feature_flags;
};

static void __user *user_ptr(struct user_env *env, unsigned long off)
{
	return (void __user *)(env->base + off);
}

static unsigned long user_page(struct user_env *env, u32 n)
{
	return env->base + (unsigned long)n * PAGE_SIZE;
}

static struct user_env *user_env_create(struct kunit *test,
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
static struct ib_udata *user_udata(struct user_env *env, const void *req,
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
static struct ib_udata *user_udata_none(struct user_env *env)
{
	struct ib_udata *udata = &env->attrs->driver_udata;

	udata->inbuf = NULL;
	udata->inlen = 0;
	udata->outbuf = NULL;
	udata->outlen = 0;
	return udata;
}

static void user_resp(struct user_env *env, void *resp, size_t len)
{
	KUNIT_ASSERT_EQ(env->test, copy_from_user(resp,
						  user_ptr(env, USER_OUT_OFF),
						  len), 0);
}

static s64 user_pinned(void)
{
	return atomic64_read(&current->mm->pinned_vm);
}

/* The physical page behind a user address, which the hardware must see */
static phys_addr_t user_phys(struct kunit *test, unsigned long va)
{
	struct page *page;
	phys_addr_t phys;

	KUNIT_ASSERT_EQ(test, get_user_pages_fast(va, 1, 0, &page), 1);
	phys = page_to_phys(page);
	put_page(page);
	return phys;
}

static void user_expect_dma(struct user_env *env, u64 dma, unsigned long va)
{
	KUNIT_EXPECT_EQ(env->test, (u64)dma_to_phys(env->mock->dev, dma),
			(u64)user_phys(env->test, va));
}

/* What the core does with a ucontext the driver has given up on */
static void user_free_ucontext(struct ib_ucontext *uctx)
{
	kfree(uctx);
}

static void user_dealloc_ucontext(void *data)
{
	struct ib_ucontext *uctx = data;

	uctx->device->ops.dealloc_ucontext(uctx);
	user_free_ucontext(uctx);
}

/*
 * ib_alloc_ucontext() and ib_init_ucontext() of uverbs: the driver object
 * zeroed, its device, file and mmap xarray set, then alloc_ucontext.
 */
static int user_try_ucontext(struct user_env *env, struct ib_udata *udata,
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

static struct irdma_alloc_ucontext_req user_uctx_req(u8 ver)
{
	return (struct irdma_alloc_ucontext_req) {
		.userspace_ver = ver,
		.comp_mask = IRDMA_ALLOC_UCTX_USE_RAW_ATTR,
	};
}

/* An rdma-core provider's ucontext; released when the test ends */
static void user_open(struct user_env *env)
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

struct user_mr_ctx {
	struct user_env *env;
	struct ib_mr *mr;
};

static void user_dereg(void *data)
{
	struct user_mr_ctx *c = data;
	struct ib_udata *udata = user_udata_none(c->env);

	KUNIT_EXPECT_EQ(c->env->test, c->mr->device->ops.dereg_mr(c->mr, udata),
			0);
}

/* uverbs' reg_mr: the driver's reg_user_mr, then the MR's core fields */
static struct ib_mr *user_try_reg(struct user_env *env,
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
static struct user_mr_ctx *user_reg_ctx(struct user_env *env,
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

static struct ib_mr *user_reg(struct user_env *env,
			      const struct irdma_mem_reg_req *req,
			      unsigned long va, u64 len)
{
	return user_reg_ctx(env, req, va, len)->mr;
}

/* The rings of a CQ of @pages pages at @page, and its shadow area */
static void user_reg_cq_rings(struct user_env *env, u32 page, u16 pages)
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

static struct irdma_create_cq_req user_cq_req(struct user_env *env, u32 page,
					      u32 pages)
{
	return (struct irdma_create_cq_req) {
		.user_cq_buf = user_page(env, page),
		.user_shadow_area = user_page(env, page + pages),
	};
}

struct user_cq_ctx {
	struct user_env *env;
	struct ib_cq *cq;
};

static void user_destroy_cq(void *data)
{
	struct user_cq_ctx *c = data;

	KUNIT_EXPECT_EQ(c->env->test,
			ib_destroy_cq_user(c->cq, user_udata_none(c->env)), 0);
}

/* uverbs' create_cq: a zeroed driver CQ object, then create_cq */
static struct ib_cq *user_try_cq(struct user_env *env,
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
static struct user_cq_ctx *user_cq_ctx(struct user_env *env, u32 page,
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
static struct ib_cq *user_cq(struct user_env *env, u32 page,
			     struct irdma_create_cq_resp *resp)
{
	user_reg_cq_rings(env, page, 1);
	return user_cq_ctx(env, page, resp)->cq;
}

/*
 * The rings of the QP of user_qp_attr() at @page, sized as a provider
 * sizes them: its 8 send WRs plus the 258 quanta the SQ keeps in reserve
 * make an SQ of 512 32-byte quanta, 4 pages; the RQ takes one page; the
 * shadow area follows.
 */
#define USER_QP_SQ_PAGES	4
#define USER_QP_RQ_PAGES	1
#define USER_QP_PAGES		(USER_QP_SQ_PAGES + USER_QP_RQ_PAGES + 1)

static const struct irdma_mem_reg_req user_qp_reg = {
	.reg_type = IRDMA_MEMREG_TYPE_QP,
	.sq_pages = USER_QP_SQ_PAGES, .rq_pages = USER_QP_RQ_PAGES,
};

static void user_reg_qp_rings(struct user_env *env, u32 page)
{
	user_reg(env, &user_qp_reg, user_page(env, page),
		 USER_QP_PAGES * PAGE_SIZE);
}

static struct ib_qp_init_attr user_qp_attr(struct ib_cq *cq)
{
	return (struct ib_qp_init_attr) {
		.send_cq = cq, .recv_cq = cq, .qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 8, .max_recv_wr = 8,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
}

struct user_qp_ctx {
	struct user_env *env;
	struct ib_qp *qp;
};

static void user_destroy_qp(void *data)
{
	struct user_qp_ctx *c = data;

	KUNIT_EXPECT_EQ(c->env->test,
			ib_destroy_qp_user(c->qp, user_udata_none(c->env)), 0);
}

/* uverbs' create_qp, through ib_create_qp_user() */
static struct ib_qp *user_try_qp(struct user_env *env, struct ib_cq *cq,
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
static struct user_qp_ctx *user_qp_ctx(struct user_env *env, struct ib_cq *cq,
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
static struct ib_qp *user_qp(struct user_env *env, struct ib_cq *cq, u32 page,
			     struct irdma_create_qp_resp *resp)
{
	user_reg_qp_rings(env, page);
	return user_qp_ctx(env, cq, page, resp)->qp;
}

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

/*
 * Page @n of a QP ring the hardware was given at @pa: by address, or
 * through the level-1 PBL at PBLE index @pa.
 */
static u64 user_ring_page(struct user_env *env, bool vq, u64 pa, u32 n)
{
	u64 *pble;

	if (!vq)
		return pa + (u64)n * PAGE_SIZE;
	pble = irdma_mock_pble(env->mock, pa + n);
	KUNIT_ASSERT_NOT_NULL(env->test, pble);
	return *pble;
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

/* What a refused create must leave as it was: IDs, CQP requests, pins */
struct user_before {
	struct irdma_mock_ids ids;
	s64 pinned;
};

static void user_save(struct user_env *env, enum irdma_mock_objs kind,
		      struct user_before *before)
{
	irdma_mock_save_ids(env->mock, kind, &before->ids);
	before->pinned = user_pinned();
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

/* A failed create_qp took no QP ID, CQP request or pin */
static void qp_expect_nothing(struct user_env *env, struct ib_qp *qp,
			      int err, const struct user_before *before)
{
	KUNIT_EXPECT_EQ(env->test, PTR_ERR_OR_ZERO(qp), err);
	if (!IS_ERR(qp))
		ib_destroy_qp_user(qp, user_udata_none(env));
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

/* uverbs' resize_cq: the driver's, with the new ring at @page */
static int user_try_resize(struct user_env *env, struct ib_cq *cq, u32 page,
			   int cqe)
{
	struct irdma_resize_cq_req req = {
		.user_cq_buffer = user_page(env, page),
	};

	return cq->device->ops.resize_cq(cq, cqe,
					 user_udata(env, &req, sizeof(req), 0));
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

/*
 * Push pages.  A user QP of a device in push mode gets one through the
 * CQP (MANAGE_PUSH_PAGE) on its way to INIT or RTR, and user space two
 * mmap keys for it in the modify_qp response: the push page's WQE page,
 * write-combined, and its doorbell page, uncached.  6.12 turns push mode
 * on nowhere (iwdev->push_mode, which the driver reads, stays 0), so the
 * cases turn it on as a device that offers it would.
 */

/* The pages of the ucontext's mmap keys, entries and removed ones alike */
static u32 user_mmap_pages(struct ib_ucontext *uctx)
{
	struct rdma_user_mmap_entry *e;
	unsigned long pgoff;
	u32 n = 0;

	xa_for_each(&uctx->mmap_xa, pgoff, e)
		n++;
	return n;
}

/*
 * The entry behind an mmap key of the ucontext, with a reference that the
 * caller puts, as uverbs' mmap() takes one; NULL if the key names none.
 */
static struct irdma_user_mmap_entry *user_mmap_entry(struct user_env *env,
						     u64 key)
{
	struct rdma_user_mmap_entry *e;

	e = rdma_user_mmap_entry_get_pgoff(env->uctx, key >> PAGE_SHIFT);
	return e ? container_of(e, struct irdma_user_mmap_entry, rdma_entry) :
		   NULL;
}

/* A user QP of a device in push mode and the rings it is on */
struct user_push_qp {
	struct ib_qp *qp;
	struct user_qp_ctx *qp_ctx;
	struct user_mr_ctx *rings;
};

/* On the rings at USER_QP_PAGE; gone when the test ends, or before */
static void user_push_qp(struct user_env *env, struct ib_cq *cq,
			 struct user_push_qp *p)
{
	struct irdma_pci_f *rf = &env->mock->rf;
	struct kunit *test = env->test;

	KUNIT_ASSERT_GT(test, rf->sc_dev.hw_attrs.max_hw_device_pages, 0);
	env->mock->iwdev->push_mode = true;
	p->rings = user_reg_ctx(env, &user_qp_reg, user_page(env, USER_QP_PAGE),
				USER_QP_PAGES * PAGE_SIZE);
	p->qp_ctx = kunit_kzalloc(test, sizeof(*p->qp_ctx), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->qp_ctx);
	p->qp_ctx->env = env;
	p->qp = user_try_qp(env, cq, user_page(env, USER_QP_PAGE),
			    sizeof(struct irdma_create_qp_req),
			    sizeof(struct irdma_create_qp_resp));
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, p->qp);
	p->qp_ctx->qp = p->qp;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, user_destroy_qp,
							p->qp_ctx), 0);
}

/*
 * Destroy the QP, then deregister its rings, whose pages a later QP's
 * registration must not map a second time while they are mapped
 */
static void user_push_qp_destroy(struct user_env *env, struct user_push_qp *p)
{
	kunit_release_action(env->test, user_destroy_qp, p->qp_ctx);
	kunit_release_action(env->test, user_dereg, p->rings);
}

/*
 * uverbs' modify_qp of a user QP to @state, with room for the response
 * in the udata if @resp (no request); the response in @resp.
 */
static int user_modify_qp(struct user_env *env, struct ib_qp *qp,
			  enum ib_qp_state state,
			  struct irdma_modify_qp_resp *resp)
{
	struct ib_qp_attr attr = { .qp_state = state };
	struct ib_udata *udata;
	int ret;

	udata = user_udata(env, NULL, 0, resp ? sizeof(*resp) : 0);
	ret = qp->device->ops.modify_qp(qp, &attr, IB_QP_STATE, udata);
	if (resp)
		user_resp(env, resp, sizeof(*resp));
	return ret;
}

/*
 * The push page a MANAGE_PUSH_PAGE took, the QP's, in the response:
 * two keys of the ucontext, the WQE page write-combined and the doorbell
 * page uncached, at push page @idx's BAR offsets.
 */
static void user_expect_push_keys(struct user_env *env,
				  const struct irdma_modify_qp_resp *resp,
				  u32 idx)
{
	struct kunit *test = env->test;
	struct irdma_user_mmap_entry *wqe, *db;

	KUNIT_EXPECT_EQ(test, resp->push_valid, 1);
	KUNIT_EXPECT_EQ(test, resp->push_offset, 0);
	KUNIT_EXPECT_NE(test, resp->push_wqe_mmap_key, resp->push_db_mmap_key);
	wqe = user_mmap_entry(env, resp->push_wqe_mmap_key);
	db = user_mmap_entry(env, resp->push_db_mmap_key);
	KUNIT_EXPECT_NOT_NULL(test, wqe);
	KUNIT_EXPECT_NOT_NULL(test, db);
	if (wqe) {
		KUNIT_EXPECT_EQ(test, wqe->bar_offset,
				E810_PUSH_BAR_OFFSET + (u64)idx * SZ_4K);
		KUNIT_EXPECT_EQ(test, wqe->mmap_flag, IRDMA_MMAP_IO_WC);
		rdma_user_mmap_entry_put(&wqe->rdma_entry);
	}
	if (db) {
		KUNIT_EXPECT_EQ(test, db->bar_offset,
				E810_PUSH_BAR_OFFSET + (u64)(idx + 1) * SZ_4K);
		KUNIT_EXPECT_EQ(test, db->mmap_flag, IRDMA_MMAP_IO_NC);
		rdma_user_mmap_entry_put(&db->rdma_entry);
	}
}

/* The QP's push page given back through the CQP since WQE @seq */
static void user_expect_push_freed(struct user_env *env, u64 seq, u32 idx)
{
	struct kunit *test = env->test;
	struct irdma_hw_wqe w;

	irdma_mock_wqe_since(env->mock, seq, IRDMA_HW_OP_MANAGE_PUSH_PAGE, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_TRUE(test, w.push.free);
	KUNIT_EXPECT_EQ(test, w.push.idx, idx);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_push_page(env->mock->hw, idx,
							  NULL));
	KUNIT_EXPECT_EQ(test, irdma_hw_model_push_pages(env->mock->hw), 0);
	/* the command does not wait: the CCQ's event completes it */
	irdma_mock_ccq_event(env->mock);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(env->mock), 16);
}

/*
 * RESET to INIT of a user QP in push mode: a MANAGE_PUSH_PAGE takes a
 * push page for the QP's QS handle, and the response gives user space
 * the keys of that page's WQE and doorbell pages.  A mapping of a key
 * (a reference on its entry) outlives destroy_qp, which withdraws both
 * keys exactly once and gives the page back through the CQP: once the
 * mapping goes, the ucontext's mmap keys are those it had before.
 */
static void qp_push_page(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp cq_resp;
	struct irdma_user_mmap_entry *mapped;
	struct irdma_modify_qp_resp resp;
	struct user_push_qp p;
	struct irdma_hw_wqe w;
	struct ib_cq *cq;
	u32 keys, push;
	u64 seq;
	u16 qs;

	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	user_push_qp(env, cq, &p);
	keys = user_mmap_pages(env->uctx);
	push = irdma_hw_model_op_count(env->mock->hw,
				       IRDMA_HW_OP_MANAGE_PUSH_PAGE);
	seq = irdma_hw_model_wqes(env->mock->hw);

	KUNIT_ASSERT_EQ(test, user_modify_qp(env, p.qp, IB_QPS_INIT, &resp),
			0);
	KUNIT_ASSERT_EQ(test, irdma_hw_model_op_count(env->mock->hw,
						      IRDMA_HW_OP_MANAGE_PUSH_PAGE),
			push + 1);
	irdma_mock_wqe_since(env->mock, seq, IRDMA_HW_OP_MANAGE_PUSH_PAGE, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_FALSE(test, w.push.free);
	KUNIT_EXPECT_EQ(test, w.push.type, 0);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_push_page(env->mock->hw, w.ret,
							 &qs));
	KUNIT_EXPECT_EQ(test, qs, w.push.qs_handle);
	user_expect_push_keys(env, &resp, w.ret);
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys + 2);

	/* user space maps the WQE page */
	mapped = user_mmap_entry(env, resp.push_wqe_mmap_key);
	KUNIT_ASSERT_NOT_NULL(test, mapped);
	seq = irdma_hw_model_wqes(env->mock->hw);
	user_push_qp_destroy(env, &p);
	KUNIT_EXPECT_NULL(test, user_mmap_entry(env, resp.push_wqe_mmap_key));
	KUNIT_EXPECT_NULL(test, user_mmap_entry(env, resp.push_db_mmap_key));
	KUNIT_EXPECT_TRUE(test, mapped->rdma_entry.driver_removed);
	/* the doorbell page's key is gone, the mapped one's until unmapped */
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys + 1);
	rdma_user_mmap_entry_put(&mapped->rdma_entry);
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys);
	user_expect_push_freed(env, seq, w.ret);
}

#if IS_ENABLED(CONFIG_FAILSLAB) && IS_ENABLED(CONFIG_FAULT_INJECTION_DEBUG_FS)
/*
 * The doorbell page's key can only fail to be made for want of memory:
 * the kernel's fault injection fails the Nth slab allocation of a task
 * whose fail_nth is N.  By default failslab leaves alone allocations that
 * may sleep, which every one of these is, and dumps a stack for each
 * failure; both are debugfs knobs, whose files hold the variables'
 * addresses in their inode's i_private.
 */
struct user_failslab {
	bool *ignore_gfp_wait;
	unsigned long *verbose;
	bool was_ignoring;
	unsigned long was_verbose;
};

static void *user_failslab_knob(const char *name)
{
	struct dentry *dir = debugfs_lookup("failslab", NULL);
	struct dentry *file;
	void *data = NULL;

	if (!dir)
		return NULL;
	file = debugfs_lookup(name, dir);
	if (file) {
		data = d_inode(file)->i_private;
		dput(file);
	}
	dput(dir);
	return data;
}

static void user_failslab_restore(void *data)
{
	struct user_failslab *fs = data;

	WRITE_ONCE(*fs->ignore_gfp_wait, fs->was_ignoring);
	WRITE_ONCE(*fs->verbose, fs->was_verbose);
}

/* Let fail_nth fail any slab allocation, quietly, until the case ends */
static void user_failslab_arm(struct kunit *test)
{
	struct user_failslab *fs = kunit_kzalloc(test, sizeof(*fs),
						 GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, fs);
	fs->ignore_gfp_wait = user_failslab_knob("ignore-gfp-wait");
	fs->verbose = user_failslab_knob("verbose");
	KUNIT_ASSERT_NOT_NULL(test, fs->ignore_gfp_wait);
	KUNIT_ASSERT_NOT_NULL(test, fs->verbose);
	fs->was_ignoring = *fs->ignore_gfp_wait;
	fs->was_verbose = *fs->verbose;
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test,
							user_failslab_restore,
							fs), 0);
	WRITE_ONCE(*fs->ignore_gfp_wait, false);
	WRITE_ONCE(*fs->verbose, 0);
}

/*
 * INIT to INIT of a QP that has its push page but no keys yet, its @nth
 * slab allocation failed: the modify's result.  *@left: how many more
 * allocations the count had to go, 0 if the failure was reached.
 */
static int user_push_keys_failing(struct user_env *env, struct ib_qp *qp,
				  unsigned int nth, unsigned int *left,
				  struct irdma_modify_qp_resp *resp)
{
	int ret;

	current->fail_nth = nth;
	ret = user_modify_qp(env, qp, IB_QPS_INIT, resp);
	*left = current->fail_nth;
	current->fail_nth = 0;
	return ret;
}
#else
static void user_failslab_arm(struct kunit *test)
{
	kunit_skip(test, "needs CONFIG_FAILSLAB and CONFIG_FAULT_INJECTION_DEBUG_FS");
}

static int user_push_keys_failing(struct user_env *env, struct ib_qp *qp,
				  unsigned int nth, unsigned int *left,
				  struct irdma_modify_qp_resp *resp)
{
	*left = nth;
	return -EOPNOTSUPP;
}
#endif

/* Allocations the count of user_push_keys_failing() starts from */
#define USER_FAIL_COUNT		1000

/*
 * A QP in INIT with its push page, but no key for it given out yet; the
 * push page's index in *@idx
 */
static void user_push_qp_init(struct user_env *env, struct ib_cq *cq,
			      struct user_push_qp *p, u32 *idx)
{
	u64 seq = irdma_hw_model_wqes(env->mock->hw);
	struct irdma_hw_wqe w;

	user_push_qp(env, cq, p);
	/* no room for a response: no keys */
	KUNIT_ASSERT_EQ(env->test, user_modify_qp(env, p->qp, IB_QPS_INIT,
						  NULL), 0);
	irdma_mock_wqe_since(env->mock, seq, IRDMA_HW_OP_MANAGE_PUSH_PAGE, &w);
	KUNIT_ASSERT_FALSE(env->test, w.error);
	KUNIT_ASSERT_TRUE(env->test, irdma_hw_model_push_page(env->mock->hw,
							      w.ret, NULL));
	*idx = w.ret;
}

/*
 * The WQE page's key made, the doorbell page's refused for want of
 * memory: modify_qp succeeds without push mode (push_valid 0) and the
 * WQE page's key is withdrawn, the ucontext's keys as before.  The QP
 * keeps no hold on what it withdrew: the next modify makes both keys,
 * and destroy_qp withdraws them once and gives the page back.
 *
 * The doorbell page's key is the last of the modify's allocations whose
 * failure costs the keys (a failed xarray node allocation is retried
 * with one that may sleep): the modify is tried with each allocation
 * failed from the last on until one gives no keys.
 */
static void qp_push_page_db_key_refused(struct kunit *test)
{
	struct user_env *env = user_env_create(test, IRDMA_MOCK_E810_IWARP);
	struct irdma_create_cq_resp cq_resp;
	struct irdma_modify_qp_resp resp;
	unsigned int nth, allocs, left;
	struct user_push_qp p;
	struct irdma_qp *iwqp;
	struct ib_cq *cq;
	u32 keys, idx;
	u64 seq;
	int ret;

	user_failslab_arm(test);
	user_open(env);
	cq = user_cq(env, USER_RING_PAGE, &cq_resp);
	keys = user_mmap_pages(env->uctx);

	user_push_qp_init(env, cq, &p, &idx);
	KUNIT_ASSERT_EQ(test, user_push_keys_failing(env, p.qp,
						     USER_FAIL_COUNT, &left,
						     &resp), 0);
	KUNIT_ASSERT_GT(test, left, 0);
	allocs = USER_FAIL_COUNT - left;
	KUNIT_ASSERT_EQ(test, resp.push_valid, 1);
	user_push_qp_destroy(env, &p);
	irdma_mock_ccq_event(env->mock);
	KUNIT_ASSERT_EQ(test, user_mmap_pages(env->uctx), keys);

	for (nth = allocs; nth; nth--) {
		user_push_qp_init(env, cq, &p, &idx);
		ret = user_push_keys_failing(env, p.qp, nth, &left, &resp);
		if (!ret && !left && !resp.push_valid)
			break;
		user_push_qp_destroy(env, &p);
		irdma_mock_ccq_event(env->mock);
	}
	KUNIT_ASSERT_GT_MSG(test, nth, 0,
			    "no failed allocation of %u cost the keys", allocs);
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys);

	iwqp = to_iwqp(p.qp);
	KUNIT_EXPECT_EQ(test, user_modify_qp(env, p.qp, IB_QPS_INIT, &resp),
			0);
	KUNIT_EXPECT_EQ(test, resp.push_valid, 1);
	if (resp.push_valid) {
		user_expect_push_keys(env, &resp, idx);
		KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys + 2);
	} else if (iwqp->push_wqe_mmap_entry || iwqp->push_db_mmap_entry) {
		/*
		 * The QP still points at an entry it withdrew, which was
		 * freed then: destroy_qp would withdraw it again, a use
		 * after free that can take the kernel down.
		 */
		KUNIT_FAIL(test, "the QP holds a withdrawn mmap entry");
		iwqp->push_wqe_mmap_entry = NULL;
		iwqp->push_db_mmap_entry = NULL;
	}
	seq = irdma_hw_model_wqes(env->mock->hw);
	user_push_qp_destroy(env, &p);
	KUNIT_EXPECT_EQ(test, user_mmap_pages(env->uctx), keys);
	user_expect_push_freed(env, seq, idx);
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
	KUNIT_CASE(qp_rings_dereg_before_create),
	KUNIT_CASE(rings_pinned_until_dereg),
	KUNIT_CASE(cq_rings_held_until_destroy),
	KUNIT_CASE(qp_rings_held_until_destroy),
	KUNIT_CASE(cq_resize_moves_ring_hold),
	KUNIT_CASE(reg_user_mr_mem),
	KUNIT_CASE(qp_push_page),
	KUNIT_CASE(qp_push_page_db_key_refused),
	{}
};

static struct kunit_suite irdma_verbs_user_suite = {
	.name = "irdma_verbs_user",
	.test_cases = irdma_verbs_user_cases,
};

kunit_test_suite(irdma_verbs_user_suite);
