#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Create the series' base: a git repository holding a pristine Linux 6.12+
# tree, committed once and tagged "base".  The tree comes from $KDIR when it
# is set, otherwise from Debian's linux-source-6.12 package.
#
# usage: base.sh <linux-dir>
set -euo pipefail

dst=$1
pkg=linux-source-6.12
tarball=/usr/src/$pkg.tar.xz

die() { echo "base: $*" >&2; exit 1; }

if git -C "$dst" rev-parse -q --verify refs/tags/base >/dev/null 2>&1; then
	exit 0
fi

for tool in git tar xz make; do
	command -v "$tool" >/dev/null || die "missing tool: $tool"
done

rm -rf "$dst"
mkdir -p "$dst"

if [ -n "${KDIR:-}" ]; then
	[ -f "$KDIR/Makefile" ] || die "KDIR=$KDIR is not a kernel tree"
	origin="$(readlink -f "$KDIR")"
	if git -C "$KDIR" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		git -C "$KDIR" archive HEAD | tar -x -C "$dst"
		origin="$origin at $(git -C "$KDIR" rev-parse --short HEAD)"
	else
		tar -C "$KDIR" --exclude=.git -cf - . | tar -x -C "$dst"
	fi
else
	if [ ! -f "$tarball" ]; then
		[ "$(id -u)" = 0 ] || die "missing package: $pkg"
		echo "base: installing $pkg" >&2
		apt-get update -qq
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$pkg" >/dev/null
	fi
	tar -xaf "$tarball" -C "$dst" --strip-components=1
	origin="Debian $pkg $(dpkg-query -W -f='${Version}' "$pkg")"
fi

version=$(make -s -C "$dst" kernelversion 2>/dev/null) ||
	die "cannot read the kernel version of the base tree"
major=${version%%.*}
minor=${version#*.}; minor=${minor%%.*}
if [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 12 ]; }; then
	rm -rf "$dst"
	die "base tree is Linux $version; the series needs 6.12 or later"
fi

cd "$dst"
git init -q
git config user.name "rdma-rw series base"
git config user.email "base@localhost"
git config gc.auto 0
git add -A -f  # Debian's .gitignore hides the top level
git commit -q -m "Linux $version" -m "Pristine base of the rdma_rw series: $origin."
git tag base
echo "base: Linux $version from $origin"
