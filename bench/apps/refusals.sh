#!/bin/bash
# Prints what f2stencil says of the applications as first written
# (-DAS_WRITTEN: the constructs bench/apps/README.md lists under "Refusals"),
# and that the forms build.sh uses are accepted. Nothing is written.
# usage: bench/apps/refusals.sh [F2STENCIL]
cd "$(dirname "$0")/../.."
F2S=${1:-build/driver/f2stencil}
A=bench/apps
for args in "-DAS_WRITTEN $A/mg3d/mg3d.F" "-DAS_WRITTEN $A/swc/swc.F90" \
            "-DTIMELOOP -DAS_WRITTEN $A/poisson19/poisson19.F90" \
            "$A/mg3d/mg3d.F" "$A/swc/swc.F90" "$A/poisson19/poisson19.F90" \
            "-DTIMELOOP $A/poisson19/poisson19.F90"; do
  echo "== f2stencil --emit=ir --target=pthreads,cuda --rewrite $args"
  $F2S --emit=ir --target=pthreads,cuda --rewrite $args 2>&1 | grep -E 'error|warning|^kernel|^time_loop' \
    | sed -E 's/^(kernel|time_loop) ([a-z0-9_]+).*/  accepted: \1 \2/'
done
