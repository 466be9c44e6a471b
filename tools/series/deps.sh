#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Make sure the Debian packages the series' builds and checks use are
# installed: install the missing ones when running as root, otherwise name
# them and stop.  "deps.sh e2e" adds the tools of the make e2e guest.
set -euo pipefail

# command (also looked for in sbin) or file -> package that provides it
PATH=$PATH:/usr/sbin:/sbin
needs=(
	gcc:gcc make:make flex:flex bison:bison bc:bc perl:perl
	python3:python3 git:git xz:xz-utils ccache:ccache sparse:sparse
	sphinx-build:python3-sphinx qemu-system-x86_64:qemu-system-x86
	/usr/include/libelf.h:libelf-dev
	/usr/lib/python3/dist-packages/ply:python3-ply
	/usr/lib/python3/dist-packages/git:python3-git
	/usr/lib/python3/dist-packages/flake8:python3-flake8
	b4:b4 shellcheck:shellcheck
)
# deps.sh e2e: also what the make e2e guest runs from the host's root.
[ "${1:-}" = e2e ] && needs+=(nvme:nvme-cli fio:fio ip:iproute2 rdma:iproute2
	iscsid:open-iscsi rpc.nfsd:nfs-kernel-server mount.nfs:nfs-common
	ksmbd.mountd:ksmbd-tools mount.cifs:cifs-utils)

missing=()
for need in "${needs[@]}"; do
	what=${need%%:*} pkg=${need#*:}
	if [[ $what == /* ]]; then
		[ -e "$what" ] && continue
	else
		command -v "$what" >/dev/null && continue
	fi
	missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
apt-get update -qq
printf '%s\n' "${missing[@]}" | sort -u |
	DEBIAN_FRONTEND=noninteractive xargs apt-get install -y -qq >/dev/null
