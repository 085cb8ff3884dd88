// A time loop built for the GPU, run under the CPU emulation of CUDA
// (tests/cuda/emulation, whose device memory is apart from the host's): the
// loop matches the gfortran-compiled original bitwise, and its grids cross
// to the device once per call, not once per step. f2stencil only writes the
// library's sources (--emit=sources), which the test compiles itself: nvcc's
// build of them would go unused (CudaTimeTile.CompilesWithNvccForSm90 and
// SourceFormsTest.cpp build such code with nvcc).
#include "e2e/E2E.h"

#include "tests/cuda/Emulation.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

struct CudaLoop {
  std::string name;
  std::string source, main; ///< the loop's file and its checking program, in the tree
  std::vector<std::string> size;
  /// Host-device copies of the whole program: each call that runs a step
  /// copies each grid in once and each written grid back once.
  int transfers;
  std::vector<std::string> options = {}; ///< more f2stencil options
  /// Tiled in time: device bytes (F2S_EMU_DEVICE_BYTES) that hold a call's
  /// grids but not the second versions of its state grids; 0: untested.
  long room = 0;
};

std::ostream &operator<<(std::ostream &out, const CudaLoop &c) {
  out << c.name;
  for (const std::string &o : c.options)
    out << " " << o;
  return out;
}

class TimeLoopCuda : public ::testing::TestWithParam<CudaLoop> {};

TEST_P(TimeLoopCuda, GridsStayOnTheDeviceForTheWholeLoop) {
  const CudaLoop &c = GetParam();
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  std::string lib = "f2s_" + c.name, src = source(c.source);
  std::vector<std::string> args = {
      "--emit=sources", "-q", "--target=pthreads,cuda", "--lib=" + lib, "-o", out.string(), src};
  args.insert(args.begin(), c.options.begin(), c.options.end());
  ProcessResult r = f2stencil(args);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;

  // The library's C, and its CUDA under the emulation.
  std::string emu_o = (dir.path() / "cuda.o").string(), c_o = (dir.path() / "lib.o").string();
  r = run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
           source("tests/cuda/emulation"), "-x", "c++",
           dir.write("emu.cu", test::emulated(test::read_file(out / (lib + "_cuda.cu")))), "-c",
           "-o", emu_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
           (out / (lib + ".c")).string(), "-o", c_o});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);
  // The checking program, also printing the copies the library made.
  std::string program = test::read_file(source(c.main));
  for (auto [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"print '(a)', 'PASSED'",
            "print '(a, i0)', 'transfers ', " + lib + "_data_transfers()\n  print '(a)', 'PASSED'"},
           {"use " + lib + ", only: ", "use " + lib + ", only: " + lib + "_data_transfers, "}}) {
    size_t at = program.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    program.replace(at, from.size(), to);
  }
  std::string exe = (dir.path() / "check").string();
  // The library's module too: its wrappers (of POINTER grids) are code.
  r = run({"gfortran", "-O2", "-o", exe, "-J" + dir.path().string(),
           (out / (lib + ".f90")).string(), src, dir.write("check.f90", program), c_o, emu_o,
           "-lstdc++", "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.err.substr(0, 4000);

  std::vector<std::string> argv = c.size;
  argv.insert(argv.begin(), exe);
  r = run(argv);
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.out << r.err;
  if (c.transfers >= 0) {
    EXPECT_NE(r.out.find("transfers " + std::to_string(c.transfers) + "\n"), std::string::npos)
        << r.out;
  }
  // F2S_TARGET=cpu keeps every sweep, and so the loop, on the host.
  r = run(argv, {{"F2S_TARGET", "cpu"}});
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("transfers 0\n"), std::string::npos) << r.out;
  // Without a device (no driver), the loop runs its CPU code: no stop.
  r = run(argv, {{"F2S_EMU_DEVICES", "0"}, {"F2S_VERBOSE", "1"}});
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.out << r.err;
  EXPECT_NE(r.out.find("transfers 0\n"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("f2stencil: no CUDA device"), std::string::npos) << r.err;
  // Tiled in time, with room for the grids but not for the second versions
  // of the state grids: the procedure runs its untiled steps, with a note.
  if (c.room > 0) {
    r = run(argv, {{"F2S_EMU_DEVICE_BYTES", std::to_string(c.room)}, {"F2S_VERBOSE", "1"}});
    EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos) << r.out << r.err;
    EXPECT_NE(r.err.find("' runs its steps untiled: the GPU has no room for the second versions "
                         "of its grids\n"),
              std::string::npos)
        << r.err;
  }
}

// fdtd2d_steps: 3 calls that step (trip counts 1, 6, 7), 4 grids in, 3 written
// back. solve2d: 2 calls that step (1, and up to 60 until its EXIT), 3
// grids in, 2 written back; the residual's partials come back every step,
// as any reduction's do, outside the count of grid copies. swap2d: 3 calls
// that step (1, 2, 7), its 2 grids in and back, both written, however many
// times the pointers were swapped between the sweeps.
INSTANTIATE_TEST_SUITE_P(
    Loops, TimeLoopCuda,
    ::testing::Values(CudaLoop{"fdtd2d_steps",
                               "examples/fdtd2d_steps/fdtd2d_steps.f90",
                               "examples/fdtd2d_steps/main.f90",
                               {"33", "17"},
                               21},
                      // Ping-pongs (2 grids in and back per call that steps,
                      // trip counts 1, 2, 5): 9 points in 2D, double and
                      // single; 7 and 27 points in 3D, single. FDTD in
                      // single precision: 4 grids in, 3 back.
                      CudaLoop{"jacobi2d9_steps",
                               "examples/jacobi2d9_steps/jacobi2d9_steps.f90",
                               "examples/jacobi2d9_steps/main.f90",
                               {"33", "17"},
                               12},
                      CudaLoop{"jacobi2d9_steps_sp",
                               "examples/jacobi2d9_steps_sp/jacobi2d9_steps_sp.f90",
                               "examples/jacobi2d9_steps_sp/main.f90",
                               {"33", "17"},
                               12},
                      CudaLoop{"jacobi3d_pingpong_sp",
                               "examples/jacobi3d_pingpong_sp/jacobi3d_pingpong_sp.f90",
                               "examples/jacobi3d_pingpong_sp/main.f90",
                               {"13", "7", "5"},
                               12},
                      CudaLoop{"box27_steps_sp",
                               "examples/box27_steps_sp/box27_steps_sp.f90",
                               "examples/box27_steps_sp/main.f90",
                               {"13", "7", "5"},
                               12},
                      CudaLoop{"fdtd2d_steps_sp",
                               "examples/fdtd2d_steps_sp/fdtd2d_steps_sp.f90",
                               "examples/fdtd2d_steps_sp/main.f90",
                               {"33", "17"},
                               21},
                      CudaLoop{"solve2d",
                               "tests/inputs/timeloop/solve2d.f90",
                               "tests/inputs/timeloop/solve2d_main.f90",
                               {"21", "30"},
                               10},
                      CudaLoop{"swap2d",
                               "tests/inputs/timeloop/swap2d.f90",
                               "tests/inputs/timeloop/swap2d_main.f90",
                               {"33", "17"},
                               12},
                      // Tiled in time on the GPU (and on the
                      // threads): the same copies, once per call.
                      CudaLoop{"fdtd2d_steps",
                               "examples/fdtd2d_steps/fdtd2d_steps.f90",
                               "examples/fdtd2d_steps/main.f90",
                               {"33", "17"},
                               21,
                               {"--time-tile=3"},
                               14000}, // 3 x 4488 bytes and fict
                      CudaLoop{"heat2d_steps",
                               "examples/heat2d_steps/heat2d_steps.f90",
                               "examples/heat2d_steps/main.f90",
                               {"37", "23"},
                               -1,
                               {"--time-tile=2"},
                               16000}, // u and unew: 2 x 7800 bytes
                      CudaLoop{"jacobi2d9_steps",
                               "examples/jacobi2d9_steps/jacobi2d9_steps.f90",
                               "examples/jacobi2d9_steps/main.f90",
                               {"33", "17"},
                               12,
                               {"--time-tile=3"},
                               11000}, // 2 x 5320 bytes
                      CudaLoop{"fdtd2d_steps_sp",
                               "examples/fdtd2d_steps_sp/fdtd2d_steps_sp.f90",
                               "examples/fdtd2d_steps_sp/main.f90",
                               {"33", "17"},
                               21,
                               {"--time-tile=2"},
                               7000}, // 3 x 2244 bytes and pulse
                      CudaLoop{"ocean3d",
                               "tests/inputs/timeloop/ocean3d.f",
                               "tests/inputs/timeloop/ocean3d_main.f90",
                               {"19", "5", "6"},
                               -1,
                               {"--time-tile=2"},
                               21000}, // 2 x 9408 bytes, dz and fm
                      // The streaming form: tiles of x and y,
                      // z walked.
                      CudaLoop{"ocean3d",
                               "tests/inputs/timeloop/ocean3d.f",
                               "tests/inputs/timeloop/ocean3d_main.f90",
                               {"19", "5", "6"},
                               -1,
                               {"--time-tile=3", "--time-tile-form=streaming"},
                               21000},
                      CudaLoop{"heat2d_steps",
                               "examples/heat2d_steps/heat2d_steps.f90",
                               "examples/heat2d_steps/main.f90",
                               {"37", "23"},
                               -1,
                               {"--time-tile=2", "--time-tile-form=streaming"},
                               16000}));

} // namespace
} // namespace f2s
