// Choosing, for a time loop on a CPU target, between its steps (each sweep
// by its tuned variant) and the loop tiled in time (codegen/CTimeTile.h),
// measured by the generated harness against the steps with serial sweeps.
#pragma once

#include "ast/TimeTiling.h"
#include "harness/Package.h"
#include "harness/TimeTileChoice.h"
#include "harness/Tuner.h"
#include "strategy/TimeTileSpace.h"

#include <optional>
#include <string>
#include <vector>

namespace f2s {

struct CpuModel;

/// What decides: `forced` > 0 tiles with T = forced and the model's best tile
/// for it; `tune` measures the steps and the model's candidates; otherwise
/// the loop runs step by step.
struct TimeTileRequest {
  std::string target = "pthreads";
  long forced = 0;
  bool tune = false;
  TuneOptions options; ///< work_dir, reps, jobs, cflags, progress
};

/// The choice for loop `t` (with its plan) whose sweeps' builds are
/// `builds` (each with a choice for request.target).
TimeTileChoice choose_time_tiles(const TimeLoop &t, const TimeTilePlan &plan,
                                 const std::vector<KernelBuild> &builds, const CpuModel &machine,
                                 const TimeTileRequest &request);

/// The choice for loop `t` on target cuda: tiled with T = `forced` (> 0) in
/// the form `form` ("overlapped" or "streaming", cuda_time_tile_form) and
/// the largest tile of a fixed list whose blocks' shared memory stays within
/// 100 KiB, 256 threads a block; step by step when `forced` is 0 (GPU time
/// tiles are not measured by the tuner yet: docs/time-loops.md).
TimeTileChoice choose_cuda_time_tiles(const TimeLoop &t, const TimeTilePlan &plan, long forced,
                                      const std::string &form = "overlapped");

/// The C text of loop `t`'s tiled variant `<target>_tiled` (once per file
/// and target): box helpers (guarded), regions, the variant. The loop's args
/// struct (print_c_args_struct) must precede it.
std::string print_time_tiled_code(const TimeLoop &t, const TimeTilePlan &plan,
                                  const std::vector<const Kernel *> &sweeps,
                                  const std::string &target);

/// The entry point `symbol` that runs that variant with `c`'s tuning (c.tiled).
std::string print_time_tiled_entry(const TimeLoop &t, const TimeTileChoice &c,
                                   const std::string &symbol, const std::string &comment);

} // namespace f2s
