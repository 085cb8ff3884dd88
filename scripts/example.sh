#!/usr/bin/env bash
# The main job on one example: f2stencil translates and tunes
# examples/NAME/NAME.f90 (or NAME.f, fixed form; default: laplacian) into out/NAME/, the example's
# Fortran program is linked against that library, and it compares the library
# with the original subroutine on random data at two sizes.
#   scripts/example.sh [NAME] [f2stencil options...]
set -euo pipefail
cd "$(dirname "$0")/.."
name=${1:-laplacian}
[ $# -gt 0 ] && shift
out=out/$name
src=examples/$name/$name.f90
[ -f "$src" ] || src=examples/$name/$name.f

build/driver/f2stencil --target=pthreads -o "$out" "$@" "$src"
gfortran -O2 -o "out/${name}_check" "$src" "examples/$name/main.f90" \
  -I"$out" "$out/libf2s_$name.a" -lpthread
"out/${name}_check"
"out/${name}_check" 97 45 67
echo "example: the tuning report is $out/f2s_$name.txt"
