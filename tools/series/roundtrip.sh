#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# roundtrip.sh: export.py is the exact reverse of apply.py.  Apply this
# repository to a temporary clone of $LINUX, export the branch into a
# scratch copy of the repository, and the copy must come out unchanged.
# The clone shares $LINUX's objects and checks out only the files that
# host-glue.sh edits, so $LINUX, its series branch and its worktree stay
# as they are and the check takes seconds.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

git clone -q --shared --no-checkout "$LINUX" "$tmp/linux"
# apply.py stages file by file: a split index writes a small file each time,
# not the whole kernel's index.
git -C "$tmp/linux" config core.splitIndex true
{ echo /MAINTAINERS; cat "$here"/host/*.diff 2>/dev/null |
	git apply --numstat - | cut -f3 | sed 's|^|/|'; } |
	git -C "$tmp/linux" sparse-checkout set --no-cone --stdin
"$here/apply.py" "$repo" "$tmp/linux"

# What export reads and writes, as the working tree has it.
mkdir "$tmp/repo"
git -C "$repo" ls-files -z -co --exclude-standard -- drivers include \
	Documentation tools/testing MAINTAINERS tools/series/series \
	tools/series/patches tools/series/steps tools/series/upstream |
	tar -C "$repo" -c --null -T - --ignore-failed-read -f - |
	tar -C "$tmp/repo" -x -f -
git -C "$tmp/repo" init -q
git -C "$tmp/repo" add -A
git -C "$tmp/repo" -c user.name=roundtrip -c user.email=roundtrip@localhost \
	commit -q -m "the repository as applied"

"$here/export.py" "$tmp/repo" "$tmp/linux"
changed=$(git -C "$tmp/repo" status --porcelain)
if [ -n "$changed" ]; then
	echo "roundtrip: export does not give back the repository:"
	echo "$changed"
	git -C "$tmp/repo" diff | head -n 40
	exit 1
fi
echo "roundtrip: $(git -C "$tmp/linux" rev-list --count base..series)" \
	"commits, exported back unchanged"
