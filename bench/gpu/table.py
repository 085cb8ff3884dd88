#!/usr/bin/env python3
"""The GPU table of bench/RESULTS.md from one run of bench/gpu/run_device.sh.

usage: table.py RESULTS_DIR   (the unpacked results.tgz: checks.log and, per
precision, one output directory per kernel with its f2s_<kernel>.json tuning
record: RESULTS_DIR/double/box27/f2s_box27.json)

Baseline: the hand-written straightforward kernel of bench/gpu/baseline.cu (BASELINE
lines of checks.log), same run. Also shown: f2stencil's own plain mapping with 32x8
threads (cuda/plain32x8), from the tuning record. Bound: the device-to-device copy
bandwidth of the same run (bytes read + written) times the kernel's compulsory bytes
per point (each grid read once, each written once; no write-allocate on the GPU).
"""
import json, math, os, re, sys

d = sys.argv[1]
log = open(os.path.join(d, 'checks.log')).read()
bw = json.loads(re.search(r'COPY-BW (\{.*\})', log).group(1))['gbps']
base = {}
for m in re.finditer(r'BASELINE (\{.*\})', log):
    b = json.loads(m.group(1))
    base[(b['kernel'], b['precision'], tuple(b['size']))] = b
streams = {}
for m in re.finditer(r'STREAMS (\{.*\})', log):
    x = json.loads(m.group(1))
    streams[(x['pattern'], x['precision'])] = x['of_copy']


def table(kdir, prec):
    """One precision's table from the kernel directories under kdir."""
    print(f'copy bound: {bw:.0f} GB/s; {prec} precision\n')
    if streams:
        print('streams alone (no stencil), fraction of the copy bound: ' + ', '.join(
            f'{pat} {100 * streams[(pat, prec)]:.0f}%' for pat in ('r1w1', 'r3w1', 'r1w3', 'r13w1')
            if (pat, prec) in streams) + '\n')
    print('| kernel | B/pt | hand-written GSt/s | % bound | f2s plain32x8 GSt/s | % bound '
          '| f2s tuned choice | GSt/s | % bound | tuned / hand-written |')
    print('|---|---|---|---|---|---|---|---|---|---|')
    ratios = []
    for e in sorted(os.listdir(kdir)):
        path = os.path.join(kdir, e, f'f2s_{e}.json')
        if not os.path.exists(path):
            continue
        k = json.load(open(path))['kernels'][0]
        f = k['facts']
        B = f['read_bytes_per_point'] + f['write_bytes_per_point']
        pts = math.prod(k['extents'])
        ok = [c for c in k['candidates'] if c.get('verified') and c['target'] == 'cuda']
        best = min(ok, key=lambda c: c['time_s'])
        bound = B * pts / (bw * 1e9)
        plain = [c for c in ok if c['variant'] == 'plain32x8']
        p = f"{pts / plain[0]['time_s'] * 1e-9:.1f} | {100 * bound / plain[0]['time_s']:.0f}%" \
            if plain else '- | -'
        hw = base.get((e, prec, tuple(k['extents'])))
        if hw:
            h = f"{hw['gstencils']:.1f} | {100 * bound / hw['median_s']:.0f}%"
            r = hw['median_s'] / best['time_s']
            ratios.append(r)
            rs = f'{r:.2f}'
        else:
            h, rs = '- | -', '-'
        print(f"| {e} | {B} | {h} | {p} | {best['variant']} | {pts / best['time_s'] * 1e-9:.1f} | "
              f"{100 * bound / best['time_s']:.0f}% | {rs} |")
    if ratios:
        print(f'\ngeometric mean, tuned over hand-written: '
              f'{math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f} ({len(ratios)} kernels)\n')


# Layout of run_device.sh: <precision>/<kernel>/ (older runs: <kernel>/ with PREC=... in the log).
precs = [p for p in ('double', 'single') if os.path.isdir(os.path.join(d, p))]
if precs:
    for prec in precs:
        table(os.path.join(d, prec), prec)
else:
    m = re.search(r'^PREC=(\w+)', log, re.M)
    table(d, m.group(1) if m else 'double')
