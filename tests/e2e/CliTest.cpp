// What a user sees when something is wrong: one sentence with a position,
// a nonzero exit, and no output directory.
#include "e2e/E2E.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <regex>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;

struct Failure {
  ProcessResult result;
  bool wrote_output;
};

Failure fail_on(const test::ScratchDir &dir, const std::string &fortran,
                std::vector<std::string> extra = {}) {
  std::string file = dir.write("bad.f90", fortran);
  fs::path out = dir.path() / "out";
  extra.insert(extra.end(), {"-q", "-o", out.string(), file});
  ProcessResult r = f2stencil(extra);
  return {r, fs::exists(out)};
}

/// Exactly one line, "bad.f90:LINE:COL: error: MESSAGE".
void expect_one_error(const Failure &f, const std::string &where, const std::string &message) {
  EXPECT_EQ(f.result.exit_code, 1) << f.result.describe();
  EXPECT_FALSE(f.wrote_output);
  EXPECT_EQ(f.result.out, "");
  std::smatch m;
  std::string err = f.result.err;
  ASSERT_TRUE(
      std::regex_match(err, m, std::regex("^[^\n]*bad\\.f90:(\\d+:\\d+): error: ([^\n]*)\n$")))
      << err;
  EXPECT_EQ(m[1], where);
  EXPECT_NE(m[2].str().find(message), std::string::npos) << err;
}

std::string region(const std::string &body, const std::string &directive = "!$f2s stencil") {
  return "subroutine s(n, a, b)\n"
         "  integer :: n, i, j\n"
         "  real(8) :: a(0:n+1, 0:n+1), b(0:n+1, 0:n+1)\n"
         "  " +
         directive +
         "\n"
         "  do j = 1, n\n"
         "    do i = 1, n\n" +
         body +
         "    end do\n"
         "  end do\n"
         "end subroutine\n";
}

TEST(Cli, RefusesALoopCarriedDependence) {
  test::ScratchDir dir;
  expect_one_error(fail_on(dir, region("      a(i, j) = a(i-1, j) + b(i, j)\n")), "7:17",
                   "'a' is written at (i,j) and read at (i-1,j) in the same sweep");
}

TEST(Cli, RefusesAReductionVariableReadElsewhere) {
  test::ScratchDir dir;
  std::string src = "subroutine s(n, a, b, t)\n"
                    "  integer :: n, i, j\n"
                    "  real(8) :: t, a(0:n+1, 0:n+1), b(0:n+1, 0:n+1)\n"
                    "  !$f2s stencil\n"
                    "  do j = 1, n\n"
                    "    do i = 1, n\n"
                    "      t = t + b(i, j)\n"
                    "      a(i, j) = t\n"
                    "    end do\n"
                    "  end do\n"
                    "end subroutine\n";
  expect_one_error(fail_on(dir, src), "8:17",
                   "'t' is accumulated with + at 7:7 of the '!$f2s stencil' region and also read "
                   "here");
}

TEST(Cli, RefusesACallInsideTheRegion) {
  test::ScratchDir dir;
  expect_one_error(fail_on(dir, region("      call f(a)\n")), "7:7", "CALL");
}

TEST(Cli, RefusesAColourTestThatReadsItsOwnColour) {
  test::ScratchDir dir;
  expect_one_error(
      fail_on(dir, region("      if (mod(i + j, 2) == 0) a(i, j) = a(i-1, j-1) + b(i, j)\n")),
      "7:41", "'a' is written at (i,j) and read at (i-1,j-1), a point of the same colour");
}

TEST(Cli, RefusesANonAffineSubscript) {
  test::ScratchDir dir;
  expect_one_error(fail_on(dir, region("      b(i, j) = a(i*j, j)\n")), "7:19", "i*j");
}

// Without IMPLICIT NONE, `q` would be an implicitly typed REAL argument.
TEST(Cli, RefusesAnUndeclaredVariableUnderImplicitNone) {
  test::ScratchDir dir;
  std::string src = region("      b(i, j) = q*a(i, j)\n");
  src.insert(src.find('\n') + 1, "  implicit none\n");
  expect_one_error(fail_on(dir, src), "8:17", "'q'");
}

TEST(Cli, RefusesANonPerfectNest) {
  test::ScratchDir dir;
  std::string src = "subroutine s(n, a, b)\n"
                    "  integer :: n, i, j\n"
                    "  real(8) :: a(n, n), b(n, n), t\n"
                    "  !$f2s stencil\n"
                    "  do j = 1, n\n"
                    "    a(1, j) = 1d0\n"
                    "    do i = 1, n\n"
                    "      b(i, j) = t*a(i, j)\n"
                    "    end do\n"
                    "  end do\n"
                    "end subroutine\n";
  expect_one_error(fail_on(dir, src), "6:5", "");
}

TEST(Cli, RefusesADirectiveWithoutADoConstruct) {
  test::ScratchDir dir;
  std::string src = "subroutine s(n, a)\n"
                    "  integer :: n\n"
                    "  real(8) :: a(n)\n"
                    "  !$f2s stencil\n"
                    "  a = 0d0\n"
                    "end subroutine\n";
  expect_one_error(fail_on(dir, src), "4:3", "DO");
}

TEST(Cli, RefusesAnUnknownClause) {
  test::ScratchDir dir;
  expect_one_error(fail_on(dir, region("      b(i, j) = a(i, j)\n", "!$f2s stencil fast(yes)")),
                   "4:17", "fast");
}

TEST(Cli, RefusesAFileWithoutRegions) {
  test::ScratchDir dir;
  Failure f = fail_on(dir, "subroutine s(n)\n  integer :: n\nend subroutine\n");
  EXPECT_EQ(f.result.exit_code, 1);
  EXPECT_FALSE(f.wrote_output);
  EXPECT_NE(f.result.err.find("bad.f90"), std::string::npos) << f.result.err;
  EXPECT_NE(f.result.err.find("error:"), std::string::npos) << f.result.err;
}

TEST(Cli, PassesFlangSyntaxErrorsThroughWithTheirPosition) {
  test::ScratchDir dir;
  Failure f = fail_on(dir, region("      b(i, j) = a(i, j) +\n"));
  EXPECT_EQ(f.result.exit_code, 1);
  EXPECT_FALSE(f.wrote_output);
  EXPECT_NE(f.result.err.find("bad.f90:7:"), std::string::npos) << f.result.err;
}

TEST(Cli, RefusesBadOptionsAndFiles) {
  test::ScratchDir dir;
  std::string good = test::source("examples/laplacian/laplacian.f90");
  for (std::vector<std::string> args :
       std::vector<std::vector<std::string>>{{"--fast", good},
                                             {dir.path().string() + "/missing.f90"},
                                             {"--target=gpu", good},
                                             {"--lib=9lives", good},
                                             {"--emit=asm", good},
                                             {"--tune-size=4,x", good},
                                             {}}) {
    std::string shown;
    for (const std::string &a : args)
      shown += a + " ";
    args.insert(args.begin(), {"-o", (dir.path() / "out").string()});
    ProcessResult r = f2stencil(args);
    EXPECT_EQ(r.exit_code, 1) << shown << r.describe();
    EXPECT_NE(r.err.find("error"), std::string::npos) << shown << r.err;
    EXPECT_FALSE(fs::exists(dir.path() / "out")) << shown;
  }
}

TEST(Cli, HelpListsTheOptions) {
  ProcessResult r = f2stencil({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char *opt : {"--target", "--no-tune", "--emit", "--lib", "-o"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

// Untuned, the default entry point runs the parallel nest, whatever the
// order of the targets.
TEST(Cli, UntunedDefaultIsTheParallelNest) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"-q", "--no-tune", "--target=c,pthreads", "-o", out.string(),
                               test::source("examples/laplacian/laplacian.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  std::ifstream in(out / "f2s_laplacian.h");
  std::string h((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(h.find("'laplacian' from 'smooth' (" +
                   test::source("examples/laplacian/laplacian.f90") +
                   ":11:3): pthreads/parallel, not tuned"),
            std::string::npos)
      << h;
}

TEST(Cli, EmitsIrAndCWithoutWritingAnything) {
  test::ScratchDir dir;
  std::string good = test::source("examples/gradient/gradient.f90");
  ProcessResult ir = f2stencil({"--emit=ir", "-o", (dir.path() / "out").string(), good});
  EXPECT_TRUE(ir.ok()) << ir.err;
  EXPECT_EQ(ir.out.rfind("kernel gradient(", 0), 0u) << ir.out;
  ProcessResult c = f2stencil({"--emit=c", "-o", (dir.path() / "out").string(), good});
  EXPECT_TRUE(c.ok()) << c.err;
  EXPECT_NE(c.out.find("void f2s_gradient_gradient("), std::string::npos);
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
}

} // namespace
} // namespace f2s
