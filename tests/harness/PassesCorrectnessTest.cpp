// The per-point passes (register blocking, common subexpressions, array
// indexing, cache bypass, prefetch) give the original kernel's results,
// bitwise, at every size: each pass alone and all of them on top of core
// blocking and parallelisation, at sizes smaller and larger than the
// register and core blocks, verified by the generated harness against the
// serial original.
#include "harness/Tuner.h"

#include "common/TestUtil.h"
#include "transforms/RestrictToBox.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

namespace f2s {
namespace {

struct Recipe {
  const char *name;
  std::vector<Pass> passes;
  std::map<std::string, int> options;
};

std::vector<Recipe> recipes() {
  using P = Pass;
  return {
      {"rb322", {P::RegisterBlock}, {{"rx", 3}, {"ry", 2}, {"rz", 2}}},
      {"rb8parallel", {P::ParallelizeOuter, P::RegisterBlock}, {{"rx", 8}, {"ry", 2}, {"rz", 2}}},
      {"rbcse", {P::RegisterBlock, P::CommonSubexpressions}, {{"rx", 4}, {"ry", 2}, {"cse", 1}}},
      {"indexing", {P::ArrayIndexing}, {{"indexing", 1}}},
      {"bypass", {P::CacheBypass}, {{"bypass", 1}}},
      {"prefetch", {P::Prefetch}, {{"prefetch", 1}}},
      {"all",
       {P::BlockLoops, P::ParallelizeOuter, P::RegisterBlock, P::CommonSubexpressions,
        P::ArrayIndexing, P::CacheBypass, P::Prefetch},
       {{"rx", 3},
        {"ry", 2},
        {"rz", 2},
        {"cse", 1},
        {"indexing", 1},
        {"bypass", 1},
        {"prefetch", 1}}},
      // Under the seed's decomposition, the point loops are below the
      // members loops of thread blocks.
      {"allthreadblocks",
       {P::BlockLoops, P::Chunking, P::ThreadBlocking, P::RegisterBlock, P::CommonSubexpressions,
        P::ArrayIndexing, P::CacheBypass, P::Prefetch},
       {{"rx", 2},
        {"ry", 2},
        {"rz", 2},
        {"cse", 1},
        {"indexing", 1},
        {"bypass", 1},
        {"prefetch", 1}}},
  };
}

bool parallel(const Recipe &r) {
  for (Pass p : r.passes)
    if (p == Pass::ParallelizeOuter || p == Pass::Chunking)
      return true;
  return false;
}

SearchSpace passes_space() {
  SearchSpace space;
  for (const Recipe &r : recipes()) {
    space.variants.push_back({parallel(r) ? "pthreads" : "c", r.name, r.passes, r.options});
    size_t v = space.variants.size() - 1;
    // Odd block sizes (remainders everywhere), no prefetch and a long one.
    const std::vector<std::map<std::string, long>> tunes = {{{"cx", 5},
                                                             {"cy", 3},
                                                             {"cz", 3},
                                                             {"pf", 16},
                                                             {"chunk", 1},
                                                             {"group", 2},
                                                             {"tx", 3},
                                                             {"ty", 2},
                                                             {"tz", 1}},
                                                            {{"cx", 7},
                                                             {"cy", 1},
                                                             {"cz", 2},
                                                             {"pf", 0},
                                                             {"chunk", 2},
                                                             {"group", 1},
                                                             {"tx", 7},
                                                             {"ty", 1},
                                                             {"tz", 2}},
                                                            {{"cx", 64},
                                                             {"cy", 64},
                                                             {"cz", 64},
                                                             {"pf", 1},
                                                             {"chunk", 1},
                                                             {"group", 1},
                                                             {"tx", 64},
                                                             {"ty", 64},
                                                             {"tz", 64}}};
    for (const auto &tune : tunes)
      for (int threads : parallel(r) ? std::vector<int>{2, 3} : std::vector<int>{1})
        space.candidates.push_back({v, threads, tune});
  }
  return space;
}

/// A directory of this process's own: several build trees may run this test
/// at once, and test::ScratchDir's name is the same for all of them.
struct OwnDir {
  std::filesystem::path path;
  OwnDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "f2s_passes_XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~OwnDir() { std::filesystem::remove_all(path); }
};

/// `exact`: bitwise equal results. A kernel that sums over the nest adds the
/// terms in another order under blocking, jamming and threads (equal to
/// rounding; the harness checks the sum against its own bound).
/// With `unboxed`, `k` is restrict_to_box(*unboxed), and each size runs once
/// per box of `boxes` (its bounds, lo then hi per axis, x first).
void expect_all_verified(const Kernel &k, const std::vector<std::vector<int64_t>> &sizes,
                         bool exact = true, const Kernel *unboxed = nullptr,
                         const std::vector<std::vector<std::string>> &boxes = {{}}) {
  OwnDir dir;
  SearchSpace space = passes_space();
  std::vector<VariantCode> code = generate_variants(k, space);
  for (const std::vector<int64_t> &extents : sizes)
    for (const std::vector<std::string> &box : boxes) {
      TuneOptions o;
      o.work_dir = dir.path;
      o.reps = 1;
      o.timeout_s = 60;
      // GCC's induction-variable optimisation takes most of the build of a
      // large register block (rx=8 ry=2 rz=2 of interp3d: 22 of 24 s);
      // the results are the same without it, and -O3's other passes stay.
      o.cflags = {"-fno-ivopts"};
      ProblemSize size = problem_size_for(unboxed ? *unboxed : k, extents);
      size.scalar_values.insert(size.scalar_values.end(), box.begin(), box.end());
      KernelTuning t = tune_kernel(k, space, code, size, o);
      ASSERT_EQ(t.results.size(), space.candidates.size());
      std::string where;
      for (const std::string &b : box)
        where += " " + b;
      for (const CandidateResult &r : t.results) {
        EXPECT_EQ(r.status, CandidateStatus::Verified)
            << k.name << " at " << extents[0] << "x" << extents[1] << where << ": " << r.description
            << ": " << r.detail;
        // Nothing is reassociated: the results are the original's, bitwise.
        if (exact)
          EXPECT_EQ(r.max_rel_err, 0) << k.name << ": " << r.description;
        else
          EXPECT_LT(r.max_rel_err, 1e-12) << k.name << ": " << r.description;
      }
    }
}

// Every variant is compiled once (the harness takes the size at run time,
// and the sizes share a work directory) and run at each size: 13x7x5 leaves
// remainders after every register factor and core block (odd, and
// 13 = 8 + 5); 1x1x1 leaves only remainders.
const std::vector<std::vector<int64_t>> kSizes3D = {{13, 7, 5}, {1, 1, 1}};

TEST(PassesCorrectness, Laplacian) {
  expect_all_verified(test::example_kernel("laplacian"), kSizes3D);
}

// The kernel on a box of its points (transforms/RestrictToBox), as K_mpi
// runs its interior with the tuned variant (docs/mpi.md): every recipe on a
// box clear of every edge, a box one cell thick in y, and one cell thick in
// z, against the serial nest on the same box.
TEST(PassesCorrectness, LaplacianOnABox) {
  Kernel k = test::example_kernel("laplacian");
  expect_all_verified(restrict_to_box(k), {{13, 7, 5}}, true, &k,
                      {{"3", "11", "2", "6", "2", "4"},
                       {"1", "13", "4", "4", "1", "5"},
                       {"2", "12", "2", "6", "3", "3"}});
}

TEST(PassesCorrectness, Divergence) {
  expect_all_verified(test::example_kernel("divergence"), kSizes3D);
}

TEST(PassesCorrectness, Gradient) {
  expect_all_verified(test::example_kernel("gradient"), kSizes3D);
}

TEST(PassesCorrectness, SinglePrecision2DWithTemporariesAndIntrinsics) {
  std::vector<Kernel> ks =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/mixed2d.f90");
  ASSERT_EQ(ks.size(), 1u);
  expect_all_verified(ks[0], {{13, 7}, {1, 1}, {37, 11}});
}

// The wider kernel class: an in-place red-black colour test, branches with
// MERGE and SIGN/LOG/MOD, and a 1D nest.
TEST(PassesCorrectness, RedBlackGaussSeidel) {
  expect_all_verified(test::example_kernel("gsrb3d"), kSizes3D);
}

// Multigrid transfers: reads at 2*i + o (no row pointer or prefetch row
// for a scaled x), several stores of one grid at 2*i and 2*i + 1 (no
// streaming), and stride-2 loops normalised to unit-step counters.
TEST(PassesCorrectness, MultigridRestriction) {
  expect_all_verified(test::example_kernel("restrict3d"), kSizes3D);
}

TEST(PassesCorrectness, MultigridInterpolation) {
  expect_all_verified(test::example_kernel("interp3d"), kSizes3D);
}

TEST(PassesCorrectness, StridedLoops) {
  expect_all_verified(test::example_kernel("refine2d"), {{13, 7}, {1, 1}, {37, 11}});
}

TEST(PassesCorrectness, Branches2D) {
  std::vector<Kernel> ks =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/branches2d.f90");
  ASSERT_EQ(ks.size(), 1u);
  expect_all_verified(ks[0], {{13, 7}, {1, 1}, {37, 11}});
}

// Bounds of outer loop variables (a triangle, a band cut by MIN, a 3D
// wedge), run over their bounding box under a guard: every decomposition
// and point pass keeps exactly the source's points.
TEST(PassesCorrectness, TriangleBandAndWedge) {
  for (const Kernel &k : lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/tri2d.f90")) {
    SCOPED_TRACE(k.name);
    expect_all_verified(k, {{13, 7}, {1, 1}, {11, 37}});
  }
  std::vector<Kernel> ks =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/wedge3d.f90");
  ASSERT_EQ(ks.size(), 1u);
  expect_all_verified(ks[0], kSizes3D);
}

TEST(PassesCorrectness, Jacobi1D) {
  expect_all_verified(test::example_kernel("jacobi1d"), {{13}, {1}, {1001}});
}

// Reductions over the nest: the register-blocked copies of the point update
// the one accumulator in turn, common subexpressions never span an update of
// it, and each thread of a parallel or thread-blocked nest has its own
// partial. A maximum is exact in any order; a sum agrees to rounding.
TEST(PassesCorrectness, MaxReduction2D) {
  ASSERT_EQ(test::example_kernel("maxnorm2d").reductions.size(), 1u);
  expect_all_verified(test::example_kernel("maxnorm2d"), {{13, 7}, {1, 1}, {37, 11}});
}

TEST(PassesCorrectness, SumReductionHimeno) {
  ASSERT_EQ(test::example_kernel("himeno_gosa").reductions.size(), 1u);
  expect_all_verified(test::example_kernel("himeno_gosa"), kSizes3D, false);
}

// Updates that the register-blocked copies make identical (a count, a sum
// of a loop-invariant), two updates of one sum in a point, and a REAL(4)
// minimum of REAL(8) values under an IF.
TEST(PassesCorrectness, IdenticalUpdatesOfReductions) {
  std::vector<Kernel> ks =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/reductions2d.f90");
  ASSERT_EQ(ks.size(), 1u);
  ASSERT_EQ(ks[0].reductions.size(), 3u);
  expect_all_verified(ks[0], {{13, 7}, {1, 1}, {37, 11}}, false);
}

} // namespace
} // namespace f2s
