/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of the mock RDMA device share: its objects, and the calls
 * each file makes into another.  Tests use ib_mock.h.
 */
#ifndef _IB_MOCK_INTERNAL_H
#define _IB_MOCK_INTERNAL_H

#include <linux/dma-mapping.h>
#include <linux/xarray.h>
#include <rdma/ib_verbs.h>

#include "ib_mock.h"

/* Below every MR key (index << 8), and not 0, which a missed SGE has. */
#define MOCK_LOCAL_DMA_LKEY	0x5a
#define MOCK_LOG_CAP		4096

enum mock_mr_state {
	MOCK_MR_FREE,
	MOCK_MR_VALID,
	MOCK_MR_INVALID,
};

/*
 * One DMA entry of a live mapping: bus addresses @addr to @addr + @len;
 * for map_sg, @paddr is where the list entry at the same index starts,
 * which dma-debug recorded with it.
 */
struct mock_dma_range {
	dma_addr_t addr;
	size_t len;
	phys_addr_t paddr;
};

/*
 * A live mapping: map_sg of @nents entries from @sg, which @ents lists, or
 * map_page (@sg NULL) of the one range in @ranges.
 */
struct mock_dma_map {
	struct list_head node;
	struct scatterlist *sg;
	int nents;
	enum dma_data_direction dir;
	struct scatterlist **ents;
	int nr_ranges;
	struct mock_dma_range ranges[];
};

/*
 * The counting DMA state of a mock, the drvdata of its DMA device.  @hint
 * and @hint_range remember where the last lookup succeeded: the QP walks
 * buffers in order, so the next lookup is most often there or one range
 * further.
 */
struct mock_dma {
	struct ib_mock *mock;
	struct device *dev;
	struct device_dma_parameters parms;
	spinlock_t lock;	/* protects @live and the hint */
	struct list_head live;
	struct mock_dma_map *hint;
	int hint_range;
};

/*
 * @pi_data, @pi_prot and @pi_wire hold one integrity transfer while the
 * T10-PI engine runs, as big as the largest an integrity MR maps.  @dma is
 * NULL with virtual DMA.
 */
struct mock_dev {
	struct ib_device ibdev;
	struct ib_mock *mock;
	struct mock_dma *dma;
	struct xarray mrs;
	u8 *pi_data;
	u8 *pi_prot;
	u8 *pi_wire;
};

struct mock_pd {
	struct ib_pd ibpd;
};

/*
 * @retire[i] is how many send queue slots the completion in @ring[i] frees
 * when it is polled: its own work request's and those of the unsignalled
 * ones before it, as an HCA frees them.
 */
struct mock_cq {
	struct ib_cq ibcq;
	spinlock_t lock;	/* protects the ring */
	struct ib_wc *ring;
	u32 *retire;
	unsigned int head;
	unsigned int count;
};

/*
 * @sq_used slots of the @max_send_wr of the send queue hold work requests
 * whose completion was not polled yet, @sq_unsignalled of them posted
 * since the last completion.  Posting holds @lock, as a driver's send
 * queue lock serializes posts to a QP; polling only frees slots, and
 * takes none.
 */
struct mock_qp {
	struct ib_qp ibqp;
	spinlock_t lock;	/* serializes posts */
	u32 max_send_sge;
	u32 max_send_wr;
	atomic_t sq_used;
	u32 sq_unsignalled;
	bool error;
};

/*
 * Where an integrity MR's data and PI are: its first @nr_data pages hold
 * the data, from @data_off in the first, and the PI pages follow.
 */
struct mock_pi_map {
	u32 nr_data;
	u32 data_off;
	u32 prot_off;
	u64 data_len;
	u64 prot_len;
};

/*
 * @pages is what map_mr_sg() staged for the next registration; REG_MR
 * copies it to @reg_pages, with the rest of the registration in force.
 * Integrity MRs stage @pi likewise, at most @max_data pages of data and
 * @max_meta of PI, as allocated, and registration fixes @reg_pi and the
 * signature attributes; @sig_err holds the first PI error until
 * ib_check_mr_status() reports it, and @sig_checked says whether it was
 * called since the last registration.
 */
struct mock_mr {
	struct ib_mr ibmr;
	enum mock_mr_state state;
	u32 max_pages;
	u32 npages;
	u64 *pages;
	u64 *reg_pages;
	u32 key;
	int access;
	u64 iova;
	u64 length;
	u32 page_size;

	bool dma;
	bool integrity;
	u32 max_data;
	u32 max_meta;
	struct mock_pi_map pi;
	struct mock_pi_map reg_pi;
	struct ib_sig_attrs reg_sig;
	struct ib_sig_err sig_err;
	bool sig_err_exists;
	bool sig_checked;
};

static inline struct mock_dev *to_mdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mock_dev, ibdev);
}

static inline struct mock_mr *to_mmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mock_mr, ibmr);
}

static inline struct mock_qp *to_mqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mock_qp, ibqp);
}

static inline struct mock_cq *to_mcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mock_cq, ibcq);
}

static inline struct ib_mock *qp_mock(struct ib_qp *ibqp)
{
	return to_mdev(ibqp->device)->mock;
}

/* ib_mock_dma.c */
u8 *ib_mock_dma_ptr(struct mock_dev *mdev, u64 addr, u64 len, bool write);
struct device *ib_mock_dma_device(struct kunit *test, struct mock_dev *mdev);

/* ib_mock_mr.c */
struct ib_mr *ib_mock_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
				  u64 virt_addr, int access,
				  struct ib_udata *udata);
struct ib_mr *ib_mock_get_dma_mr(struct ib_pd *pd, int access);
struct ib_mr *ib_mock_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			       u32 max_num_sg);
struct ib_mr *ib_mock_alloc_mr_integrity(struct ib_pd *pd,
					 u32 max_num_data_sg,
					 u32 max_num_meta_sg);
int ib_mock_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata);
int ib_mock_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
		      int sg_nents, unsigned int *sg_offset);
int ib_mock_map_mr_sg_pi(struct ib_mr *ibmr, struct scatterlist *data_sg,
			 int data_sg_nents, unsigned int *data_sg_offset,
			 struct scatterlist *meta_sg, int meta_sg_nents,
			 unsigned int *meta_sg_offset);
int ib_mock_check_mr_status(struct ib_mr *ibmr, u32 check_mask,
			    struct ib_mr_status *mr_status);

/* ib_mock_qp.c */
int ib_mock_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
		      const struct ib_send_wr **bad_wr);

#endif /* _IB_MOCK_INTERNAL_H */
