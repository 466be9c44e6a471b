#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# NVMe over Fabrics through the RDMA R/W API, on soft RDMA devices.
#
# For each transport named on the command line (default: siw rxe), export
# a RAM disk through nvmet-rdma, connect to it with nvme-rdma on the same
# machine and have fio write and verify data (see lib.sh).  nvmet-rdma
# moves the data of every command that does not fit inline with the R/W
# API: RDMA READ for host writes, RDMA WRITE for host reads.  siw (iWARP)
# needs a registered MR as the sink of a READ, rxe (RoCE) takes SGE lists;
# ib_core.force_mr=1 on the kernel command line makes both register MRs
# in both directions.
#
# With NVME_PI=1 (nvme_pi_rdma_rw.sh), the namespace carries T10 protection
# information end to end: a disk with a T10-DIF type 1 profile, or type
# 3 with RDMA_TEST_PI_TYPE=3 (see lib.sh), PI enabled on the nvmet port
# and subsystem, and a host whose namespace gets the same profile, so
# that the block layer generates the PI of every write and verifies that
# of every read.  nvmet-rdma then moves data and PI with the R/W API's
# signature offload, through integrity MRs, and the host's nvme-rdma
# through its own: over rxe by default, the soft device with signature
# handover.
#
# Needs root, iproute2 (ip, rdma), nvme-cli, fio and the options in
# ./config.

NVME_PI=${NVME_PI:-0}
ULP_COMMANDS=nvme
ULP_MODULES="nvmet-rdma nvme-rdma"
ULP_NEEDS_BDEV=1
if [ "$NVME_PI" = 1 ]; then
	: "${ULP_NAME:=nvmet-pi}"
	ULP_NEEDS_BDEV=pi
	# The block layer generates and verifies PI one bio_vec at a time,
	# so a namespace with PI takes only buffers aligned to its sectors.
	ULP_MEM_ALIGN=512
fi
: "${ULP_NAME:=nvmet}"
# nvmet-rdma's messages when a command's data or response failed to move
# (flushed work requests at disconnect are not reported).
ULP_LOG_ERRORS='nvmet_rdma: (RDMA (READ|WRITE) for CQE|SEND for CQE'
ULP_LOG_ERRORS+='|sending cmd response|post_recv cmd)[^.]* failed'

source "$(dirname "$(readlink -f "$0")")/lib.sh"

PORT=4420
NQN=nqn.2024-01.org.kernel.selftests:rdma-rw
CFS=/sys/kernel/config/nvmet
HOSTID=$(cat /proc/sys/kernel/random/uuid)
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$HOSTID

ulp_check() {
	[ -d "$CFS" ] || { echo "no $CFS: configfs or nvmet missing"; return 1; }
}

# PI on the port and the subsystem, and the host's namespace with the
# disk's profile.
nvme_pi_check() {
	local format

	format=$(cat "/sys/block/${DATA#/dev/}/integrity/format")
	if [ "$(cat "$CFS/ports/1/param_pi_enable")" != 1 ]; then
		echo "nvmet turned PI off on the port: the device has no signature handover"
		return 1
	fi
	if [ "$format" != "T10-DIF-TYPE$PI_TYPE-CRC" ]; then
		echo "the host's namespace has integrity profile $format"
		return 1
	fi
	ULP_NOTE="host namespace $DATA: integrity $format"
}

# The block device of the namespace the host sees for $NQN.
nvme_bdev() {
	local b

	for b in /sys/block/nvme*; do
		[ "$(cat "$b/device/subsysnqn" 2>/dev/null)" = "$NQN" ] || continue
		[ -b "/dev/${b##*/}" ] || continue
		echo "/dev/${b##*/}"
		return 0
	done
	return 1
}

ulp_start() {
	local sub=$CFS/subsystems/$NQN port=$CFS/ports/1

	mkdir "$sub" &&
		echo 1 >"$sub/attr_allow_any_host" &&
		echo "$NVME_PI" >"$sub/attr_pi_enable" &&
		mkdir "$sub/namespaces/1" &&
		echo "$BDEV" >"$sub/namespaces/1/device_path" &&
		echo 1 >"$sub/namespaces/1/enable" &&
		mkdir "$port" &&
		echo rdma >"$port/addr_trtype" &&
		echo ipv4 >"$port/addr_adrfam" &&
		echo "$ADDR" >"$port/addr_traddr" &&
		echo "$PORT" >"$port/addr_trsvcid" &&
		echo "$NVME_PI" >"$port/param_pi_enable" &&
		ln -s "$sub" "$port/subsystems/$NQN" || return 1
	nvme connect -t rdma -a "$ADDR" -s "$PORT" -n "$NQN" \
		--hostnqn="$HOSTNQN" --hostid="$HOSTID" || return 1
	if ! wait_for 10 nvme_bdev >/dev/null; then
		echo "no namespace block device after connect"
		return 1
	fi
	DATA=$(nvme_bdev)
	[ "$NVME_PI" = 0 ] || nvme_pi_check
}

ulp_disconnect() {
	nvme disconnect -n "$NQN"
}

ulp_stop() {
	local sub=$CFS/subsystems/$NQN port=$CFS/ports/1

	rm -f "$port/subsystems/$NQN"
	[ -d "$port" ] && rmdir "$port"
	if [ -d "$sub" ]; then
		echo 0 >"$sub/namespaces/1/enable" 2>/dev/null
		rmdir "$sub/namespaces/1" 2>/dev/null
		rmdir "$sub"
	fi
}

# Only rxe has signature handover.
[ "$NVME_PI" = 0 ] || [ $# -gt 0 ] || set -- rxe
rdma_main "$@"
