// transforms/CudaStaging: which grids are staged in shared memory, with which
// halo, and how the CUDA printer reads them (the printed kernel).
#include "transforms/CudaStaging.h"
#include "ast/IRPrinter.h"
#include "codegen/CudaPrinter.h"
#include "tests/common/TestUtil.h"
#include "transforms/CudaMapping.h"
#include "transforms/CudaPlaneSums.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

namespace f2s {

namespace {

/// The part of the kernel's printed IR that lists its staged grids.
std::string shared_lines(const Kernel &k) {
  std::string ir = print_kernel(k), out;
  for (size_t pos = ir.find("  shared "); pos != std::string::npos;
       pos = ir.find("  shared ", pos + 1))
    out += ir.substr(pos, ir.find('\n', pos) - pos + 1);
  return out;
}

} // namespace

// A block's reduction tree takes one element per thread of shared memory,
// which the staging choice leaves out of its budget.
TEST(CudaStaging, ReductionTreesCountAgainstTheSharedMemory) {
  EXPECT_EQ(reduction_shared_bytes(map_cuda(test::example_kernel("maxnorm2d"), {32, 8, 1, 1, 0})),
            32 * 8 * 8);
  EXPECT_EQ(reduction_shared_bytes(map_cuda(test::example_kernel("himeno_gosa"), {64, 2, 1, 1, 8})),
            64 * 2 * 8);
  EXPECT_EQ(reduction_shared_bytes(map_cuda(test::example_kernel("star7"), {32, 8, 1, 1, 16})), 0);
  // With only the tree's bytes to spare, nothing is staged.
  Kernel h = map_cuda(test::example_kernel("himeno_gosa"), {32, 8, 1, 1, 16});
  EXPECT_FALSE(choose_shared_grids(h, kStaticSharedBytes).empty());
  EXPECT_TRUE(choose_shared_grids(h, reduction_shared_bytes(h)).empty());
}

TEST(CudaStaging, StarStagesItsInputWithoutCorners) {
  Kernel m = map_cuda(test::example_kernel("star7"), {32, 8, 1, 1, 16});
  std::vector<std::string> chosen = choose_shared_grids(m, 48 * 1024);
  ASSERT_EQ(chosen, std::vector<std::string>{"u"});
  // Four planes (three read at once, one being loaded) of a 32x8 tile with
  // a halo of one: 4*10*34 doubles.
  EXPECT_EQ(shared_bytes(m, chosen), 4 * 10 * 34 * 8);
  Kernel s = stage_planes(m, chosen);
  EXPECT_EQ(shared_lines(s), "  shared u x[-1:1] y[-1:1] z[-1:1] no_corners\n");
  std::string cuda = print_cuda_variant(s, "cuda_t");
  EXPECT_NE(cuda.find("__shared__ double f2s_sh_u[4][10][34];"), std::string::npos) << cuda;
  // A neighbour in y one plane up, read from the slot of that plane.
  EXPECT_NE(cuda.find("f2s_sh_u[f2s_sh_u_z1][F_j - F_j_b + 1][F_i - F_i_b + 1]"), std::string::npos)
      << cuda;
  EXPECT_NE(cuda.find("/* a corner: no read needs it */"), std::string::npos);
  EXPECT_NE(cuda.find("__syncthreads();"), std::string::npos);
  if (const char *dump = std::getenv("F2S_DUMP_CUDA"))
    std::ofstream(dump) << cuda;
}

TEST(CudaStaging, BoxLoadsCornersAndOrder2StarWidensTheHalo) {
  Kernel box = map_cuda(test::example_kernel("box27"), {32, 4, 2, 1, 8});
  Kernel s = stage_planes(box, choose_shared_grids(box, 48 * 1024));
  EXPECT_EQ(shared_lines(s), "  shared a x[-1:1] y[-1:1] z[-1:1]\n");
  Kernel star = map_cuda(test::example_kernel("star13"), {32, 8, 1, 1, 16});
  s = stage_planes(star, choose_shared_grids(star, 48 * 1024));
  EXPECT_EQ(shared_lines(s), "  shared u x[-2:2] y[-2:2] z[-2:2] no_corners\n");
}

TEST(CudaStaging, ChoosesGridsReadAroundThePointWithinTheBudget) {
  // Himeno's p is read at 19 positions; its 12 coefficient grids only at the
  // point, so they stream from DRAM as they are.
  Kernel h = map_cuda(test::example_kernel("himeno19"), {32, 8, 1, 1, 16});
  EXPECT_EQ(choose_shared_grids(h, 48 * 1024), std::vector<std::string>{"p"});
  // The divergence reads each input along one axis only: nothing pays.
  Kernel d = map_cuda(test::example_kernel("divergence"), {32, 8, 1, 1, 16});
  EXPECT_TRUE(choose_shared_grids(d, 48 * 1024).empty());
  // Nothing fits a budget smaller than one grid's planes.
  Kernel m = map_cuda(test::example_kernel("star7"), {32, 8, 1, 1, 16});
  EXPECT_TRUE(choose_shared_grids(m, 1000).empty());
  // Without a z stream there are no planes to keep.
  Kernel plain = map_cuda(test::example_kernel("star7"), {32, 8, 1, 1, 0});
  EXPECT_TRUE(choose_shared_grids(plain, 48 * 1024).empty());
}

// Multigrid: the fine grid of a restriction is read at 2*i + o, which no
// tile of points holds; it is neither staged nor kept in registers, and its
// reads keep their full index in the CUDA code.
TEST(CudaStaging, DeclinesGridsReadAtScaledSubscripts) {
  Kernel r = map_cuda(test::example_kernel("restrict3d"), {32, 8, 1, 1, 16});
  EXPECT_TRUE(choose_shared_grids(r, 48 * 1024).empty());
  Kernel cols = pipeline_columns(r);
  EXPECT_TRUE(cols.register_columns.empty());
  EXPECT_FALSE(plane_sums_pay(test::example_kernel("restrict3d")));
  std::string cuda = print_cuda_variant(cols, "cuda_t");
  EXPECT_NE(cuda.find("F_r[(2*F_i + 1 - f2s_F_r_lo0)"), std::string::npos) << cuda;
}

TEST(CudaStaging, StreamKeepsColumnsReadAlongZInRegisters) {
  // The divergence reads z only on the point's column, at k-1 and k+1: the
  // stream keeps k-1..k+1 in registers and loads one new plane per step.
  Kernel d = pipeline_columns(map_cuda(test::example_kernel("divergence"), {32, 8, 1, 1, 16}));
  std::string ir = print_kernel(d);
  EXPECT_NE(ir.find("  registers z z[-1:1]\n"), std::string::npos) << ir;
  EXPECT_EQ(ir.find("registers x"), std::string::npos) << ir;
  std::string cuda = print_cuda_variant(d, "cuda_t");
  EXPECT_EQ(cuda.find("F_z[f2s_"), std::string::npos) << "z read from memory at the point:\n"
                                                      << cuda;
  // Two points per thread in x or no stream: no columns.
  Kernel two = pipeline_columns(map_cuda(test::example_kernel("divergence"), {32, 8, 2, 1, 16}));
  EXPECT_EQ(print_kernel(two).find("registers"), std::string::npos);
  Kernel plain = pipeline_columns(map_cuda(test::example_kernel("divergence"), {32, 8, 1, 1, 0}));
  EXPECT_EQ(print_kernel(plain).find("registers"), std::string::npos);
  // The 7-point star keeps its column and loads the four reads beside it.
  Kernel star = map_cuda(test::example_kernel("star7"), {32, 8, 1, 1, 16});
  Kernel cols = pipeline_columns(star);
  EXPECT_NE(print_kernel(cols).find("  registers u z[-1:1]\n"), std::string::npos);
  cuda = print_cuda_variant(cols, "cuda_t");
  EXPECT_NE(cuda.find("f2s_rc_F_u_m1"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("f2s_at_F_u[-1]"), std::string::npos) << cuda;
  if (const char *dump = std::getenv("F2S_DUMP_CUDA_COLUMNS"))
    std::ofstream(dump) << cuda;
  // A staged grid is not also kept in registers.
  Kernel staged = pipeline_columns(stage_planes(star, {"u"}));
  EXPECT_EQ(print_kernel(staged).find("registers"), std::string::npos);
}

// Accesses of one grid at different scalars (`a(i, j + d1)` and
// `a(i, j + d2)`, Index::sym) are no constant offset from one pointer at the
// point: each keeps its own index.
TEST(CudaStaging, AccessesAtDifferentScalarsKeepTheirOwnIndex) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, m, d1, d2, a, b)
  integer :: n, m, d1, d2, i, j
  real(8) :: a(n, -1:m+2), b(n, m)
  !$f2s stencil
  do j = 1, m
    do i = 1, n
      b(i, j) = a(i, j + d1) - a(i, j + d2)
    end do
  end do
end subroutine
)");
  std::string cuda = print_cuda_variant(map_cuda(k, {32, 8, 1, 1, 0}), "cuda_t");
  EXPECT_EQ(cuda.find("f2s_at_F_a"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("F_j + F_d1 - f2s_F_a_lo1"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("F_j + F_d2 - f2s_F_a_lo1"), std::string::npos) << cuda;
}

} // namespace f2s
