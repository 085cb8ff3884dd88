// The tuning size of nests with planes at run-time positions (issue 38):
// the plane's scalar gets a value that keeps every plane inside the array,
// a few elements apart from the constant planes, whether it sizes the array
// (comm3's n1 in u(n1, n2, n3)) or not (a module's m beside an assumed-shape
// f(0:, 0:)); the bounds check sees the planes where they are.
#include "harness/ProblemSize.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(ProblemSizePlanes, AScalarThatSizesTheArrayKeepsThePlanesInsideAndApart) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine comm3(u, n1, n2, n3)
  implicit none
  integer :: n1, n2, n3, i2, i3
  real(8) :: u(n1, n2, n3)
  !$f2s stencil
  do i3 = 2, n3 - 1
    do i2 = 2, n2 - 1
      u(1, i2, i3) = u(n1-1, i2, i3)
      u(n1, i2, i3) = u(2, i2, i3)
    end do
  end do
end subroutine
)");
  ProblemSize size = problem_size_for(k, {20, 9});
  EXPECT_EQ(size.ints.at("n2"), 22);
  EXPECT_EQ(size.ints.at("n3"), 11);
  // The smallest n1 that holds u(n1) and u(2) is 2, where the planes are
  // the constant ones; four more keep them apart.
  EXPECT_EQ(size.ints.at("n1"), 6);
}

TEST(ProblemSizePlanes, AScalarBesideAnAssumedShapeArraySizesItsBoundArgument) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(module bc
  implicit none
  integer :: m, n
contains
  subroutine periodic(f)
    real(8), intent(inout) :: f(0:, 0:)
    integer :: j
    !$f2s stencil
    do j = 1, n
      f(0,j) = f(m,j)
      f(m+1,j) = f(1,j)
    end do
  end subroutine
end module
)");
  ProblemSize size = problem_size_for(k, {30});
  EXPECT_EQ(size.ints.at("n"), 30);
  EXPECT_EQ(size.ints.at("m"), 5);
  EXPECT_EQ(size.ints.at("f_ub1"), 6); // f(m+1)
  EXPECT_EQ(size.ints.at("f_ub2"), 30);
}

TEST(ProblemSizePlanes, APlaneOutsideTheArrayIsRefused) {
  test::ScratchDir dir;
  // u(n1 + 1) is outside u(n1, ...) whatever n1 is.
  Kernel k = test::lower_text(dir, R"(subroutine s(u, n1, n2)
  implicit none
  integer :: n1, n2, i2
  real(8) :: u(n1, n2)
  !$f2s stencil
  do i2 = 1, n2
    u(1, i2) = u(n1 + 1, i2)
  end do
end subroutine
)");
  EXPECT_THROW(problem_size_for(k, {20}), UserError);
}

} // namespace
} // namespace f2s
