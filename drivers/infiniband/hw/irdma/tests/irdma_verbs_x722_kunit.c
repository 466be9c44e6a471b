// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of irdma's verbs on an X722 (GEN1) function in iWARP mode.
 *
 * The mock's X722 profile is set up by the driver's own i40iw_init_hw()
 * (through irdma_sc_dev_init()), and the model reads its WQEs with GEN1's
 * layouts: i40e register offsets, narrower CQ, CEQ and PD ID fields,
 * fragments without a valid bit.  The limits below are the X722's as the
 * base tree's i40iw_hw.h states them and i40iw_init_hw() installs them;
 * the cases hold the verbs to them, and inputs past them must fail with
 * nothing taken.
 */
#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <linux/sizes.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"

/* Fragments per WQE, I40IW_MAX_WQ_FRAGMENT_COUNT */
#define X722_SGES		3
/* Fragments a READ lands in, I40IW_MAX_SGE_RD */
#define X722_SGE_RD		1
/* Inline bytes per WQE, I40IW_MAX_INLINE_DATA_SIZE */
#define X722_INLINE		48
/* READs in flight as responder and requester, I40IW_MAX_IRD/ORD_SIZE */
#define X722_IRD		63
#define X722_ORD		127
/* REG_MR page sizes: no 1G pages (page_size_cap in i40iw_init_hw()) */
#define X722_PAGES		(SZ_4K | SZ_2M)
/* Work requests: (2048 SQ quanta - 258 reserved) / 2 quanta a WR */
#define X722_QP_WRS		((2048 - 258) / 2)
/* Message sizes, I40IW_MAX_OUTBOUND/INBOUND_MSG_SIZE */
#define X722_MSG_SIZE		2147483647
/* PD IDs, I40IW_MAX_PDS: the 15 bits of ALLOC_STAG's PD field */
#define X722_PDS		32768
/* An X722 SFP+ function */
#define X722_DEVICE		0x37d0
#define X722_VENDOR		0x8086

/* Where the test's buffers pretend to be */
#define X722_BUF		0x400000ULL
#define X722_FAKE_DMA		0x100000000ULL
/* The CQE opcode of a SEND received */
#define X722_CQE_OP_SEND	0x03

static struct irdma_mock *x722_mock(struct kunit *test)
{
	struct irdma_mock_params p = { .profile = IRDMA_MOCK_X722_IWARP };

	return irdma_mock_create(test, &p);
}

/* An SQ in RTS of @sges SGEs and @inline bytes each way */
static struct irdma_qp *x722_rts_qp(struct irdma_mock *mock, u32 sges,
				    u32 inline_bytes)
{
	struct irdma_mock_qp_attr a = {
		.max_sq_sge = sges, .max_rq_sge = sges,
		.max_inline = inline_bytes,
	};

	return irdma_mock_create_qp(mock, &a);
}

static void x722_fill(struct ib_sge *sge, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		sge[i] = (struct ib_sge){ .addr = X722_BUF + i * SZ_64K + i,
					  .length = 100 + i,
					  .lkey = 0x200 + i };
}

/* query_device: the X722's limits, not the E810's */
static void x722_query_device(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	struct ib_udata uhw = {};
	struct ib_device_attr a;

	KUNIT_ASSERT_EQ(test, ibdev->ops.query_device(ibdev, &a, &uhw), 0);
	KUNIT_EXPECT_EQ(test, a.vendor_id, X722_VENDOR);
	KUNIT_EXPECT_EQ(test, a.vendor_part_id, X722_DEVICE);
	KUNIT_EXPECT_EQ(test, a.max_send_sge, X722_SGES);
	KUNIT_EXPECT_EQ(test, a.max_recv_sge, X722_SGES);
	KUNIT_EXPECT_EQ(test, a.max_sge_rd, X722_SGE_RD);
	KUNIT_EXPECT_EQ(test, a.max_qp_rd_atom, X722_IRD);
	KUNIT_EXPECT_EQ(test, a.max_qp_init_rd_atom, X722_ORD);
	KUNIT_EXPECT_EQ(test, a.page_size_cap, X722_PAGES);
	KUNIT_EXPECT_EQ(test, a.max_qp_wr, X722_QP_WRS);
	KUNIT_EXPECT_LE(test, a.max_pd, X722_PDS);
	/* GEN1 has no completion timestamps, no RoCE */
	KUNIT_EXPECT_EQ(test, a.timestamp_mask, 0);
	KUNIT_EXPECT_FALSE(test, a.device_cap_flags &
				 IB_DEVICE_RC_RNR_NAK_GEN);
	KUNIT_EXPECT_TRUE(test, a.device_cap_flags &
				IB_DEVICE_MEM_MGT_EXTENSIONS);
	KUNIT_EXPECT_EQ(test, ibdev->attrs.max_send_sge, X722_SGES);
	KUNIT_EXPECT_EQ(test, ibdev->attrs.max_sge_rd, X722_SGE_RD);
}

/* query_port: an iWARP port with the X722's message size */
static void x722_query_port(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct ib_device *ibdev = &mock->iwdev->ibdev;
	struct ib_port_attr port;

	KUNIT_ASSERT_EQ(test, ib_query_port(ibdev, 1, &port), 0);
	KUNIT_EXPECT_TRUE(test, rdma_protocol_iwarp(ibdev, 1));
	KUNIT_EXPECT_FALSE(test, rdma_protocol_roce(ibdev, 1));
	KUNIT_EXPECT_EQ(test, port.max_msg_sz, X722_MSG_SIZE);
	KUNIT_EXPECT_EQ(test, port.gid_tbl_len, 1);
	KUNIT_EXPECT_EQ(test, port.pkey_tbl_len, 0);
}

/* A PD's ID fits the 15 bits GEN1's ALLOC_STAG carries */
static void x722_pd(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct ib_pd *pd = irdma_mock_alloc_pd(mock);
	struct ib_mr *mr;
	u32 pd_id = to_iwpd(pd)->sc_pd.pd_id;

	KUNIT_EXPECT_LT(test, pd_id, X722_PDS);
	mr = ib_alloc_mr(pd, IB_MR_TYPE_MEM_REG, 4);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	/* The model read the PD from GEN1's field of ALLOC_STAG */
	KUNIT_EXPECT_TRUE(test, irdma_hw_model_stag(mock->hw,
						    mr->lkey >> 8, &pd_id));
	KUNIT_EXPECT_EQ(test, pd_id, to_iwpd(pd)->sc_pd.pd_id);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/* CREATE_CQ names the CQ by GEN1's 16-bit ID field; DESTROY_CQ drops it */
static void x722_cq_create_destroy(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 64);
	u32 id = to_iwcq(cq)->cq_num;
	struct irdma_hw_cq hw;

	KUNIT_ASSERT_TRUE(test, irdma_hw_model_cq(mock->hw, id, &hw));
	KUNIT_EXPECT_GE(test, hw.size, 64);
	KUNIT_EXPECT_EQ(test, hw.ring_pa, to_iwcq(cq)->kmem.pa);
	ib_destroy_cq(cq);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_cq(mock->hw, id, &hw));
}

/* A receive the hardware completes is polled with its wr_id and length */
static void x722_cq_poll(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct ib_pd *pd = irdma_mock_alloc_pd(mock);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 32);
	struct ib_qp *qp = irdma_mock_verbs_qp(mock, pd, cq, NULL);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_sge sge = { .addr = X722_BUF, .length = 64, .lkey = 1 };
	struct ib_recv_wr wr = { .wr_id = 0x722, .sg_list = &sge,
				 .num_sge = 1 };
	struct irdma_hw_cqe cqe = { .op = X722_CQE_OP_SEND, .bytes = 40 };
	const struct ib_recv_wr *bad;
	struct ib_wc wc;

	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 1, &wc), 0);
	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, &bad), 0);
	cqe.qp_id = qp->qp_num;
	KUNIT_ASSERT_EQ(test, irdma_hw_model_cq_post(mock->hw,
						     to_iwcq(cq)->cq_num,
						     &cqe), 0);
	KUNIT_ASSERT_EQ(test, ib_poll_cq(cq, 1, &wc), 1);
	KUNIT_EXPECT_EQ(test, wc.wr_id, 0x722);
	KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, wc.opcode, IB_WC_RECV);
	KUNIT_EXPECT_EQ(test, wc.byte_len, 40);
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 1, &wc), 0);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_destroy_cq(cq);
}

/*
 * An RC QP of the X722's most SGEs: the hardware gets an iWARP QP on its
 * CQ, goes through INIT and RTR (IDLE), and ERR and RESET after; the QP
 * is gone from it once destroyed.
 */
static void x722_qp_states(struct kunit *test)
{
	static const struct {
		enum ib_qp_state to;
		u8 hw;
	} steps[] = {
		{ IB_QPS_INIT, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_RTR, IRDMA_HW_QPS_IDLE },
		{ IB_QPS_ERR, IRDMA_HW_QPS_ERROR },
		{ IB_QPS_RESET, IRDMA_HW_QPS_ERROR },
	};
	struct irdma_mock *mock = x722_mock(test);
	struct ib_pd *pd = irdma_mock_alloc_pd(mock);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 64);
	struct ib_qp_cap cap = { 16, 16, X722_SGES, X722_SGES, 0 };
	struct ib_qp *qp = irdma_mock_verbs_qp(mock, pd, cq, &cap);
	struct ib_qp_attr attr = {};
	struct irdma_hw_qp hw;
	u32 id = qp->qp_num, i;

	KUNIT_ASSERT_TRUE(test, irdma_hw_model_qp(mock->hw, id, &hw));
	KUNIT_EXPECT_TRUE(test, hw.iwarp);
	KUNIT_EXPECT_EQ(test, hw.send_cq, to_iwcq(cq)->cq_num);
	KUNIT_EXPECT_EQ(test, hw.recv_cq, to_iwcq(cq)->cq_num);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		attr.qp_state = steps[i].to;
		KUNIT_EXPECT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
		KUNIT_ASSERT_TRUE(test, irdma_hw_model_qp(mock->hw, id, &hw));
		KUNIT_EXPECT_EQ_MSG(test, hw.state, steps[i].hw, "step %u", i);
	}
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_qp(mock->hw, id, &hw));
	ib_destroy_cq(cq);
}

/*
 * QP capabilities past the X722's, each refused; max_qp_wr is what the
 * SQ holds of WRs of the most SGEs (2 quanta each)
 */
struct x722_bad_qp {
	const char *name;
	struct ib_qp_cap cap;
};

static const struct x722_bad_qp x722_bad_qps[] = {
	{ "4 send SGEs", { 16, 16, X722_SGES + 1, 1, 0 } },
	{ "4 recv SGEs", { 16, 16, 1, X722_SGES + 1, 0 } },
	{ "49 inline bytes", { 16, 16, 1, 1, X722_INLINE + 1 } },
	{ "one send WR too many", { X722_QP_WRS + 1, 16, X722_SGES, 1, 0 } },
};

static void x722_bad_qp_desc(const struct x722_bad_qp *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(x722_bad_qp, x722_bad_qps, x722_bad_qp_desc);

/*
 * Each is refused with an errno, and the QP IDs, the table, the CQP and
 * the hardware's QPs are as they were
 */
static void x722_qp_refused(struct kunit *test)
{
	const struct x722_bad_qp *c = test->param_value;
	struct irdma_mock *mock = x722_mock(test);
	struct ib_pd *pd = irdma_mock_alloc_pd(mock);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 64);
	struct ib_qp_init_attr init = {
		.send_cq = cq, .recv_cq = cq, .qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR, .cap = c->cap,
	};
	struct irdma_mock_ids was;
	struct ib_qp *qp;

	irdma_mock_save_ids(mock, IRDMA_MOCK_QPS, &was);
	qp = ib_create_qp(pd, &init);
	KUNIT_EXPECT_TRUE(test, IS_ERR(qp));
	if (!IS_ERR(qp))
		ib_destroy_qp(qp);
	else
		KUNIT_EXPECT_EQ(test, PTR_ERR(qp), -EINVAL);
	irdma_mock_expect_ids(mock, &was);
	ib_destroy_cq(cq);
}

/* Posts @wr; the SQ index of its first WQE */
static u32 x722_post(struct kunit *test, struct irdma_qp *iwqp,
		     const struct ib_send_wr *wr, int expect)
{
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	u32 head = IRDMA_RING_CURRENT_HEAD(uk->sq_ring);
	const struct ib_send_wr *bad = NULL;

	KUNIT_EXPECT_EQ(test, ib_post_send(&iwqp->ibqp, wr, &bad), expect);
	KUNIT_EXPECT_PTR_EQ(test, bad, expect ? wr : NULL);
	return head;
}

static void x722_decode(struct kunit *test, struct irdma_qp *iwqp, u32 idx,
			struct irdma_hw_sq_wqe *wqe)
{
	KUNIT_ASSERT_GE(test, irdma_mock_sq_next_wqe(iwqp, idx, wqe), 0);
	KUNIT_EXPECT_EQ(test, wqe->valid, iwqp->sc_qp.qp_uk.swqe_polarity);
}

static void x722_expect_frags(struct kunit *test,
			      const struct irdma_hw_sq_wqe *wqe,
			      const struct ib_sge *sge, u32 n)
{
	u32 i;

	KUNIT_ASSERT_EQ(test, wqe->num_frags, n);
	for (i = 0; i < n; i++) {
		KUNIT_EXPECT_EQ(test, wqe->frag[i].addr, sge[i].addr);
		KUNIT_EXPECT_EQ(test, wqe->frag[i].length, sge[i].length);
		KUNIT_EXPECT_EQ(test, wqe->frag[i].stag, sge[i].lkey);
	}
}

static const u32 x722_send_sges[] = { 1, 2, 3 };

static void x722_sges_desc(const u32 *n, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%u SGEs", *n);
}

KUNIT_ARRAY_PARAM(x722_send_sges, x722_send_sges, x722_sges_desc);

/*
 * A SEND of 1 to 3 SGEs: GEN1's fragments, length low and STag high, as
 * the hardware reads them, in at most the 2 quanta a GEN1 WQE has
 */
static void x722_post_send(struct kunit *test)
{
	u32 n = *(const u32 *)test->param_value;
	struct irdma_mock *mock = x722_mock(test);
	struct irdma_qp *iwqp = x722_rts_qp(mock, X722_SGES, 0);
	struct ib_sge sge[X722_SGES];
	struct ib_send_wr wr = { .wr_id = 1, .opcode = IB_WR_SEND,
				 .sg_list = sge, .num_sge = n,
				 .send_flags = IB_SEND_SIGNALED };
	struct irdma_hw_sq_wqe wqe;
	u32 head;

	x722_fill(sge, n);
	head = x722_post(test, iwqp, &wr, 0);
	x722_decode(test, iwqp, head, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_SEND);
	KUNIT_EXPECT_TRUE(test, wqe.signaled);
	KUNIT_EXPECT_LE(test, wqe.quanta, 2);
	x722_expect_frags(test, &wqe, sge, n);
}

/*
 * A SEND of one SGE more than GEN1 takes is refused with bad_wr; the
 * ring is as it was and the hardware got nothing
 */
static void x722_post_send_too_many_sges(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct irdma_qp *iwqp = x722_rts_qp(mock, X722_SGES, 0);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	struct ib_sge sge[X722_SGES + 1];
	struct ib_send_wr wr = { .opcode = IB_WR_SEND, .sg_list = sge,
				 .num_sge = X722_SGES + 1 };
	u32 head, tail;

	x722_fill(sge, X722_SGES + 1);
	tail = irdma_hw_model_sq_tail(mock->hw, uk->qp_id);
	head = x722_post(test, iwqp, &wr, -EINVAL);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(uk->sq_ring), head);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_sq_tail(mock->hw, uk->qp_id),
			tail);
}

/*
 * A READ lands in one SGE on GEN1: two are refused with bad_wr, one is
 * read by the hardware with its remote STag and address
 */
static void x722_post_read(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct irdma_qp *iwqp = x722_rts_qp(mock, X722_SGES, 0);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	struct ib_sge sge[2];
	struct ib_rdma_wr rd = {
		.wr = { .opcode = IB_WR_RDMA_READ, .sg_list = sge,
			.num_sge = X722_SGE_RD + 1 },
		.remote_addr = 0xabcd0000, .rkey = 0x1234,
	};
	struct irdma_hw_sq_wqe wqe;
	u32 head;

	x722_fill(sge, 2);
	head = x722_post(test, iwqp, &rd.wr, -EINVAL);
	KUNIT_EXPECT_EQ(test, IRDMA_RING_CURRENT_HEAD(uk->sq_ring), head);
	rd.wr.num_sge = X722_SGE_RD;
	head = x722_post(test, iwqp, &rd.wr, 0);
	x722_decode(test, iwqp, head, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_RDMA_READ);
	KUNIT_EXPECT_EQ(test, wqe.rem_stag, 0x1234);
	KUNIT_EXPECT_EQ(test, wqe.rem_to, 0xabcd0000);
	x722_expect_frags(test, &wqe, sge, X722_SGE_RD);
}

/*
 * Inline data: up to 16 bytes fit the first quantum, up to 48 take the
 * second; the hardware reads the length and the WQE's quanta so
 */
static void x722_post_inline(struct kunit *test)
{
	static const u32 lens[] = { 16, 17, X722_INLINE };
	static const u32 quanta[] = { 1, 2, 2 };
	struct irdma_mock *mock = x722_mock(test);
	struct irdma_qp *iwqp = x722_rts_qp(mock, 1, X722_INLINE);
	u8 *buf = kunit_kzalloc(test, X722_INLINE, GFP_KERNEL);
	struct ib_sge sge = { .lkey = 0 };
	struct ib_send_wr wr = { .opcode = IB_WR_SEND, .sg_list = &sge,
				 .num_sge = 1, .send_flags = IB_SEND_INLINE };
	struct irdma_hw_sq_wqe wqe;
	u32 i, head;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	sge.addr = (uintptr_t)buf;
	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		sge.length = lens[i];
		head = x722_post(test, iwqp, &wr, 0);
		x722_decode(test, iwqp, head, &wqe);
		KUNIT_EXPECT_EQ_MSG(test, wqe.quanta, quanta[i], "%u bytes",
				    lens[i]);
	}
	sge.length = X722_INLINE + 1;
	x722_post(test, iwqp, &wr, -EINVAL);
}

/*
 * post_recv: GEN1's RQ WQEs hold 1 to 3 SGEs as the hardware reads them;
 * a fourth is refused with bad_wr
 */
static void x722_post_recv(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct ib_pd *pd = irdma_mock_alloc_pd(mock);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 64);
	struct ib_qp_cap cap = { 16, 16, X722_SGES, X722_SGES, 0 };
	struct ib_qp *qp = irdma_mock_verbs_qp(mock, pd, cq, &cap);
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_sge sge[X722_SGES + 1];
	struct ib_recv_wr wr = { .sg_list = sge };
	const struct ib_recv_wr *bad;
	struct irdma_hw_rq_wqe w;
	u32 n, i;

	KUNIT_ASSERT_EQ(test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	x722_fill(sge, X722_SGES + 1);
	for (n = 1; n <= X722_SGES; n++) {
		wr.num_sge = n;
		KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, &bad), 0);
		KUNIT_ASSERT_TRUE(test, irdma_hw_model_rq_wqe(mock->hw,
							      qp->qp_num,
							      n - 1, &w));
		KUNIT_ASSERT_EQ(test, w.num_frags, n);
		for (i = 0; i < n; i++) {
			KUNIT_EXPECT_EQ(test, w.frag[i].addr, sge[i].addr);
			KUNIT_EXPECT_EQ(test, w.frag[i].length, sge[i].length);
			KUNIT_EXPECT_EQ(test, w.frag[i].stag, sge[i].lkey);
		}
	}
	wr.num_sge = X722_SGES + 1;
	bad = NULL;
	KUNIT_EXPECT_EQ(test, ib_post_recv(qp, &wr, &bad), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, bad, &wr);
	KUNIT_EXPECT_EQ(test,
			IRDMA_RING_CURRENT_HEAD(to_iwqp(qp)->sc_qp.qp_uk.rq_ring),
			X722_SGES);
	KUNIT_EXPECT_EQ(test, ib_destroy_qp(qp), 0);
	ib_destroy_cq(cq);
}

KUNIT_DEFINE_ACTION_WRAPPER(x722_free_sgt, sg_free_table, struct sg_table *);

/* @n DMA-mapped pages of @size, page i at X722_FAKE_DMA + 2 * i pages */
static struct scatterlist *x722_sgl(struct kunit *test, u32 n, u32 size)
{
	struct sg_table *sgt = kunit_kzalloc(test, sizeof(*sgt), GFP_KERNEL);
	struct scatterlist *sg;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, sgt);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(sgt, n, GFP_KERNEL), 0);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, x722_free_sgt,
							sgt), 0);
	for_each_sg(sgt->sgl, sg, n, i) {
		sg_dma_address(sg) = X722_FAKE_DMA + 2ULL * i * size;
		sg_dma_len(sg) = size;
	}
	return sgt->sgl;
}

/*
 * FAST_REGISTER of 16 pages through a level-1 PBL, then LOCAL_INV: the
 * hardware follows the PBL to every page, then drops the STag
 */
static void x722_fastreg_local_inv(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct irdma_qp *iwqp = x722_rts_qp(mock, X722_SGES, 0);
	struct scatterlist *sgl = x722_sgl(test, 16, SZ_4K);
	struct ib_mr *mr = ib_alloc_mr(&mock->pd.ibpd, IB_MR_TYPE_MEM_REG, 16);
	struct ib_reg_wr reg = {
		.wr = { .opcode = IB_WR_REG_MR },
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE,
	};
	struct ib_send_wr inv = { .opcode = IB_WR_LOCAL_INV };
	struct irdma_hw_sq_wqe wqe;
	struct irdma_hw_mr hw;
	u32 head, i, bad = 0;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(mr, sgl, 16, NULL, SZ_4K), 16);
	reg.mr = mr;
	reg.key = mr->rkey;
	head = x722_post(test, iwqp, &reg.wr, 0);
	x722_decode(test, iwqp, head, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_FAST_REGISTER);
	KUNIT_EXPECT_EQ(test, wqe.fr_index, mr->rkey >> 8);
	KUNIT_EXPECT_EQ(test, wqe.fr_len, 16 * SZ_4K);
	KUNIT_EXPECT_EQ(test, wqe.fr_pbl_size, 1);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_mr(mock->hw, wqe.fr_index, &hw));
	KUNIT_EXPECT_EQ(test, hw.page_size, SZ_4K);
	KUNIT_ASSERT_EQ(test, hw.npages, 16);
	for (i = 0; i < 16; i++)
		bad += irdma_hw_model_mr_page(mock->hw, wqe.fr_index, i) !=
		       X722_FAKE_DMA + 2ULL * i * SZ_4K;
	KUNIT_EXPECT_EQ(test, bad, 0);

	inv.ex.invalidate_rkey = mr->rkey;
	head = x722_post(test, iwqp, &inv, 0);
	x722_decode(test, iwqp, head, &wqe);
	KUNIT_EXPECT_EQ(test, wqe.opcode, IRDMA_HW_SQ_OP_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, wqe.inv_stag, mr->rkey);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_mr(mock->hw, mr->rkey >> 8,
						   &hw));
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

/*
 * 1G pages, which the X722 lacks, are refused by map_mr_sg with nothing
 * kept; 2M pages, which it has, map
 */
static void x722_map_1g_refused(struct kunit *test)
{
	struct irdma_mock *mock = x722_mock(test);
	struct scatterlist *sgl = x722_sgl(test, 2, SZ_1G);
	struct scatterlist *sgl_2m = x722_sgl(test, 2, SZ_2M);
	struct ib_mr *mr = ib_alloc_mr(&mock->pd.ibpd, IB_MR_TYPE_MEM_REG, 2);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mr);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sgl, 2, NULL, SZ_1G), -EINVAL);
	KUNIT_EXPECT_EQ(test, to_iwmr(mr)->npages, 0);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg(mr, sgl_2m, 2, NULL, SZ_2M), 2);
	KUNIT_EXPECT_EQ(test, ib_dereg_mr(mr), 0);
}

static struct kunit_case irdma_verbs_x722_cases[] = {
	KUNIT_CASE(x722_query_device),
	KUNIT_CASE(x722_query_port),
	KUNIT_CASE(x722_pd),
	KUNIT_CASE(x722_cq_create_destroy),
	KUNIT_CASE(x722_cq_poll),
	KUNIT_CASE(x722_qp_states),
	KUNIT_CASE_PARAM(x722_qp_refused, x722_bad_qp_gen_params),
	KUNIT_CASE_PARAM(x722_post_send, x722_send_sges_gen_params),
	KUNIT_CASE(x722_post_send_too_many_sges),
	KUNIT_CASE(x722_post_read),
	KUNIT_CASE(x722_post_inline),
	KUNIT_CASE(x722_post_recv),
	KUNIT_CASE(x722_fastreg_local_inv),
	KUNIT_CASE(x722_map_1g_refused),
	{}
};

static struct kunit_suite irdma_verbs_x722_suite = {
	.name = "irdma_verbs_x722",
	.test_cases = irdma_verbs_x722_cases,
};

kunit_test_suite(irdma_verbs_x722_suite);
