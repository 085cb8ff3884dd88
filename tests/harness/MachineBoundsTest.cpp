// harness/MachineBounds: the probe's line, and the host's bounds measured
// once per machine and compiler, then taken from the tuning cache.
#include "harness/MachineBounds.h"

#include "harness/TuningDb.h"
#include "strategy/MachineModel.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(MachineBounds, ReadsTheProbesLine) {
  auto b = bounds_from_probe("noise\nF2S-BOUNDS gbps=88.3;gflops=2150;method=STREAM triad, 16 "
                             "threads\nmore\n");
  ASSERT_TRUE(b);
  EXPECT_DOUBLE_EQ(b->gbps, 88.3);
  EXPECT_DOUBLE_EQ(b->gflops, 2150);
  EXPECT_EQ(b->method, "STREAM triad, 16 threads");
  EXPECT_EQ(describe(*b), "88.3 GB/s, 2150 GFlop/s");
  EXPECT_FALSE(bounds_from_probe("F2S-BOUNDS-ERROR cannot allocate 3 arrays of 9 doubles\n"));
  EXPECT_FALSE(bounds_from_probe("F2S-BOUNDS gbps=0;gflops=10;method=x\n"));
  EXPECT_FALSE(bounds_from_probe(""));
}

// Measured on this host the first time, then reused; --retune measures again.
TEST(MachineBounds, TheHostIsMeasuredOnceAndThenTakenFromTheCache) {
  test::ScratchDir dir;
  std::vector<std::string> warnings;
  auto db = TuningDb::open(dir.path() / "tuning.db",
                           [&](const std::string &w) { warnings.push_back(w); });
  ASSERT_TRUE(db) << (warnings.empty() ? "" : warnings.front());
  CpuModel host = cpu_model_from_host();
  std::string why;
  auto first = cpu_bounds(host, dir.path() / "probe", db.get(), false, &why);
  ASSERT_TRUE(first) << why;
  EXPECT_FALSE(first->reused);
  EXPECT_GT(first->gbps, 0.1);
  EXPECT_GT(first->gflops, first->gbps / 8) << "a core does more than a flop per 8 bytes";
  EXPECT_NE(first->method.find("STREAM triad"), std::string::npos) << first->method;

  auto again = cpu_bounds(host, dir.path() / "probe2", db.get(), false, &why);
  ASSERT_TRUE(again);
  EXPECT_TRUE(again->reused);
  EXPECT_DOUBLE_EQ(again->gbps, first->gbps);
  EXPECT_DOUBLE_EQ(again->gflops, first->gflops);
  EXPECT_FALSE(std::filesystem::exists(dir.path() / "probe2")) << "nothing built to reuse";

  auto retuned = cpu_bounds(host, dir.path() / "probe3", db.get(), true, &why);
  ASSERT_TRUE(retuned) << why;
  EXPECT_FALSE(retuned->reused);
}

} // namespace
} // namespace f2s
