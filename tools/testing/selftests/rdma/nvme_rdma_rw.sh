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
# handover.  NVME_PI_LOOP=1 puts the namespace on a disk whose PI no layer
# below nvmet checks instead (see loop_disk_setup in lib.sh).
#
# Needs root, iproute2 (ip, rdma), nvme-cli, fio and the options in
# ./config.  The test makes its own nvmet subsystem and port (the first
# port ID free), takes the namespace of the controller that is new after
# its connect, with its own host NQN, and disconnects that controller
# alone.

NVME_PI=${NVME_PI:-0}
ULP_COMMANDS=nvme
ULP_MODULES="nvmet-rdma nvme-rdma"
ULP_TARGET_MR=nvmet_rdma
ULP_NEEDS_BDEV=1
if [ "$NVME_PI" = 1 ]; then
	: "${ULP_NAME:=nvmet-pi}"
	ULP_NEEDS_BDEV=pi
	[ "${NVME_PI_LOOP:-0}" = 1 ] && ULP_NEEDS_BDEV="pi-loop"
	# The block layer generates and verifies PI one bio_vec at a time,
	# so a namespace with PI takes only buffers aligned to its sectors.
	ULP_MEM_ALIGN=512
fi
: "${ULP_NAME:=nvmet}"
# nvmet-rdma's messages when a command's data or response failed to move
# (flushed work requests at disconnect are not reported).
ULP_LOG_ERRORS='nvmet_rdma: (RDMA (READ|WRITE) for CQE|SEND for CQE'
ULP_LOG_ERRORS+='|sending cmd response|post_recv cmd)[^.]* failed'
# The host's when it lost its controller and recovers or reconnects.
ULP_LOG_RECONNECT='nvme nvme[0-9]+: (starting error recovery|Reconnecting in'
ULP_LOG_RECONNECT+='|Failed reconnect attempt|Successfully reconnected)'

source "$(dirname "$(readlink -f "$0")")/lib.sh"

PORT=4420
NQN=nqn.2024-01.org.kernel.selftests:rdma-rw
CFS=/sys/kernel/config/nvmet
HOSTID=$(cat /proc/sys/kernel/random/uuid)
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$HOSTID
SUB=$CFS/subsystems/$NQN
# The nvmet port the test makes.
NVMET_PORT=
# The NVMe controllers and block devices before the connect.
CTRLS=
BLOCKS=
MADE_SUB=0
MADE_PORT=0
CONNECTED=0

ulp_check() {
	[ -d "$CFS" ] || { echo "no $CFS: configfs or nvmet missing"; return 1; }
}

# PI on the port and the subsystem, and the host's namespace with the
# disk's profile.
nvme_pi_check() {
	local format

	format=$(cat "/sys/block/${DATA#/dev/}/integrity/format")
	if [ "$(cat "$NVMET_PORT/param_pi_enable")" != 1 ]; then
		echo "nvmet turned PI off on the port: the device has no signature handover"
		return 1
	fi
	if [ "$format" != "T10-DIF-TYPE$PI_TYPE-CRC" ]; then
		echo "the host's namespace has integrity profile $format"
		return 1
	fi
	ULP_NOTE="host namespace $DATA: integrity $format"
}

# The names in directory $1, one a line.
names_in() {
	local n

	for n in "$1"/*; do
		[ -e "$n" ] && echo "${n##*/}"
	done
}

# The controller of the connect: new since $CTRLS, to $NQN at
# $ADDR:$PORT over RDMA from $HOSTNQN.  Fails unless there is one and no
# more.
nvme_ctrl() {
	local c d ctrls=()

	while read -r c; do
		d=/sys/class/nvme/$c
		[ "$(cat "$d/subsysnqn")" = "$NQN" ] || continue
		[ "$(cat "$d/hostnqn")" = "$HOSTNQN" ] || continue
		[ "$(cat "$d/transport")" = rdma ] || continue
		case $(cat "$d/address") in
		"traddr=$ADDR,trsvcid=$PORT"|"traddr=$ADDR,trsvcid=$PORT,"*)
			ctrls+=("$c") ;;
		esac
	done < <(names_in /sys/class/nvme | not_in "$CTRLS")
	[ ${#ctrls[@]} = 1 ] || return 1
	echo "${ctrls[0]}"
}

# The block device of the namespace of the connect's controller, new
# since $BLOCKS: the controller's own, or the head of its path
# (nvme<subsystem>c<controller>n<nsid>) with native multipath.
nvme_bdev() {
	local c n b disks=()

	c=$(nvme_ctrl) || return 1
	for n in "/sys/class/nvme/$c/"nvme*n*; do
		b=${n##*/}
		[[ $b =~ ^nvme([0-9]+)c[0-9]+n([0-9]+)$ ]] &&
			b=nvme${BASH_REMATCH[1]}n${BASH_REMATCH[2]}
		[ -b "/dev/$b" ] && ! grep -qxF "$b" <<<"$BLOCKS" &&
			disks+=("/dev/$b")
	done
	[ ${#disks[@]} = 1 ] || return 1
	echo "${disks[0]}"
}

ulp_start() {
	local sub=$SUB port id=1 depth=128 qs=()

	# nvme-rdma caps its queues at 128 entries on a device with signature
	# handover; rxe offers it only when asked for, so without PI a
	# controller over rxe gets the 256 that it and the port ask for.
	if [ "$1" = rxe ] && [ "$NVME_PI" = 0 ]; then
		depth=256
		qs=(--queue-size=256)
	fi
	# The first port ID free.
	while [ -e "$CFS/ports/$id" ]; do
		id=$((id + 1))
	done
	NVMET_PORT=$CFS/ports/$id
	port=$NVMET_PORT
	mkdir "$sub" || return 1
	MADE_SUB=1
	echo 1 >"$sub/attr_allow_any_host" &&
		echo "$NVME_PI" >"$sub/attr_pi_enable" &&
		mkdir "$sub/namespaces/1" &&
		echo "$BDEV" >"$sub/namespaces/1/device_path" &&
		echo 1 >"$sub/namespaces/1/enable" &&
		mkdir "$port" && MADE_PORT=1 &&
		echo rdma >"$port/addr_trtype" &&
		echo ipv4 >"$port/addr_adrfam" &&
		echo "$ADDR" >"$port/addr_traddr" &&
		echo "$PORT" >"$port/addr_trsvcid" &&
		echo "$NVME_PI" >"$port/param_pi_enable" &&
		echo "$depth" >"$port/param_max_queue_size" &&
		ln -s "$sub" "$port/subsystems/$NQN" || return 1
	CTRLS=$(names_in /sys/class/nvme)
	BLOCKS=$(names_in /sys/block)
	CONNECTED=1
	nvme connect -t rdma -a "$ADDR" -s "$PORT" -n "$NQN" "${qs[@]}" \
		--hostnqn="$HOSTNQN" --hostid="$HOSTID" || return 1
	if ! wait_for 10 nvme_bdev >/dev/null; then
		echo "no one new namespace of one new controller after connect"
		return 1
	fi
	DATA=$(nvme_bdev)
	[ ${#qs[@]} = 0 ] || nvme_full_queue || return 1
	[ "$NVME_PI" = 0 ] || nvme_pi_check
}

# The test's controller has I/O queues of 256 entries (sqsize 255).
nvme_full_queue() {
	local c sq

	c=$(nvme_ctrl) || return 1
	sq=$(cat "/sys/class/nvme/$c/sqsize")
	[ "$sq" = 255 ] && return 0
	echo "$c: sqsize $sq, not the 255 that --queue-size=256 asks for"
	return 1
}

ulp_disconnect() {
	local c

	[ $CONNECTED = 1 ] || return 0
	c=$(nvme_ctrl) || return 1
	nvme disconnect -d "$c" && CONNECTED=0
}

ulp_stop() {
	local sub=$SUB port=$NVMET_PORT

	if [ $MADE_PORT = 1 ]; then
		rm -f "$port/subsystems/$NQN"
		rmdir "$port" && MADE_PORT=0
	fi
	if [ $MADE_SUB = 1 ]; then
		echo 0 >"$sub/namespaces/1/enable" 2>/dev/null
		rmdir "$sub/namespaces/1" 2>/dev/null
		rmdir "$sub" && MADE_SUB=0
	fi
}

# Only rxe has signature handover.
[ "$NVME_PI" = 0 ] || [ $# -gt 0 ] || set -- rxe
rdma_main "$@"
