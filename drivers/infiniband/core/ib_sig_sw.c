// SPDX-License-Identifier: GPL-2.0-only
/*
 * Software T10-PI signature handover.
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
 * A device moves the data itself, in pieces of any size (packets, pages),
 * and hands each interval to this engine: its data as it goes by
 * (ib_sig_sw_interval_update()), then its source tuple, to be checked,
 * and its destination tuple, to be written (ib_sig_sw_interval_end()).
 * An error does not stop the transfer, as on hardware: the data still
 * moves, and the device reports the error through the MR's status check.
 */
#include <linux/crc-t10dif.h>
#include <linux/export.h>
#include <linux/module.h>

#include <rdma/ib_sig_sw.h>

static const struct ib_t10_dif_domain *sig_dif(const struct ib_sig_domain *d)
{
	return d->sig_type == IB_SIG_TYPE_T10_DIF ? &d->sig.dif : NULL;
}

/**
 * ib_sig_sw_pi_interval - the protection interval of a transfer
 * @attrs:	the signature attributes
 *
 * Return: the interval in bytes, or 0 when neither domain carries PI.
 */
u32 ib_sig_sw_pi_interval(const struct ib_sig_attrs *attrs)
{
	const struct ib_t10_dif_domain *dif;

	dif = sig_dif(&attrs->wire) ?: sig_dif(&attrs->mem);
	return dif ? dif->pi_interval : 0;
}
EXPORT_SYMBOL_GPL(ib_sig_sw_pi_interval);

static bool sig_domain_valid(const struct ib_sig_domain *d)
{
	const struct ib_t10_dif_domain *dif = sig_dif(d);

	if (!dif)
		return d->sig_type == IB_SIG_TYPE_NONE;
	return (dif->pi_interval == 512 || dif->pi_interval == 4096) &&
	       (dif->bg_type == IB_T10DIF_CRC || dif->bg_type == IB_T10DIF_CSUM);
}

/**
 * ib_sig_sw_validate - can the engine run a transfer with these attributes
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
int ib_sig_sw_validate(const struct ib_sig_attrs *attrs, size_t data_len,
		       size_t prot_len)
{
	const struct ib_t10_dif_domain *mem = sig_dif(&attrs->mem);
	const struct ib_t10_dif_domain *wire = sig_dif(&attrs->wire);
	u32 interval = ib_sig_sw_pi_interval(attrs);

	if (!sig_domain_valid(&attrs->mem) || !sig_domain_valid(&attrs->wire))
		return -EINVAL;
	if (!interval)
		return 0;
	if (mem && wire && mem->pi_interval != wire->pi_interval)
		return -EINVAL;
	if (data_len % interval)
		return -EINVAL;
	if (prot_len < ib_sig_sw_prot_len(attrs, data_len))
		return -EINVAL;
	return 0;
}
EXPORT_SYMBOL_GPL(ib_sig_sw_validate);

/**
 * ib_sig_sw_wire_len - bytes on the wire for @data_len bytes of data
 * @attrs:	the signature attributes
 * @data_len:	bytes of data
 *
 * Return: @data_len, plus a tuple per interval when the wire carries PI.
 */
size_t ib_sig_sw_wire_len(const struct ib_sig_attrs *attrs, size_t data_len)
{
	const struct ib_t10_dif_domain *wire = sig_dif(&attrs->wire);

	return data_len + (wire ? data_len / wire->pi_interval *
			   sizeof(struct t10_pi_tuple) : 0);
}
EXPORT_SYMBOL_GPL(ib_sig_sw_wire_len);

/**
 * ib_sig_sw_prot_len - bytes of memory PI for @data_len bytes of data
 * @attrs:	the signature attributes
 * @data_len:	bytes of data
 *
 * Return: a tuple per interval when memory carries PI, else 0.
 */
size_t ib_sig_sw_prot_len(const struct ib_sig_attrs *attrs, size_t data_len)
{
	const struct ib_t10_dif_domain *mem = sig_dif(&attrs->mem);

	return mem ? data_len / mem->pi_interval *
		     sizeof(struct t10_pi_tuple) : 0;
}
EXPORT_SYMBOL_GPL(ib_sig_sw_prot_len);

/**
 * ib_sig_sw_guard_init - start the guard of one interval
 * @guard:	the guard to start
 * @dif:	the domain: its guard type and seed (&ib_t10_dif_domain.bg),
 *		or NULL for a domain without PI, whose guard stays unused
 *
 * CRC16 T10-DIF, or the IP checksum, each starting from the seed: the
 * CRC's initial value, the checksum's initial sum.
 */
void ib_sig_sw_guard_init(struct ib_sig_sw_guard *guard,
			  const struct ib_t10_dif_domain *dif)
{
	*guard = (struct ib_sig_sw_guard) { .dif = dif };
	if (!dif)
		return;
	guard->crc = dif->bg;
	guard->sum = (__force __wsum)(__force u16)cpu_to_be16(dif->bg);
}
EXPORT_SYMBOL_GPL(ib_sig_sw_guard_init);

/**
 * ib_sig_sw_guard_update - feed the next piece of an interval's data
 * @guard:	the guard ib_sig_sw_guard_init() started
 * @buf:	the piece
 * @len:	its length; pieces may have any length, odd ones too
 */
void ib_sig_sw_guard_update(struct ib_sig_sw_guard *guard, const void *buf,
			    size_t len)
{
	if (!guard->dif)
		return;
	if (guard->dif->bg_type == IB_T10DIF_CRC)
		guard->crc = crc_t10dif_update(guard->crc, buf, len);
	else
		guard->sum = csum_block_add(guard->sum,
					    csum_partial(buf, len, 0),
					    guard->len);
	guard->len += len;
}
EXPORT_SYMBOL_GPL(ib_sig_sw_guard_update);

/**
 * ib_sig_sw_guard_final - the guard of the data fed so far
 * @guard:	the guard
 *
 * Return: the guard tag, as it is stored in a tuple.
 */
__be16 ib_sig_sw_guard_final(const struct ib_sig_sw_guard *guard)
{
	if (guard->dif && guard->dif->bg_type == IB_T10DIF_CSUM)
		return (__force __be16)csum_fold(guard->sum);
	return cpu_to_be16(guard->crc);
}
EXPORT_SYMBOL_GPL(ib_sig_sw_guard_final);

/**
 * ib_sig_sw_interval_init - start one protection interval of a transfer
 * @iv:		the interval
 * @attrs:	the signature attributes of the integrity MR
 * @index:	its number in the transfer, from 0
 */
void ib_sig_sw_interval_init(struct ib_sig_sw_interval *iv,
			     const struct ib_sig_attrs *attrs, u32 index)
{
	iv->attrs = attrs;
	iv->index = index;
	ib_sig_sw_guard_init(&iv->mem, sig_dif(&attrs->mem));
	ib_sig_sw_guard_init(&iv->wire, sig_dif(&attrs->wire));
	iv->shared = iv->mem.dif && iv->wire.dif &&
		     iv->mem.dif->bg_type == iv->wire.dif->bg_type &&
		     iv->mem.dif->bg == iv->wire.dif->bg;
}
EXPORT_SYMBOL_GPL(ib_sig_sw_interval_init);

/**
 * ib_sig_sw_interval_update - feed the next piece of the interval's data
 * @iv:		the interval
 * @buf:	the piece, in the order the data has in the interval
 * @len:	its length
 */
void ib_sig_sw_interval_update(struct ib_sig_sw_interval *iv,
			       const void *buf, size_t len)
{
	ib_sig_sw_guard_update(&iv->mem, buf, len);
	if (!iv->shared)
		ib_sig_sw_guard_update(&iv->wire, buf, len);
}
EXPORT_SYMBOL_GPL(ib_sig_sw_interval_update);

/* The tuple domain @dif expects for the interval whose data gave @guard. */
static struct t10_pi_tuple sig_expected(const struct ib_sig_sw_interval *iv,
					const struct ib_sig_sw_guard *guard)
{
	const struct ib_t10_dif_domain *dif = guard->dif;

	return (struct t10_pi_tuple) {
		.guard_tag = ib_sig_sw_guard_final(guard),
		.app_tag = cpu_to_be16(dif->app_tag),
		.ref_tag = cpu_to_be32(dif->ref_tag +
				       (dif->ref_remap ? iv->index : 0)),
	};
}

/*
 * Tuples marked "do not check" by T10's escape values.  app_escape alone
 * is the Type 1 and 2 rule, an application tag of all ones; with
 * ref_escape it is the Type 3 rule, which needs the reference tag all
 * ones too.  ref_escape alone escapes nothing, as on mlx5, whose BSF has
 * an application tag escape and an application and reference tag escape.
 */
static bool sig_escaped(const struct ib_t10_dif_domain *dif,
			const struct t10_pi_tuple *t)
{
	if (!dif->app_escape || t->app_tag != T10_PI_APP_ESCAPE)
		return false;
	return !dif->ref_escape || t->ref_tag == T10_PI_REF_ESCAPE;
}

/*
 * A value mask for the bytes of a tuple field that @check_mask selects:
 * bit 7 of the mask stands for byte 0 of the tuple, bit 0 for byte 7, so
 * the field of @bytes bytes that ends at byte 7 - @shift has its bits at
 * @shift and up.
 */
static u32 sig_check_bytes(u8 check_mask, unsigned int shift,
			   unsigned int bytes)
{
	u32 mask = 0;
	unsigned int i;

	for (i = 0; i < bytes; i++)
		if (check_mask & BIT(shift + i))
			mask |= 0xffU << (8 * i);
	return mask;
}

static bool sig_fail(struct ib_sig_err *err, enum ib_sig_err_type type,
		     u32 expected, u32 actual, u64 offset)
{
	*err = (struct ib_sig_err) {
		.err_type = type,
		.expected = expected,
		.actual = actual,
		.sig_err_offset = offset,
	};
	return false;
}

/* Check the source tuple @got against what its domain expects. */
static bool sig_verify(const struct ib_sig_sw_interval *iv,
		       const struct ib_sig_sw_guard *guard,
		       const struct t10_pi_tuple *got, u64 offset,
		       struct ib_sig_err *err)
{
	const struct ib_t10_dif_domain *dif = guard->dif;
	struct t10_pi_tuple want = sig_expected(iv, guard);
	u8 check_mask = iv->attrs->check_mask;
	u32 bg = sig_check_bytes(check_mask, 6, 2);
	u32 app = sig_check_bytes(check_mask, 4, 2) & dif->apptag_check_mask;
	u32 ref = sig_check_bytes(check_mask, 0, 4);

	if (sig_escaped(dif, got))
		return true;
	if ((be16_to_cpu(got->guard_tag) ^ be16_to_cpu(want.guard_tag)) & bg)
		return sig_fail(err, IB_SIG_BAD_GUARD,
				be16_to_cpu(want.guard_tag),
				be16_to_cpu(got->guard_tag), offset);
	/* A tuple wrong in more than one tag reports as mlx5 ranks them. */
	if ((be32_to_cpu(got->ref_tag) ^ be32_to_cpu(want.ref_tag)) & ref)
		return sig_fail(err, IB_SIG_BAD_REFTAG,
				be32_to_cpu(want.ref_tag),
				be32_to_cpu(got->ref_tag), offset);
	if ((be16_to_cpu(got->app_tag) ^ be16_to_cpu(want.app_tag)) & app)
		return sig_fail(err, IB_SIG_BAD_APPTAG,
				be16_to_cpu(want.app_tag),
				be16_to_cpu(got->app_tag), offset);
	return true;
}

/*
 * Write the destination tuple: each field the source domain carries with
 * the same meaning is copied, the rest generated.
 */
static void sig_fill(const struct ib_sig_sw_interval *iv,
		     const struct ib_sig_sw_guard *dst_guard,
		     const struct ib_t10_dif_domain *src,
		     const struct t10_pi_tuple *from, struct t10_pi_tuple *to)
{
	const struct ib_t10_dif_domain *dst = dst_guard->dif;
	struct t10_pi_tuple gen = sig_expected(iv, dst_guard);

	to->guard_tag = src && src->bg_type == dst->bg_type &&
			src->bg == dst->bg ? from->guard_tag : gen.guard_tag;
	to->app_tag = src && src->app_tag == dst->app_tag ?
		      from->app_tag : gen.app_tag;
	to->ref_tag = src && src->ref_tag == dst->ref_tag &&
		      src->ref_remap == dst->ref_remap ?
		      from->ref_tag : gen.ref_tag;
}

/**
 * ib_sig_sw_interval_end - check and convert the PI of one whole interval
 * @iv:		the interval, all of its data fed
 * @to_wire:	the direction: memory to wire (the data leaves through the
 *		MR: RDMA WRITE, SEND, the responder's RDMA READ), or wire to
 *		memory
 * @src:	the source domain's tuple, NULL when that domain has no PI
 * @dst:	where the destination domain's tuple goes, NULL when that
 *		domain has no PI; it may be @src
 * @offset:	where @err places the interval: its index times the
 *		interval plus a tuple, whether or not the wire carries PI,
 *		which is how iser and isert find the failing block
 * @err:	where an error goes: its type, the expected and actual
 *		values and @offset; its key is left to the caller
 *
 * Return: true if the source tuple passed the checks the attributes ask
 * for; @dst is written either way.
 */
bool ib_sig_sw_interval_end(const struct ib_sig_sw_interval *iv,
			    bool to_wire, const struct t10_pi_tuple *src,
			    struct t10_pi_tuple *dst, u64 offset,
			    struct ib_sig_err *err)
{
	struct ib_sig_sw_guard wire = iv->wire;
	const struct ib_sig_sw_guard *src_guard = to_wire ? &iv->mem : &wire;
	const struct ib_sig_sw_guard *dst_guard = to_wire ? &wire : &iv->mem;
	struct t10_pi_tuple from = {};
	bool clean = true;

	/* A shared guard ran in @mem only; the wire keeps its own tags. */
	if (iv->shared) {
		wire.crc = iv->mem.crc;
		wire.sum = iv->mem.sum;
		wire.len = iv->mem.len;
	}

	if (WARN_ON_ONCE(!src != !src_guard->dif || !dst != !dst_guard->dif))
		return sig_fail(err, IB_SIG_BAD_GUARD, 0, 0, offset);
	if (src) {
		from = *src;
		clean = sig_verify(iv, src_guard, &from, offset, err);
	}
	if (dst)
		sig_fill(iv, dst_guard, src_guard->dif, &from, dst);
	return clean;
}
EXPORT_SYMBOL_GPL(ib_sig_sw_interval_end);

MODULE_DESCRIPTION("Software T10-PI signature handover for RDMA devices");
MODULE_LICENSE("GPL");
