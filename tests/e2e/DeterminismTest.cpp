// Same input, same options: the same library sources, byte for byte. Two
// runs of f2stencil into two directories must write identical C, CUDA,
// Fortran module, compiled module and header (no ordering by pointer, no timestamp outside the
// tuning record), so that a rebuild does not recompile its users and a
// difference between two libraries always means a difference in the input.
#include "tests/e2e/E2E.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace f2s {
namespace {

namespace fs = std::filesystem;

std::string bytes(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

/// Runs f2stencil twice on `files` with `options`; every file but the
/// tuning record (which holds timings) must be the same in both outputs.
void expect_identical_runs(const test::ScratchDir &dir, const std::vector<std::string> &files,
                           const std::vector<std::string> &options) {
  std::vector<fs::path> outs = {dir.path() / "first", dir.path() / "second"};
  for (const fs::path &out : outs) {
    std::vector<std::string> args = options;
    args.insert(args.end(), {"-q", "--lib=f2s_same", "-o", out.string()});
    args.insert(args.end(), files.begin(), files.end());
    ProcessResult r = test::f2stencil(args);
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  }
  size_t compared = 0;
  for (const auto &e : fs::directory_iterator(outs[0])) {
    std::string name = e.path().filename().string();
    fs::path other = outs[1] / name;
    ASSERT_TRUE(fs::exists(other)) << name;
    // The libraries are left out: nvcc names its host object after a
    // temporary file with its process id (tmpxft_<pid>_...cudafe1.cpp), and
    // that name lands in the object's symbol table.
    // The record, the text and HTML reports hold timings.
    if (name.ends_with(".json") || name.ends_with(".txt") || name.ends_with(".html") ||
        name.ends_with(".a") || name.ends_with(".so"))
      continue;
    EXPECT_TRUE(bytes(e.path()) == bytes(other)) << name << " differs between two runs";
    ++compared;
  }
  // The C, the header, the module source and the compiled module at least.
  EXPECT_GE(compared, 4u);
}

} // namespace

// Several kernels of several files (a LOGICAL mask, a reduction, a
// red-black sweep, assumed-shape and allocatable arrays), every target.
TEST(Determinism, TwoRunsWriteTheSameLibrary) {
  test::ScratchDir dir;
  expect_identical_runs(dir,
                        {test::example_source("fdtd2d"), test::example_source("heat3d_modern"),
                         test::source("tests/inputs/e2e/mask2d.f90"),
                         test::source("tests/inputs/e2e/reductions2d.f90"),
                         test::source("tests/inputs/e2e/stride2rb.f90")},
                        {"--target=c,pthreads,cuda", "--no-tune"});
}

// A tuned library: which candidate wins may differ from run to run
// (timings), so the target is one with a single candidate (c, serial); what is
// printed for it, measured or not, must not vary.
TEST(Determinism, TwoTunedRunsWriteTheSameCode) {
  test::ScratchDir dir;
  expect_identical_runs(dir, {test::example_source("jacobi1d")},
                        {"--target=c", "--tune-size=33", "--reps=1", "-j", "1"});
}

} // namespace f2s
