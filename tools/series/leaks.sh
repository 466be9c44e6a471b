#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Memory leaks of the KUnit suites, found by kmemleak.  Boot the UML kernel
# of the KUnit run ($OBJ_UM/linux, built with CONFIG_DEBUG_KMEMLEAK by
# configs/um-debug.config) as a guest that runs the rw suites at boot, then
# scans with kmemleak-scan.sh as its init.  Prints one line,
# "PASS|FAIL leaks: ...", and exits non-zero on FAIL.
#
# The guest boots like the make e2e ones (e2e.sh): the host's root through
# hostfs, read-only, tmpfs for what it writes, no network device.  Its log
# is $BUILD/leaks/guest.log; LEAKS_TIMEOUT (seconds, default 600) bounds
# it.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel=$OBJ_UM/linux
out=$BUILD/leaks
log=$out/guest.log

if [ ! -x "$kernel" ]; then
	echo "FAIL leaks: $kernel is missing: run make first"
	exit 1
fi
rm -rf "$out"
mkdir -p "$out/uml"

# The benchmark suite with the tiny iteration counts of the KUnit run.
timeout -k 10 "${LEAKS_TIMEOUT:-600}" "$kernel" \
	mem=1G umid=leaks uml_dir="$out/uml" \
	con=none con0=fd:0,fd:1 ssl=none console=tty0 \
	root=/dev/root rootfstype=hostfs rootflags=/ ro \
	init="$here/e2e-guest.sh" e2e_test="$here/kmemleak-scan.sh" \
	kunit.filter_glob='ib_core_rw*' \
	rw_bench_kunit.batch=10 rw_bench_kunit.batches=5 \
	</dev/null >"$log" 2>&1

cases=$(grep -cE '^ *(not )?ok [0-9]+ ' "$log")
summary=$(sed -n 's/^kmemleak-scan: //p' "$log")
if ! grep -q '^e2e-guest: exit 0' "$log"; then
	echo "FAIL leaks: ${summary:-no scan}, see $log"
	grep -A12 '^unreferenced object' "$log" | head -n 40 | sed 's/^/    /'
	exit 1
fi
echo "PASS leaks: kmemleak after $cases KUnit results: $summary"
