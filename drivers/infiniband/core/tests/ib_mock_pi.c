// SPDX-License-Identifier: GPL-2.0-only
/*
 * A software T10-PI engine for the mock RDMA device.
 *
 * Data that passes through an integrity MR lives in two domains.  In
 * memory, the protection information (PI), when there is any, sits in a
 * buffer of its own: one 8-byte tuple (guard, application tag, reference
 * tag; big-endian) per protection interval.  On the wire, each interval of
 * data is followed by its tuple.  A transfer moves the data from one
 * domain to the other; on the way it verifies the source tuples as far as
 * the check mask asks, and writes the destination tuples: fields on which
 * both domains agree are copied from the source, the others are generated
 * for the destination.  That one rule gives INSERT (no PI in the source),
 * STRIP (none in the destination) and PASS (the same PI in both).
 *
 * An error does not stop the transfer, as on hardware: the data still
 * moves, and the first error is reported for the MR's status check.
 */
#include <linux/crc-t10dif.h>
#include <linux/export.h>
#include <linux/module.h>
#include <linux/string.h>
#include <net/checksum.h>

#include "ib_mock_pi.h"

#define PI_TUPLE	sizeof(struct t10_pi_tuple)

static const struct ib_t10_dif_domain *pi_dif(const struct ib_sig_domain *d)
{
	return d->sig_type == IB_SIG_TYPE_T10_DIF ? &d->sig.dif : NULL;
}

/* The protection interval of a transfer; 0 when neither domain has PI. */
static u32 pi_interval(const struct ib_sig_attrs *attrs)
{
	const struct ib_t10_dif_domain *dif;

	dif = pi_dif(&attrs->wire) ?: pi_dif(&attrs->mem);
	return dif ? dif->pi_interval : 0;
}

static bool pi_domain_valid(const struct ib_sig_domain *d)
{
	const struct ib_t10_dif_domain *dif = pi_dif(d);

	if (!dif)
		return d->sig_type == IB_SIG_TYPE_NONE;
	return (dif->pi_interval == 512 || dif->pi_interval == 4096) &&
	       (dif->bg_type == IB_T10DIF_CRC || dif->bg_type == IB_T10DIF_CSUM);
}

/**
 * ib_mock_pi_validate - can the engine run a transfer with these attributes
 * @attrs:	the signature attributes
 * @data_len:	bytes of data the MR maps
 * @prot_len:	bytes of memory PI the MR maps
 *
 * Intervals of 512 and 4096 bytes, the same in both domains when both
 * carry PI, data that fills whole intervals and a PI buffer with room for
 * a tuple per interval, as hardware requires.
 *
 * Return: 0, or -EINVAL.
 */
int ib_mock_pi_validate(const struct ib_sig_attrs *attrs, size_t data_len,
			size_t prot_len)
{
	const struct ib_t10_dif_domain *mem = pi_dif(&attrs->mem);
	const struct ib_t10_dif_domain *wire = pi_dif(&attrs->wire);
	u32 interval = pi_interval(attrs);

	if (!pi_domain_valid(&attrs->mem) || !pi_domain_valid(&attrs->wire))
		return -EINVAL;
	if (!interval)
		return 0;
	if (mem && wire && mem->pi_interval != wire->pi_interval)
		return -EINVAL;
	if (data_len % interval)
		return -EINVAL;
	if (prot_len < ib_mock_pi_prot_len(attrs, data_len))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_GPL(ib_mock_pi_validate);

/**
 * ib_mock_pi_wire_len - bytes on the wire for @data_len bytes of data
 * @attrs:	the signature attributes
 * @data_len:	bytes of data
 *
 * Return: @data_len, plus a tuple per interval when the wire carries PI.
 */
size_t ib_mock_pi_wire_len(const struct ib_sig_attrs *attrs, size_t data_len)
{
	const struct ib_t10_dif_domain *wire = pi_dif(&attrs->wire);

	return data_len + (wire ? data_len / wire->pi_interval * PI_TUPLE : 0);
}
EXPORT_SYMBOL_GPL(ib_mock_pi_wire_len);

/**
 * ib_mock_pi_prot_len - bytes of memory PI for @data_len bytes of data
 * @attrs:	the signature attributes
 * @data_len:	bytes of data
 *
 * Return: a tuple per interval when memory carries PI, else 0.
 */
size_t ib_mock_pi_prot_len(const struct ib_sig_attrs *attrs, size_t data_len)
{
	const struct ib_t10_dif_domain *mem = pi_dif(&attrs->mem);

	return mem ? data_len / mem->pi_interval * PI_TUPLE : 0;
}
EXPORT_SYMBOL_GPL(ib_mock_pi_prot_len);

/**
 * ib_mock_pi_guard - the guard tag of one interval of data
 * @dif:	the domain: its guard type and seed (&ib_t10_dif_domain.bg)
 * @buf:	the data
 * @len:	its length
 *
 * CRC16 T10-DIF, or the IP checksum, each starting from the seed: the
 * CRC's initial value, the checksum's initial sum.
 *
 * Return: the guard, as it is stored in a tuple.
 */
__be16 ib_mock_pi_guard(const struct ib_t10_dif_domain *dif, const void *buf,
			size_t len)
{
	__wsum seed;

	if (dif->bg_type == IB_T10DIF_CRC)
		return cpu_to_be16(crc_t10dif_update(dif->bg, buf, len));
	seed = (__force __wsum)(__force u16)cpu_to_be16(dif->bg);
	return (__force __be16)csum_fold(csum_partial(buf, len, seed));
}
EXPORT_SYMBOL_GPL(ib_mock_pi_guard);

/* The tuple the domain expects for interval @block holding @data. */
static struct t10_pi_tuple pi_expected(const struct ib_t10_dif_domain *dif,
				       const u8 *data, size_t block)
{
	return (struct t10_pi_tuple) {
		.guard_tag = ib_mock_pi_guard(dif, data, dif->pi_interval),
		.app_tag = cpu_to_be16(dif->app_tag),
		.ref_tag = cpu_to_be32(dif->ref_tag +
				       (dif->ref_remap ? (u32)block : 0)),
	};
}

/* Tuples marked "do not check" by T10's escape values. */
static bool pi_escaped(const struct ib_t10_dif_domain *dif,
		       const struct t10_pi_tuple *t)
{
	if (t->app_tag != cpu_to_be16(0xffff))
		return false;
	return dif->app_escape ||
	       (dif->ref_escape && t->ref_tag == cpu_to_be32(0xffffffff));
}

/*
 * A value mask for the bytes of a tuple field that @check_mask selects:
 * bit 7 of the mask stands for byte 0 of the tuple, bit 0 for byte 7, so
 * the field of @bytes bytes that ends at byte 7 - @shift has its bits at
 * @shift and up.
 */
static u32 pi_check_bytes(u8 check_mask, unsigned int shift,
			  unsigned int bytes)
{
	u32 mask = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		if (check_mask & BIT(shift + i))
			mask |= 0xffU << (8 * i);
	return mask;
}

/* Record @type as the transfer's error unless an earlier one was. */
static void pi_fail(struct ib_sig_err *err, bool *clean,
		    enum ib_sig_err_type type, u32 expected, u32 actual,
		    u64 offset)
{
	if (!*clean)
		return;
	*clean = false;
	*err = (struct ib_sig_err) {
		.err_type = type,
		.expected = expected,
		.actual = actual,
		.sig_err_offset = offset,
	};
}

/* Check the tuple @got of interval @block against what @dif expects. */
static void pi_verify(const struct ib_t10_dif_domain *dif, u8 check_mask,
		      const u8 *data, const struct t10_pi_tuple *got,
		      size_t block, u64 offset, struct ib_sig_err *err,
		      bool *clean)
{
	struct t10_pi_tuple want = pi_expected(dif, data, block);
	u32 guard = pi_check_bytes(check_mask, 6, 2);
	u32 app = pi_check_bytes(check_mask, 4, 2) & dif->apptag_check_mask;
	u32 ref = pi_check_bytes(check_mask, 0, 4);

	if (pi_escaped(dif, got))
		return;
	if ((be16_to_cpu(got->guard_tag) ^ be16_to_cpu(want.guard_tag)) & guard)
		pi_fail(err, clean, IB_SIG_BAD_GUARD,
			be16_to_cpu(want.guard_tag),
			be16_to_cpu(got->guard_tag), offset);
	else if ((be16_to_cpu(got->app_tag) ^ be16_to_cpu(want.app_tag)) & app)
		pi_fail(err, clean, IB_SIG_BAD_APPTAG,
			be16_to_cpu(want.app_tag), be16_to_cpu(got->app_tag),
			offset);
	else if ((be32_to_cpu(got->ref_tag) ^ be32_to_cpu(want.ref_tag)) & ref)
		pi_fail(err, clean, IB_SIG_BAD_REFTAG,
			be32_to_cpu(want.ref_tag), be32_to_cpu(got->ref_tag),
			offset);
}

/*
 * Write the destination tuple of interval @block: each field the source
 * domain @src carries with the same meaning is copied, the rest generated.
 */
static void pi_fill(const struct ib_t10_dif_domain *dst,
		    const struct ib_t10_dif_domain *src, const u8 *data,
		    const struct t10_pi_tuple *from, struct t10_pi_tuple *to,
		    size_t block)
{
	struct t10_pi_tuple gen = pi_expected(dst, data, block);

	to->guard_tag = src && src->bg_type == dst->bg_type &&
			src->bg == dst->bg ? from->guard_tag : gen.guard_tag;
	to->app_tag = src && src->app_tag == dst->app_tag ?
		      from->app_tag : gen.app_tag;
	to->ref_tag = src && src->ref_tag == dst->ref_tag &&
		      src->ref_remap == dst->ref_remap ?
		      from->ref_tag : gen.ref_tag;
}

static bool pi_move(const struct ib_mock_pi_io *io, bool to_wire,
		    struct ib_sig_err *err)
{
	const struct ib_t10_dif_domain *mem = pi_dif(&io->attrs->mem);
	const struct ib_t10_dif_domain *wire = pi_dif(&io->attrs->wire);
	const struct ib_t10_dif_domain *src = to_wire ? mem : wire;
	const struct ib_t10_dif_domain *dst = to_wire ? wire : mem;
	u32 interval = pi_interval(io->attrs);
	size_t stride, block;
	bool clean = true;

	if (!interval) {
		if (to_wire)
			memcpy(io->wire, io->data, io->data_len);
		else
			memcpy(io->data, io->wire, io->data_len);
		return true;
	}

	stride = interval + (wire ? PI_TUPLE : 0);
	for (block = 0; block < io->data_len / interval; block++) {
		u8 *data = io->data + block * interval;
		u8 *on_wire = io->wire + block * stride;
		void *mem_pi = mem ? io->prot + block * PI_TUPLE : NULL;
		void *wire_pi = wire ? on_wire + interval : NULL;

		if (to_wire)
			memcpy(on_wire, data, interval);
		else
			memcpy(data, on_wire, interval);
		if (src)
			pi_verify(src, io->attrs->check_mask, data,
				  to_wire ? mem_pi : wire_pi, block,
				  block * stride, err, &clean);
		if (dst)
			pi_fill(dst, src, data, to_wire ? mem_pi : wire_pi,
				to_wire ? wire_pi : mem_pi, block);
	}
	return clean;
}

/**
 * ib_mock_pi_to_wire - move data from memory to the wire (RDMA WRITE)
 * @io:		the transfer; ib_mock_pi_validate() accepted its attributes
 * @err:	where the first PI error goes; its offset is the byte offset
 *		of the failing interval in the wire stream, its key unset
 *
 * Return: true if no PI error was found.
 */
bool ib_mock_pi_to_wire(const struct ib_mock_pi_io *io, struct ib_sig_err *err)
{
	return pi_move(io, true, err);
}
EXPORT_SYMBOL_GPL(ib_mock_pi_to_wire);

/**
 * ib_mock_pi_from_wire - move data from the wire to memory (RDMA READ)
 * @io:		the transfer; ib_mock_pi_validate() accepted its attributes
 * @err:	where the first PI error goes, as for ib_mock_pi_to_wire()
 *
 * Return: true if no PI error was found.
 */
bool ib_mock_pi_from_wire(const struct ib_mock_pi_io *io,
			  struct ib_sig_err *err)
{
	return pi_move(io, false, err);
}
EXPORT_SYMBOL_GPL(ib_mock_pi_from_wire);

MODULE_DESCRIPTION("Software T10-PI engine of the mock RDMA device");
MODULE_LICENSE("GPL");
