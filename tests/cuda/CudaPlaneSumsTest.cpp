// transforms/CudaPlaneSums: which stencils it takes, the rewritten column
// loop (printed IR) and the CUDA it prints. That the sums are right is
// checked by running them (tests/cuda/CudaEmulationTest.cpp, the GPU bench).
#include "transforms/CudaPlaneSums.h"
#include "ast/IRPrinter.h"
#include "codegen/CudaPrinter.h"
#include "tests/common/TestUtil.h"
#include "transforms/CudaMapping.h"

#include <gtest/gtest.h>

namespace f2s {

TEST(CudaPlaneSums, PayForTheBoxNotForStarsOrArrayCoefficients) {
  EXPECT_TRUE(plane_sums_pay(test::example_kernel("box27")));
  // A register pipeline already loads a star's in-plane points once.
  EXPECT_FALSE(plane_sums_pay(test::example_kernel("star7")));
  EXPECT_FALSE(plane_sums_pay(test::example_kernel("star13")));
  EXPECT_FALSE(plane_sums_pay(test::example_kernel("laplacian")));
  // Weights that are grids (himeno19's a0(i,j,k)*p(i+1,j,k)), several
  // stores, 2D nests.
  EXPECT_FALSE(plane_sums_pay(test::example_kernel("himeno19")));
  EXPECT_FALSE(plane_sums_pay(test::example_kernel("gradient")));
  EXPECT_FALSE(plane_sums_pay(test::example_kernel("jacobi2d")));
}

TEST(CudaPlaneSums, BoxColumnSumsEachPlaneOnceForThreeOutputs) {
  Kernel m = map_cuda(test::example_kernel("box27"), {64, 4, 1, 1, 16});
  Kernel s = sum_planes(m);
  std::string ir = print_kernel(s);
  SCOPED_TRACE(ir);
  // Three sums (outputs of planes p-1, p, p+1); each plane's terms grouped by
  // weight, the own plane's (dz = 0) with the weights c0, c1, c2.
  EXPECT_NE(ir.find("for f2s_plane = k_b - 1, min(k_b + 15, nz) + 1 {"), std::string::npos);
  EXPECT_NE(ir.find("f2s_sum = f2s_sum + (c1*a(i, j, f2s_plane)"), std::string::npos);
  EXPECT_NE(ir.find("f2s_sum2 = f2s_sum2 + (c0*a(i, j, f2s_plane)"), std::string::npos);
  EXPECT_NE(ir.find("if f2s_plane >= k_b + 1 {"), std::string::npos);
  EXPECT_NE(ir.find("b(i, j, f2s_plane - 1) = f2s_sum"), std::string::npos);
  EXPECT_NE(ir.find("f2s_sum3 = 0"), std::string::npos);
  std::string cuda = print_cuda_variant(s, "cuda_t");
  // Per plane, one pointer to the column's element and the 9 in-plane loads.
  EXPECT_NE(cuda.find("const double *__restrict__ f2s_at_F_a = &F_a["), std::string::npos) << cuda;
  // Mapped without a stream, or with two points per thread: unchanged.
  Kernel plain = map_cuda(test::example_kernel("box27"), {32, 8, 1, 1, 0});
  EXPECT_EQ(print_kernel(sum_planes(plain)), print_kernel(plain));
  Kernel two = map_cuda(test::example_kernel("box27"), {32, 4, 1, 2, 16});
  EXPECT_EQ(print_kernel(sum_planes(two)), print_kernel(two));
}

} // namespace f2s
