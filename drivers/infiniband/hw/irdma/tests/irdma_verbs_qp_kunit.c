// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_qp: queue pairs through irdma's verbs, on the
 * mock E810 in iWARP mode.
 *
 * The cases call ib_create_qp(), ib_modify_qp(), ib_query_qp(),
 * ib_post_recv(), ib_post_send() and ib_destroy_qp() on the mock device of
 * irdma_mock.c, whose CQP is answered by the firmware model of
 * irdma_hw_model.c.  They judge what the hardware is told: the QP the
 * model created from the CREATE_QP WQE and the host context it points to
 * (type, state, its CQs and PD, the sizes of its queues), each MODIFY_QP's
 * next state, the DESTROY_QP; and the RQ WQEs as the wire engine reads
 * them, with the hardware's layout.  Without a connection manager an
 * iWARP QP goes from RESET to INIT (the hardware's IDLE) and RTR, to
 * ERR, and back to RESET; RTS is the CM's.  A verb that fails must leave
 * the QP IDs, CQP requests and the hardware as they were.
 */
#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/kthread.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "irdma_qp_env.h"

/* How long the driver's flush worker may take to complete a flushed WR */
#define QP_TEST_FLUSH_WAIT_MS	2000

/* How long destroy_qp is given to wait for a QP reference to be put */
#define QP_TEST_DESTROY_WAIT_MS	500

/* The SEND opcode, which an RQ CQE of a received SEND carries */
#define QP_TEST_OP_SEND		0x03

KUNIT_ARRAY_PARAM_DESC(create, create_cases, name);

/*
 * An RC QP exists in the hardware as an iWARP QP, IDLE, its host context
 * naming its CQs (its PD is the CM's to write, with the connection's
 * TCP state, before RTS), with queues big enough for what the QP was
 * created to hold; the capabilities it reports are at least those asked
 * for.  Destroying it takes it from the hardware and gives its ID back.
 */
static void qp_create(struct kunit *test)
{
	const struct create_case *c = test->param_value;
	struct ib_qp_cap cap = c->cap;
	struct qp_env env;
	struct irdma_hw_qp hw;
	struct irdma_mock_ids was;
	struct ib_qp *qp;
	u32 id;

	qp_env(test, &env);
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_QPS, &was);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	id = qp->qp_num;
	KUNIT_EXPECT_GT(test, id, 1);	/* QP0 and QP1 are not an RC QP's */
	KUNIT_EXPECT_TRUE(test, test_bit(id, env.mock->rf.allocated_qps));
	KUNIT_EXPECT_GE(test, cap.max_send_wr, c->cap.max_send_wr);
	KUNIT_EXPECT_GE(test, cap.max_recv_wr, c->cap.max_recv_wr);
	KUNIT_EXPECT_GE(test, cap.max_send_sge, c->cap.max_send_sge);
	KUNIT_EXPECT_GE(test, cap.max_recv_sge, c->cap.max_recv_sge);
	KUNIT_EXPECT_GE(test, cap.max_inline_data, c->cap.max_inline_data);

	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.type, IRDMA_HW_QPT_IWARP);
	KUNIT_EXPECT_EQ(test, hw.state, IRDMA_HW_QPS_IDLE);
	KUNIT_EXPECT_TRUE(test, hw.iwarp);
	KUNIT_EXPECT_EQ(test, hw.send_cq, to_iwcq(env.cq)->cq_num);
	KUNIT_EXPECT_EQ(test, hw.recv_cq, to_iwcq(env.cq)->cq_num);
	KUNIT_EXPECT_NE(test, hw.comp_ctx, 0);
	KUNIT_EXPECT_GE(test, hw.sq_quanta, cap.max_send_wr);
	KUNIT_EXPECT_GE(test, hw.rq_quanta >> hw.rq_wqe_shift,
			cap.max_recv_wr);
	KUNIT_EXPECT_GE(test, 32U << hw.rq_wqe_shift,
			rq_wqe_bytes(cap.max_recv_sge));

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(env.mock->hw, id, &hw));
	irdma_mock_expect_ids(env.mock, &was);
	qp_env_done(&env);
}

/* The QP commands name the QP and its host context, CREATE to DESTROY */
static void qp_create_destroy_wqes(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct irdma_hw_wqe create, destroy;
	struct qp_env env;
	struct ib_qp *qp;

	qp_env(test, &env);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	irdma_mock_last_wqe(env.mock, IRDMA_HW_OP_CREATE_QP, &create);
	KUNIT_EXPECT_FALSE(test, create.error);
	KUNIT_EXPECT_EQ(test, create.qp.id, qp->qp_num);
	KUNIT_EXPECT_EQ(test, create.qp.next_state, IRDMA_HW_QPS_IDLE);
	KUNIT_EXPECT_TRUE(test, create.qp.cq_num_valid);
	KUNIT_EXPECT_FALSE(test, create.qp.virtual_map);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	irdma_mock_last_wqe(env.mock, IRDMA_HW_OP_DESTROY_QP, &destroy);
	KUNIT_EXPECT_FALSE(test, destroy.error);
	KUNIT_EXPECT_EQ(test, destroy.qp.id, create.qp.id);
	KUNIT_EXPECT_EQ(test, destroy.qp.ctx_pa, create.qp.ctx_pa);
	qp_env_done(&env);
}

/*
 * A QP on two CQs: its context names each where the hardware posts, the
 * send CQ for the SQ and the receive CQ for the RQ, and a receive
 * completes on the receive CQ alone.
 */
static void qp_create_two_cqs(struct kunit *test)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_sge sge = { .addr = QP_TEST_BUF, .length = 64, .lkey = 1 };
	struct ib_recv_wr wr = { .wr_id = 7, .sg_list = &sge, .num_sge = 1 };
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { 16, 16, 1, 1, 0 },
	};
	struct irdma_hw_cqe cqe = { .op = QP_TEST_OP_SEND, .bytes = 64 };
	const struct ib_recv_wr *bad;
	struct irdma_hw_qp hw;
	struct ib_cq *rcq;
	struct qp_env env;
	struct ib_qp *qp;
	struct ib_wc wc;

	qp_env(test, &env);
	rcq = irdma_mock_verbs_cq(env.mock, 32);
	init.send_cq = env.cq;
	init.recv_cq = rcq;
	qp = ib_create_qp(env.pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.send_cq, to_iwcq(env.cq)->cq_num);
	KUNIT_EXPECT_EQ(test, hw.recv_cq, to_iwcq(rcq)->cq_num);

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, &bad), 0);
	cqe.qp_id = qp->qp_num;
	KUNIT_ASSERT_EQ(test, irdma_hw_model_cq_post(env.mock->hw, hw.recv_cq,
						     &cqe), 0);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(env.cq, 1, &wc), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(rcq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 7);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	ib_destroy_qp(qp);
	ib_destroy_cq(rcq);
	qp_env_done(&env);
}

KUNIT_ARRAY_PARAM_DESC(bad, bad_cases, name);

static void qp_create_bad(struct kunit *test)
{
	struct qp_env env;

	qp_env(test, &env);
	expect_create_refused(test, &env, test->param_value);
	qp_env_done(&env);
}

/* A CREATE_QP the hardware fails: an error, the QP ID given back */
static void qp_create_cqp_fails(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct irdma_mock_ids was;
	struct ib_qp *qp;
	u32 i;

	qp_env(test, &env);
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_QPS, &was);
	irdma_hw_model_fail_next(env.mock->hw, IRDMA_HW_OP_CREATE_QP,
				 QP_TEST_MAJ, QP_TEST_MIN);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	irdma_mock_expect_ids(env.mock, &was);
	for (i = 0; i < env.mock->rf.max_qp; i++)
		KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(env.mock->hw, i, &hw));
	KUNIT_EXPECT_EQ(test, env.mock->resets, 0);
	qp_env_done(&env);
}

/*
 * Every QP ID of the function can be taken, each QP in the hardware; the
 * next create fails and takes nothing, and all come back on destroy.
 */
static void qp_create_ids_exhausted(struct kunit *test)
{
	struct ib_qp_cap cap = { 4, 4, 1, 1, 0 };
	struct irdma_mock_ids was, full;
	struct irdma_hw_qp hw;
	struct ib_qp **qps;
	struct qp_env env;
	struct ib_qp *qp;
	u32 max, n = 0, i;

	qp_env(test, &env);
	max = env.mock->rf.max_qp;
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_QPS, &was);
	qps = kunit_kcalloc(test, max, sizeof(*qps), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, qps);
	for (;;) {
		qp = create_qp(&env, IB_QPT_RC, &cap, 0);
		if (IS_ERR(qp))
			break;
		KUNIT_ASSERT_LT(test, n, max);
		qps[n++] = qp;
	}
	KUNIT_EXPECT_EQ(test, n, max - bitmap_weight(was.ids, max));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, irdma_hw_model_qp(env.mock->hw,
							  qps[i]->qp_num, &hw));
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_QPS, &full);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(qp));
	irdma_mock_expect_ids(env.mock, &full);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, ib_destroy_qp(qps[i]), 0);
	irdma_mock_expect_ids(env.mock, &was);
	qp_env_done(&env);
}

/* A step of a state walk: the verb's answer and the hardware's state */
struct walk_step {
	enum ib_qp_state to;
	int ret;
	u8 hw_state;
};

#define WALK_MAX	6

struct walk_case {
	const char *name;
	struct walk_step step[WALK_MAX];
	u32 steps;
};

/*
 * What irdma's iWARP QPs accept without a connection: INIT makes the
 * hardware's QP IDLE, RTR changes nothing there, RTS is refused (the CM
 * moves a QP there once connected), ERR moves it to ERROR from any state,
 * and RESET after ERR is accepted and leaves the hardware in ERROR.
 */
static const struct walk_case walk_cases[] = {
	{ "RESET-INIT-RTR", {
		{ IB_QPS_INIT, 0, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_RTR, 0, IRDMA_HW_QPS_IDLE } }, 2 },
	{ "INIT-RTR-RTS refused", {
		{ IB_QPS_INIT, 0, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_RTR, 0, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_RTS, -EINVAL, IRDMA_HW_QPS_IDLE } }, 3 },
	{ "INIT-RTR-ERR-RESET", {
		{ IB_QPS_INIT, 0, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_RTR, 0, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_ERR, 0, IRDMA_HW_QPS_ERROR },
		{ IB_QPS_RESET, 0, IRDMA_HW_QPS_ERROR } }, 4 },
	{ "INIT-ERR", {
		{ IB_QPS_INIT, 0, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_ERR, 0, IRDMA_HW_QPS_ERROR } }, 2 },
	{ "RESET-ERR", {
		{ IB_QPS_ERR, 0, IRDMA_HW_QPS_ERROR } }, 1 },
	{ "INIT twice", {
		{ IB_QPS_INIT, 0, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_INIT, 0, IRDMA_HW_QPS_IDLE } }, 2 },
	{ "ERR-INIT refused", {
		{ IB_QPS_INIT, 0, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_ERR, 0, IRDMA_HW_QPS_ERROR },
		{ IB_QPS_INIT, -EINVAL, IRDMA_HW_QPS_ERROR } }, 3 },
};

KUNIT_ARRAY_PARAM_DESC(walk, walk_cases, name);

/*
 * Each step's answer, the state the hardware was moved to by the last
 * MODIFY_QP (refused steps issue none that changes it), and the state
 * query_qp reports after a step that succeeded.
 */
static void qp_modify_walk(struct kunit *test)
{
	const struct walk_case *c = test->param_value;
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 i;

	qp_env(test, &env);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	for (i = 0; i < c->steps; i++) {
		const struct walk_step *s = &c->step[i];

		attr = (struct ib_qp_attr){ .qp_state = s->to };
		KUNIT_EXPECT_EQ_MSG(test, ib_modify_qp(qp, &attr, IB_QP_STATE),
				    s->ret, "step %u", i);
		model_qp(test, env.mock, qp, &hw);
		KUNIT_EXPECT_EQ_MSG(test, hw.state, s->hw_state, "step %u", i);
		if (s->ret)
			continue;
		KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &attr, IB_QP_STATE,
						  &init), 0);
		KUNIT_EXPECT_EQ_MSG(test, attr.qp_state, s->to, "step %u", i);
	}
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(env.mock->hw,
						   qp->qp_num, &hw));
	qp_env_done(&env);
}

/* INIT: one MODIFY_QP, to IDLE, with the QP's own context */
static void qp_modify_init_wqe(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct irdma_hw_wqe create, modify;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;

	qp_env(test, &env);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	irdma_mock_last_wqe(env.mock, IRDMA_HW_OP_CREATE_QP, &create);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	irdma_mock_last_wqe(env.mock, IRDMA_HW_OP_MODIFY_QP, &modify);
	KUNIT_EXPECT_FALSE(test, modify.error);
	KUNIT_EXPECT_EQ(test, modify.qp.id, qp->qp_num);
	KUNIT_EXPECT_EQ(test, modify.qp.ctx_pa, create.qp.ctx_pa);
	KUNIT_EXPECT_EQ(test, modify.qp.next_state, IRDMA_HW_QPS_IDLE);
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.modifies, 1);
	ib_destroy_qp(qp);
	qp_env_done(&env);
}

/*
 * ERR: the hardware moves the QP to ERROR, with no connection to reset,
 * and is asked to flush both queues.
 */
static void qp_modify_err_flushes(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct irdma_hw_wqe modify;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u64 seq;

	qp_env(test, &env);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	attr.qp_state = IB_QPS_ERR;
	seq = irdma_hw_model_wqes(env.mock->hw);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	/* the cleanup work's FLUSH_WQES may already have followed it */
	irdma_mock_wqe_since(env.mock, seq, IRDMA_HW_OP_MODIFY_QP, &modify);
	KUNIT_EXPECT_EQ(test, modify.qp.next_state, IRDMA_HW_QPS_ERROR);
	KUNIT_EXPECT_FALSE(test, modify.qp.reset_conn);
	/* The flush comes from the driver's cleanup work */
	flush_workqueue(env.mock->iwdev->cleanup_wq);
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.state, IRDMA_HW_QPS_ERROR);
	KUNIT_EXPECT_TRUE(test, hw.sq_flushed);
	KUNIT_EXPECT_TRUE(test, hw.rq_flushed);
	ib_destroy_qp(qp);
	qp_env_done(&env);
}

/*
 * A MODIFY_QP the hardware fails: an error and the CQP request given
 * back; the QP can still be destroyed, and goes from the hardware.
 */
static void qp_modify_cqp_fails(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 avail, id;

	qp_env(test, &env);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	avail = irdma_mock_cqp_avail(env.mock);
	irdma_hw_model_fail_next(env.mock->hw, IRDMA_HW_OP_MODIFY_QP,
				 QP_TEST_MAJ, QP_TEST_MIN);
	KUNIT_EXPECT_LT(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(env.mock), avail);
	id = qp->qp_num;
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(env.mock->hw, id, &hw));
	qp_env_done(&env);
}

/* A QP in INIT, for the posting cases */
static struct ib_qp *init_qp(struct kunit *test, struct qp_env *env,
			     struct ib_qp_cap *cap)
{
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_qp *qp;

	qp = create_qp(env, IB_QPT_RC, cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	return qp;
}

static void fill_sges(struct ib_sge *sge, u32 n, u32 lkey, u32 salt)
{
	u32 i;

	for (i = 0; i < n; i++) {
		sge[i].addr = QP_TEST_BUF + (u64)(salt * 16 + i) * PAGE_SIZE + i;
		sge[i].length = QP_TEST_BUF_LEN + i + salt;
		sge[i].lkey = lkey + i;
	}
}

static void expect_rq_wqe(struct kunit *test, struct irdma_mock *mock,
			  struct ib_qp *qp, u32 idx, const struct ib_sge *sge,
			  u32 n, bool valid)
{
	struct irdma_hw_rq_wqe w;
	u32 i;

	KUNIT_ASSERT_TRUE(test, irdma_hw_model_rq_wqe(mock->hw, qp->qp_num,
						      idx, &w));
	KUNIT_EXPECT_EQ_MSG(test, w.valid, valid, "RQ WQE %u", idx);
	KUNIT_ASSERT_EQ_MSG(test, w.num_frags, n, "RQ WQE %u", idx);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, w.frag[i].addr, sge[i].addr);
		KUNIT_EXPECT_EQ(test, w.frag[i].length, sge[i].length);
		KUNIT_EXPECT_EQ(test, w.frag[i].stag, sge[i].lkey);
	}
}

static const u32 recv_sges[] = { 1, 2, 3, 4, 13 };

static void recv_sges_desc(const u32 *n, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u SGEs", *n);
}

KUNIT_ARRAY_PARAM(recv_sges, recv_sges, recv_sges_desc);

/*
 * post_recv writes RQ WQEs the wire engine reads: each SGE's address,
 * length and STag where the hardware's layout puts fragment i, the count
 * in the header (GEN2's null fragment after an even count not among
 * them), the valid bit of the first pass of the ring.
 */
static void qp_post_recv_wqe(struct kunit *test)
{
	const u32 n = *(const u32 *)test->param_value;
	struct ib_qp_cap cap = { 16, 8, 1, n, 0 };
	struct ib_sge sge[IRDMA_MAX_WQ_FRAGMENT_COUNT];
	struct ib_recv_wr wr = { .sg_list = sge, .num_sge = n };
	const struct ib_recv_wr *bad;
	struct qp_env env;
	struct ib_qp *qp;
	u32 i;

	qp_env(test, &env);
	qp = init_qp(test, &env, &cap);
	for (i = 0; i < 4; i++) {
		fill_sges(sge, n, 0x100 * (i + 1), i);
		wr.wr_id = i;
		KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, &bad), 0);
	}
	for (i = 0; i < 4; i++) {
		fill_sges(sge, n, 0x100 * (i + 1), i);
		expect_rq_wqe(test, env.mock, qp, i, sge, n, true);
	}
	ib_destroy_qp(qp);
	qp_env_done(&env);
}

/*
 * Round the RQ and back: the hardware completes each WQE, and the next
 * pass writes the valid bit flipped, which is how the wire engine tells
 * new WQEs from old.
 */
static void qp_post_recv_wrap(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 8, 1, 1, 0 };
	struct ib_sge sge;
	struct ib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_wc wc;
	struct ib_qp *qp;
	u32 i, wqes, cq_num;

	qp_env(test, &env);
	qp = init_qp(test, &env, &cap);
	cq_num = to_iwcq(env.cq)->cq_num;
	model_qp(test, env.mock, qp, &hw);
	wqes = hw.rq_quanta >> hw.rq_wqe_shift;
	for (i = 0; i < 2 * wqes; i++) {
		struct irdma_hw_cqe cqe = {
			.qp_id = qp->qp_num, .op = QP_TEST_OP_SEND,
			.wqe_idx = (i % wqes) << hw.rq_wqe_shift,
		};

		fill_sges(&sge, 1, 0x40 + i, i % 8);
		wr.wr_id = i;
		KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, &bad), 0);
		expect_rq_wqe(test, env.mock, qp, i % wqes, &sge, 1,
			      i < wqes);
		KUNIT_ASSERT_EQ(test, irdma_hw_model_cq_post(env.mock->hw, cq_num,
							     &cqe), 0);
		KUNIT_ASSERT_EQ(test, ib_poll_cq(env.cq, 1, &wc), 1);
		KUNIT_EXPECT_EQ(test, wc.wr_id, i);
	}
	ib_destroy_qp(qp);
	qp_env_done(&env);
}

/*
 * A receive of more SGEs than the QP was made for is refused with bad_wr
 * on it; the WRs before it in the list are posted, and the RQ WQE after
 * them is not written.
 */
static void qp_post_recv_too_many_sges(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 2, 0 };
	struct ib_sge sge[3];
	struct ib_recv_wr wr[2] = {
		{ .wr_id = 1, .sg_list = sge, .num_sge = 2, .next = &wr[1] },
		{ .wr_id = 2, .sg_list = sge, .num_sge = 3 },
	};
	const struct ib_recv_wr *bad = NULL;
	struct irdma_hw_rq_wqe w;
	struct qp_env env;
	struct ib_qp *qp;

	qp_env(test, &env);
	qp = init_qp(test, &env, &cap);
	KUNIT_ASSERT_LE(test, cap.max_recv_sge, 2);
	fill_sges(sge, 3, 0x500, 0);
	KUNIT_EXPECT_LT(test, ib_post_recv(qp, wr, &bad), 0);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr[1]);
	expect_rq_wqe(test, env.mock, qp, 0, sge, 2, true);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_rq_wqe(env.mock->hw,
						      qp->qp_num, 1, &w));
	KUNIT_EXPECT_FALSE(test, w.valid);
	ib_destroy_qp(qp);
	qp_env_done(&env);
}

/* An RQ takes at least the receives the QP reports, and then refuses */
static void qp_post_recv_full(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_sge sge;
	struct ib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 posted = 0;

	qp_env(test, &env);
	qp = init_qp(test, &env, &cap);
	model_qp(test, env.mock, qp, &hw);
	fill_sges(&sge, 1, 0x77, 0);
	while (!ib_post_recv(qp, &wr, &bad)) {
		posted++;
		KUNIT_ASSERT_LE(test, posted, hw.rq_quanta);
	}
	KUNIT_EXPECT_GE(test, posted, cap.max_recv_wr);
	KUNIT_EXPECT_LT(test, posted, hw.rq_quanta >> hw.rq_wqe_shift);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr);
	ib_destroy_qp(qp);
	qp_env_done(&env);
}

/* A send of more SGEs than the QP was made for is refused with bad_wr */
static void qp_post_send_too_many_sges(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 2, 1, 0 };
	struct ib_sge sge[3];
	struct ib_send_wr wr = {
		.wr_id = 9, .sg_list = sge, .num_sge = 3,
		.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
	};
	const struct ib_send_wr *bad = NULL;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 dbs;

	qp_env(test, &env);
	qp = init_qp(test, &env, &cap);
	KUNIT_ASSERT_LE(test, cap.max_send_sge, 2);
	model_qp(test, env.mock, qp, &hw);
	dbs = hw.doorbells;
	fill_sges(sge, 3, 0x600, 0);
	KUNIT_EXPECT_LT(test, ib_post_send(qp, &wr, &bad), 0);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr);
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.doorbells, dbs);
	ib_destroy_qp(qp);
	qp_env_done(&env);
}

/* Poll @n flush completions, in order from @wr_id, within the wait */
static void expect_flushed(struct kunit *test, struct ib_cq *cq, u64 wr_id,
			   u32 n)
{
	unsigned long end = jiffies + msecs_to_jiffies(QP_TEST_FLUSH_WAIT_MS);
	struct ib_wc wc;
	u32 got = 0;

	while (got < n && time_before(jiffies, end)) {
		if (ib_poll_cq(cq, 1, &wc) != 1) {
			usleep_range(5000, 10000);
			continue;
		}
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_WR_FLUSH_ERR);
		KUNIT_EXPECT_EQ(test, wc.wr_id, wr_id + got);
		got++;
	}
	KUNIT_EXPECT_EQ(test, got, n);
}

/* A QP in ERR whose flush the hardware was asked for */
static struct ib_qp *err_qp(struct kunit *test, struct qp_env *env)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct irdma_hw_qp hw;
	struct ib_qp *qp;

	qp = init_qp(test, env, &cap);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	flush_workqueue(env->mock->iwdev->cleanup_wq);
	model_qp(test, env->mock, qp, &hw);
	KUNIT_ASSERT_TRUE(test, hw.sq_flushed);
	return qp;
}

struct flush_case {
	const char *name;
	bool send;		/* SENDs, else receives */
	bool before_err;	/* posted before the move to ERR */
	u32 n;
	u64 wr_id;		/* the first one's */
	bool chained;		/* in one list, else one call each */
};

static const struct flush_case flush_cases[] = {
	{ "SENDs on a QP in ERR", true, false, 3, 50, true },
	{ "receives on a QP in ERR", false, false, 4, 80, false },
	{ "receives posted before ERR", false, true, 5, 90, false },
};

KUNIT_ARRAY_PARAM_DESC(flush, flush_cases, name);

/* Post @c's work requests, one list or one call each */
static void flush_post(struct kunit *test, struct ib_qp *qp,
		       const struct flush_case *c)
{
	struct ib_send_wr swr[8];
	struct ib_recv_wr rwr[8];
	const struct ib_send_wr *sbad = NULL;
	const struct ib_recv_wr *rbad = NULL;
	struct ib_sge sge;
	u32 i, per_call = c->chained ? c->n : 1;

	KUNIT_ASSERT_LE(test, c->n, ARRAY_SIZE(swr));
	fill_sges(&sge, 1, 0x700 + (u32)c->wr_id, 0);
	for (i = 0; i < c->n; i++) {
		bool last = (i + 1) % per_call == 0;

		swr[i] = (struct ib_send_wr){
			.wr_id = c->wr_id + i, .sg_list = &sge, .num_sge = 1,
			.opcode = IB_WR_SEND, .send_flags = IB_SEND_SIGNALED,
			.next = last ? NULL : &swr[i + 1],
		};
		rwr[i] = (struct ib_recv_wr){
			.wr_id = c->wr_id + i, .sg_list = &sge, .num_sge = 1,
			.next = last ? NULL : &rwr[i + 1],
		};
	}
	for (i = 0; i < c->n; i += per_call) {
		if (c->send)
			KUNIT_EXPECT_EQ(test, ib_post_send(qp, &swr[i], &sbad),
					0);
		else
			KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &rwr[i], &rbad),
					0);
	}
}

/*
 * Work requests on a QP in ERR, or posted before it went there and never
 * completed by the hardware, complete with a flush error, in order: the
 * hardware reads nothing of a flushed queue.  post_send and post_recv
 * accept them.
 */
static void qp_flushed(struct kunit *test)
{
	const struct flush_case *c = test->param_value;
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_ERR };
	struct qp_env env;
	struct ib_qp *qp;

	qp_env(test, &env);
	if (c->before_err) {
		qp = init_qp(test, &env, &cap);
		flush_post(test, qp, c);
		KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	} else {
		qp = err_qp(test, &env);
		flush_post(test, qp, c);
	}
	expect_flushed(test, env.cq, c->wr_id, c->n);
	ib_destroy_qp(qp);
	qp_env_done(&env);
}

/*
 * The hardware refuses a DESTROY_QP of a QP it does not have, in the
 * CQE: destroy_qp's own after one sent behind the verbs' back, which the
 * verb survives, its QP ID given back.
 */
static void qp_hw_refuses_destroy_twice(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct irdma_hw_wqe w;
	struct qp_env env;
	struct ib_qp *qp;
	u32 id;

	qp_env(test, &env);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	id = qp->qp_num;
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_cmd(env.mock, IRDMA_OP_QP_DESTROY, qp), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	irdma_mock_last_wqe(env.mock, IRDMA_HW_OP_DESTROY_QP, &w);
	KUNIT_EXPECT_TRUE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.min, IRDMA_HW_MIN_NO_OBJ);
	KUNIT_EXPECT_FALSE(test, test_bit(id, env.mock->rf.allocated_qps));
	KUNIT_EXPECT_EQ(test, env.mock->resets, 0);
	qp_env_done(&env);
}

struct qp_destroy_ctx {
	struct ib_qp *qp;
	struct completion done;
};

static int qp_destroy_thread(void *data)
{
	struct qp_destroy_ctx *c = data;

	ib_destroy_qp(c->qp);
	complete(&c->done);
	return 0;
}

/*
 * destroy_qp returns only once every reference on the QP is put, after
 * irdma flagged the function for a reset (rf->reset) too: the RDMA core
 * frees the QP when destroy_qp returns, and a holder such as iw_cm, which
 * took its reference through iw_add_ref for a connection, puts it later
 * with iw_rem_ref, on the QP.
 */
static void qp_destroy_waits_for_refs_in_reset(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct irdma_pci_f *rf;
	struct qp_destroy_ctx *c;
	struct task_struct *t;
	struct qp_env env;
	unsigned long left;

	qp_env(test, &env);
	rf = &env.mock->rf;
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	init_completion(&c->done);
	c->qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c->qp);

	c->qp->device->ops.iw_add_ref(c->qp);
	rf->reset = true;
	t = kthread_run(qp_destroy_thread, c, "irdma_qp_destroy");
	if (IS_ERR(t)) {
		rf->reset = false;
		c->qp->device->ops.iw_rem_ref(c->qp);
		KUNIT_FAIL(test, "no thread to destroy the QP in");
		ib_destroy_qp(c->qp);
		qp_env_done(&env);
		return;
	}
	left = wait_for_completion_timeout(&c->done,
					   msecs_to_jiffies(QP_TEST_DESTROY_WAIT_MS));
	rf->reset = false;
	if (left) {
		/* the QP is freed: its last reference must not be put */
		KUNIT_FAIL(test, "destroy_qp returned with a reference held");
	} else {
		c->qp->device->ops.iw_rem_ref(c->qp);
		wait_for_completion(&c->done);
	}
	KUNIT_EXPECT_EQ(test, env.mock->resets, 0);
	qp_env_done(&env);
}

static struct kunit_case irdma_verbs_qp_cases[] = {
	KUNIT_CASE_PARAM(qp_create, create_gen_params),
	KUNIT_CASE(qp_create_destroy_wqes),
	KUNIT_CASE(qp_create_two_cqs),
	KUNIT_CASE_PARAM(qp_create_bad, bad_gen_params),
	KUNIT_CASE(qp_create_cqp_fails),
	KUNIT_CASE(qp_create_ids_exhausted),
	KUNIT_CASE_PARAM(qp_modify_walk, walk_gen_params),
	KUNIT_CASE(qp_modify_init_wqe),
	KUNIT_CASE(qp_modify_err_flushes),
	KUNIT_CASE(qp_modify_cqp_fails),
	KUNIT_CASE_PARAM(qp_post_recv_wqe, recv_sges_gen_params),
	KUNIT_CASE(qp_post_recv_wrap),
	KUNIT_CASE(qp_post_recv_too_many_sges),
	KUNIT_CASE(qp_post_recv_full),
	KUNIT_CASE(qp_post_send_too_many_sges),
	KUNIT_CASE_PARAM(qp_flushed, flush_gen_params),
	KUNIT_CASE(qp_hw_refuses_destroy_twice),
	KUNIT_CASE(qp_destroy_waits_for_refs_in_reset),
	{}
};

static struct kunit_suite irdma_verbs_qp_suite = {
	.name = "irdma_verbs_qp",
	.test_cases = irdma_verbs_qp_cases,
};

kunit_test_suites(&irdma_verbs_qp_suite);
