// Legacy and modern source forms end to end: each example of issue 5 goes
// through f2stencil for every CPU target, and its checking program compares
// the library with gfortran's build of the original at several sizes, odd
// ones included. The CUDA target is built with nvcc where nvcc is found.
#include "e2e/E2E.h"

#include "harness/CudaToolkit.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

/// Links examples/<name>/main.f90 with the original and the library in `out`.
std::string build_check(const test::ScratchDir &dir, const std::string &name, const fs::path &out,
                        const std::string &tag) {
  std::string exe = (dir.path() / (name + "_" + tag)).string();
  ProcessResult r =
      run({"gfortran", "-O2", "-o", exe, test::example_source(name),
           source("examples/" + name + "/main.f90"), "-I" + out.string(), "-L" + out.string(),
           "-Wl,-rpath," + out.string(), "-lf2s_" + name, "-lpthread"});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  return exe;
}

void expect_passes(const std::string &exe, std::vector<std::string> size) {
  size.insert(size.begin(), exe);
  ProcessResult r = run(size);
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos)
      << "size " << (size.size() > 1 ? size[1] : "default") << ": " << r.describe() << "\n"
      << r.out << r.err;
}

// Odd, non-cubic, degenerate; jacobi3d_f77's COMMON grids hold 100 points
// per axis.
const std::vector<std::vector<std::string>> kSizes = {
    {}, {"33", "17", "5"}, {"1", "1", "1"}, {"7", "99", "2"}, {"2", "3", "97"}, {"100", "3", "1"}};

class SourceForm : public ::testing::TestWithParam<std::string> {};

TEST_P(SourceForm, EveryCpuTargetMatchesTheOriginal) {
  const std::string name = GetParam();
  for (const char *target : {"c", "pthreads"}) {
    SCOPED_TRACE(target);
    test::ScratchDir dir;
    fs::path out = dir.path() / "out";
    ProcessResult r = f2stencil({"--no-tune", std::string("--target=") + target, "-q", "-o",
                                 out.string(), test::example_source(name)});
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    std::string exe = build_check(dir, name, out, target);
    for (const auto &size : kSizes)
      expect_passes(exe, size);
  }
}

TEST_P(SourceForm, TunedLibraryMatchesTheOriginal) {
  const std::string name = GetParam();
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil(
      test::quick_tuning({"--tune-size=24,10,9", "--reps=1", "--budget=20", "-q",
                          "--target=c,pthreads", "-o", out.string(), test::example_source(name)}));
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = build_check(dir, name, out, "tuned");
  for (const auto &size : kSizes)
    expect_passes(exe, size);
}

// The library with CUDA code compiles with nvcc; without a GPU its entry
// points run on the CPU, which the checking program verifies.
TEST_P(SourceForm, CudaTargetBuildsWithNvcc) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  const std::string name = GetParam();
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--no-tune", "--target=pthreads,cuda", "-q", "-o", out.string(),
                               test::example_source(name)});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_TRUE(fs::exists(out / ("f2s_" + name + "_cuda.cu")));
  expect_passes(build_check(dir, name, out, "cuda"), {"33", "17", "5"});
}

INSTANTIATE_TEST_SUITE_P(Examples, SourceForm,
                         ::testing::Values("laplacian_f77", "jacobi3d_f77", "heat3d_modern"));

// -D and -I reach the preprocessor: the directive is inside #ifdef.
TEST(SourceFormsCli, MacrosAndIncludeDirectoriesReachThePreprocessor) {
  test::ScratchDir dir;
  fs::create_directories(dir.path() / "inc");
  dir.write("inc/sizes.h", "      INTEGER N\n      PARAMETER (N = 16)\n");
  std::string src = dir.write("k.F", R"(      SUBROUTINE S(A, B)
#include "sizes.h"
      REAL*8 A(N,N), B(N,N)
#ifdef USE_F2S
C$F2S STENCIL NAME(K)
#endif
      DO 10 J = 2, N-1
      DO 10 I = 2, N-1
         B(I,J) = A(I-1,J) + A(I+1,J)
   10 CONTINUE
      END
)");
  std::string inc = "-I" + (dir.path() / "inc").string();
  ProcessResult r = f2stencil({"--emit=ir", "-DUSE_F2S", inc, src});
  ASSERT_TRUE(r.ok()) << r.err;
  EXPECT_EQ(r.out.rfind("kernel k(a: f64(1:16, 1:16), b: f64(1:16, 1:16))\n", 0), 0u) << r.out;

  r = f2stencil({"--emit=ir", inc, src});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, src + ": error: No '!$f2s stencil' region in '" + src + "'\n");
}

// A region that uses modules of another file, named after it on the command
// line: the library matches gfortran's build of the three files.
TEST(SourceFormsCli, ModulesOfAnotherFileReachTheRegion) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string region = source("tests/inputs/e2e/usemod2d.f90"),
              modules = source("tests/inputs/e2e/usemod2d_modules.f90");
  ProcessResult r =
      f2stencil(test::quick_tuning({"--reps=1", "-q", "--target=c,pthreads", "--lib=f2s_usemod2d",
                                    "-o", out.string(), region, modules}));
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  // gfortran writes the modules' .mod files into the current folder.
  std::string exe = (dir.path() / "usemod2d").string();
  r = run({"gfortran", "-O2", "-J" + dir.path().string(), "-o", exe, modules, region,
           source("tests/inputs/e2e/usemod2d_main.f90"), "-I" + out.string(),
           (out / "libf2s_usemod2d.a").string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err;
  for (const auto &size : std::vector<std::vector<std::string>>{{}, {"1", "1"}, {"33", "5"}})
    expect_passes(exe, size);

  // Without the modules' file the USE is unknown: refused at the USE.
  r = f2stencil({"-q", "-o", (dir.path() / "out2").string(), region});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, region + ":4:7: error: Module 'usemod2d_consts' is defined in none of the "
                            "files given, so the type of 'unew' may be unknown; pass the file that "
                            "defines 'usemod2d_consts' to f2stencil too\n");
  EXPECT_FALSE(fs::exists(dir.path() / "out2"));
}

// A refusal in fixed form: file:line:column, one sentence, status 1, and
// nothing written.
TEST(SourceFormsCli, RefusalNamesThePosition) {
  test::ScratchDir dir;
  std::string src = dir.write("k.f", R"(      SUBROUTINE S(N, A)
      REAL A(N,N)
C$F2S STENCIL
      DO 10 J = 1, N
      DO 10 I = 1, N
         A(I,J) = A(I,J) + SIN(A(I,J))*EPS
         CALL FLUSH(6)
   10 CONTINUE
      END
)");
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"-q", "-o", out.string(), src});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, src + ":7:10: error: A CALL statement is not allowed inside a '!$f2s "
                         "stencil' region; write the subroutine's computation inline\n");
  EXPECT_FALSE(fs::exists(out));
}

// A temporary the procedure reads after the region: refused with both positions, status 1, and
// nothing written, where the library would have left the caller's value unchanged.
TEST(SourceFormsCli, TemporaryReadAfterTheRegionIsRefused) {
  test::ScratchDir dir;
  std::string src = dir.write("k.f", R"(      SUBROUTINE S(N, A, B)
      REAL*8 A(N,N), B(N,N), T
C$F2S STENCIL
      DO 10 J = 1, N
      DO 10 I = 1, N
         T = 2*A(I,J)
         B(I,J) = T + A(I,J)
   10 CONTINUE
      A(1,1) = T
      END
)");
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"-q", "-o", out.string(), src});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, src + ":6:10: error: 't' is assigned in the '!$f2s stencil' region and read "
                         "after it (line 9, column 16), but the library keeps it private to each "
                         "point\n");
  EXPECT_FALSE(fs::exists(out));
}

} // namespace
} // namespace f2s
