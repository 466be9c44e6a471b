#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# rw.c's line and branch coverage by the R/W suites, measured on UML the
# way KUnit's documentation describes (running_tips.rst): CONFIG_GCOV, whose
# counts the UML process writes to .gcda files as it exits, read by gcov.
# The kernel is built in a worktree and object tree of its own
# ($BUILD/coverage) from the suites' .kunitconfig and KUnit's
# coverage_uml.config alone, and runs the suites ib_core_rw*.
# coverage_report.py judges the counts against coverage-rw.txt, the lines
# the suites leave unexecuted and why; its lines are printed, the last
# "<passed> <failed>".  The unexecuted lines with their reasons go to
# $BUILD/coverage/rw.c.uncovered.
#
# Two things keep UML from writing the counts with a current gcc (KUnit's
# documentation notes both as "issues with gcc 7 and up"), and the
# coverage tree works around them:
# - libgcov defines a global mangle_path(), as fs/seq_file.c does, and the
#   link fails: the kernel's is renamed by the preprocessor, to the name
#   the upstream rename of it gives it (seq_mangle_path);
# - gcc puts the destructor that writes the counts in .fini_array.00100,
#   which UML's linker script leaves out of the .fini_array that glibc
#   runs at exit: the coverage tree's script takes it in.
#
# Needs LINUX and BUILD in the environment, as the top-level Makefile
# exports them.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dir=$BUILD/coverage
wt=$dir/linux
obj=$dir/obj
rw=drivers/infiniband/core/rw.c
# shellcheck source=worktree.sh
. "$here/worktree.sh"

# fail <what>: the one verdict of a run that measured nothing.
fail() {
	echo "FAIL coverage: $1"
	echo 0 1
	exit 0
}

mkdir -p "$dir"
series_worktree "$wt" >"$dir/worktree.log" 2>&1 ||
	fail "no worktree of the series, see $dir/worktree.log"
lds=$wt/arch/um/include/asm/common.lds.S
grep -q '^	\*(\.fini_array)$' "$lds" ||
	fail "no .fini_array line to extend in $lds"
sed -i 's/^\t\*(\.fini_array)$/\t*(SORT_BY_INIT_PRIORITY(.fini_array.*))\n&/' \
	"$lds"
# gcov adds to the counts of an earlier run.
[ -d "$obj" ] && find "$obj" -name '*.gcda' -delete
(cd "$wt" && ./tools/testing/kunit/kunit.py run --arch=um \
	--build_dir="$obj" --jobs="$(nproc)" \
	--kunitconfig=drivers/infiniband/core/tests/.kunitconfig \
	--kunitconfig=tools/testing/kunit/configs/coverage_uml.config \
	--make_options=KCFLAGS=-Dmangle_path=seq_mangle_path \
	--json="$dir/kunit.json" 'ib_core_rw*') >"$dir/kunit.log" 2>&1 ||
	fail "the suites did not build or pass, see $dir/kunit.log"
[ -s "$obj/${rw%.c}.gcda" ] || fail "the run wrote no ${rw%.c}.gcda"
rm -f "$dir/rw.gcov.json.gz"
(cd "$dir" && gcov --branch-probabilities --json-format \
	--object-directory "$obj/$(dirname $rw)" "$wt/$rw") \
	>"$dir/gcov.log" 2>&1 || fail "gcov failed, see $dir/gcov.log"
python3 "$here/coverage_report.py" "$dir/rw.gcov.json.gz" "$wt/$rw" \
	"$here/coverage-rw.txt" "$dir/rw.c.uncovered"
