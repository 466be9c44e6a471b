// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_device: the query verbs of the mock E810, in
 * iWARP and in RoCEv2 mode, judged by what the function is: the E810's
 * limits (below, from its datasheet's RDMA limits as the hardware
 * definitions give them), the object counts the mock gave its HMC, its
 * PCI IDs and its netdev's MAC.
 */
#include <kunit/test.h>
#include <net/addrconf.h>
#include <rdma/ib_cache.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"

/* E810 (GEN2): fragments per WQE, for sends, receives and READ sinks */
#define DEV_TEST_E810_SGES		13
/* RDMA READs in flight: as responder (IRD) and as requester (ORD) */
#define DEV_TEST_E810_IRD		127
#define DEV_TEST_E810_ORD		255
/* The REG_MR page sizes: 4K, 2M and 1G */
#define DEV_TEST_E810_PAGES		(SZ_4K | SZ_2M | SZ_1G)
/* 45 bits of MR length, 31 of message length */
#define DEV_TEST_E810_MR_SIZE		BIT_ULL(45)
#define DEV_TEST_E810_MSG_SIZE		(BIT(31) - 1)
/* CQEs a CQ ring has at most, one of them left empty */
#define DEV_TEST_E810_CQES		((1U << 20) - 1)
/* A REG_MR's page list: 256K pages */
#define DEV_TEST_E810_FMR_PAGES		262144
/* The completion timestamp counter: 17 bits */
#define DEV_TEST_E810_TS_MASK		GENMASK_ULL(16, 0)
/* Quanta a WQE of 13 fragments takes in the SQ, and the SQ's at most */
#define DEV_TEST_E810_WR_QUANTA		8
#define DEV_TEST_E810_SQ_QUANTA		32768
/* HMC objects the mock gives its function (irdma_mock.c) */
#define DEV_TEST_MOCK_OBJS		64
#define DEV_TEST_MOCK_MRS		4096
/* The mock's PCI function: an Intel E810-C for QSFP */
#define DEV_TEST_VENDOR			0x8086
#define DEV_TEST_DEVICE			0x1592

static const enum irdma_mock_profile dev_profiles[] = {
	IRDMA_MOCK_E810_IWARP, IRDMA_MOCK_E810_ROCE,
};

/* What does not depend on the generation's limits runs on the X722 too */
static const enum irdma_mock_profile dev_any_profiles[] = {
	IRDMA_MOCK_E810_IWARP, IRDMA_MOCK_E810_ROCE, IRDMA_MOCK_X722_IWARP,
};

static void dev_profile_desc(const enum irdma_mock_profile *p, char *desc)
{
	static const char * const names[] = {
		[IRDMA_MOCK_E810_IWARP] = "E810 iWARP",
		[IRDMA_MOCK_E810_ROCE] = "E810 RoCEv2",
		[IRDMA_MOCK_X722_IWARP] = "X722 iWARP",
	};

	strscpy(desc, names[*p], KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(dev_profile, dev_profiles, dev_profile_desc);
KUNIT_ARRAY_PARAM(dev_any_profile, dev_any_profiles, dev_profile_desc);

static struct irdma_mock *dev_mock(struct kunit *test)
{
	struct irdma_mock_params p = {
		.profile = *(const enum irdma_mock_profile *)test->param_value,
	};

	return irdma_mock_create(test, &p);
}

/*
 * query_device, asked now and as the RDMA core kept it at registration:
 * the E810's limits, the function's PCI IDs, a system image GUID from
 * the port's MAC, object counts within what the function's HMC holds,
 * and for RoCE the RNR NAK generation and one P_Key.
 */
static void dev_query_device(struct kunit *test)
{
	struct irdma_mock *mock = dev_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	bool roce = rdma_protocol_roce(ibdev, 1);
	struct ib_udata uhw = {};
	struct ib_device_attr a;
	__be64 guid;
	int i;

	KUNIT_ASSERT_EQ(test, ibdev->ops.query_device(ibdev, &a, &uhw), 0);
	for (i = 0; i < 2; i++, a = ibdev->attrs) {
		addrconf_addr_eui48((u8 *)&guid, mock->iwdev->netdev->dev_addr);
		KUNIT_EXPECT_MEMEQ(test, &a.sys_image_guid, &guid, sizeof(guid));
		KUNIT_EXPECT_EQ(test, a.vendor_id, DEV_TEST_VENDOR);
		KUNIT_EXPECT_EQ(test, a.vendor_part_id, DEV_TEST_DEVICE);
		KUNIT_EXPECT_EQ(test, a.max_send_sge, DEV_TEST_E810_SGES);
		KUNIT_EXPECT_EQ(test, a.max_recv_sge, DEV_TEST_E810_SGES);
		KUNIT_EXPECT_EQ(test, a.max_sge_rd, DEV_TEST_E810_SGES);
		KUNIT_EXPECT_EQ(test, a.max_qp_rd_atom, DEV_TEST_E810_IRD);
		KUNIT_EXPECT_EQ(test, a.max_qp_init_rd_atom, DEV_TEST_E810_ORD);
		KUNIT_EXPECT_EQ(test, a.page_size_cap, DEV_TEST_E810_PAGES);
		KUNIT_EXPECT_EQ(test, a.max_mr_size, DEV_TEST_E810_MR_SIZE);
		KUNIT_EXPECT_EQ(test, a.max_cqe, DEV_TEST_E810_CQES - 1);
		KUNIT_EXPECT_EQ(test, a.max_fast_reg_page_list_len,
				DEV_TEST_E810_FMR_PAGES);
		KUNIT_EXPECT_EQ(test, a.timestamp_mask, DEV_TEST_E810_TS_MASK);
		KUNIT_EXPECT_GT(test, a.max_qp_wr, 0);
		KUNIT_EXPECT_LE(test, a.max_qp_wr * DEV_TEST_E810_WR_QUANTA,
				DEV_TEST_E810_SQ_QUANTA);
		KUNIT_EXPECT_TRUE(test, a.device_cap_flags &
					IB_DEVICE_MEM_MGT_EXTENSIONS);
		KUNIT_EXPECT_TRUE(test, a.kernel_cap_flags & IBK_LOCAL_DMA_LKEY);
		KUNIT_EXPECT_EQ(test, !!(a.device_cap_flags &
					 IB_DEVICE_RC_RNR_NAK_GEN), roce);
		KUNIT_EXPECT_EQ(test, a.max_pkeys, roce ? 1 : 0);

		KUNIT_EXPECT_GT(test, a.max_qp, 0);
		KUNIT_EXPECT_LE(test, a.max_qp, DEV_TEST_MOCK_OBJS);
		KUNIT_EXPECT_GT(test, a.max_cq, 0);
		KUNIT_EXPECT_LE(test, a.max_cq, DEV_TEST_MOCK_OBJS);
		KUNIT_EXPECT_GT(test, a.max_mr, 0);
		KUNIT_EXPECT_LE(test, a.max_mr, DEV_TEST_MOCK_MRS);
		KUNIT_EXPECT_EQ(test, a.max_mw, a.max_mr);
		KUNIT_EXPECT_LE(test, a.max_ah, DEV_TEST_MOCK_OBJS);
		KUNIT_EXPECT_GT(test, a.max_pd, 0);
	}
}

/* User data in a kernel query_device is refused */
static void dev_query_device_udata(struct kunit *test)
{
	struct irdma_mock *mock = dev_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	struct ib_udata uhw = { .inlen = 8 };
	struct ib_device_attr a;

	KUNIT_EXPECT_EQ(test, ibdev->ops.query_device(ibdev, &a, &uhw),
			-EINVAL);
	uhw = (struct ib_udata){ .outlen = 8 };
	KUNIT_EXPECT_EQ(test, ibdev->ops.query_device(ibdev, &a, &uhw),
			-EINVAL);
}

/*
 * A QP of what query_device says the device takes: max_qp_wr work
 * requests of max_send_sge and max_recv_sge SGEs each way.  The hardware
 * gets queues that hold them; one more work request is refused.
 */
static void dev_max_qp(struct kunit *test)
{
	struct irdma_mock *mock = dev_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	const struct ib_device_attr *a = &ibdev->attrs;
	struct ib_qp_init_attr init = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { a->max_qp_wr, a->max_qp_wr, a->max_send_sge,
			 a->max_recv_sge, 0 },
	};
	struct ib_pd *pd = irdma_mock_alloc_pd(mock);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 2 * a->max_qp_wr);
	struct irdma_hw_qp hw;
	struct ib_qp *qp;

	init.send_cq = cq;
	init.recv_cq = cq;
	qp = ib_create_qp(pd, &init);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, qp);
	KUNIT_EXPECT_GE(test, init.cap.max_send_wr, a->max_qp_wr);
	KUNIT_EXPECT_GE(test, init.cap.max_recv_wr, a->max_qp_wr);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_qp(mock->hw, qp->qp_num, &hw));
	KUNIT_EXPECT_LE(test, hw.sq_quanta, DEV_TEST_E810_SQ_QUANTA);
	KUNIT_EXPECT_GE(test, hw.sq_quanta, a->max_qp_wr);
	KUNIT_EXPECT_GE(test, hw.rq_quanta >> hw.rq_wqe_shift, a->max_qp_wr);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);

	init.cap.max_send_wr = a->max_qp_wr + 1;
	qp = ib_create_qp(pd, &init);
	KUNIT_EXPECT_TRUE(test, IS_ERR(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

/*
 * query_port: an Ethernet port whose netdev is down (the mock's never
 * comes up), 4096-byte MTUs at most and the netdev's 1500 bytes as an
 * active 1024-byte MTU, the CM supported, the E810's message size; an
 * iWARP port has its one MAC-based GID, a RoCE port a GID table and a
 * P_Key table.
 */
static void dev_query_port(struct kunit *test)
{
	struct irdma_mock *mock = dev_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	bool roce = rdma_protocol_roce(ibdev, 1);
	struct ib_port_attr port;

	KUNIT_ASSERT_EQ(test, ib_query_port(ibdev, 1, &port), 0);
	KUNIT_EXPECT_EQ(test, rdma_port_get_link_layer(ibdev, 1),
			IB_LINK_LAYER_ETHERNET);
	KUNIT_EXPECT_EQ(test, port.state, IB_PORT_DOWN);
	KUNIT_EXPECT_EQ(test, port.phys_state, IB_PORT_PHYS_STATE_DISABLED);
	KUNIT_EXPECT_EQ(test, port.max_mtu, IB_MTU_4096);
	KUNIT_EXPECT_EQ(test, port.active_mtu, IB_MTU_1024);
	KUNIT_EXPECT_TRUE(test, port.port_cap_flags & IB_PORT_CM_SUP);
	KUNIT_EXPECT_EQ(test, port.max_msg_sz, DEV_TEST_E810_MSG_SIZE);
	KUNIT_EXPECT_EQ(test, port.gid_tbl_len, roce ? 32 : 1);
	KUNIT_EXPECT_EQ(test, port.pkey_tbl_len, roce ? 1 : 0);
	KUNIT_EXPECT_EQ(test, !!port.ip_gids, roce);
	KUNIT_EXPECT_EQ(test, rdma_protocol_iwarp(ibdev, 1), !roce);
	KUNIT_EXPECT_EQ(test, rdma_protocol_roce_udp_encap(ibdev, 1), roce);
}

/*
 * An iWARP port's one GID is its MAC, zero-padded, as the iWARP CM
 * expects; there is no second one.  query_pkey is RoCE's alone.
 */
static void dev_query_gid_iwarp(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	union ib_gid gid, want = {};
	u16 pkey;

	memcpy(want.raw, mock->iwdev->netdev->dev_addr, ETH_ALEN);
	KUNIT_ASSERT_EQ(test, rdma_query_gid(ibdev, 1, 0, &gid), 0);
	KUNIT_EXPECT_MEMEQ(test, gid.raw, want.raw, sizeof(gid.raw));
	KUNIT_EXPECT_LT(test, rdma_query_gid(ibdev, 1, 1, &gid), 0);
	KUNIT_EXPECT_LT(test, ib_query_pkey(ibdev, 1, 0, &pkey), 0);
}

static struct kunit_case irdma_verbs_device_cases[] = {
	KUNIT_CASE_PARAM(dev_query_device, dev_profile_gen_params),
	KUNIT_CASE_PARAM(dev_query_device_udata, dev_any_profile_gen_params),
	KUNIT_CASE_PARAM(dev_max_qp, dev_any_profile_gen_params),
	KUNIT_CASE_PARAM(dev_query_port, dev_any_profile_gen_params),
	KUNIT_CASE(dev_query_gid_iwarp),
	{}
};

static struct kunit_suite irdma_verbs_device_suite = {
	.name = "irdma_verbs_device",
	.test_cases = irdma_verbs_device_cases,
};

kunit_test_suites(&irdma_verbs_device_suite);
