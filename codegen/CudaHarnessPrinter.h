// The generated CUDA test harness: checks one CUDA variant against the serial
// C reference and times its kernel with CUDA events.
#pragma once

#include "ast/IR.h"

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

CudaHarnessSource print_cuda_harness(const Kernel &original, const std::string &variant_code,
                                     const std::string &variant);

} // namespace f2s
