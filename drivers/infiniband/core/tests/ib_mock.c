// SPDX-License-Identifier: GPL-2.0-only
/*
 * A software RDMA device for KUnit tests of the R/W API: its profiles, its
 * verbs for PDs, CQs and QPs, its registration and the calls tests set it
 * up with (ib_mock.h).  Memory registration is in ib_mock_mr.c, the work
 * requests a QP executes in ib_mock_qp.c, and the DMA ops that count and
 * check every mapping in ib_mock_dma.c.
 */
#include <kunit/resource.h>
#include <linux/netdevice.h>
#include <linux/vmalloc.h>
#include <net/net_namespace.h>

#include "ib_mock_internal.h"

#define MOCK_REMOTE_ADDR	0x5eed00000000ULL
#define MOCK_REMOTE_RKEY	0x7e3073e0
#define MOCK_REMOTE_LEN		(8 << 20)
#define MOCK_CQ_DEPTH		8192

const struct ib_mock_profile ib_mock_ib = {
	.name = "ib", .protocol = RDMA_CORE_CAP_PROT_IB,
	.max_send_sge = 30, .max_sge_rd = 30, .max_fr_pages = 512,
	.max_mr_size = SZ_1G, .max_qp_wr = 16384,
};
EXPORT_SYMBOL_GPL(ib_mock_ib);

const struct ib_mock_profile ib_mock_roce = {
	.name = "roce", .protocol = RDMA_CORE_CAP_PROT_ROCE,
	.max_send_sge = 16, .max_sge_rd = 16, .max_fr_pages = 512,
	.max_mr_size = SZ_1G, .max_qp_wr = 16384,
};
EXPORT_SYMBOL_GPL(ib_mock_roce);

/* Like an irdma GEN2 port: READ needs an MR, and READ_WITH_INV exists. */
const struct ib_mock_profile ib_mock_iwarp = {
	.name = "iwarp", .protocol = RDMA_CORE_CAP_PROT_IWARP,
	.max_send_sge = 13, .max_sge_rd = 13, .max_fr_pages = 512,
	.max_mr_size = SZ_1G, .max_qp_wr = 16384,
};
EXPORT_SYMBOL_GPL(ib_mock_iwarp);

/* READs of more than 4 SGEs are better done through an MR. */
const struct ib_mock_profile ib_mock_sgl_rd = {
	.name = "sgl_rd", .protocol = RDMA_CORE_CAP_PROT_IB,
	.max_send_sge = 30, .max_sge_rd = 30, .max_sgl_rd = 4,
	.max_fr_pages = 512, .max_mr_size = SZ_1G, .max_qp_wr = 16384,
};
EXPORT_SYMBOL_GPL(ib_mock_sgl_rd);

/* One SGE per READ, two per WRITE: every list splits. */
const struct ib_mock_profile ib_mock_sge1 = {
	.name = "sge1", .protocol = RDMA_CORE_CAP_PROT_ROCE,
	.max_send_sge = 2, .max_sge_rd = 1, .max_fr_pages = 512,
	.max_mr_size = SZ_1G, .max_qp_wr = 16384,
};
EXPORT_SYMBOL_GPL(ib_mock_sge1);

/* Two SGEs, and no device-wide local DMA lkey, as rxe and siw have. */
const struct ib_mock_profile ib_mock_sge2 = {
	.name = "sge2", .protocol = RDMA_CORE_CAP_PROT_IB,
	.max_send_sge = 2, .max_sge_rd = 2, .max_fr_pages = 512,
	.max_mr_size = SZ_1G, .max_qp_wr = 16384, .no_local_dma_lkey = true,
};
EXPORT_SYMBOL_GPL(ib_mock_sge2);

/* iWARP with 4 pages per MR: every READ over 4 pages takes several MRs. */
const struct ib_mock_profile ib_mock_small_mr = {
	.name = "small_mr", .protocol = RDMA_CORE_CAP_PROT_IWARP,
	.max_send_sge = 13, .max_sge_rd = 13, .max_fr_pages = 4,
	.max_mr_size = SZ_1G, .max_qp_wr = 16384,
};
EXPORT_SYMBOL_GPL(ib_mock_small_mr);

/* InfiniBand with signature offload: integrity MRs of 16 pages. */
const struct ib_mock_profile ib_mock_pi = {
	.name = "pi", .protocol = RDMA_CORE_CAP_PROT_IB,
	.max_send_sge = 30, .max_sge_rd = 30, .max_fr_pages = 512,
	.max_pi_fr_pages = 16, .max_mr_size = SZ_1G, .max_qp_wr = 16384,
};
EXPORT_SYMBOL_GPL(ib_mock_pi);

static int mock_query_device(struct ib_device *ibdev,
			     struct ib_device_attr *attr,
			     struct ib_udata *udata)
{
	const struct ib_mock_profile *p = to_mdev(ibdev)->mock->profile;

	attr->max_mr_size = p->max_mr_size;
	attr->page_size_cap = PAGE_SIZE;
	attr->max_qp = 64;
	attr->max_qp_wr = p->max_qp_wr;
	attr->max_send_sge = p->max_send_sge;
	attr->max_recv_sge = 1;
	attr->max_sge_rd = p->max_sge_rd;
	attr->max_sgl_rd = p->max_sgl_rd;
	attr->max_cq = 64;
	attr->max_cqe = MOCK_CQ_DEPTH;
	attr->max_mr = 1 << 16;
	attr->max_pd = 64;
	attr->max_fast_reg_page_list_len = p->max_fr_pages;
	attr->device_cap_flags = IB_DEVICE_MEM_MGT_EXTENSIONS;
	if (!p->no_local_dma_lkey)
		attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	if (p->max_pi_fr_pages) {
		attr->kernel_cap_flags |= IBK_INTEGRITY_HANDOVER;
		attr->max_pi_fast_reg_page_list_len = p->max_pi_fr_pages;
		attr->sig_prot_cap = IB_PROT_T10DIF_TYPE_1 |
				     IB_PROT_T10DIF_TYPE_2 |
				     IB_PROT_T10DIF_TYPE_3;
		attr->sig_guard_cap = IB_GUARD_T10DIF_CRC |
				      IB_GUARD_T10DIF_CSUM;
	}
	return 0;
}

static int mock_query_port(struct ib_device *ibdev, u32 port,
			   struct ib_port_attr *attr)
{
	attr->state = IB_PORT_ACTIVE;
	attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = IB_MTU_4096;
	attr->gid_tbl_len = 1;
	attr->pkey_tbl_len = 1;
	return 0;
}

static int mock_get_port_immutable(struct ib_device *ibdev, u32 port,
				   struct ib_port_immutable *immutable)
{
	/* Protocol only: no MAD, CM or SA agents attach to a mock. */
	immutable->core_cap_flags = to_mdev(ibdev)->mock->profile->protocol;
	immutable->gid_tbl_len = 1;
	immutable->pkey_tbl_len = 1;
	return 0;
}

static int mock_query_gid(struct ib_device *ibdev, u32 port, int index,
			  union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	return 0;
}

static int mock_query_pkey(struct ib_device *ibdev, u32 port, u16 index,
			   u16 *pkey)
{
	*pkey = 0xffff;
	return 0;
}

static int mock_alloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int mock_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	return 0;
}

static int mock_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
			  struct uverbs_attr_bundle *attrs)
{
	struct mock_cq *cq = to_mcq(ibcq);

	if (attr->cqe > MOCK_CQ_DEPTH)
		return -EINVAL;
	cq->ring = kcalloc(attr->cqe, sizeof(*cq->ring), GFP_KERNEL);
	cq->retire = kcalloc(attr->cqe, sizeof(*cq->retire), GFP_KERNEL);
	if (!cq->ring || !cq->retire) {
		kfree(cq->ring);
		kfree(cq->retire);
		return -ENOMEM;
	}
	spin_lock_init(&cq->lock);
	ibcq->cqe = attr->cqe;
	return 0;
}

static int mock_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	kfree(to_mcq(ibcq)->ring);
	kfree(to_mcq(ibcq)->retire);
	return 0;
}

static int mock_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct mock_cq *cq = to_mcq(ibcq);
	unsigned long flags;
	int n = 0;

	spin_lock_irqsave(&cq->lock, flags);
	for (; n < num_entries && cq->count; n++, cq->count--) {
		wc[n] = cq->ring[cq->head];
		atomic_sub(cq->retire[cq->head], &to_mqp(wc[n].qp)->sq_used);
		cq->head = (cq->head + 1) % ibcq->cqe;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	return n;
}

static int mock_req_notify_cq(struct ib_cq *ibcq,
			      enum ib_cq_notify_flags flags)
{
	return 0;
}

static int mock_create_qp(struct ib_qp *ibqp, struct ib_qp_init_attr *attr,
			  struct ib_udata *udata)
{
	const struct ib_mock_profile *p = qp_mock(ibqp)->profile;

	if (attr->qp_type != IB_QPT_RC || attr->cap.max_send_wr > p->max_qp_wr ||
	    attr->cap.max_send_sge > p->max_send_sge)
		return -EINVAL;
	if (attr->create_flags & ~IB_QP_CREATE_INTEGRITY_EN ||
	    (attr->create_flags & IB_QP_CREATE_INTEGRITY_EN &&
	     !p->max_pi_fr_pages))
		return -EOPNOTSUPP;
	spin_lock_init(&to_mqp(ibqp)->lock);
	to_mqp(ibqp)->max_send_sge = attr->cap.max_send_sge;
	to_mqp(ibqp)->max_send_wr = attr->cap.max_send_wr;
	qp_mock(ibqp)->max_send_wr = attr->cap.max_send_wr;
	return 0;
}

static int mock_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
			  int mask, struct ib_udata *udata)
{
	return 0;
}

static int mock_destroy_qp(struct ib_qp *ibqp, struct ib_udata *udata)
{
	return 0;
}

static int mock_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			  const struct ib_recv_wr **bad_wr)
{
	*bad_wr = wr;
	return -EOPNOTSUPP;
}

static const struct ib_device_ops mock_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.alloc_mr = ib_mock_alloc_mr,
	.alloc_mr_integrity = ib_mock_alloc_mr_integrity,
	.alloc_pd = mock_alloc_pd,
	.check_mr_status = ib_mock_check_mr_status,
	.create_cq = mock_create_cq,
	.create_qp = mock_create_qp,
	.dealloc_pd = mock_dealloc_pd,
	.dereg_mr = ib_mock_dereg_mr,
	.destroy_cq = mock_destroy_cq,
	.destroy_qp = mock_destroy_qp,
	.get_dma_mr = ib_mock_get_dma_mr,
	.get_port_immutable = mock_get_port_immutable,
	.map_mr_sg = ib_mock_map_mr_sg,
	.map_mr_sg_pi = ib_mock_map_mr_sg_pi,
	.modify_qp = mock_modify_qp,
	.poll_cq = mock_poll_cq,
	.post_recv = mock_post_recv,
	.post_send = ib_mock_post_send,
	.query_device = mock_query_device,
	.query_gid = mock_query_gid,
	.query_pkey = mock_query_pkey,
	.query_port = mock_query_port,
	.reg_user_mr = ib_mock_reg_user_mr,
	.req_notify_cq = mock_req_notify_cq,

	INIT_RDMA_OBJ_SIZE(ib_cq, mock_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_pd, mock_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, mock_qp, ibqp),
};

KUNIT_DEFINE_ACTION_WRAPPER(mock_release_device, ib_unregister_device,
			    struct ib_device *);
KUNIT_DEFINE_ACTION_WRAPPER(mock_free_device, ib_dealloc_device,
			    struct ib_device *);
KUNIT_DEFINE_ACTION_WRAPPER(mock_release_pd, ib_dealloc_pd, struct ib_pd *);
KUNIT_DEFINE_ACTION_WRAPPER(mock_release_cq, ib_free_cq, struct ib_cq *);
KUNIT_DEFINE_ACTION_WRAPPER(mock_vfree, vfree, const void *);

static void mock_destroy_qp_action(void *qp)
{
	ib_destroy_qp(qp);
}

/* Room for the largest transfer an integrity MR of the profile maps. */
static int mock_alloc_pi_buffers(struct kunit *test, struct mock_dev *mdev)
{
	size_t data = (size_t)mdev->mock->profile->max_pi_fr_pages * PAGE_SIZE;
	u8 **bufs[] = { &mdev->pi_data, &mdev->pi_prot, &mdev->pi_wire };
	size_t lens[] = { data, data, data + data / 512 * 8 };
	int i, ret;

	for (i = 0; i < ARRAY_SIZE(bufs); i++) {
		*bufs[i] = vmalloc(lens[i]);
		if (!*bufs[i])
			return -ENOMEM;
		ret = kunit_add_action_or_reset(test, mock_vfree, *bufs[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int mock_register(struct kunit *test, struct ib_mock *mock)
{
	struct device *dma_device;
	struct mock_dev *mdev;
	int ret;

	mdev = ib_alloc_device(mock_dev, ibdev);
	if (!mdev)
		return -ENOMEM;
	ret = kunit_add_action_or_reset(test, mock_free_device, &mdev->ibdev);
	if (ret)
		return ret;

	mdev->mock = mock;
	xa_init_flags(&mdev->mrs, XA_FLAGS_ALLOC1);
	if (mock->profile->max_pi_fr_pages) {
		ret = mock_alloc_pi_buffers(test, mdev);
		if (ret)
			return ret;
	}
	ib_set_device_ops(&mdev->ibdev, &mock_dev_ops);
	mdev->ibdev.phys_port_cnt = 1;
	mdev->ibdev.num_comp_vectors = 1;
	mdev->ibdev.local_dma_lkey = MOCK_LOCAL_DMA_LKEY;
	mdev->ibdev.node_type = RDMA_NODE_IB_CA;
	if (mock->profile->protocol == RDMA_CORE_CAP_PROT_IWARP) {
		/* iWARP port state comes from a netdev: lend it loopback. */
		mdev->ibdev.node_type = RDMA_NODE_RNIC;
		ret = ib_device_set_netdev(&mdev->ibdev,
					   init_net.loopback_dev, 1);
		if (ret)
			return ret;
	}

	dma_device = ib_mock_dma_device(test, mdev);
	if (IS_ERR(dma_device))
		return PTR_ERR(dma_device);
	ret = ib_register_device(&mdev->ibdev, "rwmock%d", dma_device);
	if (ret)
		return ret;
	mock->dev = &mdev->ibdev;
	return kunit_add_action_or_reset(test, mock_release_device, mock->dev);
}

/**
 * ib_mock_create_device - register a mock device with a PD and a CQ
 * @test:	the test; everything is released when it ends
 * @profile:	the kind of device
 *
 * For tests of QP creation itself; others use ib_mock_create().
 *
 * Return: the mock; the test fails and aborts if it cannot be set up.
 */
struct ib_mock *ib_mock_create_device(struct kunit *test,
				      const struct ib_mock_profile *profile)
{
	struct ib_mock *mock;

	mock = kunit_kzalloc(test, sizeof(*mock), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mock);
	mock->test = test;
	mock->profile = profile;

	mock->remote = vzalloc(MOCK_REMOTE_LEN);
	KUNIT_ASSERT_NOT_NULL(test, mock->remote);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, mock_vfree,
							   mock->remote));
	mock->remote_len = MOCK_REMOTE_LEN;
	mock->remote_addr = MOCK_REMOTE_ADDR;
	mock->remote_rkey = MOCK_REMOTE_RKEY;

	mock->log_cap = MOCK_LOG_CAP;
	mock->log = kunit_kcalloc(test, mock->log_cap, sizeof(*mock->log),
				  GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mock->log);

	KUNIT_ASSERT_EQ(test, 0, mock_register(test, mock));

	mock->pd = ib_alloc_pd(mock->dev, 0);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->pd));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   mock_release_pd,
							   mock->pd));

	mock->cq = ib_alloc_cq(mock->dev, mock, MOCK_CQ_DEPTH, 0,
			       IB_POLL_DIRECT);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->cq));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   mock_release_cq,
							   mock->cq));
	return mock;
}
EXPORT_SYMBOL_GPL(ib_mock_create_device);

/**
 * ib_mock_create_qp - create an RC QP through ib_create_qp()
 * @mock:	the mock device
 * @max_rdma_ctxs: R/W contexts the QP is sized for
 * @create_flags: &ib_qp_init_attr.create_flags
 *
 * ib_core sizes the send queue and fills the MR pools for @max_rdma_ctxs,
 * as it does for a ULP.  The QP is destroyed when the test ends.
 *
 * Return: the QP, or the ERR_PTR() that ib_create_qp() returned.
 */
struct ib_qp *ib_mock_create_qp(struct ib_mock *mock, u32 max_rdma_ctxs,
				u32 create_flags)
{
	struct ib_qp_init_attr attr = {
		.send_cq = mock->cq,
		.recv_cq = mock->cq,
		.cap = {
			.max_send_wr = mock->qp_max_send_wr ?: 16,
			.max_recv_wr = 1,
			.max_send_sge = mock->qp_max_send_sge ?:
					mock->profile->max_send_sge,
			.max_recv_sge = 1,
			.max_rdma_ctxs = max_rdma_ctxs,
		},
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.qp_type = IB_QPT_RC,
		.port_num = 1,
		.create_flags = create_flags,
	};
	struct ib_qp *qp;

	qp = ib_create_qp(mock->pd, &attr);
	if (IS_ERR(qp))
		return qp;
	KUNIT_ASSERT_EQ(mock->test, 0,
			kunit_add_action_or_reset(mock->test,
						  mock_destroy_qp_action, qp));
	return qp;
}
EXPORT_SYMBOL_GPL(ib_mock_create_qp);

/**
 * ib_mock_create - a mock device with a PD, a CQ and an RC QP
 * @test:	the test; everything is released when it ends
 * @profile:	the kind of device
 * @max_rdma_ctxs: R/W contexts the QP is sized for
 * @create_flags: &ib_qp_init_attr.create_flags of the QP
 *
 * Return: the mock, with @mock->qp set; the test fails and aborts if it
 * cannot be set up.
 */
struct ib_mock *ib_mock_create(struct kunit *test,
			       const struct ib_mock_profile *profile,
			       u32 max_rdma_ctxs, u32 create_flags)
{
	struct ib_mock *mock = ib_mock_create_device(test, profile);

	mock->qp = ib_mock_create_qp(mock, max_rdma_ctxs, create_flags);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->qp));
	return mock;
}
EXPORT_SYMBOL_GPL(ib_mock_create);

/**
 * ib_mock_poll - deliver the completions the QP has produced
 * @mock:	the mock
 *
 * Each completion goes to its &ib_cqe.done, as ib_core does for a ULP.
 *
 * Return: the number of completions delivered.
 */
int ib_mock_poll(struct ib_mock *mock)
{
	return ib_process_cq_direct(mock->cq, MOCK_CQ_DEPTH);
}
EXPORT_SYMBOL_GPL(ib_mock_poll);

/**
 * ib_mock_expect_done - expect the one good completion of what was posted
 * @test:	the test to fail
 * @mock:	the mock
 * @done:	where the completion is to arrive
 *
 * Polls the CQ: it must deliver exactly one completion, to @done, and
 * that completion must be successful, as for a chain a ULP signals once.
 */
void ib_mock_expect_done(struct kunit *test, struct ib_mock *mock,
			 struct ib_mock_done *done)
{
	int calls = done->calls;

	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done->calls - calls, 1);
	KUNIT_EXPECT_EQ(test, done->status, IB_WC_SUCCESS);
}
EXPORT_SYMBOL_GPL(ib_mock_expect_done);

/**
 * ib_mock_cqe_done - &ib_cqe.done of a &struct ib_mock_done
 * @cq:		the CQ polled
 * @wc:		the completion
 */
void ib_mock_cqe_done(struct ib_cq *cq, struct ib_wc *wc)
{
	struct ib_mock_done *done = container_of(wc->wr_cqe,
						 struct ib_mock_done, cqe);

	done->calls++;
	done->status = wc->status;
}
EXPORT_SYMBOL_GPL(ib_mock_cqe_done);

/**
 * ib_mock_clear_log - forget the work requests logged so far
 * @mock:	the mock
 */
void ib_mock_clear_log(struct ib_mock *mock)
{
	mock->nr_log = 0;
}
EXPORT_SYMBOL_GPL(ib_mock_clear_log);

/**
 * ib_mock_pool_free - MRs sitting in one of the QP's pools
 * @mock:	the mock
 * @pool:	&mock->qp->rdma_mrs or &mock->qp->sig_mrs
 *
 * Return: the number of MRs on @pool's free list.
 */
unsigned int ib_mock_pool_free(struct ib_mock *mock, struct list_head *pool)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&mock->qp->mr_lock, flags);
	n = list_count_nodes(pool);
	spin_unlock_irqrestore(&mock->qp->mr_lock, flags);
	return n;
}
EXPORT_SYMBOL_GPL(ib_mock_pool_free);

MODULE_DESCRIPTION("Mock RDMA device for KUnit tests of ib_core");
MODULE_LICENSE("GPL");
