// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMA READ/WRITE contexts.
 *
 * A ULP gives us its side of a transfer (a scatterlist or a bio_vec array)
 * and the peer's side (remote address and rkey).  We DMA-map the local buffer
 * and build the send work requests that move the data, in the cheapest shape
 * the device and QP allow:
 *
 *   RDMA_RW_SINGLE_WR  one RDMA READ/WRITE of one SGE, in the context;
 *   RDMA_RW_MULTI_WR   RDMA READ/WRITEs of up to max_read_sge/max_write_sge
 *                      SGEs each, all in one allocation;
 *   RDMA_RW_MR         per run of up to pages_per_mr pages: [LOCAL_INV],
 *                      REG_MR, then one RDMA READ/WRITE through the new MR;
 *   RDMA_RW_SIG_MR     the same with one integrity MR, which makes the HCA
 *                      insert, check or strip T10-PI on the way.
 *
 * MRs are mandatory for RDMA READ on iWARP, whose READ sink must be a
 * remotely writable STag, and when the force_mr debug option is set.  They
 * are an optimisation for READs on devices that report max_sgl_rd, and only
 * there does a failed registration fall back to SGEs.
 *
 * Both APIs build each shape with the same helpers.  A bio_vec I/O is cut
 * into pieces at the device's DMA limits.  Where it registers memory, has
 * P2PDMA pages, or goes through an IOMMU that may merge its pieces, they
 * become a scatterlist, DMA-mapped as one, and the I/O goes on as a
 * scatterlist I/O.  Elsewhere the DMA layer would map each piece on its own
 * anyway: each is mapped straight into its SGE, the record its unmap reads.
 */
#include <kunit/visibility.h>
#include <linux/moduleparam.h>
#include <linux/memremap.h>
#include <linux/overflow.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/t10-pi.h>
#include <rdma/mr_pool.h>
#include <rdma/rw.h>

#include "rw_priv.h"

enum {
	RDMA_RW_SINGLE_WR,
	RDMA_RW_MULTI_WR,
	RDMA_RW_MR,
	RDMA_RW_SIG_MR,
};

/* How the local buffer was mapped, so how it is unmapped. */
enum {
	RDMA_RW_MAP_SG,		/* the ULP's scatterlist, which it names again */
	RDMA_RW_MAP_PIECES,	/* bio_vec pieces, each on its own in its SGE */
	RDMA_RW_MAP_SGT,	/* bio_vec pieces as one list, in ctx->sgt */
};

/* ULPs embed a context per I/O in flight: keep it as small as upstream's. */
static_assert(sizeof(struct rdma_rw_ctx) <= 80);

/* Upper bound of one MR, so that per-QP MR pools stay small. */
#define RDMA_RW_MAX_PAGES_PER_MR	256U

/* The KUnit tests turn it on around the cases that cover it. */
VISIBLE_IF_KUNIT bool rdma_rw_force_mr;
EXPORT_SYMBOL_IF_KUNIT(rdma_rw_force_mr);
module_param_named(force_mr, rdma_rw_force_mr, bool, 0444);
MODULE_PARM_DESC(force_mr,
		 "Register memory for every RDMA READ/WRITE (testing aid)");

static bool rdma_rw_valid_dir(enum dma_data_direction dir)
{
	return dir == DMA_TO_DEVICE || dir == DMA_FROM_DEVICE;
}

/* Ceiling division that cannot wrap, unlike DIV_ROUND_UP(), near U32_MAX. */
static u32 rdma_rw_div_up(u32 n, u32 d)
{
	return n / d + !!(n % d);
}

/* The device may need MRs for some I/O, so the QP must have a pool. */
static bool rdma_rw_can_use_mr(struct ib_device *dev, u32 port_num)
{
	return rdma_protocol_iwarp(dev, port_num) || dev->attrs.max_sgl_rd ||
	       unlikely(rdma_rw_force_mr);
}

/* MRs are a hard requirement for this I/O: SGEs cannot stand in. */
static bool rdma_rw_mr_required(struct ib_device *dev, u32 port_num,
				enum dma_data_direction dir)
{
	return unlikely(rdma_rw_force_mr) ||
	       (dir == DMA_FROM_DEVICE && rdma_protocol_iwarp(dev, port_num));
}

/*
 * MRs are required, or the device prefers one registration over a READ
 * whose SGE list is longer than max_sgl_rd.
 */
static __always_inline bool
rdma_rw_io_needs_mr(struct ib_device *dev, u32 port_num,
		    enum dma_data_direction dir, u32 dma_nents)
{
	u32 max_sgl_rd = dev->attrs.max_sgl_rd;

	if (rdma_rw_mr_required(dev, port_num, dir))
		return true;
	return dir == DMA_FROM_DEVICE && max_sgl_rd && dma_nents > max_sgl_rd;
}

/*
 * Pages one MR maps.  A device that reports 0 gets 1 rather than a division
 * by zero; registration will then fail cleanly when the MR is allocated.
 */
static u32 rdma_rw_fr_page_list_len(struct ib_device *dev, bool pi_support)
{
	u32 len = pi_support ? dev->attrs.max_pi_fast_reg_page_list_len :
			       dev->attrs.max_fast_reg_page_list_len;

	return clamp(len, 1U, RDMA_RW_MAX_PAGES_PER_MR);
}

/* SGEs one RDMA READ or WRITE may carry on @qp, at least 1 (see above). */
static u32 rdma_rw_max_sge(struct ib_qp *qp, enum dma_data_direction dir)
{
	return max(dir == DMA_TO_DEVICE ? qp->max_write_sge : qp->max_read_sge,
		   1U);
}

/*
 * @pool ran dry when this I/O needed its @needed-th MR, and the ones it
 * took are back.  A retry (-EAGAIN) helps once other I/Os return theirs,
 * unless the QP owns fewer MRs than that in all (none, for a QP created
 * without a pool): then it never will.  MRs out with other I/Os may be
 * from the other pool, which only errs towards a retry.
 */
static int rdma_rw_no_mr(struct ib_qp *qp, struct list_head *pool,
			 u32 needed)
{
	unsigned long flags;
	size_t owned;

	spin_lock_irqsave(&qp->mr_lock, flags);
	owned = list_count_nodes(pool) + qp->mrs_used;
	spin_unlock_irqrestore(&qp->mr_lock, flags);

	return needed > owned ? -EINVAL : -EAGAIN;
}

/* Every field, without a memset: a rep stos on x86, slower on this path. */
static void rdma_rw_init_rdma_wr(struct ib_rdma_wr *wr, struct ib_sge *sges,
				 u32 nr_sge, u64 remote_addr, u32 rkey,
				 enum dma_data_direction dir)
{
	wr->wr.next = NULL;
	wr->wr.wr_cqe = NULL;
	wr->wr.sg_list = sges;
	wr->wr.num_sge = nr_sge;
	wr->wr.opcode = dir == DMA_TO_DEVICE ? IB_WR_RDMA_WRITE :
					       IB_WR_RDMA_READ;
	wr->wr.send_flags = 0;
	wr->wr.ex.imm_data = 0;
	wr->remote_addr = remote_addr;
	wr->rkey = rkey;
}

/*
 * The rights an MR of this transfer needs, and no more: a READ's sink is
 * written locally, and on iWARP by the peer's READ response; a WRITE's
 * source is only read, which every MR allows.  Rights to spare would let a
 * peer that guesses the key write where it should only read.
 */
static int rdma_rw_reg_access(struct ib_qp *qp, u32 port_num,
			      enum dma_data_direction dir)
{
	if (dir == DMA_TO_DEVICE)
		return 0;
	if (rdma_protocol_iwarp(qp->device, port_num))
		return IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_WRITE;
	return IB_ACCESS_LOCAL_WRITE;
}

/*
 * Set up the registration of @reg->mr, followed by @reg's data WR and
 * preceded by a LOCAL_INV of the MR's current key when its last
 * registration is still valid.  Returns the number of WQEs this adds.
 */
static int rdma_rw_init_reg_wrs(struct rdma_rw_reg_ctx *reg, struct ib_qp *qp,
				u32 port_num, enum ib_wr_opcode opcode,
				enum dma_data_direction dir)
{
	struct ib_mr *mr = reg->mr;

	reg->reg_wr.wr.opcode = opcode;
	reg->reg_wr.wr.next = &reg->wr.wr;
	reg->reg_wr.mr = mr;
	reg->reg_wr.access = rdma_rw_reg_access(qp, port_num, dir);
	if (!mr->need_inval)
		return 1;
	reg->inv_wr.opcode = IB_WR_LOCAL_INV;
	reg->inv_wr.ex.invalidate_rkey = mr->lkey;
	reg->inv_wr.next = &reg->reg_wr.wr;
	return 2;
}

static struct ib_send_wr *rdma_rw_reg_first_wr(struct rdma_rw_reg_ctx *reg)
{
	return reg->inv_wr.next ? &reg->inv_wr : &reg->reg_wr.wr;
}

/*
 * Register with an MR from the pool the pages of the @nents DMA entries at
 * @sg, from @offset bytes into the first, or as many of them as the MR's
 * page list holds.  ib_map_mr_sg() says how far it got: @sg, @nents and
 * @offset move past what the MR covers, into the middle of an entry if
 * that entry is longer than what was left of the MR, and the next MR
 * carries on from there.  On error the MR is back in the pool.
 */
static int rdma_rw_map_one_mr(struct ib_qp *qp, struct rdma_rw_reg_ctx *reg,
			      struct scatterlist **sg, u32 *nents, u32 *offset)
{
	struct ib_mr *mr = ib_mr_pool_get(qp, &qp->rdma_mrs);
	u32 start = *offset;
	int n;

	if (!mr)
		return -EAGAIN;

	n = ib_map_mr_sg(mr, *sg, *nents, offset, PAGE_SIZE);
	/* Not even one page of it fitted, or a driver counted wrong. */
	if (n < 0 || (u32)n > *nents || (!n && *offset <= start)) {
		ib_mr_pool_put(qp, &qp->rdma_mrs, mr);
		return n < 0 ? n : -EINVAL;
	}

	reg->mr = mr;
	reg->sge.addr = mr->iova;
	reg->sge.length = mr->length;
	*nents -= n;
	/* sg_next() is a call: none for the last MR, which ends the list. */
	while (*nents && n--)
		*sg = sg_next(*sg);
	return 0;
}

/*
 * Link @nr_ops registrations into one chain of [LOCAL_INV], REG_MR and one
 * RDMA READ/WRITE through the new MR each.  Returns the WQE count.
 */
static int rdma_rw_chain_mr_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				u32 port_num, struct rdma_rw_reg_ctx *reg,
				u32 nr_ops, u64 remote_addr, u32 rkey,
				enum dma_data_direction dir)
{
	bool read_inv = dir == DMA_FROM_DEVICE &&
			rdma_cap_read_inv(qp->device, port_num);
	int count = 0;
	u32 i;

	for (i = 0; i < nr_ops; i++) {
		count += rdma_rw_init_reg_wrs(&reg[i], qp, port_num,
					      IB_WR_REG_MR, dir) + 1;
		rdma_rw_init_rdma_wr(&reg[i].wr, &reg[i].sge, 1, remote_addr,
				     rkey, dir);
		/* The READ response invalidates the MR: no LOCAL_INV later. */
		if (read_inv)
			reg[i].wr.wr.opcode = IB_WR_RDMA_READ_WITH_INV;
		if (i)
			reg[i - 1].wr.wr.next = rdma_rw_reg_first_wr(&reg[i]);
		remote_addr += reg[i].sge.length;
	}

	ctx->reg = reg;
	ctx->nr_ops = nr_ops;
	ctx->type = RDMA_RW_MR;
	return count;
}

/*
 * Register the @nents mapped entries at @sg with as many MRs as their
 * pages need.  Entries of one page or less take an MR per pages_per_mr of
 * them, the room allocated first; longer entries, which an IOMMU makes by
 * merging pages, take more, and the room doubles as they do.  The work
 * requests are linked once the array has stopped moving.
 */
static int rdma_rw_build_mr_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				u32 port_num, struct scatterlist *sg, u32 nents,
				u32 offset, u64 remote_addr, u32 rkey,
				enum dma_data_direction dir)
{
	u32 max_ops = rdma_rw_div_up(nents,
				     rdma_rw_fr_page_list_len(qp->device,
							      false));
	struct rdma_rw_reg_ctx *reg, *bigger;
	u32 nr_ops = 0, i;
	int ret;

	reg = kcalloc(max_ops, sizeof(*reg), GFP_KERNEL);
	if (!reg)
		return -ENOMEM;

	while (nents) {
		if (nr_ops == max_ops) {
			bigger = krealloc_array(reg, max_ops * 2, sizeof(*reg),
						GFP_KERNEL);
			ret = -ENOMEM;
			if (!bigger)
				goto out_put_mrs;
			reg = bigger;
			memset(reg + max_ops, 0, max_ops * sizeof(*reg));
			max_ops *= 2;
		}
		ret = rdma_rw_map_one_mr(qp, &reg[nr_ops], &sg, &nents,
					 &offset);
		if (ret)
			goto out_put_mrs;
		nr_ops++;
	}
	return rdma_rw_chain_mr_wrs(ctx, qp, port_num, reg, nr_ops,
				    remote_addr, rkey, dir);

out_put_mrs:
	for (i = 0; i < nr_ops; i++)
		ib_mr_pool_put(qp, &qp->rdma_mrs, reg[i].mr);
	kfree(reg);
	if (ret == -EAGAIN)
		ret = rdma_rw_no_mr(qp, &qp->rdma_mrs, nr_ops + 1);
	return ret;
}

/*
 * The longest piece of a bio_vec the device takes as one DMA segment, and
 * the boundary (a mask) no segment may cross.  The block layer splits its
 * requests at these; a ULP's bio_vecs need not be split, and a large folio
 * may exceed them or, when swiotlb bounces, the longest mapping it makes.
 */
struct rdma_rw_dma_limits {
	u32 max_len;
	unsigned long boundary;
};

static void rdma_rw_get_dma_limits(struct ib_device *dev,
				   struct rdma_rw_dma_limits *lim)
{
	lim->max_len = ib_dma_max_seg_size(dev);
	lim->boundary = ULONG_MAX;
	if (ib_uses_virt_dma(dev))
		return;
	lim->max_len = min_t(size_t, lim->max_len,
			     dma_max_mapping_size(dev->dma_device));
	lim->boundary = dma_get_seg_boundary(dev->dma_device);
}

/* The first piece of the @len bytes at @off in @bv, cut at the limits. */
static u32 rdma_rw_piece_len(const struct bio_vec *bv, u32 off, u32 len,
			     const struct rdma_rw_dma_limits *lim)
{
	phys_addr_t phys;

	len = min(len, lim->max_len);
	if (lim->boundary == ULONG_MAX)
		return len;
	phys = page_to_phys(bv->bv_page) + off;
	return min_t(u64, len, lim->boundary - (phys & lim->boundary) + 1);
}

/*
 * The one check of @iter: it must lie inside @bvecs.  Count the pieces
 * the DMA limits cut it into, and tell whether any is a P2PDMA page,
 * which only a scatterlist maps (a segment's pages share their pgmap).
 */
static int rdma_rw_bvec_count(const struct bio_vec *bvecs, u32 nr_bvec,
			      struct bvec_iter iter,
			      const struct rdma_rw_dma_limits *lim,
			      u32 *nr_pieces, bool *p2pdma)
{
	const struct bio_vec *bv;
	u32 off, len, n;

	*nr_pieces = 0;
	*p2pdma = false;
	for (; iter.bi_size; iter.bi_idx++, iter.bi_bvec_done = 0) {
		if (iter.bi_idx >= nr_bvec)
			return -EINVAL;
		bv = &bvecs[iter.bi_idx];
		if (iter.bi_bvec_done > bv->bv_len)
			return -EINVAL;
		len = min(iter.bi_size, bv->bv_len - iter.bi_bvec_done);
		iter.bi_size -= len;
		if (len)
			*p2pdma |= is_pci_p2pdma_page(bv->bv_page);
		off = bv->bv_offset + iter.bi_bvec_done;
		for (; len; off += n, len -= n, (*nr_pieces)++)
			n = rdma_rw_piece_len(bv, off, len, lim);
	}
	return 0;
}

/* Take the next piece of an @iter that rdma_rw_bvec_count() accepted. */
static __always_inline void
rdma_rw_bvec_next(const struct bio_vec *bvecs, struct bvec_iter *iter,
		  const struct rdma_rw_dma_limits *lim, struct bio_vec *piece)
{
	struct bio_vec seg;
	u32 len;

	/* An empty segment, or the end of one, holds no piece. */
	while (iter->bi_bvec_done == bvecs[iter->bi_idx].bv_len) {
		iter->bi_idx++;
		iter->bi_bvec_done = 0;
	}
	seg = mp_bvec_iter_bvec(bvecs, *iter);
	len = rdma_rw_piece_len(&seg, seg.bv_offset, seg.bv_len, lim);
	bvec_set_page(piece, nth_page(seg.bv_page, seg.bv_offset / PAGE_SIZE),
		      len, offset_in_page(seg.bv_offset));
	bvec_iter_advance_single(bvecs, iter, len);
}

/*
 * Where SGEs come from: the @nents DMA-mapped entries of a scatterlist
 * from @offset bytes in, or with @bvecs set the pieces of @iter, each
 * mapped as it is taken.
 */
struct rdma_rw_src {
	struct scatterlist *sg;
	u32 nents;
	u32 offset;
	const struct bio_vec *bvecs;
	struct bvec_iter iter;
	struct rdma_rw_dma_limits lim;
};

/* Write the next SGE of @src; false when its DMA mapping failed. */
static __always_inline bool
rdma_rw_next_sge(struct ib_qp *qp, struct rdma_rw_src *src,
		 struct ib_sge *sge, enum dma_data_direction dir)
{
	struct bio_vec piece;

	sge->lkey = qp->pd->local_dma_lkey;
	if (!src->bvecs) {
		sge->addr = sg_dma_address(src->sg) + src->offset;
		sge->length = sg_dma_len(src->sg) - src->offset;
		src->offset = 0;
		/* sg_next() is a call: none past the I/O's last entry. */
		if (--src->nents)
			src->sg = sg_next(src->sg);
		return true;
	}
	rdma_rw_bvec_next(src->bvecs, &src->iter, &src->lim, &piece);
	sge->addr = ib_dma_map_page(qp->device, piece.bv_page, piece.bv_offset,
				    piece.bv_len, dir);
	sge->length = piece.bv_len;
	return !ib_dma_mapping_error(qp->device, sge->addr);
}

/* Undo the mappings of SGEs that rdma_rw_next_sge() took from pieces. */
static void rdma_rw_unmap_sges(struct ib_device *dev, struct ib_sge *sge,
			       u32 nr_sge, enum dma_data_direction dir)
{
	for (; nr_sge; nr_sge--, sge++)
		ib_dma_unmap_page(dev, sge->addr, sge->length, dir);
}

/*
 * Build the RDMA READ/WRITEs of @nr_sge SGEs from @src: a lone SGE and its
 * work request in the context where @single allows (a bio_vec I/O's list
 * shares their room), else max_sge a work request in one allocation, in
 * one pass that sums their remote addresses.  On error nothing stays
 * mapped or allocated.  Inlined: a one-SGE I/O costs about a call.
 */
static __always_inline int
rdma_rw_init_sge_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		     struct rdma_rw_src *src, u32 nr_sge, bool single,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	u32 max_sge = rdma_rw_max_sge(qp, dir);
	u32 nr_ops = rdma_rw_div_up(nr_sge, max_sge), i, n;
	struct ib_rdma_wr *wrs, *wr;
	struct ib_sge *sges, *sge;

	if (nr_sge == 1 && single) {
		if (!rdma_rw_next_sge(qp, src, &ctx->sge, dir))
			return -ENOMEM;
		rdma_rw_init_rdma_wr(&ctx->wr, &ctx->sge, 1, remote_addr, rkey,
				     dir);
		ctx->type = RDMA_RW_SINGLE_WR;
		ctx->nr_ops = 1;
		return 1;
	}

	wrs = kvmalloc(size_add(array_size(nr_ops, sizeof(*wrs)),
				array_size(nr_sge, sizeof(*sges))), GFP_KERNEL);
	if (!wrs)
		return -ENOMEM;
	sges = (struct ib_sge *)(wrs + nr_ops);
	for (i = 0, wr = wrs, sge = sges; i < nr_sge; wr++) {
		n = min(nr_sge - i, max_sge);
		rdma_rw_init_rdma_wr(wr, sge, n, remote_addr, rkey, dir);
		if (i)
			wr[-1].wr.next = &wr->wr;
		for (; n; n--, i++, sge++) {
			if (!rdma_rw_next_sge(qp, src, sge, dir))
				goto out_undo;
			remote_addr += sge->length;
		}
	}
	ctx->type = RDMA_RW_MULTI_WR;
	ctx->wrs = wrs;
	ctx->nr_ops = nr_ops;
	return nr_ops;

out_undo:
	if (src->bvecs)
		rdma_rw_unmap_sges(qp->device, sges, i, dir);
	kvfree(wrs);
	return -ENOMEM;
}

/*
 * The work requests of the @nents mapped entries at @sg, @offset bytes in:
 * through MRs where the I/O needs them, else, or where MRs are only what
 * the device prefers and registration failed for any reason, SGEs.
 */
static __always_inline int
rdma_rw_init_sg_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		    struct scatterlist *sg, u32 nents, u32 offset, bool single,
		    u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	struct rdma_rw_src src = { .sg = sg, .nents = nents, .offset = offset };
	int ret;

	if (rdma_rw_io_needs_mr(qp->device, port_num, dir, nents)) {
		ret = rdma_rw_build_mr_wrs(ctx, qp, port_num, sg, nents, offset,
					   remote_addr, rkey, dir);
		if (ret >= 0 || rdma_rw_mr_required(qp->device, port_num, dir))
			return ret;
	}
	return rdma_rw_init_sge_wrs(ctx, qp, &src, nents, single, remote_addr,
				    rkey, dir);
}

/* The entry @offset bytes into @sg lie in, NULL if past the @nents. */
static struct scatterlist *rdma_rw_skip_offset(struct scatterlist *sg,
					       u32 *nents, u32 *offset)
{
	while (*nents && *offset >= sg_dma_len(sg)) {
		*offset -= sg_dma_len(sg);
		sg = sg_next(sg);
		(*nents)--;
	}
	return *nents ? sg : NULL;
}

/**
 * rdma_rw_ctx_init - map a scatterlist and prepare an RDMA READ or WRITE
 * @ctx:	context to initialize; any previous content is discarded
 * @qp:		queue pair to operate on
 * @port_num:	port the connection is bound to
 * @sg:		scatterlist to READ into or WRITE from
 * @sg_cnt:	number of entries in @sg
 * @sg_offset:	byte offset into @sg at which the transfer starts
 * @remote_addr: remote address to read or write, relative to @rkey
 * @rkey:	remote key to operate on
 * @dir:	%DMA_TO_DEVICE: RDMA WRITE to the peer; %DMA_FROM_DEVICE: READ
 *
 * DMA-maps @sg and builds the RDMA READ/WRITEs that move it, through MRs
 * from @qp's pool where the device needs or prefers them.  Post them with
 * rdma_rw_ctx_post() or rdma_rw_ctx_wrs(); release with rdma_rw_ctx_destroy().
 *
 * Return: the number of send queue WQEs the transfer uses, or a negative
 * errno: -EINVAL for an empty list, a bad direction, an offset at or past
 * the end of the data, or an I/O that needs more MRs than @qp has; -EAGAIN
 * when the MRs it needs are in use (retry after one completes); -ENOMEM; or
 * the error of the DMA mapping or, where MRs are required, of the MR
 * mapping.  On error nothing stays mapped or taken and @ctx->nr_ops is 0.
 */
int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		     u32 port_num, struct scatterlist *sg, u32 sg_cnt,
		     u32 sg_offset, u64 remote_addr, u32 rkey,
		     enum dma_data_direction dir)
{
	struct sg_table sgt = { .sgl = sg, .orig_nents = sg_cnt };
	struct scatterlist *first;
	u32 nents;
	int ret;

	/* A failed init leaves nothing to destroy; success writes the rest. */
	ctx->nr_ops = 0;
	ctx->map = RDMA_RW_MAP_SG;
	if (!sg_cnt || !rdma_rw_valid_dir(dir))
		return -EINVAL;

	ret = ib_dma_map_sgtable_attrs(qp->device, &sgt, dir, 0);
	if (ret)
		return ret;

	nents = sgt.nents;
	ret = -EINVAL;
	first = rdma_rw_skip_offset(sg, &nents, &sg_offset);
	if (first)
		ret = rdma_rw_init_sg_wrs(ctx, qp, port_num, first, nents,
					  sg_offset, true, remote_addr, rkey, dir);
	if (ret >= 0)
		return ret;
	/* With the original list: the offset skip moved only our cursor. */
	ib_dma_unmap_sgtable_attrs(qp->device, &sgt, dir, 0);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_init);

/*
 * Map the @nr_pieces pieces of @src as one scatterlist, the way the block
 * layer hands a request over, and from there on take the scatterlist path.
 * The context keeps the list until it is destroyed.
 */
static int rdma_rw_init_bvec_sgl(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				 u32 port_num, struct rdma_rw_src *src,
				 u32 nr_pieces, u64 remote_addr, u32 rkey,
				 enum dma_data_direction dir)
{
	struct sg_table sgt = { .orig_nents = nr_pieces };
	struct bio_vec piece;
	int ret;
	u32 i;

	sgt.sgl = kvmalloc_array(nr_pieces, sizeof(*sgt.sgl), GFP_KERNEL);
	if (!sgt.sgl)
		return -ENOMEM;
	sg_init_table(sgt.sgl, nr_pieces);
	for (i = 0; i < nr_pieces; i++) {
		rdma_rw_bvec_next(src->bvecs, &src->iter, &src->lim, &piece);
		sg_set_page(&sgt.sgl[i], piece.bv_page, piece.bv_len,
			    piece.bv_offset);
	}

	ret = ib_dma_map_sgtable_attrs(qp->device, &sgt, dir, 0);
	if (ret)
		goto out_free;
	ret = rdma_rw_init_sg_wrs(ctx, qp, port_num, sgt.sgl, sgt.nents, 0,
				  false, remote_addr, rkey, dir);
	if (ret < 0)
		goto out_unmap;
	ctx->sgt = sgt;
	ctx->map = RDMA_RW_MAP_SGT;
	return ret;

out_unmap:
	ib_dma_unmap_sgtable_attrs(qp->device, &sgt, dir, 0);
out_free:
	kvfree(sgt.sgl);
	return ret;
}

/**
 * rdma_rw_ctx_init_bvec - map a bio_vec array and prepare an RDMA READ or WRITE
 * @ctx:	context to initialize; any previous content is discarded
 * @qp:		queue pair to operate on
 * @port_num:	port the connection is bound to
 * @bvecs:	bio_vec array to READ into or WRITE from
 * @nr_bvec:	number of entries in @bvecs
 * @iter:	where in @bvecs the transfer starts, and its length in bytes
 * @remote_addr: remote address to read or write, relative to @rkey
 * @rkey:	remote key to operate on
 * @dir:	%DMA_TO_DEVICE: RDMA WRITE to the peer; %DMA_FROM_DEVICE: READ
 *
 * The bio_vec counterpart of rdma_rw_ctx_init() for ULPs whose data already
 * lives in bio_vecs.  The segments are cut where the device's DMA limits
 * (maximum segment size, segment boundary, longest mapping) require.
 *
 * Return: as rdma_rw_ctx_init(); -EINVAL also when @iter reaches past
 * @nr_bvec entries or past the end of one.
 */
int rdma_rw_ctx_init_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			  u32 port_num, const struct bio_vec *bvecs,
			  u32 nr_bvec, struct bvec_iter iter,
			  u64 remote_addr, u32 rkey,
			  enum dma_data_direction dir)
{
	struct rdma_rw_src src = { .bvecs = bvecs, .iter = iter };
	u32 nr_pieces;
	bool p2pdma;
	int ret;

	ctx->nr_ops = 0;
	if (!nr_bvec || !iter.bi_size || !rdma_rw_valid_dir(dir))
		return -EINVAL;
	rdma_rw_get_dma_limits(qp->device, &src.lim);
	ret = rdma_rw_bvec_count(bvecs, nr_bvec, iter, &src.lim, &nr_pieces,
				 &p2pdma);
	if (ret)
		return ret;

	/* A list for P2PDMA, registration, or an IOMMU that may merge. */
	if (p2pdma || rdma_rw_io_needs_mr(qp->device, port_num, dir, nr_pieces) ||
	    (nr_pieces > 1 && !ib_uses_virt_dma(qp->device) &&
	     dma_get_merge_boundary(qp->device->dma_device)))
		return rdma_rw_init_bvec_sgl(ctx, qp, port_num, &src, nr_pieces,
					     remote_addr, rkey, dir);
	ctx->map = RDMA_RW_MAP_PIECES;
	return rdma_rw_init_sge_wrs(ctx, qp, &src, nr_pieces, true,
				    remote_addr, rkey, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_init_bvec);

/*
 * The bytes the RDMA READ/WRITE moves through an integrity MR are those
 * of the wire domain: the data, and a tuple after each interval when the
 * wire carries PI, whether or not memory holds PI too.  The mapped length
 * counts the data and the PI in memory (meta_length).
 */
static int rdma_rw_sig_wire_len(struct ib_mr *mr, u32 *len)
{
	const struct ib_sig_domain *wire = &mr->sig_attrs->wire;
	u32 interval = wire->sig.dif.pi_interval;
	u64 bytes;
	u32 data;

	if (check_sub_overflow(mr->length, mr->sig_attrs->meta_length, &data))
		return -EINVAL;
	bytes = data;
	if (wire->sig_type != IB_SIG_TYPE_NONE) {
		if (!interval)
			return -EINVAL;
		bytes += (u64)(data / interval) * sizeof(struct t10_pi_tuple);
	}
	if (bytes > U32_MAX)
		return -EINVAL;
	*len = bytes;
	return 0;
}

/**
 * rdma_rw_ctx_signature_init - prepare an RDMA READ or WRITE with T10-PI offload
 * @ctx:	context to initialize; any previous content is discarded
 * @qp:		queue pair to operate on, created with %IB_QP_CREATE_INTEGRITY_EN
 * @port_num:	port the connection is bound to
 * @sg:		scatterlist holding the data to READ into or WRITE from
 * @sg_cnt:	number of entries in @sg
 * @prot_sg:	scatterlist holding the protection information, or %NULL
 * @prot_sg_cnt: number of entries in @prot_sg, 0 when PI is not in memory
 * @sig_attrs:	how the HCA inserts, checks or strips PI in the memory and
 *		wire domains
 * @remote_addr: remote address to read or write, relative to @rkey
 * @rkey:	remote key to operate on
 * @dir:	%DMA_TO_DEVICE: RDMA WRITE to the peer; %DMA_FROM_DEVICE: READ
 *
 * Registers data and PI with one integrity MR from @qp's signature pool
 * (IB_WR_REG_MR_INTEGRITY) and moves the data through it with one RDMA
 * READ/WRITE.  Check the outcome with ib_check_mr_status() on the
 * completion; release with rdma_rw_ctx_destroy_signature().
 *
 * Return: as rdma_rw_ctx_init(); -EOPNOTSUPP when @qp has no integrity
 * support; -EINVAL also for a list longer than one integrity MR maps.
 */
int rdma_rw_ctx_signature_init(struct rdma_rw_ctx *ctx,
			       struct ib_qp *qp, u32 port_num,
			       struct scatterlist *sg,
			       u32 sg_cnt, struct scatterlist *prot_sg,
			       u32 prot_sg_cnt, struct ib_sig_attrs *sig_attrs,
			       u64 remote_addr, u32 rkey,
			       enum dma_data_direction dir)
{
	u32 pages_per_mr = rdma_rw_fr_page_list_len(qp->device, true);
	struct sg_table sgt = { .sgl = sg, .orig_nents = sg_cnt };
	struct sg_table prot_sgt = { .sgl = prot_sg, .orig_nents = prot_sg_cnt };
	struct rdma_rw_reg_ctx *reg;
	struct ib_mr *mr;
	int count, ret;

	memset(ctx, 0, sizeof(*ctx));
	if (!qp->integrity_en)
		return -EOPNOTSUPP;
	if (!sg_cnt || sg_cnt > pages_per_mr || prot_sg_cnt > pages_per_mr ||
	    !sig_attrs || !rdma_rw_valid_dir(dir))
		return -EINVAL;

	ret = ib_dma_map_sgtable_attrs(qp->device, &sgt, dir, 0);
	if (ret)
		return ret;
	if (prot_sg_cnt) {
		ret = ib_dma_map_sgtable_attrs(qp->device, &prot_sgt, dir, 0);
		if (ret)
			goto out_unmap_sg;
	}

	ret = -ENOMEM;
	reg = kzalloc(sizeof(*reg), GFP_KERNEL);
	if (!reg)
		goto out_unmap_prot_sg;

	mr = ib_mr_pool_get(qp, &qp->sig_mrs);
	if (!mr) {
		ret = rdma_rw_no_mr(qp, &qp->sig_mrs, 1);
		goto out_free_reg;
	}

	/* The driver reads the attributes while it maps (meta_length). */
	*mr->sig_attrs = *sig_attrs;
	ret = ib_map_mr_sg_pi(mr, sg, sgt.nents, NULL, prot_sg, prot_sgt.nents,
			      NULL, SZ_4K);
	if (ret) {
		ret = ret < 0 ? ret : -EINVAL;
		goto out_put_mr;
	}

	reg->sge.addr = mr->iova;
	ret = rdma_rw_sig_wire_len(mr, &reg->sge.length);
	if (ret)
		goto out_put_mr;

	reg->mr = mr;
	count = rdma_rw_init_reg_wrs(reg, qp, port_num,
				     IB_WR_REG_MR_INTEGRITY, dir);
	rdma_rw_init_rdma_wr(&reg->wr, &reg->sge, 1, remote_addr, rkey, dir);

	ctx->reg = reg;
	ctx->nr_ops = 1;
	ctx->type = RDMA_RW_SIG_MR;
	return count + 1;

out_put_mr:
	ib_mr_pool_put(qp, &qp->sig_mrs, mr);
out_free_reg:
	kfree(reg);
out_unmap_prot_sg:
	if (prot_sg_cnt)
		ib_dma_unmap_sgtable_attrs(qp->device, &prot_sgt, dir, 0);
out_unmap_sg:
	ib_dma_unmap_sgtable_attrs(qp->device, &sgt, dir, 0);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_signature_init);

/* The RDMA READ/WRITEs of an I/O through SGEs, in the context or not. */
static struct ib_rdma_wr *rdma_rw_sge_wrs(struct rdma_rw_ctx *ctx)
{
	return ctx->type == RDMA_RW_SINGLE_WR ? &ctx->wr : ctx->wrs;
}

/*
 * Give the MR a new key for this registration, so that a straggling access
 * through the previous one fails, and note whether the MR stays valid after
 * this I/O: it does unless the READ response invalidates it.
 */
static void rdma_rw_update_key(struct rdma_rw_reg_ctx *reg)
{
	struct ib_mr *mr = reg->mr;

	ib_update_fast_reg_key(mr, ib_inc_rkey(mr->lkey));
	reg->reg_wr.key = mr->lkey;
	reg->sge.lkey = mr->lkey;
	if (reg->wr.wr.opcode == IB_WR_RDMA_READ_WITH_INV) {
		reg->wr.wr.ex.invalidate_rkey = mr->lkey;
		mr->need_inval = false;
	} else {
		mr->need_inval = true;
	}
}

/**
 * rdma_rw_ctx_wrs - chain of work requests that performs an RDMA READ or WRITE
 * @ctx:	context set up by one of the rdma_rw_ctx init functions
 * @qp:		queue pair to operate on
 * @port_num:	port the connection is bound to
 * @cqe:	completion to signal on the last work request when @chain_wr
 *		is %NULL
 * @chain_wr:	work requests to post after ours, or %NULL
 *
 * Gives each MR of @ctx a fresh key and links the context's work requests,
 * followed by @chain_wr.  Without @chain_wr the last one is signalled and
 * completes through @cqe.  Call it right before posting: a context whose
 * post failed before its work requests reached the device may be linked
 * and posted again (as isert does), one in flight may not.
 *
 * Return: the first work request to hand to ib_post_send(): @chain_wr
 * itself, with a warning, if @ctx holds no work requests.
 */
struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx,
				   struct ib_qp *qp, u32 port_num,
				   struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr)
{
	struct ib_send_wr *first, *last;
	u32 i;

	if (WARN_ON_ONCE(!ctx->nr_ops))
		return chain_wr;

	if (ctx->type == RDMA_RW_MR || ctx->type == RDMA_RW_SIG_MR) {
		for (i = 0; i < ctx->nr_ops; i++)
			rdma_rw_update_key(&ctx->reg[i]);
		first = rdma_rw_reg_first_wr(&ctx->reg[0]);
		last = &ctx->reg[ctx->nr_ops - 1].wr.wr;
	} else {
		first = &rdma_rw_sge_wrs(ctx)->wr;
		last = &rdma_rw_sge_wrs(ctx)[ctx->nr_ops - 1].wr;
	}

	last->next = chain_wr;
	if (!chain_wr) {
		last->wr_cqe = cqe;
		last->send_flags |= IB_SEND_SIGNALED;
	}
	return first;
}
EXPORT_SYMBOL(rdma_rw_ctx_wrs);

/**
 * rdma_rw_ctx_post - post the work requests of an RDMA READ or WRITE
 * @ctx:	context set up by one of the rdma_rw_ctx init functions
 * @qp:		queue pair to post on
 * @port_num:	port the connection is bound to
 * @cqe:	completion to signal on the last work request when @chain_wr
 *		is %NULL
 * @chain_wr:	work requests to post after ours, or %NULL
 *
 * rdma_rw_ctx_wrs() followed by ib_post_send().
 *
 * Return: 0, or the error of ib_post_send(); -EINVAL, with a warning and
 * nothing posted, if @ctx holds no work requests: @chain_wr alone would
 * be a response without its data.
 */
int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		     u32 port_num, struct ib_cqe *cqe,
		     struct ib_send_wr *chain_wr)
{
	if (WARN_ON_ONCE(!ctx->nr_ops))
		return -EINVAL;
	return ib_post_send(qp, rdma_rw_ctx_wrs(ctx, qp, port_num, cqe,
						chain_wr), NULL);
}
EXPORT_SYMBOL(rdma_rw_ctx_post);

/*
 * Return the context's MRs to their pool, free what it allocated and undo
 * the DMA mappings it recorded, those of a bio_vec I/O: each piece's, which
 * its SGE holds (none on a virt DMA device, so no walk), or its list's.
 * A ULP's scatterlist is the ULP's to name.
 */
static __always_inline void
rdma_rw_release(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		enum dma_data_direction dir)
{
	struct ib_rdma_wr *wrs = rdma_rw_sge_wrs(ctx);
	u32 i;

	if (ctx->map == RDMA_RW_MAP_PIECES && !ib_uses_virt_dma(qp->device))
		for (i = 0; i < ctx->nr_ops; i++)
			rdma_rw_unmap_sges(qp->device, wrs[i].wr.sg_list,
					   wrs[i].wr.num_sge, dir);

	switch (ctx->type) {
	case RDMA_RW_MULTI_WR:
		kvfree(ctx->wrs);
		break;
	case RDMA_RW_MR:
	case RDMA_RW_SIG_MR:
		for (i = 0; i < ctx->nr_ops; i++)
			ib_mr_pool_put(qp, ctx->type == RDMA_RW_MR ?
				       &qp->rdma_mrs : &qp->sig_mrs,
				       ctx->reg[i].mr);
		kfree(ctx->reg);
		break;
	}

	if (ctx->map == RDMA_RW_MAP_SGT) {
		ib_dma_unmap_sgtable_attrs(qp->device, &ctx->sgt, dir, 0);
		kvfree(ctx->sgt.sgl);
	}
	ctx->nr_ops = 0;
}

/**
 * rdma_rw_ctx_destroy - release what rdma_rw_ctx_init() set up
 * @ctx:	context to release
 * @qp:		queue pair the context was set up on
 * @port_num:	port the connection is bound to
 * @sg:		the scatterlist passed to rdma_rw_ctx_init()
 * @sg_cnt:	the entry count passed to rdma_rw_ctx_init()
 * @dir:	the direction passed to rdma_rw_ctx_init()
 *
 * Returns the MRs to @qp's pool, frees the work requests and unmaps @sg,
 * once the work requests completed or were never posted.  A context that
 * holds nothing is left alone; one from another init function draws a
 * warning and is left alone, too.
 */
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx,
			 struct ib_qp *qp, u32 port_num,
			 struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir)
{
	if (!ctx->nr_ops)
		return;
	if (WARN_ON_ONCE(ctx->map != RDMA_RW_MAP_SG ||
			 ctx->type == RDMA_RW_SIG_MR))
		return;

	rdma_rw_release(ctx, qp, dir);
	ib_dma_unmap_sg(qp->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy);

/**
 * rdma_rw_ctx_destroy_bvec - release what rdma_rw_ctx_init_bvec() set up
 * @ctx:	context to release
 * @qp:		queue pair the context was set up on
 * @port_num:	port the connection is bound to
 * @bvecs:	the bio_vec array passed to rdma_rw_ctx_init_bvec()
 * @nr_bvec:	the entry count passed to rdma_rw_ctx_init_bvec()
 * @dir:	the direction passed to rdma_rw_ctx_init_bvec()
 *
 * Like rdma_rw_ctx_destroy().  The mappings are undone from what @ctx
 * recorded, so @bvecs and @nr_bvec serve only to mirror the init call.
 */
void rdma_rw_ctx_destroy_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			      u32 port_num, const struct bio_vec *bvecs,
			      u32 nr_bvec, enum dma_data_direction dir)
{
	if (!ctx->nr_ops)
		return;
	if (WARN_ON_ONCE(ctx->map == RDMA_RW_MAP_SG))
		return;

	rdma_rw_release(ctx, qp, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy_bvec);

/**
 * rdma_rw_ctx_destroy_signature - release what rdma_rw_ctx_signature_init() set up
 * @ctx:	context to release
 * @qp:		queue pair the context was set up on
 * @port_num:	port the connection is bound to
 * @sg:		the data scatterlist passed to rdma_rw_ctx_signature_init()
 * @sg_cnt:	the entry count of @sg passed at init
 * @prot_sg:	the PI scatterlist passed at init
 * @prot_sg_cnt: the entry count of @prot_sg passed at init
 * @dir:	the direction passed at init
 *
 * Returns the integrity MR to @qp's pool and unmaps @sg and @prot_sg.  A
 * context from another init function draws a warning and is left alone.
 */
void rdma_rw_ctx_destroy_signature(struct rdma_rw_ctx *ctx,
				   struct ib_qp *qp, u32 port_num,
				   struct scatterlist *sg,
				   u32 sg_cnt, struct scatterlist *prot_sg,
				   u32 prot_sg_cnt,
				   enum dma_data_direction dir)
{
	if (!ctx->nr_ops)
		return;
	if (WARN_ON_ONCE(ctx->type != RDMA_RW_SIG_MR))
		return;

	rdma_rw_release(ctx, qp, dir);
	if (prot_sg_cnt)
		ib_dma_unmap_sg(qp->device, prot_sg, prot_sg_cnt, dir);
	ib_dma_unmap_sg(qp->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy_signature);

/**
 * rdma_rw_mr_factor - contexts one I/O of up to @maxpages pages may take
 * @device:	device the I/O runs on
 * @port_num:	port the connection is bound to
 * @maxpages:	largest I/O of the ULP, in pages
 *
 * A ULP multiplies its number of concurrent I/Os by this to set
 * &ib_qp_cap.max_rdma_ctxs: one MR per pages_per_mr pages where MRs are
 * used, however the pages are split into DMA entries, else one work
 * request per max_sge_rd pages.
 *
 * Return: the factor, at least 1 for a non-zero @maxpages.
 */
unsigned int rdma_rw_mr_factor(struct ib_device *device,
			       u32 port_num, unsigned int maxpages)
{
	u32 per_op = rdma_rw_can_use_mr(device, port_num) ?
		     rdma_rw_fr_page_list_len(device, false) :
		     max_t(int, device->attrs.max_sge_rd, 1);

	return rdma_rw_div_up(maxpages, per_op);
}
EXPORT_SYMBOL(rdma_rw_mr_factor);

/**
 * rdma_rw_max_send_wr - send queue depth that @max_rdma_ctxs contexts need
 * @dev:	device the QP is created on
 * @port_num:	port the QP is bound to
 * @max_rdma_ctxs: contexts in flight at a time
 * @create_flags: the &ib_qp_init_attr.create_flags of the QP
 *
 * For a ULP that sizes its send queue itself (before ib_create_qp() adds
 * the same amount for &ib_qp_cap.max_rdma_ctxs).
 *
 * Return: the number of send WRs, or %UINT_MAX if that overflows.
 */
unsigned int rdma_rw_max_send_wr(struct ib_device *dev,
				 u32 port_num, unsigned int max_rdma_ctxs,
				 u32 create_flags)
{
	/* Per context the data WR, and REG_MR and LOCAL_INV with MRs. */
	u32 per_ctx = rdma_rw_can_use_mr(dev, port_num) ||
		      (create_flags & IB_QP_CREATE_INTEGRITY_EN) ? 3 : 1;
	unsigned int wrs;

	if (check_mul_overflow(per_ctx, max_rdma_ctxs, &wrs))
		return UINT_MAX;
	return wrs;
}
EXPORT_SYMBOL(rdma_rw_max_send_wr);

/**
 * rdma_rw_init_qp - grow a QP's send queue for its RDMA READ/WRITE contexts
 * @dev:	device the QP is created on
 * @attr:	creation attributes, with &ib_qp_cap.max_rdma_ctxs set
 *
 * Called by ib_create_qp().  The result is capped at the device's
 * max_qp_wr: a ULP asking for more must throttle its I/O to what
 * ib_query_qp() reports.
 */
void rdma_rw_init_qp(struct ib_device *dev,
		     struct ib_qp_init_attr *attr)
{
	u32 wrs;

	WARN_ON_ONCE(attr->port_num == 0);

	if (check_add_overflow(attr->cap.max_send_wr,
			       rdma_rw_max_send_wr(dev, attr->port_num,
						   attr->cap.max_rdma_ctxs,
						   attr->create_flags),
			       &wrs))
		wrs = U32_MAX;
	attr->cap.max_send_wr = min_t(u32, wrs, max(dev->attrs.max_qp_wr, 0));
}

/**
 * rdma_rw_init_mrs - fill a new QP's MR pools for its RDMA READ/WRITE contexts
 * @qp:		the QP being created
 * @attr:	its creation attributes, with &ib_qp_cap.max_rdma_ctxs set
 *
 * Called by ib_create_qp(): one MR per context where the device may need
 * them, and as many integrity MRs on a QP with %IB_QP_CREATE_INTEGRITY_EN;
 * plain MRs as long as rdma_rw_mr_factor() counts them, on any QP.
 *
 * Return: 0, or the error of the MR allocation; nothing is left allocated.
 */
int rdma_rw_init_mrs(struct ib_qp *qp,
		     struct ib_qp_init_attr *attr)
{
	bool pi = attr->create_flags & IB_QP_CREATE_INTEGRITY_EN;
	u32 nr_mrs = attr->cap.max_rdma_ctxs;
	u32 pi_sg = rdma_rw_fr_page_list_len(qp->device, true);
	int ret;

	if (!pi && !rdma_rw_can_use_mr(qp->device, attr->port_num))
		return 0;

	ret = ib_mr_pool_init(qp, &qp->rdma_mrs, nr_mrs, IB_MR_TYPE_MEM_REG,
			      rdma_rw_fr_page_list_len(qp->device, false), 0);
	if (ret)
		goto out_err;
	if (pi) {
		ret = ib_mr_pool_init(qp, &qp->sig_mrs, nr_mrs,
				      IB_MR_TYPE_INTEGRITY, pi_sg, pi_sg);
		if (ret) {
			ib_mr_pool_destroy(qp, &qp->rdma_mrs);
			goto out_err;
		}
	}
	return 0;

out_err:
	ibdev_err(qp->device, "cannot allocate %u%s MRs for RDMA R/W: %d\n",
		  nr_mrs, pi ? " integrity" : "", ret);
	return ret;
}

/**
 * rdma_rw_cleanup_mrs - free the MR pools of a QP being destroyed
 * @qp:		the QP
 */
void rdma_rw_cleanup_mrs(struct ib_qp *qp)
{
	ib_mr_pool_destroy(qp, &qp->sig_mrs);
	ib_mr_pool_destroy(qp, &qp->rdma_mrs);
}
