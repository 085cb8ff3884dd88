// What the machine itself can do, measured once per machine and compiler:
// the memory bandwidth a stencil can at best stream at (STREAM's triad with
// every core on the CPU, a device-to-device copy on the GPU) and the
// arithmetic peak (independent fused multiply-adds on every core or SM).
// They are the roofline's roofs: the report plots every candidate under them
// and the progress line says how close the best so far is (issue 16). The
// performance model never uses them: it ranks candidates by traffic alone,
// and the harness measures the rest.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

class TuningDb;
struct CpuModel;
struct GpuModel;

struct MachineBounds {
  double gbps = 0;     ///< sustained memory bandwidth, GB/s (10^9 bytes)
  double gflops = 0;   ///< double-precision peak with FMAs, GFlop/s
  std::string method;  ///< how they were measured, in words, for the record
  bool reused = false; ///< taken from the tuning cache, not measured now
};

/// STREAM triad (a(i) = b(i) + s*c(i), 24 bytes per element as STREAM
/// counts them) over arrays four times the last-level cache, and chains of
/// FMAs on 512-bit vectors, with one thread per core pinned spread out, in a
/// probe built by c_compiler() with -O3 -march=native -fopenmp in
/// `work_dir`. Taken from `db` when it holds a measurement for this machine
/// and compiler (unless `retune`), stored in it otherwise. nullopt, with
/// `why`, when the probe cannot be built or run: the report then falls back
/// to the best bandwidth a candidate reached.
std::optional<MachineBounds> cpu_bounds(const CpuModel &machine,
                                        const std::filesystem::path &work_dir, TuningDb *db,
                                        bool retune, std::string *why);

/// The same for device 0: cudaMemcpy device to device of a quarter of the
/// free memory, at most 1 GiB (read and write counted), and FMA chains in
/// double on every SM, in a probe built with `nvcc` for `gpu`'s arch.
std::optional<MachineBounds> gpu_bounds(const GpuModel &gpu, const std::string &nvcc,
                                        const std::filesystem::path &work_dir, TuningDb *db,
                                        bool retune, std::string *why);

/// "88.3 GB/s, 1.85e+03 GFlop/s".
std::string describe(const MachineBounds &b);

/// Adds `b` to the tuning record (JSON text) as "bounds": {`which`: {gbps,
/// gflops, method, reused}}, which the report draws its roofs from.
void add_bounds_to_record(std::string &record, const std::string &which, const MachineBounds &b);

/// Parses a probe's "F2S-BOUNDS gbps=...;gflops=...;method=..." line.
std::optional<MachineBounds> bounds_from_probe(const std::string &output);

} // namespace f2s
