// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The helpers of irdma_qp_env.h, which both QP suites use: a test's QP
 * environment, its QPs as the model holds them, the QP shapes every
 * profile makes and those the device cannot, refused as they must be.
 */
#include <kunit/test.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "irdma_qp_env.h"

void qp_env(struct kunit *test, struct qp_env *env)
{
	env->mock = irdma_mock_create(test, NULL);
	env->pd = irdma_mock_alloc_pd(env->mock);
	env->cq = irdma_mock_verbs_cq(env->mock, 256);
}

void qp_env_done(struct qp_env *env)
{
	ib_destroy_cq(env->cq);
}

struct ib_qp *create_qp(struct qp_env *env, enum ib_qp_type type,
			struct ib_qp_cap *cap, u32 flags)
{
	struct ib_qp_init_attr attr = {
		.send_cq = env->cq,
		.recv_cq = env->cq,
		.qp_type = type,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.create_flags = flags,
		.cap = *cap,
	};
	struct ib_qp *qp;

	qp = ib_create_qp(env->pd, &attr);
	if (!IS_ERR(qp))
		*cap = attr.cap;
	return qp;
}

void model_qp(struct kunit *test, struct irdma_mock *mock,
	      struct ib_qp *qp, struct irdma_hw_qp *hw)
{
	KUNIT_ASSERT_TRUE_MSG(test, irdma_hw_model_qp(mock->hw, qp->qp_num, hw),
			      "QP %u not in the hardware", qp->qp_num);
}

/* Bytes an RQ WQE needs for @sges: fragment 0, the header, then 16 each */
u32 rq_wqe_bytes(u32 sges)
{
	return 32 + 16 * (sges > 1 ? sges - 1 : 0);
}

const struct create_case create_cases[] = {
	{ "1 WR each way", { 1, 1, 1, 1, 0 } },
	{ "16/16, 1 SGE", { 16, 16, 1, 1, 0 } },
	{ "128/32, 4/1 SGEs", { 128, 32, 4, 1, 0 } },
	{ "64/64, 2/2 SGEs", { 64, 64, 2, 2, 0 } },
	{ "32/32, 13/13 SGEs", { 32, 32, 13, 13, 0 } },
	{ "1024/1024, 3/3 SGEs", { 1024, 1024, 3, 3, 0 } },
	{ "16/16, 64 inline", { 16, 16, 1, 1, 64 } },
};

const struct bad_case bad_cases[] = {
	{ "14 send SGEs", IB_QPT_RC, { 16, 16, 14, 1, 0 } },
	{ "14 recv SGEs", IB_QPT_RC, { 16, 16, 1, 14, 0 } },
	{ "102 inline bytes", IB_QPT_RC, { 16, 16, 1, 1, 102 } },
	{ "send WRs past the SQ", IB_QPT_RC,
	  { IRDMA_QP_SW_MAX_WQ_QUANTA + 1, 16, 1, 1, 0 } },
	{ "recv WRs past the RQ", IB_QPT_RC,
	  { 16, IRDMA_QP_SW_MAX_RQ_QUANTA + 1, 1, 1, 0 } },
	{ "SQ deeper than the hardware's", IB_QPT_RC,
	  { IRDMA_QP_SW_MAX_WQ_QUANTA, 16, 1, 1, 0 } },
	{ "SQ of 13-SGE WRs too deep", IB_QPT_RC,
	  { IRDMA_QP_SW_MAX_WQ_QUANTA / 4, 16, 13, 1, 0 } },
	{ "UD on iWARP", IB_QPT_UD, { 16, 16, 1, 1, 0 } },
	{ "UC", IB_QPT_UC, { 16, 16, 1, 1, 0 } },
	{ "creation flags", IB_QPT_RC, { 16, 16, 1, 1, 0 },
	  IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK },
};

/*
 * A QP the device cannot make gets an errno before the hardware hears of
 * it, and the QP IDs, qp_table, CQP requests, tracked QPs and the work
 * scheduler (RoCE's) stay as they were.
 */
void expect_create_refused(struct kunit *test, struct qp_env *env,
			   const struct bad_case *c)
{
	struct ib_qp_cap cap = c->cap;
	struct irdma_mock_ids was;
	struct ib_qp *qp;
	u32 nodes;
	int qsets;

	irdma_mock_save_ids(env->mock, IRDMA_MOCK_QPS, &was);
	nodes = irdma_hw_model_ws_nodes(env->mock->hw);
	qsets = env->mock->qsets;
	qp = create_qp(env, c->type, &cap, c->flags);
	KUNIT_EXPECT_TRUE(test, IS_ERR(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env->mock->hw,
						      IRDMA_HW_OP_CREATE_QP),
			was.creates);
	irdma_mock_expect_ids(env->mock, &was);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_ws_nodes(env->mock->hw), nodes);
	KUNIT_EXPECT_EQ(test, env->mock->qsets, qsets);
}
