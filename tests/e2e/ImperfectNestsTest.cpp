// Statements between the DO loops (issue 38) on the GPU: imperfect.f90's
// rows with a boundary element set before the inner loop and one after it,
// its row whose boundary element reads the previous row's (the loop over j
// ordered), and its 3D nest with statements between the k, j and i loops
// (one under an IF on the loop variable), through a library built for pthreads and
// cuda, every call on the GPU (F2S_TARGET=cuda), against gfortran's build
// of the original loops, bit for bit, at odd sizes and at sizes where an
// inner loop runs no trip (its outer statements still run). The CUDA runs
// under the CPU emulation (tests/cuda/emulation) with the grid capped so
// that blocks stride; the same source compiles with nvcc where it is
// installed. The CPU targets' runs, untuned and tuned, are EndToEndTest's
// StatementsBetweenTheLoopsMatchTheOriginal.
#include "e2e/EmulatedLibrary.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(ImperfectNestsOnTheGpu, StatementsBetweenTheLoopsMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = test::build_emulated(dir.path(), "imperfect", ".f90");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size : std::vector<std::vector<std::string>>{
           {}, {"2", "3", "2"}, {"1", "5", "3"}, {"33", "17", "5"}, {"5", "40", "3"}})
    test::expect_gpu_passes(exe, {"imp_rows", "imp_edge", "imp_planes"}, size);
}

} // namespace
} // namespace f2s
