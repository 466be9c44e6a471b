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
#              must not return the new data.
#
# The same passthrough write with a good guard must succeed and the blocks
# next to the corrupted ones must read back intact, so that a setup that
# fails every I/O cannot pass.

CORRUPT_BLOCKS=4
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

# One 512-byte block of the device $3 at LBA $1, from or into file $2.
blk_write() {
	dd if="$2" of="$3" bs=512 seek="$1" count=1 oflag=direct status=none
}

blk_read() {
	dd if="$3" of="$2" bs=512 skip="$1" count=1 iflag=direct status=none
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

# Does block $1 of the host's namespace read back as file $2?
reads_as() {
	blk_read "$1" "$TMP/got" "$DATA" && cmp -s "$TMP/got" "$2"
}

# bad-write on block $1: prints nothing when it was detected.
bad_write() {
	blk_write "$1" "$TMP/old" "$DATA" || { echo "cannot write block $1"; return; }
	if pt_write "$1" 0xdead >"$TMP/pt.log" 2>&1; then
		echo "block $1: the write with a bad guard succeeded"
	elif ! grep -q 'End-to-end Guard Check Error' "$TMP/pt.log"; then
		echo "block $1: the write failed with $(tail -n 1 "$TMP/pt.log")"
	elif ! reads_as "$1" "$TMP/old"; then
		echo "block $1: changed by the refused write"
	fi
}

# stale-pi on block $1: prints nothing when it was detected.
stale_pi() {
	local gen=/sys/block/${BDEV#/dev/}/integrity/write_generate

	blk_write "$1" "$TMP/old" "$DATA" || { echo "cannot write block $1"; return; }
	echo 0 >"$gen" && blk_write "$1" "$TMP/new" "$BDEV"
	echo 1 >"$gen"
	if blk_read "$1" "$TMP/got" "$DATA" 2>"$TMP/stale.err"; then
		if cmp -s "$TMP/got" "$TMP/new"; then
			echo "block $1: the new data was read back"
		else
			echo "block $1: read back, the disk kept its data"
		fi
	elif [ -s "$TMP/got" ] && cmp -s "$TMP/got" "$TMP/new"; then
		echo "block $1: the read failed but returned the new data"
	fi
}

# The data result: prints "corrupt: <N> injected, <N> detected ...".
nvme_pi_corrupt() {
	local kind lba i injected=0 detected=0 miss misses='' why base=4096

	head -c 512 /dev/zero >"$TMP/zero"
	head -c 512 /dev/zero | tr '\0' '\132' >"$TMP/old"
	head -c 512 /dev/zero | tr '\0' '\245' >"$TMP/new"
	if ! pt_write 8 0 >"$TMP/pt.log" 2>&1 || ! reads_as 8 "$TMP/zero"; then
		echo "corrupt: a passthrough write with good PI failed: $(tail -n 1 "$TMP/pt.log")"
		return 1
	fi
	for kind in bad_write stale_pi; do
		for ((i = 0; i < CORRUPT_BLOCKS; i++)); do
			lba=$((base + 16 * i))
			blk_write $((lba + 1)) "$TMP/old" "$DATA"
			injected=$((injected + 1))
			miss=$("$kind" "$lba")
			if [ -n "$miss" ]; then
				misses+="; $miss"
			elif ! reads_as $((lba + 1)) "$TMP/old"; then
				misses+="; block $((lba + 1)) next to $lba was lost"
			else
				detected=$((detected + 1))
			fi
		done
		base=$((base * 2))
	done
	# What the host's failed reads of stale-PI blocks said.
	why="bad-write: End-to-end Guard Check Error, stale-pi: read failed"
	why+=" with '$(sed 's/.*: //' "$TMP/stale.err" 2>/dev/null | tail -n 1)'"
	echo "corrupt: $injected injected, $detected detected ($why$misses)"
	[ "$detected" = "$injected" ]
}

NVME_PI=1
ULP_NAME=nvmet-pi-corrupt
ULP_DATA=nvme_pi_corrupt
source "$(dirname "$(readlink -f "$0")")/nvme_rdma_rw.sh"
