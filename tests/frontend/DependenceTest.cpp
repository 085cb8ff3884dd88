// Every reason a region cannot run in parallel, as the user reads it: the
// front end refuses what the IR cannot hold (unknown procedures, subscripts
// that are not affine, undeclared names) and ast/Dependence refuses what it
// cannot prove independent. Each test checks the message and its position.
#include "ast/Dependence.h"
#include "tests/common/TestUtil.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

bool accepted(const std::string &text) {
  test::TempDir dir;
  for (const Kernel &k : test::lower_text(dir, text))
    if (auto d = find_dependence(k)) {
      ADD_FAILURE() << d->str();
      return false;
    }
  return true;
}

void expect_refusal(const std::string &text, const std::string &message, const std::string &at,
                    int nth = 1) {
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, message);
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, at, nth)) << d.str();
}

/// A 3D subroutine around `body`, with grids u, f, c and scalars.
std::string nest3(const std::string &body) {
  return test::around_nest3(R"(subroutine s(n, color, h, u, f, c)
  implicit none
  integer :: n, color, i, j, k, m
  real(8) :: h, t, r
  real(8) :: u(0:n+1, 0:n+1, 0:n+1), f(0:n+1, 0:n+1, 0:n+1), c(0:n+1, 0:n+1, 0:n+1)
  integer :: idx(n)
)",
                            body);
}

const char *const kRedBlack = R"(
        if (mod(i + j + k + color, 2) == 0) then
          u(i, j, k) = (f(i, j, k) + c(i, j, k)*(u(i-1, j, k) + u(i+1, j, k) + u(i, j-1, k) &
                       + u(i, j+1, k) + u(i, j, k-1) + u(i, j, k+1)))/6d0
        end if)";

TEST(Dependence, AcceptsIndependentPoints) {
  EXPECT_FALSE(find_dependence(test::example_kernel("laplacian")));
  EXPECT_FALSE(find_dependence(test::example_kernel("gradient")));
}

TEST(Dependence, RefusesAGridReadAtAnotherPointOfTheSameSweep) {
  std::string src = nest3("        u(i, j, k) = (u(i-1, j, k) + u(i+1, j, k) + f(i, j, k))/3d0");
  expect_refusal(src,
                 "'u' is written at (i,j,k) and read at (i-1,j,k) in the same sweep, so the "
                 "result depends on the loop order",
                 "u(i-1");
}

TEST(Dependence, AcceptsRedBlackGaussSeidelWrittenAsAColourTest) {
  EXPECT_TRUE(accepted(nest3(kRedBlack)));
  // The colour may be spelled with /= 0, == 1, on the other side, or in a
  // conjunction.
  EXPECT_TRUE(accepted(nest3(R"(
        if (0 /= mod(color + k + j + i, 2) .and. h > 0) u(i,j,k) = u(i-1,j,k) + u(i,j+1,k))")));
  EXPECT_TRUE(accepted(nest3(R"(
        if (mod(i + j + k + 1, 2) == 1) u(i,j,k) = u(i,j,k) + u(i,j,k-1))")));
  // MOD(e, 2) == x keeps e - x even, whatever x is.
  EXPECT_TRUE(accepted(nest3(R"(
        if (mod(i + j + k, 2) == color) u(i,j,k) = u(i+1,j,k) + u(i,j-1,k))")));
  EXPECT_TRUE(accepted(nest3(R"(
        if (mod(i + j, 2) == k) u(i,j,k) = u(i+1,j,k) + u(i,j,k-1))")));
}

TEST(Dependence, AcceptsTheStrideTwoRedBlackLoop) {
  std::string src = R"(subroutine s(n, color, f, u)
  integer :: n, color, i, j, k
  real(8) :: f(0:n+1, 0:n+1, 0:n+1), u(0:n+1, 0:n+1, 0:n+1)
  !$f2s stencil
  do k = 1, n
    do j = 1, n
      do i = 1 + mod(j + k + color, 2), n, 2
        u(i,j,k) = f(i,j,k) + u(i-1,j,k) + u(i+1,j,k) + u(i,j-1,k) + u(i,j,k+1)
      end do
    end do
  end do
end subroutine
)";
  EXPECT_TRUE(accepted(src));
  std::string same = src;
  same.replace(same.find("u(i+1,j,k)"), 10, "u(i+2,j,k)");
  expect_refusal(same,
                 "'u' is written at (i,j,k) and read at (i+2,j,k), a point of the same colour, in "
                 "the same sweep, so the result depends on the loop order",
                 "u(i+2");
}

TEST(Dependence, RefusesAColourTestReadingItsOwnColour) {
  std::string src = nest3(R"(
        if (mod(i + j + k + color, 2) == 0) then
          u(i, j, k) = u(i-2, j, k) + u(i+1, j, k)
        end if)");
  expect_refusal(src,
                 "'u' is written at (i,j,k) and read at (i-2,j,k), a point of the same colour, in "
                 "the same sweep, so the result depends on the loop order",
                 "u(i-2");
  // MOD(i + j, 2) == k colours by i + j + k: (i+1, j, k+1) keeps it.
  expect_refusal(nest3(R"(
        if (mod(i + j + k, 2) == 0) u(i, j, k) = u(i+1, j, k+1))"),
                 "'u' is written at (i,j,k) and read at (i+1,j,k+1), a point of the same colour, "
                 "in the same sweep, so the result depends on the loop order; more than one loop "
                 "carries a dependence ('k', 'i'), so no loop can run in order while the others "
                 "run in parallel",
                 "u(i+1");
  // With k from 1, MOD(i + j, 2) == k holds on the plane k = 1 only, as
  // isl's exact domain says: the plane read, k + 1, is never written.
  EXPECT_TRUE(accepted(nest3(R"(
        if (mod(i + j, 2) == k) u(i, j, k) = u(i+1, j, k+1))")));
  // Two loop variables only: (i+1, j+1) keeps the colour of i + j.
  expect_refusal(nest3(R"(
        if (mod(i + j, 2) == 0) u(i, j, k) = u(i+1, j+1, k))"),
                 "'u' is written at (i,j,k) and read at (i+1,j+1,k), a point of the same colour, "
                 "in the same sweep, so the result depends on the loop order; more than one loop "
                 "carries a dependence ('j', 'i'), so no loop can run in order while the others "
                 "run in parallel",
                 "u(i+1");
}

TEST(Dependence, RefusesWritingBothColours) {
  std::string src = nest3(R"(
        if (mod(i + j + k + color, 2) == 0) then
          u(i, j, k) = u(i-1, j, k)
        else
          u(i, j, k) = 0d0
        end if)");
  expect_refusal(src,
                 "'u' is written at (i,j,k) and read at (i-1,j,k) in the same sweep, so the "
                 "result depends on the loop order",
                 "u(i-1");
}

TEST(Dependence, RefusesAReadOutsideTheColourTest) {
  std::string src = nest3(R"(
        t = u(i, j+1, k)
        if (mod(i + j + k, 2) == 0) u(i, j, k) = t)");
  expect_refusal(src,
                 "'u' is written at (i,j,k) and read at (i,j+1,k) in the same sweep, so the "
                 "result depends on the loop order",
                 "u(i, j+1");
}

TEST(Dependence, RefusesATestThatIsNotOneColour) {
  // MOD(x, 2) /= 1 holds on even x and on negative odd x: both colours.
  std::string src = nest3(R"(
        if (mod(i + j + k - 10, 2) /= 1) u(i, j, k) = u(i+1, j, k))");
  expect_refusal(src,
                 "'u' is written at (i,j,k) and read at (i+1,j,k) in the same sweep, so the "
                 "result depends on the loop order",
                 "u(i+1");
  // A colour that a temporary decides is no colour of the point.
  expect_refusal(nest3(R"(
        m = i/2
        if (mod(i + j + k + m, 2) == 0) u(i, j, k) = u(i+1, j, k))"),
                 "'u' is written at (i,j,k) and read at (i+1,j,k) in the same sweep, so the "
                 "result depends on the loop order",
                 "u(i+1");
}

TEST(Dependence, RefusesAScalarReadBeforeItIsAssigned) {
  std::string src = nest3(R"(
        u(i, j, k) = t + f(i, j, k)
        t = f(i, j, k))");
  expect_refusal(src,
                 "'t' is read before it is assigned in the '!$f2s stencil' region, so its value "
                 "is carried between iterations",
                 "t + f");
}

TEST(Dependence, RefusesAScalarAssignedOnlyOnSomePaths) {
  std::string src = nest3(R"(
        if (f(i, j, k) > 0d0) then
          t = 1d0
        else if (f(i, j, k) < -1d0) then
          t = 2d0
        end if
        u(i, j, k) = t)");
  expect_refusal(src,
                 "'t' may be read before it is assigned (only some branches of an IF assign it) "
                 "in the '!$f2s stencil' region, so its value is carried between iterations",
                 "t\n");
}

TEST(Dependence, AcceptsAScalarAssignedOnEveryPath) {
  EXPECT_TRUE(accepted(nest3(R"(
        if (f(i, j, k) > 0d0) then
          t = 1d0
        else if (f(i, j, k) < -1d0) then
          t = 2d0
        else
          t = f(i, j, k)
        end if
        u(i, j, k) = t)")));
}

TEST(Dependence, RefusesASubscriptThatIsNotAffine) {
  std::string src = nest3("        u(i, j, k) = f(idx(i), j, k)");
  expect_refusal(
      src,
      "Subscript 'idx(i)' of 'f' is not an integer multiple of a loop variable plus a constant",
      "idx(i)");
  expect_refusal(
      nest3("        u(i, j, k) = f(i*j, j, k)"),
      "Subscript 'i*j' of 'f' is not an integer multiple of a loop variable plus a constant",
      "i*j");
}

/// A 3D restriction or interpolation: coarse e and fine u, w.
std::string multigrid3(const std::string &body) {
  return R"(subroutine s(n, e, u, w)
  implicit none
  integer :: n, i, j, k
  real(8) :: e(0:n+1, 0:n+1, 0:n+1), u(0:2*n+1, 0:2*n+1, 0:2*n+1), w(0:2*n+1, 0:2*n+1, 0:2*n+1)
  !$f2s stencil
  do k = 0, n
    do j = 0, n
      do i = 0, n
)" + body +
         R"(
      end do
    end do
  end do
end subroutine
)";
}

TEST(Dependence, AcceptsMultigridTransfers) {
  EXPECT_FALSE(find_dependence(test::example_kernel("restrict3d")));
  EXPECT_FALSE(find_dependence(test::example_kernel("interp3d")));
  EXPECT_FALSE(find_dependence(test::example_kernel("refine2d")));
  // Stores at distinct residues never meet; reading a residue nobody writes
  // is safe; the same element read and written by one point is too.
  EXPECT_TRUE(accepted(multigrid3(R"(
        u(2*i, 2*j, 2*k) = u(2*i, 2*j, 2*k) + e(i, j, k)
        u(2*i+1, 2*j, 2*k) = w(4*i, j, k) + u(2*i+3, 2*j-1, 2*k))")));
}

TEST(Dependence, RefusesStoresThatMeetAcrossPoints) {
  std::string src = multigrid3(R"(
        u(2*i, 2*j, 2*k) = e(i, j, k)
        u(2*i+2, 2*j, 2*k) = e(i+1, j, k))");
  expect_refusal(src,
                 "'u' is written at (2*i,2*j,2*k) by one point and at (2*i+2,2*j,2*k) by "
                 "another, so the result depends on the loop order",
                 "u(2*i+2");
}

TEST(Dependence, RefusesAReadOfAnElementAnotherPointWrites) {
  std::string src = multigrid3(R"(
        u(2*i, 2*j, 2*k) = u(2*i+2, 2*j, 2*k) + e(i, j, k))");
  expect_refusal(src,
                 "'u' is written at (2*i,2*j,2*k) and read at (2*i+2,2*j,2*k) in the same "
                 "sweep, so the result depends on the loop order",
                 "u(2*i+2");
  // Another factor: u(i, ...) is u(2*i, ...) of the point at i/2.
  expect_refusal(multigrid3("        u(2*i, 2*j, 2*k) = u(i, 2*j, 2*k)"),
                 "'u' is written at (2*i,2*j,2*k) and read at (i,2*j,2*k) in the same sweep, so "
                 "the result depends on the loop order",
                 "u(i, 2");
  // A fixed plane meets the stores of the points on it.
  expect_refusal(multigrid3("        u(2*i, 2*j, 2*k) = u(2*i, 2*j, 4)"),
                 "'u' is written at (2*i,2*j,2*k) and read at (2*i,2*j,4) in the same sweep, so "
                 "the result depends on the loop order",
                 "u(2*i, 2*j, 4)");
}

TEST(Dependence, StridedLoopsMeetAtTheirOwnPointsOnly) {
  // do i = 2, n-1, 2 writes even i and reads odd i: independent. Messages
  // speak of the source's i, not of the loop's trip counter.
  EXPECT_FALSE(find_dependence(test::example_kernel("refine2d")));
  std::string src = R"(subroutine s(n, u)
  integer :: n, i
  real(8) :: u(0:n+1)
  !$f2s stencil
  do i = 2, n - 1, 2
    u(i) = u(i-2) + u(i+1)
  end do
end subroutine
)";
  expect_refusal(src,
                 "'u' is written at (i) and read at (i-2) in the same sweep, so the result "
                 "depends on the loop order; the only loop carries it",
                 "u(i-2)");
}

TEST(Dependence, RefusesAnUnknownFunctionOrProcedure) {
  expect_refusal(nest3("        u(i, j, k) = g(f(i, j, k))"),
                 "'g' is an unknown function, so what it reads and writes cannot be known; "
                 "inside a '!$f2s stencil' region only the elementary intrinsics (SQRT, EXP, "
                 "LOG, LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH), ABS, "
                 "SIGN, MIN, MAX, MOD, MERGE, the conversions (REAL, DBLE, FLOAT, INT, NINT, "
                 "FLOOR, CEILING, AINT, ANINT) and their specific names (DSQRT, AMAX1, ...) "
                 "are allowed; declare 'g' if it is an array, or write the function's "
                 "computation inline",
                 "g(f");
  expect_refusal(nest3("        call g(u, i, j, k)"),
                 "A CALL statement is not allowed inside a '!$f2s stencil' region; write the "
                 "subroutine's computation inline",
                 "call g");
}

TEST(Dependence, RefusesAVariableWhoseValueIsUnknown) {
  expect_refusal(nest3("        u(i, j, k) = f(i, j, k)*w"),
                 "'w' is not declared and IMPLICIT NONE is in force; declare it", "w\n");
}

// ------------------------------------------------------------ ordered loops

/// The ordering the analysis finds for the one region of `text`.
Ordering ordering_of(const std::string &text) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, text);
  EXPECT_EQ(ks.size(), 1u);
  return ks.empty() ? Ordering{} : find_ordering(ks.front());
}

void expect_ordered(const std::string &text, const std::string &loop, const std::string &reason,
                    const std::string &at) {
  Ordering o = ordering_of(text);
  ASSERT_FALSE(o.refusal) << o.refusal->str();
  ASSERT_TRUE(o.ordered);
  EXPECT_EQ(o.ordered->var, loop);
  EXPECT_EQ(o.ordered->reason, reason);
  EXPECT_EQ(test::line_col(o.ordered->loc), test::loc_of(text, at));
}

TEST(Ordering, IndependentPointsNeedNoOrder) {
  Ordering o = find_ordering(test::example_kernel("laplacian"));
  EXPECT_FALSE(o.refusal);
  EXPECT_FALSE(o.ordered);
}

TEST(Ordering, AVerticalRecurrenceOrdersTheOutermostLoop) {
  expect_ordered(nest3("        u(i, j, k) = f(i, j, k) - c(i, j, k)*u(i, j, k-1)"), "k",
                 "'u' is written at (i,j,k) and read at (i,j,k-1) in the same sweep",
                 "u(i, j, k-1)");
}

TEST(Ordering, ABackSubstitutionReadsTheNextPlane) {
  expect_ordered(nest3("        u(i, j, k) = f(i, j, k) - c(i, j, k)*u(i, j, k+1)"), "k",
                 "'u' is written at (i,j,k) and read at (i,j,k+1) in the same sweep",
                 "u(i, j, k+1)");
}

TEST(Ordering, ALineRecurrenceOrdersTheInnermostLoop) {
  expect_ordered(nest3("        u(i, j, k) = 0.5d0*(u(i-1, j, k) + u(i-2, j, k)) + f(i, j, k)"),
                 "i", "'u' is written at (i,j,k) and read at (i-1,j,k) in the same sweep", "u(i-1");
}

TEST(Ordering, OnlyDependencesAlongOneLoopLeaveTheOthersFree) {
  // Reading row 1 of every column ties each point to the column's first
  // point: still only along j, so j is ordered.
  expect_ordered(nest3("        u(i, j, k) = u(i, 1, k) + f(i, j, k)"), "j",
                 "'u' is written at (i,j,k) and read at (i,1,k) in the same sweep", "u(i, 1, k)");
  // Reading along two loops ties the columns of each to the other.
  std::string src = nest3("        u(i, j, k) = u(i, j-1, k) + u(i-1, j, k)");
  Ordering o = ordering_of(src);
  ASSERT_TRUE(o.refusal);
  EXPECT_FALSE(o.ordered);
  EXPECT_EQ(o.refusal->message,
            "'u' is written at (i,j,k) and read at (i-1,j,k) in the same sweep, so the result "
            "depends on the loop order; more than one loop carries a dependence ('j', 'i'), so "
            "no loop can run in order while the others run in parallel");
  EXPECT_EQ(test::line_col(o.refusal->loc), test::loc_of(src, "u(i-1"));
}

TEST(Ordering, RedBlackInTheHorizontalWithALexicographicVertical) {
  // The colour test is in i and j only: the horizontal neighbours are of the
  // other colour, the vertical ones of the same colour, earlier or later in k.
  std::string src = nest3(R"(
        if (mod(i + j + color, 2) == 0) then
          u(i, j, k) = (f(i, j, k) + u(i-1, j, k) + u(i+1, j, k) + u(i, j-1, k) + u(i, j+1, k) &
                       + u(i, j, k-1) + u(i, j, k+1))/6d0
        end if)");
  expect_ordered(src, "k",
                 "'u' is written at (i,j,k) and read at (i,j,k-1), a point of the same colour, in "
                 "the same sweep",
                 "u(i, j, k-1)");
}

TEST(Ordering, EveryLoopCarryingIsRefused) {
  std::string src = R"(subroutine s(n, u)
  implicit none
  integer :: n, i, j
  real(8) :: u(0:n+1, 0:n+1)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      u(i, j) = 0.25d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
    end do
  end do
end subroutine
)";
  Ordering o = ordering_of(src);
  ASSERT_TRUE(o.refusal);
  EXPECT_EQ(o.refusal->message,
            "'u' is written at (i,j) and read at (i,j-1) in the same sweep, so the result depends "
            "on the loop order; every loop of the nest carries a dependence ('j', 'i'), so none "
            "can run in parallel");
  EXPECT_EQ(test::line_col(o.refusal->loc), test::loc_of(src, "u(i, j-1)"));
}

TEST(Ordering, AOneLoopRecurrenceIsRefused) {
  std::string src = R"(subroutine s(n, u, f)
  implicit none
  integer :: n, i
  real(8) :: u(0:n), f(n)
  !$f2s stencil
  do i = 1, n
    u(i) = u(i-1) + f(i)
  end do
end subroutine
)";
  Ordering o = ordering_of(src);
  ASSERT_TRUE(o.refusal);
  EXPECT_EQ(o.refusal->message,
            "'u' is written at (i) and read at (i-1) in the same sweep, so the result depends on "
            "the loop order; the only loop carries it");
}

TEST(Ordering, ACarriedScalarIsStillRefused) {
  Ordering o = ordering_of(nest3("        u(i, j, k) = t\n        t = f(i, j, k)"));
  ASSERT_TRUE(o.refusal);
  EXPECT_FALSE(o.ordered);
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

TEST(Ordering, AnInPlaceBackwardStreamOrdersItsLoopOnly) {
  // Issue 38: each row takes the row after it, already updated by the
  // backward loop; i is free (isl finds the dependence at distance -1 in j
  // and 0 in i).
  std::string src = R"(subroutine s(n, m, c, u)
  implicit none
  integer :: n, m, i, j
  real(8) :: c, u(n, m+1)
  !$f2s stencil
  do j = m, 1, -1
    do i = 1, n
      u(i, j) = u(i, j) + c*u(i, j+1)
    end do
  end do
end subroutine
)";
  Ordering o = ordering_of(src);
  ASSERT_FALSE(o.refusal) << o.refusal->str();
  ASSERT_TRUE(o.ordered);
  EXPECT_EQ(o.ordered->var, "j");
  EXPECT_EQ(o.ordered->reason, "'u' is written at (i,j) and read at (i,j+1) in the same sweep");
}

} // namespace
} // namespace f2s
