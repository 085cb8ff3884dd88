// The seed's decomposition (core blocks, chunks of them dealt to thread
// groups, thread blocks dealt to a group's members) computes the same values
// as the serial reference for every run-time size, including blocks larger
// and smaller than the grid, odd thread blocks and thread counts that do not
// fill the last group; the harness first touches the grids with each
// variant's own decomposition and pins threads as the library will.
#include "harness/Tuner.h"

#include "strategy/MachineModel.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using test::kJacobi2D;

/// Variants composing the decomposition passes, and candidates drawn from a
/// fixed pseudo-random sequence over threads 1..4, group 1..2, chunk 1..3 and
/// block sizes from 1 to past the grid (odd thread blocks among them).
SearchSpace decomposition_space(const Kernel &k) {
  SearchSpace s;
  s.variants = {
      {"pthreads", "core_chunks_threads", {Pass::BlockLoops, Pass::Chunking, Pass::ThreadBlocking}},
      {"pthreads", "core_chunks", {Pass::BlockLoops, Pass::Chunking}},
      {"pthreads", "plane_chunks_threads", {Pass::Chunking, Pass::ThreadBlocking}},
  };
  const long core[] = {1, 2, 3, 5, 8, 64};
  const long thread[] = {1, 3, 5, 2, 7, 64};
  uint64_t x = 0x9E3779B97F4A7C15ull;
  auto next = [&](size_t n) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return static_cast<size_t>(x % n);
  };
  (void)k;
  for (size_t v = 0; v < s.variants.size(); ++v)
    for (int i = 0; i < 16; ++i) {
      Candidate c;
      c.variant = v;
      c.threads = 1 + i % 4;
      c.tune = {{"group", 1 + static_cast<long>(next(2))},
                {"chunk", 1 + static_cast<long>(next(3))},
                {"cx", core[next(6)]},
                {"cy", core[next(6)]},
                {"cz", core[next(6)]},
                {"tx", thread[next(6)]},
                {"ty", thread[next(6)]},
                {"tz", thread[next(6)]}};
      s.candidates.push_back(c);
    }
  return s;
}

/// `dir`: the work directory, shared by the sizes of one kernel so that each
/// variant's harness (which takes the size at run time) is compiled once.
void expect_all_verified(const test::ScratchDir &dir, const Kernel &k,
                         const std::vector<int64_t> &extents) {
  SCOPED_TRACE(k.name + " at " + std::to_string(extents[0]) + "x" + std::to_string(extents[1]));
  SearchSpace space = decomposition_space(k);
  std::vector<VariantCode> code = generate_variants(k, space);
  ProblemSize size = problem_size_for(k, extents);
  TuneOptions o;
  o.work_dir = dir.path();
  o.reps = 1;
  o.timeout_s = 60;
  CpuModel host = cpu_model_from_host();
  o.cpus = host.placement(host.pus);
  KernelTuning t = tune_kernel(k, space, code, size, o);
  ASSERT_EQ(t.results.size(), space.candidates.size());
  for (const CandidateResult &r : t.results)
    EXPECT_EQ(r.status, CandidateStatus::Verified) << r.description << ": " << r.detail;
}

class Decomposition : public ::testing::TestWithParam<const char *> {};

TEST_P(Decomposition, EveryCombinationOfRunTimeSizesIsVerified) {
  test::ScratchDir dir;
  Kernel k = test::example_kernel(GetParam());
  for (std::vector<int64_t> extents : {std::vector<int64_t>{1, 1, 1}, {13, 7, 5}, {37, 11, 9}})
    expect_all_verified(dir, k, extents);
}

INSTANTIATE_TEST_SUITE_P(Operators, Decomposition,
                         ::testing::Values("laplacian", "divergence", "gradient"));

TEST(Decomposition2D, EveryCombinationOfRunTimeSizesIsVerified) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, kJacobi2D);
  for (std::vector<int64_t> extents : {std::vector<int64_t>{1, 1}, {13, 7}, {37, 11}})
    expect_all_verified(dir, k, extents);
}

} // namespace
} // namespace f2s
