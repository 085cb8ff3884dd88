#!/usr/bin/env python3
"""Prints the per-size benchmark's table from bench/cpu/sizes.sh's raw lines.

usage: sizes_table.py RESULTS OUTDIR
RESULTS holds the CPU / TUNE / BENCH lines sizes.sh wrote; OUTDIR holds the
tuning records it copied (laplacian_sized.json, laplacian_single.json when
SINGLE was set). Which variant a call ran is read from the record: the tuned
size whose range of working sets ("calls_from_bytes", "calls_up_to_bytes")
holds the call's, as the library's dispatcher picks it, and that size's
default choice.
"""
import json
import os
import shlex
import sys


def fields(line):
    out = {}
    for tok in shlex.split(line)[1:]:
        if "=" in tok:
            key, value = tok.split("=", 1)
            out[key] = value
    return out


def variant_for(kernel, n):
    """The tuned size and choice a call at n^3 runs, from the record."""
    facts = kernel["facts"]
    ws = (facts["read_bytes_per_point"] + facts["write_bytes_per_point"]) * float(n) ** 3
    sizes = kernel.get("sizes")
    if not sizes:  # one size: no dispatch
        return "x".join(map(str, kernel.get("tune_size", []))), kernel["chosen"]["default"]
    for s in sizes:
        lo, hi = s.get("calls_from_bytes"), s.get("calls_up_to_bytes")
        if (lo is None or ws > lo) and (hi is None or ws <= hi):
            return "x".join(map(str, s["extents"])), s["chosen"]["default"]
    return "?", "?"


def main():
    results, outdir = sys.argv[1], sys.argv[2]
    cpu, tunes, bench = {}, [], {}
    with open(results) as f:
        for line in f:
            if line.startswith("CPU "):
                cpu = fields(line)
            elif line.startswith("TUNE "):
                tunes.append(fields(line))
            elif line.startswith("BENCH "):
                b = fields(line)
                bench.setdefault((int(b["n"]), b["label"]), []).append(b)
    records = {}
    for label in ("sized", "single"):
        path = os.path.join(outdir, "laplacian_%s.json" % label)
        if os.path.exists(path):
            with open(path) as f:
                records[label] = json.load(f)["kernels"][0]

    print("Per-size variants (issue 13): Laplacian, %s" % cpu.get("date", ""))
    print("host: %s; %s cores, %s CPUs, L3 %s; f2stencil %s" % (
        cpu.get("model", "?"), cpu.get("cores", "?"), cpu.get("cpus", "?"), cpu.get("l3", "?"),
        cpu.get("f2stencil", "?")))
    for t in tunes:
        print("tuned %s at %s: exit %s, %s s (reps %s, budget %s s per size)" % (
            t["label"], t["sizes"], t["rc"], t["wall_s"], t["reps"], t["budget"]))
    print()
    single = "single" in records
    head = "%6s %12s %12s %7s" % ("size", "OpenMP ms", "f2s ms", "ratio")
    if single:
        head += " %12s %7s" % ("1-size ms", "ratio")

    def median(values):
        v = sorted(values)
        return v[len(v) // 2] if len(v) % 2 else 0.5 * (v[len(v) // 2 - 1] + v[len(v) // 2])

    def seconds(runs):
        return median([float(b["median_s"]) for b in runs])

    def spread(omp, lib):
        """The lowest and highest ratio of one round's two processes."""
        by_round = {b.get("round", "1"): float(b["median_s"]) for b in lib}
        r = [float(o["median_s"]) / by_round[o.get("round", "1")] for o in omp
             if o.get("round", "1") in by_round]
        return "%.2f-%.2f" % (min(r), max(r)) if r else "-"

    rounds = max((len(v) for v in bench.values()), default=0)
    head += " %11s" % "per round"
    print(head + " %8s  %s" % ("checksum", "variant run (tuned size: choice)"))
    for n in sorted({n for n, _ in bench}):
        omp, sized = bench.get((n, "omp")), bench.get((n, "sized"))
        if not omp or not sized:
            print("%6d  missing: %s" % (n, "omp" if not omp else "f2s"))
            continue
        t_omp, t_f2s = seconds(omp), seconds(sized)
        same = "ok" if all(abs(float(o["checksum"]) - float(s["checksum"])) <=
                           1e-9 * abs(float(o["checksum"])) for o in omp for s in sized) \
            else "DIFFERS"
        at, choice = variant_for(records["sized"], n) if "sized" in records else ("?", "?")
        row = "%5d³ %12.3f %12.3f %6.2f×" % (n, t_omp * 1e3, t_f2s * 1e3, t_omp / t_f2s)
        one = bench.get((n, "single"))
        if single:
            row += (" %12.3f %6.2f×" % (seconds(one) * 1e3, t_omp / seconds(one))
                    if one else " %12s %7s" % ("-", "-"))
        print(row + " %11s %8s  %s: %s" % (spread(omp, sized), same, at, choice))
    print()
    print("ratio: OpenMP time / f2stencil time (above 1: the library is faster), each time the "
          "median over %d round(s) of one process's median call (reps in the raw lines); per "
          "round: the lowest and highest ratio of one round's two processes. 1-size: the "
          "library tuned at SINGLE alone, as before per-size variants. checksum: the f2stencil "
          "output's against OpenMP's." % rounds)


if __name__ == "__main__":
    main()
