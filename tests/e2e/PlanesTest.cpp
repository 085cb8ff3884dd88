// Planes at run-time positions (issue 38) on the GPU, and assumed-size
// arrays (at the end): the periodic face
// copies of planes3d.f (NPB MG's comm3, F77) and planes2d.f90 (module sizes,
// (0:m+1) ghost layers, a row the caller picks) through a library built for
// pthreads and cuda, every call on the GPU (F2S_TARGET=cuda), against
// gfortran's build of the original loops, bit for bit, at odd sizes. The
// CUDA runs under the CPU emulation (tests/cuda/emulation) with the grid
// capped so that blocks stride over the faces; the same source compiles
// with nvcc where it is installed. The CPU targets' runs, untuned and tuned,
// are EndToEndTest's PlanesAtRunTimePositions*.
#include "e2e/E2E.h"

#include "harness/CudaToolkit.h"
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

/// Builds tests/inputs/e2e/<name><ext> into f2s_<name> for pthreads and
/// cuda (untuned), its CUDA emulated, linked with <name>_main.f90; returns
/// the program, or "" after a failure. Also compiles the CUDA with nvcc
/// when there is one.
std::string build_emulated(const fs::path &dir, const std::string &name, const std::string &ext) {
  fs::path out = dir / "out";
  std::string input = source("tests/inputs/e2e/" + name + ext);
  ProcessResult r = f2stencil({"--emit=sources", "--no-tune", "-q", "--target=pthreads,cuda",
                               "--lib=f2s_" + name, "-o", out.string(), input});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  if (!r.ok())
    return "";
  std::string cuda = test::read_file(out / ("f2s_" + name + "_cuda.cu"));
  if (auto nvcc = find_nvcc()) {
    r = run({*nvcc, "-std=c++17", "-c", (out / ("f2s_" + name + "_cuda.cu")).string(), "-o",
             (dir / "nvcc.o").string()});
    EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  }
  fs::path emu = dir / "emu.cu";
  std::ofstream(emu) << test::emulated(cuda, /*tiny_grid=*/true);
  std::string emu_o = (dir / "cuda.o").string(), c_o = (dir / "lib.o").string();
  r = run({"g++", "-std=c++20", "-O1", "-ffp-contract=off", "-pthread", "-w", "-I",
           source("tests/cuda/emulation"), "-x", "c++", emu.string(), "-c", "-o", emu_o});
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  r = run({c_compiler(), "-O1", "-std=gnu11", "-ffp-contract=off", "-pthread", "-c",
           (out / ("f2s_" + name + ".c")).string(), "-o", c_o});
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  std::string exe = (dir / "check").string();
  r = run({"gfortran", "-O1", "-o", exe, "-J" + dir.string(),
           (out / ("f2s_" + name + ".f90")).string(), input,
           source("tests/inputs/e2e/" + name + "_main.f90"), c_o, emu_o, "-lstdc++", "-lpthread"});
  EXPECT_TRUE(r.ok()) << r.err.substr(0, 4000);
  return r.ok() ? exe : "";
}

void expect_gpu_passes(const std::string &exe, const std::vector<std::string> &kernels,
                       std::vector<std::string> size) {
  size.insert(size.begin(), exe);
  ProcessResult r = run(size, {{"F2S_TARGET", "cuda"}, {"F2S_VERBOSE", "1"}});
  EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos)
      << "size " << (size.size() > 1 ? size[1] : "default") << ": " << r.out << r.err;
  for (const std::string &k : kernels)
    EXPECT_TRUE(
        std::regex_search(r.err, std::regex("f2stencil: '" + k + "' ran cuda/[^ ]+ on the GPU")))
        << k << "\n"
        << r.err;
}

TEST(PlanesOnTheGpu, Comm3FacesInFixedFormMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = build_emulated(dir.path(), "planes3d", ".f");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {}, {"2", "2", "2"}, {"33", "17", "5"}, {"7", "40", "3"}, {"3", "5", "37"}})
    expect_gpu_passes(exe, {"pl_comm_x", "pl_comm_y", "pl_comm_z"}, size);
}

TEST(PlanesOnTheGpu, PeriodicModuleArraysAndACallersRowMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = build_emulated(dir.path(), "planes2d", ".f90");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"2", "2"}, {"301", "3"}, {"5", "67"}})
    expect_gpu_passes(exe, {"pl_bc_x", "pl_bc_y", "pl_row"}, size);
}

// Assumed-size dummies (issue 38) on the GPU: each call copies the elements
// up to the region's reach, from the address the caller passes (a column of
// a larger array for the 2D step), and back.
TEST(AssumedSizeOnTheGpu, F77DummiesMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = build_emulated(dir.path(), "assumed3d", ".f");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {}, {"3", "3", "3"}, {"33", "17", "5"}, {"4", "40", "6"}})
    expect_gpu_passes(exe, {"asz_rhs", "asz_smooth"}, size);
}

} // namespace
} // namespace f2s
