#!/usr/bin/env bash
# On the GPU machine's host, after bench/cpu/gap/build.sh: tunes the 19-point
# sweep there, then times, in one run, the tuned call from C over grids
# allocated four ways (gap.c) and the Fortran program (main.F90) serial, with
# OpenMP and through the library. Prints the machine, the tuning's choice and
# its harness figure, and the table.
set -u
cd "$(dirname "$0")/../../.."
carry=$PWD/.gap-carry
work=/tmp/f2s-gap
rm -rf "$work" && mkdir -p "$work"
export LD_LIBRARY_PATH=$carry/lib
MX=${MX:-257} MY=${MY:-257} MZ=${MZ:-513} CALLS=${CALLS:-20} ROUNDS=${ROUNDS:-5}
echo "host: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cpus," \
  "numa $(lscpu | sed -n 's/^NUMA node(s): *//p'), THP $(cat /sys/kernel/mm/transparent_hugepage/enabled)," \
  "defrag $(cat /sys/kernel/mm/transparent_hugepage/defrag); f2stencil $(cat "$carry/VERSION")"
cd "$work"
time "$carry/f2stencil" --target=pthreads -q --budget="${BUDGET:-90}" --reps=3 -o lib \
  "$carry/src/poisson19.f90" || exit 1
python3 - <<'PY' || true
import json
r = json.load(open('lib/f2s_poisson19.json'))
for k in r['kernels']:
    best = [c for c in k.get('candidates', []) if c.get('verified')]
    best.sort(key=lambda c: c['time_s'])
    print('measured', len(k.get('candidates', [])), 'candidates; default:', k.get('default', ''))
    for b in best[:3]:
        print('  harness: %s %.3f ms %.1f GFlop/s %.1f GB/s%s' % (b['id'], b['time_s'] * 1e3,
              b['gflops'], b['gbps'], ' (confirmed)' if b.get('confirmed') else ''))
PY
gcc -O2 -I lib -o gap "$carry/src/gap.c" lib/libf2s_poisson19.a -lpthread -lm || exit 1
gcc -o main_f2s "$carry/main_f2s.o" lib/libf2s_poisson19.a -L"$carry/lib" -l:libgfortran.so.5 \
  -l:libquadmath.so.0 -lpthread -lm || exit 1
./gap "$MX" "$MY" "$MZ" "$CALLS" "$ROUNDS"
for round in 1 2 3; do
  echo "round $round"
  echo "  serial      $("$carry/main_serial" "$MX" "$MY" "$MZ" 5)"
  echo "  openmp      $(OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close "$carry/main_omp" "$MX" "$MY" "$MZ" "$CALLS")"
  echo "  f2stencil   $(./main_f2s "$MX" "$MY" "$MZ" "$CALLS")"
done
