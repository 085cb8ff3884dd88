#!/usr/bin/env bash
# Nsight Compute on the generated 2D streaming kernel against the
# hand-written probe's at the same T (bench/RESULTS.md, "Where the generated
# kernel's time goes"): one launch of each at 16384², the sections that say
# where the issue slots go (warp states, scheduler, instructions, occupancy,
# memory), then each kernel's SASS. Needs what bench/gpu/ab_build.sh built
# (LIB: one of its folders, e.g. .ab-carry/h2/B-s8) and the probe
# (nvcc -O3 -arch=sm_90 -std=c++17 --fmad=false bench/gpu/probe_time_stream.cu
# -o .ab-carry/probe/probe). On the GPU machine (Firecracker: ncu reads the
# counters there; the clocks are left alone):
#   run(command="LIB=.ab-carry/h2/B-s8 T=8 bash bench/gpu/profile_stream.sh", carry=[...])
# Writes gen.txt, probe.txt, gen.sass, probe.sass under OUT (default /tmp).
set -u
cd "$(dirname "$0")/../.."
: "${LIB:?LIB: a folder of bench/gpu/ab_build.sh}"
T=${T:-8}
out=${OUT:-/tmp}
export PATH=/usr/local/cuda/bin:$PATH
sections=(--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats
  --section SchedulerStats --section InstructionStats --section MemoryWorkloadAnalysis_Tables)
ncu --clock-control none -k regex:'heat_steps_(cuda_)?tile_kernel' --launch-count 1 "${sections[@]}" \
  "$LIB/bench" 24 16384 16384 >"$out/gen.txt" 2>&1
ncu --clock-control none --kernel-name-base demangled -k "regex:stream<\(int\)$T, \(int\)256, \(int\)1, \(int\)2," --launch-count 1 \
  "${sections[@]}" .ab-carry/probe/probe 2d-big >"$out/probe.txt" 2>&1
sass() { # file pattern: the SASS of the functions whose name matches
  cuobjdump -sass "$1" | awk -v pat="$2" '/Function :/ {p = ($0 ~ pat)} p'
}
sass "$(ls "$LIB"/libf2s_*.so)" "heat_steps_tile_kernelILi${T}E" >"$out/gen.sass"
sass .ab-carry/probe/probe "6streamILi${T}ELi256ELi1ELi2E4Heat" >"$out/probe.sass"
wc -l "$out"/gen.sass "$out"/probe.sass
for f in gen probe; do
  echo "== $f"
  grep -E "Duration|Registers Per|Achieved Occupancy|Issue Slots Busy|Issued Ipc|Executed Instructions  |Warp Cycles Per Issued|Stall|Memory Throughput|DRAM Throughput|Bank" "$out/$f.txt" | head -40
done
