#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# NVMe over Fabrics with T10 protection information: PI that does not
# match its data is caught by the transport as it moves, and by nothing
# else.  The setup of nvme_pi_rdma_rw.sh (over rxe by default), with the
# namespace on a disk whose PI no layer below nvmet checks: a LIO file
# backstore with pi_prot_verify off, through LIO's loopback fabric
# (NVME_PI_LOOP, see loop_disk_setup in lib.sh).  Only the integrity MRs
# check PI: the R/W API's signature offload in nvmet-rdma and nvme-rdma's
# own, both in rxe.  Instead of fio, on four blocks each, NVMe reads and
# writes passed through (nvme io-passthru) with PI and checks the test
# chooses, judged by what the NVMe and T10 specifications say:
#
#   read-guard    new data under the block's PI on the backstore:
#                 End-to-end Guard Check Error
#   read-ref      the reference tag of the next LBA: End-to-end Reference
#                 Tag Check Error; Type 3 checks no reference tag, the read
#                 returns the block
#   read-app      application tag 0x1234, read expecting 0 under mask
#                 0xFFFF: End-to-end Application Tag Check Error
#   read-masked   the same under a mask without the bits that differ: the
#                 read returns the block
#   read-escape   new data under application tag 0xFFFF and reference tag
#                 0xFFFFFFFF: not checked, the read returns the new data
#   write-guard   a write whose guard is not its data's CRC: End-to-end
#                 Guard Check Error, the backstore keeps the old block
#   write-app     a write with application tag 0x1234, expecting 0:
#                 End-to-end Application Tag Check Error, nothing written
#   write-ref     a write whose reference tag is not its LBA: End-to-end
#                 Reference Tag Check Error, nothing written; Type 3 checks
#                 no reference tag, the block and its tuple are written
#   write-good    a write with the right PI: written, data and tuple
#   write-pract   a write without PI and PRACT set: the controller inserts
#                 it, the tuple on the backstore is the data's CRC, the
#                 command's application tag and (Type 1) its LBA
#
# The checks asked are those the host's block layer asks for (guard and,
# in Type 1, reference tag), with the application tag where the kind
# says.  Each block is first written through the host's block device, and
# its tuple on the backstore must then be what the block layer generated
# (pi_written in lib.sh).  A command that fails must fail with the status
# of its check, with a report of the same check in the kernel log from
# nvmet-rdma or nvme-rdma, and none from LIO.  The expected PI is
# computed by lib.sh from the CRC's definition, never read back from the
# transport.  Prints "corrupt: <N> planted, <N> caught by the transport
# (guard <N>, app <N>, ref <N>), <N> by LIO; <N> passed as T10 says".

# err_type of struct ib_sig_err, and the NVMe status, of each check.
declare -A ERR_TYPE=([guard]=0 [ref]=1 [app]=2)
declare -A STATUS=([guard]='End-to-end Guard Check Error'
	[ref]='End-to-end Reference Tag Check Error'
	[app]='End-to-end Application Tag Check Error')
# PRINFO of an NVMe read or write, bits 29:26 of its CDW12.
PRACT=8
PRCHK_GUARD=4
PRCHK_APP=2
PRCHK_REF=1

# What T10 has happen to kind $1: "fail <check>", "read <old|new>",
# "written" or "inserted".
expect() {
	case $1 in
	read-guard) echo "fail guard" ;;
	read-app) echo "fail app" ;;
	read-masked) echo "read old" ;;
	read-escape) echo "read new" ;;
	write-guard) echo "fail guard" ;;
	write-app) echo "fail app" ;;
	write-good) echo written ;;
	write-pract) echo inserted ;;
	read-ref | write-ref)
		if [ "$PI_TYPE" = 3 ]; then
			[ "$1" = read-ref ] && echo "read old" || echo written
		else
			echo "fail ref"
		fi
		;;
	esac
}

# The checks the host's block layer asks for, and the reference tag its
# PI of block $1 carries.
host_prchk() {
	if [ "$PI_TYPE" = 1 ]; then
		echo $((PRCHK_GUARD | PRCHK_REF))
	else
		echo "$PRCHK_GUARD"
	fi
}

host_ref() {
	if [ "$PI_TYPE" = 1 ]; then echo $(($1 & 0xffffffff)); else echo 0; fi
}

# Write the tuple guard $1, application tag $2, reference tag $3 to
# $TMP/pt.pi.
pi_file() {
	: >"$TMP/pt.pi"
	put_be "$TMP/pt.pi" 0 2 "$1" && put_be "$TMP/pt.pi" 2 2 "$2" &&
		put_be "$TMP/pt.pi" 4 4 "$3"
}

# An NVMe read or write ($1) of block $2 of namespace 1 passed through,
# PRINFO $3, expected application tag $4 under mask $5; the data in or
# out $TMP/pt.data, the PI in or out $TMP/pt.pi unless PRACT is set.
# Its output goes to $TMP/pt.log.
pt_io() {
	local op=0x02 dir=--read md=(--metadata-len=8 --metadata="$TMP/pt.pi")

	[ "$1" = write ] && op=0x01 dir=--write
	[ $(($3 & PRACT)) = 0 ] || md=()
	nvme io-passthru "$DATA" --opcode="$op" --namespace-id=1 --data-len="$BLOCK" \
		"${md[@]}" "$dir" --input-file="$TMP/pt.data" \
		--cdw10=$(($2 & 0xffffffff)) --cdw11=$(($2 >> 32)) \
		--cdw12=$(($3 << 26)) --cdw14=$(($2 & 0xffffffff)) \
		--cdw15=$((($5 << 16) | $4)) >"$TMP/pt.log" 2>&1
}

# Kind $1 on block $2: the command, after what the kind plants.
kind_io() {
	local lba=$2 chk crc=$NEW_CRC

	chk=$(host_prchk)
	case $1 in
	read-*)
		case $1 in
		read-guard) plant guard "$lba" ;;
		read-ref) plant ref "$lba" ;;
		read-app | read-masked) plant app "$lba" ;;
		read-escape) plant escape "$lba" ;;
		esac
		rm -f "$TMP/pt.data" "$TMP/pt.pi"
		case $1 in
		read-app) pt_io read "$lba" $((chk | PRCHK_APP)) 0 0xffff ;;
		read-masked)
			pt_io read "$lba" $((chk | PRCHK_APP)) 0 \
				$((0xffff & ~0x1234))
			;;
		*) pt_io read "$lba" "$chk" 0 0xffff ;;
		esac
		;;
	write-*)
		cp "$TMP/new" "$TMP/pt.data"
		case $1 in
		write-guard) pi_file $((crc ^ 1)) 0 "$(host_ref "$lba")" ;;
		write-app) pi_file "$crc" 0x1234 "$(host_ref "$lba")" ;;
		write-ref) pi_file "$crc" 0 $(((lba + 1) & 0xffffffff)) ;;
		*) pi_file "$crc" 0 "$(host_ref "$lba")" ;;
		esac
		case $1 in
		write-pract) pt_io write "$lba" $((PRACT | chk)) 0x5678 0xffff ;;
		*) pt_io write "$lba" $((chk | PRCHK_APP)) 0 0xffff ;;
		esac
		;;
	esac
}

# Is block $1's data on the backstore the file $2?
data_at_rest() {
	cmp -s <(dd if="$BACKSTORE_FILE" bs="$BLOCK" skip="$1" count=1 \
		status=none) "$2" ||
		echo "block $1: not the ${2##*/} data on the backstore"
}

# Does the backstore hold block $1 as the command of kind $2 must leave
# it?  Prints what differs.
at_rest() {
	local ref

	case $(expect "$2") in
	written)
		data_at_rest "$1" "$TMP/new"
		pi_at_rest "$1" "$NEW_CRC" "$(get_be "$TMP/pt.pi" 2 2)" \
			"$(get_be "$TMP/pt.pi" 4 4)"
		;;
	inserted)
		data_at_rest "$1" "$TMP/new"
		# Type 3's reference tag is the application's: not judged.
		if [ "$PI_TYPE" = 1 ]; then
			ref=$(($1 & 0xffffffff))
		else
			ref=$(get_be "$BACKSTORE_FILE.protection" $(($1 * 8 + 4)) 4)
		fi
		pi_at_rest "$1" "$NEW_CRC" 0x5678 "$ref"
		;;
	fail*)
		[ "${2%%-*}" = write ] || return 0
		data_at_rest "$1" "$TMP/old"
		pi_written "$1"
		;;
	esac
}

# What differs from what must happen to kind $1 on block $2, whose
# command did $3 and failed LIO's own check of $4 blocks; its kernel
# log is in $TMP/log.
judge() {
	local want what check reports

	read -r want what <<<"$(expect "$1")"
	reports=$(grep -oE '(nvmet_rdma|nvme_rdma): PI error found type [0-9]+' \
		"$TMP/log" | sed -E 's/: PI error found type / /')
	if [ "$4" != 0 ]; then
		echo "LIO caught it"
	elif [ "$want" = fail ]; then
		check=$what
		if [ "$3" = ok ]; then
			echo "the command succeeded"
		elif ! grep -qF "${STATUS[$check]}" "$TMP/pt.log"; then
			echo "failed with '$(tail -n 1 "$TMP/pt.log")'"
		elif [ -z "$reports" ] ||
		     grep -qv " ${ERR_TYPE[$check]}\$" <<<"$reports"; then
			echo "the transport reported '${reports:-nothing}'"
		fi
		at_rest "$2" "$1"
	elif [ "$3" = fail ]; then
		echo "failed with '$(tail -n 1 "$TMP/pt.log")'"
	elif [ -n "$reports" ]; then
		echo "the transport reported '$reports'"
	elif [ "$want" = read ] && ! cmp -s "$TMP/pt.data" "$TMP/$what"; then
		echo "the read did not return the $what data"
	else
		at_rest "$2" "$1"
	fi
}

# Kind $1 on block $2, written with $TMP/old through the host's block
# device first.  Prints what differs from what must happen; a command
# caught as it must be adds its check to $TMP/caught.  LIO's reports of
# bad PI, which must be none, add their count to $TMP/lio.
corrupt_block() {
	local kind=$1 lba=$2 marker did why want what lio

	why=$(old_blocks "$lba")
	[ -z "$why" ] || { echo "$why"; return; }
	marker="rdma selftest: $ULP_NAME block $lba, $kind"
	echo "$marker" >/dev/kmsg
	did=ok
	kind_io "$kind" "$lba" || did=fail
	kmsg_since "$marker" >"$TMP/log"
	lio=$(lio_pi_errors "$TMP/log")
	echo "$lio" >>"$TMP/lio"
	why=$(judge "$kind" "$lba" "$did" "$lio")
	if [ -n "$why" ]; then
		echo "block $lba, $kind: ${why//$'\n'/; }"
	elif ! reads_as $((lba + 1)) "$TMP/old"; then
		echo "block $((lba + 1)) next to $lba was lost"
	else
		read -r want what <<<"$(expect "$kind")"
		[ "$want" = fail ] && echo "$what" >>"$TMP/caught"
	fi
}

# The data result: each kind on four blocks.
nvme_pi_corrupt() {
	local kind i out misses='' n=0 m=0 lba=4096 caught

	pi_data
	NEW_CRC=$(crc_t10dif "$TMP/new")
	: >"$TMP/caught"
	: >"$TMP/lio"
	for kind in read-guard read-ref read-app read-masked read-escape \
		    write-guard write-app write-ref write-good write-pract; do
		for ((i = 0; i < 4; i++)); do
			out=$(corrupt_block "$kind" "$lba")
			[ -z "$out" ] || { misses+="; $out"; m=$((m + 1)); }
			n=$((n + 1))
			lba=$((lba + 16))
		done
	done
	caught=$(wc -l <"$TMP/caught")
	echo -n "corrupt: $n planted, $caught caught by the transport"
	echo -n " (guard $(grep -c guard "$TMP/caught"), app $(grep -c app \
		"$TMP/caught"), ref $(grep -c ref "$TMP/caught")),"
	echo -n " $(awk '{ n += $1 } END { print n + 0 }' "$TMP/lio") by LIO;"
	echo " $((n - caught - m)) passed as T10 says$misses"
	[ -z "$misses" ]
}

NVME_PI=1
NVME_PI_LOOP=1
ULP_NAME=nvmet-pi-corrupt
ULP_DATA=nvme_pi_corrupt
source "$(dirname "$(readlink -f "$0")")/nvme_rdma_rw.sh"
