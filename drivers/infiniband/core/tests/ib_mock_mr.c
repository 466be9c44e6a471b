// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mock RDMA device's memory registration.  An MR moves through the
 * states free -> valid -> invalid -> valid ... as REG_MR and LOCAL_INV
 * execute (ib_mock_qp.c); map_mr_sg() stages the pages of the next
 * registration.  A profile with integrity support adds integrity MRs,
 * which stage data and PI pages for REG_MR_INTEGRITY, and report a PI
 * error through ib_check_mr_status(), as hardware does.
 */
#include <rdma/ib_sig_sw.h>
#include <rdma/ib_verbs.h>

#include "ib_mock_internal.h"

/* The mock moves no user memory. */
struct ib_mr *ib_mock_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
				  u64 virt_addr, int access,
				  struct ib_udata *udata)
{
	return ERR_PTR(-EOPNOTSUPP);
}

/* An MR for @max_pages pages, with a key of its own. */
static struct mock_mr *mock_new_mr(struct mock_dev *mdev, u32 max_pages)
{
	struct mock_mr *mr;
	u32 index;
	int ret;

	if (mdev->mock->fail_alloc_mr && !--mdev->mock->fail_alloc_mr)
		return ERR_PTR(-ENOMEM);

	mr = kzalloc(sizeof(*mr), GFP_KERNEL);
	if (!mr)
		return ERR_PTR(-ENOMEM);
	mr->pages = kcalloc(max_pages, sizeof(u64), GFP_KERNEL);
	mr->reg_pages = kcalloc(max_pages, sizeof(u64), GFP_KERNEL);
	ret = -ENOMEM;
	if (!mr->pages || !mr->reg_pages)
		goto err_free;
	ret = xa_alloc(&mdev->mrs, &index, mr, XA_LIMIT(1, 0xffffff),
		       GFP_KERNEL);
	if (ret)
		goto err_free;

	mr->max_pages = max_pages;
	mr->ibmr.lkey = index << 8;
	mr->ibmr.rkey = index << 8;
	return mr;

err_free:
	kfree(mr->reg_pages);
	kfree(mr->pages);
	kfree(mr);
	return ERR_PTR(ret);
}

/*
 * The DMA MR ib_alloc_pd() takes on a device without a local DMA lkey:
 * a key of its own for all of memory, as far as the DMA API mapped it.
 */
struct ib_mr *ib_mock_get_dma_mr(struct ib_pd *pd, int access)
{
	struct mock_dev *mdev = to_mdev(pd->device);
	struct mock_mr *mr;

	if (!mdev->mock->profile->no_local_dma_lkey)
		return ERR_PTR(-EOPNOTSUPP);
	mr = mock_new_mr(mdev, 1);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mr->dma = true;
	mr->state = MOCK_MR_VALID;
	mr->access = access;
	mr->key = mr->ibmr.lkey;
	return &mr->ibmr;
}

struct ib_mr *ib_mock_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
			       u32 max_num_sg)
{
	struct mock_dev *mdev = to_mdev(pd->device);
	struct mock_mr *mr;

	if (type != IB_MR_TYPE_MEM_REG || !max_num_sg ||
	    max_num_sg > mdev->mock->profile->max_fr_pages)
		return ERR_PTR(-EINVAL);
	mr = mock_new_mr(mdev, max_num_sg);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mdev->mock->mrs++;
	return &mr->ibmr;
}

struct ib_mr *ib_mock_alloc_mr_integrity(struct ib_pd *pd,
					 u32 max_num_data_sg,
					 u32 max_num_meta_sg)
{
	struct mock_dev *mdev = to_mdev(pd->device);
	u32 max = mdev->mock->profile->max_pi_fr_pages;
	struct mock_mr *mr;

	if (!max_num_data_sg || max_num_data_sg > max ||
	    max_num_meta_sg > max)
		return ERR_PTR(-EINVAL);
	mr = mock_new_mr(mdev, max_num_data_sg + max_num_meta_sg);
	if (IS_ERR(mr))
		return ERR_CAST(mr);
	mdev->mock->mrs++;
	mr->integrity = true;
	mr->max_data = max_num_data_sg;
	mr->max_meta = max_num_meta_sg;
	mr->sig_checked = true;
	return &mr->ibmr;
}

int ib_mock_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
{
	struct mock_dev *mdev = to_mdev(ibmr->device);
	struct mock_mr *mr = to_mmr(ibmr);

	xa_erase(&mdev->mrs, ibmr->lkey >> 8);
	if (!mr->dma)
		mdev->mock->mrs--;
	kfree(mr->reg_pages);
	kfree(mr->pages);
	kfree(mr);
	return 0;
}

static int mock_set_page(struct ib_mr *ibmr, u64 addr)
{
	struct mock_mr *mr = to_mmr(ibmr);

	if (mr->npages == mr->max_pages)
		return -ENOMEM;
	mr->pages[mr->npages++] = addr;
	return 0;
}

int ib_mock_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
		      int sg_nents, unsigned int *sg_offset)
{
	struct ib_mock *mock = to_mdev(ibmr->device)->mock;

	if (mock->map_error)
		return mock->map_error;
	if (mock->map_short) {
		if (sg_nents <= mock->map_short)
			return 0;
		sg_nents -= mock->map_short;
	}
	to_mmr(ibmr)->npages = 0;
	return ib_sg_to_pages(ibmr, sg, sg_nents, sg_offset, mock_set_page);
}

/*
 * Append the pages of @sg to the MR, up to @max in all, and return the
 * offset of its first byte in the first of them, or -EINVAL if they do not
 * fit or do not make one page list.
 */
static int mock_map_pi_list(struct mock_mr *mr, u32 max,
			    struct scatterlist *sg, int nents,
			    unsigned int *sg_offset, u64 *len)
{
	u32 first = mr->npages;

	mr->max_pages = max;
	if (ib_sg_to_pages(&mr->ibmr, sg, nents, sg_offset,
			   mock_set_page) != nents)
		return -EINVAL;
	*len = mr->ibmr.length;
	return mr->ibmr.iova - mr->pages[first];
}

/*
 * Like mlx5: a zero-based MR whose length counts the data and the PI in
 * memory; meta_length tells the caller the latter.
 */
int ib_mock_map_mr_sg_pi(struct ib_mr *ibmr, struct scatterlist *data_sg,
			 int data_sg_nents, unsigned int *data_sg_offset,
			 struct scatterlist *meta_sg, int meta_sg_nents,
			 unsigned int *meta_sg_offset)
{
	struct ib_mock *mock = to_mdev(ibmr->device)->mock;
	struct mock_mr *mr = to_mmr(ibmr);
	struct mock_pi_map *pi = &mr->pi;
	u32 max = mr->max_pages;
	int off;

	if (mock->map_error)
		return mock->map_error;
	/* What a driver that maps only part of the list would return. */
	if (mock->map_short)
		return max_t(int, data_sg_nents - mock->map_short, 1);
	/* The bounce buffers of the T10-PI engine count in PAGE_SIZE. */
	if (ibmr->page_size != PAGE_SIZE)
		return -EINVAL;

	memset(pi, 0, sizeof(*pi));
	mr->npages = 0;
	off = mock_map_pi_list(mr, mr->max_data, data_sg, data_sg_nents,
			       data_sg_offset, &pi->data_len);
	if (off < 0)
		goto err;
	pi->data_off = off;
	pi->nr_data = mr->npages;
	if (meta_sg_nents) {
		off = mock_map_pi_list(mr, mr->npages + mr->max_meta, meta_sg,
				       meta_sg_nents, meta_sg_offset,
				       &pi->prot_len);
		if (off < 0)
			goto err;
		pi->prot_off = off;
	}
	if (!mock->sig_map_unchecked &&
	    ib_sig_sw_validate(ibmr->sig_attrs, pi->data_len, pi->prot_len))
		goto err;

	mr->max_pages = max;
	ibmr->iova = 0;
	ibmr->length = pi->data_len + pi->prot_len;
	ibmr->sig_attrs->meta_length = pi->prot_len;
	return 0;

err:
	mr->max_pages = max;
	mr->npages = 0;
	return -EINVAL;
}

int ib_mock_check_mr_status(struct ib_mr *ibmr, u32 check_mask,
			    struct ib_mr_status *mr_status)
{
	struct mock_mr *mr = to_mmr(ibmr);

	if (!mr->integrity || check_mask != IB_MR_CHECK_SIG_STATUS)
		return -EINVAL;
	mr_status->fail_status = 0;
	mr->sig_checked = true;
	if (mr->sig_err_exists) {
		mr_status->fail_status = IB_MR_CHECK_SIG_STATUS;
		mr_status->sig_err = mr->sig_err;
		mr->sig_err_exists = false;
	}
	return 0;
}

