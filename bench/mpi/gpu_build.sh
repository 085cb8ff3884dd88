#!/usr/bin/env bash
# Builds, here, what bench/mpi/gpu.sh runs on the GPU machine (Open MPI, gcc
# and nvcc there, no gfortran): .mpi-gpu-carry/ holds the stripped f2stencil,
# examples/mpi_heat3d/heat_gpu.f90 compiled to an object by mpif90 (against
# the module of an untuned CUDA build here: the one built there has the same
# interface), and gfortran's run-time libraries.
#   usage: bench/mpi/gpu_build.sh      (BUILD=dir: the CMake build directory; default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
carry=.mpi-gpu-carry
rm -rf "$carry"
mkdir -p "$carry/lib" "$carry/obj"
ninja -C "$build" -j2 f2stencil
strip -o "$carry/f2stencil" "$build/driver/f2stencil"
git rev-parse --short HEAD >"$carry/VERSION"
for lib in libgfortran.so.5 libquadmath.so.0; do
  cp -L "$(gfortran -print-file-name=$lib)" "$carry/lib/$lib"
done
"$build/driver/f2stencil" --target=pthreads,cuda --mpi --no-tune -q -o "$carry/modlib" \
  examples/mpi_heat3d/heat3d.f90
(cd "$carry/obj" && mpif90 -O3 -I../modlib -c ../../examples/mpi_heat3d/heat_gpu.f90 -o main.o)
rm -rf "$carry/modlib"
du -sh "$carry"
echo "gpu_build.sh: now run on the device: bash bench/mpi/gpu.sh (carry .mpi-gpu-carry)"
