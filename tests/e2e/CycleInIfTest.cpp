// CYCLE inside IF constructs (issue 38): ocean-style land masks, a CYCLE in
// ELSE IF and ELSE branches, and one among the statements an IF (...) GO TO
// skips, against the same Fortran compiled by gfortran, on the GPU code (CUDA
// emulation). The CPU targets, untuned and tuned:
// EndToEnd.CycleInsideIfConstructsMatchesTheOriginal.
#include "e2e/E2E.h"
#include "e2e/EmulatedLibrary.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(CycleInIfOnTheGpu, MaskedPointsMatchTheOriginal) {
  test::ScratchDir dir;
  std::string exe = test::build_emulated(dir.path(), "cycle2d", ".f90");
  ASSERT_FALSE(exe.empty());
  for (std::vector<std::string> size :
       std::vector<std::vector<std::string>>{{}, {"37", "5"}, {"3", "3"}, {"2", "41"}})
    test::expect_gpu_passes(exe, {"cyc_a", "cyc_b", "cyc_c"}, size);
}

} // namespace
} // namespace f2s
