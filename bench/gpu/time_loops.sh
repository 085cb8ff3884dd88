#!/usr/bin/env bash
# Time loops on the GPU (issue 14, sections 1 and 2), one device call: for
# each time-loop procedure of bench/time_loops.list that the selection
# keeps, f2stencil tunes every sweep of its example for the cuda target at a
# size that fills the device, the example's checking program runs the
# library's time loops on the GPU (no data region: each loop keeps the grids
# there itself) at the program's default size and an odd one, and
# bench/gpu/time_loops_bench.c times the single-sweep calls against the
# time-loop procedure. The copy bound is measured in the same call. Prints
# a table last, a row a procedure. Selection as in bench/gpu/time_tiles.sh:
# PREC='double single' and ONLY (a regular expression on
# "example/procedure/stencil"). Needs .tl-carry/ (bench/gpu/time_loops_build.sh).
#   run(command="bash bench/gpu/time_loops.sh", carry=[".tl-carry"], timeout_s=600)
set -u
cd "$(dirname "$0")/../.."
source bench/time_loops_rows.sh
C=$PWD/.tl-carry
R=/tmp/f2s-tl
rm -rf $R && mkdir -p $R
export PATH=/usr/local/cuda/bin:$PATH
export LD_LIBRARY_PATH=$C/lib
STEPS=${STEPS:-100}
BUDGET=${BUDGET:-12}
mapfile -t selected < <(time_loop_rows)
[ ${#selected[@]} -gt 0 ] || { echo "no row of bench/time_loops.list is selected"; exit 2; }
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
nvcc -O2 -o $R/copy_bw bench/gpu/copy_bw.cu && $R/copy_bw $((512 * 512 * 512 * 8)) | tee $R/copy.txt
bw=$(grep -oE '"gbps": [0-9.]+' $R/copy.txt | head -1 | awk '{print $2}')
rows=()
for name in $(printf '%s\n' "${selected[@]}" | awk '!seen[$1]++ {print $1}'); do
  mine=()
  for r in "${selected[@]}"; do [[ $r == "$name "* ]] && mine+=("$r"); done
  read -r _ ext _ _ _ size _ _ odd _ <<<"${mine[0]}"
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
  for r in "${mine[@]}"; do
    read -r _ _ proc stencil prec _ _ _ _ accesses <<<"$r"
    upper=$(echo "$proc" | tr a-z A-Z)
    gcc -O2 -DTIME_LOOP_$upper -I"$out" -o "$R/${proc}_bench" bench/gpu/time_loops_bench.c \
      -L"$out" -Wl,-rpath,"$out" -lf2s_$name -lm
    "$R/${proc}_bench" "$STEPS" ${size//,/ } | tee "$R/${proc}_bench.txt"
    s=$(awk '$1=="sweeps"{print $4}' "$R/${proc}_bench.txt")
    l=$(awk '$1=="loop"{print $4}' "$R/${proc}_bench.txt")
    c=$(awk '$1=="loop+copy"{print $4}' "$R/${proc}_bench.txt")
    bytes=$((accesses * $(element_bytes "$prec")))
    bound=$(awk -v t="$bw" -v b="$bytes" 'BEGIN{printf "%.1f", t / b}')
    rows+=("| $name | $proc | $stencil | $prec | ${size//,/x} | $STEPS |$check | $s | $l | $c | $bytes | $bound |")
  done
done
echo
echo "copy bound: $bw GB/s (device-to-device, read + write); single-sweep bound = copy bound / bytes per update"
echo "| example | procedure | stencil | precision | size | steps | check (default, odd) | sweeps GUpd/s | loop GUpd/s | loop+copy GUpd/s | bytes/update (one sweep at a time) | single-sweep bound GUpd/s |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
