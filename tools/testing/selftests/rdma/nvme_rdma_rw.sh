#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# NVMe over Fabrics through the RDMA R/W API, on soft RDMA devices.
#
# For each transport named on the command line (default: siw rxe), put a
# soft RDMA device on a dummy interface, export a RAM disk through
# nvmet-rdma, connect to it with nvme-rdma on the same machine and have
# fio write and verify data.  nvmet-rdma moves the data of every command
# that does not fit inline with the R/W API: RDMA READ for host writes,
# RDMA WRITE for host reads.  siw (iWARP) needs a registered MR as the
# sink of a READ, rxe (RoCE) takes SGE lists; ib_core.force_mr=1 on the
# kernel command line makes both register MRs in both directions.
#
# Four tests per transport:
#   data      fio, sizes from 512 bytes to 1 MiB, random and sequential,
#             buffers at an offset from the page, vectored writev/readv,
#             every block checked with crc32c
#   qp-mr     no QP or MR of the device is left once the host disconnected
#   teardown  nothing is left (PD, CQ, QP, CM ID, MR) once the target port
#             and subsystem are gone
#   dmesg     no WARNING, BUG, Oops or KASAN report in the kernel log
#
# Needs root, iproute2 (ip, rdma), nvme-cli, fio and the options in
# ./config.  While it runs, the machine has a dummy interface rdmatest0
# with 192.0.2.1/24 (a documentation range: nothing leaves it), a soft
# RDMA device and an nvmet subsystem and port; all are removed at the end.
#
# The block device exported is $RDMA_TEST_BDEV, whose content is lost.
# Without it the test makes a memory-backed null_blk device of its own,
# rdmatest, through null_blk's configfs (built in or a module), and
# removes it at the end.  $RDMA_TEST_SIZE is how much each fio job
# writes (default 32M; the device must hold twice that).

DIR=$(dirname "$(readlink -f "$0")")
KTAP_HELPERS=$DIR/../kselftest/ktap_helpers.sh
if [ ! -e "$KTAP_HELPERS" ]; then
	echo "$KTAP_HELPERS not found [SKIP]"
	exit 4
fi
# shellcheck source=../kselftest/ktap_helpers.sh
source "$KTAP_HELPERS"

NETDEV=rdmatest0
ADDR=192.0.2.1
PORT=4420
NQN=nqn.2024-01.org.kernel.selftests:rdma-rw
CFS=/sys/kernel/config/nvmet
NULLB=/sys/kernel/config/nullb/rdmatest
KINDS=(pd cq qp cm_id mr)
SIZE=${RDMA_TEST_SIZE:-32M}
TMP=
BDEV=
MADE_NULLB=0
ADDED_NETDEV=0

# Wait up to $1 seconds for a command to succeed.
wait_for() {
	local end=$((SECONDS + $1))

	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.5
	done
}

# The resources of the kinds given after RDMA device $1, one line each,
# by identity only (number, type, owner), without state or counters.
# The CQs that ib_core keeps in the device's shared pool (owned by ib_core,
# no user) are not listed: they last until the device goes away.
res_list() {
	local dev=$1 kind

	shift
	for kind in "$@"; do
		rdma resource show "$kind" | grep -E "(dev|link) ${dev}[/ ]" |
			grep -vE '^dev .* cqn .* users 0 .*comm \[ib_core\]' |
			awk -v kind="$kind" '{
				id = kind
				for (i = 1; i < NF; i++)
					if ($i ~ /^(lqpn|type|mrn|cqn|pdn|cm-idn|comm)$/)
						id = id " " $i " " $(i + 1)
				print id
			}'
	done
}

# Does res_list with the arguments after $1 print exactly $1?
res_is() {
	local want=$1

	shift
	[ "$(res_list "$@")" = "$want" ]
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

nvmet_setup() {
	local sub=$CFS/subsystems/$NQN port=$CFS/ports/1

	mkdir "$sub" &&
		echo 1 >"$sub/attr_allow_any_host" &&
		mkdir "$sub/namespaces/1" &&
		echo "$BDEV" >"$sub/namespaces/1/device_path" &&
		echo 1 >"$sub/namespaces/1/enable" &&
		mkdir "$port" &&
		echo rdma >"$port/addr_trtype" &&
		echo ipv4 >"$port/addr_adrfam" &&
		echo "$ADDR" >"$port/addr_traddr" &&
		echo "$PORT" >"$port/addr_trsvcid" &&
		ln -s "$sub" "$port/subsystems/$NQN"
}

nvmet_teardown() {
	local sub=$CFS/subsystems/$NQN port=$CFS/ports/1

	rm -f "$port/subsystems/$NQN"
	[ -d "$port" ] && rmdir "$port"
	if [ -d "$sub" ]; then
		echo 0 >"$sub/namespaces/1/enable" 2>/dev/null
		rmdir "$sub/namespaces/1" 2>/dev/null
		rmdir "$sub"
	fi
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

# fio writes, then reads back and checks, two regions of $SIZE each: one
# at random with libaio and queue depth 16, one sequentially with vsync,
# which merges up to 8 adjacent I/Os into one writev/readv.
# The sizes run from 512 bytes to 1 MiB and every buffer starts 1 KiB + 4
# bytes into a page: O_DIRECT to NVMe only needs 4-byte aligned memory.
# Prints fio's terse line.
run_fio() {
	local dev=$1

	cat >"$TMP/job.fio" <<-EOF
	[global]
	filename=$dev
	direct=1
	size=$SIZE
	bssplit=512/5:4k/15:7680/10:16k/10:64k/15:132k/15:512k/15:1m/15
	iomem_align=1028
	verify=crc32c
	verify_fatal=1
	verify_state_save=0
	do_verify=1
	group_reporting=1

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
	fio --output-format=terse --terse-version=3 "$TMP/job.fio"
}

# Print "<kind> <MB/s> MB/s <IOPS> IOPS" for reads and writes from the
# terse line: KiB/s and IOPS are fields 7 and 8 for reads, 48 and 49 for
# writes.
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

# One transport: four results.
run_transport() {
	local t=$1 dev=rdmatest_$1 base_all base_qp_mr dev_nvme out ok qps=0 mrs
	local marker="rdma selftest: $t starts"

	echo "$marker" >/dev/kmsg
	ok=0
	if ! rdma link add "$dev" type "$t" netdev "$NETDEV"; then
		ktap_print_msg "$t: rdma link add failed"
		ok=1
	fi
	base_qp_mr=$(res_list "$dev" qp mr)
	base_all=$(res_list "$dev" "${KINDS[@]}")

	# data
	if [ $ok = 0 ] && ! nvmet_setup; then
		ktap_print_msg "$t: nvmet setup failed"
		ok=1
	fi
	if [ $ok = 0 ] && ! nvme connect -t rdma -a "$ADDR" -s "$PORT" \
			-n "$NQN" --hostnqn="$HOSTNQN" --hostid="$HOSTID" \
			>"$TMP/connect.log" 2>&1; then
		ktap_print_msg "$t: nvme connect failed: $(cat "$TMP/connect.log")"
		ok=1
	fi
	if [ $ok = 0 ] && ! wait_for 10 nvme_bdev >/dev/null; then
		ktap_print_msg "$t: no namespace block device after connect"
		ok=1
	fi
	if [ $ok = 0 ]; then
		# The leak checks below must see the ULPs' QPs and MRs.
		qps=$(res_list "$dev" qp | wc -l)
		mrs=$(res_list "$dev" mr | wc -l)
		ktap_print_msg "$t: connected, the device has $qps QPs, $mrs MRs"
		dev_nvme=$(nvme_bdev)
		if out=$(run_fio "$dev_nvme" 2>"$TMP/fio.err"); then
			ktap_print_msg "$t: fio: $(fio_figures "$out")"
		else
			ktap_print_msg "$t: fio failed: $(tail -n 5 "$TMP/fio.err")"
			ok=1
		fi
	fi
	result "$t data" $ok

	# qp-mr
	nvme disconnect -n "$NQN" >/dev/null 2>&1
	ok=0
	if [ "$qps" = 0 ]; then
		ktap_print_msg "$t: no QP seen while connected, nothing to check"
		ok=1
	elif ! wait_for 20 res_is "$base_qp_mr" "$dev" qp mr; then
		ktap_print_msg "$t: left after disconnect:"
		res_list "$dev" qp mr | sed 's/^/# /'
		ok=1
	fi
	result "$t qp-mr" $ok

	# teardown
	nvmet_teardown
	ok=0
	if ! wait_for 20 res_is "$base_all" "$dev" "${KINDS[@]}"; then
		ktap_print_msg "$t: left after teardown:"
		echo "$base_all" >"$TMP/before"
		res_list "$dev" "${KINDS[@]}" | grep -vxFf "$TMP/before" |
			sed 's/^/# /'
		ok=1
	fi
	rdma link delete "$dev" 2>/dev/null
	result "$t teardown" $ok

	# dmesg
	ok=0
	if dmesg | sed -n "/$marker/,\$p" |
			grep -E 'WARNING:|BUG:|Oops|KASAN|kernel BUG' >"$TMP/dmesg"; then
		sed 's/^/# /' "$TMP/dmesg" | head -n 20
		ok=1
	fi
	result "$t dmesg" $ok
}

cleanup() {
	nvme disconnect -n "$NQN" >/dev/null 2>&1
	nvmet_teardown 2>/dev/null
	for t in "${TRANSPORTS[@]}"; do
		rdma link delete "rdmatest_$t" 2>/dev/null
	done
	[ $ADDED_NETDEV = 1 ] && ip link delete "$NETDEV"
	[ $MADE_NULLB = 1 ] && nullb_teardown
	rm -rf "$TMP"
}

TRANSPORTS=("$@")
[ ${#TRANSPORTS[@]} -gt 0 ] || TRANSPORTS=(siw rxe)

ktap_print_header
if [ "$(id -u)" != 0 ]; then
	ktap_skip_all "needs root"
	exit "$KSFT_SKIP"
fi
for cmd in ip rdma nvme fio dmesg; do
	if ! command -v "$cmd" >/dev/null; then
		ktap_skip_all "$cmd not found"
		exit "$KSFT_SKIP"
	fi
done
for m in nvmet-rdma nvme-rdma dummy siw rdma_rxe; do
	modprobe -q "$m" 2>/dev/null
done
if [ ! -d "$CFS" ]; then
	ktap_skip_all "no $CFS: configfs or nvmet missing"
	exit "$KSFT_SKIP"
fi
TMP=$(mktemp -d)
trap cleanup EXIT
if [ -n "${RDMA_TEST_BDEV:-}" ]; then
	BDEV=$RDMA_TEST_BDEV
else
	nullb_setup $(($(numfmt --from=iec "$SIZE") * 2 / 1048576 + 16))
	case $? in
	0) BDEV=/dev/rdmatest ;;
	2)
		ktap_skip_all "no null_blk configfs (BLK_DEV_NULL_BLK); or set RDMA_TEST_BDEV"
		exit "$KSFT_SKIP"
		;;
	*) ktap_exit_fail_msg "cannot set up the null_blk device $NULLB" ;;
	esac
fi

ktap_set_plan $((4 * ${#TRANSPORTS[@]}))
HOSTID=$(cat /proc/sys/kernel/random/uuid)
HOSTNQN=nqn.2014-08.org.nvmexpress:uuid:$HOSTID
ip link set lo up
if ! ip link add "$NETDEV" type dummy || ! ADDED_NETDEV=1 ||
		! ip addr add "$ADDR/24" dev "$NETDEV" ||
		! ip link set "$NETDEV" up; then
	ktap_exit_fail_msg "cannot set up $NETDEV with $ADDR"
fi
for t in "${TRANSPORTS[@]}"; do
	run_transport "$t"
done
ktap_finished
