// K_mpi of a library whose kernel was tuned to a blocked pthreads variant
// (docs/mpi.md): the interior it computes while the halo travels runs that
// variant on a box, with the chosen block sizes, chunks, thread groups and
// threads; the thin strips after it run the plain parallel nest; a kernel
// tuned at several sizes runs, in both, the choice of the call's size. Under
// mpirun, on uneven splits, the gathered grid is one rank's bit for bit.
#include "harness/Package.h"
#include "harness/Process.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;

const std::string kSource = std::string(F2S_SOURCE_DIR) + "/tests/inputs/mpi/smooth2d.f90";
const std::string kMain = std::string(F2S_SOURCE_DIR) + "/tests/inputs/mpi/smooth2d_main.f90";

/// The seed's decomposition (core blocks in chunks dealt to thread groups,
/// thread blocks within them) with 2x2 register blocks, array indexing,
/// streaming stores and prefetch: every pass that shapes the loops.
Variant chunked() {
  return {"pthreads",
          "chunked_test",
          {Pass::BlockLoops, Pass::Chunking, Pass::ThreadBlocking, Pass::RegisterBlock,
           Pass::CommonSubexpressions, Pass::ArrayIndexing, Pass::CacheBypass, Pass::Prefetch},
          {{"rx", 2}, {"ry", 2}, {"cse", 1}, {"indexing", 1}, {"bypass", 1}, {"prefetch", 1}}};
}
const std::map<std::string, long> kChunkedTune = {{"cx", 8}, {"cy", 5}, {"chunk", 1}, {"group", 2},
                                                  {"tx", 4}, {"ty", 3}, {"pf", 0}};

/// Core blocks whose outermost loop is split among the threads, 4 points
/// jammed along x.
Variant blocked() {
  return {"pthreads",
          "blocked_test",
          {Pass::BlockLoops, Pass::ParallelizeOuter, Pass::RegisterBlock,
           Pass::CommonSubexpressions, Pass::Prefetch},
          {{"rx", 4}, {"ry", 1}, {"cse", 1}, {"prefetch", 1}}};
}
const std::map<std::string, long> kBlockedTune = {{"cx", 6}, {"cy", 7}, {"pf", 8}};

/// The kernel at one size: the serial code and `v` on `threads` threads with
/// `tune`, the default.
KernelBuild build_at(const Kernel &k, std::vector<int64_t> size, const Variant &v, int threads,
                     const std::map<std::string, long> &tune) {
  Kernel at = k;
  at.tune_size = std::move(size);
  at.tune_sizes.clear();
  SearchSpace space;
  Candidate serial = default_candidate(space, "c");
  space.variants.push_back(v);
  Candidate tuned{space.variants.size() - 1, threads, tune};
  std::vector<VariantCode> code = generate_variants(at, space);
  KernelBuild b{at, {}, 0, std::nullopt, {}};
  b.choices.push_back({code[serial.variant], serial});
  b.choices.push_back({code[tuned.variant], tuned});
  b.default_choice = 1;
  return b;
}

using test::function_body;

/// `static const long tune[N] = {...};` as an entry point holds the values
/// of choice `c`.
std::string tune_line(const Choice &c) {
  std::string s;
  for (long v : tune_values(c.code, c.candidate))
    s += (s.empty() ? "" : ", ") + std::to_string(v);
  return "[" + std::to_string(tune_values(c.code, c.candidate).size()) + "] = {" + s + "};";
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

/// Builds `files` into `dir`/lib, links smooth2d_main.f90 to it, and checks
/// that smooth_mpi on each split (uneven parts) gives the grid that one rank
/// computes with smooth_exchange and smooth, periodic and not.
void expect_every_split_equals_one_rank(const test::ScratchDir &dir, const LibraryFiles &files) {
  fs::path lib = dir.path() / "lib";
  build_library(files, lib);
  std::string exe = (dir.path() / "check").string();
  Command link;
  link.argv = {"mpif90",
               "-O2",
               "-o",
               exe,
               kMain,
               "-I" + lib.string(),
               (lib / "libf2s_smooth2d.a").string(),
               "-lpthread"};
  ProcessResult r = run_process(link);
  ASSERT_TRUE(r.ok()) << r.err;
  auto mpirun = [&](int px, int py, const char *periodic, const std::string &out,
                    const char *mode) {
    Command c;
    c.argv = {"mpirun",
              "-np",
              std::to_string(px * py),
              exe,
              std::to_string(px),
              std::to_string(py),
              periodic,
              out,
              mode};
    c.env = test::mpirun_env(dir);
    c.timeout_s = 300;
    return run_process(c);
  };
  for (const char *periodic : {"0", "1"}) {
    std::string one = (dir.path() / (std::string("one") + periodic)).string();
    r = mpirun(1, 1, periodic, one, "exchange");
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
    ASSERT_EQ(test::read_file(one).size(), 37u * 23u * 8u);
    for (auto [px, py] : std::vector<std::pair<int, int>>{{1, 1}, {2, 1}, {1, 3}, {3, 2}, {4, 2}}) {
      SCOPED_TRACE(std::to_string(px) + "x" + std::to_string(py) + " periodic " + periodic);
      std::string many = (dir.path() / "many").string();
      r = mpirun(px, py, periodic, many, "overlap");
      ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
      EXPECT_TRUE(test::read_file(many) == test::read_file(one))
          << "the grid differs from one rank's";
    }
  }
}

TEST(MpiPackage, InteriorRunsTheTunedVariantStripsThePlainNest) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, test::read_file(kSource), "smooth2d.f90");
  KernelBuild b = build_at(k, {37, 23}, chunked(), 3, kChunkedTune);
  PackageInfo info{"f2s_smooth2d", {kSource}, "test", {"-O1"}, {}, true};
  LibraryFiles files = package_library(info, {b});

  // The interior: the chosen variant's passes on the box, its tuning values
  // and threads.
  const std::string &c = files.c_source;
  EXPECT_NE(c.find("static void f2s_smooth_box_pthreads_chunked_test(const struct "
                   "f2s_smooth_box_args *a"),
            std::string::npos);
  std::string interior = function_body(c, "f2s_smooth2d_smooth_box_tuned");
  EXPECT_NE(interior.find(tune_line(b.choices[1])), std::string::npos) << interior;
  EXPECT_NE(interior.find("const int f2s_threads = f2s_num_threads(3);\n"
                          "    f2s_smooth_box_pthreads_chunked_test(&a, tune, f2s_threads);"),
            std::string::npos)
      << interior;
  // The strips: the plain parallel nest with the same threads.
  std::string strips = function_body(c, "f2s_smooth2d_smooth_box");
  EXPECT_NE(strips.find("const int f2s_threads = f2s_num_threads(3);\n"
                        "    f2s_smooth_box_parallel(&a, tune, f2s_threads);"),
            std::string::npos)
      << strips;
  // smooth_mpi: the tuned box once, before it waits for the halo; the plain
  // one for the four strips after.
  std::string mpi = function_body(files.mpi_source, "f2s_smooth2d_smooth_mpi");
  size_t wait = mpi.find("f2s_halo_end(&h);");
  ASSERT_NE(wait, std::string::npos) << mpi;
  EXPECT_EQ(count(mpi.substr(0, wait), "f2s_smooth2d_smooth_box_tuned("), 1u) << mpi;
  EXPECT_EQ(count(mpi.substr(0, wait), "f2s_smooth2d_smooth_box("), 0u) << mpi;
  EXPECT_EQ(count(mpi.substr(wait), "f2s_smooth2d_smooth_box("), 4u) << mpi;
  EXPECT_EQ(count(mpi.substr(wait), "f2s_smooth2d_smooth_box_tuned("), 0u) << mpi;

  expect_every_split_equals_one_rank(dir, files);
}

// A default that is the plain parallel nest runs it on the interior too: one
// function for both boxes.
TEST(MpiPackage, PlainParallelDefaultSharesTheStripsFunction) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, test::read_file(kSource), "smooth2d.f90");
  SearchSpace space;
  Candidate parallel = default_candidate(space, "pthreads");
  parallel.threads = 2;
  std::vector<VariantCode> code = generate_variants(k, space);
  KernelBuild p{k, {{code[parallel.variant], parallel}}, 0, std::nullopt, {}};
  PackageInfo info{"f2s_smooth2d", {kSource}, "test", {"-O1"}, {}, true};
  LibraryFiles files = package_library(info, {p});
  const std::string &c = files.c_source;
  EXPECT_EQ(count(c, "(const struct f2s_smooth_box_args *a, const long *tune, int nthreads) {"), 1u)
      << "one function of the kernel on a box";
  EXPECT_NE(function_body(c, "f2s_smooth2d_smooth_box_tuned")
                .find("const int f2s_threads = f2s_num_threads(2);\n"
                      "    f2s_smooth_box_parallel(&a, tune, f2s_threads);"),
            std::string::npos);
}

// Tuned at 8x8 (blocked, 2 threads) and 37x23 (chunked, 3 threads): both
// boxes dispatch by the call's size, as smooth does. By working set the
// bound is sqrt(64 * 851) = 233 points: one rank (37x23) and the 2x1 split
// (18 or 19 x 23) run the chunked variant, the 1x3 (37 x 7 or 8), 3x2 (12 or
// 13 x 11 or 12) and 4x2 splits the blocked one.
TEST(MpiPackage, BoxesFollowTheChoiceOfTheCallsSize) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, test::read_file(kSource), "smooth2d.f90");
  KernelBuild b = build_at(k, {8, 8}, blocked(), 2, kBlockedTune);
  b.other_sizes.push_back(build_at(k, {37, 23}, chunked(), 3, kChunkedTune));
  PackageInfo info{"f2s_smooth2d", {kSource}, "test", {"-O1"}, {}, true};
  LibraryFiles files = package_library(info, {b});

  const std::string &c = files.c_source;
  EXPECT_NE(c.find("static int f2s_smooth_box_nearest_size(const struct f2s_smooth_box_args *a)"),
            std::string::npos);
  std::string interior = function_body(c, "f2s_smooth2d_smooth_box_tuned");
  size_t at0 = interior.find("case 0:"), at1 = interior.find("default:");
  ASSERT_TRUE(at0 < at1 && at1 != std::string::npos) << interior;
  EXPECT_NE(interior.find(tune_line(b.choices[1])), std::string::npos) << interior;
  EXPECT_NE(interior.find(tune_line(b.other_sizes[0].choices[1])), std::string::npos) << interior;
  // Each case computes its threads once, for the call and its report.
  auto runs = [](const std::string &text, const std::string &call, int threads) {
    const std::string tune = threads == 2 ? "tune_0" : "tune_1"; // 8x8's, 37x23's
    return text.find("const int f2s_threads = f2s_num_threads(" + std::to_string(threads) +
                     ");\n") != std::string::npos &&
           text.find(call + "(&a, " + tune + ", f2s_threads);") != std::string::npos;
  };
  EXPECT_TRUE(runs(interior.substr(at0, at1 - at0), "f2s_smooth_box_pthreads_blocked_test", 2))
      << interior;
  EXPECT_TRUE(runs(interior.substr(at1), "f2s_smooth_box_pthreads_chunked_test", 3)) << interior;
  std::string strips = function_body(c, "f2s_smooth2d_smooth_box");
  at0 = strips.find("case 0:");
  at1 = strips.find("default:");
  ASSERT_TRUE(at0 < at1 && at1 != std::string::npos) << strips;
  EXPECT_TRUE(runs(strips.substr(at0, at1 - at0), "f2s_smooth_box_parallel", 2)) << strips;
  EXPECT_TRUE(runs(strips.substr(at1), "f2s_smooth_box_parallel", 3)) << strips;

  expect_every_split_equals_one_rank(dir, files);
}

} // namespace
} // namespace f2s
