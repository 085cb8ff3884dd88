#!/usr/bin/env bash
# The CPU streaming form's tile shapes, on the GPU machine's host, one call:
# f2stencil writes the 3D ping-pong Jacobi's library sources there
# (--emit=sources, the streaming form's pipeline for up to 4 steps), and each
# variant is the same C with its tune constant {T, x, y, z} replaced (0: x or
# z whole, y an even share a thread, as the untuned library does), compiled
# with the library's flags (docs/running.md, "Sources only"). Each runs
# bench/cpu/time_tiles_bench.c's check (bitwise against the sweeps, 67x45x33)
# and its timing at 512^3, 20 steps; STREAM (triad) in the same call gives the
# single-sweep bound (16 bytes an update). Needs .tl-carry/ (its f2stencil
# and gfortran's run-time libraries; bench/gpu/time_loops_build.sh).
#   run(command="bash bench/cpu/tile_shapes.sh", carry=[".tl-carry"])
# SHAPES: "T x y z" variants, separated by commas; "steps" is the library
# without time tiles (untuned sweeps).
set -u
cd "$(dirname "$0")/../.."
C=$PWD/.tl-carry
R=/tmp/f2s-ts
rm -rf $R && mkdir -p $R
export LD_LIBRARY_PATH=$C/lib
SHAPES=${SHAPES:-steps,4 0 0 0,2 0 0 0,3 0 0 0,2 128 128 0,2 192 192 0,2 256 256 0,3 128 128 0,3 192 192 0,4 128 128 0}
SIZE=${SIZE:-512 512 512}
STEPS=${STEPS:-20}
# The library's flags, as docs/running.md gives them for a build of the
# sources (Process.TheDocumentedFlagsAreTheLibrarys keeps that list whole).
CFLAGS=$(sed -n '/^CFLAGS="/,/"$/p' docs/running.md | tr -d '\\\n"' | sed 's/^CFLAGS=//')
[ -n "$CFLAGS" ] || { echo "tile_shapes.sh: no CFLAGS in docs/running.md"; exit 2; }
src=examples/jacobi3d_pingpong/jacobi3d_pingpong.f
lscpu | grep -E "^Model name|^CPU\(s\)|L2|L3"
gcc -O3 -fopenmp -march=native -o $R/stream bench/cpu/stream.c
triad=$(OMP_PROC_BIND=spread OMP_PLACES=cores $R/stream | grep -o 'triad_gbs=[0-9.]*' | cut -d= -f2)
echo "STREAM triad $triad GB/s"
"$C/f2stencil" -q --emit=sources --target=pthreads --time-tile=4 --time-tile-form=streaming -o $R/tiled $src
"$C/f2stencil" -q --emit=sources --target=pthreads --time-tile=off -o $R/steps $src
IFS=, read -ra shapes <<<"$SHAPES"
i=0
for s in "${shapes[@]}"; do
  d=$R/v$i
  mkdir -p $d
  if [ "$s" = steps ]; then
    cp $R/steps/*.c $R/steps/*.h $d/
  else
    cp $R/tiled/*.c $R/tiled/*.h $d/
    read -r t x y z <<<"$s"
    sed -i "s/static const long tune\[4\] = {4, 0, 0, 0};/static const long tune[4] = {$t, $x, $y, $z};/" $d/f2s_jacobi3d_pingpong.c
    grep -q "tune\[4\] = {$t, $x, $y, $z}" $d/f2s_jacobi3d_pingpong.c || echo "v$i: tune not replaced"
  fi
  (cc $CFLAGS -c $d/f2s_jacobi3d_pingpong.c -o $d/lib.o &&
    cc -shared -pthread -o $d/libf2s_jacobi3d_pingpong.so $d/lib.o -lm &&
    gcc -O2 -DTIME_LOOP_JACPP -I$d -o $d/bench bench/cpu/time_tiles_bench.c -L$d -Wl,-rpath,$d \
      -lf2s_jacobi3d_pingpong -lm) &
  i=$((i + 1))
done
wait
echo "| shape (T x y z) | check | loop GUpd/s | x bound |"
echo "|---|---|---|---|"
i=0
for s in "${shapes[@]}"; do
  d=$R/v$i
  chk=$($d/bench check 67 45 33 2>&1 | tail -1)
  g=$($d/bench $STEPS $SIZE 2>&1 | awk '$1=="loop" {print $4}')
  echo "| $s | $chk | $g | $(awk -v g="$g" -v t="$triad" 'BEGIN {if (g && t) printf "%.2f", g / (t / 16)}') |"
  i=$((i + 1))
done
