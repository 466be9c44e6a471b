#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SRP through the RDMA R/W API, on soft RDMA devices.
#
# For each transport named on the command line (default: siw rxe), export
# a RAM disk through LIO's block backstore and ib_srpt, which listens on
# RDMA CM port 5555, log in to it with the ib_srp initiator through its
# sysfs add_target interface on the same machine, and have fio write and
# verify data on the SCSI disk that appears (see lib.sh).  ib_srpt
# moves the data of every SCSI command with the R/W API, one context per
# descriptor of the command: RDMA READ for writes, RDMA WRITE for reads.
#
# Needs root, iproute2 (ip, rdma), fio and the options in ./config; the
# target is set up through configfs, the initiator through sysfs.

ULP_NAME=srpt
ULP_MODULES="target_core_iblock ib_srpt ib_srp"
ULP_NEEDS_BDEV=1
ULP_WILDCARD=1
# ib_srpt's messages when a command's data or response failed to move,
# and ib_srp's when a work request of a live channel failed.
ULP_LOG_ERRORS='ib_srpt (RDMA_READ for ioctx|sending response for ioctx)[^.]* failed'
ULP_LOG_ERRORS+='|ib_srpt .*sending cmd response failed|ib_srp: failed [A-Z_ ]+ status'

source "$(dirname "$(readlink -f "$0")")/lib.sh"

SRP_PORT=5555
LIO=/sys/kernel/config/target
BACKSTORE=$LIO/core/iblock_0/rdmatest
SRPT=$LIO/srpt
TPORT=
INITIATOR=

ulp_check() {
	[ -d "$LIO" ] || { echo "no $LIO: configfs or LIO missing"; return 1; }
	[ -d /sys/class/infiniband_srp ] ||
		{ echo "no /sys/class/infiniband_srp: ib_srp missing"; return 1; }
}

# The first GID of port 1 of RDMA device $1, as 32 hex digits.
gid_hex() {
	tr -d : <"/sys/class/infiniband/$1/ports/1/gids/0"
}

no_srp_disk() {
	! scsi_disk ib_srp >/dev/null
}

# The target port, named after the GID of the target's RDMA port, serves
# the RAM disk to the initiator port $1 (ib_srpt already listens).
srpt_target_start() {
	local tpg=$TPORT/tpgt_1 acl=$TPORT/tpgt_1/acls/$1

	mkdir -p "$BACKSTORE" &&
		echo "udev_path=$BDEV" >"$BACKSTORE/control" &&
		echo 1 >"$BACKSTORE/enable" &&
		mkdir "$TPORT" "$tpg" "$tpg/lun/lun_0" &&
		ln -s "$BACKSTORE" "$tpg/lun/lun_0/rdmatest" &&
		mkdir "$acl" "$acl/lun_0" &&
		ln -s "$tpg/lun/lun_0" "$acl/lun_0/lun_0" &&
		echo 1 >"$tpg/enable"
}

ulp_start() {
	local dev=$2 guid

	mkdir -p "$SRPT" &&
		echo "$SRP_PORT" >"$SRPT/discovery_auth/rdma_cm_port" &&
		lo_device "$1" || return 1
	TPORT=$SRPT/0x$(gid_hex "$dev")
	# The initiator port ID of an RDMA CM login: the initiator extension
	# (0) and the interface ID of the initiator's first GID.
	INITIATOR=0x0000000000000000$(gid_hex "$dev" | cut -c17-32)
	srpt_target_start "$INITIATOR" || return 1
	# ib_srpt serves the target port ID made of its service GUID twice.
	guid=$(sed 's/^0x//' /sys/module/ib_srpt/parameters/srpt_service_guid)
	sh -c "echo id_ext=$guid,ioc_guid=$guid,dest=$ADDR:$SRP_PORT \
		>/sys/class/infiniband_srp/srp-$dev-1/add_target" || return 1
	if ! wait_for 20 scsi_disk ib_srp >/dev/null; then
		echo "no SCSI disk after add_target"
		return 1
	fi
	DATA=$(scsi_disk ib_srp)
}

ulp_disconnect() {
	local p

	for p in /sys/class/srp_remote_ports/port-*; do
		[ -e "$p/delete" ] && echo 1 >"$p/delete"
	done
	wait_for 20 no_srp_disk
}

ulp_stop() {
	local tpg=$TPORT/tpgt_1 acl=$TPORT/tpgt_1/acls/$INITIATOR

	if [ -n "$TPORT" ] && [ -d "$tpg" ]; then
		echo 0 >"$tpg/enable"
		rm -f "$acl/lun_0/lun_0"
		rmdir "$acl/lun_0" "$acl"
		rm -f "$tpg/lun/lun_0/rdmatest"
		rmdir "$tpg/lun/lun_0" "$tpg" "$TPORT"
	fi
	[ -d "$SRPT" ] && echo 0 >"$SRPT/discovery_auth/rdma_cm_port"
	if [ -d "$BACKSTORE" ]; then
		rmdir "$BACKSTORE" "${BACKSTORE%/*}"
	fi
	TPORT=
}

rdma_main "$@"
