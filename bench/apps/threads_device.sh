#!/bin/bash
# Small calls on fewer threads (runtime f2s_threads_for), A/B on the GPU
# machine's 16-core host (2026-12-07, session of 22:00 UTC): the pthreads
# programs with one thread per 4096 points of a call (the default) against
# no limit (F2S_POINTS_PER_THREAD=0, every call on all threads), OpenMP's
# program beside them, 3 rounds interleaved; then a profiled run of each
# pthreads program. Repo root, bench/apps/out carried.
A=bench/apps
export LD_LIBRARY_PATH=$PWD/$A/out/fortlibs
export OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=close OMP_PLACES=cores
nvidia-smi --query-gpu=name --format=csv,noheader; lscpu | grep 'Model name'; cat $A/out/commit.txt
for p in "mg3d|256 256 256 200" "swc|2047 2047 1000 100"; do
  app=${p%%|*} args=${p#*|}
  REPS=3 bash $A/ab_device.sh ${app}_pthreads "$args" F2S_POINTS_PER_THREAD=0 F2S_POINTS_PER_THREAD=4096
  REPS=3 bash $A/ab_device.sh ${app}_omp "$args" X=1
done
for p in "mg3d|256 256 256 200" "swc|2047 2047 1000 100"; do
  app=${p%%|*} args=${p#*|}
  echo "== profile ${app}_pthreads"
  F2S_PROFILE=1 $A/out/bin/${app}_pthreads $args 2>&1 | grep -A40 'per kernel and target' | grep -v '^RESULT'
done
