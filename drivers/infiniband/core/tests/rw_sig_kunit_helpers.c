// SPDX-License-Identifier: GPL-2.0-only
/*
 * The signature suites' helpers (rw_sig_kunit_helpers.h).  The expected PI
 * is computed here, independently of the engine under test, with the
 * kernel's CRC16 T10-DIF and IP checksum helpers.
 */
#include <linux/crc-t10dif.h>
#include <linux/mm.h>
#include <net/checksum.h>
#include <rdma/ib_sig_sw.h>

#include "rw_sig_kunit_helpers.h"
#include "rw_under_test.h"

/* Remote bytes on each side of the stream that must stay untouched. */
#define SIG_MARGIN	64

u8 sig_data_byte(size_t pos)
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
void sig_set_prot(struct sig_buf *buf, size_t prot_len)
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

struct sig_buf *sig_buf_alloc(struct kunit *test, size_t prot_len)
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
void sig_copy_sg(struct scatterlist *sgl, u32 nents, u8 *lin,
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
void sig_make_prot(const struct ib_sig_attrs *attrs, const u8 *data,
		   size_t len, struct t10_pi_tuple *prot)
{
	const struct ib_t10_dif_domain *mem = sig_dif(&attrs->mem);
	u32 i;

	for (i = 0; mem && i < len / mem->pi_interval; i++)
		prot[i] = sig_tuple(mem, data + i * mem->pi_interval, i);
}

/* The wire stream of @data as the wire domain wants it. */
void sig_make_wire(const struct ib_sig_attrs *attrs, const u8 *data,
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
void sig_expect_bytes(struct kunit *test, const u8 *got,
		      const u8 *want, size_t len, const char *what)
{
	size_t i = 0;

	while (i < len && got[i] == want[i])
		i++;
	KUNIT_EXPECT_EQ_MSG(test, i, len, "%s: first wrong byte at %zu of %zu",
			    what, i, len);
}

struct ib_mock *sig_mock(struct kunit *test, u32 ctxs)
{
	return ib_mock_create(test, &ib_mock_pi, ctxs,
			      IB_QP_CREATE_INTEGRITY_EN);
}

int sig_init(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
	     struct sig_buf *buf, struct ib_sig_attrs *attrs,
	     enum dma_data_direction dir)
{
	return rdma_rw_ctx_signature_init(ctx, mock->qp, SIG_PORT,
					  buf->data_sgl, buf->data_nents,
					  buf->prot_sg, buf->prot_nents, attrs,
					  mock->remote_addr + SIG_REMOTE_OFF,
					  mock->remote_rkey, dir);
}

void sig_destroy(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
		 struct sig_buf *buf, enum dma_data_direction dir)
{
	rdma_rw_ctx_destroy_signature(ctx, mock->qp, SIG_PORT, buf->data_sgl,
				      buf->data_nents, buf->prot_sg,
				      buf->prot_nents, dir);
}

/* Nothing taken: every integrity MR back in its pool. */
void sig_expect_pool_whole(struct kunit *test, struct ib_mock *mock,
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
int sig_do_io(struct kunit *test, struct ib_mock *mock,
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
	ib_mock_expect_done(test, mock, &done);
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
void sig_stage(struct ib_mock *mock, struct sig_buf *buf,
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
void sig_check_placed(struct kunit *test, struct ib_mock *mock,
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
void sig_run_clean(struct kunit *test, struct ib_mock *mock,
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

void sig_case_attrs(const struct sig_case *c,
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

/* DIF in both domains, CRC, 512-byte intervals, Type 1. */
void sig_default_attrs(struct ib_sig_attrs *attrs)
{
	struct sig_case c = { DMA_TO_DEVICE, SIG_DIF_DIF, SIG_CRC, 512, false };

	sig_case_attrs(&c, attrs);
}
