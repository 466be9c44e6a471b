#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Judge the suites' results on the base tree's rw.c (base-rw.sh).

Usage: base_results.py base|fixed|verbs|verbs-fixed|verbs-stable
       <failures list> <kernel>=<json>...

Every test case that ran (a skipped one did not) counts; the benchmark
suites' cases do not: they measure the base, and a refusal of theirs is
a figure of make bench's table, not a bug the fixes mend.  "base": the cases
that failed must be exactly those the list names for that kernel, each
an upstream bug with its fix; prints "PASS kunit-base: N cases, K fail
on the base rw.c, all K listed", or FAIL lines for every unlisted
failure and every listed case that passed or did not run.  "fixed": with
the fixes applied every case must pass, the listed ones too; prints
"PASS kunit-fixed: N cases, the K listed pass" or the FAIL lines.
"verbs": as "base", for the irdma suites on the base tree's verbs.c
(base-irdma.sh), whose JSON comes as "x86_64=<json>", and ours as
"ours=<json>": a case counts if it ran on both, and one of ours that did
not run on the base (its kernel went down before it) fails; prints
"PASS irdma differential: N cases, K fail on the base verbs.c, all K
listed".  "verbs-fixed": the same suites on the base verbs.c with the
irdma fixes (base-irdma.sh fixed), JSON and "ours" as for "verbs": every
case the list calls an upstream bug must pass, and every other listed
case must still fail as it does on the base, since a minimal fix changes
nothing but its bug and a listed difference that passes means a fix
reached further or the list is stale; an unlisted case must pass, as it
does on the base; prints "PASS irdma fixed: N cases, the B upstream bugs
pass, the D other listed differences still fail".  "verbs-stable": the
same with the backports of mainline's fixes to 6.12.y (base-irdma.sh
stable), for the cases the list calls a backported upstream bug.
Last line: "<passed> <failed>" for check.sh's tally.
Under each unlisted failure go the first lines the case printed, from
the kernel log beside its JSON file (the same name, ending .log), so that
a CI log says why.
"""
import json
import sys

from kunit_results import cases


def results(specs, only=""):
    """{(kernel, suite.case): status} of every case that ran, of the
    suites whose names start with @only."""
    ran, missing = {}, []
    for spec in specs:
        kernel, path = spec.split("=", 1)
        try:
            with open(path) as f:
                root = json.load(f)
        except (OSError, ValueError):
            missing.append(f"{kernel} {path}")
            continue
        for suite in root["sub_groups"]:
            if (suite["name"].endswith("_bench") or
                    not suite["name"].startswith(only)):
                continue
            for name, status in cases(suite, suite["name"] + "."):
                if status != "SKIP":
                    ran[(kernel, name)] = status
    return ran, missing


def why(logs, name, lines=6):
    """The first lines case @name ("suite.case[.param]") printed."""
    prefix = f"# {name.split('.')[1]}: "
    for path in logs:
        try:
            with open(path, errors="replace") as f:
                text = f.read().splitlines()
        except OSError:
            continue
        for i, line in enumerate(text):
            if line.strip().startswith(prefix):
                return [f"    {t.strip()}" for t in text[i:i + lines]]
    return []


def listed(path):
    """{(kernel, suite.case): (bug, fix)} of the list's lines."""
    out = {}
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            kernel, name, bug, fix = line.rstrip("\n").split("\t")
            out[(kernel, name)] = (bug, fix)
    return out


def main():
    mode, known = sys.argv[1], listed(sys.argv[2])
    specs = [s for s in sys.argv[3:] if not s.startswith("ours=")]
    ours = [s for s in sys.argv[3:] if s.startswith("ours=")]
    check, file, only = {"verbs": ("irdma differential", "verbs.c", "irdma"),
                         "verbs-fixed": ("irdma fixed", "verbs.c", "irdma"),
                         "verbs-stable": ("irdma stable", "verbs.c", "irdma"),
                         }.get(mode, (f"kunit-{mode}", "rw.c", ""))
    ran, missing = results(specs, only)
    bad = [f"FAIL {check}: no results in {m}" for m in missing]
    if ours:
        mine, gone = results(ours, only)
        bad += [f"FAIL {check}: no results in {m}" for m in gone]
        base = {n for _, n in ran}
        bad += [f"FAIL {check}: {n}: did not run on the base"
                for _, n in sorted(mine) if n not in base]
        ran = {(k, n): s for (k, n), s in ran.items()
               if ("ours", n) in mine}
    failed = {k for k, s in ran.items() if s != "PASS"}
    if mode in ("base", "verbs"):
        for k, n in sorted(failed - known.keys()):
            bad.append(f"FAIL {check}: {k} {n}: fails, not listed")
            bad += why([p.split("=", 1)[1][:-len(".json")] + ".log"
                        for p in specs if p.startswith(k + "=")], n)
        bad += [f"FAIL {check}: {k} {n}: listed, but "
                f"{'passed' if (k, n) in ran else 'did not run'}"
                for k, n in sorted(known.keys() - failed)]
        summary = (f"{len(ran)} cases, {len(failed)} fail on the base "
                   f"{file}, all {len(known)} listed")
    elif mode in ("verbs-fixed", "verbs-stable"):
        label = ("upstream bug" if mode == "verbs-fixed"
                 else "backported upstream bug")
        bugs = {k for k, (bug, _) in known.items() if bug.startswith(label)}
        others = known.keys() - bugs
        logs = [p.split("=", 1)[1][:-len(".json")] + ".log" for p in specs]
        for k, n in sorted(failed & bugs):
            bad.append(f"FAIL {check}: {k} {n}: {label}, "
                       f"{ran[(k, n)]} with the fixes")
            bad += why(logs, n)
        for k, n in sorted(failed - known.keys()):
            bad.append(f"FAIL {check}: {k} {n}: fails, not listed")
            bad += why(logs, n)
        bad += [f"FAIL {check}: {k} {n}: listed, not a bug, but passed "
                f"with the fixes"
                for k, n in sorted(others & (ran.keys() - failed))]
        bad += [f"FAIL {check}: {k} {n}: listed, did not run"
                for k, n in sorted(known.keys() - ran.keys())]
        if bad:
            summary = (f"{len(ran)} cases, "
                       f"{len(bugs & (ran.keys() - failed))} of {len(bugs)} "
                       f"{label}s pass, {len(others & failed)} of "
                       f"{len(others)} other listed differences still fail")
        else:
            summary = (f"{len(ran)} cases, the {len(bugs)} {label}s "
                       f"pass, the {len(others)} other listed differences "
                       f"still fail")
    else:
        bad += [f"FAIL kunit-fixed: {k} {n}: {ran[(k, n)]}"
                for k, n in sorted(failed)]
        bad += [f"FAIL kunit-fixed: {k} {n}: listed, did not run"
                for k, n in sorted(known.keys() - ran.keys())]
        summary = f"{len(ran)} cases, the {len(known)} listed pass"
    print(f"{'FAIL' if bad or not ran else 'PASS'} {check}: {summary}")
    for line in bad:
        print(line)
    ok = not bad and ran
    print(1 if ok else 0, 0 if ok else 1)


if __name__ == "__main__":
    main()
