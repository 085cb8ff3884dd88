// Verifying and timing candidates on the machine at hand, and choosing.
#pragma once

#include "ast/Analysis.h"
#include "harness/ProblemSize.h"
#include "harness/Progress.h"
#include "harness/Variants.h"
#include "strategy/CpuEngine.h"
#include "strategy/Search.h"

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <map>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

class TuningLog;
struct ProcessResult;

struct TuneOptions {
  std::filesystem::path work_dir; ///< harness sources and binaries go here
  int jobs = 2;                   ///< compilations at once
  double timeout_s = 60;          ///< per candidate run
  int reps = 5;                   ///< timed runs per candidate (median reported)
  std::vector<std::string> cflags;
  /// Thread t of a candidate runs on CPU cpus[t] (CpuModel::placement on this
  /// machine, as the library will pin them); empty: threads are not pinned.
  std::vector<int> cpus;
  /// Seconds the measuring may take in all (compilation included); 0: no
  /// limit. A search stops at the first batch that starts after it.
  double budget_s = 0;
  /// The first this many candidates of the space are measured whatever the
  /// budget: the time-tile tuner's steps and each form's likeliest tile,
  /// without which its choice between them would be no choice.
  size_t always_measured = 0;
  std::function<void(const std::string &)> progress; ///< one line per step, may be empty
  /// The tuning cache's rows for this kernel (harness/TuningDb.h): what was
  /// measured before is taken from it, not measured again, and every new
  /// measurement is stored in it as it is made. Null: no cache.
  std::shared_ptr<TuningLog> log;
  /// The terminal's live line (harness/Progress.h): when set, the tuner
  /// hands it the kernel's progress line after every candidate, to redraw
  /// in place, instead of a `progress` line per candidate. Empty in a pipe,
  /// a log or with -q.
  std::function<void(const std::string &)> live;
  /// The machine's measured bandwidth, GB/s (harness/MachineBounds.h), that
  /// the live line compares the best so far with; 0: not measured.
  double bound_gbps = 0;
  /// One instance of the last-level cache and how many the machine has
  /// (hwloc, strategy/MachineModel): a candidate of t threads can fill
  /// min(t, instances) of them, which is what its harness evicts between
  /// timed runs (F2S_LLC_BYTES). 0: the harness asks sysconf.
  int64_t llc_bytes = 0;
  int llc_instances = 1;
};

enum class CandidateStatus { Verified, WrongResult, Crashed, TimedOut, BuildFailed };
const char *status_name(CandidateStatus s);

struct CandidateResult {
  size_t index = 0; ///< into SearchSpace::candidates
  Candidate candidate;
  std::string description; ///< SearchSpace::describe
  CandidateStatus status = CandidateStatus::BuildFailed;
  double max_rel_err = 0; ///< when it ran to the comparison
  double seconds = 0;     ///< median time of one call, when verified
  double gflops = 0, gbps = 0;
  std::string detail; ///< why it failed, in one line
  /// Measured again after the search, among the fastest, in interleaved
  /// rounds (TuningSession::confirm): `seconds` is that measurement's, free
  /// of the luck that put a candidate first among many noisy ones.
  bool confirmed = false;
};

struct KernelTuning {
  std::string kernel;
  ProblemSize size;
  SearchSpace space;
  std::vector<CandidateResult> results; ///< the candidates measured, in the order measured
  std::string search;                   ///< the search method's name
  bool budget_exhausted = false;        ///< the budget ran out before the search ended
  double seconds = 0;                   ///< wall time of the whole tuning
  /// How many of `results` were taken from the tuning cache; all of them:
  /// the choice is reused, nothing was measured.
  size_t reused = 0;
  /// With compare_searches: how the cheap search fared against the
  /// exhaustive one that continued from it.
  struct Comparison {
    std::string cheap;         ///< the cheap search's name
    size_t cheap_measured = 0; ///< candidates it measured
    double cheap_best_s = 0;   ///< its best time (0: none verified)
    double exhaustive_best_s = 0;
    bool exhaustive_complete = false; ///< false when the budget cut it short
    /// The cheap search's choice and the exhaustive best, measured again
    /// side by side in the same rounds after both searches (the CPU); the
    /// times above are these when set.
    std::string cheap_choice, exhaustive_choice;
    bool side_by_side = false;
  };
  std::optional<Comparison> comparison;
  /// The GPU engine's counts (strategy/GpuEngine's CudaEnumeration), kept
  /// apart from the CPU engine's in `space`: launch shapes considered, and
  /// why those not measured were left out.
  /// With --search=compare on the GPU: the model's picks against every
  /// legal candidate.
  std::optional<Comparison> cuda_comparison;
  size_t cuda_considered = 0;
  std::map<std::string, size_t> cuda_pruned;
  /// The fastest verified candidate (an index into results), of one target or
  /// of any; among the confirmed ones where the target has any.
  std::optional<size_t> best(const std::string &target = "") const;
};

/// The F2S-RESULT line a candidate's harness printed (codegen/HarnessPrinter,
/// codegen/CudaHarnessPrinter), as JSON holding at least "verified"; nothing
/// when the run timed out, crashed or printed no readable line, with
/// r.status and r.detail saying which and why.
std::optional<nlohmann::json> read_harness_result(const ProcessResult &p, CandidateResult &r);

/// Measures candidates of one kernel. A variant's harness is compiled the
/// first time one of its candidates is measured (all the variants a batch
/// needs are compiled in parallel); each candidate then runs in its own
/// process, one at a time so timings do not disturb each other. A candidate
/// that crashes, hangs or disagrees with the serial reference is recorded as
/// such and never chosen.
class TuningSession {
public:
  TuningSession(const Kernel &k, const SearchSpace &space, const std::vector<VariantCode> &variants,
                const ProblemSize &size, const TuneOptions &options);

  /// Measures those of `candidates` (indices into the space) not measured
  /// yet; returns how many it measured.
  size_t measure(const std::vector<size_t> &candidates);
  /// Seconds per measured candidate, +infinity for those that failed.
  const Measurements &measurements() const { return measured_; }
  bool budget_left() const;
  /// Measures again the `count` fastest verified candidates of each target
  /// (and `also`), in `rounds` interleaved rounds so that a drift of the
  /// machine hits them alike; each one's time becomes the median of its
  /// rounds and it is marked confirmed. Returns the indices measured.
  std::vector<size_t> confirm(size_t count, const std::vector<size_t> &also = {}, int rounds = 3);
  KernelTuning result() const;

private:
  void build(const std::vector<size_t> &variants);

  const Kernel &kernel_;
  KernelFacts facts_;
  const std::vector<VariantCode> &variants_;
  TuneOptions options_;
  KernelTuning tuning_;
  Measurements measured_;
  std::map<size_t, std::string> binary_, build_error_;
  std::chrono::steady_clock::time_point start_;
  std::optional<TuningProgress> progress_; ///< from after what the cache held
};

/// Runs `search` to the end or until the budget is spent.
KernelTuning tune_kernel(const Kernel &k, const SearchSpace &space,
                         const std::vector<VariantCode> &variants, const ProblemSize &size,
                         const TuneOptions &options, SearchMethod &search);

/// Runs the cheap search `cheap`, then continues exhaustively in the same
/// session (nothing is measured twice), and records how close the cheap
/// search came to the exhaustive best. The result holds every measurement.
KernelTuning compare_searches(const Kernel &k, const SearchSpace &space,
                              const std::vector<VariantCode> &variants, const ProblemSize &size,
                              const TuneOptions &options, SearchMethod &cheap);

/// Measures every candidate of the space (an exhaustive search).
KernelTuning tune_kernel(const Kernel &k, const SearchSpace &space,
                         const std::vector<VariantCode> &variants, const ProblemSize &size,
                         const TuneOptions &options);

} // namespace f2s
