#!/bin/bash
# A/B of run-time settings on one built program, on the GPU machine: runs
# out/bin/<program> with each setting in turn, REPS rounds interleaved, and
# prints for each setting the median of the program's own timer (its RESULT
# line's wall_s, around its iteration loop) and of the whole process's wall
# time (start-up and exit included), so that a change that moves time out of
# the loop (the CUDA start-up in the background) is seen in both.
#   usage (repo root, bench/apps/out carried):
#     bash bench/apps/ab_device.sh PROGRAM "ARGS" "ENV_A" "ENV_B" ...
#   e.g. bash bench/apps/ab_device.sh poisson19_cuda "257 257 129 2037" \
#          "F2S_CUDA_EARLY=0" "F2S_CUDA_EARLY=1"
# env: REPS (3). Writes a table on stdout.
set -u
cd "$(dirname "$0")/../.."
O=bench/apps/out
export LD_LIBRARY_PATH=$PWD/$O/fortlibs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
prog=$1 args=$2
shift 2
R=$(mktemp -d)
for rep in $(seq 1 ${REPS:-3}); do
  i=0
  for setting in "$@"; do
    t0=$(date +%s.%N)
    line=$(env $setting timeout 300 $O/bin/$prog $args 2>&1 | grep '^RESULT')
    t1=$(date +%s.%N)
    w=$(sed -n 's/.*wall_s=\([0-9.eE+-]*\).*/\1/p' <<<"$line")
    echo "$i ${w:-nan} $(awk -v a=$t0 -v b=$t1 'BEGIN { print b - a }')" >> $R/t
    i=$((i + 1))
  done
done
echo "| $prog $args | loop (median s) | process (median s) | runs |"
echo "|---|---|---|---|"
i=0
for setting in "$@"; do
  awk -v i=$i -v s="$setting" '$1 == i { l[n] = $2; p[n] = $3; ++n }
    function med(a, n,   j, k, t) { for (j = 0; j < n; ++j) for (k = j + 1; k < n; ++k) if (a[k] < a[j]) { t = a[j]; a[j] = a[k]; a[k] = t }
      return n % 2 ? a[int(n / 2)] : (a[n / 2 - 1] + a[n / 2]) / 2 }
    END { printf "| %s | %.3f | %.3f | %d |\n", s, med(l, n), med(p, n), n }' $R/t
  i=$((i + 1))
done
rm -rf $R
