// Loops inside the point with a run-time trip count (issue 38) on the GPU:
// window2d.f90's smoothing filters (a window along x summed into a scalar, a
// 2D box added into the field, a damped difference whose loop counts down),
// the radius an argument, through a library built for pthreads and cuda,
// every call on the GPU (F2S_TARGET=cuda), against gfortran's build of the
// original loops, bit for bit, at radii 0, 1 and 3 and odd sizes. The CUDA
// runs under the CPU emulation (tests/cuda/emulation) with the grid capped
// so that blocks stride; the same source compiles with nvcc where it is
// installed. The CPU targets' runs, untuned and tuned, are EndToEndTest's
// LoopsInsideThePointWithARunTimeRadiusMatchTheOriginal.
#include "e2e/EmulatedLibrary.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(InnerLoopsOnTheGpu, WindowsWithARunTimeRadiusMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = test::build_emulated(dir.path(), "window2d", ".f90");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {}, {"1", "1"}, {"2", "3"}, {"33", "17"}, {"301", "3"}, {"5", "67"}})
    test::expect_gpu_passes(exe, {"window_x", "window_box", "window_damp", "window_band"}, size);
}

// Loops to each column's own depth on the GPU (colkmt2d.f90): every CUDA
// thread runs its column to kmt(i, j), read on the device, bitwise the
// original, land columns included.
TEST(InnerLoopsOnTheGpu, LoopsToEachColumnsOwnDepthMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = test::build_emulated(dir.path(), "colkmt2d", ".f90");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {}, {"1", "1"}, {"2", "3"}, {"33", "17"}, {"301", "3"}})
    test::expect_gpu_passes(exe, {"col_heat", "col_clip", "col_up", "col_mix"}, size);
}

// Nests of more than three DO loops on the GPU: the component loops of
// deepnest4d.f90 (around, between and inside the grid's loops) and
// deepnest5d.f (two around them, fixed form) run inside each CUDA thread's
// point, with several and no components, bitwise the original.
TEST(InnerLoopsOnTheGpu, ComponentLoopsInsideEachPointMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = test::build_emulated(dir.path(), "deepnest4d", ".f90");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {}, {"1", "1", "1"}, {"33", "17", "5"}, {"2", "3", "40"}})
    test::expect_gpu_passes(exe, {"comp_outer", "comp_inner", "comp_ikj", "comp_sum"}, size);
  test::ScratchDir five;
  exe = test::build_emulated(five.path(), "deepnest5d", ".f");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"1", "1", "1"}, {"33", "5", "3"}})
    test::expect_gpu_passes(exe, {"chem5d"}, size);
}

} // namespace
} // namespace f2s
