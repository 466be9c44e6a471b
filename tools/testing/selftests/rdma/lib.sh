#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# What the rdma selftests share: a soft RDMA device (siw or rxe) on a dummy
# interface, a RAM disk, fio with every block checked, the device's
# resources before and after, and the kernel log.
#
# A test sources this file, defines the hooks below and calls rdma_main
# with the transports to run (default: siw rxe).  Each transport gets four
# results:
#   data      the ULP's initiator connects to its target on the same
#             machine over the transport and fio writes and verifies data
#             (or the test's own ULP_DATA check runs), over one connection
#             (connections_kept) and without an error on the device
#             (dev_errors)
#   qp-mr     no QP or MR of the device is left once the initiator is gone
#   teardown  nothing is left (PD, CQ, QP, CM ID, MR) once the target is
#   dmesg     no WARNING, BUG, Oops, KASAN or lockdep report in the kernel
#             log, nor any line matching $ULP_LOG_ERRORS
#
# Hooks and settings of the test:
#   ULP_NAME          what the messages call the test
#   ULP_COMMANDS      userspace commands it needs beyond the common ones
#   ULP_MODULES       modules to load (ignored when built in)
#   ULP_NEEDS_BDEV    1 when the target exports $BDEV; pi when $BDEV
#                     must also carry T10 protection information;
#                     pi-file for a SCSI target whose LIO backstore is a
#                     file in $TMP with protection information of
#                     $RDMA_TEST_PI_TYPE that nothing on the target checks
#                     (backstore_add); pi-loop when $BDEV is that
#                     backstore's SCSI disk on LIO's loopback fabric
#                     (loop_disk_setup)
#   ULP_LOG_ERRORS    extended regex of the ULP's own I/O error messages
#   ULP_LOG_RECONNECT extended regex of the messages of a ULP that lost
#                     its connection, recovers or reconnects: none may
#                     come from the start of the run to the end of its I/O
#   ULP_TARGET_MR     the module that owns the target's MRs in the RDMA
#                     resource list (rdma resource show mr: comm), when no
#                     initiator module of the test shares its name; fio_data
#                     then counts the MRs the R/W API registered for it
#   ULP_TARGET_TASK   when the target's module is also the initiator's
#   ULP_TARGET_PORT   (no ULP_TARGET_MR): the name of the target's tasks
#                     that create its QPs, and the port it listens on.
#                     fio_data then counts the MRs those tasks allocated
#                     (a trace instance of the test's own records their
#                     IDs) on the devices of the target's connections
#   ULP_MEM_ALIGN     fio's iomem_align (default 1028: buffers start at
#                     an offset into a page)
#   ULP_BSSPLIT       fio's bssplit (default: 512 bytes to 1 MiB, some
#                     sizes not a multiple of the page size)
#   ULP_DATA          the function the data result runs (default
#                     fio_data); it prints one line, "<what>: <figures>"
#                     or why it failed
#   ULP_WILDCARD      1 when the ULP's target listens on the wildcard
#                     address.  siw binds such a listener to its own
#                     interface, and connections from this machine come
#                     in through lo and find none: over siw, ulp_start
#                     then calls lo_device once its target listens, which
#                     makes a second siw device, rdmatest_lo, on lo; its
#                     listener takes the connections, and its resources
#                     are checked with rdmatest_siw's
#   ulp_check         the kernel interfaces exist; prints why not
#   ulp_start T DEV   target and initiator up over transport T, RDMA
#                     device DEV; sets DATA to the block device or file
#                     that fio uses, TARGET_DATA to the target's own copy
#                     of it when that is not $BDEV, and ULP_NOTE to what
#                     it checked itself, if anything; prints why it
#                     failed
#   ulp_connections   optional: how many connections the ULP's initiator
#                     counts itself since ulp_start began; must be 1
#   ulp_disconnect    the initiator gone
#   ulp_stop          the target gone
#
# While a test runs, the machine has a dummy interface rdmatest0 with
# 192.0.2.1/24 (a documentation range: nothing leaves it) and a soft RDMA
# device rdmatest_<transport> on it; initiators connect to 192.0.2.1,
# through lo.  All of it and all the ULP set up are removed at the end.  The
# block device exported is $RDMA_TEST_BDEV, whose content is lost; without
# it the test makes a memory-backed null_blk device, rdmatest, through
# null_blk's configfs and removes it at the end; or, for a test that needs
# protection information, a scsi_debug disk with DIX and T10-DIF type
# $RDMA_TEST_PI_TYPE, 1 (the default) or 3 (scsi_debug loaded with
# dif=<type> dix=1 guard=0, or built in with those on the kernel command
# line and add_host=0), or a LIO file backstore of $RDMA_TEST_BLOCK_SIZE
# byte blocks (512, the default, or 4096) with emulated protection
# information of that type.  The test takes no scsi_debug that was loaded or
# had a host before it: all hosts of scsi_debug share one store, and it
# removes only the host added last.  With RDMA_TEST_HANDOVER=0, a test
# with protection information runs over rxe without signature handover,
# which must be off (a control run).  $RDMA_TEST_SIZE is how
# much each fio job writes (default 32M; the device must hold twice that),
# $RDMA_TEST_TIMEOUT how long fio may take (default 300 seconds) before
# it is killed and the kernel logs its blocked tasks.

DIR=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
KTAP_HELPERS=$DIR/../kselftest/ktap_helpers.sh
if [ ! -e "$KTAP_HELPERS" ]; then
	echo "$KTAP_HELPERS not found [SKIP]"
	exit 4
fi
# shellcheck source=../kselftest/ktap_helpers.sh
source "$KTAP_HELPERS"

NETDEV=rdmatest0
ADDR=192.0.2.1
NULLB=/sys/kernel/config/nullb/rdmatest
KINDS=(pd cq qp cm_id mr)
SIZE=${RDMA_TEST_SIZE:-32M}
FIO_TIMEOUT=${RDMA_TEST_TIMEOUT:-300}
TMP=
# The block device the test's target exports, when it needs one.
export BDEV=
DATA=
TARGET_DATA=
# The transport running, and its RDMA devices (an extended regex).
TRANSPORT=
DEVS=
ULP_NOTE=
BASE_QP_MR=
BASE_ALL=
SDEBUG=/sys/bus/pseudo/drivers/scsi_debug
# The scsi_debug host the test added, hostN.
SDEBUG_HOST=
# LIO's backstore, for the SCSI targets: $BDEV, or a file.
LIO=/sys/kernel/config/target
BACKSTORE=$LIO/core/iblock_0/rdmatest
case ${ULP_NEEDS_BDEV:-} in
pi-file | pi-loop) BACKSTORE=$LIO/core/fileio_0/rdmatest ;;
esac
# The file backstore's data; LIO keeps its PI in $BACKSTORE_FILE.protection.
BACKSTORE_FILE=
# What the test made, set as it makes each, so that the cleanup undoes
# that and nothing else.
MADE_NULLB=0
MADE_SDEBUG=0
LOADED_SDEBUG=0
MADE_HBA=0
MADE_BACKSTORE=0
# The loopback fabric's WWN of the test's disk, and its SCSI host.
LOOP_WWN=$LIO/loopback/naa.5001405e57000001
LOOP_HOST=
MADE_LOOP=0
ADDED_NETDEV=0
SET_LO_UP=0
TRACEFS=/sys/kernel/tracing
MOUNTED_TRACEFS=0
MR_TRACE=
declare -A ADDED_LINK=()
# rxe offers signature handover only on devices added while its module
# parameter is set; a test with PI sets it and puts it back.
HANDOVER=/sys/module/rdma_rxe/parameters/integrity_handover
SET_HANDOVER=0
TRANSPORTS=()
: "${ULP_NAME:?the test must set ULP_NAME}"
: "${ULP_COMMANDS:=}" "${ULP_MODULES:=}" "${ULP_NEEDS_BDEV:=0}"
: "${ULP_LOG_ERRORS:=}" "${ULP_LOG_RECONNECT:=}"
: "${ULP_MEM_ALIGN:=1028}" "${ULP_WILDCARD:=0}"
: "${ULP_DATA:=fio_data}" "${ULP_TARGET_MR:=}"
: "${ULP_TARGET_TASK:=}" "${ULP_TARGET_PORT:=}"
: "${ULP_BSSPLIT:=512/5:4k/15:7680/10:16k/10:64k/15:132k/15:512k/15:1m/15}"

# Wait up to $1 seconds for a command to succeed.
wait_for() {
	local end=$((SECONDS + $1))

	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.5
	done
}

# The resources of the kinds given after RDMA devices $1 (an extended
# regex of their names), one line each, by identity only (device,
# number, type, owner), without state or counters.
# The CQs that ib_core keeps in the device's shared pool (owned by ib_core,
# no user) are not listed: they last until the device goes away.
res_list() {
	local dev=$1 kind

	shift
	for kind in "$@"; do
		rdma resource show "$kind" | grep -E "(dev|link) (${dev})[/ ]" |
			grep -vE '^dev .* cqn .* users 0 .*comm \[ib_core\]' |
			awk -v kind="$kind" '{
				id = kind
				for (i = 1; i < NF; i++)
					if ($i ~ /^(dev|link|lqpn|type|mrn|cqn|pdn|cm-idn|comm)$/)
						id = id " " $i " " $(i + 1)
				print id
			}'
	done
}

# Has process $1 exited?
pid_gone() {
	! kill -0 "$1" 2>/dev/null
}

# daemon_start <variable> <log> <command...>: run a daemon that the
# command keeps in the foreground as a background job of the test, its
# output to <log>, and set <variable> to its PID.  That PID is the
# daemon's own whatever it forks (pidof would list its children too), so
# that daemon_stop stops what the test started and nothing else, and the
# next transport starts its own.  The daemon gets a session of its own
# (setsid execs it: a background job of a script leads no process
# group), as it would have had daemonized: iscsid signals its process
# group when it stops.
daemon_start() {
	local var=$1 log=$2

	shift 2
	setsid "$@" >"$log" 2>&1 &
	printf -v "$var" %s "$!"
}

# daemon_stop <pid> [<command...>]: stop a daemon daemon_start started,
# with the command if one is given, else with SIGTERM, and wait until
# it has exited (SIGKILL after 10 seconds).
daemon_stop() {
	local pid=$1

	shift
	if [ $# -gt 0 ]; then
		"$@"
	else
		kill "$pid" 2>/dev/null
	fi
	wait_for 10 pid_gone "$pid" || kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	return 0
}

# What res_list with the arguments after $1 prints beyond the list $1
# (lines are counted: two QPs where $1 has one is one too many).
res_beyond() {
	local have=$1

	shift
	comm -13 <(sort <<<"$have") <(res_list "$@" | sort)
}

# Does res_list with the arguments after $1 print nothing beyond $1?
res_within() {
	[ -z "$(res_beyond "$@")" ]
}

# A memory-backed null_blk disk of $1 MiB, /dev/rdmatest.  Returns 2
# when the kernel has no null_blk configfs.
nullb_setup() {
	modprobe -q null_blk nr_devices=0 2>/dev/null
	[ -d "${NULLB%/*}" ] || return 2
	mkdir "$NULLB" || return 1
	MADE_NULLB=1
	echo "$1" >"$NULLB/size" &&
		echo 1 >"$NULLB/memory_backed" &&
		echo 1 >"$NULLB/power" &&
		wait_for 10 test -b /dev/rdmatest
}

nullb_teardown() {
	echo 0 >"$NULLB/power"
	rmdir "$NULLB"
}

# The T10-DIF type of the disk with protection information.
PI_TYPE=${RDMA_TEST_PI_TYPE:-1}
# The logical block size of the file backstore, 512 or 4096: one
# protection interval.
BLOCK=${RDMA_TEST_BLOCK_SIZE:-512}

# A scsi_debug disk of $1 MiB whose integrity profile is T10-DIF type
# $PI_TYPE with a CRC guard; prints why not.  Returns 4 when scsi_debug
# is someone else's: loaded as a module, or with a host, before the test.
pi_disk_setup() {
	local before

	if [ -e /sys/module/scsi_debug/initstate ] ||
	   { [ -d "$SDEBUG" ] && [ "$(cat "$SDEBUG/add_host")" != 0 ]; }; then
		echo "scsi_debug is loaded or has hosts: it is not the test's"
		return 4
	fi
	if [ ! -d "$SDEBUG" ] && modprobe -q scsi_debug dif="$PI_TYPE" dix=1 \
		guard=0 dev_size_mb="$1" add_host=0 2>/dev/null; then
		LOADED_SDEBUG=1
	fi
	if [ ! -d "$SDEBUG" ]; then
		echo "no scsi_debug"
		return 1
	fi
	if [ "$(cat "$SDEBUG/dif")" != "$PI_TYPE" ] ||
	   [ "$(cat "$SDEBUG/dix")" != 1 ] || [ "$(cat "$SDEBUG/guard")" != 0 ]; then
		echo "scsi_debug has no dif=$PI_TYPE dix=1 guard=0"
		return 1
	fi
	if [ "$(cat "$SDEBUG/dev_size_mb")" -lt "$1" ]; then
		echo "scsi_debug's dev_size_mb is below $1"
		return 1
	fi
	before=$(scsi_hosts scsi_debug)
	echo 1 >"$SDEBUG/add_host" || return 1
	MADE_SDEBUG=1
	SDEBUG_HOST=$(scsi_hosts scsi_debug | not_in "$before")
	if [ "$(wc -w <<<"$SDEBUG_HOST")" != 1 ]; then
		echo "not one new scsi_debug host: '$SDEBUG_HOST'"
		return 1
	fi
	pi_disk_of "$SDEBUG_HOST"
}

# BDEV: the one disk of SCSI host $1 (hostN), which must come within 10
# seconds with the integrity profile T10-DIF type $PI_TYPE with a CRC
# guard; prints why not.
pi_disk_of() {
	local dir=/sys/class/scsi_host/$1/device

	if ! wait_for 10 scsi_disk_of "$dir" >/dev/null; then
		echo "no one disk on the SCSI host $1"
		return 1
	fi
	BDEV=$(scsi_disk_of "$dir")
	if [ "$(cat "/sys/block/${BDEV#/dev/}/integrity/format")" != \
	     "T10-DIF-TYPE$PI_TYPE-CRC" ]; then
		echo "$BDEV has no T10-DIF-TYPE$PI_TYPE-CRC integrity profile"
		return 1
	fi
}

# add_host=-1 removes the scsi_debug host added last: the test's host
# only while it is the one there is.
pi_disk_teardown() {
	if [ "$(scsi_hosts scsi_debug)" = "$SDEBUG_HOST" ]; then
		echo -1 >"$SDEBUG/add_host"
	else
		echo "scsi_debug has other hosts than $SDEBUG_HOST: left as is"
	fi
	[ $LOADED_SDEBUG = 1 ] && [ "$(cat "$SDEBUG/add_host")" = 0 ] &&
		modprobe -r scsi_debug && LOADED_SDEBUG=0
}

# The lines of stdin that are not lines of $1.
not_in() {
	grep -vxF -f <(printf '%s\n' "$1")
}

# The SCSI hosts whose driver is $1, hostN, one a line.
scsi_hosts() {
	local h

	for h in /sys/class/scsi_host/host*; do
		[ "$(cat "$h/proc_name" 2>/dev/null)" = "$1" ] && echo "${h##*/}"
	done
}

# The block device of the SCSI disk under the device directory $1 (a
# SCSI host's or an iSCSI session's), which must have one and no more.
scsi_disk_of() {
	local b disks=()

	for b in "$1"/target*/*/block/* "$1"/session*/target*/*/block/*; do
		[ -b "/dev/${b##*/}" ] && disks+=("/dev/${b##*/}")
	done
	[ ${#disks[@]} = 1 ] || return 1
	echo "${disks[0]}"
}

# LIO's backstore $BACKSTORE, in an HBA of the test's unless there is
# one: of $BDEV, or with ULP_NEEDS_BDEV pi-file or pi-loop, of a file of
# twice $SIZE in $TMP, in blocks of $BLOCK bytes, with T10-PI of $PI_TYPE
# that LIO emulates in a second file, formatted (every tuple all ones: a
# block never written escapes every check) and not verified
# (pi_prot_verify 0): what is in the files goes to the fabric unchecked,
# so that only the transport can catch a block whose PI does not match.
backstore_add() {
	if [ ! -d "${BACKSTORE%/*}" ]; then
		mkdir "${BACKSTORE%/*}" || return 1
		MADE_HBA=1
	fi
	mkdir "$BACKSTORE" || return 1
	MADE_BACKSTORE=1
	if [ -z "$BACKSTORE_FILE" ]; then
		echo "udev_path=$BDEV" >"$BACKSTORE/control" &&
			echo 1 >"$BACKSTORE/enable"
		return
	fi
	echo "fd_dev_name=$BACKSTORE_FILE,fd_dev_size=$(($(numfmt --from=iec \
		"$SIZE") * 2))" >"$BACKSTORE/control" &&
		echo 1 >"$BACKSTORE/enable" &&
		echo "$BLOCK" >"$BACKSTORE/attrib/block_size" &&
		echo "$PI_TYPE" >"$BACKSTORE/attrib/pi_prot_type" &&
		echo 1 >"$BACKSTORE/attrib/pi_prot_format" &&
		echo 0 >"$BACKSTORE/attrib/pi_prot_verify"
}

# A SCSI disk of the file backstore, through LIO's loopback fabric
# (tcm_loop): a block device with a T10-DIF profile whose PI no layer
# below checks.  Prints why not.
loop_disk_setup() {
	local before tpg=$LOOP_WWN/tpgt_1

	if [ -e "$LOOP_WWN" ]; then
		echo "$LOOP_WWN is there already"
		return 1
	fi
	backstore_add || { echo "cannot make the file backstore"; return 1; }
	before=$(scsi_hosts tcm_loopback)
	mkdir -p "$tpg" && MADE_LOOP=1 &&
		echo "${LOOP_WWN##*/}" >"$tpg/nexus" &&
		mkdir "$tpg/lun/lun_0" &&
		ln -s "$BACKSTORE" "$tpg/lun/lun_0/rdmatest" || return 1
	LOOP_HOST=$(scsi_hosts tcm_loopback | not_in "$before")
	if [ "$(wc -w <<<"$LOOP_HOST")" != 1 ]; then
		echo "not one new tcm_loop host: '$LOOP_HOST'"
		return 1
	fi
	pi_disk_of "$LOOP_HOST"
}

loop_disk_teardown() {
	local tpg=$LOOP_WWN/tpgt_1

	rm -f "$tpg/lun/lun_0/rdmatest"
	[ -d "$tpg/lun/lun_0" ] && rmdir "$tpg/lun/lun_0"
	[ -d "$tpg" ] && echo NULL >"$tpg/nexus" 2>/dev/null
	[ -d "$tpg" ] && rmdir "$tpg"
	rmdir "$LOOP_WWN" && MADE_LOOP=0
	backstore_remove
}

backstore_remove() {
	[ $MADE_BACKSTORE = 1 ] && rmdir "$BACKSTORE" && MADE_BACKSTORE=0
	[ $MADE_HBA = 1 ] && rmdir "${BACKSTORE%/*}" && MADE_HBA=0
}

# Write each of $FILE_SIZES (bytes) as one O_DIRECT write into directory
# $1 of the mount and read it back as one O_DIRECT read; the data read and
# the server's copy, in directory $2, must be what was written.
files_check() {
	local size sum f

	for size in "${FILE_SIZES[@]}"; do
		f=file.$size
		head -c "$size" /dev/urandom >"$TMP/$f" || return 1
		sum=$(sha256sum <"$TMP/$f")
		dd if="$TMP/$f" of="$1/$f" bs="$size" oflag=direct \
			status=none || return 1
		if [ "$(dd if="$1/$f" bs="$size" iflag=direct status=none |
				sha256sum)" != "$sum" ]; then
			echo "$size bytes: read back differs"
			return 1
		fi
		if [ "$(sha256sum <"$2/$f")" != "$sum" ]; then
			echo "$size bytes: the server's copy differs"
			return 1
		fi
	done
}

# fio's job on file $1, with O_DIRECT when $2 is 1, and with the further
# job options given: it writes, then reads back and checks, two regions
# of $SIZE each of the file, one at random with libaio and queue depth
# 16, one sequentially with vsync, which merges up to 8 adjacent I/Os
# into one writev/readv.
# The sizes are $ULP_BSSPLIT, by default from 512 bytes to 1 MiB, and
# every buffer starts $ULP_MEM_ALIGN bytes into a page, by default 1 KiB
# + 4 bytes: O_DIRECT only needs 4-byte aligned memory from NVMe and
# SCSI.
fio_job() {
	cat <<-EOF
	[global]
	filename=$1
	direct=$2
	size=$SIZE
	bssplit=$ULP_BSSPLIT
	iomem_align=$ULP_MEM_ALIGN
	verify=crc32c
	verify_fatal=1
	verify_state_save=0
	do_verify=1
	group_reporting=1
	$(printf '%s\n' "${@:3}")

	[random]
	ioengine=libaio
	iodepth=16
	rw=randwrite
	offset=0

	[vectored]
	ioengine=vsync
	iodepth=8
	iodepth_batch_submit=8
	rw=write
	offset=$SIZE
	EOF
}

# fio's job $1 (a file), under the watchdog.  Prints fio's terse line.
run_fio() {
	local pid watchdog rc

	fio --output-format=terse --terse-version=3 "$1" &
	pid=$!
	fio_watchdog $pid >/dev/null 2>&1 &
	watchdog=$!
	echo "$pid $watchdog" >"$TMP/fio.pids"
	wait $pid
	rc=$?
	stop_fio
	return $rc
}

# Stop fio and its watchdog if they run: at the end of run_fio, and from
# cleanup when the test is stopped (SIGTERM, SIGINT) before the data they
# hold open is taken away.  Their PIDs are in $TMP/fio.pids: run_fio runs
# in a subshell of the test.
stop_fio() {
	local pid watchdog

	[ -f "$TMP/fio.pids" ] || return 0
	read -r pid watchdog <"$TMP/fio.pids"
	rm -f "$TMP/fio.pids"
	kill "$watchdog" 2>/dev/null
	if kill "$pid" 2>/dev/null; then
		wait_for 10 pid_gone "$pid" || kill -KILL "$pid" 2>/dev/null
	fi
	return 0
}

# For the tests that corrupt PI: one block of $BLOCK bytes of device $3
# at LBA $1, from or into file $2.
blk_write() {
	dd if="$2" of="$3" bs="$BLOCK" seek="$1" count=1 oflag=direct status=none
}

blk_read() {
	dd if="$3" of="$2" bs="$BLOCK" skip="$1" count=1 iflag=direct status=none
}

# Does block $1 of $DATA read back as file $2?
reads_as() {
	blk_read "$1" "$TMP/got" "$DATA" && cmp -s "$TMP/got" "$2"
}

# The file backstore at rest, for the tests that corrupt it (ULP_NEEDS_BDEV
# pi-file and pi-loop): LIO keeps block N's T10-PI tuple at byte 8 * N of
# $BACKSTORE_FILE.protection, guard, application tag, reference tag, big
# endian.  $TMP/old and $TMP/new are the test's two blocks of data, and
# OLD_CRC the CRC of the old one (pi_data).

# CRC-16/T10-DIF (polynomial 0x8bb7, initial value 0, no reflection) of
# the file $1.
crc_t10dif() {
	local crc=0 b i

	for b in $(od -An -tu1 -v "$1"); do
		crc=$((crc ^ (b << 8)))
		for ((i = 0; i < 8; i++)); do
			crc=$(((crc << 1) & 0xffff ^ (crc & 0x8000 ? 0x8bb7 : 0)))
		done
	done
	echo "$crc"
}

# Field $3 bytes wide at byte $2 of file $1, big endian.
get_be() {
	local v=0 b

	for b in $(od -An -tu1 -v -j "$2" -N "$3" "$1"); do
		v=$((v * 256 + b))
	done
	echo "$v"
}

# Set that field to $4.
put_be() {
	local s='' i

	for ((i = $3 - 1; i >= 0; i--)); do
		s+=$(printf '\\x%02x' $((($4 >> (8 * i)) & 255)))
	done
	# shellcheck disable=SC2059 # the format is the bytes
	printf "$s" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

# The two blocks of data, and the old one's CRC.
pi_data() {
	head -c "$BLOCK" /dev/zero | tr '\0' '\132' >"$TMP/old"
	head -c "$BLOCK" /dev/zero | tr '\0' '\245' >"$TMP/new"
	OLD_CRC=$(crc_t10dif "$TMP/old")
}

# Is the tuple of block $1 on the file backstore guard $2, application
# tag $3 and reference tag $4?  Prints it when not.
pi_at_rest() {
	local pi=$BACKSTORE_FILE.protection off=$(($1 * 8))

	[ "$(get_be "$pi" "$off" 2)" = $(($2)) ] &&
		[ "$(get_be "$pi" $((off + 2)) 2)" = $(($3)) ] &&
		[ "$(get_be "$pi" $((off + 4)) 4)" = $(($4)) ] && return 0
	echo "block $1: PI on the backstore $(od -An -tx1 -j "$off" -N 8 "$pi")"
}

# Is block $1's PI what the initiator's block layer generated for the data
# $TMP/old (block/t10-pi.c): its CRC, $OLD_CRC, application tag 0, and in
# Type 1 the LBA as reference tag?
pi_written() {
	local ref=0

	[ "$PI_TYPE" = 1 ] && ref=$(($1 & 0xffffffff))
	pi_at_rest "$1" "$OLD_CRC" 0 "$ref"
}

# $TMP/old written through the initiator to blocks $1 and $1 + 1, with
# the PI its block layer generates: prints what went wrong.
old_blocks() {
	if ! blk_write "$1" "$TMP/old" "$DATA" ||
	   ! blk_write $(($1 + 1)) "$TMP/old" "$DATA"; then
		echo "block $1: cannot write"
		return
	fi
	pi_written "$1"
}

# Block $1 of the file backstore's data from file $2, behind LIO.
file_write() {
	dd if="$2" of="$BACKSTORE_FILE" bs="$BLOCK" seek="$1" count=1 conv=notrunc \
		status=none
}

# Change block $2 on the file backstore, behind LIO: new data under the
# old PI (guard), the reference tag of the next LBA (ref), application
# tag 0x1234 (app), or new data under an escape tuple, application tag
# 0xFFFF and reference tag 0xFFFFFFFF (escape).
plant() {
	local pi=$BACKSTORE_FILE.protection off=$(($2 * 8))

	case $1 in
	guard) file_write "$2" "$TMP/new" ;;
	ref) put_be "$pi" $((off + 4)) 4 $((($2 + 1) & 0xffffffff)) ;;
	app) put_be "$pi" $((off + 2)) 2 0x1234 ;;
	escape)
		put_be "$pi" $((off + 2)) 6 0xffffffffffff &&
			file_write "$2" "$TMP/new"
		;;
	esac
}

# After $FIO_TIMEOUT seconds, have the kernel log its blocked tasks and
# kill fio ($1).
fio_watchdog() {
	sleep "$FIO_TIMEOUT"
	echo "rdma selftest: fio did not finish in $FIO_TIMEOUT s" >/dev/kmsg
	echo w >/proc/sysrq-trigger
	kill -KILL "$1"
}

# fio on $DATA, then its data checked on $TARGET_DATA or $BDEV when there
# is one: prints "fio: <figures>", or why it failed.
fio_data() {
	local out target=${TARGET_DATA:-$BDEV} direct=1

	fio_job "$DATA" 1 >"$TMP/job.fio"
	if ! out=$(run_fio "$TMP/job.fio" 2>"$TMP/fio.err"); then
		echo "fio failed: $(tail -n 5 "$TMP/fio.err")"
		return 1
	fi
	out=$(fio_figures "$out")
	if [ -z "$target" ]; then
		echo "fio: $out"
		return
	fi
	# The same data read where the target keeps it: a transport that
	# put it in the wrong place both ways passes the round trip alone.
	# The target's disk may want O_DIRECT buffers aligned to its blocks.
	[ -b "$target" ] || direct=0
	fio_job "$target" "$direct" verify_only=1 iomem_align=4096 \
		>"$TMP/verify.fio"
	if ! run_fio "$TMP/verify.fio" >/dev/null 2>"$TMP/fio.err"; then
		echo "fio: $out; on the target: $(tail -n 5 "$TMP/fio.err")"
		return 1
	fi
	out+=", verified on the target's copy"
	if [ -n "$ULP_TARGET_MR$ULP_TARGET_TASK" ]; then
		target_mrs "$out" || return 1
		return
	fi
	echo "fio: $out"
}

# A trace instance of this run's own that records the MRs the target's
# tasks allocate (ib_core's event mr_alloc, filtered by task name): the
# R/W API's pools, made with the target's QPs.  Nothing else traces into
# it, and removing it leaves tracing as it was.
mr_trace_start() {
	local event

	if ! mountpoint -q "$TRACEFS"; then
		mount -t tracefs nodev "$TRACEFS" || return 1
		MOUNTED_TRACEFS=1
	fi
	MR_TRACE=$TRACEFS/instances/rdmatest_$$
	event=$MR_TRACE/events/rdma_core/mr_alloc
	mkdir "$MR_TRACE" &&
		echo "comm == \"$ULP_TARGET_TASK\"" >"$event/filter" &&
		echo 1 >"$event/enable"
}

mr_trace_stop() {
	[ -n "$MR_TRACE" ] && [ -d "$MR_TRACE" ] && rmdir "$MR_TRACE"
	MR_TRACE=
	[ $MOUNTED_TRACEFS = 1 ] && umount "$TRACEFS" && MOUNTED_TRACEFS=0
}

# The IDs of the MRs the target's tasks allocated since mr_trace_start.
target_mr_ids() {
	awk '/ mr_alloc: .* rc=0/ {
		for (i = 1; i <= NF; i++)
			if ($i ~ /^mr\.id=/)
				print substr($i, 7)
	}' "$MR_TRACE/trace"
}

# The RDMA devices of the connections of the target that listens on port
# ULP_TARGET_PORT: CM IDs not listening whose source address has it.
target_devs() {
	rdma resource show cm_id | awk -v port=":$ULP_TARGET_PORT" '{
		dev = src = ""
		for (i = 1; i < NF; i++) {
			if ($i == "link")
				dev = $(i + 1)
			if ($i == "src-addr")
				src = $(i + 1)
		}
		sub(/\/.*/, "", dev)
		n = length(port)
		if (dev != "" && substr(src, length(src) - n + 1) == port &&
		    !/ state LISTEN /)
			print dev
	}' | sort -u
}

# How many of the target's MRs have been mapped (an MR never mapped has
# length 0): those of module ULP_TARGET_MR, or those the tasks named
# ULP_TARGET_TASK allocated on the target's devices.
target_mapped_mrs() {
	local ids='' devs=$DEVS only="comm [$ULP_TARGET_MR]"

	if [ -z "$ULP_TARGET_MR" ]; then
		ids=" $(target_mr_ids | tr '\n' ' ')"
		devs=$(target_devs | paste -sd '|')
		only=" mrn "
	fi
	rdma resource show mr | grep -E "^dev (${devs:-none}) " |
		grep -F "$only" |
		awk -v ids="$ids" '{
			mapped = pool = 0
			for (i = 1; i < NF; i++) {
				if ($i == "mrlen")
					mapped = $(i + 1) > 0
				if ($i == "mrn")
					pool = index(ids, " " $(i + 1) " ") > 0
			}
			n += mapped && (ids == "" || pool)
		} END { print n + 0 }'
}

# Print "fio: $1, <N> MRs of the target registered", or fail when the
# count is not what the R/W API promises: some wherever it must or may
# register (iWARP's RDMA READ sinks, ib_core.force_mr=1, and integrity
# MRs with PI), none over rxe otherwise, where SGE lists do.  An MR of
# the target's pool that was never mapped has length 0.
target_mrs() {
	local n force want=none whose=${ULP_TARGET_MR:-"$ULP_TARGET_TASK"}

	n=$(target_mapped_mrs)
	force=$(cat /sys/module/ib_core/parameters/force_mr 2>/dev/null)
	case $ULP_NEEDS_BDEV in
	pi*) want=some ;;
	esac
	[ "$TRANSPORT" = siw ] || [ "$force" = Y ] && want=some
	echo "fio: $1, $n MRs of $whose registered"
	[ "$want" = some ] && [ "$n" -gt 0 ] && return 0
	[ "$want" = none ] && [ "$n" = 0 ] && return 0
	echo "expected $want (force_mr ${force:-?} over $TRANSPORT)"
	return 1
}

# The counters of RDMA device $1 that count a failed, refused or
# repeated transfer, "<name> <value>" a line each (rxe's: sequence
# errors, duplicates, RNR NAKs, retries exhausted, send errors, link
# down); none for a device without such counters (siw).
dev_errors() {
	local f

	for f in "/sys/class/infiniband/$1/ports/1/hw_counters/"*; do
		case ${f##*/} in
		*_err | duplicate_request | out_of_seq_request | link_downed)
			echo "${f##*/} $(cat "$f")" ;;
		esac
	done
}

# After the data check: print "connected once (<N> QPs, <M> CM IDs kept,
# ...", or why the run had more than one or an error: a QP or CM ID of
# $DEVS that is not in the list $1 taken once connected (a ULP that lost
# its connection and made another holds other ones: the RDMA CM numbers
# its IDs cyclically), a counter of dev_errors $3 that grew from $2,
# taken when the device was made, ulp_connections other than 1, or a
# line of $ULP_LOG_RECONNECT in the kernel log since the line $4.  A
# retry after a timeout whose request the responder had already taken
# (duplicate_request grew at least as much) answered an ACK that came
# late, as on a busy host: said, not failed; a retry of a request that
# never arrived fails.
connections_kept() {
	local ids=$1 errs=$2 dev=$3 changed grew late n='' lost=''

	changed=$(diff <(sort <<<"$ids") <(res_list "$DEVS" qp cm_id | sort) |
		awk '/^</ { gone++ } /^>/ { made++ }
			END { if (gone + made) print gone + 0 " gone, " made + 0 " new" }')
	grew=$(join <(sort <<<"$errs") <(dev_errors "$dev" | sort) |
		awk '$3 != $2 { d[$1] = $3 - $2 }
		END {
			# Retries whose requests the responder had seen (a
			# duplicate at least for each) answered late ACKs.
			late = d["completer_retry_err"]
			if (late && d["duplicate_request"] >= late) {
				d["duplicate_request"] = 0
				d["completer_retry_err"] = 0
				print "late " late
			}
			for (k in d)
				if (d[k])
					printf "%s +%d;", k, d[k]
		}')
	late=$(sed -n 's/^late //p' <<<"$grew")
	grew=$(grep -v '^late ' <<<"$grew")
	# A count the hook cannot read fails too.
	if declare -F ulp_connections >/dev/null; then
		n=$(ulp_connections)
		n=${n:-?}
	fi
	[ -n "$ULP_LOG_RECONNECT" ] &&
		lost=$(kmsg_since "$4" | grep -E -m 1 "$ULP_LOG_RECONNECT")
	if [ -n "$changed$grew$lost" ] || [ "${n:-1}" != 1 ]; then
		echo "not connected once or errors:" \
			"${changed:+QPs and CM IDs $changed;}" \
			"${grew:+errors: $grew}" "${n:+the ULP counts $n connections;}" \
			"${lost:+the kernel logged: $lost}"
		return 1
	fi
	echo -n "connected once ($(grep -c '^qp ' <<<"$ids") QPs," \
		"$(grep -c '^cm_id ' <<<"$ids") CM IDs kept${n:+, the ULP counts 1}), "
	if [ -z "$errs" ]; then
		echo "$TRANSPORT keeps no error counters"
	else
		echo "$TRANSPORT's $(wc -l <<<"$errs") error counters" \
			"unchanged${late:+ but for $late retries after late ACKs}"
	fi
}

# Print "write <MB/s> MB/s <IOPS> IOPS, read ..." from fio's terse line:
# KiB/s and IOPS are fields 7 and 8 for reads, 48 and 49 for writes.
fio_figures() {
	awk -F';' 'NF >= 49 {
		printf "write %.1f MB/s %d IOPS, read %.1f MB/s %d IOPS\n",
			$48 * 1024 / 1e6, $49, $7 * 1024 / 1e6, $8
	}' <<<"$1"
}

result() {
	if [ "$2" = 0 ]; then
		ktap_test_pass "$1"
	else
		ktap_test_fail "$1"
	fi
}

# The lines of the kernel log since the line $1 that fail a test.
log_errors() {
	local bad='WARNING:|BUG:|Oops|KASAN|kernel BUG|suspicious RCU usage'

	bad+='|possible (circular|recursive) locking|inconsistent lock state'

	[ -n "$ULP_LOG_ERRORS" ] && bad="$bad|$ULP_LOG_ERRORS"
	kmsg_since "$1" | grep -E "$bad"
}

# The kernel log from the line $1 on.
kmsg_since() {
	dmesg | sed -n "\|$1|,\$p"
}

# How many blocks of the kernel log file $1 LIO's own PI check failed
# (sbc_dif_verify()): none may, where only the transport is to check.
lio_pi_errors() {
	grep -cE 'DIFv1 .* failed on sector' "$1"
}


# The TCP and UDP sockets that listen on port $1 other than at $2, ss's
# local address (e.g. 192.0.2.1:2049, or *%rdmatest0:445 for a socket
# bound to the device): none may where the test binds its service.
listening_beyond() {
	ss -Hltnu | awk -v port=":$1" -v mine="$2" '
		substr($5, length($5) - length(port) + 1) == port && $5 != mine'
}

# Delete the RDMA device $1 if the test added it.
link_delete() {
	[ -n "${ADDED_LINK[$1]:-}" ] || return 0
	rdma link delete "$1" 2>/dev/null && unset "ADDED_LINK[$1]"
}

# Before an rxe device of a test with PI is added: rxe's signature
# handover on, or checked off for a control run.
rxe_handover() {
	[ "$1" = rxe ] && [ -w "$HANDOVER" ] || return 0
	case $ULP_NEEDS_BDEV in
	pi | pi-file | pi-loop) ;;
	*) return 0 ;;
	esac
	if [ "${RDMA_TEST_HANDOVER:-1}" = 0 ]; then
		[ "$(cat "$HANDOVER")" = N ] && return 0
		ktap_print_msg "rxe's integrity_handover is on: no control run"
		return 1
	fi
	[ "$(cat "$HANDOVER")" = Y ] && return 0
	echo 1 >"$HANDOVER" && SET_HANDOVER=1
}

# Make the RDMA device of transport $1 on $NETDEV, or remove it and the
# one on lo with $1 -d.
devices() {
	if [ "${2:-}" = -d ]; then
		link_delete "rdmatest_$1"
		link_delete rdmatest_lo
	elif ! rxe_handover "$1" ||
		! rdma link add "rdmatest_$1" type "$1" netdev "$NETDEV"; then
		ktap_print_msg "$1: rdma link add rdmatest_$1 failed"
		return 1
	else
		ADDED_LINK[rdmatest_$1]=1
	fi
}

# Over siw, for a target listening on the wildcard address: a siw device
# on lo, with what it holds from the start added to the resources checked.
lo_device() {
	[ "$1" = siw ] && [ "$ULP_WILDCARD" = 1 ] || return 0
	rdma link add rdmatest_lo type siw netdev lo || return 1
	ADDED_LINK[rdmatest_lo]=1
	BASE_QP_MR=$(printf '%s\n' "$BASE_QP_MR" \
		"$(res_list rdmatest_lo qp mr)" | sed '/^$/d')
	BASE_ALL=$(printf '%s\n' "$BASE_ALL" \
		"$(res_list rdmatest_lo "${KINDS[@]}")" | sed '/^$/d')
}

# One transport: four results.
run_transport() {
	local t=$1 dev=rdmatest_$1 devs out ok qps=0 mrs ids errs
	# The kernel log is read from this line on: it names this
	# invocation, so that an earlier run's line in the same boot is not
	# taken for it.
	local marker="rdma selftest: $ULP_NAME over $t starts (pid $$)"

	echo "$marker" >/dev/kmsg
	ok=0
	devices "$t" || ok=1
	devs="$dev|rdmatest_lo"
	DEVS=$devs
	TRANSPORT=$t
	BASE_QP_MR=$(res_list "$devs" qp mr)
	BASE_ALL=$(res_list "$devs" "${KINDS[@]}")
	errs=$(dev_errors "$dev")

	# data
	DATA=
	TARGET_DATA=
	ULP_NOTE=
	if [ $ok = 0 ] && [ -n "$ULP_TARGET_TASK" ] && ! mr_trace_start; then
		ktap_print_msg "$t: no trace instance for the target's MRs"
		ok=1
	fi
	if [ $ok = 0 ] && ! ulp_start "$t" "$dev" >"$TMP/start.log" 2>&1; then
		ktap_print_msg "$t: $ULP_NAME setup failed: $(tail -n 5 "$TMP/start.log")"
		ok=1
	fi
	if [ $ok = 0 ]; then
		# The leak checks below must see the ULPs' QPs and MRs.
		qps=$(res_list "$devs" qp | wc -l)
		mrs=$(res_list "$devs" mr | wc -l)
		ktap_print_msg "$t: connected, the device has $qps QPs, $mrs MRs"
		[ -n "$ULP_NOTE" ] && ktap_print_msg "$t: $ULP_NOTE"
		ids=$(res_list "$devs" qp cm_id)
		out=$("$ULP_DATA") || ok=1
		out+="; $(connections_kept "$ids" "$errs" "$dev" "$marker")" || ok=1
		ktap_print_msg "$t: $out"
	fi
	mr_trace_stop
	result "$t data" $ok

	# qp-mr
	ulp_disconnect >/dev/null 2>&1
	ok=0
	if [ "$qps" = 0 ]; then
		ktap_print_msg "$t: no QP seen while connected, nothing to check"
		ok=1
	elif ! wait_for 20 res_within "$BASE_QP_MR" "$devs" qp mr; then
		ktap_print_msg "$t: left after disconnect:"
		res_beyond "$BASE_QP_MR" "$devs" qp mr | sed 's/^/# /'
		ok=1
	fi
	result "$t qp-mr" $ok

	# teardown
	ulp_stop >/dev/null 2>&1
	ok=0
	if ! wait_for 20 res_within "$BASE_ALL" "$devs" "${KINDS[@]}"; then
		ktap_print_msg "$t: left after teardown:"
		res_beyond "$BASE_ALL" "$devs" "${KINDS[@]}" | sed 's/^/# /'
		ok=1
	fi
	devices "$t" -d
	result "$t teardown" $ok

	# dmesg
	ok=0
	if log_errors "$marker" >"$TMP/dmesg"; then
		sed 's/^/# /' "$TMP/dmesg" | head -n 20
		ok=1
	fi
	result "$t dmesg" $ok
}

net_setup() {
	# IFF_UP is bit 0 of the flags.
	if [ $(($(cat /sys/class/net/lo/flags) & 1)) = 0 ]; then
		ip link set lo up || return 1
		SET_LO_UP=1
	fi
	ip link add "$NETDEV" type dummy && ADDED_NETDEV=1 &&
		ip addr add "$ADDR/24" dev "$NETDEV" &&
		ip link set "$NETDEV" up
}

cleanup() {
	stop_fio
	mr_trace_stop
	ulp_disconnect >/dev/null 2>&1
	ulp_stop >/dev/null 2>&1
	for t in "${TRANSPORTS[@]}"; do
		devices "$t" -d
	done
	[ $ADDED_NETDEV = 1 ] && ip link delete "$NETDEV"
	[ $MADE_NULLB = 1 ] && nullb_teardown
	[ $MADE_SDEBUG = 1 ] && pi_disk_teardown
	[ $MADE_LOOP = 1 ] && loop_disk_teardown
	[ $SET_LO_UP = 1 ] && ip link set lo down
	[ $SET_HANDOVER = 1 ] && echo 0 >"$HANDOVER"
	rm -rf "$TMP"
}

# Run the test over the transports given (default: siw rxe).
rdma_main() {
	local cmd m why

	TRANSPORTS=("$@")
	[ ${#TRANSPORTS[@]} -gt 0 ] || TRANSPORTS=(siw rxe)

	ktap_print_header
	if [ "$(id -u)" != 0 ]; then
		ktap_skip_all "needs root"
		exit "$KSFT_SKIP"
	fi
	for cmd in ip rdma fio dmesg $ULP_COMMANDS; do
		if ! command -v "$cmd" >/dev/null; then
			ktap_skip_all "$cmd not found"
			exit "$KSFT_SKIP"
		fi
	done
	for m in dummy siw rdma_rxe $ULP_MODULES; do
		modprobe -q "$m" 2>/dev/null
	done
	if ! why=$(ulp_check); then
		ktap_skip_all "$why"
		exit "$KSFT_SKIP"
	fi
	if [ -n "$ULP_TARGET_TASK" ] && ! grep -qw tracefs /proc/filesystems; then
		ktap_skip_all "no tracefs to count the target's MRs with (FTRACE)"
		exit "$KSFT_SKIP"
	fi
	TMP=$(mktemp -d)
	trap cleanup EXIT
	case $ULP_NEEDS_BDEV in
	pi-file | pi-loop) BACKSTORE_FILE=$TMP/backstore ;;
	esac
	if [ "$ULP_NEEDS_BDEV" = 0 ] || [ "$ULP_NEEDS_BDEV" = pi-file ]; then
		:
	elif [ -n "${RDMA_TEST_BDEV:-}" ]; then
		BDEV=$RDMA_TEST_BDEV
	elif [ "$ULP_NEEDS_BDEV" = pi-loop ]; then
		if ! loop_disk_setup >"$TMP/pi.log" 2>&1; then
			why=$(tail -n 1 "$TMP/pi.log")
			ktap_exit_fail_msg "no loopback disk with PI: $why"
		fi
	elif [ "$ULP_NEEDS_BDEV" = pi ]; then
		pi_disk_setup $(($(numfmt --from=iec "$SIZE") * 2 / 1048576 +
				 16)) >"$TMP/pi.log" 2>&1
		case $? in
		0) ;;
		4)
			ktap_skip_all "$(tail -n 1 "$TMP/pi.log")"
			exit "$KSFT_SKIP"
			;;
		*)
			why=$(tail -n 1 "$TMP/pi.log")
			ktap_exit_fail_msg "no disk with protection information: $why"
			;;
		esac
	else
		nullb_setup $(($(numfmt --from=iec "$SIZE") * 2 / 1048576 + 16))
		case $? in
		0) BDEV=/dev/rdmatest ;;
		2)
			ktap_skip_all "no null_blk configfs: set RDMA_TEST_BDEV"
			exit "$KSFT_SKIP"
			;;
		*) ktap_exit_fail_msg "cannot set up the null_blk device $NULLB" ;;
		esac
	fi

	ktap_set_plan $((4 * ${#TRANSPORTS[@]}))
	if ! net_setup; then
		ktap_exit_fail_msg "cannot set up $NETDEV with $ADDR"
	fi
	for t in "${TRANSPORTS[@]}"; do
		run_transport "$t"
	done
	ktap_finished
}
