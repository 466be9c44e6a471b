#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Where each upstream fix of the tree goes, one line each (make check).

usage: fix_routes.py <repo>

Reads tools/series/fix-routes and prints, for every fix,
"fix <name>: mainline <status>, stable <yes|no>, tested by <cases or
run>", then "PASS fixes: ..." with the count of each route, or FAIL
when a fix of fixes/, irdma-fixes/ or security/ is not listed, is listed
twice, names a file that is not there, has no status it knows, or names
cases that base-failures and irdma-base-failures do not list.  Stable is
read from the patch itself: a Cc: stable@vger.kernel.org line, or a
backport's "commit <id> upstream." line.
"""
import glob
import os
import re
import sys

STATUS = re.compile(r"applies|backport of [0-9a-f]{12,40}|6\.12-only|held"
                    r"|unchecked$")
MAILED = ("fixes/[0-9]*.patch", "irdma-fixes/[0-9]*.patch",
          "irdma-stable/[0-9]*.patch", "security/irdma/[0-9]*.patch",
          "security/patches/[0-9]*.patch")
# A patch for stable: Cc'd to it, or a backport that names its mainline
# commit as stable's rules ask.
FOR_STABLE = re.compile(r"^(Cc: stable@vger\.kernel\.org|"
                        r"commit [0-9a-f]{40} upstream\.$)", re.M)


def routes(series):
    with open(os.path.join(series, "fix-routes")) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                yield line.rstrip("\n").split("\t")


def base_cases(series):
    lines = []
    for name in ("base-failures", "irdma-base-failures"):
        with open(os.path.join(series, name)) as f:
            lines += [line for line in f if not line.startswith("#")]
    return lines


def tested(series, cases, pattern):
    """What the fix is tested by: its cases on the base, or an e2e run."""
    if pattern.startswith(("e2e", "KUnit", "reproducer")):
        return pattern, True
    n = sum(bool(re.search(pattern, line)) for line in cases)
    return f"{n} cases that fail on the base", n > 0


def main():
    series = os.path.join(sys.argv[1], "tools/series")
    cases = base_cases(series)
    seen, problems = set(), []
    count = {"applies": 0, "backport": 0, "6.12-only": 0, "held": 0,
             "unchecked": 0}
    for name, path, status, pattern in routes(series):
        full = os.path.join(series, path)
        if not os.path.isfile(full):
            problems.append(f"{name}: no {path}")
            continue
        if path in seen:
            problems.append(f"{name}: {path} listed twice")
        seen.add(path)
        if not STATUS.fullmatch(status):
            problems.append(f"{name}: unknown status {status}")
            continue
        with open(full) as f:
            stable = "yes" if FOR_STABLE.search(f.read()) else "no"
        how, ok = tested(series, cases, pattern)
        if not ok:
            problems.append(f"{name}: no case matches {pattern}")
        count[status.split()[0]] += 1
        print(f"fix {name}: mainline {status}, stable {stable}, "
              f"tested by {how}")
    for pattern in MAILED:
        for full in sorted(glob.glob(os.path.join(series, pattern))):
            if os.path.relpath(full, series) not in seen:
                problems.append(f"{os.path.relpath(full, series)} not listed")
    for problem in problems:
        print(f"    {problem}")
    verdict = "FAIL" if problems else "PASS"
    print(f"{verdict} fixes: {count['applies']} for rdma-rc against mainline,"
          f" {count['backport']} backports, {count['6.12-only']} 6.12-only,"
          f" {count['held']} held for the security route,"
          f" {count['unchecked']} not checked against mainline")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
