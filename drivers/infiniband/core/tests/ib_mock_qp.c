// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mock RDMA device's send queue.  A QP executes each send work request
 * at post time, in order: RDMA WRITE and READ copy bytes between the local
 * SGEs and the mock's "remote" buffer, REG_MR and LOCAL_INV register and
 * invalidate MRs, and whatever an HCA would refuse (a stale key, a range
 * outside the MR or the remote buffer, a missing access right, registering
 * a valid MR, more SGEs than the device takes) is refused here too: at
 * post time for malformed requests and for more work requests than the
 * send queue holds (a slot is free again once a completion at or after its
 * work request is polled), as an error completion otherwise, after which
 * the QP flushes everything behind it.
 *
 * An RDMA READ or WRITE through an integrity MR's key runs the data
 * through the software T10-PI engine of ib_mock_pi.c, which inserts,
 * checks or strips PI as the MR's signature attributes say.  A PI error,
 * as on hardware, does not fail the work request.
 */
#include <rdma/ib_sig_sw.h>

#include "ib_mock_internal.h"
#include "ib_mock_pi.h"

static struct mock_mr *mock_find_mr(struct ib_qp *ibqp, u32 key)
{
	return xa_load(&to_mdev(ibqp->device)->mrs, key >> 8);
}

/*
 * ib_mock_lax_access: accept MRs registered with more rights than the I/O
 * that uses them needs.  Off by default: an RDMA READ or WRITE through an MR whose access flags
 * are not exactly what it uses (LOCAL_WRITE for a READ's sink, with
 * REMOTE_WRITE on iWARP; none for a WRITE's source) fails the test.  A
 * suite that judges code known to register with rights to spare (the base
 * tree's rw.c) turns it on.
 */
bool ib_mock_lax_access;
EXPORT_SYMBOL_GPL(ib_mock_lax_access);

/* @mr grants @access, and no more unless ib_mock_lax_access says so. */
static bool mock_mr_grants(struct ib_mock *mock, const struct mock_mr *mr,
			   int access)
{
	if ((mr->access & access) != access)
		return false;
	if (mr->access == access || ib_mock_lax_access)
		return true;
	KUNIT_FAIL(mock->test,
		   "MR %#x was registered with access %#x, its %s needs %#x",
		   mr->key, mr->access,
		   access & IB_ACCESS_LOCAL_WRITE ? "READ" : "WRITE", access);
	return false;
}

/*
 * Kernel address of the local bytes at @addr through @lkey, with *@len cut
 * at the end of the MR page that holds them, or NULL when @lkey does not
 * grant @access to all of them or they are not DMA-mapped for it.
 */
static u8 *mock_local(struct ib_qp *ibqp, u32 lkey, u64 addr, u32 *len,
		      int access)
{
	struct mock_dev *mdev = to_mdev(ibqp->device);
	bool write = access & IB_ACCESS_LOCAL_WRITE;
	struct mock_mr *mr;
	u64 rel;

	if (lkey == MOCK_LOCAL_DMA_LKEY &&
	    !mdev->mock->profile->no_local_dma_lkey)
		return ib_mock_dma_ptr(mdev, addr, *len, write);

	mr = mock_find_mr(ibqp, lkey);
	if (mr && mr->dma && mr->key == lkey &&
	    (mr->access & access) == access)
		return ib_mock_dma_ptr(mdev, addr, *len, write);
	if (!mr || mr->dma || mr->integrity || mr->state != MOCK_MR_VALID ||
	    mr->key != lkey || !mock_mr_grants(mdev->mock, mr, access) ||
	    addr < mr->iova ||
	    addr + *len > mr->iova + mr->length)
		return NULL;

	rel = addr - (mr->iova & ~((u64)mr->page_size - 1));
	*len = min_t(u64, *len, mr->page_size - rel % mr->page_size);
	return ib_mock_dma_ptr(mdev, mr->reg_pages[rel / mr->page_size] +
			    rel % mr->page_size, *len, write);
}

static u8 *mock_remote(struct ib_mock *mock, u32 rkey, u64 addr, u32 len)
{
	if (rkey != mock->remote_rkey || addr < mock->remote_addr ||
	    addr + len > mock->remote_addr + mock->remote_len)
		return NULL;
	return mock->remote + (addr - mock->remote_addr);
}

/*
 * Copy @len bytes between @buf and the pages an MR maps, starting @off
 * bytes into the first of @pages.  Return: false if the pages are not
 * DMA-mapped for it, after copying what was.
 */
static bool mock_copy_pages(struct mock_dev *mdev, const u64 *pages,
			    u32 page_size, u64 off, u8 *buf, u64 len,
			    bool to_pages)
{
	while (len) {
		u64 n = min_t(u64, len, page_size - off % page_size);
		u8 *p = ib_mock_dma_ptr(mdev, pages[off / page_size] +
				     off % page_size, n, to_pages);

		if (!p)
			return false;
		if (to_pages)
			memcpy(p, buf, n);
		else
			memcpy(buf, p, n);
		buf += n;
		off += n;
		len -= n;
	}
	return true;
}

/*
 * Move an integrity MR's data and PI between its registered pages and
 * @io's buffers (into the pages with @to_pages).
 */
static bool mock_pi_copy(struct mock_dev *mdev, struct mock_mr *mr,
			 struct ib_mock_pi_io *io, size_t prot_len,
			 bool to_pages)
{
	const struct mock_pi_map *pi = &mr->reg_pi;

	return mock_copy_pages(mdev, mr->reg_pages, mr->page_size,
			       pi->data_off, io->data, io->data_len,
			       to_pages) &&
	       mock_copy_pages(mdev, mr->reg_pages + pi->nr_data,
			       mr->page_size, pi->prot_off, io->prot,
			       prot_len, to_pages);
}

/*
 * An RDMA READ or WRITE through an integrity MR.  Its key addresses the
 * wire stream, from 0: all of it moves in one SGE, as rw.c posts it; the
 * mock does not split protection intervals across work requests.
 */
static enum ib_wc_status mock_rdma_pi(struct ib_qp *ibqp,
				      const struct ib_rdma_wr *wr,
				      struct mock_mr *mr, int access,
				      struct ib_mock_wr *rec)
{
	struct mock_dev *mdev = to_mdev(ibqp->device);
	const struct ib_sge *sge = wr->wr.sg_list;
	const struct mock_pi_map *pi = &mr->reg_pi;
	struct ib_mock_pi_io io = {
		.attrs = &mr->reg_sig,
		.data = mdev->pi_data,
		.prot = mdev->pi_prot,
		.wire = mdev->pi_wire,
		.data_len = pi->data_len,
	};
	size_t wire_len = ib_sig_sw_wire_len(io.attrs, io.data_len);
	size_t prot_len = ib_sig_sw_prot_len(io.attrs, io.data_len);
	struct ib_sig_err err;
	bool clean;
	u8 *peer;

	if (wr->wr.num_sge != 1 || mr->state != MOCK_MR_VALID ||
	    mr->key != sge->lkey || !mock_mr_grants(mdev->mock, mr, access))
		return IB_WC_LOC_PROT_ERR;
	if (sge->addr || sge->length != wire_len)
		return IB_WC_LOC_LEN_ERR;
	peer = mock_remote(mdev->mock, wr->rkey, wr->remote_addr, wire_len);
	if (!peer)
		return IB_WC_REM_ACCESS_ERR;

	if (wr->wr.opcode == IB_WR_RDMA_WRITE) {
		if (!mock_pi_copy(mdev, mr, &io, prot_len, false))
			return IB_WC_LOC_PROT_ERR;
		clean = ib_mock_pi_to_wire(&io, &err);
		memcpy(peer, io.wire, wire_len);
	} else {
		memcpy(io.wire, peer, wire_len);
		clean = ib_mock_pi_from_wire(&io, &err);
		if (!mock_pi_copy(mdev, mr, &io, prot_len, true))
			return IB_WC_LOC_PROT_ERR;
	}

	if (!clean && !mr->sig_err_exists) {
		err.key = mr->key;
		mr->sig_err = err;
		mr->sig_err_exists = true;
	}
	rec->length = wire_len;
	return IB_WC_SUCCESS;
}

static enum ib_wc_status mock_rdma(struct ib_qp *ibqp,
				   const struct ib_rdma_wr *wr,
				   struct ib_mock_wr *rec)
{
	struct ib_mock *mock = qp_mock(ibqp);
	bool write = wr->wr.opcode == IB_WR_RDMA_WRITE;
	int access = write ? 0 : IB_ACCESS_LOCAL_WRITE;
	u64 remote = wr->remote_addr;
	struct mock_mr *mr;
	int i;

	/* An iWARP READ response lands through a remotely writable STag. */
	if (!write && mock->profile->protocol == RDMA_CORE_CAP_PROT_IWARP)
		access |= IB_ACCESS_REMOTE_WRITE;

	mr = mock_find_mr(ibqp, wr->wr.sg_list[0].lkey);
	if (mr && mr->integrity)
		return mock_rdma_pi(ibqp, wr, mr, access, rec);

	for (i = 0; i < wr->wr.num_sge; i++) {
		const struct ib_sge *sge = &wr->wr.sg_list[i];
		u32 done, len;

		if ((access & IB_ACCESS_REMOTE_WRITE) &&
		    sge->lkey == MOCK_LOCAL_DMA_LKEY)
			return IB_WC_LOC_PROT_ERR;
		for (done = 0; done < sge->length; done += len) {
			u8 *peer, *local;

			len = sge->length - done;
			local = mock_local(ibqp, sge->lkey, sge->addr + done,
					   &len, access);
			if (!local)
				return IB_WC_LOC_PROT_ERR;
			peer = mock_remote(mock, wr->rkey, remote, len);
			if (!peer)
				return IB_WC_REM_ACCESS_ERR;
			if (write)
				memcpy(peer, local, len);
			else
				memcpy(local, peer, len);
			remote += len;
			rec->length += len;
		}
	}
	return IB_WC_SUCCESS;
}

static enum ib_wc_status mock_reg_mr(struct ib_qp *ibqp,
				     const struct ib_reg_wr *wr)
{
	struct mock_mr *mr = to_mmr(wr->mr);

	if ((wr->key >> 8) != (wr->mr->lkey >> 8) ||
	    mr->state == MOCK_MR_VALID || !mr->npages ||
	    wr->mr->length > qp_mock(ibqp)->profile->max_mr_size)
		return IB_WC_MW_BIND_ERR;

	if (mr->integrity) {
		/* The attributes are fixed at registration, as in a BSF. */
		mr->reg_pi = mr->pi;
		mr->reg_sig = *wr->mr->sig_attrs;
		mr->sig_checked = false;
	}
	memcpy(mr->reg_pages, mr->pages, mr->npages * sizeof(u64));
	mr->key = wr->key;
	mr->access = wr->access;
	mr->iova = wr->mr->iova;
	mr->length = wr->mr->length;
	mr->page_size = wr->mr->page_size;
	mr->state = MOCK_MR_VALID;
	return IB_WC_SUCCESS;
}

static enum ib_wc_status mock_invalidate(struct ib_qp *ibqp, u32 key)
{
	struct mock_mr *mr = mock_find_mr(ibqp, key);

	/* As in rxe: an invalid MR may be invalidated again by its last key. */
	if (!mr || mr->dma || mr->state == MOCK_MR_FREE || mr->key != key)
		return IB_WC_MW_BIND_ERR;
	mr->state = MOCK_MR_INVALID;
	return IB_WC_SUCCESS;
}

static enum ib_wc_status mock_execute(struct ib_qp *ibqp,
				      const struct ib_send_wr *wr,
				      struct ib_mock_wr *rec)
{
	enum ib_wc_status status;

	if (to_mqp(ibqp)->error)
		return IB_WC_WR_FLUSH_ERR;

	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
		return mock_rdma(ibqp, rdma_wr(wr), rec);
	case IB_WR_RDMA_READ_WITH_INV:
		status = mock_rdma(ibqp, rdma_wr(wr), rec);
		if (status != IB_WC_SUCCESS)
			return status;
		return mock_invalidate(ibqp, wr->ex.invalidate_rkey);
	case IB_WR_REG_MR:
	case IB_WR_REG_MR_INTEGRITY:
		return mock_reg_mr(ibqp, reg_wr(wr));
	default:
		return mock_invalidate(ibqp, wr->ex.invalidate_rkey);
	}
}

/* What hardware refuses at post time rather than completing in error. */
static bool mock_wr_malformed(struct ib_qp *ibqp, const struct ib_send_wr *wr)
{
	const struct ib_mock_profile *p = qp_mock(ibqp)->profile;

	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
		return !wr->num_sge || wr->num_sge > to_mqp(ibqp)->max_send_sge;
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		if (wr->opcode == IB_WR_RDMA_READ_WITH_INV &&
		    p->protocol != RDMA_CORE_CAP_PROT_IWARP)
			return true;
		return !wr->num_sge ||
		       wr->num_sge > min(to_mqp(ibqp)->max_send_sge,
					 p->max_sge_rd);
	case IB_WR_REG_MR:
		return wr->num_sge || to_mmr(reg_wr(wr)->mr)->integrity;
	case IB_WR_REG_MR_INTEGRITY:
		/* mlx5 refuses, too, to register over an unchecked status. */
		return wr->num_sge || !ibqp->integrity_en ||
		       !to_mmr(reg_wr(wr)->mr)->integrity ||
		       !to_mmr(reg_wr(wr)->mr)->sig_checked;
	case IB_WR_LOCAL_INV:
		return wr->num_sge;
	default:
		return true;
	}
}

static void mock_log(struct ib_mock *mock, const struct ib_send_wr *wr,
		     struct ib_mock_wr *rec)
{
	int i;

	rec->opcode = wr->opcode;
	rec->send_flags = wr->send_flags;
	rec->num_sge = wr->num_sge;
	for (i = 0; i < min_t(int, wr->num_sge, IB_MOCK_LOG_SGES); i++)
		rec->sge[i] = wr->sg_list[i];

	switch (wr->opcode) {
	case IB_WR_RDMA_WRITE:
	case IB_WR_RDMA_READ:
	case IB_WR_RDMA_READ_WITH_INV:
		rec->remote_addr = rdma_wr(wr)->remote_addr;
		rec->rkey = rdma_wr(wr)->rkey;
		rec->key = wr->ex.invalidate_rkey;
		break;
	case IB_WR_REG_MR:
	case IB_WR_REG_MR_INTEGRITY:
		rec->key = reg_wr(wr)->key;
		rec->access = reg_wr(wr)->access;
		rec->length = reg_wr(wr)->mr->length;
		break;
	default:
		rec->key = wr->ex.invalidate_rkey;
		break;
	}
}

static enum ib_wc_opcode mock_wc_opcode(enum ib_wr_opcode opcode)
{
	switch (opcode) {
	case IB_WR_RDMA_WRITE:
		return IB_WC_RDMA_WRITE;
	case IB_WR_REG_MR:
	case IB_WR_REG_MR_INTEGRITY:
		return IB_WC_REG_MR;
	case IB_WR_LOCAL_INV:
		return IB_WC_LOCAL_INV;
	default:
		return IB_WC_RDMA_READ;
	}
}

static void mock_complete(struct ib_qp *ibqp, const struct ib_send_wr *wr,
			  enum ib_wc_status status)
{
	struct mock_cq *cq = to_mcq(ibqp->send_cq);
	unsigned int tail;
	unsigned long flags;
	bool full;

	spin_lock_irqsave(&cq->lock, flags);
	full = cq->count == cq->ibcq.cqe;
	if (!full) {
		tail = (cq->head + cq->count++) % cq->ibcq.cqe;
		cq->ring[tail] = (struct ib_wc) {
			.wr_cqe = wr->wr_cqe,
			.status = status,
			.opcode = mock_wc_opcode(wr->opcode),
			.qp = ibqp,
		};
		cq->retire[tail] = to_mqp(ibqp)->sq_unsignalled;
		to_mqp(ibqp)->sq_unsignalled = 0;
	}
	spin_unlock_irqrestore(&cq->lock, flags);
	if (full)
		KUNIT_FAIL(qp_mock(ibqp)->test, "mock CQ overflow");
}

static int mock_post_send_locked(struct ib_qp *ibqp,
				 const struct ib_send_wr *wr,
				 const struct ib_send_wr **bad_wr)
{
	struct ib_mock *mock = qp_mock(ibqp);
	struct mock_qp *qp = to_mqp(ibqp);

	for (; wr; wr = wr->next) {
		struct ib_mock_wr scratch = {}, *rec = &scratch;
		enum ib_wc_status status;

		if ((mock->fail_post_at && !--mock->fail_post_at) ||
		    mock_wr_malformed(ibqp, wr)) {
			*bad_wr = wr;
			return -EINVAL;
		}
		/* A full send queue takes nothing more, as on hardware. */
		if (atomic_read(&qp->sq_used) == qp->max_send_wr) {
			*bad_wr = wr;
			return -ENOMEM;
		}
		atomic_inc(&qp->sq_used);
		qp->sq_unsignalled++;

		mock->nr_posted++;
		if (mock->nr_log < mock->log_cap)
			rec = &mock->log[mock->nr_log++];
		memset(rec, 0, sizeof(*rec));
		mock_log(mock, wr, rec);

		status = mock_execute(ibqp, wr, rec);
		rec->status = status;
		if (status != IB_WC_SUCCESS)
			qp->error = true;
		rec->signaled = status != IB_WC_SUCCESS ||
				wr->send_flags & IB_SEND_SIGNALED;
		if (rec->signaled)
			mock_complete(ibqp, wr, status);
	}
	return 0;
}

int ib_mock_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		      const struct ib_send_wr **bad_wr)
{
	struct mock_qp *qp = to_mqp(ibqp);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&qp->lock, flags);
	ret = mock_post_send_locked(ibqp, wr, bad_wr);
	spin_unlock_irqrestore(&qp->lock, flags);
	return ret;
}
