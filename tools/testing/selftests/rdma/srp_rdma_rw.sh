#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SRP through the RDMA R/W API, on soft RDMA devices.
#
# For each transport named on the command line (default: siw rxe), export
# a RAM disk through LIO's block backstore and ib_srpt, which listens on
# RDMA CM port 5555 (or on the port it was given before), log in to it
# with the ib_srp initiator through its sysfs add_target interface on the
# same machine, and have fio write and verify data on the SCSI disk of
# the SCSI host that the login made (see lib.sh).  ib_srpt moves the data
# of every SCSI command with the R/W API, one context per descriptor of
# the command: RDMA READ for writes, RDMA WRITE for reads.
#
# Needs root, iproute2 (ip, rdma), fio and the options in ./config; the
# target is set up through configfs, the initiator through sysfs.  The
# test takes the SCSI host that is new after its login and is logged in
# from its RDMA device to its target's IDs, and deletes that host's
# remote port alone.

ULP_NAME=srpt
ULP_MODULES="target_core_iblock ib_srpt ib_srp"
ULP_TARGET_MR=ib_srpt
ULP_NEEDS_BDEV=1
ULP_WILDCARD=1
# ib_srpt's messages when a command's data or response failed to move,
# and ib_srp's when a work request of a live channel failed.
ULP_LOG_ERRORS='ib_srpt (RDMA_READ for ioctx|sending response for ioctx)[^.]* failed'
ULP_LOG_ERRORS+='|ib_srpt .*sending cmd response failed|ib_srp: failed [A-Z_ ]+ status'
# The SRP transport's when it reconnected.
ULP_LOG_RECONNECT='reconnect (succeeded|attempt [0-9]+ failed)'

source "$(dirname "$(readlink -f "$0")")/lib.sh"

SRP_PORT=
SRPT=$LIO/srpt
CM_PORT=$SRPT/discovery_auth/rdma_cm_port
TPORT=
INITIATOR=
# The login's RDMA device and target port IDs (id_ext and ioc_guid both),
# and the SCSI hosts of ib_srp before it.
SRP_DEV=
SRP_ID=
SRP_HOSTS=
SET_CM_PORT=0
MADE_TPORT=0
ADDED_TARGET=0

ulp_check() {
	[ -d "$LIO" ] || { echo "no $LIO: configfs or LIO missing"; return 1; }
	[ -d /sys/class/infiniband_srp ] ||
		{ echo "no /sys/class/infiniband_srp: ib_srp missing"; return 1; }
}

# The first GID of port 1 of RDMA device $1, as 32 hex digits.
gid_hex() {
	tr -d : <"/sys/class/infiniband/$1/ports/1/gids/0"
}

# The SCSI host of the login: new since $SRP_HOSTS, of ib_srp on $SRP_DEV,
# logged in to $SRP_ID.  Fails unless there is one and no more.
srp_host() {
	local h s hosts=()

	while read -r h; do
		s=/sys/class/scsi_host/$h
		[ "$(cat "$s/local_ib_device")" = "$SRP_DEV" ] &&
			[ "$(cat "$s/id_ext")" = "$SRP_ID" ] &&
			[ "$(cat "$s/ioc_guid")" = "$SRP_ID" ] && hosts+=("$h")
	done < <(scsi_hosts ib_srp | not_in "$SRP_HOSTS")
	[ ${#hosts[@]} = 1 ] || return 1
	echo "${hosts[0]}"
}

srp_disk() {
	local h

	h=$(srp_host) && scsi_disk_of "/sys/class/scsi_host/$h/device"
}

# The target port, named after the GID of the target's RDMA port, serves
# the RAM disk to the initiator port $1 (ib_srpt already listens).
srpt_target_start() {
	local tpg=$TPORT/tpgt_1 acl=$TPORT/tpgt_1/acls/$1

	backstore_add && mkdir "$TPORT" && MADE_TPORT=1 &&
		mkdir "$tpg" "$tpg/lun/lun_0" &&
		ln -s "$BACKSTORE" "$tpg/lun/lun_0/rdmatest" &&
		mkdir "$acl" "$acl/lun_0" &&
		ln -s "$tpg/lun/lun_0" "$acl/lun_0/lun_0" &&
		echo 1 >"$tpg/enable"
}

ulp_start() {
	local dev=$2

	# ib_srpt has one RDMA CM port, on the wildcard address: the test
	# sets it to 5555 when it has none, and uses the one it has else.
	mkdir -p "$SRPT" && SRP_PORT=$(cat "$CM_PORT") || return 1
	if [ "$SRP_PORT" = 0 ]; then
		SRP_PORT=5555
		echo "$SRP_PORT" >"$CM_PORT" || return 1
		SET_CM_PORT=1
	fi
	lo_device "$1" || return 1
	TPORT=$SRPT/0x$(gid_hex "$dev")
	# The initiator port ID of an RDMA CM login: the initiator extension
	# (0) and the interface ID of the initiator's first GID.
	INITIATOR=0x0000000000000000$(gid_hex "$dev" | cut -c17-32)
	srpt_target_start "$INITIATOR" || return 1
	# ib_srpt serves the target port ID made of its service GUID twice.
	SRP_ID=$(cat /sys/module/ib_srpt/parameters/srpt_service_guid)
	SRP_DEV=$dev
	SRP_HOSTS=$(scsi_hosts ib_srp)
	ADDED_TARGET=1
	sh -c "echo id_ext=${SRP_ID#0x},ioc_guid=${SRP_ID#0x},dest=$ADDR:$SRP_PORT \
		>/sys/class/infiniband_srp/srp-$dev-1/add_target" || return 1
	if ! wait_for 20 srp_disk >/dev/null; then
		echo "no one SCSI disk of one new SCSI host of $SRP_ID after add_target"
		return 1
	fi
	DATA=$(srp_disk)
}

# The remote port of the login's SCSI host deleted, and with it the host.
ulp_disconnect() {
	local h p

	[ $ADDED_TARGET = 1 ] || return 0
	h=$(srp_host) || return 1
	for p in /sys/class/srp_remote_ports/port-"${h#host}":*; do
		[ -e "$p/delete" ] && echo 1 >"$p/delete"
	done
	wait_for 20 test ! -e "/sys/class/scsi_host/$h" || return 1
	ADDED_TARGET=0
}

ulp_stop() {
	local tpg=$TPORT/tpgt_1 acl=$TPORT/tpgt_1/acls/$INITIATOR

	if [ $MADE_TPORT = 1 ]; then
		echo 0 >"$tpg/enable"
		rm -f "$acl/lun_0/lun_0"
		rmdir "$acl/lun_0" "$acl"
		rm -f "$tpg/lun/lun_0/rdmatest"
		rmdir "$tpg/lun/lun_0" "$tpg"
		rmdir "$TPORT" && MADE_TPORT=0
	fi
	if [ $SET_CM_PORT = 1 ]; then
		echo 0 >"$CM_PORT" && SET_CM_PORT=0
	fi
	backstore_remove
}

rdma_main "$@"
