// SPDX-License-Identifier: GPL-2.0-only
/*
 * A software RDMA device for KUnit tests of the R/W API.
 *
 * The device registers with virtual DMA, so a DMA address is a kernel
 * address.  Its QP executes each send work request at post time, in order:
 * RDMA WRITE and READ copy bytes between the local SGEs and the mock's
 * "remote" buffer, REG_MR and LOCAL_INV move an MR through the states free
 * -> valid -> invalid -> valid ..., and whatever an HCA would refuse (a
 * stale key, a range outside the MR or the remote buffer, a missing access
 * right, registering a valid MR, more SGEs than the device takes) is
 * refused here too: at post time for malformed requests and for more work
 * requests than the send queue holds (a slot is free again once a
 * completion at or after its work request is polled), as an error
 * completion otherwise, after which the QP flushes everything behind it.
 *
 * A profile with integrity support adds integrity MRs: REG_MR_INTEGRITY
 * registers data and PI pages with signature attributes, and an RDMA READ
 * or WRITE through the MR's key runs the data through the software T10-PI
 * engine of ib_mock_pi.c, which inserts, checks or strips PI as the
 * attributes say.  A PI error, as on hardware, does not fail the work
 * request: ib_check_mr_status() reports it.
 *
 * Where the architecture lets a device have DMA ops of its own
 * (CONFIG_ARCH_HAS_DMA_OPS), the mock registers instead with a KUnit
 * struct device whose DMA ops keep every live mapping: map_sg and
 * map_page record what they mapped, and an unmap must name a live mapping
 * exactly (the sg and nents passed to map_sg, or the address and length
 * map_page returned, and the same direction) or the test fails, as it does
 * for mappings still live when it ends.  A bus address is the physical
 * address plus IB_MOCK_DMA_OFFSET, and the QP reaches local memory only
 * through bus addresses inside a live mapping whose direction allows the
 * access; anything else completes in error like a bad key.
 */
#include <kunit/device.h>
#include <kunit/resource.h>
#include <kunit/test-bug.h>
#include <linux/dma-map-ops.h>
#include <linux/netdevice.h>
#include <linux/vmalloc.h>
#include <linux/xarray.h>
#include <net/net_namespace.h>
#include <rdma/ib_sig_sw.h>
#include <rdma/ib_verbs.h>

#include "ib_mock.h"
#include "ib_mock_pi.h"

/* Below every MR key (index << 8), and not 0, which a missed SGE has. */
#define MOCK_LOCAL_DMA_LKEY	0x5a
#define MOCK_REMOTE_ADDR	0x5eed00000000ULL
#define MOCK_REMOTE_RKEY	0x7e3073e0
#define MOCK_REMOTE_LEN		(8 << 20)
#define MOCK_CQ_DEPTH		8192
#define MOCK_LOG_CAP		4096
/* Leaked DMA mappings reported one by one, before a count of the rest. */
#define MOCK_DMA_REPORT		4

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

static struct mock_dev *to_mdev(struct ib_device *ibdev)
{
	return container_of(ibdev, struct mock_dev, ibdev);
}

static struct mock_mr *to_mmr(struct ib_mr *ibmr)
{
	return container_of(ibmr, struct mock_mr, ibmr);
}

static struct mock_qp *to_mqp(struct ib_qp *ibqp)
{
	return container_of(ibqp, struct mock_qp, ibqp);
}

static struct mock_cq *to_mcq(struct ib_cq *ibcq)
{
	return container_of(ibcq, struct mock_cq, ibcq);
}

static struct ib_mock *qp_mock(struct ib_qp *ibqp)
{
	return to_mdev(ibqp->device)->mock;
}

static const char *mock_dma_dir_name(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_BIDIRECTIONAL:
		return "DMA_BIDIRECTIONAL";
	case DMA_TO_DEVICE:
		return "DMA_TO_DEVICE";
	case DMA_FROM_DEVICE:
		return "DMA_FROM_DEVICE";
	default:
		return "DMA_NONE";
	}
}

/*
 * A list is told by the bus address of its first entry: pointers print
 * hashed, if at all.
 */
static u64 mock_dma_sg_bus(struct scatterlist *sg)
{
	return sg ? sg_phys(sg) + IB_MOCK_DMA_OFFSET : 0;
}

/*
 * @m as the call that made it, from what the mapping recorded: the list
 * itself may be gone by the time a leak is reported.
 */
static void mock_dma_describe(const struct mock_dma_map *m, char *buf,
			      size_t size)
{
	if (m->sg)
		scnprintf(buf, size, "map_sg(list at %#llx, nents %d, %s)",
			  (u64)m->ranges[0].addr, m->nents,
			  mock_dma_dir_name(m->dir));
	else
		scnprintf(buf, size, "map_page(%zu bytes at %#llx, %s)",
			  m->ranges[0].len, (u64)m->ranges[0].addr,
			  mock_dma_dir_name(m->dir));
}

/* A misuse of the DMA API: it fails the test that made it. */
static void mock_dma_bad(struct mock_dma *dma, const char *msg)
{
	struct kunit *test = kunit_get_current_test();
	struct ib_mock *mock = dma->mock;

	if (mock->dma_expect_bad) {
		mock->dma_bad++;
		return;
	}
	if (!test)
		test = mock->test;
	KUNIT_FAIL(test, "%s", msg);
}

/* @len bytes from @addr lie inside one segment boundary of @boundary. */
static bool mock_dma_in_boundary(u64 addr, u64 len, unsigned long boundary)
{
	return !((addr ^ (addr + len - 1)) & ~(u64)boundary);
}

/*
 * A segment the device cannot take, which fails the test: longer than
 * its maximum segment or across its segment boundary (dma-debug reports
 * both), or longer than the longest mapping the DMA layer makes, which a
 * bounce buffer refuses.
 */
static bool mock_dma_seg_fits(struct mock_dma *dma, const char *call,
			      u64 addr, size_t len)
{
	unsigned long boundary = dma_get_seg_boundary(dma->dev);
	size_t max_map = dma->mock->dma_max_mapping ?: SIZE_MAX;
	unsigned int max_seg = dma_get_max_seg_size(dma->dev);
	char msg[224];

	if (len <= max_seg && len <= max_map &&
	    mock_dma_in_boundary(addr, len, boundary))
		return true;
	scnprintf(msg, sizeof(msg),
		  "%s: %zu bytes at %#llx, beyond the device's DMA limits (segments of %u bytes at most, boundary mask %#lx, mappings of %zu bytes at most)",
		  call, len, addr, max_seg, boundary, max_map);
	mock_dma_bad(dma, msg);
	return false;
}

/* An IOMMU that merges entries says so, at its page granule. */
static unsigned long mock_dma_get_merge_boundary(struct device *dev)
{
	struct mock_dma *dma = dev_get_drvdata(dev);

	return dma->mock->dma_merge ? PAGE_SIZE - 1 : 0;
}

static size_t mock_dma_max_mapping_size(struct device *dev)
{
	struct mock_dma *dma = dev_get_drvdata(dev);

	return dma->mock->dma_max_mapping ?: SIZE_MAX;
}

static bool mock_dma_range_has(const struct mock_dma_range *r, u64 addr,
			       u64 len)
{
	return addr >= r->addr && addr - r->addr <= r->len &&
	       len <= r->len - (addr - r->addr);
}

/*
 * The live mapping with a range that holds all of @addr to @addr + @len,
 * among those whose direction is in the mask @dirs; dma->lock held.
 */
static struct mock_dma_map *mock_dma_lookup(struct mock_dma *dma, u64 addr,
					    u64 len, unsigned int dirs)
{
	struct mock_dma_map *m = dma->hint;
	int i;

	if (m && dirs & BIT(m->dir)) {
		for (i = dma->hint_range;
		     i < m->nr_ranges && i <= dma->hint_range + 1; i++)
			if (mock_dma_range_has(&m->ranges[i], addr, len))
				goto found;
	}

	list_for_each_entry(m, &dma->live, node) {
		if (!(dirs & BIT(m->dir)))
			continue;
		for (i = 0; i < m->nr_ranges; i++)
			if (mock_dma_range_has(&m->ranges[i], addr, len))
				goto found;
	}
	return NULL;

found:
	dma->hint = m;
	dma->hint_range = i;
	return m;
}

/*
 * Whether live mappings whose direction is in @dirs hold every byte of
 * @addr to @addr + @len, with dma->lock held.  Mostly one does; else the
 * access spans mappings that follow each other in bus address space, as
 * the pieces of one page that a list maps one by one.
 */
static bool mock_dma_covered(struct mock_dma *dma, u64 addr, u64 len,
			     unsigned int dirs)
{
	const struct mock_dma_range *r;
	struct mock_dma_map *m;
	u64 held;

	if (mock_dma_lookup(dma, addr, len, dirs))
		return true;
	while (len) {
		m = mock_dma_lookup(dma, addr, 1, dirs);
		if (!m)
			return false;
		r = &m->ranges[dma->hint_range];
		held = min(r->addr + r->len - addr, len);
		addr += held;
		len -= held;
	}
	return true;
}

/*
 * The CPU address of the @len bytes at bus address @addr that the device
 * is to write (@write) or read.  With counting DMA live mappings whose
 * direction allows that must hold all of them, or there is none: NULL.
 */
static u8 *mock_dma_ptr(struct mock_dev *mdev, u64 addr, u64 len,
			bool write)
{
	unsigned int dirs = BIT(DMA_BIDIRECTIONAL) |
			    BIT(write ? DMA_FROM_DEVICE : DMA_TO_DEVICE);
	struct mock_dma *dma = mdev->dma;
	unsigned long flags;
	bool live;

	if (!dma)
		return (u8 *)(uintptr_t)addr;
	spin_lock_irqsave(&dma->lock, flags);
	live = mock_dma_covered(dma, addr, len, dirs);
	spin_unlock_irqrestore(&dma->lock, flags);
	return live ? phys_to_virt(addr - IB_MOCK_DMA_OFFSET) : NULL;
}

static bool mock_dma_inject(struct ib_mock *mock)
{
	return mock->fail_dma_map && !--mock->fail_dma_map;
}

static void mock_dma_add(struct mock_dma *dma, struct mock_dma_map *m)
{
	unsigned long flags;

	spin_lock_irqsave(&dma->lock, flags);
	list_add_tail(&m->node, &dma->live);
	dma->mock->dma_maps++;
	dma->mock->dma_live++;
	spin_unlock_irqrestore(&dma->lock, flags);
}

/* Undo @m, with dma->lock held; the caller frees it. */
static void mock_dma_remove(struct mock_dma *dma, struct mock_dma_map *m)
{
	list_del(&m->node);
	if (dma->hint == m)
		dma->hint = NULL;
	dma->mock->dma_unmaps++;
	dma->mock->dma_live--;
}

/* The live sg mapping made with @sg, with dma->lock held. */
static struct mock_dma_map *mock_dma_find_sg(struct mock_dma *dma,
					     struct scatterlist *sg)
{
	struct mock_dma_map *m;

	list_for_each_entry(m, &dma->live, node)
		if (m->sg == sg)
			return m;
	return NULL;
}

/*
 * One DMA entry per entry of the list, or with @ib_mock.dma_merge one per
 * run of entries that follow each other in bus address space, as long as
 * the device's segment size allows.
 */
static int mock_dma_map_sg(struct device *dev, struct scatterlist *sgl,
			   int nents, enum dma_data_direction dir,
			   unsigned long attrs)
{
	struct mock_dma *dma = dev_get_drvdata(dev);
	bool merge = dma->mock->dma_merge &&
		     IS_ENABLED(CONFIG_NEED_SG_DMA_LENGTH);
	unsigned long boundary = dma_get_seg_boundary(dev);
	size_t max_seg = dma_get_max_seg_size(dev);
	struct mock_dma_range *r = NULL;
	struct mock_dma_map *m, *old;
	struct scatterlist *sg;
	unsigned long flags;
	char msg[192];
	int i;

	if (nents <= 0)
		return -EINVAL;
	if (mock_dma_inject(dma->mock))
		return -ENOMEM;
	m = kzalloc(size_add(struct_size(m, ranges, nents),
			     array_size(nents, sizeof(*m->ents))), GFP_ATOMIC);
	if (!m)
		return -ENOMEM;
	m->ents = (struct scatterlist **)&m->ranges[nents];
	m->sg = sgl;
	m->nents = nents;
	m->dir = dir;

	for (i = 0, sg = sgl; i < nents; i++, sg = sg_next(sg)) {
		dma_addr_t addr;

		if (!sg) {
			kfree(m);
			scnprintf(msg, sizeof(msg),
				  "map_sg(list at %#llx, nents %d, %s): the list has only %d entries",
				  mock_dma_sg_bus(sgl), nents,
				  mock_dma_dir_name(dir), i);
			mock_dma_bad(dma, msg);
			return -EINVAL;
		}
		m->ents[i] = sg;
		addr = sg_phys(sg) + IB_MOCK_DMA_OFFSET;
		if (!mock_dma_seg_fits(dma, "map_sg", addr, sg->length)) {
			kfree(m);
			return -EINVAL;
		}
		if (merge && r && r->addr + r->len == addr &&
		    r->len + sg->length <= max_seg &&
		    mock_dma_in_boundary(r->addr, r->len + sg->length,
					 boundary)) {
			r->len += sg->length;
			continue;
		}
		r = &m->ranges[m->nr_ranges++];
		r->addr = addr;
		r->len = sg->length;
	}
	/* Entries past the DMA ones are empty, as after an IOMMU merge. */
	for (i = 0; i < nents; i++) {
		sg = m->ents[i];
		sg->dma_address = i < m->nr_ranges ? m->ranges[i].addr :
						     DMA_MAPPING_ERROR;
		sg_dma_len(sg) = i < m->nr_ranges ? m->ranges[i].len : 0;
		if (i < m->nr_ranges)
			m->ranges[i].paddr = sg_phys(sg);
	}

	spin_lock_irqsave(&dma->lock, flags);
	old = mock_dma_find_sg(dma, sgl);
	if (old)
		scnprintf(msg, sizeof(msg),
			  "map_sg(list at %#llx, nents %d, %s): the list is mapped already, by map_sg(nents %d, %s)",
			  mock_dma_sg_bus(sgl), nents, mock_dma_dir_name(dir),
			  old->nents, mock_dma_dir_name(old->dir));
	spin_unlock_irqrestore(&dma->lock, flags);
	if (old)
		mock_dma_bad(dma, msg);
	mock_dma_add(dma, m);
	return m->nr_ranges;
}

static void mock_dma_unmap_sg(struct device *dev, struct scatterlist *sgl,
			      int nents, enum dma_data_direction dir,
			      unsigned long attrs)
{
	struct mock_dma *dma = dev_get_drvdata(dev);
	const char *name = mock_dma_dir_name(dir);
	struct mock_dma_map *m;
	unsigned long flags;
	char msg[320], was[128];
	int i;

	spin_lock_irqsave(&dma->lock, flags);
	m = mock_dma_find_sg(dma, sgl);
	if (m && m->nents == nents && m->dir == dir) {
		mock_dma_remove(dma, m);
		spin_unlock_irqrestore(&dma->lock, flags);
		kfree(m);
		return;
	}

	if (m) {
		scnprintf(msg, sizeof(msg),
			  "unmap_sg(list at %#llx, nents %d, %s): expected nents %d, %s, as passed to map_sg",
			  mock_dma_sg_bus(sgl), nents, name, m->nents,
			  mock_dma_dir_name(m->dir));
		goto bad;
	}
	/* An entry inside a mapped list: the caller lost the list's head. */
	list_for_each_entry(m, &dma->live, node)
		for (i = 1; m->sg && i < m->nents; i++)
			if (m->ents[i] == sgl) {
				mock_dma_describe(m, was, sizeof(was));
				scnprintf(msg, sizeof(msg),
					  "unmap_sg(list at %#llx, nents %d, %s): that is entry %d of %s; expected the sg and nents passed to map_sg",
					  mock_dma_sg_bus(sgl), nents, name, i,
					  was);
				goto bad;
			}
	scnprintf(msg, sizeof(msg),
		  "unmap_sg(list at %#llx, nents %d, %s) of no live mapping (%u live)",
		  mock_dma_sg_bus(sgl), nents, name, dma->mock->dma_live);
bad:
	spin_unlock_irqrestore(&dma->lock, flags);
	mock_dma_bad(dma, msg);
}

static dma_addr_t mock_dma_map_page(struct device *dev, struct page *page,
				    unsigned long offset, size_t size,
				    enum dma_data_direction dir,
				    unsigned long attrs)
{
	struct mock_dma *dma = dev_get_drvdata(dev);
	u64 addr = page_to_phys(page) + offset + IB_MOCK_DMA_OFFSET;
	struct mock_dma_map *m;

	if (mock_dma_inject(dma->mock))
		return DMA_MAPPING_ERROR;
	if (!mock_dma_seg_fits(dma, "map_page", addr, size))
		return DMA_MAPPING_ERROR;
	m = kzalloc(struct_size(m, ranges, 1), GFP_ATOMIC);
	if (!m)
		return DMA_MAPPING_ERROR;
	m->dir = dir;
	m->nr_ranges = 1;
	m->ranges[0].addr = addr;
	m->ranges[0].len = size;
	mock_dma_add(dma, m);
	return m->ranges[0].addr;
}

static void mock_dma_unmap_page(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir,
				unsigned long attrs)
{
	struct mock_dma *dma = dev_get_drvdata(dev);
	const char *name = mock_dma_dir_name(dir);
	struct mock_dma_map *m, *near = NULL;
	unsigned long flags;
	char msg[320], was[128] = "";

	spin_lock_irqsave(&dma->lock, flags);
	list_for_each_entry(m, &dma->live, node) {
		if (m->sg || m->ranges[0].addr != addr)
			continue;
		if (m->ranges[0].len == size && m->dir == dir) {
			mock_dma_remove(dma, m);
			spin_unlock_irqrestore(&dma->lock, flags);
			kfree(m);
			return;
		}
		near = m;
	}

	if (near) {
		scnprintf(msg, sizeof(msg),
			  "unmap_page(%#llx, %zu bytes, %s): expected %zu bytes, %s, as passed to map_page",
			  (u64)addr, size, name, near->ranges[0].len,
			  mock_dma_dir_name(near->dir));
	} else {
		m = mock_dma_lookup(dma, addr, 1, ~0U);
		if (m)
			mock_dma_describe(m, was, sizeof(was));
		scnprintf(msg, sizeof(msg),
			  "unmap_page(%#llx, %zu bytes, %s) of no live mapping%s%s%s",
			  (u64)addr, size, name,
			  m ? "; the address is inside " : "", was,
			  m ? ", expected the address map_page returned" : "");
	}
	spin_unlock_irqrestore(&dma->lock, flags);
	mock_dma_bad(dma, msg);
}

static const struct dma_map_ops mock_dma_ops = {
	.map_page = mock_dma_map_page,
	.unmap_page = mock_dma_unmap_page,
	.map_sg = mock_dma_map_sg,
	.unmap_sg = mock_dma_unmap_sg,
	.max_mapping_size = mock_dma_max_mapping_size,
	.get_merge_boundary = mock_dma_get_merge_boundary,
};

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

/* The mock moves no user memory. */
static struct ib_mr *mock_reg_user_mr(struct ib_pd *pd, u64 start, u64 length,
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
static struct ib_mr *mock_get_dma_mr(struct ib_pd *pd, int access)
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

static struct ib_mr *mock_alloc_mr(struct ib_pd *pd, enum ib_mr_type type,
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

static struct ib_mr *mock_alloc_mr_integrity(struct ib_pd *pd,
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

static int mock_dereg_mr(struct ib_mr *ibmr, struct ib_udata *udata)
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

static int mock_map_mr_sg(struct ib_mr *ibmr, struct scatterlist *sg,
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
static int mock_map_mr_sg_pi(struct ib_mr *ibmr, struct scatterlist *data_sg,
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
	if (ib_sig_sw_validate(ibmr->sig_attrs, pi->data_len, pi->prot_len))
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

static int mock_check_mr_status(struct ib_mr *ibmr, u32 check_mask,
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
		return mock_dma_ptr(mdev, addr, *len, write);

	mr = mock_find_mr(ibqp, lkey);
	if (mr && mr->dma && mr->key == lkey &&
	    (mr->access & access) == access)
		return mock_dma_ptr(mdev, addr, *len, write);
	if (!mr || mr->dma || mr->integrity || mr->state != MOCK_MR_VALID ||
	    mr->key != lkey || !mock_mr_grants(mdev->mock, mr, access) ||
	    addr < mr->iova ||
	    addr + *len > mr->iova + mr->length)
		return NULL;

	rel = addr - (mr->iova & ~((u64)mr->page_size - 1));
	*len = min_t(u64, *len, mr->page_size - rel % mr->page_size);
	return mock_dma_ptr(mdev, mr->reg_pages[rel / mr->page_size] +
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
		u8 *p = mock_dma_ptr(mdev, pages[off / page_size] +
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

static int mock_post_send(struct ib_qp *ibqp, const struct ib_send_wr *wr,
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

static const struct ib_device_ops mock_dev_ops = {
	.owner = THIS_MODULE,
	.driver_id = RDMA_DRIVER_UNKNOWN,

	.alloc_mr = mock_alloc_mr,
	.alloc_mr_integrity = mock_alloc_mr_integrity,
	.alloc_pd = mock_alloc_pd,
	.check_mr_status = mock_check_mr_status,
	.create_cq = mock_create_cq,
	.create_qp = mock_create_qp,
	.dealloc_pd = mock_dealloc_pd,
	.dereg_mr = mock_dereg_mr,
	.destroy_cq = mock_destroy_cq,
	.destroy_qp = mock_destroy_qp,
	.get_dma_mr = mock_get_dma_mr,
	.get_port_immutable = mock_get_port_immutable,
	.map_mr_sg = mock_map_mr_sg,
	.map_mr_sg_pi = mock_map_mr_sg_pi,
	.modify_qp = mock_modify_qp,
	.poll_cq = mock_poll_cq,
	.post_recv = mock_post_recv,
	.post_send = mock_post_send,
	.query_device = mock_query_device,
	.query_gid = mock_query_gid,
	.query_pkey = mock_query_pkey,
	.query_port = mock_query_port,
	.reg_user_mr = mock_reg_user_mr,
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

/*
 * Undo a leaked mapping through the DMA API, so that dma-debug forgets it
 * too: its entries outlive the device, and a later mapping of the same
 * cachelines, in whatever test gets the memory next, would count as an
 * overlap there.  The list that was mapped may be freed by now; one
 * rebuilt from the DMA entries stands in for it, with one entry more,
 * which dma-debug reads before it stops.  The unmap ops free @m.
 */
static void mock_dma_unmap_leaked(struct mock_dma *dma,
				  struct mock_dma_map *m)
{
	struct scatterlist *sgl;
	int i;

	if (!m->sg) {
		dma_unmap_page(dma->dev, m->ranges[0].addr, m->ranges[0].len,
			       m->dir);
		return;
	}
	sgl = kcalloc(m->nr_ranges + 1, sizeof(*sgl), GFP_KERNEL);
	if (!sgl) {
		list_del(&m->node);
		kfree(m);
		return;
	}
	sg_init_table(sgl, m->nr_ranges + 1);
	for (i = 0; i < m->nr_ranges; i++) {
		const struct mock_dma_range *r = &m->ranges[i];

		sg_set_page(&sgl[i], pfn_to_page(PHYS_PFN(r->paddr)), r->len,
			    offset_in_page(r->paddr));
		sgl[i].dma_address = r->addr;
		sg_dma_len(&sgl[i]) = r->len;
	}
	m->sg = sgl;
	dma_unmap_sg(dma->dev, sgl, m->nents, m->dir);
	kfree(sgl);
}

/*
 * At the end of the test: whatever is still mapped leaked.  Report it, and
 * undo it.
 */
static void mock_dma_release(void *data)
{
	struct mock_dma *dma = data;
	struct ib_mock *mock = dma->mock;
	struct mock_dma_map *m, *tmp;
	unsigned int n = 0;
	char was[128];

	list_for_each_entry_safe(m, tmp, &dma->live, node) {
		if (n++ < MOCK_DMA_REPORT) {
			mock_dma_describe(m, was, sizeof(was));
			KUNIT_FAIL(mock->test, "DMA mapping leaked: %s", was);
		}
		mock_dma_unmap_leaked(dma, m);
	}
	if (n > MOCK_DMA_REPORT)
		KUNIT_FAIL(mock->test, "%u more DMA mappings leaked",
			   n - MOCK_DMA_REPORT);
	dma->hint = NULL;
	mock->dma_live = 0;
}

/*
 * Where devices can have DMA ops of their own, a KUnit device with the
 * counting ones and a 64-bit DMA mask, for the mock to register with.
 * Return: the device, NULL for virtual DMA, or an ERR_PTR().
 */
static struct device *mock_dma_device(struct kunit *test,
				      struct mock_dev *mdev)
{
	static atomic_t seq = ATOMIC_INIT(0);
	struct mock_dma *dma;
	struct device *dev;
	char name[32];
	int ret;

	if (!IB_MOCK_DMA_COUNTED)
		return NULL;

	dma = kunit_kzalloc(test, sizeof(*dma), GFP_KERNEL);
	if (!dma)
		return ERR_PTR(-ENOMEM);
	dma->mock = mdev->mock;
	spin_lock_init(&dma->lock);
	INIT_LIST_HEAD(&dma->live);

	/* Device and driver names are unique on the KUnit bus. */
	snprintf(name, sizeof(name), "rwmock_dma%d", atomic_inc_return(&seq));
	dev = kunit_device_register(test, name);
	if (IS_ERR(dev))
		return dev;
	dev->dma_parms = &dma->parms;
	dma_set_max_seg_size(dev, UINT_MAX);
	set_dma_ops(dev, &mock_dma_ops);
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(64));
	if (ret)
		return ERR_PTR(ret);
	dev_set_drvdata(dev, dma);
	dma->dev = dev;
	ret = kunit_add_action_or_reset(test, mock_dma_release, dma);
	if (ret)
		return ERR_PTR(ret);

	mdev->dma = dma;
	mdev->mock->dma_counted = true;
	return dev;
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

	dma_device = mock_dma_device(test, mdev);
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

/**
 * ib_mock_dma_sg_live - is a scatterlist mapping live
 * @mock:	the mock
 * @sg:		the scatterlist as passed to map_sg
 * @nents:	its entry count as passed to map_sg
 * @dir:	the direction it was mapped in
 *
 * Return: true if the device has a live mapping made by map_sg with
 * exactly these arguments; always false with virtual DMA.
 */
bool ib_mock_dma_sg_live(struct ib_mock *mock, struct scatterlist *sg,
			 int nents, enum dma_data_direction dir)
{
	struct mock_dma *dma = to_mdev(mock->dev)->dma;
	struct mock_dma_map *m;
	unsigned long flags;

	if (!dma)
		return false;
	spin_lock_irqsave(&dma->lock, flags);
	m = mock_dma_find_sg(dma, sg);
	spin_unlock_irqrestore(&dma->lock, flags);
	return m && m->nents == nents && m->dir == dir;
}
EXPORT_SYMBOL_GPL(ib_mock_dma_sg_live);

/**
 * ib_mock_dma_mapped - is memory inside a live mapping
 * @mock:	the mock
 * @page:	the page the memory starts in
 * @offset:	where in @page it starts
 * @len:	its length in bytes
 * @dir:	the direction the mapping must have
 *
 * Return: true if live mappings, made by map_sg or map_page in direction
 * @dir, hold all of the memory, in one DMA entry or in entries that follow
 * each other (where DMA limits cut it); always false with virtual DMA.
 */
bool ib_mock_dma_mapped(struct ib_mock *mock, struct page *page,
			unsigned int offset, size_t len,
			enum dma_data_direction dir)
{
	struct mock_dma *dma = to_mdev(mock->dev)->dma;
	unsigned long flags;
	bool live;

	if (!dma)
		return false;
	spin_lock_irqsave(&dma->lock, flags);
	live = mock_dma_covered(dma, page_to_phys(page) + offset +
				IB_MOCK_DMA_OFFSET, len, BIT(dir));
	spin_unlock_irqrestore(&dma->lock, flags);
	return live;
}
EXPORT_SYMBOL_GPL(ib_mock_dma_mapped);

/**
 * ib_mock_dma_unmap_sg_raw - unmap_sg on the mock's DMA ops alone
 * @mock:	the mock, with counted DMA
 * @sg:		as for dma_unmap_sg()
 * @nents:	as for dma_unmap_sg()
 * @dir:	as for dma_unmap_sg()
 *
 * For a test that breaks the DMA API on purpose, to see the mock catch
 * it.  The call bypasses dma_unmap_sg(), so dma-debug, which keeps its own
 * books of the mappings and checks every case for errors, never sees it.
 */
void ib_mock_dma_unmap_sg_raw(struct ib_mock *mock, struct scatterlist *sg,
			      int nents, enum dma_data_direction dir)
{
	if (!WARN_ON_ONCE(!mock->dma_counted))
		mock_dma_ops.unmap_sg(mock->dev->dma_device, sg, nents, dir, 0);
}
EXPORT_SYMBOL_GPL(ib_mock_dma_unmap_sg_raw);

/**
 * ib_mock_dma_unmap_page_raw - unmap_page on the mock's DMA ops alone
 * @mock:	the mock, with counted DMA
 * @addr:	as for dma_unmap_page()
 * @size:	as for dma_unmap_page()
 * @dir:	as for dma_unmap_page()
 *
 * As ib_mock_dma_unmap_sg_raw(), for a page mapping.
 */
void ib_mock_dma_unmap_page_raw(struct ib_mock *mock, dma_addr_t addr,
				size_t size, enum dma_data_direction dir)
{
	if (!WARN_ON_ONCE(!mock->dma_counted))
		mock_dma_ops.unmap_page(mock->dev->dma_device, addr, size, dir,
					0);
}
EXPORT_SYMBOL_GPL(ib_mock_dma_unmap_page_raw);

MODULE_DESCRIPTION("Mock RDMA device for KUnit tests of ib_core");
MODULE_LICENSE("GPL");
