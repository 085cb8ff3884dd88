#!/usr/bin/env bash
# examples/mpi_heat3d/heat_gpu.f90 with the CUDA library on the GPUs of one
# machine (issues 15 and 17): the grids in a data region, the halo exchanged
# between the device copies (docs/mpi.md, "On the GPU"), one rank per GPU
# where there are several (the library gives local rank r GPU r mod count),
# two ranks sharing it where there is one. For the 7-point kernel (heat) and
# the 27-point one (heat27), in double:
#   1. the links: device to pinned host and back, and GPU to GPU (links.cu);
#   2. the check, at an odd size: one rank given 2N,N,N and two ranks given
#      N,N,N compute one grid (MPI_Dims_create splits two ranks along x), so
#      every GPU mode on one and on two ranks must give, byte for byte, the
#      grid one rank computes on the CPU; the library is built with --exact
#      so that the tuned kernels add in the source's order;
#   3. weak scaling: N³ cells a rank, 1 and 2 ranks, each mode (library: the
#      kernel alone; exchange: heat_exchange then the kernel; overlap: the
#      overlapped procedure; halo: the exchange alone), in ROUNDS interleaved
#      rounds (the median is kept).
# Two ranks' blocks go GPU to GPU (CUDA IPC, the default where MPI is not
# CUDA-aware), staged through pinned host buffers (F2S_MPI_CUDA_IPC=0), and
# as device buffers handed to MPI where it is CUDA-aware. One table last.
#
# On the GPU machine, from the repository root, after bench/mpi/gpu_build.sh
# filled .mpi-gpu-carry/ here:
#   run(command="bash bench/mpi/gpu.sh 2>&1", carry=[".mpi-gpu-carry"], kind="nvidia-h200-x2")
# Knobs: N (cells per rank along each axis; 512), STEPS (200), ROUNDS (3),
# TUNE_BUDGET (30 s a kernel; 0: --no-tune), STENCILS ('7 27').
set -u
cd "$(dirname "$0")/../.."
carry=$PWD/.mpi-gpu-carry
work=/tmp/f2s-mpi-gpu
rm -rf "$work"
mkdir -p "$work"
n=${N:-512}
steps=${STEPS:-200}
rounds=${ROUNDS:-3}
budget=${TUNE_BUDGET:-30}
stencils=${STENCILS:-7 27}
export LD_LIBRARY_PATH=$carry/lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
gpus=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | wc -l)
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)
aware=$(ompi_info --parsable --all 2>/dev/null | sed -n "s/^mca:.*:param:[a-z]*_built_with_cuda_support:value://p" | head -1)
echo "HOST gpus=$gpus gpu=\"$gpu\" mpi=\"$(mpirun --version 2>&1 | head -1)\" cuda_aware_build=${aware:-unknown}" \
  "nvcc=\"$(nvcc --version | tail -1)\" f2stencil=$(cat "$carry/VERSION") date=\"$(date -u '+%Y-%m-%d %H:%M UTC')\""
nvidia-smi topo -m 2>/dev/null | sed 's/^/TOPO /'

# 1. The links, at the size of one face of one grid (N² doubles).
nvcc -O2 -arch=sm_90 -o "$work/links" bench/mpi/links.cu && "$work/links" $((n * n * 8))

t0=$(date +%s)
if [ "$budget" = 0 ]; then
  tune=(--no-tune)
else
  tune=(--tune-size="$n,$n,$n" --budget "$budget")
fi
"$carry/f2stencil" --target=cuda --mpi --exact -q "${tune[@]}" -o "$work/lib" examples/mpi_heat3d/heat3d.f90 ||
  { echo "TUNE failed; untuned"; "$carry/f2stencil" --target=cuda --mpi --exact -q --no-tune -o "$work/lib" examples/mpi_heat3d/heat3d.f90 || exit 1; }
echo "BUILD wall_s=$(($(date +%s) - t0))"
grep -E "^Kernel|^  cuda:" "$work/lib/f2s_heat3d.txt" | sed 's/^/CHOSEN /'
cudalib=""
for d in "$(dirname "$(command -v nvcc)")/../lib64" "$(dirname "$(command -v nvcc)")/../targets/x86_64-linux/lib"; do
  [ -e "$d/libcudart_static.a" ] && cudalib=$d && break
done
mpicc -o "$work/heat_gpu" "$carry/obj/main.o" "$work/lib/libf2s_heat3d.a" -L"$carry/lib" -lgfortran \
  -lmpi_mpifh -L"$cudalib" -lcudart_static -ldl -lrt -lstdc++ -lpthread -lm || exit 1

# 2. The check: the CPU on one rank is the reference.
cx=23 cy=19 cz=17
ok=1
for p in $stencils; do
  ref=$(mpirun -np 1 "$work/heat_gpu" "$((2 * cx)),$cy,$cz" 5 host "$work/ref$p" "$p" 2>&1) ||
    { echo "CHECK points=$p: the reference failed"; ok=0; }
  # The largest change, reduced on the device (deferred in the overlapped
  # procedure's launches) and across the ranks: a max, exact in any order.
  change=$(echo "$ref" | grep -o ' change *[^ ]*' | head -1)
  for np in 1 2; do
    size=$([ $np = 1 ] && echo "$((2 * cx)),$cy,$cz" || echo "$cx,$cy,$cz")
    for mode in library host exchange overlap; do
      [ $np = 2 ] && [ $mode = library ] && continue
      [ $np = 1 ] && [ $mode = host ] && continue
      for way in "0 " "0 0" $([ "$aware" = true ] && echo "1"); do
        read -r a ipc <<<"$way"
        out=$(F2S_MPI_CUDA_AWARE=$a F2S_MPI_CUDA_IPC=$ipc F2S_MPI_VERBOSE=1 mpirun -np $np \
          -x F2S_MPI_CUDA_AWARE -x F2S_MPI_CUDA_IPC -x F2S_MPI_VERBOSE "$work/heat_gpu" "$size" 5 $mode "$work/got" "$p" 2>&1)
        echo "$out" | grep -m1 'f2stencil: rank 0' | sed "s/^/CHECK points=$p np=$np mode=$mode said: /"
        if ! cmp -s "$work/got" "$work/ref$p"; then
          echo "CHECK points=$p np=$np mode=$mode F2S_MPI_CUDA_AWARE=$a F2S_MPI_CUDA_IPC=$ipc: grid differs ($(echo "$out" | tail -2))"
          ok=0
        fi
        if [ "$(echo "$out" | grep -o ' change *[^ ]*' | head -1)" != "$change" ]; then
          echo "CHECK points=$p np=$np mode=$mode F2S_MPI_CUDA_AWARE=$a F2S_MPI_CUDA_IPC=$ipc: change differs from the reference's$change"
          ok=0
        fi
      done
    done
  done
done
echo "CHECK all_equal=$ok (the grid and the largest change of every GPU mode on 1 and 2 ranks against one rank on the CPU)"

# 3. Weak scaling. Two ranks share the GPU where there is one.
run() { # np mode label points [env...]
  local np=$1 mode=$2 label=$3 p=$4
  shift 4
  line=$(env "$@" mpirun -np "$np" -x F2S_MPI_CUDA_AWARE -x F2S_MPI_CUDA_IPC "$work/heat_gpu" "$n" "$steps" "$mode" - "$p" 2>&1 | grep '^ranks' | tail -1)
  echo "RUN np=$np label=$label $line" | tee -a "$work/runs.txt"
}
for r in $(seq "$rounds"); do
  for p in $stencils; do
    for mode in library exchange overlap halo; do
      run 1 $mode $mode "$p" F2S_MPI_CUDA_AWARE= F2S_MPI_CUDA_IPC=
    done
    for mode in exchange overlap halo; do
      run 2 $mode $mode-ipc "$p" F2S_MPI_CUDA_AWARE=0 F2S_MPI_CUDA_IPC=
      run 2 $mode $mode-staged "$p" F2S_MPI_CUDA_AWARE=0 F2S_MPI_CUDA_IPC=0
      [ "$aware" = true ] && run 2 $mode $mode-direct "$p" F2S_MPI_CUDA_AWARE= F2S_MPI_CUDA_IPC=
    done
  done
done
python3 - "$work/runs.txt" "$n" "$gpus" <<'PY'
import re, statistics, sys
runs = {}
for line in open(sys.argv[1]):
    m = re.search(r"np=(\d+) label=(\S+) ranks \d+ points (\d+) grid (\S+) .*s/step\s+(\S+)\s+cells/s\s+(\S+)\s+change\s+\S+\s+transfers\s+(\d+)", line)
    if m:
        key = (int(m.group(3)), m.group(2), int(m.group(1)))
        runs.setdefault(key, []).append((float(m.group(5)), m.group(4), int(m.group(7))))
n, gpus = int(sys.argv[2]), int(sys.argv[3])
face = n * n * 8
print("\nheat_gpu, %d^3 cells a rank, %s: seconds per step (slowest rank, median of %s rounds)"
      % (n, "one GPU a rank" if gpus >= 2 else "two ranks sharing one GPU",
         min(len(v) for v in runs.values()) if runs else 0))
print("%-6s %-16s %11s %11s %8s %9s %10s %9s" % ("points", "mode", "1 rank", "2 ranks", "eff", "vs lib", "transfers", "spread"))
for (p, label, np) in sorted(k for k in runs if k[2] == 2):
    t2s = [t for t, _, _ in runs[(p, label, 2)]]
    t2 = statistics.median(t2s)
    base = label.split("-")[0]
    t1 = statistics.median(t for t, _, _ in runs.get((p, base, 1), [(float("nan"), 0, 0)]))
    lib = statistics.median(t for t, _, _ in runs.get((p, "library", 1), [(float("nan"), 0, 0)]))
    moved = max(x for _, _, x in runs[(p, label, 2)])
    spread = "%.0f%%" % (100 * (max(t2s) - min(t2s)) / t2) if len(t2s) > 1 else "-"
    if base == "halo":
        print("%-6d %-16s %11.3e %11.3e   halo: %d bytes sent and received a rank a step, %.1f GB/s each way"
              % (p, label, t1, t2, face, face / t2 * 1e-9))
    else:
        print("%-6d %-16s %11.3e %11.3e %7.0f%% %8.0f%% %10d %9s" % (p, label, t1, t2, 100 * t1 / t2, 100 * lib / t2, moved, spread))
for p in sorted({k[0] for k in runs}):
    lib = statistics.median(t for t, _, _ in runs.get((p, "library", 1), [(float("nan"), 0, 0)]))
    print("%d-point library alone on one GPU: %.3e s/step, %.1f Gcells/s" % (p, lib, n ** 3 / lib * 1e-9))
PY
