#!/bin/bash
# The session batches of 2026-12-07 22:00 UTC (bench/RESULTS.md), bench/apps/out
# carried by PART 1 and 2; PART 3 runs right after PART 2 on the same warm
# machine, nothing carried, and finds the programs PART 2 tuned and linked there.
#   PART=1: the first A/B of the background page population, whether the
#           kernel has it, poisson19 and swc tuned at their run sizes, and a
#           profile round of the untuned and tuned cuda programs;
#   PART=2: the A/B of the four population modes, and all three cuda
#           libraries tuned at the programs' sizes;
#   PART=3: a profile round of the cuda programs, then the checked timing
#           round of omp, pthreads, cuda and cuda_tuned (medians of 2).
# F2S_CUDA_POPULATE, the population's switch, existed from d69533a to 4d8fc28
# only: on later builds its settings run the same program.
export PATH=/usr/local/cuda/bin:$PATH
A=bench/apps
export LD_LIBRARY_PATH=$PWD/$A/out/fortlibs
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; lscpu | grep 'Model name'
uname -r; cat $A/out/commit.txt
mkdir -p $OUT/p
if [ "${PART:-1}" = 1 ]; then
  echo "== populate: what the kernel says"
  F2S_VERBOSE=1 $A/out/bin/mg3d_cuda 64 64 64 2 2>&1 | grep -i 'fault\|RESULT'
  echo "== A/B populate"
  for p in "swc_cuda|2047 2047 1000 100" "mg3d_cuda|256 256 256 200" "poisson19_cuda|257 257 129 2037"; do
    REPS=3 bash $A/ab_device.sh "${p%%|*}" "${p#*|}" F2S_CUDA_POPULATE=0 F2S_CUDA_POPULATE=1
  done
  echo "== tune ($((SECONDS-T0)) s)"
  TUNE_OPTS='--budget=3' TUNE_OPTS_poisson19='--tune-size=255,255,127' \
    TUNE_OPTS_swc='--tune-size=2047,2047:2047' timeout 330 bash $A/tune_device.sh poisson19_cuda swc_cuda 2>&1 | tail -12
  echo "== profile ($((SECONDS-T0)) s)"
  OUT=$OUT/p CHECK=0 F2S_PROFILE=1 VARIANTS='cuda cuda_tuned' REPS=1 APPS='poisson19 swc mg3d' \
    POISSON19_ARGS='257 257 129 2037' MG3D_ARGS='256 256 256 200' SWC_ARGS='2047 2047 1000 100' \
    timeout $((585 - (SECONDS-T0))) bash $A/run_device.sh > $OUT/p/stdout.txt 2>&1
  tail -5 $OUT/p/stdout.txt
elif [ "$PART" = 2 ]; then
  # The populate modes of d69533a's follow-up: 0 none, 1 populate in 2 MiB
  # pieces, 2 MADV_HUGEPAGE only, 3 both; the tuning cache of PART 1 carried.
  cat /sys/kernel/mm/transparent_hugepage/enabled /sys/kernel/mm/transparent_hugepage/defrag
  echo "== A/B populate modes"
  for p in "mg3d_cuda|256 256 256 200" "poisson19_cuda|257 257 129 2037" "swc_cuda|2047 2047 1000 100"; do
    REPS=3 bash $A/ab_device.sh "${p%%|*}" "${p#*|}" F2S_CUDA_POPULATE=0 F2S_CUDA_POPULATE=1 \
      F2S_CUDA_POPULATE=2 F2S_CUDA_POPULATE=3
  done
  echo "== tune ($((SECONDS-T0)) s)"
  TUNING_DB=$PWD/$A/out/tuning.db TUNE_OPTS='--budget=3' TUNE_OPTS_poisson19='--tune-size=255,255,127' \
    TUNE_OPTS_swc='--tune-size=2047,2047:2047' TUNE_OPTS_mg3d='--tune-size=256,256,256:256,256' \
    timeout $((570 - (SECONDS-T0))) bash $A/tune_device.sh poisson19_cuda swc_cuda mg3d_cuda 2>&1 | grep -v "^f2stencil: '"
  cp $A/out/tuning.db $OUT/tuning.db
else
  # PART=3, right after PART=2 on the same machine, nothing carried:
  # F2S_CUDA_POPULATE as exported by the caller.
  echo "== profile ($((SECONDS-T0)) s)"
  OUT=$OUT/p CHECK=0 F2S_PROFILE=1 CUDA_ENV='' VARIANTS='cuda cuda_tuned' REPS=1 \
    POISSON19_ARGS='257 257 129 2037' MG3D_ARGS='256 256 256 200' SWC_ARGS='2047 2047 1000 100' \
    timeout 90 bash $A/run_device.sh > $OUT/p/stdout.txt 2>&1
  echo "== run ($((SECONDS-T0)) s)"; mkdir -p $OUT/t
  OUT=$OUT/t CHECK=1 VARIANTS='omp pthreads cuda cuda_tuned' CUDA_ENV='' REPS=2 BUDGET_S=300 \
    POISSON19_ARGS='257 257 129 2037' MG3D_ARGS='256 256 256 200' SWC_ARGS='2047 2047 1000 100' \
    timeout $((585 - (SECONDS-T0))) bash $A/run_device.sh 2>&1 | tail -30
fi
echo "== end ($((SECONDS-T0)) s)"
