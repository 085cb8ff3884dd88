// A time loop of a Fortran file lowered and planned for time tiling, for the
// GPU time-tile tests (CudaTimeTileTest.cpp, CudaTimeTileTuningTest.cpp).
#pragma once

#include "ast/TimeTiling.h"
#include "frontend/Frontend.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace f2s::test {

/// `relative` to the source tree.
inline std::string source_path(const std::string &relative) {
  return std::string(F2S_SOURCE_DIR) + "/" + relative;
}

/// The lowered file, kept alive with the loop and its sweeps.
struct LoweredLoop {
  LoweredFiles files;
  const TimeLoop *loop = nullptr;
  std::vector<const Kernel *> sweeps;
  TimeTilePlan plan;
};

/// Lowers `file` (relative to the source tree) into `out`: its time loop
/// `name`, every kernel of the file as the sweeps, and the loop's plan.
/// A fatal failure where the file has a problem, no such loop or no plan.
inline void lower_time_loop(const std::string &file, const std::string &name, LoweredLoop &out) {
  out.files = lower_files_collecting({source_path(file)});
  ASSERT_TRUE(out.files.problems.empty()) << out.files.problems[0].message;
  for (const TimeLoop &t : out.files.time_loops)
    if (t.signature.name == name)
      out.loop = &t;
  ASSERT_TRUE(out.loop) << name;
  for (const Kernel &k : out.files.kernels)
    out.sweeps.push_back(&k);
  TimeTiling tiling = plan_time_tiling(*out.loop, out.sweeps);
  ASSERT_TRUE(tiling.plan) << tiling.reason;
  out.plan = *tiling.plan;
}

} // namespace f2s::test
