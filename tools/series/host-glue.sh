#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# host-glue.sh <tree>: apply tools/series/host/*.diff to the working tree
# of <tree>, a checkout of the patched kernel, unless already applied.
# They let the kernels built here run on this machine (see each diff's
# header); they are not commits, so no series, fix or bisect step holds
# them, and a checkout of another commit keeps them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
tree=$1

for d in "$here"/host/*.diff; do
	[ -e "$d" ] || continue
	git -C "$tree" apply -R --check "$d" 2>/dev/null && continue
	git -C "$tree" apply "$d" ||
		{ echo "host-glue: $(basename "$d") does not apply" >&2; exit 1; }
done
