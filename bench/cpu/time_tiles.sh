#!/usr/bin/env bash
# Time tiling on the CPU (issue 14, section 3), on the GPU machine's host, one
# device call: for each time-loop procedure of bench/time_loops.list that the
# selection keeps, f2stencil tunes its example's sweeps for pthreads there,
# builds the library step by step (--time-tile=off), tuned (--time-tile=auto:
# the steps against the model's tiles, measured) and forced to T = 2, 4, 8;
# the example's checking program runs against the tuned library; and
# bench/cpu/time_tiles_bench.c times single sweeps and the time-loop
# procedure of each library at a size far beyond the caches. STREAM (triad,
# all threads) is measured in the same call; the single-sweep bound is
# STREAM over the bytes one update moves when each sweep is a trip through
# memory (bench/time_loops.list: accesses x 8 or 4 bytes). One row a
# procedure, with its precision; the table is printed last.
# Selection as in bench/gpu/time_tiles.sh: PREC='double single' and ONLY (a
# regular expression on "example/procedure/stencil"). SIZE2 and SIZE3
# (e.g. 256,256 and 48,40,32) replace the list's sizes, for tuning and
# timing, of the 2D and 3D rows; with THREADS (the library's threads and
# STREAM's, default all) they make a small run that shows the script works.
# MODES: off (the steps), N (overlapped tiles, T = N), sN (the streaming form,
# T = N: --time-tile=N --time-tile-form=streaming, tiles of x and y walked
# along z, codegen/CTimeStream.h) and auto (the tuner measures the steps and
# both forms and keeps the fastest); CHECK: the modes whose libraries the
# checking programs run against (default auto). The first table's T columns
# are 2, 4, 8 (overlapped); the second has every mode, with what it ran.
# Needs .tl-carry/ (bench/gpu/time_loops_build.sh builds it).
#   run(command="bash bench/cpu/time_tiles.sh", carry=[".tl-carry"], timeout_s=600)
# The 3D ping-pong Jacobi at 512^3, the steps against the streaming form:
#   run(command="ONLY=jacobi3d_pingpong/ PREC=double MODES='off s2 s4 s8 auto' CHECK='s4 auto' bash bench/cpu/time_tiles.sh",
#       carry=[".tl-carry"], timeout_s=600)
set -u
cd "$(dirname "$0")/../.."
source bench/time_loops_rows.sh
C=$PWD/.tl-carry
R=/tmp/f2s-tt
rm -rf $R && mkdir -p $R
export LD_LIBRARY_PATH=$C/lib
export XDG_CACHE_HOME=$R/cache
STEPS=${STEPS:-20}
BUDGET=${BUDGET:-25}
MODES=${MODES:-off auto 2 4 8}    # off, auto, N or sN
STOP_AFTER=${STOP_AFTER:-}        # seconds: no library is built after this, so that the tables are printed
skipped=()
THREADS=${THREADS:-}               # the library's threads (F2S_NUM_THREADS), STREAM's too; default: all
[ -n "$THREADS" ] && export F2S_NUM_THREADS=$THREADS
mapfile -t selected < <(time_loop_rows)
[ ${#selected[@]} -gt 0 ] || { echo "no row of bench/time_loops.list is selected"; exit 2; }
lscpu | grep -E "^Model name|^CPU\(s\)|^L2|^L3" | sed 's/  */ /g'
gcc -O3 -fopenmp -march=native -o $R/stream bench/cpu/stream.c
OMP_NUM_THREADS=${THREADS:-$(nproc)} OMP_PROC_BIND=spread OMP_PLACES=cores $R/stream | tee $R/stream.txt
triad=$(grep -oE 'triad_gbs=[0-9.]+' $R/stream.txt | cut -d= -f2 | head -1)
declare -A gups=() sweeps=() sums=()
rows=()
modes=()
for name in $(printf '%s\n' "${selected[@]}" | awk '!seen[$1]++ {print $1}'); do
  mine=()
  for r in "${selected[@]}"; do [[ $r == "$name "* ]] && mine+=("$r"); done
  read -r _ ext _ _ _ _ tune size odd _ <<<"${mine[0]}"
  case ${size//[^,]/} in
  ,) [ -n "${SIZE2:-}" ] && tune=$SIZE2 && size=$SIZE2 ;;
  ,,) [ -n "${SIZE3:-}" ] && tune=$SIZE3 && size=$SIZE3 ;;
  esac
  src=examples/$name/$name.$ext
  check=""
  chosen=""
  for mode in $MODES; do
    if [ -n "$STOP_AFTER" ] && [ $SECONDS -ge "$STOP_AFTER" ]; then
      skipped+=("$name $mode")
      continue
    fi
    out=$R/$name/$mode
    t0=$SECONDS
    form=overlapped
    [[ $mode == s* ]] && form=streaming
    "$C/f2stencil" -q --target=pthreads --budget="$BUDGET" --reps=3 --tune-size="$tune" \
      --time-tile=${mode#s} --time-tile-form=$form -o "$out" "$src" >"$R/$name-$mode.log" 2>&1 ||
      { echo "$name $mode: f2stencil failed"; tail -5 "$R/$name-$mode.log"; continue; }
    echo "$name --time-tile=${mode#s} --time-tile-form=$form: built in $((SECONDS - t0)) s"
    grep -E "time loop" "$R/$name-$mode.log" | sed 's/^f2stencil: /  /'
    if [[ " ${CHECK:-auto} " == *" $mode "* ]]; then
      gcc -o "$R/${name}_check" "$C/obj/${name}_orig.o" "$C/obj/${name}_main.o" -L"$out" \
        -Wl,-rpath,"$out" -lf2s_$name -L"$C/lib" -lgfortran -lm -lpthread
      for s in "" "$odd"; do
        if "$R/${name}_check" ${s//,/ } >"$R/${name}_check.txt" 2>&1 &&
          grep -q PASSED "$R/${name}_check.txt"; then check="$check PASS"; else
          check="$check FAIL"; tail -3 "$R/${name}_check.txt"; fi
      done
      check="$check ($mode)"
    fi
    for r in "${mine[@]}"; do
      read -r _ _ proc _ _ <<<"$r"
      upper=$(echo "$proc" | tr a-z A-Z)
      gcc -O2 -DTIME_LOOP_$upper -I"$out" -o "$R/${proc}_${mode}_bench" bench/cpu/time_tiles_bench.c \
        -L"$out" -Wl,-rpath,"$out" -lf2s_$name -lm
      "$R/${proc}_${mode}_bench" "$STEPS" ${size//,/ } | sed "s/^/$proc /" | tee "$R/${proc}_${mode}.txt"
      gups[$proc:$mode]=$(awk '$2=="loop"{print $5}' "$R/${proc}_${mode}.txt")
      [ -z "${sweeps[$proc]:-}" ] && sweeps[$proc]=$(awk '$2=="sweeps"{print $5}' "$R/${proc}_${mode}.txt")
      sums[$proc]="${sums[$proc]:-} $(awk '$2=="precision"{sub(/,$/, "", $5); print $5}' "$R/${proc}_${mode}.txt")"
      ran=$(loop_choice "$out/f2s_$name.json" "$proc" | awk '{print $2, $3}' | sed 's/ $//')
      modes+=("| $proc | $mode | $ran | ${gups[$proc:$mode]} |")
      [ "$mode" = auto ] && gups[$proc:auto]="${gups[$proc:auto]} ($ran)"
    done
  done
  for r in "${mine[@]}"; do
    read -r _ _ proc stencil prec _ _ _ _ accesses <<<"$r"
    bytes=$((accesses * $(element_bytes "$prec")))
    same=-  # the grids' checksum after each mode's bench: tiled libraries must give the steps'
    if [ -n "$(echo ${sums[$proc]:-})" ]; then
      [ "$(printf '%s\n' ${sums[$proc]} | sort -u | wc -l)" = 1 ] && same=same || same="differ:${sums[$proc]}"
    fi
    bound=$(awk -v t="$triad" -v b="$bytes" 'BEGIN{printf "%.2f", t / b}')
    rows+=("| $name | $proc | $stencil | $prec | ${size//,/x} | $STEPS |$check | ${sweeps[$proc]:-} | ${gups[$proc:off]:-} | ${gups[$proc:auto]:-} | ${gups[$proc:2]:-} | ${gups[$proc:4]:-} | ${gups[$proc:8]:-} | $same | $bytes | $bound |")
  done
done
[ ${#skipped[@]} -gt 0 ] && echo "not built (STOP_AFTER=$STOP_AFTER s): ${skipped[*]}"
echo
echo "STREAM triad: $triad GB/s, ${THREADS:-$(nproc)} threads; bound = triad / bytes per update (each sweep a trip through memory), in GUpdates/s"
echo "| example | procedure | stencil | precision | size | steps | check (default, odd) | sweeps | loop, steps | loop, tuned (choice) | T=2 | T=4 | T=8 | checksum, every mode | bytes/update | single-sweep bound |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "| procedure | mode | ran | loop GUpdates/s |"
echo "|---|---|---|---|"
printf '%s\n' "${modes[@]}"
