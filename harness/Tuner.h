// Verifying and timing candidates on the machine at hand, and choosing.
#pragma once

#include "ast/Analysis.h"
#include "harness/ProblemSize.h"
#include "harness/Variants.h"
#include "strategy/CpuEngine.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

struct TuneOptions {
  std::filesystem::path work_dir; ///< harness sources and binaries go here
  int jobs = 2;                   ///< compilations at once
  double timeout_s = 60;          ///< per candidate run
  int reps = 5;                   ///< timed runs per candidate (median reported)
  std::vector<std::string> cflags;
  /// Thread t of a candidate runs on CPU cpus[t] (CpuModel::placement on this
  /// machine, as the library will pin them); empty: threads are not pinned.
  std::vector<int> cpus;
  std::function<void(const std::string &)> progress; ///< one line per step, may be empty
};

enum class CandidateStatus { Verified, WrongResult, Crashed, TimedOut, BuildFailed };
const char *status_name(CandidateStatus s);

struct CandidateResult {
  Candidate candidate;
  std::string description; ///< SearchSpace::describe
  CandidateStatus status = CandidateStatus::BuildFailed;
  double max_rel_err = 0; ///< when it ran to the comparison
  double seconds = 0;     ///< median time of one call, when verified
  double gflops = 0, gbps = 0;
  std::string detail; ///< why it failed, in one line
};

struct KernelTuning {
  std::string kernel;
  ProblemSize size;
  SearchSpace space;
  std::vector<CandidateResult> results; ///< one per candidate, in the space's order
  /// The fastest verified candidate, of one target or of any.
  std::optional<size_t> best(const std::string &target = "") const;
};

/// Builds a harness for each variant (compiled in parallel), then runs each
/// candidate in its own process, one at a time so timings do not disturb
/// each other: a candidate that crashes, hangs or disagrees with the serial
/// reference is recorded as such and never chosen.
KernelTuning tune_kernel(const Kernel &k, const SearchSpace &space,
                         const std::vector<VariantCode> &variants, const ProblemSize &size,
                         const TuneOptions &options);

} // namespace f2s
