// How a time loop runs on one target: step by step, or tiled in time with
// its parameters (harness/TimeTileTuner.h decides; harness/Package.h prints).
#pragma once

#include "harness/Tuner.h"

#include <optional>
#include <string>
#include <vector>

namespace f2s {

/// How a time loop runs on one target (pthreads, c or cuda).
struct TimeTileChoice {
  std::string loop;       ///< the time loop's name
  std::string target;     ///< "pthreads" or "cuda"
  bool tiled = false;     ///< false: step by step
  std::vector<long> tune; ///< tiled: T, then the tile's extents (x first)
  int threads = 0;        ///< tiled: the pool's threads (0: every processor); cuda: threads a block
  std::string why;        ///< one line: measured, forced, or the default
  /// cuda, tiled: "overlapped" or "streaming" (codegen/CudaTimeTile.h's
  /// forms); streaming, the tile's extent along the slowest dimension is the
  /// segment a block walks (0: all of it).
  std::string form;
  /// Measured, when tuned: seconds for the harness's steps, step by step
  /// and the best tiled candidate (0: not measured); the candidates.
  double steps_s = 0, tiled_s = 0;
  int64_t trips = 0;
  std::optional<KernelTuning> tuning;
  /// The model's bytes per point and step: step by step, and the choice's.
  double steps_bytes = 0, tiled_bytes = 0;
};

} // namespace f2s
