// Choosing, for a time loop on a CPU target or the GPU, between its steps
// (each sweep by its tuned variant) and the loop tiled in time
// (codegen/CTimeTile.h, codegen/CudaTimeTile.h), measured by the generated
// harness against the steps with serial sweeps.
#pragma once

#include "ast/TimeTiling.h"
#include "codegen/CudaTimeTile.h"
#include "harness/Package.h"
#include "harness/TimeTileChoice.h"
#include "harness/Tuner.h"
#include "strategy/TimeTileSpace.h"

#include <optional>
#include <string>
#include <vector>

namespace f2s {

struct CpuModel;

/// What decides: `forced` > 0 tiles with T = forced in the form `form`
/// ("overlapped" or "streaming", c_time_tile_form) and the model's best tile
/// for it; `tune` measures the steps and the model's candidates of both
/// forms; otherwise the loop runs step by step.
struct TimeTileRequest {
  std::string target = "pthreads";
  long forced = 0;
  std::string form = "overlapped";
  bool tune = false;
  TuneOptions options; ///< work_dir, reps, jobs, cflags, progress
};

/// Values of loop `t`'s scalars (signature order) for a tuning run of
/// `trips` steps: those of `sweep` (the sweep spanning every dimension) at
/// its tuning size, the loop's bound that is a scalar set for the trips
/// (the upper of a loop counting up, the lower of one counting down), the
/// scalars the loop writes 0.
ProblemSize time_loop_tuning_size(const TimeLoop &t, const Kernel &sweep, int64_t trips);

/// The choice for loop `t` (with its plan) whose sweeps' builds are
/// `builds` (each with a choice for request.target).
TimeTileChoice choose_time_tiles(const TimeLoop &t, const TimeTilePlan &plan,
                                 const std::vector<KernelBuild> &builds, const CpuModel &machine,
                                 const TimeTileRequest &request);

/// The choice for loop `t` on target cuda: tiled with T = `forced` (> 0) in
/// the form `form` ("overlapped" or "streaming", cuda_time_tile_form) and
/// the largest tile of a fixed list whose blocks' shared memory stays within
/// 100 KiB, 256 threads a block; step by step when `forced` is 0.
TimeTileChoice choose_cuda_time_tiles(const TimeLoop &t, const TimeTilePlan &plan, long forced,
                                      const std::string &form = "overlapped");

/// The GPU's candidates for loop `t`: T in 2, 3, 4, 6 and 8 in both forms
/// (streaming where the grids have rank 2 or more), each with the two
/// widest tiles of choose_cuda_time_tiles's lists that fit its limits
/// (streaming: each with one and with two columns a thread, where fitting).
std::vector<CudaTimeTileParams> cuda_time_tile_candidates(const TimeLoop &t,
                                                          const TimeTilePlan &plan);

/// The code a GPU tuning of loop `t` measures, each checked against the
/// serial steps (VariantCode::harness_reference) by print_cuda_harness with
/// the variant's call: first the steps, sweep i by the CUDA variant
/// `chosen[i]` (of t.sweeps()[i]) on the harness's device copies of the
/// grids; then the tiled procedure of each of `params` (whose symbols it
/// sets), on the host grids the harness enters into the residency table.
std::vector<VariantCode> cuda_time_loop_variants(const TimeLoop &t, const TimeTilePlan &plan,
                                                 const std::vector<const Kernel *> &sweeps,
                                                 const std::vector<const VariantCode *> &chosen,
                                                 std::vector<CudaTimeTileParams> &params);

/// The choice for loop `t` on target cuda, measured on this machine's GPU
/// (harness/CudaTuner.h's tune_cuda, `options` as for a sweep): the steps,
/// each sweep by its tuned CUDA variant (builds' cuda choices) with the
/// grids on the device, against every cuda_time_tile_candidates entry,
/// each checked against the serial steps; the faster is kept. Throws
/// std::runtime_error where there is no nvcc or GPU.
TimeTileChoice tune_cuda_time_tiles(const TimeLoop &t, const TimeTilePlan &plan,
                                    const std::vector<KernelBuild> &builds,
                                    const TuneOptions &options);

/// The C text of loop `t`'s tiled variant for choice `c` (once per file,
/// target and form): `<target>_tiled` (overlapped) or `<target>_streamed`
/// (streaming, its pipeline for chunks of c's T): box helpers (guarded),
/// regions, the variant. The loop's args struct (print_c_args_struct) must
/// precede it.
std::string print_time_tiled_code(const TimeLoop &t, const TimeTilePlan &plan,
                                  const std::vector<const Kernel *> &sweeps,
                                  const TimeTileChoice &c);

/// The entry point `symbol` that runs that variant with `c`'s tuning (c.tiled).
std::string print_time_tiled_entry(const TimeLoop &t, const TimeTilePlan &plan,
                                   const TimeTileChoice &c, const std::string &symbol,
                                   const std::string &comment);

} // namespace f2s
