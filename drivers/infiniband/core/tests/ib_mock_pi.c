// SPDX-License-Identifier: GPL-2.0-only
/*
 * The mock RDMA device's T10-PI transfers: a whole transfer through an
 * integrity MR, run through the software signature engine (ib_sig_sw.c)
 * one protection interval at a time, as rxe runs it packet by packet.
 * The mock moves a transfer in one go between flat buffers: the data and
 * PI of the memory domain, and the wire stream.
 */
#include <linux/export.h>
#include <linux/module.h>
#include <linux/string.h>
#include <rdma/ib_sig_sw.h>

#include "ib_mock_pi.h"

#define PI_TUPLE	sizeof(struct t10_pi_tuple)

static bool pi_move(const struct ib_mock_pi_io *io, bool to_wire,
		    struct ib_sig_err *err)
{
	const struct ib_sig_attrs *attrs = io->attrs;
	bool mem_pi = attrs->mem.sig_type == IB_SIG_TYPE_T10_DIF;
	bool wire_pi = attrs->wire.sig_type == IB_SIG_TYPE_T10_DIF;
	u32 interval = ib_sig_sw_pi_interval(attrs);
	struct ib_sig_sw_interval iv;
	size_t stride, block;
	bool clean = true;

	if (!interval) {
		if (to_wire)
			memcpy(io->wire, io->data, io->data_len);
		else
			memcpy(io->data, io->wire, io->data_len);
		return true;
	}

	stride = interval + (wire_pi ? PI_TUPLE : 0);
	for (block = 0; block < io->data_len / interval; block++) {
		u8 *data = io->data + block * interval;
		u8 *on_wire = io->wire + block * stride;
		void *mem_t = mem_pi ? io->prot + block * PI_TUPLE : NULL;
		void *wire_t = wire_pi ? on_wire + interval : NULL;
		struct ib_sig_err e;

		if (to_wire)
			memcpy(on_wire, data, interval);
		else
			memcpy(data, on_wire, interval);
		ib_sig_sw_interval_init(&iv, attrs, block);
		ib_sig_sw_interval_update(&iv, data, interval);
		/* The first error is the transfer's. */
		if (!ib_sig_sw_interval_end(&iv, to_wire,
					    to_wire ? mem_t : wire_t,
					    to_wire ? wire_t : mem_t,
					    block * (interval + PI_TUPLE),
					    &e) && clean) {
			*err = e;
			clean = false;
		}
	}
	return clean;
}

/**
 * ib_mock_pi_to_wire - move data from memory to the wire (RDMA WRITE)
 * @io:		the transfer; ib_sig_sw_validate() accepted its attributes
 * @err:	where the first PI error goes; its offset is the failing
 *		interval's index times the interval plus a tuple, key unset
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
 * @io:		the transfer; ib_sig_sw_validate() accepted its attributes
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

MODULE_DESCRIPTION("T10-PI transfers of the mock RDMA device");
MODULE_LICENSE("GPL");
