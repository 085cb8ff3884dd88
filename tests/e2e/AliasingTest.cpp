// Calls that pass one array as two arguments (`call resid(u, r, r)`): the
// library computes what the loops do where the nest with those arguments
// identified is free of dependences, on the CPU and the GPU, and otherwise
// stops with a message naming both arguments; never a silent wrong result.
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

const std::string kInput = "tests/inputs/e2e/aliased2d";

/// Builds the checking program against the library in `out` (static).
std::string build_check(const test::ScratchDir &dir, const fs::path &out) {
  std::string exe = (dir.path() / "aliased2d").string();
  ProcessResult r =
      run({"gfortran", "-O2", "-o", exe, source(kInput + ".f90"), source(kInput + "_main.f90"),
           "-I" + out.string(), (out / "libf2s_aliased2d.a").string(), "-lpthread"});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  return exe;
}

// Tuned pthreads (the default entry) and serial C: in place where the nest
// allows it, and apart, against gfortran's build of the original at odd sizes.
TEST(Aliasing, InPlaceCallsThatStayFreeOfDependencesMatchTheOriginal) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r =
      f2stencil(test::quick_tuning({"--reps=1", "-q", "--target=c,pthreads", "--lib=f2s_aliased2d",
                                    "-o", out.string(), source(kInput + ".f90")}));
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = build_check(dir, out);
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"1", "1"}, {"513", "3"}, {"4", "77"}})
    for (const char *threads : {"1", "3"}) {
      size.insert(size.begin(), exe);
      r = run(size, {{"F2S_NUM_THREADS", threads}});
      size.erase(size.begin());
      EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.describe() << "\n"
                                                                       << r.out << r.err;
    }
}

// The same array as the input and the output of a Jacobi average, or two
// overlapping windows of one buffer: the call stops, naming the kernel and
// both arguments, before anything is computed.
TEST(Aliasing, CallsThatWouldComputeAWrongResultStopWithBothNames) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--no-tune", "-q", "--target=c,pthreads", "--lib=f2s_aliased2d",
                               "-o", out.string(), source(kInput + ".f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = build_check(dir, out);
  r = run({exe, "33", "17", "inplace"});
  EXPECT_FALSE(r.ok()) << r.out;
  EXPECT_EQ(r.out.find("NOT STOPPED"), std::string::npos);
  EXPECT_NE(r.err.find("f2stencil: kernel 'alias_smooth': arguments 'f' and 'g' are the same "
                       "array and 'g' is written; the loop nest is not correct with them "
                       "aliased, so call the original loops for this call"),
            std::string::npos)
      << r.err;
  r = run({exe, "33", "17", "shifted"});
  EXPECT_FALSE(r.ok()) << r.out;
  EXPECT_EQ(r.out.find("NOT STOPPED"), std::string::npos);
  EXPECT_NE(r.err.find("f2stencil: kernel 'alias_smooth': arguments 'f' and 'g' overlap in "
                       "memory and 'g' is written, but they are not the same array with the "
                       "same bounds"),
            std::string::npos)
      << r.err;
}

const char *kCudaProgram = R"(program aliased_cuda_check
  use f2s_aliased2d, only: alias_step_cuda, alias_step_pthreads
  implicit none
  integer, parameter :: nx = 31, ny = 9
  real(8), target :: f(0:nx+1, 0:ny+1), g(0:nx+1, 0:ny+1), h(0:nx+1, 0:ny+1)
  character(len=32) :: mode
  call random_number(f)
  g = f
  call alias_step_pthreads(nx, ny, 0.3d0, g, g)
  call get_command_argument(1, mode)
  if (mode == 'apart') then
    h = f
    call alias_step_cuda(nx, ny, 0.3d0, f, h)
    if (maxval(abs(h - g)) > 1d-14 * maxval(abs(g))) stop 1
    print '(a)', 'PASSED'
  else
    call alias_step_cuda(nx, ny, 0.3d0, f, f)
    if (maxval(abs(f - g)) > 1d-14 * maxval(abs(g))) stop 1
    print '(a)', 'PASSED'
  end if
end program
)";

// The CUDA entry point takes an array passed as two arguments as the CPU
// ones do: one device buffer and the nest with them identified on the GPU
// (tests/e2e/DispatchTest.cpp runs that under the emulation), the CPU code
// here, where nvcc builds the library and no GPU runs it. Never a stop.
TEST(Aliasing, CudaEntryPointRunsAliasedArguments) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--no-tune", "-q", "--target=pthreads,cuda", "--lib=f2s_aliased2d",
                               "-o", out.string(), source(kInput + ".f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  EXPECT_TRUE(fs::exists(out / "f2s_aliased2d_cuda.cu"));
  std::string program = dir.write("cuda_check.f90", kCudaProgram);
  std::string exe = (dir.path() / "cuda_check").string();
  r = run({"gfortran", "-O2", "-o", exe, program, "-I" + out.string(), "-L" + out.string(),
           "-Wl,-rpath," + out.string(), "-lf2s_aliased2d", "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  r = run({exe, "apart"});
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.out << r.err;
  r = run({exe, "aliased"});
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.out << r.err;
}

} // namespace
} // namespace f2s
