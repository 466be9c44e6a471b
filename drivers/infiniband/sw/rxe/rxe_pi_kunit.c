// SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
/*
 * KUnit tests of rxe's T10-PI signature handover, through the verbs a ULP
 * calls: an rxe device on lo, an RC QP connected to itself with a 256-byte
 * path MTU, and RDMA WRITEs and READs between an integrity MR and plain
 * memory reached through the PD's global rkey.  The PI a test expects is
 * computed here with crc_t10dif() and the IP checksum, as block/t10-pi.c
 * does, never by the software engine that rxe runs.
 */
#include <kunit/test.h>
#include <linux/crc-t10dif.h>
#include <linux/etherdevice.h>
#include <linux/netdevice.h>
#include <linux/rtnetlink.h>
#include <linux/t10-pi.h>
#include <net/checksum.h>
#include <net/net_namespace.h>
#include <rdma/ib_cache.h>
#include <rdma/ib_verbs.h>

#include "rxe_net.h"

#define PI_DEV_NAME	"rxe_pi_kunit"
#define PI_TUPLE	sizeof(struct t10_pi_tuple)
#define PI_CQE		16
#define PI_WAIT_MS	2000

/* The device, made once for the suite. */
static struct ib_device *pi_dev;
static bool pi_opened_lo;

struct pi_test {
	struct ib_pd *pd;
	struct ib_cq *cq;
	struct ib_qp *qp;
	struct ib_mr *mr;
	struct scatterlist data_sg;
	struct scatterlist meta_sg;
	u8 *data;	/* the MR's data */
	u8 *meta;	/* the MR's PI, when memory carries PI */
	u8 *wire;	/* plain memory holding the wire format */
	u32 blocks;
	u32 interval;
};

/*
 * One transfer's layout and signature attributes: the guard on the wire
 * and, with @mem_pi, the guard of the PI in memory, which the device
 * converts to and from the wire's.
 */
struct pi_case {
	const char *name;
	u16 interval;
	enum ib_t10_dif_bg_type wire_bg;
	enum ib_t10_dif_bg_type mem_bg;
	bool mem_pi;
};

static const struct pi_case pi_cases[] = {
	{ "crc-512", 512, IB_T10DIF_CRC, IB_T10DIF_CRC, true },
	{ "crc-512-no-mem-pi", 512, IB_T10DIF_CRC, IB_T10DIF_CRC, false },
	{ "csum-512", 512, IB_T10DIF_CSUM, IB_T10DIF_CSUM, true },
	{ "crc-wire-csum-mem-512", 512, IB_T10DIF_CRC, IB_T10DIF_CSUM, true },
	{ "crc-4096", 4096, IB_T10DIF_CRC, IB_T10DIF_CRC, true },
	{ "csum-wire-crc-mem-4096", 4096, IB_T10DIF_CSUM, IB_T10DIF_CRC,
	  true },
	{ "csum-4096-no-mem-pi", 4096, IB_T10DIF_CSUM, IB_T10DIF_CSUM, false },
};

static void pi_case_desc(const struct pi_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pi_case, pi_cases, pi_case_desc);

#define PI_BLOCKS	3
#define PI_REF_SEED	0x1000
#define PI_APP_TAG	0x5a5a

/* The tuple of @buf, one interval, as block/t10-pi.c would generate it. */
static struct t10_pi_tuple pi_expect(const u8 *buf, u32 interval,
				     enum ib_t10_dif_bg_type bg, u32 block)
{
	struct t10_pi_tuple t = {
		.app_tag = cpu_to_be16(PI_APP_TAG),
		.ref_tag = cpu_to_be32(PI_REF_SEED + block),
	};

	if (bg == IB_T10DIF_CRC)
		t.guard_tag = cpu_to_be16(crc_t10dif(buf, interval));
	else
		t.guard_tag = (__force __be16)ip_compute_csum(buf, interval);
	return t;
}

static void pi_domain(struct ib_sig_domain *d, const struct pi_case *c,
		      enum ib_t10_dif_bg_type bg)
{
	d->sig_type = IB_SIG_TYPE_T10_DIF;
	d->sig.dif = (struct ib_t10_dif_domain) {
		.bg_type = bg,
		.pi_interval = c->interval,
		.app_tag = PI_APP_TAG,
		.ref_tag = PI_REF_SEED,
		.ref_remap = true,
		.apptag_check_mask = 0xffff,
	};
}

/* Wire and memory domains as @c says, all checks on. */
static void pi_attrs(struct ib_sig_attrs *a, const struct pi_case *c)
{
	memset(a, 0, sizeof(*a));
	a->check_mask = IB_SIG_CHECK_GUARD | IB_SIG_CHECK_APPTAG |
			IB_SIG_CHECK_REFTAG;
	pi_domain(&a->wire, c, c->wire_bg);
	if (c->mem_pi)
		pi_domain(&a->mem, c, c->mem_bg);
	else
		a->mem.sig_type = IB_SIG_TYPE_NONE;
}

static u32 pi_wire_len(const struct pi_test *p)
{
	return p->blocks * (p->interval + PI_TUPLE);
}

/* Post @wr, signaled, and wait for its completion. */
static int pi_post(struct kunit *test, struct pi_test *p,
		   struct ib_send_wr *wr, enum ib_wc_status *status)
{
	const struct ib_send_wr *bad;
	unsigned long end = jiffies + msecs_to_jiffies(PI_WAIT_MS);
	struct ib_wc wc;
	int ret;

	wr->send_flags |= IB_SEND_SIGNALED;
	ret = ib_post_send(p->qp, wr, &bad);
	if (ret)
		return ret;
	while (!ib_poll_cq(p->cq, 1, &wc)) {
		if (time_after(jiffies, end)) {
			KUNIT_FAIL(test, "no completion in %d ms", PI_WAIT_MS);
			return -ETIMEDOUT;
		}
		usleep_range(100, 200);
	}
	*status = wc.status;
	return 0;
}

/* REG_MR_INTEGRITY of the test's MR: the errno of the post, or 0. */
static int pi_reg(struct kunit *test, struct pi_test *p, int access)
{
	struct ib_reg_wr wr = {
		.wr.opcode = IB_WR_REG_MR_INTEGRITY,
		.mr = p->mr,
		.key = p->mr->rkey,
		.access = access,
	};
	enum ib_wc_status status;
	int ret;

	ret = pi_post(test, p, &wr.wr, &status);
	if (!ret)
		KUNIT_EXPECT_EQ(test, status, IB_WC_SUCCESS);
	return ret;
}

/*
 * LOCAL_INV of the test's MR and a new key for it: a registered MR takes
 * a new registration only once invalidated.
 */
static void pi_invalidate(struct kunit *test, struct pi_test *p)
{
	struct ib_send_wr wr = {
		.opcode = IB_WR_LOCAL_INV,
		.ex.invalidate_rkey = p->mr->rkey,
	};
	enum ib_wc_status status;

	KUNIT_ASSERT_EQ(test, pi_post(test, p, &wr, &status), 0);
	KUNIT_ASSERT_EQ(test, status, IB_WC_SUCCESS);
	ib_update_fast_reg_key(p->mr, ib_inc_rkey(p->mr->rkey) & 0xff);
}

#define PI_ACCESS	(IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_READ | \
			 IB_ACCESS_REMOTE_WRITE)

/* RDMA @opcode of @len bytes between @lkey at @laddr and @rkey at @raddr. */
static void pi_rdma(struct kunit *test, struct pi_test *p,
		    enum ib_wr_opcode opcode, u32 lkey, u64 laddr, u32 rkey,
		    u64 raddr, u32 len)
{
	struct ib_sge sge = { .addr = laddr, .length = len, .lkey = lkey };
	struct ib_rdma_wr wr = {
		.wr.opcode = opcode,
		.wr.sg_list = &sge,
		.wr.num_sge = 1,
		.remote_addr = raddr,
		.rkey = rkey,
	};
	enum ib_wc_status status;

	KUNIT_ASSERT_EQ(test, pi_post(test, p, &wr.wr, &status), 0);
	KUNIT_ASSERT_EQ(test, status, IB_WC_SUCCESS);
}

static u64 pi_va(const void *buf)
{
	return (u64)(uintptr_t)buf;
}

/* The MR's PI status, checked: 0 or the error found. */
static void pi_status(struct kunit *test, struct pi_test *p,
		      struct ib_mr_status *st)
{
	KUNIT_ASSERT_EQ(test, ib_check_mr_status(p->mr, IB_MR_CHECK_SIG_STATUS,
						 st), 0);
}

static void pi_expect_clean(struct kunit *test, struct pi_test *p)
{
	struct ib_mr_status st;

	pi_status(test, p, &st);
	KUNIT_EXPECT_FALSE(test, st.fail_status & IB_MR_CHECK_SIG_STATUS);
}

/* Data of @blocks intervals and, with @c->mem_pi, room for their PI. */
static void pi_buffers(struct kunit *test, struct pi_test *p,
		       const struct pi_case *c)
{
	u32 i;

	p->blocks = PI_BLOCKS;
	p->interval = c->interval;
	p->data = kunit_kzalloc(test, p->blocks * p->interval, GFP_KERNEL);
	p->meta = kunit_kzalloc(test, p->blocks * PI_TUPLE, GFP_KERNEL);
	p->wire = kunit_kzalloc(test, pi_wire_len(p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p->data);
	KUNIT_ASSERT_NOT_NULL(test, p->meta);
	KUNIT_ASSERT_NOT_NULL(test, p->wire);
	for (i = 0; i < p->blocks * p->interval; i++)
		p->data[i] = i * 7 + i / 251;
}

/*
 * Map the test's data and @meta_len bytes of its PI buffer (none without
 * @mem_pi) into its MR.  rxe's DMA addresses are kernel virtual addresses
 * and its unmapping does nothing, so the buffers are never unmapped.
 */
static void pi_map_len(struct kunit *test, struct pi_test *p, bool mem_pi,
		       u32 meta_len)
{
	int ret;

	sg_init_one(&p->data_sg, p->data, p->blocks * p->interval);
	sg_init_one(&p->meta_sg, p->meta, meta_len);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(pi_dev, &p->data_sg, 1,
					    DMA_BIDIRECTIONAL), 1);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(pi_dev, &p->meta_sg, 1,
					    DMA_BIDIRECTIONAL), 1);
	ret = ib_map_mr_sg_pi(p->mr, &p->data_sg, 1, NULL,
			      mem_pi ? &p->meta_sg : NULL, mem_pi ? 1 : 0,
			      NULL, PAGE_SIZE);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

/*
 * Give the test's MR the attributes of @c and map its buffers, in the
 * order rw.c does: the mapping sets the attributes' meta_length.
 */
static void pi_map(struct kunit *test, struct pi_test *p,
		   const struct pi_case *c)
{
	pi_attrs(p->mr->sig_attrs, c);
	pi_map_len(test, p, c->mem_pi, p->blocks * PI_TUPLE);
}

/* @wire as the wire domain carries the test's data. */
static void pi_wire_format(struct pi_test *p, const struct pi_case *c,
			   u8 *wire)
{
	u32 i;

	for (i = 0; i < p->blocks; i++) {
		const u8 *d = p->data + i * p->interval;
		struct t10_pi_tuple t = pi_expect(d, p->interval, c->wire_bg,
						  i);
		u8 *w = wire + i * (p->interval + PI_TUPLE);

		memcpy(w, d, p->interval);
		memcpy(w + p->interval, &t, PI_TUPLE);
	}
}

/* @meta as block/t10-pi.c would fill the PI buffer of the test's data. */
static void pi_mem_format(struct pi_test *p, const struct pi_case *c, u8 *meta)
{
	u32 i;

	for (i = 0; i < p->blocks; i++) {
		struct t10_pi_tuple t = pi_expect(p->data + i * p->interval,
						  p->interval, c->mem_bg, i);

		memcpy(meta + i * PI_TUPLE, &t, PI_TUPLE);
	}
}

static void pi_expect_mem_pi(struct kunit *test, struct pi_test *p,
			     const struct pi_case *c)
{
	u8 *expect = kunit_kzalloc(test, p->blocks * PI_TUPLE, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, expect);
	pi_mem_format(p, c, expect);
	KUNIT_EXPECT_MEMEQ(test, p->meta, expect, p->blocks * PI_TUPLE);
}

/*
 * For data coming into the test's MR: the wire format of its data in the
 * plain buffer, the MR's memory cleared, mapped and registered.  Returns
 * the data the memory must end up with.
 */
static u8 *pi_inbound(struct kunit *test, struct pi_test *p,
		      const struct pi_case *c)
{
	u32 len;
	u8 *expect;

	pi_buffers(test, p, c);
	len = p->blocks * p->interval;
	pi_wire_format(p, c, p->wire);
	expect = kunit_kmalloc(test, len, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expect);
	memcpy(expect, p->data, len);
	memset(p->data, 0, len);
	pi_map(test, p, c);
	KUNIT_ASSERT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);
	return expect;
}

/* The data arrived as @expect, with its PI when memory carries PI. */
static void pi_expect_inbound(struct kunit *test, struct pi_test *p,
			      const struct pi_case *c, const u8 *expect)
{
	KUNIT_EXPECT_MEMEQ(test, p->data, expect, p->blocks * p->interval);
	if (c->mem_pi)
		pi_expect_mem_pi(test, p, c);
	pi_expect_clean(test, p);
}

/*
 * RDMA WRITE out of an integrity MR: the wire gets each interval followed
 * by its tuple, generated (no PI in memory) or checked and passed on.
 */
static void rxe_pi_write_from_mr(struct kunit *test)
{
	const struct pi_case *c = test->param_value;
	struct pi_test *p = test->priv;
	u8 *expect;

	pi_buffers(test, p, c);
	expect = kunit_kzalloc(test, pi_wire_len(p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expect);
	pi_wire_format(p, c, expect);
	if (c->mem_pi)
		pi_mem_format(p, c, p->meta);
	pi_map(test, p, c);
	KUNIT_ASSERT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);

	pi_rdma(test, p, IB_WR_RDMA_WRITE, p->mr->lkey, 0,
		p->pd->unsafe_global_rkey, pi_va(p->wire), pi_wire_len(p));
	KUNIT_EXPECT_MEMEQ(test, p->wire, expect, pi_wire_len(p));
	pi_expect_clean(test, p);
}

/*
 * RDMA READ into an integrity MR: the data lands without its tuples, and
 * with PI in memory the tuples land in the PI buffer.
 */
static void rxe_pi_read_into_mr(struct kunit *test)
{
	const struct pi_case *c = test->param_value;
	struct pi_test *p = test->priv;
	u8 *expect;

	expect = pi_inbound(test, p, c);

	pi_rdma(test, p, IB_WR_RDMA_READ, p->mr->lkey, 0,
		p->pd->unsafe_global_rkey, pi_va(p->wire), pi_wire_len(p));
	pi_expect_inbound(test, p, c, expect);
}

/*
 * The integrity MR as the responder's target: two RDMA WRITEs through its
 * rkey, the first ending inside the first tuple.  Packets deliver that
 * tuple in two pieces, and the memory must end up as if in one.
 */
static void rxe_pi_remote_write_split_tuple(struct kunit *test)
{
	const struct pi_case *c = test->param_value;
	struct pi_test *p = test->priv;
	u32 cut = c->interval + PI_TUPLE / 2;
	u8 *expect;

	expect = pi_inbound(test, p, c);

	pi_rdma(test, p, IB_WR_RDMA_WRITE, p->pd->local_dma_lkey,
		pi_va(p->wire), p->mr->rkey, 0, cut);
	pi_rdma(test, p, IB_WR_RDMA_WRITE, p->pd->local_dma_lkey,
		pi_va(p->wire + cut), p->mr->rkey, cut, pi_wire_len(p) - cut);
	pi_expect_inbound(test, p, c, expect);
}

/*
 * A bad guard on the wire: the READ still completes and moves the data,
 * as on mlx5, and the error waits in the MR, which cannot be registered
 * again until its status has been checked.  The offset is where the
 * interval starts on the wire, which isert divides by the interval plus
 * the tuple to find the failing block.
 */
static void rxe_pi_bad_guard_found(struct kunit *test)
{
	const struct pi_case c = pi_cases[0];
	struct pi_test *p = test->priv;
	struct t10_pi_tuple *bad;
	struct ib_mr_status st;
	u16 good;

	pi_buffers(test, p, &c);
	pi_wire_format(p, &c, p->wire);
	bad = (void *)(p->wire + 2 * p->interval + PI_TUPLE);
	good = be16_to_cpu(bad->guard_tag);
	bad->guard_tag = cpu_to_be16(good ^ 0x8001);
	pi_map(test, p, &c);
	KUNIT_ASSERT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);

	pi_rdma(test, p, IB_WR_RDMA_READ, p->mr->lkey, 0,
		p->pd->unsafe_global_rkey, pi_va(p->wire), pi_wire_len(p));
	KUNIT_EXPECT_EQ(test, pi_reg(test, p, PI_ACCESS), -EINVAL);

	pi_status(test, p, &st);
	KUNIT_ASSERT_TRUE(test, st.fail_status & IB_MR_CHECK_SIG_STATUS);
	KUNIT_EXPECT_EQ(test, st.sig_err.err_type, IB_SIG_BAD_GUARD);
	KUNIT_EXPECT_EQ(test, st.sig_err.expected, good);
	KUNIT_EXPECT_EQ(test, st.sig_err.actual, good ^ 0x8001);
	KUNIT_EXPECT_EQ(test, st.sig_err.key, p->mr->lkey);
	KUNIT_EXPECT_EQ(test, div_u64(st.sig_err.sig_err_offset,
				      p->interval + PI_TUPLE), 1);
	KUNIT_EXPECT_MEMEQ(test, p->data + p->interval,
			   p->wire + p->interval + PI_TUPLE, p->interval);

	/* Reported once; invalidated, the MR registers again. */
	pi_expect_clean(test, p);
	pi_invalidate(test, p);
	KUNIT_EXPECT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);
}

/* ib_map_mr_sg_pi(): a zero-based MR over the data and the PI. */
static void rxe_pi_map_layout(struct kunit *test)
{
	const struct pi_case c = pi_cases[0];
	struct pi_test *p = test->priv;

	pi_buffers(test, p, &c);
	pi_map(test, p, &c);
	KUNIT_EXPECT_EQ(test, p->mr->iova, 0);
	KUNIT_EXPECT_EQ(test, p->mr->length,
			p->blocks * (p->interval + PI_TUPLE));
	KUNIT_EXPECT_EQ(test, p->mr->sig_attrs->meta_length,
			p->blocks * PI_TUPLE);
}

/* More entries than the MR was allocated for, or than the device allows. */
static void rxe_pi_too_many_entries(struct kunit *test)
{
	u32 max = pi_dev->attrs.max_pi_fast_reg_page_list_len;
	struct pi_test *p = test->priv;
	struct scatterlist sg[3];
	struct ib_mr *mr;
	u8 *buf;

	mr = ib_alloc_mr_integrity(p->pd, max + 1, 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EINVAL);
	mr = ib_alloc_mr_integrity(p->pd, 1, max + 1);
	KUNIT_EXPECT_EQ(test, PTR_ERR_OR_ZERO(mr), -EINVAL);

	buf = kunit_kzalloc(test, 3 * 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	sg_init_table(sg, 3);
	sg_set_buf(&sg[0], buf, 512);
	sg_set_buf(&sg[1], buf + 512, 512);
	sg_set_buf(&sg[2], buf + 1024, 512);
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(pi_dev, sg, 3, DMA_BIDIRECTIONAL),
			3);
	/* The test's MR takes two data entries and one PI entry. */
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(p->mr, sg, 3, NULL, sg, 1, NULL,
					      PAGE_SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(p->mr, sg, 2, NULL, sg, 2, NULL,
					      PAGE_SIZE), -EINVAL);
	KUNIT_EXPECT_EQ(test, ib_map_mr_sg_pi(p->mr, sg, 2, NULL, sg + 2, 1,
					      NULL, PAGE_SIZE), 0);
}

/* A REG_MR_INTEGRITY that the device cannot run: how to spoil it. */
struct pi_refusal {
	const char *name;
	void (*spoil)(struct ib_sig_attrs *a, int *access, u32 *meta_len);
};

static void spoil_interval(struct ib_sig_attrs *a, int *access, u32 *len)
{
	a->mem.sig.dif.pi_interval = 1024;
	a->wire.sig.dif.pi_interval = 1024;
}

static void spoil_domains(struct ib_sig_attrs *a, int *access, u32 *len)
{
	a->wire.sig.dif.pi_interval = 4096;
}

static void spoil_guard(struct ib_sig_attrs *a, int *access, u32 *len)
{
	a->wire.sig.dif.bg_type = IB_T10DIF_CSUM + 1;
}

static void spoil_short_pi(struct ib_sig_attrs *a, int *access, u32 *len)
{
	*len -= PI_TUPLE;
}

static void spoil_atomic(struct ib_sig_attrs *a, int *access, u32 *len)
{
	*access |= IB_ACCESS_REMOTE_ATOMIC;
}

static const struct pi_refusal pi_refusals[] = {
	{ "interval-1024", spoil_interval },
	{ "intervals-differ", spoil_domains },
	{ "unknown-guard", spoil_guard },
	{ "short-pi-buffer", spoil_short_pi },
	{ "atomic-access", spoil_atomic },
};

static void pi_refusal_desc(const struct pi_refusal *r, char *desc)
{
	strscpy(desc, r->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(pi_refusal, pi_refusals, pi_refusal_desc);

/*
 * Refused at post time with -EINVAL, as mlx5 refuses it, and nothing is
 * left behind: the same MR registers and moves data right after.
 */
static void rxe_pi_reg_refused(struct kunit *test)
{
	const struct pi_refusal *r = test->param_value;
	const struct pi_case c = pi_cases[0];
	struct pi_test *p = test->priv;
	u32 meta_len = PI_BLOCKS * PI_TUPLE;
	struct ib_sig_attrs attrs;
	int access = PI_ACCESS;

	pi_buffers(test, p, &c);
	pi_attrs(&attrs, &c);
	r->spoil(&attrs, &access, &meta_len);
	*p->mr->sig_attrs = attrs;
	pi_map_len(test, p, true, meta_len);
	KUNIT_EXPECT_EQ(test, pi_reg(test, p, access), -EINVAL);

	pi_map(test, p, &c);
	KUNIT_ASSERT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);
	pi_rdma(test, p, IB_WR_RDMA_WRITE, p->mr->lkey, 0,
		p->pd->unsafe_global_rkey, pi_va(p->wire), pi_wire_len(p));
	KUNIT_EXPECT_MEMEQ(test, p->wire, p->data, p->interval);
}

/* REG_MR and REG_MR_INTEGRITY each take only their own kind of MR. */
static void rxe_pi_reg_wrong_mr_type(struct kunit *test)
{
	struct pi_test *p = test->priv;
	struct ib_reg_wr wr = { .access = PI_ACCESS };
	enum ib_wc_status status;
	struct ib_mr *plain;

	plain = ib_alloc_mr(p->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(plain));
	wr.wr.opcode = IB_WR_REG_MR_INTEGRITY;
	wr.mr = plain;
	wr.key = plain->rkey;
	KUNIT_EXPECT_EQ(test, pi_post(test, p, &wr.wr, &status), -EINVAL);
	wr.wr.opcode = IB_WR_REG_MR;
	wr.mr = p->mr;
	wr.key = p->mr->rkey;
	KUNIT_EXPECT_EQ(test, pi_post(test, p, &wr.wr, &status), -EINVAL);
	ib_dereg_mr(plain);
}

/* An RC QP connected to itself over the device's IPv4 GID of lo. */
static int pi_connect(struct ib_qp *qp)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = IB_ACCESS_REMOTE_READ |
				   IB_ACCESS_REMOTE_WRITE,
	};
	const struct ib_gid_attr *sgid;
	union ib_gid gid = {};
	int ret;

	ipv6_addr_set_v4mapped(htonl(INADDR_LOOPBACK),
			       (struct in6_addr *)gid.raw);
	sgid = rdma_find_gid_by_port(pi_dev, &gid, IB_GID_TYPE_ROCE_UDP_ENCAP,
				     1, NULL);
	if (IS_ERR(sgid))
		return PTR_ERR(sgid);

	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_PKEY_INDEX |
			   IB_QP_PORT | IB_QP_ACCESS_FLAGS);
	if (ret)
		goto out;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTR;
	attr.path_mtu = IB_MTU_256;
	attr.dest_qp_num = qp->qp_num;
	attr.max_dest_rd_atomic = 1;
	attr.min_rnr_timer = 1;
	attr.ah_attr.type = RDMA_AH_ATTR_TYPE_ROCE;
	rdma_ah_set_port_num(&attr.ah_attr, 1);
	rdma_ah_set_grh(&attr.ah_attr, &gid, 0, sgid->index, 64, 0);
	/* lo's address, all zeroes: rxe loops the packets back. */
	eth_zero_addr(attr.ah_attr.roce.dmac);
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_AV |
			   IB_QP_PATH_MTU | IB_QP_DEST_QPN | IB_QP_RQ_PSN |
			   IB_QP_MAX_DEST_RD_ATOMIC | IB_QP_MIN_RNR_TIMER);
	if (ret)
		goto out;

	memset(&attr, 0, sizeof(attr));
	attr.qp_state = IB_QPS_RTS;
	attr.timeout = 14;
	attr.retry_cnt = 7;
	attr.rnr_retry = 7;
	attr.max_rd_atomic = 1;
	ret = ib_modify_qp(qp, &attr, IB_QP_STATE | IB_QP_TIMEOUT |
			   IB_QP_RETRY_CNT | IB_QP_RNR_RETRY | IB_QP_SQ_PSN |
			   IB_QP_MAX_QP_RD_ATOMIC);
out:
	rdma_put_gid_attr(sgid);
	return ret;
}

static int rxe_pi_test_init(struct kunit *test)
{
	struct ib_cq_init_attr cq_attr = { .cqe = PI_CQE };
	struct ib_qp_init_attr qp_attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.create_flags = IB_QP_CREATE_INTEGRITY_EN,
		.cap = {
			.max_send_wr = PI_CQE / 2,
			.max_recv_wr = 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	struct pi_test *p;

	if (!pi_dev)
		kunit_skip(test, "no rxe device on lo");
	p = kunit_kzalloc(test, sizeof(*p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	test->priv = p;

	p->pd = ib_alloc_pd(pi_dev, IB_PD_UNSAFE_GLOBAL_RKEY);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->pd));
	p->cq = ib_create_cq(pi_dev, NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->cq));
	qp_attr.send_cq = p->cq;
	qp_attr.recv_cq = p->cq;
	p->qp = ib_create_qp(p->pd, &qp_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->qp));
	KUNIT_ASSERT_EQ(test, pi_connect(p->qp), 0);
	p->mr = ib_alloc_mr_integrity(p->pd, 2, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->mr));
	return 0;
}

static void rxe_pi_test_exit(struct kunit *test)
{
	struct pi_test *p = test->priv;

	if (!p)
		return;
	if (!IS_ERR_OR_NULL(p->mr))
		ib_dereg_mr(p->mr);
	if (!IS_ERR_OR_NULL(p->qp))
		ib_destroy_qp(p->qp);
	if (!IS_ERR_OR_NULL(p->cq))
		ib_destroy_cq(p->cq);
	if (!IS_ERR_OR_NULL(p->pd))
		ib_dealloc_pd(p->pd);
}

/* lo up, with 127.0.0.1, and an rxe device on it. */
static int rxe_pi_suite_init(struct kunit_suite *suite)
{
	struct net_device *lo = init_net.loopback_dev;
	int ret = 0;

	rtnl_lock();
	if (!(lo->flags & IFF_UP)) {
		ret = dev_open(lo, NULL);
		pi_opened_lo = !ret;
	}
	rtnl_unlock();
	if (ret)
		return ret;
	ret = rxe_net_add(PI_DEV_NAME, lo);
	if (ret)
		return ret;
	pi_dev = ib_device_get_by_name(PI_DEV_NAME, RDMA_DRIVER_RXE);
	return pi_dev ? 0 : -ENODEV;
}

static void rxe_pi_suite_exit(struct kunit_suite *suite)
{
	if (pi_dev)
		ib_unregister_device_and_put(pi_dev);
	pi_dev = NULL;
	if (pi_opened_lo) {
		rtnl_lock();
		dev_close(init_net.loopback_dev);
		rtnl_unlock();
	}
}

static struct kunit_case rxe_pi_cases[] = {
	KUNIT_CASE_PARAM(rxe_pi_write_from_mr, pi_case_gen_params),
	KUNIT_CASE_PARAM(rxe_pi_read_into_mr, pi_case_gen_params),
	KUNIT_CASE_PARAM(rxe_pi_remote_write_split_tuple, pi_case_gen_params),
	KUNIT_CASE(rxe_pi_bad_guard_found),
	KUNIT_CASE(rxe_pi_map_layout),
	KUNIT_CASE(rxe_pi_too_many_entries),
	KUNIT_CASE_PARAM(rxe_pi_reg_refused, pi_refusal_gen_params),
	KUNIT_CASE(rxe_pi_reg_wrong_mr_type),
	{}
};

static struct kunit_suite rxe_pi_suite = {
	.name = "rxe_pi",
	.suite_init = rxe_pi_suite_init,
	.suite_exit = rxe_pi_suite_exit,
	.init = rxe_pi_test_init,
	.exit = rxe_pi_test_exit,
	.test_cases = rxe_pi_cases,
};

kunit_test_suite(rxe_pi_suite);

MODULE_DESCRIPTION("KUnit tests of rxe's T10-PI signature handover");
MODULE_LICENSE("Dual BSD/GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
