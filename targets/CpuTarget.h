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
  /// Adds the measured bounds to the record ("bounds": {"cpu": ...}).
  void package(LibraryFiles &files, const PackageInfo &info,
               const std::vector<KernelBuild> &builds) const override;

private:
  std::vector<std::string> names_;
  std::optional<MachineBounds> bounds_;
};

} // namespace f2s
