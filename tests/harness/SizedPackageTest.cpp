// A library packaged from choices at several sizes whose default differs by
// size: the plain entry point and the first touch both dispatch, each case of
// the first touch runs with the threads of the same case of the kernel, and
// the library matches the gfortran-compiled original bit for bit at every
// size, first touch included.
#include "harness/Package.h"
#include "harness/Process.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace f2s {
namespace {

namespace fs = std::filesystem;

std::string read(const std::string &path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// The kernel at one size: the serial variant and the plain parallel nest on
/// `threads` threads, the default.
KernelBuild build_at(const Kernel &k, std::vector<int64_t> size, int threads) {
  Kernel at = k;
  at.tune_size = std::move(size);
  at.tune_sizes.clear();
  SearchSpace space;
  Candidate serial = default_candidate(space, "c"), parallel = default_candidate(space, "pthreads");
  parallel.threads = threads;
  std::vector<VariantCode> code = generate_variants(at, space);
  KernelBuild b{at, {}, 0, std::nullopt, {}};
  b.choices.push_back({code[serial.variant], serial});
  b.choices.push_back({code[parallel.variant], parallel});
  b.default_choice = 1;
  return b;
}

using test::function_body;

TEST(SizedPackage, FirstTouchDispatchesWithTheKernelsThreads) {
  test::ScratchDir dir;
  const std::string source = std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/relax_levels.f90";
  Kernel k = test::lower_text(dir, read(source), "relax_levels.f90");
  KernelBuild b = build_at(k, {6, 6, 6}, 1);
  b.other_sizes.push_back(build_at(k, {14, 12, 10}, 2));
  b.other_sizes.push_back(build_at(k, {40, 36, 32}, 3));
  PackageInfo info{"f2s_relax_levels", {source}, "test", {"-O1"}, {}};
  LibraryFiles files = package_library(info, {b});

  // The parallel nest's function once, called with 1, 2 and 3 threads.
  const std::string &c = files.c_source;
  EXPECT_EQ(c.find("static void f2s_relax_level_pthreads_parallel("),
            c.rfind("static void f2s_relax_level_pthreads_parallel("));
  // The serial choice is the same at every size: no dispatch.
  EXPECT_EQ(function_body(c, "f2s_relax_levels_relax_level_c").find("switch"), std::string::npos);
  for (const std::string &entry : {std::string("f2s_relax_levels_relax_level"),
                                   std::string("f2s_relax_levels_relax_level_first_touch")}) {
    std::string body = function_body(c, entry);
    size_t at0 = body.find("case 0:"), at1 = body.find("case 1:"), at2 = body.find("default:");
    ASSERT_TRUE(at0 < at1 && at1 < at2 && at2 != std::string::npos) << body;
    EXPECT_NE(body.substr(at0, at1 - at0).find("f2s_num_threads(1)"), std::string::npos) << body;
    EXPECT_NE(body.substr(at1, at2 - at1).find("f2s_num_threads(2)"), std::string::npos) << body;
    EXPECT_NE(body.substr(at2).find("f2s_num_threads(3)"), std::string::npos) << body;
  }
  EXPECT_NE(c.find("static int f2s_relax_level_first_touch_nearest_size(const struct "
                   "f2s_relax_level_first_touch_args *a)"),
            std::string::npos);
  EXPECT_NE(files.header.find("int f2s_relax_levels_relax_level_tuned_size(int32_t F_n1"),
            std::string::npos)
      << files.header;

  fs::path out = dir.path() / "out";
  build_library(files, out);
  std::string exe = (dir.path() / "check").string();
  Command link;
  link.argv = {"gfortran",
               "-O2",
               "-o",
               exe,
               source,
               std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/relax_levels_main.f90",
               "-I" + out.string(),
               (out / "libf2s_relax_levels.a").string(),
               "-lpthread"};
  ProcessResult r = run_process(link);
  ASSERT_TRUE(r.ok()) << r.err;
  Command check;
  check.argv = {exe, "7", "5", "6", "15", "13", "9", "41", "36", "31"};
  check.timeout_s = 120;
  r = run_process(check);
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("size    7    5    6 runs tuned size 0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("size   15   13    9 runs tuned size 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("size   41   36   31 runs tuned size 2"), std::string::npos) << r.out;
}

} // namespace
} // namespace f2s
