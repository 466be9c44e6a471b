#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# NVMe over Fabrics with T10 protection information: data whose PI does
# not match is refused on its way, never written or returned.  The setup
# of nvme_pi_rdma_rw.sh (over rxe by default); instead of fio, two kinds
# of corruption, each in blocks of its own, counted as injected and as
# detected:
#
#   bad-write  the host writes a block of zeroes with a wrong guard in its
#              PI: an NVMe write passed through with separate metadata,
#              which the host's block layer neither generates nor checks,
#              asking for guard and reference tag checks.  The integrity
#              MRs on both sides check the PI as it moves (nvme-rdma's on
#              the host, the R/W API's signature offload in nvmet-rdma):
#              the command must fail with the NVMe end-to-end guard check
#              status, and the block keep what it held.
#   stale-pi   a block changes on the target's disk behind its PI: written
#              there with the disk's write_generate off, so that the disk
#              keeps the old PI.  The host's read of it must fail, and
#              must not return the new data (lib.sh).
#
# The same passthrough write with a good guard must succeed and the blocks
# next to the corrupted ones must read back intact (corrupt_check in
# lib.sh), so that a setup that fails every I/O cannot pass.

# The PRCHK bits of an NVMe read or write command's control field.
NVME_PRCHK_REF=$((1 << 10))
NVME_PRCHK_GUARD=$((1 << 12))

# $2 bytes of the value $1, big endian, as printf escapes.
be_bytes() {
	local n=$2 s=

	while [ "$n" -gt 0 ]; do
		n=$((n - 1))
		s+=$(printf '\\x%02x' $((($1 >> (8 * n)) & 255)))
	done
	echo "$s"
}

# The T10-PI tuple with guard $1, application tag 0, reference tag $2.
pi_tuple() {
	# shellcheck disable=SC2059 # the format is the bytes
	printf "$(be_bytes "$1" 2)$(be_bytes 0 2)$(be_bytes "$2" 4)"
}

# An NVMe write of a block of zeroes (whose CRC guard is 0) to LBA $1 of
# namespace 1, with PI of guard $2, reference tag $1 and checks of both.
pt_write() {
	pi_tuple "$2" "$1" >"$TMP/pi"
	nvme io-passthru "$DATA" --opcode=0x01 --namespace-id=1 \
		--data-len=512 --metadata-len=8 --write \
		--input-file="$TMP/zero" --metadata="$TMP/pi" \
		--cdw10=$(($1 & 0xffffffff)) --cdw11=$(($1 >> 32)) \
		--cdw12=$(((NVME_PRCHK_GUARD | NVME_PRCHK_REF) << 16)) \
		--cdw14=$(($1 & 0xffffffff))
}

# bad-write on block $1 (see corrupt_check in lib.sh).
bad_write() {
	blk_write "$1" "$TMP/old" "$DATA" || { echo "cannot write block $1"; return; }
	if pt_write "$1" 0xdead >"$TMP/pt.log" 2>&1; then
		echo "block $1: the write with a bad guard succeeded"
	elif ! grep -q 'End-to-end Guard Check Error' "$TMP/pt.log"; then
		echo "block $1: the write failed with $(tail -n 1 "$TMP/pt.log")"
	elif ! reads_as "$1" "$TMP/old"; then
		echo "block $1: changed by the refused write"
	else
		echo "End-to-end Guard Check Error" >"$TMP/bad_write.note"
	fi
}

# The data result, once a passthrough write with good PI has worked.
nvme_pi_corrupt() {
	head -c 512 /dev/zero >"$TMP/zero"
	if ! pt_write 8 0 >"$TMP/pt.log" 2>&1 || ! reads_as 8 "$TMP/zero"; then
		echo "corrupt: a passthrough write with good PI failed: $(tail -n 1 "$TMP/pt.log")"
		return 1
	fi
	corrupt_check bad_write stale_pi
}

NVME_PI=1
ULP_NAME=nvmet-pi-corrupt
ULP_DATA=nvme_pi_corrupt
source "$(dirname "$(readlink -f "$0")")/nvme_rdma_rw.sh"
