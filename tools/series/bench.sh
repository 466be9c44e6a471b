#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: the series' rw.c against the base tree's own rw.c, side by
# side.  Two UML kernels are built from one source tree, a worktree of the
# patched tree ($BENCH/src, the series checked out), with one
# configuration (configs/bench.config, configs/um-guest.config and the
# rdma kselftest's config).  "ours" is the series as it is, with the base
# tree's rw.c and rw.h copied into drivers/infiniband/core/tests/
# rw_bench_base/, which ib_core_rw_bench builds in beside ours under names
# of its own (rw_bench_base.c) and times in the same boot, batch for
# batch.  "base" has drivers/infiniband/core/rw.c and include/rdma/rw.h
# taken from the base tree (tag base of $LINUX) at build time and
# rw_priv.h removed, and leaves the bio_vec cases out
# (CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BVEC=n): the base rw.c has no
# bio_vec API; it is the guest of the end-to-end comparison.  Neither
# kernel has KASAN.
#
#   bench.sh build      build both kernels, $BENCH/obj-{ours,base}/linux
#   bench.sh run        boot the "ours" kernel with only ib_core_rw_bench
#                       enabled, BENCH_ROUNDS times (default 3), and join
#                       the logs into one table whose last three lines sum
#                       it up ($BENCH/table.txt)
#   bench.sh e2e        boot each kernel as the guests of the rdma
#                       kselftest (e2e.sh): every user over siw and rxe,
#                       ours then base, three times, and compare fio's
#                       figures, medians with their spread, then each
#                       user with T10-PI beside the same user without it
#                       ($BENCH/e2e.txt)
#
# BENCH_BATCH (default 10000) is the number of I/Os of a timed batch,
# BENCH_BATCHES (default 9) the number of batches whose median is kept,
# BENCH_ROUNDS (default 3) the number of boots, whose medians and spread
# the table shows.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=worktree.sh
. "$here/worktree.sh"
bench=${BENCH:-$BUILD/bench}
src=$bench/src
batch=${BENCH_BATCH:-10000}
batches=${BENCH_BATCHES:-9}
rounds=${BENCH_ROUNDS:-3}

fragments=("$here/configs/bench.config" "$here/configs/um-guest.config"
	"$src/tools/testing/selftests/rdma/config")

# The source tree holding side $1's rw.c.  Files are always rewritten,
# so make rebuilds whatever includes them in either object tree.
prepare() {
	local side=$1 f copy=$src/drivers/infiniband/core/tests/rw_bench_base

	series_worktree "$src"
	rm -rf "$copy"
	for f in drivers/infiniband/core/rw.c include/rdma/rw.h; do
		if [ "$side" = base ]; then
			git -C "$LINUX" show "base:$f" >"$src/$f"
		else
			git -C "$LINUX" show "series:$f" >"$src/$f"
		fi
	done
	if [ "$side" = base ]; then
		rm -f "$src/drivers/infiniband/core/rw_priv.h"
	else
		mkdir -p "$copy"
		git -C "$LINUX" show base:drivers/infiniband/core/rw.c >"$copy/rw.c"
		git -C "$LINUX" show base:include/rdma/rw.h >"$copy/rw.h"
	fi
	return 0
}

kunit() {
	local side=$1 action=$2 extra=()
	shift 2

	if [ "$side" = base ]; then
		extra=(--kunitconfig="$bench/base.config")
		printf '# the base rw.c has no bio_vec API\n%s\n' \
			'CONFIG_INFINIBAND_RW_KUNIT_BENCHMARK_BVEC=n' \
			>"$bench/base.config"
	fi
	"$src/tools/testing/kunit/kunit.py" "$action" --arch=um \
		--build_dir="$bench/obj-$side" \
		"${fragments[@]/#/--kunitconfig=}" "${extra[@]}" "$@"
}

build() {
	local side=$1 log=$bench/build-$1.log

	echo "bench: building the UML kernel with the $side rw.c"
	prepare "$side"
	mkdir -p "$bench/obj-$side"
	if ! kunit "$side" build --jobs="$(nproc)" >"$log" 2>&1; then
		tail -n 30 "$log"
		echo "bench: build failed, full log in $log" >&2
		exit 1
	fi
}

run() {
	local round=$1 log=$bench/run-$1.log

	echo "bench: round $round, ib_core_rw_bench, ours and the base's rw.c" \
		"($batches batches of $batch I/Os per case and API)"
	kunit ours exec --raw_output=all --timeout=3600 \
		--kernel_args="rw_bench_kunit.batch=$batch" \
		--kernel_args="rw_bench_kunit.batches=$batches" \
		'ib_core_rw_bench' >"$log" 2>&1 || true
	# A case whose I/O ours refuses fails and says so in its line; the
	# table shows it.  The run must get to the end of the suite.
	if ! grep -qE '^ *(not )?ok [0-9]+ ib_core_rw_bench' "$log"; then
		tail -n 30 "$log"
		echo "bench: round $round did not finish, log in $log" >&2
		exit 1
	fi
	grep -E '^ *not ok [0-9]+ ' "$log" | sed "s/^ */bench: /" || true
}

mkdir -p "$bench"
case ${1:-} in
build)
	build ours
	build base
	;;
run)
	[ -x "$bench/obj-ours/linux" ] || {
		echo "bench: no kernel: run bench.sh build" >&2
		exit 1
	}
	logs=()
	for round in $(seq "$rounds"); do
		run "$round"
		logs+=("$bench/run-$round.log")
	done
	cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	python3 "$here/bench_table.py" "$(uname -srm), $(nproc) x ${cpu:-?}" \
		"${logs[@]}" >"$bench/table.txt"
	sed -n '/^bench: /p' "$bench/table.txt"
	echo "bench: the table is in $bench/table.txt"
	;;
e2e)
	rm -f "$bench/e2e.log"
	# The users whose guests run fio (not the -corrupt ones).
	users=${E2E_USERS:-nvmet nvmet-pi nvmet-pi-type3 isert isert-pi srpt svcrdma ksmbd}
	for round in 1 2 3; do
		for side in ours base; do
			echo "bench: e2e round $round, the $side rw.c"
			E2E_KERNEL=$bench/obj-$side/linux E2E_USERS=$users \
				E2E_OUT=$bench/e2e/$side-$round \
				"$here/e2e.sh" siw rxe |
				sed "s/^/$side $round: /" | tee -a "$bench/e2e.log"
		done
	done
	python3 "$here/bench_table.py" --e2e "$bench/e2e.log" |
		tee "$bench/e2e.txt"
	;;
*)
	echo "usage: $0 build|run|e2e" >&2
	exit 2
	;;
esac
