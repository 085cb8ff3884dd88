// The CPU target: serial C ("c") and threads ("pthreads") on the host.
// Its machine model is the host's topology (strategy/MachineModel), its
// engine strategy/CpuEngine, its code harness/Variants, its harness
// harness/Tuner. Both names are one target because they share the machine
// and one search space: a tuning compares the serial code with the threaded
// nests, and the fastest of either becomes the kernel's default.
#pragma once

#include "harness/MachineBounds.h"
#include "targets/Target.h"

#include <optional>

namespace f2s {

class CpuTarget : public Target {
public:
  /// `names`: "c", "pthreads" or both, in the order asked for.
  explicit CpuTarget(std::vector<std::string> names) : names_(std::move(names)) {}

  const std::vector<std::string> &names() const override { return names_; }
  bool first_touch() const override { return true; }
  /// When tuning: measures the host's bandwidth and peak (or takes them
  /// from the tuning cache), the roofs of the report and the progress line.
  void begin(const TargetRun &run) override;
  void add_choices(KernelBuild &b, const TargetRun &run) override;
  /// pthreads tiles in time (harness/TimeTileTuner's choose_time_tiles:
  /// the steps against both forms' tiles, measured on the host); serial C
  /// runs the steps.
  std::optional<TimeTileChoice> time_tile_choice(const TimeLoop &t, const TimeTilePlan &plan,
                                                 const std::vector<KernelBuild> &builds,
                                                 const TimeTileAsk &ask,
                                                 const TargetRun &run) override;
  /// Adds the measured bounds to the record ("bounds": {"cpu": ...}); the
  /// time-tiled loops are in the C that package_library wrote.
  void package(LibraryFiles &files, const PackageInfo &info, const std::vector<KernelBuild> &builds,
               const std::vector<TimeLoop> &loops,
               const std::vector<TimeTileChoice> &tiles) const override;

private:
  std::vector<std::string> names_;
  std::optional<MachineBounds> bounds_;
};

} // namespace f2s
