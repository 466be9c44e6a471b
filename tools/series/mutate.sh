#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation testing: apply each deliberate bug of mutants/<file>.list to
# that file of the series in the patched tree, run the KUnit suites, and report whether a
# test caught it.  Ends with "N passed, N failed", where a mutant that
# survives (all tests pass) or does not apply counts as failed.
#
# Needs LINUX and OBJ_UM in the environment, as the Makefile exports them.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
caught=0
missed=0

# run_kunit: "<passed> <failed>" of a KUnit run, or nothing if none ran.
run_kunit() {
	rm -f "$OBJ_UM/kunit.json"
	"$here/build.sh" kunit >"$OBJ_UM/mutant.log" 2>&1
	python3 "$here/kunit_results.py" "$OBJ_UM/kunit.json" 2>/dev/null |
		tail -n 1
}

# Mutants are only judged against a tree whose tests all pass.
result=$(run_kunit)
if [ -z "$result" ] || [ "${result#* }" != 0 ]; then
	echo "mutate: the unmutated tree does not pass its tests ($result)" >&2
	exit 1
fi

for list in "$here"/mutants/*.list; do
	file=$(awk '$1 == "file" { print $2 }' "$here/series" |
		grep "/$(basename "$list" .list)\$")
	src=$LINUX/$file
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
		result=$(run_kunit)
		cp "$OBJ_UM/mutant.log" "$OBJ_UM/mutant-$name.log"
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
