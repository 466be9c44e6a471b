/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mock RDMA device's T10-PI transfers, through the software signature
 * engine (rdma/ib_sig_sw.h).
 */
#ifndef _IB_MOCK_PI_H
#define _IB_MOCK_PI_H

#include <rdma/signature.h>

/**
 * struct ib_mock_pi_io - one transfer through an integrity MR
 * @attrs:	the signature attributes the MR was registered with
 * @data:	memory domain: the data, @data_len bytes
 * @prot:	memory domain: one &struct t10_pi_tuple per protection
 *		interval, when the memory domain carries PI
 * @wire:	wire domain: the data, each interval followed by its tuple
 *		when the wire domain carries PI; ib_sig_sw_wire_len() bytes
 * @data_len:	bytes of data, a multiple of the protection interval
 */
struct ib_mock_pi_io {
	const struct ib_sig_attrs *attrs;
	u8 *data;
	u8 *prot;
	u8 *wire;
	size_t data_len;
};

bool ib_mock_pi_to_wire(const struct ib_mock_pi_io *io,
			struct ib_sig_err *err);
bool ib_mock_pi_from_wire(const struct ib_mock_pi_io *io,
			  struct ib_sig_err *err);

#endif /* _IB_MOCK_PI_H */
