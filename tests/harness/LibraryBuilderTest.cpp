// build_library: the files a Fortran build links against, and the promise
// that a failure leaves the output directory as it was; write_library_sources:
// the sources alone, under the same promise.
#include "harness/LibraryBuilder.h"

#include "harness/Process.h"
#include "runtime/RuntimeText.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include <stdlib.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;

const char *kHeader = R"(#pragma once
void tiny_scale(int n, double a, double *x);
)";

// The kernel spreads its loop over the runtime's thread pool, so the Fortran
// test below also runs the pool inside a real library.
const char *kKernel = R"(
struct tiny_scale_args { int n; double a; double *x; };
static void tiny_scale_share(int tid, int nthreads, void *p) {
  struct tiny_scale_args *s = (struct tiny_scale_args *)p;
  int lo = (int)((long)s->n * tid / nthreads), hi = (int)((long)s->n * (tid + 1) / nthreads);
  for (int i = lo; i < hi; ++i)
    s->x[i] *= s->a;
}
void tiny_scale(int n, double a, double *x) {
  struct tiny_scale_args s = {n, a, x};
  f2s_parallel_run(f2s_num_threads(3), tiny_scale_share, &s);
}
)";

const char *kModule = R"(module TinyLib
  use iso_c_binding
  implicit none
  interface
    subroutine tiny_scale(n, a, x) bind(C, name="tiny_scale")
      import :: c_int, c_double
      integer(c_int), value :: n
      real(c_double), value :: a
      real(c_double), intent(inout) :: x(n)
    end subroutine
  end interface
end module
)";

LibraryFiles tiny_library() {
  LibraryFiles f;
  f.name = "TinyLib";
  f.c_source = std::string(runtime_c_text()) + kKernel;
  f.header = kHeader;
  f.fortran_module = kModule;
  f.tuning_record = "{}\n";
  f.report = "tiny\n";
  return f;
}

std::string read(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::set<std::string> entries(const fs::path &dir) {
  std::set<std::string> names;
  for (const auto &e : fs::directory_iterator(dir))
    names.insert(e.path().filename().string());
  return names;
}

class LibraryBuilder : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "f2s-libtest-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    root = pattern;
    out = root / "out";
  }
  void TearDown() override { fs::remove_all(root); }

  fs::path root, out;
};

TEST_F(LibraryBuilder, WritesEveryFile) {
  build_library(tiny_library(), out);
  for (const char *file : {"libTinyLib.a", "libTinyLib.so", "TinyLib.h", "TinyLib.f90", "TinyLib.c",
                           "TinyLib.json", "TinyLib.txt", ".f2stencil"})
    EXPECT_TRUE(fs::exists(out / file)) << file;
  if (find_program("gfortran")) {
    EXPECT_TRUE(fs::exists(out / "tinylib.mod"));
  }
  EXPECT_FALSE(fs::exists(out / "TinyLib.o"));
  EXPECT_EQ(read(out / "TinyLib.h"), kHeader);
  // Only the output directory is left beside the output directory.
  EXPECT_EQ(entries(root), std::set<std::string>{"out"});

  Command nm;
  nm.argv = {"nm", (out / "libTinyLib.a").string()};
  ProcessResult a = run_process(nm);
  ASSERT_TRUE(a.ok()) << a.err;
  EXPECT_NE(a.out.find("T tiny_scale"), std::string::npos) << a.out;
  nm.argv = {"nm", "-D", "--defined-only", (out / "libTinyLib.so").string()};
  ProcessResult so = run_process(nm);
  ASSERT_TRUE(so.ok()) << so.err;
  EXPECT_NE(so.out.find("T tiny_scale"), std::string::npos) << so.out;
  // The runtime is static: nothing of it is exported.
  EXPECT_EQ(so.out.find("f2s_parallel_run"), std::string::npos) << so.out;
}

// A library built where gfortran is not found (the GPU machine tunes
// without one) lacks the compiled module: the builder says so, and so does
// the record, with what to do.
TEST_F(LibraryBuilder, SaysWhenTheFortranModuleIsNotCompiled) {
  // PATH: every program of /usr/bin but gfortran's, as links.
  fs::path bin = root / "bin";
  fs::create_directories(bin);
  for (const auto &e : fs::directory_iterator("/usr/bin"))
    if (e.path().filename().string().find("gfortran") == std::string::npos)
      fs::create_symlink(e.path(), bin / e.path().filename());
  const char *old = getenv("PATH");
  std::string saved = old ? old : "";
  setenv("PATH", bin.c_str(), 1);
  std::vector<std::string> notes;
  try {
    notes = build_library(tiny_library(), out);
  } catch (...) {
    setenv("PATH", saved.c_str(), 1);
    throw;
  }
  setenv("PATH", saved.c_str(), 1);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("gfortran was not found"), std::string::npos) << notes[0];
  EXPECT_NE(notes[0].find("compile TinyLib.f90"), std::string::npos) << notes[0];
  EXPECT_FALSE(fs::exists(out / "tinylib.mod"));
  EXPECT_TRUE(fs::exists(out / "libTinyLib.a"));
  std::string record = read(out / "TinyLib.json");
  EXPECT_NE(record.find("\"fortran_module\""), std::string::npos) << record;
  EXPECT_NE(record.find("\"compiled\": false"), std::string::npos) << record;
  // With gfortran, no note and no such entry.
  if (find_program("gfortran")) {
    EXPECT_TRUE(build_library(tiny_library(), out).empty());
    EXPECT_EQ(read(out / "TinyLib.json"), "{}\n");
  }
}

TEST_F(LibraryBuilder, ReplacesAnEarlierOutput) {
  build_library(tiny_library(), out);
  std::ofstream(out / "stale.txt") << "from an earlier run\n";
  LibraryFiles f = tiny_library();
  f.report = "second\n";
  build_library(f, out);
  EXPECT_EQ(read(out / "TinyLib.txt"), "second\n");
  EXPECT_FALSE(fs::exists(out / "stale.txt"));
  EXPECT_EQ(entries(root), std::set<std::string>{"out"});
}

// The sources alone (--emit=sources): what a build would compile, nothing
// compiled (C that would not compile is written as it is), no record; an
// earlier library in the directory goes with the rest of it.
TEST_F(LibraryBuilder, SourcesAloneReplaceAnEarlierLibrary) {
  build_library(tiny_library(), out);
  LibraryFiles f = tiny_library();
  f.c_source = "int not_compiled(\n";
  f.cuda_source = "__global__ void k() {}\n";
  f.mpi_source = "/* exchanges */\n";
  write_library_sources(f, out);
  EXPECT_EQ(entries(out),
            (std::set<std::string>{".f2stencil", "TinyLib.c", "TinyLib.h", "TinyLib.f90",
                                   "TinyLib_cuda.cu", "TinyLib_mpi.c"}));
  EXPECT_EQ(read(out / "TinyLib.c"), f.c_source);
  EXPECT_EQ(read(out / "TinyLib_cuda.cu"), f.cuda_source);
  EXPECT_EQ(entries(root), std::set<std::string>{"out"});
}

TEST_F(LibraryBuilder, FillsAnEmptyDirectory) {
  fs::create_directories(out);
  build_library(tiny_library(), out / "");
  EXPECT_TRUE(fs::exists(out / "libTinyLib.a"));
  EXPECT_EQ(entries(root), std::set<std::string>{"out"});
}

TEST_F(LibraryBuilder, CreatesMissingParents) {
  build_library(tiny_library(), root / "a" / "b" / "out");
  EXPECT_TRUE(fs::exists(root / "a" / "b" / "out" / "libTinyLib.so"));
}

TEST_F(LibraryBuilder, FailedCompileLeavesTheOutputAsItWas) {
  build_library(tiny_library(), out);
  auto before = entries(out);
  std::string c_before = read(out / "TinyLib.c");

  LibraryFiles broken = tiny_library();
  broken.c_source = "int oops(\n";
  try {
    build_library(broken, out);
    FAIL() << "a syntax error was accepted";
  } catch (const BuildError &e) {
    std::string what = e.what();
    EXPECT_NE(what.find("TinyLib.c"), std::string::npos) << what;
    EXPECT_NE(what.find("-O3"), std::string::npos) << what;
    EXPECT_NE(what.find("error"), std::string::npos) << what;
  }
  EXPECT_EQ(entries(out), before);
  EXPECT_EQ(read(out / "TinyLib.c"), c_before);
  EXPECT_EQ(entries(root), std::set<std::string>{"out"});
}

TEST_F(LibraryBuilder, FailedCompileCreatesNothing) {
  LibraryFiles broken = tiny_library();
  broken.c_source = "int oops(\n";
  EXPECT_THROW(build_library(broken, out), BuildError);
  EXPECT_TRUE(entries(root).empty());
}

TEST_F(LibraryBuilder, RefusesAForeignDirectory) {
  fs::create_directories(out);
  std::ofstream(out / "thesis.tex") << "years of work\n";
  try {
    build_library(tiny_library(), out);
    FAIL() << "a foreign directory was replaced";
  } catch (const BuildError &e) {
    EXPECT_EQ(std::string(e.what()),
              "Output directory '" + out.string() + "' exists and was not written by f2stencil");
  }
  EXPECT_EQ(entries(out), std::set<std::string>{"thesis.tex"});
  EXPECT_EQ(entries(root), std::set<std::string>{"out"});
}

TEST_F(LibraryBuilder, RefusesAFile) {
  std::ofstream(out) << "not a directory\n";
  EXPECT_THROW(build_library(tiny_library(), out), BuildError);
  EXPECT_EQ(read(out), "not a directory\n");
}

TEST_F(LibraryBuilder, RefusesABadName) {
  LibraryFiles f = tiny_library();
  f.name = "../evil";
  EXPECT_THROW(build_library(f, out), BuildError);
  EXPECT_FALSE(fs::exists(out));
}

TEST_F(LibraryBuilder, FortranProgramLinksTheLibrary) {
  if (!find_program("gfortran"))
    GTEST_SKIP() << "gfortran is not in PATH";
  build_library(tiny_library(), out);
  std::ofstream(root / "main.f90") << R"(program main
  use tinylib
  implicit none
  integer :: i
  real(8) :: x(1000)
  x = [(dble(i), i = 1, 1000)]
  call tiny_scale(1000, 2d0, x)
  print '(3F8.1)', x(1), x(500), x(1000)
end program
)";
  Command link;
  link.argv = {"gfortran", "-I" + out.string(),
               "main.f90", (out / "libTinyLib.a").string(),
               "-pthread", "-o",
               "main"};
  link.cwd = root.string();
  ProcessResult built = run_process(link);
  ASSERT_TRUE(built.ok()) << built.describe() << "\n" << built.err;
  for (const char *threads : {"1", "4"}) {
    Command run;
    run.argv = {(root / "main").string()};
    run.env = {{"F2S_NUM_THREADS", threads}};
    run.timeout_s = 60;
    ProcessResult r = run_process(run);
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    EXPECT_EQ(r.out, "     2.0  1000.0  2000.0\n");
  }
}

} // namespace
} // namespace f2s
