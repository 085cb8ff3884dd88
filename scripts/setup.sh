#!/usr/bin/env bash
# Installs the Debian packages f2stencil needs (only those missing) and builds
# the tool in build/ (build/driver/f2stencil, its run time embedded): what the
# main job needs, not the tests (scripts/test.sh builds those). Safe to run
# again: an up-to-date build does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake ninja-build gfortran          # compilers and build
  llvm-19-dev llvm-19-tools libflang-19-dev           # Flang's parser, LLVMSupport, FileCheck
  libzstd-dev zlib1g-dev                              # named by LLVM's CMake package
  libhwloc-dev libudev-dev hwloc                      # machine topology
  libmpfr-dev                                         # constant folding as gfortran does
  libisl-dev                                          # exact dependence analysis (ast/LoopDependences)
  nlohmann-json3-dev libcli11-dev libgtest-dev        # JSON, command line, tests
  libsqlitecpp-dev libsqlite3-dev                     # the tuning cache
  libopenmpi-dev openmpi-bin                          # MPI: halo exchange (docs/mpi.md)
  libjs-vega chromium                                 # the HTML report's plots, and its test
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y --no-install-recommends "${missing[@]}"
fi

cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build --target f2stencil
