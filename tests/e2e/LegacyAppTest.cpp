// examples/shallow_water, the legacy application, built three ways: (a) as
// is, with its Makefile and gfortran; (b) as a CMake project that finds an
// installed f2stencil (find_package) and builds with f2stencil_add_library(...
// REWRITE); (c) with its Makefile through the installed Make recipe with
// F2S_REWRITE=yes. Each of (b) and (c) must write what (a) writes.
//
// f2stencil is installed into a scratch prefix with `cmake --install` of this
// build tree, so the package, the recipe and the binary are tested as a user
// gets them. Nothing is tuned (--no-tune): the library is the plain parallel
// nest on every processor, which is what must match.
#include "e2e/E2E.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

namespace f2s {
namespace {

namespace fs = std::filesystem;

ProcessResult run_in(const fs::path &dir, std::vector<std::string> argv,
                     std::vector<std::pair<std::string, std::string>> env = {}) {
  Command c;
  c.argv = std::move(argv);
  c.cwd = dir.string();
  c.env = std::move(env);
  c.timeout_s = 600;
  return run_process(c);
}

std::string report(const ProcessResult &r) {
  return r.describe() + ":\n" + r.out + r.err;
}

/// A copy of the example's files (sources, Makefile, CMakeLists.txt) in
/// `dir`, so that each build starts from the files alone.
fs::path copy_example(const fs::path &dir) {
  fs::path app = dir;
  fs::create_directories(app);
  for (const auto &e : fs::directory_iterator(test::source("examples/shallow_water")))
    if (e.is_regular_file())
      fs::copy_file(e.path(), app / e.path().filename());
  return app;
}

/// `cmake --install` of this build tree into `prefix`.
void install(const fs::path &prefix) {
  ProcessResult r =
      test::run({F2S_CMAKE_COMMAND, "--install", F2S_BINARY_DIR, "--prefix", prefix.string()});
  ASSERT_TRUE(r.ok()) << report(r);
}

/// What one run of the model wrote: the binary snapshots and the text log.
struct Output {
  std::string snapshots, log;
};

/// Runs `exe` in `dir` with `threads` threads in the library. OpenMP's threads
/// wait passively: spinning on a machine shared with the rest of the suite
/// costs seconds.
Output run_model(const fs::path &dir, const fs::path &exe, int threads) {
  fs::remove(dir / "sw2d.dat");
  fs::remove(dir / "sw2d.log");
  ProcessResult r =
      run_in(dir, {exe.string()},
             {{"F2S_NUM_THREADS", std::to_string(threads)}, {"OMP_WAIT_POLICY", "passive"}});
  EXPECT_TRUE(r.ok()) << report(r);
  return {test::read_file(dir / "sw2d.dat"), test::read_file(dir / "sw2d.log")};
}

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out.push_back(line);
  return out;
}

/// The log with the library's sums added in another order than gfortran's:
/// every line's step, time and time step are the same text (the time step
/// comes from a MAX, which is exact in any order), and mass and energy agree
/// to a few roundings.
void expect_log_matches_to_rounding(const std::string &expected, const std::string &actual) {
  std::vector<std::string> want = lines(expected), got = lines(actual);
  ASSERT_EQ(want.size(), got.size());
  ASSERT_GT(want.size(), 1u);
  EXPECT_EQ(want[0], got[0]);
  for (size_t n = 1; n < want.size(); ++n) {
    std::istringstream w(want[n]), g(got[n]);
    std::string wstep, wtime, wdt, gstep, gtime, gdt;
    double wmass = 0, wenergy = 0, gmass = 0, genergy = 0;
    w >> wstep >> wtime >> wdt >> wmass >> wenergy;
    g >> gstep >> gtime >> gdt >> gmass >> genergy;
    ASSERT_FALSE(w.fail() || g.fail()) << want[n] << "\n" << got[n];
    EXPECT_EQ(wstep + " " + wtime + " " + wdt, gstep + " " + gtime + " " + gdt) << "line " << n;
    EXPECT_LE(std::abs(gmass - wmass), 1e-12 * std::abs(wmass)) << want[n] << "\n" << got[n];
    EXPECT_LE(std::abs(genergy - wenergy), 1e-12 * std::abs(wenergy)) << want[n] << "\n" << got[n];
  }
}

/// The model built from `exe` writes what the model as is (`as_is`) writes:
/// with one library thread everything is bitwise the same, the sums included
/// (the same additions in the same order); with three, the snapshots still
/// are, and the sums agree to rounding.
void expect_same_output(const fs::path &as_is_dir, const fs::path &dir, const fs::path &exe) {
  Output want = run_model(as_is_dir, as_is_dir / "sw2d", 1);
  ASSERT_FALSE(want.snapshots.empty());
  Output one = run_model(dir, exe, 1);
  EXPECT_TRUE(one.snapshots == want.snapshots) << "sw2d.dat differs with one thread";
  EXPECT_EQ(one.log, want.log);
  Output three = run_model(dir, exe, 3);
  EXPECT_TRUE(three.snapshots == want.snapshots) << "sw2d.dat differs with three threads";
  expect_log_matches_to_rounding(want.log, three.log);
}

/// Every annotated nest of the example became a CALL of its kernel in the
/// rewritten files, and the OpenMP directives around nests went with them.
void expect_rewritten(const fs::path &src) {
  std::string text = test::read_file(src / "sw_dynamics.f90") + test::read_file(src / "sw2d.F");
  std::string lower;
  for (char c : text)
    lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char *kernel : {"sw_xflux", "sw_yflux", "sw_advance", "sw_waves", "sw_diag"})
    EXPECT_NE(lower.find("call " + std::string(kernel) + "("), std::string::npos) << kernel;
  // A directive starts its line; the call's comment may name the one removed.
  for (const std::string &line : lines(lower)) {
    size_t start = line.find_first_not_of(' ');
    EXPECT_FALSE(start != std::string::npos && line.compare(start, 5, "!$omp") == 0) << line;
  }
}

/// (a): the example as is, with its own Makefile.
void build_as_is(const fs::path &dir) {
  ProcessResult r = run_in(dir, {"make", "-j2"});
  ASSERT_TRUE(r.ok()) << report(r);
}

TEST(LegacyApp, MakeRecipeWithRewriteMatchesTheModelAsIs) {
  test::ScratchDir scratch;
  fs::path prefix = scratch.path() / "prefix";
  ASSERT_NO_FATAL_FAILURE(install(prefix));
  fs::path as_is = copy_example(scratch.path() / "as_is");
  ASSERT_NO_FATAL_FAILURE(build_as_is(as_is));

  fs::path app = copy_example(scratch.path() / "make");
  std::vector<std::string> make = {"make", "F2S_HOME=" + prefix.string(), "TUNING=--no-tune",
                                   "-j2"};
  ProcessResult r = run_in(app, make);
  ASSERT_TRUE(r.ok()) << report(r);
  expect_rewritten(app / "f2s_swlib" / "src");
  expect_same_output(as_is, app, app / "sw2d");

  // Up to date: nothing to do, f2stencil included, until a source or an
  // option changes.
  std::vector<std::string> question = make;
  question.push_back("-q");
  EXPECT_EQ(run_in(app, question).exit_code, 0) << "make -q: not up to date with nothing changed";
  fs::last_write_time(app / "sw2d.F", fs::file_time_type::clock::now());
  EXPECT_EQ(run_in(app, question).exit_code, 1) << "make -q: up to date after a source changed";
  ASSERT_TRUE(run_in(app, make).ok());
  question[2] = "TUNING=--no-tune -q";
  EXPECT_EQ(run_in(app, question).exit_code, 1) << "make -q: up to date after an option changed";
}

TEST(LegacyApp, CMakePackageWithRewriteMatchesTheModelAsIs) {
  test::ScratchDir scratch;
  fs::path prefix = scratch.path() / "prefix";
  ASSERT_NO_FATAL_FAILURE(install(prefix));
  fs::path as_is = copy_example(scratch.path() / "as_is");
  ASSERT_NO_FATAL_FAILURE(build_as_is(as_is));

  // The Makefile's flags (-O2 -fopenmp, the macros in CMakeLists.txt), so
  // that gfortran compiles the same code both ways.
  fs::path app = copy_example(scratch.path() / "cmake");
  fs::path build = scratch.path() / "cmake-build";
  ProcessResult r = test::run({F2S_CMAKE_COMMAND, "-S", app.string(), "-B", build.string(), "-G",
                               F2S_CMAKE_GENERATOR, "-DCMAKE_PREFIX_PATH=" + prefix.string(),
                               "-DCMAKE_BUILD_TYPE=", "-DCMAKE_Fortran_FLAGS=-O2",
                               "-DSW2D_F2S_OPTIONS=--no-tune"});
  ASSERT_TRUE(r.ok()) << report(r);
  std::vector<std::string> cmake_build = {F2S_CMAKE_COMMAND, "--build", build.string()};
  r = test::run(cmake_build);
  ASSERT_TRUE(r.ok()) << report(r);
  expect_rewritten(build / "f2stencil" / "swlib" / "src");
  expect_same_output(as_is, build, build / "sw2d");

  // f2stencil runs again only when a source or an option changed.
  fs::path marker = build / "f2stencil" / "swlib" / ".f2stencil";
  auto written = fs::last_write_time(marker);
  r = test::run(cmake_build);
  ASSERT_TRUE(r.ok()) << report(r);
  EXPECT_EQ(fs::last_write_time(marker), written) << "f2stencil ran with nothing changed";
  fs::last_write_time(app / "sw_dynamics.f90", fs::file_time_type::clock::now());
  r = test::run(cmake_build);
  ASSERT_TRUE(r.ok()) << report(r);
  EXPECT_NE(fs::last_write_time(marker), written) << "f2stencil did not run for a changed source";
  written = fs::last_write_time(marker);
  r = test::run({F2S_CMAKE_COMMAND, "-DSW2D_F2S_OPTIONS=--no-tune -q", build.string()});
  ASSERT_TRUE(r.ok()) << report(r);
  r = test::run(cmake_build);
  ASSERT_TRUE(r.ok()) << report(r);
  EXPECT_NE(fs::last_write_time(marker), written) << "f2stencil did not run for a changed option";
  expect_same_output(as_is, build, build / "sw2d");
}

/// Mistakes in a project's call are reported when it is configured, each
/// with what to change. The project enables no language: the checks come
/// before anything is compiled.
TEST(F2stencilPackage, RefusesABadCallWhenConfiguring) {
  test::ScratchDir scratch;
  fs::path prefix = scratch.path() / "prefix";
  ASSERT_NO_FATAL_FAILURE(install(prefix));
  struct Case {
    std::string call, message;
  };
  const std::vector<Case> cases = {
      {"f2stencil_add_library(k SOURCES a.f90 TARGETS gpu)",
       "unknown target 'gpu' in TARGETS; the targets are c, pthreads and cuda"},
      {"f2stencil_add_library(k SOURCES a.f90 sub/a.f90 REWRITE)",
       "two SOURCES are named 'a.f90', but f2stencil writes the rewritten files into one folder "
       "by their names; rename one"},
      {"f2stencil_add_library(my-lib SOURCES a.f90)", "so it must be a Fortran identifier"},
      {"f2stencil_add_library(k SOURCES a.f90 TUNE_SIZE 64 x)",
       "TUNE_SIZE wants positive integers, innermost loop first"},
      {"f2stencil_add_library(k a.f90)", "unknown arguments 'a.f90'"},
      {"f2stencil_add_library(k TARGETS c)", "SOURCES is required"},
  };
  for (size_t n = 0; n < cases.size(); ++n) {
    fs::path project = scratch.path() / ("project" + std::to_string(n));
    fs::create_directories(project);
    std::ofstream(project / "CMakeLists.txt")
        << "cmake_minimum_required(VERSION 3.20)\nproject(p NONE)\n"
        << "find_package(f2stencil REQUIRED)\n"
        << cases[n].call << "\n";
    ProcessResult r =
        test::run({F2S_CMAKE_COMMAND, "-S", project.string(), "-B", (project / "build").string(),
                   "-DCMAKE_PREFIX_PATH=" + prefix.string()});
    EXPECT_FALSE(r.ok()) << cases[n].call;
    // CMake wraps and indents a message: compare with blanks collapsed.
    std::string err;
    for (char c : r.err)
      if (!std::isspace(static_cast<unsigned char>(c)))
        err += c;
      else if (!err.empty() && err.back() != ' ')
        err += ' ';
    EXPECT_NE(err.find(cases[n].message), std::string::npos) << cases[n].call << "\n" << r.err;
  }
}

} // namespace
} // namespace f2s
