#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# iSER through the RDMA R/W API, on soft RDMA devices.
#
# For each transport named on the command line (default: siw rxe), export
# a RAM disk through LIO's block backstore and its iSCSI target with an
# iSER portal, log in to it with open-iscsi over the iser transport on the
# same machine, and have fio write and verify data on the SCSI disk of
# the iSCSI session that the login made (see lib.sh).  isert moves the
# data of every SCSI command beyond what the initiator sent unsolicited
# with the R/W API: RDMA READ for writes, RDMA WRITE for reads.
#
# Needs root, iproute2 (ip, rdma), fio, open-iscsi (iscsid, iscsiadm)
# and the options in ./config; the target is set up through configfs.
# iscsid must not be running: the test starts its own and stops it at the
# end.  The initiator's node record is made in open-iscsi's database
# (/etc/iscsi/nodes) and removed at the end; the test does not run when
# a record or a session of its target and portal is there before it.
# It takes the disk of the session that is new after its login, to its
# target's IQN at its portal, and logs out of that target alone.
#
# With ISER_PI=1 (iser_pi_rdma_rw.sh), the LUN carries T10 protection
# information end to end: the backstore is a disk with a T10-DIF type 1
# profile, or type 3 with RDMA_TEST_PI_TYPE=3 (see lib.sh), the target
# portal group has t10_pi on, and the initiator's ib_iser has pi_enable
# set (a read-only module parameter: ib_iser.pi_enable=1 on the kernel
# command line, or at modprobe), so that its SCSI disk gets the same DIF
# type with an IP checksum guard in memory.
# isert then moves data and PI with the R/W API's signature offload, and
# iser through its own integrity MRs, converting the guard to the CRC
# that the wire carries: over rxe by default.  ISER_PI_FILE=1 puts the
# LUN on a LIO file backstore that keeps PI without checking it instead
# (see backstore_add in lib.sh).

ISER_PI=${ISER_PI:-0}
ULP_COMMANDS="iscsid iscsiadm"
ULP_MODULES="target_core_iblock iscsi_target_mod ib_isert ib_iser"
ULP_TARGET_MR=ib_isert
ULP_NEEDS_BDEV=1
if [ "$ISER_PI" = 1 ]; then
	: "${ULP_NAME:=isert-pi}"
	ULP_NEEDS_BDEV=pi
	[ "${ISER_PI_FILE:-0}" = 1 ] && ULP_NEEDS_BDEV="pi-file"
	# PI is generated and verified per sector-aligned bio_vec.
	ULP_MEM_ALIGN=512
fi
: "${ULP_NAME:=isert}"
# isert's and iser's messages when a work request failed other than by a
# flush, or a command's data could not be moved.
ULP_LOG_ERRORS='isert: [a-z_]+: ([A-Za-z /]+ failure: '
ULP_LOG_ERRORS+='|Cmd: .* failed to (prepare|post) RDMA res|ib_post_send failed)'
ULP_LOG_ERRORS+='|iser: [a-z_]+: ([A-Za-z /]+ failure: '
ULP_LOG_ERRORS+='|Failed to (set up Data-IN RDMA|register write cmd RDMA mem)'
ULP_LOG_ERRORS+='|failed to map sg)'
# The iSCSI transport's when the session lost its connection (over siw,
# also when the target closes it on logout, before the initiator stops
# it: that is after the I/O and not judged).
ULP_LOG_RECONNECT='connection[0-9]+:[0-9]+: detected conn error'

source "$(dirname "$(readlink -f "$0")")/lib.sh"

ISCSI_PORT=3260
IQN=iqn.2024-01.org.kernel.selftests:rdma-rw
TPG=$LIO/iscsi/$IQN/tpgt_1
NP=$TPG/np/$ADDR:$ISCSI_PORT
ISCSID_PID=
# The iSCSI sessions before the login.
SESSIONS=
MADE_TARGET=0
NODE=0
LOGGED_IN=0

# LIO's iSER portal is a child of an iSCSI portal and listens on its
# address and port.  An iWARP device runs its connections over TCP, and
# siw on this machine's sockets: its listener could not bind the port the
# iSCSI portal's socket holds.  Both sockets are made in the network
# namespace of the process that writes to configfs, so over siw the iSCSI
# portal is made from a namespace of its own, where its socket listens
# unused on a copy of the address; the namespace goes with the portal.
iscsi_portal_add() {
	if [ "$1" != siw ]; then
		mkdir "$NP"
		return
	fi
	# shellcheck disable=SC2016 # expanded by the inner shell
	unshare --net sh -c 'ip link set lo up &&
		ip addr add "$1/32" dev lo && mkdir "$2"' sh "$ADDR" "$NP"
}

ulp_check() {
	local pi=/sys/module/ib_iser/parameters/pi_enable

	[ -d "$LIO" ] || { echo "no $LIO: configfs or LIO missing"; return 1; }
	if pidof iscsid >/dev/null; then
		echo "iscsid is running: stop it first"
		return 1
	fi
	if [ "$ISER_PI" = 1 ] && [ "$(cat "$pi" 2>/dev/null)" != Y ]; then
		echo "ib_iser's pi_enable is off: boot with ib_iser.pi_enable=1"
		return 1
	fi
}

# PI on the backstore and in the session, and the initiator's disk with
# the backstore's T10-DIF type; none in a control run, where rxe has no
# signature handover and iser goes on without PI.
iser_pi_check() {
	local prot format want="T10-DIF-TYPE$PI_TYPE-*"

	prot=$(cat "$BACKSTORE/attrib/pi_prot_type")
	format=$(cat "/sys/block/${DATA#/dev/}/integrity/format")
	if [ "$prot" != "$PI_TYPE" ]; then
		echo "the backstore has pi_prot_type $prot"
		return 1
	fi
	[ "${RDMA_TEST_HANDOVER:-1}" = 0 ] && want=none
	# shellcheck disable=SC2254 # $want is a pattern
	case $format in
	$want) ;;
	*)
		echo "the initiator's disk has integrity profile $format"
		return 1
		;;
	esac
	ULP_NOTE="initiator disk $DATA: integrity $format"
}

# The iSCSI sessions there are, sessionN, one a line.
iscsi_sessions() {
	local s

	for s in /sys/class/iscsi_session/session*; do
		[ -e "$s" ] && echo "${s##*/}"
	done
}

# The iSCSI sessions (sessionN) over ib_iser to $IQN at $ADDR:$ISCSI_PORT
# that are not in the list $1.
iser_sessions() {
	local s c h

	while read -r s; do
		c=$(echo "/sys/class/iscsi_connection/connection${s#session}:"*)
		h=$(basename "$(dirname "$(readlink -f \
			"/sys/class/iscsi_session/$s/device")")")
		[ "$(cat "/sys/class/iscsi_session/$s/targetname")" = "$IQN" ] &&
			[ "$(cat "$c/persistent_address")" = "$ADDR" ] &&
			[ "$(cat "$c/persistent_port")" = "$ISCSI_PORT" ] &&
			[ "$(cat "/sys/class/scsi_host/$h/proc_name")" = iscsi_iser ] &&
			echo "$s"
	done < <(iscsi_sessions | not_in "$1")
}

# The disk of the login's session, the one session new since $SESSIONS.
iser_disk() {
	local s

	s=$(iser_sessions "$SESSIONS")
	[ "$(wc -w <<<"$s")" = 1 ] &&
		scsi_disk_of "/sys/class/iscsi_session/$s/device"
}

# An iSCSI target with one LUN, open to any initiator without
# authentication, listening on $ADDR for iSCSI and iSER over transport
# $1.
lio_target_start() {
	backstore_add && mkdir -p "$LIO/iscsi" && mkdir "${TPG%/*}" &&
		MADE_TARGET=1 && mkdir -p "$TPG/lun/lun_0" &&
		ln -s "$BACKSTORE" "$TPG/lun/lun_0/rdmatest" &&
		iscsi_portal_add "$1" &&
		echo 1 >"$NP/iser" &&
		echo "$ISER_PI" >"$TPG/attrib/t10_pi" &&
		echo 0 >"$TPG/attrib/authentication" &&
		echo 1 >"$TPG/attrib/generate_node_acls" &&
		echo 0 >"$TPG/attrib/demo_mode_write_protect" &&
		echo 1 >"$TPG/enable"
}

# iscsid takes iscsiadm's requests on an abstract socket once it is up.
iscsid_listening() {
	grep -q '@ISCSIADM_ABSTRACT_NAMESPACE' /proc/net/unix
}

ulp_start() {
	lio_target_start "$1" || return 1
	daemon_start ISCSID_PID "$TMP/iscsid.log" iscsid -f -n
	if ! wait_for 10 iscsid_listening; then
		echo "iscsid did not start: $(tail -n 1 "$TMP/iscsid.log")"
		return 1
	fi
	# Logout and delete name the target and portal: they must be the
	# test's alone.
	if iscsiadm -m node -T "$IQN" -p "$ADDR:$ISCSI_PORT" -I iser \
			>/dev/null 2>&1; then
		echo "a node record of $IQN at $ADDR:$ISCSI_PORT is there already"
		return 1
	fi
	SESSIONS=$(iscsi_sessions)
	if [ -n "$(iser_sessions "")" ]; then
		echo "a session to $IQN at $ADDR:$ISCSI_PORT is there already"
		return 1
	fi
	iscsiadm -m node -o new -T "$IQN" -p "$ADDR:$ISCSI_PORT" -I iser ||
		return 1
	NODE=1
	LOGGED_IN=1
	iscsiadm -m node -T "$IQN" -p "$ADDR:$ISCSI_PORT" -I iser --login ||
		return 1
	if ! wait_for 20 iser_disk >/dev/null; then
		echo "no one SCSI disk of one new session to $IQN after login"
		return 1
	fi
	DATA=$(iser_disk)
	[ "$ISER_PI" = 0 ] || iser_pi_check
}

ulp_disconnect() {
	if [ $LOGGED_IN = 1 ]; then
		iscsiadm -m node -T "$IQN" -p "$ADDR:$ISCSI_PORT" -I iser --logout
		LOGGED_IN=0
	fi
	if [ $NODE = 1 ]; then
		iscsiadm -m node -o delete -T "$IQN" -p "$ADDR:$ISCSI_PORT" -I iser
		NODE=0
	fi
}

ulp_stop() {
	if [ -n "$ISCSID_PID" ]; then
		daemon_stop "$ISCSID_PID"
		ISCSID_PID=
	fi
	if [ $MADE_TARGET = 1 ]; then
		echo 0 >"$TPG/enable"
		[ -d "$NP" ] && echo 0 >"$NP/iser"
		[ -d "$NP" ] && rmdir "$NP"
		rm -f "$TPG/lun/lun_0/rdmatest"
		rmdir "$TPG/lun/lun_0" "$TPG"
		rmdir "${TPG%/*}" && MADE_TARGET=0
	fi
	backstore_remove
}

# Only rxe has signature handover.
[ "$ISER_PI" = 0 ] || [ $# -gt 0 ] || set -- rxe
rdma_main "$@"
