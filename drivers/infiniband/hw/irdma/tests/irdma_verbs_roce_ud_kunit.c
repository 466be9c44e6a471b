// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_roce_ud: what UD traffic needs of irdma on the
 * mock E810 in RoCEv2 mode (irdma_roce_env.h): address handles and the
 * hardware's ARP and AH entries behind them, multicast groups, and UD
 * sends, whose WQEs must carry the destination the AH and the work
 * request name.
 */
#include <kunit/test.h>
#include <linux/dma-direct.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "irdma_roce_env.h"

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

static struct kunit_case irdma_verbs_roce_ud_cases[] = {
	KUNIT_CASE_PARAM(roce_ah, ah_gen_params),
	KUNIT_CASE(roce_ah_ids_exhausted),
	KUNIT_CASE_PARAM(roce_mcast, mcast_gen_params),
	KUNIT_CASE_PARAM(roce_mcast_hw_refuses, mcast_fail_gen_params),
	KUNIT_CASE_PARAM(roce_ud_send, ud_gen_params),
	KUNIT_CASE(roce_ud_send_too_many_sges),
	{}
};

static struct kunit_suite irdma_verbs_roce_ud_suite = {
	.name = "irdma_verbs_roce_ud",
	.test_cases = irdma_verbs_roce_ud_cases,
};

kunit_test_suite(irdma_verbs_roce_ud_suite);
