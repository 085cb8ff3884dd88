// The per-point passes on conditional code: IF blocks and MERGE are copied,
// shifted and shared like any other statement or expression, but nothing is
// moved out of a branch, and a grid that some points leave unwritten is
// never streamed through a row buffer.
#include "ast/Analysis.h"
#include "ast/IRPrinter.h"
#include "transforms/CacheBypass.h"
#include "transforms/CommonSubexpressions.h"
#include "transforms/RegisterBlocking.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

const char *kBranches = R"(subroutine s(n, c, a, b, d, e)
  integer :: n, i, j, c
  real(8) :: a(0:n+1, 0:n+1), b(n, n), d(n, n), e(n, n)
  !$f2s stencil name(br)
  do j = 1, n
    do i = 1, n
      e(i, j) = 0d0
      if (mod(i + j + c, 2) == 0) then
        b(i, j) = 2d0*(a(i-1, j) + a(i+1, j)) + 2d0*(a(i-1, j) + a(i+1, j))
        e(i, j) = 1d0
      else
        b(i, j) = 2d0*(a(i-1, j) + a(i+1, j))
      end if
      if (a(i, j-1) > 0d0) d(i, j) = merge(a(i, j+1), 1d0, a(i, j) < 0.5d0)
    end do
  end do
end subroutine
)";

TEST(Conditionals, AnalysisSeesEveryAccessInsideBranches) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, kBranches);
  KernelFacts f = analyze(k);
  EXPECT_EQ(f.read_set, (std::vector<std::string>{"a"}));
  EXPECT_EQ(f.write_set, (std::vector<std::string>{"b", "d", "e"}));
  // b is written on both paths, but each store is inside the IF.
  EXPECT_EQ(f.conditional_write_set, (std::vector<std::string>{"b", "d"}));
  EXPECT_EQ(f.footprint["a"].reads, (std::set<Offset>{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {0, 0}}));
  EXPECT_EQ(f.halo, (std::vector<int64_t>{1, 1}));
}

TEST(Conditionals, CacheBypassStreamsOnlyGridsEveryPointWrites) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, kBranches);
  EXPECT_EQ(bypass_cache(k, {}).streamed, (std::vector<std::string>{"e"}));
}

TEST(Conditionals, CommonSubexpressionsStayInsideTheirBranch) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, kBranches);
  Kernel after = eliminate_common_subexpressions(k, {});
  EXPECT_EQ(print_stmt(after.body), "for j = 1, n {\n"
                                    "  for i = 1, n {\n"
                                    "    e(i, j) = 0.0d0\n"
                                    "    if mod(i + j + c, 2) == 0 {\n"
                                    "      cse0 = 2.0d0*(a(i - 1, j) + a(i + 1, j))\n"
                                    "      b(i, j) = cse0 + cse0\n"
                                    "      e(i, j) = 1.0d0\n"
                                    "    } else {\n"
                                    "      b(i, j) = 2.0d0*(a(i - 1, j) + a(i + 1, j))\n"
                                    "    }\n"
                                    "    if a(i, j - 1) > 0.0d0 {\n"
                                    "      d(i, j) = merge(a(i, j + 1), 1.0d0, a(i, j) < 0.5d0)\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n");
}

TEST(Conditionals, RegisterBlockingShiftsConditionsWithThePoint) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, c, a, b)
  integer :: n, i, j, c
  real(8) :: a(0:n+1, n), b(n, n), t
  !$f2s stencil name(rb)
  do j = 1, n
    do i = 1, n
      if (mod(i + j + c, 2) == 0) then
        t = a(i-1, j)
      else
        t = a(i+1, j)
      end if
      b(i, j) = merge(t, -t, i > 2)
    end do
  end do
end subroutine
)");
  Kernel jammed = register_block(k, {2, 1, 1});
  std::string text = print_stmt(jammed.body);
  EXPECT_NE(text.find("  for i = 1, n - 1, 2 {\n"
                      "    if mod(i + j + c, 2) == 0 {\n"
                      "      t_0 = a(i - 1, j)\n"
                      "    } else {\n"
                      "      t_0 = a(i + 1, j)\n"
                      "    }\n"
                      "    b(i, j) = merge(t_0, -t_0, i > 2)\n"
                      "    if mod(i + 1 + j + c, 2) == 0 {\n"
                      "      t_1 = a(i, j)\n"
                      "    } else {\n"
                      "      t_1 = a(i + 2, j)\n"
                      "    }\n"
                      "    b(i + 1, j) = merge(t_1, -t_1, i + 1 > 2)\n"
                      "  }\n"),
            std::string::npos)
      << text;
}

} // namespace
} // namespace f2s
