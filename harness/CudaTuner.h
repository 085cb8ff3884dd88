// Tuning on the GPU: the device model from a probe compiled with nvcc, and
// every CUDA candidate built, verified against the serial reference and timed
// with CUDA events (transfers excluded from the kernel time, reported apart).
#pragma once

#include "harness/Tuner.h"
#include "strategy/GpuModel.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

namespace f2s {

/// The model of device 0, from a probe compiled with nvcc in `work_dir`.
/// Throws std::runtime_error saying why when there is no nvcc or no GPU.
GpuModel probe_gpu(const std::filesystem::path &work_dir);

struct CudaCandidateTimes {
  double kernel_s = 0, h2d_s = 0, d2h_s = 0;
};

/// Measures every candidate of `space` whose variant has target "cuda":
/// builds the harnesses in parallel (options.jobs), runs each with a time
/// limit, and appends one result per candidate to `results` (verified ones
/// with GFlop/s and GB/s of compulsory traffic). `times` receives the
/// transfer times per result index when given. Candidates whose results
/// options.log holds are taken from it, not built; each new result is stored
/// in it. Returns how many results were taken from the log.
/// `only`, when given, limits the measuring to those candidate indices.
size_t tune_cuda(const Kernel &k, const SearchSpace &space, const std::vector<VariantCode> &code,
                 const ProblemSize &size, const TuneOptions &options,
                 std::vector<CandidateResult> &results,
                 std::map<size_t, CudaCandidateTimes> *times = nullptr,
                 const std::vector<size_t> *only = nullptr);

} // namespace f2s
