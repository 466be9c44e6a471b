#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# iSER with T10 protection information: a block whose PI does not match
# its data is refused, never returned.  The setup of iser_pi_rdma_rw.sh
# (over rxe by default); instead of fio, lib.sh's stale-pi corruption on
# four blocks: each rewritten on the backstore's disk with write_generate
# off, so that the disk keeps the old PI, and read by the initiator,
# which must get an error and not the new data.  The blocks next to them
# must read back intact.
#
# A write with PI that does not match cannot be injected from the
# initiator as the NVMe test does: SG_IO carries no protection buffer,
# and the block layer generates the PI of every other write.

iser_pi_corrupt() {
	corrupt_check stale_pi
}

ISER_PI=1
ULP_NAME=isert-pi-corrupt
ULP_DATA=iser_pi_corrupt
source "$(dirname "$(readlink -f "$0")")/iser_rdma_rw.sh"
