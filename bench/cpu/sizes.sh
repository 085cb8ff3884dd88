#!/usr/bin/env bash
# Per-size variants (issue 13): the Laplacian tuned at several sizes into one
# library, called at each of them, against the OpenMP loop (gfortran -O3
# -fopenmp, first touch by the same loop) in the same run; one table last
# (bench/cpu/sizes_table.py): size, OpenMP time, f2stencil time, ratio, and
# which tuned size's variant the library ran.
#
# Runs on the GPU machine's host from the repository root, after
# bench/cpu/build.sh has filled .bench-carry/ here (the host has no
# gfortran: the bench program and its runtime libraries are carried):
#   run(command="bash bench/cpu/sizes.sh 2>&1", carry=[".bench-carry"], timeout_s=600)
# Locally, at a tiny scale first (a minute or two on a small machine):
#   SIZES="12 20 32" TUNE_BUDGET=3 TUNE_REPS=1 bash bench/cpu/sizes.sh
# Knobs (environment): SIZES ("64 256 512": tuned at n^3 for each, and called
# at each), REPS (at least 7 timed calls; more at small sizes, up to 1000, so
# that a measurement lasts about as long at every size), TUNE_REPS (3),
# TUNE_BUDGET (s of measuring per kernel and size; 60), TUNE_TIMEOUT (s for
# the whole tuning; 420), SINGLE (a size also tuned alone, to compare with
# today's one-size library; none), ROUNDS (5: every process of a size runs
# once a round, the rounds one after another, so that the host's drift
# between processes reaches each library alike; the table takes the median
# over the rounds and shows the spread of the per-round ratios), OUT (where
# the raw lines, the record and the table go; /tmp/f2s-sizes/out).
set -u
cd "$(dirname "$0")/../.."
carry=$PWD/.bench-carry
work=/tmp/f2s-sizes
out=${OUT:-$work/out}
rm -rf "$work"
mkdir -p "$work" "$out"
res=$out/sizes_results.txt
: >"$res"
sizes=${SIZES:-64 256 512}
export LD_LIBRARY_PATH=$carry/lib
if [ ! -x "$carry/f2stencil" ]; then
  echo "sizes.sh: no $carry/f2stencil: run bench/cpu/build.sh first" >&2
  exit 1
fi

cores=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)
model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
l3=$(lscpu | sed -n 's/^L3 cache: *//p' | head -1)
echo "CPU model=\"$model\" cores=$cores cpus=$(nproc) l3=\"$l3\"" \
  "date=\"$(date -u '+%Y-%m-%d %H:%M UTC')\" f2stencil=\"$(cat "$carry/VERSION" 2>/dev/null)\"" |
  tee -a "$res"
export OMP_NUM_THREADS=$cores OMP_PROC_BIND=spread OMP_PLACES=cores

bench=$carry/stencil_bench_v3
grep -qw avx512f /proc/cpuinfo && bench=$carry/stencil_bench_v4

# One library tuned at every size: --tune-size n,n,n:m,m,m:...
spec=
for n in $sizes; do
  spec=${spec:+$spec:}$n,$n,$n
done
tune() { # label spec
  local t0 rc ms
  t0=$(date +%s%N)
  timeout "${TUNE_TIMEOUT:-420}" "$carry/f2stencil" --tune-size="$2" --reps "${TUNE_REPS:-3}" \
    --budget "${TUNE_BUDGET:-60}" -j "$(nproc)" -q -o "$work/$1" examples/laplacian/laplacian.f90
  rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  echo "TUNE label=$1 rc=$rc wall_s=$((ms / 1000)).$(printf %03d $((ms % 1000))) sizes=$2" \
    "reps=${TUNE_REPS:-3} budget=${TUNE_BUDGET:-60}" | tee -a "$res"
}
# The bench program links all three operators' libraries: the two this
# benchmark does not call are loaded from untuned builds made here.
others=
for k in divergence gradient; do
  "$carry/f2stencil" --no-tune -q -o "$work/notune/$k" "examples/$k/$k.f90" ||
    echo "f2stencil --no-tune failed for $k"
  others=$others:$work/notune/$k
done
tune sized "$spec"
[ -n "${SINGLE-}" ] && tune single "$SINGLE,$SINGLE,$SINGLE"

for round in $(seq "${ROUNDS:-5}"); do
for n in $sizes; do
  reps=$((100000000 / (n * n * n)))
  [ "$reps" -lt "${REPS:-7}" ] && reps=${REPS:-7}
  [ "$reps" -gt 1000 ] && reps=1000
  # The OpenMP loop binds its threads; the library processes run without the
  # binding, which the pool's threads would inherit (RESULTS.md, "Thread
  # binding").
  line=$(LD_LIBRARY_PATH="$carry/lib:$work/sized$others" timeout 300 "$bench" omp laplacian "$n" \
    "$reps" 2>&1 | tail -1)
  echo "$line label=omp round=$round" | tee -a "$res"
  for label in sized single; do
    [ -f "$work/$label/libf2s_laplacian.so" ] || continue
    line=$(env -u OMP_PROC_BIND -u OMP_PLACES LD_LIBRARY_PATH="$carry/lib:$work/$label$others" \
      timeout 300 "$bench" f2s laplacian "$n" "$reps" 2>&1 | tail -1)
    echo "$line label=$label round=$round" | tee -a "$res"
  done
done
done

for label in sized single; do
  [ -d "$work/$label" ] || continue
  cp "$work/$label/f2s_laplacian.json" "$out/laplacian_$label.json"
  cp "$work/$label/f2s_laplacian.txt" "$out/laplacian_$label.txt"
done
python3 bench/cpu/sizes_table.py "$res" "$out" | tee "$out/sizes_table.txt"
