#!/usr/bin/env python3
"""The GPU table of bench/RESULTS.md from one run of bench/gpu/run_device.sh.

usage: table.py RESULTS_DIR   (the unpacked results.tgz: checks.log and one
output directory per kernel with its f2s_<kernel>.json tuning record)

Baseline: the plain one-thread-per-point mapping with 32x8 threads (cuda/plain32x8,
px=1 py=1), measured in the same tuning run. Bound: the device-to-device copy
bandwidth measured in the same run (checks.log, bytes read + written) times the
kernel's compulsory bytes per point (each grid read once, each written once; no
write-allocate on the GPU).
"""
import json, math, os, re, sys

d = sys.argv[1]
log = open(os.path.join(d, 'checks.log')).read()
bw = json.loads(re.search(r'COPY-BW (\{.*\})', log).group(1))['gbps']
print(f'copy bound: {bw:.0f} GB/s\n')
print('| kernel | size | B/pt | straightforward GSt/s | GB/s | % bound | tuned choice | GSt/s | GB/s | % bound | speed-up |')
print('|---|---|---|---|---|---|---|---|---|---|---|')
ratios = []
for e in sorted(os.listdir(d)):
    path = os.path.join(d, e, f'f2s_{e}.json')
    if not os.path.exists(path):
        continue
    k = json.load(open(path))['kernels'][0]
    f = k['facts']
    B = f['read_bytes_per_point'] + f['write_bytes_per_point']
    pts = math.prod(k['extents'])
    ok = [c for c in k['candidates'] if c.get('verified') and c['target'] == 'cuda']
    plain = [c for c in ok if c['variant'] == 'plain32x8'][0]
    best = min(ok, key=lambda c: c['time_s'])
    bound = B * pts / (bw * 1e9)
    ratios.append(plain['time_s'] / best['time_s'])
    print(f"| {e} | {'x'.join(map(str, k['extents']))} | {B} | {pts / plain['time_s'] * 1e-9:.1f} | "
          f"{plain['gbps']:.0f} | {100 * bound / plain['time_s']:.0f}% | {best['variant']} | "
          f"{pts / best['time_s'] * 1e-9:.1f} | {best['gbps']:.0f} | {100 * bound / best['time_s']:.0f}% | "
          f"{plain['time_s'] / best['time_s']:.2f} |")
print(f'\ngeometric mean speed-up over the straightforward kernel: '
      f'{math.exp(sum(map(math.log, ratios)) / len(ratios)):.3f} ({len(ratios)} kernels)')
