#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# NFS over RDMA through the RDMA R/W API, on soft RDMA devices.
#
# For each transport named on the command line (default: siw rxe), have
# nfsd listen on RDMA port 20049 and export a directory of this machine,
# mount it with the NFS client over RDMA (proto=rdma) on the same machine,
# and check the data (see lib.sh): files written and read back at sizes
# that go inline, through RDMA READ of the client's payload and through
# WRITE chunks, their checksums compared with the server's copy; then fio
# with every block checked on a file.  svcrdma moves the payload of every
# RPC that does not fit inline with the R/W API: RDMA READ of a client's
# NFS WRITE data, RDMA WRITE of NFS READ replies into the client's Write
# chunks; its counters rdma_stat_read and rdma_stat_write must have grown.
#
# Needs root, iproute2 (ip, rdma), fio, nfsd's tools (nfs-kernel-server:
# rpc.nfsd, rpc.mountd, exportfs), mount.nfs (nfs-common) and the options
# in ./config.  nfsd and rpc.mountd must not be running: the test starts
# its own, with a grace period of 10 seconds, and stops them at the end;
# nfsd's versions, grace period and lease time get back their values.
# The directory is exported to the test's address alone, which is the
# client's; nfsd's TCP socket listens there alone and rpc.mountd opens
# none.  rpc.nfsd gives svcrdma's listener no address, so while the test
# runs nfsd answers on RDMA port 20049 of every RDMA device.

ULP_NAME=svcrdma
ULP_COMMANDS="rpc.nfsd rpc.mountd exportfs mount.nfs sha256sum ss"
ULP_WILDCARD=1
ULP_MODULES="nfsd rpcrdma nfs"
# svcrdma and the client's xprtrdma are one module, rpcrdma, whose MRs
# the resource list cannot tell apart: the server's are those that nfsd
# threads allocate (svcrdma accepts there; its QPs' R/W pools are its
# only MRs), on the device of its connection to port 20049.
ULP_TARGET_TASK=nfsd
ULP_TARGET_PORT=20049
# The client's messages when the server stopped answering.
ULP_LOG_ERRORS='nfs: server [^ ]+ not responding'

source "$(dirname "$(readlink -f "$0")")/lib.sh"

NFS_PORT=$ULP_TARGET_PORT
NFSD=/proc/fs/nfsd
STATS=/proc/sys/sunrpc/svc_rdma
# Payload sizes that go inline (below the 4 KiB inline threshold), and
# beyond it: pulled by the server with RDMA READ on a WRITE, pushed with
# RDMA WRITE on a READ.  Odd sizes end in the middle of a page.
FILE_SIZES=(200 3000 4097 65536 200003 1048576)
EXPORT=
MNT=
MOUNTED_NFSD=0
STARTED_NFSD=0
MOUNTD_PID=
# What nfsd's files that rpc.nfsd writes held before it did.
NFSD_PARAMS="versions nfsv4gracetime nfsv4leasetime"
declare -A NFSD_WAS=()

ulp_check() {
	if [ ! -d "$NFSD" ] && ! grep -qw nfsd /proc/filesystems; then
		echo "no nfsd file system: NFSD missing"
		return 1
	fi
	if [ "$(cat "$NFSD/threads" 2>/dev/null || echo 0)" != 0 ]; then
		echo "nfsd is running: stop it first"
		return 1
	fi
	if pidof rpc.mountd >/dev/null; then
		echo "rpc.mountd is running: stop it first"
		return 1
	fi
}

stat_of() {
	cat "$STATS/rdma_stat_$1"
}

nfs_server_start() {
	local p

	if ! mountpoint -q "$NFSD"; then
		mount -t nfsd none "$NFSD" || return 1
		MOUNTED_NFSD=1
	fi
	EXPORT=$TMP/export
	mkdir -p "$EXPORT" || return 1
	# No MOUNT protocol (NFSv4 needs none): rpc.mountd opens no socket.
	daemon_start MOUNTD_PID "$TMP/mountd.log" rpc.mountd -F -N 2 -N 3 -n -u
	exportfs -i -o rw,no_root_squash,insecure,fsid=0,sync "$ADDR:$EXPORT" ||
		return 1
	for p in $NFSD_PARAMS; do
		NFSD_WAS[$p]=$(cat "$NFSD/$p") || return 1
	done
	STARTED_NFSD=1
	rpc.nfsd -N 3 -H "$ADDR" -G 10 -L 10 --rdma="$NFS_PORT" 4 || return 1
	grep -q "^rdma $NFS_PORT" "$NFSD/portlist" ||
		{ echo "nfsd does not list rdma $NFS_PORT"; return 1; }
	if listening_beyond 2049 "$ADDR:2049" | grep -q .; then
		echo "nfsd listens on port 2049 beyond $ADDR"
		return 1
	fi
}

ulp_start() {
	nfs_server_start && lo_device "$1" || return 1
	MNT=$TMP/mnt
	mkdir -p "$MNT" &&
		mount -t nfs \
			-o vers=4,proto=rdma,port="$NFS_PORT" "$ADDR:/" "$MNT" ||
		return 1
	nfs_files_check || return 1
	DATA=$MNT/fio.data
	TARGET_DATA=$EXPORT/fio.data
}

# The files of files_check (lib.sh), with svcrdma's RDMA READs and WRITEs
# counted: both must have been used.
nfs_files_check() {
	local read0 write0 reads writes

	read0=$(stat_of read)
	write0=$(stat_of write)
	files_check "$MNT" "$EXPORT" || return 1
	reads=$(($(stat_of read) - read0))
	writes=$(($(stat_of write) - write0))
	ULP_NOTE="files of ${FILE_SIZES[*]} bytes: svcrdma RDMA READs $reads, RDMA WRITEs $writes"
	if [ "$reads" = 0 ] || [ "$writes" = 0 ]; then
		echo "svcrdma did not use both RDMA READ and RDMA WRITE"
		return 1
	fi
}

# The connections the client's transport made for the mount: the
# connect count of its "xprt: rdma <port> <binds> <connects> ..." line in
# /proc/self/mountstats.
ulp_connections() {
	awk -v mnt="$MNT" '$1 == "device" { ours = $5 == mnt }
		ours && $1 == "xprt:" && $2 == "rdma" { print $5 }' \
		/proc/self/mountstats
}

ulp_disconnect() {
	[ -n "$MNT" ] && mountpoint -q "$MNT" && umount "$MNT"
	MNT=
}

ulp_stop() {
	local p

	if [ $STARTED_NFSD = 1 ]; then
		rpc.nfsd 0
		STARTED_NFSD=0
	fi
	# nfsd takes them once its threads are gone.
	for p in "${!NFSD_WAS[@]}"; do
		echo "${NFSD_WAS[$p]}" >"$NFSD/$p" && unset "NFSD_WAS[$p]"
	done
	[ -n "$EXPORT" ] && exportfs -u "$ADDR:$EXPORT"
	EXPORT=
	if [ -n "$MOUNTD_PID" ]; then
		daemon_stop "$MOUNTD_PID"
		MOUNTD_PID=
	fi
	if [ $MOUNTED_NFSD = 1 ]; then
		umount "$NFSD"
		MOUNTED_NFSD=0
	fi
}

rdma_main "$@"
