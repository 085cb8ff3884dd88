#!/usr/bin/env bash
# Builds, here, what bench/mpi/weak.sh runs on the GPU machine's 16-core host
# (it has Open MPI and gcc, but no gfortran): .mpi-carry/ holds the stripped
# f2stencil, examples/mpi_heat3d compiled to objects by mpif90 (the library's
# module from an untuned build here: the tuned one built there has the same
# interface), and gfortran's run-time libraries.
#   usage: bench/mpi/build.sh      (BUILD=dir: the CMake build directory; default build)
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${BUILD:-build}
carry=.mpi-carry
rm -rf "$carry"
mkdir -p "$carry/lib" "$carry/obj"
ninja -C "$build" -j2 f2stencil
strip -o "$carry/f2stencil" "$build/driver/f2stencil"
git rev-parse --short HEAD >"$carry/VERSION"
for lib in libgfortran.so.5 libquadmath.so.0; do
  cp -L "$(gfortran -print-file-name=$lib)" "$carry/lib/$lib"
done
"$build/driver/f2stencil" --target=pthreads --mpi --no-tune -q -o "$carry/modlib" \
  examples/mpi_heat3d/heat3d.f90
(cd "$carry/obj" && mpif90 -O3 -c ../../examples/mpi_heat3d/heat3d.f90 -o heat3d.o &&
  mpif90 -O3 -I../modlib -c ../../examples/mpi_heat3d/heat.f90 -o main.o)
rm -rf "$carry/modlib"
du -sh "$carry"
echo "build.sh: now run on the device: bash bench/mpi/weak.sh (carry .mpi-carry)"
