# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# Sourced by the scripts that build a variant of the patched tree
# (base-rw.sh, base-irdma.sh, bench.sh).
#
# series_worktree <dir>: <dir> is a worktree of $LINUX with the branch
# series checked out, detached, and every file as that branch has it,
# but for the host glue (host-glue.sh).
# An existing worktree is reused, so that files that did not change keep
# their times and make rebuilds only what the variant changes.
series_worktree() {
	local dir=$1

	if ! git -C "$dir" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$dir"
		git -C "$LINUX" worktree prune
		git -C "$LINUX" worktree add -q --detach "$dir" series
	fi
	git -C "$dir" checkout -q -f --detach series
	"$(dirname "${BASH_SOURCE[0]}")/host-glue.sh" "$dir"
}
