#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Mutation testing: apply each deliberate bug of mutants/<file>.list to
# that file of the series in the patched tree, run the KUnit suites, and
# report whether a test caught it.  Ends with "N passed, N failed", where a
# mutant that survives (all tests pass), does not apply, or leaves a kernel
# that does not build or reports no results counts as failed.
#
#   mutate.sh [<list>...]   the given lists, or every mutants/*.list
#   mutate.sh --random N [--seed S] [--file F] [<list>...]
#                           also (or, without lists, only) N random
#                           mutants of F (default drivers/infiniband/core/
#                           rw.c) that mutgen.py draws with seed S (default
#                           a new one, printed), written to
#                           $BUILD/mutants-random.list; ends with
#                           "mutate: random: caught X of Y (Z%)" before the
#                           tally
#   mutate.sh --dry-run ... only apply each mutant and undo it: no kernel
#                           is built, "PASS" means that the mutant applies
#
# A mutant of a file under drivers/infiniband/hw/ is judged by the x86_64
# kernel's suites (build.sh x86-kunit).  Any other (rw.c, the mock's) as
# make check judges it: by UML's suites (build.sh kunit), then by the
# kmemleak scan of leaks.sh, which boots that UML kernel, then by
# x86_64's suites, whose mock counts DMA mappings: a DMA direction or
# unmap mutant only fails there.  A mutant is caught by the first stage
# that fails (cases, or objects leaked); the stages after it do not run.
#
# Needs LINUX, OBJ_UM and OBJ_X86 in the environment, as the Makefile
# exports them (--dry-run only LINUX); BUILD defaults to build/ of this
# tree.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$(cd "$here/../.." && pwd)/build}
caught=0
missed=0
dry=
random=
seed=
random_file=drivers/infiniband/core/rw.c
random_list=
lists=()
# The file a mutant is applied to, put back on exit.
current=

usage() {
	echo "usage: $0 [--dry-run] [--random N [--seed S] [--file F]] [<list>...]" >&2
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--dry-run) dry=1 ;;
	--random) [ $# -ge 2 ] || usage; random=$2; shift ;;
	--seed) [ $# -ge 2 ] || usage; seed=$2; shift ;;
	--file) [ $# -ge 2 ] || usage; random_file=$2; shift ;;
	-*) usage ;;
	*) lists+=("$1") ;;
	esac
	shift
done
[[ -z $random || $random =~ ^[1-9][0-9]*$ ]] || usage
[[ -z $seed || $seed =~ ^[0-9]+$ ]] || usage
[ -z "$random" ] && [ ${#lists[@]} = 0 ] && lists=("$here"/mutants/*.list)

# kernels_of <file>: the stages that judge it, the one to run first first:
# um and x86 (a kernel's KUnit suites), leaks (leaks.sh on the um kernel,
# so it follows um).
kernels_of() {
	case $1 in
	drivers/infiniband/hw/*) echo x86 ;;
	*) echo um leaks x86 ;;
	esac
}

# obj_of <kernel>: the object tree of a stage's kernel.
obj_of() {
	if [ "$1" = x86 ]; then echo "$OBJ_X86"; else echo "$OBJ_UM"; fi
}

# failed_what <kernel>: what a stage's failed count counts.
failed_what() {
	if [ "$1" = leaks ]; then
		echo "objects leaked (kmemleak, um)"
	else
		echo "failing $1 cases"
	fi
}

# run_leaks: "<results> <leaked>" of leaks.sh on the um kernel as built,
# "none" if its guest ran no scan.
run_leaks() {
	local log=$OBJ_UM/mutant.log leaked

	"$here/leaks.sh" >"$log" 2>&1
	cat "$build/leaks/guest.log" >>"$log" 2>/dev/null
	if grep -q '^PASS leaks:' "$log"; then
		echo "$(grep -cE '^ *(not )?ok [0-9]+ ' "$log") 0"
		return
	fi
	leaked=$(sed -n 's/^kmemleak-scan: \([0-9]*\) unreferenced.*/\1/p' "$log")
	if [[ $leaked =~ ^[1-9][0-9]*$ ]]; then
		echo "0 $leaked"
	else
		echo none
	fi
}

# run_stage <kernel>: "<passed> <failed>" of a stage: run_leaks, or a
# KUnit run of that kernel, "build" if it did not build (kunit.py never
# started it), "none" if it ran and reported no cases.  Only the last line of kunit_results.py is
# read: the lines above it are for check.sh.
run_stage() {
	local obj action=kunit result

	if [ "$1" = leaks ]; then
		run_leaks
		return
	fi
	obj=$(obj_of "$1")
	[ "$1" = x86 ] && action=x86-kunit
	rm -f "$obj/kunit.json"
	"$here/build.sh" "$action" >"$obj/mutant.log" 2>&1
	if ! grep -q 'Starting KUnit Kernel' "$obj/mutant.log"; then
		echo build
		return
	fi
	result=$(python3 "$here/kunit_results.py" "$obj/kunit.json" \
		2>/dev/null | tail -n 1)
	if [[ $result =~ ^[0-9]+\ [0-9]+$ ]] && [ "$result" != "0 0" ]; then
		echo "$result"
	else
		echo none
	fi
}

# source_of <list>: the series file a mutants list is for.
source_of() {
	awk '$1 == "file" { print $2 }' "$here/series" |
		grep "/$(basename "$1" .list)\$"
}

# restore: put the mutated file back, also when interrupted, so that the
# tree is never left with a bug in it.
restore() {
	if [ -n "$current" ]; then
		git -C "$LINUX" checkout -q -- "$current"
	fi
}
trap restore EXIT
trap 'exit 130' INT TERM

# verdict PASS|FAIL <file> <name> <why...>: print a mutant's line and
# count it.
verdict() {
	local v=$1 file=$2 name=$3

	shift 3
	echo "$v $file $name: $*"
	if [ "$v" = PASS ]; then
		caught=$((caught + 1))
	else
		missed=$((missed + 1))
	fi
}

# judge <file> <name>: the suites of each kernel that tests <file>, on the
# tree with the mutant in; the first kernel to fail cases catches it, and
# the next ones need not run.
judge() {
	local file=$1 name=$2 kernels i obj result passed=""

	read -ra kernels <<<"$(kernels_of "$file")"
	for i in "${!kernels[@]}"; do
		result=$(run_stage "${kernels[i]}")
		obj=$(obj_of "${kernels[i]}")
		cp "$obj/mutant.log" "$obj/mutant-$name-${kernels[i]}.log"
		case $result in
		build)
			verdict FAIL "$file" "$name" \
				"broken list entry (does not build)"
			return ;;
		none)
			verdict FAIL "$file" "$name" "no results: the" \
				"${kernels[i]} stage reported none," \
				"see $obj/mutant-$name-${kernels[i]}.log"
			return ;;
		esac
		if [ "${result#* }" != 0 ]; then
			verdict PASS "$file" "$name" "caught by ${result#* }" \
				"$(failed_what "${kernels[i]}")${passed:+ (all$passed cases passed)}$(
				[ $((i + 1)) = ${#kernels[@]} ] ||
					echo " (${kernels[*]:i+1} not run)")"
			return
		fi
		passed+="${passed:+ and} ${result% *} ${kernels[i]}"
		[ "${kernels[i]}" = leaks ] && passed+=" (kmemleak-clean)"
	done
	verdict FAIL "$file" "$name" "survived, all$passed cases passed"
}

# try <file> <name>: --dry-run's verdict, whether the mutant applies.
try() {
	local hunks

	hunks=$(git -C "$LINUX" diff -U0 -- "$1" | grep -c '^@@')
	verdict PASS "$1" "$2" "applies, $hunks changed region(s) (dry run)"
}

# The lists and the series file each is for.
jobs_list=()
jobs_file=()
for list in "${lists[@]}"; do
	file=$(source_of "$list")
	if [ -z "$file" ]; then
		echo "mutate: $list: no file of that name in the series" >&2
		exit 1
	fi
	jobs_list+=("$list")
	jobs_file+=("$file")
done

# The random list, drawn from the file as the tree has it.
if [ -n "$random" ]; then
	[ -n "$seed" ] || seed=$((RANDOM * 32768 + RANDOM))
	random_list=$build/mutants-random.list
	mkdir -p "$build"
	git -C "$LINUX" checkout -q -- "$random_file" || exit 1
	echo "mutate: random: $random mutants of $random_file, seed $seed," \
		"in $random_list"
	if ! python3 "$here/mutgen.py" --file "$LINUX/$random_file" \
			--seed "$seed" --count "$random" --apply-check \
			>"$random_list"; then
		echo "mutate: mutgen.py failed" >&2
		exit 1
	fi
	jobs_list+=("$random_list")
	jobs_file+=("$random_file")
fi

# Mutants are only judged against a tree whose tests all pass, in every
# kernel that judges them.
if [ -n "$dry" ]; then
	echo "mutate: dry run: each mutant is applied and undone, nothing is built"
else
	for kernel in $(for file in "${jobs_file[@]}"; do
			kernels_of "$file" | tr ' ' '\n'; done | awk '!seen[$0]++'); do
		result=$(run_stage "$kernel")
		case $result in
		build | none)
			echo "mutate: the unmutated tree's $kernel kernel" \
				"$([ "$result" = build ] && echo "does not build" ||
				echo "reports no cases"), see" \
				"$(obj_of "$kernel")/mutant.log" >&2
			exit 1 ;;
		esac
		if [ "${result#* }" != 0 ]; then
			echo "mutate: the unmutated tree does not pass its $kernel tests ($result)" >&2
			exit 1
		fi
	done
fi

for j in "${!jobs_list[@]}"; do
	list=${jobs_list[$j]}
	file=${jobs_file[$j]}
	src=$LINUX/$file
	before=$caught
	total=0
	current=$file
	while IFS= read -r line; do
		[[ -z $line || $line == \#* ]] && continue
		name=${line%%: *}
		expr=${line#*: }
		total=$((total + 1))
		git -C "$LINUX" checkout -q -- "$file"
		perl -0pi -e "$expr" "$src"
		if git -C "$LINUX" diff --quiet -- "$file"; then
			verdict FAIL "$file" "$name" "does not apply"
		elif [ -n "$dry" ]; then
			try "$file" "$name"
		else
			judge "$file" "$name"
		fi
	done <"$list"
	git -C "$LINUX" checkout -q -- "$file"
	current=
	if [ "$list" = "$random_list" ]; then
		n=$((caught - before))
		if [ -n "$dry" ]; then
			echo "mutate: random: dry run, $n of $total apply"
		else
			echo "mutate: random: caught $n of $total" \
				"($(( total ? (200 * n + total) / (2 * total) : 0 ))%)"
		fi
	fi
done

echo "$caught passed, $missed failed"
[ "$missed" = 0 ]
