#!/bin/bash
# Builds, on a machine with gfortran, every variant of every application of
# bench/apps into bench/apps/out/ (gitignored), for this machine and for the
# GPU machine (which has gcc and nvcc but no gfortran):
#
#   out/bin/<app>_serial     gfortran -O3, the source as it is
#   out/bin/<app>_omp        the same source with -fopenmp (its !$omp lines)
#   out/bin/<app>_pthreads   f2stencil --target=pthreads --rewrite, linked
#                            (the rewritten source is built as the OpenMP one,
#                            with -fopenmp: the loops f2stencil refuses keep
#                            their !$omp lines, as in the user's build)
#   out/bin/<app>_pthreads_v4  the same with --march=x86-64-v4 (the Fortran's
#                            level) instead of this machine's -march=native
#   out/bin/<app>_cuda       f2stencil --target=pthreads,cuda --rewrite, per-nest
#                            annotations only, no data directive
#   out/bin/poisson19_cudatime  the same with the iteration loop annotated
#                            (-DTIMELOOP: '!$f2s stencil timesteps'); the only
#                            app whose time loop is legal (docs/time-loops.md)
#
# The libraries are built untuned (--no-tune: tuning happens on the GPU
# machine's host; see tune_device.sh). Fortran run-time libraries: libgfortran
# is linked statically; libgomp.so.1 and libquadmath.so.0 are copied into
# out/fortlibs, which the binaries find through their rpath ($ORIGIN/../fortlibs).
# For tune_device.sh: out/f2stencil (stripped), out/tune/<app>_<variant>/ with
# the objects of the rewritten sources and of the library's module compiled
# here, and libgfortran.a/libquadmath.a in out/fortlibs, so that the device can
# relink the programs against a library tuned there without gfortran.
#
# usage: bench/apps/build.sh [F2STENCIL]     (default: build/driver/f2stencil)
#        APPS="poisson19 swc" bench/apps/build.sh   builds only those
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
F2S=$(realpath "${1:-${F2STENCIL:-build/driver/f2stencil}}")
A=bench/apps
O=$A/out
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
FC=${FC:-gfortran}
# -ffp-contract=off: no fused multiply-adds, as the library's C (and nvcc
# --fmad=false) compile, so that fields agree bit for bit across variants.
# x86-64-v4 (AVX-512) runs here (AMD EPYC) and on the device host (Xeon).
# -nostdinc: no pre-included math-vector-fortran.h, through which gfortran
# (Debian's) would call glibc's vector sin/cos (libmvec, other roundings)
# where the library calls libm's sin/cos.
FFLAGS=${FFLAGS:--O3 -march=x86-64-v4 -ffp-contract=off -nostdinc}
LDF="-static-libgfortran -static-libgcc -Wl,-rpath,\$ORIGIN/../fortlibs"
CUDA_LIBS="-L$CUDA_HOME/lib64 -lcudart_static -ldl -lrt -lstdc++"
APPS=${APPS:-poisson19 mg3d swc}

# app -> source file, extra Fortran flags
src_of() { case $1 in poisson19) echo $A/poisson19/poisson19.F90;; mg3d) echo $A/mg3d/mg3d.F;;
                       swc) echo $A/swc/swc.F90;; esac; }
flags_of() { case $1 in poisson19) echo "-cpp";; mg3d) echo "-std=legacy";; *) echo "";; esac; }

rm -rf $O && mkdir -p $O/bin $O/lib $O/tune $O/logs $O/fortlibs
cp "$F2S" $O/f2stencil && strip $O/f2stencil
LIBDIR=$(dirname "$($FC -print-file-name=libgfortran.a)")
cp "$($FC -print-file-name=libgomp.so.1)" "$($FC -print-file-name=libquadmath.so.0)" $O/fortlibs/
cp $LIBDIR/libgfortran.a $LIBDIR/libquadmath.a $LIBDIR/libgomp.a $O/fortlibs/
git rev-parse --short HEAD > $O/commit.txt
"$F2S" --version > $O/f2stencil-version.txt 2>&1 || true
: > $O/variants.txt

# [F2S_EXTRA=...] lib_variant APP VARIANT TARGETS [-DNAME...]: f2stencil --rewrite into
# out/lib/APP_VARIANT, the rewritten source linked into out/bin/APP_VARIANT,
# and its objects kept in out/tune/APP_VARIANT for a relink on the device.
lib_variant() {
  local app=$1 var=$2 targets=$3; shift 3
  local src=$(src_of $app) fl=$(flags_of $app) L=$O/lib/${app}_$var T=$O/tune/${app}_$var
  local libname=f2s_$app extra=""
  [ "$targets" != pthreads ] && extra="$CUDA_LIBS"
  local f2s_extra=${F2S_EXTRA:-}
  echo "== $app $var: f2stencil --target=$targets --no-tune --rewrite $f2s_extra $*"
  if ! "$F2S" --target=$targets --no-tune --rewrite --lib=$libname -o $L $f2s_extra "$@" $src \
       > $O/logs/${app}_$var.f2s.log 2>&1; then
    cat $O/logs/${app}_$var.f2s.log; echo "f2stencil FAILED for $app $var"; return 1
  fi
  cat $O/logs/${app}_$var.f2s.log
  mkdir -p $T
  local rw=$L/src/$(basename $src)
  $FC $FFLAGS -fopenmp $fl "$@" -I $L -J $T -c $rw -o $T/$app.o
  $FC -O2 -fPIC -J $T -c $L/$libname.f90 -o $T/${libname}_mod.o
  cp $L/$libname.f90 $T/
  $FC $FFLAGS -fopenmp -o $O/bin/${app}_$var $T/$app.o $L/lib$libname.a -lpthread -lm $extra $LDF
  # what tune_device.sh runs there: f2stencil's arguments, and the link line
  echo "--target=$targets --rewrite --lib=$libname $f2s_extra $* $src" > $T/f2s_args.txt
  echo "$extra" > $T/link_libs.txt
  rm -f $T/*.mod $L/*.so
  echo "$app $var" >> $O/variants.txt
}

for app in $APPS; do
  src=$(src_of $app); fl=$(flags_of $app)
  echo "== $app serial, omp"
  $FC $FFLAGS $fl -J $O/tune -o $O/bin/${app}_serial $src $LDF
  $FC $FFLAGS $fl -fopenmp -J $O/tune -o $O/bin/${app}_omp $src $LDF
  rm -f $O/tune/*.mod
  echo "$app serial" >> $O/variants.txt
  echo "$app omp" >> $O/variants.txt
  lib_variant $app pthreads pthreads
  # the library's C for the Fortran's CPU level instead of this machine's
  # (-march=native here is AMD's; the GPU machine's host is an Intel Xeon)
  F2S_EXTRA=--march=x86-64-v4 lib_variant $app pthreads_v4 pthreads
  lib_variant $app cuda pthreads,cuda
  [ $app = poisson19 ] && lib_variant $app cudatime pthreads,cuda -DTIMELOOP
done
echo "== built:"; cat $O/variants.txt | tr '\n' ';'; echo
du -sh $O
