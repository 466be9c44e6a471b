/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Software T10-PI signature handover, for RDMA devices that move data with
 * the CPU: what an HCA with signature offload does to the data that passes
 * through an integrity MR, one protection interval at a time.
 */
#ifndef _RDMA_IB_SIG_SW_H
#define _RDMA_IB_SIG_SW_H

#include <linux/t10-pi.h>
#include <net/checksum.h>
#include <rdma/signature.h>

/**
 * struct ib_sig_sw_guard - the guard tag of one interval, computed piecewise
 * @dif:	the domain whose guard this is (type and seed), or NULL when
 *		the domain carries no PI
 * @sum:	IP checksum so far
 * @len:	bytes fed so far
 * @crc:	CRC16 T10-DIF so far
 */
struct ib_sig_sw_guard {
	const struct ib_t10_dif_domain *dif;
	__wsum sum;
	u32 len;
	u16 crc;
};

/**
 * struct ib_sig_sw_interval - one protection interval on its way between
 *	the memory and the wire domain
 * @attrs:	the signature attributes of the integrity MR
 * @index:	its number in the transfer, from 0; the reference tag of a
 *		remapping domain grows by one per interval
 * @mem:	the guard of its data as the memory domain computes it
 * @wire:	the same for the wire domain
 * @shared:	both domains compute the same guard (type and seed), so
 *		@mem alone is fed
 */
struct ib_sig_sw_interval {
	const struct ib_sig_attrs *attrs;
	u32 index;
	struct ib_sig_sw_guard mem;
	struct ib_sig_sw_guard wire;
	bool shared;
};

u32 ib_sig_sw_pi_interval(const struct ib_sig_attrs *attrs);
int ib_sig_sw_validate(const struct ib_sig_attrs *attrs, size_t data_len,
		       size_t prot_len);
size_t ib_sig_sw_wire_len(const struct ib_sig_attrs *attrs, size_t data_len);
size_t ib_sig_sw_prot_len(const struct ib_sig_attrs *attrs, size_t data_len);

void ib_sig_sw_guard_init(struct ib_sig_sw_guard *guard,
			  const struct ib_t10_dif_domain *dif);
void ib_sig_sw_guard_update(struct ib_sig_sw_guard *guard, const void *buf,
			    size_t len);
__be16 ib_sig_sw_guard_final(const struct ib_sig_sw_guard *guard);

void ib_sig_sw_interval_init(struct ib_sig_sw_interval *iv,
			     const struct ib_sig_attrs *attrs, u32 index);
void ib_sig_sw_interval_update(struct ib_sig_sw_interval *iv,
			       const void *buf, size_t len);
bool ib_sig_sw_interval_end(const struct ib_sig_sw_interval *iv,
			    bool to_wire, const struct t10_pi_tuple *src,
			    struct t10_pi_tuple *dst, u64 offset,
			    struct ib_sig_err *err);

#endif /* _RDMA_IB_SIG_SW_H */
