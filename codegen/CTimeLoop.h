// Printing a time loop (ast/TimeLoop.h) as the C procedure of the library
// that runs it whole: the loop over steps, calling each sweep's entry point.
#pragma once

#include "ast/TimeLoop.h"

#include <string>
#include <vector>

namespace f2s {

/// How one procedure of a time loop runs its sweeps.
struct TimeLoopProcedure {
  std::string symbol;       ///< the C symbol, <lib>_<loop>[_<target>]
  std::string sweep_prefix; ///< each sweep runs sweep_prefix + <sweep> + sweep_suffix
  std::string sweep_suffix;
  std::string comment; ///< one line: what it runs
  /// Non-empty: every sweep's entry runs on the GPU when the grids are
  /// there, and the grids stay there for the whole loop: before the first
  /// step `<resident>_begin` (print_c_time_loop_residency) copies every grid
  /// the loop uses to the device (unless a data region holds it already) and
  /// after the last `<resident>_end` waits for the device and copies back
  /// what the loop wrote. Nothing moves between steps.
  std::string resident;
};

/// The procedure `p.symbol` with the time loop's signature (its arguments
/// as print_c_entry_prototype prints the signature kernel's: the scalars it
/// writes by reference). It runs the trip count Fortran's DO computes once,
/// leaves the time variable as the DO leaves it (also after an EXIT), and
/// each step runs the body's statements in order. `sweeps`: the sweep
/// kernels, by the names the body uses (each as the library exports it).
std::string print_c_time_loop(const TimeLoop &t, const std::vector<const Kernel *> &sweeps,
                              const TimeLoopProcedure &p);

/// The bytes of grid `v` of kernel `k` as a C expression of type size_t,
/// from the kernel's scalars (0 for an empty extent).
std::string print_c_grid_bytes(const Kernel &k, const Variable &v);

/// The prototypes of the residency functions `<resident>_begin` and
/// `<resident>_end` that a CUDA library defines (print_cuda_time_loop_exports),
/// for the C source that calls them.
std::string print_c_time_loop_residency(const std::string &resident);

} // namespace f2s
