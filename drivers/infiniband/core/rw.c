// SPDX-License-Identifier: GPL-2.0-only
/*
 * RDMA READ/WRITE contexts.
 *
 * A ULP gives us its side of a transfer (a scatterlist or a bio_vec array)
 * and the peer's side (remote address and rkey).  We DMA-map the local buffer
 * and build the chain of send work requests that moves the data, in the
 * cheapest shape the device and QP allow:
 *
 *   RDMA_RW_INLINE_WR  one RDMA READ/WRITE of up to RDMA_RW_INLINE_SGES
 *                      SGEs, all of it in the context: no allocation;
 *   RDMA_RW_MULTI_WR   RDMA READ/WRITEs of up to max_read_sge/max_write_sge
 *                      SGEs each;
 *   RDMA_RW_MR         per run of up to pages_per_mr pages: [LOCAL_INV],
 *                      REG_MR, then one RDMA READ/WRITE through the new MR;
 *                      a DMA entry longer than an MR maps continues in the
 *                      next one;
 *   RDMA_RW_SIG_MR     the same with one integrity MR, which makes the HCA
 *                      insert, check or strip T10-PI on the way.
 *
 * MRs are mandatory for RDMA READ on iWARP, whose READ sink must be a
 * remotely writable STag, and when the force_mr debug option is set.  They
 * are an optimisation for READs on devices that report max_sgl_rd, and only
 * there does a failed registration fall back to SGEs.
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
	RDMA_RW_INLINE_WR,
	RDMA_RW_MULTI_WR,
	RDMA_RW_MR,
	RDMA_RW_SIG_MR,
};

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

/*
 * Ceiling division that cannot wrap, unlike DIV_ROUND_UP(), near U32_MAX.
 * Most I/Os fit in one MR or one work request: no division for those.
 */
static u32 rdma_rw_div_up(u32 n, u32 d)
{
	if (n <= d)
		return n != 0;
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
 * whose SGE list is longer than max_sgl_rd.  On every I/O: inlined.
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

/*
 * Every field is written, the I/O's one work request is on the hot path,
 * and a memset of its 56 bytes is a rep stos on x86, slower than the
 * stores.
 */
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
 * written locally, and on iWARP by the peer's READ response, which lands
 * straight in the MR; a WRITE's source is only read, which every MR
 * allows.  An MR with rights to spare would let a peer that guesses its
 * key write where it should only be read from.
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
 * Double @reg's room for registrations; the new half is zeroed.  Room the
 * caller lent (@room) is left behind for an array of our own.
 */
static int rdma_rw_grow_regs(struct rdma_rw_reg_ctx **reg, u32 *max_ops,
			     void *room)
{
	struct rdma_rw_reg_ctx *bigger;

	if (*reg == room) {
		bigger = kmalloc_array(*max_ops * 2, sizeof(**reg), GFP_KERNEL);
		if (bigger)
			memcpy(bigger, *reg, *max_ops * sizeof(**reg));
	} else {
		bigger = krealloc_array(*reg, *max_ops * 2, sizeof(**reg),
					GFP_KERNEL);
	}
	if (!bigger)
		return -ENOMEM;
	memset(bigger + *max_ops, 0, *max_ops * sizeof(*bigger));
	*reg = bigger;
	*max_ops *= 2;
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

/* Registrations that @nents entries of a page or less take at most. */
static u32 rdma_rw_nr_regs(struct ib_device *dev, u32 nents)
{
	return rdma_rw_div_up(nents, rdma_rw_fr_page_list_len(dev, false));
}

/*
 * Register the @sg_cnt mapped entries at @sg with as many MRs as their
 * pages need.  Entries of one page or less take an MR per pages_per_mr of
 * them, which is the room taken first: @room if the caller lent it (sized
 * with rdma_rw_nr_regs() for at least @sg_cnt entries, and owned by the
 * caller), else an allocation the context owns.  Longer entries, which an
 * IOMMU makes by merging pages, take more, and the room grows with them.
 * The work requests are linked once the array has stopped moving.
 */
static int rdma_rw_build_mr_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				u32 port_num, struct scatterlist *sg,
				u32 sg_cnt, u32 offset, void *room,
				u64 remote_addr, u32 rkey,
				enum dma_data_direction dir)
{
	u32 max_ops = rdma_rw_nr_regs(qp->device, sg_cnt);
	struct rdma_rw_reg_ctx *reg = room;
	u32 nr_ops = 0, i;
	int ret;

	if (reg)
		memset(reg, 0, max_ops * sizeof(*reg));
	else
		reg = kcalloc(max_ops, sizeof(*reg), GFP_KERNEL);
	if (!reg)
		return -ENOMEM;

	while (sg_cnt) {
		if (nr_ops == max_ops) {
			ret = rdma_rw_grow_regs(&reg, &max_ops, room);
			if (ret)
				goto out_put_mrs;
		}
		ret = rdma_rw_map_one_mr(qp, &reg[nr_ops], &sg, &sg_cnt,
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
	if (reg != room)
		kfree(reg);
	if (ret == -EAGAIN)
		ret = rdma_rw_no_mr(qp, &qp->rdma_mrs, nr_ops + 1);
	return ret;
}

static void rdma_rw_sg_to_sge(struct ib_qp *qp, struct scatterlist *sg,
			      u32 offset, struct ib_sge *sge)
{
	sge->addr = sg_dma_address(sg) + offset;
	sge->length = sg_dma_len(sg) - offset;
	sge->lkey = qp->pd->local_dma_lkey;
}

/* sg_next() is a call: none past the last entry. */
static __always_inline void
rdma_rw_sg_to_sges(struct ib_qp *qp, struct scatterlist *sg, u32 nents,
		   u32 offset, struct ib_sge *sges)
{
	u32 i;

	rdma_rw_sg_to_sge(qp, sg, offset, &sges[0]);
	for (i = 1; i < nents; i++) {
		sg = sg_next(sg);
		rdma_rw_sg_to_sge(qp, sg, 0, &sges[i]);
	}
}

/* Bytes for @nr_ops work requests and, behind them, @nr_sge SGEs. */
static size_t rdma_rw_sge_wrs_bytes(u32 nr_sge, u32 nr_ops)
{
	return size_add(array_size(nr_ops, sizeof(struct ib_rdma_wr)),
			array_size(nr_sge, sizeof(struct ib_sge)));
}

/* Bytes for the work requests and SGEs of @nr_sge SGEs, max_sge a WR. */
static size_t rdma_rw_sge_wrs_size(u32 nr_sge, u32 max_sge)
{
	return rdma_rw_sge_wrs_bytes(nr_sge, rdma_rw_div_up(nr_sge, max_sge));
}

/*
 * Where the SGEs and work requests of a multi-SGE I/O go: into @room,
 * which the caller owns and sized with rdma_rw_sge_wrs_size(), work
 * requests first; else the SGEs into an array of their own and a lone
 * work request into the context, as most I/Os have, or several work
 * requests and the SGEs into one allocation laid out as a room is.  The
 * context owns the allocation.
 */
static int rdma_rw_alloc_sge_wrs(struct rdma_rw_ctx *ctx, u32 nr_sge,
				 u32 nr_ops, void *room)
{
	if (!room && nr_ops == 1) {
		ctx->sges = kmalloc_array(nr_sge, sizeof(*ctx->sges),
					  GFP_KERNEL);
		ctx->wrs = &ctx->wr;
		return ctx->sges ? 0 : -ENOMEM;
	}
	if (!room) {
		room = kmalloc(rdma_rw_sge_wrs_bytes(nr_sge, nr_ops),
			       GFP_KERNEL);
		if (!room)
			return -ENOMEM;
	}
	ctx->wrs = room;
	ctx->sges = (struct ib_sge *)(ctx->wrs + nr_ops);
	return 0;
}

static void rdma_rw_free_sge_wrs(struct rdma_rw_ctx *ctx)
{
	/* A bio_vec I/O's are in the allocation of its scatterlist. */
	if (ctx->bvec)
		return;
	/* Several work requests share their SGEs' allocation. */
	if (ctx->wrs != &ctx->wr)
		kfree(ctx->wrs);
	else
		kfree(ctx->sges);
}

/*
 * Write the context's @nr_sge SGEs, each taken from @next_sge, and spread
 * them over its RDMA READ/WRITEs, @max_sge each, in the same pass: a work
 * request's remote address follows from the bytes of the SGEs before it,
 * which are at hand as they are written.  @next_sge writes the next SGE
 * from @src, false if its DMA mapping failed; this is inlined with each
 * caller's.  Returns the SGEs written, fewer than @nr_sge only when
 * @next_sge failed, and then the context is left unset.
 */
static __always_inline u32
rdma_rw_fill_sge_wrs(struct rdma_rw_ctx *ctx, u32 nr_sge, u32 max_sge,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir,
		     bool (*next_sge)(void *src, struct ib_sge *sge),
		     void *src)
{
	struct ib_rdma_wr *wr = ctx->wrs;
	struct ib_sge *sge = ctx->sges;
	u32 i, n;

	for (i = 0; i < nr_sge; wr++) {
		n = min(nr_sge - i, max_sge);
		rdma_rw_init_rdma_wr(wr, sge, n, remote_addr, rkey, dir);
		if (i)
			wr[-1].wr.next = &wr->wr;
		for (; n; n--, i++, sge++) {
			if (!next_sge(src, sge))
				return i;
			remote_addr += sge->length;
		}
	}

	ctx->nr_ops = wr - ctx->wrs;
	ctx->type = RDMA_RW_MULTI_WR;
	return i;
}

/* The mapped entries of a scatterlist, as rdma_rw_fill_sge_wrs() takes them. */
struct rdma_rw_sg_src {
	struct ib_qp *qp;
	struct scatterlist *sg;
	u32 offset;
};

static __always_inline bool rdma_rw_next_sg_sge(void *p, struct ib_sge *sge)
{
	struct rdma_rw_sg_src *src = p;

	rdma_rw_sg_to_sge(src->qp, src->sg, src->offset, sge);
	src->offset = 0;
	src->sg = sg_next(src->sg);
	return true;
}

/*
 * One SGE per mapped entry, in @room if not NULL (see
 * rdma_rw_alloc_sge_wrs()).
 */
static int rdma_rw_build_sge_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				 struct scatterlist *sg, u32 nents, u32 offset,
				 void *room, u64 remote_addr, u32 rkey,
				 enum dma_data_direction dir)
{
	struct rdma_rw_sg_src src = { .qp = qp, .sg = sg, .offset = offset };
	u32 max_sge = rdma_rw_max_sge(qp, dir);
	int ret;

	ret = rdma_rw_alloc_sge_wrs(ctx, nents, rdma_rw_div_up(nents, max_sge),
				    room);
	if (ret)
		return ret;
	rdma_rw_fill_sge_wrs(ctx, nents, max_sge, remote_addr, rkey, dir,
			     rdma_rw_next_sg_sge, &src);
	return ctx->nr_ops;
}

/* The @nr_sge SGEs are already in ctx->sge. */
static int rdma_rw_init_inline_wr(struct rdma_rw_ctx *ctx, u32 nr_sge,
				  u64 remote_addr, u32 rkey,
				  enum dma_data_direction dir)
{
	rdma_rw_init_rdma_wr(&ctx->wr, ctx->sge, nr_sge, remote_addr, rkey,
			     dir);
	ctx->nr_ops = 1;
	ctx->type = RDMA_RW_INLINE_WR;
	return 1;
}

/* The SGEs of one work request fit in the context. */
static bool rdma_rw_fits_inline(struct ib_qp *qp, u32 nr_sge,
				enum dma_data_direction dir)
{
	return nr_sge <= RDMA_RW_INLINE_SGES &&
	       nr_sge <= rdma_rw_max_sge(qp, dir);
}

/*
 * Build the work requests for @nents mapped entries, in the best shape.
 * @room, if not NULL, is the caller's for the SGE work requests (see
 * rdma_rw_alloc_sge_wrs()) or the registrations (rdma_rw_build_mr_wrs()),
 * whichever the I/O takes.  Inlined, as the helpers every I/O takes are:
 * an I/O of one SGE costs about as much as a call with ten arguments.
 */
static __always_inline int
rdma_rw_init_sg_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		    struct scatterlist *sg, u32 nents, u32 offset, void *room,
		    u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	int ret;

	if (rdma_rw_io_needs_mr(qp->device, port_num, dir, nents)) {
		ret = rdma_rw_build_mr_wrs(ctx, qp, port_num, sg, nents, offset,
					   room, remote_addr, rkey, dir);
		/* Where MRs are only what the device prefers, SGEs will do. */
		if (ret >= 0 || rdma_rw_mr_required(qp->device, port_num, dir))
			return ret;
	}

	if (!room && rdma_rw_fits_inline(qp, nents, dir)) {
		rdma_rw_sg_to_sges(qp, sg, nents, offset, ctx->sge);
		return rdma_rw_init_inline_wr(ctx, nents, remote_addr, rkey,
					      dir);
	}
	return rdma_rw_build_sge_wrs(ctx, qp, sg, nents, offset, room,
				     remote_addr, rkey, dir);
}

/*
 * Step over the mapped entries that @offset covers entirely.  Returns the
 * entry the I/O starts in, with @nents and @offset adjusted to it, or NULL
 * when the offset lies at or past the end of the data.
 */
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
 * DMA-maps @sg and builds the work requests that move it: a single RDMA
 * READ/WRITE, several of them when the SGEs exceed what one may carry, or
 * fast registrations from @qp's MR pool where the device needs or prefers
 * them.  Post them with rdma_rw_ctx_post() or rdma_rw_ctx_wrs(), release
 * everything with rdma_rw_ctx_destroy().
 *
 * Return: the number of send queue WQEs the transfer uses, or a negative
 * errno: -EINVAL for an empty list, a bad direction, an offset at or past
 * the end of the data, or an I/O that needs more MRs than @qp has; -EAGAIN
 * when MRs are needed and those of @qp are in use (retry after one
 * completes); -ENOMEM; or the error of the DMA mapping or, where MRs are
 * required, of the device's MR mapping.  On error nothing stays mapped or
 * taken and @ctx->nr_ops is 0, so a following rdma_rw_ctx_destroy() does
 * nothing.
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
	ctx->bvec = false;
	if (!sg_cnt || !rdma_rw_valid_dir(dir))
		return -EINVAL;

	ret = ib_dma_map_sgtable_attrs(qp->device, &sgt, dir, 0);
	if (ret)
		return ret;

	nents = sgt.nents;
	first = rdma_rw_skip_offset(sg, &nents, &sg_offset);
	if (!first) {
		ret = -EINVAL;
		goto out_unmap;
	}

	ret = rdma_rw_init_sg_wrs(ctx, qp, port_num, first, nents, sg_offset,
				  NULL, remote_addr, rkey, dir);
	if (ret < 0)
		goto out_unmap;
	return ret;

out_unmap:
	/* With the original list: the offset skip moved only our cursor. */
	ib_dma_unmap_sgtable_attrs(qp->device, &sgt, dir, 0);
	return ret;
}
EXPORT_SYMBOL(rdma_rw_ctx_init);

/*
 * The longest piece of a bio_vec the device takes as one DMA segment, and
 * the boundary (a mask) no segment may cross.  The block layer splits its
 * requests at these already; a ULP's bio_vecs need not be, and a large
 * folio may exceed the maximum segment or, when swiotlb bounces, the
 * longest mapping it can make.
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

/*
 * Take the next piece of @iter out of @bvecs: the rest of the current
 * segment, cut at the DMA limits.  Returns 1 with @piece set, 0 at the
 * end, or -EINVAL when @iter reaches past @nr_bvec entries or past the
 * end of one.
 */
static __always_inline int
rdma_rw_bvec_next(const struct bio_vec *bvecs, u32 nr_bvec,
		  struct bvec_iter *iter, const struct rdma_rw_dma_limits *lim,
		  struct bio_vec *piece)
{
	while (iter->bi_size) {
		const struct bio_vec *bv;
		phys_addr_t phys;
		u32 off, len;

		if (iter->bi_idx >= nr_bvec)
			return -EINVAL;
		bv = &bvecs[iter->bi_idx];
		if (iter->bi_bvec_done > bv->bv_len)
			return -EINVAL;

		off = bv->bv_offset + iter->bi_bvec_done;
		len = min3(iter->bi_size, bv->bv_len - iter->bi_bvec_done,
			   lim->max_len);
		if (lim->boundary != ULONG_MAX) {
			phys = page_to_phys(bv->bv_page) + off;
			len = min_t(u64, len, lim->boundary -
					      (phys & lim->boundary) + 1);
		}
		/* An empty segment, or the end of one, moves to the next. */
		bvec_iter_advance_single(bvecs, iter, len);
		if (!len)
			continue;

		bvec_set_page(piece, nth_page(bv->bv_page, off / PAGE_SIZE),
			      len, offset_in_page(off));
		return 1;
	}
	return 0;
}

/* rdma_rw_bvec_count() of a device without a segment boundary. */
static int rdma_rw_bvec_count_segs(const struct bio_vec *bvecs, u32 nr_bvec,
				   u32 idx, u32 done, u32 size, u32 max_len,
				   u32 *count, bool *p2pdma)
{
	bool p2p = false;
	u32 n = 0, len;

	for (; size; idx++, done = 0) {
		if (idx >= nr_bvec || done > bvecs[idx].bv_len)
			return -EINVAL;
		len = min(size, bvecs[idx].bv_len - done);
		if (!len)
			continue;
		p2p |= is_pci_p2pdma_page(bvecs[idx].bv_page);
		/* No division for the segment that needs no cut. */
		n += len <= max_len ? 1 : rdma_rw_div_up(len, max_len);
		size -= len;
	}
	*count = n;
	*p2pdma = p2p;
	return 0;
}

/*
 * Count the pieces of @iter, checking that it stays inside @bvecs, and
 * say whether any is a P2PDMA page, which only a scatterlist maps.  A
 * segment's pages share their pgmap, so its first page tells.  Without a
 * segment boundary, the rest of each segment makes pieces of max_len and
 * one shorter, which is arithmetic; a boundary takes the walk.
 */
static int rdma_rw_bvec_count(const struct bio_vec *bvecs, u32 nr_bvec,
			      struct bvec_iter iter,
			      const struct rdma_rw_dma_limits *lim,
			      u32 *count, bool *p2pdma)
{
	struct bio_vec piece;
	int ret;

	*count = 0;
	*p2pdma = false;
	if (lim->boundary != ULONG_MAX) {
		while ((ret = rdma_rw_bvec_next(bvecs, nr_bvec, &iter, lim,
						&piece)) > 0) {
			*p2pdma |= is_pci_p2pdma_page(piece.bv_page);
			(*count)++;
		}
		return ret;
	}

	return rdma_rw_bvec_count_segs(bvecs, nr_bvec, iter.bi_idx,
				       iter.bi_bvec_done, iter.bi_size,
				       lim->max_len, count, p2pdma);
}

/*
 * Several pieces are built into a scatterlist where the DMA layer can
 * merge them (an IOMMU: one IOVA range and one IOTLB flush for the I/O,
 * and fewer SGEs), where P2PDMA pages need it, and for registration, which
 * takes a scatterlist.  Otherwise each is mapped into its SGE straight:
 * the DMA layer does the same work per piece either way, and no list is
 * built.
 */
static __always_inline bool
rdma_rw_bvec_wants_sgl(struct ib_qp *qp, u32 port_num,
		       enum dma_data_direction dir, u32 nr_pieces, bool p2pdma)
{
	struct ib_device *dev = qp->device;

	return p2pdma || rdma_rw_io_needs_mr(dev, port_num, dir, nr_pieces) ||
	       (nr_pieces > 1 && !ib_uses_virt_dma(dev) &&
		dma_get_merge_boundary(dev->dma_device));
}

/*
 * The common small I/O lies inside the segment @iter starts in, and within
 * a page unless the device has no DMA limits (any device takes a page as
 * one segment): one piece, found without the walk.
 */
static bool rdma_rw_bvec_one_piece(struct ib_device *dev,
				   const struct bio_vec *bvecs, u32 nr_bvec,
				   const struct bvec_iter *iter,
				   struct bio_vec *piece)
{
	const struct bio_vec *bv;
	u32 off;

	if (iter->bi_idx >= nr_bvec)
		return false;
	bv = &bvecs[iter->bi_idx];
	if (iter->bi_bvec_done > bv->bv_len ||
	    iter->bi_size > bv->bv_len - iter->bi_bvec_done)
		return false;
	off = bv->bv_offset + iter->bi_bvec_done;
	if (!ib_uses_virt_dma(dev) &&
	    offset_in_page(off) + iter->bi_size > PAGE_SIZE)
		return false;
	bvec_set_page(piece, nth_page(bv->bv_page, off / PAGE_SIZE),
		      iter->bi_size, offset_in_page(off));
	return true;
}

/*
 * The common small I/O: at most RDMA_RW_INLINE_SGES pieces, each within a
 * page unless the device has no DMA limits (any device takes a page as one
 * segment), none of them P2PDMA, so each is the rest of its segment and
 * none is cut at the DMA limits.  Returns how many, or 0 for any other
 * I/O, a bad @iter included, which the general path then takes or
 * refuses.  It stops at the piece that makes the I/O not small.
 */
static __always_inline u32
rdma_rw_bvec_few_pieces(struct ib_device *dev, const struct bio_vec *bvecs,
			u32 nr_bvec, const struct bvec_iter *iter)
{
	u32 idx = iter->bi_idx, done = iter->bi_bvec_done;
	u32 size = iter->bi_size, n = 0, len;
	const struct bio_vec *bv;

	for (; size; idx++, done = 0) {
		if (idx >= nr_bvec)
			return 0;
		bv = &bvecs[idx];
		if (done > bv->bv_len)
			return 0;
		len = min(size, bv->bv_len - done);
		if (!len)
			continue;
		if (n == RDMA_RW_INLINE_SGES ||
		    (!ib_uses_virt_dma(dev) &&
		     offset_in_page(bv->bv_offset + done) + len > PAGE_SIZE) ||
		    is_pci_p2pdma_page(bv->bv_page))
			return 0;
		n++;
		size -= len;
	}
	return n;
}

/* Map @piece into @sge; false when the DMA mapping fails. */
static __always_inline bool rdma_rw_map_piece(struct ib_qp *qp,
					      const struct bio_vec *piece,
					      struct ib_sge *sge,
					      enum dma_data_direction dir)
{
	sge->addr = ib_dma_map_page(qp->device, piece->bv_page,
				    piece->bv_offset, piece->bv_len, dir);
	if (ib_dma_mapping_error(qp->device, sge->addr))
		return false;
	sge->length = piece->bv_len;
	sge->lkey = qp->pd->local_dma_lkey;
	return true;
}

/* One piece, mapped on its own into the context's first SGE. */
static __always_inline int
rdma_rw_init_bvec_single(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 const struct bio_vec *piece, u64 remote_addr,
			 u32 rkey, enum dma_data_direction dir)
{
	if (!rdma_rw_map_piece(qp, piece, &ctx->sge[0], dir))
		return -ENOMEM;
	return rdma_rw_init_inline_wr(ctx, 1, remote_addr, rkey, dir);
}

static __always_inline void
rdma_rw_unmap_sges(struct ib_device *dev, struct ib_sge *sges, u32 nr_sge,
		   enum dma_data_direction dir)
{
	u32 i;

	for (i = 0; i < nr_sge; i++)
		ib_dma_unmap_page(dev, sges[i].addr, sges[i].length, dir);
}

/*
 * Map each of the @nr pieces rdma_rw_bvec_few_pieces() counted in @iter on
 * its own into the context's SGEs.
 */
static __always_inline int
rdma_rw_init_bvec_inline(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 const struct bio_vec *bvecs,
			 const struct bvec_iter *iter, u32 nr, u64 remote_addr,
			 u32 rkey, enum dma_data_direction dir)
{
	const struct bio_vec *bv = &bvecs[iter->bi_idx];
	u32 done = iter->bi_bvec_done, size = iter->bi_size;
	struct bio_vec piece;
	u32 i = 0, off, len;

	for (; i < nr; bv++, done = 0) {
		len = min(size, bv->bv_len - done);
		if (!len)
			continue;
		off = bv->bv_offset + done;
		bvec_set_page(&piece, nth_page(bv->bv_page, off / PAGE_SIZE),
			      len, offset_in_page(off));
		if (!rdma_rw_map_piece(qp, &piece, &ctx->sge[i], dir)) {
			rdma_rw_unmap_sges(qp->device, ctx->sge, i, dir);
			return -ENOMEM;
		}
		i++;
		size -= len;
	}
	return rdma_rw_init_inline_wr(ctx, nr, remote_addr, rkey, dir);
}

/* The pieces of a bio_vec walk, each mapped on its own, as SGEs. */
struct rdma_rw_bvec_src {
	struct ib_qp *qp;
	const struct bio_vec *bvecs;
	u32 nr_bvec;
	struct bvec_iter iter;
	const struct rdma_rw_dma_limits *lim;
	enum dma_data_direction dir;
};

static __always_inline bool rdma_rw_next_bvec_sge(void *p, struct ib_sge *sge)
{
	struct rdma_rw_bvec_src *src = p;
	struct bio_vec piece = {};

	rdma_rw_bvec_next(src->bvecs, src->nr_bvec, &src->iter, src->lim,
			  &piece);
	return rdma_rw_map_piece(src->qp, &piece, sge, src->dir);
}

/*
 * Map each of the @nr_sge pieces of @iter on its own into its SGE: in the
 * context when they fit in one work request there, else in an allocation
 * that holds the work requests too, which the context keeps, with no
 * scatterlist (@ctx->sgt.sgl NULL).  rdma_rw_bvec_count() has walked
 * @iter: it yields @nr_sge pieces.
 */
static noinline int
rdma_rw_init_bvec_sges(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
		       const struct bio_vec *bvecs, u32 nr_bvec,
		       struct bvec_iter iter, u32 nr_sge,
		       const struct rdma_rw_dma_limits *lim, u64 remote_addr,
		       u32 rkey, enum dma_data_direction dir)
{
	struct rdma_rw_bvec_src src = {
		.qp = qp, .bvecs = bvecs, .nr_bvec = nr_bvec, .iter = iter,
		.lim = lim, .dir = dir,
	};
	u32 max_sge = rdma_rw_max_sge(qp, dir);
	void *room;
	u32 i;

	if (rdma_rw_fits_inline(qp, nr_sge, dir)) {
		for (i = 0; i < nr_sge; i++) {
			if (!rdma_rw_next_bvec_sge(&src, &ctx->sge[i])) {
				rdma_rw_unmap_sges(qp->device, ctx->sge, i,
						   dir);
				return -ENOMEM;
			}
		}
		return rdma_rw_init_inline_wr(ctx, nr_sge, remote_addr, rkey,
					      dir);
	}

	room = kvmalloc(rdma_rw_sge_wrs_size(nr_sge, max_sge), GFP_KERNEL);
	if (!room)
		return -ENOMEM;
	rdma_rw_alloc_sge_wrs(ctx, nr_sge, rdma_rw_div_up(nr_sge, max_sge),
			      room);
	i = rdma_rw_fill_sge_wrs(ctx, nr_sge, max_sge, remote_addr, rkey, dir,
				 rdma_rw_next_bvec_sge, &src);
	if (i < nr_sge) {
		rdma_rw_unmap_sges(qp->device, ctx->sges, i, dir);
		kvfree(room);
		return -ENOMEM;
	}
	ctx->sgt.sgl = NULL;
	return ctx->nr_ops;
}

/*
 * Where a bio_vec I/O's scatterlist goes to the DMA layer entry by entry,
 * as it is written: @dev maps each, and rdma_rw_bvec_fill_sgl() undoes its
 * own mappings when it fails.  @dev NULL: the list is mapped whole later.
 */
struct rdma_rw_sg_map {
	struct ib_device *dev;
	enum dma_data_direction dir;
};

/*
 * One entry of a list that was not cleared: every field written, and the
 * entry DMA-mapped when @map says so.  False when that mapping fails.
 */
static __always_inline bool rdma_rw_set_sg(struct scatterlist *sg,
					   struct page *page, u32 len,
					   u32 offset,
					   const struct rdma_rw_sg_map *map)
{
	*sg = (struct scatterlist){};
	sg_set_page(sg, page, len, offset);
	if (!map->dev)
		return true;
	sg->dma_address = ib_dma_map_page(map->dev, page, offset, len,
					  map->dir);
	sg_dma_len(sg) = len;
	return !ib_dma_mapping_error(map->dev, sg->dma_address);
}

/* Undo the mappings of the first @n entries rdma_rw_set_sg() made. */
static void rdma_rw_unmap_sg_entries(struct ib_device *dev,
				     struct scatterlist *sgl, u32 n,
				     enum dma_data_direction dir)
{
	u32 i;

	for (i = 0; i < n; i++)
		ib_dma_unmap_page(dev, sg_dma_address(&sgl[i]),
				  sg_dma_len(&sgl[i]), dir);
}

/*
 * rdma_rw_bvec_fill_sgl() without a segment boundary: the pieces come
 * straight off the array, each segment's max_len long but the last.
 * Returns how many; 0 when @iter has more than @max_pieces, reaches past
 * @nr_bvec entries or, mapped entry by entry, has a P2PDMA page, which
 * only a list mapped whole takes; or -ENOMEM.  On 0 or an error nothing
 * stays mapped.
 */
static int rdma_rw_bvec_fill_segs(struct scatterlist *sgl, u32 max_pieces,
				  const struct bio_vec *bvecs, u32 nr_bvec,
				  const struct bvec_iter *iter, u32 max_len,
				  const struct rdma_rw_sg_map *map)
{
	u32 idx = iter->bi_idx, done = iter->bi_bvec_done;
	u32 size = iter->bi_size, n = 0, left, off, len;
	const struct bio_vec *bv;
	int ret = 0;

	for (; size; idx++, done = 0) {
		if (idx >= nr_bvec)
			goto undo;
		bv = &bvecs[idx];
		if (done > bv->bv_len ||
		    (map->dev && is_pci_p2pdma_page(bv->bv_page)))
			goto undo;
		left = min(size, bv->bv_len - done);
		size -= left;
		for (; left; n++) {
			if (n == max_pieces)
				goto undo;
			off = bv->bv_offset + done;
			len = min(left, max_len);
			if (!rdma_rw_set_sg(&sgl[n],
					    nth_page(bv->bv_page,
						     off / PAGE_SIZE),
					    len, offset_in_page(off), map)) {
				ret = -ENOMEM;
				goto undo;
			}
			done += len;
			left -= len;
		}
	}
	return n;

undo:
	if (map->dev)
		rdma_rw_unmap_sg_entries(map->dev, sgl, n, map->dir);
	return ret;
}

/*
 * Write the pieces of @iter into @sgl, which has room for @max_pieces: one
 * array, each entry written once (no sg_init_table() clearing it first)
 * and no sg_next() call per entry, and mapped as it is written where @map
 * says so.  On a device with a segment boundary, rdma_rw_bvec_count() has
 * walked @iter and found @max_pieces.  Returns how many were written, 0
 * when they did not fit, or -ENOMEM; on 0 or an error nothing stays mapped.
 */
static int rdma_rw_bvec_fill_sgl(struct scatterlist *sgl, u32 max_pieces,
				 const struct bio_vec *bvecs, u32 nr_bvec,
				 struct bvec_iter iter,
				 const struct rdma_rw_dma_limits *lim,
				 const struct rdma_rw_sg_map *map)
{
	struct bio_vec piece = {};
	int n;

	if (lim->boundary == ULONG_MAX) {
		n = rdma_rw_bvec_fill_segs(sgl, max_pieces, bvecs, nr_bvec,
					   &iter, lim->max_len, map);
	} else {
		for (n = 0; n < max_pieces; n++) {
			rdma_rw_bvec_next(bvecs, nr_bvec, &iter, lim, &piece);
			if (!rdma_rw_set_sg(&sgl[n], piece.bv_page,
					    piece.bv_len, piece.bv_offset,
					    map)) {
				if (map->dev)
					rdma_rw_unmap_sg_entries(map->dev,
								 sgl, n,
								 map->dir);
				return -ENOMEM;
			}
		}
	}
	if (n > 0)
		sg_init_marker(sgl, n);
	return n;
}

/* The room behind a bio_vec I/O's scatterlist, in the same allocation. */
static void *rdma_rw_bvec_room(const struct sg_table *sgt)
{
	return (void *)sgt->sgl +
	       array_size(sgt->orig_nents, sizeof(*sgt->sgl));
}

/*
 * A bio_vec I/O's scatterlist goes to the DMA layer whole where the layer
 * may merge its entries (an IOMMU: one IOVA range and one IOTLB flush) and
 * where it has P2PDMA pages, which only a list mapping takes.  Otherwise
 * the layer would map each entry on its own all the same: each is mapped
 * as it is written, one walk of the list instead of two.
 */
static bool rdma_rw_bvec_map_whole(struct ib_device *dev, bool p2pdma)
{
	return p2pdma || (!ib_uses_virt_dma(dev) &&
			  dma_get_merge_boundary(dev->dma_device));
}

/* Undo the DMA mapping of a bio_vec I/O's scatterlist, as it was made. */
static void rdma_rw_bvec_unmap_sgt(struct ib_device *dev,
				   struct sg_table *sgt, bool whole,
				   enum dma_data_direction dir)
{
	if (whole)
		ib_dma_unmap_sgtable_attrs(dev, sgt, dir, 0);
	else
		rdma_rw_unmap_sg_entries(dev, sgt->sgl, sgt->orig_nents, dir);
}

/*
 * Map the pieces of @iter, at most @max_pieces, as one scatterlist, the way
 * the block layer hands a request over, and from there on take the
 * scatterlist path.  The list takes one allocation with room behind it
 * for the SGE work requests or the registrations, whichever the I/O may
 * take, so that an I/O through MRs allocates once as the scatterlist API's
 * does; the context keeps it until it is destroyed.  Returns 0, with
 * nothing allocated, when @iter has more pieces, reaches past @nr_bvec
 * entries or has a P2PDMA page that @p2pdma did not tell, which
 * rdma_rw_bvec_count() then tells.
 */
static noinline int
rdma_rw_init_bvec_sgl(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		      const struct bio_vec *bvecs, u32 nr_bvec,
		      struct bvec_iter iter, u32 max_pieces, bool p2pdma,
		      const struct rdma_rw_dma_limits *lim, u64 remote_addr,
		      u32 rkey, enum dma_data_direction dir)
{
	size_t sgl_size = array_size(max_pieces, sizeof(struct scatterlist));
	struct ib_device *dev = qp->device;
	bool whole = rdma_rw_bvec_map_whole(dev, p2pdma);
	struct rdma_rw_sg_map map = { .dev = whole ? NULL : dev, .dir = dir };
	struct sg_table sgt = {};
	size_t room_size = 0;
	int ret;

	/* Mapping may merge pieces, never split them: room for the most. */
	if (!rdma_rw_mr_required(dev, port_num, dir))
		room_size = rdma_rw_sge_wrs_size(max_pieces,
						 rdma_rw_max_sge(qp, dir));
	if (rdma_rw_io_needs_mr(dev, port_num, dir, max_pieces))
		room_size = max(room_size,
				array_size(rdma_rw_nr_regs(dev, max_pieces),
					   sizeof(struct rdma_rw_reg_ctx)));
	sgt.sgl = kvmalloc(size_add(sgl_size, room_size), GFP_KERNEL);
	if (!sgt.sgl)
		return -ENOMEM;

	/* Fewer pieces leave more room, which starts right behind them. */
	ret = rdma_rw_bvec_fill_sgl(sgt.sgl, max_pieces, bvecs, nr_bvec, iter,
				    lim, &map);
	if (ret <= 0)
		goto out_free;
	sgt.orig_nents = ret;
	sgt.nents = ret;
	if (whole) {
		ret = ib_dma_map_sgtable_attrs(dev, &sgt, dir, 0);
		if (ret)
			goto out_free;
	}
	ret = rdma_rw_init_sg_wrs(ctx, qp, port_num, sgt.sgl, sgt.nents, 0,
				  rdma_rw_bvec_room(&sgt), remote_addr, rkey,
				  dir);
	if (ret < 0)
		goto out_unmap;
	ctx->sgt = sgt;
	ctx->sgt_whole = whole;
	return ret;

out_unmap:
	rdma_rw_bvec_unmap_sgt(dev, &sgt, whole, dir);
out_free:
	kvfree(sgt.sgl);
	return ret;
}

/*
 * The most pieces an I/O of @iter has when each segment is a page or more
 * and none is cut but its first and last, as the block layer's and a
 * buffer's pages are.  The entries left in the array bound them too.
 */
static u32 rdma_rw_bvec_max_pieces(u32 nr_bvec, const struct bvec_iter *iter)
{
	return min(nr_bvec - iter->bi_idx,
		   DIV_ROUND_UP(iter->bi_size, PAGE_SIZE) + 1);
}

/*
 * The pieces of a small I/O (see rdma_rw_bvec_few_pieces()) that go each
 * into an SGE of the context, or 0 when the I/O is not small or takes a
 * scatterlist: MRs, a device behind an IOMMU, more SGEs than a work
 * request carries.  MRs that are required are known before the walk.
 */
static u32 rdma_rw_bvec_nr_inline(struct ib_qp *qp, u32 port_num,
				  const struct bio_vec *bvecs, u32 nr_bvec,
				  const struct bvec_iter *iter,
				  enum dma_data_direction dir)
{
	u32 nr;

	if (rdma_rw_mr_required(qp->device, port_num, dir))
		return 0;
	nr = rdma_rw_bvec_few_pieces(qp->device, bvecs, nr_bvec, iter);
	if (!nr || !rdma_rw_fits_inline(qp, nr, dir) ||
	    rdma_rw_bvec_wants_sgl(qp, port_num, dir, nr, false))
		return 0;
	return nr;
}

/*
 * Everything but the one-piece I/O: a few pieces that fit in the context
 * straight, else count the pieces, then map them as a scatterlist or one
 * by one.  Out of line, so that the one-piece I/O does not set up the
 * walk's stack frame.
 */
static noinline int
rdma_rw_init_bvec_pieces(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, const struct bio_vec *bvecs,
			 u32 nr_bvec, const struct bvec_iter *iter,
			 u64 remote_addr, u32 rkey, enum dma_data_direction dir)
{
	struct rdma_rw_dma_limits lim;
	u32 nr_pieces;
	bool p2pdma;
	int ret;

	nr_pieces = rdma_rw_bvec_nr_inline(qp, port_num, bvecs, nr_bvec, iter,
					   dir);
	if (nr_pieces)
		return rdma_rw_init_bvec_inline(ctx, qp, bvecs, iter, nr_pieces,
						remote_addr, rkey, dir);

	/*
	 * An I/O that takes a scatterlist at the most pieces it can have
	 * gets a list of that many, filled in one walk without a count
	 * first.  More pieces (segments shorter than a page, or cut at the
	 * DMA limits) are counted, as is any other I/O.
	 */
	rdma_rw_get_dma_limits(qp->device, &lim);
	if (lim.boundary == ULONG_MAX && iter->bi_idx < nr_bvec) {
		nr_pieces = rdma_rw_bvec_max_pieces(nr_bvec, iter);
		if (rdma_rw_bvec_wants_sgl(qp, port_num, dir, nr_pieces,
					   false)) {
			ret = rdma_rw_init_bvec_sgl(ctx, qp, port_num, bvecs,
						    nr_bvec, *iter, nr_pieces,
						    false, &lim, remote_addr,
						    rkey, dir);
			if (ret)
				return ret;
		}
	}

	ret = rdma_rw_bvec_count(bvecs, nr_bvec, *iter, &lim, &nr_pieces,
				 &p2pdma);
	if (ret)
		return ret;

	if (rdma_rw_bvec_wants_sgl(qp, port_num, dir, nr_pieces, p2pdma))
		return rdma_rw_init_bvec_sgl(ctx, qp, port_num, bvecs, nr_bvec,
					     *iter, nr_pieces, p2pdma, &lim,
					     remote_addr, rkey, dir);
	return rdma_rw_init_bvec_sges(ctx, qp, bvecs, nr_bvec, *iter,
				      nr_pieces, &lim, remote_addr, rkey, dir);
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
 * (maximum segment size, segment boundary, longest mapping) require.  Each
 * piece is DMA-mapped on its own into an SGE, unless the I/O may take MRs, has
 * a P2PDMA page, or goes through an IOMMU that may merge its pieces: then
 * they are mapped as one scatterlist built for the I/O, which is then
 * carried out like rdma_rw_ctx_init()'s, MRs included.
 *
 * Return: the number of send queue WQEs the transfer uses, or a negative
 * errno: -EINVAL when @nr_bvec or @iter is empty, when @iter reaches past
 * @nr_bvec entries, for a bad direction, or when the I/O needs more MRs than
 * @qp has; -EAGAIN when the MRs it needs are in use; -ENOMEM; or the error
 * of the DMA mapping or of the device's MR mapping.  On error nothing stays
 * mapped or taken and @ctx->nr_ops is 0.
 */
int rdma_rw_ctx_init_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			  u32 port_num, const struct bio_vec *bvecs,
			  u32 nr_bvec, struct bvec_iter iter,
			  u64 remote_addr, u32 rkey,
			  enum dma_data_direction dir)
{
	struct bio_vec piece;
	int ret;

	ctx->nr_ops = 0;
	if (!nr_bvec || !iter.bi_size || !rdma_rw_valid_dir(dir))
		return -EINVAL;

	if (rdma_rw_bvec_one_piece(qp->device, bvecs, nr_bvec, &iter, &piece) &&
	    !rdma_rw_mr_required(qp->device, port_num, dir) &&
	    !is_pci_p2pdma_page(piece.bv_page))
		ret = rdma_rw_init_bvec_single(ctx, qp, &piece, remote_addr,
					       rkey, dir);
	else
		ret = rdma_rw_init_bvec_pieces(ctx, qp, port_num, bvecs,
					       nr_bvec, &iter, remote_addr,
					       rkey, dir);
	ctx->bvec = ret >= 0;
	return ret;
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
 * Return: the number of send queue WQEs the transfer uses, or a negative
 * errno: -EOPNOTSUPP when @qp has no integrity support; -EINVAL for an empty
 * data list, a list longer than one integrity MR maps, or a bad direction;
 * -EAGAIN when all of @qp's integrity MRs are in use; -ENOMEM; or the error
 * of the DMA or PI mapping.  On error nothing stays mapped or taken and
 * @ctx->nr_ops is 0.
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

	reg = kzalloc(sizeof(*reg), GFP_KERNEL);
	if (!reg) {
		ret = -ENOMEM;
		goto out_unmap_prot_sg;
	}

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
 * completes through @cqe; with it, signalling is up to the chain.  Call it
 * right before posting: the keys change at every call, so a context whose
 * post failed before any of its work requests reached the device may be
 * linked and posted again (as isert does), but one that is in flight may
 * not.
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

	switch (ctx->type) {
	case RDMA_RW_MR:
	case RDMA_RW_SIG_MR:
		for (i = 0; i < ctx->nr_ops; i++)
			rdma_rw_update_key(&ctx->reg[i]);
		first = rdma_rw_reg_first_wr(&ctx->reg[0]);
		last = &ctx->reg[ctx->nr_ops - 1].wr.wr;
		break;
	case RDMA_RW_MULTI_WR:
		first = &ctx->wrs[0].wr;
		last = &ctx->wrs[ctx->nr_ops - 1].wr;
		break;
	default:
		first = &ctx->wr.wr;
		last = first;
		break;
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
 * Return the context's MRs to their pool and free its arrays.  On every
 * destroy, mostly with nothing to do: inlined.
 */
static __always_inline void rdma_rw_free_wrs(struct rdma_rw_ctx *ctx,
					     struct ib_qp *qp)
{
	struct rdma_rw_reg_ctx *reg;

	switch (ctx->type) {
	case RDMA_RW_MR:
		for (reg = ctx->reg; reg < ctx->reg + ctx->nr_ops; reg++)
			ib_mr_pool_put(qp, &qp->rdma_mrs, reg->mr);
		/* Unless they outgrew it, behind the bio_vec I/O's list. */
		if (!ctx->bvec || ctx->reg != rdma_rw_bvec_room(&ctx->sgt))
			kfree(ctx->reg);
		break;
	case RDMA_RW_SIG_MR:
		ib_mr_pool_put(qp, &qp->sig_mrs, ctx->reg->mr);
		kfree(ctx->reg);
		break;
	case RDMA_RW_MULTI_WR:
		rdma_rw_free_sge_wrs(ctx);
		break;
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
 * Returns the MRs to @qp's pool, frees the work requests and unmaps @sg.
 * Call it after the work requests completed, or were never posted.  A
 * context whose initialization failed, or that was already destroyed, is
 * left alone.  A context from rdma_rw_ctx_init_bvec() or
 * rdma_rw_ctx_signature_init() draws a warning and is left alone, too.
 */
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx,
			 struct ib_qp *qp, u32 port_num,
			 struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir)
{
	if (!ctx->nr_ops)
		return;
	if (WARN_ON_ONCE(ctx->bvec || ctx->type == RDMA_RW_SIG_MR))
		return;

	rdma_rw_free_wrs(ctx, qp);
	ib_dma_unmap_sg(qp->device, sg, sg_cnt, dir);
}
EXPORT_SYMBOL(rdma_rw_ctx_destroy);

/* The SGEs of a multi-WR context, as its work requests carry them. */
static u32 rdma_rw_nr_sge(struct rdma_rw_ctx *ctx)
{
	u32 i, n = 0;

	for (i = 0; i < ctx->nr_ops; i++)
		n += ctx->wrs[i].wr.num_sge;
	return n;
}

/* Out of line, as rdma_rw_init_bvec_pieces() is. */
static noinline void rdma_rw_destroy_bvec_pieces(struct rdma_rw_ctx *ctx,
						 struct ib_qp *qp,
						 enum dma_data_direction dir)
{
	if (ctx->type == RDMA_RW_MULTI_WR && !ctx->sgt.sgl) {
		/* Mapped piece by piece, one allocation. */
		rdma_rw_unmap_sges(qp->device, ctx->sges, rdma_rw_nr_sge(ctx),
				   dir);
		kvfree(ctx->wrs);
		ctx->nr_ops = 0;
		return;
	}
	rdma_rw_free_wrs(ctx, qp);
	rdma_rw_bvec_unmap_sgt(qp->device, &ctx->sgt, ctx->sgt_whole, dir);
	kvfree(ctx->sgt.sgl);
}

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
	if (WARN_ON_ONCE(!ctx->bvec))
		return;

	if (ctx->type == RDMA_RW_INLINE_WR) {
		rdma_rw_unmap_sges(qp->device, ctx->sge, ctx->wr.wr.num_sge,
				   dir);
		ctx->nr_ops = 0;
		return;
	}
	rdma_rw_destroy_bvec_pieces(ctx, qp, dir);
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
	bool sig = ctx->type == RDMA_RW_SIG_MR;

	if (!ctx->nr_ops)
		return;
	if (WARN_ON_ONCE(!sig))
		return;

	rdma_rw_free_wrs(ctx, qp);
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
 * &ib_qp_cap.max_rdma_ctxs: an I/O takes one MR per pages_per_mr pages on
 * devices that use MRs, however its pages are split into DMA entries,
 * else one work request per max_sge_rd pages.
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

/* Send queue slots per context: the data WR, plus REG_MR and LOCAL_INV. */
static u32 rdma_rw_wrs_per_ctx(struct ib_device *dev, u32 port_num,
			       u32 create_flags)
{
	if (rdma_rw_can_use_mr(dev, port_num) ||
	    (create_flags & IB_QP_CREATE_INTEGRITY_EN))
		return 3;
	return 1;
}

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
	unsigned int wrs;

	if (check_mul_overflow(rdma_rw_wrs_per_ctx(dev, port_num, create_flags),
			       max_rdma_ctxs, &wrs))
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
 * them, and as many integrity MRs on a QP with %IB_QP_CREATE_INTEGRITY_EN.
 * Plain MRs are as long as plain registrations go even on an integrity
 * QP, as rdma_rw_mr_factor() counts them.
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
