#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Summarize a kunit.py --json result for check.sh.

Usage: kunit_results.py <json> [<arch>].  Prints one line per suite,
"PASS kunit [<arch>] <suite>: <n> cases" or "FAIL ...",
then a FAIL line for each case that did not pass (a skipped case counts
as failed: a skip must not hide one), and last "<passed> <failed>": the
number of cases, parameterized ones counted one by one.
"""
import json
import sys


def cases(group, prefix=""):
    """(name, status) of every leaf case under a JSON group."""
    for case in group["test_cases"]:
        yield prefix + case["name"], case["status"]
    for sub in group["sub_groups"]:
        yield from cases(sub, prefix + sub["name"] + ".")


def main():
    with open(sys.argv[1]) as f:
        root = json.load(f)
    label = "kunit " + "".join(a + " " for a in sys.argv[2:3])
    passed = failed = 0
    for suite in root["sub_groups"]:
        results = list(cases(suite))
        bad = [(n, s) for n, s in results if s != "PASS"]
        verdict = "FAIL" if bad or not results else "PASS"
        print(f"{verdict} {label}{suite['name']}: {len(results)} cases, "
              f"{len(bad)} not passed")
        for name, status in bad:
            print(f"FAIL {label}{suite['name']}.{name}: {status}")
        passed += len(results) - len(bad)
        failed += len(bad) + (not results)
    print(passed, failed)


if __name__ == "__main__":
    main()
