#!/usr/bin/env bash
# examples/mpi_heat3d/heat_gpu.f90 with the CUDA library on one GPU (issue 15):
# the grids in a data region, the halo exchanged between the device copies
# (docs/mpi.md, "On the GPU"). One rank calling heat alone (the single-GPU
# library), heat_exchange + heat, and heat_mpi; then two ranks sharing the
# GPU (each n³ cells, so the GPU computes twice the cells), staged through
# pinned host buffers and, where the MPI is CUDA-aware, with device buffers
# handed to MPI. First a check at a small size: every mode gives one grid.
# One table last: seconds per step (the slowest rank's) and cells per second
# against the single-GPU library's.
#
# On the GPU machine, from the repository root, after bench/mpi/gpu_build.sh
# filled .mpi-gpu-carry/ here:
#   run(command="bash bench/mpi/gpu.sh 2>&1", carry=[".mpi-gpu-carry"], timeout_s=600)
# Knobs: N (cells per rank along each axis; 256), STEPS (200), TUNE_BUDGET
# (60; 0: --no-tune).
set -u
cd "$(dirname "$0")/../.."
carry=$PWD/.mpi-gpu-carry
work=/tmp/f2s-mpi-gpu
rm -rf "$work"
mkdir -p "$work"
n=${N:-256}
steps=${STEPS:-200}
budget=${TUNE_BUDGET:-60}
export LD_LIBRARY_PATH=$carry/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
aware=$(ompi_info --parsable --all 2>/dev/null | sed -n "s/^mca:.*:param:[a-z]*_built_with_cuda_support:value://p" | head -1)
echo "HOST gpu=\"$gpu\" mpi=\"$(mpirun --version 2>&1 | head -1)\" cuda_aware_build=${aware:-unknown}" \
  "nvcc=\"$(nvcc --version | tail -1)\" f2stencil=$(cat "$carry/VERSION") date=\"$(date -u '+%Y-%m-%d %H:%M UTC')\""
t0=$(date +%s)
if [ "$budget" = 0 ]; then
  tune=(--no-tune)
else
  tune=(--tune-size="$n,$n,$n" --budget "$budget")
fi
"$carry/f2stencil" --target=cuda --mpi -q "${tune[@]}" -o "$work/lib" examples/mpi_heat3d/heat3d.f90 ||
  { echo "TUNE failed; untuned"; "$carry/f2stencil" --target=cuda --mpi -q --no-tune -o "$work/lib" examples/mpi_heat3d/heat3d.f90 || exit 1; }
echo "BUILD wall_s=$(($(date +%s) - t0))"
grep -m1 -o 'cuda/[^"]*' "$work/lib/f2s_heat3d.json" | head -1 | sed 's/^/CHOSEN /'
cudalib=""
for d in "$(dirname "$(command -v nvcc)")/../lib64" "$(dirname "$(command -v nvcc)")/../targets/x86_64-linux/lib"; do
  [ -e "$d/libcudart_static.a" ] && cudalib=$d && break
done
mpicc -o "$work/heat_gpu" "$carry/obj/main.o" "$work/lib/libf2s_heat3d.a" -L"$carry/lib" -lgfortran \
  -lmpi_mpifh -L"$cudalib" -lcudart_static -ldl -lrt -lstdc++ -lpthread -lm || exit 1

# The check: at 24³ cells per rank, every mode on one rank gives one grid,
# and on two ranks (staged, and direct) the one heat_exchange + heat on the
# CPU gives.
ok=1
for np in 1 2; do
  mpirun -np $np "$work/heat_gpu" 24 5 host "$work/ref$np" >/dev/null 2>&1 || { echo "CHECK np=$np host failed"; ok=0; }
  for mode in library exchange overlap; do
    [ $np = 2 ] && [ $mode = library ] && continue
    for a in 0 $([ "$aware" = true ] && echo 1); do
      out=$(F2S_MPI_CUDA_AWARE=$a mpirun -np $np -x F2S_MPI_CUDA_AWARE "$work/heat_gpu" 24 5 $mode "$work/got" 2>&1)
      if ! cmp -s "$work/got" "$work/ref$np"; then
        echo "CHECK np=$np mode=$mode F2S_MPI_CUDA_AWARE=$a: grid differs ($(echo "$out" | tail -2))"
        ok=0
      fi
    done
  done
done
echo "CHECK all_equal=$ok (device buffers handed to MPI only where it was built CUDA-aware)"

run() { # np mode label [env...]
  local np=$1 mode=$2 label=$3
  shift 3
  line=$(env "$@" mpirun -np "$np" -x F2S_MPI_CUDA_AWARE "$work/heat_gpu" "$n" "$steps" "$mode" 2>&1 | grep '^ranks' | tail -1)
  echo "RUN np=$np label=$label $line" | tee -a "$work/runs.txt"
}
run 1 library library F2S_MPI_CUDA_AWARE=
run 1 exchange exchange F2S_MPI_CUDA_AWARE=
run 1 overlap overlap F2S_MPI_CUDA_AWARE=
run 2 exchange exchange-staged F2S_MPI_CUDA_AWARE=0
run 2 overlap overlap-staged F2S_MPI_CUDA_AWARE=0
if [ "$aware" = true ]; then
  run 2 exchange exchange-direct F2S_MPI_CUDA_AWARE=
  run 2 overlap overlap-direct F2S_MPI_CUDA_AWARE=
fi
python3 - "$work/runs.txt" "$n" <<'PY'
import re, sys
rows = []
for line in open(sys.argv[1]):
    m = re.search(r"np=(\d+) label=(\S+) .*grid (\S+) .*s/step\s+(\S+)\s+cells/s\s+(\S+)\s+change\s+\S+\s+transfers\s+(\d+)", line)
    if m:
        rows.append((int(m.group(1)), m.group(2), m.group(3), float(m.group(4)), float(m.group(5)), int(m.group(6))))
base = next((r[4] for r in rows if r[0] == 1 and r[1] == "library"), None)
print("\nheat_gpu on one GPU, %s^3 cells per rank: seconds per step (slowest rank), cells/s, and cells/s against the single-GPU library (1 rank, heat alone)" % sys.argv[2])
print("%-5s %-16s %-12s %12s %12s %8s %9s" % ("ranks", "mode", "grid", "s/step", "cells/s", "vs lib", "transfers"))
for np, label, grid, s, c, t in rows:
    print("%-5d %-16s %-12s %12.3e %12.3e %7.0f%% %9d" % (np, label, grid, s, c, 100 * c / base if base else 0, t))
PY
