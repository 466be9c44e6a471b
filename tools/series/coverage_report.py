#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Judge rw.c's coverage by the R/W suites (coverage.sh).

Usage: coverage_report.py <gcov json> <source> <explained> <listing>

<gcov json> is what `gcov --json-format` wrote for rw.c, <source> that
rw.c, <explained> the list of lines the suites may leave unexecuted, each
with the reason (coverage-rw.txt, lines "<function>TAB<source
line>TAB<reason>", the source line stripped of its indentation).

Prints a PASS line with the line and branch figures, a PASS line if every
unexecuted line is explained, else a FAIL line for each that is not, and
a FAIL line for each explained line that the suites now execute (the
list says only what is true); then "<passed> <failed>".  Every
unexecuted line, with its reason, goes to <listing>.
"""
import gzip
import json
import re
import sys


def load_gcov(path, source):
    """The gcov record of the file named like <source>."""
    with gzip.open(path, "rt") as f:
        data = json.load(f)
    for rec in data["files"]:
        if rec["file"].endswith(source.split("/drivers/", 1)[-1]):
            return rec
    sys.exit(f"coverage_report: no record of {source} in {path}")


def function_of(rec, text, num):
    """The function that holds line <num>.

    gcov knows the functions that have code of their own; for one that is
    always inlined, the nearest definition above the line names it.
    """
    inside = [fn for fn in rec["functions"]
              if fn["start_line"] <= num <= fn["end_line"]]
    if inside:
        return min(inside, key=lambda fn: fn["end_line"] - fn["start_line"])[
            "name"]
    for line in reversed(text[:num - 1]):
        m = re.match(r"(?=[A-Za-z_])(?:[\w\s*]*?[\s*])?(\w+)\(", line)
        if m and not line.rstrip().endswith(";"):
            return m.group(1)
    return "?"


def load_explained(path):
    """{(function, stripped line): reason} of the explained lines."""
    explained = {}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            fields = line.split("\t")
            if len(fields) != 3 or not all(fields):
                sys.exit(f"coverage_report: {path}:{n}: not "
                         "<function>TAB<line>TAB<reason>")
            explained[(fields[0], fields[1])] = fields[2]
    return explained


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__)
    gcov_path, source, explained_path, listing = sys.argv[1:]
    rec = load_gcov(gcov_path, source)
    with open(source) as f:
        text = f.read().split("\n")
    explained = load_explained(explained_path)

    lines = rec["lines"]
    run = sum(1 for ln in lines if ln["count"] > 0)
    branches = [b for ln in lines for b in ln["branches"]]
    taken = sum(1 for b in branches if b["count"] > 0)
    funcs = rec["functions"]
    called = sum(1 for fn in funcs if fn["execution_count"] > 0)
    print(f"PASS coverage: rw.c lines {run} of {len(lines)} "
          f"({100 * run / len(lines):.1f}%), branches {taken} of "
          f"{len(branches)} taken ({100 * taken / len(branches):.1f}%), "
          f"functions {called} of {len(funcs)}, by the UML suites")
    passed, failed = 1, 0

    used = set()
    unexplained = []
    with open(listing, "w") as out:
        for ln in lines:
            if ln["count"] > 0:
                continue
            num = ln["line_number"]
            key = (function_of(rec, text, num), text[num - 1].strip())
            reason = explained.get(key)
            if reason:
                used.add(key)
            else:
                unexplained.append((num, key))
            out.write(f"rw.c:{num}\t{key[0]}\t{key[1]}\t"
                      f"{reason or 'NOT EXPLAINED'}\n")
    missed = len(lines) - run
    if unexplained:
        for num, (func, src) in unexplained:
            print(f"FAIL coverage: rw.c:{num} ({func}) runs in no case "
                  f"and is not explained: {src}")
        failed += len(unexplained)
    else:
        print(f"PASS coverage: each of rw.c's {missed} unexecuted lines is "
              f"explained ({listing})")
        passed += 1
    for func, src in sorted(set(explained) - used):
        print(f"FAIL coverage: explained, but not an unexecuted line of "
              f"rw.c: {func}: {src}")
        failed += 1
    print(passed, failed)


if __name__ == "__main__":
    main()
