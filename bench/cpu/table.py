#!/usr/bin/env python3
"""Prints the CPU benchmark's table from device.sh's raw lines.

usage: table.py RESULTS WORKDIR
RESULTS holds the CPU / STREAM / TUNE / BENCH lines device.sh wrote; WORKDIR
holds the libraries f2stencil built there (tuned/K/f2s_K.json, notune/K/...),
whose records give each kernel's flops and compulsory bytes per point
(kernels[].facts). GB/s counts compulsory traffic without write-allocate, as
STREAM counts its own. The bound is STREAM triad bandwidth times the kernel's
arithmetic intensity, with and without write-allocate traffic.
"""
import json
import os
import shlex
import statistics
import sys

KERNELS = ["laplacian", "divergence", "gradient"]
LABELS = ["serial", "omp", "notune", "tuned"]


def fields(line):
    out = {}
    for tok in shlex.split(line)[1:]:
        if "=" in tok:
            key, value = tok.split("=", 1)
            out[key] = value
    return out


def load(results):
    cpu, stream, tune, bench = {}, {}, {}, {}
    with open(results) as f:
        for line in f:
            if line.startswith("CPU "):
                cpu = fields(line)
            elif line.startswith("STREAM "):
                stream = fields(line)
            elif line.startswith("TUNE "):
                t = fields(line)
                tune[t["kernel"]] = t
            elif line.startswith("TUNE_LARGE "):
                t = fields(line)
                tune["large/" + t["kernel"]] = t
            elif line.startswith("BENCH "):
                b = fields(line)
                bench[(b["kernel"], int(b["n"]), b["label"])] = b
    return cpu, stream, tune, bench


def record(work, kernel):
    for kind in ("tuned", "notune"):
        path = os.path.join(work, kind, kernel, "f2s_%s.json" % kernel)
        if os.path.exists(path):
            with open(path) as f:
                return kind, json.load(f)["kernels"][0]
    return None, None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    cpu, stream, tune, bench = load(sys.argv[1])
    work = sys.argv[2]
    triad = float(stream.get("triad_gbs", "nan"))
    copy = float(stream.get("copy_gbs", "nan"))

    print()
    print("CPU benchmark (issue 3), %s" % cpu.get("date", "?"))
    print("host: %s; %s socket(s), %s cores, %s CPUs, %s NUMA node(s), L3 %s; gcc %s;"
          " f2stencil %s" % (cpu.get("model", "?"), cpu.get("sockets", "?"), cpu.get("cores", "?"),
                             cpu.get("cpus", "?"), cpu.get("numa", "?"), cpu.get("l3", "?"),
                             cpu.get("gcc", "?"), cpu.get("f2stencil", "?")))
    print("STREAM (%s threads, %s doubles/array, best of 10): copy %.1f GB/s, triad %.1f GB/s;"
          " the bound uses triad" % (stream.get("threads", "?"), stream.get("n", "?"), copy, triad))

    facts = {}
    for k in KERNELS:
        kind, rec = record(work, k)
        if rec is None:
            continue
        f = rec["facts"]
        t = tune.get(k, {})
        facts[k] = f
        line = "%-10s %2d flops, %3d B/point compulsory (+%d write-allocate)" % (
            k, f["flops_per_point"], f["read_bytes_per_point"] + f["write_bytes_per_point"],
            f["write_allocate_bytes_per_point"])
        if kind == "tuned":
            search = rec.get("search", {})
            line += "; tuned at %s with --reps %s in %s s (f2stencil rc %s, budget %s): %s" % (
                "x".join(str(e) for e in rec.get("extents", [])), t.get("reps", "?"),
                t.get("wall_s", "?"), t.get("rc", "?"), t.get("budget", "none"),
                rec.get("winner"))
            if "enumerated" in search:
                line += " [%s enumerated, %s measured]" % (search["enumerated"],
                                                          search.get("measured", "?"))
        else:
            line += "; NOT tuned (f2stencil rc %s after %s s)" % (t.get("rc", "?"),
                                                                   t.get("wall_s", "?"))
        print(line)

    print()
    head = ("%-10s %4s | %-13s | %-13s | %-13s | %-13s | %-13s | %5s %6s %6s" %
            ("kernel", "n", "serial", "omp", "f2s untuned", "f2s tuned",
             "bound noWA/WA", "t/omp", "t/ser", "t/bnd"))
    print(head)
    print("%-10s %4s | %-13s | %-13s | %-13s | %-13s | %-13s |" %
          ("", "", *(["GF/s  GB/s"] * 4), "GF/s   GF/s"))
    print("-" * len(head))
    summary = []
    for n in sorted({key[1] for key in bench}):
        for k in KERNELS:
            if k not in facts:
                continue
            f = facts[k]
            flops = f["flops_per_point"]
            nbytes = f["read_bytes_per_point"] + f["write_bytes_per_point"]
            wa = nbytes + f["write_allocate_bytes_per_point"]
            pts = float(n) ** 3
            gf, cells, sums = {}, [], {}
            for label in LABELS:
                b = bench.get((k, n, label))
                try:
                    t = float(b["median_s"])
                except (TypeError, KeyError, ValueError):
                    cells.append("%-13s" % "n/a")
                    continue
                gf[label] = flops * pts / t * 1e-9
                sums[label] = float(b["checksum"])
                cells.append("%6.2f %6.1f" % (gf[label], nbytes * pts / t * 1e-9))
            bound = triad * flops / nbytes
            bound_wa = triad * flops / wa
            ratio = lambda a, b: ("%.2f" % (gf[a] / gf[b])) if a in gf and b in gf else "n/a"
            tb = ("%.0f%%" % (100 * gf["tuned"] / bound)) if "tuned" in gf else "n/a"
            print("%-10s %4d | %s | %s | %s | %s | %6.2f %6.2f | %5s %6s %6s" %
                  (k, n, *cells, bound, bound_wa, ratio("tuned", "omp"), ratio("tuned", "serial"),
                   tb))
            ref = sums.get("serial")
            for label, s in sums.items():
                if ref is not None and abs(s - ref) > 1e-9 * abs(ref):
                    print("  WARNING: %s checksum %.15e differs from serial %.15e" % (label, s, ref))
            summary.append((k, n, gf, bound))
    print("-" * len(head))
    print("GF/s from each kernel's flops per point; GB/s from its compulsory bytes (no write-"
          "allocate);\nmedian of the timed calls after one warm-up; t/omp, t/ser: tuned over "
          "OpenMP and over serial;\nt/bnd: tuned over the no-write-allocate bound.")

    for (k, n, label), b in sorted(bench.items()):
        if label != "tuned_ompbind" or k not in facts or (k, n, "tuned") not in bench:
            continue
        try:
            t, t_free = float(b["median_s"]), float(bench[(k, n, "tuned")]["median_s"])
        except (KeyError, ValueError):
            continue
        print("\n%s %d^3 tuned, called with OMP_PROC_BIND=spread OMP_PLACES=cores set: %.2f GF/s"
              " (%.2f without): libgomp binds the main thread to one core and the library's"
              " threads inherit it." % (k, n, facts[k]["flops_per_point"] * float(n) ** 3 / t * 1e-9,
                                        facts[k]["flops_per_point"] * float(n) ** 3 / t_free * 1e-9))

    for (k, n, label), b in sorted(bench.items()):
        if label != "tuned_large" or k not in facts or (k, n, "tuned") not in bench:
            continue
        try:
            t, t_small = float(b["median_s"]), float(bench[(k, n, "tuned")]["median_s"])
            path = os.path.join(work, "tuned_large", k, "f2s_%s.json" % k)
            with open(path) as f:
                winner = json.load(f)["kernels"][0].get("winner")
        except (KeyError, ValueError, OSError):
            continue
        t_info = tune.get("large/" + k, {})
        print("\n%s %d^3 tuned at %d^3 instead (%s s of tuning): %.2f GF/s (%.2f tuned at %s^3),"
              " winner %s" % (k, n, n, t_info.get("wall_s", "?"),
                              facts[k]["flops_per_point"] * float(n) ** 3 / t * 1e-9,
                              facts[k]["flops_per_point"] * float(n) ** 3 / t_small * 1e-9,
                              tune.get(k, {}).get("size", "?"), winner))

    big = max((n for _, n, _, _ in summary), default=None)
    if big is None:
        return
    print()
    print("Issue 3 targets at %d^3:" % big)
    need_omp = {"laplacian": 1.3, "gradient": 1.4}
    for k, n, gf, bound in summary:
        if n != big or "tuned" not in gf:
            continue
        checks = []
        if k in need_omp and "omp" in gf:
            r = gf["tuned"] / gf["omp"]
            checks.append("tuned/omp %.2f (>= %.1f: %s)" % (r, need_omp[k],
                                                            "met" if r >= need_omp[k] else "MISSED"))
        r = gf["tuned"] / bound
        checks.append("tuned/bound %.0f%% (>= 90%%: %s)" % (100 * r, "met" if r >= 0.9 else "MISSED"))
        if "serial" in gf:
            r = gf["tuned"] / gf["serial"]
            checks.append("tuned/serial %.1f (>= 8: %s)" % (r, "met" if r >= 8 else "MISSED"))
        print("  %-10s %s" % (k, "; ".join(checks)))


if __name__ == "__main__":
    main()
