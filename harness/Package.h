// The library builder's input: what was chosen for every kernel, turned into
// the library's sources, module, header, tuning record and report.
#pragma once

#include "ast/TimeLoop.h"
#include "codegen/CSizeDispatch.h"
#include "harness/LibraryBuilder.h"
#include "harness/TimeTileChoice.h"
#include "harness/Tuner.h"

#include <optional>
#include <string>
#include <vector>

namespace f2s {

/// The code packaged for one kernel and one target.
struct Choice {
  VariantCode code;
  Candidate candidate;
};

struct KernelBuild {
  Kernel kernel;
  std::vector<Choice> choices;        ///< one per target, in the order asked for
  size_t default_choice = 0;          ///< which one the plain entry point runs
  std::optional<KernelTuning> tuning; ///< absent with --no-tune
  /// Tuned at several sizes: the builds at the others, each the kernel
  /// (kernel.tune_size its size) with that size's choices and tuning, by
  /// working set after this one (the smallest). The entry points run, for
  /// each call, the choice of the size nearest the call's by working set
  /// (codegen/CSizeDispatch.h). Empty: one size.
  std::vector<KernelBuild> other_sizes;
};

/// Bytes a call touches per point of the nest (each element the point reads
/// or writes, once): the working set's unit, for dispatching by size.
int64_t bytes_per_point(const Kernel &k);

/// The sizes `b`'s kernel was tuned at (`b`'s, then KernelBuild::other_sizes),
/// each with its working set: the sizes an entry point dispatches among
/// (codegen/CSizeDispatch.h).
std::vector<TunedSize> tuned_sizes(const KernelBuild &b);

struct PackageInfo {
  std::string name;                 ///< NAME: module, files, symbol prefix
  std::vector<std::string> sources; ///< the Fortran files read
  std::string machine;              ///< where it was tuned, in words
  std::vector<std::string> cflags;
  /// Thread t runs on CPU cpus[t] (CpuModel::placement on the tuning
  /// machine), baked into the library; empty: threads are not pinned.
  std::vector<int> cpus;
  /// --mpi: also K_exchange per kernel (codegen/CMpiPrinter), in <NAME>_mpi.c.
  bool mpi = false;
};

/// Everything the library builder writes. For each kernel K the library
/// exports `K` (symbol NAME_K), running the default choice, `K_<target>`
/// for each target, and, when the default choice is a CPU variant,
/// `K_first_touch` (NAME_K_first_touch): zero in every element of every grid,
/// written with the default choice's threads, pinning and decomposition.
/// A kernel tuned at several sizes (KernelBuild::other_sizes) dispatches in
/// each of these by the call's size, and also exports
/// `int NAME_K_tuned_size(args...)` (C only): the index of the size whose
/// choices a call with these arguments runs, smallest working set first.
///
/// For each time loop T (whose sweeps are among `kernels`) it also exports
/// `T` and `T_<target>` for each target (codegen/CTimeLoop): every step of
/// the loop in one call, each sweep run by its entry point of that name
/// (`T` by the sweeps' plain ones). Where every sweep's choice runs on the
/// GPU, the grids stay there for the whole loop.
/// `tiles`: how time loops run on a CPU target (harness/TimeTileTuner.h);
/// a loop without a tiled choice for a target runs step by step there.
LibraryFiles package_library(const PackageInfo &info, const std::vector<KernelBuild> &kernels,
                             const std::vector<TimeLoop> &time_loops = {},
                             const std::vector<TimeTileChoice> &tiles = {});

/// The CUDA text of the time loops tiled in time on the GPU (codegen/
/// CudaTimeTile.h), for the library's .cu after the targets' own: each such
/// procedure falls back to the steps (`<symbol>_steps`, in the C source) on
/// the CPU or where a block's shared memory does not fit.
std::string time_tiled_cuda_source(const PackageInfo &info, const std::vector<KernelBuild> &kernels,
                                   const std::vector<TimeLoop> &time_loops,
                                   const std::vector<TimeTileChoice> &tiles);

/// The whole C source of the library (what --emit=c prints).
std::string library_c_source(const PackageInfo &info, const std::vector<KernelBuild> &kernels,
                             const std::vector<TimeLoop> &time_loops = {},
                             const std::vector<TimeTileChoice> &tiles = {});

} // namespace f2s
