#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kernel builds of the series on ARCH=um, all in one object tree.
#
#   build.sh config     generate the .config from configs/um-rw-users.config
#   build.sh users      build rw.o and the in-tree users of the API (W=1)
#   build.sh users-fresh  the same, recompiling them all: ccache replays
#                       the warnings of its hits, so a W=1 check sees every
#                       warning, not only those of files that changed
#
# Needs LINUX (the patched tree) and OBJ_UM (the object tree) in the
# environment, as the top-level Makefile exports them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
fragment=$here/configs/um-rw-users.config
targets=(
	drivers/infiniband/core/rw.o
	drivers/nvme/target/rdma.o
	drivers/infiniband/ulp/isert/
	drivers/infiniband/ulp/srpt/
	net/sunrpc/xprtrdma/
	fs/smb/server/
)

kmake() {
	make -C "$LINUX" ARCH=um O="$OBJ_UM" -j"$(nproc)" "$@"
}

case ${1:-} in
config)
	if [ -f "$OBJ_UM/.config" ] && [ "$OBJ_UM/.config" -nt "$fragment" ]; then
		exit 0
	fi
	mkdir -p "$OBJ_UM"
	# kunit.py checks that every option of the fragment made it in.
	"$LINUX/tools/testing/kunit/kunit.py" config --arch=um \
		--build_dir="$OBJ_UM" --kunitconfig="$fragment" >/dev/null
	;;
users-fresh)
	for t in "${targets[@]}"; do
		if [[ $t == */ ]]; then
			find "$OBJ_UM/$t" -name '*.o' -delete 2>/dev/null || true
		else
			rm -f "$OBJ_UM/$t"
		fi
	done
	exec "$0" users
	;;
users)
	log=$OBJ_UM/users.log
	echo "build: rw.o and the in-tree rdma_rw users (ARCH=um, W=1)"
	if ! kmake -s W=1 "${targets[@]}" >"$log" 2>&1; then
		tail -n 30 "$log"
		echo "build: failed, full log in $log" >&2
		exit 1
	fi
	;;
*)
	echo "usage: $0 config|users|users-fresh" >&2
	exit 2
	;;
esac
