#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# PID 1 of the make e2e guest (see e2e.sh): the UML kernel of the series,
# booted on the host's root through hostfs, read-only.  Mount what the
# test needs, tmpfs over every place it may write, run the test named by
# e2e_test= on the kernel command line with the arguments in e2e_args=
# (comma-separated), report its exit code on the console and power off.
#
# The kernel passes e2e_test, e2e_args, e2e_kmsg, e2e_dump_at and
# RDMA_TEST_SIZE from its command line as environment variables.

: "${e2e_test:=}" "${e2e_args:=}"
PATH=/usr/sbin:/usr/bin:/sbin:/bin
HOME=/tmp
TERM=dumb
export PATH HOME TERM

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t configfs configfs /sys/kernel/config
mkdir -p /dev/shm /dev/pts
# The links udev makes: kselftest's runner writes to /dev/stdout.
ln -s /proc/self/fd /dev/fd
ln -s /proc/self/fd/0 /dev/stdin
ln -s /proc/self/fd/1 /dev/stdout
ln -s /proc/self/fd/2 /dev/stderr
mount -t tmpfs tmpfs /dev/shm
mount -t devpts devpts /dev/pts
# The scripts run from this repository and the test from the selftests
# of the tree it built, either of which may sit under one of those (a
# clone in /tmp): bind them back in over the tmpfs.
keep="$(cd "$(dirname "$0")/../.." && pwd) $(dirname "$(dirname "$e2e_test")")"
n=0
for k in $keep; do
	mkdir "/dev/shm/keep$n" && mount --bind "$k" "/dev/shm/keep$n"
	n=$((n + 1))
done
# Where a test writes next to what it reads (open-iscsi's node database
# beside its configuration, nfsd's export table beside its state): a
# copy on tmpfs, bound back in below.
copies="/etc/iscsi /var/lib/nfs"
for d in $copies; do
	[ -d "$d" ] || continue
	mkdir -p "/dev/shm/copies$d" && cp -a "$d/." "/dev/shm/copies$d"
done
for d in /tmp /run /var /etc/nvme; do
	[ -d "$d" ] || continue
	mount -t tmpfs tmpfs "$d"
	n=0
	for k in $keep; do
		case $k/ in
		"$d"/*) mkdir -p "$k" && mount --bind "/dev/shm/keep$n" "$k" ;;
		esac
		n=$((n + 1))
	done
done
n=0
for k in $keep; do
	umount "/dev/shm/keep$n"
	n=$((n + 1))
done
for d in $copies; do
	[ -d "/dev/shm/copies$d" ] || continue
	mkdir -p "$d" && mount --bind "/dev/shm/copies$d" "$d"
done
mkdir -p /run/lock

# The kernel log, as it is written, to a file of the host's (e2e_kmsg=):
# the console drops lines when its reader lags, a file does not.  The
# mount is synchronous, so that what a guest logged before it hung is on
# the host when the guest is killed.
if [ -n "${e2e_kmsg:-}" ]; then
	mkdir -p /run/e2e-out &&
		mount -t hostfs -o "sync,$(dirname "$e2e_kmsg")" hostfs \
			/run/e2e-out &&
		dmesg --follow --notime \
			>"/run/e2e-out/$(basename "$e2e_kmsg")" 2>&1 &
fi

# A guest still running e2e_dump_at seconds from here hung somewhere the
# test's own limits do not reach (hung_task skips killable sleeps, which
# NFS and iSCSI use): log its blocked tasks, from a process, so that their
# stacks come with them, before the host kills it.
if [ -n "${e2e_dump_at:-}" ]; then
	(
		sleep "$e2e_dump_at"
		echo "e2e-guest: still running after $e2e_dump_at s" >/dev/kmsg
		echo w >/proc/sysrq-trigger
	) &
fi

# Refuse to run on a root that the guest could write to.
if ! awk '$2 == "/" && $4 ~ /^ro(,|$)/ { ro = 1 } END { exit !ro }' \
		/proc/mounts; then
	echo "e2e-guest: the root file system is not read-only, not running"
	rc=1
else
	echo "e2e-guest: running $e2e_test $e2e_args"
	# shellcheck disable=SC2046 # one argument per word
	"$e2e_test" $(echo "$e2e_args" | tr , ' ')
	rc=$?
fi
echo "e2e-guest: exit $rc"
echo o >/proc/sysrq-trigger
sleep 60
