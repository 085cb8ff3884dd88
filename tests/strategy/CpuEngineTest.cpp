#include "strategy/CpuEngine.h"

#include "strategy/MachineModel.h"
#include "strategy/PerformanceModel.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

#include <set>

namespace f2s {
namespace {

// 2 packages x 2 NUMA nodes x 8 cores x 2 hardware threads, 1 MiB L2 per
// core, 32 MiB L3 per package: a dual-socket server the tests can tune for
// on a 2-core machine.
const CpuModel &server() {
  static const CpuModel m = cpu_model_from_synthetic(
      "pack:2 numa:2 l3:1(size=16MiB) core:8 l2:1(size=1MiB) l1d:1(size=32KiB) pu:2");
  return m;
}

const CpuModel &small_cache_machine() {
  static const CpuModel m = cpu_model_from_synthetic(
      "pack:1 l3:1(size=2MiB) core:4 l2:1(size=256KiB) l1d:1(size=32KiB) pu:1");
  return m;
}

SearchSpace laplacian_space(const std::vector<int64_t> &extents, const CpuModel &machine,
                            std::vector<std::string> targets = {"c", "pthreads"}) {
  Kernel k = test::example_kernel("laplacian");
  return enumerate_cpu(k, analyze(k), extents, {targets, &machine});
}

// The 2D map factors, 1D metrics and component array of mapfactor3d: only
// w and the arrays indexed by every loop variable take planes in a block.
TEST(CpuEngine, ProfilesTakeNoPlaneInABlocksWorkingSet) {
  Kernel k = test::example_kernel("mapfactor3d");
  KernelFacts facts = analyze(k);
  EXPECT_EQ(facts.reused, (std::set<std::string>{"fnm", "msfx", "msfy", "rdzw"}));
  // Halo 1 on every axis: planes of (8+2)x(4+2) for the three grids read
  // (coef, w, tend) over 3 planes, and 8x4 written (tend).
  EXPECT_EQ(block_working_set(k, facts, {8, 4, 2}), 3 * 10 * 6 * 3 * 8 + 8 * 4 * 8);
}

TEST(CpuEngine, SerialTargetHasOneCandidate) {
  SearchSpace s = laplacian_space({256, 256, 256}, server(), {"c"});
  ASSERT_EQ(s.candidates.size(), 1u);
  EXPECT_EQ(s.describe(s.candidates[0]), "c/serial");
}

// A sweep with an ordered loop: threads split a free loop, and no block,
// chunk or register block reorders the ordered one.
TEST(CpuEngine, AnOrderedNestGetsThePlainParallelNestOnly) {
  for (const Kernel &k : test::example_kernels("tridiag_column")) {
    SCOPED_TRACE(k.name);
    ASSERT_TRUE(k.ordered);
    SearchSpace s = enumerate_cpu(k, analyze(k), {256, 256, 64}, {{"c", "pthreads"}, &server()});
    std::set<int> threads;
    for (const Candidate &c : s.candidates) {
      std::string family = s.describe(c).substr(0, s.describe(c).find(' '));
      EXPECT_TRUE(family == "c/serial" || family == "pthreads/parallel") << s.describe(c);
      threads.insert(c.threads);
    }
    EXPECT_EQ(threads, (std::set<int>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_EQ(s.pruned.at("block decompositions of a nest with an ordered loop"), 7u);
  }
}

// Planes at run-time positions (ast/Planes): a face copy gets the plain
// parallel nest, with every thread count, and no block decomposition.
TEST(CpuEngine, ANestWithPlanesAtRunTimePositionsGetsThePlainParallelNestOnly) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine comm3(u, n1, n2, n3)
  implicit none
  integer :: n1, n2, n3, i2, i3
  real(8) :: u(n1, n2, n3)
  !$f2s stencil
  do i3 = 2, n3 - 1
    do i2 = 2, n2 - 1
      u(1, i2, i3) = u(n1-1, i2, i3)
      u(n1, i2, i3) = u(2, i2, i3)
    end do
  end do
end subroutine
)");
  SearchSpace s = enumerate_cpu(k, analyze(k), {256, 256}, {{"c", "pthreads"}, &server()});
  std::set<int> threads;
  for (const Candidate &c : s.candidates) {
    std::string family = s.describe(c).substr(0, s.describe(c).find(' '));
    EXPECT_TRUE(family == "c/serial" || family == "pthreads/parallel") << s.describe(c);
    threads.insert(c.threads);
  }
  EXPECT_EQ(threads, (std::set<int>{1, 2, 4, 8, 16, 32, 64}));
  EXPECT_EQ(s.pruned.at("block decompositions of a nest with planes at run-time positions"), 7u);
}

TEST(CpuEngine, ThreadCountsFollowTheTopology) {
  SearchSpace s = laplacian_space({256, 256, 256}, server(), {"pthreads"});
  std::set<int> threads;
  for (const Candidate &c : s.candidates)
    threads.insert(c.threads);
  // Powers of two below the 32 cores, one NUMA node (8), all cores, all PUs.
  EXPECT_EQ(threads, (std::set<int>{1, 2, 4, 8, 16, 32, 64}));
}

TEST(CpuEngine, KeepsOnlyLegalSensibleBlocks) {
  SearchSpace s = laplacian_space({256, 256, 256}, server());
  Kernel k = test::example_kernel("laplacian");
  KernelFacts facts = analyze(k);
  std::set<std::string> seen;
  size_t blocked = 0;
  for (const Candidate &c : s.candidates) {
    EXPECT_TRUE(seen.insert(s.describe(c)).second) << "twice: " << s.describe(c);
    if (s.variants[c.variant].name.rfind("blocked", 0) != 0)
      continue;
    ++blocked;
    long cx = c.tune.at("cx"), cy = c.tune.at("cy"), cz = c.tune.at("cz");
    // Every thread gets at least one block of the outermost loop.
    EXPECT_GE((256 + cz - 1) / cz, c.threads) << s.describe(c);
    // Its working set fits the cache a thread has (1 MiB L2 here; the L3
    // share is 16 MiB / 8 cores = 2 MiB), unless it is the thread's whole
    // slab, where point-loop options alone make the variant.
    bool whole = cx == 256 && cy == 256 && cz >= (256 + c.threads - 1) / c.threads;
    if (!whole)
      EXPECT_LE(block_working_set(k, facts, {cx, cy, cz}), cache_per_thread(server()))
          << s.describe(c);
  }
  EXPECT_GT(blocked, 50u);
  EXPECT_EQ(
      s.candidates.size(), s.considered - [&] {
        size_t p = 0;
        for (const auto &[why, n] : s.pruned)
          p += n;
        return p;
      }());
  EXPECT_NE(s.summary().find(std::to_string(s.candidates.size()) + " candidates"),
            std::string::npos)
      << s.summary();
}

TEST(CpuEngine, ASmallerCachePrunesLargerBlocks) {
  SearchSpace big = laplacian_space({512, 512, 512}, server(), {"pthreads"});
  SearchSpace small = laplacian_space({512, 512, 512}, small_cache_machine(), {"pthreads"});
  EXPECT_GT(small.pruned["block working set exceeds the cache"], 0u);
  // The working set of a 512x32 block of the Laplacian: 3 planes of 514x34
  // doubles plus one plane of 512x32: about 550 KB, too much for 512 KiB
  // (2 MiB L3 / 4 cores, the larger share), not for the server's 2 MiB.
  for (const Candidate &c : small.candidates)
    if (c.tune.count("cx"))
      EXPECT_FALSE(c.tune.at("cx") == 512 && c.tune.at("cy") == 32) << small.describe(c);
  bool server_has_it = false;
  for (const Candidate &c : big.candidates)
    server_has_it |= c.tune.count("cx") && c.tune.at("cx") == 512 && c.tune.at("cy") == 32;
  EXPECT_TRUE(server_has_it);
}

TEST(CpuEngine, SmallProblemsGetNoBlocksLargerThanThemselves) {
  SearchSpace s = laplacian_space({20, 6, 3}, server());
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

TEST(PerformanceModel, PrefersBandwidthFromMoreThreadsAndBlocksThatFit) {
  Kernel k = test::example_kernel("laplacian");
  KernelFacts facts = analyze(k);
  SearchSpace s = laplacian_space({512, 512, 512}, small_cache_machine(), {"pthreads"});
  auto find = [&](int threads, std::map<std::string, long> tune,
                  const std::string &variant) -> const Candidate & {
    for (const Candidate &c : s.candidates)
      if (c.threads == threads && c.tune == tune && s.variants[c.variant].name == variant)
        return c;
    throw std::runtime_error("no such candidate");
  };
  auto predict = [&](const Candidate &c) {
    return predict_seconds(k, facts, small_cache_machine(), {512, 512, 512}, s, c);
  };
  const std::string plain = "parallel";
  const std::string blocked = "blocked_bypass0_indexing0_rx1_ry1_rz1";
  const std::string bypass = "blocked_bypass1_indexing0_rx1_ry1_rz1";
  // One thread cannot draw the bandwidth of two, nor two that of four.
  EXPECT_GT(predict(find(1, {}, plain)), predict(find(2, {}, plain)));
  EXPECT_GT(predict(find(2, {}, plain)), predict(find(4, {}, plain)));
  // Whole 512x512 planes do not fit 512 KiB: halo planes are read again.
  std::map<std::string, long> fitting = {{"cx", 512}, {"cy", 8}, {"cz", 16}, {"pf", 0}};
  EXPECT_GT(predict(find(4, {}, plain)), predict(find(4, fitting, blocked)));
  // Streaming stores save the write-allocate third of the Laplacian's traffic.
  EXPECT_NEAR(predict(find(4, fitting, bypass)) / predict(find(4, fitting, blocked)), 16.0 / 24.0,
              1e-9);
  // Software prefetch is measured after the same candidate without it.
  std::map<std::string, long> prefetching = fitting;
  prefetching["pf"] = 128;
  EXPECT_GT(predict(find(4, prefetching, blocked)), predict(find(4, fitting, blocked)));
}

} // namespace
} // namespace f2s
