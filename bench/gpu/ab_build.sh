#!/usr/bin/env bash
# A against B on the GPU without compiling there: two f2stencil binaries (say
# before and after a change to the generated CUDA) each build, here, one
# time-loop example's library untuned (--no-tune) at every mode of MODES
# (off, N: overlapped tiles T = N, sN: the streaming form), and
# bench/gpu/time_loops_bench.c is linked against each. bench/gpu/ab.sh runs
# them on the GPU machine in rounds, A and B alternating, and prints the
# median of each. Same tiles on both sides (the untuned choice of
# --time-tile=N), so the difference is the change's alone.
#   A=/tmp/f2stencil-before B=build/driver/f2stencil ROW=heat_steps MODES='off 4 8' \
#     bash bench/gpu/ab_build.sh
#   run(command="bash bench/gpu/ab.sh", carry=[".ab-carry"])
# ROW: a procedure of bench/time_loops.list (its example, size and precision).
# CARRY: the folder to build into (default .ab-carry); ab.sh reads the same.
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${A:?A: the first f2stencil}" "${B:?B: the second f2stencil}" "${ROW:?ROW: a procedure of bench/time_loops.list}"
modes=${MODES:-off 4 8}
row=$(grep -v '^#' bench/time_loops.list | awk -v p="$ROW" '$3 == p' | head -1)
[ -n "$row" ] || { echo "ab_build.sh: no procedure '$ROW' in bench/time_loops.list"; exit 2; }
read -r name ext proc _ _ size _ <<<"$row"
carry=${CARRY:-.ab-carry}
rm -rf "$carry"
mkdir -p "$carry"
upper=$(echo "$proc" | tr a-z A-Z)
for side in A B; do
  bin=${!side}
  for mode in $modes; do
    form=overlapped
    [[ $mode == s* ]] && form=streaming
    out=$carry/$side-$mode
    "$bin" -q --target=cuda --no-tune --time-tile="${mode#s}" --time-tile-form=$form -o "$out" \
      "examples/$name/$name.$ext"
    gcc -O2 -DTIME_LOOP_"$upper" -I"$out" -o "$out/bench" bench/gpu/time_loops_bench.c -L"$out" \
      -Wl,-rpath,'$ORIGIN' -lf2s_"$name" -lm
    # The bench links the shared library; the static one and the report
    # would only take room in the device call's 64 MiB (10 of a heat row's
    # 26 MB at four modes a side).
    rm -f "$out"/*.a "$out"/*.html
  done
done
printf '%s\n' "$proc" "$size" "$modes" >"$carry/what"
echo "A: $A ($("$A" --version 2>/dev/null | head -1))" >>"$carry/what"
echo "B: $B ($("$B" --version 2>/dev/null | head -1))" >>"$carry/what"
du -sh "$carry"
