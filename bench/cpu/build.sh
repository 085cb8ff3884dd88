#!/usr/bin/env bash
# Builds, on this machine, everything the CPU benchmark carries to the GPU
# machine's host, into .bench-carry/ at the repository root:
#   f2stencil            the tool, stripped (it runs there: it tunes there)
#   lib/                 libgfortran, libquadmath, libgomp (the host has no gfortran)
#   notune/K/            f2stencil --no-tune libraries built here, for their .mod files
#   stencil_bench_v3/_v4 bench.f90 + omp_kernels.f90 + the examples' original
#                        subroutines, for x86-64-v3 (AVX2) and -v4 (AVX-512);
#                        device.sh picks the one the host's CPU runs
# Then, from the repository root, one call of the device tool runs it all:
#   run(command="bash bench/cpu/device.sh", carry=[".bench-carry"], timeout_s=600)
#   usage: bench/cpu/build.sh          (BUILD=dir picks the CMake build directory; default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
carry=.bench-carry
kernels="laplacian divergence gradient"

if [ ! -f "$build/build.ninja" ]; then
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" -j2 f2stencil

rm -rf "$carry"
mkdir -p "$carry/lib" "$carry/obj"
strip -o "$carry/f2stencil" "$build/driver/f2stencil"
for lib in libgfortran.so.5 libquadmath.so.0 libgomp.so.1; do
  cp -L "$(gfortran -print-file-name=$lib)" "$carry/lib/$lib"
done

# The bench program is linked against these libraries' shared objects; on the
# device LD_LIBRARY_PATH picks the ones built there (untuned or tuned), which
# export the same symbols.
libs=()
for k in $kernels; do
  "$build/driver/f2stencil" --no-tune -q -o "$carry/notune/$k" "examples/$k/$k.f90"
  libs+=(-L"$carry/notune/$k" -lf2s_$k)
done

for isa in v3 v4; do
  fl=(-O3 -march=x86-64-$isa)
  o="$carry/obj/$isa"
  mkdir -p "$o"
  # The originals are compiled without -fopenmp: the serial baseline.
  for k in $kernels; do
    gfortran "${fl[@]}" -c "examples/$k/$k.f90" -o "$o/orig_$k.o"
  done
  gfortran "${fl[@]}" -fopenmp -J"$o" -c bench/cpu/omp_kernels.f90 -o "$o/omp_kernels.o"
  gfortran "${fl[@]}" -fopenmp -J"$o" -I"$o" $(for k in $kernels; do echo -I"$carry/notune/$k"; done) \
    -c bench/cpu/bench.f90 -o "$o/bench.o"
  gfortran -fopenmp -o "$carry/stencil_bench_$isa" "$o/bench.o" "$o/omp_kernels.o" "$o"/orig_*.o \
    "${libs[@]}" -lpthread
done
rm -rf "$carry/obj"
# What was built, for the results: the commit, and whether the tree had changes.
echo "$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . ':!bench' || echo '+uncommitted changes')" \
  >"$carry/VERSION"

du -sh "$carry"
echo "build.sh: now run on the device, from the repository root: bash bench/cpu/device.sh" \
  "(carry .bench-carry)"
