// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mock RDMA device's DMA.  The device registers with virtual DMA, so
 * that a DMA address is a kernel address, unless the architecture lets a
 * device have DMA ops of its own (CONFIG_ARCH_HAS_DMA_OPS): then the mock
 * registers with a KUnit struct device whose DMA ops keep every live
 * mapping.  map_sg and map_page record what they mapped, and an unmap must
 * name a live mapping exactly (the sg and nents passed to map_sg, or the
 * address and length map_page returned, and the same direction) or the
 * test fails, as it does for mappings still live when it ends.  A bus
 * address is the physical address plus IB_MOCK_DMA_OFFSET, and the QP
 * reaches local memory only through bus addresses inside a live mapping
 * whose direction allows the access; anything else completes in error
 * like a bad key.
 */
#include <kunit/device.h>
#include <kunit/test-bug.h>
#include <kunit/resource.h>
#include <linux/dma-map-ops.h>

#include "ib_mock_internal.h"

/* Leaked DMA mappings reported one by one, before a count of the rest. */
#define MOCK_DMA_REPORT		4

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
u8 *ib_mock_dma_ptr(struct mock_dev *mdev, u64 addr, u64 len,
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
struct device *ib_mock_dma_device(struct kunit *test,
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
