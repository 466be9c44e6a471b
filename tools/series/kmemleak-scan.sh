#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Run by the leaks guest (leaks.sh) after the KUnit suites ran at boot:
# have kmemleak scan memory twice (an object is reported once it was
# unreferenced in two scans), then print the unreferenced objects whose
# allocation backtrace goes through the series' code.  Exits 0 when there
# is none.

set -u
kmemleak=/sys/kernel/debug/kmemleak
ours='rdma_rw_|ib_mock|rw_kunit|rw_sig_kunit|rw_bench_kunit'

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
echo "kmemleak-scan: $all unreferenced objects, $n allocated through the series' code"
head -n 60 /tmp/kmemleak.ours
[ "$n" = 0 ]
