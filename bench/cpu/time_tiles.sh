#!/usr/bin/env bash
# Time tiling on the CPU (issue 14, section 3), on the GPU machine's host, one
# device call: for the 3D ping-pong Jacobi (7-point) and the 2D heat loop
# (5-point, copy back), f2stencil tunes the sweeps for pthreads there, builds
# the library step by step (--time-tile=off), tuned (--time-tile=auto: the
# steps against the model's tiles of both forms, measured) and forced to
# T = 2, 4, 8; the
# examples' checking programs run against the tuned library; and
# bench/cpu/time_tiles_bench.c times single sweeps and the time-loop procedure
# of each library at a size far beyond the caches. STREAM (triad, 16 threads)
# is measured in the same call; the single-sweep bound is STREAM over the
# bytes one update moves (read one grid, write the other, as STREAM counts).
# MODES: off (the steps), N (overlapped tiles, T = N), sN (the streaming form,
# T = N: --time-tile=N --time-tile-form=streaming, tiles of x and y walked
# along z, codegen/CTimeStream.h) and auto (the tuner measures the steps and
# both forms and keeps the fastest: its choice is the "time loop" line printed
# under the build); CHECK: the modes whose libraries the checking programs
# run against (default auto). The first table's T columns are 2, 4, 8
# (overlapped); the second has every mode.
# Needs .tl-carry/ (bench/gpu/time_loops_build.sh builds it).
#   run(command="bash bench/cpu/time_tiles.sh", carry=[".tl-carry"], timeout_s=600)
# The 3D ping-pong Jacobi at 512^3, the steps against the streaming form:
#   run(command="ONLY=jacobi3d MODES='off s2 s3 s4 s6 s8 auto' CHECK='s4 auto' bash bench/cpu/time_tiles.sh",
#       carry=[".tl-carry"], timeout_s=600)
set -u
cd "$(dirname "$0")/../.."
C=$PWD/.tl-carry
R=/tmp/f2s-tt
rm -rf $R && mkdir -p $R
export LD_LIBRARY_PATH=$C/lib
export XDG_CACHE_HOME=$R/cache
STEPS=${STEPS:-20}
BUDGET=${BUDGET:-25}
MODES=${MODES:-off auto 2 4 8}    # off, auto, N or sN
ONLY=${ONLY:-}                    # a regular expression: only the examples it matches
lscpu | grep -E "^Model name|^CPU\(s\)|^L2|^L3" | sed 's/  */ /g'
gcc -O3 -fopenmp -march=native -o $R/stream bench/cpu/stream.c
OMP_NUM_THREADS=$(nproc) OMP_PROC_BIND=spread OMP_PLACES=cores $R/stream | tee $R/stream.txt
triad=$(grep -oE 'triad_gbs=[0-9.]+' $R/stream.txt | cut -d= -f2 | head -1)
rows=()
modes=()
while read -r name ext tune size odd bytes; do
  [ -n "$ONLY" ] && ! [[ $name =~ $ONLY ]] && continue
  src=examples/$name/$name.$ext
  upper=$(echo "$name" | tr a-z A-Z)
  declare -A gups=()
  check=""
  sweeps=""
  for mode in $MODES; do
    out=$R/$name/$mode
    t0=$SECONDS
    form=overlapped
    [[ $mode == s* ]] && form=streaming
    "$C/f2stencil" -q --target=pthreads --budget="$BUDGET" --reps=3 --tune-size="$tune" \
      --time-tile=${mode#s} --time-tile-form=$form -o "$out" "$src" >"$R/$name-$mode.log" 2>&1 ||
      { echo "$name $mode: f2stencil failed"; tail -5 "$R/$name-$mode.log"; continue; }
    echo "$name --time-tile=${mode#s} --time-tile-form=$form: built in $((SECONDS - t0)) s"
    grep -E "time loop" "$R/$name-$mode.log" | sed 's/^f2stencil: /  /'
    # The tile the library runs: the record's choice.
    tile=$(python3 -c "import json,sys; c=json.load(open(sys.argv[1]))['time_loops'][0]['time_tiling']['choices'][0]; print(('%s T=%s %s' % (c.get('form','overlapped'), c['time_tile'], 'x'.join(map(str, c['tile'])))) if c.get('tiled') else 'steps')" "$out/f2s_$name.json" 2>/dev/null)
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
    gcc -O2 -DEXAMPLE_$upper -I"$out" -o "$R/${name}_${mode}_bench" bench/cpu/time_tiles_bench.c \
      -L"$out" -Wl,-rpath,"$out" -lf2s_$name -lm
    "$R/${name}_${mode}_bench" "$STEPS" ${size//,/ } | tee "$R/${name}_${mode}.txt"
    gups[$mode]=$(awk '$1=="loop"{print $4}' "$R/${name}_${mode}.txt")
    [ -z "$sweeps" ] && sweeps=$(awk '$1=="sweeps"{print $4}' "$R/${name}_${mode}.txt")
    modes+=("| $name | $mode | ${tile:-} | ${gups[$mode]} |")
  done
  chosen=$(grep -oE "tiled in time|step by step" "$R/$name-auto.log" | head -1)
  bound=$(awk -v t="$triad" -v b="$bytes" 'BEGIN{printf "%.2f", t / b}')
  rows+=("| $name | ${size//,/x} | $STEPS |$check | $sweeps | ${gups[off]:-} | ${gups[auto]:-} ($chosen) | ${gups[2]:-} | ${gups[4]:-} | ${gups[8]:-} | $bound |")
done <<'LIST'
jacobi3d_pingpong f 256,256,256 512,512,512 67,45,33 16
heat2d_steps f90 4096,4096 8192,8192 677,45 16
LIST
echo
echo "STREAM triad: $triad GB/s; bound = triad / bytes per update (read one grid, write one), in GUpdates/s"
echo "| example | size | steps | check (default, odd) | sweeps | loop, steps | loop, tuned | T=2 | T=4 | T=8 | single-sweep bound |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "| example | mode | tile run (the record's choice) | loop GUpdates/s |"
echo "|---|---|---|---|"
printf '%s\n' "${modes[@]}"
