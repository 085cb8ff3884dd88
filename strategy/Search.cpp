#include "strategy/Search.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <set>

namespace f2s {

namespace {

class Exhaustive : public SearchMethod {
public:
  std::string name() const override { return "exhaustive"; }
  std::vector<size_t> next(const SearchSpace &space, const Measurements &measured) override {
    std::vector<size_t> batch;
    for (size_t i = 0; i < space.candidates.size(); ++i)
      if (!measured.count(i))
        batch.push_back(i);
    return batch;
  }
};

/// Number of coordinates in which a and b differ; a coordinate one of them
/// lacks counts as 0 there (no chunks, no prefetch distance, ...).
int distance(const std::map<std::string, long> &a, const std::map<std::string, long> &b) {
  auto value = [](const std::map<std::string, long> &m, const std::string &k) {
    auto it = m.find(k);
    return it == m.end() ? 0L : it->second;
  };
  std::set<std::string> keys;
  for (const auto &[k, v] : a)
    keys.insert(k);
  for (const auto &[k, v] : b)
    keys.insert(k);
  int d = 0;
  for (const std::string &k : keys)
    d += value(a, k) != value(b, k);
  return d;
}

class ModelGuided : public SearchMethod {
public:
  ModelGuided(std::vector<double> predicted, size_t first)
      : predicted_(std::move(predicted)), first_(std::max<size_t>(first, 1)) {}

  std::string name() const override { return "model-guided"; }

  std::vector<size_t> next(const SearchSpace &space, const Measurements &measured) override {
    if (!started_) {
      started_ = true;
      return initial(space);
    }
    // Climb from the best so far: its neighbours that differ in one
    // parameter. When a round brings no improvement, one wider round tries
    // those that differ in two (the best block is often a pair of sizes each
    // of which alone is worse: measured on a 16-core host, cy = 32 and cz = 4
    // together ran 2.4 ms where either alone with the other's old value ran
    // 5-7 ms), the most promising by the model first; the search ends when
    // that round brings nothing either.
    std::optional<size_t> best;
    for (const auto &[i, s] : measured)
      if (std::isfinite(s) && (!best || s < measured.at(*best)))
        best = i;
    if (!best)
      return {};
    int reach = 1;
    if (last_best_ && *last_best_ == *best) {
      if (widened_)
        return {};
      widened_ = true;
      reach = 2;
    } else {
      widened_ = false;
    }
    last_best_ = best;
    auto centre = candidate_coordinates(space, space.candidates[*best]);
    auto around = [&](int d) {
      std::vector<size_t> at;
      for (size_t i = 0; i < space.candidates.size(); ++i)
        if (!measured.count(i) &&
            distance(centre, candidate_coordinates(space, space.candidates[i])) == d)
          at.push_back(i);
      return at;
    };
    std::vector<size_t> batch = around(reach);
    // Every neighbour measured already (by the first round, say): widen now.
    if (batch.empty() && reach == 1) {
      widened_ = true;
      reach = 2;
      batch = around(2);
    }
    if (reach == 2) {
      std::stable_sort(batch.begin(), batch.end(),
                       [&](size_t a, size_t b) { return predicted_[a] < predicted_[b]; });
      if (batch.size() > 2 * first_)
        batch.resize(2 * first_);
    }
    // A best candidate with no unmeasured neighbours ends the search too.
    return batch;
  }

private:
  std::vector<size_t> initial(const SearchSpace &space) {
    std::vector<size_t> order(space.candidates.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return predicted_[a] < predicted_[b]; });
    // The model is coarse: every value of every parameter (each thread
    // count, each register block, bypass on and off, ...) is seen at least
    // once, at the most promising setting of the others.
    std::vector<size_t> batch;
    std::set<size_t> chosen;
    std::set<std::pair<std::string, long>> covered;
    for (size_t i : order) {
      bool news = false;
      for (const auto &[k, v] : candidate_coordinates(space, space.candidates[i]))
        news |= covered.insert({k, v}).second;
      if (news && chosen.insert(i).second)
        batch.push_back(i);
    }
    for (size_t i : order) {
      if (batch.size() >= first_)
        break;
      if (chosen.insert(i).second)
        batch.push_back(i);
    }
    return batch;
  }

  std::vector<double> predicted_;
  size_t first_;
  bool started_ = false;
  std::optional<size_t> last_best_;
  bool widened_ = false; ///< the round from last_best_ reached two parameters
};

} // namespace

std::map<std::string, long> candidate_coordinates(const SearchSpace &space, const Candidate &c) {
  const Variant &v = space.variants.at(c.variant);
  std::map<std::string, long> coords = {{"threads", c.threads}};
  for (const auto &[k, value] : v.options)
    coords["option:" + k] = value;
  for (const auto &[k, value] : c.tune)
    coords["tune:" + k] = value;
  // The options decide the passes, except for the plain nest, which has
  // none: its pass list tells it apart.
  if (v.options.empty())
    coords["plain:" + v.target + "/" + v.name] = 1;
  coords["target:" + v.target] = 1;
  return coords;
}

std::unique_ptr<SearchMethod> exhaustive_search() {
  return std::make_unique<Exhaustive>();
}

std::unique_ptr<SearchMethod> model_guided_search(std::vector<double> predicted_seconds,
                                                  size_t first) {
  return std::make_unique<ModelGuided>(std::move(predicted_seconds), first);
}

} // namespace f2s
