#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make soak: the e2e guests of e2e.sh, again and again, for the failures
# that come by chance (a hang in one guest run of thirty):
#
#   soak.sh <rounds> [run...]
#
# boots rounds times the guests e2e.sh would boot for $E2E_USERS and the runs
# given (e2e.sh's defaults otherwise), E2E_JOBS at a time, and prints
#
#   PASS|FAIL soak: <users> <runs>: P of N guests passed, guest seconds
#                   median M, max X, D UML processes died after their test
#
# then one line per failed guest with its log, kept under
# $BUILD/soak/<round>/; the logs of rounds that passed are removed.
# Exits non-zero when a guest failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:?usage: soak.sh <rounds> [run...]}
shift
out=$BUILD/soak
rm -rf "$out"
mkdir -p "$out"
for ((i = 1; i <= rounds; i++)); do
	E2E_OUT=$out/$i "$here/e2e.sh" "$@" >"$out/$i.txt" 2>&1
	echo "soak: round $i of $rounds: $(grep -c '^PASS' "$out/$i.txt") passed," \
		"$(grep -c '^FAIL' "$out/$i.txt") failed"
	if ! grep -q '^FAIL' "$out/$i.txt" && grep -q '^PASS' "$out/$i.txt"; then
		rm -rf "${out:?}/$i"
	fi
done
passed=$(cat "$out"/*.txt | grep -c '^PASS')
guests=$(cat "$out"/*.txt | grep -cE '^(PASS|FAIL) e2e:')
secs=$(cat "$out"/*.txt | sed -nE 's/.*\(guest ([0-9]+) s.*/\1/p' | sort -n)
median=$(sed -n "$(((guests + 1) / 2))p" <<<"$secs")
died=$(cat "$out"/*.txt | grep -c 'then its UML process died')
verdict=FAIL
[ "$guests" -gt 0 ] && [ "$passed" = "$guests" ] && verdict=PASS
echo "$verdict soak: ${E2E_USERS:-all users} ${*:-all runs}:" \
	"$passed of $guests guests passed, guest seconds median ${median:-0}," \
	"max $(tail -n 1 <<<"$secs"), $died UML processes died after their test"
grep -h '^FAIL' "$out"/*.txt | sed 's/^/    /'
[ "$verdict" = PASS ]
