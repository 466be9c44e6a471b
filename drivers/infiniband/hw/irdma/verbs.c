// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * irdma verbs: the ib_device operations of Intel's E810 (RoCEv2 and iWARP)
 * and X722 (iWARP) RDMA functions.
 *
 * Everything here translates a verb into the driver's lower layers: user.h
 * and uk.c build the SQ/RQ WQEs and walk the CQs, ctrl.c builds control-path
 * (CQP) commands, pble.c hands out page-list entries, cm.c makes iWARP
 * connections.  The uapi is include/uapi/rdma/irdma-abi.h, shared with
 * rdma-core's irdma provider (and, in legacy mode, with libi40iw).
 *
 * Not here: shared receive queues and the GEN3 hardware generation.  Both
 * need lower-layer support (SRQ contexts, GEN3 CQP opcodes) that this
 * kernel's irdma does not have.
 */
#include "main.h"

/*
 * Publish one page of the BAR (a doorbell or push page) to user space.
 * Returns NULL on failure; *mmap_offset is the key user space mmap()s.
 */
static struct rdma_user_mmap_entry *
irdma_user_mmap_entry_add(struct irdma_ucontext *ucontext, u64 bar_offset,
			  enum irdma_mmap_flag flag, u64 *mmap_offset)
{
	struct irdma_user_mmap_entry *e;

	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e)
		return NULL;
	e->bar_offset = bar_offset;
	e->mmap_flag = flag;
	if (rdma_user_mmap_entry_insert(&ucontext->ibucontext, &e->rdma_entry,
					PAGE_SIZE)) {
		kfree(e);
		return NULL;
	}
	*mmap_offset = rdma_user_mmap_get_offset(&e->rdma_entry);
	return &e->rdma_entry;
}

/*
 * A registration of a user QP's or CQ's rings keeps the page counts user
 * space gave, which create_qp and create_cq hold the queues to: the
 * hardware must not be given a queue that runs past the pinned pages.
 *
 * @refs is 1 for the registration itself and 1 more for each CQ or QP
 * whose rings (or shadow area) the hardware was given in it.  The pages
 * stay pinned and the PBLEs allocated while the hardware may use them:
 * dereg_mr refuses a registration with a queue on it (-EBUSY), and the
 * queue lets go of it with irdma_put_pbl() once the hardware is done.
 */
struct irdma_ring_mr {
	struct irdma_mr iwmr;	/* first: freed as the irdma_mr */
	struct irdma_mem_reg_req req;
	refcount_t refs;
};

static struct irdma_ring_mr *irdma_ring_mr(struct irdma_pbl *iwpbl)
{
	return container_of(iwpbl->iwmr, struct irdma_ring_mr, iwmr);
}

static const struct irdma_mem_reg_req *irdma_ring_req(struct irdma_pbl *iwpbl)
{
	return &irdma_ring_mr(iwpbl)->req;
}

/*
 * Take the user memory registration that was made for the queue at @va off
 * the ucontext's list (user space registers a QP's or CQ's rings with
 * IRDMA_MEMREG_TYPE_QP/CQ before creating it), and hold it for the queue
 * until irdma_put_pbl().  Called under the list's lock, which dereg_mr
 * takes to check that nobody holds the registration.
 */
static struct irdma_pbl *irdma_get_pbl(unsigned long va, struct list_head *pbl_list)
{
	struct irdma_pbl *iwpbl;

	list_for_each_entry(iwpbl, pbl_list, list) {
		if (iwpbl->user_base != va)
			continue;
		list_del(&iwpbl->list);
		iwpbl->on_list = false;
		refcount_inc(&irdma_ring_mr(iwpbl)->refs);
		return iwpbl;
	}
	return NULL;
}

/* The hardware no longer uses the rings in *@pbl: let dereg_mr free them. */
static void irdma_put_pbl(struct irdma_pbl **pbl)
{
	if (!*pbl)
		return;
	refcount_dec(&irdma_ring_mr(*pbl)->refs);
	*pbl = NULL;
}

/* Width of the GEN_2 HCA clock that stamps completions */
#define IRDMA_GEN2_TIMESTAMP_MASK	GENMASK_ULL(16, 0)
#define IRDMA_ROCE_GID_TBL_LEN		32

/*
 * libi40iw's alloc_ucontext response ends at rsvd: a response buffer of
 * exactly this size selects the legacy (GEN_1 only) user ABI.
 */
#define IRDMA_UCTX_LEGACY_RESP_LEN \
	offsetofend(struct irdma_alloc_ucontext_resp, rsvd)

static int irdma_query_device(struct ib_device *dev,
			      struct ib_device_attr *attr,
			      struct ib_udata *udata)
{
	struct irdma_pci_f *rf = to_iwdev(dev)->rf;
	struct irdma_hw_attrs *hw = &rf->sc_dev.hw_attrs;
	struct irdma_uk_attrs *uk = &hw->uk_attrs;

	if (udata->inlen || udata->outlen)
		return -EINVAL;

	memset(attr, 0, sizeof(*attr));
	addrconf_addr_eui48((u8 *)&attr->sys_image_guid,
			    to_iwdev(dev)->netdev->dev_addr);
	attr->fw_ver = (u64)irdma_fw_major_ver(&rf->sc_dev) << 32 |
		       irdma_fw_minor_ver(&rf->sc_dev);
	attr->device_cap_flags = IB_DEVICE_MEM_WINDOW |
				 IB_DEVICE_MEM_MGT_EXTENSIONS;
	attr->kernel_cap_flags = IBK_LOCAL_DMA_LKEY;
	attr->vendor_id = rf->pcidev->vendor;
	attr->vendor_part_id = rf->pcidev->device;
	attr->hw_ver = rf->pcidev->revision;
	attr->page_size_cap = hw->page_size_cap;
	attr->max_mr_size = hw->max_mr_size;
	attr->max_qp_wr = hw->max_qp_wr;
	attr->max_send_sge = uk->max_hw_wq_frags;
	attr->max_recv_sge = uk->max_hw_wq_frags;
	attr->max_sge_rd = uk->max_hw_read_sges;
	attr->max_qp_rd_atom = hw->max_hw_ird;
	attr->max_qp_init_rd_atom = hw->max_hw_ord;
	attr->max_cqe = rf->max_cqe - 1;

	/* object counts: what is still free, not the device totals */
	attr->max_qp = rf->max_qp - rf->used_qps;
	attr->max_cq = rf->max_cq - rf->used_cqs;
	attr->max_mr = rf->max_mr - rf->used_mrs;
	attr->max_mw = attr->max_mr;
	attr->max_pd = rf->max_pd - rf->used_pds;
	attr->max_ah = rf->max_ah;

	attr->max_mcast_grp = rf->max_mcg;
	attr->max_mcast_qp_attach = IRDMA_MAX_MGS_PER_CTX;
	attr->max_total_mcast_qp_attach = rf->max_qp * IRDMA_MAX_MGS_PER_CTX;
	attr->max_fast_reg_page_list_len = IRDMA_MAX_PAGES_PER_FMR;

	if (rdma_protocol_roce(dev, 1)) {
		attr->device_cap_flags |= IB_DEVICE_RC_RNR_NAK_GEN;
		attr->max_pkeys = IRDMA_PKEY_TBL_SZ;
	}
	if (uk->hw_rev >= IRDMA_GEN_2)
		attr->timestamp_mask = IRDMA_GEN2_TIMESTAMP_MASK;
	return 0;
}

/* The core has zeroed @attr (and, for iWARP, filled in some of it). */
static int irdma_query_port(struct ib_device *ibdev, u32 port_num,
			    struct ib_port_attr *attr)
{
	struct net_device *netdev = to_iwdev(ibdev)->netdev;
	struct irdma_hw_attrs *hw = &to_iwdev(ibdev)->rf->sc_dev.hw_attrs;

	attr->max_mtu = IB_MTU_4096;
	attr->active_mtu = ib_mtu_int_to_enum(netdev->mtu);
	attr->lid = 1;
	if (netif_running(netdev) && netif_carrier_ok(netdev)) {
		attr->state = IB_PORT_ACTIVE;
		attr->phys_state = IB_PORT_PHYS_STATE_LINK_UP;
	} else {
		attr->state = IB_PORT_DOWN;
		attr->phys_state = IB_PORT_PHYS_STATE_DISABLED;
	}
	ib_get_eth_speed(ibdev, port_num, &attr->active_speed,
			 &attr->active_width);

	if (rdma_protocol_roce(ibdev, 1)) {
		attr->gid_tbl_len = IRDMA_ROCE_GID_TBL_LEN;
		attr->ip_gids = true;
		attr->pkey_tbl_len = IRDMA_PKEY_TBL_SZ;
	} else {
		/* iWARP: the MAC based GID of irdma_query_gid() */
		attr->gid_tbl_len = 1;
	}
	attr->port_cap_flags |= IB_PORT_CM_SUP | IB_PORT_REINIT_SUP;
	attr->max_msg_sz = hw->max_hw_outbound_msg_size;
	return 0;
}

/*
 * Nothing to do, but having the op lets the device go away under open user
 * contexts: everything mapped went through rdma_user_mmap_io(), whose
 * mappings the core zaps itself.
 */
static void irdma_disassociate_ucontext(struct ib_ucontext *ibcontext)
{
}

/*
 * The doorbell slot of hw_regs[] holds the doorbell page's offset in BAR 0
 * rather than a mapped address (see i40iw_init_hw(), icrdma_init_hw()).
 */
static u64 irdma_uctx_db_bar_offset(struct irdma_pci_f *rf)
{
	return (uintptr_t)rf->sc_dev.hw_regs[IRDMA_DB_ADDR_OFFSET];
}

static unsigned long irdma_uctx_bar_pfn(struct irdma_pci_f *rf, u64 offset)
{
	return (pci_resource_start(rf->pcidev, 0) + offset) >> PAGE_SHIFT;
}

/*
 * libi40iw has no mmap keys: it maps the doorbell page at offset 0.
 * rdma_user_mmap_io() insists on a single page.
 */
static int irdma_mmap_db_legacy(struct ib_ucontext *context,
				struct vm_area_struct *vma)
{
	struct irdma_pci_f *rf = to_ucontext(context)->iwdev->rf;
	unsigned long pfn;
	pgprot_t prot;

	if (vma->vm_pgoff)
		return -EINVAL;

	pfn = irdma_uctx_bar_pfn(rf, irdma_uctx_db_bar_offset(rf));
	prot = pgprot_noncached(vma->vm_page_prot);
	return rdma_user_mmap_io(context, vma, pfn, PAGE_SIZE, prot, NULL);
}

/* A doorbell or push page, published by irdma_user_mmap_entry_add() */
static int irdma_mmap_bar_page(struct ib_ucontext *context,
			       struct vm_area_struct *vma,
			       struct rdma_user_mmap_entry *rentry)
{
	struct irdma_user_mmap_entry *entry = to_irdma_mmap_entry(rentry);
	struct irdma_pci_f *rf = to_ucontext(context)->iwdev->rf;
	pgprot_t prot;
	int ret;

	switch (entry->mmap_flag) {
	case IRDMA_MMAP_IO_NC:
		prot = pgprot_noncached(vma->vm_page_prot);
		break;
	case IRDMA_MMAP_IO_WC:
		prot = pgprot_writecombine(vma->vm_page_prot);
		break;
	default:
		return -EINVAL;
	}

	ret = rdma_user_mmap_io(context, vma,
				irdma_uctx_bar_pfn(rf, entry->bar_offset),
				PAGE_SIZE, prot, rentry);
	if (ret)
		ibdev_dbg(context->device,
			  "VERBS: mmap of BAR offset %#llx failed %d\n",
			  entry->bar_offset, ret);
	return ret;
}

static int irdma_mmap(struct ib_ucontext *ibuctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rentry;
	int ret;

	if (to_ucontext(ibuctx)->legacy_mode)
		return irdma_mmap_db_legacy(ibuctx, vma);

	rentry = rdma_user_mmap_entry_get(ibuctx, vma);
	if (!rentry) {
		ibdev_dbg(ibuctx->device,
			  "VERBS: no mmap entry at pgoff %#lx\n", vma->vm_pgoff);
		return -EINVAL;
	}

	ret = irdma_mmap_bar_page(ibuctx, vma, rentry);
	rdma_user_mmap_entry_put(rentry);
	return ret;
}

static void irdma_mmap_free(struct rdma_user_mmap_entry *entry)
{
	kfree(to_irdma_mmap_entry(entry));
}

static int irdma_uctx_reply_legacy(struct irdma_ucontext *uctx,
				   struct ib_udata *udata)
{
	struct irdma_pci_f *rf = uctx->iwdev->rf;
	struct irdma_hw_attrs *hw = &rf->sc_dev.hw_attrs;
	struct irdma_alloc_ucontext_resp resp = {};

	if (hw->uk_attrs.hw_rev != IRDMA_GEN_1)
		return -EOPNOTSUPP;

	uctx->legacy_mode = true;
	resp.max_pds = hw->max_hw_pds;
	resp.max_qps = rf->max_qp;
	/* one area holds both WQs, hence twice the per-queue maximum */
	resp.wq_size = hw->max_qp_wr * 2;
	resp.kernel_ver = uctx->abi_ver;
	if (ib_copy_to_udata(udata, &resp, IRDMA_UCTX_LEGACY_RESP_LEN))
		return -EFAULT;
	return 0;
}

static int irdma_uctx_reply(struct irdma_ucontext *uctx,
			    struct ib_udata *udata)
{
	struct irdma_pci_f *rf = uctx->iwdev->rf;
	struct irdma_uk_attrs *uk = &rf->sc_dev.hw_attrs.uk_attrs;
	struct irdma_alloc_ucontext_resp resp = {
		.kernel_ver = IRDMA_ABI_VER,
		.feature_flags = uk->feature_flags,
		.max_hw_wq_frags = uk->max_hw_wq_frags,
		.max_hw_read_sges = uk->max_hw_read_sges,
		.max_hw_inline = uk->max_hw_inline,
		.max_hw_rq_quanta = uk->max_hw_rq_quanta,
		.max_hw_wq_quanta = uk->max_hw_wq_quanta,
		.min_hw_cq_size = uk->min_hw_cq_size,
		.max_hw_cq_size = uk->max_hw_cq_size,
		.max_hw_sq_chunk = uk->max_hw_sq_chunk,
		.hw_rev = uk->hw_rev,
		.comp_mask = IRDMA_ALLOC_UCTX_USE_RAW_ATTR |
			     IRDMA_ALLOC_UCTX_MIN_HW_WQ_SIZE,
		.min_hw_wq_size = uk->min_hw_wq_size,
	};

	uctx->db_mmap_entry =
		irdma_user_mmap_entry_add(uctx, irdma_uctx_db_bar_offset(rf),
					  IRDMA_MMAP_IO_NC, &resp.db_mmap_key);
	if (!uctx->db_mmap_entry)
		return -ENOMEM;

	if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
		rdma_user_mmap_entry_remove(uctx->db_mmap_entry);
		return -EFAULT;
	}
	return 0;
}

static int irdma_alloc_ucontext(struct ib_ucontext *ibuctx,
				struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(ibuctx->device);
	struct irdma_ucontext *uctx = to_ucontext(ibuctx);
	struct irdma_alloc_ucontext_req ureq = {};

	if (udata->inlen < offsetofend(struct irdma_alloc_ucontext_req, rsvd8) ||
	    udata->outlen < IRDMA_UCTX_LEGACY_RESP_LEN)
		return -EINVAL;

	if (ib_copy_from_udata(&ureq, udata, min(sizeof(ureq), udata->inlen)))
		return -EINVAL;

	/* ABI 4 is libi40iw's, 5 rdma-core irdma's */
	if (ureq.userspace_ver < 4 || ureq.userspace_ver > IRDMA_ABI_VER) {
		ibdev_err(&iwdev->ibdev,
			  "Unsupported user provider ABI version %u, need 4 to %u\n",
			  ureq.userspace_ver, IRDMA_ABI_VER);
		return -EINVAL;
	}

	uctx->iwdev = iwdev;
	uctx->abi_ver = ureq.userspace_ver;
	uctx->use_raw_attrs =
		!!(ureq.comp_mask & IRDMA_ALLOC_UCTX_USE_RAW_ATTR);
	INIT_LIST_HEAD(&uctx->cq_reg_mem_list);
	spin_lock_init(&uctx->cq_reg_mem_list_lock);
	INIT_LIST_HEAD(&uctx->qp_reg_mem_list);
	spin_lock_init(&uctx->qp_reg_mem_list_lock);

	if (udata->outlen == IRDMA_UCTX_LEGACY_RESP_LEN)
		return irdma_uctx_reply_legacy(uctx, udata);
	return irdma_uctx_reply(uctx, udata);
}

static void irdma_dealloc_ucontext(struct ib_ucontext *ibuctx)
{
	/* NULL in legacy mode, which the remove tolerates */
	rdma_user_mmap_entry_remove(to_ucontext(ibuctx)->db_mmap_entry);
}

static int irdma_alloc_pd(struct ib_pd *ibpd, struct ib_udata *udata)
{
	struct irdma_pci_f *rf = to_iwdev(ibpd->device)->rf;
	struct irdma_sc_pd *sc_pd = &to_iwpd(ibpd)->sc_pd;
	struct irdma_alloc_pd_resp resp = {};
	int abi_ver = IRDMA_ABI_VER;
	u32 pd_id;
	int ret;

	if (udata &&
	    udata->outlen < offsetofend(struct irdma_alloc_pd_resp, rsvd))
		return -EINVAL;

	ret = irdma_alloc_rsrc(rf, rf->allocated_pds, rf->max_pd, &pd_id,
			       &rf->next_pd);
	if (ret)
		return ret;

	/* GEN_1 sizes a user QP's queues by the ABI of the PD's context */
	if (udata)
		abi_ver = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
						    ibucontext)->abi_ver;
	irdma_sc_pd_init(&rf->sc_dev, sc_pd, pd_id, abi_ver);
	if (!udata)
		return 0;

	resp.pd_id = pd_id;
	if (ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen))) {
		/* user space never learnt of the PD: give its number back */
		irdma_free_rsrc(rf, rf->allocated_pds, resp.pd_id);
		return -EFAULT;
	}
	return 0;
}

static int irdma_dealloc_pd(struct ib_pd *pd, struct ib_udata *udata)
{
	struct irdma_pci_f *rf = to_iwdev(pd->device)->rf;

	irdma_free_rsrc(rf, rf->allocated_pds, to_iwpd(pd)->sc_pd.pd_id);
	return 0;
}

/*
 * Shortest QP request and response layouts still accepted from user space.
 * Create: libi40iw's.  Modify: libi40iw passes nothing at all, so a zero
 * length is also fine there.
 */
#define IRDMA_QP_CREATE_REQ_MIN \
	offsetofend(struct irdma_create_qp_req, user_compl_ctx)
#define IRDMA_QP_CREATE_RESP_MIN \
	offsetofend(struct irdma_create_qp_resp, rsvd)
#define IRDMA_QP_MODIFY_REQ_MIN \
	offsetofend(struct irdma_modify_qp_req, rq_flush)
#define IRDMA_QP_MODIFY_RESP_MIN \
	offsetofend(struct irdma_modify_qp_resp, push_valid)

/*
 * What modify_qp does once the requested transition has been checked under
 * iwqp->lock.  The state helpers return one of these or a negative errno.
 */
enum irdma_qp_step {
	IRDMA_QP_STEP_NONE,	/* no hardware transition needed */
	IRDMA_QP_STEP_MODIFY,	/* CQP modify to info->next_iwarp_state */
	IRDMA_QP_STEP_DONE,	/* request already satisfied: return 0 */
	IRDMA_QP_STEP_REFLUSH,	/* already in error: just flush again */
};

static bool irdma_qp_is_roce(const struct irdma_qp *iwqp)
{
	return rdma_protocol_roce(iwqp->ibqp.device, 1);
}

static bool irdma_qp_has_push_page(const struct irdma_qp *iwqp)
{
	return iwqp->sc_qp.push_idx != IRDMA_INVALID_PUSH_PAGE_INDEX;
}

/*
 * Ask the CQP for a push page.  Running out of them is not an error: the QP
 * then keeps posting through the doorbell only.
 */
static void irdma_qp_alloc_push_page(struct irdma_pci_f *rf,
				     struct irdma_qp *iwqp)
{
	struct irdma_sc_qp *sc_qp = &iwqp->sc_qp;
	struct irdma_cqp_manage_push_page_info *pp;
	struct irdma_cqp_request *req;
	struct cqp_cmds_info *cmd;
	u32 page;

	req = irdma_alloc_and_get_cqp_request(&rf->cqp, true);
	if (!req)
		return;

	cmd = &req->info;
	cmd->cqp_cmd = IRDMA_OP_MANAGE_PUSH_PAGE;
	cmd->post_sq = 1;
	cmd->in.u.manage_push_page.cqp = &rf->cqp.sc_cqp;
	cmd->in.u.manage_push_page.scratch = (uintptr_t)req;
	/*
	 * Pooled requests keep their previous payload.  Index, free flag and
	 * type all zero mean "allocate a regular page".
	 */
	pp = &cmd->in.u.manage_push_page.info;
	memset(pp, 0, sizeof(*pp));
	pp->qs_handle = sc_qp->vsi->qos[sc_qp->user_pri].qs_handle;

	if (!irdma_handle_cqp_op(rf, req)) {
		page = req->compl_info.op_ret_val;
		if (page < rf->sc_dev.hw_attrs.max_hw_device_pages) {
			sc_qp->push_idx = page;
			sc_qp->push_offset = 0;
		}
	}
	irdma_put_cqp_request(&rf->cqp, req);
}

/* Drop the CQEs @iwqp still has in @iwcq before the QP goes away. */
static void irdma_qp_clean_cq(struct irdma_qp *iwqp, struct irdma_cq *iwcq)
{
	unsigned long irqflags;

	spin_lock_irqsave(&iwcq->lock, irqflags);
	irdma_uk_clean_cq(&iwqp->sc_qp.qp_uk, &iwcq->sc_cq.cq_uk);
	spin_unlock_irqrestore(&iwcq->lock, irqflags);
}

/*
 * Withdraw the push page keys from user space.  Mappings already made stay
 * valid until unmapped: the entries are reference counted.
 */
static void irdma_qp_unmap_push_page(struct irdma_qp *iwqp)
{
	struct rdma_user_mmap_entry *wqe_page = iwqp->push_wqe_mmap_entry;
	struct rdma_user_mmap_entry *db_page = iwqp->push_db_mmap_entry;

	iwqp->push_wqe_mmap_entry = NULL;
	iwqp->push_db_mmap_entry = NULL;
	rdma_user_mmap_entry_remove(db_page);
	rdma_user_mmap_entry_remove(wqe_page);
}

/*
 * Publish the QP's push page pair: the write-combined WQE page and the
 * uncached doorbell page right after it.  Push pages live past the doorbell
 * page and the PF's reserved area of the BAR.  On failure push_valid stays 0
 * and user space goes on without push mode.
 */
static void irdma_qp_mmap_push_page(struct irdma_qp *iwqp,
				    struct irdma_ucontext *uctx,
				    struct irdma_modify_qp_resp *resp)
{
	struct irdma_sc_dev *dev = &iwqp->iwdev->rf->sc_dev;
	u64 wqe_page;

	wqe_page = (uintptr_t)dev->hw_regs[IRDMA_DB_ADDR_OFFSET] +
		   IRDMA_HW_PAGE_SIZE + IRDMA_PF_BAR_RSVD +
		   (u64)iwqp->sc_qp.push_idx * IRDMA_HW_PAGE_SIZE;

	iwqp->push_wqe_mmap_entry =
		irdma_user_mmap_entry_add(uctx, wqe_page, IRDMA_MMAP_IO_WC,
					  &resp->push_wqe_mmap_key);
	if (!iwqp->push_wqe_mmap_entry)
		return;

	iwqp->push_db_mmap_entry =
		irdma_user_mmap_entry_add(uctx, wqe_page + IRDMA_HW_PAGE_SIZE,
					  IRDMA_MMAP_IO_NC,
					  &resp->push_db_mmap_key);
	if (!iwqp->push_db_mmap_entry) {
		irdma_qp_unmap_push_page(iwqp);
		return;
	}

	resp->push_valid = 1;
	resp->push_offset = iwqp->sc_qp.push_offset;
}

static int irdma_destroy_qp(struct ib_qp *qp, struct ib_udata *udata)
{
	struct irdma_pci_f *rf = to_iwdev(qp->device)->rf;
	struct irdma_qp *iwqp = to_iwqp(qp);
	struct irdma_sc_qp *sc_qp = &iwqp->sc_qp;

	sc_qp->qp_uk.destroy_pending = true;
	if (iwqp->iwarp_state == IRDMA_QP_STATE_RTS)
		irdma_modify_qp_to_err(sc_qp);

	/* user space owns its CQ rings; only kernel QPs have a flush worker */
	if (!iwqp->user_mode) {
		/* disable, not cancel: a late flush must not requeue it */
		disable_delayed_work_sync(&iwqp->dwork_flush);
		if (iwqp->iwscq) {
			irdma_qp_clean_cq(iwqp, iwqp->iwscq);
			if (iwqp->iwrcq != iwqp->iwscq)
				irdma_qp_clean_cq(iwqp, iwqp->iwrcq);
		}
	}

	/*
	 * Drop the reference taken at creation and wait for the ones the
	 * CM, iw_cm and event handlers still hold: the QP is freed when
	 * this returns, and each of them puts its reference on it.
	 */
	irdma_qp_rem_ref(qp);
	wait_for_completion(&iwqp->free_qp);

	irdma_free_lsmm_rsrc(iwqp);
	irdma_cqp_qp_destroy_cmd(&rf->sc_dev, sc_qp);
	/* the hardware is done with a user QP's rings: they may be freed */
	irdma_put_pbl(&iwqp->iwpbl);
	irdma_qp_unmap_push_page(iwqp);
	irdma_free_qp_rsrc(iwqp);

	return 0;
}

/* Point the QP at the rings user space registered as IRDMA_MEMREG_TYPE_QP. */
static void irdma_qp_use_user_rings(struct irdma_qp *iwqp,
				    struct irdma_qp_init_info *info)
{
	struct irdma_pbl *iwpbl = iwqp->iwpbl;
	struct irdma_qp_mr *rings = &iwpbl->qp_mr;

	iwqp->page = rings->sq_page;
	info->shadow_area_pa = rings->shadow;
	/* rings spanning several pages are described by a PBLE index */
	info->virtual_map = iwpbl->pbl_allocated;
	if (iwpbl->pbl_allocated) {
		info->sq_pa = rings->sq_pbl.idx;
		info->rq_pa = rings->rq_pbl.idx;
	} else {
		info->sq_pa = rings->sq_pbl.addr;
		info->rq_pa = rings->rq_pbl.addr;
	}
}

/*
 * Turn the requested WR counts into ring depths and shifts, and report back
 * how many WRs fit once the reserved slots are taken out.
 */
static int irdma_qp_size_rings(struct irdma_qp *iwqp,
			       struct irdma_qp_uk_init_info *uk)
{
	int err;

	err = irdma_uk_calc_depth_shift_sq(uk, &uk->sq_depth, &uk->sq_shift);
	if (err)
		return err;

	err = irdma_uk_calc_depth_shift_rq(uk, &uk->rq_depth, &uk->rq_shift);
	if (err)
		return err;

	uk->sq_size = uk->sq_depth >> uk->sq_shift;
	uk->rq_size = uk->rq_depth >> uk->rq_shift;
	iwqp->max_send_wr = (uk->sq_depth - IRDMA_SQ_RSVD) >> uk->sq_shift;
	iwqp->max_recv_wr = (uk->rq_depth - IRDMA_RQ_RSVD) >> uk->rq_shift;

	return 0;
}

static int irdma_qp_setup_user(struct irdma_qp *iwqp, struct ib_udata *udata,
			       const struct ib_qp_cap *cap,
			       struct irdma_qp_init_info *info)
{
	struct irdma_qp_uk_init_info *uk = &info->qp_uk_init_info;
	struct irdma_create_qp_req ureq = {};
	struct irdma_ucontext *uctx;
	unsigned long irqflags;
	int err;

	err = ib_copy_from_udata(&ureq, udata, min(sizeof(ureq), udata->inlen));
	if (err) {
		ibdev_dbg(&iwqp->iwdev->ibdev,
			  "VERBS: create_qp request unreadable\n");
		return err;
	}

	uctx = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					 ibucontext);
	iwqp->ctx_info.qp_compl_ctx = ureq.user_compl_ctx;
	iwqp->user_mode = 1;
	uk->legacy_mode = uctx->legacy_mode;

	spin_lock_irqsave(&uctx->qp_reg_mem_list_lock, irqflags);
	iwqp->iwpbl = irdma_get_pbl((unsigned long)ureq.user_wqe_bufs,
				    &uctx->qp_reg_mem_list);
	spin_unlock_irqrestore(&uctx->qp_reg_mem_list_lock, irqflags);
	if (!iwqp->iwpbl) {
		ibdev_dbg(&iwqp->iwdev->ibdev,
			  "VERBS: QP rings not registered\n");
		return -ENODATA;
	}

	if (uctx->use_raw_attrs) {
		err = irdma_qp_size_rings(iwqp, uk);
		if (err)
			return err;
	} else {
		/*
		 * Older providers pass the ring depths, in quanta, as
		 * max_send_wr/max_recv_wr; create_qp already copied them to
		 * sq_size/rq_size.  The real WR limits cannot be derived.
		 */
		iwqp->max_send_wr = cap->max_send_wr;
		iwqp->max_recv_wr = cap->max_recv_wr;
		irdma_uk_calc_shift_wq(uk, &uk->sq_shift, &uk->rq_shift);
	}

	irdma_qp_use_user_rings(iwqp, info);

	return 0;
}

/* Do the queues irdma_sc_qp_init() sized fit the pages of their rings? */
static bool irdma_qp_user_rings_fit(struct irdma_qp *iwqp)
{
	const struct irdma_mem_reg_req *req = irdma_ring_req(iwqp->iwpbl);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	u64 sq = (u64)uk->sq_ring.size * IRDMA_QP_WQE_MIN_SIZE;
	u64 rq = (u64)uk->rq_size * uk->rq_wqe_size_multiplier *
		 IRDMA_QP_WQE_MIN_SIZE;

	return sq <= (u64)req->sq_pages * SZ_4K &&
	       rq <= (u64)req->rq_pages * SZ_4K;
}

static int irdma_qp_setup_kernel(struct irdma_qp *iwqp, struct ib_qp_cap *cap,
				 struct irdma_qp_init_info *info)
{
	struct irdma_qp_uk_init_info *uk = &info->qp_uk_init_info;
	struct irdma_qp_kmode *kqp = &iwqp->kqp;
	struct irdma_dma_mem *mem = &kqp->dma_mem;
	u32 sq_bytes, rq_bytes;
	int err;

	err = irdma_qp_size_rings(iwqp, uk);
	if (err)
		return err;

	kqp->sq_wrid_mem = kcalloc(uk->sq_depth, sizeof(*kqp->sq_wrid_mem),
				   GFP_KERNEL);
	if (!kqp->sq_wrid_mem)
		return -ENOMEM;

	kqp->rq_wrid_mem = kcalloc(uk->rq_depth, sizeof(*kqp->rq_wrid_mem),
				   GFP_KERNEL);
	if (!kqp->rq_wrid_mem)
		goto free_sq_wrid;

	/* SQ, RQ and the shadow area (in u64 words) share one buffer */
	sq_bytes = uk->sq_depth * IRDMA_QP_WQE_MIN_SIZE;
	rq_bytes = uk->rq_depth * IRDMA_QP_WQE_MIN_SIZE;
	mem->size = ALIGN(sq_bytes + rq_bytes + (IRDMA_SHADOW_AREA_SIZE << 3),
			  256);
	mem->va = dma_alloc_coherent(iwqp->iwdev->rf->hw.device, mem->size,
				     &mem->pa, GFP_KERNEL);
	if (!mem->va)
		goto free_rq_wrid;

	uk->sq_wrtrk_array = kqp->sq_wrid_mem;
	uk->rq_wrid_array = kqp->rq_wrid_mem;
	uk->sq = mem->va;
	uk->rq = &uk->sq[uk->sq_depth];
	uk->shadow_area = uk->rq[uk->rq_depth].elem;
	info->sq_pa = mem->pa;
	info->rq_pa = mem->pa + sq_bytes;
	info->shadow_area_pa = info->rq_pa + rq_bytes;

	cap->max_send_wr = iwqp->max_send_wr;
	cap->max_recv_wr = iwqp->max_recv_wr;

	return 0;

free_rq_wrid:
	kfree(kqp->rq_wrid_mem);
	kqp->rq_wrid_mem = NULL;
free_sq_wrid:
	kfree(kqp->sq_wrid_mem);
	kqp->sq_wrid_mem = NULL;
	return -ENOMEM;
}

/* Create the QP in hardware; it starts IDLE and waits for a modify. */
static int irdma_qp_hw_create(struct irdma_pci_f *rf, struct irdma_qp *iwqp)
{
	struct irdma_create_qp_info *create;
	struct irdma_cqp_request *req;
	struct cqp_cmds_info *cmd;
	int err;

	req = irdma_alloc_and_get_cqp_request(&rf->cqp, true);
	if (!req)
		return -ENOMEM;

	cmd = &req->info;
	cmd->cqp_cmd = IRDMA_OP_QP_CREATE;
	cmd->post_sq = 1;
	cmd->in.u.qp_create.qp = &iwqp->sc_qp;
	cmd->in.u.qp_create.scratch = (uintptr_t)req;
	create = &cmd->in.u.qp_create.info;
	memset(create, 0, sizeof(*create));
	create->mac_valid = true;
	create->cq_num_valid = true;
	create->next_iwarp_state = IRDMA_QP_STATE_IDLE;

	err = irdma_handle_cqp_op(rf, req);
	irdma_put_cqp_request(&rf->cqp, req);

	return err;
}

/* Refresh the host context memory the hardware reads QP settings from. */
static void irdma_qp_write_ctx(struct irdma_qp *iwqp)
{
	struct irdma_qp_host_ctx_info *ctx = &iwqp->ctx_info;
	__le64 *hw_ctx = iwqp->host_ctx.va;

	ctx->send_cq_num = iwqp->iwscq->sc_cq.cq_uk.cq_id;
	ctx->rcv_cq_num = iwqp->iwrcq->sc_cq.cq_uk.cq_id;
	if (irdma_qp_is_roce(iwqp))
		irdma_sc_qp_setctx_roce(&iwqp->sc_qp, hw_ctx, ctx);
	else
		irdma_sc_qp_setctx(&iwqp->sc_qp, hw_ctx, ctx);
}

/* Initial RoCEv2 context; path attributes come with modify_qp. */
static void irdma_qp_init_roce_ctx(struct irdma_device *iwdev,
				   struct irdma_qp *iwqp)
{
	struct irdma_hw_attrs *hw = &iwdev->rf->sc_dev.hw_attrs;
	struct irdma_roce_offload_info *roce = &iwqp->roce_info;
	struct irdma_udp_offload_info *udp = &iwqp->udp_info;

	/* largest IB MTU the netdev carries */
	udp->snd_mss = ib_mtu_enum_to_int(ib_mtu_int_to_enum(iwdev->vsi.mtu));
	udp->cwnd = iwdev->roce_cwnd;
	udp->rexmit_thresh = 2;
	udp->rnr_nak_thresh = 2;
	/* placeholder until a GRH flow label picks the real source port */
	udp->src_port = 0xc000;
	udp->dst_port = ROCE_V2_UDP_DPORT;

	ether_addr_copy(roce->mac_addr, iwdev->netdev->dev_addr);
	roce->rd_en = true;
	roce->wr_rdresp_en = true;
	roce->bind_en = true;
	roce->rtomin = 5;
	roce->ack_credits = iwdev->roce_ackcreds;
	roce->ird_size = hw->max_hw_ird;
	roce->ord_size = hw->max_hw_ord;
	/* privileged operations are for kernel consumers only */
	if (!iwqp->user_mode) {
		roce->priv_mode_en = true;
		roce->fast_reg_en = true;
		roce->udprivcq_en = true;
	}

	iwqp->ctx_info.roce_info = roce;
	iwqp->ctx_info.udp_info = udp;
	irdma_qp_write_ctx(iwqp);
}

/* Initial iWARP context; the TCP part is added when the CM connects. */
static void irdma_qp_init_iw_ctx(struct irdma_device *iwdev,
				 struct irdma_qp *iwqp)
{
	struct irdma_iwarp_offload_info *iw = &iwqp->iwarp_info;
	u8 hw_rev = iwdev->rf->sc_dev.hw_attrs.uk_attrs.hw_rev;

	ether_addr_copy(iw->mac_addr, iwdev->netdev->dev_addr);
	iw->rd_en = true;
	iw->wr_rdresp_en = true;
	iw->bind_en = true;
	iw->ecn_en = true;
	iw->rtomin = 5;
	iw->ib_rd_en = hw_rev >= IRDMA_GEN_2;
	/* privileged operations are for kernel consumers only */
	if (!iwqp->user_mode) {
		iw->priv_mode_en = true;
		iw->fast_reg_en = true;
	}
	iw->ddp_ver = 1;
	iw->rdmap_ver = 1;

	/* the iWARP part is written now; modify_qp sets the flag again */
	iwqp->ctx_info.iwarp_info = iw;
	iwqp->ctx_info.iwarp_info_valid = true;
	irdma_qp_write_ctx(iwqp);
	iwqp->ctx_info.iwarp_info_valid = false;
}

static int irdma_qp_check_init_attr(struct irdma_device *iwdev,
				    const struct ib_qp_init_attr *init_attr)
{
	struct irdma_uk_attrs *uk = &iwdev->rf->sc_dev.hw_attrs.uk_attrs;
	const struct ib_qp_cap *cap = &init_attr->cap;

	if (init_attr->create_flags)
		return -EOPNOTSUPP;

	if (cap->max_inline_data > uk->max_hw_inline ||
	    cap->max_send_sge > uk->max_hw_wq_frags ||
	    cap->max_recv_sge > uk->max_hw_wq_frags ||
	    cap->max_send_wr > uk->max_hw_wq_quanta ||
	    cap->max_recv_wr > uk->max_hw_rq_quanta)
		return -EINVAL;

	if (init_attr->qp_type == IB_QPT_RC)
		return 0;

	/* datagram QPs exist on RoCE only; iWARP is connected mode only */
	if (rdma_protocol_roce(&iwdev->ibdev, 1) &&
	    (init_attr->qp_type == IB_QPT_UD ||
	     init_attr->qp_type == IB_QPT_GSI))
		return 0;

	return -EOPNOTSUPP;
}

/* After a flush, kernel QPs complete their outstanding WRs in software. */
static void irdma_qp_flush_worker(struct work_struct *work)
{
	struct irdma_qp *iwqp = container_of(to_delayed_work(work),
					     struct irdma_qp, dwork_flush);

	irdma_generate_flush_completions(iwqp);
}

/* Q2 and the QP's host context share one DMA buffer, context last. */
static int irdma_qp_alloc_q2_ctx(struct irdma_qp *iwqp,
				 struct irdma_qp_init_info *info)
{
	struct irdma_dma_mem *mem = &iwqp->q2_ctx_mem;
	struct irdma_dma_mem *ctx = &iwqp->host_ctx;

	mem->size = ALIGN(IRDMA_Q2_BUF_SIZE + IRDMA_QP_CTX_SIZE, 256);
	mem->va = dma_alloc_coherent(iwqp->iwdev->rf->hw.device, mem->size,
				     &mem->pa, GFP_KERNEL);
	if (!mem->va)
		return -ENOMEM;

	ctx->va = mem->va + IRDMA_Q2_BUF_SIZE;
	ctx->pa = mem->pa + IRDMA_Q2_BUF_SIZE;
	ctx->size = IRDMA_QP_CTX_SIZE;
	info->q2 = mem->va;
	info->q2_pa = mem->pa;
	info->host_ctx = ctx->va;
	info->host_ctx_pa = ctx->pa;

	return 0;
}

/* The part of irdma_sc_qp_init()'s input that follows from the verbs call. */
static void irdma_qp_fill_init_info(struct irdma_device *iwdev,
				    struct irdma_qp *iwqp,
				    const struct ib_qp_init_attr *init_attr,
				    bool user, struct irdma_qp_init_info *info)
{
	struct irdma_qp_uk_init_info *uk = &info->qp_uk_init_info;
	const struct ib_qp_cap *cap = &init_attr->cap;

	info->vsi = &iwdev->vsi;
	info->pd = &iwqp->iwpd->sc_pd;
	uk->uk_attrs = &iwdev->rf->sc_dev.hw_attrs.uk_attrs;
	uk->qp_id = iwqp->ibqp.qp_num;
	uk->abi_ver = user ? iwqp->iwpd->sc_pd.abi_ver : IRDMA_ABI_VER;
	uk->sq_size = cap->max_send_wr;
	uk->rq_size = cap->max_recv_wr;
	uk->max_sq_frag_cnt = cap->max_send_sge;
	uk->max_rq_frag_cnt = cap->max_recv_sge;
	uk->max_inline_data = cap->max_inline_data;

	if (irdma_qp_is_roce(iwqp)) {
		uk->qp_caps = IRDMA_SEND_WITH_IMM | IRDMA_ROCE;
		if (init_attr->qp_type == IB_QPT_RC) {
			uk->type = IRDMA_QP_TYPE_ROCE_RC;
			uk->qp_caps |= IRDMA_WRITE_WITH_IMM;
		} else {
			uk->type = IRDMA_QP_TYPE_ROCE_UD;
		}
	} else {
		/* the first SQ WQEs carry the MPA connection setup */
		uk->first_sq_wq = 1;
		uk->type = IRDMA_QP_TYPE_IWARP;
		uk->qp_caps = IRDMA_WRITE_WITH_IMM;
	}

	if (uk->uk_attrs->hw_rev > IRDMA_GEN_1)
		uk->qp_caps |= IRDMA_PUSH_MODE;
}

static int irdma_qp_create_uresp(struct irdma_qp *iwqp, struct ib_udata *udata,
				 const struct irdma_qp_uk_init_info *uk)
{
	struct irdma_create_qp_resp resp = {};
	int err;

	/* libi40iw's shorter response: LSMM always, and no push page */
	if (udata->outlen < sizeof(resp)) {
		resp.lsmm = 1;
		resp.push_idx = IRDMA_INVALID_PUSH_PAGE_INDEX_GEN_1;
	} else if (!irdma_qp_is_roce(iwqp)) {
		resp.lsmm = 1;
	}
	resp.qp_id = iwqp->ibqp.qp_num;
	resp.actual_sq_size = uk->sq_size;
	resp.actual_rq_size = uk->rq_size;
	resp.qp_caps = iwqp->sc_qp.qp_uk.qp_caps;

	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err)
		ibdev_dbg(&iwqp->iwdev->ibdev,
			  "VERBS: create_qp response not copied\n");

	return err;
}

static int irdma_qp_setup_rings(struct irdma_qp *iwqp, struct ib_udata *udata,
				struct ib_qp_init_attr *init_attr,
				struct irdma_qp_init_info *info)
{
	int err;

	/* user space replaces this with its own completion context */
	iwqp->ctx_info.qp_compl_ctx = (uintptr_t)&iwqp->sc_qp;
	if (udata) {
		err = irdma_qp_setup_user(iwqp, udata, &init_attr->cap, info);
	} else {
		INIT_DELAYED_WORK(&iwqp->dwork_flush, irdma_qp_flush_worker);
		err = irdma_qp_setup_kernel(iwqp, &init_attr->cap, info);
	}
	if (err)
		ibdev_dbg(&iwqp->iwdev->ibdev, "VERBS: QP ring setup failed\n");

	return err;
}

/* The QP exists in hardware: make it usable and visible to the AEQ handler. */
static void irdma_qp_publish(struct irdma_pci_f *rf, struct irdma_qp *iwqp,
			     const struct ib_qp_init_attr *init_attr)
{
	struct irdma_sc_qp *sc_qp = &iwqp->sc_qp;

	refcount_set(&iwqp->refcnt, 1);
	spin_lock_init(&iwqp->lock);
	spin_lock_init(&sc_qp->pfpdu.lock);
	iwqp->sig_all = (init_attr->sq_sig_type == IB_SIGNAL_ALL_WR);
	init_completion(&iwqp->free_qp);
	rf->qp_table[iwqp->ibqp.qp_num] = iwqp;
}

static int irdma_create_qp(struct ib_qp *qp,
			   struct ib_qp_init_attr *init_attr,
			   struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(qp->device);
	struct irdma_qp *iwqp = to_iwqp(qp);
	struct irdma_sc_qp *sc_qp = &iwqp->sc_qp;
	struct irdma_pci_f *rf = iwdev->rf;
	struct irdma_qp_init_info info = {};
	u32 qp_num = 1;		/* QP1 is reserved for GSI */
	int err;

	err = irdma_qp_check_init_attr(iwdev, init_attr);
	if (err)
		return err;

	if (udata && (udata->inlen < IRDMA_QP_CREATE_REQ_MIN ||
		      udata->outlen < IRDMA_QP_CREATE_RESP_MIN))
		return -EINVAL;

	iwqp->iwdev = iwdev;
	iwqp->iwpd = to_iwpd(qp->pd);
	iwqp->iwscq = to_iwcq(qp->send_cq);
	iwqp->iwrcq = to_iwcq(qp->recv_cq);
	sc_qp->qp_uk.back_qp = iwqp;
	sc_qp->push_idx = IRDMA_INVALID_PUSH_PAGE_INDEX;
	init_waitqueue_head(&iwqp->waitq);
	init_waitqueue_head(&iwqp->mod_qp_waitq);

	err = irdma_qp_alloc_q2_ctx(iwqp, &info);
	if (err)
		return err;

	if (init_attr->qp_type != IB_QPT_GSI) {
		err = irdma_alloc_rsrc(rf, rf->allocated_qps, rf->max_qp,
				       &qp_num, &rf->next_qp);
		if (err)
			goto err_free;
	}
	qp->qp_num = qp_num;

	irdma_qp_fill_init_info(iwdev, iwqp, init_attr, !!udata, &info);
	err = irdma_qp_setup_rings(iwqp, udata, init_attr, &info);
	if (err)
		goto err_free;

	err = irdma_sc_qp_init(sc_qp, &info);
	if (err) {
		ibdev_dbg(&iwdev->ibdev, "VERBS: irdma_sc_qp_init failed\n");
		goto err_free;
	}
	if (udata && !irdma_qp_user_rings_fit(iwqp)) {
		ibdev_dbg(&iwdev->ibdev, "VERBS: QP rings too small\n");
		err = -EINVAL;
		goto err_free;
	}

	if (irdma_qp_is_roce(iwqp))
		irdma_qp_init_roce_ctx(iwdev, iwqp);
	else
		irdma_qp_init_iw_ctx(iwdev, iwqp);

	err = irdma_qp_hw_create(rf, iwqp);
	if (err)
		goto err_free;

	irdma_qp_publish(rf, iwqp, init_attr);

	/* the QP now exists in hardware and in qp_table: destroy it fully */
	if (irdma_qp_is_roce(iwqp)) {
		if (rf->sc_dev.ws_add(&iwdev->vsi, 0)) {
			irdma_destroy_qp(qp, udata);
			return -EINVAL;
		}
		irdma_qp_add_qos(sc_qp);
	}

	if (udata) {
		err = irdma_qp_create_uresp(iwqp, udata, &info.qp_uk_init_info);
		if (err) {
			irdma_destroy_qp(qp, udata);
			return err;
		}
	}

	return 0;

err_free:
	irdma_put_pbl(&iwqp->iwpbl);
	irdma_free_qp_rsrc(iwqp);
	return err;
}

static int irdma_qp_access_flags(const struct irdma_qp *iwqp)
{
	bool rd, wr, bind;
	int acc = 0;

	/* roce_info and iwarp_info share storage: read the live one */
	if (irdma_qp_is_roce(iwqp)) {
		rd = iwqp->roce_info.rd_en;
		wr = iwqp->roce_info.wr_rdresp_en;
		bind = iwqp->roce_info.bind_en;
	} else {
		rd = iwqp->iwarp_info.rd_en;
		wr = iwqp->iwarp_info.wr_rdresp_en;
		bind = iwqp->iwarp_info.bind_en;
	}

	if (wr)
		acc |= IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	if (rd)
		acc |= IB_ACCESS_REMOTE_READ;
	if (bind)
		acc |= IB_ACCESS_MW_BIND;

	return acc;
}

static void irdma_qp_query_roce(const struct irdma_qp *iwqp,
				struct ib_qp_attr *attr)
{
	const struct irdma_roce_offload_info *roce = &iwqp->roce_info;
	const struct irdma_udp_offload_info *udp = &iwqp->udp_info;

	attr->path_mtu = ib_mtu_int_to_enum(udp->snd_mss);
	attr->qkey = roce->qkey;
	attr->rq_psn = udp->epsn;
	attr->sq_psn = udp->psn_nxt;
	attr->dest_qp_num = roce->dest_qp;
	attr->pkey_index = roce->p_key;
	attr->retry_cnt = udp->rexmit_thresh;
	attr->rnr_retry = udp->rnr_nak_thresh;
	attr->max_rd_atomic = roce->ord_size;
	attr->max_dest_rd_atomic = roce->ird_size;
}

/* @attr_mask is ignored: everything known is reported. */
static int irdma_query_qp(struct ib_qp *qp, struct ib_qp_attr *attr,
			  int attr_mask, struct ib_qp_init_attr *qp_init)
{
	struct irdma_qp *iwqp = to_iwqp(qp);
	struct irdma_qp_uk *uk = &iwqp->sc_qp.qp_uk;
	struct ib_qp_cap *cap = &attr->cap;

	memset(attr, 0, sizeof(*attr));
	attr->qp_state = iwqp->ibqp_state;
	attr->cur_qp_state = iwqp->ibqp_state;
	attr->qp_access_flags = irdma_qp_access_flags(iwqp);
	attr->port_num = 1;
	cap->max_send_wr = iwqp->max_send_wr;
	cap->max_recv_wr = iwqp->max_recv_wr;
	cap->max_inline_data = uk->max_inline_data;
	cap->max_send_sge = uk->max_sq_frag_cnt;
	cap->max_recv_sge = uk->max_rq_frag_cnt;
	if (irdma_qp_is_roce(iwqp))
		irdma_qp_query_roce(iwqp, attr);

	*qp_init = (struct ib_qp_init_attr) {
		.event_handler = qp->event_handler,
		.qp_context = qp->qp_context,
		.send_cq = qp->send_cq,
		.recv_cq = qp->recv_cq,
		.cap = *cap,
	};

	return 0;
}

/* A single pkey table entry, always the default pkey. */
static int irdma_query_pkey(struct ib_device *ibdev, u32 port,
			    u16 index, u16 *pkey)
{
	if (index >= IRDMA_PKEY_TBL_SZ)
		return -EINVAL;

	*pkey = IRDMA_DEFAULT_PKEY;
	return 0;
}

/*
 * Priority to put in the VLAN tag: a VLAN netdev may remap @prio through
 * its egress QoS map.  Also used by the address handle code.
 */
static u8 irdma_roce_get_vlan_prio(const struct ib_gid_attr *gid_attr, u8 prio)
{
	struct net_device *ndev;
	u16 qos;

	rcu_read_lock();
	ndev = rcu_dereference(gid_attr->ndev);
	if (ndev && is_vlan_dev(ndev)) {
		qos = vlan_dev_get_egress_qos_mask(ndev, prio);
		prio = (qos & VLAN_PRIO_MASK) >> VLAN_PRIO_SHIFT;
	}
	rcu_read_unlock();

	return prio;
}

/* SQD is reached asynchronously: the AEQ handler clears suspend_pending. */
static int irdma_qp_wait_suspended(struct irdma_qp *iwqp)
{
	struct ib_device *ibdev = &iwqp->iwdev->ibdev;

	if (wait_event_timeout(iwqp->iwdev->suspend_wq, !iwqp->suspend_pending,
			       msecs_to_jiffies(IRDMA_EVENT_TIMEOUT_MS)))
		return 0;

	iwqp->suspend_pending = false;
	ibdev_warn(ibdev,
		   "modify_qp to SQD timed out, qp_id = %u, last_ae = 0x%x\n",
		   iwqp->ibqp.qp_num, iwqp->last_aeq);
	return -EBUSY;
}

/* udata and mask checks shared by the RoCE and the iWARP modify_qp. */
static int irdma_qp_check_modify(struct ib_udata *udata, int attr_mask)
{
	if (udata &&
	    ((udata->inlen && udata->inlen < IRDMA_QP_MODIFY_REQ_MIN) ||
	     (udata->outlen && udata->outlen < IRDMA_QP_MODIFY_RESP_MIN)))
		return -EINVAL;

	if (attr_mask & ~IB_QP_ATTR_STANDARD_BITS)
		return -EOPNOTSUPP;

	return 0;
}

/* User QPs on GEN_2 and later get a push page, if push mode is on. */
static bool irdma_qp_wants_push_page(const struct irdma_qp *iwqp,
				     const struct ib_udata *udata)
{
	const struct irdma_device *iwdev = iwqp->iwdev;

	return iwdev->push_mode && udata && !irdma_qp_has_push_page(iwqp) &&
	       iwdev->rf->sc_dev.hw_attrs.uk_attrs.hw_rev >= IRDMA_GEN_2;
}

/*
 * Modify to ERR/RESET of a QP already in error: user space may ask, through
 * udata, to flush its rings once more (for WRs posted since).
 */
static int irdma_qp_user_reflush(struct irdma_qp *iwqp,
				 struct ib_udata *udata)
{
	struct irdma_modify_qp_req ureq = {};
	u32 mask = IRDMA_REFLUSH;

	if (!udata || !udata->inlen)
		return 0;

	if (ib_copy_from_udata(&ureq, udata, min(sizeof(ureq), udata->inlen)))
		return -EINVAL;

	if (ureq.sq_flush)
		mask |= IRDMA_FLUSH_SQ;
	if (ureq.rq_flush)
		mask |= IRDMA_FLUSH_RQ;
	irdma_flush_wqes(iwqp, mask);

	return 0;
}

/*
 * Tell user space about the QP's push page once it has one: the first
 * modify after the page was allocated creates the mmap keys.
 */
static int irdma_qp_modify_uresp(struct irdma_qp *iwqp, struct ib_udata *udata)
{
	struct irdma_modify_qp_resp resp = {};
	struct irdma_ucontext *uctx;
	int err;

	/* libi40iw wants no response, and GEN_1 has no push pages */
	if (!udata || !udata->outlen ||
	    iwqp->iwdev->rf->sc_dev.hw_attrs.uk_attrs.hw_rev < IRDMA_GEN_2)
		return 0;

	uctx = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					 ibucontext);
	if (irdma_qp_has_push_page(iwqp) && !iwqp->push_wqe_mmap_entry)
		irdma_qp_mmap_push_page(iwqp, uctx, &resp);

	err = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (err) {
		irdma_qp_unmap_push_page(iwqp);
		ibdev_dbg(&iwqp->iwdev->ibdev,
			  "VERBS: modify_qp response not copied\n");
	}

	return err;
}

/*
 * Record a completed hardware transition, unless an asynchronous event
 * moved the QP meanwhile: then that newer state stands.
 */
static void irdma_qp_commit_state(struct irdma_qp *iwqp,
				  const struct irdma_modify_qp_info *info,
				  enum ib_qp_state new_state)
{
	lockdep_assert_held(&iwqp->lock);

	if (iwqp->iwarp_state != info->curr_iwarp_state)
		return;

	iwqp->iwarp_state = info->next_iwarp_state;
	iwqp->ibqp_state = new_state;
}

/* Attributes that only update the software copy of the RoCE context. */
static void irdma_qp_roce_set_attrs(struct irdma_qp *iwqp,
				    const struct ib_qp_attr *attr,
				    int attr_mask)
{
	struct irdma_roce_offload_info *roce = &iwqp->roce_info;
	struct irdma_udp_offload_info *udp = &iwqp->udp_info;

	if (attr_mask & IB_QP_DEST_QPN)
		roce->dest_qp = attr->dest_qp_num;
	if (attr_mask & IB_QP_PKEY_INDEX)
		roce->p_key = IRDMA_DEFAULT_PKEY;
	if (attr_mask & IB_QP_QKEY)
		roce->qkey = attr->qkey;
	if (attr_mask & IB_QP_PATH_MTU)
		udp->snd_mss = ib_mtu_enum_to_int(attr->path_mtu);
	if (attr_mask & IB_QP_SQ_PSN) {
		udp->psn_nxt = attr->sq_psn;
		udp->psn_una = attr->sq_psn;
		udp->psn_max = attr->sq_psn;
		udp->lsn = 0xffff;
	}
	if (attr_mask & IB_QP_RQ_PSN)
		udp->epsn = attr->rq_psn;
	if (attr_mask & IB_QP_RNR_RETRY)
		udp->rnr_nak_thresh = attr->rnr_retry;
	if (attr_mask & IB_QP_RETRY_CNT)
		udp->rexmit_thresh = attr->retry_cnt;
	roce->pd_id = iwqp->iwpd->sc_pd.pd_id;
}

/*
 * The GRH gives TTL, flow label (hence the UDP source port) and traffic
 * class (hence the user priority).  The QP leaves its old priority's QoS
 * list and work scheduler node; set_av joins the new ones.
 */
static void irdma_qp_roce_set_grh(struct irdma_qp *iwqp,
				  const struct ib_global_route *grh)
{
	struct irdma_qp_host_ctx_info *ctx = &iwqp->ctx_info;
	struct irdma_udp_offload_info *udp = &iwqp->udp_info;
	struct irdma_sc_vsi *vsi = iwqp->sc_qp.vsi;

	udp->ttl = grh->hop_limit;
	udp->flow_label = grh->flow_label;
	udp->tos = grh->traffic_class;
	udp->src_port = rdma_get_udp_sport(udp->flow_label, iwqp->ibqp.qp_num,
					   iwqp->roce_info.dest_qp);

	irdma_qp_rem_qos(&iwqp->sc_qp);
	iwqp->iwdev->rf->sc_dev.ws_remove(vsi, ctx->user_pri);
	if (vsi->dscp_mode)
		ctx->user_pri = vsi->dscp_map[irdma_tos2dscp(udp->tos)];
	else
		ctx->user_pri = rt_tos2priority(udp->tos);
}

/*
 * Source and destination IPs in host order (IPv4 in the last word), and the
 * ARP cache entry of the destination.
 */
static void irdma_qp_roce_set_ips(struct irdma_qp *iwqp, struct irdma_av *av,
				  const struct ib_gid_attr *gid_attr,
				  const struct rdma_ah_attr *ah)
{
	struct irdma_udp_offload_info *udp = &iwqp->udp_info;
	union irdma_sockaddr *sip = &av->sgid_addr;
	union irdma_sockaddr *dip = &av->dgid_addr;
	u32 next_hop[4] = {};

	rdma_gid2ip((struct sockaddr *)sip, &gid_attr->gid);
	rdma_gid2ip((struct sockaddr *)dip, &ah->grh.dgid);
	av->net_type = rdma_gid_attr_network_type(gid_attr);

	switch (av->net_type) {
	case RDMA_NETWORK_IPV6:
		irdma_copy_ip_ntohl(udp->dest_ip_addr,
				    dip->saddr_in6.sin6_addr.s6_addr32);
		irdma_copy_ip_ntohl(udp->local_ipaddr,
				    sip->saddr_in6.sin6_addr.s6_addr32);
		udp->ipv4 = false;
		memcpy(next_hop, udp->dest_ip_addr, sizeof(next_hop));
		break;
	case RDMA_NETWORK_IPV4:
		memset(udp->dest_ip_addr, 0, sizeof(udp->dest_ip_addr));
		memset(udp->local_ipaddr, 0, sizeof(udp->local_ipaddr));
		udp->dest_ip_addr[3] = ntohl(dip->saddr_in.sin_addr.s_addr);
		udp->local_ipaddr[3] = ntohl(sip->saddr_in.sin_addr.s_addr);
		udp->ipv4 = true;
		next_hop[0] = udp->dest_ip_addr[3];
		break;
	default:
		break;
	}

	udp->arp_idx = irdma_add_arp(iwqp->iwdev->rf, next_hop, udp->ipv4,
				     ah->roce.dmac);
}

/* Address vector: L3 fields, priority, VLAN tag and next hop. */
static int irdma_qp_roce_set_av(struct irdma_qp *iwqp,
				const struct ib_qp_attr *attr)
{
	const struct rdma_ah_attr *ah = &attr->ah_attr;
	const struct ib_gid_attr *gid_attr = ah->grh.sgid_attr;
	struct irdma_qp_host_ctx_info *ctx = &iwqp->ctx_info;
	struct irdma_udp_offload_info *udp = &iwqp->udp_info;
	const struct irdma_device *iwdev = iwqp->iwdev;
	struct irdma_ah *qp_ah = &iwqp->roce_ah;
	u16 vlan_id = VLAN_N_VID;
	int err;

	memset(qp_ah, 0, sizeof(*qp_ah));
	if (ah->ah_flags & IB_AH_GRH)
		irdma_qp_roce_set_grh(iwqp, &ah->grh);

	err = rdma_read_gid_l2_fields(gid_attr, &vlan_id,
				      iwqp->roce_info.mac_addr);
	if (err)
		return err;

	ctx->user_pri = irdma_roce_get_vlan_prio(gid_attr, ctx->user_pri);
	if (iwdev->rf->sc_dev.ws_add(iwqp->sc_qp.vsi, ctx->user_pri))
		return -ENOMEM;
	iwqp->sc_qp.user_pri = ctx->user_pri;
	irdma_qp_add_qos(&iwqp->sc_qp);

	/* with DCB in VLAN mode, untagged traffic gets VLAN 0 for its PCP */
	if (iwdev->dcb_vlan_mode && vlan_id >= VLAN_N_VID)
		vlan_id = 0;
	udp->insert_vlan_tag = vlan_id < VLAN_N_VID;
	if (udp->insert_vlan_tag)
		udp->vlan_tag = vlan_id | ctx->user_pri << VLAN_PRIO_SHIFT;

	qp_ah->av.attrs = *ah;
	irdma_qp_roce_set_ips(iwqp, &qp_ah->av, gid_attr, ah);

	return 0;
}

/* RDMA read depths and access rights; access is only ever widened. */
static void irdma_qp_roce_set_rd_attrs(struct irdma_qp *iwqp,
				       const struct ib_qp_attr *attr,
				       int attr_mask,
				       struct irdma_modify_qp_info *info)
{
	struct irdma_roce_offload_info *roce = &iwqp->roce_info;
	int acc;

	/* a depth of 0 keeps the current one, but ORD is still sent */
	info->ord_valid = !!(attr_mask & IB_QP_MAX_QP_RD_ATOMIC);
	if ((attr_mask & IB_QP_MAX_QP_RD_ATOMIC) && attr->max_rd_atomic)
		roce->ord_size = attr->max_rd_atomic;
	if ((attr_mask & IB_QP_MAX_DEST_RD_ATOMIC) && attr->max_dest_rd_atomic)
		roce->ird_size = attr->max_dest_rd_atomic;

	if (!(attr_mask & IB_QP_ACCESS_FLAGS))
		return;
	acc = attr->qp_access_flags;
	if (acc & (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE))
		roce->wr_rdresp_en = true;
	if (acc & IB_ACCESS_REMOTE_READ)
		roce->rd_en = true;
}

/* Map a RoCE IB state change to a hardware one.  Called under iwqp->lock. */
static int irdma_qp_roce_next_state(struct irdma_qp *iwqp,
				    const struct ib_qp_attr *attr,
				    int attr_mask,
				    struct irdma_modify_qp_info *info)
{
	enum ib_qp_state cur = iwqp->ibqp_state;
	u8 hw_state = iwqp->iwarp_state;

	if (!ib_modify_qp_is_ok(cur, attr->qp_state, iwqp->ibqp.qp_type,
				attr_mask)) {
		ibdev_warn(&iwqp->iwdev->ibdev,
			   "modify_qp: qp %u: invalid transition %d -> %d\n",
			   iwqp->ibqp.qp_num, cur, attr->qp_state);
		return -EINVAL;
	}

	info->curr_iwarp_state = hw_state;
	switch (attr->qp_state) {
	case IB_QPS_INIT:
		if (hw_state > IRDMA_QP_STATE_IDLE)
			return -EINVAL;
		if (hw_state != IRDMA_QP_STATE_INVALID)
			return IRDMA_QP_STEP_NONE;
		info->next_iwarp_state = IRDMA_QP_STATE_IDLE;
		return IRDMA_QP_STEP_MODIFY;
	case IB_QPS_RTR:
		if (hw_state > IRDMA_QP_STATE_IDLE)
			return -EINVAL;
		info->arp_cache_idx_valid = true;
		info->cq_num_valid = true;
		info->next_iwarp_state = IRDMA_QP_STATE_RTR;
		return IRDMA_QP_STEP_MODIFY;
	case IB_QPS_RTS:
		if (cur < IB_QPS_RTR || cur == IB_QPS_ERR)
			return -EINVAL;
		info->arp_cache_idx_valid = true;
		info->cq_num_valid = true;
		info->ord_valid = true;
		info->next_iwarp_state = IRDMA_QP_STATE_RTS;
		return IRDMA_QP_STEP_MODIFY;
	case IB_QPS_SQD:
		if (hw_state == IRDMA_QP_STATE_SQD)
			return IRDMA_QP_STEP_DONE;
		if (hw_state != IRDMA_QP_STATE_RTS)
			return -EINVAL;
		info->next_iwarp_state = IRDMA_QP_STATE_SQD;
		return IRDMA_QP_STEP_MODIFY;
	case IB_QPS_SQE:
	case IB_QPS_ERR:
	case IB_QPS_RESET:
		if (hw_state == IRDMA_QP_STATE_ERROR)
			return IRDMA_QP_STEP_REFLUSH;
		info->next_iwarp_state = IRDMA_QP_STATE_ERROR;
		return IRDMA_QP_STEP_MODIFY;
	default:
		return -EINVAL;
	}
}

/* Checks done before anything is changed, so a bad request changes nothing. */
static int irdma_qp_roce_check_attr(struct irdma_qp *iwqp,
				    const struct ib_qp_attr *attr,
				    int attr_mask)
{
	struct irdma_hw_attrs *hw = &iwqp->iwdev->rf->sc_dev.hw_attrs;
	struct ib_device *ibdev = &iwqp->iwdev->ibdev;
	struct irdma_modify_qp_info info = {};
	unsigned long irqflags;
	int step;

	if ((attr_mask & IB_QP_PKEY_INDEX) &&
	    attr->pkey_index >= IRDMA_PKEY_TBL_SZ)
		return -EINVAL;

	if ((attr_mask & IB_QP_MAX_QP_RD_ATOMIC) &&
	    attr->max_rd_atomic > hw->max_hw_ord) {
		ibdev_err(ibdev, "max_rd_atomic %u above max_hw_ord %u\n",
			  attr->max_rd_atomic, hw->max_hw_ord);
		return -EINVAL;
	}

	if ((attr_mask & IB_QP_MAX_DEST_RD_ATOMIC) &&
	    attr->max_dest_rd_atomic > hw->max_hw_ird) {
		ibdev_err(ibdev, "max_dest_rd_atomic %u above max_hw_ird %u\n",
			  attr->max_dest_rd_atomic, hw->max_hw_ird);
		return -EINVAL;
	}

	if (!(attr_mask & IB_QP_STATE))
		return 0;

	/* checked again when made: an event may move the QP in between */
	spin_lock_irqsave(&iwqp->lock, irqflags);
	step = irdma_qp_roce_next_state(iwqp, attr, attr_mask, &info);
	spin_unlock_irqrestore(&iwqp->lock, irqflags);

	return step < 0 ? step : 0;
}

/*
 * Under iwqp->lock: validate the state change, then rewrite the context
 * with the new attributes.  Returns an irdma_qp_step or a negative errno.
 */
static int irdma_qp_roce_start_modify(struct irdma_qp *iwqp,
				      const struct ib_qp_attr *attr,
				      int attr_mask, struct ib_udata *udata,
				      struct irdma_modify_qp_info *info)
{
	int step = IRDMA_QP_STEP_NONE;
	unsigned long irqflags;

	spin_lock_irqsave(&iwqp->lock, irqflags);
	if (attr_mask & IB_QP_STATE) {
		step = irdma_qp_roce_next_state(iwqp, attr, attr_mask, info);
		if (step < 0 || step == IRDMA_QP_STEP_DONE)
			goto unlock;
		if (step == IRDMA_QP_STEP_REFLUSH) {
			iwqp->ibqp_state = attr->qp_state;
			goto unlock;
		}
		if (info->next_iwarp_state == IRDMA_QP_STATE_SQD)
			iwqp->suspend_pending = true;
		if (attr->qp_state == IB_QPS_RTS &&
		    irdma_qp_wants_push_page(iwqp, udata)) {
			/* the CQP command sleeps */
			spin_unlock_irqrestore(&iwqp->lock, irqflags);
			irdma_qp_alloc_push_page(iwqp->iwdev->rf, iwqp);
			spin_lock_irqsave(&iwqp->lock, irqflags);
		}
		iwqp->ibqp_state = attr->qp_state;
	}
	irdma_qp_write_ctx(iwqp);
unlock:
	spin_unlock_irqrestore(&iwqp->lock, irqflags);
	return step;
}

/*
 * Run the hardware transition, wait for SQD to be reached, and flush the
 * rings the first time the IB state goes past RTS (SQD, SQE or ERR).
 */
static int irdma_qp_roce_hw_modify(struct irdma_qp *iwqp,
				   enum ib_qp_state new_state,
				   struct irdma_modify_qp_info *info)
{
	unsigned long irqflags;
	bool flush;
	int err;

	iwqp->ctx_info.rem_endpoint_idx = iwqp->udp_info.arp_idx;
	if (irdma_hw_modify_qp(iwqp->iwdev, iwqp, info, true))
		return -EINVAL;

	if (info->next_iwarp_state == IRDMA_QP_STATE_SQD) {
		err = irdma_qp_wait_suspended(iwqp);
		if (err)
			return err;
	}

	spin_lock_irqsave(&iwqp->lock, irqflags);
	irdma_qp_commit_state(iwqp, info, new_state);
	flush = iwqp->ibqp_state > IB_QPS_RTS && !iwqp->flush_issued;
	spin_unlock_irqrestore(&iwqp->lock, irqflags);

	/* irdma_flush_wqes() sets flush_issued */
	if (flush)
		irdma_flush_wqes(iwqp, IRDMA_FLUSH_WAIT |
				 IRDMA_FLUSH_SQ | IRDMA_FLUSH_RQ);

	return 0;
}

/**
 * irdma_modify_qp_roce - modify_qp for RoCE devices
 * @rqp: QP to modify
 * @attr: new attribute values
 * @attr_mask: IB_QP_* bits saying which of @attr to apply
 * @udata: user QP flush request and push page response, or NULL
 *
 * Also called by the driver itself (udata NULL) to move a QP to error.
 *
 * Return: 0 or a negative errno.
 */
int irdma_modify_qp_roce(struct ib_qp *rqp, struct ib_qp_attr *attr,
			 int attr_mask, struct ib_udata *udata)
{
	struct irdma_qp *iwqp = to_iwqp(rqp);
	struct irdma_modify_qp_info info = {};
	int step, err;

	err = irdma_qp_check_modify(udata, attr_mask);
	if (err)
		return err;

	err = irdma_qp_roce_check_attr(iwqp, attr, attr_mask);
	if (err)
		return err;

	irdma_qp_roce_set_attrs(iwqp, attr, attr_mask);
	if (attr_mask & IB_QP_AV) {
		err = irdma_qp_roce_set_av(iwqp, attr);
		if (err)
			return err;
	}
	irdma_qp_roce_set_rd_attrs(iwqp, attr, attr_mask, &info);

	ibdev_dbg(&iwqp->iwdev->ibdev,
		  "VERBS: from %pS: qp %u ib state %d -> %d, hw state %d, mask 0x%x\n",
		  __builtin_return_address(0), rqp->qp_num, iwqp->ibqp_state,
		  attr->qp_state, iwqp->iwarp_state, attr_mask);

	step = irdma_qp_roce_start_modify(iwqp, attr, attr_mask, udata, &info);
	if (step < 0)
		return step;
	if (step == IRDMA_QP_STEP_REFLUSH)
		return irdma_qp_user_reflush(iwqp, udata);
	if (step == IRDMA_QP_STEP_DONE || !(attr_mask & IB_QP_STATE))
		return 0;

	if (step == IRDMA_QP_STEP_MODIFY) {
		err = irdma_qp_roce_hw_modify(iwqp, attr->qp_state, &info);
		if (err)
			return err;
	}

	return irdma_qp_modify_uresp(iwqp, udata);
}

/* Map an iWARP IB state change to a hardware one.  Called under iwqp->lock. */
static int irdma_qp_iw_next_state(struct irdma_qp *iwqp,
				  enum ib_qp_state new_state,
				  struct irdma_modify_qp_info *info)
{
	u8 hw_state = iwqp->iwarp_state;

	info->curr_iwarp_state = hw_state;
	switch (new_state) {
	case IB_QPS_INIT:
	case IB_QPS_RTR:
		if (hw_state > IRDMA_QP_STATE_IDLE)
			return -EINVAL;
		if (hw_state != IRDMA_QP_STATE_INVALID)
			return IRDMA_QP_STEP_NONE;
		info->next_iwarp_state = IRDMA_QP_STATE_IDLE;
		return IRDMA_QP_STEP_MODIFY;
	case IB_QPS_RTS:
		/* only the CM moves a QP to RTS, once connected */
		if (hw_state > IRDMA_QP_STATE_RTS || !iwqp->cm_id)
			return -EINVAL;
		iwqp->hw_tcp_state = IRDMA_TCP_STATE_ESTABLISHED;
		iwqp->hte_added = 1;
		info->next_iwarp_state = IRDMA_QP_STATE_RTS;
		info->tcp_ctx_valid = true;
		info->ord_valid = true;
		info->arp_cache_idx_valid = true;
		info->cq_num_valid = true;
		return IRDMA_QP_STEP_MODIFY;
	case IB_QPS_SQD:
		/* not connected yet, or already closing: nothing to do */
		if (iwqp->hw_iwarp_state > IRDMA_QP_STATE_RTS ||
		    hw_state == IRDMA_QP_STATE_CLOSING ||
		    hw_state < IRDMA_QP_STATE_RTS)
			return IRDMA_QP_STEP_DONE;
		if (hw_state > IRDMA_QP_STATE_CLOSING)
			return -EINVAL;
		info->next_iwarp_state = IRDMA_QP_STATE_CLOSING;
		return IRDMA_QP_STEP_MODIFY;
	case IB_QPS_SQE:
		if (hw_state >= IRDMA_QP_STATE_TERMINATE)
			return -EINVAL;
		info->next_iwarp_state = IRDMA_QP_STATE_TERMINATE;
		return IRDMA_QP_STEP_MODIFY;
	case IB_QPS_ERR:
	case IB_QPS_RESET:
		if (hw_state == IRDMA_QP_STATE_ERROR)
			return IRDMA_QP_STEP_REFLUSH;
		info->next_iwarp_state = IRDMA_QP_STATE_ERROR;
		return IRDMA_QP_STEP_MODIFY;
	default:
		return -EINVAL;
	}
}

/* Is there a TCP connection the hardware should reset when going to error? */
static bool irdma_qp_iw_conn_alive(const struct irdma_qp *iwqp)
{
	return iwqp->hw_tcp_state > IRDMA_TCP_STATE_CLOSED &&
	       iwqp->hw_tcp_state != IRDMA_TCP_STATE_TIME_WAIT &&
	       iwqp->iwdev->iw_status;
}

/* Access rights, only ever widened.  Called under iwqp->lock. */
static void irdma_qp_iw_set_access(struct irdma_qp *iwqp,
				   const struct ib_qp_attr *attr, int attr_mask)
{
	struct irdma_iwarp_offload_info *iw = &iwqp->iwarp_info;
	int acc;

	if (attr_mask & IB_QP_ACCESS_FLAGS) {
		acc = attr->qp_access_flags;
		iwqp->ctx_info.iwarp_info_valid = true;
		if (acc & (IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE))
			iw->wr_rdresp_en = true;
		if (acc & IB_ACCESS_REMOTE_READ)
			iw->rd_en = true;
	}

	/* the context needs rewriting only once its iWARP part changed */
	if (iwqp->ctx_info.iwarp_info_valid)
		irdma_qp_write_ctx(iwqp);
}

/*
 * Under iwqp->lock: validate the state change and apply the access flags.
 * Returns an irdma_qp_step or a negative errno; *disconnect tells whether a
 * move to error must disconnect right away rather than via the close timer.
 */
static int irdma_qp_iw_start_modify(struct irdma_qp *iwqp,
				    const struct ib_qp_attr *attr,
				    int attr_mask, struct ib_udata *udata,
				    struct irdma_modify_qp_info *info,
				    bool *disconnect)
{
	enum ib_qp_state new_state = attr->qp_state;
	int step = IRDMA_QP_STEP_NONE;
	unsigned long irqflags;

	spin_lock_irqsave(&iwqp->lock, irqflags);
	if (attr_mask & IB_QP_STATE) {
		step = irdma_qp_iw_next_state(iwqp, new_state, info);
		if (step < 0 || step == IRDMA_QP_STEP_DONE)
			goto unlock;
		if (step == IRDMA_QP_STEP_REFLUSH) {
			iwqp->ibqp_state = new_state;
			goto unlock;
		}
		if ((new_state == IB_QPS_INIT || new_state == IB_QPS_RTR) &&
		    irdma_qp_wants_push_page(iwqp, udata)) {
			/* the CQP command sleeps */
			spin_unlock_irqrestore(&iwqp->lock, irqflags);
			irdma_qp_alloc_push_page(iwqp->iwdev->rf, iwqp);
			spin_lock_irqsave(&iwqp->lock, irqflags);
		}
		if (info->next_iwarp_state == IRDMA_QP_STATE_ERROR) {
			/* may drop a QP reference, under qptable_lock */
			if (iwqp->sc_qp.term_flags) {
				spin_unlock_irqrestore(&iwqp->lock, irqflags);
				irdma_terminate_del_timer(&iwqp->sc_qp);
				spin_lock_irqsave(&iwqp->lock, irqflags);
			}
			/*
			 * A reset connection is torn down by the CM close
			 * timer; without one the QP disconnects at once.
			 */
			if (irdma_qp_iw_conn_alive(iwqp))
				info->reset_tcp_conn = true;
			else
				*disconnect = true;
		}
		iwqp->ibqp_state = new_state;
	}
	irdma_qp_iw_set_access(iwqp, attr, attr_mask);
unlock:
	spin_unlock_irqrestore(&iwqp->lock, irqflags);
	return step;
}

/* No connection left to reset: tell the CM the QP is disconnected. */
static void irdma_qp_iw_disconnect(struct irdma_qp *iwqp)
{
	unsigned long irqflags;

	if (iwqp->hw_tcp_state) {
		spin_lock_irqsave(&iwqp->lock, irqflags);
		iwqp->hw_tcp_state = IRDMA_TCP_STATE_CLOSED;
		iwqp->last_aeq = IRDMA_AE_RESET_SENT;
		spin_unlock_irqrestore(&iwqp->lock, irqflags);
	}
	irdma_cm_disconn(iwqp);
}

/*
 * The hardware is resetting the connection: arm the CM close timer, once
 * per QP, to complete the disconnect.
 */
static void irdma_qp_iw_start_close_timer(struct irdma_qp *iwqp)
{
	struct irdma_cm_core *cm_core = &iwqp->iwdev->cm_core;
	struct irdma_cm_node *cm_node;
	unsigned long irqflags;

	/* the CM may detach the node from the QP at any time: pin it */
	spin_lock_irqsave(&cm_core->ht_lock, irqflags);
	cm_node = iwqp->cm_node;
	if (cm_node)
		refcount_inc(&cm_node->refcnt);
	spin_unlock_irqrestore(&cm_core->ht_lock, irqflags);
	if (!cm_node)
		return;

	if (atomic_inc_return(&iwqp->close_timer_started) == 1 && iwqp->cm_id)
		irdma_schedule_cm_timer(cm_node, (struct irdma_puda_buf *)iwqp,
					IRDMA_TIMER_TYPE_CLOSE, 1, 0);
	irdma_rem_ref_cm_node(cm_node);
}

/**
 * irdma_modify_qp - modify_qp for iWARP devices
 * @ibqp: QP to modify
 * @attr: new attribute values
 * @attr_mask: IB_QP_* bits saying which of @attr to apply
 * @udata: user QP flush request and push page response, or NULL
 *
 * Also called by the CM and the driver itself (udata NULL) to drive the
 * connection's QP through RTS, closing and error.
 *
 * Return: 0 or a negative errno.
 */
int irdma_modify_qp(struct ib_qp *ibqp, struct ib_qp_attr *attr,
		    int attr_mask, struct ib_udata *udata)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);
	struct irdma_modify_qp_info info = {};
	bool disconnect = false;
	unsigned long irqflags;
	int step;

	step = irdma_qp_check_modify(udata, attr_mask);
	if (step)
		return step;

	/* let a non-blocking modify issued by the CM reach hardware first */
	wait_event(iwqp->mod_qp_waitq, atomic_read(&iwqp->hw_mod_qp_pend) == 0);
	ibdev_dbg(&iwqp->iwdev->ibdev,
		  "VERBS: from %pS: qp %u ib state %d -> %d, hw state %d (hw iwarp %d, tcp %d), last_aeq 0x%x, mask 0x%x\n",
		  __builtin_return_address(0), ibqp->qp_num, iwqp->ibqp_state,
		  attr->qp_state, iwqp->iwarp_state, iwqp->hw_iwarp_state,
		  iwqp->hw_tcp_state, iwqp->last_aeq, attr_mask);

	step = irdma_qp_iw_start_modify(iwqp, attr, attr_mask, udata, &info,
					&disconnect);
	if (step < 0)
		return step;
	if (step == IRDMA_QP_STEP_REFLUSH)
		return irdma_qp_user_reflush(iwqp, udata);
	if (step == IRDMA_QP_STEP_DONE || !(attr_mask & IB_QP_STATE))
		return 0;

	if (step == IRDMA_QP_STEP_MODIFY) {
		iwqp->ctx_info.rem_endpoint_idx = iwqp->tcp_info.arp_idx;
		if (irdma_hw_modify_qp(iwqp->iwdev, iwqp, &info, true))
			return -EINVAL;
	}

	/*
	 * Also done when no hardware transition was needed: next_iwarp_state
	 * is then 0, so the QP is back to INVALID and a later INIT or RTR
	 * moves it to IDLE again.
	 */
	spin_lock_irqsave(&iwqp->lock, irqflags);
	irdma_qp_commit_state(iwqp, &info, attr->qp_state);
	spin_unlock_irqrestore(&iwqp->lock, irqflags);

	if (step == IRDMA_QP_STEP_MODIFY && iwqp->ibqp_state > IB_QPS_RTS) {
		if (disconnect)
			irdma_qp_iw_disconnect(iwqp);
		else
			irdma_qp_iw_start_close_timer(iwqp);
	}

	return irdma_qp_modify_uresp(iwqp, udata);
}

/* Size, in bytes, of a kernel CQ ring: whole 256-byte blocks of CQEs. */
static u32 irdma_cq_ring_bytes(u32 cq_size)
{
	return ALIGN(cq_size * sizeof(struct irdma_cqe), 256);
}

/*
 * Ring entries for a kernel CQ that must hold @cqe completions.  This is the
 * sizing the provider library applies to user CQs: one entry more than asked
 * for, and twice that from GEN_2 on.
 */
static int irdma_cq_kernel_ring_size(struct irdma_pci_f *rf, int cqe)
{
	const struct irdma_uk_attrs *attrs = &rf->sc_dev.hw_attrs.uk_attrs;
	int size = cqe + 1;

	if (attrs->hw_rev >= IRDMA_GEN_2)
		size *= 2;

	return size;
}

static bool irdma_cq_resize_supported(struct irdma_pci_f *rf)
{
	const struct irdma_uk_attrs *attrs = &rf->sc_dev.hw_attrs.uk_attrs;

	return attrs->feature_flags & IRDMA_FEATURE_CQ_RESIZE;
}

static struct irdma_ucontext *irdma_cq_uctx(struct ib_udata *udata)
{
	return rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					 ibucontext);
}

static void irdma_cq_free_kmem(struct irdma_pci_f *rf, struct irdma_cq *iwcq)
{
	struct device *dmadev = rf->sc_dev.hw->device;
	struct irdma_dma_mem *shadow = &iwcq->kmem_shadow;
	struct irdma_dma_mem *ring = &iwcq->kmem;

	dma_free_coherent(dmadev, shadow->size, shadow->va, shadow->pa);
	dma_free_coherent(dmadev, ring->size, ring->va, ring->pa);
}

/*
 * Release what create_cq set up in software once the hardware no longer
 * uses the CQ: kernel rings, the hold on user rings, and the CQ id.
 */
static void irdma_cq_free_rsrc(struct irdma_cq *iwcq)
{
	struct irdma_pci_f *rf = to_iwdev(iwcq->ibcq.device)->rf;

	if (!iwcq->user_mode)
		irdma_cq_free_kmem(rf, iwcq);
	irdma_put_pbl(&iwcq->ring_pbl);
	irdma_put_pbl(&iwcq->shadow_pbl);
	irdma_free_rsrc(rf, rf->allocated_cqs, iwcq->cq_num);
}

static void irdma_cq_buf_free(struct irdma_cq_buf *buf)
{
	struct irdma_dma_mem *ring = &buf->kmem_buf;

	dma_free_coherent(buf->hw->device, ring->size, ring->va, ring->pa);
	kfree(buf);
}

static void irdma_cq_buf_free_work(struct work_struct *work)
{
	irdma_cq_buf_free(container_of(work, struct irdma_cq_buf, work));
}

/*
 * Retire the old rings of a resized CQ, oldest first, stopping at @keep (or
 * retiring all of them when @keep is NULL).  The caller holds the CQ lock
 * with interrupts off, where dma_free_coherent() is not allowed, so the
 * memory is freed from the cleanup workqueue.  Returns the number retired.
 */
static int irdma_cq_retire_old_rings(struct irdma_cq *iwcq,
				     struct irdma_cq_buf *keep)
{
	struct workqueue_struct *wq = to_iwdev(iwcq->ibcq.device)->cleanup_wq;
	struct irdma_cq_buf *old, *next;
	int retired = 0;

	list_for_each_entry_safe(old, next, &iwcq->resize_list, list) {
		if (old == keep)
			break;
		list_del(&old->list);
		queue_work(wq, &old->work);
		retired++;
	}

	return retired;
}

/* CEQEs still naming a destroyed CQ must not be dispatched to it. */
static void irdma_cq_purge_ceqes(struct irdma_sc_cq *cq)
{
	struct irdma_sc_ceq *sc_ceq = cq->dev->ceq[cq->ceq_id];
	struct irdma_ceq *ceq = container_of(sc_ceq, struct irdma_ceq, sc_ceq);
	unsigned long irqflags;

	spin_lock_irqsave(&ceq->ce_lock, irqflags);
	irdma_sc_cleanup_ceqes(cq, sc_ceq);
	spin_unlock_irqrestore(&ceq->ce_lock, irqflags);
}

static int irdma_destroy_cq(struct ib_cq *ibcq, struct ib_udata *udata)
{
	struct irdma_cq *iwcq = to_iwcq(ibcq);
	unsigned long irqflags;

	/* Nobody polls this CQ any more. */
	spin_lock_irqsave(&iwcq->lock, irqflags);
	irdma_remove_cmpls_list(iwcq);
	irdma_cq_retire_old_rings(iwcq, NULL);
	spin_unlock_irqrestore(&iwcq->lock, irqflags);

	/* Let the AEQ handler drop any reference it took via cq_table. */
	irdma_cq_rem_ref(ibcq);
	wait_for_completion(&iwcq->free_cq);

	irdma_cq_wq_destroy(to_iwdev(ibcq->device)->rf, &iwcq->sc_cq);
	irdma_cq_purge_ceqes(&iwcq->sc_cq);
	irdma_cq_free_rsrc(iwcq);

	return 0;
}

/* Take the registration user space made for the ring or shadow area at @va. */
static struct irdma_pbl *irdma_cq_take_user_pbl(struct irdma_ucontext *uctx,
						u64 va)
{
	struct irdma_pbl *iwpbl;
	unsigned long irqflags;

	spin_lock_irqsave(&uctx->cq_reg_mem_list_lock, irqflags);
	iwpbl = irdma_get_pbl((unsigned long)va, &uctx->cq_reg_mem_list);
	spin_unlock_irqrestore(&uctx->cq_reg_mem_list_lock, irqflags);

	return iwpbl;
}

/* Do @cq_size CQEs fit in the pages user space registered for @ring? */
static bool irdma_cq_user_ring_fits(struct irdma_pbl *ring, u32 cq_size)
{
	return (u64)cq_size * sizeof(struct irdma_cqe) <=
	       (u64)irdma_ring_req(ring)->cq_pages * SZ_4K;
}

static int irdma_cq_cqp_modify(struct irdma_pci_f *rf, struct irdma_sc_cq *cq,
			       const struct irdma_modify_cq_info *info)
{
	struct irdma_cqp_request *req;
	struct cqp_cmds_info *cmd;
	int ret;

	req = irdma_alloc_and_get_cqp_request(&rf->cqp, true);
	if (!req)
		return -ENOMEM;

	cmd = &req->info;
	cmd->cqp_cmd = IRDMA_OP_CQ_MODIFY;
	cmd->post_sq = 1;
	cmd->in.u.cq_modify.cq = cq;
	cmd->in.u.cq_modify.info = *info;
	cmd->in.u.cq_modify.scratch = (uintptr_t)req;

	ret = irdma_handle_cqp_op(rf, req);
	irdma_put_cqp_request(&rf->cqp, req);

	return ret;
}

/*
 * On success *@pbl holds the registration of the new ring, which the CQ
 * takes over once the hardware moved to it (irdma_cq_switch_ring()).
 */
static int irdma_cq_resize_user_ring(struct ib_udata *udata,
				     struct irdma_modify_cq_info *info,
				     struct irdma_pbl **pbl)
{
	struct irdma_ucontext *uctx = irdma_cq_uctx(udata);
	struct irdma_resize_cq_req ureq = {};
	struct irdma_pbl *iwpbl;

	/* The legacy i40iw ABI has no resize request. */
	if (uctx->legacy_mode)
		return -EOPNOTSUPP;

	if (ib_copy_from_udata(&ureq, udata, min(sizeof(ureq), udata->inlen)))
		return -EINVAL;

	iwpbl = irdma_cq_take_user_pbl(uctx, ureq.user_cq_buffer);
	if (!iwpbl)
		return -ENOMEM;
	if (!irdma_cq_user_ring_fits(iwpbl, info->cq_size)) {
		irdma_put_pbl(&iwpbl);
		return -EINVAL;
	}
	*pbl = iwpbl;

	if (iwpbl->pbl_allocated) {
		info->virtual_map = true;
		info->pbl_chunk_size = 1;
		info->first_pm_pbl_idx = iwpbl->cq_mr.cq_pbl.idx;
	} else {
		info->cq_pa = iwpbl->cq_mr.cq_pbl.addr;
	}

	return 0;
}

/*
 * The new ring of a kernel CQ travels in the irdma_cq_buf that will carry
 * the old ring on the resize list, so nothing is allocated under the CQ
 * lock when the rings are swapped.
 */
static int irdma_cq_resize_kernel_ring(struct irdma_sc_dev *dev,
				       struct irdma_modify_cq_info *info,
				       struct irdma_cq_buf **bufp)
{
	struct irdma_dma_mem *ring;
	struct irdma_cq_buf *buf;

	buf = kzalloc(sizeof(*buf), GFP_KERNEL);
	if (!buf)
		return -ENOMEM;

	ring = &buf->kmem_buf;
	ring->size = irdma_cq_ring_bytes(info->cq_size);
	ring->va = dma_alloc_coherent(dev->hw->device, ring->size, &ring->pa,
				      GFP_KERNEL);
	if (!ring->va) {
		kfree(buf);
		return -ENOMEM;
	}

	buf->hw = dev->hw;
	INIT_WORK(&buf->work, irdma_cq_buf_free_work);
	info->cq_base = ring->va;
	info->cq_pa = ring->pa;
	*bufp = buf;

	return 0;
}

/*
 * The hardware now writes new CQEs to the new ring.  Older ones may still
 * sit in the current ring, so park it on the resize list for poll_cq to
 * drain before switching the CQ over.
 */
static void irdma_cq_switch_ring(struct irdma_cq *iwcq,
				 struct irdma_modify_cq_info *info,
				 struct irdma_cq_buf *buf,
				 struct irdma_pbl *pbl)
{
	unsigned long irqflags;

	spin_lock_irqsave(&iwcq->lock, irqflags);
	if (buf) {
		swap(buf->kmem_buf, iwcq->kmem);
		buf->cq_uk = iwcq->sc_cq.cq_uk;
		list_add_tail(&buf->list, &iwcq->resize_list);
	}
	irdma_sc_cq_resize(&iwcq->sc_cq, info);
	iwcq->ibcq.cqe = info->cq_size - 1;
	spin_unlock_irqrestore(&iwcq->lock, irqflags);

	/*
	 * A user CQ's old ring is the user's to drain: the hardware writes
	 * the new one only, so the old registration may now be freed.
	 */
	if (pbl) {
		irdma_put_pbl(&iwcq->ring_pbl);
		iwcq->ring_pbl = pbl;
	}
}

static int irdma_resize_cq(struct ib_cq *ibcq, int cqe, struct ib_udata *udata)
{
	struct irdma_cq *iwcq = to_iwcq(ibcq);
	struct irdma_sc_cq *cq = &iwcq->sc_cq;
	struct irdma_pci_f *rf = to_iwdev(ibcq->device)->rf;
	struct irdma_modify_cq_info info = {};
	struct irdma_cq_buf *buf = NULL;
	struct irdma_pbl *pbl = NULL;
	int ret;

	if (!irdma_cq_resize_supported(rf))
		return -EOPNOTSUPP;

	if (udata && udata->inlen < offsetofend(struct irdma_resize_cq_req,
						user_cq_buffer))
		return -EINVAL;

	if (cqe > rf->max_cqe)
		return -EINVAL;

	/* User space passes the ring size it allocated, already adjusted. */
	if (!iwcq->user_mode)
		cqe = irdma_cq_kernel_ring_size(rf, cqe);
	info.cq_size = max(cqe, 4);

	if (info.cq_size == cq->cq_uk.cq_size - 1)
		return 0;

	if (udata)
		ret = irdma_cq_resize_user_ring(udata, &info, &pbl);
	else
		ret = irdma_cq_resize_kernel_ring(&rf->sc_dev, &info, &buf);
	if (ret)
		return ret;

	info.shadow_read_threshold = cq->shadow_read_threshold;
	info.cq_resize = true;
	ret = irdma_cq_cqp_modify(rf, cq, &info);
	if (ret) {
		if (buf)
			irdma_cq_buf_free(buf);
		irdma_put_pbl(&pbl);
		return ret;
	}

	irdma_cq_switch_ring(iwcq, &info, buf, pbl);

	return 0;
}

/* GEN_1 takes no creation flags; later generations take timestamping. */
static int irdma_cq_validate_flags(u32 flags, u8 hw_rev)
{
	u32 supported = 0;

	if (hw_rev != IRDMA_GEN_1)
		supported = IB_UVERBS_CQ_FLAGS_TIMESTAMP_COMPLETION;

	return flags & ~supported ? -EOPNOTSUPP : 0;
}

/*
 * The CQ holds the registrations it takes (irdma_cq_free_rsrc() lets go),
 * on failure too.
 */
static int irdma_cq_setup_user_ring(struct irdma_pci_f *rf,
				    struct irdma_cq *iwcq,
				    struct ib_udata *udata,
				    struct irdma_cq_init_info *info)
{
	struct irdma_ucontext *uctx = irdma_cq_uctx(udata);
	struct irdma_create_cq_req ureq = {};
	struct irdma_pbl *ring, *shadow;

	if (ib_copy_from_udata(&ureq, udata, min(sizeof(ureq), udata->inlen)))
		return -EFAULT;

	ring = irdma_cq_take_user_pbl(uctx, ureq.user_cq_buf);
	if (!ring)
		return -EPROTO;
	iwcq->ring_pbl = ring;
	if (!irdma_cq_user_ring_fits(ring, info->cq_uk_init_info.cq_size))
		return -EINVAL;

	/*
	 * A provider that can resize CQs registers the shadow area on its own,
	 * as it must outlive the ring; otherwise it is the page after the ring.
	 */
	if (irdma_cq_resize_supported(rf) && !uctx->legacy_mode) {
		shadow = irdma_cq_take_user_pbl(uctx, ureq.user_shadow_area);
		if (!shadow)
			return -EPROTO;
		iwcq->shadow_pbl = shadow;
		info->shadow_area_pa = shadow->cq_mr.cq_pbl.addr;
	} else {
		info->shadow_area_pa = ring->cq_mr.shadow;
	}

	if (ring->pbl_allocated) {
		info->virtual_map = true;
		info->pbl_chunk_size = 1;
		info->first_pm_pbl_idx = ring->cq_mr.cq_pbl.idx;
	} else {
		info->cq_base_pa = ring->cq_mr.cq_pbl.addr;
	}

	return 0;
}

static int irdma_cq_setup_kernel_ring(struct irdma_pci_f *rf,
				      struct irdma_cq *iwcq, int cqe,
				      struct irdma_cq_init_info *info)
{
	struct irdma_cq_uk_init_info *ukinfo = &info->cq_uk_init_info;
	struct device *dmadev = rf->sc_dev.hw->device;
	struct irdma_dma_mem *shadow = &iwcq->kmem_shadow;
	struct irdma_dma_mem *ring = &iwcq->kmem;

	if (cqe < 1 || cqe > rf->max_cqe)
		return -EINVAL;

	ukinfo->cq_size = irdma_cq_kernel_ring_size(rf, cqe);
	ring->size = irdma_cq_ring_bytes(ukinfo->cq_size);
	ring->va = dma_alloc_coherent(dmadev, ring->size, &ring->pa,
				      GFP_KERNEL);
	if (!ring->va)
		return -ENOMEM;

	shadow->size = ALIGN(IRDMA_SHADOW_AREA_SIZE * sizeof(__le64), 64);
	shadow->va = dma_alloc_coherent(dmadev, shadow->size, &shadow->pa,
					GFP_KERNEL);
	if (!shadow->va) {
		dma_free_coherent(dmadev, ring->size, ring->va, ring->pa);
		return -ENOMEM;
	}

	ukinfo->cq_base = ring->va;
	info->cq_base_pa = ring->pa;
	ukinfo->shadow_area = shadow->va;
	info->shadow_area_pa = shadow->pa;

	return 0;
}

static int irdma_cq_cqp_create(struct irdma_pci_f *rf, struct irdma_sc_cq *cq)
{
	struct irdma_cqp_request *req;
	struct cqp_cmds_info *cmd;
	int ret;

	req = irdma_alloc_and_get_cqp_request(&rf->cqp, true);
	if (!req)
		return -ENOMEM;

	cmd = &req->info;
	cmd->cqp_cmd = IRDMA_OP_CQ_CREATE;
	cmd->post_sq = 1;
	cmd->in.u.cq_create.cq = cq;
	cmd->in.u.cq_create.check_overflow = true;
	cmd->in.u.cq_create.scratch = (uintptr_t)req;

	ret = irdma_handle_cqp_op(rf, req);
	irdma_put_cqp_request(&rf->cqp, req);

	return ret;
}

static int irdma_cq_copy_create_resp(struct irdma_cq *iwcq,
				     struct ib_udata *udata)
{
	struct irdma_create_cq_resp uresp = {
		.cq_id = iwcq->cq_num,
		.cq_size = iwcq->sc_cq.cq_uk.cq_size,
	};

	if (ib_copy_to_udata(udata, &uresp, min(sizeof(uresp), udata->outlen))) {
		ibdev_dbg(iwcq->ibcq.device, "VERBS: copy to user data\n");
		return -EPROTO;
	}

	return 0;
}

/* What create_cq programs the same way for user and kernel CQs. */
static void irdma_cq_fill_init_info(struct irdma_device *iwdev,
				    struct irdma_cq *iwcq,
				    const struct ib_cq_init_attr *attr,
				    struct irdma_cq_init_info *info)
{
	struct irdma_pci_f *rf = iwdev->rf;

	info->dev = &rf->sc_dev;
	info->vsi = &iwdev->vsi;
	info->type = IRDMA_CQ_TYPE_IWARP;
	info->ceqe_mask = true;
	info->ceq_id_valid = true;
	/* An out-of-range completion vector lands on CEQ 0. */
	if (attr->comp_vector < rf->ceqs_count)
		info->ceq_id = attr->comp_vector;
	info->cq_uk_init_info.cq_id = iwcq->cq_num;
	info->cq_uk_init_info.cq_size = max_t(int, attr->cqe, 4);
}

static int
irdma_create_cq(struct ib_cq *ibcq, const struct ib_cq_init_attr *attr,
		struct uverbs_attr_bundle *attrs)
{
	/* Kernel consumers create CQs without an attribute bundle. */
	struct ib_udata *udata = attrs ? &attrs->driver_udata : NULL;
	struct irdma_device *iwdev = to_iwdev(ibcq->device);
	struct irdma_pci_f *rf = iwdev->rf;
	struct irdma_cq *iwcq = to_iwcq(ibcq);
	struct irdma_cq_init_info info = {};
	int ret;

	ret = irdma_cq_validate_flags(attr->flags,
				      rf->sc_dev.hw_attrs.uk_attrs.hw_rev);
	if (ret)
		return ret;

	if (udata &&
	    (udata->inlen < offsetofend(struct irdma_create_cq_req,
					user_cq_buf) ||
	     udata->outlen < offsetofend(struct irdma_create_cq_resp,
					 cq_size)))
		return -EINVAL;

	ret = irdma_alloc_rsrc(rf, rf->allocated_cqs, rf->max_cq,
			       &iwcq->cq_num, &rf->next_cq);
	if (ret)
		return ret;

	iwcq->sc_cq.back_cq = iwcq;
	refcount_set(&iwcq->refcnt, 1);
	spin_lock_init(&iwcq->lock);
	INIT_LIST_HEAD(&iwcq->resize_list);
	INIT_LIST_HEAD(&iwcq->cmpl_generated);

	irdma_cq_fill_init_info(iwdev, iwcq, attr, &info);
	ibcq->cqe = info.cq_uk_init_info.cq_size;

	if (udata) {
		iwcq->user_mode = true;
		ret = irdma_cq_setup_user_ring(rf, iwcq, udata, &info);
	} else {
		ret = irdma_cq_setup_kernel_ring(rf, iwcq, attr->cqe, &info);
	}
	if (ret)
		goto free_id;

	info.shadow_read_threshold = min_t(u32,
					   info.cq_uk_init_info.cq_size / 2,
					   IRDMA_MAX_CQ_READ_THRESH);
	/* Only fails on a PBL index beyond the HMC's PBLE count. */
	if (irdma_sc_cq_init(&iwcq->sc_cq, &info)) {
		ibdev_dbg(&iwdev->ibdev, "VERBS: CQ %u init failed\n",
			  iwcq->cq_num);
		ret = -EPROTO;
		goto free_rings;
	}

	ret = irdma_cq_cqp_create(rf, &iwcq->sc_cq);
	if (ret)
		goto free_rings;

	if (udata) {
		ret = irdma_cq_copy_create_resp(iwcq, udata);
		if (ret)
			goto destroy_hw_cq;
	}

	/* cq_table makes the CQ visible to the AEQ handler: publish it last. */
	init_completion(&iwcq->free_cq);
	rf->cq_table[iwcq->cq_num] = iwcq;

	return 0;

destroy_hw_cq:
	irdma_cq_wq_destroy(rf, &iwcq->sc_cq);
free_rings:
	if (!iwcq->user_mode)
		irdma_cq_free_kmem(rf, iwcq);
free_id:
	irdma_put_pbl(&iwcq->ring_pbl);
	irdma_put_pbl(&iwcq->shadow_pbl);
	irdma_free_rsrc(rf, rf->allocated_cqs, iwcq->cq_num);

	return ret;
}

static int irdma_post_recv(struct ib_qp *ibqp, const struct ib_recv_wr *wr,
			   const struct ib_recv_wr **bad_wr)
{
	struct irdma_qp *iwqp = to_iwqp(ibqp);
	struct irdma_device *iwdev = to_iwdev(ibqp->device);
	struct irdma_post_rq_info rq_wr = {};
	unsigned long irqflags;
	unsigned long delay;
	int err = 0;

	spin_lock_irqsave(&iwqp->lock, irqflags);
	for (; wr; wr = wr->next) {
		rq_wr.wr_id = wr->wr_id;
		rq_wr.sg_list = wr->sg_list;
		rq_wr.num_sges = wr->num_sge;
		err = irdma_uk_post_receive(&iwqp->sc_qp.qp_uk, &rq_wr);
		if (err) {
			ibdev_dbg(&iwdev->ibdev, "VERBS: post_recv err %d\n",
				  err);
			*bad_wr = wr;
			break;
		}
	}
	spin_unlock_irqrestore(&iwqp->lock, irqflags);

	/*
	 * The QP has been flushed, so these WRs will never complete in
	 * hardware: restart the delay of the worker that generates their
	 * flush completions.
	 */
	if (iwqp->flush_issued) {
		delay = msecs_to_jiffies(IRDMA_FLUSH_DELAY_MS);
		mod_delayed_work(iwdev->cleanup_wq, &iwqp->dwork_flush, delay);
	}

	return err;
}

static enum ib_wc_status
irdma_flush_err_to_ib_wc_status(enum irdma_flush_opcode opcode)
{
	switch (opcode) {
	case FLUSH_PROT_ERR:
		return IB_WC_LOC_PROT_ERR;
	case FLUSH_REM_ACCESS_ERR:
		return IB_WC_REM_ACCESS_ERR;
	case FLUSH_LOC_QP_OP_ERR:
		return IB_WC_LOC_QP_OP_ERR;
	case FLUSH_REM_OP_ERR:
		return IB_WC_REM_OP_ERR;
	case FLUSH_LOC_LEN_ERR:
		return IB_WC_LOC_LEN_ERR;
	case FLUSH_GENERAL_ERR:
		return IB_WC_WR_FLUSH_ERR;
	case FLUSH_RETRY_EXC_ERR:
		return IB_WC_RETRY_EXC_ERR;
	case FLUSH_MW_BIND_ERR:
		return IB_WC_MW_BIND_ERR;
	case FLUSH_REM_INV_REQ_ERR:
		return IB_WC_REM_INV_REQ_ERR;
	case FLUSH_FATAL_ERR:
	default:
		return IB_WC_FATAL_ERR;
	}
}

static void irdma_cq_set_wc_error(struct ib_wc *wc,
				  const struct irdma_cq_poll_info *cqe)
{
	if (cqe->comp_status == IRDMA_COMPL_STATUS_FLUSHED)
		wc->status = irdma_flush_err_to_ib_wc_status(cqe->minor_err);
	else
		wc->status = IB_WC_GENERAL_ERR;
	wc->vendor_err = cqe->major_err << 16 | cqe->minor_err;
}

static void irdma_cq_set_wc_success(struct ib_wc *wc,
				    const struct irdma_cq_poll_info *cqe)
{
	u16 vid;

	wc->status = IB_WC_SUCCESS;
	if (cqe->imm_valid) {
		wc->ex.imm_data = htonl(cqe->imm_data);
		wc->wc_flags |= IB_WC_WITH_IMM;
	}
	if (cqe->ud_smac_valid) {
		ether_addr_copy(wc->smac, cqe->ud_smac);
		wc->wc_flags |= IB_WC_WITH_SMAC;
	}

	wc->sl = 0;
	if (!cqe->ud_vlan_valid)
		return;
	wc->sl = cqe->ud_vlan >> VLAN_PRIO_SHIFT;
	vid = cqe->ud_vlan & VLAN_VID_MASK;
	if (vid) {
		wc->vlan_id = vid;
		wc->wc_flags |= IB_WC_WITH_VLAN;
	}
}

/* Turn one hardware or software-generated completion into an ib_wc. */
static void irdma_process_cqe(struct ib_wc *wc,
			      struct irdma_cq_poll_info *cqe)
{
	struct irdma_qp_uk *ukqp = cqe->qp_handle;
	struct irdma_qp *iwqp = ukqp->back_qp;
	bool ud = ukqp->qp_type == IRDMA_QP_TYPE_ROCE_UD;

	wc->wr_id = cqe->wr_id;
	wc->qp = &iwqp->ibqp;
	wc->wc_flags = 0;
	wc->pkey_index = 0;
	wc->byte_len = cqe->bytes_xfered;

	if (cqe->error)
		irdma_cq_set_wc_error(wc, cqe);
	else
		irdma_cq_set_wc_success(wc, cqe);

	/* Comes after the status: an unknown SQ opcode overrides it. */
	if (cqe->q_type == IRDMA_CQE_QTYPE_SQ) {
		set_ib_wc_op_sq(cqe, wc);
	} else {
		set_ib_wc_op_rq(cqe, wc, ukqp->qp_caps & IRDMA_SEND_WITH_IMM);
		if (!ud && cqe->stag_invalid_set) {
			wc->ex.invalidate_rkey = cqe->inv_stag;
			wc->wc_flags |= IB_WC_WITH_INVALIDATE;
		}
	}

	if (ud) {
		wc->src_qp = cqe->ud_src_qpn;
		wc->slid = 0;
		wc->wc_flags |= IB_WC_GRH | IB_WC_WITH_NETWORK_HDR_TYPE;
		wc->network_hdr_type = cqe->ipv4 ? RDMA_NETWORK_IPV4 :
						   RDMA_NETWORK_IPV6;
	} else {
		wc->src_qp = cqe->qp_id;
	}
}

/* 0 with @wc filled in, or the ring's error (-ENOENT: ring is empty). */
static int irdma_poll_one(struct irdma_cq_uk *ring,
			  struct irdma_cq_poll_info *cqe, struct ib_wc *wc)
{
	int ret;

	ret = irdma_uk_cq_poll_cmpl(ring, cqe);
	if (ret)
		return ret;

	irdma_process_cqe(wc, cqe);

	return 0;
}

/*
 * Next completion of @ring.  Flush completions generated in software for
 * WRs the hardware will never complete are handed out after the current
 * ring's own CQEs.
 */
static int irdma_cq_next_wc(struct irdma_cq *iwcq, struct irdma_cq_uk *ring,
			    struct ib_wc *wc)
{
	struct irdma_cq_poll_info *cqe = &iwcq->cur_cqe;
	int ret;

	ret = irdma_poll_one(ring, cqe, wc);
	if (ret != -ENOENT || ring != &iwcq->sc_cq.cq_uk)
		return ret;

	ret = irdma_generated_cmpls(iwcq, cqe);
	if (!ret)
		irdma_process_cqe(wc, cqe);

	return ret;
}

/*
 * Poll up to @budget completions of @ring into @wc.  Returns how many were
 * reported or an error; *consumed tells whether the ring yielded any CQE,
 * counting those dropped because their QP is already destroyed (-EFAULT).
 */
static int irdma_cq_poll_ring(struct irdma_cq *iwcq, struct irdma_cq_uk *ring,
			      int budget, struct ib_wc *wc, bool *consumed)
{
	int polled = 0;
	int ret;

	*consumed = false;
	while (polled < budget) {
		ret = irdma_cq_next_wc(iwcq, ring, wc + polled);
		if (ret == -ENOENT)
			break;
		if (ret && ret != -EFAULT)
			return ret;
		if (!ret)
			polled++;
		*consumed = true;
	}

	return polled;
}

static int __irdma_poll_cq(struct irdma_cq *iwcq, int num_entries,
			   struct ib_wc *wc)
{
	struct irdma_cq_uk *ring = &iwcq->sc_cq.cq_uk;
	struct irdma_cq_buf *old, *last_used = NULL;
	int npolled = 0;
	int retired = 0;
	bool consumed;
	int ret;

	/* Rings replaced by a resize hold the oldest CQEs: drain them first. */
	list_for_each_entry(old, &iwcq->resize_list, list) {
		ret = irdma_cq_poll_ring(iwcq, &old->cq_uk,
					 num_entries - npolled, wc + npolled,
					 &consumed);
		if (ret < 0)
			goto error;
		npolled += ret;
		if (consumed)
			last_used = old;
	}

	ret = irdma_cq_poll_ring(iwcq, ring, num_entries - npolled,
				 wc + npolled, &consumed);
	if (ret < 0)
		goto error;
	npolled += ret;

	/*
	 * Once the current ring yields CQEs the hardware is done with all the
	 * old ones; otherwise only with those older than the last old ring
	 * that still had CQEs.  Tell the hardware how many were retired.
	 */
	if (consumed)
		retired = irdma_cq_retire_old_rings(iwcq, NULL);
	else if (last_used)
		retired = irdma_cq_retire_old_rings(iwcq, last_used);
	if (retired)
		irdma_uk_cq_set_resized_cnt(ring, retired);

	return npolled;

error:
	ibdev_dbg(iwcq->ibcq.device, "VERBS: CQ %u poll failed: %d\n",
		  iwcq->cq_num, ret);

	return ret;
}

static int irdma_poll_cq(struct ib_cq *ibcq, int num_entries, struct ib_wc *wc)
{
	struct irdma_cq *iwcq = to_iwcq(ibcq);
	unsigned long irqflags;
	int npolled;

	spin_lock_irqsave(&iwcq->lock, irqflags);
	npolled = __irdma_poll_cq(iwcq, num_entries, wc);
	spin_unlock_irqrestore(&iwcq->lock, irqflags);

	return npolled;
}

static int
irdma_req_notify_cq(struct ib_cq *ibcq, enum ib_cq_notify_flags notify_flags)
{
	struct irdma_cq *iwcq = to_iwcq(ibcq);
	bool solicited = (notify_flags & IB_CQ_SOLICITED_MASK) ==
			 IB_CQ_SOLICITED;
	enum irdma_cmpl_notify type = solicited ? IRDMA_CQ_COMPL_SOLICITED :
						  IRDMA_CQ_COMPL_EVENT;
	unsigned long irqflags;
	bool missed = false;
	bool widen;

	spin_lock_irqsave(&iwcq->lock, irqflags);
	/*
	 * An armed CQ stays armed until its event fires; arm it again only
	 * to widen a solicited-only arm to every completion.
	 */
	widen = !solicited && iwcq->last_notify == IRDMA_CQ_COMPL_SOLICITED;
	if (!atomic_cmpxchg(&iwcq->armed, 0, 1) || widen) {
		iwcq->last_notify = type;
		irdma_uk_cq_request_notification(&iwcq->sc_cq.cq_uk, type);
	}

	if (notify_flags & IB_CQ_REPORT_MISSED_EVENTS)
		missed = !irdma_cq_empty(iwcq) ||
			 !list_empty(&iwcq->cmpl_generated);
	spin_unlock_irqrestore(&iwcq->lock, irqflags);

	return missed;
}

/*
 * Memory registration.
 *
 * An MR or MW is named by a 32-bit STag: a hardware index (a bit of
 * rf->allocated_mrs) in the bits mr_stagmask covers above the low byte, a few
 * random "driver" bits above the mask, and the 8-bit consumer key below it.
 * Its pages are described to the hardware either directly (one page, its
 * address goes in the WQE or CQP command: "level 0"), or through PBLEs taken
 * from the HMC's PBLE area (pble.c): one run of PBLEs (level 1), or a root run
 * whose entries point at runs of up to 512 leaf PBLEs (level 2).
 */

static u16 irdma_mr_hw_access(int access)
{
	u16 hw = IRDMA_ACCESS_FLAGS_LOCALREAD;

	if (access & IB_ACCESS_LOCAL_WRITE)
		hw |= IRDMA_ACCESS_FLAGS_LOCALWRITE;
	if (access & IB_ACCESS_REMOTE_WRITE)
		hw |= IRDMA_ACCESS_FLAGS_REMOTEWRITE;
	if (access & IB_ACCESS_REMOTE_READ)
		hw |= IRDMA_ACCESS_FLAGS_REMOTEREAD;
	if (access & IB_ACCESS_MW_BIND)
		hw |= IRDMA_ACCESS_FLAGS_BIND_WINDOW;
	if (access & IB_ZERO_BASED)
		hw |= IRDMA_ACCESS_FLAGS_ZERO_BASED;
	return hw;
}

static u32 irdma_stag_to_idx(struct irdma_pci_f *rf, u32 stag)
{
	return (stag & rf->mr_stagmask) >> IRDMA_CQPSQ_STAG_IDX_S;
}

static void irdma_free_stag(struct irdma_device *iwdev, u32 key)
{
	struct irdma_pci_f *rf = iwdev->rf;

	irdma_free_rsrc(rf, rf->allocated_mrs, irdma_stag_to_idx(rf, key));
}

/*
 * A new STag, 0 when none is left.  The search for a free index starts at a
 * random place and the key bits are random, so a stale STag of a freed MR is
 * unlikely to name a new one.
 */
static u32 irdma_create_stag(struct irdma_device *dev)
{
	struct irdma_pci_f *rf = dev->rf;
	u32 rnd = get_random_u32();
	u32 start, idx;

	start = ((rnd & rf->mr_stagmask) >> IRDMA_CQPSQ_STAG_IDX_S) % rf->max_mr;
	if (irdma_alloc_rsrc(rf, rf->allocated_mrs, rf->max_mr, &idx, &start))
		return 0;

	return idx << IRDMA_CQPSQ_STAG_IDX_S | (rnd & ~rf->mr_stagmask) |
	       (u8)rnd;
}

/* An irdma_mr of @type on @ibpd, not yet known to the hardware. */
static struct irdma_mr *irdma_new_mr(struct ib_pd *ibpd, u16 type)
{
	/* a QP's or CQ's rings keep their request (irdma_ring_req()) */
	size_t len = type == IRDMA_MEMREG_TYPE_MEM ?
		     sizeof(struct irdma_mr) : sizeof(struct irdma_ring_mr);
	struct irdma_mr *mr = kzalloc(len, GFP_KERNEL);

	if (!mr)
		return NULL;
	mr->ibmr.pd = ibpd;
	mr->ibmr.device = ibpd->device;
	mr->iwpbl.iwmr = mr;
	mr->type = type;
	if (type != IRDMA_MEMREG_TYPE_MEM)
		refcount_set(&container_of(mr, struct irdma_ring_mr,
					   iwmr)->refs, 1);
	return mr;
}

/* Give @iwmr a new STag, as its lkey and rkey; false when none is left. */
static bool irdma_mr_new_stag(struct irdma_mr *iwmr)
{
	iwmr->stag = irdma_create_stag(to_iwdev(iwmr->ibmr.device));
	iwmr->ibmr.lkey = iwmr->stag;
	iwmr->ibmr.rkey = iwmr->stag;
	return iwmr->stag;
}

/* The index field of the CQP and WQE STag formats. */
static u32 irdma_stag_hw_idx(u32 stag)
{
	return stag >> IRDMA_CQPSQ_STAG_IDX_S;
}

/* A CQP request for @cmd that the caller waits on. */
static struct irdma_cqp_request *irdma_mr_cqp_get(struct irdma_device *iwdev,
						  u8 cmd)
{
	struct irdma_cqp_request *req;

	req = irdma_alloc_and_get_cqp_request(&iwdev->rf->cqp, true);
	if (!req)
		return NULL;
	req->info.cqp_cmd = cmd;
	req->info.post_sq = 1;
	return req;
}

static int irdma_mr_cqp_run(struct irdma_device *iwdev,
			    struct irdma_cqp_request *req)
{
	int ret = irdma_handle_cqp_op(iwdev->rf, req);

	irdma_put_cqp_request(&iwdev->rf->cqp, req);
	return ret;
}

/* The CQP request that tells the hardware an MR's or MW's STag is gone. */
static struct irdma_cqp_request *
irdma_dealloc_stag_req(struct irdma_device *iwdev, u32 pd_id, u32 stag,
		       bool is_mr, bool with_pbl)
{
	struct irdma_cqp_request *req;
	struct irdma_dealloc_stag_info *info;

	req = irdma_mr_cqp_get(iwdev, IRDMA_OP_DEALLOC_STAG);
	if (!req)
		return NULL;
	info = &req->info.in.u.dealloc_stag.info;
	memset(info, 0, sizeof(*info));
	info->pd_id = pd_id;
	info->stag_idx = irdma_stag_hw_idx(stag);
	info->mr = is_mr;
	info->dealloc_pbl = with_pbl;
	req->info.in.u.dealloc_stag.dev = &iwdev->rf->sc_dev;
	req->info.in.u.dealloc_stag.scratch = (uintptr_t)req;
	return req;
}

/*
 * Page addresses of a user MR into its PBLs: one run at level 1, the leaves
 * in turn at level 2.
 */
static void irdma_fill_user_pbl(struct irdma_mr *iwmr, u64 *pbl, u32 room,
				enum irdma_pble_level level)
{
	struct irdma_pble_info *leaf = NULL;
	struct ib_block_iter biter;
	u32 in_leaf = 0;

	if (level == PBLE_LEVEL_2)
		leaf = iwmr->iwpbl.pble_alloc.level2.leaf;
	if (iwmr->type == IRDMA_MEMREG_TYPE_QP)
		iwmr->iwpbl.qp_mr.sq_page =
			sg_page(iwmr->region->sgt_append.sgt.sgl);

	rdma_umem_for_each_dma_block(iwmr->region, &biter, iwmr->page_size) {
		if (!room--)
			break;
		if (leaf && in_leaf == leaf->cnt) {
			leaf++;
			pbl = leaf->addr;
			in_leaf = 0;
		}
		*pbl++ = rdma_block_iter_dma_address(&biter);
		in_leaf++;
	}
}

/* Do @n addresses from @addr on follow each other @pg_size apart? */
static bool irdma_pages_contiguous(const u64 *addr, u32 n, u32 pg_size)
{
	u32 i;

	for (i = 1; i < n; i++)
		if (addr[i] != addr[0] + (u64)i * pg_size)
			return false;
	return true;
}

/* Is the whole MR one physically contiguous range? */
static bool irdma_mr_contiguous(struct irdma_pble_alloc *pbles, u32 pg_size)
{
	struct irdma_pble_info *leaf = pbles->level2.leaf;
	u64 first;
	u32 i;

	if (pbles->level == PBLE_LEVEL_1)
		return irdma_pages_contiguous(pbles->level1.addr,
					      pbles->total_cnt, pg_size);

	first = leaf->addr[0];
	for (i = 0; i < pbles->level2.leaf_cnt; i++, leaf++) {
		if (leaf->addr[0] != first + (u64)i * PBLE_PER_PAGE * pg_size)
			return false;
		if (!irdma_pages_contiguous(leaf->addr, leaf->cnt, pg_size))
			return false;
	}
	return true;
}

/* Longer than an MR may be? */
static bool irdma_mr_len_bad(struct ib_device *ibdev, u64 len)
{
	return len > to_iwdev(ibdev)->rf->sc_dev.hw_attrs.max_mr_size;
}

static struct irdma_device *irdma_mr_iwdev(struct irdma_mr *iwmr)
{
	return to_iwdev(iwmr->ibmr.device);
}

static struct irdma_pci_f *irdma_mr_rf(struct irdma_mr *iwmr)
{
	return irdma_mr_iwdev(iwmr)->rf;
}

/*
 * Describe a user MR's pages: in PBLEs of a level @lvl allows, or, with
 * @lvl 0, in the first few iwmr->pgaddrmem slots.  pgaddrmem[0] always ends
 * up holding the first page.
 */
static int irdma_setup_pbles(struct irdma_mr *iwmr, u8 lvl)
{
	struct irdma_pble_alloc *pbles = &iwmr->iwpbl.pble_alloc;
	u64 *first;
	int ret;

	if (!lvl) {
		irdma_fill_user_pbl(iwmr, iwmr->pgaddrmem,
				    IRDMA_MAX_SAVED_PHY_PGADDR, PBLE_LEVEL_1);
		return 0;
	}

	ret = irdma_get_pble(irdma_mr_rf(iwmr)->pble_rsrc, pbles,
			     iwmr->page_cnt, lvl);
	if (ret)
		return ret;
	iwmr->iwpbl.pbl_allocated = true;

	first = pbles->level == PBLE_LEVEL_1 ? pbles->level1.addr :
					       pbles->level2.leaf->addr;
	irdma_fill_user_pbl(iwmr, first, pbles->total_cnt, pbles->level);
	iwmr->pgaddrmem[0] = *first;
	return 0;
}

static void irdma_release_pbles(struct irdma_mr *iwmr)
{
	if (!iwmr->iwpbl.pbl_allocated)
		return;
	irdma_free_pble(irdma_mr_rf(iwmr)->pble_rsrc, &iwmr->iwpbl.pble_alloc);
	iwmr->iwpbl.pbl_allocated = false;
}

/* CQs of devices that can resize them keep their shadow area elsewhere. */
static bool irdma_cq_shadow_follows_ring(struct irdma_pci_f *rf)
{
	u64 features = rf->sc_dev.hw_attrs.uk_attrs.feature_flags;

	return !(features & IRDMA_FEATURE_CQ_RESIZE);
}

/*
 * The rings of a user QP or CQ, registered ahead of create_qp/create_cq.  A
 * ring that is physically contiguous is given to the hardware by address and
 * its PBLEs are returned; otherwise by its level-1 PBLE index.  The page
 * after the rings is the shadow area.
 */
static int irdma_handle_q_mem(struct irdma_mr *iwmr,
			      const struct irdma_mem_reg_req *req, u8 lvl)
{
	struct irdma_pble_alloc *pbles = &iwmr->iwpbl.pble_alloc;
	struct irdma_pbl *iwpbl = &iwmr->iwpbl;
	u32 pg_size = iwmr->page_size;
	bool contiguous = true;
	u64 *pages;
	int ret;

	ret = irdma_setup_pbles(iwmr, lvl);
	if (ret)
		return ret;
	pages = lvl ? pbles->level1.addr : iwmr->pgaddrmem;

	if (iwmr->type == IRDMA_MEMREG_TYPE_QP) {
		struct irdma_qp_mr *rings = &iwpbl->qp_mr;
		u32 sq = req->sq_pages, rq = req->rq_pages;

		rings->shadow = (dma_addr_t)pages[sq + rq];
		if (lvl)
			contiguous = irdma_pages_contiguous(pages, sq, pg_size) &&
				     irdma_pages_contiguous(pages + sq, rq,
							    pg_size);
		if (contiguous) {
			rings->sq_pbl.addr = pages[0];
			rings->rq_pbl.addr = pages[sq];
		} else {
			rings->sq_pbl.idx = pbles->level1.idx;
			rings->rq_pbl.idx = pbles->level1.idx + sq;
		}
	} else {
		struct irdma_cq_mr *ring = &iwpbl->cq_mr;

		if (irdma_cq_shadow_follows_ring(irdma_mr_rf(iwmr)))
			ring->shadow = (dma_addr_t)pages[req->cq_pages];
		if (lvl)
			contiguous = irdma_pages_contiguous(pages,
							    req->cq_pages,
							    pg_size);
		if (contiguous)
			ring->cq_pbl.addr = pages[0];
		else
			ring->cq_pbl.idx = pbles->level1.idx;
	}

	if (lvl && contiguous)
		irdma_release_pbles(iwmr);
	return 0;
}

static int irdma_alloc_mw(struct ib_mw *mw, struct ib_udata *udata)
{
	struct irdma_device *iwdev = to_iwdev(mw->device);
	struct irdma_mr *iwmr = to_iwmw(mw);
	struct irdma_mw_alloc_info *info;
	struct irdma_cqp_request *req;
	int ret;

	iwmr->stag = irdma_create_stag(iwdev);
	if (!iwmr->stag)
		return -ENOMEM;
	mw->rkey = iwmr->stag;

	req = irdma_mr_cqp_get(iwdev, IRDMA_OP_MW_ALLOC);
	if (!req) {
		ret = -ENOMEM;
		goto free_stag;
	}
	info = &req->info.in.u.mw_alloc.info;
	memset(info, 0, sizeof(*info));
	info->mw_wide = mw->type == IB_MW_TYPE_1;
	info->page_size = PAGE_SIZE;
	info->mw_stag_index = irdma_stag_hw_idx(iwmr->stag);
	info->pd_id = to_iwpd(mw->pd)->sc_pd.pd_id;
	info->remote_access = true;
	req->info.in.u.mw_alloc.dev = &iwdev->rf->sc_dev;
	req->info.in.u.mw_alloc.scratch = (uintptr_t)req;
	ret = irdma_mr_cqp_run(iwdev, req);
	if (!ret)
		return 0;
free_stag:
	irdma_free_stag(iwdev, iwmr->stag);
	return ret;
}

static int irdma_dealloc_mw(struct ib_mw *mw)
{
	struct irdma_device *iwdev = to_iwdev(mw->device);
	struct irdma_cqp_request *req;

	req = irdma_dealloc_stag_req(iwdev, to_iwpd(mw->pd)->sc_pd.pd_id,
				     mw->rkey, false, false);
	if (!req)
		return -ENOMEM;
	/* the MW is gone for the core whatever the hardware answers */
	irdma_mr_cqp_run(iwdev, req);
	irdma_free_stag(iwdev, to_iwmw(mw)->stag);
	return 0;
}

/* Reserve a fast-register MR's STag and its length in the hardware. */
static int irdma_hw_alloc_stag(struct irdma_mr *iwmr)
{
	struct irdma_device *iwdev = irdma_mr_iwdev(iwmr);
	struct irdma_allocate_stag_info *info;
	struct irdma_cqp_request *req;
	int ret;

	req = irdma_mr_cqp_get(iwdev, IRDMA_OP_ALLOC_STAG);
	if (!req)
		return -ENOMEM;
	info = &req->info.in.u.alloc_stag.info;
	memset(info, 0, sizeof(*info));
	info->page_size = PAGE_SIZE;
	info->stag_idx = irdma_stag_hw_idx(iwmr->stag);
	info->pd_id = to_iwpd(iwmr->ibmr.pd)->sc_pd.pd_id;
	info->total_len = iwmr->len;
	info->remote_access = true;
	req->info.in.u.alloc_stag.dev = &iwdev->rf->sc_dev;
	req->info.in.u.alloc_stag.scratch = (uintptr_t)req;
	ret = irdma_mr_cqp_run(iwdev, req);
	if (!ret)
		iwmr->is_hwreg = true;
	return ret;
}

/*
 * An MR for IB_WR_REG_MR: a STag and room for @max_num_sg page addresses in
 * PBLEs, filled by map_mr_sg and handed to the hardware in the REG_MR WQE.
 */
static struct ib_mr *irdma_alloc_mr(struct ib_pd *mr_pd, enum ib_mr_type type,
				    u32 max_num_sg)
{
	struct irdma_device *iwdev = to_iwdev(mr_pd->device);
	struct irdma_mr *iwmr;
	int ret;

	/* no SG_GAPS or integrity MRs; a page list of 1 .. the advertised */
	if (type != IB_MR_TYPE_MEM_REG || !max_num_sg ||
	    max_num_sg > IRDMA_MAX_PAGES_PER_FMR)
		return ERR_PTR(-EINVAL);

	iwmr = irdma_new_mr(mr_pd, IRDMA_MEMREG_TYPE_MEM);
	if (!iwmr)
		return ERR_PTR(-ENOMEM);
	if (!irdma_mr_new_stag(iwmr)) {
		ret = -ENOMEM;
		goto free_mr;
	}
	iwmr->page_cnt = max_num_sg;
	/* the page size is only known at map time: reserve for PAGE_SIZE */
	iwmr->len = (u64)max_num_sg * PAGE_SIZE;

	/* level 0: level 1 if it fits, else level 2, adding SDs as needed */
	ret = irdma_get_pble(iwdev->rf->pble_rsrc, &iwmr->iwpbl.pble_alloc,
			     max_num_sg, 0);
	if (ret)
		goto free_stag;
	iwmr->iwpbl.pbl_allocated = true;

	ret = irdma_hw_alloc_stag(iwmr);
	if (ret)
		goto free_pbles;
	return &iwmr->ibmr;

free_pbles:
	irdma_release_pbles(iwmr);
free_stag:
	irdma_free_stag(iwdev, iwmr->stag);
free_mr:
	kfree(iwmr);
	return ERR_PTR(ret);
}

/* ib_sg_to_pages() callback: the next page address into the PBLEs. */
static int irdma_set_page(struct ib_mr *mr, u64 addr)
{
	struct irdma_mr *iwmr = to_iwmr(mr);
	struct irdma_pble_alloc *pbles = &iwmr->iwpbl.pble_alloc;
	u32 n = iwmr->npages;

	if (unlikely(n == iwmr->page_cnt))
		return -ENOMEM;

	if (pbles->level == PBLE_LEVEL_2)
		pbles->level2.leaf[n >> PBLE_512_SHIFT].addr[n % PBLE_PER_PAGE] =
			addr;
	else
		pbles->level1.addr[n] = addr;
	iwmr->npages = n + 1;
	return 0;
}

/*
 * The REG_MR WQE encodes 4K, 2M and 1G pages, as far as the device has them
 * (page_size_cap); anything else would be registered as 4K pages.
 */
static bool irdma_fmr_page_size_ok(const struct ib_mr *mr)
{
	u64 cap = to_iwdev(mr->device)->rf->sc_dev.hw_attrs.page_size_cap;

	return is_power_of_2(mr->page_size) && (cap & mr->page_size);
}

static int irdma_map_mr_sg(struct ib_mr *mr, struct scatterlist *sgl,
			   int nents, unsigned int *sg_offset)
{
	if (!irdma_fmr_page_size_ok(mr))
		return -EINVAL;
	to_iwmr(mr)->npages = 0;
	return ib_sg_to_pages(mr, sgl, nents, sg_offset, irdma_set_page);
}

/* Register a user, physical or DMA MR through the CQP. */
static int irdma_hwreg_mr(struct irdma_mr *iwmr, int access)
{
	struct irdma_device *iwdev = irdma_mr_iwdev(iwmr);
	struct irdma_pble_alloc *pbles = &iwmr->iwpbl.pble_alloc;
	struct irdma_reg_ns_stag_info *info;
	struct irdma_cqp_request *req;
	int ret;

	req = irdma_mr_cqp_get(iwdev, IRDMA_OP_MR_REG_NON_SHARED);
	if (!req)
		return -ENOMEM;
	info = &req->info.in.u.mr_reg_non_shared.info;
	memset(info, 0, sizeof(*info));
	info->va = iwmr->iwpbl.user_base;
	info->stag_idx = irdma_stag_hw_idx(iwmr->stag);
	info->stag_key = (u8)iwmr->stag;
	info->total_len = iwmr->len;
	info->access_rights = irdma_mr_hw_access(access);
	info->pd_id = to_iwpd(iwmr->ibmr.pd)->sc_pd.pd_id;
	info->all_memory = iwmr->dma_mr;
	info->addr_type = info->access_rights & IRDMA_ACCESS_FLAGS_ZERO_BASED ?
			  IRDMA_ADDR_TYPE_ZERO_BASED : IRDMA_ADDR_TYPE_VA_BASED;
	info->page_size = iwmr->page_size;
	if (!iwmr->iwpbl.pbl_allocated) {
		info->reg_addr_pa = iwmr->pgaddrmem[0];
	} else if (pbles->level == PBLE_LEVEL_1) {
		info->first_pm_pbl_index = pbles->level1.idx;
		info->chunk_size = 1;
	} else {
		info->first_pm_pbl_index = pbles->level2.root.idx;
		info->chunk_size = 3;
	}
	req->info.in.u.mr_reg_non_shared.dev = &iwdev->rf->sc_dev;
	req->info.in.u.mr_reg_non_shared.scratch = (uintptr_t)req;
	ret = irdma_mr_cqp_run(iwdev, req);
	if (!ret)
		iwmr->is_hwreg = true;
	return ret;
}

/*
 * Register a user MR of type IRDMA_MEMREG_TYPE_MEM: its pages, a new STag
 * unless a re-registration keeps the old one, then the CQP command.  A
 * physically contiguous MR needs no PBLEs.
 */
static int irdma_reg_user_mr_type_mem(struct irdma_mr *iwmr, int acc,
				      bool new_stag)
{
	struct irdma_device *iwdev = irdma_mr_iwdev(iwmr);
	u8 lvl = 0;
	int ret;

	if (iwmr->page_cnt != 1)
		lvl = PBLE_LEVEL_1 | PBLE_LEVEL_2;
	iwmr->access = acc;

	ret = irdma_setup_pbles(iwmr, lvl);
	if (ret)
		return ret;
	if (lvl && irdma_mr_contiguous(&iwmr->iwpbl.pble_alloc,
				       iwmr->page_size))
		irdma_release_pbles(iwmr);

	if (new_stag && !irdma_mr_new_stag(iwmr)) {
		ret = -ENOMEM;
		goto free_pbles;
	}

	ret = irdma_hwreg_mr(iwmr, acc);
	if (!ret)
		return 0;

	if (new_stag)
		irdma_free_stag(iwdev, iwmr->stag);
free_pbles:
	irdma_release_pbles(iwmr);
	return ret;
}

/* Size a new MR for @umem in the largest page size that describes it. */
static int irdma_mr_set_umem(struct irdma_mr *iwmr, struct ib_umem *umem,
			     u64 iova)
{
	struct irdma_pci_f *rf = irdma_mr_rf(iwmr);
	unsigned long pg_sizes = SZ_4K;

	/* QP and CQ rings are described in 4K pages */
	if (iwmr->type == IRDMA_MEMREG_TYPE_MEM)
		pg_sizes = rf->sc_dev.hw_attrs.page_size_cap;
	iwmr->page_size = ib_umem_find_best_pgsz(umem, pg_sizes, iova);
	if (unlikely(!iwmr->page_size))
		return -EOPNOTSUPP;

	iwmr->region = umem;
	iwmr->ibmr.iova = iova;
	iwmr->iwpbl.user_base = iova;
	iwmr->len = umem->length;
	iwmr->page_cnt = ib_umem_num_dma_blocks(umem, iwmr->page_size);
	return 0;
}

static struct irdma_mr *irdma_alloc_iwmr(struct ib_pd *ibpd,
					 struct ib_umem *umem, u64 iova,
					 u16 type)
{
	struct irdma_mr *iwmr;
	int ret;

	iwmr = irdma_new_mr(ibpd, type);
	if (!iwmr)
		return ERR_PTR(-ENOMEM);
	ret = irdma_mr_set_umem(iwmr, umem, iova);
	if (ret) {
		kfree(iwmr);
		return ERR_PTR(ret);
	}
	return iwmr;
}

static void irdma_memlist_add(struct irdma_pbl *iwpbl, struct list_head *list,
			      spinlock_t *lock)
{
	unsigned long flags;

	spin_lock_irqsave(lock, flags);
	list_add_tail(&iwpbl->list, list);
	iwpbl->on_list = true;
	spin_unlock_irqrestore(lock, flags);
}

static int irdma_reg_user_mr_type_qp(struct irdma_mr *iwmr,
				     const struct irdma_mem_reg_req *req,
				     struct irdma_ucontext *uctx)
{
	u32 ring_pages = req->sq_pages + req->rq_pages;
	int ret;

	/* an iWARP QP's rings must start on a page */
	if (!rdma_protocol_roce(iwmr->ibmr.device, 1) &&
	    ib_umem_offset(iwmr->region))
		return -EINVAL;
	/* the rings and the shadow area page */
	if (ring_pages + 1 > iwmr->page_cnt)
		return -EINVAL;

	ret = irdma_handle_q_mem(iwmr, req, ring_pages > 2 ? PBLE_LEVEL_1 :
							     PBLE_LEVEL_0);
	if (ret)
		return ret;
	container_of(iwmr, struct irdma_ring_mr, iwmr)->req = *req;
	irdma_memlist_add(&iwmr->iwpbl, &uctx->qp_reg_mem_list,
			  &uctx->qp_reg_mem_list_lock);
	return 0;
}

static int irdma_reg_user_mr_type_cq(struct irdma_mr *iwmr,
				     const struct irdma_mem_reg_req *req,
				     struct irdma_ucontext *uctx)
{
	u32 pages = req->cq_pages;
	int ret;

	if (irdma_cq_shadow_follows_ring(irdma_mr_rf(iwmr)))
		pages++;
	if (pages > iwmr->page_cnt)
		return -EINVAL;

	ret = irdma_handle_q_mem(iwmr, req, req->cq_pages > 1 ? PBLE_LEVEL_1 :
								PBLE_LEVEL_0);
	if (ret)
		return ret;
	container_of(iwmr, struct irdma_ring_mr, iwmr)->req = *req;
	irdma_memlist_add(&iwmr->iwpbl, &uctx->cq_reg_mem_list,
			  &uctx->cq_reg_mem_list_lock);
	return 0;
}

/*
 * reg_user_mr carries three kinds of registration, told apart by the
 * request's reg_type: a plain MR, or the rings of a QP or CQ that user space
 * creates next (create_qp/create_cq find them with irdma_get_pbl()).
 */
static struct ib_mr *irdma_reg_user_mr(struct ib_pd *mr_pd, u64 start, u64 len,
				       u64 iova, int access,
				       struct ib_udata *udata)
{
	const size_t min_req = offsetofend(struct irdma_mem_reg_req, sq_pages);
	struct irdma_device *iwdev = to_iwdev(mr_pd->device);
	struct irdma_ucontext *uctx;
	struct irdma_mem_reg_req req = {};
	struct ib_umem *umem;
	struct irdma_mr *iwmr;
	int ret;

	if (irdma_mr_len_bad(mr_pd->device, len) || udata->inlen < min_req)
		return ERR_PTR(-EINVAL);

	umem = ib_umem_get(mr_pd->device, start, len, access);
	if (IS_ERR(umem)) {
		ibdev_dbg(&iwdev->ibdev, "VERBS: ib_umem_get failed: %pe\n",
			  umem);
		return ERR_CAST(umem);
	}

	if (ib_copy_from_udata(&req, udata,
			       min_t(size_t, sizeof(req), udata->inlen))) {
		ret = -EFAULT;
		goto release;
	}

	iwmr = irdma_alloc_iwmr(mr_pd, umem, iova, req.reg_type);
	if (IS_ERR(iwmr)) {
		ret = PTR_ERR(iwmr);
		goto release;
	}

	uctx = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
					 ibucontext);
	switch (req.reg_type) {
	case IRDMA_MEMREG_TYPE_QP:
		ret = irdma_reg_user_mr_type_qp(iwmr, &req, uctx);
		break;
	case IRDMA_MEMREG_TYPE_CQ:
		ret = irdma_reg_user_mr_type_cq(iwmr, &req, uctx);
		break;
	case IRDMA_MEMREG_TYPE_MEM:
		ret = irdma_reg_user_mr_type_mem(iwmr, access, true);
		break;
	default:
		ret = -EINVAL;
	}
	if (!ret)
		return &iwmr->ibmr;

	kfree(iwmr);
release:
	ib_umem_release(umem);
	return ERR_PTR(ret);
}

static struct ib_mr *irdma_reg_user_mr_dmabuf(struct ib_pd *mr_pd, u64 start,
					      u64 len, u64 iova, int fd,
					      int access,
					      struct uverbs_attr_bundle *attrs)
{
	struct irdma_device *iwdev = to_iwdev(mr_pd->device);
	struct ib_umem_dmabuf *dmabuf;
	struct irdma_mr *iwmr;
	int ret;

	if (irdma_mr_len_bad(mr_pd->device, len))
		return ERR_PTR(-EINVAL);

	dmabuf = ib_umem_dmabuf_get_pinned(mr_pd->device, start, len, fd,
					   access);
	if (IS_ERR(dmabuf)) {
		ibdev_dbg(&iwdev->ibdev, "VERBS: dmabuf umem failed: %pe\n",
			  dmabuf);
		return ERR_CAST(dmabuf);
	}

	iwmr = irdma_alloc_iwmr(mr_pd, &dmabuf->umem, iova,
				IRDMA_MEMREG_TYPE_MEM);
	if (IS_ERR(iwmr)) {
		ret = PTR_ERR(iwmr);
		goto release;
	}
	ret = irdma_reg_user_mr_type_mem(iwmr, access, true);
	if (!ret)
		return &iwmr->ibmr;

	kfree(iwmr);
release:
	ib_umem_release(&dmabuf->umem);
	return ERR_PTR(ret);
}

/*
 * Undo the hardware registration.  Nothing to do when a failed
 * re-registration already did.
 */
static int irdma_hwdereg_mr(struct irdma_mr *iwmr)
{
	struct irdma_device *iwdev = irdma_mr_iwdev(iwmr);
	struct irdma_cqp_request *req;
	int ret;

	if (!iwmr->is_hwreg)
		return 0;

	req = irdma_dealloc_stag_req(iwdev, to_iwpd(iwmr->ibmr.pd)->sc_pd.pd_id,
				     iwmr->ibmr.rkey, true,
				     iwmr->iwpbl.pbl_allocated);
	if (!req)
		return -ENOMEM;
	ret = irdma_mr_cqp_run(iwdev, req);
	if (!ret)
		iwmr->is_hwreg = false;
	return ret;
}

/* IB_MR_REREG_TRANS: new pages under the old STag. */
static int irdma_rereg_mr_trans(struct irdma_mr *iwmr, u64 start, u64 size,
				u64 iova)
{
	struct ib_umem *umem;
	int ret;

	umem = ib_umem_get(iwmr->ibmr.device, start, size, iwmr->access);
	if (IS_ERR(umem))
		return PTR_ERR(umem);

	ret = irdma_mr_set_umem(iwmr, umem, iova);
	if (!ret)
		ret = irdma_reg_user_mr_type_mem(iwmr, iwmr->access, false);
	if (ret) {
		ib_umem_release(umem);
		iwmr->region = NULL;
	}
	return ret;
}

/*
 * Re-register in place: deregister in the hardware, change what was asked,
 * register again under the same STag.  NULL means the MR was updated.
 */
static struct ib_mr *irdma_rereg_user_mr(struct ib_mr *mr, int flags,
					 u64 start, u64 len, u64 iova,
					 int access, struct ib_pd *ibpd,
					 struct ib_udata *udata)
{
	const int supported = IB_MR_REREG_TRANS | IB_MR_REREG_PD |
			      IB_MR_REREG_ACCESS;
	struct irdma_mr *iwmr = to_iwmr(mr);
	int ret;

	if (irdma_mr_len_bad(mr->device, len))
		return ERR_PTR(-EINVAL);
	if (flags & ~supported)
		return ERR_PTR(-EOPNOTSUPP);
	if (iwmr->type != IRDMA_MEMREG_TYPE_MEM)
		return ERR_PTR(-EINVAL);

	ret = ib_umem_check_rereg(iwmr->region, flags, access);
	if (!ret)
		ret = irdma_hwdereg_mr(iwmr);
	if (ret)
		return ERR_PTR(ret);

	if (flags & IB_MR_REREG_ACCESS)
		iwmr->access = access;
	if (flags & IB_MR_REREG_PD) {
		mr->pd = ibpd;
		mr->device = ibpd->device;
	}

	if (flags & IB_MR_REREG_TRANS) {
		irdma_release_pbles(iwmr);
		ib_umem_release(iwmr->region);
		iwmr->region = NULL;
		ret = irdma_rereg_mr_trans(iwmr, start, len, iova);
	} else {
		ret = irdma_hwreg_mr(iwmr, iwmr->access);
	}
	return ret ? ERR_PTR(ret) : NULL;
}

/**
 * irdma_reg_phys_mr - register a physically contiguous kernel buffer
 * @pd: protection domain
 * @addr: bus address of the buffer
 * @size: its length in bytes
 * @access: IB_ACCESS_* rights
 * @iova_start: the address the MR is used at
 * @dma_mr: register all of memory (the PD's DMA MR); @addr and @size are 0
 *
 * Used for get_dma_mr and by the iWARP connection manager for its MPA
 * buffers.
 *
 * Return: the MR, or an ERR_PTR.
 */
struct ib_mr *irdma_reg_phys_mr(struct ib_pd *pd, u64 addr, u64 size,
				int access, u64 *iova_start, bool dma_mr)
{
	struct irdma_mr *iwmr;
	int ret;

	iwmr = irdma_new_mr(pd, IRDMA_MEMREG_TYPE_MEM);
	if (!iwmr)
		return ERR_PTR(-ENOMEM);
	if (!irdma_mr_new_stag(iwmr)) {
		ret = -ENOMEM;
		goto free_mr;
	}
	iwmr->ibmr.iova = *iova_start;
	iwmr->iwpbl.user_base = *iova_start;
	iwmr->dma_mr = dma_mr;
	iwmr->page_cnt = 1;
	iwmr->pgaddrmem[0] = addr;
	iwmr->len = size;
	iwmr->page_size = SZ_4K;

	ret = irdma_hwreg_mr(iwmr, access);
	if (!ret)
		return &iwmr->ibmr;

	irdma_free_stag(to_iwdev(pd->device), iwmr->stag);
free_mr:
	kfree(iwmr);
	return ERR_PTR(ret);
}

static struct ib_mr *irdma_get_dma_mr(struct ib_pd *ibpd, int access)
{
	u64 iova = 0;

	return irdma_reg_phys_mr(ibpd, 0, 0, access, &iova, true);
}

/*
 * Take a QP's or CQ's ring registration that is to be freed off its list
 * if it was never used.  -EBUSY while a CQ or QP holds it: the hardware
 * may still write to its pages.
 */
static int irdma_del_memlist(struct irdma_mr *iwmr, struct irdma_ucontext *uctx)
{
	struct irdma_pbl *iwpbl = &iwmr->iwpbl;
	spinlock_t *lock; /* of the list iwpbl is on */
	unsigned long flags;
	int ret = 0;

	if (iwmr->type == IRDMA_MEMREG_TYPE_CQ)
		lock = &uctx->cq_reg_mem_list_lock;
	else
		lock = &uctx->qp_reg_mem_list_lock;

	spin_lock_irqsave(lock, flags);
	if (!refcount_dec_if_one(&irdma_ring_mr(iwpbl)->refs)) {
		ret = -EBUSY;
	} else if (iwpbl->on_list) {
		iwpbl->on_list = false;
		list_del(&iwpbl->list);
	}
	spin_unlock_irqrestore(lock, flags);

	return ret;
}

static int irdma_dereg_mr(struct ib_mr *mr, struct ib_udata *udata)
{
	struct irdma_mr *iwmr = to_iwmr(mr);
	struct irdma_ucontext *uctx;
	int ret;

	if (iwmr->type == IRDMA_MEMREG_TYPE_MEM) {
		ret = irdma_hwdereg_mr(iwmr);
		if (ret)
			return ret;
		irdma_free_stag(to_iwdev(mr->device), iwmr->stag);
	} else if (iwmr->region) {
		uctx = rdma_udata_to_drv_context(udata, struct irdma_ucontext,
						 ibucontext);
		ret = irdma_del_memlist(iwmr, uctx);
		if (ret)
			return ret;
	}

	irdma_release_pbles(iwmr);
	ib_umem_release(iwmr->region);
	kfree(iwmr);
	return 0;
}

/*
 * Posting send work requests.  Each WR becomes one WQE in the SQ ring; the
 * doorbell is rung once for the whole list.
 */

static int irdma_post_send_wr(struct irdma_qp *iwqp,
			      const struct ib_send_wr *wr,
			      struct irdma_post_sq_info *info)
{
	struct irdma_qp_uk *ukqp = &iwqp->sc_qp.qp_uk;
	enum ib_qp_type type = iwqp->ibqp.qp_type;
	bool solicited = wr->send_flags & IB_SEND_SOLICITED;

	if (wr->opcode == IB_WR_SEND_WITH_INV) {
		info->op_type = solicited ? IRDMA_OP_TYPE_SEND_SOL_INV :
					    IRDMA_OP_TYPE_SEND_INV;
		info->stag_to_inv = wr->ex.invalidate_rkey;
	} else {
		info->op_type = solicited ? IRDMA_OP_TYPE_SEND_SOL :
					    IRDMA_OP_TYPE_SEND;
	}
	info->op.send.num_sges = wr->num_sge;
	info->op.send.sg_list = wr->sg_list;

	if (type == IB_QPT_UD || type == IB_QPT_GSI) {
		const struct ib_ud_wr *ud = ud_wr(wr);

		info->op.send.ah_id = to_iwah(ud->ah)->sc_ah.ah_info.ah_idx;
		info->op.send.qkey = ud->remote_qkey;
		info->op.send.dest_qp = ud->remote_qpn;
	}

	if (wr->send_flags & IB_SEND_INLINE)
		return irdma_uk_inline_send(ukqp, info, false);
	return irdma_uk_send(ukqp, info, false);
}

static int irdma_post_write_wr(struct irdma_qp_uk *ukqp,
			       const struct ib_send_wr *wr,
			       struct irdma_post_sq_info *info)
{
	struct irdma_rdma_write *op = &info->op.rdma_write;

	info->op_type = wr->send_flags & IB_SEND_SOLICITED ?
			IRDMA_OP_TYPE_RDMA_WRITE_SOL : IRDMA_OP_TYPE_RDMA_WRITE;
	op->lo_sg_list = wr->sg_list;
	op->num_lo_sges = wr->num_sge;
	op->rem_addr.addr = rdma_wr(wr)->remote_addr;
	op->rem_addr.lkey = rdma_wr(wr)->rkey;

	if (wr->send_flags & IB_SEND_INLINE)
		return irdma_uk_inline_rdma_write(ukqp, info, false);
	return irdma_uk_rdma_write(ukqp, info, false);
}

static int irdma_post_read_wr(struct irdma_qp_uk *ukqp,
			      const struct ib_send_wr *wr,
			      struct irdma_post_sq_info *info)
{
	struct irdma_rdma_read *op = &info->op.rdma_read;

	if (wr->num_sge > ukqp->uk_attrs->max_hw_read_sges)
		return -EINVAL;

	info->op_type = IRDMA_OP_TYPE_RDMA_READ;
	op->lo_sg_list = wr->sg_list;
	op->num_lo_sges = wr->num_sge;
	op->rem_addr.addr = rdma_wr(wr)->remote_addr;
	op->rem_addr.lkey = rdma_wr(wr)->rkey;
	return irdma_uk_rdma_read(ukqp, info,
				  wr->opcode == IB_WR_RDMA_READ_WITH_INV,
				  false);
}

static int irdma_post_local_inv_wr(struct irdma_qp_uk *ukqp,
				   const struct ib_send_wr *wr,
				   struct irdma_post_sq_info *info)
{
	info->op_type = IRDMA_OP_TYPE_INV_STAG;
	/* WQEs posted before still use the STag: let them finish first */
	info->local_fence = true;
	info->op.inv_local_stag.target_stag = wr->ex.invalidate_rkey;
	return irdma_uk_stag_local_invalidate(ukqp, info, false);
}

/* IB_WR_REG_MR: make the MR's STag valid for the pages map_mr_sg stored. */
static int irdma_post_reg_mr_wr(struct irdma_qp *iwqp,
				const struct ib_reg_wr *wr,
				const struct irdma_post_sq_info *sq_info)
{
	struct irdma_mr *iwmr = to_iwmr(wr->mr);
	struct irdma_pble_alloc *pbles = &iwmr->iwpbl.pble_alloc;
	struct irdma_fast_reg_stag_info info = {
		.wr_id = wr->wr.wr_id,
		.signaled = sq_info->signaled,
		.read_fence = sq_info->read_fence,
		.local_fence = true,
		.access_rights = irdma_mr_hw_access(wr->access),
		.stag_key = wr->key & 0xff,
		.stag_idx = irdma_stag_hw_idx(wr->key),
		.page_size = wr->mr->page_size,
		.addr_type = IRDMA_ADDR_TYPE_VA_BASED,
		.va = (void *)(uintptr_t)wr->mr->iova,
		.total_len = wr->mr->length,
	};

	/*
	 * A single page is programmed directly; more through the PBLEs, whose
	 * chunk size says how the hardware walks them: 1 for one run of
	 * level-1 PBLEs, 3 for a level-2 root.  At level 2 the first page's
	 * address is in the first leaf: level1.addr would alias the root.
	 */
	if (!irdma_fmr_page_size_ok(wr->mr))
		return -EINVAL;
	if (iwmr->npages <= 1) {
		info.reg_addr_pa = pbles->level == PBLE_LEVEL_2 ?
				   pbles->level2.leaf->addr[0] :
				   pbles->level1.addr[0];
	} else if (pbles->level == PBLE_LEVEL_2) {
		info.chunk_size = 3;
		info.first_pm_pbl_index = pbles->level2.root.idx;
	} else {
		info.chunk_size = 1;
		info.first_pm_pbl_index = pbles->level1.idx;
	}
	return irdma_sc_mr_fast_register(&iwqp->sc_qp, &info, false);
}

static int irdma_post_one(struct irdma_qp *iwqp, const struct ib_send_wr *wr)
{
	struct irdma_qp_uk *ukqp = &iwqp->sc_qp.qp_uk;
	struct irdma_post_sq_info info = {
		.wr_id = wr->wr_id,
		.signaled = (wr->send_flags & IB_SEND_SIGNALED) ||
			    iwqp->sig_all,
		.read_fence = wr->send_flags & IB_SEND_FENCE,
	};

	switch (wr->opcode) {
	case IB_WR_SEND_WITH_IMM:
		if (!(ukqp->qp_caps & IRDMA_SEND_WITH_IMM))
			return -EINVAL;
		info.imm_data_valid = true;
		info.imm_data = ntohl(wr->ex.imm_data);
		fallthrough;
	case IB_WR_SEND:
	case IB_WR_SEND_WITH_INV:
		return irdma_post_send_wr(iwqp, wr, &info);
	case IB_WR_RDMA_WRITE_WITH_IMM:
		if (!(ukqp->qp_caps & IRDMA_WRITE_WITH_IMM))
			return -EINVAL;
		info.imm_data_valid = true;
		info.imm_data = ntohl(wr->ex.imm_data);
		fallthrough;
	case IB_WR_RDMA_WRITE:
		return irdma_post_write_wr(ukqp, wr, &info);
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		return irdma_post_read_wr(ukqp, wr, &info);
	case IB_WR_LOCAL_INV:
		return irdma_post_local_inv_wr(ukqp, wr, &info);
	case IB_WR_REG_MR:
		return irdma_post_reg_mr_wr(iwqp, reg_wr(wr), &info);
	default:
		ibdev_dbg(&iwqp->iwdev->ibdev,
			  "VERBS: post_send: opcode %d not supported\n",
			  wr->opcode);
		return -EINVAL;
	}
}

static int irdma_post_send(struct ib_qp *qp, const struct ib_send_wr *wr,
			   const struct ib_send_wr **bad_wr)
{
	struct irdma_qp *iwqp = to_iwqp(qp);
	unsigned long irqf;
	bool flushed;
	int ret = 0;

	spin_lock_irqsave(&iwqp->lock, irqf);
	for (; wr; wr = wr->next) {
		ret = irdma_post_one(iwqp, wr);
		if (ret) {
			*bad_wr = wr;
			break;
		}
	}
	flushed = iwqp->flush_issued;
	if (!flushed && iwqp->hw_iwarp_state <= IRDMA_QP_STATE_RTS)
		irdma_uk_qp_post_wr(&iwqp->sc_qp.qp_uk);
	spin_unlock_irqrestore(&iwqp->lock, irqf);

	/*
	 * Once the QP has been flushed the hardware no longer reads the SQ:
	 * the flush worker completes what was just queued.
	 */
	if (flushed) {
		unsigned long delay = msecs_to_jiffies(IRDMA_FLUSH_DELAY_MS);
		struct workqueue_struct *wq = iwqp->iwdev->cleanup_wq;

		mod_delayed_work(wq, &iwqp->dwork_flush, delay);
	}
	return ret;
}

/* The port's GID and P_Key table sizes come from irdma_query_port(). */
static int irdma_port_immutable(struct ib_device *ibdev, u32 port,
				struct ib_port_immutable *imm, u32 core_caps,
				u32 mad_size)
{
	struct ib_port_attr pattr;
	int ret;

	ret = ib_query_port(ibdev, port, &pattr);
	if (ret)
		return ret;

	imm->core_cap_flags = core_caps;
	imm->max_mad_size = mad_size;
	imm->pkey_tbl_len = pattr.pkey_tbl_len;
	imm->gid_tbl_len = pattr.gid_tbl_len;
	return 0;
}

static int irdma_port_immutable_roce(struct ib_device *ibdev, u32 port,
				     struct ib_port_immutable *imm)
{
	return irdma_port_immutable(ibdev, port, imm,
				    RDMA_CORE_PORT_IBA_ROCE_UDP_ENCAP,
				    IB_MGMT_MAD_SIZE);
}

/* No MADs on iWARP; its P_Key table length is reported as 0. */
static int irdma_port_immutable_iwarp(struct ib_device *ibdev, u32 port,
				      struct ib_port_immutable *imm)
{
	return irdma_port_immutable(ibdev, port, imm, RDMA_CORE_PORT_IWARP, 0);
}

/*
 * Counter names as exposed in sysfs (hw_counters).  GEN_1 devices report
 * the first IRDMA_HW_STAT_INDEX_MAX_GEN_1 of them, GEN_2 devices all.
 */
static const struct rdma_stat_desc irdma_hw_stat_descs[] = {
	[IRDMA_HW_STAT_INDEX_IP4RXDISCARD] = { .name = "ip4InDiscards" },
	[IRDMA_HW_STAT_INDEX_IP4RXTRUNC] = { .name = "ip4InTruncatedPkts" },
	[IRDMA_HW_STAT_INDEX_IP4TXNOROUTE] = { .name = "ip4OutNoRoutes" },
	[IRDMA_HW_STAT_INDEX_IP6RXDISCARD] = { .name = "ip6InDiscards" },
	[IRDMA_HW_STAT_INDEX_IP6RXTRUNC] = { .name = "ip6InTruncatedPkts" },
	[IRDMA_HW_STAT_INDEX_IP6TXNOROUTE] = { .name = "ip6OutNoRoutes" },
	[IRDMA_HW_STAT_INDEX_TCPRTXSEG] = { .name = "tcpRetransSegs" },
	[IRDMA_HW_STAT_INDEX_TCPRXOPTERR] = { .name = "tcpInOptErrors" },
	[IRDMA_HW_STAT_INDEX_TCPRXPROTOERR] = { .name = "tcpInProtoErrors" },
	[IRDMA_HW_STAT_INDEX_RXVLANERR] = { .name = "rxVlanErrors" },
	[IRDMA_HW_STAT_INDEX_IP4RXOCTS] = { .name = "ip4InOctets" },
	[IRDMA_HW_STAT_INDEX_IP4RXPKTS] = { .name = "ip4InPkts" },
	[IRDMA_HW_STAT_INDEX_IP4RXFRAGS] = { .name = "ip4InReasmRqd" },
	[IRDMA_HW_STAT_INDEX_IP4RXMCPKTS] = { .name = "ip4InMcastPkts" },
	[IRDMA_HW_STAT_INDEX_IP4TXOCTS] = { .name = "ip4OutOctets" },
	[IRDMA_HW_STAT_INDEX_IP4TXPKTS] = { .name = "ip4OutPkts" },
	[IRDMA_HW_STAT_INDEX_IP4TXFRAGS] = { .name = "ip4OutSegRqd" },
	[IRDMA_HW_STAT_INDEX_IP4TXMCPKTS] = { .name = "ip4OutMcastPkts" },
	[IRDMA_HW_STAT_INDEX_IP6RXOCTS] = { .name = "ip6InOctets" },
	[IRDMA_HW_STAT_INDEX_IP6RXPKTS] = { .name = "ip6InPkts" },
	[IRDMA_HW_STAT_INDEX_IP6RXFRAGS] = { .name = "ip6InReasmRqd" },
	[IRDMA_HW_STAT_INDEX_IP6RXMCPKTS] = { .name = "ip6InMcastPkts" },
	[IRDMA_HW_STAT_INDEX_IP6TXOCTS] = { .name = "ip6OutOctets" },
	[IRDMA_HW_STAT_INDEX_IP6TXPKTS] = { .name = "ip6OutPkts" },
	[IRDMA_HW_STAT_INDEX_IP6TXFRAGS] = { .name = "ip6OutSegRqd" },
	[IRDMA_HW_STAT_INDEX_IP6TXMCPKTS] = { .name = "ip6OutMcastPkts" },
	[IRDMA_HW_STAT_INDEX_TCPRXSEGS] = { .name = "tcpInSegs" },
	[IRDMA_HW_STAT_INDEX_TCPTXSEG] = { .name = "tcpOutSegs" },
	[IRDMA_HW_STAT_INDEX_RDMARXRDS] = { .name = "iwInRdmaReads" },
	[IRDMA_HW_STAT_INDEX_RDMARXSNDS] = { .name = "iwInRdmaSends" },
	[IRDMA_HW_STAT_INDEX_RDMARXWRS] = { .name = "iwInRdmaWrites" },
	[IRDMA_HW_STAT_INDEX_RDMATXRDS] = { .name = "iwOutRdmaReads" },
	[IRDMA_HW_STAT_INDEX_RDMATXSNDS] = { .name = "iwOutRdmaSends" },
	[IRDMA_HW_STAT_INDEX_RDMATXWRS] = { .name = "iwOutRdmaWrites" },
	[IRDMA_HW_STAT_INDEX_RDMAVBND] = { .name = "iwRdmaBnd" },
	[IRDMA_HW_STAT_INDEX_RDMAVINV] = { .name = "iwRdmaInv" },
	[IRDMA_HW_STAT_INDEX_IP4RXMCOCTS] = { .name = "ip4InMcastOctets" },
	[IRDMA_HW_STAT_INDEX_IP4TXMCOCTS] = { .name = "ip4OutMcastOctets" },
	[IRDMA_HW_STAT_INDEX_IP6RXMCOCTS] = { .name = "ip6InMcastOctets" },
	[IRDMA_HW_STAT_INDEX_IP6TXMCOCTS] = { .name = "ip6OutMcastOctets" },
	[IRDMA_HW_STAT_INDEX_UDPRXPKTS] = { .name = "RxUDP" },
	[IRDMA_HW_STAT_INDEX_UDPTXPKTS] = { .name = "TxUDP" },
	[IRDMA_HW_STAT_INDEX_RXNPECNMARKEDPKTS] = { .name = "RxECNMrkd" },
	[IRDMA_HW_STAT_INDEX_RXRPCNPHANDLED] = { .name = "cnpHandled" },
	[IRDMA_HW_STAT_INDEX_RXRPCNPIGNORED] = { .name = "cnpIgnored" },
	[IRDMA_HW_STAT_INDEX_TXNPCNPSENT] = { .name = "cnpSent" },
};

static void irdma_get_dev_fw_str(struct ib_device *ibdev, char *str)
{
	struct irdma_sc_dev *dev = &to_iwdev(ibdev)->rf->sc_dev;

	snprintf(str, IB_FW_VERSION_NAME_MAX, "%u.%u", irdma_fw_major_ver(dev),
		 irdma_fw_minor_ver(dev));
}

static struct rdma_hw_stats *
irdma_alloc_port_stats(struct ib_device *ibdev, u32 port)
{
	struct irdma_sc_dev *dev = &to_iwdev(ibdev)->rf->sc_dev;

	return rdma_alloc_hw_stats_struct(irdma_hw_stat_descs,
					  dev->hw_attrs.max_stat_idx,
					  RDMA_HW_STATS_DEFAULT_LIFESPAN);
}

/*
 * Whatever @index asks for, refresh all counters: returning num_counters
 * tells the core they are all current.
 */
static int irdma_get_hw_stats(struct ib_device *dev,
			      struct rdma_hw_stats *stats, u32 port, int index)
{
	struct irdma_vsi_pestat *pestat = to_iwdev(dev)->vsi.pestat;
	struct irdma_pci_f *rf = to_iwdev(dev)->rf;

	if (rf->rdma_ver >= IRDMA_GEN_2)
		irdma_cqp_gather_stats_cmd(&rf->sc_dev, pestat, true);
	else
		irdma_cqp_gather_stats_gen1(&rf->sc_dev, pestat);

	memcpy(stats->value, pestat->hw_stats.stats_val,
	       stats->num_counters * sizeof(*stats->value));
	return stats->num_counters;
}

/* An iWARP port has a single GID: its MAC address, zero padded. */
static int irdma_query_gid(struct ib_device *dev, u32 port, int index,
			   union ib_gid *gid)
{
	memset(gid, 0, sizeof(*gid));
	ether_addr_copy(gid->raw, to_iwdev(dev)->netdev->dev_addr);
	return 0;
}

/*
 * Multicast groups live on rf->mc_qht_list, keyed by the group's IP address
 * in host order (as irdma_copy_ip_ntohl() leaves it), and are protected by
 * rf->qh_list_lock.  Each group owns a HW group id and a DMA buffer the HW
 * keeps its member QP list in.
 */
static struct mc_table_list *irdma_mcast_find(struct irdma_pci_f *rf,
					      const u32 *ip)
{
	struct mc_table_list *mcg;

	lockdep_assert_held(&rf->qh_list_lock);
	list_for_each_entry(mcg, &rf->mc_qht_list.list, list) {
		if (!memcmp(mcg->mc_info.dest_ip, ip,
			    sizeof(mcg->mc_info.dest_ip)))
			return mcg;
	}
	return NULL;
}

/* Returns true for an IPv4 group (a v4-mapped GID), which uses ip[0] only. */
static bool irdma_mcast_gid_to_ip(const union ib_gid *gid, u32 ip[4])
{
	union irdma_sockaddr sa;

	rdma_gid2ip((struct sockaddr *)&sa, gid);
	if (sa.saddr_in.sin_family == AF_INET) {
		ip[0] = ntohl(sa.saddr_in.sin_addr.s_addr);
		return true;
	}
	irdma_copy_ip_ntohl(ip, sa.saddr_in6.sin6_addr.s6_addr32);
	return false;
}

/* The create, modify and destroy MC commands share one argument layout. */
static int irdma_mcast_hw_op(struct irdma_pci_f *rf,
			     struct irdma_mcast_grp_info *grp, u8 op)
{
	struct irdma_cqp_request *req;
	struct cqp_cmds_info *cmd;
	int ret;

	req = irdma_alloc_and_get_cqp_request(&rf->cqp, true);
	if (!req)
		return -ENOMEM;

	cmd = &req->info;
	cmd->cqp_cmd = op;
	cmd->post_sq = 1;
	cmd->in.u.mc_create.info = *grp;
	cmd->in.u.mc_create.cqp = &rf->cqp.sc_cqp;
	cmd->in.u.mc_create.scratch = (uintptr_t)req;

	ret = irdma_handle_cqp_op(rf, req);
	irdma_put_cqp_request(&rf->cqp, req);
	return ret;
}

/*
 * Ethernet MAC of a multicast group; @ip is in host order words, the most
 * significant first.  IPv4: the low 23 bits under 01:00:5e (RFC 1112).
 * IPv6: the low-order 32 bits, ip[3], under 33:33 (RFC 2464), which is
 * what receivers filter on.
 */
void irdma_mcast_mac(u32 *ip, u8 *mac, bool ipv4)
{
	if (ipv4) {
		mac[0] = 0x01;
		mac[1] = 0x00;
		mac[2] = 0x5e;
		mac[3] = (ip[0] >> 16) & 0x7f;
		mac[4] = (ip[0] >> 8) & 0xff;
		mac[5] = ip[0] & 0xff;
		return;
	}
	mac[0] = 0x33;
	mac[1] = 0x33;
	put_unaligned_be32(ip[3], &mac[2]);
}

static void irdma_mcast_grp_free(struct irdma_pci_f *rf,
				 struct mc_table_list *mcg)
{
	struct irdma_dma_mem *mem = &mcg->mc_grp_ctx.dma_mem_mc;

	dma_free_coherent(rf->hw.device, mem->size, mem->va, mem->pa);
	irdma_free_rsrc(rf, rf->allocated_mcgs, mcg->mc_info.mgn);
	kfree(mcg);
}

/* A new group for @ip, still without members, not yet on the list. */
static struct mc_table_list *irdma_mcast_grp_alloc(struct irdma_pci_f *rf,
						   const u32 ip[4], bool ipv4,
						   u16 qs_handle)
{
	struct irdma_mcast_grp_info *grp;
	struct irdma_dma_mem *mem;
	struct mc_table_list *mcg;

	mcg = kzalloc(sizeof(*mcg), GFP_KERNEL);
	if (!mcg)
		return ERR_PTR(-ENOMEM);

	if (irdma_alloc_rsrc(rf, rf->allocated_mcgs, rf->max_mcg,
			     &mcg->mc_info.mgn, &rf->next_mcg))
		goto err_free;

	grp = &mcg->mc_grp_ctx;
	mem = &grp->dma_mem_mc;
	mem->size = ALIGN(IRDMA_MAX_MGS_PER_CTX * sizeof(u64),
			  IRDMA_HW_PAGE_SIZE);
	mem->va = dma_alloc_coherent(rf->hw.device, mem->size, &mem->pa,
				     GFP_KERNEL);
	if (!mem->va)
		goto err_free_mgn;

	mcg->mc_info.ipv4_valid = ipv4;
	memcpy(mcg->mc_info.dest_ip, ip, sizeof(mcg->mc_info.dest_ip));

	grp->mg_id = mcg->mc_info.mgn;
	grp->ipv4_valid = ipv4;
	memcpy(grp->dest_ip_addr, ip, sizeof(grp->dest_ip_addr));
	if (ipv4)
		grp->vlan_id = irdma_get_vlan_ipv4(grp->dest_ip_addr);
	else
		irdma_get_vlan_mac_ipv6(grp->dest_ip_addr, &grp->vlan_id, NULL);
	grp->vlan_valid = grp->vlan_id < VLAN_N_VID;
	grp->hmc_fcn_id = rf->sc_dev.hmc_fn_id;
	grp->qs_handle = qs_handle;
	irdma_mcast_mac(grp->dest_ip_addr, grp->dest_mac_addr, ipv4);
	return mcg;

err_free_mgn:
	irdma_free_rsrc(rf, rf->allocated_mcgs, mcg->mc_info.mgn);
err_free:
	kfree(mcg);
	return ERR_PTR(-ENOMEM);
}

/*
 * Take @member back out of @mcg after the HW refused the attach, and drop
 * the group if that empties it (then its create is what failed).
 */
static void irdma_mcast_attach_undo(struct irdma_pci_f *rf,
				    struct mc_table_list *mcg,
				    struct irdma_mcast_grp_ctx_entry_info *member)
{
	unsigned long irqf;
	bool empty;

	spin_lock_irqsave(&rf->qh_list_lock, irqf);
	irdma_sc_del_mcast_grp(&mcg->mc_grp_ctx, member);
	empty = !mcg->mc_grp_ctx.no_of_mgs;
	if (empty)
		list_del(&mcg->list);
	spin_unlock_irqrestore(&rf->qh_list_lock, irqf);

	if (empty)
		irdma_mcast_grp_free(rf, mcg);
}

static int irdma_attach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct irdma_mcast_grp_ctx_entry_info member = {
		.qp_id = ibqp->qp_num,
	};
	struct irdma_pci_f *rf = to_iwdev(ibqp->device)->rf;
	struct irdma_sc_qp *qp = &to_iwqp(ibqp)->sc_qp;
	struct mc_table_list *mcg;
	u32 ip[4] = {};
	unsigned long irqf;
	u32 old_cnt, new_cnt;
	bool ipv4;
	int ret;

	ipv4 = irdma_mcast_gid_to_ip(gid, ip);
	ibdev_dbg(ibqp->device, "VERBS: attach QP %u to mcast group %pI6\n",
		  ibqp->qp_num, gid->raw);

	spin_lock_irqsave(&rf->qh_list_lock, irqf);
	mcg = irdma_mcast_find(rf, ip);
	if (!mcg) {
		/* the group's DMA buffer is allocated with GFP_KERNEL */
		spin_unlock_irqrestore(&rf->qh_list_lock, irqf);
		mcg = irdma_mcast_grp_alloc(rf, ip, ipv4,
					    qp->vsi->qos[qp->user_pri].qs_handle);
		if (IS_ERR(mcg))
			return PTR_ERR(mcg);
		spin_lock_irqsave(&rf->qh_list_lock, irqf);
		list_add(&mcg->list, &rf->mc_qht_list.list);
	}
	old_cnt = mcg->mc_grp_ctx.no_of_mgs;
	if (old_cnt < IRDMA_MAX_MGS_PER_CTX)
		irdma_sc_add_mcast_grp(&mcg->mc_grp_ctx, &member);
	new_cnt = mcg->mc_grp_ctx.no_of_mgs;
	spin_unlock_irqrestore(&rf->qh_list_lock, irqf);

	if (old_cnt == IRDMA_MAX_MGS_PER_CTX)
		return -ENOMEM;
	/* attaching a member again only bumps its use count */
	if (new_cnt == old_cnt)
		return 0;

	ret = irdma_mcast_hw_op(rf, &mcg->mc_grp_ctx,
				old_cnt ? IRDMA_OP_MC_MODIFY :
					  IRDMA_OP_MC_CREATE);
	if (ret)
		irdma_mcast_attach_undo(rf, mcg, &member);
	return ret;
}

static int irdma_detach_mcast(struct ib_qp *ibqp, union ib_gid *gid, u16 lid)
{
	struct irdma_mcast_grp_ctx_entry_info member = {
		.qp_id = ibqp->qp_num,
	};
	struct irdma_pci_f *rf = to_iwdev(ibqp->device)->rf;
	struct mc_table_list *mcg;
	u32 ip[4] = {};
	unsigned long irqf;
	bool last = false;
	int ret;

	irdma_mcast_gid_to_ip(gid, ip);

	spin_lock_irqsave(&rf->qh_list_lock, irqf);
	mcg = irdma_mcast_find(rf, ip);
	if (mcg) {
		irdma_sc_del_mcast_grp(&mcg->mc_grp_ctx, &member);
		last = !mcg->mc_grp_ctx.no_of_mgs;
		/* unlinked, an emptied group cannot be found by an attach */
		if (last)
			list_del(&mcg->list);
	}
	spin_unlock_irqrestore(&rf->qh_list_lock, irqf);

	if (!mcg) {
		ibdev_dbg(ibqp->device, "VERBS: no mcast group %pI6\n",
			  gid->raw);
		return 0;
	}

	if (!last) {
		ret = irdma_mcast_hw_op(rf, &mcg->mc_grp_ctx,
					IRDMA_OP_MC_MODIFY);
		if (ret)
			ibdev_dbg(ibqp->device,
				  "VERBS: mcast group modify failed %d\n", ret);
		return ret;
	}

	ret = irdma_mcast_hw_op(rf, &mcg->mc_grp_ctx, IRDMA_OP_MC_DESTROY);
	if (ret) {
		/* still known to the HW: keep it so a later detach can retry */
		ibdev_dbg(ibqp->device,
			  "VERBS: mcast group destroy failed %d\n", ret);
		spin_lock_irqsave(&rf->qh_list_lock, irqf);
		list_add(&mcg->list, &rf->mc_qht_list.list);
		spin_unlock_irqrestore(&rf->qh_list_lock, irqf);
		return -EAGAIN;
	}

	irdma_mcast_grp_free(rf, mcg);
	return 0;
}

/*
 * With @sleep false the caller may be atomic: no waiting on the CQP, so
 * reap its completions here until irdma_gsi_ud_qp_ah_cb() marks the AH
 * valid.
 */
static int irdma_ah_create_hw(struct irdma_pci_f *rf, struct irdma_ah *ah,
			      bool sleep)
{
	struct irdma_ah_info *info = &ah->sc_ah.ah_info;
	int tries = CQP_COMPL_WAIT_TIME_MS * CQP_TIMEOUT_THRESHOLD;
	int ret;

	ret = irdma_alloc_rsrc(rf, rf->allocated_ahs, rf->max_ah,
			       &info->ah_idx, &rf->next_ah);
	if (ret)
		return ret;

	ret = irdma_ah_cqp_op(rf, &ah->sc_ah, IRDMA_OP_AH_CREATE, sleep,
			      irdma_gsi_ud_qp_ah_cb, &ah->sc_ah);
	if (ret) {
		ibdev_dbg(ah->ibah.device, "VERBS: AH create CQP op failed\n");
		goto err_free_idx;
	}
	if (sleep)
		return 0;

	do {
		irdma_cqp_ce_handler(rf, &rf->ccq.sc_cq);
		mdelay(1);
		if (info->ah_valid)
			return 0;
	} while (--tries);

	ibdev_dbg(ah->ibah.device, "VERBS: AH create CQP op timed out\n");
	ret = -ETIMEDOUT;
err_free_idx:
	irdma_free_rsrc(rf, rf->allocated_ahs, info->ah_idx);
	return ret;
}

/*
 * Source and destination IPs in host order.  Returns true for a multicast
 * destination, which also loops back to local members.
 */
static bool irdma_ah_set_ips(struct irdma_ah_info *info,
			     const union ib_gid *sgid,
			     const union ib_gid *dgid, bool ipv4)
{
	union irdma_sockaddr src, dst;
	bool mcast;

	rdma_gid2ip((struct sockaddr *)&src, sgid);
	rdma_gid2ip((struct sockaddr *)&dst, dgid);
	if (ipv4) {
		info->ipv4_valid = true;
		info->src_ip_addr[0] = ntohl(src.saddr_in.sin_addr.s_addr);
		info->dest_ip_addr[0] = ntohl(dst.saddr_in.sin_addr.s_addr);
		info->do_lpbk = irdma_ipv4_is_lpb(info->src_ip_addr[0],
						  info->dest_ip_addr[0]);
		mcast = ipv4_is_multicast(dst.saddr_in.sin_addr.s_addr);
	} else {
		irdma_copy_ip_ntohl(info->src_ip_addr,
				    src.saddr_in6.sin6_addr.s6_addr32);
		irdma_copy_ip_ntohl(info->dest_ip_addr,
				    dst.saddr_in6.sin6_addr.s6_addr32);
		info->do_lpbk = irdma_ipv6_is_lpb(info->src_ip_addr,
						  info->dest_ip_addr);
		mcast = rdma_is_multicast_addr(&dst.saddr_in6.sin6_addr);
	}

	if (mcast)
		info->do_lpbk = true;
	return mcast;
}

/* Fill in the AH from @ah_attr; nothing is allocated, nothing to undo. */
static int irdma_ah_setup(struct ib_ah *ah_ib, struct rdma_ah_attr *ah_attr)
{
	struct irdma_device *iwdev = to_iwdev(ah_ib->device);
	const struct ib_global_route *grh = &ah_attr->grh;
	struct irdma_ah *ah = to_iwah(ah_ib);
	struct irdma_ah_info *info = &ah->sc_ah.ah_info;
	const u8 *dmac = ah_attr->roce.dmac;
	u8 mcast_mac[ETH_ALEN];
	int arp_idx;
	int ret;

	ah->pd = to_iwpd(ah_ib->pd);
	ah->sgid_index = grh->sgid_index;
	ah->dgid = grh->dgid;
	ah->av.attrs = *ah_attr;
	ah->av.net_type = rdma_gid_attr_network_type(grh->sgid_attr);

	info->vsi = &iwdev->vsi;
	irdma_sc_init_ah(&iwdev->rf->sc_dev, &ah->sc_ah);
	info->pd_idx = ah->pd->sc_pd.pd_id;
	if (ah_attr->ah_flags & IB_AH_GRH) {
		info->flow_label = grh->flow_label;
		info->hop_ttl = grh->hop_limit;
		info->tc_tos = grh->traffic_class;
	}

	if (irdma_ah_set_ips(info, &grh->sgid_attr->gid, &grh->dgid,
			     ah->av.net_type == RDMA_NETWORK_IPV4)) {
		irdma_mcast_mac(info->dest_ip_addr, mcast_mac,
				info->ipv4_valid);
		dmac = mcast_mac;
	}

	ret = rdma_read_gid_l2_fields(grh->sgid_attr, &info->vlan_tag,
				      info->mac_addr);
	if (ret)
		return ret;

	arp_idx = irdma_add_arp(iwdev->rf, info->dest_ip_addr,
				info->ipv4_valid, dmac);
	if (arp_idx < 0)
		return -EINVAL;
	info->dst_arpindex = arp_idx;

	/* in DCB VLAN mode untagged traffic still carries a priority tag */
	if (info->vlan_tag >= VLAN_N_VID && iwdev->dcb_vlan_mode)
		info->vlan_tag = 0;
	if (info->vlan_tag < VLAN_N_VID) {
		u8 prio = irdma_roce_get_vlan_prio(grh->sgid_attr,
						   rt_tos2priority(info->tc_tos));

		info->vlan_tag |= (u16)prio << VLAN_PRIO_SHIFT;
		info->insert_vlan_tag = true;
	}
	return 0;
}

/*
 * User AHs with identical HW attributes share one HW AH.  The first one
 * puts a refcounted copy of itself in iwdev->ah_hash_tbl (ah_tbl_lock),
 * hashed on the destination IP; each user AH, that first one included,
 * points at the copy through parent_ah and holds a reference on it.
 */
static u32 irdma_ah_hash_key(const struct irdma_ah_info *info)
{
	return info->dest_ip_addr[0] ^ info->dest_ip_addr[1] ^
	       info->dest_ip_addr[2] ^ info->dest_ip_addr[3];
}

static bool irdma_ah_share_cached(struct irdma_device *iwdev,
				  struct irdma_ah *ah)
{
	struct irdma_ah_info *info = &ah->sc_ah.ah_info;
	struct irdma_ah *cached;

	lockdep_assert_held(&iwdev->ah_tbl_lock);
	hash_for_each_possible(iwdev->ah_hash_tbl, cached, list,
			       irdma_ah_hash_key(info)) {
		/* the HW index and valid bit are the cached AH's own */
		info->ah_idx = cached->sc_ah.ah_info.ah_idx;
		info->ah_valid = cached->sc_ah.ah_info.ah_valid;
		if (memcmp(info, &cached->sc_ah.ah_info, sizeof(*info)))
			continue;

		refcount_inc(&cached->refcnt);
		ah->parent_ah = cached;
		return true;
	}
	return false;
}

/* Without memory for the copy the AH simply is not shared. */
static void irdma_ah_cache(struct irdma_device *iwdev, struct irdma_ah *ah)
{
	struct irdma_ah *cached;

	lockdep_assert_held(&iwdev->ah_tbl_lock);
	cached = kmemdup(ah, sizeof(*ah), GFP_KERNEL);
	if (!cached)
		return;

	refcount_set(&cached->refcnt, 1);
	hash_add(iwdev->ah_hash_tbl, &cached->list,
		 irdma_ah_hash_key(&cached->sc_ah.ah_info));
	ah->parent_ah = cached;
}

/* Returns true when that was the last user of the shared HW AH. */
static bool irdma_ah_put_cached(struct irdma_ah *cached)
{
	struct irdma_device *iwdev = to_iwdev(cached->ibah.device);
	bool last;

	mutex_lock(&iwdev->ah_tbl_lock);
	last = refcount_dec_and_test(&cached->refcnt);
	if (last)
		hash_del(&cached->list);
	mutex_unlock(&iwdev->ah_tbl_lock);

	if (last)
		kfree(cached);
	return last;
}

/*
 * Kernel AHs may be destroyed in atomic context, so the HW AH is destroyed
 * without waiting for the CQP.  Only user AHs, always destroyed sleepable,
 * are ever shared.
 */
static int irdma_destroy_ah(struct ib_ah *ibah, u32 flags)
{
	struct irdma_pci_f *rf = to_iwdev(ibah->device)->rf;
	struct irdma_ah *ah = to_iwah(ibah);

	if ((flags & RDMA_DESTROY_AH_SLEEPABLE) && ah->parent_ah &&
	    !irdma_ah_put_cached(ah->parent_ah))
		return 0;

	irdma_ah_cqp_op(rf, &ah->sc_ah, IRDMA_OP_AH_DESTROY, false, NULL, NULL);
	irdma_free_rsrc(rf, rf->allocated_ahs, ah->sc_ah.ah_info.ah_idx);
	return 0;
}

static int irdma_create_user_ah(struct ib_ah *ah_ib,
				struct rdma_ah_init_attr *init_attr,
				struct ib_udata *udata)
{
	struct irdma_create_ah_resp resp = {};
	struct irdma_ah *ah = to_iwah(ah_ib);
	struct irdma_device *iwdev;
	int ret;

	if (udata->outlen < offsetofend(struct irdma_create_ah_resp, rsvd))
		return -EINVAL;

	ret = irdma_ah_setup(ah_ib, init_attr->ah_attr);
	if (ret)
		return ret;

	iwdev = to_iwdev(ah_ib->device);
	mutex_lock(&iwdev->ah_tbl_lock);
	if (!irdma_ah_share_cached(iwdev, ah)) {
		ret = irdma_ah_create_hw(iwdev->rf, ah, true);
		if (ret) {
			mutex_unlock(&iwdev->ah_tbl_lock);
			return ret;
		}
		irdma_ah_cache(iwdev, ah);
	}
	mutex_unlock(&iwdev->ah_tbl_lock);

	resp.ah_id = ah->sc_ah.ah_info.ah_idx;
	ret = ib_copy_to_udata(udata, &resp, min(sizeof(resp), udata->outlen));
	if (ret)
		irdma_destroy_ah(ah_ib, RDMA_DESTROY_AH_SLEEPABLE);
	return ret;
}

static int irdma_create_ah(struct ib_ah *ibah,
			   struct rdma_ah_init_attr *init_attr,
			   struct ib_udata *udata)
{
	int ret;

	ret = irdma_ah_setup(ibah, init_attr->ah_attr);
	if (ret)
		return ret;

	return irdma_ah_create_hw(to_iwdev(ibah->device)->rf, to_iwah(ibah),
				  init_attr->flags & RDMA_CREATE_AH_SLEEPABLE);
}

static int irdma_query_ah(struct ib_ah *ibah, struct rdma_ah_attr *attr)
{
	struct irdma_ah *ah = to_iwah(ibah);
	struct irdma_ah_info *info = &ah->sc_ah.ah_info;

	memset(attr, 0, sizeof(*attr));
	if (!(ah->av.attrs.ah_flags & IB_AH_GRH))
		return 0;

	attr->ah_flags = IB_AH_GRH;
	attr->grh.dgid = ah->dgid;
	attr->grh.sgid_index = ah->sgid_index;
	attr->grh.flow_label = info->flow_label;
	attr->grh.traffic_class = info->tc_tos;
	attr->grh.hop_limit = info->hop_ttl;
	return 0;
}

static enum rdma_link_layer
irdma_get_link_layer(struct ib_device *ibdev, u32 port)
{
	return IB_LINK_LAYER_ETHERNET;
}

/* Verbs only a RoCE function has. */
static const struct ib_device_ops irdma_roce_ops = {
	.attach_mcast = irdma_attach_mcast,
	.create_ah = irdma_create_ah,
	.create_user_ah = irdma_create_user_ah,
	.destroy_ah = irdma_destroy_ah,
	.detach_mcast = irdma_detach_mcast,
	.get_link_layer = irdma_get_link_layer,
	.get_port_immutable = irdma_port_immutable_roce,
	.modify_qp = irdma_modify_qp_roce,
	.query_ah = irdma_query_ah,
	.query_pkey = irdma_query_pkey,
};

/* Verbs only an iWARP function has: connections are made by the iw_cm. */
static const struct ib_device_ops irdma_iwarp_ops = {
	.get_port_immutable = irdma_port_immutable_iwarp,
	.iw_accept = irdma_accept,
	.iw_add_ref = irdma_qp_add_ref,
	.iw_connect = irdma_connect,
	.iw_create_listen = irdma_create_listen,
	.iw_destroy_listen = irdma_destroy_listen,
	.iw_get_qp = irdma_get_qp,
	.iw_reject = irdma_reject,
	.iw_rem_ref = irdma_qp_rem_ref,
	.modify_qp = irdma_modify_qp,
	.query_gid = irdma_query_gid,
};

static const struct ib_device_ops irdma_common_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_IRDMA,
	.uverbs_abi_ver = IRDMA_ABI_VER,

	.alloc_hw_port_stats = irdma_alloc_port_stats,
	.alloc_mr = irdma_alloc_mr,
	.alloc_mw = irdma_alloc_mw,
	.alloc_pd = irdma_alloc_pd,
	.alloc_ucontext = irdma_alloc_ucontext,
	.create_cq = irdma_create_cq,
	.create_qp = irdma_create_qp,
	.dealloc_driver = irdma_ib_dealloc_device,
	.dealloc_mw = irdma_dealloc_mw,
	.dealloc_pd = irdma_dealloc_pd,
	.dealloc_ucontext = irdma_dealloc_ucontext,
	.dereg_mr = irdma_dereg_mr,
	.destroy_cq = irdma_destroy_cq,
	.destroy_qp = irdma_destroy_qp,
	.disassociate_ucontext = irdma_disassociate_ucontext,
	.get_dev_fw_str = irdma_get_dev_fw_str,
	.get_dma_mr = irdma_get_dma_mr,
	.get_hw_stats = irdma_get_hw_stats,
	.map_mr_sg = irdma_map_mr_sg,
	.mmap = irdma_mmap,
	.mmap_free = irdma_mmap_free,
	.poll_cq = irdma_poll_cq,
	.post_recv = irdma_post_recv,
	.post_send = irdma_post_send,
	.query_device = irdma_query_device,
	.query_port = irdma_query_port,
	.query_qp = irdma_query_qp,
	.reg_user_mr = irdma_reg_user_mr,
	.reg_user_mr_dmabuf = irdma_reg_user_mr_dmabuf,
	.rereg_user_mr = irdma_rereg_user_mr,
	.req_notify_cq = irdma_req_notify_cq,
	.resize_cq = irdma_resize_cq,
	INIT_RDMA_OBJ_SIZE(ib_ah, irdma_ah, ibah),
	INIT_RDMA_OBJ_SIZE(ib_cq, irdma_cq, ibcq),
	INIT_RDMA_OBJ_SIZE(ib_mw, irdma_mr, ibmw),
	INIT_RDMA_OBJ_SIZE(ib_pd, irdma_pd, ibpd),
	INIT_RDMA_OBJ_SIZE(ib_qp, irdma_qp, ibqp),
	INIT_RDMA_OBJ_SIZE(ib_ucontext, irdma_ucontext, ibucontext),
};

/*
 * Fill in the ib_device: the verbs and node type of an iWARP or a RoCE
 * function, and what the netdev and PCI function say.
 */
static void irdma_init_rdma_device(struct irdma_device *wdev)
{
	struct ib_device *ibdev = &wdev->ibdev;
	struct net_device *netdev = wdev->netdev;
	bool roce = wdev->roce_mode;

	addrconf_addr_eui48((u8 *)&ibdev->node_guid, netdev->dev_addr);
	ibdev->node_type = roce ? RDMA_NODE_IB_CA : RDMA_NODE_RNIC;
	ib_set_device_ops(ibdev, roce ? &irdma_roce_ops : &irdma_iwarp_ops);
	ib_set_device_ops(ibdev, &irdma_common_ops);
	if (!roce)
		memcpy(ibdev->iw_ifname, netdev->name, sizeof(ibdev->iw_ifname));
	ibdev->phys_port_cnt = 1;
	ibdev->num_comp_vectors = wdev->rf->ceqs_count;
	ibdev->dev.parent = &wdev->rf->pcidev->dev;
}

/**
 * irdma_port_ibevent - report the port's state to the RDMA core
 * @dev: irdma device
 *
 * IB_EVENT_PORT_ACTIVE while iwdev->iw_status is set, IB_EVENT_PORT_ERR
 * otherwise.
 */
void irdma_port_ibevent(struct irdma_device *dev)
{
	struct ib_event ev = {
		.device = &dev->ibdev,
		.element.port_num = 1,
		.event = dev->iw_status ? IB_EVENT_PORT_ACTIVE :
					    IB_EVENT_PORT_ERR,
	};

	ib_dispatch_event(&ev);
}

/**
 * irdma_ib_unregister_device - take the device away from the RDMA core
 * @dev: irdma device
 *
 * The port goes down first, so that users see it before they are told
 * to let go of the device.
 */
void irdma_ib_unregister_device(struct irdma_device *dev)
{
	dev->iw_status = 0;
	irdma_port_ibevent(dev);
	ib_unregister_device(&dev->ibdev);
}

/**
 * irdma_ib_register_device - make the device known to the RDMA core
 * @dev: irdma device, its hardware already initialised
 *
 * Return: 0 with the port reported active, or a negative errno.
 */
int irdma_ib_register_device(struct irdma_device *dev)
{
	struct device *dma_dev = dev->rf->hw.device;
	int ret;

	irdma_init_rdma_device(dev);
	ret = ib_device_set_netdev(&dev->ibdev, dev->netdev, 1);
	if (!ret) {
		/* an SGE carries up to 4 GiB: no need to cut DMA segments */
		dma_set_max_seg_size(dma_dev, UINT_MAX);
		ret = ib_register_device(&dev->ibdev, "irdma%d", dma_dev);
	}
	if (ret) {
		ibdev_dbg(&dev->ibdev, "VERBS: registration failed: %d\n",
			  ret);
		return ret;
	}

	dev->iw_status = 1;
	irdma_port_ibevent(dev);
	return 0;
}

/**
 * irdma_ib_dealloc_device - free the hardware state behind an ib_device
 * @dev: the device, already unregistered
 *
 * The RDMA core's dealloc_driver callback: runtime state first, then the
 * control path, then the PCI function's structure.
 */
void irdma_ib_dealloc_device(struct ib_device *dev)
{
	struct irdma_device *wdev = to_iwdev(dev);

	irdma_rt_deinit_hw(wdev);
	irdma_ctrl_deinit_hw(wdev->rf);
	kfree(wdev->rf);
}
