#!/usr/bin/env bash
# Time tiling on the GPU (issue 14, section 3), one device call: for each
# time-loop procedure of bench/time_loops.list that the selection keeps, its
# example's library is tuned for cuda at a size that fills the device, then
# built step by step (--time-tile=off) and tiled in time with T = 2, 4, 8
# (the sweeps' tuning reused from the cache); the example's checking
# program (every loop of the example against its original) runs against the
# T=4 library; bench/gpu/time_loops_bench.c times single sweeps and the
# time-loop procedure of each library, the grids resident in a data region.
# The copy bound is measured in the same call. One row a procedure, with
# its precision; the table is printed last.
# MODES: off (the steps), N (overlapped tiles, T = N), sN (the streaming
# form, T = N: --time-tile=N --time-tile-form=streaming) and auto (the GPU
# tuner measures the steps and both forms and keeps the fastest: the
# "tuned" column, with its choice); CHECK: the modes whose libraries the
# checking programs run against. A mode whose blocks need more shared
# memory than the GPU allows (227 KiB on sm_90) runs the steps (its
# fallback): the per-mode table says so.
# Selection (bench/time_loops_rows.sh): PREC='double single' (default both)
# and ONLY, a regular expression on "example/procedure/stencil". An example
# is built once for all its selected rows (heat2d_steps holds both heat
# loops, and tunes both whichever is selected). TUNE2, TUNE3 (e.g.
# 8192,8192 and 256,256,256): tune the 2D or 3D rows at that size instead
# of the size they are timed at (default), which makes auto's tuning (21
# harnesses a loop, each run on the grids of the tuning size) about 4x
# shorter.
# Needs .tl-carry/ (bench/gpu/time_loops_build.sh).
# Every row does not fit one call (570 s): one stencil a call, both precisions,
# the steps against the tuner's choice, the log kept if the call is cut:
#   run(command="timeout 570 env ONLY='^jacobi2d9' MODES='off auto' CHECK=auto BUDGET=8 TUNE2=8192,8192 STOP_AFTER=360 bash bench/gpu/time_tiles.sh > $OUT/tt.log 2>&1; tail -30 $OUT/tt.log",
#       carry=[".tl-carry"], timeout_s=600)
# The 3D ping-pong Jacobi (7-point) and the 27-point box at 512^3, the steps
# against both forms at T = 2..8, one call each (about 40 s a mode):
#   run(command="ONLY=jacobi3d_pingpong/ PREC=double MODES='off 2 3 s2 s3 s4 s6 s8' CHECK='s2 s4' bash bench/gpu/time_tiles.sh",
#       carry=[".tl-carry"], timeout_s=600)
#   run(command="ONLY=box27_steps/ PREC=double MODES='off 2 s2 s3 s4 s6 s8' CHECK='s2 s4' bash bench/gpu/time_tiles.sh",
#       carry=[".tl-carry"], timeout_s=600)
set -u
cd "$(dirname "$0")/../.."
source bench/time_loops_rows.sh
C=$PWD/.tl-carry
R=/tmp/f2s-gt
rm -rf $R && mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$C/lib
export XDG_CACHE_HOME=$R/cache
STEPS=${STEPS:-100}
BUDGET=${BUDGET:-12}
MODES=${MODES:-off 2 4 8}         # off, N or sN; the first table's T columns are 2, 4, 8 (overlapped)
STOP_AFTER=${STOP_AFTER:-}        # seconds: no library is built after this, so that the tables are printed
skipped=()
LIMIT=$((227 * 1024))             # sm_90's shared memory a block, opted in
mapfile -t selected < <(time_loop_rows)
[ ${#selected[@]} -gt 0 ] || { echo "no row of bench/time_loops.list is selected"; exit 2; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
nvcc -O2 -o $R/copy_bw bench/gpu/copy_bw.cu && $R/copy_bw $((512 * 512 * 512 * 8)) | tee $R/copy.txt
bw=$(grep -oE '"gbps": [0-9.]+' $R/copy.txt | head -1 | awk '{print $2}')
declare -A gups=() sweeps=() sums=() chose=()
rows=()
modes=()
for name in $(printf '%s\n' "${selected[@]}" | awk '!seen[$1]++ {print $1}'); do
  mine=()
  for r in "${selected[@]}"; do [[ $r == "$name "* ]] && mine+=("$r"); done
  read -r _ ext _ _ _ size _ _ odd _ <<<"${mine[0]}"
  tune=$size
  case ${size//[^,]/} in
  ,) tune=${TUNE2:-$size} ;;
  ,,) tune=${TUNE3:-$size} ;;
  esac
  check=""
  for mode in $MODES; do
    if [ -n "$STOP_AFTER" ] && [ $SECONDS -ge "$STOP_AFTER" ]; then
      skipped+=("$name $mode")
      continue
    fi
    out=$R/$name/$mode
    t0=$SECONDS
    form=overlapped
    [[ $mode == s* ]] && form=streaming
    "$C/f2stencil" -q --target=cuda --budget="$BUDGET" --tune-size="$tune" --time-tile=${mode#s} \
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
    for r in "${mine[@]}"; do
      read -r _ _ proc _ prec _ <<<"$r"
      upper=$(echo "$proc" | tr a-z A-Z)
      gcc -O2 -DTIME_LOOP_$upper -I"$out" -o "$R/${proc}_${mode}_bench" bench/gpu/time_loops_bench.c \
        -L"$out" -Wl,-rpath,"$out" -lf2s_$name -lm
      "$R/${proc}_${mode}_bench" "$STEPS" ${size//,/ } | sed "s/^/$proc /" | tee "$R/${proc}_${mode}.txt"
      gups[$proc:$mode]=$(awk '$2=="loop"{print $5}' "$R/${proc}_${mode}.txt")
      [ -z "${sweeps[$proc]:-}" ] && sweeps[$proc]=$(awk '$2=="sweeps"{print $5}' "$R/${proc}_${mode}.txt")
      sums[$proc]="${sums[$proc]:-} $(awk '$2=="precision"{sub(/,$/, "", $5); print $5}' "$R/${proc}_${mode}.txt")"
      read -r shared how <<<"$(loop_choice "$out/f2s_$name.json" "$proc")"
      [ "$mode" = auto ] && chose[$proc]=$how
      note=""
      [[ $shared =~ ^[0-9]+$ ]] && [ "$shared" -gt $LIMIT ] && note="does not fit: ran the steps"
      modes+=("| $proc | $prec | ${mode#s} | $form | ${how:-} | ${gups[$proc:$mode]} | ${shared:-} | $note |")
    done
  done
  for r in "${mine[@]}"; do
    read -r _ _ proc stencil prec _ _ _ _ accesses <<<"$r"
    bytes=$((accesses * $(element_bytes "$prec")))
    same=-  # the grids' checksum after each mode's bench: tiled libraries must give the steps'
    if [ -n "$(echo ${sums[$proc]:-})" ]; then
      [ "$(printf '%s\n' ${sums[$proc]} | sort -u | wc -l)" = 1 ] && same=same || same="differ:${sums[$proc]}"
    fi
    bound=$(awk -v t="$bw" -v b="$bytes" 'BEGIN{printf "%.1f", t / b}')
    tuned=${gups[$proc:auto]:-}
    [ -n "$tuned" ] && tuned="$tuned (${chose[$proc]:-?})"
    rows+=("| $name | $proc | $stencil | $prec | ${size//,/x}$([ "$tune" != "$size" ] && echo " (tuned at ${tune//,/x})") | $STEPS |$check | ${sweeps[$proc]:-} | ${gups[$proc:off]:-} | ${gups[$proc:2]:-} | ${gups[$proc:4]:-} | ${gups[$proc:8]:-} | $tuned | $same | $bytes | $bound |")
  done
done
echo
echo "| procedure | precision | T | form | ran | loop GUpdates/s | shared bytes a block | note |"
echo "|---|---|---|---|---|---|---|---|"
printf '%s\n' "${modes[@]}"
[ ${#skipped[@]} -gt 0 ] && echo "not built (STOP_AFTER=$STOP_AFTER s): ${skipped[*]}"
echo
echo "copy bound: $bw GB/s (device-to-device, read + write); single-sweep bound = copy bound / bytes per update, GUpdates/s"
echo "| example | procedure | stencil | precision | size | steps | check (default, odd) | sweeps | loop, steps | T=2 | T=4 | T=8 | tuned (choice) | checksum, every mode | bytes/update | single-sweep bound |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
