/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the signature suites (rw_sig_kunit.c, rw_sig_t10_kunit.c) share:
 * data and memory PI laid out in pages, the PI and wire stream a transfer
 * must produce, computed here with the kernel's CRC16 T10-DIF and IP
 * checksum helpers, and one signature I/O through the mock device's
 * integrity profile.
 */
#ifndef _RW_SIG_KUNIT_HELPERS_H
#define _RW_SIG_KUNIT_HELPERS_H

#include <kunit/test.h>
#include <linux/scatterlist.h>
#include <linux/t10-pi.h>
#include <rdma/rw.h>
#include <rdma/signature.h>

#include "ib_mock.h"

#define SIG_PORT	1
#define SIG_CTXS	4
#define SIG_PAGES	4
#define SIG_DATA_LEN	(SIG_PAGES * PAGE_SIZE)
/* Where the wire stream lands in the remote buffer: unaligned. */
#define SIG_REMOTE_OFF	4100
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

/* The 512-byte interval the corruption and escape cases spoil. */
#define SIG_BAD_BLOCK	5

u8 sig_data_byte(size_t pos);
void sig_set_prot(struct sig_buf *buf, size_t prot_len);
struct sig_buf *sig_buf_alloc(struct kunit *test, size_t prot_len);
void sig_copy_sg(struct scatterlist *sgl, u32 nents, u8 *lin,
		 size_t len, bool to_sg);
void sig_make_prot(const struct ib_sig_attrs *attrs, const u8 *data,
		   size_t len, struct t10_pi_tuple *prot);
void sig_make_wire(const struct ib_sig_attrs *attrs, const u8 *data,
		   size_t len, u8 *wire);
void sig_expect_bytes(struct kunit *test, const u8 *got,
		      const u8 *want, size_t len, const char *what);
struct ib_mock *sig_mock(struct kunit *test, u32 ctxs);
int sig_init(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
	     struct sig_buf *buf, struct ib_sig_attrs *attrs,
	     enum dma_data_direction dir);
void sig_destroy(struct rdma_rw_ctx *ctx, struct ib_mock *mock,
		 struct sig_buf *buf, enum dma_data_direction dir);
void sig_expect_pool_whole(struct kunit *test, struct ib_mock *mock,
			   unsigned int nr);
int sig_do_io(struct kunit *test, struct ib_mock *mock,
	      struct sig_buf *buf, struct ib_sig_attrs *attrs,
	      enum dma_data_direction dir, struct ib_mr_status *status,
	      struct ib_mr **mrp);
void sig_stage(struct ib_mock *mock, struct sig_buf *buf,
	       const struct ib_sig_attrs *attrs,
	       enum dma_data_direction dir, u8 *prot, u8 *wire);
void sig_check_placed(struct kunit *test, struct ib_mock *mock,
		      struct sig_buf *buf,
		      const struct ib_sig_attrs *attrs, const u8 *prot,
		      const u8 *wire);
void sig_run_clean(struct kunit *test, struct ib_mock *mock,
		   struct ib_sig_attrs *attrs,
		   enum dma_data_direction dir);
void sig_case_attrs(const struct sig_case *c,
		    struct ib_sig_attrs *attrs);
void sig_default_attrs(struct ib_sig_attrs *attrs);

#endif /* _RW_SIG_KUNIT_HELPERS_H */
