#!/bin/bash
# Where small calls and the copies back go (2026-12-07, session of 22:00 UTC):
# the launch floor (bench/gpu/call_latency.cu), the staged copies into fresh
# pages (bench/gpu/staged_copy.cu), and the cuda programs at tiny sizes,
# where every call is small: their time over their calls (the calls counted
# by a profiled run of the same length) against the floor. Repo root,
# bench/apps/out carried.
export PATH=/usr/local/cuda/bin:$PATH
A=bench/apps
export LD_LIBRARY_PATH=$PWD/$A/out/fortlibs
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; cat $A/out/commit.txt
nvcc -O2 -arch=sm_90 bench/gpu/call_latency.cu -o /tmp/cl && /tmp/cl
nvcc -O2 -arch=sm_90 bench/gpu/staged_copy.cu -o /tmp/sc && /tmp/sc 1024
for p in "mg3d_cuda|16 16 16 2000" "mg3d_cuda|8 8 8 4000" "swc_cuda|64 64 5000 1000"; do
  prog=${p%%|*} args=${p#*|}
  calls=$(F2S_PROFILE=1 $A/out/bin/$prog $args 2>&1 | awk '$2 == "cuda" && $1 !~ /^\(/ && $3 ~ /^[0-9]+$/ { n += $3 } END { print n }')
  for rep in 1 2 3; do
    w=$($A/out/bin/$prog $args 2>&1 | sed -n 's/.*wall_s=\([0-9.eE+-]*\).*/\1/p')
    echo "$prog $args: $calls calls, loop $w s, $(awk -v w=$w -v n=$calls 'BEGIN { printf "%.2f", 1e6 * w / n }') us a call"
  done
done
