#!/usr/bin/env bash
# The tuning cache on the GPU (issue 13, section 4): tunes the Laplacian for
# the cuda target into a fresh tuning database, runs the same command again
# (every candidate must be reused: nothing built, nothing run), then kills a
# third tuning into another database part way (SIGINT) and resumes it: the
# resumed run reuses what the killed one measured. Prints one line per run
# and a verdict last.
#
# Runs on the GPU machine from the repository root with a stripped f2stencil
# carried in .bench-carry/ (bench/cpu/build.sh makes it):
#   run(command="bash bench/gpu/tuning_cache.sh", carry=[".bench-carry"])
set -u
cd "$(dirname "$0")/../.."
f2s=$PWD/.bench-carry/f2stencil
work=/tmp/f2s-cache
rm -rf "$work"
mkdir -p "$work"
size=${SIZE:-256,256,256}
src=examples/laplacian/laplacian.f90
tune() { # label db [timeout-seconds]
  local t0 ms rc
  t0=$(date +%s%N)
  if [ -n "${3-}" ]; then
    timeout -s INT "$3" "$f2s" --target=cuda --tune-size="$size" --tuning-db "$work/$2" \
      -o "$work/$1" "$src" >"$work/$1.log" 2>&1
  else
    "$f2s" --target=cuda --tune-size="$size" --tuning-db "$work/$2" -o "$work/$1" "$src" \
      >"$work/$1.log" 2>&1
  fi
  rc=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  echo "RUN $1 rc=$rc wall_s=$((ms / 1000)).$(printf %03d $((ms % 1000)))" \
    "$(grep -E 'CUDA: .* built and run' "$work/$1.log" | tail -1 | sed 's/^f2stencil: //')"
}
nvidia-smi --query-gpu=name --format=csv,noheader
tune first db1
tune second db1
tune killed db2 "${KILL_AFTER:-12}"
tune resumed db2
ok=1
grep -q ' 0 built and run' <(grep 'CUDA:' "$work/second.log") || ok=0
cmp -s "$work/first/f2s_laplacian_cuda.cu" "$work/second/f2s_laplacian_cuda.cu" || ok=0
grep -qE ' [1-9][0-9]* reused' <(grep 'CUDA:' "$work/resumed.log") || ok=0
echo "second run rebuilt nothing and wrote the same CUDA: $([ $ok = 1 ] && echo yes || echo NO)"
tail -n 3 "$work/second.log" "$work/resumed.log"
