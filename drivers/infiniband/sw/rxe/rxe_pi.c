// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * T10-PI signature handover: integrity MRs.
 *
 * An integrity MR maps the data and the protection information (PI) of one
 * I/O as two lists of segments (mlx5's KLM layout: any address, any
 * length, no page rules), and its key exposes a zero-based wire stream:
 * the data with, when the wire domain carries PI, an 8-byte tuple after
 * each protection interval.  Every access through the key, local or
 * remote, reaches rxe_mr_copy(), which hands it to rxe_pi_copy(): the
 * bytes move between the two domains one packet at a time, and the
 * software engine (rdma/ib_sig_sw.h) checks and converts the PI of each
 * interval once its data and tuple have gone by.
 *
 * Leaving memory (RDMA WRITE and SEND from the MR, the responder's RDMA
 * READ) is stateless: a packet that ends inside a tuple gets the bytes it
 * holds of it, and a retransmission reads memory again.  Arriving in
 * memory is in order, as the requester and the responder deliver it: the
 * data goes straight to its place, a tuple cut by a packet boundary waits
 * in the MR until its last byte comes.
 *
 * As on mlx5, a PI error does not fail the work request: the first one is
 * kept for ib_check_mr_status(), and an MR whose status was not checked
 * cannot be registered again.
 *
 * The signature attributes take effect when REG_MR_INTEGRITY executes,
 * as mlx5 copies them into its UMR work request: work requests posted
 * before it still run under the old ones.  Every access holds the MR's
 * lock from start to end, so it sees one layout, never half of a new one.
 */
#include <linux/highmem.h>
#include <rdma/ib_sig_sw.h>

#include "rxe.h"
#include "rxe_loc.h"

/*
 * Segments an integrity MR maps per list, as the device advertises it
 * (max_pi_fast_reg_page_list_len): half its fast-registration list, as
 * on mlx5, where data and PI share one.
 */
#define PI_MAX_SEGS	(RXE_MAX_FMR_PAGE_LIST_LEN / 2)
#define PI_TUPLE	sizeof(struct t10_pi_tuple)

/* One piece of an integrity MR's memory: a DMA (here virtual) address. */
struct rxe_pi_seg {
	u64 addr;
	u32 len;
};

/**
 * struct rxe_pi_mr - the integrity part of an rxe MR
 * @data:	the data segments, @nr_data of them
 * @meta:	the PI segments, @nr_meta of them
 * @max_data:	room in @data
 * @max_meta:	room in @meta
 * @nr_data:	data segments mapped
 * @nr_meta:	PI segments mapped
 * @data_len:	bytes of data mapped
 * @meta_len:	bytes of PI mapped
 * @posted:	the signature attributes of the REG_MR_INTEGRITY posted last
 * @attrs:	the signature attributes of the one executed last
 * @wire_len:	bytes the key exposes
 * @interval:	the protection interval, 0 when no domain carries PI
 * @stride:	bytes per interval on the wire
 * @tuple:	a wire tuple arriving in pieces
 * @lock:	guards everything here but the lists' room
 * @checked:	the status was checked since the last registration
 * @err_found:	@err holds an error not yet reported
 * @err:	the first PI error since the status was last checked
 */
struct rxe_pi_mr {
	struct rxe_pi_seg *data;
	struct rxe_pi_seg *meta;
	u32 max_data;
	u32 max_meta;
	u32 nr_data;
	u32 nr_meta;
	u64 data_len;
	u64 meta_len;
	struct ib_sig_attrs posted;
	struct ib_sig_attrs attrs;
	u64 wire_len;
	u32 interval;
	u32 stride;
	u8 tuple[PI_TUPLE];
	spinlock_t lock;	/* the layout, the tuple and the status */
	bool checked;
	bool err_found;
	struct ib_sig_err err;
};

/*
 * Copy @len bytes at offset @off of a segment list from or to @buf (to the
 * segments with @to_segs), or only feed them to @iv when @buf is NULL.
 */
static int pi_seg_walk(const struct rxe_pi_seg *seg, u32 nr, u64 off,
		       void *buf, u32 len, bool to_segs,
		       struct ib_sig_sw_interval *iv)
{
	for (; nr && off >= seg->len; nr--, seg++)
		off -= seg->len;

	while (len) {
		u64 addr;
		u32 n;
		u8 *va;

		if (!nr)
			return -EFAULT;
		addr = seg->addr + off;
		n = min3(len, seg->len - (u32)off,
			 (u32)(PAGE_SIZE - offset_in_page(addr)));
		va = kmap_local_page(ib_virt_dma_to_page(addr));
		va += offset_in_page(addr);
		if (!buf)
			ib_sig_sw_interval_update(iv, va, n);
		else if (to_segs)
			memcpy(va, buf, n);
		else
			memcpy(buf, va, n);
		kunmap_local(va);

		if (buf)
			buf += n;
		len -= n;
		off += n;
		if (off == seg->len) {
			seg++;
			nr--;
			off = 0;
		}
	}
	return 0;
}

static bool pi_mem_has_pi(const struct rxe_pi_mr *pi)
{
	return pi->attrs.mem.sig_type == IB_SIG_TYPE_T10_DIF;
}

static bool pi_wire_has_pi(const struct rxe_pi_mr *pi)
{
	return pi->attrs.wire.sig_type == IB_SIG_TYPE_T10_DIF;
}

/* Keep the first error since the status was last checked. */
static void pi_record(struct rxe_mr *mr, const struct ib_sig_err *err)
{
	struct rxe_pi_mr *pi = mr->pi;

	lockdep_assert_held(&pi->lock);
	if (!pi->err_found) {
		pi->err = *err;
		pi->err.key = mr->lkey;
		pi->err_found = true;
	}
}

/*
 * Check and convert the PI of interval @block, all of whose data is in
 * memory: @src is the source tuple, @dst receives the destination one;
 * the memory side of either comes from or goes to the PI segments.
 */
static int pi_interval_end(struct rxe_mr *mr, u32 block, bool to_wire,
			   const void *wire_src, void *wire_dst)
{
	struct rxe_pi_mr *pi = mr->pi;
	struct t10_pi_tuple mem_t, *src, *dst;
	bool mem_pi = pi_mem_has_pi(pi);
	struct ib_sig_sw_interval iv;
	struct ib_sig_err err;
	int ret;

	ib_sig_sw_interval_init(&iv, &pi->attrs, block);
	ret = pi_seg_walk(pi->data, pi->nr_data, (u64)block * pi->interval,
			  NULL, pi->interval, false, &iv);
	if (ret)
		return ret;
	if (mem_pi && to_wire) {
		ret = pi_seg_walk(pi->meta, pi->nr_meta, (u64)block * PI_TUPLE,
				  &mem_t, PI_TUPLE, false, NULL);
		if (ret)
			return ret;
	}

	src = to_wire ? (mem_pi ? &mem_t : NULL) : (void *)wire_src;
	dst = to_wire ? wire_dst : (mem_pi ? &mem_t : NULL);
	if (!ib_sig_sw_interval_end(&iv, to_wire, src, dst,
				    (u64)block * (pi->interval + PI_TUPLE),
				    &err))
		pi_record(mr, &err);
	if (mem_pi && !to_wire)
		return pi_seg_walk(pi->meta, pi->nr_meta, (u64)block * PI_TUPLE,
				   &mem_t, PI_TUPLE, true, NULL);
	return 0;
}

/*
 * Bytes @off to @off + @len of the wire stream, between memory and @buf:
 * out of memory with @to_wire, into it without.
 */
static int pi_move(struct rxe_mr *mr, u64 off, u8 *buf, u32 len,
		   bool to_wire)
{
	struct rxe_pi_mr *pi = mr->pi;
	bool wire_pi = pi_wire_has_pi(pi);
	struct t10_pi_tuple wire_t;
	int ret;

	while (len) {
		u32 block = div_u64(off, pi->stride);
		u32 in = off - (u64)block * pi->stride;
		u32 n;

		if (in < pi->interval) {
			n = min(len, pi->interval - in);
			ret = pi_seg_walk(pi->data, pi->nr_data,
					  (u64)block * pi->interval + in, buf,
					  n, !to_wire, NULL);
			/*
			 * With no tuple on the wire, an interval is done with
			 * its last byte of data: the memory PI is checked on
			 * the way out, generated on the way in.
			 */
			if (!ret && !wire_pi && in + n == pi->interval)
				ret = pi_interval_end(mr, block, to_wire, NULL,
						      NULL);
		} else if (in - pi->interval >= PI_TUPLE) {
			/* Never, with both from one registration: a bound. */
			return -EFAULT;
		} else if (to_wire) {
			in -= pi->interval;
			n = min_t(u32, len, PI_TUPLE - in);
			ret = pi_interval_end(mr, block, true, NULL, &wire_t);
			if (!ret)
				memcpy(buf, (u8 *)&wire_t + in, n);
		} else {
			in -= pi->interval;
			n = min_t(u32, len, PI_TUPLE - in);
			memcpy(pi->tuple + in, buf, n);
			ret = in + n < PI_TUPLE ? 0 :
			      pi_interval_end(mr, block, false, pi->tuple,
					      NULL);
		}
		if (ret)
			return ret;
		off += n;
		buf += n;
		len -= n;
	}
	return 0;
}

/**
 * rxe_pi_check_range - is a range inside an integrity MR's wire stream
 * @mr:		the integrity MR
 * @iova:	start of the range, from 0
 * @length:	its length
 *
 * Return: 0, or -EINVAL.
 */
int rxe_pi_check_range(struct rxe_mr *mr, u64 iova, size_t length)
{
	u64 wire_len = READ_ONCE(mr->pi->wire_len);

	if (iova > wire_len || length > wire_len - iova)
		return -EINVAL;
	return 0;
}

/**
 * rxe_pi_copy - move bytes of an integrity MR's wire stream
 * @mr:		the integrity MR, registered
 * @iova:	where in the wire stream, from 0
 * @addr:	the packet payload
 * @length:	bytes to move
 * @dir:	RXE_FROM_MR_OBJ from memory to the wire, RXE_TO_MR_OBJ back
 *
 * Return: 0, or -EINVAL outside the stream, -EFAULT outside the mapping.
 */
int rxe_pi_copy(struct rxe_mr *mr, u64 iova, void *addr, unsigned int length,
		enum rxe_mr_copy_dir dir)
{
	struct rxe_pi_mr *pi = mr->pi;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&pi->lock, flags);
	if (rxe_pi_check_range(mr, iova, length))
		ret = -EINVAL;
	else if (!pi->interval)
		ret = pi_seg_walk(pi->data, pi->nr_data, iova, addr, length,
				  dir == RXE_TO_MR_OBJ, NULL);
	else
		ret = pi_move(mr, iova, addr, length, dir == RXE_FROM_MR_OBJ);
	spin_unlock_irqrestore(&pi->lock, flags);
	return ret;
}

/**
 * rxe_pi_post_reg - accept a REG_MR or REG_MR_INTEGRITY work request, or
 *	refuse it
 * @qp:		the QP it is posted to
 * @ibwr:	the work request
 *
 * REG_MR registers any MR but an integrity MR.  REG_MR_INTEGRITY is
 * refused as mlx5 refuses it: on a QP created without
 * IB_QP_CREATE_INTEGRITY_EN, for an MR that is not an integrity MR, with
 * atomic, flush or MW bind access, before the status of the last
 * registration was checked, or with signature attributes the engine
 * cannot run on the mapped data and PI.  Accepted, the attributes as
 * they are now wait for the work request to execute, and the MR's status
 * is unchecked until ib_check_mr_status().
 *
 * Return: 0, or -EINVAL.
 */
int rxe_pi_post_reg(struct rxe_qp *qp, const struct ib_send_wr *ibwr)
{
	struct ib_mr *ibmr = reg_wr(ibwr)->mr;
	struct rxe_pi_mr *pi = to_rmr(ibmr)->pi;
	const struct ib_sig_attrs *attrs = ibmr->sig_attrs;
	unsigned long flags;
	int ret = -EINVAL;

	if (ibwr->opcode == IB_WR_REG_MR)
		return ibmr->type == IB_MR_TYPE_INTEGRITY ? -EINVAL : 0;
	if (!qp->ibqp.integrity_en || ibmr->type != IB_MR_TYPE_INTEGRITY ||
	    !pi || !attrs)
		return -EINVAL;
	if (reg_wr(ibwr)->access & (IB_ACCESS_REMOTE_ATOMIC |
				    IB_ACCESS_FLUSH_GLOBAL |
				    IB_ACCESS_FLUSH_PERSISTENT |
				    IB_ACCESS_MW_BIND))
		return -EINVAL;
	if (ib_sig_sw_validate(attrs, pi->data_len, pi->meta_len))
		return -EINVAL;

	spin_lock_irqsave(&pi->lock, flags);
	if (pi->checked) {
		pi->checked = false;
		pi->posted = *attrs;
		ret = 0;
	}
	spin_unlock_irqrestore(&pi->lock, flags);
	return ret;
}

/**
 * rxe_pi_reg_exec - give an integrity MR the signature attributes of the
 *	REG_MR_INTEGRITY that executes now
 * @mr:		the integrity MR, not yet valid
 *
 * Return: 0, or -EINVAL when the MR was mapped again since the post, to
 * data the attributes do not fit.
 */
int rxe_pi_reg_exec(struct rxe_mr *mr)
{
	struct rxe_pi_mr *pi = mr->pi;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&pi->lock, flags);
	ret = ib_sig_sw_validate(&pi->posted, pi->data_len, pi->meta_len);
	if (!ret) {
		pi->attrs = pi->posted;
		pi->interval = ib_sig_sw_pi_interval(&pi->attrs);
		pi->stride = pi->interval +
			     (pi_wire_has_pi(pi) ? PI_TUPLE : 0);
		WRITE_ONCE(pi->wire_len,
			   ib_sig_sw_wire_len(&pi->attrs, pi->data_len));
	}
	spin_unlock_irqrestore(&pi->lock, flags);
	return ret;
}

static void pi_unmap(struct rxe_pi_mr *pi)
{
	pi->nr_data = 0;
	pi->nr_meta = 0;
	pi->data_len = 0;
	pi->meta_len = 0;
}

static int pi_map_segs(struct rxe_pi_seg *seg, u32 max, u32 *nr, u64 *len,
		       struct scatterlist *sgl, int nents,
		       const unsigned int *sg_offset)
{
	unsigned int skip = sg_offset ? *sg_offset : 0;
	struct scatterlist *sg;
	int i;

	*nr = 0;
	*len = 0;
	if (nents < 0 || nents > max)
		return -EINVAL;
	for_each_sg(sgl, sg, nents, i) {
		if (skip >= sg_dma_len(sg))
			return -EINVAL;
		seg[i].addr = sg_dma_address(sg) + skip;
		seg[i].len = sg_dma_len(sg) - skip;
		*len += seg[i].len;
		skip = 0;
	}
	*nr = nents;
	return 0;
}

/**
 * rxe_map_mr_sg_pi - map the data and the PI of one I/O into an integrity MR
 * @ibmr:		the integrity MR
 * @data_sg:		the data, DMA mapped
 * @data_sg_nents:	its entries
 * @data_sg_offset:	bytes to skip in its first entry, or NULL
 * @meta_sg:		the PI, DMA mapped, or NULL
 * @meta_sg_nents:	its entries
 * @meta_sg_offset:	bytes to skip in its first entry, or NULL
 *
 * As ib_map_mr_sg_pi() promises and mlx5 does: a zero-based MR whose
 * length covers the data and the PI in memory, with the PI's length in
 * the MR's signature attributes.  The signature attributes themselves
 * count only when the MR is registered.
 *
 * Return: 0, or -EINVAL when a list has more entries than the MR was
 * allocated for; nothing stays mapped then.
 */
int rxe_map_mr_sg_pi(struct ib_mr *ibmr, struct scatterlist *data_sg,
		     int data_sg_nents, unsigned int *data_sg_offset,
		     struct scatterlist *meta_sg, int meta_sg_nents,
		     unsigned int *meta_sg_offset)
{
	struct rxe_pi_mr *pi = to_rmr(ibmr)->pi;
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&pi->lock, flags);
	pi_unmap(pi);
	ret = pi_map_segs(pi->data, pi->max_data, &pi->nr_data,
			  &pi->data_len, data_sg, data_sg_nents,
			  data_sg_offset);
	if (!ret && meta_sg)
		ret = pi_map_segs(pi->meta, pi->max_meta, &pi->nr_meta,
				  &pi->meta_len, meta_sg, meta_sg_nents,
				  meta_sg_offset);
	if (ret)
		pi_unmap(pi);
	spin_unlock_irqrestore(&pi->lock, flags);
	if (ret)
		return ret;

	ibmr->iova = 0;
	ibmr->length = pi->data_len + pi->meta_len;
	ibmr->sig_attrs->meta_length = pi->meta_len;
	return 0;
}

/**
 * rxe_check_mr_status - report and clear an integrity MR's PI error
 * @ibmr:	the integrity MR
 * @check_mask:	IB_MR_CHECK_SIG_STATUS
 * @mr_status:	where the status goes
 *
 * An error found under an earlier key than the MR's current one is
 * reported as a guard error at offset 0 with that key, as mlx5 does.
 *
 * Return: 0, or -EINVAL for another check or MR type.
 */
int rxe_check_mr_status(struct ib_mr *ibmr, u32 check_mask,
			struct ib_mr_status *mr_status)
{
	struct rxe_pi_mr *pi = to_rmr(ibmr)->pi;
	unsigned long flags;

	if (check_mask & ~IB_MR_CHECK_SIG_STATUS ||
	    ibmr->type != IB_MR_TYPE_INTEGRITY || !pi)
		return -EINVAL;

	spin_lock_irqsave(&pi->lock, flags);
	mr_status->fail_status = 0;
	pi->checked = true;
	if (pi->err_found) {
		if (pi->err.key == ibmr->lkey)
			mr_status->sig_err = pi->err;
		else
			mr_status->sig_err = (struct ib_sig_err) {
				.err_type = IB_SIG_BAD_GUARD,
				.key = pi->err.key,
			};
		mr_status->fail_status |= IB_MR_CHECK_SIG_STATUS;
		pi->err_found = false;
	}
	spin_unlock_irqrestore(&pi->lock, flags);
	return 0;
}

static int rxe_pi_mr_init(struct rxe_mr *mr, u32 max_data, u32 max_meta)
{
	struct rxe_pi_mr *pi;

	pi = kzalloc(sizeof(*pi), GFP_KERNEL);
	if (!pi)
		return -ENOMEM;
	pi->data = kcalloc(max_data, sizeof(*pi->data), GFP_KERNEL);
	pi->meta = kcalloc(max_meta, sizeof(*pi->meta), GFP_KERNEL);
	if (!pi->data || !pi->meta) {
		kfree(pi->data);
		kfree(pi->meta);
		kfree(pi);
		return -ENOMEM;
	}
	pi->max_data = max_data;
	pi->max_meta = max_meta;
	pi->checked = true;
	spin_lock_init(&pi->lock);

	rxe_mr_init(RXE_ACCESS_REMOTE, mr);
	mr->pi = pi;
	mr->state = RXE_MR_STATE_FREE;
	mr->ibmr.type = IB_MR_TYPE_INTEGRITY;
	return 0;
}

/**
 * rxe_pi_mr_cleanup - free what an integrity MR holds beyond an rxe MR
 * @mr:		the MR, of any type
 */
void rxe_pi_mr_cleanup(struct rxe_mr *mr)
{
	if (!mr->pi)
		return;
	kfree(mr->pi->data);
	kfree(mr->pi->meta);
	kfree(mr->pi);
	mr->pi = NULL;
}

/**
 * rxe_alloc_mr_integrity - allocate an integrity MR
 * @ibpd:		its protection domain
 * @max_num_data_sg:	data entries it can map
 * @max_num_meta_sg:	PI entries it can map
 *
 * Return: the MR, or an ERR_PTR().
 */
struct ib_mr *rxe_alloc_mr_integrity(struct ib_pd *ibpd, u32 max_num_data_sg,
				     u32 max_num_meta_sg)
{
	struct rxe_dev *rxe = to_rdev(ibpd->device);
	struct rxe_mr *mr;
	int err;

	if (max_num_data_sg > PI_MAX_SEGS || max_num_meta_sg > PI_MAX_SEGS)
		return ERR_PTR(-EINVAL);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	err = rxe_add_to_pool(&rxe->mr_pool, mr);
	if (err) {
		kfree(mr);
		return ERR_PTR(err);
	}

	rxe_get(to_rpd(ibpd));
	mr->ibmr.pd = ibpd;
	mr->ibmr.device = ibpd->device;
	err = rxe_pi_mr_init(mr, max_num_data_sg, max_num_meta_sg);
	if (err) {
		rxe_cleanup(mr);
		kfree(mr);
		return ERR_PTR(err);
	}

	rxe_finalize(mr);
	return &mr->ibmr;
}
