#include "harness/Progress.h"

#include "harness/Tuner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

namespace f2s {

namespace {

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

} // namespace

std::string clock_text(double seconds) {
  long s = std::lround(std::max(0.0, seconds));
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

TuningProgress::TuningProgress(std::string label, size_t space, double budget_s, Clock now)
    : label_(std::move(label)), space_(space), budget_s_(budget_s),
      now_(now ? std::move(now) : Clock(steady_seconds)), start_(now_()) {}

double TuningProgress::elapsed() const {
  return now_() - start_;
}

void TuningProgress::built(size_t done, size_t total) {
  built_ = done;
  variants_ = total;
}

void TuningProgress::measured(const CandidateResult &r) {
  ++measured_;
  if (r.status != CandidateStatus::Verified)
    return;
  ++verified_;
  if (best_s_ == 0 || r.seconds < best_s_) {
    best_s_ = r.seconds;
    best_gbps_ = r.gbps;
  }
}

double TuningProgress::eta_s() const {
  if (measured_ == 0)
    return -1;
  double t = elapsed();
  double left = static_cast<double>(space_ > measured_ ? space_ - measured_ : 0) * t /
                static_cast<double>(measured_);
  if (budget_s_ > 0)
    left = std::min(left, std::max(0.0, budget_s_ - t));
  return left;
}

std::string TuningProgress::line() const {
  char buf[160];
  std::string s =
      label_ + ": " + std::to_string(measured_) + "/" + std::to_string(space_) + " measured";
  if (variants_ > 0)
    s += " (built " + std::to_string(built_) + "/" + std::to_string(variants_) + ")";
  s += ", " + std::to_string(verified_) + " verified";
  if (verified_ > 0) {
    std::snprintf(buf, sizeof buf, ", best %.3f ms %.1f GB/s", best_s_ * 1e3, best_gbps_);
    s += buf;
    if (bound_gbps_ > 0) {
      std::snprintf(buf, sizeof buf, " (%.0f%% of %.1f)", 100 * best_gbps_ / bound_gbps_,
                    bound_gbps_);
      s += buf;
    }
  }
  s += ", " + clock_text(elapsed()) + " elapsed";
  double eta = eta_s();
  s += eta < 0 ? ", ETA --" : ", ETA <= " + clock_text(eta);
  return s;
}

} // namespace f2s
