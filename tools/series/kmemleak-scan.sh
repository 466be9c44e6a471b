#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run by the leaks guest (leaks.sh) after the KUnit suites ran at boot:
# have kmemleak scan memory twice (an object is reported once it was
# unreferenced in two scans), then print the unreferenced objects that the
# suites' threads allocated (comm "kunit_try_catch": only the rw suites
# run in that guest), or whose allocation backtrace goes through the
# series' code (UML records no backtraces; other architectures do).
# Exits 0 when there is none.

set -u
kmemleak=/sys/kernel/debug/kmemleak
ours='comm "kunit_try_catch"|rdma_rw_|ib_mock|rw_kunit|rw_sig_kunit|rw_bench_kunit'

mount -t debugfs debugfs /sys/kernel/debug
if [ ! -w "$kmemleak" ]; then
	echo "kmemleak-scan: no $kmemleak (CONFIG_DEBUG_KMEMLEAK off?)"
	exit 2
fi
echo scan >"$kmemleak"
sleep 5
echo scan >"$kmemleak"
cat "$kmemleak" >/tmp/kmemleak.all

# One record per object: it starts at its "unreferenced object" line.
awk -v ours="$ours" '
	/^unreferenced object/ { if (rec ~ ours) printf "%s", rec; rec = "" }
	{ rec = rec $0 "\n" }
	END { if (rec ~ ours) printf "%s", rec }' /tmp/kmemleak.all \
	>/tmp/kmemleak.ours
all=$(grep -c '^unreferenced object' /tmp/kmemleak.all)
n=$(grep -c '^unreferenced object' /tmp/kmemleak.ours)
echo "kmemleak-scan: $all unreferenced objects, $n of them from the suites"
head -n 60 /tmp/kmemleak.ours
# What the others look like, to tell a filter that is too narrow.
[ "$n" = 0 ] && head -n 24 /tmp/kmemleak.all
[ "$n" = 0 ]
