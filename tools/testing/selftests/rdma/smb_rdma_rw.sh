#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# SMB Direct through the RDMA R/W API, on soft RDMA devices.
#
# For each transport named on the command line (default: siw rxe), have
# ksmbd share a directory of this machine over SMB Direct, mount it with
# the cifs client over RDMA (the rdma option) on the same machine, and
# check the data (see lib.sh): files written and read back through the
# page cache and around it, their checksums compared with the server's
# copy; then fio with every block checked on a file.  The cifs client
# sends the payload of a READ or WRITE above 4 KiB in its own memory,
# described by a buffer descriptor, and ksmbd moves it with the R/W API:
# RDMA READ for a WRITE, RDMA WRITE for a READ.
#
# Needs root, iproute2 (ip, rdma), fio, ksmbd-tools (ksmbd.mountd,
# ksmbd.adduser, ksmbd.control), mount.cifs (cifs-utils) and the options
# in ./config.  ksmbd must not be running: the test starts its own, with
# a configuration and a user database of its own, and stops it at the end.
# Its TCP socket listens on the test's interface alone, and the user's
# password is new each run; ksmbd's SMB Direct listener takes no address
# (smb_direct_listen()), so while the test runs ksmbd answers on RDMA
# port 5445 of every RDMA device.

ULP_NAME=ksmbd
ULP_COMMANDS="ksmbd.mountd ksmbd.adduser ksmbd.control mount.cifs sha256sum ss"
ULP_WILDCARD=1
ULP_MODULES="ksmbd cifs"
ULP_TARGET_MR=ksmbd
# ksmbd's messages when an RDMA READ or WRITE of a client's buffer or a
# message failed, and the client's when a registration or a send did.
ULP_LOG_ERRORS='ksmbd: smb_direct: (read/write error|Send error|Recv error'
ULP_LOG_ERRORS+='|failed to init rdma_rw_ctx|failed to post send wr for RDMA R/W)'
ULP_LOG_ERRORS+='|CIFS: VFS: [a-z_]+:[0-9]+ (ib_map_mr_sg failed|wc->status=)'
# cifs registers the memory of a READ or WRITE above 4 KiB in one MR and
# gives up on the connection when ib_map_mr_sg() maps it short, which it
# does where a buffer of a vectored I/O starts or ends inside a page: the
# test's buffers are whole, page-aligned pages, so that it tests the
# server.
ULP_MEM_ALIGN=4096
ULP_BSSPLIT=4k/20:16k/20:64k/20:128k/10:512k/15:1m/15

source "$(dirname "$(readlink -f "$0")")/lib.sh"

SHARE=rdmatest
USER_NAME=rdmatest
# A password of this run's own: ksmbd takes SMB Direct on every RDMA
# device while the test runs.
PASSWORD=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
FILE_SIZES=(200 3000 4097 65536 200003 1048576)
EXPORT=
MNT=
MOUNTD_PID=
# smb_reconnects when the run began.
RECONNECTS=

ulp_check() {
	if pidof ksmbd.mountd >/dev/null; then
		echo "ksmbd.mountd is running: stop it first"
		return 1
	fi
	[ -d /sys/class/ksmbd-control ] ||
		{ echo "no /sys/class/ksmbd-control: ksmbd missing"; return 1; }
}

ksmbd_start() {
	EXPORT=$TMP/export
	mkdir -p "$EXPORT" || return 1
	cat >"$TMP/ksmbd.conf" <<-EOF
	[global]
	server min protocol = SMB3_11
	bind interfaces only = yes
	interfaces = $NETDEV
	[$SHARE]
	path = $EXPORT
	read only = no
	force user = root
	force group = root
	EOF
	# Each transport's server starts from a user database of its own.
	rm -f "$TMP/ksmbdpwd.db"
	ksmbd.adduser -c "$TMP/ksmbd.conf" -i "$TMP/ksmbdpwd.db" \
		-a "$USER_NAME" -p "$PASSWORD" || return 1
	# ksmbd listens for SMB Direct on the RDMA devices there are when
	# it starts: the test's must come first.
	daemon_start MOUNTD_PID "$TMP/ksmbd.log" ksmbd.mountd -n \
		-c "$TMP/ksmbd.conf" -u "$TMP/ksmbdpwd.db"
}

# The client's count of SMB sessions it reconnected, machine-wide.
smb_reconnects() {
	sed -nE 's/^([0-9]+) session [0-9]+ share reconnects$/\1/p' \
		/proc/fs/cifs/Stats
}

ulp_start() {
	RECONNECTS=$(smb_reconnects)
	ksmbd_start && lo_device "$1" || return 1
	MNT=$TMP/mnt
	mkdir -p "$MNT" &&
		mount -t cifs "//$ADDR/$SHARE" "$MNT" \
			-o "rdma,vers=3.1.1,username=$USER_NAME,password=$PASSWORD" ||
		return 1
	if listening_beyond 445 "*%$NETDEV:445" | grep -q .; then
		echo "ksmbd listens on TCP port 445 beyond $NETDEV"
		return 1
	fi
	files_check "$MNT" "$EXPORT" || return 1
	ULP_NOTE="files of ${FILE_SIZES[*]} bytes read back and on the server"
	DATA=$MNT/fio.data
	TARGET_DATA=$EXPORT/fio.data
}

# One connection, plus one for each session the client reconnected.
ulp_connections() {
	echo $((1 + $(smb_reconnects) - RECONNECTS))
}

ulp_disconnect() {
	[ -n "$MNT" ] && mountpoint -q "$MNT" && umount "$MNT"
	MNT=
}

ulp_stop() {
	if [ -n "$MOUNTD_PID" ]; then
		daemon_stop "$MOUNTD_PID" ksmbd.control -s
		MOUNTD_PID=
	fi
}

rdma_main "$@"
