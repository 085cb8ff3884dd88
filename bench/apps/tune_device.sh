#!/bin/bash
# Tunes the applications' libraries on the GPU machine (its host CPU for
# pthreads, its GPU for cuda) and relinks the programs there, without
# gfortran: f2stencil runs there on the same sources with the same options
# as build.sh (less --no-tune); the library it writes there has no module
# object (f2stencil compiles the module only where gfortran is), so the
# program is linked from the objects build.sh compiled here (the rewritten
# source and the library's module, out/tune/<app>_<variant>/) and the tuned
# libf2s_<app>.a, by gcc with the carried libgfortran.a, libquadmath.a and
# libgomp.a.
# The module text f2stencil writes there must be the one compiled here (it
# depends on the kernels' arguments, not on tuning; its comments name the
# tuned variants): checked without comments, and a variant whose module
# code differs is not linked.
#
# Each variant X becomes out/bin/<app>_X_tuned and a line of out/variants.txt,
# so that run_device.sh, run after it in the same device call, checks and
# times it with the others.
#
# usage (repo root, bench/apps/out carried):
#   bash bench/apps/tune_device.sh [APP_VARIANT ...]   (default: every out/tune/*)
# env: TUNE_OPTS (more f2stencil options for every app, e.g. "--budget=20"),
#      TUNE_OPTS_<app> (for one app, e.g. TUNE_OPTS_swc="--tune-size=4095,2047"),
#      TUNING_DB (default /tmp/apps-tuned/tuning.db; copied to $OUT/tuning.db),
#      TUNED (the suffix of the variant, default "tuned": TUNED=tuned_at_run with
#      TUNE_OPTS_poisson19="--tune-size=255,255,127" keeps both in one call).
set -u
cd "$(dirname "$0")/../.."
A=bench/apps
O=$A/out
W=/tmp/apps-tuned
mkdir -p $W
DB=${TUNING_DB:-$W/tuning.db}
export PATH=/usr/local/cuda/bin:$PATH
which=${*:-$(ls $O/tune)}
TUNED=${TUNED:-tuned}
for name in $which; do
  T=$O/tune/$name
  app=${name%%_*}; var=${name#*_}
  lib=f2s_$app
  L=${name}_$TUNED # where this tuning's library and log go
  ov=TUNE_OPTS_$app; opts="${TUNE_OPTS:-} ${!ov:-}"
  echo "== tuning $name: f2stencil $(cat $T/f2s_args.txt) $opts"
  t0=$SECONDS
  rm -rf $W/$L
  if ! $O/f2stencil $(cat $T/f2s_args.txt) $opts --tuning-db $DB -o $W/$L \
       > $W/$L.log 2>&1; then
    tail -20 $W/$L.log; echo "TUNING FAILED: $name"; continue
  fi
  grep -E "^f2stencil: '[^']*': " $W/$L.log | tail -40
  echo "   ($((SECONDS - t0)) s)"
  # the comments say what was tuned; the code must be the same
  if ! diff <(grep -v '^ *!' $T/$lib.f90) <(grep -v '^ *!' $W/$L/$lib.f90) > $W/$L.moddiff; then
    head -20 $W/$L.moddiff
    echo "MODULE DIFFERS: $name not relinked"; continue
  fi
  if gcc -o $O/bin/${L} $T/$app.o $T/${lib}_mod.o $W/$L/lib$lib.a \
       -L$O/fortlibs -l:libgfortran.a -l:libquadmath.a -l:libgomp.a -lm -lpthread $(cat $T/link_libs.txt) \
       -L/usr/local/cuda/lib64; then
    grep -qx "$app ${var}_$TUNED" $O/variants.txt || echo "$app ${var}_$TUNED" >> $O/variants.txt
    echo "linked $O/bin/${L}"
  else
    echo "LINK FAILED: $name"
  fi
  cp $W/$L/$lib.txt $W/$L.record.txt 2>/dev/null
done
if [ -n "${OUT:-}" ]; then
  cp $DB $OUT/tuning.db 2>/dev/null
  tar czf $OUT/apps_tuning.tgz -C $W --exclude='*.a' --exclude='*.so' --exclude='src' . 2>/dev/null
fi
true
