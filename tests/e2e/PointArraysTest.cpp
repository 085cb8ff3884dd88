// Small work arrays of the point (issue 38) on the GPU: btri2d.f90's
// block-tridiagonal Jacobi step (a 5x5 matrix and a vector per point, filled
// by DO loops of constant bounds) and its limited row sums, through a library
// built for pthreads and cuda, every call on the GPU (F2S_TARGET=cuda),
// against gfortran's build of the original loops, bit for bit, at odd sizes.
// The CUDA runs under the CPU emulation (tests/cuda/emulation) with the grid
// capped so that blocks stride; the same source compiles with nvcc where it
// is installed. The CPU targets' runs, untuned and tuned, are EndToEndTest's
// WorkArraysOfThePointMatchTheOriginal.
#include "e2e/EmulatedLibrary.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(PointArraysOnTheGpu, BlockTridiagonalJacobiStepMatchesTheOriginal) {
  test::ScratchDir dir;
  std::string exe = test::build_emulated(dir.path(), "btri2d", ".f90");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {}, {"1", "1"}, {"2", "3"}, {"33", "17"}, {"301", "3"}, {"5", "67"}})
    test::expect_gpu_passes(exe, {"btri_jacobi", "btri_limit"}, size);
}

} // namespace
} // namespace f2s
