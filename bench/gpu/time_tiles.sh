#!/usr/bin/env bash
# Time tiling on the GPU (issue 14, section 3), one device call: for each
# time-loop example, f2stencil tunes the sweeps for cuda at a size that fills
# the device, then builds the library step by step (--time-tile=off) and tiled
# in time with T = 2, 4, 8 (the sweeps' tuning reused from the cache); the
# checking programs run against the T=4 library; bench/gpu/time_loops_bench.c
# times single sweeps and the time-loop procedure of each library, the grids
# resident in a data region. The copy bound is measured in the same call.
# MODES: off (the steps), N (overlapped tiles, T = N), sN (the streaming
# form, T = N: --time-tile=N --time-tile-form=streaming) and auto (the GPU
# tuner measures the steps and both forms and keeps the fastest: its choice
# is the "time loop" line printed under the build); CHECK: the modes
# whose libraries the checking programs run against. A mode whose blocks
# need more shared memory than the GPU allows (227 KiB on sm_90) runs the
# steps (its fallback): the per-mode table says so.
# Needs .tl-carry/ (bench/gpu/time_loops_build.sh).
#   run(command="bash bench/gpu/time_tiles.sh", carry=[".tl-carry"], timeout_s=600)
# The 3D ping-pong Jacobi (7-point) and the 27-point box at 512^3, the steps
# against both forms at T = 2..8, one call each (about 40 s a mode):
#   run(command="ONLY=jacobi3d MODES='off 2 3 s2 s3 s4 s6 s8' CHECK='s2 s4' bash bench/gpu/time_tiles.sh",
#       carry=[".tl-carry"], timeout_s=600)
#   run(command="ONLY=box27 MODES='off 2 s2 s3 s4 s6 s8' CHECK='s2 s4' bash bench/gpu/time_tiles.sh",
#       carry=[".tl-carry"], timeout_s=600)
set -u
cd "$(dirname "$0")/../.."
C=$PWD/.tl-carry
R=/tmp/f2s-gt
rm -rf $R && mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$C/lib
export XDG_CACHE_HOME=$R/cache
STEPS=${STEPS:-100}
BUDGET=${BUDGET:-12}
MODES=${MODES:-off 2 4 8}         # off, N or sN; the first table's T columns are 2, 4, 8 (overlapped)
LIMIT=$((227 * 1024))             # sm_90's shared memory a block, opted in
ONLY=${ONLY:-}                    # a regular expression: only the examples it matches
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
nvcc -O2 -o $R/copy_bw bench/gpu/copy_bw.cu && $R/copy_bw $((512 * 512 * 512 * 8)) | tee $R/copy.txt
bw=$(grep -oE '"gbps": [0-9.]+' $R/copy.txt | head -1 | awk '{print $2}')
rows=()
modes=()
while read -r name ext size odd bytes; do
  [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]] && continue
  upper=$(echo "$name" | tr a-z A-Z)
  declare -A gups=()
  check=""
  sweeps=""
  for mode in $MODES; do
    out=$R/$name/$mode
    t0=$SECONDS
    form=overlapped
    [[ $mode == s* ]] && form=streaming
    "$C/f2stencil" -q --target=cuda --budget="$BUDGET" --tune-size="$size" --time-tile=${mode#s} \
      --time-tile-form=$form -o "$out" "examples/$name/$name.$ext" >"$R/$name-$mode.log" 2>&1 ||
      { echo "$name $mode: f2stencil failed"; tail -5 "$R/$name-$mode.log"; continue; }
    echo "$name --time-tile=${mode#s} --time-tile-form=$form: built in $((SECONDS - t0)) s"
    grep -E "time loop" "$R/$name-$mode.log" | sed 's/^f2stencil: /  /'
    [ "$mode" = auto ] && { grep -ho '"why": "measured on the GPU[^"]*"' "$out"/*.json |
      sed 's/^/  tuned: /'; }
    if [[ " ${CHECK:-4} " == *" $mode "* ]]; then
      gcc -o "$R/${name}_check" "$C/obj/${name}_orig.o" "$C/obj/${name}_main.o" -L"$out" \
        -Wl,-rpath,"$out" -lf2s_$name -L"$C/lib" -lgfortran -lm
      for s in "" "$odd"; do
        if "$R/${name}_check" ${s//,/ } >"$R/${name}_check.txt" 2>&1 &&
          grep -q PASSED "$R/${name}_check.txt"; then check="$check PASS"; else
          check="$check FAIL"; tail -3 "$R/${name}_check.txt"; fi
      done
      check="$check ($mode)"
    fi
    gcc -O2 -DEXAMPLE_$upper -I"$out" -o "$R/${name}_${mode}_bench" bench/gpu/time_loops_bench.c \
      -L"$out" -Wl,-rpath,"$out" -lf2s_$name
    "$R/${name}_${mode}_bench" "$STEPS" ${size//,/ } | tee "$R/${name}_${mode}.txt"
    gups[$mode]=$(awk '$1=="loop"{print $4}' "$R/${name}_${mode}.txt")
    [ -z "$sweeps" ] && sweeps=$(awk '$1=="sweeps"{print $4}' "$R/${name}_${mode}.txt")
    # The choice's reason in the record: "--time-tile=N, form, B bytes of shared memory a block".
    shared=$(cat "$out"/*.json 2>/dev/null | grep -oE '[0-9]+ bytes of shared memory a block' |
      head -1 | awk '{print $1}')
    note=""
    [ -n "$shared" ] && [ "$shared" -gt $LIMIT ] && note="does not fit: ran the steps"
    modes+=("| $name | ${mode#s} | $form | ${gups[$mode]} | ${shared:-} | $note |")
  done
  bound=$(awk -v t="$bw" -v b="$bytes" 'BEGIN{printf "%.1f", t / b}')
  rows+=("| $name | ${size//,/x} | $STEPS |$check | $sweeps | ${gups[off]:-} | ${gups[2]:-} | ${gups[4]:-} | ${gups[8]:-} | ${gups[auto]:-} | $bound |")
done <<'LIST'
jacobi3d_pingpong f 512,512,512 67,45,33 16
box27_steps f90 512,512,512 67,45,33 16
heat2d_steps f90 16384,16384 677,45 32
fdtd2d_steps f90 8192,8192 677,45 56
LIST
echo
echo "copy bound: $bw GB/s (device-to-device, read + write); single-sweep bound = copy bound / bytes per update, GUpdates/s"
echo "| example | size | steps | check (default, odd) | sweeps | loop, steps | T=2 | T=4 | T=8 | tuned | single-sweep bound |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "| example | T | form | loop GUpdates/s | shared bytes a block | note |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${modes[@]}"
