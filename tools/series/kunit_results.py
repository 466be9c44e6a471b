#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarize a kunit.py --json result for check.sh.

Usage: kunit_results.py <json> [<arch>].  Prints one line per suite,
"PASS kunit [<arch>] <suite>: <n> cases, <s> skipped, <f> failed" or
"FAIL ...", then a FAIL line for each case that failed and a SKIP line
for each case that skipped, and last "<passed> <failed>": the number of
test cases, parameterized ones counted one by one.  A skipped case is
neither: its SKIP line, and the reason in the kernel log, say why it
could not run here.

A benchmark suite (named *_bench) is reported apart, "PASS bench ...",
and counts as one check, passed if every one of its cases passed: its
cases measure, they are not tests of their own.

kunit_results.py <json> --case <suite>.<case> prints "<passed> <total>"
of that one case, parameterized ones counted one by one.

kunit_results.py <json> --run <label> judges a whole run as one check:
"PASS <label>: <n> suites, <c> cases, <s> skipped", or FAIL with the
failed cases named, then "1 0" or "0 1".
"""
import json
import sys


def cases(group, prefix=""):
    """(name, status) of every leaf case under a JSON group."""
    for case in group["test_cases"]:
        yield prefix + case["name"], case["status"]
    for sub in group["sub_groups"]:
        yield from cases(sub, prefix + sub["name"] + ".")


def report(kind, label, suite):
    """Print a suite's lines; return its (passed, failed) cases."""
    results = list(cases(suite))
    failed = [n for n, s in results if s not in ("PASS", "SKIP")]
    skipped = [n for n, s in results if s == "SKIP"]
    verdict = "FAIL" if failed or not results else "PASS"
    print(f"{verdict} {kind} {label}{suite['name']}: {len(results)} cases, "
          f"{len(skipped)} skipped, {len(failed)} failed")
    for name in failed:
        print(f"FAIL {kind} {label}{suite['name']}.{name}")
    for name in skipped:
        print(f"SKIP {kind} {label}{suite['name']}.{name}")
    passed = len(results) - len(failed) - len(skipped)
    return passed, len(failed) + (not results)


def count_case(root, path):
    """(passed, total) of the leaf cases of one suite's case."""
    suite, case = path.split(".", 1)
    leaves = [s for g in root["sub_groups"] if g["name"] == suite
              for n, s in cases(g) if n == case or n.startswith(case + ".")]
    return sum(s == "PASS" for s in leaves), len(leaves)


def judge_run(root, label):
    """One verdict for every case of the run."""
    results = [(g["name"] + "." + n, s) for g in root["sub_groups"]
               for n, s in cases(g)]
    failed = [n for n, s in results if s not in ("PASS", "SKIP")]
    skipped = sum(s == "SKIP" for n, s in results)
    bad = bool(failed) or not results
    suites = len(root["sub_groups"])
    print(f"{'FAIL' if bad else 'PASS'} {label}: "
          f"{suites} suite{'s' * (suites != 1)}, {len(results)} cases, "
          f"{skipped} skipped" + "".join(f"\nFAIL {label}: {n}"
                                         for n in failed))
    print(int(not bad), int(bad))


def main():
    with open(sys.argv[1]) as f:
        root = json.load(f)
    if sys.argv[2:3] == ["--case"]:
        print(*count_case(root, sys.argv[3]))
        return
    if sys.argv[2:3] == ["--run"]:
        judge_run(root, sys.argv[3])
        return
    label = "".join(a + " " for a in sys.argv[2:3])
    passed = failed = 0
    for suite in root["sub_groups"]:
        if suite["name"].endswith("_bench"):
            p, f = report("bench", label, suite)
            passed += not f
            failed += bool(f)
        else:
            p, f = report("kunit", label, suite)
            passed += p
            failed += f
    print(passed, failed)


if __name__ == "__main__":
    main()
