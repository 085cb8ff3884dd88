// Search methods: which candidates of a search space to measure next, given
// the times measured so far. They know candidates and numbers only; the
// harness does the measuring.
#pragma once

#include "strategy/CpuEngine.h"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace f2s {

/// Seconds per candidate index; +infinity for one that failed.
using Measurements = std::map<size_t, double>;

class SearchMethod {
public:
  virtual ~SearchMethod() = default;
  virtual std::string name() const = 0;
  /// The next candidates to measure (indices into space.candidates, none of
  /// them measured yet); empty when the search has nothing more to try.
  virtual std::vector<size_t> next(const SearchSpace &space, const Measurements &measured) = 0;
};

/// Every candidate, in the order of the space.
std::unique_ptr<SearchMethod> exhaustive_search();

/// Measures the `first` candidates the model predicts fastest, and for every
/// value of every parameter the most promising candidate with it, then climbs: the neighbours
/// of the best candidate so far (those that differ from it in exactly one
/// parameter: the thread count, a compile-time option or a run-time value)
/// are measured until a round finds nothing faster; then one round of the
/// most promising (by the model, at most 2 * `first`) that differ from it in
/// two parameters, and the climb goes on from any better one found there.
std::unique_ptr<SearchMethod> model_guided_search(std::vector<double> predicted_seconds,
                                                  size_t first);

/// The parameters of a candidate by name ("threads", each option, each
/// tuning value), for comparing candidates.
std::map<std::string, long> candidate_coordinates(const SearchSpace &space, const Candidate &c);

} // namespace f2s
