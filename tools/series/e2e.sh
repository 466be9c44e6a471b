#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make e2e: real ULPs through the series' rw.c.  Boot the UML kernel that
# the KUnit run built ($OBJ_UM/linux, with kunit.enable=0) as a guest and
# run the rdma kselftest (tools/testing/selftests/rdma/nvme_rdma_rw.sh) in
# it: nvmet-rdma and nvme-rdma over siw and over rxe, data checked by fio,
# each once as is and once with ib_core.force_mr=1.  One guest per run.
#
# The guest's root is the host's, mounted read-only through hostfs; it
# writes only to tmpfs.  It has no network device but the dummy one the
# test creates, and its console is its only output.
#
#   e2e.sh [run...]     run the given runs (default: all), each named
#                       <transport>[+force_mr]; print one line per run:
#                       "PASS|FAIL e2e: <run>: <fio figures>"
#
# The guest logs go to $BUILD/e2e/<run>.log (E2E_OUT sets the directory);
# E2E_KERNEL boots another UML kernel than $OBJ_UM/linux (make bench boots
# its two, without KASAN).  E2E_TIMEOUT (seconds, default
# 600) bounds each guest, E2E_SIZE (default 32M) is how much each of the
# two fio jobs writes and verifies.  Exits non-zero when a run failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
kernel=${E2E_KERNEL:-$OBJ_UM/linux}
test=$LINUX/tools/testing/selftests/rdma/nvme_rdma_rw.sh
out=${E2E_OUT:-$BUILD/e2e}
timeout=${E2E_TIMEOUT:-600}
size=${E2E_SIZE:-32M}
runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(siw rxe siw+force_mr rxe+force_mr)

# Kernel log lines that fail a run wherever they appear.
bad='WARNING:|BUG:|Oops|KASAN|kernel BUG|Kernel panic'

# The lines of the guest log $1 that fail the run.  One warning at boot is
# known and harmless, and left out: kunit's UML config enables PCI over
# virtio (rxe needs PCI) with no virtio device ID, which the PCI driver
# warns about ("No virtio device ID configured for PCI - no PCI support").
# Only that warning is: the WARNING line from um_pci_init() followed by
# that message.  Its path is relative to the object tree (../linux/...)
# when ccache rewrote the compiler's paths (CCACHE_BASEDIR).
bad_lines() {
	awk -v bad="$bad" '
		prev != "" {
			if ($0 !~ /^No virtio device ID configured for PCI - no PCI support$/)
				print prev
			prev = ""
		}
		/^WARNING: CPU: [0-9]+ PID: [0-9]+ at ([^ ]*\/)?arch\/um\/drivers\/virt-pci\.c:[0-9]+ um_pci_init\+/ {
			prev = $0
			next
		}
		$0 ~ bad
		END { if (prev != "") print prev }' "$1"
}

for f in "$kernel" "$test"; do
	if [ ! -x "$f" ]; then
		echo "e2e: $f is missing: run make first" >&2
		exit 1
	fi
done
rm -rf "$out"
mkdir -p "$out/uml"

# Boot one guest; its console goes to $log.
boot() {
	local run=$1 log=$2 transport=${1%+*} force_mr=0

	[ "$run" != "$transport" ] && force_mr=1
	# No eth= or vec= device: the guest has no way out.  Its console
	# (con0) is our stdout, no other console or serial line exists.
	timeout -k 10 "$timeout" "$kernel" \
		mem=1G umid="e2e-$run" uml_dir="$out/uml" \
		con=none con0=fd:0,fd:1 ssl=none console=tty0 \
		root=/dev/root rootfstype=hostfs rootflags=/ ro \
		init="$here/e2e-guest.sh" \
		kunit.enable=0 ib_core.force_mr=$force_mr \
		e2e_test="$test" e2e_args="$transport" \
		RDMA_TEST_SIZE="$size" \
		</dev/null >"$log" 2>&1
}

# PASS when the guest ran the test to its end, every test of the run's
# transport passed and the whole log is clean.
verdict() {
	local run=$1 log=$2 transport=${1%+*} tests fails

	tests=$(grep -cE "^(not )?ok [0-9]+ $transport " "$log")
	fails=$(grep -cE "^not ok [0-9]+ " "$log")
	if ! grep -q '^e2e-guest: exit 0' "$log"; then
		echo "the test did not finish with exit 0"
	elif [ "$tests" != 4 ] || [ "$fails" != 0 ]; then
		echo "$fails of $tests tests failed"
	elif bad_lines "$log" | grep -q .; then
		echo "kernel log: $(bad_lines "$log" | head -n 1)"
	else
		return 0
	fi
	return 1
}

failed=0
for run in "${runs[@]}"; do
	log=$out/$run.log
	start=$(date +%s)
	boot "$run" "$log"
	secs=$(($(date +%s) - start))
	figures=$(sed -n "s/^# ${run%+*}: fio: //p" "$log")
	if why=$(verdict "$run" "$log"); then
		echo "PASS e2e: $run: $figures (guest ${secs} s)"
	else
		echo "FAIL e2e: $run: $why (guest ${secs} s, log $log)"
		{ grep -E "^not ok|^# " "$log"; bad_lines "$log"; } |
			head -n 20 | sed 's/^/    /'
		failed=1
	fi
done
exit $failed
