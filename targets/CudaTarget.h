// The CUDA target ("cuda"): the GPU, its model probed with nvcc
// (harness/CudaTuner's probe_gpu, strategy/GpuModel), its engine
// strategy/GpuEngine, its code harness/CudaVariants, its harness
// harness/CudaTuner (every candidate verified against the serial reference
// and timed with CUDA events), and its part of the library
// harness/CudaPackage (the CUDA source, the data-region procedures, the GPU
// facts in the record). Its choice becomes each kernel's default entry
// point, which runs on the CPU when the call's grids are not on the GPU (see
// runtime/f2s_cuda_runtime.h).
#pragma once

#include "harness/CudaTuner.h"
#include "harness/MachineBounds.h"
#include "strategy/GpuModel.h"
#include "targets/Target.h"

#include <map>
#include <optional>

namespace f2s {

class CudaTarget : public Target {
public:
  explicit CudaTarget(std::vector<std::string> names) : names_(std::move(names)) {}

  const std::vector<std::string> &names() const override { return names_; }
  bool first_touch() const override { return false; }
  /// The data-region procedures are named after the library.
  void check_library_name(const std::string &lib_name) const override;
  /// Needs nvcc; tuning also probes the GPU (an error without one, naming
  /// --no-tune).
  void begin(const TargetRun &run) override;
  /// Tuning enumerates with strategy/GpuEngine and measures with
  /// harness/CudaTuner; the candidates and results join the kernel's tuning
  /// record after the CPU target's.
  void add_choices(KernelBuild &b, const TargetRun &run) override;
  /// Tuning measures the steps against both forms' tiles on the GPU
  /// (harness/TimeTileTuner's tune_cuda_time_tiles); untuned, --time-tile=N
  /// takes the first tile of its list that fits, auto the steps.
  std::optional<TimeTileChoice> time_tile_choice(const TimeLoop &t, const TimeTilePlan &plan,
                                                 const std::vector<KernelBuild> &builds,
                                                 const TimeTileAsk &ask,
                                                 const TargetRun &run) override;
  /// "  cuda form overlapped|streaming": the form --time-tile=N takes.
  std::string describe_time_tiling(const TimeTilePlan &plan, const TimeTileAsk &ask) const override;
  /// The CUDA source, the data-region procedures and the GPU facts in the
  /// record, then the time loops tiled on the GPU.
  void package(LibraryFiles &files, const PackageInfo &info, const std::vector<KernelBuild> &builds,
               const std::vector<TimeLoop> &loops,
               const std::vector<TimeTileChoice> &tiles) const override;

private:
  /// One kernel at one size (its tune_size); `key` names it in times_.
  void add_choice(KernelBuild &b, const std::string &key, const TargetRun &run);

  std::vector<std::string> names_;
  std::optional<GpuModel> gpu_; ///< the device tuned on; absent when untuned
  /// Its measured copy bandwidth and peak; absent when untuned or not measured.
  std::optional<MachineBounds> bounds_;
  /// The transfer times per kernel and size (cuda_times_key), per result.
  std::map<std::string, std::map<size_t, CudaCandidateTimes>> times_;
};

} // namespace f2s
