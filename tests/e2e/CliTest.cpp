// What a user sees when something is wrong: one sentence with a position per
// problem, a nonzero exit, and no output directory.
#include "e2e/E2E.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>

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

// A dependence carried by one loop alone is run in order along it; carried
// by both, it is refused at the read that brings in the second loop.
TEST(Cli, RefusesADependenceCarriedByEveryLoop) {
  test::ScratchDir dir;
  expect_one_error(fail_on(dir, region("      a(i, j) = a(i-1, j) + a(i, j-1) + b(i, j)\n")),
                   "7:29",
                   "'a' is written at (i,j) and read at (i,j-1) in the same sweep, so the result "
                   "depends on the loop order; every loop of the nest carries a dependence ('j', "
                   "'i'), so none can run in parallel");
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

// Statements between the loops go through (canonicalize/SinkScalars), but
// not beside inner loops side by side, which are line buffers.
TEST(Cli, RefusesAStatementBesideLineBuffers) {
  test::ScratchDir dir;
  std::string src = "subroutine s(n, a, b)\n"
                    "  integer :: n, i, j\n"
                    "  real(8) :: a(n, n), b(n, n), row(n)\n"
                    "  !$f2s stencil\n"
                    "  do j = 1, n\n"
                    "    a(1, j) = 1d0\n"
                    "    do i = 1, n\n"
                    "      row(i) = a(i, j)\n"
                    "    end do\n"
                    "    do i = 1, n\n"
                    "      b(i, j) = row(i)\n"
                    "    end do\n"
                    "  end do\n"
                    "end subroutine\n";
  expect_one_error(fail_on(dir, src), "6:5", "are line buffers filled, then read");
}

TEST(Cli, RefusesADirectiveWithoutADoConstruct) {
  test::ScratchDir dir;
  std::string src = "subroutine s(n, a)\n"
                    "  integer :: n\n"
                    "  real(8) :: a(n)\n"
                    "  !$f2s stencil\n"
                    "  a(1) = 0d0\n"
                    "end subroutine\n";
  expect_one_error(fail_on(dir, src), "4:3", "DO construct or an array assignment");
}

TEST(Cli, RefusesAnUnknownClause) {
  test::ScratchDir dir;
  expect_one_error(fail_on(dir, region("      b(i, j) = a(i, j)\n", "!$f2s stencil fast(yes)")),
                   "4:17", "fast");
}

// The module would declare a procedure with a dummy argument of its own
// name, which gfortran refuses: refused before anything is written.
TEST(Cli, RefusesAKernelNamedLikeItsArgument) {
  test::ScratchDir dir;
  expect_one_error(fail_on(dir, region("      b(i, j) = a(i, j)\n", "!$f2s stencil name(a)")),
                   "4:3", "Kernel 'a' has the name of one of its arguments");
  std::string derived = "subroutine s(n, a, x_c)\n"
                        "  integer :: n, i\n"
                        "  real(8) :: a(n), x_c\n"
                        "  !$f2s stencil name(x)\n"
                        "  do i = 1, n\n"
                        "    a(i) = x_c\n"
                        "  end do\n"
                        "end subroutine\n";
  expect_one_error(fail_on(dir, derived, {"--target=c"}), "4:3",
                   "Argument 'x_c' of kernel 'x' has the name of the library's procedure 'x_c'; "
                   "choose another kernel name with name(...)");
}

// Names the module would declare beyond Fortran's 63 characters: the
// default name of a 63-character procedure, and `<K>_first_touch` of a
// 52-character name(...).
TEST(Cli, RefusesKernelNamesTooLongForTheModule) {
  test::ScratchDir dir;
  std::string proc(63, 'p');
  std::string src = region("      b(i, j) = a(i, j)\n");
  src.replace(src.find("subroutine s("), 13, "subroutine " + proc + "(");
  expect_one_error(fail_on(dir, src), "4:3",
                   "Kernel name '" + proc +
                       "_1' is too long: the library's module would declare '" + proc +
                       "_1_first_touch'");
  std::string name(52, 'k');
  expect_one_error(
      fail_on(dir, region("      b(i, j) = a(i, j)\n", "!$f2s stencil name(" + name + ")")), "4:3",
      "'" + name +
          "_first_touch', 64 characters where Fortran allows 63; choose a name of at "
          "most 51 characters with name(...)");
  // The CUDA target adds data procedures named after the library.
  Failure f = fail_on(dir, region("      b(i, j) = a(i, j)\n"),
                      {"--target=cuda", "--lib=" + std::string(34, 'l')});
  EXPECT_EQ(f.result.exit_code, 1);
  EXPECT_FALSE(f.wrote_output);
  EXPECT_NE(f.result.err.find("is too long for the CUDA target"), std::string::npos)
      << f.result.err;
  EXPECT_NE(f.result.err.find("choose one of at most 33 characters with --lib"), std::string::npos)
      << f.result.err;
}

// Every symbol the library exports is <lib>_<kernel><suffix>: a kernel named
// like another's first-touch procedure or size query, or like the CUDA
// library's data procedures, would export one symbol twice.
TEST(Cli, RefusesKernelNamesThatCollideWithAnotherExportedName) {
  test::ScratchDir dir;
  std::string two = region("      b(i, j) = a(i, j)\n", "!$f2s stencil name(k)");
  std::string second = region("      a(i, j) = b(i, j)\n", "!$f2s stencil name(k_first_touch)");
  second.replace(second.find("subroutine s("), 13, "subroutine t(");
  Failure f = fail_on(dir, two + second);
  EXPECT_EQ(f.result.exit_code, 1);
  EXPECT_FALSE(f.wrote_output);
  EXPECT_NE(f.result.err.find("bad.f90:14:3: error: The library would export 'k_first_touch' "
                              "twice (also for 'k' at "),
            std::string::npos)
      << f.result.err;
  // The box K_mpi runs its interior with (docs/mpi.md).
  second = region("      a(i, j) = b(i, j)\n", "!$f2s stencil name(k_box_tuned)");
  second.replace(second.find("subroutine s("), 13, "subroutine t(");
  f = fail_on(dir, two + second);
  EXPECT_NE(f.result.err.find("error: The library would export 'k_box_tuned' twice (also for 'k' "
                              "at "),
            std::string::npos)
      << f.result.err;
  expect_one_error(fail_on(dir,
                           region("      b(i, j) = a(i, j)\n", "!$f2s stencil name(data_exit)"),
                           {"--target=cuda", "--lib=m"}),
                   "4:3",
                   "Kernel name 'data_exit' is the name of the CUDA library's procedure "
                   "'m_data_exit'; choose another with name(...)");
}

// A module procedure named like its module is a module gfortran rejects
// with a page of errors; Fortran ignores case, so --lib=K is the kernel k's
// name too, and a time loop's procedure counts as a kernel's.
TEST(Cli, RefusesALibraryNamedLikeAProcedure) {
  test::ScratchDir dir;
  expect_one_error(
      fail_on(dir, region("      b(i, j) = a(i, j)\n", "!$f2s stencil name(k)"), {"--lib=K"}),
      "4:3",
      "Kernel name 'k' is also the library's module name 'K'; choose another with name(...) "
      "or another --lib");
  std::string loop = "subroutine s(n, nt, a, b)\n"
                     "  integer :: n, nt, i, it\n"
                     "  real(8) :: a(0:n+1), b(0:n+1)\n"
                     "  !$f2s stencil timesteps name(steps)\n"
                     "  do it = 1, nt\n"
                     "    do i = 1, n\n"
                     "      b(i) = a(i-1) + a(i+1)\n"
                     "    end do\n"
                     "    do i = 1, n\n"
                     "      a(i) = b(i)\n"
                     "    end do\n"
                     "  end do\n"
                     "end subroutine\n";
  Failure f = fail_on(dir, loop, {"--no-tune", "--lib=steps"});
  EXPECT_EQ(f.result.exit_code, 1) << f.result.describe();
  EXPECT_FALSE(f.wrote_output);
  EXPECT_NE(f.result.err.find("bad.f90:4:3: error: Time loop name 'steps' is also the library's "
                              "module name 'steps'"),
            std::string::npos)
      << f.result.err;
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
                                             {"--tune-size=4,4,4:8,8,8:4,4,4", good},
                                             {"--tune-size=4,4,4:8,8", good},
                                             {"--tune-size=8,4,4:4,8,4", good},
                                             {"--tune-size=4,4:8,8", good},
                                             {"--march=no-such-cpu", good},
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

// A library built on a login node for compute nodes of another kind: the
// C is compiled for the CPU named, and the record says so.
TEST(Cli, MarchNamesTheCpuTheLibraryIsCompiledFor) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--target=c", "--no-tune", "--march=x86-64-v2", "-q", "-o",
                               out.string(), test::source("examples/laplacian/laplacian.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  std::ifstream record(out / "f2s_laplacian.json");
  nlohmann::json j = nlohmann::json::parse(record);
  EXPECT_EQ(j["cflags"], nlohmann::json::array({"-march=x86-64-v2"})) << j["cflags"];
}

TEST(Cli, SeveralTuneSizesErrorsSayWhatIsWrong) {
  std::string good = test::source("examples/laplacian/laplacian.f90");
  auto error_of = [&](const std::string &option) {
    ProcessResult r = f2stencil({option, "--emit=ir", good});
    EXPECT_EQ(r.exit_code, 1) << option;
    return r.err;
  };
  EXPECT_EQ(error_of("--tune-size=4,4,4:8,8,8:4,4,4"),
            "f2stencil: error: --tune-size lists the size '4,4,4' twice; give each size once\n");
  EXPECT_EQ(error_of("--tune-size=8,4,4:4,8,4"),
            "f2stencil: error: --tune-size sizes '4,8,4' and another have as many points, and "
            "the library tells sizes apart by their working set; give one of them another "
            "number of points\n");
  EXPECT_EQ(error_of("--tune-size=4,4,4:8,8"),
            "f2stencil: error: --tune-size has a size of 2 values, but the nests of this run have "
            "3 loops; give each size one value per loop, innermost first\n");
  // Separated by ';' as in the directive, the sizes are the same.
  ProcessResult r = f2stencil({"--tune-size=4,4,4;8,8,8", "--emit=ir", good});
  EXPECT_TRUE(r.ok()) << r.err;
}

TEST(Cli, HelpListsTheOptions) {
  ProcessResult r = f2stencil({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char *opt :
       {"--target", "--no-tune", "--emit", "--lib", "-o", "--tuning-db", "--retune", "--version"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

TEST(Cli, VersionNamesFlangAndLlvm) {
  ProcessResult r = f2stencil({"--version"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("f2stencil " F2S_VERSION "\n", 0), 0u) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("\nbuilt with Flang and LLVM [0-9]+\\.[0-9]+")))
      << r.out;
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

// --emit=sources writes what a build of the library compiles and stops: with
// no compiler to be found (PATH empty, $NVCC a path where nothing is), every
// target, --mpi and --rewrite, and no --no-tune, the output directory holds
// the C (the text --emit=c prints), the header, the module's source, the
// CUDA, the MPI part and the rewritten file, and nothing compiled: no
// library, no .mod, no record, no report. The directory is replaced whole
// as a build's is, and an error writes nothing.
TEST(Cli, EmitsTheSourcesWithoutCompilingOrTuning) {
  test::ScratchDir dir;
  const std::string f2s = std::string(F2S_BINARY_DIR) + "/driver/f2stencil";
  const std::vector<std::pair<std::string, std::string>> no_tools = {
      {"PATH", (dir.path() / "no-bin").string()},
      {"NVCC", (dir.path() / "no-bin" / "nvcc").string()},
      {"XDG_CACHE_HOME", (dir.path() / "cache").string()}};
  std::string src = test::source("tests/inputs/mpi/smooth2d.f90");
  fs::path out = dir.path() / "out";
  ProcessResult r = test::run({f2s, "--emit=sources", "--target=c,pthreads,cuda", "--mpi",
                               "--rewrite", "-o", out.string(), src},
                              no_tools);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("f2stencil: --emit=sources: nothing is tuned; each target's default "
                       "variant is written, as with --no-tune\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("f2stencil: wrote " + out.string() +
                       "/: f2s_smooth2d.c, f2s_smooth2d.h, f2s_smooth2d.f90, "
                       "f2s_smooth2d_cuda.cu, f2s_smooth2d_mpi.c, src/ (the sources, rewritten); "
                       "nothing compiled"),
            std::string::npos)
      << r.err;
  std::set<std::string> written;
  for (const auto &e : fs::recursive_directory_iterator(out))
    written.insert(fs::relative(e.path(), out).string());
  EXPECT_EQ(written, (std::set<std::string>{".f2stencil", "f2s_smooth2d.c", "f2s_smooth2d.h",
                                            "f2s_smooth2d.f90", "f2s_smooth2d_cuda.cu",
                                            "f2s_smooth2d_mpi.c", "src", "src/smooth2d.f90"}));
  EXPECT_FALSE(fs::exists(dir.path() / "cache")) << "nothing is tuned, so no tuning cache";
  ProcessResult c = test::run(
      {f2s, "--emit=c", "--target=c,pthreads,cuda", "--mpi", "-o", out.string(), src}, no_tools);
  ASSERT_TRUE(c.ok()) << c.err;
  EXPECT_TRUE(c.out == test::read_file(out / "f2s_smooth2d.c")) << "--emit=c prints other C";
  EXPECT_NE(test::read_file(out / "f2s_smooth2d.f90").find("module f2s_smooth2d"),
            std::string::npos);
  EXPECT_NE(test::read_file(out / "src" / "smooth2d.f90").find("call smooth("), std::string::npos);

  // Again with the CPU targets only: the directory is replaced whole.
  r = test::run({f2s, "--emit=sources", "-q", "-o", out.string(), src}, no_tools);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::exists(out / "f2s_smooth2d.c"));
  EXPECT_FALSE(fs::exists(out / "f2s_smooth2d_cuda.cu"));
  EXPECT_FALSE(fs::exists(out / "src"));

  // Refused: a directory f2stencil did not write, and a region in error.
  fs::path theirs = dir.path() / "theirs";
  fs::create_directories(theirs);
  dir.write("theirs/keep.txt", "mine\n");
  r = test::run({f2s, "--emit=sources", "-q", "-o", theirs.string(), src}, no_tools);
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_NE(r.err.find("exists and was not written by f2stencil"), std::string::npos) << r.err;
  EXPECT_EQ(std::distance(fs::directory_iterator(theirs), fs::directory_iterator()), 1);
  fs::remove_all(out);
  expect_one_error(
      fail_on(dir, region("      a(i, j) = a(i-1, j) + a(i, j-1) + b(i, j)\n"), {"--emit=sources"}),
      "7:29", "'a' is written at (i,j) and read at (i,j-1) in the same sweep");
}

// -D and -I take one value each, attached or not, as compilers take them:
// the files after them are files.
TEST(Cli, DefineAndIncludeTakeOneValueEach) {
  test::ScratchDir dir;
  std::string a = dir.write("a.f90", R"(subroutine sa(n, a, b)
  integer :: n, i
  real(8) :: a(n), b(n)
#if FOO == 2
  !$f2s stencil name(foo_two)
#elif defined(FOO)
  !$f2s stencil name(with_foo)
#else
  !$f2s stencil name(without_foo)
#endif
  do i = 2, n - 1
    b(i) = a(i-1) + a(i+1)
  end do
end subroutine
)");
  fs::create_directories(dir.path() / "inc");
  dir.write("inc/weights.inc", "  real(8), parameter :: w = 0.5d0\n");
  std::string b = dir.write("b.f90", R"(subroutine sb(n, a, b)
  integer :: n, i
  real(8) :: a(n), b(n)
  include 'weights.inc'
  !$f2s stencil name(from_b)
  do i = 2, n - 1
    b(i) = w*(a(i-1) + a(i+1))
  end do
end subroutine
)");
  std::string inc = (dir.path() / "inc").string();
  struct Case {
    std::vector<std::string> args;
    const char *kernel;
  };
  const Case cases[] = {
      {{"-DFOO", "-I", inc, a, b}, "with_foo"},   {{"-D", "FOO", "-I" + inc, a, b}, "with_foo"},
      {{"-DFOO=2", "-I" + inc, a, b}, "foo_two"}, {{"-D", "FOO=2", "-I", inc, a, b}, "foo_two"},
      {{"-I", inc, a, b, "-DFOO"}, "with_foo"},   {{"-I" + inc, a, b}, "without_foo"},
      {{a, "-DFOO", b, "-I", inc}, "with_foo"},
  };
  for (const Case &c : cases) {
    std::vector<std::string> args = c.args;
    std::string shown;
    for (const std::string &arg : args)
      shown += arg + " ";
    args.insert(args.begin(), "--emit=ir");
    ProcessResult r = f2stencil(args);
    ASSERT_TRUE(r.ok()) << shown << r.describe() << "\n" << r.err;
    EXPECT_NE(r.out.find(std::string("kernel ") + c.kernel + "("), std::string::npos)
        << shown << r.out;
    EXPECT_NE(r.out.find("kernel from_b("), std::string::npos) << shown << r.out;
  }
}

/// Free-form source that fixed form cannot read: code from column 1, `&`
/// continuations.
const char *kFreeForm = R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(0:n+1, 0:n+1), b(0:n+1, 0:n+1)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      b(i, j) = a(i-1, j) + a(i+1, j) &
              + a(i, j-1) + a(i, j+1)
    end do
  end do
end subroutine
)";

/// Fixed-form source that free form cannot read: a comment in column 1,
/// a continuation in column 6, blanks inside a name.
const char *kFixedForm = R"(      SUBROUTINE S(N, A, B)
C     A 2D average, written for a card reader.
      INTEGER N, I, J
      REAL*8 A(0:N+1, 0:N+1), B(0:N+1, 0:N+1)
C$F2S STENCIL
      DO 10 J = 1, N
      DO 10 I = 1, N
         B(I, J) = A(I-1, J) + A(I+1, J)
     &           + A(I, J-1) + A(I, J+1)
   10 CONT INUE
      END
)";

// The form follows the extension unless --free-form or --fixed-form (or
// gfortran's -ffree-form, -ffixed-form) says otherwise, for every file; a
// parse error names the form and the option.
TEST(Cli, SourceFormOptionsOverrideTheExtension) {
  test::ScratchDir dir;
  std::string free_in_f = dir.write("free.F", kFreeForm);
  std::string fixed_in_f90 = dir.write("fixed.f90", kFixedForm);
  ProcessResult r = f2stencil({"--emit=ir", free_in_f});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("free.F:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" (the file was read as fixed form because of its extension '.F'; pass "
                       "--free-form if it is free form)\n"),
            std::string::npos)
      << r.err;
  r = f2stencil({"--emit=ir", fixed_in_f90});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(" (the file was read as free form because of its extension '.f90'; pass "
                       "--fixed-form if it is fixed form)\n"),
            std::string::npos)
      << r.err;
  for (const char *option : {"--free-form", "-ffree-form"}) {
    r = f2stencil({"--emit=ir", option, free_in_f});
    EXPECT_TRUE(r.ok()) << option << ": " << r.err;
    EXPECT_NE(r.out.find("kernel s_1("), std::string::npos) << r.out;
  }
  for (const char *option : {"--fixed-form", "-ffixed-form"}) {
    r = f2stencil({"--emit=ir", option, fixed_in_f90});
    EXPECT_TRUE(r.ok()) << option << ": " << r.err;
    EXPECT_NE(r.out.find("kernel s_1("), std::string::npos) << r.out;
  }
  // The option is for every file: a free-form file fails as fixed form, and
  // the message says which option made it so.
  r = f2stencil({"--emit=ir", "--fixed-form", fixed_in_f90, dir.write("free.f90", kFreeForm)});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("free.f90:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" (the file was read as fixed form, as --fixed-form asks)\n"),
            std::string::npos)
      << r.err;
  r = f2stencil({"--emit=ir", "--free-form", "--fixed-form", free_in_f});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
}

// A missing INCLUDE file or #include: at the line that includes it, naming
// the file and -I.
TEST(Cli, AMissingIncludeNamesTheFileAndMinusI) {
  test::ScratchDir dir;
  for (const char *line : {"  include 'weights.inc'", "#include \"weights.inc\""}) {
    std::string src = std::string("subroutine s(n, a, b)\n"
                                  "  integer :: n, i\n"
                                  "  real(8) :: a(n), b(n)\n") +
                      line +
                      "\n"
                      "  !$f2s stencil\n"
                      "  do i = 2, n - 1\n"
                      "    b(i) = w*(a(i-1) + a(i+1))\n"
                      "  end do\n"
                      "end subroutine\n";
    Failure f = fail_on(dir, src);
    expect_one_error(f, line[0] == '#' ? "4:1" : "4:3",
                     std::string("Cannot find ") + (line[0] == '#' ? "#include" : "INCLUDE") +
                         " file 'weights.inc' in the including file's folder or a folder given "
                         "with -I; add its folder with -I");
  }
}

// --emit=ir says which loop runs in order, why, and which way.
TEST(Cli, EmitsTheOrderedLoopInTheIr) {
  test::ScratchDir dir;
  ProcessResult ir = f2stencil({"--emit=ir", "-o", (dir.path() / "out").string(),
                                test::source("examples/tridiag_column/tridiag_column.f90")});
  ASSERT_TRUE(ir.ok()) << ir.err;
  EXPECT_NE(ir.out.find("  ordered k: 'cp' is written at (i,j,k) and read at (i,j,k-1) in the "
                        "same sweep\n"),
            std::string::npos)
      << ir.out;
  EXPECT_NE(ir.out.find("  ordered k: 'q' is written at (i,j,k) and read at (i,j,k+1) in the "
                        "same sweep\n"),
            std::string::npos)
      << ir.out;
  EXPECT_NE(ir.out.find("reverse for k = 1, nz - 1 {"), std::string::npos) << ir.out;
}

// A sum of 40,000 terms fits the 100,000 characters a statement may have; its
// IR is 40,000 levels deep, and every printer recurses once per level: the
// driver ran them on the main thread's 8 MiB stack and crashed (SIGSEGV).
TEST(Cli, ASumAsLongAsAStatementMayBeIsPrinted) {
  test::ScratchDir dir;
  std::string sum = "s";
  for (int t = 1; t < 40000; ++t)
    sum += t % 60 ? "+s" : " &\n      & +s";
  fs::path file = dir.path() / "sum.f90";
  std::ofstream(file) << "subroutine total(n, s, b)\n"
                      << "  integer :: n, i\n"
                      << "  real(8) :: s, b(n)\n"
                      << "  !$f2s stencil name(total)\n"
                      << "  do i = 1, n\n"
                      << "    b(i) = " << sum << "\n"
                      << "  end do\n"
                      << "end subroutine\n";
  for (const char *emit : {"--emit=ir", "--emit=c"}) {
    ProcessResult r = f2stencil({emit, "-o", (dir.path() / "out").string(), file.string()});
    EXPECT_TRUE(r.ok()) << emit << ": " << r.describe() << r.err;
    EXPECT_NE(r.out.find("s + s + s"), std::string::npos) << emit;
  }
}

/// "line:col" of the first `needle` in `text`.
std::string position(const std::string &text, const std::string &needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos)
    return "<'" + needle + "' not in the source>";
  size_t line_start = text.rfind('\n', at);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  int line = static_cast<int>(std::count(text.begin(), text.begin() + at, '\n')) + 1;
  return std::to_string(line) + ":" + std::to_string(at - line_start + 1);
}

// A user fixing one real routine met four refusals in four runs: now one run
// reports every independent problem of every region of every file, each at
// its position and with its fix, and writes nothing.
TEST(Cli, ReportsEveryProblemOfEveryRegionOfEveryFileInOneRun) {
  test::ScratchDir dir;
  const std::string relax = R"(subroutine relax(n, m, nb, w, u, v, f)
  implicit none
  integer :: n, m, nb, i, j, k
  real(8) :: w, r, s
  real(8) :: u(0:n+1, 0:n+1, 0:n+1), v(0:n+1, 0:n+1, 0:n+1), f(0:n+1, 0:n+1, 0:n+1)
  !$f2s stencil name(relax_point)
  do k = 1, n
    do j = 1, n
      do i = 1, n
        r = u(m*i, j, k) - u(i-1, j, k)
        s = erf(r)
        call clip(s)
        v(i, j, k) = w*s + q*f(i, j, k)
      end do
    end do
  end do
  !$f2s stencil name(relax_fill)
  do k = 1, n
    do j = 1, n
      do i = 1, n, nb
        f(i, j, k) = 0.5d0*v(i, j, k)
      end do
    end do
  end do
end subroutine
)";
  // A time loop around the nest, and a sweep in which every loop carries a
  // dependence: both refused by the analysis of what lowered.
  const std::string sweep = R"(subroutine sweep(n, nt, a, b)
  integer :: n, nt, i, j, k, it
  real(8) :: a(n, n, n), b(n, n, n)
  !$f2s stencil name(sweep_steps)
  do it = 1, nt
    do k = 1, n
      do j = 1, n
        do i = 1, n
          b(i, j, k) = 0.25d0*a(i, j, k)
        end do
      end do
    end do
  end do
  !$f2s stencil name(sweep_planes)
  do k = 2, n
    do j = 2, n
      do i = 2, n
        a(i, j, k) = a(i-1, j, k) + a(i, j-1, k) + a(i, j, k-1) + b(i, j, k)
      end do
    end do
  end do
end subroutine
)";
  std::string relax_path = dir.write("relax.f90", relax);
  std::string sweep_path = dir.write("sweep.f90", sweep);
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"-q", "-o", out.string(), relax_path, sweep_path});
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(r.out, "");
  const std::string region = "'!$f2s stencil' region";
  std::vector<std::string> lines;
  std::istringstream err(r.err);
  for (std::string l; std::getline(err, l);)
    lines.push_back(l + "\n");
  ASSERT_EQ(lines.size(), 7u) << r.err;
  auto line = [](const std::string &path, const std::string &text, const std::string &needle,
                 const std::string &message) {
    return path + ":" + position(text, needle) + ": error: " + message + "\n";
  };
  EXPECT_EQ(lines[0], line(relax_path, relax, "m*i",
                           "Subscript 'm*i' of 'u' is not an integer multiple of a loop "
                           "variable plus a constant; make 'm' a named constant (PARAMETER)"));
  EXPECT_EQ(lines[1],
            line(relax_path, relax, "erf",
                 "'erf' is an unknown function, so what it reads and writes cannot be known; "
                 "inside a '!$f2s stencil' region only the elementary intrinsics (SQRT, EXP, "
                 "LOG, LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH), ABS, "
                 "SIGN, MIN, MAX, MOD, MERGE, the conversions (REAL, DBLE, FLOAT, INT, NINT, "
                 "FLOOR, CEILING, AINT, ANINT) and their specific names (DSQRT, AMAX1, ...) "
                 "are allowed; declare 'erf' if it is an array, or write the function's "
                 "computation inline"));
  EXPECT_EQ(lines[2], line(relax_path, relax, "call clip",
                           "A CALL statement is not allowed inside a " + region +
                               "; write the subroutine's computation inline"));
  EXPECT_EQ(lines[3], line(relax_path, relax, "q*",
                           "'q' is not declared and IMPLICIT NONE is in force; declare it"));
  EXPECT_EQ(lines[4], line(relax_path, relax, "nb\n",
                           "The step of the DO loop over 'i' must be a positive INTEGER constant "
                           "or -1 in a " +
                               region + "; make 'nb' a named constant (PARAMETER)"));
  EXPECT_EQ(lines[5], line(sweep_path, sweep, "b(i, j, k) =",
                           "Assignment to 'b(i, j, k)' has no subscript in loop variable 'it', so "
                           "every point of the DO loop over 'it' writes the same element; the DO "
                           "loop over 'it' only repeats what it holds, so annotate the nest inside "
                           "it instead, or make it a time loop ('!$f2s stencil timesteps', "
                           "docs/time-loops.md)"));
  // The dependence's wording is the analysis's; its position is one of the
  // statement's reads, and no loop can be the ordered one.
  std::string statement = position(sweep, "a(i-1, j, k)");
  EXPECT_EQ(lines[6].rfind(sweep_path + ":" + statement.substr(0, statement.find(':')) + ":", 0),
            0u)
      << lines[6];
  EXPECT_NE(lines[6].find(": error: 'a' is written at (i,j,k) and read at "), std::string::npos)
      << lines[6];
  EXPECT_NE(lines[6].find("every loop of the nest carries a dependence"), std::string::npos)
      << lines[6];
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

// Tuning on a terminal redraws one live line per kernel and target (counts,
// best so far, elapsed, ETA); in a pipe every candidate gets a plain line and
// no control character reaches the log.
TEST(Cli, TuningProgressIsALiveLineOnATerminalAndPlainLinesInAPipe) {
  test::ScratchDir dir;
  std::string src = dir.write("lap.f90", test::kJacobi2D);
  std::vector<std::string> args = {std::string(F2S_BINARY_DIR) + "/driver/f2stencil",
                                   "--target=pthreads",
                                   "--reps=1",
                                   "--budget=2",
                                   "-o",
                                   (dir.path() / "piped").string(),
                                   src};
  // Tuning caches of their own, each holding only the host's bounds, which
  // the terminal's line compares the best so far with.
  std::string cache = test::seeded_cache(), cache2 = test::seeded_cache();
  ProcessResult piped = test::run(args, {{"XDG_CACHE_HOME", cache}});
  ASSERT_TRUE(piped.ok()) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos);
  EXPECT_EQ(piped.err.find('\033'), std::string::npos);
  EXPECT_NE(piped.err.find("'jac' [1] "), std::string::npos) << piped.err;

  // script(1) gives f2stencil a terminal (util-linux, in every Debian).
  std::string command;
  args[args.size() - 2] = (dir.path() / "terminal").string();
  for (const std::string &a : args)
    command += (command.empty() ? "" : " ") + a;
  ProcessResult tty =
      test::run({"script", "-qefc", command, "/dev/null"}, {{"XDG_CACHE_HOME", cache2}});
  fs::remove_all(cache);
  fs::remove_all(cache2);
  ASSERT_TRUE(tty.ok()) << tty.out << tty.err;
  EXPECT_NE(tty.out.find("\r\033[Kf2stencil: 'jac' pthreads: 1/"), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find(" verified, best "), std::string::npos) << tty.out;
  EXPECT_NE(tty.out.find(" elapsed, ETA <= "), std::string::npos) << tty.out;
  // The best so far against the host's measured bandwidth.
  EXPECT_TRUE(std::regex_search(tty.out, std::regex(" GB/s \\([0-9]+% of [0-9.]+\\)"))) << tty.out;
  EXPECT_EQ(tty.out.find("'jac' [1] "), std::string::npos) << tty.out;
}

// --candidates keeps the candidates whose description matches, says how many
// it left out, and refuses a pattern that is no regular expression or
// matches nothing.
TEST(Cli, CandidatesRestrictTheTunedSpace) {
  test::ScratchDir dir;
  std::string src = dir.write("lap.f90", test::kJacobi2D);
  fs::path out = dir.path() / "lib";
  ProcessResult r = test::f2stencil({"--target=pthreads", "--reps=1", "--candidates",
                                     "^pthreads/parallel t=[12]$", "-o", out.string(), src});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json record = nlohmann::json::parse(std::ifstream(out / "f2s_lap.json"));
  const nlohmann::json &kj = record["kernels"][0];
  ASSERT_FALSE(kj["candidates"].empty());
  for (const nlohmann::json &c : kj["candidates"])
    EXPECT_TRUE(
        std::regex_match(c["id"].get<std::string>(), std::regex("pthreads/parallel t=[12]")))
        << c["id"];
  EXPECT_GT(kj["search"]["pruned"]["not matching --candidates"].get<size_t>(), 0u);

  r = test::f2stencil(
      {"--target=pthreads", "--candidates", "cx=7777", "-o", (dir.path() / "none").string(), src});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("no candidate of 'jac' matches --candidates 'cx=7777'"), std::string::npos)
      << r.err;
  EXPECT_FALSE(fs::exists(dir.path() / "none"));
  r = test::f2stencil(
      {"--target=pthreads", "--candidates", "t=(", "-o", (dir.path() / "bad").string(), src});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.err.find("not a regular expression"), std::string::npos) << r.err;
}

} // namespace
} // namespace f2s
