#!/bin/bash
# One device call of the GPU benchmark. Expects .device-cuda/ (built on the
# host by bench/gpu/prepare.sh) in the repository root; writes
# $OUT/results.tgz, which bench/gpu/table.py turns into the table of
# bench/RESULTS.md. In order:
#   1. (CHECKS=1) every example's Fortran checking program through the library
#      with F2S_TARGET=cuda at two sizes, tabled pass/fail in passfail.md, and
#      the data-region transfer test (CHECK_TARGET=cpu runs the programs on
#      the CPU instead: a dry run of the table where there is no GPU);
#   2. the copy bound (bench/gpu/copy_bw.cu), what each kernel's mix of
#      streams reaches without a stencil (bench/gpu/streams.cu), and the hand-written
#      straightforward kernels (bench/gpu/baseline.cu), double and single;
#   3. (ODD=1; ODD_ONLY="a b" limits it to those) f2stencil tuning every example at an odd size, which builds,
#      runs and verifies every candidate against the serial reference;
#   4. f2stencil tuning of every kernel at 512^3 (less where the host-side
#      reference would not fit the call) in each precision of PREC (default
#      "double single"; single: the kernel's REAL(8) declarations become
#      REAL(4)), into $R/<precision>/<kernel>/; KERNELS="star7 box27" limits
#      this step to the kernels named, BUDGET_S (default 500) stops starting
#      new tunings after that many seconds, REPS timed runs per candidate.
D=.device-cuda
R=/tmp/f2s-gpu
PREC=${PREC:-double single}
mkdir -p $R
export LD_LIBRARY_PATH=$PWD/$D/fortlibs
export PATH=/usr/local/cuda/bin:$PATH
save() { tar czf $OUT/results.tgz -C $R . 2>/dev/null; }
start=$SECONDS
{
  date -u; echo "PREC=$PREC"; nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm --format=csv
  nvcc --version | tail -1
  if [ "${CHECKS:-1}" = 1 ]; then
    echo "== Fortran checking programs through the library, F2S_TARGET=cuda"
    # One row per example and size (an odd size of the nest's rank, then the
    # program's default) in passfail.md: PASS when the program exits 0 and
    # prints PASSED.
    echo "| example | size | F2S_TARGET=${CHECK_TARGET:-cuda} |" > $R/passfail.md
    echo "|---|---|---|" >> $R/passfail.md
    while read -r e rank; do
      odd=(100003); [ "$rank" = 2 ] && odd=(67 45); [ "$rank" = 3 ] && odd=(67 45 33)
      for size in "${odd[*]}" ""; do
        out=$(F2S_TARGET=${CHECK_TARGET:-cuda} timeout 120 $D/bin/${e}_check $size 2>&1 </dev/null); rc=$?
        echo "$out"
        if [ $rc = 0 ] && grep -q PASSED <<<"$out"; then r=PASS; else r="FAIL (exit $rc)"; fi
        echo "| $e | ${size:-default} | $r |" >> $R/passfail.md
      done
    done < $D/examples.txt
    cat $R/passfail.md
    echo "== data region"
    $D/bin/cuda_data_region
    $D/bin/cuda_data_region 130 70 50
  fi
  echo "== copy bound and straightforward kernels"
  nvcc -O3 -arch=sm_90 bench/gpu/copy_bw.cu -o $R/copy_bw && $R/copy_bw
  # what each kernel's mix of streams reaches without a stencil
  nvcc -O3 -arch=sm_90 -std=c++17 bench/gpu/streams.cu -o $R/streams && $R/streams
  nvcc -O3 -arch=sm_90 -std=c++17 bench/gpu/baseline.cu -o $R/baseline && $R/baseline 512 512 512 10
  # at the sizes gradient and himeno19 are tuned at, so that they compare too
  $R/baseline 512 512 256 10 | grep gradient; $R/baseline 512 512 128 10 | grep himeno19
} 2>&1 | tee $R/checks.log
save
# The kernels' sources per precision (single: REAL(8) declarations made REAL(4)).
# Every example with a free-form source (examples.txt, from prepare.sh).
srcs=$(while read -r e rank; do [ -f examples/$e/$e.f90 ] && echo $e; done < $D/examples.txt)
for P in double single; do
  mkdir -p $R/src/$P
  for e in $srcs; do
    if [ "$P" = single ]; then
      sed 's/real(8)/real(4)/g' examples/$e/$e.f90 > $R/src/$P/$e.f90
    else
      cp examples/$e/$e.f90 $R/src/$P/$e.f90
    fi
  done
done
if [ "${ODD:-1}" = 1 ]; then
  echo "== every candidate verified at 259x131x97 (3D), 259x131 (2D), 100003 (1D)" | tee -a $R/checks.log
  # The odd size of each example's rank.
  specs=$(while read -r e rank; do
    [ -f $R/src/double/$e.f90 ] || continue
    case $rank in 1) echo $e:100003;; 2) echo $e:259,131;; *) echo $e:259,131,97;; esac
  done < $D/examples.txt)
  for spec in $specs; do
    e=${spec%%:*}; size=${spec#*:}
    if [ -n "${ODD_ONLY:-}" ] && [[ " $ODD_ONLY " != *" $e "* ]]; then continue; fi
    timeout 120 $D/f2stencil -q --target=cuda --tune-size $size --reps 1 -j 16 \
      -o $R/odd_$e $R/src/double/$e.f90 > $R/odd_$e.log 2>&1
    echo "$e: exit $? $(grep -c '"verified": true' $R/odd_$e/*.json 2>/dev/null) verified," \
      "$(grep -c '"verified": false' $R/odd_$e/*.json 2>/dev/null) not" | tee -a $R/checks.log
  done
  save
fi
# PREC="double single" tunes both in this one run (double first); results
# go to $R/<precision>/<kernel>/.
for P in $PREC; do
for spec in star7:512,512,512 laplacian:512,512,512 box27:512,512,512 star13:512,512,512 \
            divergence:512,512,512 gradient:512,512,256 himeno19:512,512,128; do
  e=${spec%%:*}; size=${spec#*:}
  if [ -n "${KERNELS:-}" ] && [[ " $KERNELS " != *" $e "* ]]; then continue; fi
  if (( SECONDS - start > ${BUDGET_S:-500} )); then echo "== skipped $e $P (time)"; continue; fi
  echo "== tuning $e ($P) at $size"
  mkdir -p $R/$P
  timeout 110 $D/f2stencil --target=cuda --tune-size $size --reps ${REPS:-10} -j 16 -o $R/$P/$e \
    --lib f2s_$e $R/src/$P/$e.f90 > $R/$P/tune_$e.log 2>&1
  echo "exit $?" >> $R/$P/tune_$e.log
  tail -2 $R/$P/tune_$e.log
  save
done
done
save
