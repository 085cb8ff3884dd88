#!/bin/bash
# Runs on the GPU machine (16 cores, one H100/H200; gcc, nvcc, python3, no
# gfortran, no network), in the repository root, with bench/apps/out carried
# (built by bench/apps/build.sh, and by tune_device.sh for *_tuned variants):
#   1. checking mode: every variant of every app at a small odd size against
#      the serial build (compare.py: bitwise where the arithmetic is the
#      same, reductions to a relative tolerance); the cuda variants three
#      times, on the GPU (F2S_TARGET=cuda), on their CPU path (F2S_TARGET=cpu)
#      and as the library dispatches by itself (F2S_TARGET unset);
#      CHECK=1 TIME=0 GPU=0 is the check on a machine without a GPU;
#   2. timing: every variant at a size that fills the GPU, REPS rounds with
#      the variants interleaved (round 1: each app's variants in turn, ...);
#   3. one table: app, variant, median seconds, speedup over OpenMP (OpenMP's
#      median time / the variant's), figure of merit.
# Environment: REPS (3), CHECK (1), TIME (1), BUDGET_S (420: no new round
# after that), POISSON19_ARGS / MG3D_ARGS / SWC_ARGS (the timing sizes),
# CUDA_ENV (how the cuda variants are run; default F2S_TARGET=cuda, '' for the
# library's own dispatch), OMP_NUM_THREADS (nproc), F2S_VERBOSE / F2S_PROFILE
# (passed through to every run). Writes $OUT/apps.log, $OUT/apps_check.md,
# $OUT/apps_table.md and every run's output in $OUT/apps_runs.tgz.
set -u
cd "$(dirname "$0")/../.."
A=bench/apps
O=$A/out
B=$O/bin
R=/tmp/apps-run
rm -rf $R && mkdir -p $R
LOG=${OUT:-/tmp}/apps.log
REPS=${REPS:-3}
BUDGET_S=${BUDGET_S:-420}
CUDA_ENV=${CUDA_ENV-F2S_TARGET=cuda}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
export LD_LIBRARY_PATH=$PWD/$O/fortlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
declare -A CHECK_ARGS=([poisson19]="33 17 21 7" [mg3d]="24 40 12 4" [swc]="37 29 30 10")
declare -A TIME_ARGS=([poisson19]="${POISSON19_ARGS:-257 257 129 40}"
                      [mg3d]="${MG3D_ARGS:-256 256 256 8}"
                      [swc]="${SWC_ARGS:-2047 2047 30 10}")
APPS=${APPS:-poisson19 mg3d swc}
# GPU=0 (no GPU: the default where nvidia-smi finds none) checks the cuda
# variants on their CPU paths only, and times nothing on the GPU
GPU=${GPU:-$(nvidia-smi -L >/dev/null 2>&1 && echo 1 || echo 0)}
start=$SECONDS

variants_of() { awk -v a=$1 '$1 == a { print $2 }' $O/variants.txt; }
is_cuda() { [[ $1 == cuda* ]]; }

{
date -u
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1
echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc); OMP_NUM_THREADS=$OMP_NUM_THREADS OMP_PROC_BIND=$OMP_PROC_BIND OMP_PLACES=$OMP_PLACES"
echo "built at $(cat $O/commit.txt); CUDA_ENV='$CUDA_ENV' F2S_VERBOSE=${F2S_VERBOSE-} F2S_PROFILE=${F2S_PROFILE-}"

if [ "${CHECK:-1}" = 1 ]; then
  echo "== checking mode (small odd sizes, against the serial build)"
  echo "| app | size | variant | run as | result |" > $R/check.md
  echo "|---|---|---|---|---|" >> $R/check.md
  for app in $APPS; do
    args=${CHECK_ARGS[$app]}
    timeout 120 $B/${app}_serial $args > $R/${app}_serial.check 2>&1
    for var in $(variants_of $app); do
      [ $var = serial ] && continue
      runs=("")
      if is_cuda $var; then
        if [ $GPU = 1 ]; then runs=("F2S_TARGET=cuda" "F2S_TARGET=cpu" ""); else runs=("F2S_TARGET=cpu" ""); fi
      fi
      for how in "${runs[@]}"; do
        f=$R/${app}_${var}_${how#F2S_TARGET=}.check
        env $how timeout 120 $B/${app}_$var $args > $f 2>&1; rc=$?
        # A cuda variant's run on the GPU (forced, or the library's own
        # dispatch where there is one) sums in the GPU's order.
        loose=""; [ "$how" = F2S_TARGET=cuda ] || { [ -z "$how" ] && [ $GPU = 1 ] && is_cuda $var; } && loose=--loose
        if [ $rc != 0 ]; then res="FAIL (exit $rc): $(grep -v '^ *$' $f | tail -1 | cut -c1-200)"
        else res=$(python3 $A/compare.py $R/${app}_serial.check $f $loose); fi
        echo "| $app | $args | $var | ${how:-default} | $res |" >> $R/check.md
      done
    done
  done
  cat $R/check.md
fi

if [ "${TIME:-1}" = 1 ]; then
  echo "== timing: REPS=$REPS, variants interleaved"
  : > $R/times.txt
  for rep in $(seq 1 $REPS); do
    if [ $((SECONDS - start)) -gt $BUDGET_S ]; then echo "budget spent: stopping before round $rep"; break; fi
    for app in $APPS; do
      args=${TIME_ARGS[$app]}
      for var in $(variants_of $app); do
        how=""; is_cuda $var && how=$CUDA_ENV
        line=$(env $how timeout 300 $B/${app}_$var $args 2>&1 | tee $R/${app}_${var}_$rep.out | grep '^RESULT'); rc=$?
        echo "round $rep $app $var ${how:+($how) }: ${line:-no RESULT line: $(tail -2 $R/${app}_${var}_$rep.out)}"
        if [ -n "$line" ]; then echo "$app $var $line" >> $R/times.txt; else echo "$app $var FAILED" >> $R/times.txt; fi
      done
    done
  done
  python3 - $R/times.txt > $R/table.md <<'PY'
import sys, statistics
rows = {}
failed = {}
order = []
for line in open(sys.argv[1]):
    w = line.split()
    app, var = w[0], w[1]
    kv = dict(x.split("=", 1) for x in w[2:] if "=" in x)
    if (app, var) not in rows:
        rows[(app, var)] = []
        order.append((app, var))
    if w[2] == "FAILED":
        failed[(app, var)] = failed.get((app, var), 0) + 1
        continue
    rows[(app, var)].append((float(kv["wall_s"]), float(kv["fom"]), kv["fom_unit"], kv["size"], kv["iters"]))
print("| app | size, iters | variant | seconds (median) | runs | vs OpenMP | figure of merit |")
print("|---|---|---|---|---|---|---|")
for app, var in order:
    r = rows[(app, var)]
    if not r:
        print(f"| {app} | | {var} | failed ({failed[(app, var)]} runs) | 0 | | |")
        continue
    t = statistics.median(x[0] for x in r)
    f = statistics.median(x[1] for x in r)
    omp = rows.get((app, "omp"))
    ratio = statistics.median(x[0] for x in omp) / t if omp else float("nan")
    nf = failed.get((app, var), 0)
    print(f"| {app} | {r[0][3]}, {r[0][4]} | {var} | {t:.3f} | {len(r)}{f' ({nf} failed)' if nf else ''} | {ratio:.2f}x | {f:.2f} {r[0][2]} |")
PY
  cat $R/table.md
fi
echo "total ${SECONDS}s"
} 2>&1 | tee $LOG
if [ -n "${OUT:-}" ]; then
  cp $R/table.md $OUT/apps_table.md 2>/dev/null; cp $R/check.md $OUT/apps_check.md 2>/dev/null
  tar czf $OUT/apps_runs.tgz -C $R . 2>/dev/null
fi
true
