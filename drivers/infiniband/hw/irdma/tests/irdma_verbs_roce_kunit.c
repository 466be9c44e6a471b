// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_roce: queue pairs, address handles and
 * multicast groups through irdma's verbs, on the mock E810 in RoCEv2
 * mode, whose netdev the RDMA core finds its default GID on, and whose
 * work scheduler the mock runs for ice.
 */
#include <kunit/test.h>
#include <linux/dma-direct.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "irdma_qp_env.h"

/* The QP's peer: where its address vector points */
#define ROCE_TEST_DEST_QPN	0x123
#define ROCE_TEST_RQ_PSN	0x4567
#define ROCE_TEST_SQ_PSN	0x89ab
#define ROCE_TEST_QKEY		0x11111111
#define ROCE_TEST_HOP_LIMIT	64
#define ROCE_TEST_TCLASS	0x20
#define ROCE_TEST_FLOW_LABEL	0x1abcd
#define ROCE_TEST_RETRY		5
#define ROCE_TEST_RNR_RETRY	6
/* The UDP port of RoCEv2, and where its source ports lie (IBTA A17) */
#define ROCE_TEST_UDP_DPORT	4791
#define ROCE_TEST_SPORT_MIN	0xc000

static const u8 roce_test_dmac[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };

/* 2001:db8::a:b, a global unicast destination */
static const struct in6_addr roce_test_dgid = {
	.s6_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
		     0, 0, 0, 0, 0, 0x0a, 0, 0x0b },
};

static void roce_env(struct kunit *test, struct qp_env *env)
{
	struct irdma_mock_params p = { .profile = IRDMA_MOCK_E810_ROCE };

	env->mock = irdma_mock_create(test, &p);
	env->pd = irdma_mock_alloc_pd(env->mock);
	env->cq = irdma_mock_verbs_cq(env->mock, 256);
}

/* An IPv6 address as the hardware's context holds it: four host words */
static void ip_words(const void *addr, u32 *w)
{
	const __be32 *a = addr;
	int i;

	for (i = 0; i < 4; i++)
		w[i] = be32_to_cpu(a[i]);
}

static void expect_ip(struct kunit *test, const u32 *got, const void *addr,
		      const char *what)
{
	u32 want[4];
	int i;

	ip_words(addr, want);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], want[i], "%s word %d", what, i);
}

/* The port's default GID: fe80::/64 and the netdev MAC's EUI-64 */
static void default_gid(struct irdma_mock *mock, union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0xfe;
	gid->raw[1] = 0x80;
	addrconf_addr_eui48(&gid->raw[8], mock->iwdev->netdev->dev_addr);
}

/* A GRH's fields, as ULPs give them */
struct roce_grh {
	u8 hop_limit;
	u8 tclass;
	u32 flow_label;
};

static const struct roce_grh roce_test_grh = {
	ROCE_TEST_HOP_LIMIT, ROCE_TEST_TCLASS, ROCE_TEST_FLOW_LABEL,
};

static void roce_ah_attr_grh(struct irdma_mock *mock, struct rdma_ah_attr *ah,
			     const void *dgid, const u8 *dmac,
			     const struct roce_grh *grh)
{
	union ib_gid gid;

	memset(ah, 0, sizeof(*ah));
	ah->type = rdma_ah_find_type(&mock->iwdev->ibdev, 1);
	rdma_ah_set_port_num(ah, 1);
	memcpy(gid.raw, dgid, sizeof(gid.raw));
	rdma_ah_set_grh(ah, &gid, grh->flow_label, 0, grh->hop_limit,
			grh->tclass);
	memcpy(ah->roce.dmac, dmac, ETH_ALEN);
}

static void roce_ah_attr(struct irdma_mock *mock, struct rdma_ah_attr *ah,
			 const struct in6_addr *dgid, const u8 *dmac)
{
	roce_ah_attr_grh(mock, ah, dgid, dmac, &roce_test_grh);
}

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

/* The attributes a kernel ULP gives each step of an RC or UD QP */
static int roce_step(struct irdma_mock *mock, struct ib_qp *qp,
		     enum ib_qp_state to, enum ib_mtu mtu,
		     struct ib_qp_attr *attr)
{
	bool rc = qp->qp_type == IB_QPT_RC;
	int mask = IB_QP_STATE;

	memset(attr, 0, sizeof(*attr));
	attr->qp_state = to;
	switch (to) {
	case IB_QPS_INIT:
		mask |= IB_QP_PKEY_INDEX | IB_QP_PORT;
		attr->port_num = 1;
		if (rc) {
			mask |= IB_QP_ACCESS_FLAGS;
			attr->qp_access_flags = IB_ACCESS_LOCAL_WRITE |
						IB_ACCESS_REMOTE_WRITE |
						IB_ACCESS_REMOTE_READ;
		} else {
			mask |= IB_QP_QKEY;
			attr->qkey = ROCE_TEST_QKEY;
		}
		break;
	case IB_QPS_RTR:
		if (!rc)
			break;
		mask |= IB_QP_AV | IB_QP_PATH_MTU | IB_QP_DEST_QPN |
			IB_QP_RQ_PSN | IB_QP_MAX_DEST_RD_ATOMIC |
			IB_QP_MIN_RNR_TIMER;
		roce_ah_attr(mock, &attr->ah_attr, &roce_test_dgid,
			     roce_test_dmac);
		attr->path_mtu = mtu;
		attr->dest_qp_num = ROCE_TEST_DEST_QPN;
		attr->rq_psn = ROCE_TEST_RQ_PSN;
		attr->max_dest_rd_atomic = 1;
		attr->min_rnr_timer = 12;
		break;
	case IB_QPS_RTS:
		mask |= IB_QP_SQ_PSN;
		attr->sq_psn = ROCE_TEST_SQ_PSN;
		if (!rc)
			break;
		mask |= IB_QP_TIMEOUT | IB_QP_RETRY_CNT | IB_QP_RNR_RETRY |
			IB_QP_MAX_QP_RD_ATOMIC;
		attr->timeout = 14;
		attr->retry_cnt = ROCE_TEST_RETRY;
		attr->rnr_retry = ROCE_TEST_RNR_RETRY;
		attr->max_rd_atomic = 1;
		break;
	default:
		break;
	}
	return ib_modify_qp(qp, attr, mask);
}

/* Take a RESET QP of the RoCE mock by roce_step() up to @at */
static void roce_qp_to(struct kunit *test, struct qp_env *env,
		       struct ib_qp *qp, enum ib_qp_state at)
{
	static const enum ib_qp_state path[] = {
		IB_QPS_INIT, IB_QPS_RTR, IB_QPS_RTS,
	};
	struct ib_qp_attr attr;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(path) && at != IB_QPS_RESET; i++) {
		KUNIT_ASSERT_EQ(test, roce_step(env->mock, qp, path[i],
						IB_MTU_1024, &attr), 0);
		if (path[i] == at)
			break;
	}
}

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

struct ah_case {
	const char *name;
	struct in6_addr dgid;
	u8 mac[ETH_ALEN];	/* the destination's, as the wire needs it */
	bool loopback;
	bool self;		/* the port's own GID and MAC instead */
	const struct roce_grh *grh;	/* or roce_test_grh */
};

static const struct roce_grh ah_grh_max = { 255, 0xff, 0xfffff };
static const struct roce_grh ah_grh_min = { 1, 0, 0 };

static const struct ah_case ah_cases[] = {
	{ "global unicast", { .s6_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
					   0, 0, 0, 0, 0, 0x0a, 0, 0x0b } },
	  { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 }, false },
	{ "link-local", { .s6_addr = { 0xfe, 0x80, 0, 0, 0, 0, 0, 0,
				       0x02, 0x11, 0x22, 0xff, 0xfe, 0x33,
				       0x44, 0x55 } },
	  { 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 }, false },
	/* RFC 2464: 33:33 and the group's last 32 bits; members loop back */
	{ "multicast", { .s6_addr = { 0xff, 0x0e, 0, 0, 0, 0, 0, 0,
				      0, 0, 0, 0, 0x12, 0x34, 0x56, 0x78 } },
	  { 0x33, 0x33, 0x12, 0x34, 0x56, 0x78 }, true },
	/* the destination is the port itself: the hardware loops it back */
	{ "the port's own GID", {}, {}, true, true },
	{ "every GRH field at its widest",
	  { .s6_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
			 0, 0, 0, 0, 0, 0x0a, 0, 0x0c } },
	  { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x31 }, false, false, &ah_grh_max },
	{ "hop limit 1, no class or flow label",
	  { .s6_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
			 0, 0, 0, 0, 0, 0x0a, 0, 0x0d } },
	  { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x32 }, false, false, &ah_grh_min },
};

KUNIT_ARRAY_PARAM_DESC(ah, ah_cases, name);

/*
 * rdma_create_ah() makes an address vector in the hardware, at an AH
 * index of its own, with the addresses, hop limit, flow label and
 * traffic class of the GRH, the PD, the port's MAC as the source, and an
 * ARP cache entry for the destination's MAC (the group MAC of a
 * multicast GID, whose local members loop back); rdma_destroy_ah() takes
 * it away and gives its index back.
 */
static void roce_ah(struct kunit *test)
{
	const struct ah_case *c = test->param_value;
	const struct roce_grh *grh = c->grh ?: &roce_test_grh;
	const void *dgid = &c->dgid;
	const u8 *dmac = c->mac;
	struct rdma_ah_attr attr;
	struct irdma_mock_ids was;
	struct irdma_hw_wqe w, kept;
	union ib_gid sgid;
	struct qp_env env;
	struct ib_ah *ah;
	u8 mac[ETH_ALEN];

	roce_env(test, &env);
	default_gid(env.mock, &sgid);
	if (c->self) {
		dgid = sgid.raw;
		dmac = env.mock->iwdev->netdev->dev_addr;
	}
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_AHS, &was);
	roce_ah_attr_grh(env.mock, &attr, dgid, dmac, grh);
	ah = rdma_create_ah(env.pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, ah);
	irdma_mock_last_wqe(env.mock, IRDMA_HW_OP_CREATE_AH, &w);
	KUNIT_EXPECT_FALSE(test, w.error);
	KUNIT_EXPECT_TRUE(test, test_bit(w.ah.idx, env.mock->rf.allocated_ahs));
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_ah(env.mock->hw, w.ah.idx,
						  &kept));
	KUNIT_EXPECT_EQ(test, w.ah.pd, to_iwpd(env.pd)->sc_pd.pd_id);
	KUNIT_EXPECT_FALSE(test, w.ah.ipv4);
	expect_ip(test, w.ah.dest_ip, dgid, "destination IP");
	expect_ip(test, w.ah.src_ip, sgid.raw, "source IP");
	KUNIT_EXPECT_EQ(test, w.ah.hop_limit, grh->hop_limit);
	KUNIT_EXPECT_EQ(test, w.ah.flow_label, grh->flow_label);
	KUNIT_EXPECT_EQ(test, w.ah.tc, grh->tclass);
	KUNIT_EXPECT_FALSE(test, w.ah.insert_vlan);
	KUNIT_EXPECT_EQ(test, w.ah.loopback, c->loopback);
	KUNIT_EXPECT_MEMEQ(test, w.ah.mac, env.mock->iwdev->netdev->dev_addr,
			   ETH_ALEN);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_arp(env.mock->hw, w.ah.arp_idx,
						   mac));
	KUNIT_EXPECT_MEMEQ(test, mac, dmac, ETH_ALEN);

	rdma_destroy_ah(ah, RDMA_DESTROY_AH_SLEEPABLE);
	irdma_mock_last_wqe(env.mock, IRDMA_HW_OP_DESTROY_AH, &kept);
	KUNIT_EXPECT_FALSE(test, kept.error);
	KUNIT_EXPECT_EQ(test, kept.ah.idx, w.ah.idx);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_ah(env.mock->hw, w.ah.idx,
						   &kept));
	irdma_mock_ccq_event(env.mock);
	irdma_mock_expect_ids(env.mock, &was);
	qp_env_done(&env);
}

/*
 * AHs until the device has no AH index left: each one in the hardware,
 * then an errno with the AH indexes as they were; all come back.
 */
static void roce_ah_ids_exhausted(struct kunit *test)
{
	struct rdma_ah_attr attr;
	struct irdma_mock_ids was, full;
	struct irdma_hw_wqe w;
	struct ib_ah **ahs;
	struct qp_env env;
	struct ib_ah *ah;
	u32 max, n = 0, i;

	roce_env(test, &env);
	max = env.mock->rf.max_ah;
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_AHS, &was);
	ahs = kunit_kcalloc(test, max, sizeof(*ahs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, ahs);
	roce_ah_attr(env.mock, &attr, &roce_test_dgid, roce_test_dmac);
	for (;;) {
		ah = rdma_create_ah(env.pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
		if (IS_ERR(ah))
			break;
		KUNIT_ASSERT_LT(test, n, max);
		ahs[n++] = ah;
		irdma_mock_last_wqe(env.mock, IRDMA_HW_OP_CREATE_AH, &w);
		KUNIT_EXPECT_TRUE(test, irdma_hw_model_ah(env.mock->hw,
							  w.ah.idx, &w));
	}
	KUNIT_EXPECT_EQ(test, n, max - bitmap_weight(was.ids, max));
	irdma_mock_save_ids(env.mock, IRDMA_MOCK_AHS, &full);
	ah = rdma_create_ah(env.pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_EXPECT_TRUE(test, IS_ERR(ah));
	irdma_mock_expect_ids(env.mock, &full);
	for (i = 0; i < n; i++)
		rdma_destroy_ah(ahs[i], RDMA_DESTROY_AH_SLEEPABLE);
	irdma_mock_ccq_event(env.mock);
	irdma_mock_expect_ids(env.mock, &was);
	qp_env_done(&env);
}

struct mcast_case {
	const char *name;
	union ib_gid gid;
	bool ipv4;
	u32 ip[4];		/* as the hardware takes it */
	u8 mac[ETH_ALEN];	/* RFC 2464, RFC 1112 */
};

static const struct mcast_case mcast_cases[] = {
	{ "IPv6 group", { .raw = { 0xff, 0x0e, 0, 0, 0, 0, 0, 0,
				   0, 0, 0, 0, 0x12, 0x34, 0x56, 0x78 } },
	  false, { 0xff0e0000, 0, 0, 0x12345678 },
	  { 0x33, 0x33, 0x12, 0x34, 0x56, 0x78 } },
	{ "IPv4 group", { .raw = { 0, 0, 0, 0, 0, 0, 0, 0,
				   0, 0, 0xff, 0xff, 239, 129, 2, 3 } },
	  true, { 0, 0, 0, (239 << 24) | (129 << 16) | (2 << 8) | 3 },
	  { 0x01, 0x00, 0x5e, 0x01, 0x02, 0x03 } },
};

KUNIT_ARRAY_PARAM_DESC(mcast, mcast_cases, name);

#define MCAST_TEST_QPS	2

/*
 * The RoCE mock with MCAST_TEST_QPS UD QPs in INIT in @qp; returns the
 * multicast group indices taken so far, for the end of the case.
 */
static unsigned long *mcast_env(struct kunit *test, struct qp_env *env,
				struct ib_qp **qp)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_qp_attr attr;
	unsigned long *mcgs;
	u32 i, max;

	roce_env(test, env);
	max = env->mock->rf.max_mcg;
	mcgs = kunit_kcalloc(test, BITS_TO_LONGS(max), sizeof(long),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mcgs);
	bitmap_copy(mcgs, env->mock->rf.allocated_mcgs, max);
	for (i = 0; i < MCAST_TEST_QPS; i++) {
		qp[i] = create_qp(env, IB_QPT_UD, &cap, 0);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp[i]);
		KUNIT_ASSERT_EQ(test, roce_step(env->mock, qp[i], IB_QPS_INIT,
						IB_MTU_1024, &attr), 0);
	}
	return mcgs;
}

static void mcast_env_done(struct kunit *test, struct qp_env *env,
			   struct ib_qp **qp)
{
	u32 i;

	for (i = 0; i < MCAST_TEST_QPS; i++)
		KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp[i]), 0);
	qp_env_done(env);
}

/* No group in the hardware, and the group indices as @mcgs had them */
static void expect_no_mcg(struct kunit *test, struct irdma_mock *mock,
			  const unsigned long *mcgs)
{
	KUNIT_EXPECT_EQ(test, irdma_hw_model_mcgs(mock->hw), 0);
	KUNIT_EXPECT_TRUE(test, bitmap_equal(mock->rf.allocated_mcgs, mcgs,
					     mock->rf.max_mcg));
}

/* The one group the hardware has, with @n members: @qp[] */
static void expect_mcg(struct kunit *test, struct irdma_mock *mock,
		       const struct mcast_case *c, struct ib_qp **qp, u32 n)
{
	struct irdma_hw_ws_node leaf;
	struct irdma_hw_mcg g;
	u32 i, j, found = 0;

	KUNIT_ASSERT_EQ(test, irdma_hw_model_mcgs(mock->hw), 1);
	for (i = 0; i < IRDMA_HW_MCGS; i++)
		if (irdma_hw_model_mcg(mock->hw, i, &g))
			break;
	KUNIT_EXPECT_TRUE(test, test_bit(i, mock->rf.allocated_mcgs));
	KUNIT_EXPECT_MEMEQ(test, g.mac, c->mac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, g.ipv4, c->ipv4);
	for (j = c->ipv4 ? 3 : 0; j < 4; j++)
		KUNIT_EXPECT_EQ_MSG(test, g.ip[j], c->ip[j], "IP word %u", j);
	KUNIT_EXPECT_FALSE(test, g.vlan_valid);
	KUNIT_EXPECT_EQ(test, g.hmc_fn, mock->rf.sc_dev.hmc_fn_id);
	KUNIT_EXPECT_LT(test, irdma_hw_model_ws_find(mock->hw, g.qs_handle,
						     &leaf),
			IRDMA_HW_WS_NODES);
	KUNIT_ASSERT_EQ(test, g.n, n);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++)
			found += g.qp[j] == qp[i]->qp_num;
	KUNIT_EXPECT_EQ(test, found, n);
}

/*
 * attach_mcast and detach_mcast as the hardware sees the group: the
 * first member's attach creates it (its MAC RFC 2464's or RFC 1112's,
 * its address, a QS handle of the work scheduler) with that QP in its
 * context, the next one's adds it, each detach takes one out and the
 * last one's destroys the group and gives its index back.
 */
static void roce_mcast(struct kunit *test)
{
	const struct mcast_case *c = test->param_value;
	struct ib_qp *qp[MCAST_TEST_QPS];
	union ib_gid gid = c->gid;
	unsigned long *mcgs;
	struct qp_env env;

	mcgs = mcast_env(test, &env, qp);

	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[0], &gid, 0), 0);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env.mock->hw,
						      IRDMA_HW_OP_CREATE_MCG), 1);
	expect_mcg(test, env.mock, c, qp, 1);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[1], &gid, 0), 0);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env.mock->hw,
						      IRDMA_HW_OP_MODIFY_MCG), 1);
	expect_mcg(test, env.mock, c, qp, 2);

	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qp[1], &gid, 0), 0);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env.mock->hw,
						      IRDMA_HW_OP_MODIFY_MCG), 2);
	expect_mcg(test, env.mock, c, qp, 1);
	KUNIT_EXPECT_EQ(test, ib_detach_mcast(qp[0], &gid, 0), 0);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(env.mock->hw,
						      IRDMA_HW_OP_DESTROY_MCG), 1);
	expect_no_mcg(test, env.mock, mcgs);
	mcast_env_done(test, &env, qp);
}

struct mcast_fail_case {
	const char *name;
	u8 opcode;		/* the MCG command the hardware fails */
	u32 member;		/* at the attach of qp[member] */
};

static const struct mcast_fail_case mcast_fail_cases[] = {
	{ "CREATE_MCG of the first member", IRDMA_HW_OP_CREATE_MCG, 0 },
	{ "MODIFY_MCG of the second member", IRDMA_HW_OP_MODIFY_MCG, 1 },
};

KUNIT_ARRAY_PARAM_DESC(mcast_fail, mcast_fail_cases, name);

/*
 * An attach the hardware fails gets -EIO and leaves the group as the
 * hardware has it: without that member, or gone with its index given
 * back when it was the first.  The same attach then goes through, and
 * detaching both members destroys the group and gives its index back.
 */
static void roce_mcast_hw_refuses(struct kunit *test)
{
	const struct mcast_fail_case *f = test->param_value;
	/* IPv4: roce_mcast shows the MAC of an IPv6 group */
	const struct mcast_case *c = &mcast_cases[1];
	struct ib_qp *qp[MCAST_TEST_QPS];
	union ib_gid gid = c->gid;
	unsigned long *mcgs;
	struct qp_env env;
	u32 i;

	mcgs = mcast_env(test, &env, qp);

	for (i = 0; i < f->member; i++)
		KUNIT_ASSERT_EQ(test, ib_attach_mcast(qp[i], &gid, 0), 0);
	irdma_hw_model_fail_next(env.mock->hw, f->opcode, QP_TEST_MAJ,
				 QP_TEST_MIN);
	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[f->member], &gid, 0), -EIO);
	if (f->member)
		expect_mcg(test, env.mock, c, qp, f->member);
	else
		expect_no_mcg(test, env.mock, mcgs);

	KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[f->member], &gid, 0), 0);
	for (i = f->member + 1; i < ARRAY_SIZE(qp); i++)
		KUNIT_EXPECT_EQ(test, ib_attach_mcast(qp[i], &gid, 0), 0);
	expect_mcg(test, env.mock, c, qp, ARRAY_SIZE(qp));
	for (i = 0; i < ARRAY_SIZE(qp); i++)
		KUNIT_EXPECT_EQ(test, ib_detach_mcast(qp[i], &gid, 0), 0);
	expect_no_mcg(test, env.mock, mcgs);
	mcast_env_done(test, &env, qp);
}

/*
 * UD sends: the SEND WQE of a UD QP carries its destination itself, the
 * AH index in its header and the destination QP and Q_Key in qword 2,
 * which the model decodes for a QP whose SQ it reads.
 */

/* A UD WR's destination, as a ULP's ib_ud_wr gives it */
#define UD_TEST_REMOTE_QPN	0xabcde
#define UD_TEST_REMOTE_QKEY	0x0badcafe
#define UD_TEST_IMM		0x12345678
/* Bytes into each page of the buffer that each SGE starts at */
#define UD_TEST_SGE_OFF		64
#define UD_TEST_SGE_LEN		100
#define UD_TEST_SGES		2

/*
 * A UD QP whose SQ the model reads, in RTS; and an AH to send to, the
 * CREATE_AH that made it in @create.
 */
static struct ib_qp *ud_qp(struct kunit *test, struct qp_env *env,
			   struct ib_qp_cap *cap, struct ib_ah **ah,
			   struct irdma_hw_wqe *create)
{
	struct rdma_ah_attr attr;
	struct ib_qp *qp;

	qp = create_qp(env, IB_QPT_UD, cap, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	irdma_hw_model_read_sq(env->mock->hw, qp->qp_num);
	roce_qp_to(test, env, qp, IB_QPS_RTS);

	roce_ah_attr(env->mock, &attr, &roce_test_dgid, roce_test_dmac);
	*ah = rdma_create_ah(env->pd, &attr, RDMA_CREATE_AH_SLEEPABLE);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, *ah);
	irdma_mock_last_wqe(env->mock, IRDMA_HW_OP_CREATE_AH, create);
	KUNIT_ASSERT_FALSE(test, create->error);
	return qp;
}

/* The SQ quantum the next WQE of @qp goes to */
static u32 sq_head(struct ib_qp *qp)
{
	return IRDMA_RING_CURRENT_HEAD(to_iwqp(qp)->sc_qp.qp_uk.sq_ring);
}

/*
 * The AH index of a UD SEND names the address vector CREATE_AH made: the
 * destination's GID and, through its ARP cache entry, its MAC.
 */
static void expect_ud_dest(struct kunit *test, struct irdma_mock *mock,
			   const struct irdma_hw_sq_wqe *wqe,
			   const struct irdma_hw_wqe *create)
{
	struct irdma_hw_wqe kept;
	u8 mac[ETH_ALEN];

	KUNIT_EXPECT_EQ(test, wqe->ah_idx, create->ah.idx);
	KUNIT_ASSERT_TRUE_MSG(test, irdma_hw_model_ah(mock->hw, wqe->ah_idx,
						      &kept),
			      "AH index %u names no AH", wqe->ah_idx);
	expect_ip(test, kept.ah.dest_ip, &roce_test_dgid, "AH destination");
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_arp(mock->hw, kept.ah.arp_idx,
						   mac));
	KUNIT_EXPECT_MEMEQ(test, mac, roce_test_dmac, ETH_ALEN);
	KUNIT_EXPECT_EQ(test, wqe->dest_qpn, UD_TEST_REMOTE_QPN);
	KUNIT_EXPECT_EQ(test, wqe->qkey, UD_TEST_REMOTE_QKEY);
}

struct ud_case {
	const char *name;
	enum ib_wr_opcode opcode;
	u32 sges;
	int flags;
};

static const struct ud_case ud_cases[] = {
	{ "SEND, 1 SGE", IB_WR_SEND, 1, IB_SEND_SIGNALED },
	{ "SEND, 2 SGEs", IB_WR_SEND, 2, IB_SEND_SIGNALED },
	{ "SEND, unsignaled", IB_WR_SEND, 1, 0 },
	{ "SEND with immediate, 1 SGE", IB_WR_SEND_WITH_IMM, 1,
	  IB_SEND_SIGNALED },
	{ "SEND with immediate, 2 SGEs", IB_WR_SEND_WITH_IMM, 2,
	  IB_SEND_SIGNALED },
};

KUNIT_ARRAY_PARAM_DESC(ud, ud_cases, name);

/*
 * ib_post_send() of a ud_wr on a UD QP in RTS: one SEND WQE, taken by the
 * hardware at the doorbell, whose AH index is the AH's of the WR (the
 * address vector CREATE_AH made, with its destination), whose
 * destination QP and Q_Key are the WR's, with the immediate data if any,
 * and whose fragments are the SGEs: DMA addresses under the PD's local
 * DMA lkey, the device's (irdma has IBK_LOCAL_DMA_LKEY), STag 0, under
 * which the hardware takes them as bus addresses: they must reach the
 * buffer's own pages.
 */
static void roce_ud_send(struct kunit *test)
{
	const struct ud_case *c = test->param_value;
	struct ib_qp_cap cap = { 16, 16, UD_TEST_SGES, 1, 0 };
	struct ib_sge sge[UD_TEST_SGES];
	struct ib_ud_wr wr = {
		.wr = {
			.wr_id = 7, .sg_list = sge, .num_sge = c->sges,
			.opcode = c->opcode, .send_flags = c->flags,
			.ex.imm_data = cpu_to_be32(UD_TEST_IMM),
		},
		.remote_qpn = UD_TEST_REMOTE_QPN,
		.remote_qkey = UD_TEST_REMOTE_QKEY,
	};
	const struct ib_send_wr *bad = NULL;
	struct irdma_hw_sq_wqe wqe;
	struct irdma_hw_wqe create;
	struct ib_device *ibdev;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 i, head, dbs;
	u64 dma;
	u8 *buf;

	roce_env(test, &env);
	ibdev = &env.mock->iwdev->ibdev;
	qp = ud_qp(test, &env, &cap, &wr.ah, &create);
	buf = kunit_kzalloc(test, UD_TEST_SGES * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	dma = ib_dma_map_single(ibdev, buf, UD_TEST_SGES * PAGE_SIZE,
				DMA_TO_DEVICE);
	KUNIT_ASSERT_FALSE(test, ib_dma_mapping_error(ibdev, dma));
	for (i = 0; i < c->sges; i++) {
		sge[i].addr = dma + i * PAGE_SIZE + UD_TEST_SGE_OFF;
		sge[i].length = UD_TEST_SGE_LEN + i;
		sge[i].lkey = env.pd->local_dma_lkey;
	}

	model_qp(test, env.mock, qp, &hw);
	dbs = hw.doorbells;
	head = sq_head(qp);
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &wr.wr, &bad), 0);
	KUNIT_EXPECT_NULL(test, bad);
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.doorbells, dbs + 1);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_tail(env.mock->hw, qp->qp_num),
			sq_head(qp));
	KUNIT_ASSERT_TRUE_MSG(test, irdma_hw_model_sq_wqe(env.mock->hw,
							  qp->qp_num, head,
							  &wqe),
			      "no WQE taken at %u", head);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_SEND);
	KUNIT_EXPECT_EQ(test, wqe.signaled, !!(c->flags & IB_SEND_SIGNALED));
	KUNIT_EXPECT_EQ(test, head + wqe.quanta, sq_head(qp));
	expect_ud_dest(test, env.mock, &wqe, &create);
	KUNIT_EXPECT_EQ(test, wqe.imm, c->opcode == IB_WR_SEND_WITH_IMM);
	if (wqe.imm)
		KUNIT_EXPECT_EQ(test, wqe.imm_data, UD_TEST_IMM);

	KUNIT_ASSERT_EQ(test, wqe.num_frags, c->sges);
	for (i = 0; i < c->sges; i++) {
		KUNIT_EXPECT_EQ(test, wqe.frag[i].stag, env.pd->local_dma_lkey);
		KUNIT_EXPECT_EQ(test, wqe.frag[i].length, sge[i].length);
		KUNIT_EXPECT_EQ(test, wqe.frag[i].addr, sge[i].addr);
		KUNIT_EXPECT_EQ(test,
				(u64)dma_to_phys(env.mock->dev, wqe.frag[i].addr),
				(u64)virt_to_phys(buf + i * PAGE_SIZE +
						  UD_TEST_SGE_OFF));
	}

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	rdma_destroy_ah(wr.ah, RDMA_DESTROY_AH_SLEEPABLE);
	irdma_mock_ccq_event(env.mock);
	ib_dma_unmap_single(ibdev, dma, UD_TEST_SGES * PAGE_SIZE,
			    DMA_TO_DEVICE);
	qp_env_done(&env);
}

/*
 * A list of UD WRs whose second has more SGEs than the QP takes: -EINVAL
 * with bad_wr at it, the first one posted and taken by the hardware with
 * its own destination, nothing of the second in the SQ.
 */
static void roce_ud_send_too_many_sges(struct kunit *test)
{
	struct ib_qp_cap cap = { 16, 16, 1, 1, 0 };
	struct ib_sge sge[IRDMA_MAX_WQ_FRAGMENT_COUNT + 1] = {};
	struct ib_ud_wr wr[2] = {};
	const struct ib_send_wr *bad = NULL;
	struct irdma_hw_sq_wqe wqe;
	struct irdma_hw_wqe create;
	struct irdma_hw_qp hw;
	struct qp_env env;
	struct ib_qp *qp;
	u32 i, head, dbs;

	roce_env(test, &env);
	qp = ud_qp(test, &env, &cap, &wr[0].ah, &create);
	KUNIT_ASSERT_LT(test, cap.max_send_sge, ARRAY_SIZE(sge));
	for (i = 0; i < ARRAY_SIZE(sge); i++) {
		sge[i].addr = QP_TEST_BUF + i * PAGE_SIZE;
		sge[i].length = QP_TEST_BUF_LEN;
		sge[i].lkey = env.pd->local_dma_lkey;
	}
	for (i = 0; i < ARRAY_SIZE(wr); i++) {
		wr[i].wr.wr_id = i;
		wr[i].wr.sg_list = sge;
		wr[i].wr.num_sge = i ? cap.max_send_sge + 1 : 1;
		wr[i].wr.opcode = IB_WR_SEND;
		wr[i].wr.send_flags = IB_SEND_SIGNALED;
		wr[i].wr.next = i ? NULL : &wr[1].wr;
		wr[i].ah = wr[0].ah;
		wr[i].remote_qpn = UD_TEST_REMOTE_QPN;
		wr[i].remote_qkey = UD_TEST_REMOTE_QKEY;
	}

	model_qp(test, env.mock, qp, &hw);
	dbs = hw.doorbells;
	head = sq_head(qp);
	KUNIT_EXPECT_EQ(test, ib_post_send(qp, &wr[0].wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr[1].wr);
	model_qp(test, env.mock, qp, &hw);
	KUNIT_EXPECT_EQ(test, hw.doorbells, dbs + 1);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_sq_wqe(env.mock->hw, qp->qp_num,
						      head, &wqe));
	KUNIT_EXPECT_EQ(test, wqe.num_frags, 1);
	expect_ud_dest(test, env.mock, &wqe, &create);
	KUNIT_EXPECT_EQ(test, head + wqe.quanta, sq_head(qp));
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_tail(env.mock->hw, qp->qp_num),
			sq_head(qp));

	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	rdma_destroy_ah(wr[0].ah, RDMA_DESTROY_AH_SLEEPABLE);
	irdma_mock_ccq_event(env.mock);
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
	KUNIT_CASE_PARAM(roce_ah, ah_gen_params),
	KUNIT_CASE(roce_ah_ids_exhausted),
	KUNIT_CASE_PARAM(roce_mcast, mcast_gen_params),
	KUNIT_CASE_PARAM(roce_mcast_hw_refuses, mcast_fail_gen_params),
	KUNIT_CASE_PARAM(roce_ud_send, ud_gen_params),
	KUNIT_CASE(roce_ud_send_too_many_sges),
	{}
};

static struct kunit_suite irdma_verbs_roce_suite = {
	.name = "irdma_verbs_roce",
	.test_cases = irdma_verbs_roce_cases,
};

kunit_test_suites(&irdma_verbs_roce_suite);
