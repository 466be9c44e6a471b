// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of T10-PI signature offload in the RDMA R/W API:
 * rdma_rw_ctx_signature_init() and rdma_rw_ctx_destroy_signature(), run on
 * the integrity profile of the mock device, whose software T10-PI engine
 * (ib_mock_pi.c) does what an HCA does to data passing through an
 * integrity MR: every domain, guard, interval and T10 type, the attributes
 * the ULPs build, corruption caught where it was made, and the input rw.c
 * or the device refuses.  The expected PI is computed independently
 * (rw_sig_kunit_helpers.c); rw_sig_t10_kunit.c holds the engine to
 * published vectors and to the block layer.
 */
#include <kunit/test.h>
#include <linux/crc-t10dif.h>
#include <linux/mm.h>
#include <linux/scatterlist.h>
#include <linux/t10-pi.h>
#include <rdma/ib_sig_sw.h>
#include <rdma/rw.h>

#include "ib_mock.h"
#include "rw_sig_kunit_helpers.h"
#include "rw_under_test.h"
#include "warn_watch.h"

static const char *const sig_layout_names[] = {
	"none/dif", "dif/none", "dif/dif",
};

static const char *const sig_guard_names[] = { "crc", "csum", "csum/crc" };

static struct sig_case sig_cases[2 * 3 * 3 * 2 * 2];

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

/* rw.c sizes the wire stream by the interval: it must not divide by 0. */
static void sig_no_interval(struct kunit *test, struct ib_mock *mock,
			    struct sig_buf *buf, struct ib_sig_attrs *attrs,
			    enum dma_data_direction *dir)
{
	mock->sig_map_unchecked = true;
	attrs->mem.sig.dif.pi_interval = 0;
	attrs->wire.sig.dif.pi_interval = 0;
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
	{ "interval 0, mapped as mlx5 maps", -EINVAL, sig_no_interval, true },
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
	mock->sig_map_unchecked = false;
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
	ib_mock_expect_done(test, mock, &done);
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

static int sig_suite_init(struct kunit_suite *suite)
{
	struct sig_case *c = sig_cases;
	u32 d, l, g, i, t;

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
	return rw_suite_init_common(suite);
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
