#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel builds of the series on ARCH=um, all in one object tree.
#
#   build.sh config [force]  generate the .config, unless it is newer
#                       than its fragments: configs/*.config, every
#                       .kunitconfig of the series and the config of the
#                       rdma kselftest
#   build.sh users      build rw.o, the in-tree users of the API and the
#                       series' tests (W=1)
#   build.sh users-fresh  the same, recompiling them all: ccache replays
#                       the warnings of its hits, so a W=1 check sees every
#                       warning, not only those of files that changed
#   build.sh kunit      build the kernel and run the KUnit suites; the
#                       results go to $OBJ_UM/kunit.json
#   build.sh kernel     only build the kernel ($OBJ_UM/linux), which is
#                       also the make e2e guest
#
# Needs LINUX (the patched tree) and OBJ_UM (the object tree) in the
# environment, as the top-level Makefile exports them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fragments=("$here/configs/um-rw-users.config" "$here/configs/um-debug.config"
	"$here/configs/um-guest.config")
# Only those in the tree: a bisect step may predate some.
for f in $(awk '$1 == "file" && $2 ~ /\.kunitconfig$/ { print $2 }' \
		"$here/series"); do
	[ -f "$LINUX/$f" ] && fragments+=("$LINUX/$f")
done
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

kunit() {
	local action=$1
	shift
	"$LINUX/tools/testing/kunit/kunit.py" "$action" --arch=um \
		--build_dir="$OBJ_UM" \
		$(printf -- '--kunitconfig=%s ' "${fragments[@]}") "$@"
}

kmake() {
	make -C "$LINUX" ARCH=um O="$OBJ_UM" -j"$(nproc)" "$@"
}

case ${1:-} in
config)
	fresh=1
	for f in "${fragments[@]}"; do
		[ "$OBJ_UM/.config" -nt "$f" ] || fresh=0
	done
	[ -f "$OBJ_UM/.config" ] && [ $fresh = 1 ] && [ "${2:-}" != force ] &&
		exit 0
	mkdir -p "$OBJ_UM"
	# kunit.py checks that every option of the fragments made it in.
	kunit config >/dev/null
	;;
kunit)
	kunit run --jobs="$(nproc)" --json="$OBJ_UM/kunit.json" \
		"${run_args[@]}"
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
	echo "usage: $0 config|users|users-fresh|kunit|kernel" >&2
	exit 2
	;;
esac
