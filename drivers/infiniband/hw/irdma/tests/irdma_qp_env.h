/* SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB */
/*
 * What the QP suites share, irdma_verbs_qp (irdma_verbs_qp_kunit.c) and
 * the RoCE suites (irdma_roce_env.h): a mock device with a PD
 * and a CQ to make QPs on, the QP shapes every profile makes and those
 * the device cannot, and how a test reads a QP from the model.
 */
#ifndef IRDMA_QP_ENV_H
#define IRDMA_QP_ENV_H

#include <rdma/ib_verbs.h>

struct irdma_hw_qp;
struct irdma_mock;
struct kunit;

/* A CQP error the driver sees as any failed command */
#define QP_TEST_MAJ		0x0100
#define QP_TEST_MIN		0x0002

/* Where the buffers are said to be; nothing reads them */
#define QP_TEST_BUF		0x300000ULL
#define QP_TEST_BUF_LEN		512

struct qp_env {
	struct irdma_mock *mock;
	struct ib_pd *pd;
	struct ib_cq *cq;
};

struct create_case {
	const char *name;
	struct ib_qp_cap cap;
};

struct bad_case {
	const char *name;
	enum ib_qp_type type;
	struct ib_qp_cap cap;
	u32 flags;
};

/* The QP shapes of create_cases[], those the device refuses of bad_cases[] */
#define QP_TEST_CREATE_CASES	7
#define QP_TEST_BAD_CASES	10

extern const struct create_case create_cases[QP_TEST_CREATE_CASES];
extern const struct bad_case bad_cases[QP_TEST_BAD_CASES];

void qp_env(struct kunit *test, struct qp_env *env);
void qp_env_done(struct qp_env *env);
struct ib_qp *create_qp(struct qp_env *env, enum ib_qp_type type,
			struct ib_qp_cap *cap, u32 flags);
void model_qp(struct kunit *test, struct irdma_mock *mock,
	      struct ib_qp *qp, struct irdma_hw_qp *hw);
u32 rq_wqe_bytes(u32 sges);
void expect_create_refused(struct kunit *test, struct qp_env *env,
			   const struct bad_case *c);

#endif /* IRDMA_QP_ENV_H */
