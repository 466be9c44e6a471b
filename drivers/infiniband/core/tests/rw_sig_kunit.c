// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of T10-PI signature offload in the RDMA R/W API:
 * rdma_rw_ctx_signature_init() and rdma_rw_ctx_destroy_signature(), run on
 * the integrity profile of the mock device, whose software T10-PI engine
 * (ib_mock_pi.c) does what an HCA does to data passing through an
 * integrity MR.  The expected PI is computed here, independently, with
 * the kernel's CRC16 T10-DIF and IP checksum helpers.
 */
#include <kunit/test.h>
#include <linux/bio.h>
#include <linux/blk-integrity.h>
#include <linux/blkdev.h>
#include <linux/crc-t10dif.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/t10-pi.h>
#include <net/checksum.h>
#include <rdma/ib_sig_sw.h>
#include <rdma/rw.h>

#include "ib_mock.h"
#include "ib_mock_pi.h"
#include "rw_under_test.h"
#include "warn_watch.h"

#define SIG_PORT	1
#define SIG_CTXS	4
#define SIG_PAGES	4
#define SIG_DATA_LEN	(SIG_PAGES * PAGE_SIZE)
/* Where the wire stream lands in the remote buffer: unaligned. */
#define SIG_REMOTE_OFF	4100
/* Remote bytes on each side of the stream that must stay untouched. */
#define SIG_MARGIN	64
#define SIG_TUPLE	sizeof(struct t10_pi_tuple)
#define SIG_REF_TAG	0x12345678
#define SIG_APP_TAG	0x0bad

/*
 * The data in four separate pages and its memory PI in two more, split
 * so that the tuples cross from the end of one page to the next.  The I/O
 * uses @data_sgl, normally @data_sg.
 */
struct sig_buf {
	struct page *pages[SIG_PAGES + 2];
	struct scatterlist *data_sgl;
	struct scatterlist data_sg[SIG_PAGES];
	struct scatterlist prot_sg[2];
	u32 data_nents;
	u32 prot_nents;
	size_t data_len;
	size_t prot_len;
	u8 *ref_data;
};

static u8 sig_data_byte(size_t pos)
{
	return (pos * 7 + pos / 509 + 3) & 0xff;
}

static u8 *sig_page(struct sig_buf *buf, u32 i)
{
	return page_address(buf->pages[i]);
}

static void sig_free_pages(void *data)
{
	struct sig_buf *buf = data;
	u32 i;

	for (i = 0; i < ARRAY_SIZE(buf->pages); i++)
		if (buf->pages[i])
			__free_page(buf->pages[i]);
}

/* Lay out @prot_len bytes of PI across the two PI pages. */
static void sig_set_prot(struct sig_buf *buf, size_t prot_len)
{
	u32 head = prot_len / 2;

	buf->prot_len = prot_len;
	buf->prot_nents = head ? 2 : 1;
	sg_init_table(buf->prot_sg, buf->prot_nents);
	if (head)
		sg_set_page(&buf->prot_sg[0], buf->pages[SIG_PAGES], head,
			    PAGE_SIZE - head);
	sg_set_page(&buf->prot_sg[buf->prot_nents - 1],
		    buf->pages[SIG_PAGES + 1], prot_len - head, 0);
}

static struct sig_buf *sig_buf_alloc(struct kunit *test, size_t prot_len)
{
	struct sig_buf *buf = kunit_kzalloc(test, sizeof(*buf), GFP_KERNEL);
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
							   sig_free_pages,
							   buf));
	for (i = 0; i < ARRAY_SIZE(buf->pages); i++) {
		buf->pages[i] = alloc_page(GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, buf->pages[i]);
	}
	buf->ref_data = kunit_kmalloc(test, SIG_DATA_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf->ref_data);
	for (i = 0; i < SIG_DATA_LEN; i++)
		buf->ref_data[i] = sig_data_byte(i);

	buf->data_sgl = buf->data_sg;
	buf->data_nents = SIG_PAGES;
	buf->data_len = SIG_DATA_LEN;
	sg_init_table(buf->data_sg, SIG_PAGES);
	for (i = 0; i < SIG_PAGES; i++)
		sg_set_page(&buf->data_sg[i], buf->pages[i], PAGE_SIZE, 0);
	sig_set_prot(buf, prot_len);
	return buf;
}

/* Copy between @lin and the bytes a scatterlist describes. */
static void sig_copy_sg(struct scatterlist *sgl, u32 nents, u8 *lin,
			size_t len, bool to_sg)
{
	if (to_sg)
		sg_copy_from_buffer(sgl, nents, lin, len);
	else
		sg_copy_to_buffer(sgl, nents, lin, len);
}

/* The tuple @dif expects for interval @block holding @data, seed 0. */
static struct t10_pi_tuple sig_tuple(const struct ib_t10_dif_domain *dif,
				     const u8 *data, u32 block)
{
	u32 n = dif->pi_interval;

	return (struct t10_pi_tuple) {
		.guard_tag = dif->bg_type == IB_T10DIF_CRC ?
			     cpu_to_be16(crc_t10dif(data, n)) :
			     (__force __be16)ip_compute_csum(data, n),
		.app_tag = cpu_to_be16(dif->app_tag),
		.ref_tag = cpu_to_be32(dif->ref_tag +
				       (dif->ref_remap ? block : 0)),
	};
}

static const struct ib_t10_dif_domain *sig_dif(const struct ib_sig_domain *d)
{
	return d->sig_type == IB_SIG_TYPE_T10_DIF ? &d->sig.dif : NULL;
}

static u32 sig_interval(const struct ib_sig_attrs *attrs)
{
	const struct ib_t10_dif_domain *dif;

	dif = sig_dif(&attrs->wire) ?: sig_dif(&attrs->mem);
	return dif->pi_interval;
}

/* The memory PI of @data as the memory domain wants it. */
static void sig_make_prot(const struct ib_sig_attrs *attrs, const u8 *data,
			  size_t len, struct t10_pi_tuple *prot)
{
	const struct ib_t10_dif_domain *mem = sig_dif(&attrs->mem);
	u32 i;

	for (i = 0; mem && i < len / mem->pi_interval; i++)
		prot[i] = sig_tuple(mem, data + i * mem->pi_interval, i);
}

/* The wire stream of @data as the wire domain wants it. */
static void sig_make_wire(const struct ib_sig_attrs *attrs, const u8 *data,
			  size_t len, u8 *wire)
{
	const struct ib_t10_dif_domain *dif = sig_dif(&attrs->wire);
	u32 n = sig_interval(attrs), i;

	if (!dif) {
		memcpy(wire, data, len);
		return;
	}
	for (i = 0; i < len / n; i++, wire += n + SIG_TUPLE) {
		struct t10_pi_tuple t = sig_tuple(dif, data + i * n, i);

		memcpy(wire, data + i * n, n);
		memcpy(wire + n, &t, SIG_TUPLE);
	}
}

/*
 * Compare two buffers of up to some pages and report where they first
 * differ: a hex dump of 16 KiB helps nobody.
 */
static void sig_expect_bytes(struct kunit *test, const u8 *got,
			     const u8 *want, size_t len, const char *what)
{
	size_t i = 0;

	while (i < len && got[i] == want[i])
		i++;
	KUNIT_EXPECT_EQ_MSG(test, i, len, "%s: first wrong byte at %zu of %zu",
			    what, i, len);
}

static struct ib_mock *sig_mock(struct kunit *test, u32 ctxs)
{
	return ib_mock_create(test, &ib_mock_pi, ctxs,
			      IB_QP_CREATE_INTEGRITY_EN);
}

static int sig_init(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
		    struct sig_buf *buf, struct ib_sig_attrs *attrs,
		    enum dma_data_direction dir)
{
	return rdma_rw_ctx_signature_init(ctx, mock->qp, SIG_PORT,
					  buf->data_sgl, buf->data_nents,
					  buf->prot_sg, buf->prot_nents, attrs,
					  mock->remote_addr + SIG_REMOTE_OFF,
					  mock->remote_rkey, dir);
}

static void sig_destroy(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
			struct sig_buf *buf, enum dma_data_direction dir)
{
	rdma_rw_ctx_destroy_signature(ctx, mock->qp, SIG_PORT, buf->data_sgl,
				      buf->data_nents, buf->prot_sg,
				      buf->prot_nents, dir);
}

/* Nothing taken: every integrity MR back in its pool. */
static void sig_expect_pool_whole(struct kunit *test, struct ib_mock *mock,
				  unsigned int nr)
{
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, 0);
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(mock, &mock->qp->sig_mrs), nr);
}

/*
 * Init, post, complete, check the MR status and destroy one I/O.
 * Return: the work requests it took; *@status is what the check found
 * and *@mrp the integrity MR, back in the pool.
 */
static int sig_do_io(struct kunit *test, struct ib_mock *mock,
		     struct sig_buf *buf, struct ib_sig_attrs *attrs,
		     enum dma_data_direction dir, struct ib_mr_status *status,
		     struct ib_mr **mrp)
{
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct rdma_rw_ctx ctx;
	unsigned int posted;
	struct ib_mr *mr;
	int wqes;

	wqes = sig_init(&ctx, mock, buf, attrs, dir);
	KUNIT_ASSERT_GT(test, wqes, 0);
	mr = ctx.reg->mr;

	ib_mock_clear_log(mock);
	posted = mock->nr_posted;
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, SIG_PORT,
						  &done.cqe, NULL));
	KUNIT_EXPECT_EQ(test, mock->nr_posted - posted, wqes);
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.calls, 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
	*mrp = mr;
	KUNIT_EXPECT_EQ(test, 0, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						    status));

	sig_destroy(&ctx, mock, buf, dir);
	if (!RW_BASE)
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
	sig_expect_pool_whole(test, mock, SIG_CTXS);
	return wqes;
}

/*
 * Stage one I/O: for a WRITE, the data and a valid memory PI in the local
 * pages; for a READ, a valid wire stream in the remote buffer, and junk
 * locally.  The remote buffer around the stream holds junk either way.
 */
static void sig_stage(struct ib_mock *mock, struct sig_buf *buf,
		      const struct ib_sig_attrs *attrs,
		      enum dma_data_direction dir, u8 *prot, u8 *wire)
{
	size_t wire_len = ib_sig_sw_wire_len(attrs, buf->data_len);
	u8 *remote = mock->remote + SIG_REMOTE_OFF;
	u32 i;

	memset(remote - SIG_MARGIN, 0xa5, wire_len + 2 * SIG_MARGIN);
	for (i = 0; i < ARRAY_SIZE(buf->pages); i++)
		memset(sig_page(buf, i), 0x3c, PAGE_SIZE);

	memset(prot, 0x3c, buf->prot_len);
	sig_make_prot(attrs, buf->ref_data, buf->data_len,
		      (struct t10_pi_tuple *)prot);
	sig_make_wire(attrs, buf->ref_data, buf->data_len, wire);
	if (dir == DMA_TO_DEVICE) {
		sig_copy_sg(buf->data_sg, buf->data_nents, buf->ref_data,
			    buf->data_len, true);
		sig_copy_sg(buf->prot_sg, buf->prot_nents, prot,
			    buf->prot_len, true);
	} else {
		memcpy(remote, wire, wire_len);
	}
}

/*
 * After the I/O, the destination holds the data and the PI its domain
 * wants (memory PI only if memory carries PI), and nothing else changed:
 * not the source, not the remote bytes around the stream.
 */
static void sig_check_placed(struct kunit *test, struct ib_mock *mock,
			     struct sig_buf *buf,
			     const struct ib_sig_attrs *attrs, const u8 *prot,
			     const u8 *wire)
{
	size_t wire_len = ib_sig_sw_wire_len(attrs, buf->data_len);
	u8 *remote = mock->remote + SIG_REMOTE_OFF;
	u8 *got = kunit_kmalloc(test, buf->data_len, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, got);
	sig_expect_bytes(test, remote, wire, wire_len, "wire stream");
	for (i = 0; i < SIG_MARGIN; i++) {
		KUNIT_EXPECT_EQ(test, remote[-1 - (int)i], 0xa5);
		KUNIT_EXPECT_EQ(test, remote[wire_len + i], 0xa5);
	}

	sig_copy_sg(buf->data_sg, buf->data_nents, got, buf->data_len, false);
	sig_expect_bytes(test, got, buf->ref_data, buf->data_len, "memory data");
	sig_copy_sg(buf->prot_sg, buf->prot_nents, got, buf->prot_len, false);
	sig_expect_bytes(test, got, prot, buf->prot_len, "memory PI");

	/* Outside the PI entries, the PI pages are untouched. */
	KUNIT_EXPECT_EQ(test, sig_page(buf, SIG_PAGES)[0], 0x3c);
	KUNIT_EXPECT_EQ(test, sig_page(buf, SIG_PAGES + 1)[PAGE_SIZE - 1],
			0x3c);
}

/* Stage, run and check one I/O whose source PI is valid. */
static void sig_run_clean(struct kunit *test, struct ib_mock *mock,
			  struct ib_sig_attrs *attrs,
			  enum dma_data_direction dir)
{
	size_t prot_len = SIG_DATA_LEN / sig_interval(attrs) * SIG_TUPLE;
	struct sig_buf *buf = sig_buf_alloc(test, prot_len);
	u8 *prot = kunit_kmalloc(test, prot_len, GFP_KERNEL);
	u8 *wire = kunit_kmalloc(test, ib_sig_sw_wire_len(attrs, SIG_DATA_LEN),
				 GFP_KERNEL);
	struct ib_mr_status status;
	struct ib_mr *mr;

	KUNIT_ASSERT_NOT_NULL(test, prot);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	sig_stage(mock, buf, attrs, dir, prot, wire);

	KUNIT_EXPECT_EQ(test, sig_do_io(test, mock, buf, attrs, dir, &status,
					&mr), 2);
	KUNIT_EXPECT_EQ(test, status.fail_status, 0);
	sig_check_placed(test, mock, buf, attrs, prot, wire);
}

/* The matrix of domains, guards, intervals and T10 types. */
enum sig_layout { SIG_NONE_DIF, SIG_DIF_NONE, SIG_DIF_DIF };
enum sig_guards { SIG_CRC, SIG_CSUM, SIG_CSUM_CRC };

struct sig_case {
	enum dma_data_direction dir;
	enum sig_layout layout;
	enum sig_guards guards;
	u16 interval;
	bool type3;
};

static const char *const sig_layout_names[] = {
	"none/dif", "dif/none", "dif/dif",
};

static const char *const sig_guard_names[] = { "crc", "csum", "csum/crc" };

static struct sig_case sig_cases[2 * 3 * 3 * 2 * 2];

/*
 * Type 1: the reference tag counts the blocks from the LBA and the
 * application tag 0xffff escapes.  Type 3: the reference tag is opaque,
 * and the escape needs both tags all ones.
 */
static void sig_set_domain(struct ib_sig_domain *d,
			   enum ib_t10_dif_bg_type bg_type, u16 interval,
			   bool type3)
{
	d->sig_type = IB_SIG_TYPE_T10_DIF;
	d->sig.dif = (struct ib_t10_dif_domain) {
		.bg_type = bg_type,
		.pi_interval = interval,
		.app_tag = SIG_APP_TAG,
		.ref_tag = SIG_REF_TAG,
		.ref_remap = !type3,
		.app_escape = true,
		.ref_escape = type3,
		.apptag_check_mask = 0xffff,
	};
}

static void sig_case_attrs(const struct sig_case *c,
			   struct ib_sig_attrs *attrs)
{
	memset(attrs, 0, sizeof(*attrs));
	attrs->check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_APPTAG |
			    IB_SIG_CHECK_REFTAG;
	if (c->layout != SIG_NONE_DIF)
		sig_set_domain(&attrs->mem, c->guards == SIG_CRC ?
			       IB_T10DIF_CRC : IB_T10DIF_CSUM,
			       c->interval, c->type3);
	if (c->layout != SIG_DIF_NONE)
		sig_set_domain(&attrs->wire, c->guards == SIG_CSUM ?
			       IB_T10DIF_CSUM : IB_T10DIF_CRC,
			       c->interval, c->type3);
}

static const void *sig_case_gen(const void *prev, char *desc)
{
	const struct sig_case *c = prev ? (const struct sig_case *)prev + 1 :
					  sig_cases;

	if (c == sig_cases + ARRAY_SIZE(sig_cases))
		return NULL;
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s mem/wire %s %s %u type%d",
		 c->dir == DMA_TO_DEVICE ? "write" : "read",
		 sig_layout_names[c->layout], sig_guard_names[c->guards],
		 c->interval, c->type3 ? 3 : 1);
	return c;
}

static void sig_test_data(struct kunit *test)
{
	const struct sig_case *c = test->param_value;
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	struct ib_sig_attrs attrs;

	sig_case_attrs(c, &attrs);
	sig_run_clean(test, mock, &attrs, c->dir);
}

/*
 * The attributes exactly as the in-tree users build them: nvmet-rdma for
 * PRACT (the HCA inserts or strips PI; nothing on the wire) and for pass
 * through, and isert for each of the target core's PI operations.  A host
 * WRITE is an RDMA READ for the target, a host READ an RDMA WRITE.
 */
struct sig_ulp {
	const char *name;
	enum dma_data_direction dir;
	void (*build)(struct ib_sig_attrs *attrs);
};

/* Both ask for every check when the command asks for them all. */
static void sig_check_all(struct ib_sig_attrs *attrs)
{
	attrs->check_mask |= IB_SIG_CHECK_GUARD | IB_SIG_CHECK_APPTAG |
			     IB_SIG_CHECK_REFTAG;
}

static void sig_nvmet_domain(struct ib_sig_domain *d)
{
	d->sig_type = IB_SIG_TYPE_T10_DIF;
	d->sig.dif.bg_type = IB_T10DIF_CRC;
	d->sig.dif.pi_interval = 1 << 9;
	d->sig.dif.ref_tag = SIG_REF_TAG;
	d->sig.dif.ref_remap = true;
	d->sig.dif.app_tag = SIG_APP_TAG;
	d->sig.dif.apptag_check_mask = 0xffff;
	d->sig.dif.app_escape = true;
}

static void sig_nvmet_pract(struct ib_sig_attrs *attrs)
{
	attrs->wire.sig_type = IB_SIG_TYPE_NONE;
	sig_nvmet_domain(&attrs->mem);
	sig_check_all(attrs);
}

static void sig_nvmet_pass(struct ib_sig_attrs *attrs)
{
	sig_nvmet_domain(&attrs->wire);
	sig_nvmet_domain(&attrs->mem);
	sig_check_all(attrs);
}

static void sig_isert_domain(struct ib_sig_domain *d)
{
	d->sig_type = IB_SIG_TYPE_T10_DIF;
	d->sig.dif.bg_type = IB_T10DIF_CRC;
	d->sig.dif.pi_interval = 512;
	d->sig.dif.ref_tag = SIG_REF_TAG;
	d->sig.dif.apptag_check_mask = 0xffff;
	d->sig.dif.app_escape = true;
	d->sig.dif.ref_escape = true;
	d->sig.dif.ref_remap = true;
}

static void sig_isert_wire_only(struct ib_sig_attrs *attrs)
{
	attrs->mem.sig_type = IB_SIG_TYPE_NONE;
	sig_isert_domain(&attrs->wire);
	sig_check_all(attrs);
}

static void sig_isert_mem_only(struct ib_sig_attrs *attrs)
{
	attrs->wire.sig_type = IB_SIG_TYPE_NONE;
	sig_isert_domain(&attrs->mem);
	sig_check_all(attrs);
}

static void sig_isert_pass(struct ib_sig_attrs *attrs)
{
	sig_isert_domain(&attrs->wire);
	sig_isert_domain(&attrs->mem);
	sig_check_all(attrs);
}

static const struct sig_ulp sig_ulps[] = {
	{ "nvmet write_insert", DMA_FROM_DEVICE, sig_nvmet_pract },
	{ "nvmet read_strip", DMA_TO_DEVICE, sig_nvmet_pract },
	{ "nvmet write_pass", DMA_FROM_DEVICE, sig_nvmet_pass },
	{ "nvmet read_pass", DMA_TO_DEVICE, sig_nvmet_pass },
	{ "isert dout_insert", DMA_FROM_DEVICE, sig_isert_mem_only },
	{ "isert din_strip", DMA_TO_DEVICE, sig_isert_mem_only },
	{ "isert din_insert", DMA_TO_DEVICE, sig_isert_wire_only },
	{ "isert dout_strip", DMA_FROM_DEVICE, sig_isert_wire_only },
	{ "isert din_pass", DMA_TO_DEVICE, sig_isert_pass },
	{ "isert dout_pass", DMA_FROM_DEVICE, sig_isert_pass },
};

static void sig_ulp_desc(const struct sig_ulp *u, char *desc)
{
	strscpy(desc, u->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sig_ulp, sig_ulps, sig_ulp_desc);

static void sig_test_ulp(struct kunit *test)
{
	const struct sig_ulp *u = test->param_value;
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	struct ib_sig_attrs attrs = {};

	u->build(&attrs);
	sig_run_clean(test, mock, &attrs, u->dir);
}

/*
 * Corrupted source PI: a data byte, an application tag or a reference
 * tag of one interval.  Checked, it is reported once through the MR
 * status with its type, values, wire offset and key, and the data still
 * moves; with its check bit cleared, or application tag bits outside
 * apptag_check_mask, it passes.
 */
enum sig_fault { SIG_BAD_DATA, SIG_BAD_APP, SIG_BAD_REF };

struct sig_corrupt {
	const char *name;
	enum dma_data_direction dir;
	enum sig_fault fault;
	bool checked;
	bool masked;
};

static const struct sig_corrupt sig_corrupts[] = {
	{ "write data", DMA_TO_DEVICE, SIG_BAD_DATA, true },
	{ "write app", DMA_TO_DEVICE, SIG_BAD_APP, true },
	{ "write ref", DMA_TO_DEVICE, SIG_BAD_REF, true },
	{ "read data", DMA_FROM_DEVICE, SIG_BAD_DATA, true },
	{ "read app", DMA_FROM_DEVICE, SIG_BAD_APP, true },
	{ "read ref", DMA_FROM_DEVICE, SIG_BAD_REF, true },
	{ "write data unchecked", DMA_TO_DEVICE, SIG_BAD_DATA, false },
	{ "write app unchecked", DMA_TO_DEVICE, SIG_BAD_APP, false },
	{ "write ref unchecked", DMA_TO_DEVICE, SIG_BAD_REF, false },
	{ "read data unchecked", DMA_FROM_DEVICE, SIG_BAD_DATA, false },
	{ "read app unchecked", DMA_FROM_DEVICE, SIG_BAD_APP, false },
	{ "read ref unchecked", DMA_FROM_DEVICE, SIG_BAD_REF, false },
	{ "write app outside mask", DMA_TO_DEVICE, SIG_BAD_APP, true, true },
	{ "read app outside mask", DMA_FROM_DEVICE, SIG_BAD_APP, true, true },
};

static void sig_corrupt_desc(const struct sig_corrupt *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sig_corrupt, sig_corrupts, sig_corrupt_desc);

#define SIG_BAD_BLOCK	5

/*
 * Corrupt interval @k of the staged source (512-byte intervals, the wire
 * @stride apart) as @fault says, reference data included; return its
 * tuple as it was.
 */
static struct t10_pi_tuple sig_corrupt_source(enum sig_fault fault,
					      bool write, struct sig_buf *buf,
					      u8 *prot, u8 *wire,
					      size_t stride, u32 k)
{
	u8 *block = buf->ref_data + k * 512;
	struct t10_pi_tuple *t = write ? (void *)(prot + k * SIG_TUPLE) :
					 (void *)(wire + k * stride + 512);
	struct t10_pi_tuple good = *t;

	if (fault == SIG_BAD_DATA)
		block[100] ^= 0x01;
	else if (fault == SIG_BAD_APP)
		t->app_tag ^= cpu_to_be16(0x0100);
	else
		t->ref_tag ^= cpu_to_be32(0x10000);
	if (!write)
		memcpy(wire + k * stride, block, 512);
	return good;
}

static void sig_test_corrupt(struct kunit *test)
{
	static const u8 check_bits[] = {
		[SIG_BAD_DATA] = IB_SIG_CHECK_GUARD,
		[SIG_BAD_APP] = IB_SIG_CHECK_APPTAG,
		[SIG_BAD_REF] = IB_SIG_CHECK_REFTAG,
	};
	static const enum ib_sig_err_type types[] = {
		[SIG_BAD_DATA] = IB_SIG_BAD_GUARD,
		[SIG_BAD_APP] = IB_SIG_BAD_APPTAG,
		[SIG_BAD_REF] = IB_SIG_BAD_REFTAG,
	};
	const struct sig_corrupt *c = test->param_value;
	bool write = c->dir == DMA_TO_DEVICE;
	/* The source carries PI, the destination none: verify and strip. */
	struct sig_case sc = { c->dir, write ? SIG_DIF_NONE : SIG_NONE_DIF,
			       SIG_CRC, 512, false };
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	size_t prot_len = SIG_DATA_LEN / 512 * SIG_TUPLE;
	struct sig_buf *buf = sig_buf_alloc(test, prot_len);
	u8 *prot = kunit_kmalloc(test, prot_len, GFP_KERNEL);
	u8 *wire = kunit_kmalloc(test, SIG_DATA_LEN + prot_len, GFP_KERNEL);
	size_t stride = write ? 512 : 512 + SIG_TUPLE;
	u8 *block = buf->ref_data + SIG_BAD_BLOCK * 512;
	struct ib_sig_attrs attrs;
	struct ib_mr_status status;
	struct t10_pi_tuple good;
	struct ib_mr *mr;

	KUNIT_ASSERT_NOT_NULL(test, prot);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	sig_case_attrs(&sc, &attrs);
	if (!c->checked)
		attrs.check_mask &= ~check_bits[c->fault];
	/* The corruption below flips bit 8 of the application tag. */
	if (c->masked) {
		attrs.mem.sig.dif.apptag_check_mask = 0xfeff;
		attrs.wire.sig.dif.apptag_check_mask = 0xfeff;
	}
	sig_stage(mock, buf, &attrs, c->dir, prot, wire);

	/* Two bad intervals: the first is the one reported. */
	sig_corrupt_source(c->fault, write, buf, prot, wire, stride,
			   SIG_BAD_BLOCK + 2);
	good = sig_corrupt_source(c->fault, write, buf, prot, wire, stride,
				  SIG_BAD_BLOCK);
	if (write) {
		sig_copy_sg(buf->data_sg, buf->data_nents, buf->ref_data,
			    buf->data_len, true);
		sig_copy_sg(buf->prot_sg, buf->prot_nents, prot, prot_len,
			    true);
		sig_make_wire(&attrs, buf->ref_data, buf->data_len, wire);
	} else {
		memcpy(mock->remote + SIG_REMOTE_OFF, wire,
		       SIG_DATA_LEN + prot_len);
	}

	KUNIT_EXPECT_EQ(test, sig_do_io(test, mock, buf, &attrs, c->dir,
					&status, &mr), 2);
	sig_check_placed(test, mock, buf, &attrs, prot, wire);
	if (!c->checked || c->masked) {
		KUNIT_EXPECT_EQ(test, status.fail_status, 0);
		return;
	}

	KUNIT_EXPECT_EQ(test, status.fail_status, IB_MR_CHECK_SIG_STATUS);
	KUNIT_EXPECT_EQ(test, status.sig_err.err_type, types[c->fault]);
	/* iser and isert divide the offset by the block plus its tuple. */
	KUNIT_EXPECT_EQ(test, status.sig_err.sig_err_offset,
			SIG_BAD_BLOCK * (512 + SIG_TUPLE));
	KUNIT_EXPECT_EQ(test, status.sig_err.key, mr->lkey);
	if (c->fault == SIG_BAD_DATA) {
		KUNIT_EXPECT_EQ(test, status.sig_err.expected,
				crc_t10dif(block, 512));
		KUNIT_EXPECT_EQ(test, status.sig_err.actual,
				be16_to_cpu(good.guard_tag));
	} else if (c->fault == SIG_BAD_APP) {
		KUNIT_EXPECT_EQ(test, status.sig_err.expected, SIG_APP_TAG);
		KUNIT_EXPECT_EQ(test, status.sig_err.actual,
				SIG_APP_TAG ^ 0x0100);
	} else {
		KUNIT_EXPECT_EQ(test, status.sig_err.expected,
				SIG_REF_TAG + SIG_BAD_BLOCK);
		KUNIT_EXPECT_EQ(test, status.sig_err.actual,
				(SIG_REF_TAG + SIG_BAD_BLOCK) ^ 0x10000);
	}
	/* Reported once. */
	KUNIT_EXPECT_EQ(test, 0, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						    &status));
	KUNIT_EXPECT_EQ(test, status.fail_status, 0);
}

/* DIF in both domains, CRC, 512-byte intervals, Type 1. */
static void sig_default_attrs(struct ib_sig_attrs *attrs)
{
	struct sig_case c = { DMA_TO_DEVICE, SIG_DIF_DIF, SIG_CRC, 512, false };

	sig_case_attrs(&c, attrs);
}

/*
 * Each I/O takes one integrity MR: REG_MR_INTEGRITY with no SGE, then the
 * data WR through the new key, covering the wire stream from offset 0.
 * The MR comes back for the next I/O, which first invalidates the key of
 * the last.  Only the last work request is signalled.
 */
static void sig_test_chain(struct kunit *test)
{
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	struct sig_buf *buf = sig_buf_alloc(test, SIG_DATA_LEN / 512 * SIG_TUPLE);
	size_t wire_len = SIG_DATA_LEN + buf->prot_len;
	struct ib_mock_wr *log = mock->log;
	struct ib_mr_status status;
	struct ib_sig_attrs attrs;
	struct ib_mr *mr;
	u32 key;

	sig_default_attrs(&attrs);
	KUNIT_ASSERT_EQ(test, sig_do_io(test, mock, buf, &attrs, DMA_TO_DEVICE,
					&status, &mr), 2);
	KUNIT_ASSERT_EQ(test, mock->nr_log, 2);
	KUNIT_EXPECT_EQ(test, log[0].opcode, IB_WR_REG_MR_INTEGRITY);
	KUNIT_EXPECT_EQ(test, log[0].num_sge, 0);
	KUNIT_EXPECT_FALSE(test, log[0].signaled);
	KUNIT_EXPECT_EQ(test, log[0].length, wire_len);
	KUNIT_EXPECT_EQ(test, log[1].opcode, IB_WR_RDMA_WRITE);
	KUNIT_EXPECT_TRUE(test, log[1].signaled);
	KUNIT_EXPECT_EQ(test, log[1].num_sge, 1);
	KUNIT_EXPECT_EQ(test, log[1].sge[0].lkey, log[0].key);
	KUNIT_EXPECT_EQ(test, log[1].sge[0].addr, 0);
	KUNIT_EXPECT_EQ(test, log[1].sge[0].length, wire_len);
	KUNIT_EXPECT_EQ(test, log[1].remote_addr,
			mock->remote_addr + SIG_REMOTE_OFF);
	KUNIT_EXPECT_EQ(test, log[1].rkey, mock->remote_rkey);
	key = log[0].key;

	KUNIT_ASSERT_EQ(test, sig_do_io(test, mock, buf, &attrs,
					DMA_FROM_DEVICE, &status, &mr), 3);
	KUNIT_ASSERT_EQ(test, mock->nr_log, 3);
	KUNIT_EXPECT_EQ(test, log[0].opcode, IB_WR_LOCAL_INV);
	KUNIT_EXPECT_EQ(test, log[0].key, key);
	KUNIT_EXPECT_EQ(test, log[1].opcode, IB_WR_REG_MR_INTEGRITY);
	KUNIT_EXPECT_NE(test, log[1].key, key);
	KUNIT_EXPECT_EQ(test, log[2].opcode, IB_WR_RDMA_READ);
	KUNIT_EXPECT_EQ(test, log[2].sge[0].lkey, log[1].key);
	KUNIT_EXPECT_FALSE(test, log[0].signaled || log[1].signaled);
	KUNIT_EXPECT_TRUE(test, log[2].signaled);
}

/*
 * ib_create_qp() grows an integrity QP's send queue for max_rdma_ctxs
 * signature contexts (rdma_rw_init_qp()): as many in flight at once as
 * the QP was sized for, each with its LOCAL_INV, REG_MR_INTEGRITY and
 * data work request, fit in what the QP gets beyond the ULP's own one.
 * The mock's send queue refuses what does not fit, as hardware does.
 * Nothing is checked against PI: only the send queue is under test.
 */
static void sig_test_send_queue_depth(struct kunit *test)
{
	struct ib_mock *mock = ib_mock_create_device(test, &ib_mock_pi);
	struct ib_mock_done done[SIG_CTXS];
	struct rdma_rw_ctx ctx[SIG_CTXS];
	struct sig_buf *bufs[SIG_CTXS];
	struct ib_mr_status status;
	struct ib_sig_attrs attrs;
	int round, i, wqes;

	mock->qp_max_send_wr = 1;
	mock->qp = ib_mock_create_qp(mock, SIG_CTXS,
				     IB_QP_CREATE_INTEGRITY_EN);
	KUNIT_ASSERT_FALSE(test, IS_ERR(mock->qp));
	sig_default_attrs(&attrs);
	attrs.check_mask = 0;
	for (i = 0; i < SIG_CTXS; i++)
		bufs[i] = sig_buf_alloc(test, SIG_DATA_LEN / 512 * SIG_TUPLE);

	/* The second round invalidates what the first registered. */
	for (round = 0; round < 2; round++) {
		for (i = 0, wqes = 0; i < SIG_CTXS; i++) {
			int n = sig_init(&ctx[i], mock, bufs[i], &attrs,
					 DMA_TO_DEVICE);

			KUNIT_ASSERT_GT(test, n, 0);
			wqes += n;
			done[i] = (struct ib_mock_done)IB_MOCK_DONE_INIT;
			KUNIT_EXPECT_EQ(test, 0,
					rdma_rw_ctx_post(&ctx[i], mock->qp,
							 SIG_PORT,
							 &done[i].cqe, NULL));
		}
		KUNIT_EXPECT_EQ(test, wqes, (round ? 3 : 2) * SIG_CTXS);
		KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), SIG_CTXS);
		for (i = 0; i < SIG_CTXS; i++) {
			KUNIT_EXPECT_EQ(test, done[i].status, IB_WC_SUCCESS);
			KUNIT_EXPECT_EQ(test, 0,
					ib_check_mr_status(ctx[i].reg->mr,
							   IB_MR_CHECK_SIG_STATUS,
							   &status));
			sig_destroy(&ctx[i], mock, bufs[i], DMA_TO_DEVICE);
		}
	}
}

/*
 * Input rw.c or the device refuses: an errno, nothing posted, nothing
 * left mapped or taken, a context that destroy leaves alone, and then an
 * I/O that works.
 */
struct sig_refusal {
	const char *name;
	int err;
	void (*prepare)(struct kunit *test, struct ib_mock *mock,
			struct sig_buf *buf, struct ib_sig_attrs *attrs,
			enum dma_data_direction *dir);
	/* input outside the kernel-doc that this series refuses too */
	bool series_only;
};

static struct scatterlist *sig_long_list(struct kunit *test,
					 struct sig_buf *buf, u32 nents)
{
	struct scatterlist *sgl = kunit_kcalloc(test, nents, sizeof(*sgl),
						GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, nents);
	for (i = 0; i < nents; i++)
		sg_set_page(&sgl[i], buf->pages[i % SIG_PAGES], 512, 0);
	return sgl;
}

static void sig_many_data(struct kunit *test, struct ib_mock *mock,
			  struct sig_buf *buf, struct ib_sig_attrs *attrs,
			  enum dma_data_direction *dir)
{
	u32 n = mock->profile->max_pi_fr_pages + 1;

	buf->data_sgl = sig_long_list(test, buf, n);
	buf->data_nents = n;
}

static void sig_no_attrs(struct kunit *test, struct ib_mock *mock,
			 struct sig_buf *buf, struct ib_sig_attrs *attrs,
			 enum dma_data_direction *dir)
{
}

static void sig_bidirectional(struct kunit *test, struct ib_mock *mock,
			      struct sig_buf *buf, struct ib_sig_attrs *attrs,
			      enum dma_data_direction *dir)
{
	*dir = DMA_BIDIRECTIONAL;
}

static void sig_partial_interval(struct kunit *test, struct ib_mock *mock,
				 struct sig_buf *buf,
				 struct ib_sig_attrs *attrs,
				 enum dma_data_direction *dir)
{
	buf->data_sg[SIG_PAGES - 1].length -= 100;
}

static void sig_short_pi(struct kunit *test, struct ib_mock *mock,
			 struct sig_buf *buf, struct ib_sig_attrs *attrs,
			 enum dma_data_direction *dir)
{
	sig_set_prot(buf, buf->prot_len - SIG_TUPLE);
}

static void sig_intervals_differ(struct kunit *test, struct ib_mock *mock,
				 struct sig_buf *buf,
				 struct ib_sig_attrs *attrs,
				 enum dma_data_direction *dir)
{
	attrs->wire.sig.dif.pi_interval = 4096;
}

static void sig_map_error(struct kunit *test, struct ib_mock *mock,
			  struct sig_buf *buf, struct ib_sig_attrs *attrs,
			  enum dma_data_direction *dir)
{
	mock->map_error = -EIO;
}

static void sig_map_short(struct kunit *test, struct ib_mock *mock,
			  struct sig_buf *buf, struct ib_sig_attrs *attrs,
			  enum dma_data_direction *dir)
{
	mock->map_short = 1;
}

static const struct sig_refusal sig_refusals[] = {
	{ "too many data entries", -EINVAL, sig_many_data },
	{ "no attributes", -EINVAL, sig_no_attrs, true },
	{ "bidirectional", -EINVAL, sig_bidirectional, true },
	{ "data not whole intervals", -EINVAL, sig_partial_interval },
	{ "PI buffer short", -EINVAL, sig_short_pi },
	{ "intervals differ", -EINVAL, sig_intervals_differ },
	{ "map error passed through", -EIO, sig_map_error },
	/* ib_map_mr_sg_pi() returns 0 or an errno, never a count */
	{ "map short", -EINVAL, sig_map_short, true },
};

static void sig_refusal_desc(const struct sig_refusal *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(sig_refusal, sig_refusals, sig_refusal_desc);

static void sig_test_refused(struct kunit *test)
{
	const struct sig_refusal *r = test->param_value;
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	struct sig_buf *buf = sig_buf_alloc(test, SIG_DATA_LEN / 512 * SIG_TUPLE);
	enum dma_data_direction dir = DMA_TO_DEVICE;
	unsigned int posted = mock->nr_posted;
	struct ib_sig_attrs attrs;
	struct rdma_rw_ctx ctx;
	int mrs = mock->mrs;

	if (r->series_only)
		rw_series_promise(test, r->name);
	sig_default_attrs(&attrs);
	r->prepare(test, mock, buf, &attrs, &dir);
	rw_ctx_fresh(&ctx);
	rw_expect_refused(test, r->err,
			  rdma_rw_ctx_signature_init(&ctx, mock->qp, SIG_PORT,
						     buf->data_sgl,
						     buf->data_nents,
						     buf->prot_sg,
						     buf->prot_nents,
						     r->prepare == sig_no_attrs ?
						     NULL : &attrs,
						     mock->remote_addr,
						     mock->remote_rkey, dir));
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
	if (!RW_BASE)
		sig_destroy(&ctx, mock, buf, dir);
	KUNIT_EXPECT_EQ(test, mock->nr_posted, posted);
	KUNIT_EXPECT_EQ(test, mock->mrs, mrs);
	sig_expect_pool_whole(test, mock, SIG_CTXS);

	mock->map_error = 0;
	mock->map_short = 0;
	sig_default_attrs(&attrs);
	sig_run_clean(test, mock, &attrs, DMA_TO_DEVICE);
}

/*
 * PI on the wire alone needs no PI buffer: prot_sg_cnt 0, as the API
 * allows.  The transfer still moves the whole wire stream, a tuple after
 * each interval, inserted on a WRITE and stripped on a READ.
 */
static void sig_test_no_pi_list(struct kunit *test)
{
	static const enum dma_data_direction dirs[] = {
		DMA_TO_DEVICE, DMA_FROM_DEVICE,
	};
	struct ib_sig_attrs attrs = {};
	struct ib_mr_status status;
	struct ib_mock *mock;
	struct sig_buf *buf;
	struct ib_mr *mr;
	u8 *wire;
	u32 i;

	rw_series_promise(test, "signature I/O without a PI list");
	sig_isert_wire_only(&attrs);
	wire = kunit_kmalloc(test, ib_sig_sw_wire_len(&attrs, SIG_DATA_LEN),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	for (i = 0; i < ARRAY_SIZE(dirs); i++) {
		/* A fresh MR each: no LOCAL_INV before the registration. */
		mock = sig_mock(test, SIG_CTXS);
		buf = sig_buf_alloc(test, 0);
		buf->prot_nents = 0;
		sig_stage(mock, buf, &attrs, dirs[i], NULL, wire);
		KUNIT_EXPECT_EQ(test, sig_do_io(test, mock, buf, &attrs,
						dirs[i], &status, &mr), 2);
		KUNIT_EXPECT_EQ(test, status.fail_status, 0);
		sig_check_placed(test, mock, buf, &attrs, NULL, wire);
	}
}

/*
 * @nents entries that cut the bytes of @sgl into pieces of one length,
 * each inside one entry of @sgl, following each other as a block layer
 * request may hand them over.
 */
static struct scatterlist *sig_pieces(struct kunit *test,
				      struct scatterlist *sgl, u32 nents)
{
	struct scatterlist *out = kunit_kcalloc(test, nents, sizeof(*out),
						GFP_KERNEL);
	struct scatterlist *sg;
	u32 len = 0, piece, off, i, k = 0;

	KUNIT_ASSERT_NOT_NULL(test, out);
	for_each_sg(sgl, sg, sg_nents(sgl), i)
		len += sg->length;
	piece = len / nents;
	KUNIT_ASSERT_GT(test, piece, 0);
	sg_init_table(out, nents);
	for_each_sg(sgl, sg, sg_nents(sgl), i) {
		KUNIT_ASSERT_EQ(test, sg->length % piece, 0);
		for (off = 0; off < sg->length; off += piece)
			sg_set_page(&out[k++], sg_page(sg), piece,
				    sg->offset + off);
	}
	KUNIT_ASSERT_EQ(test, k, nents);
	return out;
}

/*
 * Data and PI lists of exactly as many entries as an integrity MR maps
 * are not too long: a WRITE with both cut into max_pi_fr_pages pieces
 * moves the same wire stream as with whole pages.
 */
static void sig_test_lists_at_limit(struct kunit *test)
{
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	u32 n = mock->profile->max_pi_fr_pages;
	size_t prot_len = SIG_DATA_LEN / 512 * SIG_TUPLE;
	struct sig_buf *buf = sig_buf_alloc(test, prot_len);
	u8 *prot = kunit_kmalloc(test, prot_len, GFP_KERNEL);
	struct scatterlist *data, *pi;
	struct ib_mr_status status;
	struct ib_sig_attrs attrs;
	struct rdma_rw_ctx ctx;
	int wqes;
	u8 *wire;

	sig_default_attrs(&attrs);
	wire = kunit_kmalloc(test, ib_sig_sw_wire_len(&attrs, SIG_DATA_LEN),
			     GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, prot);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	data = sig_pieces(test, buf->data_sg, n);
	pi = sig_pieces(test, buf->prot_sg, n);
	sig_stage(mock, buf, &attrs, DMA_TO_DEVICE, prot, wire);

	wqes = rdma_rw_ctx_signature_init(&ctx, mock->qp, SIG_PORT, data, n,
					  pi, n, &attrs,
					  mock->remote_addr + SIG_REMOTE_OFF,
					  mock->remote_rkey, DMA_TO_DEVICE);
	KUNIT_ASSERT_EQ(test, wqes, 2);
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, SIG_PORT,
						  &done.cqe, NULL));
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	KUNIT_EXPECT_EQ(test, done.status, IB_WC_SUCCESS);
	KUNIT_EXPECT_EQ(test, 0, ib_check_mr_status(ctx.reg->mr,
						    IB_MR_CHECK_SIG_STATUS,
						    &status));
	KUNIT_EXPECT_EQ(test, status.fail_status, 0);
	rdma_rw_ctx_destroy_signature(&ctx, mock->qp, SIG_PORT, data, n, pi, n,
				      DMA_TO_DEVICE);
	sig_check_placed(test, mock, buf, &attrs, prot, wire);
	sig_expect_pool_whole(test, mock, SIG_CTXS);
}

/* More PI entries than an integrity MR maps are refused the same way. */
static void sig_test_many_prot(struct kunit *test)
{
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	struct sig_buf *buf = sig_buf_alloc(test, SIG_DATA_LEN / 512 * SIG_TUPLE);
	u32 n = mock->profile->max_pi_fr_pages + 1;
	struct ib_sig_attrs attrs;
	struct rdma_rw_ctx ctx;

	sig_default_attrs(&attrs);
	rw_ctx_fresh(&ctx);
	rw_expect_refused(test, -EINVAL,
			  rdma_rw_ctx_signature_init(&ctx, mock->qp, SIG_PORT,
						     buf->data_sg,
						     buf->data_nents,
						     sig_long_list(test, buf, n),
						     n, &attrs,
						     mock->remote_addr,
						     mock->remote_rkey,
						     DMA_TO_DEVICE));
	KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
	sig_expect_pool_whole(test, mock, SIG_CTXS);
}

static void sig_dereg_mr(void *mr)
{
	ib_dereg_mr(mr);
}

/*
 * An integrity MR maps no more PI pages than it was allocated for, as on
 * hardware: rw.c's checks keep it from asking for more, so the mock's
 * limit is checked here directly, with PI that crosses a page boundary.
 */
static void sig_test_mock_pi_pages(struct kunit *test)
{
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	struct sig_buf *buf = sig_buf_alloc(test, SIG_DATA_LEN / 512 * SIG_TUPLE);
	struct ib_sig_attrs attrs;
	u32 meta_pages;

	KUNIT_ASSERT_EQ(test, buf->prot_nents, 2);
	KUNIT_ASSERT_EQ(test, SIG_PAGES, ib_dma_map_sg(mock->dev, buf->data_sg,
						       SIG_PAGES,
						       DMA_TO_DEVICE));
	KUNIT_ASSERT_EQ(test, 2, ib_dma_map_sg(mock->dev, buf->prot_sg, 2,
					       DMA_TO_DEVICE));
	sig_default_attrs(&attrs);
	for (meta_pages = 1; meta_pages <= 2; meta_pages++) {
		struct ib_mr *mr = ib_alloc_mr_integrity(mock->pd, SIG_PAGES,
							 meta_pages);

		KUNIT_ASSERT_FALSE(test, IS_ERR(mr));
		KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test,
								   sig_dereg_mr,
								   mr));
		*mr->sig_attrs = attrs;
		KUNIT_EXPECT_EQ_MSG(test, ib_map_mr_sg_pi(mr, buf->data_sg,
							  SIG_PAGES, NULL,
							  buf->prot_sg, 2,
							  NULL, SZ_4K) == 0,
				    meta_pages == 2,
				    "PI over 2 pages, MR of %u", meta_pages);
	}
	ib_dma_unmap_sg(mock->dev, buf->prot_sg, 2, DMA_TO_DEVICE);
	ib_dma_unmap_sg(mock->dev, buf->data_sg, SIG_PAGES, DMA_TO_DEVICE);
}

/*
 * Without integrity support there is no signature I/O: not on a device
 * without it, where an integrity QP cannot even be created, and not on a
 * QP created without IB_QP_CREATE_INTEGRITY_EN.
 */
static void sig_test_no_integrity(struct kunit *test)
{
	const struct ib_mock_profile *profiles[] = { &ib_mock_ib, &ib_mock_pi };
	struct sig_buf *buf = sig_buf_alloc(test, SIG_DATA_LEN / 512 * SIG_TUPLE);
	const u32 pi = IB_QP_CREATE_INTEGRITY_EN;
	struct ib_sig_attrs attrs;
	struct rdma_rw_ctx ctx;
	struct ib_mock *mock;
	u32 i;

	sig_default_attrs(&attrs);
	for (i = 0; i < ARRAY_SIZE(profiles); i++) {
		mock = ib_mock_create(test, profiles[i], SIG_CTXS, 0);
		rw_ctx_fresh(&ctx);
		rw_expect_refused(test, -EOPNOTSUPP,
				  sig_init(&ctx, mock, buf, &attrs,
					   DMA_TO_DEVICE));
		KUNIT_EXPECT_EQ(test, ctx.nr_ops, 0);
		KUNIT_EXPECT_EQ(test, mock->nr_posted, 0);
	}
	mock = ib_mock_create_device(test, &ib_mock_ib);
	KUNIT_EXPECT_EQ(test, -EOPNOTSUPP,
			PTR_ERR(ib_mock_create_qp(mock, SIG_CTXS, pi)));
}

/*
 * With every integrity MR taken the next signature I/O gets -EAGAIN, and
 * no fallback: plain MRs cannot carry PI.
 */
static void sig_test_pool_empty(struct kunit *test)
{
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	size_t prot_len = SIG_DATA_LEN / 512 * SIG_TUPLE;
	struct rdma_rw_ctx ctx[SIG_CTXS + 1];
	struct sig_buf *bufs[SIG_CTXS + 1];
	unsigned int plain = ib_mock_pool_free(mock, &mock->qp->rdma_mrs);
	struct ib_sig_attrs attrs;
	u32 i;

	sig_default_attrs(&attrs);
	for (i = 0; i <= SIG_CTXS; i++)
		bufs[i] = sig_buf_alloc(test, prot_len);
	for (i = 0; i < SIG_CTXS; i++)
		KUNIT_ASSERT_EQ(test, 2, sig_init(&ctx[i], mock, bufs[i], &attrs,
						  DMA_TO_DEVICE));
	rw_ctx_fresh(&ctx[SIG_CTXS]);
	KUNIT_EXPECT_EQ(test, -EAGAIN, sig_init(&ctx[SIG_CTXS], mock,
						bufs[SIG_CTXS], &attrs,
						DMA_TO_DEVICE));
	KUNIT_EXPECT_EQ(test, ctx[SIG_CTXS].nr_ops, 0);
	KUNIT_EXPECT_EQ(test, ib_mock_pool_free(mock, &mock->qp->rdma_mrs),
			plain);
	KUNIT_EXPECT_EQ(test, mock->qp->mrs_used, SIG_CTXS);

	/* The refused context too, where the series promises it is safe. */
	for (i = 0; i < SIG_CTXS + !RW_BASE; i++)
		sig_destroy(&ctx[i], mock, bufs[i], DMA_TO_DEVICE);
	sig_expect_pool_whole(test, mock, SIG_CTXS);
	KUNIT_EXPECT_EQ(test, mock->nr_posted, 0);
}

/*
 * An MR whose PI status was never checked cannot be registered again, as
 * on mlx5: the post fails at REG_MR_INTEGRITY.
 */
static void sig_test_unchecked_status(struct kunit *test)
{
	struct ib_mock *mock = sig_mock(test, 1);
	struct sig_buf *buf = sig_buf_alloc(test, SIG_DATA_LEN / 512 * SIG_TUPLE);
	struct ib_mock_done done = IB_MOCK_DONE_INIT;
	struct ib_mr_status status;
	struct ib_sig_attrs attrs;
	struct rdma_rw_ctx ctx;
	struct ib_mr *mr;

	sig_default_attrs(&attrs);
	KUNIT_ASSERT_EQ(test, 2, sig_init(&ctx, mock, buf, &attrs,
					  DMA_TO_DEVICE));
	mr = ctx.reg->mr;
	KUNIT_ASSERT_EQ(test, 0, rdma_rw_ctx_post(&ctx, mock->qp, SIG_PORT,
						  &done.cqe, NULL));
	KUNIT_EXPECT_EQ(test, ib_mock_poll(mock), 1);
	sig_destroy(&ctx, mock, buf, DMA_TO_DEVICE);

	KUNIT_ASSERT_EQ(test, 3, sig_init(&ctx, mock, buf, &attrs,
					  DMA_TO_DEVICE));
	KUNIT_EXPECT_EQ(test, -EINVAL, rdma_rw_ctx_post(&ctx, mock->qp,
							SIG_PORT, &done.cqe,
							NULL));
	KUNIT_EXPECT_EQ(test, 0, ib_check_mr_status(mr, IB_MR_CHECK_SIG_STATUS,
						    &status));
	sig_destroy(&ctx, mock, buf, DMA_TO_DEVICE);
	sig_expect_pool_whole(test, mock, 1);
}

/*
 * Whether a protection type disables checking for a tuple, as SBC-4 puts
 * it (and block/t10-pi.c verifies): Types 1 and 2 skip a block whose
 * application tag is FFFFh, Type 3 only when its reference tag is also
 * FFFFFFFFh.  Type 0 stands for attributes that ask for no escape.
 */
static bool sig_t10_escaped(int type, __be16 app, __be32 ref)
{
	if (!type || app != T10_PI_APP_ESCAPE)
		return false;
	return type != 3 || ref == T10_PI_REF_ESCAPE;
}

/*
 * T10 escapes, with the escape flags nvme-rdma, nvmet-rdma, iser and
 * isert set for each type: app_escape for Types 1 and 2, app_escape and
 * ref_escape for Type 3.  A tuple with a bad guard is reported unless
 * sig_t10_escaped() says the type skips it.  ref_escape alone, which no
 * ULP sets, escapes nothing: mlx5's BSF has no reference-only escape.
 */
static void sig_test_escapes(struct kunit *test)
{
	static const struct {
		int type;
		bool app_escape, ref_escape;
		u16 app_tag;
		u32 ref_tag;
	} cases[] = {
		{ 1, true, false, 0xffff, 0 },
		{ 1, true, false, 0xffff, 0xffffffff },
		{ 1, true, false, 0, 0xffffffff },
		{ 3, true, true, 0xffff, 0 },
		{ 3, true, true, 0xffff, 0xffffffff },
		{ 3, true, true, 0xfffe, 0xffffffff },
		{ 0, false, true, 0xffff, 0xffffffff },
		{ 0, false, false, 0xffff, 0xffffffff },
	};
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	size_t prot_len = SIG_DATA_LEN / 512 * SIG_TUPLE;
	struct sig_buf *buf = sig_buf_alloc(test, prot_len);
	struct sig_case sc = { DMA_TO_DEVICE, SIG_DIF_NONE, SIG_CRC, 512, true };
	struct t10_pi_tuple *prot = kunit_kmalloc(test, prot_len, GFP_KERNEL);
	u8 *wire = kunit_kmalloc(test, SIG_DATA_LEN, GFP_KERNEL);
	struct ib_mr_status status;
	struct ib_sig_attrs attrs;
	struct ib_mr *mr;
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, prot);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct t10_pi_tuple bad = {
			.guard_tag = cpu_to_be16(0xdead),
			.app_tag = cpu_to_be16(cases[i].app_tag),
			.ref_tag = cpu_to_be32(cases[i].ref_tag),
		};
		bool escaped = sig_t10_escaped(cases[i].type, bad.app_tag,
					       bad.ref_tag);

		sig_case_attrs(&sc, &attrs);
		attrs.mem.sig.dif.app_escape = cases[i].app_escape;
		attrs.mem.sig.dif.ref_escape = cases[i].ref_escape;
		sig_stage(mock, buf, &attrs, DMA_TO_DEVICE, (u8 *)prot, wire);
		prot[SIG_BAD_BLOCK] = bad;
		sig_copy_sg(buf->prot_sg, buf->prot_nents, (u8 *)prot,
			    prot_len, true);
		sig_do_io(test, mock, buf, &attrs, DMA_TO_DEVICE, &status, &mr);
		KUNIT_EXPECT_EQ_MSG(test, status.fail_status == 0, escaped,
				    "case %u", i);
	}
}

/*
 * PASS copies what both domains agree on and regenerates the rest: an
 * unchecked bad guard reaches the wire as it is when the guard types
 * match, and is replaced by a good one when they do not; reference tags
 * are renumbered from the wire domain's seed.
 */
static void sig_test_pass_copies(struct kunit *test)
{
	struct ib_mock *mock = sig_mock(test, SIG_CTXS);
	size_t prot_len = SIG_DATA_LEN / 512 * SIG_TUPLE;
	struct sig_buf *buf = sig_buf_alloc(test, prot_len);
	struct t10_pi_tuple *prot = kunit_kmalloc(test, prot_len, GFP_KERNEL);
	u8 *wire = kunit_kmalloc(test, SIG_DATA_LEN + prot_len, GFP_KERNEL);
	u8 *remote = mock->remote + SIG_REMOTE_OFF;
	struct ib_mr_status status;
	struct ib_sig_attrs attrs;
	struct ib_mr *mr;
	u32 mixed;

	KUNIT_ASSERT_NOT_NULL(test, prot);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	for (mixed = 0; mixed < 2; mixed++) {
		struct sig_case sc = { DMA_TO_DEVICE, SIG_DIF_DIF,
				       mixed ? SIG_CSUM_CRC : SIG_CRC, 512,
				       false };

		sig_case_attrs(&sc, &attrs);
		attrs.check_mask = IB_SIG_CHECK_APPTAG | IB_SIG_CHECK_REFTAG;
		attrs.wire.sig.dif.ref_tag = 7;
		sig_stage(mock, buf, &attrs, DMA_TO_DEVICE, (u8 *)prot, wire);
		prot[SIG_BAD_BLOCK].guard_tag ^= cpu_to_be16(0xffff);
		sig_copy_sg(buf->prot_sg, buf->prot_nents, (u8 *)prot,
			    prot_len, true);
		if (!mixed) {
			struct t10_pi_tuple *t = (void *)(wire +
							  SIG_BAD_BLOCK * 520 +
							  512);

			t->guard_tag ^= cpu_to_be16(0xffff);
		}

		sig_do_io(test, mock, buf, &attrs, DMA_TO_DEVICE, &status, &mr);
		KUNIT_EXPECT_EQ(test, status.fail_status, 0);
		sig_expect_bytes(test, remote, wire, SIG_DATA_LEN + prot_len,
				 "wire stream");
	}
}

/* The guard of @len bytes fed to the engine in two pieces, cut at @cut. */
static u16 sig_guard(const struct ib_t10_dif_domain *dif, const u8 *buf,
		     size_t len, size_t cut)
{
	struct ib_sig_sw_guard guard;

	ib_sig_sw_guard_init(&guard, dif);
	ib_sig_sw_guard_update(&guard, buf, cut);
	ib_sig_sw_guard_update(&guard, buf + cut, len - cut);
	return be16_to_cpu(ib_sig_sw_guard_final(&guard));
}

/*
 * The engine's guards against published values, the data fed whole and
 * in two pieces cut anywhere, odd lengths included: a device feeds each
 * interval as its packets and pages cut it.
 */
static void sig_test_guard_vectors(struct kunit *test)
{
	static const u8 digits[] = "123456789";
	/* RFC 1071's example: the words sum to 0xddf2. */
	static const u8 words[] = { 0x00, 0x01, 0xf2, 0x03,
				    0xf4, 0xf5, 0xf6, 0xf7 };
	struct ib_t10_dif_domain crc = { .bg_type = IB_T10DIF_CRC };
	struct ib_t10_dif_domain csum = { .bg_type = IB_T10DIF_CSUM };
	size_t cut;

	for (cut = 0; cut <= 9; cut++)
		KUNIT_EXPECT_EQ_MSG(test, sig_guard(&crc, digits, 9, cut),
				    0xd0db, "cut at %zu", cut);
	for (cut = 0; cut <= 8; cut++)
		KUNIT_EXPECT_EQ_MSG(test, sig_guard(&csum, words, 8, cut),
				    0x220d, "cut at %zu", cut);
	/* A CRC seed continues a CRC ... */
	crc.bg = crc_t10dif(digits, 4);
	KUNIT_EXPECT_EQ(test, sig_guard(&crc, digits + 4, 5, 1), 0xd0db);
	/* ... and a checksum seed is the sum so far. */
	csum.bg = 0x0001 + 0xf203;
	KUNIT_EXPECT_EQ(test, sig_guard(&csum, words + 4, 4, 1), 0x220d);
}

/*
 * The engine alone: memory to wire and back gives the same data and PI,
 * with reference tags renumbered on the way and back; and the layouts it
 * refuses.
 */
static void sig_test_engine(struct kunit *test)
{
	size_t prot_len = SIG_DATA_LEN / 512 * SIG_TUPLE;
	u8 *data = kunit_kmalloc(test, SIG_DATA_LEN, GFP_KERNEL);
	u8 *back = kunit_kzalloc(test, SIG_DATA_LEN, GFP_KERNEL);
	u8 *prot = kunit_kmalloc(test, prot_len, GFP_KERNEL);
	u8 *prot_back = kunit_kzalloc(test, prot_len, GFP_KERNEL);
	u8 *wire = kunit_kmalloc(test, SIG_DATA_LEN + prot_len, GFP_KERNEL);
	u8 *want = kunit_kmalloc(test, SIG_DATA_LEN + prot_len, GFP_KERNEL);
	struct ib_mock_pi_io io = { .data_len = SIG_DATA_LEN };
	struct ib_sig_attrs attrs;
	struct ib_sig_err err;
	size_t i;

	KUNIT_ASSERT_NOT_NULL(test, data);
	KUNIT_ASSERT_NOT_NULL(test, back);
	KUNIT_ASSERT_NOT_NULL(test, prot);
	KUNIT_ASSERT_NOT_NULL(test, prot_back);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	KUNIT_ASSERT_NOT_NULL(test, want);
	for (i = 0; i < SIG_DATA_LEN; i++)
		data[i] = sig_data_byte(i);
	sig_default_attrs(&attrs);
	attrs.wire.sig.dif.ref_tag = 1000;
	sig_make_prot(&attrs, data, SIG_DATA_LEN, (struct t10_pi_tuple *)prot);
	sig_make_wire(&attrs, data, SIG_DATA_LEN, want);

	io.attrs = &attrs;
	io.data = data;
	io.prot = prot;
	io.wire = wire;
	KUNIT_EXPECT_EQ(test, ib_sig_sw_validate(&attrs, SIG_DATA_LEN,
						 prot_len), 0);
	KUNIT_EXPECT_TRUE(test, ib_mock_pi_to_wire(&io, &err));
	sig_expect_bytes(test, wire, want, SIG_DATA_LEN + prot_len, "to wire");
	io.data = back;
	io.prot = prot_back;
	KUNIT_EXPECT_TRUE(test, ib_mock_pi_from_wire(&io, &err));
	sig_expect_bytes(test, back, data, SIG_DATA_LEN, "data back");
	sig_expect_bytes(test, prot_back, prot, prot_len, "PI back");

	KUNIT_EXPECT_EQ(test, ib_sig_sw_validate(&attrs, SIG_DATA_LEN - 512,
						 prot_len), 0);
	KUNIT_EXPECT_EQ(test, ib_sig_sw_validate(&attrs, SIG_DATA_LEN - 1,
						 prot_len), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_sig_sw_validate(&attrs, SIG_DATA_LEN,
						 prot_len - 1), -EINVAL);
	attrs.mem.sig.dif.pi_interval = 520;
	attrs.wire.sig.dif.pi_interval = 520;
	KUNIT_EXPECT_EQ(test, ib_sig_sw_validate(&attrs, 520, prot_len),
			-EINVAL);
}

#if IS_ENABLED(CONFIG_BLK_DEV_INTEGRITY)
/*
 * The block layer's own T10-PI code (block/t10-pi.c), reached the way a
 * block driver reaches it: through bios on a disk with an integrity
 * profile.  bio_integrity_prep() generates the PI of a WRITE, and the
 * completion of a READ verifies its PI.  No I/O goes to the disk.
 */
KUNIT_DEFINE_ACTION_WRAPPER(sig_put_disk, put_disk, struct gendisk *);

static struct gendisk *sig_pi_disk(struct kunit *test,
				   enum blk_integrity_checksum csum,
				   u32 interval, unsigned char flags)
{
	struct queue_limits lim = {
		.logical_block_size = interval,
		.integrity = {
			.csum_type = csum,
			.tuple_size = sizeof(struct t10_pi_tuple),
			.interval_exp = ilog2(interval),
			.flags = flags,
		},
	};
	struct gendisk *disk = blk_alloc_disk(&lim, NUMA_NO_NODE);

	KUNIT_ASSERT_FALSE(test, IS_ERR(disk));
	KUNIT_ASSERT_EQ(test, 0, kunit_add_action_or_reset(test, sig_put_disk,
							   disk));
	return disk;
}

static void sig_bio_done(struct bio *bio)
{
	complete(bio->bi_private);
}

/*
 * A bio over the data pages of @buf at @sector whose integrity payload
 * the block layer attached; generated if @op is a WRITE.
 */
static struct bio *sig_pi_bio(struct kunit *test, struct gendisk *disk,
			      struct sig_buf *buf, enum req_op op,
			      sector_t sector)
{
	struct bio *bio = bio_kmalloc(SIG_PAGES, GFP_KERNEL);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, bio);
	bio_init(bio, disk->part0, bio->bi_inline_vecs, SIG_PAGES, op);
	bio->bi_iter.bi_sector = sector;
	for (i = 0; i < SIG_PAGES; i++)
		__bio_add_page(bio, buf->pages[i], PAGE_SIZE, 0);
	KUNIT_ASSERT_TRUE(test, bio_integrity_prep(bio));
	KUNIT_ASSERT_NOT_NULL(test, bio_integrity(bio));
	return bio;
}

/* Complete @bio, which verifies a READ's PI; return its status. */
static blk_status_t sig_pi_bio_end(struct bio *bio)
{
	DECLARE_COMPLETION_ONSTACK(done);
	blk_status_t status;

	bio->bi_private = &done;
	bio->bi_end_io = sig_bio_done;
	bio_endio(bio);
	wait_for_completion(&done);
	status = bio->bi_status;
	bio_uninit(bio);
	kfree(bio);
	return status;
}

/*
 * The engine agrees with block/t10-pi.c: the memory PI it inserts equals
 * what the block layer generates for the same data and seed, and the wire
 * PI it inserts passes the block layer's verification (and a corrupted
 * copy does not).
 */
static void sig_test_engine_vs_block(struct kunit *test)
{
	static const struct {
		enum blk_integrity_checksum csum;
		enum ib_t10_dif_bg_type bg_type;
		u16 interval;
	} cases[] = {
		{ BLK_INTEGRITY_CSUM_CRC, IB_T10DIF_CRC, 512 },
		{ BLK_INTEGRITY_CSUM_CRC, IB_T10DIF_CRC, 4096 },
		{ BLK_INTEGRITY_CSUM_IP, IB_T10DIF_CSUM, 512 },
		{ BLK_INTEGRITY_CSUM_IP, IB_T10DIF_CSUM, 4096 },
	};
	const sector_t sector = 0x2468;
	size_t prot_max = SIG_DATA_LEN / 512 * SIG_TUPLE;
	struct sig_buf *buf = sig_buf_alloc(test, prot_max);
	u8 *data = buf->ref_data;
	u8 *prot = kunit_kmalloc(test, prot_max, GFP_KERNEL);
	u8 *wire = kunit_kmalloc(test, SIG_DATA_LEN + prot_max, GFP_KERNEL);
	u32 i, b;

	KUNIT_ASSERT_NOT_NULL(test, prot);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	sig_copy_sg(buf->data_sg, buf->data_nents, data, SIG_DATA_LEN, true);

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct gendisk *disk = sig_pi_disk(test, cases[i].csum,
						   cases[i].interval,
						   BLK_INTEGRITY_REF_TAG);
		u32 n = cases[i].interval, blocks = SIG_DATA_LEN / n;
		struct ib_sig_attrs attrs = {
			.check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_REFTAG,
		};
		struct ib_t10_dif_domain dif = {
			.bg_type = cases[i].bg_type,
			.pi_interval = n,
			.ref_tag = sector,
			.ref_remap = true,
		};
		struct ib_mock_pi_io io = {
			.attrs = &attrs,
			.data = data,
			.prot = prot,
			.wire = wire,
			.data_len = SIG_DATA_LEN,
		};
		struct ib_sig_err err;
		struct bio *bio;
		u8 *bip;

		/* Memory PI: the engine inserts, the block layer generates. */
		attrs.mem.sig_type = IB_SIG_TYPE_T10_DIF;
		attrs.mem.sig.dif = dif;
		memcpy(wire, data, SIG_DATA_LEN);
		KUNIT_EXPECT_TRUE(test, ib_mock_pi_from_wire(&io, &err));
		bio = sig_pi_bio(test, disk, buf, REQ_OP_WRITE, sector);
		KUNIT_EXPECT_MEMEQ_MSG(test, bvec_virt(bio_integrity(bio)->bip_vec),
				       prot, blocks * SIG_TUPLE, "case %u", i);
		KUNIT_EXPECT_EQ(test, sig_pi_bio_end(bio), BLK_STS_OK);

		/* Wire PI: the engine inserts, the block layer verifies. */
		attrs.mem.sig_type = IB_SIG_TYPE_NONE;
		attrs.wire.sig_type = IB_SIG_TYPE_T10_DIF;
		attrs.wire.sig.dif = dif;
		KUNIT_EXPECT_TRUE(test, ib_mock_pi_to_wire(&io, &err));
		for (b = 0; b < blocks; b++)
			memcpy(prot + b * SIG_TUPLE,
			       wire + b * (n + SIG_TUPLE) + n, SIG_TUPLE);
		for (b = 0; b < 2; b++) {
			bio = sig_pi_bio(test, disk, buf, REQ_OP_READ, sector);
			bip = bvec_virt(bio_integrity(bio)->bip_vec);
			memcpy(bip, prot, blocks * SIG_TUPLE);
			/* The second time, with the last guard broken. */
			bip[(blocks - 1) * SIG_TUPLE] ^= b;
			KUNIT_EXPECT_EQ_MSG(test, sig_pi_bio_end(bio),
					    b ? BLK_STS_PROTECTION : BLK_STS_OK,
					    "case %u", i);
		}
	}
}

/*
 * T10 escapes as block/t10-pi.c applies them: a tuple with a bad guard
 * under each escape value, judged by the block layer when it verifies a
 * READ on a Type 1 disk (reference tags) or a Type 3 disk (none), and by
 * the engine with the escape flags nvme-rdma and isert set for the type:
 * app_escape, and ref_escape too for Type 3.  The two must agree.
 */
static void sig_test_escapes_vs_block(struct kunit *test)
{
	static const struct {
		bool type3;
		u16 app_tag;
		u32 ref_tag;
	} cases[] = {
		{ false, 0xffff, 0 },
		{ false, 0xffff, 0xffffffff },
		{ false, 0x1234, 0xffffffff },
		{ true, 0xffff, 0 },
		{ true, 0xffff, 0xffffffff },
		{ true, 0xfffe, 0xffffffff },
	};
	const sector_t sector = 0x1357;
	size_t prot_len = SIG_DATA_LEN / 512 * SIG_TUPLE;
	struct sig_buf *buf = sig_buf_alloc(test, prot_len);
	u8 *prot = kunit_kmalloc(test, prot_len, GFP_KERNEL);
	u8 *wire = kunit_kmalloc(test, SIG_DATA_LEN, GFP_KERNEL);
	struct t10_pi_tuple *t = (void *)(prot + SIG_BAD_BLOCK * SIG_TUPLE);
	u32 i;

	KUNIT_ASSERT_NOT_NULL(test, prot);
	KUNIT_ASSERT_NOT_NULL(test, wire);
	sig_copy_sg(buf->data_sg, buf->data_nents, buf->ref_data,
		    SIG_DATA_LEN, true);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		bool type3 = cases[i].type3;
		struct gendisk *disk = sig_pi_disk(test, BLK_INTEGRITY_CSUM_CRC,
						   512, type3 ? 0 :
						   BLK_INTEGRITY_REF_TAG);
		struct ib_sig_attrs attrs = {
			.check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_APPTAG |
				      IB_SIG_CHECK_REFTAG,
			.mem.sig_type = IB_SIG_TYPE_T10_DIF,
			.mem.sig.dif = {
				.bg_type = IB_T10DIF_CRC,
				.pi_interval = 512,
				.ref_tag = type3 ? 0 : sector,
				.ref_remap = !type3,
				.app_escape = true,
				.ref_escape = type3,
				.apptag_check_mask = 0xffff,
			},
		};
		struct ib_mock_pi_io io = {
			.attrs = &attrs,
			.data = buf->ref_data,
			.prot = prot,
			.wire = wire,
			.data_len = SIG_DATA_LEN,
		};
		struct ib_sig_err err;
		struct bio *bio;
		bool block_ok;

		/* Every tuple as the block layer generates it, one spoiled. */
		bio = sig_pi_bio(test, disk, buf, REQ_OP_WRITE, sector);
		memcpy(prot, bvec_virt(bio_integrity(bio)->bip_vec), prot_len);
		sig_pi_bio_end(bio);
		t->guard_tag ^= cpu_to_be16(0x8001);
		t->app_tag = cpu_to_be16(cases[i].app_tag);
		t->ref_tag = cpu_to_be32(cases[i].ref_tag);

		bio = sig_pi_bio(test, disk, buf, REQ_OP_READ, sector);
		memcpy(bvec_virt(bio_integrity(bio)->bip_vec), prot, prot_len);
		block_ok = sig_pi_bio_end(bio) == BLK_STS_OK;
		KUNIT_EXPECT_EQ_MSG(test, ib_mock_pi_to_wire(&io, &err),
				    block_ok, "case %u", i);
	}
}
#endif /* CONFIG_BLK_DEV_INTEGRITY */

static int sig_suite_init(struct kunit_suite *suite)
{
	struct sig_case *c = sig_cases;
	u32 d, l, g, i, t;

	/* The base rw.c registers a WRITE's source writable. */
	ib_mock_lax_access = RW_BASE;
	for (d = 0; d < 2; d++)
		for (l = 0; l < 3; l++)
			for (g = 0; g < 3; g++)
				for (i = 0; i < 2; i++)
					for (t = 0; t < 2; t++)
						*c++ = (struct sig_case) {
							d ? DMA_FROM_DEVICE :
							    DMA_TO_DEVICE,
							l, g,
							i ? 4096 : 512,
							t,
						};
	return warn_watch_register();
}

static struct kunit_case sig_test_cases[] = {
	KUNIT_CASE_PARAM(sig_test_data, sig_case_gen),
	KUNIT_CASE_PARAM(sig_test_ulp, sig_ulp_gen_params),
	KUNIT_CASE_PARAM(sig_test_corrupt, sig_corrupt_gen_params),
	KUNIT_CASE(sig_test_chain),
	KUNIT_CASE(sig_test_send_queue_depth),
	KUNIT_CASE_PARAM(sig_test_refused, sig_refusal_gen_params),
	KUNIT_CASE(sig_test_lists_at_limit),
	KUNIT_CASE(sig_test_many_prot),
	KUNIT_CASE(sig_test_no_pi_list),
	KUNIT_CASE(sig_test_mock_pi_pages),
	KUNIT_CASE(sig_test_no_integrity),
	KUNIT_CASE(sig_test_pool_empty),
	KUNIT_CASE(sig_test_unchecked_status),
	KUNIT_CASE(sig_test_escapes),
	KUNIT_CASE(sig_test_pass_copies),
	KUNIT_CASE(sig_test_guard_vectors),
	KUNIT_CASE(sig_test_engine),
#if IS_ENABLED(CONFIG_BLK_DEV_INTEGRITY)
	KUNIT_CASE(sig_test_engine_vs_block),
	KUNIT_CASE(sig_test_escapes_vs_block),
#endif
	{}
};

static struct kunit_suite sig_test_suite = {
	.name = "ib_core_rw_sig",
	.suite_init = sig_suite_init,
	.suite_exit = warn_watch_suite_exit,
	.init = warn_watch_case_init,
	.test_cases = sig_test_cases,
};

kunit_test_suite(sig_test_suite);

MODULE_DESCRIPTION("KUnit tests for T10-PI offload in the RDMA R/W API");
MODULE_LICENSE("GPL");
