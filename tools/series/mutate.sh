#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation testing: apply each deliberate bug of mutants/<file>.list to
# that file of the series in the patched tree, run the KUnit suites, and
# report whether a test caught it.  Ends with "N passed, N failed", where a
# mutant that survives (all tests pass) or does not apply counts as failed.
#
#   mutate.sh [<list>...]   the given lists, or every mutants/*.list
#
# The suites of hardware drivers run in the x86_64 kernel (build.sh
# x86-kunit), the others in the UML one; a mutant of a file under
# drivers/infiniband/hw/ is judged by the x86_64 kernel's suites.
#
# Needs LINUX, OBJ_UM and OBJ_X86 in the environment, as the Makefile
# exports them.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
caught=0
missed=0
lists=("$@")
[ ${#lists[@]} = 0 ] && lists=("$here"/mutants/*.list)

# kernel_of <file>: the kernel whose suites test it, um or x86.
kernel_of() {
	case $1 in
	drivers/infiniband/hw/*) echo x86 ;;
	*) echo um ;;
	esac
}

# obj_of <kernel>: its object tree.
obj_of() {
	if [ "$1" = x86 ]; then echo "$OBJ_X86"; else echo "$OBJ_UM"; fi
}

# run_kunit <kernel>: "<passed> <failed>" of a KUnit run of that kernel,
# or nothing if none ran.
run_kunit() {
	local obj action=kunit

	obj=$(obj_of "$1")
	[ "$1" = x86 ] && action=x86-kunit
	rm -f "$obj/kunit.json"
	"$here/build.sh" "$action" >"$obj/mutant.log" 2>&1
	python3 "$here/kunit_results.py" "$obj/kunit.json" 2>/dev/null |
		tail -n 1
}

# source_of <list>: the series file a mutants list is for.
source_of() {
	awk '$1 == "file" { print $2 }' "$here/series" |
		grep "/$(basename "$1" .list)\$"
}

# Mutants are only judged against a tree whose tests all pass.
for kernel in $(for list in "${lists[@]}"; do
		kernel_of "$(source_of "$list")"; done | sort -u); do
	result=$(run_kunit "$kernel")
	if [ -z "$result" ] || [ "${result#* }" != 0 ]; then
		echo "mutate: the unmutated tree does not pass its $kernel tests ($result)" >&2
		exit 1
	fi
done

for list in "${lists[@]}"; do
	file=$(source_of "$list")
	src=$LINUX/$file
	kernel=$(kernel_of "$file")
	obj=$(obj_of "$kernel")
	while IFS= read -r line; do
		[[ -z $line || $line == \#* ]] && continue
		name=${line%%: *}
		expr=${line#*: }
		git -C "$LINUX" checkout -q -- "$file"
		perl -0pi -e "$expr" "$src"
		if git -C "$LINUX" diff --quiet -- "$file"; then
			echo "FAIL $file $name: does not apply"
			missed=$((missed + 1))
			continue
		fi
		result=$(run_kunit "$kernel")
		cp "$obj/mutant.log" "$obj/mutant-$name.log"
		if [ -z "$result" ]; then
			echo "PASS $file $name: caught (no test results: build or boot failed)"
			caught=$((caught + 1))
		elif [ "${result#* }" != 0 ]; then
			echo "PASS $file $name: caught by ${result#* } failing cases"
			caught=$((caught + 1))
		else
			echo "FAIL $file $name: survived, all ${result% *} cases passed"
			missed=$((missed + 1))
		fi
	done <"$list"
	git -C "$LINUX" checkout -q -- "$file"
done

echo "$caught passed, $missed failed"
[ "$missed" = 0 ]
