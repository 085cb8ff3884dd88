// Small work arrays of the point (issue 38): block-tridiagonal and ADI codes
// fill local arrays per point with DO loops of constant bounds (`tv(m)`,
// `tmat(m, n)` for m, n = 1, 5) and read them a few statements later. Those
// loops run inside the point, unrolled (frontend/OffsetLoops), not as loops
// of the nest or line buffers; the arrays' elements become temporaries of
// each point (canonicalize/PointArrays). The Jacobi form is accepted; the
// Gauss-Seidel form is refused for its dependence, carried by both loops;
// a work array read before the point assigns it, or after the region, is
// refused with the reason.
#include "ast/IRPrinter.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using test::lower_text;
using test::TempDir;

/// A block-tridiagonal step of `nc` components over the interior of a 2D
/// grid: per point, a matrix `tmat` and a vector `tv` filled by DO loops of
/// constant bounds, then their product stored. `from` is the array the
/// neighbours are read from: `uold` (Jacobi) or `u` (Gauss-Seidel).
std::string btri(const std::string &from, const std::string &nc = "5",
                 const std::string &decls = "") {
  return R"(subroutine btri(u, uold, rhs, a, nx, ny)
  implicit none
  integer, parameter :: nc = )" +
         nc + R"(
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: u(nc, nx, ny)
  real(8), intent(in) :: uold(nc, nx, ny), rhs(nc, nx, ny), a(nc, nc, nx, ny)
  real(8) :: tv(nc), tmat(nc, nc)
)" + decls +
         R"(  integer :: i, j, m, n
  !$f2s stencil
  do j = 2, ny - 1
    do i = 2, nx - 1
      do n = 1, nc
        do m = 1, nc
          tmat(m, n) = 0.5d0*a(m, n, i, j)
        end do
      end do
      do m = 1, nc
        tv(m) = rhs(m, i, j) + 0.25d0*()" +
         from + "(m, i-1, j) + " + from + R"((m, i, j-1))
      end do
      do m = 1, nc
        u(m, i, j) = 0.0d0
        do n = 1, nc
          u(m, i, j) = u(m, i, j) + tmat(m, n)*tv(n)
        end do
      end do
    end do
  end do
end subroutine
)";
}

TEST(PointArrays, TheJacobiFormKeepsItsWorkArraysPrivateToEachPoint) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, btri("uold", "2"));
  ASSERT_EQ(ks.size(), 1u);
  const Kernel &k = ks[0];
  EXPECT_EQ(k.loop_depth(), 2);
  EXPECT_EQ(k.find_arg("tv"), nullptr);
  EXPECT_EQ(k.find_arg("tmat"), nullptr);
  EXPECT_TRUE(k.line_buffers.empty());
  ASSERT_EQ(k.point_arrays.size(), 2u);
  EXPECT_EQ(k.point_arrays[0].name, "tmat");
  EXPECT_EQ(k.point_arrays[1].name, "tv");
  EXPECT_EQ(print_stmt(k.body),
            "for j = 2, ny - 1 {\n"
            "  for i = 2, nx - 1 {\n"
            "    tmat_1_1 = 0.5d0*a(1, 1, i, j)\n"
            "    tmat_2_1 = 0.5d0*a(2, 1, i, j)\n"
            "    tmat_1_2 = 0.5d0*a(1, 2, i, j)\n"
            "    tmat_2_2 = 0.5d0*a(2, 2, i, j)\n"
            "    tv_1 = rhs(1, i, j) + 0.25d0*(uold(1, i - 1, j) + uold(1, i, j - 1))\n"
            "    tv_2 = rhs(2, i, j) + 0.25d0*(uold(2, i - 1, j) + uold(2, i, j - 1))\n"
            "    u(1, i, j) = 0.0d0\n"
            "    u(1, i, j) = u(1, i, j) + tmat_1_1*tv_1\n"
            "    u(1, i, j) = u(1, i, j) + tmat_1_2*tv_2\n"
            "    u(2, i, j) = 0.0d0\n"
            "    u(2, i, j) = u(2, i, j) + tmat_2_1*tv_1\n"
            "    u(2, i, j) = u(2, i, j) + tmat_2_2*tv_2\n"
            "  }\n"
            "}\n");
  std::string printed = print_kernel(k);
  EXPECT_NE(printed.find("  temp tv_1: f64\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("  point_array tv\n"), std::string::npos) << printed;
  EXPECT_FALSE(find_dependence(k)) << find_dependence(k)->message;
}

// In a nest of three loops, the loops over the components are the point's
// too (they used to be taken for line buffers beside the innermost loop).
TEST(PointArrays, WorkArraysInsideANestOfThreeLoops) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, R"(subroutine btri3(u, uold, nx, ny, nz)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(inout) :: u(5, nx, ny, nz)
  real(8), intent(in) :: uold(5, nx, ny, nz)
  real(8) :: tv(5)
  integer :: i, j, k, m
  !$f2s stencil
  do k = 2, nz - 1
    do j = 2, ny - 1
      do i = 2, nx - 1
        do m = 1, 5
          tv(m) = uold(m, i-1, j, k) + uold(m, i, j, k-1)
        end do
        do m = 1, 5
          u(m, i, j, k) = 0.5d0*tv(m)
        end do
      end do
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 3);
  ASSERT_EQ(ks[0].point_arrays.size(), 1u);
  EXPECT_EQ(ks[0].find_arg("tv"), nullptr);
  EXPECT_FALSE(find_dependence(ks[0]));
}

// Elements at literal subscripts are the point's too.
TEST(PointArrays, ElementsAtLiteralSubscripts) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, R"(subroutine s(u, uold, nx, ny)
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: u(2, nx, ny)
  real(8), intent(in) :: uold(2, nx, ny)
  real(8) :: w(2)
  integer :: i, j
  !$f2s stencil
  do j = 2, ny - 1
    do i = 2, nx - 1
      w(1) = uold(1, i-1, j)
      w(2) = uold(2, i, j-1)
      u(1, i, j) = w(2)
      u(2, i, j) = w(1)
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 2, ny - 1 {\n"
                                    "  for i = 2, nx - 1 {\n"
                                    "    w_1 = uold(1, i - 1, j)\n"
                                    "    w_2 = uold(2, i, j - 1)\n"
                                    "    u(1, i, j) = w_2\n"
                                    "    u(2, i, j) = w_1\n"
                                    "  }\n"
                                    "}\n");
}

// A row of a grid sized by PARAMETERs has more trips than a point's
// components: its loops stay loops of the nest, line buffers, even when the
// buffer is read at the loop's own index only.
TEST(PointArrays, ARowOfAGridSizedByParametersStaysALineBuffer) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, R"(subroutine s(u, r)
  integer, parameter :: nx = 34, ny = 34
  double precision :: u(nx, ny), r(nx, ny), b(nx)
  integer :: i, j
  !$f2s stencil
  do j = 2, ny - 1
    do i = 1, nx
      b(i) = u(i, j - 1) + u(i, j + 1)
    end do
    do i = 1, nx
      r(i, j) = 0.5d0*b(i)
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 2);
  EXPECT_EQ(ks[0].line_buffers, std::vector<std::string>{"b"});
  EXPECT_TRUE(ks[0].point_arrays.empty());
}

// A temporary takes no name the procedure has.
TEST(PointArrays, ATemporaryTakesNoNameTheProcedureHas) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, btri("uold", "2", "  real(8) :: tv_1\n"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_NE(ks[0].find_temp("tv_1_2"), nullptr);
  EXPECT_EQ(ks[0].find_temp("tv_1"), nullptr);
}

// The Gauss-Seidel form reads the neighbours it updates: the refusal names
// that dependence and the two loops that carry it, not line buffers.
TEST(PointArrays, TheGaussSeidelFormIsRefusedForItsDependenceCarriedByBothLoops) {
  std::string src = btri("u", "2");
  Diagnostic d = test::refusal(src);
  EXPECT_EQ(d.message,
            "'u' is written at (1,i,j) and read at (1,i,j-1) in the same sweep, so the result "
            "depends on the loop order; every loop of the nest carries a dependence ('j', 'i'), "
            "so none can run in parallel");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(src, "u(m, i, j-1)"));
}

struct Refused {
  std::string point, after, message, at;
};

class PointArrayRefusals : public ::testing::TestWithParam<Refused> {};

TEST_P(PointArrayRefusals, SayWhy) {
  const Refused &c = GetParam();
  std::string src = R"(subroutine s(u, uold, nx, ny, s1)
  implicit none
  integer, intent(in) :: nx, ny
  real(8), intent(inout) :: u(5, nx, ny)
  real(8), intent(in) :: uold(5, nx, ny)
  real(8), intent(out) :: s1
  real(8) :: tv(5)
  integer :: i, j, m
  !$f2s stencil
  do j = 2, ny - 1
    do i = 2, nx - 1
)" + c.point + R"(    end do
  end do
)" + c.after + R"(end subroutine
)";
  Diagnostic d = test::refusal(src);
  EXPECT_EQ(d.message, c.message);
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(src, c.at));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PointArrayRefusals,
    ::testing::Values(
        // The last element is never assigned: each point would read the
        // one the point before left.
        Refused{R"(      do m = 1, 4
        tv(m) = uold(m, i-1, j)
      end do
      do m = 1, 5
        u(m, i, j) = 0.5d0*tv(m)
      end do
)",
                "",
                "Element 'tv(5)' of work array 'tv' is read before the point assigns it, so its "
                "value is carried between iterations of the '!$f2s stencil' region; f2stencil "
                "gives each point its own copy of a local array that the point assigns at "
                "constant subscripts, so assign every element in the point before reading it "
                "there",
                "tv(m)\n"},
        // Assigned under an IF only.
        Refused{R"(      do m = 1, 5
        if (uold(m, i, j) > 0) tv(m) = uold(m, i-1, j)
        u(m, i, j) = 0.5d0*tv(m)
      end do
)",
                "",
                "Element 'tv(1)' of work array 'tv' may be read before the point assigns it (only "
                "some branches of an IF assign it, or a DO loop that may run no trip), so its "
                "value is carried between iterations of the '!$f2s stencil' region; f2stencil "
                "gives each point its own copy of a local array that the point assigns at "
                "constant subscripts, so assign every element in the point before reading it "
                "there",
                "tv(m)\n"},
        // Read after the region: the library leaves the array as it was.
        Refused{R"(      do m = 1, 5
        tv(m) = uold(m, i-1, j)
      end do
      do m = 1, 5
        u(m, i, j) = 0.5d0*tv(m)
      end do
)",
                "  s1 = tv(3)\n",
                "Work array 'tv' of the point is assigned in the '!$f2s stencil' region and read "
                "after it (line 20, column 8), but the library keeps it private to each point",
                "tv(m) ="},
        // At a loop variable of the nest: no element of one point's own.
        Refused{R"(      do m = 1, 5
        tv(m) = uold(m, i-1, j)
      end do
      u(1, i, j) = tv(i)
)",
                "",
                "Work array 'tv' of the point is accessed at 'tv(i)', with a subscript that is "
                "not a constant; the point assigns 'tv' at constant subscripts elsewhere, which "
                "makes each of its elements a scalar of the point's own, so subscript it only by "
                "constants or by the variables of DO loops with constant bounds inside the point",
                "tv(i)"}));

} // namespace
} // namespace f2s
