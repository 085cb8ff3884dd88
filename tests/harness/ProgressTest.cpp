// harness/Progress: the live line's counts and its estimate of the time
// left, against runs whose schedule the test sets (a clock it advances).
#include "harness/Progress.h"
#include "harness/Tuner.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// A clock the test advances.
struct FakeClock {
  double t = 100;
  TuningProgress::Clock fn() {
    return [this] { return t; };
  }
};

CandidateResult verified(double seconds, double gbps) {
  CandidateResult r;
  r.status = CandidateStatus::Verified;
  r.seconds = seconds;
  r.gbps = gbps;
  return r;
}

TEST(Progress, CountsAndTheBestSoFar) {
  FakeClock clock;
  TuningProgress p("'lap' pthreads", 40, 0, clock.fn());
  EXPECT_EQ(p.line(), "'lap' pthreads: 0/40 measured, 0 verified, 0:00 elapsed, ETA --");
  p.built(3, 9);
  clock.t += 12;
  p.measured(verified(0.000412, 41.2));
  CandidateResult wrong;
  wrong.status = CandidateStatus::WrongResult;
  p.measured(wrong);
  p.measured(verified(0.0005, 30));
  EXPECT_EQ(p.line(), "'lap' pthreads: 3/40 measured (built 3/9), 2 verified, best 0.412 ms "
                      "41.2 GB/s, 0:12 elapsed, ETA <= 2:28");
  // Against the machine's measured bandwidth, once it is known.
  p.set_bound_gbps(82.4);
  EXPECT_EQ(p.line(), "'lap' pthreads: 3/40 measured (built 3/9), 2 verified, best 0.412 ms "
                      "41.2 GB/s (50% of 82.4), 0:12 elapsed, ETA <= 2:28");
}

// Every candidate of an exhaustive search costs 2 s: the estimate is exact
// after the first, and at every step the estimated end is the real one.
TEST(Progress, TheEstimateOfAKnownScheduleIsItsEnd) {
  FakeClock clock;
  const size_t n = 10;
  TuningProgress p("'k' cuda", n, 0, clock.fn());
  const double end = clock.t + 2.0 * n;
  for (size_t i = 0; i < n; ++i) {
    clock.t += 2;
    p.measured(verified(0.001, 1));
    EXPECT_DOUBLE_EQ(clock.t + p.eta_s(), end) << "after " << i + 1;
  }
  EXPECT_DOUBLE_EQ(p.eta_s(), 0);
}

// A budget ends the search first: the estimate never runs past it, and a
// search whose candidates get slower is never estimated to end early by
// more than the budget allows (the estimate is an upper bound on what the
// budget leaves).
TEST(Progress, TheBudgetBoundsTheEstimate) {
  FakeClock clock;
  TuningProgress p("'k' pthreads", 100, 30, clock.fn());
  clock.t += 6;
  for (int i = 0; i < 3; ++i)
    p.measured(verified(0.001, 1));
  // 97 left at 2 s each would be 194 s; the budget leaves 24.
  EXPECT_DOUBLE_EQ(p.eta_s(), 24);
  EXPECT_NE(p.line().find("ETA <= 0:24"), std::string::npos) << p.line();
  clock.t += 40;
  EXPECT_DOUBLE_EQ(p.eta_s(), 0);
}

TEST(Progress, ClockText) {
  EXPECT_EQ(clock_text(0), "0:00");
  EXPECT_EQ(clock_text(65.4), "1:05");
  EXPECT_EQ(clock_text(3725), "1:02:05");
  EXPECT_EQ(clock_text(-3), "0:00");
}

} // namespace
} // namespace f2s
