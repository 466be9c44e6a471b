#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# The fixes series: one minimal patch per upstream bug, against the
# pristine base (tag base of $LINUX), for rdma-rc and the stable trees.
# There are two: rw.c's in tools/series/fixes/ and irdma's in
# tools/series/irdma-fixes/, each in order, with its cover letter as
# cover-letter.txt there (format.sh).  They are kept as message and diff,
# with no author and no Signed-off-by: the sender's are added here.
# A third, tools/series/irdma-stable/, holds backports to 6.12.y of
# mainline's own irdma fixes: each keeps its author's From: and
# Signed-off-by, and the sender signs it off after them.
#
#   fixes.sh [irdma|irdma-stable] branch
#                                  apply them onto base as branch fixes
#                                  (irdma-fixes, irdma-stable) of $LINUX,
#                                  signed off by the sender (ident below)
#   fixes.sh [irdma|irdma-stable] format <dir>
#                                  write that branch as mail with a cover
#                                  letter
#   fixes.sh [irdma|irdma-stable] builds
#                                  build at each patch what it touches:
#                                  rw.o and its in-tree users (UML, W=1,
#                                  the KUnit kernel's configuration), or
#                                  the irdma objects (x86_64, W=1, the
#                                  x86_64 KUnit kernel's configuration)
#
# Needs LINUX, BUILD and OBJ_UM (OBJ_X86 for irdma) in the environment, as
# the top-level Makefile exports them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
name=fixes arch=um config=${OBJ_UM:-} objdir=obj-um
objs=(drivers/infiniband/core/rw.o drivers/nvme/target/rdma.o
	drivers/infiniband/ulp/isert/ drivers/infiniband/ulp/srpt/)
prefix="PATCH rdma-rc"
case ${1:-} in
irdma | irdma-stable)
	name=irdma-fixes arch=x86_64 config=${OBJ_X86:-} objdir=obj-x86
	objs=(drivers/infiniband/hw/irdma/)
	if [ "$1" = irdma-stable ]; then
		name=irdma-stable prefix="PATCH 6.12.y"
	fi
	shift
	;;
esac
patches=("$here/$name"/[0-9]*.patch)
# Laid out as $LINUX and $OBJ_UM (or $OBJ_X86) are, for ccache
# (CCACHE_BASEDIR=$BUILD).
wt=$BUILD/$name-tree/linux
obj=$BUILD/$name-tree/$objdir

# ident: who authors and signs the fixes, as apply.py decides it:
# $SERIES_AUTHOR_NAME and $SERIES_AUTHOR_EMAIL, else the git identity
# configured for this repository; the date of its HEAD, so that a run
# writes the same commits.  Refuses when there is none.
ident() {
	local repo=$here/../..
	author_name=${SERIES_AUTHOR_NAME:-$(git -C "$repo" config user.name || true)}
	author_email=${SERIES_AUTHOR_EMAIL:-$(git -C "$repo" config user.email || true)}
	author_date=$(git -C "$repo" log -1 --format=%aD 2>/dev/null || date -R)
	if [ -z "$author_name" ] || [ -z "$author_email" ]; then
		echo "$name: no sender: set git user.name and user.email" \
			"(or SERIES_AUTHOR_NAME and SERIES_AUTHOR_EMAIL);" \
			"they author and sign the fixes" >&2
		exit 1
	fi
}

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
	# The stored patches carry no author and no Signed-off-by: the
	# sender's identity authors and signs each commit as it is made,
	# as apply.py does for the series.
	ident
	[ -d "$wt" ] || worktree base
	git -C "$wt" checkout -q -f --detach base
	info=$BUILD/$name-tree
	for p in "${patches[@]}"; do
		git -C "$wt" mailinfo "$info/msg" "$info/diff" <"$p" >"$info/info"
		{
			sed -n 's/^Subject: //p' "$info/info"
			echo
			cat "$info/msg"
		} | git -C "$wt" stripspace >"$info/message"
		git -C "$wt" apply --index "$info/diff" ||
			{ echo "$name: ${p##*/} does not apply" >&2; exit 1; }
		# A backport is its author's, with the date it was written.
		from=$(sed -n 's/^Author: //p' "$info/info")
		GIT_AUTHOR_NAME=${from:-$author_name} \
		GIT_AUTHOR_EMAIL=$(sed -n 's/^Email: //p' "$info/info" | grep . ||
			echo "$author_email") \
		GIT_AUTHOR_DATE=$(sed -n 's/^Date: //p' "$info/info" | grep . ||
			echo "$author_date") \
		GIT_COMMITTER_NAME=$author_name \
		GIT_COMMITTER_EMAIL=$author_email \
		GIT_COMMITTER_DATE=$author_date \
			git -C "$wt" commit -q -s --no-verify --cleanup=whitespace -F "$info/message"
	done
	git -C "$LINUX" branch -f "$name" "$(git -C "$wt" rev-parse HEAD)"
	echo "$name: ${#patches[@]} patches on base, branch $name"
	;;
format)
	exec "$here/format.sh" "$2" "$name" "$here/$name/cover-letter.txt" \
		"$prefix"
	;;
builds)
	# One worktree stepped through the patches: each checkout touches
	# only the files the patch changes, so make rebuilds only those.
	n=$(git -C "$LINUX" rev-list --count "base..$name")
	[ -d "$wt" ] || worktree base
	for i in $(seq $((n - 1)) -1 0); do
		git -C "$wt" checkout -q --detach "$name~$i"
		mkdir -p "$obj"
		if [ ! -f "$obj/.config" ]; then
			cp "$config/.config" "$obj/.config"
		fi
		echo "$name: building $(git -C "$wt" log -1 --format=%s)"
		make -C "$wt" ARCH=$arch O="$obj" -j"$(nproc)" -s olddefconfig
		make -C "$wt" ARCH=$arch O="$obj" -j"$(nproc)" -s W=1 "${objs[@]}"
	done
	;;
*)
	echo "usage: $0 [irdma|irdma-stable] branch|format <dir>|builds" >&2
	exit 2
	;;
esac
