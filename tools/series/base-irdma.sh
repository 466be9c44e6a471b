#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The irdma suites against upstream's own verbs.c.  A worktree of the
# patched tree ($BASE_IRDMA/linux, branch series checked out) gets
# drivers/infiniband/hw/irdma/verbs.c as tag base of $LINUX has it, and
# nothing else changed: the mock registers its device through
# irdma_ib_register_device(), which both verbs.c's have.  Its x86_64
# object tree sits beside it as $OBJ_X86 sits beside $LINUX, so that
# ccache (CCACHE_BASEDIR=$BUILD) serves every object but verbs.o.
#
#   base-irdma.sh [base]   build that kernel and run the irdma* suites in
#           it; the results go to $BASE_IRDMA/base.json, the kernel log
#           to base.log beside it, the build's output to build.log.
#   base-irdma.sh fixed    the same with verbs.c, and every other file
#           the irdma fixes change, as branch irdma-fixes of $LINUX has
#           them (fixes.sh irdma branch): upstream's code with the fixes;
#           fixed.json and fixed.log.
#   base-irdma.sh stable   the same with branch irdma-stable (fixes.sh
#           irdma-stable branch): 6.12.y with the backports of mainline's
#           fixes; stable.json and stable.log.
#
# Needs what build.sh needs; BASE_IRDMA defaults to $BUILD/base-irdma.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=worktree.sh
. "$here/worktree.sh"
d=${BASE_IRDMA:-$BUILD/base-irdma}
wt=$d/linux
side=${1:-base}
case $side in
base) rev=base files=(drivers/infiniband/hw/irdma/verbs.c) ;;
fixed | stable)
	rev=irdma-fixes
	[ "$side" = fixed ] || rev=irdma-stable
	mapfile -t files < <(git -C "$LINUX" diff --name-only base "$rev")
	files=(drivers/infiniband/hw/irdma/verbs.c "${files[@]}")
	;;
*) echo "usage: $0 [base|fixed|stable]" >&2; exit 2 ;;
esac

mkdir -p "$d"
series_worktree "$wt"
for f in "${files[@]}"; do
	git -C "$LINUX" show "$rev:$f" >"$wt/$f"
done

export LINUX=$wt OBJ_UM=$d/obj-um OBJ_X86=$d/obj-x86
rm -f "$d/$side.json" "$d/$side.log"
"$here/build.sh" x86-config
make -C "$wt" ARCH=x86_64 O="$OBJ_X86" -j"$(nproc)" >"$d/build.log" 2>&1
# A case that oopses fails; one that takes the kernel down ends the run,
# and the cases after it are missing from base.json.
"$here/build.sh" x86-kunit-exec 'irdma*' --json="$d/$side.json" || true
cp "$OBJ_X86/test.log" "$d/$side.log"
