#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel builds of the series: ARCH=um in one object tree ($OBJ_UM), and
# ARCH=x86_64 under QEMU in another ($OBJ_X86) for the suites of hardware
# drivers, which drivers/infiniband/Kconfig hides from UML (if !UML).
#
#   build.sh fragments  print the UML kernel's config fragments, in the
#                       order it takes them
#   build.sh config [force]  generate the .config, unless it is newer
#                       than its fragments: configs/um-*.config, every
#                       .kunitconfig of the series outside
#                       drivers/infiniband/hw/ and the config of the rdma
#                       kselftest
#   build.sh users      build rw.o, the in-tree users of the API and the
#                       series' tests (W=1)
#   build.sh users-fresh  the same, recompiling them all: ccache replays
#                       the warnings of its hits, so a W=1 check sees every
#                       warning, not only those of files that changed
#   build.sh kunit      build the kernel and run the KUnit suites; the
#                       results go to $OBJ_UM/kunit.json
#   build.sh suites <glob>  build the kernel and run the suites the
#                       kunit.py glob names
#   build.sh kunit-exec <kunit.py exec arguments>  run the built kernel's
#                       suites again, as the arguments say (the benchmark
#                       with kunit's small batches unless they say else)
#   build.sh kernel     only build the kernel ($OBJ_UM/linux), which is
#                       also the make e2e guest
#   build.sh kunitconfig  the suites as a kernel CI runs them: each
#                       directory's .kunitconfig alone, in kunit.py's own
#                       kernel for its arch (x86_64 under
#                       drivers/infiniband/hw/, else UML), nothing of
#                       configs/; in $BUILD/kunitconfig/<directory>, the
#                       results in its kunit.json; the runs, one
#                       "<directory> <results>" line each, in
#                       $BUILD/kunitconfig/runs
#   build.sh x86-config [force]  the same as config for $OBJ_X86, from
#                       the .kunitconfig files under drivers/infiniband/hw/,
#                       those beside a dma.config (with it) and
#                       configs/x86-*.config
#   build.sh x86-kunit  build the x86_64 kernel and run its KUnit suites
#                       under QEMU; the results go to $OBJ_X86/kunit.json
#   build.sh x86-suites <glob>  the same as suites for the x86_64 kernel
#   build.sh x86-kunit-exec <kunit.py exec arguments>  the same as
#                       kunit-exec for the x86_64 kernel
#   build.sh x86-race-kcsan  boot the built x86_64 kernel again for
#                       ib_core_rw_race alone, KCSAN watching ten times as
#                       many accesses as by default; the results go to
#                       $OBJ_X86/race-kcsan.json, its log to race-kcsan.log
#   build.sh x86-objs [nosparse]  build the series' x86_64 sources with
#                       W=1 and sparse (C=2, which checks every object
#                       again), each object on its own; the log is
#                       $OBJ_X86/objs.log.  nosparse: W=1 alone, only what
#                       changed (check.sh's bisect steps)
# The x86 actions do nothing while the tree has no x86 suite (x86-kunit)
# or no x86 source (x86-objs), or neither (x86-config).
#
# Needs LINUX (the patched tree), OBJ_UM and OBJ_X86 (the object trees) in
# the environment, as the top-level Makefile exports them.  EXTRA_CONFIGS,
# if set, names config fragments that both kernels take last
# (base-rw.sh's); UM_EXTRA_CONFIGS, fragments that only the UML kernel
# takes, after those (check.sh's bisect steps).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fragments=("$here/configs/um-rw-users.config" "$here/configs/um-debug.config"
	"$here/configs/um-guest.config")
x86_fragments=()
kunitconfigs=()
# Only those in the tree: a bisect step may predate some.
while read -r f; do
	[ -f "$LINUX/$f" ] || continue
	kunitconfigs+=("$f")
	case $f in
	drivers/infiniband/hw/*) x86_fragments+=("$LINUX/$f") ;;
	*) fragments+=("$LINUX/$f") ;;
	esac
	# A dma.config beside a UML suite's .kunitconfig: the x86_64 kernel
	# runs that suite too, with the mappings counted (GART's DMA ops).
	dma=$(dirname "$LINUX/$f")/dma.config
	[ -f "$dma" ] && x86_fragments+=("$LINUX/$f" "$dma")
done < <(awk '$1 == "file" && $2 ~ /\.kunitconfig$/ { print $2 }' \
	"$here/series")
# The x86 tree's own options come after the suites' .kunitconfig files.
x86_suites=${#x86_fragments[@]}
for f in "$here"/configs/x86-*.config; do
	[ -f "$f" ] && x86_fragments+=("$f")
done
for f in ${EXTRA_CONFIGS:-}; do
	x86_fragments+=("$f")
done
# The series' sources that only x86_64 builds: its objects for x86-objs.
x86_objs=()
while read -r f; do
	[ -f "$LINUX/$f" ] && x86_objs+=("${f%.c}.o")
done < <(awk '$1 == "file" && $2 ~ /^drivers\/infiniband\/hw\/.*\.c$/ {
	print $2 }' "$here/series")
# The kselftest the guest runs (make e2e) brings its own fragment.
[ -f "$LINUX/tools/testing/selftests/rdma/config" ] &&
	fragments+=("$LINUX/tools/testing/selftests/rdma/config")
# The tests' benchmark (ib_core_rw_bench) runs in the KUnit run too, with a
# tiny iteration count, so that it keeps building and running; make bench
# builds kernels of its own to time it (bench.sh).
run_args=()
if [ -f "$LINUX/drivers/infiniband/core/tests/rw_bench_kunit.c" ]; then
	fragments+=("$here/configs/um-bench-check.config")
	run_args=(--kernel_args=rw_bench_kunit.batch=10
		--kernel_args=rw_bench_kunit.batches=5)
fi
for f in ${EXTRA_CONFIGS:-} ${UM_EXTRA_CONFIGS:-}; do
	fragments+=("$f")
done
targets=(
	drivers/infiniband/core/rw.o
	drivers/nvme/target/rdma.o
	drivers/infiniband/ulp/isert/
	drivers/infiniband/ulp/srpt/
	net/sunrpc/xprtrdma/
	fs/smb/server/
)
[ -d "$LINUX/drivers/infiniband/core/tests" ] &&
	targets+=(drivers/infiniband/core/tests/)

# kunit.py, through kunit_console.py: the kernel's console lines stay out
# of the KTAP it parses.
kunit() {
	local action=$1
	shift
	"$here/kunit_console.py" "$action" --arch=um \
		--build_dir="$OBJ_UM" \
		"${fragments[@]/#/--kunitconfig=}" "$@"
}

# Seconds the x86_64 suites get (kunit.py's default is 300): they run in
# about 200 under KCSAN alone, and took more than 300 beside another
# build on the two cores.
x86_timeout=900

kunit_x86() {
	local action=$1
	shift
	# Two vCPUs: ib_core_rw_race's threads run in parallel, and lockdep
	# sees locks taken on two CPUs at once.
	"$here/kunit_console.py" "$action" --arch=x86_64 \
		--build_dir="$OBJ_X86" --qemu_args='-smp 2' \
		"${x86_fragments[@]/#/--kunitconfig=}" "$@"
}

# config_fresh <object tree> <fragment...>: its .config is newer than
# every fragment.
config_fresh() {
	local obj=$1 f
	shift
	[ -f "$obj/.config" ] || return 1
	for f in "$@"; do
		[ "$obj/.config" -nt "$f" ] || return 1
	done
}

no_x86_suite() {
	[ "$x86_suites" = 0 ] || return 1
	echo "build: no x86_64 KUnit suite in the series yet"
}

no_x86_objs() {
	[ ${#x86_objs[@]} = 0 ] || return 1
	echo "build: no x86_64 source in the series yet"
}

kmake() {
	make -C "$LINUX" ARCH=um O="$OBJ_UM" -j"$(nproc)" "$@"
}

case ${1:-} in
fragments)
	printf '%s\n' "${fragments[@]}"
	;;
config)
	config_fresh "$OBJ_UM" "${fragments[@]}" && [ "${2:-}" != force ] &&
		exit 0
	mkdir -p "$OBJ_UM"
	# kunit.py checks that every option of the fragments made it in.
	kunit config >/dev/null
	;;
kunitconfig)
	# The UML kernels first: they build faster than an x86_64 one.
	runs=()
	for f in "${kunitconfigs[@]}"; do
		[[ $f == drivers/infiniband/hw/* ]] || runs+=("um:$f")
	done
	for f in "${kunitconfigs[@]}"; do
		[[ $f != drivers/infiniband/hw/* ]] || runs+=("x86_64:$f")
	done
	# What each run will leave, for check.sh: the directory and the
	# results' path.
	mkdir -p "$BUILD/kunitconfig"
	for run in "${runs[@]}"; do
		dir=$(dirname "${run#*:}")
		echo "$dir $BUILD/kunitconfig/${dir//\//_}/kunit.json"
	done >"$BUILD/kunitconfig/runs"
	rc=0
	for run in "${runs[@]}"; do
		arch=${run%%:*}
		dir=$(dirname "${run#*:}")
		out=$BUILD/kunitconfig/${dir//\//_}
		mkdir -p "$out"
		rm -f "$out/kunit.json"
		echo "build: kunit.py run --arch=$arch --kunitconfig=$dir"
		"$here/kunit_console.py" run --arch="$arch" --build_dir="$out" \
			--kunitconfig="$dir" --jobs="$(nproc)" \
			--timeout="$x86_timeout" --json="$out/kunit.json" ||
			rc=1
	done
	exit $rc
	;;
x86-config)
	no_x86_suite >/dev/null && no_x86_objs >/dev/null && exit 0
	config_fresh "$OBJ_X86" "${x86_fragments[@]}" &&
		[ "${2:-}" != force ] && exit 0
	mkdir -p "$OBJ_X86"
	kunit_x86 config >/dev/null
	;;
x86-kunit)
	no_x86_suite && exit 0
	kunit_x86 run --jobs="$(nproc)" --json="$OBJ_X86/kunit.json" \
		--timeout="$x86_timeout"
	;;
x86-suites)
	kunit_x86 run --jobs="$(nproc)" --timeout="$x86_timeout" "$2"
	;;
x86-kunit-exec)
	no_x86_suite && exit 0
	shift
	kunit_x86 exec --timeout="$x86_timeout" "$@"
	;;
x86-race-kcsan)
	no_x86_suite && exit 0
	# With a lock taken out of ib_mr_pool_put(), KCSAN at its default
	# (one access watched in 4000) reported nothing in two runs of the
	# churn; at one in 400 it reported the race in each of four.  The
	# whole x86_64 run at that rate takes 11 minutes instead of 3, this
	# suite alone seconds.  kunit.py writes test.log: x86-kunit's stays.
	log=$OBJ_X86/test.log
	rm -f "$OBJ_X86/race-kcsan.json"
	[ ! -f "$log" ] || mv "$log" "$log.keep"
	rc=0
	kunit_x86 exec 'ib_core_rw_race*' --kernel_args=kcsan.skip_watch=400 \
		--json="$OBJ_X86/race-kcsan.json" || rc=$?
	[ ! -f "$log" ] || mv "$log" "$OBJ_X86/race-kcsan.log"
	[ ! -f "$log.keep" ] || mv "$log.keep" "$log"
	exit $rc
	;;
x86-objs)
	no_x86_objs && exit 0
	log=$OBJ_X86/objs.log
	sparse=(C=2)
	[ "${2:-}" = nosparse ] && sparse=()
	echo "build: the series' x86_64 objects (W=1${sparse:+, sparse})"
	if ! make -C "$LINUX" ARCH=x86_64 O="$OBJ_X86" -j"$(nproc)" \
			W=1 "${sparse[@]}" "${x86_objs[@]}" >"$log" 2>&1; then
		tail -n 30 "$log"
		echo "build: failed, full log in $log" >&2
		exit 1
	fi
	;;
kunit)
	kunit run --jobs="$(nproc)" --json="$OBJ_UM/kunit.json" \
		"${run_args[@]}"
	;;
suites)
	kunit run --jobs="$(nproc)" "${run_args[@]}" "$2"
	;;
kunit-exec)
	shift
	kunit exec "${run_args[@]}" "$@"
	;;
kernel)
	log=$OBJ_UM/kernel.log
	echo "build: the UML kernel, $OBJ_UM/linux"
	if ! kunit build --jobs="$(nproc)" >"$log" 2>&1; then
		tail -n 30 "$log"
		echo "build: failed, full log in $log" >&2
		exit 1
	fi
	;;
users-fresh)
	for t in "${targets[@]}"; do
		if [[ $t == */ ]]; then
			find "$OBJ_UM/$t" -name '*.o' -delete 2>/dev/null || true
		else
			rm -f "$OBJ_UM/$t"
		fi
	done
	exec "$0" users
	;;
users)
	log=$OBJ_UM/users.log
	echo "build: rw.o, the in-tree rdma_rw users and tests (ARCH=um, W=1)"
	if ! kmake -s W=1 "${targets[@]}" >"$log" 2>&1; then
		tail -n 30 "$log"
		echo "build: failed, full log in $log" >&2
		exit 1
	fi
	;;
*)
	echo "usage: $0 config|users|users-fresh|kunit|suites|kunit-exec|" \
		"kernel|kunitconfig|x86-config|x86-kunit|x86-suites|x86-kunit-exec|" \
		"x86-race-kcsan|x86-objs" >&2
	exit 2
	;;
esac
