#!/bin/bash
# The session batch of 2026-12-07 17:37 UTC (bench/RESULTS.md): the A/B of the early CUDA start and the staged copies, the bounds, poisson19 tuned at its run size, a checked timing round of every variant and a profile round; about 5 minutes on a warm H100. Run with bench/apps/out carried, built by build.sh.
export PATH=/usr/local/cuda/bin:$PATH
A=bench/apps; P="F2S_CUDA_EARLY=0 F2S_CUDA_STAGE=0"; Q="F2S_CUDA_EARLY=1 F2S_CUDA_STAGE=1"
export LD_LIBRARY_PATH=$PWD/$A/out/fortlibs
T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; lscpu | grep 'Model name'; cat $A/out/commit.txt
echo "== placement"; F2S_VERBOSE=1 $A/out/bin/swc_pthreads 37 29 30 10 2>&1 | grep -m3 'placement\|ran\|RESULT'
echo "== A/B early+staged"
REPS=3 bash $A/ab_device.sh poisson19_cuda "257 257 129 2037" "$P" "$Q"
REPS=3 bash $A/ab_device.sh swc_cuda "2047 2047 1000 100" "$P" "$Q"
REPS=3 bash $A/ab_device.sh mg3d_cuda "256 256 256 200" "$P" "$Q"
echo "== bounds ($((SECONDS-T0)) s)"; OUT=$OUT timeout 90 bash $A/bounds_device.sh 2>&1 | tail -8
echo "== tune ($((SECONDS-T0)) s)"; TUNED=tuned_at_run TUNE_OPTS='--budget=4 --tune-size=255,255,127' timeout 150 bash $A/tune_device.sh poisson19_cuda 2>&1 | tail -5
echo "== profile ($((SECONDS-T0)) s)"; mkdir -p $OUT/t $OUT/p
OUT=$OUT/p CHECK=0 F2S_PROFILE=1 VARIANTS='pthreads cuda cuda_tuned_at_run' REPS=1 timeout 70 bash $A/run_device.sh > $OUT/p/stdout.txt 2>&1; tail -5 $OUT/p/stdout.txt
echo "== run ($((SECONDS-T0)) s)"
OUT=$OUT/t CHECK=1 VARIANTS='omp pthreads pthreads_v4 cuda cuda_tuned_at_run cudatime' CUDA_ENV='' REPS=2 BUDGET_S=100 POISSON19_ARGS='257 257 129 2037' MG3D_ARGS='256 256 256 200' SWC_ARGS='2047 2047 1000 100' timeout $((575 - (SECONDS-T0))) bash $A/run_device.sh 2>&1 | tail -30
echo "== end ($((SECONDS-T0)) s)"
