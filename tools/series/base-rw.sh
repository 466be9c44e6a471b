#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The series' suites against upstream's own rw.c.  A worktree of the
# patched tree ($BASE_RW/linux, branch series checked out) gets
# drivers/infiniband/core/rw.c and include/rdma/rw.h as the base tree has
# them (side "base", tag base of $LINUX) or as the fixes series leaves
# them (side "fixed", branch fixes of $LINUX, made by fixes.sh), loses
# rw_priv.h, and builds the suites with configs/base-rw.config.  Its
# object trees sit beside it as $OBJ_UM and $OBJ_X86 sit beside $LINUX,
# so that ccache (CCACHE_BASEDIR=$BUILD) serves every object that does
# not include rw.h, and switching sides rebuilds only those.
#
#   base-rw.sh kunit base|fixed|<rev>  build the UML and the x86_64
#           kernel and run their suites twice: as booted, then the
#           force_mr cases alone with ib_core.force_mr=1 (the base rw.c
#           keeps force_mr static); the four results go to
#           $BASE_RW/<side>-*.json, the kernel logs beside them (*.log).
#           Another revision of $LINUX is a side of its own (a subset of
#           the fixes, say).
#
# BASE_RW_UM_ONLY=1 leaves out the x86_64 kernel.
# Needs what build.sh needs; BASE_RW defaults to $BUILD/base-rw.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=worktree.sh
. "$here/worktree.sh"
base_rw=${BASE_RW:-$BUILD/base-rw}
wt=$base_rw/linux
rw_files=(drivers/infiniband/core/rw.c include/rdma/rw.h)
force_mr=(--kernel_args=ib_core.force_mr=1
	--kernel_args=ib_core_rw_kunit.force_mr=1 'ib_core_rw.rw_test_force_mr*')

# The worktree with side $1's rw.c.  Unchanged files keep their times, so
# make rebuilds only what includes a file that changed.
prepare() {
	local rev=$1 f

	mkdir -p "$base_rw"
	series_worktree "$wt"
	for f in "${rw_files[@]}"; do
		git -C "$LINUX" show "$rev:$f" >"$base_rw/new"
		cmp -s "$base_rw/new" "$wt/$f" || cp "$base_rw/new" "$wt/$f"
	done
	rm -f "$base_rw/new" "$wt/drivers/infiniband/core/rw_priv.h"
}

# build <build.sh action...> in the worktree's object trees
build() {
	LINUX=$wt OBJ_UM=$base_rw/obj-um OBJ_X86=$base_rw/obj-x86 \
		EXTRA_CONFIGS=$here/configs/base-rw.config "$here/build.sh" "$@"
}

# run <side> <kernel>: both runs of one kernel, their results kept apart
run() {
	local side=$1 kernel=$2 obj act
	local json=$base_rw/$side-$kernel.json

	if [ "$kernel" = um ]; then
		obj=$base_rw/obj-um act=kunit
	else
		obj=$base_rw/obj-x86 act=x86-kunit
	fi
	rm -f "$json" "${json%.json}-force_mr.json" "$obj/kunit.json"
	build "${act%kunit}config"
	build "$act" || true
	[ -s "$obj/kunit.json" ] && mv "$obj/kunit.json" "$json"
	cp "$obj/test.log" "${json%.json}.log" 2>/dev/null || true
	build "$act-exec" "${force_mr[@]}" --json="${json%.json}-force_mr.json" ||
		true
	cp "$obj/test.log" "${json%.json}-force_mr.log" 2>/dev/null || true
}

case ${1:-}:${2:-} in
kunit:base)
	prepare base
	;;
kunit:fixed)
	prepare fixes
	;;
kunit:?*)
	prepare "$2"
	;;
*)
	echo "usage: $0 kunit base|fixed|<revision>" >&2
	exit 2
	;;
esac
run "$2" um
[ -n "${BASE_RW_UM_ONLY:-}" ] || run "$2" x86
