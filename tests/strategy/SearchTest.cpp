#include "strategy/Search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace f2s {
namespace {

// A space of one variant with run-time parameters x, y = 1..9 at 1 and 2
// threads; measured time is |x - 6| + |y - 3| + 1 (+0.5 with one thread), so
// the best is x = 6, y = 3 with 2 threads.
struct Toy {
  SearchSpace space;
  Toy() {
    space.variants.push_back({"pthreads", "blocked", {Pass::BlockLoops}, {}});
    for (int t : {1, 2})
      for (long x = 1; x <= 9; ++x)
        for (long y = 1; y <= 9; ++y)
          space.candidates.push_back({0, t, {{"cx", x}, {"cy", y}}});
  }
  double time(size_t i) const {
    const Candidate &c = space.candidates[i];
    return std::abs(c.tune.at("cx") - 6) + std::abs(c.tune.at("cy") - 3) + 1 +
           (c.threads == 1 ? 0.5 : 0);
  }
  /// Runs a search to the end; returns the measurements.
  Measurements run(SearchMethod &s) const {
    Measurements m;
    for (int round = 0; round < 100; ++round) {
      std::vector<size_t> batch = s.next(space, m);
      if (batch.empty())
        return m;
      for (size_t i : batch) {
        EXPECT_FALSE(m.count(i)) << "measured twice: " << i;
        m[i] = time(i);
      }
    }
    ADD_FAILURE() << "the search does not end";
    return m;
  }
};

TEST(Search, ExhaustiveMeasuresEverythingOnce) {
  Toy toy;
  auto s = exhaustive_search();
  EXPECT_EQ(toy.run(*s).size(), toy.space.candidates.size());
}

TEST(Search, ModelGuidedClimbsFromAWrongPredictionToTheBest) {
  Toy toy;
  // The model believes large x and y are best: it starts far from the optimum.
  std::vector<double> predicted;
  for (const Candidate &c : toy.space.candidates)
    predicted.push_back(-static_cast<double>(c.tune.at("cx") + c.tune.at("cy")));
  auto s = model_guided_search(predicted, 2);
  Measurements m = toy.run(*s);
  double best = std::numeric_limits<double>::infinity();
  for (const auto &[i, t] : m)
    best = std::min(best, t);
  EXPECT_EQ(best, 1.0);
  EXPECT_LT(m.size(), toy.space.candidates.size() / 2);
}

// Two block sizes that pay only together: from the model's favourite (1, 1)
// every move of one parameter is slower, and only the move of both to
// (3, 3) is faster. The round over pairs finds it.
TEST(Search, ModelGuidedTriesPairsWhenNoSingleMovePays) {
  SearchSpace space;
  space.variants.push_back({"pthreads", "blocked", {Pass::BlockLoops}, {}});
  for (long x = 1; x <= 4; ++x)
    for (long y = 1; y <= 4; ++y)
      space.candidates.push_back({0, 16, {{"cx", x}, {"cy", y}}});
  auto time = [&](size_t i) {
    long x = space.candidates[i].tune.at("cx"), y = space.candidates[i].tune.at("cy");
    return x == 3 && y == 3 ? 1.0 : x == 1 && y == 1 ? 5.0 : 6.0;
  };
  std::vector<double> predicted;
  for (const Candidate &c : space.candidates)
    predicted.push_back(double(c.tune.at("cx") + c.tune.at("cy")));
  auto s = model_guided_search(predicted, 4);
  Measurements m;
  for (int round = 0; round < 20; ++round) {
    std::vector<size_t> batch = s->next(space, m);
    if (batch.empty())
      break;
    for (size_t i : batch)
      m[i] = time(i);
  }
  double best = std::numeric_limits<double>::infinity();
  for (const auto &[i, t] : m)
    best = std::min(best, t);
  EXPECT_EQ(best, 1.0);
}

TEST(Search, CoordinatesNameEveryParameter) {
  Toy toy;
  auto coords = candidate_coordinates(toy.space, toy.space.candidates[3 * 9 + 4]);
  EXPECT_EQ(coords.at("threads"), 1);
  EXPECT_EQ(coords.at("tune:cx"), 4);
  EXPECT_EQ(coords.at("tune:cy"), 5);
  EXPECT_EQ(coords.at("target:pthreads"), 1);
}

} // namespace
} // namespace f2s
