/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The software T10-PI engine of the mock RDMA device: what an HCA with
 * signature offload does to the data that passes through an integrity MR.
 */
#ifndef _IB_MOCK_PI_H
#define _IB_MOCK_PI_H

#include <linux/t10-pi.h>
#include <rdma/signature.h>

/**
 * struct ib_mock_pi_io - one transfer through an integrity MR
 * @attrs:	the signature attributes the MR was registered with
 * @data:	memory domain: the data, @data_len bytes
 * @prot:	memory domain: one &struct t10_pi_tuple per protection
 *		interval, when the memory domain carries PI
 * @wire:	wire domain: the data, each interval followed by its tuple
 *		when the wire domain carries PI; ib_mock_pi_wire_len() bytes
 * @data_len:	bytes of data, a multiple of the protection interval
 */
struct ib_mock_pi_io {
	const struct ib_sig_attrs *attrs;
	u8 *data;
	u8 *prot;
	u8 *wire;
	size_t data_len;
};

int ib_mock_pi_validate(const struct ib_sig_attrs *attrs, size_t data_len,
			size_t prot_len);
size_t ib_mock_pi_wire_len(const struct ib_sig_attrs *attrs, size_t data_len);
size_t ib_mock_pi_prot_len(const struct ib_sig_attrs *attrs, size_t data_len);
__be16 ib_mock_pi_guard(const struct ib_t10_dif_domain *dif, const void *buf,
			size_t len);
bool ib_mock_pi_to_wire(const struct ib_mock_pi_io *io,
			struct ib_sig_err *err);
bool ib_mock_pi_from_wire(const struct ib_mock_pi_io *io,
			  struct ib_sig_err *err);

#endif /* _IB_MOCK_PI_H */
