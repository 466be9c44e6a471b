/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * RDMA READ/WRITE context API: moves a ULP's data buffer to or from a remote
 * buffer with as few work requests as the device allows.
 */
#ifndef _RDMA_RW_H
#define _RDMA_RW_H

#include <linux/bvec.h>
#include <linux/dma-mapping.h>
#include <linux/scatterlist.h>
#include <rdma/ib_verbs.h>
#include <rdma/rdma_cm.h>
#include <rdma/mr_pool.h>

/**
 * struct rdma_rw_reg_ctx - one memory registration and the I/O through it
 * @sge:	local SGE covering the registered range
 * @wr:		RDMA READ or WRITE through @sge
 * @reg_wr:	fast-registration work request for @mr
 * @inv_wr:	LOCAL_INV of @mr's previous key, posted only when needed
 * @mr:		MR taken from the QP's pool for this I/O
 */
struct rdma_rw_reg_ctx {
	struct ib_sge		sge;
	struct ib_rdma_wr	wr;
	struct ib_reg_wr	reg_wr;
	struct ib_send_wr	inv_wr;
	struct ib_mr		*mr;
};

/**
 * struct rdma_rw_ctx - state of one RDMA READ/WRITE I/O
 * @nr_ops:	number of RDMA READ/WRITE work requests, not counting the
 *		registration ones; zero when the context holds nothing, so a
 *		ULP may test it to know whether a destroy is due
 * @type:	the shape of the I/O, which tells the members of the unions in
 *		use (private to rw.c)
 * @map:	how the local buffer was DMA-mapped, which tells the destroy
 *		function that fits and what it unmaps (private to rw.c)
 * @sge:	the SGE of an I/O of one SGE
 * @wrs:	the @nr_ops work requests of an I/O of more SGEs, and behind
 *		them in the same allocation the SGEs
 * @reg:	the @nr_ops registrations of an I/O through MRs, each with its
 *		own work requests
 * @wr:		the work request of an I/O of one SGE
 * @sgt:	rdma_rw_ctx_init_bvec() only, beside @wrs or @reg: the
 *		scatterlist built from the bio_vecs and DMA-mapped as one
 *
 * A ULP embeds one context per I/O in flight, so it stays at 80 bytes on
 * 64-bit, as small as upstream's.  A ULP may read @nr_ops, and @reg->mr
 * of a signature I/O to check its status; the rest is rw.c's.
 */
struct rdma_rw_ctx {
	u32			nr_ops;
	u8			type;
	u8			map;

	union {
		struct ib_sge		sge;
		struct ib_rdma_wr	*wrs;
		struct rdma_rw_reg_ctx	*reg;
	};
	union {
		struct ib_rdma_wr	wr;
		struct sg_table		sgt;
	};
};

int rdma_rw_ctx_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct scatterlist *sg, u32 sg_cnt, u32 sg_offset,
		     u64 remote_addr, u32 rkey, enum dma_data_direction dir);
void rdma_rw_ctx_destroy(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			 u32 port_num, struct scatterlist *sg, u32 sg_cnt,
			 enum dma_data_direction dir);

int rdma_rw_ctx_init_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			  u32 port_num, const struct bio_vec *bvecs,
			  u32 nr_bvec, struct bvec_iter iter,
			  u64 remote_addr, u32 rkey,
			  enum dma_data_direction dir);
void rdma_rw_ctx_destroy_bvec(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			      u32 port_num, const struct bio_vec *bvecs,
			      u32 nr_bvec, enum dma_data_direction dir);

int rdma_rw_ctx_signature_init(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
			       u32 port_num, struct scatterlist *sg,
			       u32 sg_cnt, struct scatterlist *prot_sg,
			       u32 prot_sg_cnt, struct ib_sig_attrs *sig_attrs,
			       u64 remote_addr, u32 rkey,
			       enum dma_data_direction dir);
void rdma_rw_ctx_destroy_signature(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct scatterlist *sg,
				   u32 sg_cnt, struct scatterlist *prot_sg,
				   u32 prot_sg_cnt,
				   enum dma_data_direction dir);

struct ib_send_wr *rdma_rw_ctx_wrs(struct rdma_rw_ctx *ctx, struct ib_qp *qp,
				   u32 port_num, struct ib_cqe *cqe,
				   struct ib_send_wr *chain_wr);
int rdma_rw_ctx_post(struct rdma_rw_ctx *ctx, struct ib_qp *qp, u32 port_num,
		     struct ib_cqe *cqe, struct ib_send_wr *chain_wr);

unsigned int rdma_rw_mr_factor(struct ib_device *device, u32 port_num,
			       unsigned int maxpages);
unsigned int rdma_rw_max_send_wr(struct ib_device *dev, u32 port_num,
				 unsigned int max_rdma_ctxs, u32 create_flags);
void rdma_rw_init_qp(struct ib_device *dev, struct ib_qp_init_attr *attr);
int rdma_rw_init_mrs(struct ib_qp *qp, struct ib_qp_init_attr *attr);
void rdma_rw_cleanup_mrs(struct ib_qp *qp);

#endif /* _RDMA_RW_H */
