#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Join the figures of two ib_core_rw_bench runs into one table.

usage: bench_table.py <ours.log> <base.log> [machine]
       bench_table.py --check <log>
       bench_table.py --e2e <e2e.log>

Each case of the KUnit suite ib_core_rw_bench prints one line
"rw_bench: key=value ..." (api, profile, dir, pages, buf; ns and floor_ns,
the medians in nanoseconds per I/O; wqes, mrs, bytes per I/O; or error).
The first form prints a Markdown table of the sg cases, ours against the
base tree's rw.c with the ratio ours/base, then the bio_vec cases (ours
only) and the targets of the benchmark, met or missed: ours at or below
base in every case and at least 1.2x faster as the median, never more
WQEs or MRs per I/O, within 2x of the floor.  Timed figures are reported,
never failed on.

--check (make check) only parses one log, which must hold every case of
both APIs, each with its figures or the error the API returned; it exits
non-zero otherwise.

--e2e reads the lines of bench.sh e2e ("<side> <round>: PASS e2e: <user>
<run>: write <MB/s> MB/s <IOPS> IOPS, read ...") and prints, per user,
transport and direction, the median over the rounds of each side with
the spread between its rounds, and the ratio ours/base.
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


def table(ours_path, base_path, machine):
    ours, base = parse(ours_path), parse(base_path)
    out = []
    out.append("| profile | dir | pages | buffer | ours ns | base ns "
               "| ours/base | ours floor ns | ours/floor | base floor ns "
               "| WQEs ours/base | MRs ours/base | bytes ours/base |")
    out.append("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: "
               "| ---: | ---: | ---: | ---: |")
    ratios, slower, more_wr, more_mr, far, missing = [], [], [], [], [], []
    for k in keys("sg"):
        o, b = ours.get(k), base.get(k)
        name = f"{k[1]} {k[2]} {k[3]} pages {k[4]}"
        if ns(o) is None:
            missing.append(f"{name} (ours: {o.get('error') if o else 'no line'})")
        if ns(b) is None:
            missing.append(f"{name} (base: {b.get('error') if b else 'no line'})")
        r = ratio(ns(o), ns(b))
        fr = ratio(ns(o), num(o, "floor_ns"))
        if r is not None:
            ratios.append(r)
            if ns(o) > ns(b):
                slower.append(f"{name} ({r:.2f})")
        if None not in (num(o, "wqes"), num(b, "wqes")) and \
                num(o, "wqes") > num(b, "wqes"):
            more_wr.append(f"{name} ({o['wqes']} > {b['wqes']})")
        if None not in (num(o, "mrs"), num(b, "mrs")) and \
                num(o, "mrs") > num(b, "mrs"):
            more_mr.append(f"{name} ({o['mrs']} > {b['mrs']})")
        if fr is not None and fr > 2:
            far.append(f"{name} ({fr:.2f})")
        out.append(
            f"| {k[1]} | {k[2]} | {k[3]} | {k[4]} | {fmt(ns(o))} "
            f"| {fmt(ns(b) if b and 'ns' in b else (b or {}).get('error'))} "
            f"| {fmt_ratio(r)} | {fmt(num(o, 'floor_ns'))} | {fmt_ratio(fr)} "
            f"| {fmt(num(b, 'floor_ns'))} "
            f"| {fmt(num(o, 'wqes'))}/{fmt(num(b, 'wqes'))} "
            f"| {fmt(num(o, 'mrs'))}/{fmt(num(b, 'mrs'))} "
            f"| {fmt(num(o, 'bytes'))}/{fmt(num(b, 'bytes'))} |")

    out.append("")
    out.append("bio_vec API (ours only; ratio against ours' sg case and "
               "against base's sg case):")
    out.append("")
    out.append("| profile | dir | pages | buffer | bvec ns | bvec/ours sg "
               "| bvec/base sg | floor ns | WQEs | MRs | bytes |")
    out.append("| --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: "
               "| ---: | ---: |")
    bv_ratios = []
    for k in keys("bvec"):
        v = ours.get(k)
        sk = ("sg",) + k[1:]
        rb = ratio(ns(v), ns(base.get(sk)))
        if rb is not None:
            bv_ratios.append(rb)
        out.append(
            f"| {k[1]} | {k[2]} | {k[3]} | {k[4]} "
            f"| {fmt(ns(v) if v and 'ns' in v else (v or {}).get('error'))} "
            f"| {fmt_ratio(ratio(ns(v), ns(ours.get(sk))))} "
            f"| {fmt_ratio(rb)} | {fmt(num(v, 'floor_ns'))} "
            f"| {fmt(num(v, 'wqes'))} | {fmt(num(v, 'mrs'))} "
            f"| {fmt(num(v, 'bytes'))} |")

    def verdict(ok):
        return "met" if ok else "MISSED"

    n = len(keys("sg"))
    out.append("")
    out.append(f"Machine: {machine}.  Medians of "
               f"{next(iter(ours.values()), {}).get('batches', '?')} batches "
               f"of {next(iter(ours.values()), {}).get('batch', '?')} I/Os "
               "per case.")
    out.append("")
    if ratios:
        med = statistics.median(ratios)
        out.append(f"- ours/base over {len(ratios)} sg cases: median "
                   f"{med:.2f} ({1 / med:.2f}x faster), best "
                   f"{min(ratios):.2f}, worst {max(ratios):.2f}")
        out.append(f"- target, ours at or below base in every case: "
                   f"{verdict(not slower)}"
                   + (f"; slower in {len(slower)}: " + ", ".join(slower)
                      if slower else ""))
        out.append(f"- target, at least 1.2x faster as the median: "
                   f"{verdict(1 / med >= 1.2)} ({1 / med:.2f}x)")
    if bv_ratios:
        out.append(f"- bio_vec API against base's sg API: median "
                   f"{statistics.median(bv_ratios):.2f}")
    out.append(f"- target, never more WQEs per I/O: {verdict(not more_wr)}"
               + (": " + ", ".join(more_wr) if more_wr else ""))
    out.append(f"- target, never more MRs per I/O: {verdict(not more_mr)}"
               + (": " + ", ".join(more_mr) if more_mr else ""))
    floors = [ratio(ns(ours.get(k)), num(ours.get(k), "floor_ns"))
              for k in keys("sg")]
    floors = [f for f in floors if f is not None]
    if floors:
        out.append(f"- target, within 2x of the floor: {verdict(not far)} "
                   f"(ours/floor median {statistics.median(floors):.2f}, "
                   f"worst {max(floors):.2f})"
                   + (f"; above 2x in {len(far)}: " + ", ".join(far)
                      if far else ""))
    if missing or len(ratios) != n:
        out.append(f"- cases without a figure: {len(missing)}"
                   + (": " + ", ".join(missing) if missing else ""))
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
            o, b = figs.get((run, op, "ours"), []), figs.get((run, op, "base"), [])
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
    if failed:
        print(f"\nFailed runs: {', '.join(failed)}")
    return 1 if failed else 0


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--check":
        return check(sys.argv[2])
    if len(sys.argv) == 3 and sys.argv[1] == "--e2e":
        return e2e(sys.argv[2])
    if len(sys.argv) in (3, 4):
        machine = sys.argv[3] if len(sys.argv) == 4 else "unknown"
        return table(sys.argv[1], sys.argv[2], machine)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
