// Nests with one ordered loop through the passes that spread loops over
// threads: the IR they are given and the IR they must produce, with the
// ordered loop serial (and in its direction) around or inside each column.
#include "ast/IRPrinter.h"
#include "transforms/CudaMapping.h"
#include "transforms/FirstTouch.h"
#include "transforms/Parallelize.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// The two sweeps of examples/tridiag_column, by name.
Kernel sweep(const std::string &name) {
  for (const Kernel &k : test::example_kernels("tridiag_column"))
    if (k.name == name)
      return k;
  ADD_FAILURE() << "no kernel " << name;
  return {};
}

TEST(OrderedLoop, TheKernelSaysWhichLoopAndWhy) {
  Kernel down = sweep("vdiff_down");
  ASSERT_TRUE(down.ordered);
  std::string ir = print_kernel(down);
  EXPECT_NE(ir.find("  ordered k: 'cp' is written at (i,j,k) and read at (i,j,k-1) in the same "
                    "sweep\n"),
            std::string::npos)
      << ir;
  Kernel up = sweep("vdiff_up");
  ASSERT_TRUE(up.ordered);
  EXPECT_EQ(up.ordered->var, "k");
  EXPECT_EQ(print_stmt(up.body), "reverse for k = 1, nz - 1 {\n"
                                 "  for j = 1, ny {\n"
                                 "    for i = 1, nx {\n"
                                 "      q(i, j, k) = q(i, j, k) - cp(i, j, k)*q(i, j, k + 1)\n"
                                 "    }\n"
                                 "  }\n"
                                 "}\n");
}

TEST(OrderedLoop, ThreadsSplitTheOutermostFreeLoop) {
  Kernel up = parallelize_outer(sweep("vdiff_up"));
  EXPECT_EQ(print_stmt(up.body), "reverse for k = 1, nz - 1 {\n"
                                 "  parallel for j = 1, ny {\n"
                                 "    for i = 1, nx {\n"
                                 "      q(i, j, k) = q(i, j, k) - cp(i, j, k)*q(i, j, k + 1)\n"
                                 "    }\n"
                                 "  }\n"
                                 "}\n");
  // The first touch takes the same split.
  Kernel touch = parallelize_outer(first_touch_kernel(sweep("vdiff_up")));
  std::vector<const For *> nest = perfect_nest(touch.body);
  ASSERT_GE(nest.size(), 2u);
  EXPECT_EQ(nest[0]->var, "k");
  EXPECT_EQ(nest[0]->exec, LoopExec::Serial);
  EXPECT_EQ(nest[1]->var, "j");
  EXPECT_EQ(nest[1]->exec, LoopExec::Parallel);
}

TEST(OrderedLoop, ANestWithoutOneIsSplitAtTheOutermostLoop) {
  Kernel k = parallelize_outer(test::example_kernel("laplacian"));
  EXPECT_EQ(perfect_nest(k.body).front()->exec, LoopExec::Parallel);
}

TEST(OrderedLoop, CudaThreadsTakeColumnsAndRunTheOrderedLoopInside) {
  CudaMappingOptions o;
  o.block_x = 32;
  o.block_y = 4;
  Kernel up = map_cuda(sweep("vdiff_up"), o);
  EXPECT_EQ(print_stmt(up.body),
            "cuda.block.y for j_b = 1, ny, 4 {\n"
            "  cuda.block.x for i_b = 1, nx, 32 {\n"
            "    cuda.thread.y for j_t = 0, 3 {\n"
            "      cuda.thread.x for i_t = 0, 31 {\n"
            "        reverse for k = 1, nz - 1 {\n"
            "          unrolled for j = j_b + j_t, min(j_b + j_t, ny), 4 {\n"
            "            unrolled for i = i_b + i_t, min(i_b + i_t, nx), 32 {\n"
            "              q(i, j, k) = q(i, j, k) - cp(i, j, k)*q(i, j, k + 1)\n"
            "            }\n"
            "          }\n"
            "        }\n"
            "      }\n"
            "    }\n"
            "  }\n"
            "}\n");
}

} // namespace
} // namespace f2s
