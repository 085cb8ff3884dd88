#!/usr/bin/env bash
# Time loops on the GPU (issue 14, sections 1 and 2), one device call: for
# each time-loop example, f2stencil tunes every sweep for the cuda target at
# a size that fills the device, its Fortran checking program runs the
# library's time loop on the GPU (no data region: the loop keeps the grids
# there itself) at the program's default size and an odd one, and
# bench/gpu/time_loops_bench.c times the single-sweep calls against the
# time-loop procedure. The copy bound is measured in the same call. Prints
# a table last. Needs .tl-carry/ (bench/gpu/time_loops_build.sh).
#   run(command="bash bench/gpu/time_loops.sh", carry=[".tl-carry"], timeout_s=600)
set -u
cd "$(dirname "$0")/../.."
C=$PWD/.tl-carry
R=/tmp/f2s-tl
rm -rf $R && mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$C/lib
STEPS=${STEPS:-100}
BUDGET=${BUDGET:-12}
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
nvcc -O2 -o $R/copy_bw bench/gpu/copy_bw.cu && $R/copy_bw $((512 * 512 * 512 * 8)) | tee $R/copy.txt
rows=()
while read -r name ext size odd bytes; do
  out=$R/$name
  t0=$SECONDS
  "$C/f2stencil" -q --target=cuda --budget="$BUDGET" --tune-size="$size" -o "$out" \
    "examples/$name/$name.$ext" >"$R/$name.log" 2>&1 || { echo "tuning $name failed"; tail -5 "$R/$name.log"; continue; }
  echo "$name: tuned in $((SECONDS - t0)) s"
  grep -E "^f2stencil: '" "$R/$name.log" | sed 's/^f2stencil: /  /'
  gcc -o "$R/${name}_check" "$C/obj/${name}_orig.o" "$C/obj/${name}_main.o" -L"$out" \
    -Wl,-rpath,"$out" -lf2s_$name -L"$C/lib" -lgfortran -lm
  check=""
  for s in "" "$odd"; do
    if "$R/${name}_check" ${s//,/ } >"$R/${name}_check.txt" 2>&1 && grep -q PASSED "$R/${name}_check.txt"; then
      check="$check PASS"
    else
      check="$check FAIL"; tail -3 "$R/${name}_check.txt"
    fi
  done
  upper=$(echo "$name" | tr a-z A-Z)
  gcc -O2 -DEXAMPLE_$upper -I"$out" -o "$R/${name}_bench" bench/gpu/time_loops_bench.c \
    -L"$out" -Wl,-rpath,"$out" -lf2s_$name
  "$R/${name}_bench" "$STEPS" ${size//,/ } | tee "$R/${name}_bench.txt"
  s=$(awk '$1=="sweeps"{print $4}' "$R/${name}_bench.txt")
  l=$(awk '$1=="loop"{print $4}' "$R/${name}_bench.txt")
  c=$(awk '$1=="loop+copy"{print $4}' "$R/${name}_bench.txt")
  rows+=("| $name | ${size//,/x} | $STEPS |$check | $s | $l | $c | $bytes |")
done <<'LIST'
jacobi3d_pingpong f 512,512,512 67,45,33 16
heat2d_steps f90 16384,16384 677,45 32
fdtd2d_steps f90 8192,8192 677,45 56
LIST
bw=$(grep -oE '"gbps": [0-9.]+' $R/copy.txt | head -1 | awk '{print $2}')
echo
echo "copy bound: $bw GB/s (device-to-device, read + write)"
echo "| example | size | steps | check (default, odd) | sweeps GUpd/s | loop GUpd/s | loop+copy GUpd/s | bytes/update (one sweep at a time) |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
