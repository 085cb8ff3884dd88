#!/usr/bin/env bash
# Builds, on this machine, what bench/gpu/time_loops.sh carries to the GPU
# machine, into .tl-carry/ at the repository root: f2stencil (stripped), the
# gfortran run-time libraries (the GPU machine has no gfortran), and for each
# time-loop example of bench/time_loops.list its original subroutine and
# checking program compiled against the module of an untuned library (the
# tuned one built there has the same interface). Then:
#   run(command="bash bench/gpu/time_loops.sh", carry=[".tl-carry"], timeout_s=600)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
carry=.tl-carry
ninja -C "$build" -j2 f2stencil
rm -rf "$carry"
mkdir -p "$carry/lib" "$carry/obj"
strip -o "$carry/f2stencil" "$build/driver/f2stencil"
for lib in libgfortran.so.5 libquadmath.so.0; do
  cp -L "$(gfortran -print-file-name=$lib)" "$carry/lib/$lib"
done
for e in $(grep -v '^#' bench/time_loops.list | awk 'NF && !seen[$1]++ {print $1 ":" $2}'); do
  name=${e%%:*}
  src=examples/$name/$name.${e##*:}
  "$build/driver/f2stencil" --no-tune -q --target=cuda -o "$carry/notune/$name" "$src"
  gfortran -O2 -w -c -J "$carry/obj" -o "$carry/obj/${name}_orig.o" "$src"
  gfortran -O2 -c -J "$carry/obj" -I "$carry/notune/$name" -o "$carry/obj/${name}_main.o" \
    "examples/$name/main.f90"
done
rm -rf "$carry/notune"
du -sh "$carry"
