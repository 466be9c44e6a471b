// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit tests of the software T10-PI engine that the signature suites run
 * on, judged by references outside it: the T10 escapes, the published
 * CRC16 T10-DIF and RFC 1071 check values, and the block layer's own PI
 * generation and verification (block/t10-pi.c, through bios on a disk
 * with an integrity profile).
 */
#include <kunit/test.h>
#include <linux/bio.h>
#include <linux/blk-integrity.h>
#include <linux/blkdev.h>
#include <linux/crc-t10dif.h>
#include <linux/mm.h>
#include <linux/t10-pi.h>
#include <rdma/ib_sig_sw.h>

#include "ib_mock.h"
#include "ib_mock_pi.h"
#include "rw_sig_kunit_helpers.h"
#include "rw_under_test.h"
#include "warn_watch.h"

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

static struct kunit_case sig_t10_cases[] = {
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

static struct kunit_suite sig_t10_suite = {
	.name = "ib_core_rw_sig_t10",
	.suite_init = rw_suite_init_common,
	.suite_exit = warn_watch_suite_exit,
	.init = warn_watch_case_init,
	.test_cases = sig_t10_cases,
};

kunit_test_suite(sig_t10_suite);
