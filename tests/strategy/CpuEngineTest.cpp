#include "strategy/CpuEngine.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

#include <set>

namespace f2s {
namespace {

SearchSpace laplacian_space(std::vector<int64_t> extents, int threads,
                            std::vector<std::string> targets = {"c", "pthreads"}) {
  Kernel k = test::example_kernel("laplacian");
  return enumerate_cpu(k, analyze(k), extents, {targets, threads});
}

TEST(CpuEngine, SerialTargetHasOneCandidate) {
  SearchSpace s = laplacian_space({256, 256, 256}, 16, {"c"});
  ASSERT_EQ(s.candidates.size(), 1u);
  EXPECT_EQ(s.describe(s.candidates[0]), "c/serial");
}

TEST(CpuEngine, EnumeratesThreadsTimesBlocksWithoutSlivers) {
  SearchSpace s = laplacian_space({256, 256, 256}, 16);
  std::set<std::string> seen;
  std::set<int> threads;
  size_t blocked = 0;
  for (const Candidate &c : s.candidates) {
    EXPECT_TRUE(seen.insert(s.describe(c)).second) << "twice: " << s.describe(c);
    threads.insert(c.threads);
    if (s.variants[c.variant].name != "blocked")
      continue;
    ++blocked;
    ASSERT_EQ(c.tune.size(), 3u);
    // Every thread gets at least one block of the outermost loop.
    EXPECT_GE((256 + c.tune.at("cz") - 1) / c.tune.at("cz"), c.threads) << s.describe(c);
    for (const auto &[name, b] : c.tune)
      EXPECT_GE(b, 1) << name;
    EXPECT_LE(c.tune.at("cx"), 256);
  }
  EXPECT_EQ(threads, (std::set<int>{1, 2, 4, 8, 16}));
  EXPECT_GT(blocked, 20u);
  // The serial candidate and one plain parallel candidate per thread count.
  EXPECT_EQ(s.candidates.size() - blocked, 1u + 5u);
}

TEST(CpuEngine, SmallProblemsGetNoBlocksLargerThanThemselves) {
  SearchSpace s = laplacian_space({20, 6, 3}, 2);
  for (const Candidate &c : s.candidates) {
    if (c.tune.empty())
      continue;
    EXPECT_LE(c.tune.at("cx"), 20);
    EXPECT_LE(c.tune.at("cy"), 6);
    EXPECT_LE(c.tune.at("cz"), 3);
  }
}

TEST(CpuEngine, DefaultCandidatesNeedNoTuning) {
  SearchSpace s;
  Candidate c = default_candidate(s, "pthreads");
  EXPECT_EQ(s.describe(c), "pthreads/parallel t=all");
  EXPECT_TRUE(c.tune.empty());
  Candidate serial = default_candidate(s, "c");
  EXPECT_EQ(s.describe(serial), "c/serial");
  EXPECT_EQ(s.variants.size(), 2u);
}

} // namespace
} // namespace f2s
