#!/bin/bash
# Runs one nest of the blind survey (docs/real-code-survey.md) as a user
# would, in a scratch folder: f2stencil, then the checking program linked
# against the library at odd sizes with 1 and 3 threads (untuned, tuned), or
# f2stencil alone with nvcc (cuda).
#   tests/inputs/blind/run.sh b07_kji untuned|tuned|cuda
# from the repository root, after building build/driver/f2stencil.
set -u
here=$(cd "$(dirname "$0")" && pwd)
F=$(realpath "${F2STENCIL:-build/driver/f2stencil}")
b=$1
mode=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$(ls "$here"/$b.f* | grep -v _main | head -1)
extra=()
[ "$b" = b01_baroclinic ] && extra=("$here/b01_state.f90")
case $mode in
  untuned) opts=(--no-tune --target=c,pthreads) ;;
  tuned) opts=(--reps=1 --target=c,pthreads) ;;
  cuda) opts=(--no-tune --target=cuda) ;;
esac
if ! "$F" "${opts[@]}" -q --lib=f2s_$b -o "$work/out" "$src" "${extra[@]}" > "$work/log" 2>&1; then
  echo "$b $mode: refused: $(head -5 "$work/log")"
  exit 1
fi
[ "$mode" = cuda ] && { echo "$b cuda: accepted"; exit 0; }
if ! gfortran -O2 -o "$work/check" "${extra[@]}" "$src" "$here/${b}_main.f90" -I"$work/out" \
     "$work/out/libf2s_$b.a" -lpthread > "$work/link.log" 2>&1; then
  echo "$b $mode: link failed: $(head -5 "$work/link.log")"
  exit 1
fi
fails=0
case $b in b02_cflux | b03_internal | b04_upwind | b05_lap4 | b12_halo | b14_fnorm) rank=2 ;; *) rank=3 ;; esac
for s in "" "1 1 1" "33 17 5" "7 130 2" "301 2 3" "2 3 97"; do
  set -- $s
  [ $rank = 2 ] && s="${1:+$1 $2}"
  for t in 1 3; do
    r=$(cd "$work" && F2S_NUM_THREADS=$t ./check $s 2>&1)
    echo "$r" | grep -q PASSED || { fails=1; echo "$b $mode size [$s] threads $t: $r" | head -3; }
  done
done
[ $fails = 0 ] && echo "$b $mode: passed at every size"
exit $fails
