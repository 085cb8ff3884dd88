#!/usr/bin/env bash
# Runs what bench/gpu/ab_build.sh built into .ab-carry/: for each mode, A's
# library and B's, alternating, ROUNDS times (default 3); prints the time
# loop's GUpdates/s of each run, then the median of A and of B per mode and
# B/A. The checksums of every library must agree (tiled or not, A or B).
#   run(command="bash bench/gpu/ab.sh", carry=[".ab-carry"])
# STEPS: time steps a call (default 100). CARRY: the folder (default .ab-carry).
set -u
cd "$(dirname "$0")/../.."
C=$PWD/${CARRY:-.ab-carry}
{
  read -r proc
  read -r size
  read -r modes
} <"$C/what"
nvidia-smi --query-gpu=name --format=csv,noheader | head -1
sed -n '4,$p' "$C/what"
rounds=${ROUNDS:-3}
steps=${STEPS:-100}
T=$(mktemp)
: >"$T"
for r in $(seq "$rounds"); do
  for mode in $modes; do
    for side in A B; do
      out=$("$C/$side-$mode/bench" "$steps" ${size//,/ } 2>&1)
      g=$(echo "$out" | awk '$1=="loop"{print $4}')
      sum=$(echo "$out" | awk '$1=="precision"{print $4}')
      echo "$side $mode round $r loop GUpdates/s $g checksum $sum" | tee -a "$T"
    done
  done
done
echo
echo "$proc at ${size//,/x}, $steps steps, median of $rounds (GUpdates/s)"
echo "| mode | A | B | B/A |"
echo "|---|---|---|---|"
median() { # side mode: the median of that side's runs of the mode
  awk -v s="$1" -v m="$2" '$1==s && $2==m {print $7}' "$T" | sort -g |
    awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
for mode in $modes; do
  a=$(median A "$mode")
  b=$(median B "$mode")
  echo "| $mode | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN{printf "%.3f", b / a}') |"
done
echo "checksums: $(awk '{print $NF}' "$T" | sort -u | tr '\n' ' ')($(awk '{print $NF}' "$T" | sort -u | wc -l) distinct)"
