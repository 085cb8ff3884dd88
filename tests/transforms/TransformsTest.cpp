// Each pass is shown the IR it is given and checked against the IR it must
// produce, both printed by the IR printer.
#include "ast/IRPrinter.h"
#include "transforms/CoreBlocking.h"
#include "transforms/Parallelize.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using test::kJacobi2D;

TEST(Parallelize, MarksTheOutermostLoopOnly) {
  test::ScratchDir dir;
  Kernel before = test::lower_text(dir, kJacobi2D);
  EXPECT_EQ(print_stmt(before.body), "for j = 1, m {\n"
                                     "  for i = 1, n {\n"
                                     "    v(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + "
                                     "u(i, j - 1) + u(i, j + 1))\n"
                                     "  }\n"
                                     "}\n");
  Kernel after = parallelize_outer(before);
  EXPECT_EQ(print_stmt(after.body), "parallel for j = 1, m {\n"
                                    "  for i = 1, n {\n"
                                    "    v(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + "
                                    "u(i, j - 1) + u(i, j + 1))\n"
                                    "  }\n"
                                    "}\n");
  // The inner loop and the statements are shared, not copied.
  EXPECT_EQ(as<For>(after.body)->body, as<For>(before.body)->body);
}

TEST(CoreBlocking, StripMinesEveryLoopWithRunTimeSizes) {
  test::ScratchDir dir;
  Kernel k = block_loops(test::lower_text(dir, kJacobi2D));
  EXPECT_EQ(print_stmt(k.body), "for j_blk = 1, m, cy {\n"
                                "  for i_blk = 1, n, cx {\n"
                                "    for j = j_blk, min(j_blk + cy - 1, m) {\n"
                                "      for i = i_blk, min(i_blk + cx - 1, n) {\n"
                                "        v(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + "
                                "u(i, j - 1) + u(i, j + 1))\n"
                                "      }\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  ASSERT_EQ(k.tuning.size(), 2u);
  EXPECT_EQ(k.tuning[0].name, "cx");
  EXPECT_EQ(k.tuning[1].name, "cy");
}

TEST(CoreBlocking, ComposesWithParallelisationOfTheBlockLoop) {
  Kernel k = parallelize_outer(block_loops(test::example_kernel("laplacian")));
  std::string ir = print_stmt(k.body);
  EXPECT_EQ(ir.substr(0, ir.find('\n')), "parallel for k_blk = 1, nz, cz {");
  EXPECT_NE(ir.find("      for k = k_blk, min(k_blk + cz - 1, nz) {\n"), std::string::npos);
  EXPECT_EQ(k.tuning.size(), 3u);
  EXPECT_EQ(k.tuning[2].name, "cz");
}

TEST(CoreBlocking, NeverCapturesAUserName) {
  test::ScratchDir dir;
  Kernel k = block_loops(test::lower_text(dir, R"(subroutine s(n, i_blk, cx, a, b)
  integer :: n, i, j, i_blk
  real(8) :: cx
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      b(i, j) = cx*a(i, j) + i_blk
    end do
  end do
end subroutine
)"));
  std::string ir = print_stmt(k.body);
  EXPECT_NE(ir.find("for i_blk2 = 1, n, cx2 {"), std::string::npos) << ir;
  EXPECT_EQ(k.tuning[0].name, "cx2");
}

} // namespace
} // namespace f2s
