// The CPU target: serial C ("c") and threads ("pthreads") on the host.
// Its machine model is the host's topology (strategy/MachineModel), its
// engine strategy/CpuEngine, its code harness/Variants, its harness
// harness/Tuner. Both names are one target because they share the machine
// and one search space: a tuning compares the serial code with the threaded
// nests, and the fastest of either becomes the kernel's default.
#pragma once

#include "targets/Target.h"

namespace f2s {

class CpuTarget : public Target {
public:
  /// `names`: "c", "pthreads" or both, in the order asked for.
  explicit CpuTarget(std::vector<std::string> names) : names_(std::move(names)) {}

  const std::vector<std::string> &names() const override { return names_; }
  bool first_touch() const override { return true; }
  void add_choices(KernelBuild &b, const TargetRun &run) override;

private:
  std::vector<std::string> names_;
};

} // namespace f2s
