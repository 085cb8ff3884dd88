// Common subexpressions: whole identical subtrees of a straight-line block
// computed once, never across an assignment that changes their value.
#include "transforms/CommonSubexpressions.h"
#include "ast/IRPrinter.h"
#include "transforms/RegisterBlocking.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(CommonSubexpressions, ReusesValuesSharedByJammedPoints) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(0:n+1, n), b(0:n+1, n)
  !$f2s stencil name(avg)
  do j = 1, n
  do i = 1, n
    b(i, j) = 0.5d0*(a(i-1, j) + a(i, j)) + 0.5d0*(a(i, j) + a(i+1, j))
  end do
  end do
end subroutine
)");
  Kernel jammed = register_block(k, {2, 1, 1});
  EXPECT_EQ(print_stmt(jammed.body),
            "for j = 1, n {\n"
            "  for i = 1, n - 1, 2 {\n"
            "    b(i, j) = 0.5d0*(a(i - 1, j) + a(i, j)) + 0.5d0*(a(i, j) + a(i + 1, j))\n"
            "    b(i + 1, j) = 0.5d0*(a(i, j) + a(i + 1, j)) + 0.5d0*(a(i + 1, j) + a(i + 2, j))\n"
            "  }\n"
            "  for i = 1 + n/2*2, n {\n"
            "    b(i, j) = 0.5d0*(a(i - 1, j) + a(i, j)) + 0.5d0*(a(i, j) + a(i + 1, j))\n"
            "  }\n"
            "}\n");
  Kernel after = eliminate_common_subexpressions(jammed, {});
  EXPECT_EQ(print_stmt(after.body),
            "for j = 1, n {\n"
            "  for i = 1, n - 1, 2 {\n"
            "    cse0 = 0.5d0*(a(i, j) + a(i + 1, j))\n"
            "    b(i, j) = 0.5d0*(a(i - 1, j) + a(i, j)) + cse0\n"
            "    b(i + 1, j) = cse0 + 0.5d0*(a(i + 1, j) + a(i + 2, j))\n"
            "  }\n"
            "  for i = 1 + n/2*2, n {\n"
            "    b(i, j) = 0.5d0*(a(i - 1, j) + a(i, j)) + 0.5d0*(a(i, j) + a(i + 1, j))\n"
            "  }\n"
            "}\n");
  ASSERT_EQ(after.temps.size(), 1u);
  EXPECT_EQ(after.temps[0].name, "cse0");
  EXPECT_EQ(after.temps[0].type, Type::Float64);
  // Disabled, the pass changes nothing.
  EXPECT_EQ(eliminate_common_subexpressions(jammed, {false}).body, jammed.body);
}

TEST(CommonSubexpressions, RespectsStoresLiteralKindsAndNameClashes) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, cse0, a, b, c)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n), c(n, n), t, cse0
  !$f2s stencil
  do j = 1, n
  do i = 1, n
    t = c(i, j)*3.0d0 + (a(i, j) + cse0)
    c(i, j) = a(i, j) + cse0 + t
    b(i, j) = c(i, j)*3.0d0 + t*2.0 + t*2.0d0
  end do
  end do
end subroutine
)");
  Kernel after = eliminate_common_subexpressions(k, {});
  // c(i)*3.0d0 reads c before and after c(i) is stored: two values. t*2.0
  // multiplies by a REAL(4) literal, t*2.0d0 by a REAL(8) one.
  EXPECT_EQ(print_stmt(after.body), "for j = 1, n {\n"
                                    "  for i = 1, n {\n"
                                    "    cse0_2 = a(i, j) + cse0\n"
                                    "    t = c(i, j)*3.0d0 + cse0_2\n"
                                    "    c(i, j) = cse0_2 + t\n"
                                    "    b(i, j) = c(i, j)*3.0d0 + t*2.0 + t*2.0d0\n"
                                    "  }\n"
                                    "}\n");
}

TEST(CommonSubexpressions, NeverSharesAcrossAReassignedTemporary) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, a, b, c)
  integer :: n, i, j
  real(4) :: a(n, n), b(n, n), c(n, n), t
  !$f2s stencil
  do j = 1, n
  do i = 1, n
    t = a(i, j)*2.0
    b(i, j) = sqrt(t + 1.0)
    t = a(i, j)*3.0
    c(i, j) = sqrt(t + 1.0)
  end do
  end do
end subroutine
)");
  Kernel after = eliminate_common_subexpressions(k, {});
  EXPECT_EQ(after.body, k.body) << print_stmt(after.body);
  EXPECT_EQ(after.temps.size(), k.temps.size());
}

TEST(CommonSubexpressions, SharesTheLargestTreeFirstThenWhatRemains) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, a, b, c)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n), c(n, n)
  !$f2s stencil
  do j = 1, n
  do i = 1, n
    b(i, j) = exp(a(i, j) - 1.0d0) * exp(a(i, j) - 1.0d0) + (a(i, j) - 1.0d0)
    c(i, j) = -exp(a(i, j) - 1.0d0)
  end do
  end do
end subroutine
)");
  Kernel after = eliminate_common_subexpressions(k, {});
  EXPECT_EQ(print_stmt(after.body), "for j = 1, n {\n"
                                    "  for i = 1, n {\n"
                                    "    cse1 = a(i, j) - 1.0d0\n"
                                    "    cse0 = exp(cse1)\n"
                                    "    b(i, j) = cse0*cse0 + cse1\n"
                                    "    c(i, j) = -cse0\n"
                                    "  }\n"
                                    "}\n");
}

} // namespace
} // namespace f2s
