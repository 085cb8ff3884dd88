// Red-black sweeps whose stride-2 loops start at a parity computed between
// the loops (issue 38) on the GPU: tests/inputs/e2e/rbstart3d.f90 through a
// library built for pthreads and cuda, every call on the GPU
// (F2S_TARGET=cuda), against gfortran's build of the original loops, bit for
// bit, at odd sizes and at both parities of the slab's first point. Each
// CUDA thread takes a column of the free loops and runs the ordered one in
// order. The CUDA runs under the CPU emulation (tests/cuda/emulation) with
// the grid capped so that blocks stride; the same source compiles with nvcc
// where it is installed. The CPU targets' runs, untuned and tuned, are
// EndToEndTest's RedBlackStartsComputedBetweenTheLoopsMatchTheOriginal.
#include "e2e/EmulatedLibrary.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(RedBlackStartsOnTheGpu, ParityStartsWithAnOrderedLoopMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = test::build_emulated(dir.path(), "rbstart3d", ".f90");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {}, {"33", "17", "5"}, {"1", "1", "1"}, {"7", "40", "2"}, {"2", "3", "37"}})
    test::expect_gpu_passes(exe, {"rbs_a", "rbs_b", "rbs_c", "rbs_d", "rbs_e"}, size);
}

} // namespace
} // namespace f2s
