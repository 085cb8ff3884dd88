#!/bin/bash
# Builds, on the host, what bench/gpu/run_device.sh needs on the GPU machine
# (which has nvcc and gcc but no gfortran): the f2stencil binary, untuned
# pthreads+cuda libraries of every example with their Fortran checking
# programs, the data-region test, and gfortran's run-time libraries.
# usage: bench/gpu/prepare.sh BUILD_DIR    (then run with carry .device-cuda)
set -e
B=${1:?build directory}
D=.device-cuda
rm -rf $D && mkdir -p $D/lib $D/bin $D/fortlibs
cp $B/driver/f2stencil $D/ && strip $D/f2stencil
# Every example; examples.txt lists each with its nest's rank (the number of
# sizes its checking program takes), for run_device.sh's pass/fail table.
# EXAMPLES="a b" limits this to the examples named.
for dir in examples/*/; do
  e=$(basename $dir)
  if [ -n "${EXAMPLES:-}" ] && [[ " $EXAMPLES " != *" $e "* ]]; then continue; fi
  src=examples/$e/$e.f90
  [ -f $src ] || src=examples/$e/$e.f
  # An application (shallow_water) has no single source and checking program.
  [ -f $src ] || continue
  $D/f2stencil -q --target=pthreads,cuda --no-tune -o $D/lib/$e $src
  rank=$($D/f2stencil --emit ir $src | grep -m1 -o 'tune_size([^)]*)' | tr -cd , | wc -c)
  echo "$e $((rank + 1))" >> $D/examples.txt
  gfortran -O2 -I $D/lib/$e $src examples/$e/main.f90 -L $D/lib/$e -lf2s_$e \
    -Wl,-rpath,'$ORIGIN/../lib/'$e -o $D/bin/${e}_check
done
gcc -O2 -I $D/lib/laplacian tests/e2e/cuda_data_region.c -L $D/lib/laplacian \
  -Wl,-rpath,'$ORIGIN/../lib/laplacian' -lf2s_laplacian -lm -o $D/bin/cuda_data_region
cp /usr/lib/x86_64-linux-gnu/{libgfortran.so.5,libquadmath.so.0,libgomp.so.1} $D/fortlibs/
