#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# PID 1 of the guest that run-guest.sh boots: the UML kernel on the
# host's root through hostfs, read-only, tmpfs wherever it writes (as
# tools/series/e2e-guest.sh does).  Make an rxe device on a dummy netdev,
# let everyone open the uverbs device (as rdma-core's udev rules do), and
# run the reproducer, as nobody, once for each of the runs in sec_runs=
# (runs separated by commas, the arguments of one run by colons), each
# between two marker lines in the kernel log.  The kernel log goes to the
# host file sec_kmsg= as it is written; power off at the end.

PATH=/usr/sbin:/usr/bin:/sbin:/bin
HOME=/tmp
export PATH HOME

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for d in /tmp /run /var; do
	mount -t tmpfs tmpfs "$d"
done

if [ -n "${sec_kmsg:-}" ]; then
	mkdir -p /run/sec-out &&
		mount -t hostfs -o "sync,$(dirname "$sec_kmsg")" hostfs \
			/run/sec-out &&
		dmesg --follow --notime \
			>"/run/sec-out/$(basename "$sec_kmsg")" 2>&1 &
	sleep 1
fi

say() {
	echo "sec-guest: $*"
	echo "sec-guest: $*" >/dev/kmsg
}

if ! awk '$2 == "/" && $4 ~ /^ro(,|$)/ { ro = 1 } END { exit !ro }' \
		/proc/mounts; then
	say "the root file system is not read-only, not running"
	echo o >/proc/sysrq-trigger
	sleep 60
fi

ip link set lo up
ip link add sectest0 type dummy
ip addr add 192.0.2.1/24 dev sectest0
ip link set sectest0 up
rdma link add sectest_rxe type rxe netdev sectest0 || say "rdma link add failed"
ls -l /dev/infiniband/ 2>&1
chmod 666 /dev/infiniband/uverbs* 2>/dev/null
sleep 1

for run in $(echo "${sec_runs:-}" | tr , ' '); do
	args=$(echo "$run" | tr : ' ')
	say "run begin: $args"
	# shellcheck disable=SC2086 # one argument per word
	timeout 30 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"${sec_prog:?}" $args 2>&1 | while read -r l; do say "  $l"; done
	sleep 2
	say "run end: $args"
done
say "done"
sleep 1
echo o >/proc/sysrq-trigger
sleep 60
