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

#include "rxe.h"
#include "rxe_net.h"
#include "rxe_queue.h"

#define PI_DEV_NAME	"rxe_pi_kunit"
#define PI_TUPLE	sizeof(struct t10_pi_tuple)
#define PI_CQE		16
#define PI_WAIT_MS	2000

/* The device, made once for the suite. */
static struct ib_device *pi_dev;
static bool pi_opened_lo;

/*
 * A peer and the QP that answers it: @victim stands for a host's QP, in
 * the PD of the test's integrity MR, granting every remote access a QP
 * can grant, so that only the MR's own rules stand between the peer and
 * the MR; @peer is a plain RC QP, as a target or any other host has.
 */
struct pi_peer {
	struct ib_cq *cq;
	struct ib_qp *victim;
	struct ib_qp *peer;
	struct ib_mr *target;	/* plain memory open to atomics */
};

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
	struct pi_peer x;	/* a hostile peer's QPs, when a case has one */
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

KUNIT_ARRAY_PARAM_DESC(pi_case, pi_cases, name);

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

/* Wait for the next completion on @cq. */
static int pi_wait(struct kunit *test, struct ib_cq *cq, struct ib_wc *wc)
{
	unsigned long end = jiffies + msecs_to_jiffies(PI_WAIT_MS);

	while (!ib_poll_cq(cq, 1, wc)) {
		if (time_after(jiffies, end)) {
			KUNIT_FAIL(test, "no completion in %d ms", PI_WAIT_MS);
			return -ETIMEDOUT;
		}
		usleep_range(100, 200);
	}
	return 0;
}

/* Post @wr on @qp, signaled, and wait for its completion on @cq. */
static int pi_post_on(struct kunit *test, struct ib_qp *qp, struct ib_cq *cq,
		      struct ib_send_wr *wr, enum ib_wc_status *status)
{
	const struct ib_send_wr *bad;
	struct ib_wc wc;
	int ret;

	wr->send_flags |= IB_SEND_SIGNALED;
	ret = ib_post_send(qp, wr, &bad);
	if (!ret)
		ret = pi_wait(test, cq, &wc);
	if (!ret)
		*status = wc.status;
	return ret;
}

static int pi_post(struct kunit *test, struct pi_test *p,
		   struct ib_send_wr *wr, enum ib_wc_status *status)
{
	return pi_post_on(test, p->qp, p->cq, wr, status);
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

/* A copy of @len bytes at @buf that lives as long as the case. */
static u8 *pi_copy_of(struct kunit *test, const u8 *buf, size_t len)
{
	u8 *copy = kunit_kmalloc(test, len, GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, copy);
	return memcpy(copy, buf, len);
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
	expect = pi_copy_of(test, p->data, len);
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

/*
 * Where the wire carries no PI, an error is still placed at the failing
 * interval's index times the interval plus a tuple: iser and isert find
 * the failing block by dividing by that.  Here a bad guard in memory's
 * block 2 is found on the way out, as a target stripping PI finds it.
 */
static void rxe_pi_bad_guard_no_wire_pi(struct kunit *test)
{
	const struct pi_case c = pi_cases[0];
	struct pi_test *p = test->priv;
	struct t10_pi_tuple *bad;
	struct ib_mr_status st;
	u16 good;

	pi_buffers(test, p, &c);
	pi_mem_format(p, &c, p->meta);
	bad = (struct t10_pi_tuple *)p->meta + 2;
	good = be16_to_cpu(bad->guard_tag);
	bad->guard_tag = cpu_to_be16(good ^ 0x0420);
	pi_map(test, p, &c);
	p->mr->sig_attrs->wire.sig_type = IB_SIG_TYPE_NONE;
	KUNIT_ASSERT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);

	pi_rdma(test, p, IB_WR_RDMA_WRITE, p->mr->lkey, 0,
		p->pd->unsafe_global_rkey, pi_va(p->wire),
		p->blocks * p->interval);
	KUNIT_EXPECT_MEMEQ(test, p->wire, p->data, p->blocks * p->interval);
	pi_status(test, p, &st);
	KUNIT_ASSERT_TRUE(test, st.fail_status & IB_MR_CHECK_SIG_STATUS);
	KUNIT_EXPECT_EQ(test, st.sig_err.err_type, IB_SIG_BAD_GUARD);
	KUNIT_EXPECT_EQ(test, st.sig_err.expected,
			crc_t10dif(p->data + 2 * p->interval, p->interval));
	KUNIT_EXPECT_EQ(test, st.sig_err.actual, good ^ 0x0420);
	KUNIT_EXPECT_EQ(test, st.sig_err.sig_err_offset,
			2 * (p->interval + PI_TUPLE));
}

/*
 * A tuple wrong in its application and its reference tag reports the
 * reference tag, as mlx5 does (its CQE syndrome ranks guard, reference,
 * then application tag).
 */
static void rxe_pi_bad_tags_rank(struct kunit *test)
{
	const struct pi_case c = pi_cases[0];
	struct pi_test *p = test->priv;
	struct t10_pi_tuple *bad;
	struct ib_mr_status st;

	pi_buffers(test, p, &c);
	pi_wire_format(p, &c, p->wire);
	bad = (void *)(p->wire + 2 * p->interval + PI_TUPLE);
	bad->app_tag = cpu_to_be16(PI_APP_TAG ^ 0x0100);
	bad->ref_tag = cpu_to_be32((PI_REF_SEED + 1) ^ 0x10000);
	pi_map(test, p, &c);
	KUNIT_ASSERT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);

	pi_rdma(test, p, IB_WR_RDMA_READ, p->mr->lkey, 0,
		p->pd->unsafe_global_rkey, pi_va(p->wire), pi_wire_len(p));
	pi_status(test, p, &st);
	KUNIT_ASSERT_TRUE(test, st.fail_status & IB_MR_CHECK_SIG_STATUS);
	KUNIT_EXPECT_EQ(test, st.sig_err.err_type, IB_SIG_BAD_REFTAG);
	KUNIT_EXPECT_EQ(test, st.sig_err.expected, PI_REF_SEED + 1);
	KUNIT_EXPECT_EQ(test, st.sig_err.actual, (PI_REF_SEED + 1) ^ 0x10000);
}

/*
 * T10 escapes as the ULPs ask for them: app_escape for Types 1 and 2,
 * app_escape with ref_escape for Type 3.  SBC-4 (and block/t10-pi.c)
 * skip a Type 1 or 2 block whose application tag is FFFFh, and a Type 3
 * block only when its reference tag is FFFFFFFFh as well.
 */
struct pi_escape {
	const char *name;
	bool type3;
	u32 ref_tag;
	bool skipped;	/* what T10 says of a bad guard under these tags */
};

static const struct pi_escape pi_escapes[] = {
	{ "type1-app-ffff", false, 0, true },
	{ "type3-app-ffff-ref-0", true, 0, false },
	{ "type3-app-ffff-ref-ffffffff", true, 0xffffffff, true },
};

KUNIT_ARRAY_PARAM_DESC(pi_escape, pi_escapes, name);

static void rxe_pi_escape(struct kunit *test)
{
	const struct pi_escape *e = test->param_value;
	const struct pi_case c = pi_cases[0];
	struct pi_test *p = test->priv;
	struct ib_sig_attrs *a;
	struct t10_pi_tuple *t;
	struct ib_mr_status st;

	pi_buffers(test, p, &c);
	pi_wire_format(p, &c, p->wire);
	t = (void *)(p->wire + 2 * p->interval + PI_TUPLE);
	t->guard_tag ^= cpu_to_be16(0x8001);
	t->app_tag = T10_PI_APP_ESCAPE;
	t->ref_tag = cpu_to_be32(e->ref_tag);
	pi_map(test, p, &c);
	a = p->mr->sig_attrs;
	a->mem.sig.dif.app_escape = true;
	a->wire.sig.dif.app_escape = true;
	a->mem.sig.dif.ref_escape = e->type3;
	a->wire.sig.dif.ref_escape = e->type3;
	KUNIT_ASSERT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);

	pi_rdma(test, p, IB_WR_RDMA_READ, p->mr->lkey, 0,
		p->pd->unsafe_global_rkey, pi_va(p->wire), pi_wire_len(p));
	pi_status(test, p, &st);
	KUNIT_EXPECT_EQ(test, !(st.fail_status & IB_MR_CHECK_SIG_STATUS),
			e->skipped);
}

/*
 * The signature attributes count from the moment REG_MR_INTEGRITY
 * executes, not from its post: an RDMA WRITE out of the MR posted in the
 * same chain before LOCAL_INV and a REG_MR_INTEGRITY that strips the PI
 * still puts each interval's tuple on the wire.
 */
static void rxe_pi_reg_applies_at_execution(struct kunit *test)
{
	const struct pi_case c = pi_cases[0];
	struct pi_test *p = test->priv;
	struct ib_sge sge = { 0, 0, 0 };
	struct ib_rdma_wr write = {
		.wr.opcode = IB_WR_RDMA_WRITE,
		.wr.send_flags = IB_SEND_SIGNALED,
		.wr.sg_list = &sge,
		.wr.num_sge = 1,
	};
	struct ib_send_wr inv = {
		.opcode = IB_WR_LOCAL_INV,
		.send_flags = IB_SEND_SIGNALED,
	};
	struct ib_reg_wr reg = {
		.wr.opcode = IB_WR_REG_MR_INTEGRITY,
		.wr.send_flags = IB_SEND_SIGNALED,
		.mr = p->mr,
		.access = PI_ACCESS,
	};
	const struct ib_send_wr *bad;
	struct ib_wc wc;
	u8 *expect;
	int i;

	pi_buffers(test, p, &c);
	expect = kunit_kzalloc(test, pi_wire_len(p), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expect);
	pi_wire_format(p, &c, expect);
	pi_mem_format(p, &c, p->meta);
	pi_map(test, p, &c);
	KUNIT_ASSERT_EQ(test, pi_reg(test, p, PI_ACCESS), 0);
	pi_expect_clean(test, p);

	sge = (struct ib_sge) { 0, pi_wire_len(p), p->mr->lkey };
	write.remote_addr = pi_va(p->wire);
	write.rkey = p->pd->unsafe_global_rkey;
	inv.ex.invalidate_rkey = p->mr->rkey;
	ib_update_fast_reg_key(p->mr, ib_inc_rkey(p->mr->rkey) & 0xff);
	reg.key = p->mr->rkey;
	p->mr->sig_attrs->wire.sig_type = IB_SIG_TYPE_NONE;
	write.wr.next = &inv;
	inv.next = &reg.wr;
	KUNIT_ASSERT_EQ(test, ib_post_send(p->qp, &write.wr, &bad), 0);
	for (i = 0; i < 3; i++) {
		KUNIT_ASSERT_EQ(test, pi_wait(test, p->cq, &wc), 0);
		KUNIT_EXPECT_EQ(test, wc.status, IB_WC_SUCCESS);
	}
	KUNIT_EXPECT_MEMEQ(test, p->wire, expect, pi_wire_len(p));
	pi_expect_clean(test, p);
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

KUNIT_ARRAY_PARAM_DESC(pi_refusal, pi_refusals, name);

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

/*
 * An RC QP connected to QP @dest_qpn over the device's IPv4 GID of lo,
 * granting @access to the QP at the other end.
 */
static int pi_connect(struct ib_qp *qp, u32 dest_qpn, int access)
{
	struct ib_qp_attr attr = {
		.qp_state = IB_QPS_INIT,
		.port_num = 1,
		.qp_access_flags = access,
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
	attr.dest_qp_num = dest_qpn;
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

#define PI_VICTIM_ACCESS	(IB_ACCESS_REMOTE_READ | \
				 IB_ACCESS_REMOTE_WRITE | \
				 IB_ACCESS_REMOTE_ATOMIC | \
				 IB_ACCESS_FLUSH_GLOBAL | \
				 IB_ACCESS_FLUSH_PERSISTENT)

static struct ib_qp *pi_peer_qp(struct kunit *test, struct pi_test *p,
				struct ib_cq *cq)
{
	struct ib_qp_init_attr attr = {
		.qp_type = IB_QPT_RC,
		.sq_sig_type = IB_SIGNAL_REQ_WR,
		.send_cq = cq,
		.recv_cq = cq,
		.cap = {
			.max_send_wr = 4,
			.max_recv_wr = 1,
			.max_send_sge = 1,
			.max_recv_sge = 1,
		},
	};
	struct ib_qp *qp = ib_create_qp(p->pd, &attr);

	KUNIT_ASSERT_FALSE(test, IS_ERR(qp));
	return qp;
}

/* The test's exit destroys what this makes, before the PD. */
static void pi_peer_init(struct kunit *test, struct pi_test *p)
{
	struct ib_cq_init_attr cq_attr = { .cqe = PI_CQE };
	struct pi_peer *x = &p->x;

	x->cq = ib_create_cq(pi_dev, NULL, NULL, NULL, &cq_attr);
	KUNIT_ASSERT_FALSE(test, IS_ERR(x->cq));
	x->victim = pi_peer_qp(test, p, x->cq);
	x->peer = pi_peer_qp(test, p, x->cq);
	KUNIT_ASSERT_EQ(test, pi_connect(x->victim, x->peer->qp_num,
					 PI_VICTIM_ACCESS), 0);
	KUNIT_ASSERT_EQ(test, pi_connect(x->peer, x->victim->qp_num,
					 PI_VICTIM_ACCESS), 0);
}

/*
 * Post an ATOMIC WRITE or a FLUSH from the peer.  Kernel verbs carry
 * neither's remote address, so the WQE is written into the peer's send
 * queue as rxe's user-space provider writes it; a zero-length RDMA WRITE
 * posted behind it sets the requester going.
 */
static void pi_peer_post_raw(struct kunit *test, struct pi_peer *x,
			     enum ib_wr_opcode opcode, u32 rkey, u64 va,
			     u32 len)
{
	struct rxe_qp *qp = to_rqp(x->peer);
	struct ib_rdma_wr kick = { .wr.opcode = IB_WR_RDMA_WRITE };
	const struct ib_send_wr *bad;
	struct rxe_send_wqe *wqe;
	unsigned long flags;

	spin_lock_irqsave(&qp->sq.sq_lock, flags);
	wqe = queue_producer_addr(qp->sq.queue, QUEUE_TYPE_FROM_ULP);
	memset(wqe, 0, sizeof(*wqe));
	wqe->wr.opcode = opcode;
	wqe->wr.send_flags = IB_SEND_SIGNALED;
	if (opcode == IB_WR_FLUSH) {
		wqe->wr.wr.flush.rkey = rkey;
		wqe->wr.wr.flush.type = IB_FLUSH_GLOBAL;
		wqe->wr.wr.flush.level = len ? IB_FLUSH_RANGE : IB_FLUSH_MR;
		wqe->mask = WR_FLUSH_MASK;
	} else {
		wqe->wr.wr.rdma.rkey = rkey;
		memset(wqe->dma.atomic_wr, 0x41, sizeof(u64));
		wqe->mask = WR_ATOMIC_WRITE_MASK;
	}
	wqe->iova = va;
	wqe->dma.length = len;
	wqe->dma.resid = len;
	wqe->state = wqe_state_posted;
	wqe->ssn = atomic_add_return(1, &qp->ssn);
	queue_advance_producer(qp->sq.queue, QUEUE_TYPE_FROM_ULP);
	spin_unlock_irqrestore(&qp->sq.sq_lock, flags);

	KUNIT_ASSERT_EQ(test, ib_post_send(x->peer, &kick.wr, &bad), 0);
}

/* What a peer does with the rkey of the test's integrity MR. */
enum pi_peer_op {
	PEER_READ,
	PEER_WRITE,
	PEER_SEND,
	PEER_ATOMIC_RESULT,
	PEER_CMP_SWAP,
	PEER_FETCH_ADD,
	PEER_ATOMIC_WRITE,
	PEER_FLUSH_RANGE,
	PEER_FLUSH_MR,
};

struct pi_hostile {
	const char *name;
	enum pi_peer_op op;
};

/*
 * Every access an integrity key can be named in, from a peer: RDMA READ
 * and WRITE through the rkey, a SEND into a receive buffer the victim
 * gave the lkey, an atomic whose result lands through the lkey, and the
 * operations that would reach the MR's memory as a plain MR's (atomics,
 * ATOMIC WRITE, FLUSH of a range and of the whole MR).
 */
static const struct pi_hostile pi_hostiles[] = {
	{ "read", PEER_READ },
	{ "write", PEER_WRITE },
	{ "send-to-recv-lkey", PEER_SEND },
	{ "atomic-result-to-lkey", PEER_ATOMIC_RESULT },
	{ "cmp-swap", PEER_CMP_SWAP },
	{ "fetch-add", PEER_FETCH_ADD },
	{ "atomic-write", PEER_ATOMIC_WRITE },
	{ "flush-range", PEER_FLUSH_RANGE },
	{ "flush-mr", PEER_FLUSH_MR },
};

KUNIT_ARRAY_PARAM_DESC(pi_hostile, pi_hostiles, name);

/* Post @wr from the peer and return its completion's status. */
static enum ib_wc_status pi_peer_post(struct kunit *test, struct pi_peer *x,
				      struct ib_send_wr *wr)
{
	enum ib_wc_status status;

	KUNIT_ASSERT_EQ(test, pi_post_on(test, x->peer, x->cq, wr, &status),
			0);
	return status;
}

/* An atomic from the peer: at @rkey and @va, its result to @sge. */
static enum ib_wc_status pi_peer_atomic(struct kunit *test, struct pi_peer *x,
					enum ib_wr_opcode opcode, u32 rkey,
					u64 va, struct ib_sge *sge)
{
	struct ib_atomic_wr wr = {
		.wr.opcode = opcode,
		.wr.sg_list = sge,
		.wr.num_sge = 1,
		.remote_addr = va,
		.rkey = rkey,
		.compare_add = 0,
		.swap = 0x4141414141414141ULL,
	};

	return pi_peer_post(test, x, &wr.wr);
}

/*
 * A u64 at the victim, in an MR registered for remote atomics (the PD's
 * global rkey grants only remote read and write): its rkey, and its
 * address in @va.
 */
static u32 pi_atomic_target(struct kunit *test, struct pi_test *p, u64 *target,
			    u64 *va)
{
	struct ib_reg_wr wr = {
		.wr.opcode = IB_WR_REG_MR,
		.access = IB_ACCESS_LOCAL_WRITE | IB_ACCESS_REMOTE_ATOMIC,
	};
	enum ib_wc_status status;
	struct scatterlist sg;

	p->x.target = ib_alloc_mr(p->pd, IB_MR_TYPE_MEM_REG, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->x.target));
	sg_init_one(&sg, target, sizeof(*target));
	KUNIT_ASSERT_EQ(test, ib_dma_map_sg(pi_dev, &sg, 1, DMA_BIDIRECTIONAL),
			1);
	KUNIT_ASSERT_EQ(test, ib_map_mr_sg(p->x.target, &sg, 1, NULL,
					   PAGE_SIZE), 1);
	wr.mr = p->x.target;
	wr.key = p->x.target->rkey;
	KUNIT_ASSERT_EQ(test, pi_post(test, p, &wr.wr, &status), 0);
	KUNIT_ASSERT_EQ(test, status, IB_WC_SUCCESS);
	*va = p->x.target->iova;
	return p->x.target->rkey;
}

/* The peer's operation; true when it completed without error. */
static bool pi_peer_run(struct kunit *test, struct pi_test *p,
			struct pi_peer *x, enum pi_peer_op op)
{
	u32 rkey = p->mr->rkey, lkey = p->pd->local_dma_lkey;
	struct ib_sge sge = { pi_va(p->wire), pi_wire_len(p), lkey };
	struct ib_rdma_wr rdma = {
		.wr.opcode = op == PEER_READ ? IB_WR_RDMA_READ :
						IB_WR_RDMA_WRITE,
		.wr.sg_list = &sge,
		.wr.num_sge = 1,
		.rkey = rkey,
	};
	struct ib_send_wr send = {
		.opcode = IB_WR_SEND, .sg_list = &sge, .num_sge = 1,
	};
	struct ib_sge mr_sge = { 0, pi_wire_len(p), p->mr->lkey };
	struct ib_recv_wr recv = { .sg_list = &mr_sge, .num_sge = 1 };
	const struct ib_send_wr *sbad;
	const struct ib_recv_wr *bad;
	struct ib_wc wc, wc2;
	u64 *target, va;

	switch (op) {
	case PEER_READ:
	case PEER_WRITE:
		return pi_peer_post(test, x, &rdma.wr) == IB_WC_SUCCESS;
	case PEER_SEND:
		KUNIT_ASSERT_EQ(test, ib_post_recv(x->victim, &recv, &bad), 0);
		send.send_flags = IB_SEND_SIGNALED;
		KUNIT_ASSERT_EQ(test, ib_post_send(x->peer, &send, &sbad), 0);
		/* The victim's receive and the peer's send, in either order. */
		KUNIT_ASSERT_EQ(test, pi_wait(test, x->cq, &wc), 0);
		KUNIT_ASSERT_EQ(test, pi_wait(test, x->cq, &wc2), 0);
		return wc.status == IB_WC_SUCCESS && wc2.status == IB_WC_SUCCESS;
	case PEER_ATOMIC_RESULT:
		target = kunit_kzalloc(test, sizeof(*target), GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, target);
		*target = 0x0123456789abcdefULL;
		rkey = pi_atomic_target(test, p, target, &va);
		mr_sge.length = sizeof(*target);
		return pi_peer_atomic(test, x, IB_WR_ATOMIC_FETCH_AND_ADD,
				      rkey, va, &mr_sge) == IB_WC_SUCCESS;
	case PEER_CMP_SWAP:
	case PEER_FETCH_ADD:
		sge.length = sizeof(u64);
		return pi_peer_atomic(test, x, op == PEER_CMP_SWAP ?
				      IB_WR_ATOMIC_CMP_AND_SWP :
				      IB_WR_ATOMIC_FETCH_AND_ADD,
				      rkey, 0, &sge) == IB_WC_SUCCESS;
	case PEER_ATOMIC_WRITE:
	case PEER_FLUSH_RANGE:
	case PEER_FLUSH_MR:
		pi_peer_post_raw(test, x, op == PEER_ATOMIC_WRITE ?
				 IB_WR_ATOMIC_WRITE : IB_WR_FLUSH, rkey, 0,
				 op == PEER_FLUSH_MR ? 0 : sizeof(u64));
		KUNIT_ASSERT_EQ(test, pi_wait(test, x->cq, &wc), 0);
		return wc.status == IB_WC_SUCCESS;
	}
	return false;
}

/*
 * A peer holding the rkey of a registered integrity MR, which grants
 * remote read and write as a host's does for every I/O: READ, WRITE and
 * SEND move the data through the PI engine (the wire image generated,
 * the memory and its PI as block/t10-pi.c would write them), an atomic's
 * result lands through it, and everything else ends in an error
 * completion at the peer with the MR's memory untouched.  A WARN fails
 * the run (make check reads the kernel log).
 */
static void rxe_pi_hostile_peer(struct kunit *test)
{
	const struct pi_hostile *h = test->param_value;
	const struct pi_case c = pi_cases[0];
	struct pi_test *p = test->priv;
	u32 len = PI_BLOCKS * c.interval;
	struct pi_peer *x = &p->x;
	u8 *expect, *data, *meta, *wire;

	pi_peer_init(test, p);
	expect = pi_inbound(test, p, &c);
	wire = pi_copy_of(test, p->wire, pi_wire_len(p));
	if (h->op == PEER_READ) {
		memcpy(p->data, expect, len);
		pi_mem_format(p, &c, p->meta);
		memset(p->wire, 0, pi_wire_len(p));
	}
	data = pi_copy_of(test, p->data, len);
	meta = pi_copy_of(test, p->meta, PI_BLOCKS * PI_TUPLE);

	switch (h->op) {
	case PEER_READ:
		KUNIT_ASSERT_TRUE(test, pi_peer_run(test, p, x, h->op));
		KUNIT_EXPECT_MEMEQ(test, p->wire, wire, pi_wire_len(p));
		pi_expect_clean(test, p);
		break;
	case PEER_WRITE:
	case PEER_SEND:
		KUNIT_ASSERT_TRUE(test, pi_peer_run(test, p, x, h->op));
		pi_expect_inbound(test, p, &c, expect);
		break;
	case PEER_ATOMIC_RESULT:
		KUNIT_ASSERT_TRUE(test, pi_peer_run(test, p, x, h->op));
		KUNIT_EXPECT_EQ(test, *(u64 *)p->data, 0x0123456789abcdefULL);
		KUNIT_EXPECT_MEMEQ(test, p->data + sizeof(u64),
				   data + sizeof(u64), len - sizeof(u64));
		pi_expect_clean(test, p);
		break;
	default:
		KUNIT_EXPECT_FALSE(test, pi_peer_run(test, p, x, h->op));
		KUNIT_EXPECT_MEMEQ(test, p->data, data, len);
		KUNIT_EXPECT_MEMEQ(test, p->meta, meta, PI_BLOCKS * PI_TUPLE);
		pi_expect_clean(test, p);
	}
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
	KUNIT_ASSERT_EQ(test, pi_connect(p->qp, p->qp->qp_num,
					 IB_ACCESS_REMOTE_READ |
					 IB_ACCESS_REMOTE_WRITE), 0);
	p->mr = ib_alloc_mr_integrity(p->pd, 2, 1);
	KUNIT_ASSERT_FALSE(test, IS_ERR(p->mr));
	return 0;
}

static void rxe_pi_test_exit(struct kunit *test)
{
	struct pi_test *p = test->priv;

	if (!p)
		return;
	if (!IS_ERR_OR_NULL(p->x.peer))
		ib_destroy_qp(p->x.peer);
	if (!IS_ERR_OR_NULL(p->x.victim))
		ib_destroy_qp(p->x.victim);
	if (!IS_ERR_OR_NULL(p->x.cq))
		ib_destroy_cq(p->x.cq);
	if (!IS_ERR_OR_NULL(p->x.target))
		ib_dereg_mr(p->x.target);
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
	bool handover;
	int ret = 0;

	rtnl_lock();
	if (!(lo->flags & IFF_UP)) {
		ret = dev_open(lo, NULL);
		pi_opened_lo = !ret;
	}
	rtnl_unlock();
	if (ret)
		return ret;
	/* Handover is off by default; the device takes it when added. */
	handover = rxe_integrity_handover;
	rxe_integrity_handover = true;
	ret = rxe_net_add(PI_DEV_NAME, lo);
	rxe_integrity_handover = handover;
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
	KUNIT_CASE(rxe_pi_bad_guard_no_wire_pi),
	KUNIT_CASE(rxe_pi_bad_tags_rank),
	KUNIT_CASE_PARAM(rxe_pi_escape, pi_escape_gen_params),
	KUNIT_CASE(rxe_pi_reg_applies_at_execution),
	KUNIT_CASE(rxe_pi_map_layout),
	KUNIT_CASE(rxe_pi_too_many_entries),
	KUNIT_CASE_PARAM(rxe_pi_reg_refused, pi_refusal_gen_params),
	KUNIT_CASE(rxe_pi_reg_wrong_mr_type),
	KUNIT_CASE_PARAM(rxe_pi_hostile_peer, pi_hostile_gen_params),
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
