#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Join the figures of ib_core_rw_bench runs into one table.

usage: bench_table.py <machine> <round.log>...
       bench_table.py --check <log>
       bench_table.py --e2e <e2e.log>

Each case of the KUnit suite ib_core_rw_bench prints one line
"rw_bench: key=value ..." per API (api: sg, bvec, or base, the base
tree's rw.c built in beside ours; profile, dir, pages, buf; ns and
floor_ns, the medians in nanoseconds per I/O; wqes, mrs, bytes per I/O;
or error).  The APIs of a case take their timed batches in turn, in one
boot.  The first form takes the logs of one or more rounds (boots).  Per
case it keeps, for each ratio (ours/base, bvec/sg, ours/floor), the
median over the rounds of that round's ratio, and its spread, (highest -
lowest) / median, and prints a Markdown table of the sg cases, ours
against the base, then the bio_vec cases against our sg cases on the same
buffer, the targets of the benchmark, met or missed, and three summary
lines:

  bench: sg ours/base median X, worst Y, spread Z
  bench: bvec/sg median X, worst Y
  bench: floor ratio median X, worst Y

Z is the median over the sg cases of the spread of ours/base; a case
counts as slower than the base only when ours/base - 1 exceeds its
spread.  The floor ratio is ours/floor over the sg cases.  Timed figures
are reported, never failed on.

--check (make check) only parses one log, which must hold every case of
both of ours' APIs, each with its figures or the error the API returned;
it exits non-zero otherwise.

--e2e reads the lines of bench.sh e2e ("<side> <round>: PASS e2e: <user>
<run>: write <MB/s> MB/s <IOPS> IOPS, read ...") and prints, per user,
transport and direction, the median over the rounds of each side with
the spread between its rounds, and the ratio ours/base; then each user
with T10-PI beside the same user without it, ours, with their ratio.
"""
import re
import statistics
import sys

PROFILES = ["ib", "iwarp", "sgl_rd", "pi"]
DIRS = ["READ", "WRITE"]
PAGES = [1, 4, 16, 64, 256, 1024]
BUFS = ["contig", "frag"]
APIS = ["sg", "bvec"]
LINE = re.compile(r"rw_bench: (api=.*)$")


def parse(path):
    """{(api, profile, dir, pages, buf): {key: value}} of a KUnit log."""
    cases = {}
    with open(path, errors="replace") as f:
        for line in f:
            m = LINE.search(line.rstrip())
            if not m:
                continue
            fig = dict(kv.split("=", 1) for kv in m.group(1).split())
            key = (fig["api"], fig["profile"], fig["dir"], int(fig["pages"]),
                   fig["buf"])
            cases[key] = fig
    return cases


def keys(api):
    return [(api, p, d, n, b) for p in PROFILES for d in DIRS
            for n in PAGES for b in BUFS]


def check(path):
    cases = parse(path)
    bad = 0
    for api in APIS:
        for k in keys(api):
            fig = cases.get(k)
            if fig is None:
                print(f"missing: {' '.join(map(str, k))}")
                bad += 1
            elif "error" in fig:
                print(f"refused (reported, not a failure): "
                      f"{' '.join(map(str, k))}: {fig['error']}")
            elif "ns" not in fig:
                print(f"no figures: {' '.join(map(str, k))}: {fig}")
                bad += 1
    print(f"{len(cases)} cases parsed, {bad} missing or without figures")
    return 1 if bad else 0


def ns(fig):
    return float(fig["ns"]) if fig and "ns" in fig else None


def num(fig, key):
    v = fig.get(key) if fig else None
    return float(v) if v not in (None, "-") else None


def fmt(v):
    if isinstance(v, float):
        return f"{v:g}"
    return "-" if v is None else str(v)


def ratio(a, b):
    return a / b if a is not None and b else None


def fmt_ratio(r):
    return "-" if r is None else f"{r:.2f}"


def merge(rounds):
    """Per case, the figures of its first round with "ns" and "floor_ns"
    replaced by their medians over the rounds, and the list of each
    round's figures under "rounds".  A case that one round refused keeps
    the refusal."""
    cases = {}
    for key in set().union(*rounds):
        figs = [r[key] for r in rounds if key in r]
        timed = [f for f in figs if "ns" in f]
        if len(timed) < len(rounds):
            cases[key] = next((f for f in figs if "error" in f), figs[0])
            continue
        fig = dict(timed[0])
        fig["ns"] = statistics.median(float(f["ns"]) for f in timed)
        fig["floor_ns"] = statistics.median(float(f["floor_ns"])
                                            for f in timed)
        fig["rounds"] = timed
        cases[key] = fig
    return cases


def round_ratio(a, b, b_key="ns"):
    """The median over the rounds of a's ns over b's b_key, each ratio
    taken within its round, and the spread of those ratios; or None."""
    if not a or not b or "rounds" not in a or "rounds" not in b:
        return None
    ratios = [float(x["ns"]) / float(y[b_key])
              for x, y in zip(a["rounds"], b["rounds"]) if float(y[b_key])]
    return median_spread(ratios) if ratios else None


def table(paths, machine):
    cases = merge([parse(p) for p in paths])
    ours = {k: v for k, v in cases.items() if k[0] != "base"}
    base = {("sg",) + k[1:]: v for k, v in cases.items() if k[0] == "base"}
    out = []
    out.append("| profile | dir | pages | buffer | ours ns | base ns "
               "| ours/base | spread | floor ns | ours/floor "
               "| WQEs ours/base | MRs ours/base | bytes ours/base |")
    out.append("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: "
               "| ---: | ---: | ---: | ---: |")
    ratios, spreads, slower, more_wr, more_mr, missing = [], [], [], [], [], []
    floors = []
    for k in keys("sg"):
        o, b = ours.get(k), base.get(k)
        name = f"{k[1]} {k[2]} {k[3]} pages {k[4]}"
        if ns(o) is None:
            why = o.get("error") if o else "no line"
            missing.append(f"{name} (ours: {why})")
        if ns(b) is None:
            why = b.get("error") if b else "no line"
            missing.append(f"{name} (base: {why})")
        rs = round_ratio(o, b)
        fr = round_ratio(o, o, "floor_ns")
        if fr is not None:
            floors.append(fr[0])
        if rs is not None:
            r, spread = rs
            ratios.append(r)
            spreads.append(spread)
            # A ratio within what the rounds moved by is no difference
            # this run could detect.
            if r - 1 > spread:
                slower.append(f"{name} ({r:.2f}, spread {spread:.2f})")
        if None not in (num(o, "wqes"), num(b, "wqes")) and \
                num(o, "wqes") > num(b, "wqes"):
            more_wr.append(f"{name} ({o['wqes']} > {b['wqes']})")
        if None not in (num(o, "mrs"), num(b, "mrs")) and \
                num(o, "mrs") > num(b, "mrs"):
            more_mr.append(f"{name} ({o['mrs']} > {b['mrs']})")
        out.append(
            f"| {k[1]} | {k[2]} | {k[3]} | {k[4]} | {fmt(ns(o))} "
            f"| {fmt(ns(b) if b and 'ns' in b else (b or {}).get('error'))} "
            f"| {fmt_ratio(rs and rs[0])} | {fmt_ratio(rs and rs[1])} "
            f"| {fmt(num(o, 'floor_ns'))} | {fmt_ratio(fr and fr[0])} "
            f"| {fmt(num(o, 'wqes'))}/{fmt(num(b, 'wqes'))} "
            f"| {fmt(num(o, 'mrs'))}/{fmt(num(b, 'mrs'))} "
            f"| {fmt(num(o, 'bytes'))}/{fmt(num(b, 'bytes'))} |")

    out.append("")
    out.append("bio_vec API (ours), against ours' sg API on the same buffer:")
    out.append("")
    out.append("| profile | dir | pages | buffer | bvec ns | bvec/sg "
               "| spread | floor ns | WQEs bvec/sg | MRs bvec/sg "
               "| bytes bvec/sg |")
    out.append("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: "
               "| ---: | ---: |")
    bv_ratios = []
    for k in keys("bvec"):
        v, s = ours.get(k), ours.get(("sg",) + k[1:])
        rs = round_ratio(v, s)
        if rs is not None:
            bv_ratios.append(rs[0])
        else:
            missing.append(f"bvec {' '.join(map(str, k[1:]))}")
        out.append(
            f"| {k[1]} | {k[2]} | {k[3]} | {k[4]} "
            f"| {fmt(ns(v) if v and 'ns' in v else (v or {}).get('error'))} "
            f"| {fmt_ratio(rs and rs[0])} | {fmt_ratio(rs and rs[1])} "
            f"| {fmt(num(v, 'floor_ns'))} "
            f"| {fmt(num(v, 'wqes'))}/{fmt(num(s, 'wqes'))} "
            f"| {fmt(num(v, 'mrs'))}/{fmt(num(s, 'mrs'))} "
            f"| {fmt(num(v, 'bytes'))}/{fmt(num(s, 'bytes'))} |")

    def verdict(ok):
        return "met" if ok else "MISSED"

    def worst(values):
        return max(values) if values else float("nan")

    def med(values):
        return statistics.median(values) if values else float("nan")

    first = next(iter(ours.values()), {})
    out.append("")
    out.append(f"Machine: {machine}.  {len(paths)} rounds (boots); in each, "
               f"per case and API the median of {first.get('batches', '?')} "
               f"batches of {first.get('batch', '?')} I/Os, the APIs and "
               "the floor taking their batches in turn.  A ratio is the "
               "median over the rounds of the ratio within each round; "
               "spread: (highest - lowest) / median of those.")
    out.append("")
    out.append(f"- target, ours/base median at most 0.83: "
               f"{verdict(med(ratios) <= 0.83)}")
    out.append(f"- target, no case slower than the base beyond its spread: "
               f"{verdict(not slower)}"
               + (f"; {len(slower)} slower: " + ", ".join(slower)
                  if slower else ""))
    bv_ok = med(bv_ratios) <= 1.15 and worst(bv_ratios) <= 1.5
    out.append(f"- target, bvec/sg median at most 1.15 and worst at most "
               f"1.5: {verdict(bv_ok)}")
    out.append(f"- target, never more WQEs per I/O: {verdict(not more_wr)}"
               + (": " + ", ".join(more_wr) if more_wr else ""))
    out.append(f"- target, never more MRs per I/O: {verdict(not more_mr)}"
               + (": " + ", ".join(more_mr) if more_mr else ""))
    if missing:
        out.append(f"- cases without a figure: {len(missing)}: "
                   + ", ".join(missing))
    out.append("")
    out.append(f"bench: sg ours/base median {med(ratios):.2f}, worst "
               f"{worst(ratios):.2f}, spread {med(spreads):.2f}")
    out.append(f"bench: bvec/sg median {med(bv_ratios):.2f}, worst "
               f"{worst(bv_ratios):.2f}")
    out.append(f"bench: floor ratio median {med(floors):.2f}, worst "
               f"{worst(floors):.2f}")
    print("\n".join(out))
    return 0


E2E = re.compile(r"^(ours|base) (\d+): (PASS|FAIL) e2e: ([^:]+): (.*)$")
FIO = re.compile(r"(write|read) ([\d.]+) MB/s (\d+) IOPS")


def median_spread(values):
    """The median of values and their range relative to it."""
    med = statistics.median(values)
    return med, (max(values) - min(values)) / med if med else 0.0


def e2e(path):
    figs, failed = {}, []
    with open(path) as f:
        for line in f:
            m = E2E.match(line.strip())
            if not m:
                continue
            side, rnd, verdict, run, rest = m.groups()
            if verdict != "PASS":
                failed.append(f"{side} round {rnd} {run}")
                continue
            for op, mbs, iops in FIO.findall(rest):
                figs.setdefault((run, op, side), []).append(
                    (float(mbs), int(iops)))
    print("| user and transport | I/O | ours MB/s | spread | base MB/s "
          "| spread | ours/base | ours IOPS | base IOPS | rounds |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
          "| ---: |")
    for run in sorted({k[0] for k in figs}):
        for op in ("write", "read"):
            o = figs.get((run, op, "ours"), [])
            b = figs.get((run, op, "base"), [])
            if not o or not b:
                continue
            om, os_ = median_spread([x[0] for x in o])
            bm, bs = median_spread([x[0] for x in b])
            oi = statistics.median(x[1] for x in o)
            bi = statistics.median(x[1] for x in b)
            print(f"| {run} | {op} | {om:.1f} | {os_:.0%} | {bm:.1f} "
                  f"| {bs:.0%} | {om / bm:.2f} | {oi:.0f} | {bi:.0f} "
                  f"| {len(o)}/{len(b)} |")
    print("\nspread: (highest - lowest) / median of a side's rounds; a "
          "ratio ours/base\nwithin the larger spread is no difference "
          "the run could detect.")
    pi_table(figs)
    if failed:
        print(f"\nFailed runs: {', '.join(failed)}")
    return 1 if failed else 0


def pi_table(figs):
    """Each user with PI (nvmet-pi, isert-pi...) beside the same user
    without PI (nvmet, isert) on the same transport, ours, medians."""
    ratios = []
    print("\n| user with PI | I/O | MB/s | spread | without PI | spread "
          "| PI/no PI |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    for run in sorted({k[0] for k in figs}):
        user, transport = run.split(" ", 1)
        if "-pi" not in user:
            continue
        plain = f"{user.split('-pi')[0]} {transport}"
        for op in ("write", "read"):
            p = figs.get((run, op, "ours"), [])
            q = figs.get((plain, op, "ours"), [])
            if not p or not q:
                continue
            pm, ps = median_spread([x[0] for x in p])
            qm, qs = median_spread([x[0] for x in q])
            ratios.append(pm / qm)
            print(f"| {run} | {op} | {pm:.1f} | {ps:.0%} | {qm:.1f} "
                  f"| {qs:.0%} | {pm / qm:.2f} |")
    if ratios:
        print("\nThe users without PI run on null_blk, those with PI on a "
              "scsi_debug disk\nthat checks PI itself, under a host block "
              "layer that generates and\nverifies it.")
        print(f"bench: PI/no PI median {statistics.median(ratios):.2f}, "
              f"worst {min(ratios):.2f} (target 0.50)")


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        return check(sys.argv[2])
    if len(sys.argv) == 3 and sys.argv[1] == "--e2e":
        return e2e(sys.argv[2])
    if len(sys.argv) >= 3 and not sys.argv[1].startswith("--"):
        return table(sys.argv[2:], sys.argv[1])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
