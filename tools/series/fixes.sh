#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The fixes series: one minimal patch per upstream bug in rw.c, against
# the pristine base (tag base of $LINUX), for rdma-rc and the stable
# trees.  The patches are kept as mail in tools/series/fixes/, in order;
# cover-letter.txt there is the cover letter (format.sh).
#
#   fixes.sh branch        git am them onto base as branch fixes of $LINUX
#   fixes.sh format <dir>  write branch fixes as mail with a cover letter
#   fixes.sh builds        build rw.o and its in-tree users at each patch
#                          (UML, W=1, the KUnit kernel's configuration)
#
# Needs LINUX, BUILD and OBJ_UM in the environment, as the top-level Makefile
# exports them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
patches=("$here"/fixes/[0-9]*.patch)
# Laid out as $LINUX and $OBJ_UM are, for ccache (CCACHE_BASEDIR=$BUILD).
wt=$BUILD/fixes-tree/linux
obj=$BUILD/fixes-tree/obj-um

# worktree <rev>: a fresh detached worktree of $LINUX at <rev> in $wt,
# kept for the next run
worktree() {
	git -C "$LINUX" worktree remove -f "$wt" 2>/dev/null || true
	rm -rf "$wt"
	git -C "$LINUX" worktree prune
	git -C "$LINUX" worktree add -q --detach "$wt" "$1"
}

case ${1:-} in
branch)
	[ -d "$wt" ] || worktree base
	git -C "$wt" checkout -q -f --detach base
	git -C "$wt" -c user.name=fixes -c user.email=fixes@localhost \
		am -q "${patches[@]}" || { git -C "$wt" am --abort; exit 1; }
	git -C "$LINUX" branch -f fixes "$(git -C "$wt" rev-parse HEAD)"
	echo "fixes: ${#patches[@]} patches on base, branch fixes"
	;;
format)
	exec "$here/format.sh" "$2" fixes "$here/fixes/cover-letter.txt" \
		"PATCH rdma-rc"
	;;
builds)
	# One worktree stepped through the patches: each checkout touches
	# only the files the patch changes, so make rebuilds only those.
	n=$(git -C "$LINUX" rev-list --count base..fixes)
	[ -d "$wt" ] || worktree base
	for i in $(seq $((n - 1)) -1 0); do
		git -C "$wt" checkout -q --detach "fixes~$i"
		mkdir -p "$obj"
		if [ ! -f "$obj/.config" ]; then
			cp "$OBJ_UM/.config" "$obj/.config"
		fi
		echo "fixes: building $(git -C "$wt" log -1 --format=%s)"
		make -C "$wt" ARCH=um O="$obj" -j"$(nproc)" -s olddefconfig
		make -C "$wt" ARCH=um O="$obj" -j"$(nproc)" -s W=1 \
			drivers/infiniband/core/rw.o drivers/nvme/target/rdma.o \
			drivers/infiniband/ulp/isert/ drivers/infiniband/ulp/srpt/
	done
	;;
*)
	echo "usage: $0 branch|format <dir>|builds" >&2
	exit 2
	;;
esac
