// The whole path: annotated Fortran through f2stencil into a library, linked
// by a Fortran program that compares it with the gfortran-compiled original.
#include "e2e/E2E.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <fstream>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

/// Builds examples/<name>/main.f90 against the library in `out`.
std::string build_example(const test::ScratchDir &dir, const std::string &name, const fs::path &out,
                          bool shared = false) {
  std::string exe = (dir.path() / (name + "_check")).string();
  std::vector<std::string> cmd = {"gfortran",
                                  "-O2",
                                  "-o",
                                  exe,
                                  test::example_source(name),
                                  source("examples/" + name + "/main.f90"),
                                  "-I" + out.string()};
  if (shared)
    cmd.insert(cmd.end(), {"-L" + out.string(), "-Wl,-rpath," + out.string(), "-lf2s_" + name});
  else
    cmd.push_back((out / ("libf2s_" + name + ".a")).string());
  cmd.push_back("-lpthread");
  ProcessResult r = run(cmd);
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  return exe;
}

void expect_passes(const std::string &exe, std::vector<std::string> size,
                   std::vector<std::pair<std::string, std::string>> env = {}) {
  size.insert(size.begin(), exe);
  ProcessResult r = run(size, env);
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos)
      << "size " << (size.size() > 1 ? size[1] : "default") << ": " << r.describe() << "\n"
      << r.out << r.err;
}

// Sizes that are odd, non-cubic, smaller than any block and degenerate.
const std::vector<std::vector<std::string>> kSizes = {
    {}, {"33", "17", "5"}, {"1", "1", "1"}, {"7", "130", "2"}, {"300", "2", "3"}, {"2", "3", "97"}};

class Operator : public ::testing::TestWithParam<std::string> {};

TEST_P(Operator, UntunedLibraryMatchesTheOriginalAtEverySize) {
  test::ScratchDir dir;
  std::string name = GetParam();
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil(
      {"--no-tune", "--target=pthreads,c", "-q", "-o", out.string(), test::example_source(name)});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  for (const char *file : {".a", ".so"})
    EXPECT_TRUE(fs::exists(out / ("libf2s_" + name + file)));
  for (const char *file : {".f90", ".h", ".json", ".mod"})
    EXPECT_TRUE(fs::exists(out / ("f2s_" + name + file))) << file;
  std::string exe = build_example(dir, name, out);
  for (const auto &size : kSizes) {
    expect_passes(exe, size);
    expect_passes(exe, size, {{"F2S_NUM_THREADS", "3"}});
  }
  expect_passes(build_example(dir, name, out, true), {"31", "9", "4"});
}

TEST_P(Operator, TunedLibraryMatchesTheOriginalAtOtherSizes) {
  test::ScratchDir dir;
  std::string name = GetParam();
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil(
      {"--tune-size=24,10,9", "--reps=1", "-q", "-o", out.string(), test::example_source(name)});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = build_example(dir, name, out);
  for (const auto &size : kSizes)
    expect_passes(exe, size);

  // The tuning record lists every candidate with its parameters and timing.
  nlohmann::json rec = nlohmann::json::parse(std::ifstream(out / ("f2s_" + name + ".json")));
  const nlohmann::json &k = rec["kernels"].at(0);
  EXPECT_EQ(k["name"], name);
  EXPECT_EQ(k["extents"], (std::vector<int64_t>{24, 10, 9}));
  ASSERT_GT(k["candidates"].size(), 2u);
  bool winner_listed = false;
  for (const nlohmann::json &c : k["candidates"]) {
    EXPECT_EQ(c["status"], "verified") << c.dump();
    EXPECT_GT(c["time_s"].get<double>(), 0);
    EXPECT_TRUE(c["params"].contains("threads"));
    winner_listed |= c["id"] == k["winner"];
  }
  EXPECT_TRUE(winner_listed);
  EXPECT_EQ(k["chosen"]["default"], k["winner"]);
}

INSTANTIATE_TEST_SUITE_P(KamilOperators, Operator,
                         ::testing::Values("laplacian", "divergence", "gradient"));
// Zhang and Mueller (CGO 2012), Table 1: a temporary reassigned, a two-point
// halo, thirteen coefficient grids, and corner reads.
INSTANTIATE_TEST_SUITE_P(ZhangMuellerTable1, Operator,
                         ::testing::Values("star7", "star13", "himeno19", "box27"));
// Legacy and modern source forms (issue 5). jacobi3d_f77 keeps its grids in
// a COMMON block of fixed size, too small for these sizes: SourceFormsTest
// runs it at its own.
INSTANTIATE_TEST_SUITE_P(SourceForms, Operator,
                         ::testing::Values("laplacian_f77", "heat3d_modern"));

TEST(EndToEnd, SinglePrecision2DWithIntrinsicsMatchesTheOriginal) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--reps=1", "-q", "--target=c,pthreads", "--lib=f2s_mixed2d", "-o",
                               out.string(), source("tests/inputs/e2e/mixed2d.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / "mixed").string();
  r = run({"gfortran", "-O2", "-o", exe, source("tests/inputs/e2e/mixed2d.f90"),
           source("tests/inputs/e2e/mixed2d_main.f90"), "-I" + out.string(),
           (out / "libf2s_mixed2d.a").string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err;
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"1", "1"}, {"513", "3"}, {"4", "77"}})
    expect_passes(exe, size);
}

} // namespace
} // namespace f2s
