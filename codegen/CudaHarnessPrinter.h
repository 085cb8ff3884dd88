// The generated CUDA test harness: checks one CUDA variant against the serial
// C reference and times its kernel with CUDA events.
#pragma once

#include "ast/IR.h"
#include "ast/TimeLoop.h"

#include <vector>

#include <string>

namespace f2s {

/// Two translation units that link into one program.
struct CudaHarnessSource {
  /// C (the system C compiler): the serial reference of the original kernel,
  /// exported as `void f2s_K_reference_entry(const struct f2s_K_args *)`.
  std::string c_reference;
  /// CUDA C++ (nvcc): the prelude, `variant_code` (print_cuda_variant) and
  /// main(). Usage:
  ///
  ///   prog REPS TOLERANCE SCALAR...
  ///
  /// It fills every grid with deterministic pseudo-random values in
  /// [0.5, 1.5), runs the reference on the host, copies the grids to the
  /// device (timed), runs the variant's launcher once, copies the written
  /// grids back (timed) and compares every element, halos included; if the
  /// largest relative difference is within TOLERANCE, it launches once to
  /// warm up and REPS times more, each timed with CUDA events on resident
  /// data. It prints one line:
  ///
  ///   F2S-RESULT {"verified": true, "max_rel_err": ..., "median_s": ...,
  ///               "min_s": ..., "reps": ..., "h2d_s": ..., "d2h_s": ...}
  std::string cuda_main;
};

/// How a harness runs its variant, where it is not a kernel's launcher
/// (a time loop's procedures, harness/TimeTileTuner.h).
struct CudaHarnessCall {
  /// The statement that runs the variant once. Empty: the launcher of
  /// `variant` on the device copies of the grids, `<launcher>(&d, 0);`.
  /// Otherwise it runs with `d` in scope: the device copies of the grids,
  /// or with `resident`, the host grids entered into the residency table.
  std::string call;
  /// The grids are entered into the runtime's residency table
  /// (f2s_cuda_enter: copied in, timed) instead of copied by the harness,
  /// `d` holds their host addresses, and the written ones are copied back
  /// with f2s_cuda_update_host: for procedures that map host grids
  /// themselves (the time-tiled procedures of codegen/CudaTimeTile.h).
  bool resident = false;
  /// The C text defining `f2s_K_reference` (a variant of the original's
  /// args struct) in place of the original's serial body: a time loop's
  /// serial steps. With it the harness also takes an optional file name
  /// after the scalars: the reference's written grids are read from it
  /// when it holds them, and written to it otherwise, so that the
  /// candidates of one tuning compute the slow serial steps once.
  std::string reference_code;
};

/// A sweep's chosen CUDA code, for print_cuda_time_loop_steps: its mapped
/// kernel, its CUDA source (print_cuda_variant's) and the variant's name
/// ("cuda_plain32x8").
struct CudaSweepCode {
  const Kernel *ir = nullptr;
  std::string source, variant;
};

/// The time loop `t` step by step on the device, as a variant
/// `f2s_<loop>_<variant>(const struct f2s_<loop>_args *a, const long *tune,
/// int nthreads)` whose grids are device addresses: sweep i of t.sweeps()
/// by the launcher of `code[i]`, in the loop's order (the loop's args
/// struct must precede it). For a harness's `call`.
std::string print_cuda_time_loop_steps(const TimeLoop &t, const std::vector<const Kernel *> &sweeps,
                                       const std::vector<CudaSweepCode> &code,
                                       const std::string &variant);

/// `symbol(d.<arg>, ...);`: an entry point with `k`'s signature called from
/// a harness's struct `d`, for a harness's `call`.
std::string print_cuda_harness_entry_call(const Kernel &k, const std::string &symbol);

CudaHarnessSource print_cuda_harness(const Kernel &original, const std::string &variant_code,
                                     const std::string &variant, const CudaHarnessCall &call = {});

} // namespace f2s
