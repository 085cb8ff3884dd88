// The CUDA step of the pipeline: for every kernel, the GPU choice, tuned on
// the visible GPU or (untuned) the default mapping.
#pragma once

#include "harness/CudaPackage.h"
#include "harness/Tuner.h"

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

class TuningDb;

struct CudaBuildOptions {
  bool tune = true;               ///< false: the default CUDA variant, nothing timed
  std::filesystem::path work_dir; ///< harnesses and the probe go here (when tuning)
  TuneOptions tune_options;       ///< jobs, time limit, repetitions, progress
  /// Only candidates that round as the serial code does (no plane sums).
  bool exact = false;
  TuningDb *db = nullptr; ///< the tuning cache; null: none
  bool retune = false;    ///< measure again what it holds
};

/// What packaging needs to know of the CUDA step.
struct CudaBuilds {
  std::string gpu; ///< the device tuned on, in words ("" when untuned)
  /// Per kernel and size (cuda_times_key), per result.
  std::map<std::string, std::map<size_t, CudaCandidateTimes>> times;
};

/// The key of CudaBuilds::times for a kernel at its tuning size `size`
/// (0: the build itself, i: KernelBuild::other_sizes[i - 1]).
std::string cuda_times_key(const std::string &kernel, size_t size);

/// Adds a "cuda" choice to every build, which becomes the default entry
/// point's choice (it runs on the CPU when the call's grids are not on the
/// GPU; see runtime/f2s_cuda_runtime.h). Tuning probes the GPU (an error
/// without nvcc or a GPU, naming --no-tune), enumerates with
/// strategy/GpuEngine, and measures with harness/CudaTuner; its candidates
/// and results join the kernel's tuning record. Each build is tuned at its
/// kernel's tune_size, and so is each of its other_sizes.
CudaBuilds add_cuda_builds(std::vector<KernelBuild> &builds, const CudaBuildOptions &options);

} // namespace f2s
