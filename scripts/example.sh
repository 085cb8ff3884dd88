#!/usr/bin/env bash
# The main job on one example: f2stencil translates and tunes
# examples/NAME/NAME.f90 (or NAME.f, fixed form; default: laplacian) into out/NAME/, the example's
# Fortran program is linked against that library, and it compares the library
# with the original subroutine on random data at two sizes.
#   scripts/example.sh [NAME] [f2stencil options...]
# NAME is one of: laplacian divergence gradient star7 star13 himeno19 box27
# (3D operators), jacobi1d jacobi2d poisson2d fdtd2d upwind2d gsrb3d (the
# wider kernel class: 1D and 2D nests, several regions, branches, red-black),
# laplacian_f77 jacobi3d_f77 heat3d_modern (legacy and modern source forms)
# himeno_gosa maxnorm2d (reductions: a residual sum and a max norm) and
# restrict3d interp3d refine2d (multigrid transfers and stride-2 loops), and
# rb_colour (a red-black smoother whose colour offset is computed between the loops).
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
# The checking program takes one size per loop of the example's nest.
rank=$(grep -c 'call get_command_argument' "examples/$name/main.f90")
sizes=(97 45 67)
"out/${name}_check" "${sizes[@]:0:$rank}"
echo "example: the tuning report is $out/f2s_$name.txt"
