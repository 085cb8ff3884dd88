#!/bin/bash
# One device call: the examples through their Fortran checking programs on the
# GPU, the data-region transfer test, the copy bound, and the CUDA tuning of
# every example at 512^3 (double). Expects .device-cuda/ (built on the host by
# bench/gpu/prepare.sh) in the repository root; writes $OUT/results.tgz, which
# bench/gpu/table.py turns into the table of bench/RESULTS.md.
D=.device-cuda
R=/tmp/f2s-gpu
mkdir -p $R
export LD_LIBRARY_PATH=$PWD/$D/fortlibs
export PATH=/usr/local/cuda/bin:$PATH
{
  date -u; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -1
  echo "== Fortran checking programs through the library, F2S_TARGET=cuda"
  for e in laplacian divergence gradient star7 star13 himeno19 box27; do
    F2S_TARGET=cuda $D/bin/${e}_check 67 45 33
    F2S_TARGET=cuda $D/bin/${e}_check
  done
  echo "== data region"
  $D/bin/cuda_data_region
  $D/bin/cuda_data_region 130 70 50
  echo "== copy bound"
  nvcc -O3 -arch=sm_90 bench/gpu/copy_bw.cu -o $R/copy_bw && $R/copy_bw && $R/copy_bw 268435456
} 2>&1 | tee $R/checks.log
start=$SECONDS
for spec in star7:512,512,512 laplacian:512,512,512 box27:512,512,512 star13:512,512,512 \
            divergence:512,512,512 gradient:512,512,128 himeno19:512,512,128; do
  e=${spec%%:*}; size=${spec#*:}
  if (( SECONDS - start > 430 )); then echo "== skipped $e (time)"; continue; fi
  echo "== tuning $e at $size"
  timeout 100 $D/f2stencil --target=cuda --tune-size $size --reps 10 -j 16 -o $R/$e \
    examples/$e/$e.f90 > $R/tune_$e.log 2>&1
  echo "exit $?" >> $R/tune_$e.log
  tail -3 $R/tune_$e.log
  tar czf $OUT/results.tgz -C $R . 2>/dev/null
done
tar czf $OUT/results.tgz -C $R .
