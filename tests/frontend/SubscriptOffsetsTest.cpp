// Subscripts offset by a loop-invariant INTEGER scalar (issue 11, section 2):
// `r(2*i - d)` with d an argument, in arrays the region only reads. The
// offset moves into the array's declared bounds; a written array, an offset
// that differs between accesses, or a scalar the nest assigns from anything
// but such an expression is refused.
#include "ast/IRPrinter.h"
#include "tests/common/TestUtil.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

std::string restriction(const std::string &point, const std::string &decls = "") {
  return R"(subroutine s(m, n, d, r, c)
  implicit none
  integer :: m, n, d, i, e
  real(8) :: r(m), c(n)
)" + decls +
         R"(  !$f2s stencil
  do i = 2, n - 1
    )" + point +
         R"(
  end do
end subroutine
)";
}

TEST(SubscriptOffsets, MoveIntoTheBoundsOfTheArrayRead) {
  test::TempDir dir;
  std::vector<Kernel> ks =
      test::lower_text(dir, restriction("c(i) = r(2*i - d - 1) + 2*r(2*i - d) + r(2*i + 1 - d)"));
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_kernel(ks[0]);
  EXPECT_NE(ir.find("r: f64(1 + d:m + d)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("c(i) = r(2*i - 1) + 2*r(2*i) + r(2*i + 1)"), std::string::npos) << ir;
  EXPECT_EQ(ks[0].subscript_offsets, std::vector<std::string>{"d"});
  // A factor on the offset scales the shift.
  ks = test::lower_text(dir, restriction("c(i) = r(2*(i - d))"));
  EXPECT_NE(print_kernel(ks[0]).find("r: f64(1 + 2*d:m + 2*d)"), std::string::npos);
}

TEST(SubscriptOffsets, AWrittenArrayIsRefused) {
  std::string text = restriction("c(i - d) = r(i)");
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, "Subscript 'i - d' of 'c' is offset by variable 'd'; such an offset is "
                       "accepted only in arrays the '!$f2s stencil' region does not write; make "
                       "'d' a named constant (PARAMETER)");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, "i - d)"));
}

TEST(SubscriptOffsets, OffsetsThatDifferBetweenAccessesAreRefused) {
  std::string text = restriction("c(i) = r(2*i - d) + r(2*i)");
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, "Subscript '2*i - d' of 'r' is offset by variable 'd', but another "
                       "subscript of 'r' in this dimension, '2*i', is offset by constants only; a "
                       "variable offset must be the same in every access to an array; make 'd' a "
                       "named constant (PARAMETER)");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, "2*i - d"));
}

// An INTEGER temporary the point assigns from the offset reads as its value
// (`i1 = 2*j1 - d1` of a restriction in F77); one assigned from anything
// else is no offset.
TEST(SubscriptOffsets, AScalarTheNestAssignsReadsAsItsValue) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, restriction("e = d + 1\n    c(i) = r(2*i - e)"));
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_kernel(ks[0]);
  EXPECT_NE(ir.find("r: f64(1 + d:m + d)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("c(i) = r(2*i - 1)"), std::string::npos) << ir;

  std::string text = restriction("e = mod(d, 3)\n    c(i) = r(2*i - e)");
  Diagnostic d = test::refusal(text);
  EXPECT_NE(d.message.find("Subscript '2*i - e' of 'r' is not an integer multiple of a loop "
                           "variable plus a constant"),
            std::string::npos)
      << d.message;
}

} // namespace
} // namespace f2s
