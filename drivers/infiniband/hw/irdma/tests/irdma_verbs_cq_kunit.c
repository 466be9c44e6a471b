// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit suite irdma_verbs_cq: completion queues through irdma's verbs.
 *
 * The cases call ib_create_cq(), ib_alloc_cq(), ib_resize_cq(),
 * ib_req_notify_cq(), ib_poll_cq() and ib_destroy_cq() on the mock device
 * of irdma_mock.c, whose CQP is answered by the firmware model of
 * irdma_hw_model.c.  They judge what the hardware is told: the CQs the
 * model created, resized and destroyed from the CQP WQEs it decoded, and
 * the arm requests it read from each CQ's shadow area.  Completions are
 * written into a CQ's ring by the model, as the hardware writes them, and
 * must come out of ib_poll_cq() as the verbs promise: in order, each with
 * its work request, across the ring's wrap and a resize.  A verb that
 * fails must leave the CQ IDs, CQP requests and the hardware as they were.
 */
#include <kunit/test.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"

/* A CQP error the driver sees as any failed command */
#define CQ_TEST_MAJ		0x0100
#define CQ_TEST_MIN		0x0002

/* Where the receive buffers are said to be; nothing reads them */
#define CQ_TEST_BUF		0x200000ULL
#define CQ_TEST_BUF_LEN		256

/* The SEND opcode, which an RQ CQE of a received SEND carries */
#define CQ_TEST_OP_SEND		0x03

static u32 cq_id(struct ib_cq *cq)
{
	return to_iwcq(cq)->cq_num;
}

static struct ib_cq *create_cq(struct irdma_mock *mock, int cqe, u32 vector,
			       u32 flags)
{
	struct ib_cq_init_attr attr = {
		.cqe = cqe, .comp_vector = vector, .flags = flags,
	};

	return ib_create_cq(&mock->iwdev->ibdev, NULL, NULL, NULL, &attr);
}

/* The model's view of a CQ that must exist */
static void model_cq(struct kunit *test, struct irdma_mock *mock,
		     struct ib_cq *cq, struct irdma_hw_cq *hw)
{
	KUNIT_ASSERT_TRUE_MSG(test, irdma_hw_model_cq(mock->hw, cq_id(cq), hw),
			      "CQ %u not in the hardware", cq_id(cq));
}

/* The QP whose completions the cases write: RC, in INIT, on @cq */
static struct ib_qp *cq_test_qp(struct irdma_mock *mock, struct ib_cq *cq,
				u32 rq_wrs)
{
	struct ib_qp_cap cap = { .max_send_wr = 16, .max_recv_wr = rq_wrs,
				 .max_send_sge = 1, .max_recv_sge = 1 };
	struct ib_qp_attr attr = { .qp_state = IB_QPS_INIT };
	struct ib_pd *pd = irdma_mock_alloc_pd(mock);
	struct ib_qp *qp;

	qp = irdma_mock_verbs_qp(mock, pd, cq, &cap);
	KUNIT_ASSERT_EQ(mock->test, ib_modify_qp(qp, &attr, IB_QP_STATE), 0);
	return qp;
}

static void post_recvs(struct kunit *test, struct ib_qp *qp, u64 wr_id,
		       u32 n)
{
	struct ib_sge sge = {
		.addr = CQ_TEST_BUF, .length = CQ_TEST_BUF_LEN,
		.lkey = qp->pd->local_dma_lkey,
	};
	struct ib_recv_wr wr = { .sg_list = &sge, .num_sge = 1 };
	const struct ib_recv_wr *bad;
	u32 i;

	for (i = 0; i < n; i++) {
		wr.wr_id = wr_id + i;
		KUNIT_ASSERT_EQ(test, ib_post_recv(qp, &wr, &bad), 0);
	}
}

/*
 * The hardware completes RQ WQE @idx (in WQEs, modulo the RQ) into @cq;
 * the CQE names the WQE by its first quantum.
 */
static void complete_recv(struct kunit *test, struct irdma_mock *mock,
			  struct ib_cq *cq, struct ib_qp *qp, u32 idx,
			  bool error, bool solicited)
{
	struct irdma_hw_cqe cqe = {
		.qp_id = qp->qp_num,
		.op = CQ_TEST_OP_SEND,
		.bytes = 100 + idx,
		.error = error,
		.maj = error ? CQ_TEST_MAJ : 0,
		.min = error ? CQ_TEST_MIN : 0,
		.solicited = solicited,
	};
	struct irdma_hw_qp hwqp;
	u32 wqes;

	KUNIT_ASSERT_TRUE(test, irdma_hw_model_qp(mock->hw, qp->qp_num, &hwqp));
	wqes = hwqp.rq_quanta >> hwqp.rq_wqe_shift;
	cqe.wqe_idx = (idx % wqes) << hwqp.rq_wqe_shift;
	KUNIT_ASSERT_EQ(test, irdma_hw_model_cq_post(mock->hw, cq_id(cq), &cqe),
			0);
}

static void complete_recvs(struct kunit *test, struct irdma_mock *mock,
			   struct ib_cq *cq, struct ib_qp *qp, u32 first,
			   u32 n, bool error)
{
	u32 i;

	for (i = 0; i < n; i++)
		complete_recv(test, mock, cq, qp, first + i, error, false);
}

/* Poll @n completions of RQ WQEs @first on, posted with wr_id @wr_id on */
static void expect_recvs(struct kunit *test, struct ib_cq *cq,
			 struct ib_qp *qp, u64 wr_id, u32 first, u32 n)
{
	struct ib_wc wc[8];
	u32 got = 0;
	int i, ret;

	while (got < n) {
		ret = ib_poll_cq(cq, min_t(u32, n - got, ARRAY_SIZE(wc)), wc);
		KUNIT_ASSERT_GT_MSG(test, ret, 0, "%u of %u polled", got, n);
		for (i = 0; i < ret; i++, got++) {
			KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, wc[i].wr_id, wr_id + got);
			KUNIT_EXPECT_EQ(test, wc[i].opcode, IB_WC_RECV);
			KUNIT_EXPECT_EQ(test, wc[i].byte_len, 100 + first + got);
			KUNIT_EXPECT_PTR_EQ(test, wc[i].qp, qp);
		}
	}
	KUNIT_EXPECT_EQ(test, ib_poll_cq(cq, 1, wc), 0);
}

static const int create_cqes[] = { 1, 3, 4, 16, 100, 1000, 4095 };

static void create_cqe_desc(const int *cqe, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "cqe %d", *cqe);
}

KUNIT_ARRAY_PARAM(create_cqe, create_cqes, create_cqe_desc);

/*
 * A CQ of @cqe completions exists in the hardware with a ring that holds
 * that many (one slot stays empty: the hardware checks for overflow), its
 * shadow area, on the CEQ of vector 0; destroying it takes it away again.
 */
static void cq_create(struct kunit *test)
{
	const int cqe = *(const int *)test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_hw_cq hw;
	struct irdma_mock_ids was;
	struct ib_cq *cq;
	u32 id;

	irdma_mock_save_ids(mock, IRDMA_MOCK_CQS, &was);
	cq = create_cq(mock, cqe, 0, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	id = cq_id(cq);
	KUNIT_EXPECT_NE(test, id, 0);
	KUNIT_EXPECT_TRUE(test, test_bit(id, mock->rf.allocated_cqs));
	KUNIT_EXPECT_GE(test, cq->cqe, cqe);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_GE(test, hw.size - 1, cqe);
	KUNIT_EXPECT_TRUE(test, hw.check_overflow);
	KUNIT_EXPECT_TRUE(test, hw.ceq_id_valid);
	KUNIT_EXPECT_EQ(test, hw.ceq_id, 0);
	KUNIT_EXPECT_NE(test, hw.ring_pa, 0);
	KUNIT_EXPECT_NE(test, hw.shadow_pa, 0);
	KUNIT_EXPECT_EQ(test, hw.arms, 0);

	ib_destroy_cq(cq);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_cq(mock->hw, id, &hw));
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(mock->hw,
						      IRDMA_HW_OP_DESTROY_CQ),
			1);
	irdma_mock_expect_ids(mock, &was);
}

/* The DESTROY_CQ WQE names the CQ the CREATE_CQ made */
static void cq_destroy_wqe(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 32);
	struct irdma_hw_wqe create, destroy;
	struct irdma_hw_cq hw;

	irdma_mock_last_wqe(mock, IRDMA_HW_OP_CREATE_CQ, &create);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_EQ(test, create.cq.id, cq_id(cq));
	KUNIT_EXPECT_EQ(test, create.cq.ring_pa, hw.ring_pa);
	KUNIT_EXPECT_FALSE(test, create.cq.virtual_map);
	ib_destroy_cq(cq);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_DESTROY_CQ, &destroy);
	KUNIT_EXPECT_FALSE(test, destroy.error);
	KUNIT_EXPECT_EQ(test, destroy.cq.id, create.cq.id);
	KUNIT_EXPECT_EQ(test, destroy.cq.shadow_pa, create.cq.shadow_pa);
}

/* An ID given back is taken again, and the hardware accepts the new CQ */
static void cq_id_reused(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_hw_cq hw;
	struct ib_cq *cq;
	int i;

	for (i = 0; i < 3; i++) {
		cq = irdma_mock_verbs_cq(mock, 8);
		model_cq(test, mock, cq, &hw);
		ib_destroy_cq(cq);
	}
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(mock->hw,
						      IRDMA_HW_OP_CREATE_CQ),
			4);	/* the CCQ's and three */
}

static const int bad_cqes[] = { 0, -1, IRDMA_MAX_CQ_SIZE + 1, INT_MAX };

KUNIT_ARRAY_PARAM(bad_cqe, bad_cqes, create_cqe_desc);

/*
 * A CQ of no completions, or of more than the device has, is refused
 * before the hardware hears of it, and every CQ ID, the CCQ's among them,
 * stays as it was.
 */
static void cq_create_bad_cqe(struct kunit *test)
{
	const int cqe = *(const int *)test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_mock_ids was;
	struct ib_cq *cq;

	irdma_mock_save_ids(mock, IRDMA_MOCK_CQS, &was);
	cq = create_cq(mock, cqe, 0, 0);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -EINVAL);
	if (!IS_ERR(cq))
		ib_destroy_cq(cq);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(mock->hw,
						      IRDMA_HW_OP_CREATE_CQ),
			was.creates);
	irdma_mock_expect_ids(mock, &was);
}

/* Creation flags the device does not have are refused, nothing taken */
static void cq_create_bad_flags(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_mock_ids was;
	struct ib_cq *cq;

	irdma_mock_save_ids(mock, IRDMA_MOCK_CQS, &was);
	cq = create_cq(mock, 16, 0, IB_UVERBS_CQ_FLAGS_IGNORE_OVERRUN);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(cq), -EOPNOTSUPP);
	if (!IS_ERR(cq))
		ib_destroy_cq(cq);
	irdma_mock_expect_ids(mock, &was);
}

static const u32 comp_vectors[] = { 0, 1, 5, U32_MAX };

static void comp_vector_desc(const u32 *v, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "vector %u", *v);
}

KUNIT_ARRAY_PARAM(comp_vector, comp_vectors, comp_vector_desc);

/*
 * The mock has one completion vector.  Another one is either refused,
 * nothing taken, or lands on a CEQ the device has: the hardware is never
 * told of a CEQ that does not exist.
 */
static void cq_create_comp_vector(struct kunit *test)
{
	const u32 vector = *(const u32 *)test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_hw_cq hw;
	struct irdma_mock_ids was;
	struct ib_cq *cq;

	irdma_mock_save_ids(mock, IRDMA_MOCK_CQS, &was);
	cq = create_cq(mock, 16, vector, 0);
	if (IS_ERR(cq)) {
		KUNIT_EXPECT_LT(test, PTR_ERR(cq), 0);
		KUNIT_EXPECT_NE(test, vector, 0);
		irdma_mock_expect_ids(mock, &was);
		return;
	}
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_TRUE(test, hw.ceq_id_valid);
	KUNIT_EXPECT_LT(test, hw.ceq_id, mock->rf.ceqs_count);
	ib_destroy_cq(cq);
	irdma_mock_expect_ids(mock, &was);
}

/* A CREATE_CQ the hardware fails: an error, the CQ ID given back */
static void cq_create_cqp_fails(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_mock_ids was;
	struct ib_cq *cq;

	irdma_mock_save_ids(mock, IRDMA_MOCK_CQS, &was);
	irdma_hw_model_fail_next(mock->hw, IRDMA_HW_OP_CREATE_CQ, CQ_TEST_MAJ,
				 CQ_TEST_MIN);
	cq = create_cq(mock, 16, 0, 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(cq));
	if (!IS_ERR(cq))
		ib_destroy_cq(cq);
	irdma_mock_expect_ids(mock, &was);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

/*
 * Every CQ ID of the function can be taken, each CQ in the hardware; the
 * next create fails and takes nothing, and all come back on destroy.
 */
static void cq_create_ids_exhausted(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	u32 max = mock->rf.max_cq, n = 0, i;
	struct irdma_hw_cq hw;
	struct irdma_mock_ids was, full;
	struct ib_cq **cqs;
	struct ib_cq *cq;

	irdma_mock_save_ids(mock, IRDMA_MOCK_CQS, &was);
	cqs = kunit_kcalloc(test, max, sizeof(*cqs), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, cqs);
	for (;;) {
		cq = create_cq(mock, 2, 0, 0);
		if (IS_ERR(cq))
			break;
		KUNIT_ASSERT_LT(test, n, max);
		cqs[n++] = cq;
	}
	KUNIT_EXPECT_LT(test, PTR_ERR(cq), 0);
	KUNIT_EXPECT_EQ(test, n, max - bitmap_weight(was.ids, max));
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_TRUE(test, irdma_hw_model_cq(mock->hw,
							  cq_id(cqs[i]), &hw));
	irdma_mock_save_ids(mock, IRDMA_MOCK_CQS, &full);
	cq = create_cq(mock, 2, 0, 0);
	KUNIT_EXPECT_TRUE(test, IS_ERR(cq));
	irdma_mock_expect_ids(mock, &full);
	for (i = 0; i < n; i++)
		ib_destroy_cq(cqs[i]);
	irdma_mock_expect_ids(mock, &was);
}

/* ib_alloc_cq() and ib_free_cq(): the CQ in the hardware, then gone */
static void cq_alloc_free(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_hw_cq hw;
	struct irdma_mock_ids was;
	struct ib_cq *cq;
	u32 id;

	irdma_mock_save_ids(mock, IRDMA_MOCK_CQS, &was);
	cq = ib_alloc_cq(&mock->iwdev->ibdev, NULL, 64, 0, IB_POLL_DIRECT);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	id = cq_id(cq);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_GE(test, hw.size - 1, 64);
	ib_free_cq(cq);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_cq(mock->hw, id, &hw));
	irdma_mock_expect_ids(mock, &was);
}

/*
 * A CQ polled from softirq context is armed as soon as it is allocated:
 * the hardware sees one arm, for the next completion.
 */
static void cq_alloc_softirq_armed(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct irdma_hw_cq hw;
	struct ib_cq *cq;

	cq = ib_alloc_cq(&mock->iwdev->ibdev, NULL, 16, 0, IB_POLL_SOFTIRQ);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, cq);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_EQ(test, hw.arms, 1);
	KUNIT_EXPECT_TRUE(test, hw.arm_next);
	ib_free_cq(cq);
}

struct notify_case {
	const char *name;
	enum ib_cq_notify_flags flags;
	bool next;
};

static const struct notify_case notify_cases[] = {
	{ "next completion", IB_CQ_NEXT_COMP, true },
	{ "solicited", IB_CQ_SOLICITED, false },
	{ "solicited, missed events reported",
	  IB_CQ_SOLICITED | IB_CQ_REPORT_MISSED_EVENTS, false },
};

KUNIT_ARRAY_PARAM_DESC(notify, notify_cases, name);

/*
 * req_notify_cq as the hardware reads it in the shadow area: one arm, for
 * the next CQE or only the next solicited one.  An unsolicited CQE raises
 * an event only on the first; a solicited one on both, and only once.
 */
static void cq_notify(struct kunit *test)
{
	const struct notify_case *c = test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 16);
	struct ib_qp *qp = cq_test_qp(mock, cq, 16);
	struct irdma_hw_cq hw;

	post_recvs(test, qp, 0, 3);
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, c->flags), 0);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_EQ(test, hw.arms, 1);
	KUNIT_EXPECT_EQ(test, hw.arm_next, c->next);
	KUNIT_EXPECT_TRUE(test, hw.arm_next || hw.arm_se);

	complete_recv(test, mock, cq, qp, 0, false, false);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_EQ(test, hw.events, c->next ? 1 : 0);

	complete_recv(test, mock, cq, qp, 1, false, true);
	complete_recv(test, mock, cq, qp, 2, false, true);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_EQ(test, hw.events, 1);

	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

/*
 * An arm for solicited CQEs, then one for any: the hardware must end up
 * armed for the next CQE, by a new request (its sequence number one on),
 * or an unsolicited completion would raise no event.  Asking again while
 * armed keeps it so; the next CQE raises one event.
 */
static void cq_notify_promote(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 16);
	struct ib_qp *qp = cq_test_qp(mock, cq, 16);
	struct irdma_hw_cq hw;
	u8 seq;

	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_SOLICITED), 0);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_FALSE(test, hw.arm_next);
	seq = hw.arm_seq;
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_EQ(test, hw.arms, 2);
	KUNIT_EXPECT_TRUE(test, hw.arm_next);
	KUNIT_EXPECT_EQ(test, hw.arm_seq, (seq + 1) % 4);
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, IB_CQ_NEXT_COMP), 0);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_TRUE(test, hw.arm_next);

	post_recvs(test, qp, 0, 2);
	complete_recvs(test, mock, cq, qp, 0, 2, false);
	model_cq(test, mock, cq, &hw);
	KUNIT_EXPECT_EQ(test, hw.events, 1);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

/*
 * IB_CQ_REPORT_MISSED_EVENTS: with a CQE waiting, arming must say that
 * events may have been missed, or a consumer waits for an event that
 * already came; with none, it says nothing.
 */
static void cq_notify_missed(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 16);
	struct ib_qp *qp = cq_test_qp(mock, cq, 16);
	const enum ib_cq_notify_flags flags = IB_CQ_NEXT_COMP |
					      IB_CQ_REPORT_MISSED_EVENTS;

	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, flags), 0);
	post_recvs(test, qp, 0, 1);
	complete_recvs(test, mock, cq, qp, 0, 1, false);
	KUNIT_EXPECT_GT(test, ib_req_notify_cq(cq, flags), 0);
	expect_recvs(test, cq, qp, 0, 0, 1);
	KUNIT_EXPECT_EQ(test, ib_req_notify_cq(cq, flags), 0);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

struct poll_case {
	const char *name;
	u32 n;		/* receives posted and completed */
	u32 budget;	/* entries each ib_poll_cq() asks for */
	bool error;	/* the hardware completes them in error */
	u64 wr_id;	/* the first one's */
};

static const struct poll_case poll_cases[] = {
	{ "1 completion", 1, 8, false, 1000 },
	{ "4 completions", 4, 8, false, 1000 },
	{ "15 completions", 15, 8, false, 1000 },
	{ "empty", 0, 4, false, 0 },
	{ "5 completions, budget 2", 5, 2, false, 0 },
	{ "an error CQE", 1, 1, true, 77 },
};

KUNIT_ARRAY_PARAM_DESC(poll, poll_cases, name);

/*
 * Receive completions the hardware wrote come out of ib_poll_cq() in
 * order, each whole and with its request's wr_id and QP, no more of them
 * per call than asked for and the rest on the next calls; then the CQ is
 * empty.  A CQE with an error is not a success, and still names its
 * request.  An empty CQ polls nothing.
 */
static void cq_poll(struct kunit *test)
{
	const struct poll_case *c = test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 16);
	struct ib_qp *qp = cq_test_qp(mock, cq, 16);
	struct ib_wc wc[8];
	u32 got = 0;
	int ret, i;

	KUNIT_ASSERT_LE(test, c->budget, ARRAY_SIZE(wc));
	post_recvs(test, qp, c->wr_id, c->n);
	complete_recvs(test, mock, cq, qp, 0, c->n, c->error);
	while ((ret = ib_poll_cq(cq, c->budget, wc)) > 0) {
		KUNIT_EXPECT_LE(test, ret, c->budget);
		for (i = 0; i < ret; i++, got++) {
			KUNIT_EXPECT_EQ(test, wc[i].wr_id, c->wr_id + got);
			KUNIT_EXPECT_PTR_EQ(test, wc[i].qp, qp);
			if (c->error) {
				KUNIT_EXPECT_NE(test, wc[i].status,
						IB_WC_SUCCESS);
				continue;
			}
			KUNIT_EXPECT_EQ(test, wc[i].status, IB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, wc[i].opcode, IB_WC_RECV);
			KUNIT_EXPECT_EQ(test, wc[i].byte_len, 100 + got);
		}
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, got, c->n);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

/*
 * Round after round through a small ring: the hardware's valid bit flips
 * at each wrap, and poll_cq follows it.
 */
static void cq_poll_wrap(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 4);
	struct ib_qp *qp = cq_test_qp(mock, cq, 8);
	struct irdma_hw_cq hw;
	u32 round, done = 0;

	model_cq(test, mock, cq, &hw);
	for (round = 0; done < 3 * hw.size; round++) {
		post_recvs(test, qp, done, 4);
		complete_recvs(test, mock, cq, qp, done, 4, false);
		expect_recvs(test, cq, qp, done, done, 4);
		done += 4;
	}
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

static const int hold_cqes[] = { 1, 7, 31, 100 };

KUNIT_ARRAY_PARAM(hold_cqe, hold_cqes, create_cqe_desc);

/*
 * A CQ of @cqe completions takes @cqe CQEs from the hardware without a
 * poll: the ring has room for them with its overflow check on.
 */
static void cq_holds_cqe(struct kunit *test)
{
	const int cqe = *(const int *)test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, cqe);
	struct ib_qp *qp = cq_test_qp(mock, cq, 128);

	post_recvs(test, qp, 0, cqe);
	complete_recvs(test, mock, cq, qp, 0, cqe, false);
	expect_recvs(test, cq, qp, 0, 0, cqe);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

static const int resize_cqes[] = { 4, 32, 200 };

KUNIT_ARRAY_PARAM(resize_cqe, resize_cqes, create_cqe_desc);

/*
 * A resize gives the hardware a new ring, through MODIFY_CQ, big enough
 * for the new size; the shadow area stays, and the CQ keeps its ID.
 */
static void cq_resize(struct kunit *test)
{
	const int cqe = *(const int *)test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 8);
	struct ib_qp *qp = cq_test_qp(mock, cq, 256);
	struct irdma_hw_cq before, after;
	struct irdma_hw_wqe w;

	model_cq(test, mock, cq, &before);
	KUNIT_ASSERT_EQ(test, ib_resize_cq(cq, cqe), 0);
	KUNIT_EXPECT_GE(test, cq->cqe, cqe);
	model_cq(test, mock, cq, &after);
	KUNIT_EXPECT_EQ(test, after.resizes, 1);
	KUNIT_EXPECT_GE(test, after.size - 1, cqe);
	KUNIT_EXPECT_NE(test, after.ring_pa, before.ring_pa);
	KUNIT_EXPECT_EQ(test, after.shadow_pa, before.shadow_pa);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_MODIFY_CQ, &w);
	KUNIT_EXPECT_TRUE(test, w.cq.resize);
	KUNIT_EXPECT_EQ(test, w.cq.id, cq_id(cq));

	post_recvs(test, qp, 0, cqe);
	complete_recvs(test, mock, cq, qp, 0, cqe, false);
	expect_recvs(test, cq, qp, 0, 0, cqe);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

/*
 * CQEs the hardware wrote to the old ring before a resize are polled
 * before those it writes to the new one.
 */
static void cq_resize_keeps_old_cqes(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 8);
	struct ib_qp *qp = cq_test_qp(mock, cq, 16);

	post_recvs(test, qp, 0, 5);
	complete_recvs(test, mock, cq, qp, 0, 3, false);
	KUNIT_ASSERT_EQ(test, ib_resize_cq(cq, 64), 0);
	complete_recvs(test, mock, cq, qp, 3, 2, false);
	expect_recvs(test, cq, qp, 0, 0, 5);

	/* and the new ring goes on */
	post_recvs(test, qp, 5, 4);
	complete_recvs(test, mock, cq, qp, 5, 4, false);
	expect_recvs(test, cq, qp, 5, 5, 4);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

static const int bad_resizes[] = { IRDMA_MAX_CQ_SIZE + 1, INT_MAX };

KUNIT_ARRAY_PARAM(bad_resize, bad_resizes, create_cqe_desc);

/* A resize past the device's CQ size is refused, the CQ as it was */
static void cq_resize_bad_cqe(struct kunit *test)
{
	const int cqe = *(const int *)test->param_value;
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 8);
	struct irdma_hw_cq before, after;
	int old = cq->cqe;

	model_cq(test, mock, cq, &before);
	KUNIT_EXPECT_EQ(test, ib_resize_cq(cq, cqe), -EINVAL);
	model_cq(test, mock, cq, &after);
	KUNIT_EXPECT_EQ(test, after.resizes, 0);
	KUNIT_EXPECT_EQ(test, after.ring_pa, before.ring_pa);
	KUNIT_EXPECT_EQ(test, cq->cqe, old);
	KUNIT_EXPECT_EQ(test, irdma_hw_model_op_count(mock->hw,
						      IRDMA_HW_OP_MODIFY_CQ),
			0);
	ib_destroy_cq(cq);
}

/*
 * A MODIFY_CQ the hardware fails: an error, and the CQ goes on with its
 * old ring, where the hardware still writes.
 */
static void cq_resize_cqp_fails(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 8);
	struct ib_qp *qp = cq_test_qp(mock, cq, 16);
	u32 avail = irdma_mock_cqp_avail(mock);
	struct irdma_hw_cq before, after;
	int old = cq->cqe;

	model_cq(test, mock, cq, &before);
	irdma_hw_model_fail_next(mock->hw, IRDMA_HW_OP_MODIFY_CQ, CQ_TEST_MAJ,
				 CQ_TEST_MIN);
	KUNIT_EXPECT_LT(test, ib_resize_cq(cq, 64), 0);
	KUNIT_EXPECT_EQ(test, cq->cqe, old);
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock), avail);
	model_cq(test, mock, cq, &after);
	KUNIT_EXPECT_EQ(test, after.ring_pa, before.ring_pa);

	post_recvs(test, qp, 0, 3);
	complete_recvs(test, mock, cq, qp, 0, 3, false);
	expect_recvs(test, cq, qp, 0, 0, 3);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
}

/* A CQ with CQEs nobody polled goes from the hardware all the same */
static void cq_destroy_unpolled(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 16);
	struct ib_qp *qp = cq_test_qp(mock, cq, 16);
	struct irdma_hw_cq hw;
	u32 id = cq_id(cq);

	post_recvs(test, qp, 0, 4);
	complete_recvs(test, mock, cq, qp, 0, 4, false);
	ib_destroy_qp(qp);
	ib_destroy_cq(cq);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_cq(mock->hw, id, &hw));
	KUNIT_EXPECT_FALSE(test, test_bit(id, mock->rf.allocated_cqs));
}

/*
 * The hardware refuses a CREATE_CQ of a CQ ID in use, in the CQE, and
 * keeps the CQ it has; the driver sees a failed command.
 */
static void cq_hw_refuses_id_in_use(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 16);
	struct irdma_hw_cq before, after;
	struct irdma_hw_wqe w;

	model_cq(test, mock, cq, &before);
	KUNIT_EXPECT_LT(test, irdma_mock_cqp_cmd(mock, IRDMA_OP_CQ_CREATE, cq), 0);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_CREATE_CQ, &w);
	KUNIT_EXPECT_TRUE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.min, IRDMA_HW_MIN_EXISTS);
	model_cq(test, mock, cq, &after);
	KUNIT_EXPECT_EQ(test, after.ring_pa, before.ring_pa);
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
	ib_destroy_cq(cq);
}

/*
 * The hardware refuses a DESTROY_CQ of a CQ it does not have: the second
 * of two, and then destroy_cq's own, which the verb survives.
 */
static void cq_hw_refuses_destroy_twice(struct kunit *test)
{
	struct irdma_mock *mock = irdma_mock_create(test, NULL);
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, 16);
	struct irdma_hw_cq hw;
	struct irdma_hw_wqe w;
	u32 id = cq_id(cq);

	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_cmd(mock, IRDMA_OP_CQ_DESTROY, cq), 0);
	KUNIT_EXPECT_FALSE(test, irdma_hw_model_cq(mock->hw, id, &hw));
	KUNIT_EXPECT_LT(test, irdma_mock_cqp_cmd(mock, IRDMA_OP_CQ_DESTROY, cq), 0);
	irdma_mock_last_wqe(mock, IRDMA_HW_OP_DESTROY_CQ, &w);
	KUNIT_EXPECT_TRUE(test, w.error);
	KUNIT_EXPECT_EQ(test, w.min, IRDMA_HW_MIN_NO_OBJ);
	ib_destroy_cq(cq);
	KUNIT_EXPECT_FALSE(test, test_bit(id, mock->rf.allocated_cqs));
	KUNIT_EXPECT_EQ(test, mock->resets, 0);
}

static struct kunit_case irdma_verbs_cq_cases[] = {
	KUNIT_CASE_PARAM(cq_create, create_cqe_gen_params),
	KUNIT_CASE(cq_destroy_wqe),
	KUNIT_CASE(cq_id_reused),
	KUNIT_CASE_PARAM(cq_create_bad_cqe, bad_cqe_gen_params),
	KUNIT_CASE(cq_create_bad_flags),
	KUNIT_CASE_PARAM(cq_create_comp_vector, comp_vector_gen_params),
	KUNIT_CASE(cq_create_cqp_fails),
	KUNIT_CASE(cq_create_ids_exhausted),
	KUNIT_CASE(cq_alloc_free),
	KUNIT_CASE(cq_alloc_softirq_armed),
	KUNIT_CASE_PARAM(cq_notify, notify_gen_params),
	KUNIT_CASE(cq_notify_promote),
	KUNIT_CASE(cq_notify_missed),
	KUNIT_CASE_PARAM(cq_poll, poll_gen_params),
	KUNIT_CASE(cq_poll_wrap),
	KUNIT_CASE_PARAM(cq_holds_cqe, hold_cqe_gen_params),
	KUNIT_CASE_PARAM(cq_resize, resize_cqe_gen_params),
	KUNIT_CASE(cq_resize_keeps_old_cqes),
	KUNIT_CASE_PARAM(cq_resize_bad_cqe, bad_resize_gen_params),
	KUNIT_CASE(cq_resize_cqp_fails),
	KUNIT_CASE(cq_destroy_unpolled),
	KUNIT_CASE(cq_hw_refuses_id_in_use),
	KUNIT_CASE(cq_hw_refuses_destroy_twice),
	{}
};

static struct kunit_suite irdma_verbs_cq_suite = {
	.name = "irdma_verbs_cq",
	.test_cases = irdma_verbs_cq_cases,
};

kunit_test_suite(irdma_verbs_cq_suite);
