#!/usr/bin/env bash
# Weak scaling of examples/mpi_heat3d on one node (issue 15): n³ cells per
# rank, 1, 2, 4, 8 and 16 ranks of one thread each (bound to a core), and
# 2 ranks of 8 threads and 1 rank of 16; three ways per count: the original
# kernel after heat_exchange ("plain"), heat_exchange then the tuned library
# kernel ("exchange"), and the overlapped heat_mpi ("overlap"). One table
# last: seconds per step (the slowest rank's) and the efficiency against
# one rank, time(1) / time(P).
#
# On the GPU machine's host, from the repository root, after
# bench/mpi/build.sh filled .mpi-carry/ here:
#   run(command="bash bench/mpi/weak.sh 2>&1", carry=[".mpi-carry"], timeout_s=600)
# Knobs: N (cells per rank along each axis; 96), STEPS (60), TUNE_BUDGET (60).
set -u
cd "$(dirname "$0")/../.."
carry=$PWD/.mpi-carry
work=/tmp/f2s-mpi
rm -rf "$work"
mkdir -p "$work"
n=${N:-96}
steps=${STEPS:-60}
export LD_LIBRARY_PATH=$carry/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
cores=$(lscpu -p=CORE,SOCKET | grep -v '^#' | sort -u | wc -l)
echo "HOST model=\"$model\" cores=$cores mpi=\"$(mpirun --version | head -1)\" f2stencil=$(cat "$carry/VERSION")" \
  "date=\"$(date -u '+%Y-%m-%d %H:%M UTC')\""
# The library tuned here, at one rank's size, then the program linked here
# (mpicc and the carried libgfortran: the host has no gfortran).
t0=$(date +%s)
"$carry/f2stencil" --target=pthreads --mpi -q --tune-size="$n,$n,$n" --budget "${TUNE_BUDGET:-60}" \
  -o "$work/lib" examples/mpi_heat3d/heat3d.f90 || echo "TUNE failed"
echo "TUNE wall_s=$(($(date +%s) - t0))"
grep -m1 -o 'pthreads/[^"]*' "$work/lib/f2s_heat3d.json" | head -1 | sed 's/^/CHOSEN /'
mpicc -o "$work/heat" "$carry/obj/main.o" "$carry/obj/heat3d.o" "$work/lib/libf2s_heat3d.a" \
  -L"$carry/lib" -lgfortran -lmpi_mpifh -lpthread -lm || exit 1
run() { # label ranks mpirun-options...
  local label=$1 np=$2
  shift 2
  for mode in plain exchange overlap; do
    line=$(mpirun -np "$np" "$@" "$work/heat" "$n" "$steps" "$mode" 2>&1 | grep '^ranks' | tail -1)
    echo "RUN label=$label np=$np mode=$mode $line" | tee -a "$work/runs.txt"
  done
}
for p in 1 2 4 8 16; do
  [ "$p" -le "$cores" ] && run "${p}x1" "$p" --bind-to core --map-by core -x F2S_NUM_THREADS=1
done
[ "$cores" -ge 16 ] && run "2x8" 2 --bind-to core --map-by slot:PE=8
[ "$cores" -ge 16 ] && run "1x16" 1 --bind-to none
python3 - "$work/runs.txt" "$n" <<'PY'
import re, sys
runs, n = sys.argv[1], sys.argv[2]
t = {}
order = []
for line in open(runs):
    m = re.search(r"label=(\S+) np=(\d+) mode=(\S+) .* s/step\s+(\S+)", line)
    if not m:
        continue
    label, np, mode, s = m.group(1), int(m.group(2)), m.group(3), float(m.group(4))
    if label not in order:
        order.append(label)
    t[(label, mode)] = s
print("\nWeak scaling, %s^3 cells per rank (seconds per step, the slowest rank; efficiency = t(1 rank) / t(P))" % n)
print("%-6s %12s %6s %12s %6s %12s %6s" % ("ranks", "plain", "eff", "exchange", "eff", "overlap", "eff"))
for label in order:
    cells = []
    for mode in ("plain", "exchange", "overlap"):
        s = t.get((label, mode))
        base = t.get(("1x1", mode))
        cells += ["%12.3e" % s if s else "%12s" % "-", "%5.0f%%" % (100 * base / s) if s and base and label.endswith("x1") else "%6s" % ""]
    print("%-6s %s" % (label, " ".join(cells)))
print("labels: R x T = R ranks of T threads; efficiency only for one thread per rank (same cells per core).")
PY
