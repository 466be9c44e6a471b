#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Build the UML kernel for run-guest.sh: the kernel of make check (its
# .config, KASAN and all) with uverbs, in an object tree of its own.
#
#   build-kernel.sh SRC OBJ CONFIG
#
# SRC: a copy of $LINUX (the series applied), never $LINUX itself, which
# make check builds; OBJ: the object tree; CONFIG: the .config to start
# from ($OBJ_UM/.config).  Run it again after changing SRC: the build is
# incremental.  Give SRC and OBJ the layout of $BUILD (BASE/linux and
# BASE/obj-um) and set CCACHE_BASEDIR=BASE to reuse what make check
# cached.
set -euo pipefail

src=$1 obj=$2 config=$3
mkdir -p "$obj"
if [ ! -f "$obj/.config" ]; then
	cp "$config" "$obj/.config"
	"$src/scripts/config" --file "$obj/.config" \
		-e INFINIBAND_USER_ACCESS
	make -C "$src" ARCH=um O="$obj" olddefconfig >/dev/null
fi
grep -q '^CONFIG_INFINIBAND_USER_ACCESS=y' "$obj/.config"
grep -q '^CONFIG_KASAN=y' "$obj/.config"
export PATH=/usr/lib/ccache:$PATH
make -C "$src" ARCH=um O="$obj" -j"$(nproc)" linux
