#!/bin/bash
# The bandwidth bounds the applications' kernels are measured against, on the
# GPU machine: STREAM (copy and triad, bench/cpu/stream.c) on its host with
# the OpenMP settings of run_device.sh, and the GPU's device-to-device copy
# (bench/gpu/copy_bw.cu, bytes read plus written). F2S_PROFILE's per-kernel
# GB/s (compulsory traffic over time) divided by these is the fraction of the
# bound. Writes $OUT/bounds.txt (or /tmp/bounds.txt).
#   usage (repo root, on the GPU machine): bash bench/apps/bounds_device.sh
set -eu
cd "$(dirname "$0")/../.."
export PATH=/usr/local/cuda/bin:$PATH
res=${OUT:-/tmp}/bounds.txt
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
export OMP_PROC_BIND=${OMP_PROC_BIND:-close} OMP_PLACES=${OMP_PLACES:-cores}
gcc -O3 -fopenmp -march=native -o /tmp/f2s_stream bench/cpu/stream.c
nvcc -O3 -arch=sm_90 -o /tmp/f2s_copy_bw bench/gpu/copy_bw.cu
{
  echo "host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2) x $(nproc)"
  /tmp/f2s_stream
  nvidia-smi --query-gpu=name --format=csv,noheader
  /tmp/f2s_copy_bw
} | tee "$res"
