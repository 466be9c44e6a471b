// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * The helpers of irdma_roce_env.h, which both RoCE suites use.
 */
#include <kunit/test.h>
#include <net/addrconf.h>

#include "irdma_mock.h"
#include "irdma_roce_env.h"

const u8 roce_test_dmac[ETH_ALEN] = { 0x02, 0x00, 0x5e, 0x10, 0x20, 0x30 };

/* 2001:db8::a:b, a global unicast destination */
const struct in6_addr roce_test_dgid = {
	.s6_addr = { 0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0,
		     0, 0, 0, 0, 0, 0x0a, 0, 0x0b },
};

void roce_env(struct kunit *test, struct qp_env *env)
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

void expect_ip(struct kunit *test, const u32 *got, const void *addr,
	       const char *what)
{
	u32 want[4];
	int i;

	ip_words(addr, want);
	for (i = 0; i < 4; i++)
		KUNIT_EXPECT_EQ_MSG(test, got[i], want[i], "%s word %d", what, i);
}

/* The port's default GID: fe80::/64 and the netdev MAC's EUI-64 */
void default_gid(struct irdma_mock *mock, union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	gid->raw[0] = 0xfe;
	gid->raw[1] = 0x80;
	addrconf_addr_eui48(&gid->raw[8], mock->iwdev->netdev->dev_addr);
}

const struct roce_grh roce_test_grh = {
	ROCE_TEST_HOP_LIMIT, ROCE_TEST_TCLASS, ROCE_TEST_FLOW_LABEL,
};

void roce_ah_attr_grh(struct irdma_mock *mock, struct rdma_ah_attr *ah,
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

void roce_ah_attr(struct irdma_mock *mock, struct rdma_ah_attr *ah,
		  const struct in6_addr *dgid, const u8 *dmac)
{
	roce_ah_attr_grh(mock, ah, dgid, dmac, &roce_test_grh);
}

/* The attributes a kernel ULP gives each step of an RC or UD QP */
int roce_step(struct irdma_mock *mock, struct ib_qp *qp,
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
void roce_qp_to(struct kunit *test, struct qp_env *env,
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
