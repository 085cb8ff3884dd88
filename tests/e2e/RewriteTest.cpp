// f2stencil --rewrite end to end: the rewritten sources, compiled with
// gfortran against the library's module, give what the original program
// gives.
#include "e2e/E2E.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

/// Every example of examples/ (a folder with a main.f90), by name.
std::vector<std::string> example_names() {
  std::vector<std::string> names;
  for (const auto &e : fs::directory_iterator(source("examples")))
    if (fs::exists(e.path() / "main.f90"))
      names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

/// gfortran `args`, then the program it built, run; its standard output.
std::string compile_and_run(const test::ScratchDir &dir, const std::string &name,
                            std::vector<std::string> args) {
  std::string exe = (dir.path() / name).string();
  args.insert(args.begin(), {"gfortran", "-O1", "-o", exe});
  args.push_back("-lpthread");
  ProcessResult built = run(args);
  EXPECT_TRUE(built.ok()) << built.describe() << "\n" << built.err;
  if (!built.ok())
    return "";
  ProcessResult r = run({exe});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  return r.out;
}

/// The numbers of two programs' outputs agree to rounding (the library's C
/// may contract a*b+c where gfortran does not).
void expect_same_numbers(const std::string &original, const std::string &rewritten) {
  std::istringstream a(original), b(rewritten);
  std::vector<double> x, y;
  for (double v; a >> v;)
    x.push_back(v);
  for (double v; b >> v;)
    y.push_back(v);
  ASSERT_EQ(x.size(), y.size()) << original << "\n---\n" << rewritten;
  ASSERT_FALSE(x.empty());
  for (size_t i = 0; i < x.size(); ++i)
    EXPECT_NEAR(x[i], y[i], 1e-11 * std::max(1.0, std::abs(x[i]))) << "number " << i << "\n"
                                                                   << original << "\n---\n"
                                                                   << rewritten;
}

class RewriteExample : public ::testing::TestWithParam<std::string> {};

// The example's own check compares the procedure of its source file with a
// call of the library written by hand; built with the rewritten source, that
// procedure is the rewritten call (EndToEndTest checks the original).
TEST_P(RewriteExample, RewrittenSourcePassesTheExamplesCheck) {
  test::ScratchDir dir;
  const std::string name = GetParam();
  fs::path out = dir.path() / "out";
  std::string original = test::example_source(name);
  ProcessResult r =
      f2stencil({"--rewrite", "--no-tune", "--target=c", "-q", "-o", out.string(), original});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  fs::path rewritten = out / "src" / fs::path(original).filename();
  ASSERT_TRUE(fs::exists(rewritten));
  std::string text = test::read_file(rewritten);
  EXPECT_NE(text.find("use f2s_" + name + ", only: "), std::string::npos) << text;
  EXPECT_NE(text.find("rewritten:"), std::string::npos) << text;
  std::string exe = (dir.path() / "check").string();
  ProcessResult built = run({"gfortran", "-O2", "-o", exe, rewritten.string(),
                             source("examples/" + name + "/main.f90"), "-I" + out.string(),
                             (out / ("libf2s_" + name + ".a")).string(), "-lpthread"});
  ASSERT_TRUE(built.ok()) << built.describe() << "\n" << built.err << "\n" << text;
  ProcessResult ran = run({exe});
  EXPECT_TRUE(ran.ok() && ran.out.find("PASSED") != std::string::npos) << ran.describe() << "\n"
                                                                       << ran.out << ran.err << "\n"
                                                                       << text;
}

INSTANTIATE_TEST_SUITE_P(Examples, RewriteExample, ::testing::ValuesIn(example_names()));

// Free form: a subroutine with two regions, a function, an internal
// procedure, a main program; an OpenMP PARALLEL DO around a nest (removed)
// and a parallel region that does more (left, reported, its DO made SINGLE).
// Then f2stencil on its own output: nothing to do.
TEST(Rewrite, FreeFormCasesMatchTheOriginalProgram) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string cases = source("tests/inputs/rewrite/cases.f90");
  ProcessResult r =
      f2stencil({"--rewrite", "--no-tune", "--target=pthreads", "-o", out.string(), cases});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_NE(r.err.find("cases.f90:84:3: warning: '!$omp do' is in a parallel region"),
            std::string::npos)
      << r.err;
  fs::path rewritten = out / "src" / "cases.f90";
  std::string text = test::read_file(rewritten);
  // One USE per unit, listing its kernels; none of the nests is left.
  EXPECT_NE(text.find("  use grid_size\n  use f2s_cases, only: relax_jacobi, relax_copy\n"
                      "  implicit none\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("!$f2s"), std::string::npos) << text;
  EXPECT_EQ(text.find("\n  !$omp parallel do"), std::string::npos) << text;
  EXPECT_EQ(text.find("\n  !$omp end parallel do"), std::string::npos) << text;
  EXPECT_NE(text.find("  !$omp parallel private(i, j)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  !$omp single\n  !f2s rewritten: stencil name(scaled_lap)\n"),
            std::string::npos)
      << text;

  std::string want = compile_and_run(dir, "original", {"-fopenmp", cases});
  std::string got = compile_and_run(
      dir, "rewritten",
      {"-fopenmp", "-I" + out.string(), rewritten.string(), (out / "libf2s_cases.a").string()});
  expect_same_numbers(want, got);

  // The rewritten file has no region left: nothing to do, and nothing written.
  fs::path again = dir.path() / "again";
  ProcessResult rerun = f2stencil({"--no-tune", "-o", again.string(), rewritten.string()});
  EXPECT_EQ(rerun.exit_code, 0) << rerun.describe() << "\n" << rerun.err;
  EXPECT_NE(rerun.err.find("nothing to do"), std::string::npos) << rerun.err;
  EXPECT_NE(rerun.err.find("(6 regions are a call now)"), std::string::npos) << rerun.err;
  EXPECT_FALSE(fs::exists(again));
}

// Fixed form: a label DO nest that shares its label with a loop around it,
// an OpenMP directive continued on a second line, a call continued at
// column 72.
TEST(Rewrite, FixedFormCasesMatchTheOriginalProgram) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string fixed = source("tests/inputs/rewrite/fixed.f");
  std::string main = source("tests/inputs/rewrite/fixed_main.f90");
  ProcessResult r =
      f2stencil({"--rewrite", "--no-tune", "--target=c", "-q", "-o", out.string(), fixed});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  fs::path rewritten = out / "src" / "fixed.f";
  std::string text = test::read_file(rewritten);
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] != 'C' && line[0] != '!' && line.find('!') == std::string::npos) {
      EXPECT_LE(line.size(), 72u) << line;
    }
  }
  EXPECT_NE(text.find("   20 continue\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("\nC$OMP"), std::string::npos) << text;

  std::string want = compile_and_run(dir, "original", {fixed, main});
  std::string got = compile_and_run(
      dir, "rewritten",
      {"-I" + out.string(), rewritten.string(), main, (out / "libf2s_fixed.a").string()});
  expect_same_numbers(want, got);
}

// A file without a region is copied as it is, so that a build can compile
// DIR/src/ in place of its sources; --emit=ir writes nothing.
TEST(Rewrite, FilesWithoutARegionAreCopiedAndEmitWritesNothing) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string lap = test::example_source("laplacian");
  std::string main = source("examples/laplacian/main.f90");
  ProcessResult emit = f2stencil({"--rewrite", "--emit=ir", "-o", out.string(), lap, main});
  ASSERT_TRUE(emit.ok()) << emit.describe() << "\n" << emit.err;
  EXPECT_FALSE(fs::exists(out));
  ProcessResult r =
      f2stencil({"--rewrite", "--no-tune", "--target=c", "-q", "-o", out.string(), lap, main});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_EQ(test::read_file(out / "src" / "main.f90"), test::read_file(main));
  EXPECT_NE(test::read_file(out / "src" / "laplacian.f90"), test::read_file(lap));
}

} // namespace
} // namespace f2s
