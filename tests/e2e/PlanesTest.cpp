// Planes at run-time positions (issue 38) on the GPU, and assumed-size
// arrays (at the end): the periodic face
// copies of planes3d.f (NPB MG's comm3, F77) and planes2d.f90 (module sizes,
// (0:m+1) ghost layers, a row the caller picks, a row written at a column
// offset the caller gives) through a library built for
// pthreads and cuda, every call on the GPU (F2S_TARGET=cuda), against
// gfortran's build of the original loops, bit for bit, at odd sizes. The
// CUDA runs under the CPU emulation (tests/cuda/emulation) with the grid
// capped so that blocks stride over the faces; the same source compiles
// with nvcc where it is installed. The CPU targets' runs, untuned and tuned,
// are EndToEndTest's PlanesAtRunTimePositions*.
#include "e2e/EmulatedLibrary.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using test::build_emulated;
using test::expect_gpu_passes;

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
    expect_gpu_passes(exe, {"pl_bc_x", "pl_bc_y", "pl_row", "pl_shift"}, size);
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
