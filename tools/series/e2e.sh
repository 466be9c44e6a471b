#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make e2e: real ULPs through the series' rw.c.  Boot the UML kernel that
# the KUnit run built ($OBJ_UM/linux, with kunit.enable=0) as a guest and
# run one test of the rdma kselftest (tools/testing/selftests/rdma/) in
# it: one in-tree user of the R/W API, target and initiator on the same
# guest, over siw or rxe, data checked by fio, once as is and once with
# ib_core.force_mr=1.  One guest per user and run.
#
# The guest's root is the host's, mounted read-only through hostfs; it
# writes only to tmpfs.  It has no network device but the dummy one the
# test creates, and its console is its only output.
#
#   e2e.sh [run...]     run the given runs (default: all), each named
#                       <transport>[+force_mr], for each user in
#                       $E2E_USERS (default: all); print one line per
#                       user and run:
#                       "PASS|FAIL e2e: <user> <run>: <figures>"
#
# The users and their tests:
#   nvmet             nvme_rdma_rw.sh          nvmet-rdma, nvme-rdma
#   nvmet-pi          nvme_pi_rdma_rw.sh       the same with T10-PI, over
#                                              rxe only: the soft device
#                                              with signature handover
#   nvmet-pi-type3    nvme_pi_rdma_rw.sh       the same on a DIF type 3
#                                              disk
#   nvmet-pi-corrupt  nvme_pi_corrupt_rdma.sh  nvmet-pi on a disk that
#                                              does not check PI, reads
#                                              and writes of bad PI
#                                              instead of fio: the
#                                              transport must catch what
#                                              T10 says
#   nvmet-pi-corrupt-type3-4k                  the same on DIF type 3,
#                                              4096-byte blocks
#                     nvme_pi_corrupt_rdma.sh
#   isert             iser_rdma_rw.sh          LIO's iSCSI target with
#                                              isert, ib_iser
#   isert-pi          iser_pi_rdma_rw.sh       the same with T10-PI, over
#                                              rxe only, ib_iser booted
#                                              with pi_enable
#   isert-pi-corrupt  iser_pi_corrupt_rdma.sh  isert-pi on a backstore
#                                              that does not check PI,
#                                              with data and PI changed
#                                              under it instead of fio:
#                                              the transport must catch
#                                              what T10 says
#   isert-pi-corrupt-type3                     the same on DIF type 3
#                     iser_pi_corrupt_rdma.sh
#   isert-pi-control  iser_pi_corrupt_rdma.sh  the same over rxe without
#                                              signature handover: the
#                                              transport catches nothing
#   srpt              srp_rdma_rw.sh           ib_srpt, ib_srp
#   svcrdma           nfs_rdma_rw.sh           nfsd over svcrdma, the NFS
#                                              client
#   ksmbd             smb_rdma_rw.sh           ksmbd's SMB Direct, cifs
#   kselftest         all of them, as a machine runs them: make -C
#                     tools/testing/selftests TARGETS=rdma run_tests, each
#                     test over its default transports (siw then rxe, rxe
#                     alone for T10-PI) in one guest, once, whatever the
#                     runs; every test must pass or skip, and at least one
#                     pass
#
# The guest logs go to $BUILD/e2e/<user>-<run>.log (E2E_OUT sets the
# directory), their console, and <user>-<run>.kmsg beside, their kernel
# log, which the guest writes there itself: the console drops lines when
# the reader lags; E2E_KERNEL boots another UML kernel than $OBJ_UM/linux (make
# bench boots its two, without KASAN).  E2E_TIMEOUT (seconds, default
# 300, ten times the slowest run seen) bounds each guest; 30 s before
# that, a guest still running logs its blocked tasks.  E2E_SIZE
# (default 32M) is how much each of the two fio jobs writes and verifies.
# E2E_JOBS (default 1) guests run at a time; the lines come in order once
# all have run.
# Exits non-zero when a run failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel=${E2E_KERNEL:-$OBJ_UM/linux}
tests=$LINUX/tools/testing/selftests/rdma
declare -A test_of=([nvmet]=nvme_rdma_rw.sh [nvmet-pi]=nvme_pi_rdma_rw.sh
	[nvmet-pi-type3]=nvme_pi_rdma_rw.sh
	[nvmet-pi-corrupt]=nvme_pi_corrupt_rdma.sh
	[nvmet-pi-corrupt-type3-4k]=nvme_pi_corrupt_rdma.sh [isert]=iser_rdma_rw.sh
	[isert-pi]=iser_pi_rdma_rw.sh [isert-pi-corrupt]=iser_pi_corrupt_rdma.sh
	[isert-pi-corrupt-type3]=iser_pi_corrupt_rdma.sh
	[isert-pi-control]=iser_pi_corrupt_rdma.sh
	[srpt]=srp_rdma_rw.sh [svcrdma]=nfs_rdma_rw.sh [ksmbd]=smb_rdma_rw.sh
	[kselftest]=Makefile)
# Users whose test needs what only some transports have.
declare -A transports_of=([nvmet-pi]=rxe [nvmet-pi-type3]=rxe
	[nvmet-pi-corrupt]=rxe [nvmet-pi-corrupt-type3-4k]=rxe [isert-pi]=rxe
	[isert-pi-corrupt]=rxe [isert-pi-corrupt-type3]=rxe
	[isert-pi-control]=rxe)
# Users whose guest needs more on its kernel command line (a parameter
# given twice takes the later value).
# The PI users need rxe's signature handover, off by default.
handover=rdma_rxe.integrity_handover=1
declare -A cmdline_of=([isert-pi]="$handover ib_iser.pi_enable=1"
	[isert-pi-corrupt]="$handover ib_iser.pi_enable=1"
	[isert-pi-corrupt-type3]="$handover ib_iser.pi_enable=1 RDMA_TEST_PI_TYPE=3"
	[isert-pi-control]="ib_iser.pi_enable=1 RDMA_TEST_HANDOVER=0"
	[nvmet-pi]=$handover [nvmet-pi-corrupt]=$handover
	[nvmet-pi-corrupt-type3-4k]="$handover RDMA_TEST_PI_TYPE=3
		RDMA_TEST_BLOCK_SIZE=4096"
	[nvmet-pi-type3]="$handover scsi_debug.dif=3 RDMA_TEST_PI_TYPE=3"
	[kselftest]="ib_iser.pi_enable=1")
read -ra users <<<"${E2E_USERS:-nvmet nvmet-pi nvmet-pi-type3 nvmet-pi-corrupt nvmet-pi-corrupt-type3-4k isert isert-pi isert-pi-corrupt isert-pi-corrupt-type3 isert-pi-control srpt svcrdma ksmbd kselftest}"
out=${E2E_OUT:-$BUILD/e2e}
timeout=${E2E_TIMEOUT:-300}
jobs=${E2E_JOBS:-1}
size=${E2E_SIZE:-32M}
# fio's own limit in the guest, well inside the guest's: a hung fio gets
# its blocked tasks logged before the guest is killed.
fio_timeout=$((timeout * 2 / 5))
# The whole kselftest, every test one after the other, runs about as long
# as its tests' own guests do in all: 1112 s in make check on an idle
# host, past 1200 on a busy one.  It gets half as long again.
kselftest_timeout=$((timeout * 6))
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(siw rxe siw+force_mr rxe+force_mr)

# Kernel log lines that fail a run wherever they appear.
bad='WARNING:|BUG:|Oops|KASAN|kernel BUG|Kernel panic'

# The lines of the guest logs "$@" that fail the run.  One warning at boot is
# known and harmless, and left out: kunit's UML config enables PCI over
# virtio (rxe needs PCI) with no virtio device ID, which the PCI driver
# warns about ("No virtio device ID configured for PCI - no PCI support").
# Only that warning is: the WARNING line from um_pci_init() followed by
# that message.  Its path is relative to the object tree (../linux/...)
# when ccache rewrote the compiler's paths (CCACHE_BASEDIR).
bad_lines() {
	awk -v bad="$bad" '
		FNR == 1 && prev != "" { print prev; prev = "" }
		prev != "" {
			if ($0 !~ /^No virtio device ID configured for PCI - no PCI support$/)
				print prev
			prev = ""
		}
		/^WARNING: CPU: [0-9]+ PID: [0-9]+ at ([^ ]*\/)?arch\/um\/drivers\/virt-pci\.c:[0-9]+ (um_pci_init\+|0x[0-9a-f]+$)/ {
			prev = $0
			next
		}
		$0 ~ bad
		END { if (prev != "") print prev }' "$@"
}

for user in "${users[@]}"; do
	if [ -z "${test_of[$user]:-}" ]; then
		echo "e2e: no test for the user $user" >&2
		exit 1
	fi
done
for f in "$kernel" $(for u in "${users[@]}"; do echo "$tests/${test_of[$u]}"; done); do
	if [ ! -x "$f" ] && [ "$f" != "$tests/Makefile" ]; then
		echo "e2e: $f is missing: run make first" >&2
		exit 1
	fi
done
rm -rf "$out"
mkdir -p "$out/uml"
# The disk with PI that lib.sh asks scsi_debug for, which the guest has
# built in: its parameters go on the command line, no disk made at boot.
sdebug_mb=$(($(numfmt --from=iec "$size") * 2 / 1048576 + 16))

# Boot one guest for user $1 and run $2; its console goes to $log.
boot() {
	local user=$1 run=$2 log=$3 transport=${2%+*} force_mr=0
	local test=$tests/${test_of[$1]} args=$transport limit=$timeout

	[ "$run" != "$transport" ] && force_mr=1
	if [ "$user" = kselftest ]; then
		test=$(command -v make)
		args=-C,$LINUX/tools/testing/selftests,TARGETS=rdma,run_tests
		limit=$kselftest_timeout
	fi
	# No eth= or vec= device: the guest has no way out.  Its console
	# (con0) is our stdout, no other console or serial line exists.
	# shellcheck disable=SC2086 # the user's arguments, one per word
	timeout -k 10 "$limit" "$kernel" \
		mem=1G umid="e2e-$user-$run" uml_dir="$out/uml" \
		con=none con0=fd:0,fd:1 ssl=none console=tty0 \
		root=/dev/root rootfstype=hostfs rootflags=/ ro \
		init="$here/e2e-guest.sh" \
		kunit.enable=0 ib_core.force_mr=$force_mr \
		e2e_test="$test" e2e_args="$args" \
		e2e_kmsg="${log%.log}.kmsg" e2e_dump_at=$((limit - 30)) \
		RDMA_TEST_SIZE="$size" RDMA_TEST_TIMEOUT="$fio_timeout" \
		scsi_debug.add_host=0 scsi_debug.dif=1 scsi_debug.dix=1 \
		scsi_debug.guard=0 scsi_debug.dev_size_mb="$sdebug_mb" \
		${cmdline_of[$user]:-} </dev/null >"$log" 2>&1
}

# The kernel log that the guest of console log $1 wrote, or /dev/null if
# it wrote none.
kmsg_of() {
	if [ -f "${1%.log}.kmsg" ]; then
		echo "${1%.log}.kmsg"
	else
		echo /dev/null
	fi
}

# The kselftest's results in the console log $1, one per test the rdma
# Makefile lists: "ok|not ok <n> selftests: rdma: <test>[ # SKIP]".
kselftest_results() {
	grep -E "^(not )?ok [0-9]+ selftests: rdma: " "$1"
}

# PASS (0) when the guest ran the test to its end, every test of the run's
# transport passed (for the kselftest: every test passed or skipped, one
# at least passed) and the whole log is clean.
verdict() {
	local run=$1 log=$2 transport=${1%+*} tests fails kmsg want=4

	tests=$(grep -cE "^(not )?ok [0-9]+ $transport " "$log")
	fails=$(grep -cE "^not ok [0-9]+ " "$log")
	if [ "$run" = run_tests ]; then
		want=$(grep -c '^TEST_PROGS' "$LINUX/tools/testing/selftests/rdma/Makefile")
		tests=$(kselftest_results "$log" | wc -l)
		fails=$(kselftest_results "$log" | grep -c '^not ok')
		kselftest_results "$log" | grep -v ' # SKIP' | grep -q '^ok' ||
			fails=$((fails + 1))
	fi
	kmsg=$(kmsg_of "$log")
	if ! grep -q '^e2e-guest: exit 0' "$log"; then
		if grep -q '^e2e-guest: still running' "$kmsg"; then
			echo "the guest hung, its blocked tasks are in $kmsg"
		else
			echo "the test did not finish with exit 0"
		fi
	elif [ "$tests" != "$want" ] || [ "$fails" != 0 ]; then
		echo "$fails of $tests tests failed"
	elif bad_lines "$log" "$kmsg" | grep -q .; then
		echo "kernel log: $(bad_lines "$log" "$kmsg" | head -n 1)"
	else
		return 0
	fi
	return 1
}

# Boot the guest of user $1 and run $2, and write how many seconds it
# took and how its UML process ended beside its log.
timed_boot() {
	local log=$out/$1-$2.log start=$SECONDS status=0

	boot "$1" "$2" "$log" || status=$?
	echo $((SECONDS - start)) >"${log%.log}.secs"
	echo "$status" >"${log%.log}.exit"
}

# How the UML process of the guest with console log $1 ended, when it
# died of a signal: "; then its UML process died of signal N".  6.12's
# UML, with KASAN, now and then dies once its console has the test's
# exit and "reboot: Power down": of SIGSEGV, the host logging
# "overflowed sigaltstack" (the signal stack is one THREAD_SIZE, and
# interrupts and softirqs run on it), or once of SIGABRT.  The run's
# verdict rests on what the test logged, so the line says it and the
# run stands.
uml_death() {
	local status

	status=$(cat "${1%.log}.exit")
	if [ "$status" -gt 128 ] && [ "$status" != 137 ]; then
		echo "; then its UML process died of signal $((status - 128))"
	fi
}

# Print the verdict on the guest of user $1 and run $2, from its logs.
report() {
	local user=$1 run=$2 log=$out/$1-$2.log secs figures why

	secs=$(cat "${log%.log}.secs")
	figures=$(sed -nE "s/^# ${run%+*}: (fio|corrupt): //p" "$log")
	if [ "$user" = kselftest ]; then
		figures="$(kselftest_results "$log" | grep -vc ' # SKIP') passed,"
		figures+=" $(kselftest_results "$log" | grep -c ' # SKIP') skipped,"
		figures+=" $(grep -cE '^# ok [0-9]+ (siw|rxe) ' "$log") checks"
		figures+=" of their transports passed"
	fi
	if why=$(verdict "$run" "$log"); then
		echo "PASS e2e: $user $run: $figures (guest ${secs} s$(uml_death "$log"))"
		return 0
	fi
	echo "FAIL e2e: $user $run: $why (guest ${secs} s$(uml_death "$log"), log $log)"
	{ grep -E "^not ok|^# " "$log"
	  bad_lines "$log" "$(kmsg_of "$log")"; } |
		head -n 20 | sed 's/^/    /'
	return 1
}

guests=()
for user in "${users[@]}"; do
	if [ "$user" = kselftest ]; then
		guests+=("kselftest run_tests")
		continue
	fi
	for run in "${runs[@]}"; do
		case " ${transports_of[$user]:-${run%+*}} " in
		*" ${run%+*} "*) guests+=("$user $run") ;;
		esac
	done
done
# Each guest is one process on one CPU, so E2E_JOBS of them (default
# one) run side by side; they share nothing but the read-only root.  The
# kselftest's guest, by far the longest, boots first, so that the others
# run beside it instead of leaving CPUs idle while it ends alone.
launch=()
for g in "${guests[@]}"; do
	case $g in
	kselftest\ *) launch=("$g" "${launch[@]}") ;;
	*) launch+=("$g") ;;
	esac
done
for g in "${launch[@]}"; do
	while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do
		wait -n
	done
	read -r user run <<<"$g"
	timed_boot "$user" "$run" &
done
wait
failed=0
for g in "${guests[@]}"; do
	read -r user run <<<"$g"
	report "$user" "$run" || failed=1
done
exit $failed
