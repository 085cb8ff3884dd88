// The generated test harness: a C program that checks one variant of a
// kernel against the serial reference and times it.
#pragma once

#include "ast/IR.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace f2s {

/// The values the harness's data gives an INTEGER grid's elements:
/// `(int32_t)(v * 100)` of its pseudo-random v in [0.5, 1.5) (f2s_fill_task
/// below); a LOGICAL grid's are 0 and 1. What a bound read from such a grid
/// can reach when the harness runs (harness/ProblemSize sizes grids by it):
/// change both with the fill.
inline constexpr std::pair<int64_t, int64_t> kHarnessIntegerData{50, 149},
    kHarnessLogicalData{0, 1};

/// A complete C program for kernel `original` and one variant of it, given as
/// the C text of the variant (`variant_code`, defining `variant_fn` with the
/// signature of print_c_variant) taking `n_tune` tuning values. Usage:
///
///   prog THREADS REPS TOLERANCE SCALAR... TUNE...
///
/// with one SCALAR per scalar argument in argument order. It fills every grid
/// with deterministic pseudo-random values in [0.5, 1.5) after touching it
/// first with the threads that will compute it (see below), runs the reference and the variant
/// from the same data, compares every written grid (halos included: they must
/// be left alone), and if the largest relative difference is within TOLERANCE
/// runs the variant once to warm up and REPS times more. It prints one line:
///
///   F2S-RESULT {"verified": true, "max_rel_err": ..., "median_s": ..., "min_s": ...,
///               "reps": ..., "cold_caches": true|false}
///
/// cold_caches: the grids are larger than the per-core L2 and smaller than
/// twice the last-level cache, so before each timed repetition the threads
/// sweep a buffer twice that cache's size: the kernel meets its grids in
/// memory, as in a program whose other kernels swept their own arrays since
/// its last call, not warm from its previous repetition.
///
/// With `extras`, the grids are first touched by the variant's first-touch
/// function (same threads, pinning and decomposition as the variant) before
/// the values are written, and the harness pins threads like the library.
struct HarnessExtras {
  const Kernel *first_touch = nullptr; ///< the first-touch kernel (for its args struct)
  std::string first_touch_code;        ///< its C function, taking the variant's tuning values
  std::string first_touch_fn;          ///< that function's name
  std::vector<int> cpus;               ///< the placement (print_c_placement); empty: no pinning
  /// The C text that defines the reference `f2s_<original>_reference` (and
  /// what it calls), in place of the original's serial body: a time loop's
  /// reference runs its steps (codegen/CTimeTile.h). Empty: the body.
  std::string reference_code;
};
std::string print_c_harness(const Kernel &original, const std::string &variant_code,
                            const std::string &variant_fn, size_t n_tune,
                            const HarnessExtras &extras = {});

/// The number of points of the kernel's nest, as a C expression of type
/// double in its scalar arguments (the terms of each reduction).
std::string print_c_point_count(const Kernel &k);

/// The harness's name for the buffers of argument `var` of `k`
/// (harness_name(k, "u") + "_ref", "_n", ...): f2s_<argument index>_<name>,
/// so that no suffix of one argument's names meets another's (arrays u and
/// u_n) or a local of the harness (f2s_tolerance, f2s_terms).
std::string harness_name(const Kernel &k, const std::string &var);

/// Lines of a harness's main() that compare each reduction of `k` between
/// the runs whose copies are <harness_name>_<got> and <harness_name>_<want>: relative
/// error within `tolerance`, or for a floating-point sum within `terms`
/// (a C expression: the number of terms) units of rounding. They set
/// the int f2s_reduction_bad and the double f2s_reduction_err (the largest
/// relative error), which main() declares.
std::string print_c_reduction_check(const Kernel &k, const std::string &got,
                                    const std::string &want, const std::string &terms);

/// Lines of a harness's main() that read the kernel's scalar arguments from
/// argv[first], argv[first + 1], ... (argument order) into locals and into
/// the argument structs named in `structs`. Shared by the CPU and CUDA
/// harnesses.
std::string print_c_scalar_args(const Kernel &k, size_t first,
                                const std::vector<std::string> &structs);

} // namespace f2s
