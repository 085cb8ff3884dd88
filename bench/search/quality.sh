#!/usr/bin/env bash
# How close the default search comes to the exhaustive one (issue 16,
# section 3), on the GPU machine: f2stencil --search=compare tunes a kernel
# with the model-guided search (CPU) or the model's dozen (GPU), then
# measures every other candidate of the same space in the same session, and
# the record says both bests. One kernel and size per call:
#   MODE=cpu|gpu  EX=laplacian|box27  SIZE=256 (cubed)  RE=<--candidates>  REPS=3
# Built here by bench/search/build.sh into .sq-carry; then, for example,
#   run(command="MODE=cpu SIZE=256 bash bench/search/quality.sh", carry=[".sq-carry"])
# Prints the log's last lines and one table row last: space, measured by
# the cheap search, its choice's time and the exhaustive best's (on the CPU
# both measured again side by side after the searches), their ratio, the
# lowest first measurement of all (the minimum over many noisy medians),
# and the best's bandwidth against the measured bound.
set -u
cd "$(dirname "$0")/../.."
f2s=$PWD/.sq-carry/f2stencil
mode=${MODE:-cpu}
ex=${EX:-laplacian}
n=${SIZE:-256}
work=/tmp/f2s-sq
mkdir -p "$work"
out=$work/${mode}_${ex}_$n
args=(--search=compare --reps="${REPS:-3}" --tune-size="$n,$n,$n" --tuning-db "$work/db"
  --timeout 60 -o "$out")
if [ "$mode" = cpu ]; then
  args+=(--target=pthreads)
else
  args+=(--target=cuda)
  nvidia-smi --query-gpu=name --format=csv,noheader
fi
[ -n "${RE-}" ] && args+=(--candidates "$RE")
lscpu | grep -E "^Model name|^CPU\(s\)" | tr -s ' '
t0=$(date +%s)
"$f2s" "${args[@]}" "examples/$ex/$ex.f90" >"$work/${mode}_${ex}_$n.log" 2>&1
rc=$?
echo "f2stencil exit $rc after $(($(date +%s) - t0)) s"
grep -vE "\] (pthreads|cuda)/" "$work/${mode}_${ex}_$n.log" | tail -8
python3 - "$out/f2s_$ex.json" "$mode" "$ex" "$n" "$work/${mode}_${ex}_$n.log" <<'PY'
import json, re, sys
rec = json.load(open(sys.argv[1]))
mode, ex, n = sys.argv[2:5]
# The first measurement of each candidate, as the log printed it (the record
# holds the confirmed times of those measured again).
firsts = [float(m.group(1)) / 1e3 for m in
          re.finditer(r"(?:\] pthreads|' cuda)/\S.*?: ([0-9.]+) ms", open(sys.argv[5]).read())]
k = rec["kernels"][0]
s = k["search"]
c = s["cuda_comparison" if mode == "gpu" else "comparison"]
target = "cuda" if mode == "gpu" else "pthreads"
space = s["enumerated_by_target"][target]
measured = sum(1 for x in k["candidates"] if x.get("target") == target)
b = rec.get("bounds", {}).get("gpu" if mode == "gpu" else "cpu", {})
best = min((x for x in k["candidates"] if x.get("target") == target and x.get("verified")),
           key=lambda x: x["time_s"])
first = min(firsts) if firsts else float("nan")
print("ROW | %s | %s | %s^3 | %d | %d (%.0f%%) | %.4g ms | %.4g ms | %.1f%% | %s | %.4g ms | %.0f GB/s (%.0f%% of %.0f) |"
      % (mode, ex, n, space, c["cheap_measured"], 100.0 * c["cheap_measured"] / space,
         c["cheap_best_s"] * 1e3, c["exhaustive_best_s"] * 1e3,
         100.0 * c["exhaustive_best_s"] / c["cheap_best_s"],
         "side by side" if c.get("side_by_side") else "first measurements", first * 1e3,
         best["gbps"], 100.0 * best["gbps"] / b.get("gbps", float("nan")), b.get("gbps", 0)))
print("cheap choice:", c.get("cheap_choice", "?"), "| exhaustive choice:", c.get("exhaustive_choice", "?"))
print("best:", best["id"], "of", measured, "measured; bounds:", b.get("method", "none"))
PY
# The record and the log come back for a closer look.
[ -n "${OUT-}" ] && cp "$out/f2s_$ex.json" "$OUT/${mode}_${ex}_$n.json" &&
  cp "$work/${mode}_${ex}_$n.log" "$OUT/"
