# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# The bisect stage of check.sh, which sources this file: every patch of
# the series builds on its own, and the UML suites pass at the patches
# that add one or change what they test.  Uses check.sh's check, passes,
# patch_msgs, $here and $logs.
# shellcheck disable=SC2154 # here and logs are check.sh's

# Each patch builds on its own: check out every commit of the series in
# turn and build the rw objects, users and tests there, and the x86_64
# objects once the series has some, in object trees of their own so that
# the main ones keep their configuration.
check_bisect() {
	local rev=$1

	if [ ! -d "$BUILD/obj-bisect/.bisect" ]; then
		rm -rf "$BUILD/obj-bisect"
		cp -a "$OBJ_UM" "$BUILD/obj-bisect" &&
			mkdir "$BUILD/obj-bisect/.bisect" || return 1
	fi
	git -C "$LINUX" checkout -q "$rev" || return 1
	if changes_um "$rev"; then
		OBJ_UM=$BUILD/obj-bisect "$here/build.sh" config force &&
			OBJ_UM=$BUILD/obj-bisect "$here/build.sh" users || return 1
	fi
	if changes_x86 "$rev"; then
		OBJ_X86=$BUILD/obj-bisect-x86 "$here/build.sh" x86-config force &&
			OBJ_X86=$BUILD/obj-bisect-x86 "$here/build.sh" x86-objs nosparse
	fi
}

# The files patch $1 changes.
changed_files() { git -C "$LINUX" diff --name-only "$1~1" "$1"; }

# Patch $1 may change what the UML step builds: UML builds nothing under
# drivers/infiniband/hw/ (drivers/infiniband/Kconfig hides it).
changes_um() { changed_files "$1" | grep -qv '^drivers/infiniband/hw/'; }

# Patch $1 may change what the x86_64 step builds, the series' sources
# under drivers/infiniband/hw/: a file there, a header, or a config or
# build file anywhere.  A .c file elsewhere cannot.
changes_x86() {
	changed_files "$1" | grep -qvE '^(Documentation|tools)/|^[^.]*\.c$' ||
		changed_files "$1" | grep -q '^drivers/infiniband/hw/'
}

# The UML suites of a bisect step: build the kernel of the bisect tree,
# as check_bisect configured it, and run a copy of it in the background
# while the next steps build (one UML process beside a make that mostly
# walks the tree).  bisect_kunit_wait gives the step's verdict.
bisect_kunit_start() {
	local dir=$BUILD/bisect-kunit/$1

	rm -rf "$dir" && mkdir -p "$dir" &&
		OBJ_UM=$BUILD/obj-bisect "$here/build.sh" kernel &&
		cp "$BUILD/obj-bisect/linux" "$dir/" || return 1
	OBJ_UM=$dir "$here/build.sh" kunit-exec --json="$dir/kunit.json" \
		>"$dir/kunit.log" 2>&1 &
	bisect_kunit_pid=$!
}

# A step that failed before it ran: the end of its log $1.
log_failed() {
	tail -n 20 "$1"
	return 1
}

# The suites of step $1 passed: every case, and at least one.
bisect_kunit_wait() {
	local dir=$BUILD/bisect-kunit/$1

	wait "$bisect_kunit_pid"
	rm -f "$dir/linux"
	[ -s "$dir/kunit.json" ] || { tail -n 20 "$dir/kunit.log"; return 1; }
	passes "$(python3 "$here/kunit_results.py" "$dir/kunit.json")"
}

# The line of the bisect step whose suites run in the background, if any
# (bisect_pending: its number, commit message file and verdict key).
bisect_kunit_report() {
	[ ${#bisect_pending[@]} = 0 ] && return
	check "bisect: patch ${bisect_pending[0]} (${bisect_pending[1]}) passes its UML suites" \
		bisect_kunit_wait "${bisect_pending[0]}" &&
		bisect_passed "${bisect_pending[2]}" "${bisect_pending[0]}"
	bisect_pending=()
}

# A bisect verdict depends only on the step's tree, what the step does
# ($2: build, or suites), the options it builds with, the scripts that
# build it and the compiler.  bisect_key <rev> <what> hashes them; a
# PASS is kept under that key in $BUILD/bisect-passed, as ccache keeps
# an object, and a later run says it again, marked cached, instead of
# building the same tree again.  A changed patch changes its tree and
# every later one's; BISECT_CACHE=0 builds every step.
bisect_key() {
	{
		git -C "$LINUX" rev-parse "$1^{tree}"
		echo "$2"
		cat "$BUILD/bisect.config"
		(cd "$here" && cat bisect.sh build.sh host-glue.sh configs/* host/*)
		gcc --version | head -n 1
	} | sha1sum | cut -d ' ' -f 1
}

bisect_cached() {
	[ "${BISECT_CACHE:-1}" != 0 ] && [ -s "$BUILD/bisect-passed/$1" ]
}

# bisect_passed <key> <patch number>: keep a PASS
bisect_passed() {
	mkdir -p "$BUILD/bisect-passed"
	echo "patch $2 passed $(date -u +%FT%TZ), key $1" \
		>"$BUILD/bisect-passed/$1"
}

# A patch whose UML suites a bisect step runs: one that adds a suite (a
# *_kunit.c under core/tests/), or changes the code they test (rw.c and
# the T10-PI engine) once a suite exists.  With BISECT_SUITES=all, every
# patch that adds or changes a suite too.  Each run costs a KASAN kernel
# link, about 45 s, which CI's time limit cannot afford at every patch.
touches_suite() {
	local tested='^(drivers/infiniband/core/(rw\.c|rw_priv\.h|ib_sig_sw\.c)|include/rdma/(rw|ib_sig_sw)\.h)$'
	local suite='^drivers/infiniband/core/tests/.*_kunit\.c$'
	local filter=A

	[ "${BISECT_SUITES:-}" = all ] && filter=AM
	git -C "$LINUX" diff --name-only --diff-filter="$filter" "$1~1" "$1" |
		grep -q "$suite" && return 0
	git -C "$LINUX" ls-tree -r --name-only "$1" drivers/infiniband/core/tests |
		grep -q "$suite" &&
		git -C "$LINUX" diff --name-only "$1~1" "$1" | grep -qE "$tested"
}

# The bisect tree starts as a copy of the built KUnit tree: a step's
# configuration differs from the last patch's, which changes autoconf.h
# and so defeats ccache for every file, while kbuild rebuilds only the
# files whose options changed.  To keep those few, every step takes the
# last patch's options that the base tree defines too (fault injection,
# the selftest's file systems and targets), which its own fragments may
# not have yet.
bisect_config() {
	git -C "$LINUX" grep -hoE '^\s*(menu)?config [A-Za-z0-9_]+' base \
		-- '*Kconfig*' | awk '{ print "CONFIG_" $2 }' |
		sort -u >"$BUILD/base-symbols"
	"$here/build.sh" fragments | xargs cat |
		awk 'NR == FNR { base[$1] = 1; next }
		     { s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s) }
		     s in base' "$BUILD/base-symbols" - >"$BUILD/bisect.config"
}

# Each patch builds, and its UML suites pass where touches_suite says.
# The bisect tree is made at the first step not cached (check_bisect).
stage_bisect() {
	local n=0 total msg rev name key suites

	bisect_config
	export UM_EXTRA_CONFIGS=$BUILD/bisect.config
	rm -rf "$BUILD/obj-bisect/.bisect"
	total=$(patch_msgs | wc -l)
	bisect_pending=()
	for msg in $(patch_msgs); do
		n=$((n + 1))
		rev=series~$((total - n))
		name="bisect: patch $n ($msg)"
		key=$(bisect_key "$rev" build)
		suites=
		# The last patch's suites are the KUnit run's, same options.
		if [ $n -lt "$total" ] && touches_suite "$rev"; then
			suites=$(bisect_key "$rev" suites)
		fi
		if bisect_cached "$key" &&
				{ [ -z "$suites" ] || bisect_cached "$suites"; }; then
			check "$name builds, cached" cat "$BUILD/bisect-passed/$key"
			[ -z "$suites" ] ||
				check "$name passes its UML suites, cached" \
					cat "$BUILD/bisect-passed/$suites"
			continue
		fi
		check "$name builds" check_bisect "$rev" || continue
		bisect_passed "$key" $n
		[ -n "$suites" ] || continue
		bisect_kunit_report
		if bisect_kunit_start $n >"$logs/bisect-kunit-$n.log" 2>&1; then
			bisect_pending=("$n" "$msg" "$suites")
		else
			check "$name passes its UML suites" \
				log_failed "$logs/bisect-kunit-$n.log"
		fi
	done
	bisect_kunit_report
	git -C "$LINUX" checkout -q series
	unset UM_EXTRA_CONFIGS
}
