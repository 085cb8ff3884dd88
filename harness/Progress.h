// A live account of one kernel's tuning on one target, for the terminal:
// candidates built and measured, verified so far, the best so far, elapsed
// time and an estimate of what is left (issue 16).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace f2s {

struct CandidateResult;

class TuningProgress {
public:
  /// Seconds since some fixed instant; the steady clock unless a test gives
  /// its own.
  using Clock = std::function<double()>;

  /// `label`: the kernel and target ("'lap' pthreads"); `space`: the
  /// candidates the search may measure; `budget_s`: its measuring budget
  /// (0: none).
  TuningProgress(std::string label, size_t space, double budget_s, Clock now = {});

  /// The machine's measured bandwidth (harness/MachineBounds.h), against
  /// which the line shows the best so far; 0: unknown, GB/s alone.
  void set_bound_gbps(double gbps) { bound_gbps_ = gbps; }

  /// `done` of `total` harness variants compiled so far.
  void built(size_t done, size_t total);
  /// One candidate measured (or failed), with its cost in the elapsed time.
  void measured(const CandidateResult &r);

  /// Seconds still to go at most: every candidate not yet measured at the
  /// mean cost of those measured (building included), but no more than the
  /// budget leaves. Negative while nothing is measured (no estimate yet).
  double eta_s() const;

  /// "'lap' pthreads: 12/40 measured (built 3/9), 11 verified, best 0.412 ms
  /// 41.2 GB/s (47% of 88.0), 0:12 elapsed, ETA <= 0:31". The estimate is an upper bound:
  /// the model-guided search usually stops before the space is exhausted.
  std::string line() const;

private:
  double elapsed() const;

  std::string label_;
  size_t space_;
  double budget_s_;
  Clock now_;
  double start_;
  size_t built_ = 0, variants_ = 0, measured_ = 0, verified_ = 0;
  double best_s_ = 0, best_gbps_ = 0, bound_gbps_ = 0;
};

/// "1:05" (minutes:seconds), "1:02:05" past an hour.
std::string clock_text(double seconds);

} // namespace f2s
