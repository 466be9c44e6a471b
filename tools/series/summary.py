#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The summary of a make check run, and the tested section of a cover letter.

  summary.py <logs> <repo> <linux> <passed> <failed>
      print the summary of the run whose verdict lines are <logs>/results.txt
      and whose stage times are <logs>/times.txt: totals, the cases of each
      KUnit suite, the runs of each .kunitconfig alone as a kernel CI
      makes them, the e2e runs, rw.c's size and coverage and each
      stage's time.
      check.sh writes it to <logs>/summary.txt after every stage.
  summary.py --tested <summary>
      print what a cover letter says it was tested with, from a summary:
      format.sh puts it where the letter has a line "@TESTED@".
  summary.py --rw-limit
      print the most lines rw.c may have, mainline's: check.sh's lint
      stage holds rw.c to it.

Every figure of README and the cover letters that a tool can print comes
from here, so that none is written by hand.
"""
import collections
import functools
import os
import re
import subprocess
import sys
import textwrap

# Mainline's rw.c (torvalds/linux at 00da250c), the size ours answers to.
MAINLINE_RW_LINES = 1189

SUITE = re.compile(r"^(PASS|FAIL) (kunit|bench) (x86_64 )?(\S+): "
                   r"(\d+) cases, (\d+) skipped, (\d+) failed$")
E2E = re.compile(r"^(PASS|FAIL) e2e: (\S+) (\S+):")
KUNITCONFIG = re.compile(r"^(PASS|FAIL) kunit\.py (--kunitconfig=\S+: .*)$")


def read_lines(path):
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        return []


def suites(lines):
    """{suite: {arch: (cases, skipped, failed)}} in the order they ran."""
    out = collections.OrderedDict()
    for line in lines:
        m = SUITE.match(line)
        if m:
            arch = "x86_64" if m[3] else "um"
            out.setdefault(m[4], {})[arch] = tuple(map(int, m.group(5, 6, 7)))
    return out


def e2e_runs(lines):
    """[(verdict, user, transport)] of the e2e guests."""
    return [m.group(1, 2, 3) for m in map(E2E.match, lines) if m]


def stage_times(logs):
    """[(stage, seconds)] in the order the stages ran."""
    times = []
    for line in read_lines(os.path.join(logs, "times.txt")):
        secs, _, name = line.partition(" ")
        if name.startswith("stage "):
            times.append((name[6:], int(secs)))
    return times


def write_summary(logs, repo, linux, passed, failed):
    lines = read_lines(os.path.join(logs, "results.txt"))
    version = subprocess.run(["make", "-s", "-C", linux, "kernelversion"],
                             capture_output=True, text=True).stdout.strip()
    with open(os.path.join(repo, "tools/series/series")) as f:
        patches = sum(line.startswith("patch ") for line in f)
    with open(os.path.join(repo, "drivers/infiniband/core/rw.c")) as f:
        rw_lines = sum(1 for _ in f)
    skipped = sum(line.startswith("SKIP ") for line in lines)
    print(f"tree: Linux {version} + {patches} patches")
    print(f"result: {passed} passed, {failed} failed, {skipped} skipped")
    print(f"rw.c: {rw_lines} lines (mainline's: {MAINLINE_RW_LINES})")
    for name, archs in suites(lines).items():
        counts = "; ".join(f"{arch} {c} cases, {s} skipped, {f} failed"
                           for arch, (c, s, f) in archs.items())
        print(f"suite {name}: {counts}")
    for m in filter(None, map(KUNITCONFIG.match, lines)):
        print(f"kernel CI: {m[1]} {m[2]}")
    runs = e2e_runs(lines)
    if runs:
        bad = [f"{u} {t}" for v, u, t in runs if v != "PASS"]
        print(f"e2e: {len(runs)} guest runs, {len(runs) - len(bad)} passed"
              + (f", failed: {', '.join(bad)}" if bad else ""))
    for line in lines:
        if line.startswith("PASS coverage: rw.c lines "):
            print(f"coverage: {line[len('PASS coverage: '):]}")
    for stage, secs in stage_times(logs):
        print(f"stage {stage}: {secs} s")


def print_wrapped(first, rest, text):
    print(textwrap.fill(text, 72, initial_indent=first,
                        subsequent_indent=rest, break_on_hyphens=False))


def field(summary, key):
    return [line.split(": ", 1)[1] for line in summary
            if line.startswith(key + ": ")]


def tested(path):
    """The cover letter's tested section, from a summary file."""
    summary = read_lines(path)
    if not summary:
        sys.exit(f"summary: no {path}: run make check first")
    say = functools.partial(print_wrapped, "  - ", "    ")
    print_wrapped("", "", f"make check on {field(summary, 'tree')[0]}: "
                  f"{field(summary, 'result')[0]}:")
    by_arch = collections.defaultdict(list)
    for line in summary:
        if not line.startswith("suite "):
            continue
        name, _, counts = line[6:].partition(": ")
        for part in counts.split("; "):
            arch, cases = part.split(" ", 2)[:2]
            by_arch[arch].append(f"{name} ({cases})")
    for arch, label in (("um", "ARCH=um"), ("x86_64", "x86_64 under QEMU")):
        if by_arch[arch]:
            say(f"KUnit, {label}: {', '.join(by_arch[arch])} cases;")
    for line in field(summary, "e2e"):
        say(f"the selftests in UML guests: {line}.")
    for line in field(summary, "coverage"):
        say(f"gcov: {line}.")


def main():
    if sys.argv[1] == "--tested":
        tested(sys.argv[2])
    elif sys.argv[1] == "--rw-limit":
        print(MAINLINE_RW_LINES)
    else:
        write_summary(*sys.argv[1:4], int(sys.argv[4]), int(sys.argv[5]))


if __name__ == "__main__":
    main()
