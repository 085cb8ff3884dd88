// Subscripts offset by a loop-invariant INTEGER scalar (issues 11 and 38):
// `r(2*i - d)` with d an argument. In an array the region only reads, with
// the same offset in every access, the offset moves into the array's
// declared bounds; in a written array, or where the offsets differ, it stays
// in the subscript for the dependence analysis (tests/ast/
// LoopDependencesTest.cpp). A scalar the nest assigns from anything but such
// an expression is no offset.
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

// A written array keeps its numbering: the offset stays in the subscript
// (Index::sym), a parameter of the dependence analysis, which decides.
TEST(SubscriptOffsets, AWrittenArrayKeepsTheOffsetInItsSubscript) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, restriction("c(i - d) = c(i - d) + r(i)"));
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_kernel(ks[0]);
  EXPECT_NE(ir.find("c: f64(1:n)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("c(i - d) = c(i - d) + r(i)"), std::string::npos) << ir;
  EXPECT_TRUE(ks[0].subscript_offsets.empty());
}

// Offsets that differ between the accesses of one dimension stay in the
// subscripts, each as written; the bounds keep the declared ones.
TEST(SubscriptOffsets, OffsetsThatDifferStayInTheSubscripts) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, restriction("c(i) = r(2*i - d) + r(2*i + 2*d)"));
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_kernel(ks[0]);
  EXPECT_NE(ir.find("r: f64(1:m)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("c(i) = r(2*i - d) + r(2*i + 2*d)"), std::string::npos) << ir;
  EXPECT_TRUE(ks[0].subscript_offsets.empty());
}

// The last dimension of an assumed-size array keeps its offset, read or
// written: the region's reach, which becomes the array's last upper bound,
// holds it.
TEST(SubscriptOffsets, TheLastDimensionOfAnAssumedSizeArrayKeepsItsOffset) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, R"(subroutine s(nx, ny, d, ld, a, b)
  integer :: nx, ny, d, ld, i, j
  real(8) :: a(ld, *), b(ld, *)
  !$f2s stencil
  do j = 1, ny
    do i = 1, nx
      b(i, j + d) = b(i, j + d) + 0.5d0*a(i, j + d)
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_kernel(ks[0]);
  EXPECT_NE(ir.find("a: f64(1:ld, 1:ny + d), b: f64(1:ld, 1:ny + d)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("b(i, j + d) = b(i, j + d) + 0.5d0*a(i, j + d)"), std::string::npos) << ir;
}

// A line buffer is replaced by the values its fill computes, which needs
// one offset in all its accesses.
TEST(SubscriptOffsets, ALineBufferWithOffsetsThatDifferIsRefused) {
  std::string text = R"(subroutine s(n, d, u, v)
  implicit none
  integer :: n, d, i, j
  real(8) :: u(0:n+1, n), v(n, n), w(0:n+1)
  !$f2s stencil
  do j = 1, n
    do i = 0, n + 1
      w(i + d) = u(i, j)
    end do
    do i = 1, n
      v(i, j) = w(i - 1) + w(i + 1)
    end do
  end do
end subroutine
)";
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, "Subscript 'i + d' of line buffer 'w' is offset by variable 'd', but "
                       "another subscript of 'w', 'i - 1', is offset by constants only; every "
                       "access to a line buffer must have the same offset, so that it can be "
                       "replaced by the values it holds; make 'd' a named constant (PARAMETER)");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, "i + d)"));
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
