// Where a call of a two-target library runs (issue 37): on the CPU, the
// tuned CPU variant with its threads; on the GPU where it is asked for and
// there is one; on the CPU again, with a note and never a stop, without a
// device or device memory; and arrays passed as one argument twice, in
// either place. F2S_VERBOSE's report says what ran (variant and threads),
// which is what these tests check, with the results against gfortran's
// build of the original loops; nothing here times anything. The library's
// CUDA runs under the CPU emulation (tests/cuda/emulation).
#include "e2e/E2E.h"

#include "tests/cuda/Emulation.h"

#include <gtest/gtest.h>

#include <fstream>
#include <regex>

#include <unistd.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

const std::string kInput = "tests/inputs/e2e/aliased2d";

// Each routine of aliased2d.f90 through the library, against the original
// on copies: apart, and with one array passed twice where that is legal.
// 'region' keeps the arrays in a data region around the calls; 'smooth'
// passes one array twice to the Jacobi average, which no code computes
// right (the call stops, naming both arguments).
const char *kProgram = R"(program dispatch_check
  use f2s_dispatch, only: alias_resid, alias_incr, alias_step, alias_smooth, &
                          f2s_dispatch_data_enter, f2s_dispatch_data_exit
  use, intrinsic :: iso_c_binding, only: c_sizeof
  implicit none
  integer, parameter :: nx = 37, ny = 11
  real(8), target :: u(0:nx+1, 0:ny+1), v(0:nx+1, 0:ny+1), r(0:nx+1, 0:ny+1)
  real(8), target :: want(0:nx+1, 0:ny+1), e(0:nx+1, 0:ny+1), we(0:nx+1, 0:ny+1)
  character(len=32) :: mode
  logical :: region
  call get_command_argument(1, mode)
  region = mode == 'region'
  call random_number(u)
  call random_number(v)
  if (mode == 'smooth') then
    call alias_smooth(nx, ny, u, u)
    print '(a)', 'NOT STOPPED'
    stop
  end if
  want = v
  call residual(nx, ny, 0.5d0, u, want, want)
  r = v
  if (region) then
    call f2s_dispatch_data_enter(u, c_sizeof(u))
    call f2s_dispatch_data_enter(r, c_sizeof(r))
  end if
  call alias_resid(nx, ny, 0.5d0, u, r, r)
  if (region) then
    call f2s_dispatch_data_exit(r, c_sizeof(r))
    call f2s_dispatch_data_exit(u, c_sizeof(u))
  end if
  call check(r, want, 'resid in place')
  want = 0
  call residual(nx, ny, 0.5d0, u, v, want)
  r = 0
  call alias_resid(nx, ny, 0.5d0, u, v, r)
  call check(r, want, 'resid apart')
  ! A step that reads back what it wrote, in place: increment(f, f, e).
  want = u
  we = 0
  call increment(nx, ny, 0.1d0, want, want, we)
  r = u
  e = 0
  call alias_incr(nx, ny, 0.1d0, r, r, e)
  call check(r, want, 'incr in place')
  call check(e, we, 'incr increment')
  ! A pointwise step in place: advance(f, f).
  want = v
  call advance(nx, ny, 0.2d0, want, want)
  r = v
  call alias_step(nx, ny, 0.2d0, r, r)
  call check(r, want, 'step in place')
  print '(a)', 'PASSED'
contains
  subroutine check(got, ref, what)
    real(8), intent(in) :: got(:, :), ref(:, :)
    character(len=*), intent(in) :: what
    if (maxval(abs(got - ref)) > 1d-13 * max(1d0, maxval(abs(ref)))) then
      print '(a, a, es10.3)', 'WRONG ', what, maxval(abs(got - ref))
      stop 1
    end if
  end subroutine check
end program dispatch_check
)";

class Dispatch : public ::testing::Test {
protected:
  /// The library of aliased2d.f90 for pthreads and cuda, untuned, its CUDA
  /// under the emulation, linked with the checking program: built once per
  /// process (the build is most of a test's time), in a directory of its
  /// own (test::ScratchDir names a test's).
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("f2s_Dispatch_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    auto write = [](const std::string &name, const std::string &text) {
      std::ofstream(dir_ / name) << text;
      return (dir_ / name).string();
    };
    fs::path out = dir_ / "out";
    ProcessResult r =
        f2stencil({"--emit=sources", "--no-tune", "-q", "--target=pthreads,cuda",
                   "--lib=f2s_dispatch", "-o", out.string(), source(kInput + ".f90")});
    ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
    c_source_ = test::read_file(out / "f2s_dispatch.c");
    std::string emu_o = (dir_ / "cuda.o").string(), c_o = (dir_ / "lib.o").string();
    r = run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
             source("tests/cuda/emulation"), "-x", "c++",
             write("emu.cu", test::emulated(test::read_file(out / "f2s_dispatch_cuda.cu"))), "-c",
             "-o", emu_o});
    ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
    r = run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
             (out / "f2s_dispatch.c").string(), "-o", c_o});
    ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
    std::string exe = (dir_ / "check").string();
    r = run({"gfortran", "-O1", "-o", exe, "-J" + dir_.string(),
             (out / "f2s_dispatch.f90").string(), source(kInput + ".f90"),
             write("check.f90", kProgram), c_o, emu_o, "-lstdc++", "-lpthread"});
    ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
    exe_ = exe;
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  void SetUp() override {
    ASSERT_FALSE(exe_.empty()) << "the library or the program did not build";
  }

  static ProcessResult check(std::vector<std::pair<std::string, std::string>> env,
                             const std::string &mode = "calls") {
    env.push_back({"F2S_VERBOSE", "1"});
    return run({exe_, mode}, env);
  }

  /// The pthreads choice of kernel `name`, as the library's C says its
  /// entry point K_pthreads runs it and the report names it:
  /// "pthreads/<variant>".
  static std::string pthreads_choice(const std::string &name) {
    std::smatch m;
    std::regex entry("/\\* '" + name + "' on target pthreads: (pthreads/[^ ,]+)");
    return std::regex_search(c_source_, m, entry) ? m[1].str() : "";
  }

  static fs::path dir_;
  static std::string exe_, c_source_;
};

fs::path Dispatch::dir_;
std::string Dispatch::exe_, Dispatch::c_source_;

bool passed(const ProcessResult &r) {
  return r.ok() && r.out.find("PASSED") != std::string::npos;
}

// Outside a data region, with a device: every call on the CPU runs the
// pthreads choice (not the CUDA choice's one thread), with its threads, and
// F2S_NUM_THREADS still sets them.
TEST_F(Dispatch, CallsOnTheCpuRunTheTunedPthreadsVariant) {
  ProcessResult r = check({});
  EXPECT_TRUE(passed(r)) << r.out << r.err;
  const std::string variant = pthreads_choice("alias_resid");
  ASSERT_EQ(variant.rfind("pthreads/", 0), 0u) << c_source_.substr(0, 2000);
  // Apart, the resid call ran the pthreads choice; in place, its nest
  // without restrict, on the same threads.
  EXPECT_NE(r.err.find("f2stencil: 'alias_resid' ran " + variant + " with "), std::string::npos)
      << variant << "\n"
      << r.err;
  EXPECT_NE(r.err.find("f2stencil: 'alias_resid' ran pthreads/aliased with "), std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find(" ran cuda/"), std::string::npos) << r.err;
  r = check({{"F2S_NUM_THREADS", "3"}});
  EXPECT_TRUE(passed(r)) << r.out << r.err;
  EXPECT_NE(r.err.find("f2stencil: 'alias_step' ran pthreads/aliased with 3 threads\n"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(std::regex_search(
      r.err, std::regex("f2stencil: 'alias_resid' ran pthreads/[^ ]+ with 3 threads\n")))
      << r.err;
}

// F2S_TARGET=cuda: every call on the GPU, arrays passed twice included
// (one device buffer; the nest with them identified); so do calls inside a
// data region.
TEST_F(Dispatch, CudaTargetRunsEveryCallOnTheGpuAliasedOnesIncluded) {
  ProcessResult r = check({{"F2S_TARGET", "cuda"}});
  EXPECT_TRUE(passed(r)) << r.out << r.err;
  for (const char *k : {"alias_resid", "alias_incr", "alias_step"})
    EXPECT_TRUE(std::regex_search(
        r.err, std::regex(std::string("f2stencil: '") + k + "' ran cuda/[^ ]+ on the GPU\n")))
        << k << "\n"
        << r.err;
  EXPECT_EQ(r.err.find(" ran pthreads/"), std::string::npos) << r.err;
  r = check({}, "region");
  EXPECT_TRUE(passed(r)) << r.out << r.err;
  EXPECT_TRUE(
      std::regex_search(r.err, std::regex("f2stencil: 'alias_resid' ran cuda/[^ ]+ on the GPU\n")))
      << r.err;
}

// No device (no driver): every call, in a data region or not, runs its CPU
// code, with one note; F2S_TARGET=cuda does not change that.
TEST_F(Dispatch, WithoutADeviceEveryCallRunsOnTheCpu) {
  for (const char *mode : {"calls", "region"}) {
    SCOPED_TRACE(mode);
    ProcessResult r = check({{"F2S_EMU_DEVICES", "0"}, {"F2S_TARGET", "cuda"}}, mode);
    EXPECT_TRUE(passed(r)) << r.out << r.err;
    EXPECT_NE(r.err.find("f2stencil: no CUDA device"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("no CUDA device", r.err.find("no CUDA device") + 1), std::string::npos)
        << "said once\n"
        << r.err;
    EXPECT_TRUE(std::regex_search(
        r.err, std::regex("f2stencil: 'alias_resid' ran pthreads/[^ ]+ with [0-9]+ threads?\n")))
        << r.err;
    EXPECT_EQ(r.err.find(" ran cuda/"), std::string::npos) << r.err;
  }
}

// A device too small for the call's arrays: the CPU code, with a note.
TEST_F(Dispatch, TooLittleDeviceMemoryRunsTheCallOnTheCpu) {
  for (const char *mode : {"calls", "region"}) {
    SCOPED_TRACE(mode);
    ProcessResult r =
        check({{"F2S_EMU_DEVICE_BYTES", "5000"}, {"F2S_TARGET", "cuda"}}, mode); // 1 array: 4056 B
    EXPECT_TRUE(passed(r)) << r.out << r.err;
    EXPECT_NE(r.err.find("f2stencil: the GPU has no room for"), std::string::npos) << r.err;
    EXPECT_TRUE(std::regex_search(
        r.err, std::regex("f2stencil: 'alias_resid' ran pthreads/[^ ]+ with [0-9]+ threads?\n")))
        << r.err;
  }
}

// The overlap no code computes right stops on every path, naming both
// arguments, as it does in a CPU-only library.
TEST_F(Dispatch, AnAliasingNoCodeComputesStopsOnEveryPath) {
  for (const char *target : {"cpu", "cuda"}) {
    ProcessResult r = check({{"F2S_TARGET", target}}, "smooth");
    EXPECT_FALSE(r.ok()) << r.out;
    EXPECT_EQ(r.out.find("NOT STOPPED"), std::string::npos);
    EXPECT_NE(r.err.find("f2stencil: kernel 'alias_smooth': arguments 'f' and 'g' are the same "
                         "array and 'g' is written"),
              std::string::npos)
        << r.err;
  }
}

TEST_F(Dispatch, AnUnknownTargetIsAClearErrorAtTheFirstCall) {
  ProcessResult r = check({{"F2S_TARGET", "bogus"}});
  EXPECT_FALSE(r.ok()) << r.out;
  EXPECT_EQ(r.out.find("PASSED"), std::string::npos);
  EXPECT_NE(r.err.find("f2stencil: the environment variable F2S_TARGET is 'bogus', but it takes "
                       "cpu, pthreads, c or cuda\n"),
            std::string::npos)
      << r.err;
}

// F2S_PROFILE=1: at exit, a row per kernel and target with its calls and
// what it copied each way; nothing without it.
TEST_F(Dispatch, ProfileCountsCallsAndCopiesPerKernelAndTarget) {
  ProcessResult r = run({exe_, "calls"}, {{"F2S_TARGET", "cuda"}, {"F2S_PROFILE", "1"}});
  EXPECT_TRUE(passed(r)) << r.out << r.err;
  EXPECT_NE(r.err.find("f2stencil profile (F2S_PROFILE=1), per kernel and target:"),
            std::string::npos)
      << r.err;
  // alias_resid: 2 calls; in place u in and r in and back (one buffer for
  // r passed twice), apart u, v, r in and r back: 5 arrays in, 2 back, of
  // 39 x 13 doubles.
  const long array = 39 * 13 * 8;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("  alias_resid +cuda +2 +[0-9.]+ +" +
                                                  std::to_string(5 * array) + " +[0-9.]+ +" +
                                                  std::to_string(2 * array) + " +[0-9.]+ +0\n")))
      << r.err;
  // Each kernel's rate and the sizes its calls ran at (the loops' trips,
  // innermost first), each with its calls and its own rate, for the GPU's
  // calls and, below, the CPU's; the rates from the time in the same table,
  // so never 0.
  const std::string rated = " +(?!0 )[0-9.e+-]+ GB/s  37x11 \\(2, (?!0 )[0-9.e+-]+ GB/s\\)\n";
  EXPECT_TRUE(std::regex_search(r.err, std::regex("  alias_resid +cuda" + rated))) << r.err;
  // The context's creation is a row of its own, made once.
  EXPECT_TRUE(std::regex_search(r.err, std::regex("  \\(CUDA start-up\\) +cuda +1 +[0-9.]+ ")))
      << r.err;
  r = run({exe_, "calls"}, {{"F2S_TARGET", "cpu"}, {"F2S_PROFILE", "1"}});
  EXPECT_TRUE(passed(r)) << r.out << r.err;
  EXPECT_TRUE(std::regex_search(r.err, std::regex("  alias_resid +pthreads +2 ")));
  EXPECT_TRUE(std::regex_search(r.err, std::regex("  alias_resid +pthreads" + rated))) << r.err;
  EXPECT_EQ(r.err.find("CUDA start-up"), std::string::npos) << r.err;
  r = run({exe_, "calls"});
  EXPECT_TRUE(passed(r)) << r.out << r.err;
  EXPECT_EQ(r.err.find("f2stencil"), std::string::npos) << r.err;
}

} // namespace
} // namespace f2s
