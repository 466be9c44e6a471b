// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_roce: RC and UD queue pairs through irdma's
 * verbs on the mock E810 in RoCEv2 mode (irdma_roce_env.h), whose netdev
 * the RDMA core finds its default GID on, and whose work scheduler the
 * mock runs for ice: the port, each QP's creation, its walk through the
 * states with the address vector and path a ULP gives, and the
 * modifications the device must refuse with nothing changed.
 */
#include <kunit/test.h>
#include <rdma/ib_cache.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "irdma_roce_env.h"

/* The UDP port of RoCEv2, and where its source ports lie (IBTA A17) */
#define ROCE_TEST_UDP_DPORT	4791
#define ROCE_TEST_SPORT_MIN	0xc000

/* The work scheduler leaf a QP's context names, enabled, ice's queue set */
static void expect_ws_leaf(struct kunit *test, struct irdma_mock *mock,
			   const struct irdma_hw_qp *hw)
{
	struct irdma_hw_ws_node leaf;

	KUNIT_EXPECT_LT_MSG(test, irdma_hw_model_ws_find(mock->hw,
							 hw->roce.qs_handle,
							 &leaf),
			    IRDMA_HW_WS_NODES, "QS handle %u names no leaf",
			    hw->roce.qs_handle);
	if (irdma_hw_model_ws_find(mock->hw, hw->roce.qs_handle, &leaf) <
	    IRDMA_HW_WS_NODES)
		KUNIT_EXPECT_TRUE(test, leaf.enable);
	KUNIT_EXPECT_EQ(test, mock->qsets, 1);
}

/*
 * A RoCE function: a CA whose port is RoCEv2 (UDP-encapsulated), with the
 * GID table, P_Key table and default GID RoCE needs.
 */
static void roce_port(struct kunit *test)
{
	struct irdma_mock_params p = { .profile = IRDMA_MOCK_E810_ROCE };
	struct irdma_mock *mock = irdma_mock_create(test, &p);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	const struct ib_gid_attr *attr;
	struct ib_port_attr port;
	union ib_gid gid, want;
	u16 pkey;

	KUNIT_EXPECT_EQ(test, ibdev->node_type, RDMA_NODE_IB_CA);
	KUNIT_EXPECT_TRUE(test, rdma_protocol_roce_udp_encap(ibdev, 1));
	KUNIT_EXPECT_FALSE(test, rdma_protocol_iwarp(ibdev, 1));
	KUNIT_ASSERT_EQ(test, ib_query_port(ibdev, 1, &port), 0);
	KUNIT_EXPECT_GT(test, port.gid_tbl_len, 1);
	KUNIT_EXPECT_EQ(test, port.pkey_tbl_len, 1);
	KUNIT_EXPECT_TRUE(test, port.ip_gids);
	KUNIT_ASSERT_EQ(test, ib_query_pkey(ibdev, 1, 0, &pkey), 0);
	KUNIT_EXPECT_EQ(test, pkey, 0xffff);
	KUNIT_EXPECT_LT(test, ib_query_pkey(ibdev, 1, 1, &pkey), 0);

	default_gid(mock, &want);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_MEMEQ(test, gid.raw, want.raw, sizeof(gid.raw));
	attr = rdma_get_gid_attr(ibdev, 1, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, attr);
	KUNIT_EXPECT_EQ(test, attr->gid_type, IB_GID_TYPE_ROCE_UDP_ENCAP);
	rdma_put_gid_attr(attr);
}

/* Each of create_cases[] for an RC QP, then for a UD one */
struct roce_create_case {
	enum ib_qp_type type;
	u32 shape;
};

static const struct roce_create_case roce_create_cases[] = {
	{ IB_QPT_RC, 0 }, { IB_QPT_RC, 1 }, { IB_QPT_RC, 2 }, { IB_QPT_RC, 3 },
	{ IB_QPT_RC, 4 }, { IB_QPT_RC, 5 }, { IB_QPT_RC, 6 },
	{ IB_QPT_UD, 0 }, { IB_QPT_UD, 1 }, { IB_QPT_UD, 2 }, { IB_QPT_UD, 3 },
	{ IB_QPT_UD, 4 }, { IB_QPT_UD, 5 }, { IB_QPT_UD, 6 },
};

static_assert(ARRAY_SIZE(roce_create_cases) == 2 * ARRAY_SIZE(create_cases));

static void roce_create_desc(const struct roce_create_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s %s",
		 c->type == IB_QPT_RC ? "RC" : "UD",
		 create_cases[c->shape].name);
}

KUNIT_ARRAY_PARAM(roce_create, roce_create_cases, roce_create_desc);

/*
 * A RoCE QP of every shape exists in the hardware as a RoCE RC or UD QP,
 * IDLE, on its CQs, with queues big enough for what it was created to
 * hold, sending to RoCEv2's UDP port from the port's MAC; the
 * capabilities it reports are at least those asked for.  Destroying it
 * takes it away, and its ID and table entry back.
 */
static void roce_qp_create(struct kunit *test)
{
	const struct roce_create_case *r = test->param_value;
	const struct create_case *c = &create_cases[r->shape];
	bool ud = r->type == IB_QPT_UD;
	struct ib_qp_cap cap = c->cap;
	struct irdma_mock_ids was;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 id;

	roce_env(test, &env);
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_QPS, &was);
	qp = create_qp(&env, ud ? IB_QPT_UD : IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	id = qp->qp_num;
	KUNIT_EXPECT_GT(test, id, 1);
	KUNIT_EXPECT_GE(test, cap.max_send_wr, c->cap.max_send_wr);
	KUNIT_EXPECT_GE(test, cap.max_recv_wr, c->cap.max_recv_wr);
	KUNIT_EXPECT_GE(test, cap.max_send_sge, c->cap.max_send_sge);
	KUNIT_EXPECT_GE(test, cap.max_recv_sge, c->cap.max_recv_sge);
	KUNIT_EXPECT_GE(test, cap.max_inline_data, c->cap.max_inline_data);

	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.type, ud ? IRDMA_HW_QPT_ROCE_UD :
					    IRDMA_HW_QPT_ROCE_RC);
	KUNIT_EXPECT_EQ(test, hw.state, IRDMA_HW_QPS_IDLE);
	KUNIT_EXPECT_EQ(test, hw.send_cq, to_iwcq(env.cq)->cq_num);
	KUNIT_EXPECT_EQ(test, hw.recv_cq, to_iwcq(env.cq)->cq_num);
	KUNIT_EXPECT_NE(test, hw.comp_ctx, 0);
	KUNIT_EXPECT_GE(test, hw.sq_quanta, cap.max_send_wr);
	KUNIT_EXPECT_GE(test, hw.rq_quanta >> hw.rq_wqe_shift,
			cap.max_recv_wr);
	KUNIT_EXPECT_GE(test, 32U << hw.rq_wqe_shift,
			rq_wqe_bytes(cap.max_recv_sge));
	KUNIT_EXPECT_EQ(test, hw.roce.dst_port, ROCE_TEST_UDP_DPORT);
	KUNIT_EXPECT_MEMEQ(test, hw.roce.mac, env.mock->iwdev->netdev->dev_addr,
			   ETH_ALEN);
	KUNIT_EXPECT_TRUE(test, test_bit(id, env.mock->rf.allocated_qps));
	KUNIT_EXPECT_PTR_EQ(test, (void *)env.mock->rf.qp_table[id],
			    (void *)to_iwqp(qp));

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(env.mock->hw, id, &hw));
	irdma_mock_expect_ids(env.mock, &was);
	qp_env_done(&env);
}

/* What the device cannot make on RoCE either: bad_cases[] but UD */
static const void *roce_create_bad_gen_params(const void *prev, char *desc)
{
	const struct bad_case *c = prev ? (const struct bad_case *)prev + 1 :
					  bad_cases;

	for (; c < bad_cases + ARRAY_SIZE(bad_cases); c++) {
		if (c->type == IB_QPT_UD)
			continue;
		strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
		return c;
	}
	return NULL;
}

static const struct bad_case roce_ud_bad_cases[] = {
	{ "UD, 14 send SGEs", IB_QPT_UD, { 16, 16, 14, 1, 0 } },
	{ "UD, 14 recv SGEs", IB_QPT_UD, { 16, 16, 1, 14, 0 } },
	{ "UD, send WRs past the SQ", IB_QPT_UD,
	  { IRDMA_QP_SW_MAX_WQ_QUANTA + 1, 16, 1, 1, 0 } },
	{ "UD, recv WRs past the RQ", IB_QPT_UD,
	  { 16, IRDMA_QP_SW_MAX_RQ_QUANTA + 1, 1, 1, 0 } },
	{ "UD, creation flags", IB_QPT_UD, { 16, 16, 1, 1, 0 },
	  IB_QP_CREATE_BLOCK_MULTICAST_LOOPBACK },
};

KUNIT_ARRAY_PARAM_DESC(roce_ud_bad, roce_ud_bad_cases, name);

/* What a RoCE function cannot make, RC or UD, as qp_create_bad */
static void roce_qp_create_bad(struct kunit *test)
{
	struct qp_env env;

	roce_env(test, &env);
	expect_create_refused(test, &env, test->param_value);
	qp_env_done(&env);
}

/* The same for UD QPs, which only RoCE has */
static void roce_qp_create_bad_ud(struct kunit *test)
{
	roce_qp_create_bad(test);
}

struct roce_walk_case {
	const char *name;
	enum ib_qp_type type;
	enum ib_mtu mtu;
};

static const struct roce_walk_case roce_walk_cases[] = {
	{ "RC, MTU 256", IB_QPT_RC, IB_MTU_256 },
	{ "RC, MTU 512", IB_QPT_RC, IB_MTU_512 },
	{ "RC, MTU 1024", IB_QPT_RC, IB_MTU_1024 },
	{ "RC, MTU 2048", IB_QPT_RC, IB_MTU_2048 },
	{ "RC, MTU 4096", IB_QPT_RC, IB_MTU_4096 },
	{ "UD", IB_QPT_UD },
};

KUNIT_ARRAY_PARAM_DESC(roce_walk, roce_walk_cases, name);

/* An RC or UD QP of the RoCE mock, taken by roce_step() up to @at */
static struct ib_qp *roce_qp_at(struct kunit *test, struct qp_env *env,
				enum ib_qp_type type, enum ib_qp_state at)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_qp *qp;

	qp = create_qp(env, type, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	roce_qp_to(test, env, qp, at);
	return qp;
}

/* Every attribute roce_step() gives any transition, for a move to @to */
static void roce_all_attrs(struct irdma_mock *mock, struct ib_qp_attr *attr,
			   enum ib_qp_state to)
{
	memset(attr, 0, sizeof(*attr));
	attr->qp_state = to;
	attr->port_num = 1;
	attr->qp_access_flags = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE |
				IB_ACCESS_REMOTE_READ;
	attr->qkey = ROCE_TEST_QKEY;
	roce_ah_attr(mock, &attr->ah_attr, &roce_test_dgid, roce_test_dmac);
	attr->path_mtu = IB_MTU_1024;
	attr->dest_qp_num = ROCE_TEST_DEST_QPN;
	attr->rq_psn = ROCE_TEST_RQ_PSN;
	attr->max_dest_rd_atomic = 1;
	attr->min_rnr_timer = 12;
	attr->sq_psn = ROCE_TEST_SQ_PSN;
	attr->timeout = 14;
	attr->retry_cnt = ROCE_TEST_RETRY;
	attr->rnr_retry = ROCE_TEST_RNR_RETRY;
	attr->max_rd_atomic = 1;
}

/*
 * @mask of @attr refused with -EINVAL before the hardware hears of it: no
 * MODIFY_QP, the QP in the hardware as @before it, and query_qp still
 * saying @state.
 */
static void expect_roce_refused(struct kunit *test, struct qp_env *env,
				struct ib_qp *qp, struct ib_qp_attr *attr,
				int mask, enum ib_qp_state state,
				struct irdma_hw_qp *before)
{
	u32 modifies = irdma_hw_model_op_count(env->mock->hw,
					       IRDMA_HW_OP_MODIFY_QP);
	struct ib_qp_init_attr init;
	struct irdma_hw_qp after;

	model_qp(test, env->mock, qp, before);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, attr, mask), -EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env->mock->hw,
						      IRDMA_HW_OP_MODIFY_QP),
			modifies);
	model_qp(test, env->mock, qp, &after);
	KUNIT_EXPECT_EQ(test, after.state, before->state);
	KUNIT_EXPECT_EQ(test, after.modifies, before->modifies);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, attr, IB_QP_STATE, &init), 0);
	KUNIT_EXPECT_EQ(test, attr->qp_state, state);
}

/* The path an RC QP's context must give the wire engine from RTR on */
static void expect_roce_path(struct kunit *test, struct qp_env *env,
			     const struct irdma_hw_qp *hw, enum ib_mtu mtu)
{
	union ib_gid sgid;
	u8 mac[ETH_ALEN];

	KUNIT_EXPECT_EQ(test, hw->roce.dest_qp, ROCE_TEST_DEST_QPN);
	KUNIT_EXPECT_EQ(test, hw->roce.snd_mss, ib_mtu_enum_to_int(mtu));
	KUNIT_EXPECT_FALSE(test, hw->roce.ipv4);
	expect_ip(test, hw->roce.dest_ip, &roce_test_dgid, "destination IP");
	default_gid(env->mock, &sgid);
	expect_ip(test, hw->roce.local_ip, sgid.raw, "local IP");
	KUNIT_EXPECT_EQ(test, hw->roce.ttl, ROCE_TEST_HOP_LIMIT);
	KUNIT_EXPECT_EQ(test, hw->roce.tos, ROCE_TEST_TCLASS);
	KUNIT_EXPECT_EQ(test, hw->roce.flow_label, ROCE_TEST_FLOW_LABEL);
	KUNIT_EXPECT_EQ(test, hw->roce.dst_port, ROCE_TEST_UDP_DPORT);
	KUNIT_EXPECT_GE(test, hw->roce.src_port, ROCE_TEST_SPORT_MIN);
	/* IBTA A17: the source port carries the flow label's 20 bits folded */
	KUNIT_EXPECT_EQ(test, hw->roce.src_port,
			rdma_flow_label_to_udp_sport(ROCE_TEST_FLOW_LABEL));
	KUNIT_EXPECT_EQ(test, hw->roce.epsn, ROCE_TEST_RQ_PSN);
	KUNIT_EXPECT_FALSE(test, hw->roce.insert_vlan);
	KUNIT_EXPECT_MEMEQ(test, hw->roce.mac,
			   env->mock->iwdev->netdev->dev_addr, ETH_ALEN);
	KUNIT_ASSERT_TRUE_MSG(test, irdma_hw_model_arp(env->mock->hw,
						       hw->roce.arp_idx, mac),
			      "ARP entry %u not in the hardware",
			      hw->roce.arp_idx);
	KUNIT_EXPECT_MEMEQ(test, mac, roce_test_dmac, ETH_ALEN);
}

/*
 * A RoCE QP through every state a kernel ULP takes it: created as the
 * hardware's RoCE RC or UD QP, IDLE, on its CQs; INIT with the P_Key
 * (and Q_Key of UD), RTR with the address vector, path MTU, destination
 * QP and receive PSN of RC, RTS with the send PSN and retry counts; ERR;
 * RESET.  Each step as the hardware's state, and its context as the
 * hardware reads it, on a work scheduler leaf ice holds a queue set for
 * (the one QP1, the MAD layer's GSI QP, is on too).  Destroying the QP
 * takes it away and leaves the work scheduler as it was.
 */
static void roce_qp_walk(struct kunit *test)
{
	const struct roce_walk_case *c = test->param_value;
	static const struct {
		enum ib_qp_state to;
		u8 hw_state;
	} steps[] = {
		{ IB_QPS_INIT, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_RTR, IRDMA_HW_QPS_RTR },
		{ IB_QPS_RTS, IRDMA_HW_QPS_RTS },
		{ IB_QPS_ERR, IRDMA_HW_QPS_ERROR },
		{ IB_QPS_RESET, IRDMA_HW_QPS_ERROR },
	};
	bool rc = c->type == IB_QPT_RC;
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct irdma_mock_ids was;
	struct ib_qp_init_attr init;
	struct ib_qp_attr attr;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 i, id, nodes;
	int qsets;

	roce_env(test, &env);
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_QPS, &was);
	nodes = irdma_hw_model_ws_nodes(env.mock->hw);
	qsets = env.mock->qsets;
	qp = create_qp(&env, c->type, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	id = qp->qp_num;
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.type, rc ? IRDMA_HW_QPT_ROCE_RC :
					    IRDMA_HW_QPT_ROCE_UD);
	KUNIT_EXPECT_EQ(test, hw.state, IRDMA_HW_QPS_IDLE);
	KUNIT_EXPECT_EQ(test, hw.send_cq, to_iwcq(env.cq)->cq_num);
	KUNIT_EXPECT_EQ(test, hw.recv_cq, to_iwcq(env.cq)->cq_num);
	KUNIT_EXPECT_EQ(test, hw.roce.dst_port, ROCE_TEST_UDP_DPORT);
	KUNIT_EXPECT_GE(test, hw.sq_quanta, cap.max_send_wr);

	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		KUNIT_ASSERT_EQ_MSG(test, roce_step(env.mock, qp, steps[i].to,
						    c->mtu, &attr), 0,
				    "step %u", i);
		model_qp(test, env.mock, qp, &hw);
		KUNIT_EXPECT_EQ_MSG(test, hw.state, steps[i].hw_state,
				    "step %u", i);
		KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &attr, IB_QP_STATE,
						  &init), 0);
		KUNIT_EXPECT_EQ_MSG(test, attr.qp_state, steps[i].to,
				    "step %u", i);
		if (steps[i].to != IB_QPS_RTR && steps[i].to != IB_QPS_RTS)
			continue;
		KUNIT_EXPECT_EQ(test, hw.roce.pkey, 0xffff);
		KUNIT_EXPECT_EQ(test, hw.pd, to_iwpd(env.pd)->sc_pd.pd_id);
		expect_ws_leaf(test, env.mock, &hw);
		if (!rc) {
			KUNIT_EXPECT_EQ(test, hw.roce.qkey, ROCE_TEST_QKEY);
			if (steps[i].to == IB_QPS_RTS)
				KUNIT_EXPECT_EQ(test, hw.roce.psn_nxt,
						ROCE_TEST_SQ_PSN);
			continue;
		}
		expect_roce_path(test, &env, &hw, c->mtu);
		KUNIT_EXPECT_TRUE(test, hw.roce.rd_ok);
		KUNIT_EXPECT_TRUE(test, hw.roce.wr_ok);
		if (steps[i].to != IB_QPS_RTS)
			continue;
		KUNIT_EXPECT_EQ(test, hw.roce.psn_nxt, ROCE_TEST_SQ_PSN);
		KUNIT_EXPECT_EQ(test, hw.roce.rexmit_thresh, ROCE_TEST_RETRY);
		KUNIT_EXPECT_EQ(test, hw.roce.rnr_thresh, ROCE_TEST_RNR_RETRY);
		KUNIT_EXPECT_EQ(test, hw.roce.ord, 1);
	}

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(env.mock->hw, id, &hw));
	KUNIT_EXPECT_EQ(test, irdma_hw_model_ws_nodes(env.mock->hw), nodes);
	KUNIT_EXPECT_EQ(test, env.mock->qsets, qsets);
	irdma_mock_expect_ids(env.mock, &was);
	qp_env_done(&env);
}

static const enum ib_qp_state roce_err_froms[] = {
	IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS,
};

static void roce_err_from_desc(const enum ib_qp_state *from, char *desc)
{
	static const char * const names[] = {
		[IB_QPS_INIT] = "from INIT", [IB_QPS_RTR] = "from RTR",
		[IB_QPS_RTS] = "from RTS",
	};

	strscpy(desc, names[*from], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(roce_err_from, roce_err_froms, roce_err_from_desc);

/*
 * ERR from each state an RC QP takes: one MODIFY_QP, to the hardware's
 * ERROR, both queues flushed by the driver's cleanup work, query_qp
 * saying ERR; then RESET.
 */
static void roce_qp_err(struct kunit *test)
{
	const enum ib_qp_state from = *(const enum ib_qp_state *)test->param_value;
	struct ib_qp_init_attr init;
	struct irdma_hw_qp before, hw;
	struct ib_qp_attr attr;
	struct qp_env env;
	struct ib_qp *qp;

	roce_env(test, &env);
	qp = roce_qp_at(test, &env, IB_QPT_RC, from);
	model_qp(test, env.mock, qp, &before);
	KUNIT_ASSERT_EQ(test, roce_step(env.mock, qp, IB_QPS_ERR, IB_MTU_1024,
					&attr), 0);
	flush_workqueue(env.mock->iwdev->cleanup_wq);
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.state, IRDMA_HW_QPS_ERROR);
	KUNIT_EXPECT_EQ(test, hw.modifies, before.modifies + 1);
	KUNIT_EXPECT_TRUE(test, hw.sq_flushed);
	KUNIT_EXPECT_TRUE(test, hw.rq_flushed);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &attr, IB_QP_STATE, &init), 0);
	KUNIT_EXPECT_EQ(test, attr.qp_state, IB_QPS_ERR);
	KUNIT_EXPECT_EQ(test, roce_step(env.mock, qp, IB_QPS_RESET, IB_MTU_1024,
					&attr), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	qp_env_done(&env);
}

struct roce_bad_case {
	const char *name;
	enum ib_qp_state from;		/* reached with roce_step() */
	enum ib_qp_state to;
	int mask;
	u16 pkey_index;
};

static const struct roce_bad_case roce_bad_cases[] = {
	{ "RTR without an address vector", IB_QPS_INIT, IB_QPS_RTR,
	  IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER },
	{ "RTS from INIT", IB_QPS_INIT, IB_QPS_RTS,
	  IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
	  IB_QP_MAX_QP_RD_ATOMIC },
	{ "P_Key index 1", IB_QPS_RESET, IB_QPS_INIT,
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS, 1 },
	{ "SQD from RTR", IB_QPS_RTR, IB_QPS_SQD, 0 },
	{ "RTR from RESET", IB_QPS_RESET, IB_QPS_RTR,
	  IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
	  IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER },
	{ "RTS from RESET", IB_QPS_RESET, IB_QPS_RTS,
	  IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
	  IB_QP_MAX_QP_RD_ATOMIC },
	{ "INIT from RTR", IB_QPS_RTR, IB_QPS_INIT,
	  IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS },
	{ "SQD from INIT", IB_QPS_INIT, IB_QPS_SQD, 0 },
};

KUNIT_ARRAY_PARAM_DESC(roce_bad, roce_bad_cases, name);

/*
 * A state change RoCE refuses gets -EINVAL before the hardware hears of
 * it: no MODIFY_QP, the QP in the hardware and in query_qp as it was.
 */
static void roce_modify_bad(struct kunit *test)
{
	const struct roce_bad_case *c = test->param_value;
	struct irdma_hw_qp before;
	struct ib_qp_attr attr;
	struct qp_env env;
	struct ib_qp *qp;

	roce_env(test, &env);
	qp = roce_qp_at(test, &env, IB_QPT_RC, c->from);
	roce_all_attrs(env.mock, &attr, c->to);
	attr.pkey_index = c->pkey_index;
	expect_roce_refused(test, &env, qp, &attr, IB_QP_STATE | c->mask,
			    c->from, &before);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	qp_env_done(&env);
}

/* The attributes roce_step() gives each transition of an RC QP */
#define ROCE_INIT_MASK	(IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_ACCESS_FLAGS)
#define ROCE_RTR_MASK	(IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN | \
			 IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC | \
			 IB_QP_MIN_RNR_TIMER)
#define ROCE_RTS_MASK	(IB_QP_TIMEOUT | IB_QP_RETRY_CNT | \
			 IB_QP_RNR_RETRY | IB_QP_SQ_PSN | \
			 IB_QP_MAX_QP_RD_ATOMIC)

struct roce_missing_case {
	const char *name;
	enum ib_qp_state to;
	int missing;
	bool ud;
};

static const struct roce_missing_case roce_missing_cases[] = {
	{ "INIT without a P_Key index", IB_QPS_INIT, IB_QP_PKEY_INDEX },
	{ "INIT without a port", IB_QPS_INIT, IB_QP_PORT },
	{ "INIT without access flags", IB_QPS_INIT, IB_QP_ACCESS_FLAGS },
	{ "RTR without a path MTU", IB_QPS_RTR, IB_QP_PATH_MTU },
	{ "RTR without a destination QP", IB_QPS_RTR, IB_QP_DEST_QPN },
	{ "RTR without a receive PSN", IB_QPS_RTR, IB_QP_RQ_PSN },
	{ "RTR without a responder depth", IB_QPS_RTR,
	  IB_QP_MAX_DEST_RD_ATOMIC },
	{ "RTR without an RNR timer", IB_QPS_RTR, IB_QP_MIN_RNR_TIMER },
	{ "RTS without a send PSN", IB_QPS_RTS, IB_QP_SQ_PSN },
	{ "RTS without a timeout", IB_QPS_RTS, IB_QP_TIMEOUT },
	{ "RTS without a retry count", IB_QPS_RTS, IB_QP_RETRY_CNT },
	{ "RTS without an RNR retry count", IB_QPS_RTS, IB_QP_RNR_RETRY },
	{ "RTS without an initiator depth", IB_QPS_RTS,
	  IB_QP_MAX_QP_RD_ATOMIC },
	{ "UD INIT without a Q_Key", IB_QPS_INIT, IB_QP_QKEY, true },
	{ "UD INIT without a P_Key index", IB_QPS_INIT, IB_QP_PKEY_INDEX,
	  true },
	{ "UD INIT without a port", IB_QPS_INIT, IB_QP_PORT, true },
	{ "UD RTS without a send PSN", IB_QPS_RTS, IB_QP_SQ_PSN, true },
};

KUNIT_ARRAY_PARAM_DESC(roce_missing, roce_missing_cases, name);

/*
 * A transition of an RC or UD QP without one of the attributes it
 * requires (IBTA 10.3.1) gets -EINVAL before the hardware hears of it: no
 * MODIFY_QP, the QP as it was; the same transition with all of them
 * then goes through.
 */
static void roce_modify_missing(struct kunit *test)
{
	const struct roce_missing_case *c = test->param_value;
	static const enum ib_qp_state path[] = {
		IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS,
	};
	static const int masks[] = {
		ROCE_INIT_MASK, ROCE_RTR_MASK, ROCE_RTS_MASK,
	};
	static const int ud_masks[] = {
		IB_QP_PKEY_INDEX | IB_QP_PORT | IB_QP_QKEY, 0, IB_QP_SQ_PSN,
	};
	struct irdma_hw_qp before, after;
	enum ib_qp_state from;
	struct ib_qp_attr attr;
	struct qp_env env;
	struct ib_qp *qp;
	u32 i = 0;
	int mask;

	while (path[i] != c->to)
		i++;
	from = i ? path[i - 1] : IB_QPS_RESET;
	roce_env(test, &env);
	qp = roce_qp_at(test, &env, c->ud ? IB_QPT_UD : IB_QPT_RC, from);

	/* roce_step()'s attributes, with one of those required left out */
	mask = c->ud ? ud_masks[i] : masks[i];
	KUNIT_ASSERT_EQ(test, mask & c->missing, c->missing);
	roce_all_attrs(env.mock, &attr, c->to);
	expect_roce_refused(test, &env, qp, &attr,
			    IB_QP_STATE | (mask & ~c->missing), from, &before);

	KUNIT_EXPECT_EQ(test, roce_step(env.mock, qp, c->to, IB_MTU_1024,
					&attr), 0);
	model_qp(test, env.mock, qp, &after);
	KUNIT_EXPECT_EQ(test, after.modifies, before.modifies + 1);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	qp_env_done(&env);
}

struct roce_refused_case {
	const char *name;
	enum ib_qp_state from;		/* reached with roce_step() */
	enum ib_qp_state to;
	int mask;
	bool ird_too_deep;		/* max_dest_rd_atomic past the device's */
};

static const struct roce_refused_case roce_refused_cases[] = {
	{ "RTR, responder depth past the device's", IB_QPS_INIT, IB_QPS_RTR,
	  ROCE_RTR_MASK, .ird_too_deep = true },
	{ "RTR with a send PSN", IB_QPS_INIT, IB_QPS_RTR,
	  ROCE_RTR_MASK | IB_QP_SQ_PSN },
	{ "RTS from INIT", IB_QPS_INIT, IB_QPS_RTS, ROCE_RTS_MASK },
};

KUNIT_ARRAY_PARAM_DESC(roce_refused, roce_refused_cases, name);

/* 2001:db8::c:d behind another MAC: a peer the QP has never had */
static const struct in6_addr roce_other_dgid = {
	.s6_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
		     0, 0, 0, 0, 0, 0x0c, 0, 0x0d },
};

static const u8 roce_other_dmac[ETH_ALEN] = {
	0x02, 0x00, 0x5e, 0x10, 0x20, 0x31,
};

/* Every attribute a RoCE QP reports, none of them what roce_step() gave */
static void roce_other_attrs(struct irdma_mock *mock, struct ib_qp_attr *attr,
			     const struct roce_refused_case *c)
{
	const struct ib_device_attr *dev = &mock->iwdev->ibdev.attrs;

	roce_all_attrs(mock, attr, c->to);
	roce_ah_attr(mock, &attr->ah_attr, &roce_other_dgid, roce_other_dmac);
	attr->qkey = ROCE_TEST_QKEY + 1;
	attr->path_mtu = IB_MTU_4096;
	attr->dest_qp_num = ROCE_TEST_DEST_QPN + 1;
	attr->rq_psn = ROCE_TEST_RQ_PSN + 1;
	attr->sq_psn = ROCE_TEST_SQ_PSN + 1;
	attr->retry_cnt = ROCE_TEST_RETRY + 1;
	attr->rnr_retry = ROCE_TEST_RNR_RETRY + 1;
	attr->max_rd_atomic = 2;
	attr->max_dest_rd_atomic = c->ird_too_deep ? dev->max_qp_rd_atom + 1 : 2;
}

/*
 * A refused modify_qp changes nothing, whichever check refuses it: the
 * transition, or a responder depth past what query_device offers (the
 * initiator depth, a u8, cannot pass E810's 255).  query_qp reports every
 * attribute as before, and the hardware hears of nothing: no MODIFY_QP,
 * no ARP cache entry for the address vector, no work scheduler node.
 * The QP then takes the transition as roce_step() gives it, and its
 * context carries roce_step()'s attributes and, short of RTS, the send
 * PSN it had.
 */
static void roce_modify_refused_keeps_attrs(struct kunit *test)
{
	const struct roce_refused_case *c = test->param_value;
	struct ib_qp_attr attr, was, now;
	struct ib_qp_init_attr init;
	struct irdma_hw_qp hw;
	enum ib_qp_state to;
	struct qp_env env;
	struct ib_qp *qp;
	u64 wqes;

	roce_env(test, &env);
	qp = roce_qp_at(test, &env, IB_QPT_RC, c->from);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &was, ~0, &init), 0);
	wqes = irdma_hw_model_wqes(env.mock->hw);

	roce_other_attrs(env.mock, &attr, c);
	KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE | c->mask),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_wqes(env.mock->hw), wqes);
	KUNIT_ASSERT_EQ(test, ib_query_qp(qp, &now, ~0, &init), 0);
	KUNIT_EXPECT_EQ(test, now.qp_state, was.qp_state);
	KUNIT_EXPECT_EQ(test, now.qkey, was.qkey);
	KUNIT_EXPECT_EQ(test, now.path_mtu, was.path_mtu);
	KUNIT_EXPECT_EQ(test, now.dest_qp_num, was.dest_qp_num);
	KUNIT_EXPECT_EQ(test, now.rq_psn, was.rq_psn);
	KUNIT_EXPECT_EQ(test, now.sq_psn, was.sq_psn);
	KUNIT_EXPECT_EQ(test, now.retry_cnt, was.retry_cnt);
	KUNIT_EXPECT_EQ(test, now.rnr_retry, was.rnr_retry);
	KUNIT_EXPECT_EQ(test, now.max_rd_atomic, was.max_rd_atomic);
	KUNIT_EXPECT_EQ(test, now.max_dest_rd_atomic, was.max_dest_rd_atomic);
	KUNIT_EXPECT_EQ(test, now.qp_access_flags, was.qp_access_flags);

	for (to = c->from + 1; to <= c->to; to++)
		KUNIT_ASSERT_EQ(test, roce_step(env.mock, qp, to, IB_MTU_1024,
						&attr), 0);
	model_qp(test, env.mock, qp, &hw);
	expect_roce_path(test, &env, &hw, IB_MTU_1024);
	KUNIT_EXPECT_EQ(test, hw.roce.psn_nxt,
			c->to == IB_QPS_RTS ? ROCE_TEST_SQ_PSN : was.sq_psn);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	qp_env_done(&env);
}

struct ws_fail_case {
	const char *name;
	bool reset;	/* the TC change has rebuilt the work scheduler */
	bool firmware;	/* then the firmware fails WS_NODE */
	bool ice;	/* then ice refuses the queue set */
};

static const struct ws_fail_case ws_fail_cases[] = {
	{ "during a TC change", false, false, false },
	{ "the firmware fails WS_NODE", true, true, false },
	{ "ice refuses the queue set", true, false, true },
};

KUNIT_ARRAY_PARAM_DESC(ws_fail, ws_fail_cases, name);

/*
 * A RoCE QP joins the work scheduler after CREATE_QP.  When it cannot
 * (ice is changing the traffic classes; or, with the scheduler tree torn
 * down by a TC change, the firmware fails the node or ice has no queue
 * set for it), create_qp fails and gives everything back: the QP
 * destroyed in the hardware, its ID, no QP left in the table the event
 * handlers look QPs up in (which would point at freed memory), the work
 * scheduler and ice's queue sets as they were.  The next QP is made as if
 * nothing had happened.
 */
static void roce_qp_ws_refused(struct kunit *test)
{
	const struct ws_fail_case *c = test->param_value;
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct irdma_mock_ids was;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 i, nodes;
	int qsets;

	roce_env(test, &env);
	irdma_mock_tc_change(env.mock, true, c->reset);
	if (c->reset)
		irdma_mock_tc_change(env.mock, false, false);
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_QPS, &was);
	nodes = irdma_hw_model_ws_nodes(env.mock->hw);
	qsets = env.mock->qsets;
	if (c->firmware)
		irdma_hw_model_fail_next(env.mock->hw, IRDMA_HW_OP_WS_NODE,
					 QP_TEST_MAJ, QP_TEST_MIN);
	if (c->ice)
		env.mock->qset_refuse = -ENOSPC;
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env.mock->hw,
						      IRDMA_HW_OP_CREATE_QP),
			was.creates + 1);
	irdma_mock_expect_ids(env.mock, &was);
	for (i = 2; i < env.mock->rf.max_qp; i++)
		KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(env.mock->hw, i, &hw));
	KUNIT_EXPECT_EQ(test, irdma_hw_model_ws_nodes(env.mock->hw), nodes);
	KUNIT_EXPECT_EQ(test, env.mock->qsets, qsets);
	KUNIT_EXPECT_EQ(test, env.mock->resets, 0);

	if (!c->reset)
		irdma_mock_tc_change(env.mock, false, false);
	qp = create_qp(&env, IB_QPT_RC, &cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, env.mock->qsets, 1);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	irdma_mock_expect_ids(env.mock, &was);
	qp_env_done(&env);
}

static struct kunit_case irdma_verbs_roce_cases[] = {
	KUNIT_CASE(roce_port),
	KUNIT_CASE_PARAM(roce_qp_create, roce_create_gen_params),
	KUNIT_CASE_PARAM(roce_qp_create_bad, roce_create_bad_gen_params),
	KUNIT_CASE_PARAM(roce_qp_create_bad_ud, roce_ud_bad_gen_params),
	KUNIT_CASE_PARAM(roce_qp_walk, roce_walk_gen_params),
	KUNIT_CASE_PARAM(roce_qp_err, roce_err_from_gen_params),
	KUNIT_CASE_PARAM(roce_modify_bad, roce_bad_gen_params),
	KUNIT_CASE_PARAM(roce_modify_missing, roce_missing_gen_params),
	KUNIT_CASE_PARAM(roce_modify_refused_keeps_attrs,
			 roce_refused_gen_params),
	KUNIT_CASE_PARAM(roce_qp_ws_refused, ws_fail_gen_params),
	{}
};

static struct kunit_suite irdma_verbs_roce_suite = {
	.name = "irdma_verbs_roce",
	.test_cases = irdma_verbs_roce_cases,
};

kunit_test_suites(&irdma_verbs_roce_suite);
