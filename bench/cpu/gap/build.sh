#!/usr/bin/env bash
# Builds, here, what bench/cpu/gap/device.sh needs on the GPU machine's host
# (which has gcc but no gfortran), into .gap-carry/ at the repository root:
#   f2stencil   the tool (it tunes the sweep there)
#   lib/        libgfortran, libquadmath, libgomp
#   main_f2s.o  main.F90 against the library's module (linked there with the
#               library tuned there), main_serial, main_omp (complete programs)
# Then: run(command="bash bench/cpu/gap/device.sh", carry=[".gap-carry"])
set -euo pipefail
cd "$(dirname "$0")/../../.."
build=${BUILD:-build}
carry=.gap-carry
src=bench/cpu/gap
rm -rf "$carry"
mkdir -p "$carry/lib" "$carry/src"
strip -o "$carry/f2stencil" "$build/driver/f2stencil"
for lib in libgfortran.so.5 libquadmath.so.0 libgomp.so.1; do
  cp -L "$(gfortran -print-file-name=$lib)" "$carry/lib/$lib"
done
cp "$src/poisson19.f90" "$src/gap.c" "$carry/src/"
fl=(-O3 -march=x86-64-v3)
"$build/driver/f2stencil" --no-tune -q -o "$carry/notune" "$src/poisson19.f90"
gfortran "${fl[@]}" -DF2S -I"$carry/notune" -c "$src/main.F90" -o "$carry/main_f2s.o"
gfortran "${fl[@]}" -o "$carry/main_serial" "$src/main.F90" "$src/poisson19.f90"
# The OpenMP baseline: the same nest with `!$omp parallel do` over k.
sed 's/^  !\$f2s stencil.*/&\n  !$omp parallel do private(i, j, s0, ss)/' "$src/poisson19.f90" \
  >"$carry/src/poisson19_omp.f90"
gfortran "${fl[@]}" -fopenmp -o "$carry/main_omp" "$src/main.F90" "$carry/src/poisson19_omp.f90"
rm -rf "$carry/notune"
git rev-parse --short HEAD >"$carry/VERSION"
du -sh "$carry"
