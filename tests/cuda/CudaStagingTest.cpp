// transforms/CudaStaging: which grids are staged in shared memory, with which
// halo, and how the CUDA printer reads them (the printed kernel).
#include "transforms/CudaStaging.h"
#include "ast/IRPrinter.h"
#include "codegen/CudaPrinter.h"
#include "tests/common/TestUtil.h"
#include "transforms/CudaMapping.h"

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
  EXPECT_NE(cuda.find("f2s_sh_u[f2s_sh_u_z1][j - j_b + 1][i - i_b + 1]"), std::string::npos)
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

} // namespace f2s
