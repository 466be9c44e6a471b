#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Boot a UML kernel with uverbs (CONFIG_INFINIBAND_USER_ACCESS=y, which
# the kernel of make check lacks) as a guest, the way tools/series/e2e.sh
# does, and run rxe_user_reg_mr in it as nobody (guest-init.sh).
#
#   run-guest.sh KERNEL OUTDIR RUN...
#
# Each RUN is the reproducer's arguments joined by colons ("verbs",
# "ring:0xdead000000000000", "opcode:34").  The runs go in one guest, in
# order: put one that kills the kernel last.  The reproducer is built
# into OUTDIR; the guest's console goes to OUTDIR/guest.log and its
# kernel log, as the guest itself writes it, to OUTDIR/guest.kmsg.  The
# lines that matter are printed at the end.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel=$1 out=$2
shift 2
runs=$(IFS=,; echo "$*")
mkdir -p "$out/uml"
out=$(cd "$out" && pwd)
cc -O2 -Wall -Wextra -o "$out/rxe_user_reg_mr" "$here/rxe_user_reg_mr.c" \
	-libverbs || exit 1
rm -f "$out/guest.log" "$out/guest.kmsg"
timeout -k 10 120 "$kernel" \
	mem=512M umid="sec-rxe-$$" uml_dir="$out/uml" \
	con=none con0=fd:0,fd:1 ssl=none console=tty0 \
	root=/dev/root rootfstype=hostfs rootflags=/ ro \
	init="$here/guest-init.sh" kunit.enable=0 \
	sec_prog="$out/rxe_user_reg_mr" sec_runs="$runs" \
	sec_kmsg="$out/guest.kmsg" </dev/null >"$out/guest.log" 2>&1
echo "guest exit $?"
grep -hE 'sec-guest|KASAN|BUG:|Oops|general protection|Kernel mode fault|Segfault|Kernel panic|panic|rxe_reg_fast_mr|wr_opcode_mask|req_next_wqe|rxe_requester|Read of size|Write of size' \
	"$out/guest.kmsg" 2>/dev/null | head -n 80
echo "--- console tail"
tail -n 40 "$out/guest.log"
