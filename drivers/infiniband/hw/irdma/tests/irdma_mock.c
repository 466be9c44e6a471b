// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * A mock irdma device for KUnit.
 *
 * The mock is an E810 (GEN2) PCI function in iWARP mode, or in RoCEv2
 * mode (a profile: its netdev registered for the RDMA core's GID table,
 * the mock in ice's place for the work scheduler's queue sets), with
 * nothing behind it: BAR0 is a buffer, the HMC backing pages are ordinary
 * memory, and the firmware is a model (irdma_hw_model.c) that answers
 * the control QP (CQP) at the BAR's doorbells.  As much of it as
 * possible is set up by the driver's own code, so that the suites test
 * the driver rather than a copy of it:
 *
 *  - irdma_sc_dev_init() fills in the GEN2 hardware attributes, register
 *    map and doorbell pointers over the BAR, once the mock has made the
 *    BAR look like a function whose firmware is up;
 *  - irdma_initialize_hw_rsrc() sizes the QP, CQ, MR and PD bitmaps and
 *    the stag mask from the HMC object counts the mock chooses;
 *  - the CQP and control CQ (CCQ) come up as irdma_create_cqp() and
 *    irdma_create_ccq() bring them up, through irdma_sc_cqp_create() and
 *    irdma_sc_ccq_create(), and every CQP command, verbs.c's too, goes
 *    through them to the model;
 *  - irdma_hmc_init_pble() sets up the PBLE resource over an SD table in
 *    memory, and the PBLE allocator grows it by itself later; the SD
 *    programming it sends to the CQP is the model's to execute;
 *  - CQs and QPs are the verbs', created by ib_create_cq() and
 *    ib_create_qp() through the model; the QPs that must be in RTS, which
 *    only the iWARP CM reaches, go through irdma_sc_qp_init() and
 *    irdma_uk_qp_init() by hand, with rings, shadow areas and doorbells
 *    in coherent DMA memory and the BAR, on a CQ of the verbs;
 *  - a CEQ (an empty ring, no interrupt) and the cleanup workqueue, which
 *    the verbs' CQs and QPs use.
 *
 * The device is registered with the RDMA core by the driver's own
 * irdma_ib_register_device(), as irdma_probe() registers an E810's, over
 * a netdev and a PCI function that exist in memory only; so it has
 * verbs.c's ops and the suites call the verbs as the RDMA core would.
 * The doorbells they ring, SQ doorbells and CQ arms too, reach the model.
 *
 * Everything is released by KUnit actions when the test ends.
 */
#include <kunit/device.h>
#include <kunit/test.h>
#include <linux/dma-mapping.h>
#include <linux/etherdevice.h>
#include <linux/pci.h>
#include <linux/vmalloc.h>

#include "irdma_hw_model.h"
#include "irdma_mock.h"
#include "../i40iw_hw.h"
#include "../icrdma_hw.h"

/* BAR0 of an E810 function: registers, then the doorbell pages at 8 MiB */
#define IRDMA_MOCK_BAR_LEN		SZ_8M
/* The SD the PBLE object starts in; the HMC has one more after it */
#define IRDMA_MOCK_PBLE_SD		1
#define IRDMA_MOCK_SD_CNT		(IRDMA_MOCK_PBLE_SD + 2)
/* Small HMC objects: only MRs and PBLEs matter to the suites so far */
#define IRDMA_MOCK_OBJ_CNT		64
/* What the GLPE_CPUSTATUS registers read once the firmware is ready */
#define IRDMA_MOCK_CPU_READY		0x80
/* The PCI device IDs the mock reports: an E810-C for QSFP, an X722 SFP+ */
#define IRDMA_MOCK_PCI_DEVICE		0x1592
#define IRDMA_MOCK_PCI_DEVICE_X722	0x37d0

struct irdma_mock *irdma_mock_from_rf(struct irdma_pci_f *rf)
{
	return container_of(rf, struct irdma_mock, rf);
}

static u32 __iomem *irdma_mock_reg_addr(struct irdma_mock *mock,
					enum irdma_registers reg)
{
	return mock->rf.sc_dev.hw_regs[reg];
}

/**
 * irdma_mock_reg - read a register of the mock's BAR
 * @mock: the mock device
 * @reg: the register, as the driver names it; not the doorbell area
 *	(%IRDMA_DB_ADDR_OFFSET), which is an offset rather than a register
 *
 * Return: the last value the driver (or the mock) wrote there.
 */
u32 irdma_mock_reg(struct irdma_mock *mock, enum irdma_registers reg)
{
	return readl(irdma_mock_reg_addr(mock, reg));
}

/**
 * irdma_mock_set_reg - write a register of the mock's BAR
 * @mock: the mock device
 * @reg: the register, as the driver names it; not %IRDMA_DB_ADDR_OFFSET
 * @val: what the driver will read there
 */
void irdma_mock_set_reg(struct irdma_mock *mock, enum irdma_registers reg,
			u32 val)
{
	writel(val, irdma_mock_reg_addr(mock, reg));
}

static void irdma_mock_free_bar(void *bar)
{
	vfree(bar);
}

/*
 * BAR0 as irdma_sc_dev_init() wants to find it: the three CPU status
 * registers report ready firmware, and the PE doorbell area is enabled.
 * The register offsets are the E810's or the X722's, before the driver
 * maps them.
 */
static void irdma_mock_setup_bar(struct irdma_mock *mock, bool x722)
{
	static const u32 e810[] = {
		GLPE_CPUSTATUS0, GLPE_CPUSTATUS1, GLPE_CPUSTATUS2,
		GLPCI_LBARCTRL,
	};
	static const u32 x722_regs[] = {
		I40E_GLPE_CPUSTATUS0, I40E_GLPE_CPUSTATUS1,
		I40E_GLPE_CPUSTATUS2, I40E_GLPCI_LBARCTRL,
	};
	const u32 *reg = x722 ? x722_regs : e810;
	u8 __iomem *bar = (u8 __iomem __force *)mock->bar;
	int i;

	for (i = 0; i < 3; i++)
		writel(IRDMA_MOCK_CPU_READY, bar + reg[i]);
	writel(FIELD_PREP(IRDMA_GLPCI_LBARCTRL_PE_DB_SIZE, IRDMA_PE_DB_SIZE_8M),
	       bar + reg[3]);
}

static void irdma_mock_free_rsrc(void *data)
{
	struct irdma_pci_f *rf = data;

	vfree(rf->mem_rsrc);
	bitmap_free(rf->allocated_ws_nodes);
}

/* The PBLE object's FPM address: the head pages end its first SD */
static u64 irdma_mock_pble_fpm(const struct irdma_mock_params *p)
{
	return (u64)(IRDMA_MOCK_PBLE_SD + 1) * IRDMA_HMC_DIRECT_BP_SIZE -
	       (u64)p->pble_head_pages * IRDMA_HMC_PAGED_BP_SIZE;
}

/* The HMC object counts irdma_initialize_hw_rsrc() sizes the bitmaps by */
static void irdma_mock_setup_hmc(struct irdma_mock *mock,
				 const struct irdma_mock_params *p)
{
	struct irdma_hmc_info *hmc = mock->rf.sc_dev.hmc_info;
	struct irdma_hmc_obj_info *obj;
	struct kunit *test = mock->test;

	obj = kunit_kcalloc(test, IRDMA_HMC_IW_MAX, sizeof(*obj), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obj);
	hmc->hmc_obj = obj;
	hmc->signature = IRDMA_HMC_INFO_SIGNATURE;
	hmc->hmc_fn_id = mock->rf.sc_dev.hmc_fn_id;

	obj[IRDMA_HMC_IW_QP].cnt = IRDMA_MOCK_OBJ_CNT;
	/* What QUERY_FPM reports, and QP creation checks against */
	obj[IRDMA_HMC_IW_QP].max_cnt = IRDMA_MOCK_OBJ_CNT;
	obj[IRDMA_HMC_IW_CQ].cnt = IRDMA_MOCK_OBJ_CNT;
	obj[IRDMA_HMC_IW_ARP].cnt = IRDMA_MOCK_OBJ_CNT;
	obj[IRDMA_HMC_IW_FSIAV].cnt = IRDMA_MOCK_OBJ_CNT;
	obj[IRDMA_HMC_IW_MR].cnt = p->max_mr;
	obj[IRDMA_HMC_IW_PBLE].base = irdma_mock_pble_fpm(p);
	obj[IRDMA_HMC_IW_PBLE].cnt = (p->pble_head_pages +
				      p->pble_tail_pages) * PBLE_PER_PAGE;
	obj[IRDMA_HMC_IW_PBLE].size = sizeof(u64);

	hmc->sd_table.sd_cnt = IRDMA_MOCK_SD_CNT;
	hmc->sd_table.sd_entry = kunit_kcalloc(test, IRDMA_MOCK_SD_CNT,
					       sizeof(*hmc->sd_table.sd_entry),
					       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, hmc->sd_table.sd_entry);
}

/*
 * The SD table's own pages: the PD page of each paged SD and its entry
 * array.  The PBLE pages the PDs point to belong to the PBLE chunks.
 */
static void irdma_mock_free_sds(void *data)
{
	struct irdma_mock *mock = data;
	struct irdma_hmc_sd_table *sds = &mock->rf.sc_dev.hmc_info->sd_table;
	u32 i;

	for (i = 0; i < sds->sd_cnt; i++) {
		struct irdma_hmc_sd_entry *sd = &sds->sd_entry[i];
		struct irdma_dma_mem *pd_page = &sd->u.pd_table.pd_page_addr;

		if (sd->entry_type != IRDMA_SD_TYPE_PAGED || !pd_page->va)
			continue;
		dma_free_coherent(mock->dev, pd_page->size, pd_page->va,
				  pd_page->pa);
		kfree(sd->u.pd_table.pd_entry_virt_mem.va);
	}
}

static void irdma_mock_free_pble(void *data)
{
	irdma_destroy_pble_prm(data);
}

/* A coherent buffer that goes with the test */
struct irdma_mock_dma {
	struct irdma_dma_mem mem;
	struct irdma_mock *mock;
};

static void irdma_mock_dma_free(void *data)
{
	struct irdma_mock_dma *buf = data;

	dma_free_coherent(buf->mock->dev, buf->mem.size, buf->mem.va,
			  buf->mem.pa);
}

/* Allocate one, and describe it to the driver in @mem */
static void *irdma_mock_dma_alloc(struct irdma_mock *mock,
				  struct irdma_dma_mem *mem, u32 size)
{
	struct kunit *test = mock->test;
	struct irdma_mock_dma *buf;
	int ret;

	buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	buf->mock = mock;
	buf->mem.size = ALIGN(size, 256);
	buf->mem.va = dma_alloc_coherent(mock->dev, buf->mem.size,
					 &buf->mem.pa, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf->mem.va);
	ret = kunit_add_action_or_reset(test, irdma_mock_dma_free, buf);
	KUNIT_ASSERT_EQ(test, ret, 0);
	*mem = buf->mem;
	return mem->va;
}

static void irdma_mock_destroy_cqp(void *data)
{
	struct irdma_mock *mock = data;

	KUNIT_EXPECT_EQ(mock->test, irdma_sc_cqp_destroy(&mock->rf.cqp.sc_cqp),
			0);
}

/*
 * The driver's CQP, as irdma_create_cqp() makes it: a 2048-WQE SQ and the
 * host context in coherent memory, handed to the firmware by
 * irdma_sc_cqp_create() through CCQPHIGH/CCQPLOW.
 */
static void irdma_mock_start_cqp(struct irdma_mock *mock)
{
	struct irdma_cqp_init_info info = {};
	struct irdma_pci_f *rf = &mock->rf;
	struct irdma_cqp *cqp = &rf->cqp;
	struct kunit *test = mock->test;
	u16 maj, min;
	int ret;

	info.dev = &rf->sc_dev;
	info.sq_size = IRDMA_CQP_SW_SQSIZE_2048;
	info.sq = irdma_mock_dma_alloc(mock, &cqp->sq, info.sq_size *
				       sizeof(struct irdma_cqp_sq_wqe));
	info.sq_pa = cqp->sq.pa;
	info.host_ctx = irdma_mock_dma_alloc(mock, &cqp->host_ctx,
					     sizeof(struct irdma_cqp_ctx));
	info.host_ctx_pa = cqp->host_ctx.pa;
	info.scratch_array = kunit_kcalloc(test, info.sq_size,
					   sizeof(*info.scratch_array),
					   GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info.scratch_array);
	cqp->scratch_array = info.scratch_array;
	info.hmc_profile = IRDMA_HMC_PROFILE_DEFAULT;
	info.protocol_used = rf->protocol_used;
	info.hw_maj_ver = rf->rdma_ver == IRDMA_GEN_1 ?
			  IRDMA_CQPHC_HW_MAJVER_GEN_1 :
			  IRDMA_CQPHC_HW_MAJVER_GEN_2;

	ret = irdma_sc_cqp_init(&cqp->sc_cqp, &info);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = irdma_sc_cqp_create(&cqp->sc_cqp, &maj, &min);
	KUNIT_ASSERT_EQ_MSG(test, ret, 0, "CQP create: major %#x minor %#x",
			    maj, min);
	ret = kunit_add_action_or_reset(test, irdma_mock_destroy_cqp, mock);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

static void irdma_mock_destroy_ccq(void *data)
{
	struct irdma_mock *mock = data;

	KUNIT_EXPECT_EQ(mock->test,
			irdma_sc_ccq_destroy(&mock->rf.ccq.sc_cq, 0, true), 0);
}

/*
 * The driver's control CQ, as irdma_create_ccq() makes it and
 * irdma_ctrl_init_hw() arms it.  Without a CEQ its completions are only
 * ever polled, which irdma_wait_event() does before each wait.
 */
static void irdma_mock_start_ccq(struct irdma_mock *mock)
{
	struct irdma_hmc_obj_info *obj = mock->rf.sc_dev.hmc_info->hmc_obj;
	struct irdma_ccq_init_info info = {};
	struct irdma_pci_f *rf = &mock->rf;
	struct irdma_ccq *ccq = &rf->ccq;
	struct kunit *test = mock->test;
	int ret;

	/* What QUERY_FPM reports, and CQ creation checks against */
	obj[IRDMA_HMC_IW_CQ].max_cnt = obj[IRDMA_HMC_IW_CQ].cnt;
	rf->sc_dev.hmc_fpm_misc.max_ceqs = 1;

	info.dev = &rf->sc_dev;
	info.num_elem = IW_CCQ_SIZE;
	info.cq_base = irdma_mock_dma_alloc(mock, &ccq->mem_cq, info.num_elem *
					    sizeof(struct irdma_cqe));
	info.cq_pa = ccq->mem_cq.pa;
	info.shadow_area = irdma_mock_dma_alloc(mock, &ccq->shadow_area,
						sizeof(struct irdma_cq_shadow_area));
	info.shadow_area_pa = ccq->shadow_area.pa;
	info.ceq_id_valid = true;
	info.shadow_read_threshold = 16;
	info.vsi = &rf->default_vsi;
	ccq->sc_cq.back_cq = ccq;

	ret = irdma_sc_ccq_init(&ccq->sc_cq, &info);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = irdma_sc_ccq_create(&ccq->sc_cq, 0, true, true);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = kunit_add_action_or_reset(test, irdma_mock_destroy_ccq, mock);
	KUNIT_ASSERT_EQ(test, ret, 0);
	irdma_sc_ccq_arm(&ccq->sc_cq);
}

/**
 * irdma_mock_stop_cqp - take the CQP down before the test ends
 * @mock: the mock device
 *
 * Destroys the control CQ, then the CQP, as irdma_ctrl_deinit_hw() does
 * and as the end of the test would have.
 */
void irdma_mock_stop_cqp(struct irdma_mock *mock)
{
	kunit_release_action(mock->test, irdma_mock_destroy_ccq, mock);
	kunit_release_action(mock->test, irdma_mock_destroy_cqp, mock);
}

/* What ice does when irdma asks it to reset the function */
static void irdma_mock_request_reset(struct irdma_pci_f *rf)
{
	irdma_mock_from_rf(rf)->resets++;
}

static void irdma_mock_setup_cqp(struct irdma_mock *mock, u32 nreqs)
{
	struct irdma_cqp *cqp = &mock->rf.cqp;
	struct kunit *test = mock->test;
	u32 i;

	cqp->sc_cqp.dev = &mock->rf.sc_dev;
	mock->rf.sc_dev.cqp = &cqp->sc_cqp;
	irdma_mock_start_cqp(mock);

	spin_lock_init(&cqp->req_lock);
	spin_lock_init(&cqp->compl_lock);
	init_waitqueue_head(&cqp->waitq);
	init_waitqueue_head(&cqp->remove_wq);
	INIT_LIST_HEAD(&cqp->cqp_avail_reqs);
	INIT_LIST_HEAD(&cqp->cqp_pending_reqs);

	mock->cqp_pool = kunit_kcalloc(test, nreqs, sizeof(*mock->cqp_pool),
				       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mock->cqp_pool);
	mock->cqp_pool_len = nreqs;
	cqp->cqp_requests = mock->cqp_pool;
	for (i = 0; i < nreqs; i++) {
		init_completion(&mock->cqp_pool[i].comp);
		list_add_tail(&mock->cqp_pool[i].list, &cqp->cqp_avail_reqs);
	}
}

/* Completion vectors: CEQ 0, on no interrupt, for the verbs' CQs */
#define IRDMA_MOCK_CEQ_SIZE		64

/*
 * The CEQ the verbs' CQs report to, as irdma_create_ceq() leaves it in
 * software: an empty ring, polarity 1.  The model raises a CQ's events
 * itself and counts them (irdma_hw_model_cq()), so no CEQE is ever
 * written; destroy_cq still walks the ring for CEQEs of its CQ.
 */
static void irdma_mock_setup_ceq(struct irdma_mock *mock)
{
	struct irdma_pci_f *rf = &mock->rf;
	struct kunit *test = mock->test;
	struct irdma_sc_ceq *ceq;

	rf->ceqlist = kunit_kcalloc(test, 1, sizeof(*rf->ceqlist), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, rf->ceqlist);
	spin_lock_init(&rf->ceqlist[0].ce_lock);
	rf->ceqlist[0].rf = rf;
	ceq = &rf->ceqlist[0].sc_ceq;
	ceq->dev = &rf->sc_dev;
	ceq->size = IRDMA_MOCK_CEQ_SIZE;
	ceq->elem_cnt = IRDMA_MOCK_CEQ_SIZE;
	ceq->ceqe_base = irdma_mock_dma_alloc(mock, &rf->ceqlist[0].mem,
					      IRDMA_MOCK_CEQ_SIZE *
					      sizeof(struct irdma_ceqe));
	ceq->ceq_elem_pa = rf->ceqlist[0].mem.pa;
	IRDMA_RING_INIT(ceq->ceq_ring, ceq->elem_cnt);
	ceq->polarity = 1;
	ceq->vsi = &mock->iwdev->vsi;
	rf->sc_dev.ceq[0] = ceq;
	rf->ceqs_count = 1;
	/* As irdma_setup_ceqs() leaves it: CQP callers may wait for events */
	rf->sc_dev.ceq_valid = true;
}

static void irdma_mock_free_wq(void *wq)
{
	destroy_workqueue(wq);
}

static void irdma_mock_free_ibdev(void *data)
{
	struct irdma_device *iwdev = data;

	ib_dealloc_device(&iwdev->ibdev);
}

/*
 * The GID table lets go of the netdev after unregistration returns: in
 * an RCU callback per GID entry, queued then or, for an entry still in
 * use, from ib_wq when its last user puts it.  A registered netdev would
 * wait for them in unregister_netdev(); this one never was registered,
 * so wait for both before freeing it.
 */
static void irdma_mock_free_netdev(void *data)
{
	struct net_device *netdev = data;

	if (netdev->reg_state == NETREG_REGISTERED)
		unregister_netdev(netdev);
	flush_workqueue(ib_wq);
	rcu_barrier();
	free_netdev(netdev);
}

/* ice's netdev ops are its own business: the RDMA side calls none */
static const struct net_device_ops irdma_mock_netdev_ops;

/*
 * What ice does for irdma's work scheduler: hold a queue set for each
 * leaf node (a TEID in its own scheduler tree), or refuse it as a full
 * scheduler would.
 */
static int irdma_mock_register_qset(struct irdma_sc_vsi *vsi,
				    struct irdma_ws_node *tc_node)
{
	struct irdma_device *iwdev = vsi->back_vsi;
	struct irdma_mock *mock = irdma_mock_from_rf(iwdev->rf);
	int ret = mock->qset_refuse;

	mock->qset_calls++;
	if (ret) {
		mock->qset_refuse = 0;
		return ret;
	}
	mock->qsets++;
	tc_node->l2_sched_node_id = 0x100 + tc_node->index;
	vsi->qos[tc_node->user_pri].l2_sched_node_id = tc_node->l2_sched_node_id;
	return 0;
}

static void irdma_mock_unregister_qset(struct irdma_sc_vsi *vsi,
				       struct irdma_ws_node *tc_node)
{
	struct irdma_device *iwdev = vsi->back_vsi;

	irdma_mock_from_rf(iwdev->rf)->qsets--;
}

/*
 * The RDMA device and the netdev of its port, which ice would have made
 * and probe found.  In iWARP mode the netdev is never registered; in
 * RoCE mode it is, down, so that the RDMA core's GID table gets its
 * default GID.  Registration holds a reference to it until
 * unregistration, so it goes after the ib_device.
 */
static void irdma_mock_setup_iwdev(struct irdma_mock *mock, bool roce)
{
	struct irdma_vsi_init_info vsi_info = {};
	struct irdma_l2params l2 = {};
	struct kunit *test = mock->test;
	struct irdma_device *iwdev;
	struct net_device *netdev;
	int ret;

	netdev = alloc_etherdev(0);
	KUNIT_ASSERT_NOT_NULL(test, netdev);
	ret = kunit_add_action_or_reset(test, irdma_mock_free_netdev, netdev);
	KUNIT_ASSERT_EQ(test, ret, 0);
	eth_hw_addr_random(netdev);
	netdev->netdev_ops = &irdma_mock_netdev_ops;
	if (roce) {
		ret = register_netdev(netdev);
		KUNIT_ASSERT_EQ(test, ret, 0);
		mock->netdev_registered = true;
	}

	iwdev = ib_alloc_device(irdma_device, ibdev);
	KUNIT_ASSERT_NOT_NULL(test, iwdev);
	ret = kunit_add_action_or_reset(test, irdma_mock_free_ibdev, iwdev);
	KUNIT_ASSERT_EQ(test, ret, 0);

	mock->iwdev = iwdev;
	mock->rf.iwdev = iwdev;
	iwdev->rf = &mock->rf;
	iwdev->netdev = netdev;
	iwdev->roce_mode = roce;
	iwdev->roce_cwnd = IRDMA_ROCE_CWND_DEFAULT;
	iwdev->roce_ackcreds = IRDMA_ROCE_ACKCREDS_DEFAULT;
	mutex_init(&iwdev->ah_tbl_lock);
	/*
	 * The VSI as irdma_rt_init_hw() sets it up.  In iWARP mode without
	 * the LAN driver's qset registration: QPs made without a CM join
	 * no node of the work scheduler.  In RoCE mode every QP does, and
	 * the mock answers for ice.
	 */
	if (roce) {
		vsi_info.register_qset = irdma_mock_register_qset;
		vsi_info.unregister_qset = irdma_mock_unregister_qset;
	}
	l2.mtu = netdev->mtu;
	vsi_info.dev = &mock->rf.sc_dev;
	vsi_info.back_vsi = iwdev;
	vsi_info.params = &l2;
	irdma_sc_vsi_init(&iwdev->vsi, &vsi_info);
	init_waitqueue_head(&iwdev->suspend_wq);

	/* As irdma_rt_init_hw() makes it: flushes and CQ rings retire here */
	iwdev->cleanup_wq = alloc_workqueue("irdma-kunit-cleanup",
					    WQ_UNBOUND, 1);
	KUNIT_ASSERT_NOT_NULL(test, iwdev->cleanup_wq);
	ret = kunit_add_action_or_reset(test, irdma_mock_free_wq,
					iwdev->cleanup_wq);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

/*
 * The PD the mock's QPs and MRs belong to: a kernel PD as irdma_alloc_pd()
 * sets one up, its ID from the driver's bitmap.
 */
static void irdma_mock_setup_pd(struct irdma_mock *mock)
{
	struct irdma_pci_f *rf = &mock->rf;
	u32 pd_id;
	int ret;

	ret = irdma_alloc_rsrc(rf, rf->allocated_pds, rf->max_pd, &pd_id,
			       &rf->next_pd);
	KUNIT_ASSERT_EQ(mock->test, ret, 0);
	mock->pd.ibpd.device = &mock->iwdev->ibdev;
	irdma_sc_pd_init(&rf->sc_dev, &mock->pd.sc_pd, pd_id, IRDMA_ABI_VER);
}

static void irdma_mock_release_pcidev(struct device *dev)
{
	kfree(to_pci_dev(dev));
}

KUNIT_DEFINE_ACTION_WRAPPER(irdma_mock_del_pcidev, device_unregister,
			    struct device *);

/*
 * The PCI function the ib_device hangs under in sysfs, with the IDs its
 * query_device reports: a device of its own, below the mock's, on no
 * bus.  Nothing else of PCI is there.
 */
static void irdma_mock_setup_pcidev(struct irdma_mock *mock)
{
	struct kunit *test = mock->test;
	struct pci_dev *pcidev;
	int ret;

	pcidev = kzalloc(sizeof(*pcidev), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, pcidev);
	device_initialize(&pcidev->dev);
	pcidev->dev.release = irdma_mock_release_pcidev;
	pcidev->dev.parent = mock->dev;
	pcidev->vendor = PCI_VENDOR_ID_INTEL;
	pcidev->device = mock->rf.rdma_ver == IRDMA_GEN_1 ?
			 IRDMA_MOCK_PCI_DEVICE_X722 : IRDMA_MOCK_PCI_DEVICE;
	ret = dev_set_name(&pcidev->dev, "%s.pf", dev_name(mock->dev));
	if (!ret)
		ret = device_add(&pcidev->dev);
	if (ret) {
		put_device(&pcidev->dev);
		KUNIT_FAIL_AND_ABORT(test, "PCI function: %d", ret);
	}
	ret = kunit_add_action_or_reset(test, irdma_mock_del_pcidev,
					&pcidev->dev);
	KUNIT_ASSERT_EQ(test, ret, 0);
	mock->rf.pcidev = pcidev;
}

static void irdma_mock_free_stats(void *data)
{
	struct irdma_sc_vsi *vsi = data;

	irdma_vsi_stats_free(vsi);
}

/*
 * The VSI's statistics, as irdma_rt_init_hw() sets them up: the buffer
 * that GATHER_STATS fills, no statistics instance of its own.  The port's
 * hw_counters, which registration reads once, come from there.
 */
static void irdma_mock_setup_stats(struct irdma_mock *mock)
{
	struct irdma_vsi_stats_info info = {};
	struct irdma_sc_vsi *vsi = &mock->iwdev->vsi;
	struct kunit *test = mock->test;
	int ret;

	info.pestat = kunit_kzalloc(test, sizeof(*info.pestat), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, info.pestat);
	info.fcn_id = mock->rf.sc_dev.hmc_fn_id;
	ret = irdma_vsi_stats_init(vsi, &info);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = kunit_add_action_or_reset(test, irdma_mock_free_stats, vsi);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

static void irdma_mock_unregister(void *data)
{
	irdma_ib_unregister_device(data);
}

/*
 * Registration, by the driver's own irdma_ib_register_device(), as
 * irdma_probe() does once the hardware is up: verbs.c's ops, the netdev
 * on port 1, the ib_device in sysfs and known to the RDMA core's clients.
 * The mock owns the PCI function and takes its hardware down itself, with
 * its KUnit actions; so, as a driver without a dealloc_driver callback
 * does, it unregisters the device and then frees it, and verbs.c's
 * dealloc_driver, which would tear the function down too, stays unused.
 */
static void irdma_mock_register(struct irdma_mock *mock)
{
	struct irdma_device *iwdev = mock->iwdev;
	struct kunit *test = mock->test;
	int ret;

	irdma_mock_setup_pcidev(mock);
	irdma_mock_setup_stats(mock);
	ret = irdma_ib_register_device(iwdev);
	KUNIT_ASSERT_EQ(test, ret, 0);
	iwdev->ibdev.ops.dealloc_driver = NULL;
	ret = kunit_add_action_or_reset(test, irdma_mock_unregister, iwdev);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

/**
 * irdma_mock_create - build a mock irdma device
 * @test: the test that owns it
 * @params: its shape, or NULL for the defaults
 *
 * Builds the PCI function, its control device (GEN2 attributes, register
 * map), the resource bitmaps, the PBLE resource with its first chunk, the
 * CQP and its request pool, the control CQ, a PD, and a &struct
 * irdma_device registered by the driver, over a firmware model that
 * answers the CQP and counts SQ doorbells.  A failure fails the test.
 *
 * Return: the mock; KUnit frees it and everything in it after the test.
 */
struct irdma_mock *irdma_mock_create(struct kunit *test,
				     const struct irdma_mock_params *params)
{
	struct irdma_mock_params p = params ? *params : (struct irdma_mock_params){};
	static atomic_t irdma_mock_seq = ATOMIC_INIT(0);
	struct irdma_device_init_info init = {};
	struct irdma_hw_model_params hp = {};
	struct irdma_mock *mock;
	struct irdma_pci_f *rf;
	char name[24];
	bool x722;
	int ret;

	x722 = p.profile == IRDMA_MOCK_X722_IWARP;
	p.max_mr = p.max_mr ?: 4096;
	p.pble_head_pages = p.pble_head_pages ?: 2;
	p.pble_tail_pages = p.pble_tail_pages ?: 8;
	p.cqp_requests = p.cqp_requests ?: 16;
	/* Each part must fit in its SD */
	KUNIT_ASSERT_LE(test, p.pble_head_pages, IRDMA_HMC_PD_CNT_IN_SD);
	KUNIT_ASSERT_LE(test, p.pble_tail_pages, IRDMA_HMC_PD_CNT_IN_SD);

	mock = kunit_kzalloc(test, sizeof(*mock), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mock);
	mock->test = test;
	rf = &mock->rf;

	/* Its name is also a driver's: one per mock, even in one test */
	snprintf(name, sizeof(name), "irdma_mock.%u",
		 (unsigned int)atomic_inc_return(&irdma_mock_seq));
	mock->dev = kunit_device_register(test, name);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mock->dev);
	mock->dev->dma_mask = &mock->dev->coherent_dma_mask;
	ret = dma_set_mask_and_coherent(mock->dev, DMA_BIT_MASK(64));
	KUNIT_ASSERT_EQ(test, ret, 0);
	/* Where registration sets the DMA segment limit, as a PCI device has */
	mock->dev->dma_parms = kunit_kzalloc(test, sizeof(*mock->dev->dma_parms),
					     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, mock->dev->dma_parms);

	mock->bar_len = IRDMA_MOCK_BAR_LEN;
	mock->bar = vzalloc(mock->bar_len);
	KUNIT_ASSERT_NOT_NULL(test, mock->bar);
	ret = kunit_add_action_or_reset(test, irdma_mock_free_bar, mock->bar);
	KUNIT_ASSERT_EQ(test, ret, 0);
	irdma_mock_setup_bar(mock, x722);
	/* First: it must outlive the driver's CQP teardown */
	hp.bar = mock->bar;
	hp.bar_len = mock->bar_len;
	hp.dma_dev = mock->dev;
	hp.stags = p.max_mr;
	hp.sds = IRDMA_MOCK_SD_CNT;
	hp.qps = IRDMA_MOCK_OBJ_CNT;
	hp.cqs = IRDMA_MOCK_OBJ_CNT;
	hp.pble_fpm = irdma_mock_pble_fpm(&p);
	hp.x722 = x722;
	mock->hw = irdma_hw_model_create(test, &hp);
	rf->gen_ops.request_reset = irdma_mock_request_reset;

	rf->rdma_ver = x722 ? IRDMA_GEN_1 : IRDMA_GEN_2;
	rf->protocol_used = p.profile == IRDMA_MOCK_E810_ROCE ?
			    IRDMA_ROCE_PROTOCOL_ONLY : IRDMA_IWARP_PROTOCOL_ONLY;
	rf->hw.device = mock->dev;
	rf->pble_rsrc = &mock->pble_rsrc;
	irdma_mock_setup_iwdev(mock, p.profile == IRDMA_MOCK_E810_ROCE);

	init.hw = &rf->hw;
	init.bar0 = (void __iomem __force *)mock->bar;
	ret = irdma_sc_dev_init(rf->rdma_ver, &rf->sc_dev, &init);
	KUNIT_ASSERT_EQ(test, ret, 0);
	rf->sc_dev.hmc_info = &rf->hw.hmc;
	irdma_mock_setup_cqp(mock, p.cqp_requests);
	irdma_mock_setup_hmc(mock, &p);
	irdma_mock_start_ccq(mock);

	ret = irdma_initialize_hw_rsrc(rf);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = kunit_add_action_or_reset(test, irdma_mock_free_rsrc, rf);
	KUNIT_ASSERT_EQ(test, ret, 0);

	/* The SD pages go after the chunks that point into them */
	ret = kunit_add_action_or_reset(test, irdma_mock_free_sds, mock);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = irdma_hmc_init_pble(&rf->sc_dev, &mock->pble_rsrc);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = kunit_add_action_or_reset(test, irdma_mock_free_pble,
					&mock->pble_rsrc);
	KUNIT_ASSERT_EQ(test, ret, 0);

	irdma_mock_setup_ceq(mock);
	irdma_mock_setup_pd(mock);
	irdma_mock_register(mock);
	return mock;
}

/**
 * irdma_mock_pble - find a PBLE in memory by its HMC index
 * @mock: the mock device
 * @idx: the PBLE's index, as a WQE or a level-2 root names it
 *
 * Looks the index up in the chunks' FPM ranges, independently of the PBLE
 * allocator's own arithmetic.
 *
 * Return: the PBLE, or NULL if no chunk of the pool holds it.
 */
u64 *irdma_mock_pble(struct irdma_mock *mock, u32 idx)
{
	struct irdma_hmc_pble_rsrc *rsrc = &mock->pble_rsrc;
	u64 fpm = rsrc->fpm_base_addr + (u64)idx * sizeof(u64);
	struct irdma_chunk *chunk;

	list_for_each_entry(chunk, &rsrc->pinfo.clist, list)
		if (fpm >= chunk->fpm_addr &&
		    fpm < chunk->fpm_addr + chunk->size)
			return chunk->vaddr + (fpm - chunk->fpm_addr);
	return NULL;
}

/**
 * irdma_mock_mr_page - read a page address of a fast-register MR
 * @mock: the mock device
 * @mr: an MR of @mock, from ib_alloc_mr()
 * @i: the page's place in the MR
 *
 * Reads the PBLEs as the hardware does, through their HMC indexes: a
 * level-1 list from its first index, a level-2 one through its root,
 * which holds the indexes of its leaves.
 *
 * Return: the page address, or U64_MAX for an index outside the pool.
 */
u64 irdma_mock_mr_page(struct irdma_mock *mock, struct ib_mr *mr, u32 i)
{
	struct irdma_pble_alloc *pbles = &to_iwmr(mr)->iwpbl.pble_alloc;
	u64 *pble;

	if (pbles->level == PBLE_LEVEL_1) {
		pble = irdma_mock_pble(mock, pbles->level1.idx + i);
	} else {
		pble = irdma_mock_pble(mock, pbles->level2.root.idx +
					     i / PBLE_PER_PAGE);
		if (pble)
			pble = irdma_mock_pble(mock, *pble + i % PBLE_PER_PAGE);
	}
	return pble ? *pble : U64_MAX;
}

/**
 * irdma_mock_cqp_avail - count the free requests of the CQP pool
 * @mock: the mock device
 *
 * Return: how many preallocated CQP requests are on the free list.
 */
u32 irdma_mock_cqp_avail(struct irdma_mock *mock)
{
	struct irdma_cqp *cqp = &mock->rf.cqp;
	unsigned long flags;
	u32 n;

	spin_lock_irqsave(&cqp->req_lock, flags);
	n = list_count_nodes(&cqp->cqp_avail_reqs);
	spin_unlock_irqrestore(&cqp->req_lock, flags);
	return n;
}

/*
 * Where the function keeps the IDs and objects of @kind, how many, which
 * CQP command creates one and what the RDMA core tracks them as (AHs:
 * nothing).
 */
static void irdma_mock_id_space(struct irdma_mock *mock,
				enum irdma_mock_objs kind,
				unsigned long **ids, void ***table, u32 *max,
				u8 *create_op, int *restrack)
{
	struct irdma_pci_f *rf = &mock->rf;

	switch (kind) {
	case IRDMA_MOCK_CQS:
		*ids = rf->allocated_cqs;
		*table = (void **)rf->cq_table;
		*max = rf->max_cq;
		*create_op = IRDMA_HW_OP_CREATE_CQ;
		*restrack = RDMA_RESTRACK_CQ;
		return;
	case IRDMA_MOCK_QPS:
		*ids = rf->allocated_qps;
		*table = (void **)rf->qp_table;
		*max = rf->max_qp;
		*create_op = IRDMA_HW_OP_CREATE_QP;
		*restrack = RDMA_RESTRACK_QP;
		return;
	case IRDMA_MOCK_AHS:
		*ids = rf->allocated_ahs;
		*table = NULL;
		*max = rf->max_ah;
		*create_op = IRDMA_HW_OP_CREATE_AH;
		*restrack = -1;
		return;
	}
	KUNIT_FAIL_AND_ABORT(mock->test, "no IDs of kind %d", kind);
}

static const char *const irdma_mock_obj_names[] = {
	[IRDMA_MOCK_CQS] = "CQ", [IRDMA_MOCK_QPS] = "QP", [IRDMA_MOCK_AHS] = "AH",
};

/**
 * irdma_mock_save_ids - take what a failing verb must give back
 * @mock: the mock device
 * @kind: which IDs
 * @s: where to keep it; its copies go with the test
 */
void irdma_mock_save_ids(struct irdma_mock *mock, enum irdma_mock_objs kind,
			 struct irdma_mock_ids *s)
{
	struct kunit *test = mock->test;
	unsigned long *ids;
	void **table;
	int restrack;
	u8 op;

	irdma_mock_id_space(mock, kind, &ids, &table, &s->max, &op, &restrack);
	s->kind = kind;
	s->ids = kunit_kcalloc(test, BITS_TO_LONGS(s->max), sizeof(long),
			       GFP_KERNEL);
	s->table = kunit_kcalloc(test, s->max, sizeof(*s->table), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s->ids);
	KUNIT_ASSERT_NOT_NULL(test, s->table);
	bitmap_copy(s->ids, ids, s->max);
	if (table)
		memcpy(s->table, table, s->max * sizeof(*s->table));
	s->cqp_avail = irdma_mock_cqp_avail(mock);
	s->creates = irdma_hw_model_op_count(mock->hw, op);
	s->tracked = restrack < 0 ? 0 :
		     rdma_restrack_count(&mock->iwdev->ibdev, restrack, false);
}

/**
 * irdma_mock_expect_ids - expect the IDs as irdma_mock_save_ids() took them
 * @mock: the mock device
 * @was: what it took
 *
 * The ID bitmap and the table of objects by ID exactly as they were (no
 * ID leaked or freed, no entry left behind for the event handlers to
 * find), every CQP request back, as many objects tracked; for CQs, the
 * CCQ's CQ 0 still taken.
 */
void irdma_mock_expect_ids(struct irdma_mock *mock,
			   const struct irdma_mock_ids *was)
{
	struct kunit *test = mock->test;
	const char *name = irdma_mock_obj_names[was->kind];
	unsigned long *ids;
	void **table;
	int restrack;
	u32 max, i;
	u8 op;

	irdma_mock_id_space(mock, was->kind, &ids, &table, &max, &op,
			    &restrack);
	KUNIT_ASSERT_EQ(test, max, was->max);
	KUNIT_EXPECT_TRUE_MSG(test, bitmap_equal(ids, was->ids, max),
			      "%s IDs changed: %*pbl, were %*pbl", name,
			      max, ids, max, was->ids);
	for (i = 0; table && i < max; i++)
		KUNIT_EXPECT_PTR_EQ_MSG(test, table[i], was->table[i],
					"%s table entry %u", name, i);
	if (was->kind == IRDMA_MOCK_CQS)
		KUNIT_EXPECT_TRUE(test, test_bit(0, ids));
	KUNIT_EXPECT_EQ(test, irdma_mock_cqp_avail(mock), was->cqp_avail);
	if (restrack >= 0)
		KUNIT_EXPECT_EQ(test, rdma_restrack_count(&mock->iwdev->ibdev,
							  restrack, false),
				was->tracked);
}

/**
 * irdma_mock_cqp_cmd - a CQ or QP command of the driver's own, behind the
 *	verbs' back
 * @mock: the mock device
 * @cmd: IRDMA_OP_CQ_CREATE, IRDMA_OP_CQ_DESTROY or IRDMA_OP_QP_DESTROY
 * @obj: the &struct ib_cq, or the &struct ib_qp, it names
 *
 * Sends the command straight through the driver's CQP, waiting for its
 * completion, as the driver's lower layers would.
 *
 * Return: what irdma_handle_cqp_op() returns.
 */
int irdma_mock_cqp_cmd(struct irdma_mock *mock, u8 cmd, void *obj)
{
	struct irdma_pci_f *rf = &mock->rf;
	struct irdma_cqp_request *req;
	struct cqp_cmds_info *info;
	int ret;

	req = irdma_alloc_and_get_cqp_request(&rf->cqp, true);
	KUNIT_ASSERT_NOT_NULL(mock->test, req);
	info = &req->info;
	info->cqp_cmd = cmd;
	info->post_sq = 1;
	switch (cmd) {
	case IRDMA_OP_CQ_CREATE:
		info->in.u.cq_create.cq = &to_iwcq(obj)->sc_cq;
		info->in.u.cq_create.check_overflow = true;
		info->in.u.cq_create.scratch = (uintptr_t)req;
		break;
	case IRDMA_OP_CQ_DESTROY:
		info->in.u.cq_destroy.cq = &to_iwcq(obj)->sc_cq;
		info->in.u.cq_destroy.scratch = (uintptr_t)req;
		break;
	case IRDMA_OP_QP_DESTROY:
		info->in.u.qp_destroy.qp = &to_iwqp(obj)->sc_qp;
		info->in.u.qp_destroy.scratch = (uintptr_t)req;
		break;
	default:
		irdma_put_cqp_request(&rf->cqp, req);
		KUNIT_FAIL_AND_ABORT(mock->test, "CQP command %u", cmd);
	}
	ret = irdma_handle_cqp_op(rf, req);
	irdma_put_cqp_request(&rf->cqp, req);
	return ret;
}

/**
 * irdma_mock_tc_change - ice changes the port's traffic classes
 * @mock: a RoCE mock device
 * @begin: the change begins (ice's event before it), else it is over
 * @reset: at its beginning, the work scheduler tree is torn down too
 *
 * What irdma's handler of ice's TC change events leaves behind, which the
 * mock cannot call (it is irdma's auxiliary driver's): while a change is
 * pending, the VSI takes no QP into its work scheduler; and at the
 * beginning the tree is reset, every leaf and its queue set given back,
 * to be built again for the QPs made after.  The QPs that exist are not
 * suspended and resumed: none of the mock's moves any traffic.
 */
void irdma_mock_tc_change(struct irdma_mock *mock, bool begin, bool reset)
{
	struct irdma_sc_vsi *vsi = &mock->iwdev->vsi;

	vsi->tc_change_pending = begin;
	if (begin && reset)
		vsi->dev->ws_reset(vsi);
}

/**
 * irdma_mock_ccq_event - the CCQ's completion event
 * @mock: the mock device
 *
 * What the CEQ interrupt of a real function does when the hardware has
 * written CCQ entries: the driver's own CCQ handler completes every CQP
 * request the model answered, the ones nobody waits for too (a
 * DESTROY_AH, an ARP cache update).  The mock has no interrupt.
 */
void irdma_mock_ccq_event(struct irdma_mock *mock)
{
	irdma_cqp_ce_handler(&mock->rf, &mock->rf.ccq.sc_cq);
}

/**
 * irdma_mock_last_wqe - the last CQP WQE the model took
 * @mock: the mock device
 * @opcode: the IRDMA_HW_OP_* it must have been
 * @w: where to copy the model's decoding of it
 *
 * Fails the test if the model took none or no longer holds it, and
 * expects @opcode.
 */
void irdma_mock_last_wqe(struct irdma_mock *mock, u8 opcode,
			 struct irdma_hw_wqe *w)
{
	struct kunit *test = mock->test;
	u64 n = irdma_hw_model_wqes(mock->hw);

	KUNIT_ASSERT_GT(test, n, 0);
	KUNIT_ASSERT_TRUE(test, irdma_hw_model_wqe(mock->hw, n - 1, w));
	KUNIT_EXPECT_EQ(test, w->opcode, opcode);
}

/**
 * irdma_mock_wqe_since - the first CQP WQE of an opcode from a point on
 * @mock: the mock device
 * @seq: where to start: irdma_hw_model_wqes() before the verb
 * @opcode: the IRDMA_HW_OP_* to find
 * @w: where to copy the model's decoding of it
 *
 * For a verb whose command the driver's workers may follow with others
 * of their own (a FLUSH_WQES after a MODIFY_QP to ERR).  Fails the test
 * if the model took none since @seq, or no longer holds them.
 */
void irdma_mock_wqe_since(struct irdma_mock *mock, u64 seq, u8 opcode,
			  struct irdma_hw_wqe *w)
{
	u64 n = irdma_hw_model_wqes(mock->hw);

	for (; seq < n; seq++) {
		KUNIT_ASSERT_TRUE(mock->test, irdma_hw_model_wqe(mock->hw, seq, w));
		if (w->opcode == opcode)
			return;
	}
	KUNIT_FAIL_AND_ABORT(mock->test, "no CQP WQE of opcode %#x", opcode);
}

KUNIT_DEFINE_ACTION_WRAPPER(irdma_mock_destroy_cq, ib_destroy_cq,
			    struct ib_cq *);

/**
 * irdma_mock_create_cq - create a kernel CQ on the mock device
 * @mock: the mock device
 * @cqes: the completions it must hold
 *
 * Through the verbs (ib_create_cq()), so that the CQ exists in the model
 * as the hardware's, from the CREATE_CQ the driver sends; destroyed when
 * the test ends.
 *
 * Return: the CQ; a failure fails the test.
 */
struct irdma_cq *irdma_mock_create_cq(struct irdma_mock *mock, u32 cqes)
{
	struct ib_cq *cq = irdma_mock_verbs_cq(mock, cqes);
	int ret;

	ret = kunit_add_action_or_reset(mock->test, irdma_mock_destroy_cq, cq);
	KUNIT_ASSERT_EQ(mock->test, ret, 0);
	return to_iwcq(cq);
}

/**
 * irdma_mock_create_qp - build a kernel iWARP RC QP on the mock device
 * @mock: the mock device
 * @attr: its shape, or NULL for the defaults
 *
 * Sizes and lays out the queues as the driver does for a kernel QP: one
 * coherent buffer holds the SQ, the RQ and the shadow area, and the
 * driver's irdma_sc_qp_init() and irdma_uk_qp_init() set the QP up over
 * it, with the connection WQEs of an iWARP QP already at the head of the
 * SQ.  The QP is in RTS, its SQ doorbell the WQE allocation register of
 * the mock's BAR, its number from the driver's QP bitmap, and both of its
 * CQs one new CQ.  The SQ holds at least 512 quanta.
 *
 * Return: the QP; a failure fails the test.
 */
struct irdma_qp *irdma_mock_create_qp(struct irdma_mock *mock,
				      const struct irdma_mock_qp_attr *attr)
{
	struct irdma_mock_qp_attr a = attr ? *attr : (struct irdma_mock_qp_attr){};
	struct irdma_pci_f *rf = &mock->rf;
	struct irdma_sc_dev *dev = &rf->sc_dev;
	struct irdma_qp_init_info info = {};
	struct irdma_qp_uk_init_info *uk = &info.qp_uk_init_info;
	struct kunit *test = mock->test;
	struct irdma_qp *iwqp;
	struct irdma_cq *iwcq;
	u32 qp_num, size;
	int ret;

	a.sq_wrs = a.sq_wrs ?: 128;
	a.rq_wrs = a.rq_wrs ?: 32;
	a.max_sq_sge = a.max_sq_sge ?: 4;
	a.max_rq_sge = a.max_rq_sge ?: 1;

	iwqp = kunit_kzalloc(test, sizeof(*iwqp), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iwqp);
	iwcq = irdma_mock_create_cq(mock, 2 * (a.sq_wrs + a.rq_wrs));
	ret = irdma_alloc_rsrc(rf, rf->allocated_qps, rf->max_qp, &qp_num,
			       &rf->next_qp);
	KUNIT_ASSERT_EQ(test, ret, 0);

	uk->uk_attrs = &dev->hw_attrs.uk_attrs;
	uk->sq_size = a.sq_wrs;
	uk->rq_size = a.rq_wrs;
	uk->max_sq_frag_cnt = a.max_sq_sge;
	uk->max_rq_frag_cnt = a.max_rq_sge;
	uk->max_inline_data = a.max_inline;
	uk->qp_id = qp_num;
	uk->first_sq_wq = 1;
	uk->abi_ver = IRDMA_ABI_VER;
	uk->type = IRDMA_QP_TYPE_IWARP;
	uk->qp_caps = IRDMA_WRITE_WITH_IMM | IRDMA_PUSH_MODE;
	ret = irdma_uk_calc_depth_shift_sq(uk, &uk->sq_depth, &uk->sq_shift);
	KUNIT_ASSERT_EQ(test, ret, 0);
	ret = irdma_uk_calc_depth_shift_rq(uk, &uk->rq_depth, &uk->rq_shift);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_GE(test, uk->sq_depth, 512);

	iwqp->kqp.sq_wrid_mem = kunit_kcalloc(test, uk->sq_depth,
					      sizeof(*iwqp->kqp.sq_wrid_mem),
					      GFP_KERNEL);
	iwqp->kqp.rq_wrid_mem = kunit_kcalloc(test, uk->rq_depth,
					      sizeof(*iwqp->kqp.rq_wrid_mem),
					      GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, iwqp->kqp.sq_wrid_mem);
	KUNIT_ASSERT_NOT_NULL(test, iwqp->kqp.rq_wrid_mem);
	uk->sq_wrtrk_array = iwqp->kqp.sq_wrid_mem;
	uk->rq_wrid_array = iwqp->kqp.rq_wrid_mem;

	/* SQ, then RQ, then the shadow area, as a kernel QP has them */
	size = (uk->sq_depth + uk->rq_depth) * IRDMA_QP_WQE_MIN_SIZE +
	       (IRDMA_SHADOW_AREA_SIZE << 3);
	uk->sq = irdma_mock_dma_alloc(mock, &iwqp->kqp.dma_mem, size);
	uk->rq = &uk->sq[uk->sq_depth];
	uk->shadow_area = uk->rq[uk->rq_depth].elem;
	info.sq_pa = iwqp->kqp.dma_mem.pa;
	info.rq_pa = info.sq_pa + uk->sq_depth * IRDMA_QP_WQE_MIN_SIZE;
	info.shadow_area_pa = info.rq_pa +
			      uk->rq_depth * IRDMA_QP_WQE_MIN_SIZE;
	uk->sq_size = uk->sq_depth >> uk->sq_shift;
	uk->rq_size = uk->rq_depth >> uk->rq_shift;

	info.q2 = irdma_mock_dma_alloc(mock, &iwqp->q2_ctx_mem,
				       IRDMA_Q2_BUF_SIZE + IRDMA_QP_CTX_SIZE);
	info.q2_pa = iwqp->q2_ctx_mem.pa;
	info.host_ctx = (__le64 *)(info.q2 + IRDMA_Q2_BUF_SIZE);
	info.host_ctx_pa = info.q2_pa + IRDMA_Q2_BUF_SIZE;
	info.pd = &mock->pd.sc_pd;
	info.vsi = &mock->iwdev->vsi;
	ret = irdma_sc_qp_init(&iwqp->sc_qp, &info);
	KUNIT_ASSERT_EQ(test, ret, 0);
	/*
	 * What CREATE_QP gives the hardware: the SQ and the doorbell shadow
	 * area.  It took the connection WQEs before the driver's head.
	 */
	irdma_hw_model_add_sq(mock->hw, qp_num, info.sq_pa, uk->sq_depth,
			      IRDMA_RING_CURRENT_HEAD(iwqp->sc_qp.qp_uk.sq_ring),
			      info.shadow_area_pa);

	iwqp->iwdev = mock->iwdev;
	iwqp->iwpd = &mock->pd;
	iwqp->iwscq = iwcq;
	iwqp->iwrcq = iwcq;
	iwqp->sc_qp.qp_uk.back_qp = iwqp;
	iwqp->sc_qp.push_idx = IRDMA_INVALID_PUSH_PAGE_INDEX;
	iwqp->ibqp.device = &mock->iwdev->ibdev;
	iwqp->ibqp.pd = &mock->pd.ibpd;
	iwqp->ibqp.qp_num = qp_num;
	iwqp->ibqp.qp_type = IB_QPT_RC;
	iwqp->ibqp.real_qp = &iwqp->ibqp;
	iwqp->ibqp.port = 1;
	/* The SGE limits ib_create_qp() gives the R/W API */
	iwqp->ibqp.max_write_sge = min_t(u32, a.max_sq_sge,
					 mock->iwdev->ibdev.attrs.max_send_sge);
	iwqp->ibqp.max_read_sge = min_t(u32, a.max_sq_sge,
					mock->iwdev->ibdev.attrs.max_sge_rd);
	/* The MR pools of the R/W API, as ib_create_qp() starts them */
	spin_lock_init(&iwqp->ibqp.mr_lock);
	INIT_LIST_HEAD(&iwqp->ibqp.rdma_mrs);
	INIT_LIST_HEAD(&iwqp->ibqp.sig_mrs);
	iwqp->ibqp.send_cq = &iwcq->ibcq;
	iwqp->ibqp.recv_cq = &iwcq->ibcq;
	iwqp->host_ctx.va = info.host_ctx;
	iwqp->host_ctx.pa = info.host_ctx_pa;
	iwqp->host_ctx.size = IRDMA_QP_CTX_SIZE;
	iwqp->max_send_wr = (uk->sq_depth - IRDMA_SQ_RSVD) >> uk->sq_shift;
	iwqp->max_recv_wr = (uk->rq_depth - IRDMA_RQ_RSVD) >> uk->rq_shift;
	iwqp->ibqp_state = IB_QPS_RTS;
	iwqp->iwarp_state = IRDMA_QP_STATE_RTS;
	iwqp->hw_iwarp_state = IRDMA_QP_STATE_RTS;
	spin_lock_init(&iwqp->lock);
	refcount_set(&iwqp->refcnt, 1);
	init_completion(&iwqp->free_qp);
	init_waitqueue_head(&iwqp->waitq);
	init_waitqueue_head(&iwqp->mod_qp_waitq);
	return iwqp;
}

KUNIT_DEFINE_ACTION_WRAPPER(irdma_mock_dealloc_pd, ib_dealloc_pd,
			    struct ib_pd *);

/**
 * irdma_mock_alloc_pd - allocate a PD through the verbs
 * @mock: the mock device
 *
 * Return: a kernel PD from ib_alloc_pd(), deallocated when the test ends;
 * a failure fails the test.
 */
struct ib_pd *irdma_mock_alloc_pd(struct irdma_mock *mock)
{
	struct kunit *test = mock->test;
	struct ib_pd *pd;
	int ret;

	pd = ib_alloc_pd(&mock->iwdev->ibdev, 0);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pd);
	ret = kunit_add_action_or_reset(test, irdma_mock_dealloc_pd, pd);
	KUNIT_ASSERT_EQ(test, ret, 0);
	return pd;
}

/**
 * irdma_mock_verbs_cq - create a kernel CQ through the verbs
 * @mock: the mock device
 * @cqe: the completions it must hold
 *
 * Return: the CQ from ib_create_cq(), on completion vector 0 and with no
 * handler; the caller destroys it.  A failure fails the test.
 */
struct ib_cq *irdma_mock_verbs_cq(struct irdma_mock *mock, int cqe)
{
	struct ib_cq_init_attr attr = { .cqe = cqe };
	struct ib_cq *cq;

	cq = ib_create_cq(&mock->iwdev->ibdev, NULL, NULL, NULL, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(mock->test, cq);
	return cq;
}

/**
 * irdma_mock_verbs_qp - create a kernel RC QP through the verbs
 * @mock: the mock device
 * @pd: its PD
 * @cq: its send and receive CQ
 * @cap: its capabilities, or NULL for 16 work requests of one SGE each way
 *
 * Return: the QP from ib_create_qp(), in RESET; the caller destroys it.
 * A failure fails the test.
 */
struct ib_qp *irdma_mock_verbs_qp(struct irdma_mock *mock, struct ib_pd *pd,
				  struct ib_cq *cq, const struct ib_qp_cap *cap)
{
	struct ib_qp_init_attr attr = {
		.send_cq = cq,
		.recv_cq = cq,
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.cap = { .max_send_wr = 16, .max_recv_wr = 16,
			 .max_send_sge = 1, .max_recv_sge = 1 },
	};
	struct ib_qp *qp;

	if (cap)
		attr.cap = *cap;
	qp = ib_create_qp(pd, &attr);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(mock->test, qp);
	return qp;
}

static void irdma_mock_decode_frag(__le64 *wqe, u32 off,
				   struct ib_sge *sge)
{
	u64 to, ctl;

	get_64bit_val(wqe, off, &to);
	get_64bit_val(wqe, off + 8, &ctl);
	sge->addr = FIELD_GET(IRDMAQPSQ_FRAG_TO, to);
	sge->length = FIELD_GET(IRDMAQPSQ_FRAG_LEN, ctl);
	sge->lkey = FIELD_GET(IRDMAQPSQ_FRAG_STAG, ctl);
}

/*
 * The local fragments of a GEN2 READ, WRITE or SEND WQE: the first one in
 * qwords 0-1 unless immediate data took them, the others from byte 32 on.
 * An even count is padded with a null fragment that ADDFRAGCNT counts.
 */
static void irdma_mock_decode_frags(__le64 *wqe, bool imm,
				    struct irdma_mock_wqe *out)
{
	u32 slots = out->addl_frags + (imm ? 0 : 1);
	u32 i, n = 0;

	slots = min_t(u32, slots, IRDMA_MOCK_WQE_MAX_FRAGS);
	for (i = 0; i < slots; i++) {
		u32 off = i ? 16 + 16 * i : 0;

		if (imm)
			off = 32 + 16 * i;
		irdma_mock_decode_frag(wqe, off, &out->frag[n++]);
	}
	/*
	 * The padding is all zero, and the only sign of it: with it, as
	 * without, the slots are an odd number.  A real last fragment of
	 * length 0 at address 0 with STag 0 is taken for padding.
	 */
	if (n > 1 && !out->frag[n - 1].addr && !out->frag[n - 1].length &&
	    !out->frag[n - 1].lkey)
		n--;
	out->num_frags = n;
}

/**
 * irdma_mock_sq_wqe - decode a WQE of a mock QP's SQ
 * @iwqp: a mock QP
 * @idx: the WQE's index in the SQ ring, in quanta
 * @wqe: where to decode it
 *
 * Reads the WQE with the hardware's field masks (defs.h): the header
 * (qword 3) of every opcode, the remote address and local fragments of
 * RDMA READ, WRITE and SEND, the target of LOCAL_INVALIDATE, and the
 * fields of FAST_REGISTER.
 *
 * Return: 0, or -EINVAL if @idx is outside the ring.
 */
int irdma_mock_sq_wqe(struct irdma_qp *iwqp, u32 idx,
		      struct irdma_mock_wqe *wqe)
{
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	__le64 *raw;
	u64 hdr, lo, hi;
	int i;

	if (idx >= IRDMA_RING_SIZE(uk->sq_ring))
		return -EINVAL;
	memset(wqe, 0, sizeof(*wqe));
	raw = uk->sq_base[idx].elem;
	for (i = 0; i < ARRAY_SIZE(wqe->qword); i++)
		get_64bit_val(raw, 8 * i, &wqe->qword[i]);
	wqe->quanta = uk->sq_wrtrk_array[idx].quanta;

	hdr = wqe->qword[3];
	wqe->opcode = FIELD_GET(IRDMAQPSQ_OPCODE, hdr);
	wqe->valid = FIELD_GET(IRDMAQPSQ_VALID, hdr);
	wqe->signaled = FIELD_GET(IRDMAQPSQ_SIGCOMPL, hdr);
	wqe->read_fence = FIELD_GET(IRDMAQPSQ_READFENCE, hdr);
	wqe->local_fence = FIELD_GET(IRDMAQPSQ_LOCALFENCE, hdr);
	wqe->addl_frags = FIELD_GET(IRDMAQPSQ_ADDFRAGCNT, hdr);

	switch (wqe->opcode) {
	case IRDMAQP_OP_RDMA_WRITE:
	case IRDMAQP_OP_RDMA_WRITE_SOL:
	case IRDMAQP_OP_RDMA_READ:
	case IRDMAQP_OP_RDMA_READ_LOC_INV:
		wqe->rem_stag = FIELD_GET(IRDMAQPSQ_REMSTAG, hdr);
		wqe->rem_to = FIELD_GET(IRDMAQPSQ_FRAG_TO, wqe->qword[2]);
		irdma_mock_decode_frags(raw, FIELD_GET(IRDMAQPSQ_IMMDATAFLAG,
						       hdr), wqe);
		break;
	case IRDMAQP_OP_RDMA_SEND:
	case IRDMAQP_OP_RDMA_SEND_INV:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT:
	case IRDMAQP_OP_RDMA_SEND_SOL_EVENT_INV:
		irdma_mock_decode_frags(raw, FIELD_GET(IRDMAQPSQ_IMMDATAFLAG,
						       hdr), wqe);
		break;
	case IRDMAQP_OP_LOCAL_INVALIDATE:
		wqe->inv_stag = FIELD_GET(IRDMAQPSQ_LOCSTAG, wqe->qword[1]);
		break;
	case IRDMAQP_OP_FAST_REGISTER:
		wqe->fr_va = wqe->qword[0];
		wqe->fr_len = FIELD_GET(IRDMAQPSQ_STAGLEN, wqe->qword[2]);
		lo = FIELD_GET(IRDMAQPSQ_FIRSTPMPBLIDXLO, wqe->qword[2]);
		hi = FIELD_GET(IRDMAQPSQ_FIRSTPMPBLIDXHI, wqe->qword[1]);
		wqe->fr_first_pble = lo | hi << 16;
		wqe->fr_pbl_addr = wqe->qword[1] & IRDMAQPSQ_PBLADDR;
		wqe->fr_key = FIELD_GET(IRDMAQPSQ_STAGKEY, hdr);
		wqe->fr_index = FIELD_GET(IRDMAQPSQ_STAGINDEX, hdr);
		wqe->fr_rights = FIELD_GET(IRDMAQPSQ_STAGRIGHTS, hdr);
		wqe->fr_va_based = FIELD_GET(IRDMAQPSQ_VABASEDTO, hdr);
		wqe->fr_pbl_size = FIELD_GET(IRDMAQPSQ_LPBLSIZE, hdr);
		wqe->fr_hpage_size = FIELD_GET(IRDMAQPSQ_HPAGESIZE, hdr);
		break;
	}
	return 0;
}

/**
 * irdma_mock_sq_next_wqe - the next WQE the hardware took that is not a NOP
 * @iwqp: a mock QP
 * @idx: where to start, in quanta
 * @wqe: where to copy the model's decoding of it
 *
 * Skips the NOPs the driver writes so that no WQE crosses an 8-quanta
 * chunk of the ring.  Reads the model's log of the QP's SQ: what it
 * decoded on the doorbells, with its own field layouts.
 *
 * Return: the WQE's index in the ring, or -ENOENT if the model took no
 * WQE at one of the indexes on the way.
 */
int irdma_mock_sq_next_wqe(struct irdma_qp *iwqp, u32 idx,
			   struct irdma_hw_sq_wqe *wqe)
{
	struct irdma_mock *mock = irdma_mock_from_rf(iwqp->iwdev->rf);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;

	for (;; idx = (idx + wqe->quanta) % IRDMA_RING_SIZE(uk->sq_ring)) {
		if (!irdma_hw_model_sq_wqe(mock->hw, uk->qp_id, idx, wqe))
			return -ENOENT;
		if (wqe->opcode != IRDMA_HW_SQ_OP_NOP)
			return idx;
	}
}

MODULE_DESCRIPTION("KUnit tests of irdma over a mock E810");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
