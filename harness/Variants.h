// Turning the strategy's recipes into code: each variant's passes applied
// to the kernel, and the C printed from the result.
#pragma once

#include "ast/IR.h"
#include "strategy/CpuEngine.h"

#include <string>
#include <vector>

namespace f2s {

struct VariantCode {
  Variant variant;
  Kernel ir;              ///< the kernel after the variant's passes
  std::string c_function; ///< its C text (print_c_variant)
  std::string c_name;     ///< the C function's name
  /// Target "cuda": the kernel, launcher and run function (CUDA C++) that
  /// c_function calls; empty for the CPU targets.
  std::string cuda_source;
  /// Whether the code runs on the GPU (a target's CUDA variants): its
  /// entry points copy each argument to the device separately, and its CUDA
  /// source goes into the library's .cu.
  bool runs_on_gpu() const { return !cuda_source.empty(); }
  /// CPU targets: the first-touch kernel with this variant's decomposition
  /// (first_touch_variant), its C function (print_c_variant, taking the same
  /// tuning values) and that function's name.
  Kernel first_touch_ir;
  std::string first_touch_function, first_touch_name;
  /// The C text defining the reference this variant's harness checks
  /// against (HarnessExtras::reference_code: a time loop's steps); empty:
  /// the kernel's serial body.
  std::string harness_reference;
  /// Target "cuda", where the harness runs something other than the
  /// launcher of a kernel's variant (a time loop's procedures): the
  /// statement that runs it and whether it maps host grids itself
  /// (codegen/CudaHarnessPrinter.h's CudaHarnessCall).
  std::string cuda_call;
  bool cuda_resident = false;
};

/// Applies the passes of `v` to `k`, in order.
Kernel apply_variant(const Kernel &k, const Variant &v);

/// The first-touch kernel of `k` (transforms/FirstTouch) with the
/// decomposition passes of `v` (core blocking, parallel loop, chunks, thread
/// blocks) applied, so that it gives each thread the points it computes in
/// `variant_ir` (the kernel after all of v's passes); its tuning parameters
/// are variant_ir's, so the two take the same tuning values.
Kernel first_touch_variant(const Kernel &k, const Variant &v, const Kernel &variant_ir);

/// The candidate's tuning values in the order of the variant's parameters
/// (Kernel::tuning), as the generated code takes them. Every parameter must
/// have a value.
std::vector<long> tune_values(const VariantCode &variant, const Candidate &c);

/// The code of every variant of the search space, in its order.
std::vector<VariantCode> generate_variants(const Kernel &k, const SearchSpace &space);

} // namespace f2s
