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

} // namespace
} // namespace f2s
