#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Every check of the series, one PASS/FAIL line each, then the tally
# "N passed, N failed".  Exits non-zero when a check failed.
#
# Needs LINUX, OBJ_UM, OBJ_X86, BUILD and SERIES in the environment, as
# the top-level Makefile exports them, and the series applied and
# configured.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
logs=$BUILD/logs
mkdir -p "$logs"
results=$logs/results.txt
rm -f "$logs/times.txt" "$results"
passed=0
failed=0

# say <line...>: print verdict lines and keep them for the summary
# (summary.py).
say() { printf '%s\n' "$@" | tee -a "$results"; }

# tally <report>: a report whose last line is "<passed> <failed>"
# (kunit_results.py, base_results.py): its other lines said, its counts
# added to the tally.  Returns non-zero when something in it failed.
tally() {
	local p f

	echo "$1" | sed '$d' | tee -a "$results"
	read -r p f <<<"$(echo "$1" | tail -n 1)"
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" = 0 ]
}

# passes <report>: print a report of tally's form, counted in no tally
# (a check's log); true when a case passed and none failed.
passes() {
	local p f

	echo "$1" | sed '$d'
	read -r p f <<<"$(echo "$1" | tail -n 1)"
	[ "$p" -gt 0 ] && [ "$f" = 0 ]
}

# check <name> <command...>: run the command, its output to a log, and
# the seconds it took to $logs/times.txt.
check() {
	local name=$1 log start=$SECONDS rc=0
	shift
	log=$logs/$(echo "$name" | tr -c 'A-Za-z0-9._-' _).log
	if "$@" >"$log" 2>&1; then
		say "PASS $name"
		passed=$((passed + 1))
	else
		say "FAIL $name"
		sed 's/^/    /' "$log" | tail -n 20
		failed=$((failed + 1))
		rc=1
	fi
	echo "$((SECONDS - start)) $name" >>"$logs/times.txt"
	return $rc
}

patch_msgs() { awk '$1 == "patch" { print $2 }' "$here/series"; }
our_files() { awk '$1 == "file" { print $2 }' "$here/series"; }
our_sources() { our_files | grep -E '\.[ch]$'; }

# shellcheck source=bisect.sh
. "$here/bisect.sh"

# The KUnit suites of one object tree (run_kunit <tree> <build.sh action>
# [<arch label>]): one line per suite, every case counted in the tally.
run_kunit() {
	local obj=$1 action=$2 arch=${3:-} json=$1/kunit.json log=$logs/$2.log

	rm -f "$json"
	"$here/build.sh" "$action" >"$log" 2>&1
	if grep -q '^build: no x86_64 KUnit suite' "$log"; then
		return
	fi
	if [ ! -s "$json" ]; then
		say "FAIL $action: no results, see $log"
		tail -n 20 "$log" | sed 's/^/    /'
		failed=$((failed + 1))
		return
	fi
	tally "$(python3 "$here/kunit_results.py" "$json" ${arch:+"$arch"})"
}

# The suites as README says a kernel CI runs them: each directory's
# .kunitconfig alone, in kunit.py's own kernel (build.sh kunitconfig),
# one verdict per run.
run_kunitconfig() {
	local log=$logs/kunitconfig.log runs=$BUILD/kunitconfig/runs f dir json

	rm -f "$runs"
	"$here/build.sh" kunitconfig >"$log" 2>&1
	# Every .kunitconfig of the series, whether or not build.sh ran it.
	for f in $(our_files | grep '/\.kunitconfig$'); do
		dir=$(dirname "$f")
		json=$(awk -v d="$dir" '$1 == d { print $2 }' "$runs" 2>/dev/null)
		if [ -n "$json" ] && [ -s "$json" ]; then
			tally "$(python3 "$here/kunit_results.py" "$json" \
				--run "kunit.py --kunitconfig=$dir")"
		else
			say "FAIL kunit.py --kunitconfig=$dir: no results, see $log"
			failed=$((failed + 1))
		fi
	done
}

# logs_clean <checker> <banner> <report> <log...>: each log shows that
# the checker ran (a line matching the ERE <banner>) and has no line
# matching the PCRE <report>.
logs_clean() {
	local what=$1 banner=$2 report=$3 log rc=0

	shift 3
	[ $# -gt 0 ] || { echo "no log to read"; return 1; }
	for log in "$@"; do
		if ! grep -qE "$banner" "$log"; then
			echo "no $what banner in $log"
			rc=1
		fi
		grep -HnP "$report" "$log" && rc=1
	done
	return $rc
}

# rxe_pi's hostile peer (rxe_pi_hostile_peer): <passed> of <cases> cases
# passed, at least one ran, and the kernel log of the rxe_pi suite has
# no WARN, BUG or KASAN report.
rxe_hostile_clean() {
	local passed=$1 cases=$2 log=$3 suite

	if [ "$cases" = 0 ] || [ "$passed" != "$cases" ]; then
		echo "$passed of $cases hostile-peer cases passed"
		return 1
	fi
	suite=$(awk '/# Subtest: rxe_pi$/, /ok [0-9]+ rxe_pi$/' "$log")
	[ -n "$suite" ] || { echo "no rxe_pi suite in $log"; return 1; }
	! echo "$suite" | grep -E 'WARNING:|BUG:|KASAN:'
}

# Lockdep had nothing to report: no lock order or state it could not
# prove, no sleep where that is not allowed, and it was still on at the
# end (configs/x86-debug.config, configs/um-debug.config).
lockdep_clean() {
	logs_clean lockdep 'Lock dependency validator' \
		'possible (circular|recursive) locking|inconsistent lock state|suspicious RCU usage|BUG: (sleeping function called|scheduling while atomic|MAX_LOCK)|turning off the locking correctness validator|Disabling lock debugging|bad unlock balance|lock held when returning|DEBUG_LOCKS_WARN_ON' \
		"$@"
}

# The logs of the e2e guests (e2e.sh), one per user and run.
e2e_logs() { compgen -G "$BUILD/e2e/*.log"; }

# The suites against the base tree's rw.c, side $1 "base" or "fixed"
# (base-rw.sh): one line, then one for each case that differs from the
# list of upstream bugs (base-failures), counted in the tally.  Returns
# non-zero when it failed.
run_base() {
	local side=$1 d=${BASE_RW:-$BUILD/base-rw} j args=()

	"$here/base-rw.sh" kunit "$side" >"$logs/base-rw-$side.log" 2>&1
	for j in um um-force_mr x86 x86-force_mr; do
		case $j in
		um*) args+=("um=$d/$side-$j.json") ;;
		*) args+=("x86_64=$d/$side-$j.json") ;;
		esac
	done
	tally "$(python3 "$here/base_results.py" "$side" \
		"$here/base-failures" "${args[@]}")"
}

# The irdma suites against the base tree's verbs.c (base-irdma.sh), side
# $1 "base", "fixed" (with the irdma fixes) or "stable" (with the
# backports of mainline's irdma fixes), judged as run_base judges
# rw.c's against irdma-base-failures: one line, then one for each case
# that differs, counted in the tally.  Returns non-zero when it failed.
run_base_irdma() {
	local side=$1 d=${BASE_IRDMA:-$BUILD/base-irdma} mode=verbs

	[ "$side" = base ] || mode=verbs-$side
	"$here/base-irdma.sh" "$side" >"$logs/base-irdma-$side.log" 2>&1
	tally "$(python3 "$here/base_results.py" "$mode" \
		"$here/irdma-base-failures" "x86_64=$d/$side.json" \
		"ours=$OBJ_X86/kunit.json")"
}

# A fixes series (fixes.sh), $1 "rw" (tools/series/fixes/), "irdma"
# (tools/series/irdma-fixes/) or "irdma-stable" (its backports,
# tools/series/irdma-stable/): it applies to the pristine base, each
# patch builds and passes checkpatch, b4 reads it back, and the suites
# pass on the base rw.c, or the base verbs.c, with it: every case listed
# as an upstream bug in base-failures, or irdma-base-failures (there as
# a backported upstream bug for the backports).
check_fixes() {
	local n=0 ok=1 p listed sel=() name=fixes what=fixes fix=fix
	local arch="UML, W=1" side=fixed label="upstream bug"

	case $1 in
	irdma)
		sel=(irdma) name=irdma-fixes what="irdma fixes" fix="irdma fix"
		arch="x86_64, W=1"
		;;
	irdma-stable)
		sel=(irdma-stable) name=irdma-stable what="irdma backports"
		fix="irdma backport" arch="x86_64, W=1" side=stable
		label="backported upstream bug"
		;;
	esac
	check "$what: applied and signed by the sender onto the pristine base" \
		"$here/fixes.sh" "${sel[@]}" branch ||
		{ say "FAIL $what: no branch to test"; failed=$((failed + 1)); return; }
	check "$what: every patch builds ($arch)" \
		"$here/fixes.sh" "${sel[@]}" builds || ok=0
	"$here/fixes.sh" "${sel[@]}" format "$BUILD/$name" >/dev/null
	for p in "$BUILD/$name"/[0-9]*.patch; do
		case $p in */0000-*) continue ;; esac
		n=$((n + 1))
		check "checkpatch --strict: $fix $n ($(basename "$p"))" \
			check_checkpatch "$p" "$name" || ok=0
	done
	check "b4: the $what as b4 reads them, and b4 am onto the base" \
		b4_roundtrip "$BUILD/$name" "$name" \
		"$here/$name/cover-letter.txt" || ok=0
	if [ "$1" != rw ]; then
		run_base_irdma "$side" || ok=0
		listed=$(awk -F'\t' -v label="$label" \
			'!/^#/ && index($3, label) == 1' \
			"$here/irdma-base-failures" | wc -l)
	else
		run_base fixed || ok=0
		listed=$(awk '!/^#/ && NF' "$here/base-failures" | wc -l)
	fi
	if [ $ok = 1 ]; then
		say "PASS $what: $n patches apply, build, and turn $listed base failures into passes"
		passed=$((passed + 1))
	else
		say "FAIL $what: $n patches, see the lines above"
		failed=$((failed + 1))
	fi
}

# Each upstream fix once, with its route (fix-routes): a "fix ..." line
# each and one PASS or FAIL line, counted once.
check_routes() {
	local out

	out=$(python3 "$here/fix_routes.py" "$repo")
	say "$(echo "$out" | grep -v '^\(PASS\|FAIL\) ')"
	case $(echo "$out" | tail -n 1) in
	PASS\ *) passed=$((passed + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
	say "$(echo "$out" | tail -n 1)"
}

# The ULPs through rw.c over siw and rxe in guests (e2e.sh), two at a time
# unless E2E_JOBS says otherwise: one line per run, each counted in the
# tally.
run_e2e() {
	local log=$logs/e2e.log line n=0

	E2E_JOBS=${E2E_JOBS:-2} "$here/e2e.sh" >"$log" 2>&1
	while IFS= read -r line; do
		say "$line"
		case $line in
		PASS\ *) passed=$((passed + 1)) n=$((n + 1)) ;;
		FAIL\ *) failed=$((failed + 1)) n=$((n + 1)) ;;
		esac
	done <"$log"
	if [ $n = 0 ]; then
		say "FAIL e2e: no results, see $log"
		failed=$((failed + 1))
	fi
}

# The in-tree users build with W=1, and nothing warns about our files.
check_users_w1() {
	local log=$OBJ_UM/users.log
	"$here/build.sh" users-fresh || return 1
	! grep -E "($(our_sources | paste -sd'|')):[0-9]+(:[0-9]+)?: (warning|error)" "$log"
}

# The series' x86_64 sources build with W=1 and sparse, and nothing warns
# about our files.  In the bisect tree: in $OBJ_X86, W=1 would have the
# next KUnit build recompile them.  Their objects go first, so that each
# is compiled (ccache replays a hit's warnings) and W=1 sees them all.
check_x86_objs() {
	local obj=$BUILD/obj-bisect-x86
	local log=$obj/objs.log f

	for f in $(our_sources | grep '^drivers/infiniband/hw/.*\.c$'); do
		rm -f "$obj/${f%.c}.o"
	done
	OBJ_X86=$obj "$here/build.sh" x86-config &&
		OBJ_X86=$obj "$here/build.sh" x86-objs || return 1
	grep -q ' CHECK ' "$log" || { echo "sparse did not run"; return 1; }
	! grep -E "($(our_sources | paste -sd'|')):[0-9]+(:[0-9]+)?: (warning|error)" "$log"
}

check_sparse() {
	local out

	out=$(make -C "$LINUX" ARCH=um O="$OBJ_UM" C=2 \
		drivers/infiniband/core/rw.o 2>&1)
	local rc=$?
	echo "$out"
	[ $rc = 0 ] || return 1
	echo "$out" | grep -q 'CHECK .*rw\.c' || { echo "sparse did not run"; return 1; }
	! echo "$out" | grep -E '(warning|error):'
}

# kernel-doc -Wall on our files and on every file our .rst pages pull in.
check_kernel_doc() {
	local out
	out=$(cd "$LINUX" && scripts/kernel-doc -none -Wall "$@" 2>&1)
	echo "$out"
	[ -z "$out" ]
}

# The pages render through the kernel's own Sphinx build, warning-free
# (graphviz is optional there and only announced).
check_htmldocs() {
	local out rc

	out=$(make -C "$LINUX" O="$BUILD/obj-doc" SPHINXDIRS=infiniband \
		htmldocs 2>&1)
	rc=$?
	echo "$out"
	[ $rc = 0 ] || return 1
	[ -f "$BUILD/obj-doc/Documentation/output/infiniband/rdma_rw.html" ] ||
		{ echo "rdma_rw.html was not written"; return 1; }
	! echo "$out" | grep -iE 'warning|error' | grep -v 'dot(1) not found'
}

check_checkpatch() {
	local patch=$1 msg=$2 ignore
	ignore=$(awk -v m="$msg" '$1 == m { print $2 }' \
		"$here/checkpatch.exceptions" | paste -sd,)
	(cd "$LINUX" && scripts/checkpatch.pl --strict --show-types \
		${ignore:+--ignore "$ignore"} "$patch")
}

# The shell scripts of the tree: the tooling's here, the kselftests' in
# the applied tree, where they find kselftest's ktap_helpers.sh.  A
# kselftest's hooks are functions lib.sh calls by name after the script
# sourced it, which shellcheck takes for unreachable code (SC2317).
shell_scripts() { git -C "$repo" ls-files '*.sh' .ci/run; }

check_shellcheck() {
	(cd "$repo" && shell_scripts | grep -v '^tools/testing/' |
		xargs shellcheck -x -P SCRIPTDIR) &&
		(cd "$LINUX" && shell_scripts | grep '^tools/testing/' |
			xargs shellcheck -x -P SCRIPTDIR -e SC2317)
}

check_flake8() {
	(cd "$repo" && git ls-files '*.py' | xargs /usr/bin/python3 -m flake8)
}

# ib_core_rw_race booted again with KCSAN at a higher rate (build.sh
# x86-race-kcsan): every case passes and KCSAN reports no race.
race_kcsan() {
	"$here/build.sh" x86-race-kcsan >/dev/null 2>&1
	[ -s "$OBJ_X86/race-kcsan.json" ] || { echo "no results"; return 1; }
	passes "$(python3 "$here/kunit_results.py" \
		"$OBJ_X86/race-kcsan.json" x86_64)" &&
		logs_clean KCSAN 'kcsan: enabled early' 'BUG: KCSAN: ' \
			"$OBJ_X86/race-kcsan.log"
}

# b4 reads a written series as its cover letter file says (revision,
# change-id, base, every patch), and b4 am of it gives the branch again.
b4_roundtrip() {
	/usr/bin/python3 "$here/b4_roundtrip.py" "$LINUX" "$@"
}

# The mailed series applies with git am to the pristine base and gives
# exactly the tree that was tested.
check_git_am() {
	local wt=$BUILD/am-check rc=0 mails=("$SERIES"/[0-9]*.patch)
	git -C "$LINUX" worktree remove -f "$wt" 2>/dev/null
	rm -rf "$wt"
	git -C "$LINUX" worktree add -q --detach "$wt" base || return 1
	git -C "$wt" -c user.name=check -c user.email=check@localhost \
		am -q "${mails[@]:1}" || rc=1
	if [ $rc = 0 ] && [ "$(git -C "$wt" rev-parse 'HEAD^{tree}')" != \
			"$(git -C "$LINUX" rev-parse 'series^{tree}')" ]; then
		echo "git am result differs from the series branch"
		rc=1
	fi
	git -C "$LINUX" worktree remove -f "$wt"
	return $rc
}

# The stages of make check, in the order they run.  CHECKS names some of
# them (make check CHECKS="kunit lint"): each needs only the series applied
# and configured, as make check leaves it, but the KUnit results of kunit
# for its own lines.
stages=(kunit coverage base irdma e2e bisect lint mail)

# The KUnit suites as a kernel CI runs them, then in both of the series'
# kernels, and what those kernels' logs must not hold.
stage_kunit() {
	local ok cases

	run_kunitconfig
	run_kunit "$OBJ_UM" kunit
	run_kunit "$OBJ_X86" x86-kunit x86_64
	read -r ok cases < <(python3 "$here/kunit_results.py" \
		"$OBJ_UM/kunit.json" --case rxe_pi.rxe_pi_hostile_peer \
		2>/dev/null || echo 0 0)
	check "rxe hostile: $cases accesses through integrity keys, each through the engine or an error completion, no WARN" \
		rxe_hostile_clean "$ok" "$cases" "$OBJ_UM/test.log"
	check "lockdep: UML KUnit kernel, PROVE_LOCKING and DEBUG_ATOMIC_SLEEP, no report" \
		lockdep_clean "$OBJ_UM/test.log"
	check "lockdep: x86_64 KUnit kernel, PROVE_LOCKING and DEBUG_ATOMIC_SLEEP, no report" \
		lockdep_clean "$OBJ_X86/test.log"
	# dma-debug found no misuse of the DMA API and did not turn itself
	# off; KCSAN, on two vCPUs, no data race; in a case or outside one.
	check "dma-debug: x86_64 KUnit kernel, DMA_API_DEBUG and DMA_API_DEBUG_SG, no DMA-API error" \
		logs_clean dma-debug 'DMA-API: debugging enabled' \
		'DMA-API: (?!debugging enabled|preallocated [0-9]+ debug entries)' \
		"$OBJ_X86/test.log"
	check "kcsan: x86_64 KUnit kernel on two vCPUs, KCSAN, no data race" \
		logs_clean KCSAN 'kcsan: enabled early' 'BUG: KCSAN: ' \
		"$OBJ_X86/test.log"
	check "kcsan: ib_core_rw_race again, KCSAN watching ten times as often, every case passes, no data race" \
		race_kcsan
	check "bench: ib_core_rw_bench printed figures for every case" \
		python3 "$here/bench_table.py" --check "$OBJ_UM/test.log"
}

# rw.c's line and branch coverage by the R/W suites on UML, each line
# they leave unexecuted explained (coverage.sh).
stage_coverage() {
	tally "$("$here/coverage.sh")"
}

# The suites on the base tree's rw.c, then with the rw.c fixes.
stage_base() {
	run_base base
	check_fixes rw
}

# The irdma suites on the base tree's verbs.c, then with the irdma fixes,
# then with the backports to 6.12.y.
stage_irdma() {
	run_base_irdma base
	check_fixes irdma
	check_fixes irdma-stable
}

# The ULPs in guests, and kmemleak's scan of the suites.
stage_e2e() {
	local guest_logs leaks

	run_e2e
	mapfile -t guest_logs < <(e2e_logs)
	check "lockdep: ${#guest_logs[@]} e2e guests (the UML kernel), no report" \
		lockdep_clean "${guest_logs[@]}"
	leaks=$("$here/leaks.sh")
	say "$leaks"
	case $leaks in
	PASS\ *) passed=$((passed + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
}

# Warnings of the compilers, sparse, kernel-doc, Sphinx, shellcheck and
# flake8; rw.c no larger than mainline's.
stage_lint() {
	local docs f rw_lines rw_limit

	check "build: in-tree users with W=1, no warning from our files" \
		check_users_w1
	check "sparse: rw.c (C=2)" check_sparse
	if our_sources | grep -q '^drivers/infiniband/hw/.*\.c$'; then
		check "build: x86_64 objects with W=1 and sparse, no warning from our files" \
			check_x86_objs
	fi
	docs=$( (our_sources; our_files | grep '\.rst$' | sed "s|^|$repo/|" |
		xargs grep -ho '^\.\. kernel-doc:: .*' | awk '{ print $3 }') |
		sort -u)
	for f in $docs; do
		check "kernel-doc -Wall: $f" check_kernel_doc "$f"
	done
	check "htmldocs: Documentation/infiniband renders without warnings" \
		check_htmldocs
	check "shellcheck: $(shell_scripts | wc -l) scripts" check_shellcheck
	check "flake8: $(git -C "$repo" ls-files '*.py' | wc -l) Python scripts" \
		check_flake8
	rw_lines=$(wc -l <"$repo/drivers/infiniband/core/rw.c")
	rw_limit=$(python3 "$here/summary.py" --rw-limit)
	check "rw.c size: $rw_lines lines, at most $rw_limit" \
		test "$rw_lines" -le "$rw_limit"
}

# The series as mail: checkpatch, git am, b4, the addresses; and the
# round trip of apply and export.
stage_mail() {
	local n=0 msg mails d

	"$here/format.sh" "$SERIES" >/dev/null
	for msg in $(patch_msgs); do
		n=$((n + 1))
		check "checkpatch --strict: patch $n ($msg)" check_checkpatch \
			"$(ls "$SERIES"/"$(printf %04d $n)"-*.patch)" "$msg"
	done
	check "series: git am onto the pristine base" check_git_am
	check "b4: the series as b4 reads them, and b4 am onto the base" \
		b4_roundtrip "$SERIES" series "$here/cover-letter.txt"
	# The fixes' mails are written by the base and irdma stages.
	mails=("$SERIES")
	for d in "$BUILD/fixes" "$BUILD/irdma-fixes" "$BUILD/irdma-stable"; do
		[ -d "$d" ] && mails+=("$d")
	done
	check "mail: no placeholder address in ${mails[*]##*/}" \
		"$here/mail_addresses.py" "${mails[@]}"
	check "export: the series round-trips (apply, export, identical tree)" \
		"$here/roundtrip.sh"
	check_routes
}

selected=" ${CHECKS:-${stages[*]}} "
for s in $selected; do
	[[ " ${stages[*]} " == *" $s "* ]] ||
		{ echo "check: no stage $s (stages: ${stages[*]})" >&2; exit 2; }
done
"$here/mail_addresses.py" 2>&1 | grep '^WARNING' || true
echo "check: Linux $(make -s -C "$LINUX" kernelversion) + $(patch_msgs | wc -l) patches, stages:${selected% }"
for s in "${stages[@]}"; do
	[[ $selected == *" $s "* ]] || continue
	start=$SECONDS
	"stage_$s"
	echo "$((SECONDS - start)) stage $s" >>"$logs/times.txt"
	python3 "$here/summary.py" "$logs" "$repo" "$LINUX" "$passed" "$failed" \
		>"$logs/summary.txt"
done
echo "check: the summary is $logs/summary.txt"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
