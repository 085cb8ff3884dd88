#!/bin/bash
# Checks the GPU path of every application's CUDA variant on a machine without
# a GPU: the library's CUDA source is compiled for the CPU stand-in of CUDA
# that the tests use (tests/cuda/emulation: device memory apart from the
# host's, so a host statement that read an array without its update would
# read stale values and print other numbers), linked with the rewritten
# program, and run in the checking mode against the serial build:
#
#   default             the library's own dispatch: a call runs on the
#                       (emulated) GPU where its arrays are present, i.e.
#                       inside the data regions --rewrite wrote
#   F2S_TARGET=cuda     every call the GPU can take runs there
#
# Each run's F2S_PROFILE table is kept, so the data movement of the whole
# program can be read here (bytes, not time: the emulation is slow).
#
# usage: bench/apps/check_emulated.sh [F2STENCIL]   (after bench/apps/build.sh,
#        whose out/bin/<app>_serial is the reference)
#        APPS="swc" bench/apps/check_emulated.sh
# Writes bench/apps/out/emu/ (the libraries' sources, the programs, each run's
# output) and prints a table; exits nonzero when a row fails.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
F2S=$(realpath "${1:-${F2STENCIL:-build/driver/f2stencil}}")
A=bench/apps
O=$A/out
E=$O/emu
FC=${FC:-gfortran}
FFLAGS=${FFLAGS:--O2 -march=x86-64-v4 -ffp-contract=off -nostdinc}
APPS=${APPS:-poisson19 mg3d swc}
declare -A CHECK_ARGS=([poisson19]="33 17 21 7" [mg3d]="24 40 12 4" [swc]="37 29 30 10")
src_of() { case $1 in poisson19) echo $A/poisson19/poisson19.F90;; mg3d) echo $A/mg3d/mg3d.F;;
                       swc) echo $A/swc/swc.F90;; esac; }
flags_of() { case $1 in poisson19) echo "-cpp";; mg3d) echo "-std=legacy";; *) echo "";; esac; }

rm -rf $E && mkdir -p $E
fails=0
table=$E/table.md
echo "| app | variant | run as | result | transfers (from the profile) |" > $table
echo "|---|---|---|---|---|" >> $table

# emulated APP VARIANT [-DNAME...]: the cuda variant's library and program,
# built for the emulation into $E/APP_VARIANT.
emulated() {
  local app=$1 var=$2; shift 2
  local src=$(src_of $app) fl=$(flags_of $app) L=$E/${app}_$var lib=f2s_$app
  if ! "$F2S" --emit=sources -q --target=pthreads,cuda --no-tune --rewrite --lib=$lib -o $L "$@" \
       $src > $L.f2s.log 2>&1; then
    cat $L.f2s.log; return 1
  fi
  # A launch `k<<<grid, block, shared, stream>>>(args);` becomes a call of the
  # emulator, as tests/cuda/Emulation.h's emulated() does.
  python3 - $L/${lib}_cuda.cu $L/emu.cpp <<'PY'
import re, sys
t = open(sys.argv[1]).read()
t = re.sub(r'([A-Za-z_][A-Za-z0-9_]*(?:<[A-Za-z0-9_, ]+>)?)<<<([^>]*)>>>\(([^;]*)\);',
           r'f2s_emu_launch(\2, [&] { \1(\3); });', t)
t = re.sub(r'extern __shared__ __align__\(16\) unsigned char ([A-Za-z_][A-Za-z0-9_]*)\[\];',
           r'unsigned char *const \1 = f2s_emu_dynamic_shared;', t)
open(sys.argv[2], 'w').write(t)
PY
  g++ -std=c++20 -O2 -ffp-contract=off -pthread -w -I tests/cuda/emulation -c $L/emu.cpp \
    -o $L/emu.o || return 1
  gcc -O2 -std=gnu11 -march=native -ffp-contract=off -pthread -c $L/$lib.c -o $L/lib.o || return 1
  $FC -O2 -J $L -c $L/$lib.f90 -o $L/mod.o || return 1
  $FC $FFLAGS -fopenmp $fl "$@" -I $L -J $L -c $L/src/$(basename $src) -o $L/app.o || return 1
  $FC $FFLAGS -fopenmp -o $L/${app}_$var $L/app.o $L/mod.o $L/lib.o $L/emu.o -lstdc++ -lpthread \
    -lm || return 1
}

for app in $APPS; do
  args=${CHECK_ARGS[$app]}
  ref=$E/${app}_serial.check
  $O/bin/${app}_serial $args > $ref 2>&1
  vars="cuda"; [ $app = poisson19 ] && vars="cuda cudatime"
  for var in $vars; do
    extra=""; [ $var = cudatime ] && extra=-DTIMELOOP
    if ! emulated $app $var $extra > $E/${app}_$var.build.log 2>&1; then
      echo "| $app | $var | | FAIL: does not build ($E/${app}_$var.build.log) | |" >> $table
      fails=$((fails + 1)); continue
    fi
    for how in "" "F2S_TARGET=cuda"; do
      f=$E/${app}_${var}_${how#F2S_TARGET=}.check
      env $how F2S_PROFILE=1 timeout 600 $E/${app}_$var/${app}_$var $args > $f 2>&1; rc=$?
      if [ $rc != 0 ]; then res="FAIL (exit $rc): $(grep -v '^ *$' $f | tail -1 | cut -c1-160)"
      else res=$(python3 $A/compare.py $ref $f --loose); fi
      [[ $res == PASS* ]] || fails=$((fails + 1))
      # The profile's totals (runtime/f2s_calls.c's tables): calls per target,
      # bytes each way, updates.
      moved=$(python3 - $f <<'PY'
import sys
calls, to_gpu, to_host, updates = {}, 0, 0, 0
for line in open(sys.argv[1]):
    w = line.replace("(data regions)", "(data-regions)").split()
    if len(w) != 9 or not w[2].isdigit():
        continue
    calls[w[1]] = calls.get(w[1], 0) + int(w[2])
    to_gpu += int(w[4]); to_host += int(w[6]); updates += int(w[8])
print(", ".join(f"{n} calls on {t}" for t, n in sorted(calls.items()) if n)
      + f"; {to_gpu / 1e6:.2f} MB to the GPU, {to_host / 1e6:.2f} MB back, {updates} updates")
PY
)
      echo "| $app | $var | ${how:-default} | $res | $moved |" >> $table
    done
  done
done
cat $table
exit $((fails > 0))
