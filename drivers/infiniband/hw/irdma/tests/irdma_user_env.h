/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the user-verbs suites share, irdma_verbs_user, irdma_verbs_user_pin
 * and irdma_verbs_user_push: a user process with an open ucontext on a
 * mock device, its udata buffers and the user memory it registers, and
 * its CQs and QPs made the way uverbs makes them.
 */
#ifndef IRDMA_USER_ENV_H
#define IRDMA_USER_ENV_H

#include <rdma/irdma-abi.h>
#include <rdma/ib_verbs.h>

#include "irdma_mock.h"

struct kunit;
struct ib_uverbs_file;
struct uverbs_attr_bundle;

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

struct user_mr_ctx {
	struct user_env *env;
	struct ib_mr *mr;
};

struct user_cq_ctx {
	struct user_env *env;
	struct ib_cq *cq;
};

/*
 * The rings of the QP of user_qp_attr() at @page, sized as a provider
 * sizes them: its 8 send WRs plus the 258 quanta the SQ keeps in reserve
 * make an SQ of 512 32-byte quanta, 4 pages; the RQ takes one page; the
 * shadow area follows.
 */
#define USER_QP_SQ_PAGES	4
#define USER_QP_RQ_PAGES	1
#define USER_QP_PAGES		(USER_QP_SQ_PAGES + USER_QP_RQ_PAGES + 1)

struct user_qp_ctx {
	struct user_env *env;
	struct ib_qp *qp;
};

/* What a refused create must leave as it was: IDs, CQP requests, pins */
struct user_before {
	struct irdma_mock_ids ids;
	s64 pinned;
};

extern const struct irdma_mem_reg_req user_qp_reg;

unsigned long user_page(struct user_env *env, u32 n);
struct user_env *user_env_create(struct kunit *test,
				 enum irdma_mock_profile profile);
struct ib_udata *user_udata(struct user_env *env, const void *req,
			    size_t inlen, size_t outlen);
struct ib_udata *user_udata_none(struct user_env *env);
void user_resp(struct user_env *env, void *resp, size_t len);
s64 user_pinned(void);
phys_addr_t user_phys(struct kunit *test, unsigned long va);
void user_expect_dma(struct user_env *env, u64 dma, unsigned long va);
void user_free_ucontext(struct ib_ucontext *uctx);
void user_dealloc_ucontext(void *data);
int user_try_ucontext(struct user_env *env, struct ib_udata *udata,
		      struct ib_ucontext **out);
struct irdma_alloc_ucontext_req user_uctx_req(u8 ver);
void user_open(struct user_env *env);
void user_dereg(void *data);
struct ib_mr *user_try_reg(struct user_env *env,
			   const struct irdma_mem_reg_req *req,
			   size_t inlen, unsigned long va, u64 len);
struct user_mr_ctx *user_reg_ctx(struct user_env *env,
				 const struct irdma_mem_reg_req *req,
				 unsigned long va, u64 len);
struct ib_mr *user_reg(struct user_env *env,
		       const struct irdma_mem_reg_req *req,
		       unsigned long va, u64 len);
void user_reg_cq_rings(struct user_env *env, u32 page, u16 pages);
struct irdma_create_cq_req user_cq_req(struct user_env *env, u32 page,
				       u32 pages);
void user_destroy_cq(void *data);
struct ib_cq *user_try_cq(struct user_env *env,
			  const struct irdma_create_cq_req *req,
			  size_t inlen, size_t outlen, int cqe);
struct user_cq_ctx *user_cq_ctx(struct user_env *env, u32 page,
				struct irdma_create_cq_resp *resp);
struct ib_cq *user_cq(struct user_env *env, u32 page,
		      struct irdma_create_cq_resp *resp);
struct ib_qp_init_attr user_qp_attr(struct ib_cq *cq);
void user_destroy_qp(void *data);
struct ib_qp *user_try_qp(struct user_env *env, struct ib_cq *cq,
			  unsigned long rings, size_t inlen,
			  size_t outlen);
struct user_qp_ctx *user_qp_ctx(struct user_env *env, struct ib_cq *cq,
				u32 page,
				struct irdma_create_qp_resp *resp);
struct ib_qp *user_qp(struct user_env *env, struct ib_cq *cq, u32 page,
		      struct irdma_create_qp_resp *resp);
u64 user_ring_page(struct user_env *env, bool vq, u64 pa, u32 n);
void user_save(struct user_env *env, enum irdma_mock_objs kind,
	       struct user_before *before);
void qp_expect_nothing(struct user_env *env, struct ib_qp *qp,
		       int err, const struct user_before *before);
int user_try_resize(struct user_env *env, struct ib_cq *cq, u32 page,
		    int cqe);

#endif /* IRDMA_USER_ENV_H */
