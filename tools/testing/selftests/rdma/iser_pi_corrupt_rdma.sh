#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# iSER with T10 protection information: a block whose data and PI do not
# match at rest on the target is caught by the transport as it moves, and
# by nothing else.  The setup of iser_pi_rdma_rw.sh (over rxe by default)
# on a LIO file backstore that keeps PI without checking it (ISER_PI_FILE,
# see backstore_add in lib.sh), with the initiator's read_verify off: no
# disk and no block layer checks the blocks read, only isert's signature
# offload (the R/W API's, in rxe) on the target and iser's integrity MR on
# the initiator.  Instead of fio, on four blocks each, which the initiator
# has written, the test changes the backstore's files under LIO and reads
# the block back; what must happen is what T10's SBC says of the change:
#
#   guard   new data under the old PI: the read fails, and isert or iser
#           reports a guard error at the block's LBA
#   ref     Type 1: the reference tag of the next LBA: the read fails, a
#           reference tag error at the block's LBA.  Type 3 has no
#           reference tag to check: the read returns the block
#   app     another application tag: no SCSI read asks for it to be
#           checked, the read returns the block
#   escape  new data under an application tag of 0xFFFF and a reference
#           tag of 0xFFFFFFFF: such a block is not checked (in Type 1 and
#           Type 3 alike), the read returns the new data
#
# Each block must first be on the backstore with the PI that the
# initiator's block layer generated (pi_written in lib.sh, which computes
# the CRC from its definition); the block after it must read back intact.
# Prints "corrupt: <N> planted; <kinds>: <N> caught by the transport
# (<reports>), <N> by LIO; <kinds>: read as T10 says".
#
# RDMA_TEST_HANDOVER=0 is the control: rxe without signature handover, so
# iSER without PI.  The same changes must then bring no report from the
# transport; LIO checks the PI itself for a fabric without it
# (target_read_prot_action), so the reads that fail must fail there.

# A read that T10 has fail with err_type $2 of struct ib_sig_err
# (IB_SIG_BAD_GUARD 0, IB_SIG_BAD_REFTAG 1), or return the old or new
# data, for each kind of change.
expect() {
	case $1 in
	guard) echo "fail 0" ;;
	ref) if [ "$PI_TYPE" = 1 ]; then echo "fail 1"; else echo "read old"; fi ;;
	app) echo "read old" ;;
	escape) echo "read new" ;;
	esac
}

# The transport's reports of PI errors in the kernel log on stdin, one a
# line: "<isert|iser> <err_type> <LBA>".  Both print the LBA in hex.
pi_reports() {
	local who type lba
	local found='(isert|iser): [a-z_]+: PI error found type ([0-9]+)'

	sed -nE "s/.*$found at sector (0x)?([0-9a-f]+) .*/\\1 \\2 \\4/p" |
		while read -r who type lba; do
			echo "$who $type $((16#$lba))"
		done
}

# What differs from what must happen to kind $1 on block $2, whose read
# $3 (read or fail), reported by the transport as $4 and by LIO on $5
# lines.
judge() {
	local want what

	read -r want what <<<"$(expect "$1")"
	if [ "$3" != "$want" ]; then
		[ "$3" = read ] && echo "the read returned data"
		[ "$3" = fail ] && echo "the read failed"
	elif [ "$3" = read ] && ! cmp -s "$TMP/got" "$TMP/$what"; then
		echo "the read did not return the $what data"
	elif [ "$HANDOVER_ON" = 0 ]; then
		[ -z "$4" ] || echo "the transport reported '$4'"
		[ "$3" = read ] || [ "$5" != 0 ] || echo "LIO did not catch it"
	elif [ "$5" != 0 ]; then
		echo "LIO caught it"
	elif [ "$3" = read ]; then
		[ -z "$4" ] || echo "the transport reported '$4'"
	elif [ -z "$4" ] || grep -qv " $what $2\$" <<<"$4"; then
		echo "the transport reported '${4:-nothing}'"
	fi
}

# Kind $1 on block $2: planted, then read through the initiator.  Prints
# what differs from what must happen; a failed read that is as it must
# be adds a line to $TMP/caught: the transport's reports, from isert and
# from iser, and 1 when LIO caught it.
corrupt_block() {
	local kind=$1 lba=$2 reports lio marker got=read why

	why=$(old_blocks "$lba")
	[ -z "$why" ] || { echo "$why"; return; }
	plant "$kind" "$lba" || { echo "block $lba: cannot plant $kind"; return; }
	marker="rdma selftest: $ULP_NAME reads block $lba, $kind planted"
	echo "$marker" >/dev/kmsg
	blk_read "$lba" "$TMP/got" "$DATA" 2>/dev/null || got=fail
	kmsg_since "$marker" >"$TMP/log"
	reports=$(pi_reports <"$TMP/log")
	lio=$(lio_pi_errors "$TMP/log")
	why=$(judge "$kind" "$lba" "$got" "$reports" "$lio")
	if [ -n "$why" ]; then
		echo "block $lba, $kind: $why"
	elif ! reads_as $((lba + 1)) "$TMP/old"; then
		echo "block $((lba + 1)) next to $lba was lost"
	elif [ "$got" = fail ]; then
		echo "$(grep -c '^isert ' <<<"$reports")" \
			"$(grep -c '^iser ' <<<"$reports") $((lio > 0))" \
			>>"$TMP/caught"
	fi
}

# The data result: each kind on four blocks.
iser_pi_corrupt() {
	local kind i out misses='' caught='' passed='' n=0 lba=4096 t l

	pi_data
	HANDOVER_ON=1
	[ "${RDMA_TEST_HANDOVER:-1}" = 0 ] && HANDOVER_ON=0
	: >"$TMP/caught"
	echo 0 >"/sys/block/${DATA#/dev/}/integrity/read_verify" || return 1
	for kind in guard ref app escape; do
		for ((i = 0; i < 4; i++)); do
			out=$(corrupt_block "$kind" "$lba")
			[ -n "$out" ] && misses+="; $out"
			n=$((n + 1))
			lba=$((lba + 16))
		done
		case $(expect "$kind") in
		fail*) caught+="${caught:+, }$kind 4" ;;
		*) passed+="${passed:+, }$kind 4" ;;
		esac
	done
	# Blocks caught by the transport and by LIO, reports of each side.
	t=$(awk '$1 + $2 > 0 { t++ } $3 { l++ } { s += $1; i += $2 }
		END { printf "%d %d (isert reported %d, iser %d)", t, l, s, i }' \
		"$TMP/caught")
	read -r t l out <<<"$t"
	echo -n "corrupt: $n planted; $caught: $t caught by the transport $out,"
	echo " $l by LIO; $passed: read as T10 says$misses"
	[ -z "$misses" ]
}

ISER_PI=1
ISER_PI_FILE=1
ULP_NAME=isert-pi-corrupt
ULP_DATA=iser_pi_corrupt
source "$(dirname "$(readlink -f "$0")")/iser_rdma_rw.sh"
