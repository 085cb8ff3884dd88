#!/usr/bin/env bash
# The CPU benchmark of issue 3, run on the GPU machine's host from the
# repository root after bench/cpu/build.sh has filled .bench-carry/ here:
#   run(command="bash bench/cpu/device.sh", carry=[".bench-carry"], timeout_s=600)
# It measures STREAM, builds the untuned libraries and tunes the three
# operators with the carried f2stencil there, times serial / OpenMP / untuned /
# tuned at 256^3 and 512^3, and prints one table last (bench/cpu/table.py).
# Raw lines, the tuning records and the table go to $OUT (or /tmp/f2s-bench/out).
# Knobs (environment): SIZES ("256 512"), REPS (7), TUNE_SIZE (512),
# TUNE_REPS (3), TUNE_BUDGET (s of measuring per kernel, if f2stencil has
# --budget; 90), TUNE_TIMEOUT (s per kernel; 200), TUNE_LARGE (kernels also
# tuned at the largest size; none).
set -u
cd "$(dirname "$0")/../.."
root=$PWD
carry=$root/.bench-carry
work=/tmp/f2s-bench
out=${OUT:-$work/out}
rm -rf "$work"
mkdir -p "$work" "$out"
res=$out/results.txt
: >"$res"
kernels="laplacian divergence gradient"
sizes=${SIZES:-256 512}
reps=${REPS:-7}
tune_size=${TUNE_SIZE:-512}
export LD_LIBRARY_PATH=$carry/lib

# The machine: model, sockets, physical cores, NUMA nodes.
lscpu >"$out/lscpu.txt" 2>&1
cores=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)
model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
sockets=$(lscpu | sed -n 's/^Socket(s): *//p' | head -1)
numa=$(lscpu | sed -n 's/^NUMA node(s): *//p' | head -1)
l3=$(lscpu | sed -n 's/^L3 cache: *//p' | head -1)
echo "CPU model=\"$model\" sockets=$sockets cores=$cores cpus=$(nproc) numa=$numa l3=\"$l3\"" \
  "date=\"$(date -u '+%Y-%m-%d %H:%M UTC')\" gcc=\"$(gcc -dumpfullversion)\"" \
  "f2stencil=\"$(cat "$carry/VERSION" 2>/dev/null)\"" | tee -a "$res"

# The OpenMP baseline's settings (the f2stencil libraries use their own
# thread count and ignore these).
export OMP_NUM_THREADS=$cores OMP_PROC_BIND=spread OMP_PLACES=cores

# STREAM, compiled here for this CPU.
gcc -O3 -fopenmp -march=native -o "$work/stream" bench/cpu/stream.c &&
  "$work/stream" | tee -a "$res"

# The bench program: AVX-512 build where the CPU has it.
bench=$carry/stencil_bench_v3
grep -qw avx512f /proc/cpuinfo && bench=$carry/stencil_bench_v4
echo "BENCHBIN $(basename "$bench")" | tee -a "$res"

# Untuned and tuned libraries, built by f2stencil on this machine.
budget=()
if "$carry/f2stencil" --help 2>&1 | grep -q -- '--budget'; then
  budget=(--budget "${TUNE_BUDGET:-90}")
fi
for k in $kernels; do
  "$carry/f2stencil" --no-tune -q -o "$work/notune/$k" "examples/$k/$k.f90" ||
    echo "f2stencil --no-tune failed for $k"
done
for k in $kernels; do
  t0=$(date +%s%N)
  timeout "${TUNE_TIMEOUT:-200}" "$carry/f2stencil" --tune-size=$tune_size,$tune_size,$tune_size \
    --reps "${TUNE_REPS:-3}" -j "$(nproc)" "${budget[@]}" -q -o "$work/tuned/$k" "examples/$k/$k.f90"
  rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  echo "TUNE kernel=$k rc=$rc wall_s=$((ms / 1000)).$(printf %03d $((ms % 1000)))" \
    "size=$tune_size reps=${TUNE_REPS:-3} budget=${budget[1]:-none}" | tee -a "$res"
done

# At 256^3 two grids fit in a large L3 (the GPU host has 300 MiB): TUNE_LARGE
# names kernels also tuned at the largest size, to show what that changes.
big=${sizes##* }
for k in ${TUNE_LARGE-}; do
  t0=$(date +%s%N)
  timeout "${TUNE_TIMEOUT:-200}" "$carry/f2stencil" --tune-size=$big,$big,$big \
    --reps "${TUNE_REPS:-3}" -j "$(nproc)" "${budget[@]}" -q -o "$work/tuned_large/$k" "examples/$k/$k.f90"
  rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  echo "TUNE_LARGE kernel=$k rc=$rc wall_s=$((ms / 1000)).$(printf %03d $((ms % 1000)))" \
    "size=$big reps=${TUNE_REPS:-3} budget=${budget[1]:-none}" | tee -a "$res"
done

# Every library the bench program links must be found: where a tuned one is
# missing, the untuned one stands in and that kernel's tuned row is skipped.
path_for() { # label
  local p=$carry/lib k
  for k in $kernels; do
    if [ "$1" = tuned ] && [ -f "$work/tuned/$k/libf2s_$k.so" ]; then
      p=$p:$work/tuned/$k
    elif [ "$1" = tuned_large ] && [ -f "$work/tuned_large/$k/libf2s_$k.so" ]; then
      p=$p:$work/tuned_large/$k
    else
      p=$p:$work/notune/$k
    fi
  done
  echo "$p"
}
for n in $sizes; do
  for k in $kernels; do
    for label in serial omp notune tuned; do
      mode=$label
      case $label in notune | tuned) mode=f2s ;; esac
      [ $label = tuned ] && [ ! -f "$work/tuned/$k/libf2s_$k.so" ] && continue
      [ $label = notune ] && [ ! -f "$work/notune/$k/libf2s_$k.so" ] && continue
      # The libraries run with the machine to themselves: with OMP_PROC_BIND
      # set, libgomp binds the main thread to one core, and threads created
      # from it (the f2stencil pool) inherit that one core.
      unbind=()
      [ $mode = f2s ] && unbind=(-u OMP_PROC_BIND -u OMP_PLACES)
      line=$(env "${unbind[@]}" LD_LIBRARY_PATH=$(path_for $label) timeout 300 \
        "$bench" $mode $k $n $reps 2>&1 | tail -1)
      echo "$line label=$label" | tee -a "$res"
    done
  done
done
# The libraries tuned at the largest size, at that size.
for k in ${TUNE_LARGE-}; do
  [ -f "$work/tuned_large/$k/libf2s_$k.so" ] || continue
  line=$(env -u OMP_PROC_BIND -u OMP_PLACES LD_LIBRARY_PATH=$(path_for tuned_large) timeout 300 \
    "$bench" f2s $k $big $reps 2>&1 | tail -1)
  echo "$line label=tuned_large" | tee -a "$res"
done
# What that inheritance costs a user who sets OMP_PROC_BIND for the rest of
# the program: the tuned Laplacian at the largest size, binding left on.
if [ -f "$work/tuned/laplacian/libf2s_laplacian.so" ]; then
  line=$(LD_LIBRARY_PATH=$(path_for tuned) timeout 300 "$bench" f2s laplacian $big $reps 2>&1 | tail -1)
  echo "$line label=tuned_ompbind" | tee -a "$res"
fi

# Tuning records and reports back to this machine.
(cd "$work" && tar czf "$out/records.tar.gz" tuned*/*/f2s_*.json tuned*/*/f2s_*.txt \
  notune/*/f2s_*.json 2>/dev/null)
python3 bench/cpu/table.py "$res" "$work" | tee "$out/table.txt"
