// Arrays whose rank differs from the nest's depth (issue 11, section 1): 1D
// profiles and 2D map factors read beside the nest's grids, in any position
// and storage order; extra dimensions with constant subscripts, read and
// written; constant subscripts in every dimension. And what stays refused:
// a store that leaves out a loop variable.
#include "ast/Analysis.h"
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "tests/common/TestUtil.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

Kernel lower_one(const std::string &text) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, text);
  EXPECT_EQ(ks.size(), 1u);
  if (auto d = find_dependence(ks.at(0)))
    ADD_FAILURE() << d->str();
  return ks.at(0);
}

/// A 3D nest over w(i,k,j), the order of atmosphere models: k in the middle.
std::string ikj(const std::string &decls, const std::string &body) {
  return R"(subroutine s(ni, nk, nj, w, t)
  implicit none
  integer :: ni, nk, nj, i, j, k
  real(8) :: w(0:ni+1, 0:nk+1, 0:nj+1), t(ni, nk, nj)
)" + decls +
         R"(  !$f2s stencil
  do j = 1, nj
    do k = 1, nk
      do i = 1, ni
)" + body +
         R"(
      end do
    end do
  end do
end subroutine
)";
}

TEST(Ranks, ProfilesAndMapFactorsAreReadBesideTheGrids) {
  Kernel k = lower_one(
      ikj("  real(8) :: dz(nk), damp(0:ni+1), cdy(nj), fmap(ni, nj)\n",
          "        t(i,k,j) = fmap(i,j)*dz(k)*(w(i+1,k,j) - w(i-1,k,j))*damp(i-1) + cdy(j)"));
  // The grids keep their declared ranks, and each subscript its loop.
  EXPECT_EQ(k.find_arg("dz")->rank(), 1);
  EXPECT_EQ(k.find_arg("fmap")->rank(), 2);
  std::string ir = print_kernel(k);
  EXPECT_NE(ir.find("fmap(i, j)*dz(k)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("damp(i - 1)"), std::string::npos) << ir;

  KernelFacts f = analyze(k);
  // Halos per loop (x = i, y = k, z = j) come from the grids' subscripts
  // whatever their position: damp's i - 1 and w's i +- 1 along x.
  EXPECT_EQ(f.halo, (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(f.grid_halo.at("damp"), (std::vector<int64_t>{1}));
  EXPECT_EQ(f.grid_halo.at("fmap"), (std::vector<int64_t>{0, 0}));
  // Traffic per point: w read, t written (write-allocated); the profiles
  // and the map factor are reused along the loops they lack.
  EXPECT_EQ(f.read_bytes, 8);
  EXPECT_EQ(f.write_bytes, 8);
  EXPECT_EQ(f.write_allocate_bytes, 8);
  EXPECT_EQ(f.reused, (std::set<std::string>{"cdy", "damp", "dz", "fmap"}));
}

TEST(Ranks, ExtraDimensionsWithConstantSubscriptsAreReadAndWritten) {
  Kernel k = lower_one(R"(subroutine s(n, coef, u, tend)
  implicit none
  integer, parameter :: iwest = 2, ieast = 3
  integer :: n, i, j
  real(8) :: coef(n, n, 4), u(0:n+1, 0:n+1), tend(2, n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      tend(1, i, j) = coef(i, j, iwest)*u(i-1, j) + coef(i, j, ieast)*u(i+1, j)
      tend(2, i, j) = tend(1, i, j) + coef(i, j, 1)*tend(2, i, j)
    end do
  end do
end subroutine
)");
  std::string ir = print_kernel(k);
  EXPECT_NE(ir.find("coef(i, j, 2)*u(i - 1, j)"), std::string::npos) << ir;
  EXPECT_NE(ir.find("tend(2, i, j) = tend(1, i, j)"), std::string::npos) << ir;
  KernelFacts f = analyze(k);
  // coef's three planes are three elements a point, u one, tend two (read
  // and written, so no write-allocate).
  EXPECT_EQ(f.read_bytes, 8 * (3 + 1 + 2));
  EXPECT_EQ(f.write_bytes, 8 * 2);
  EXPECT_EQ(f.write_allocate_bytes, 0);
}

TEST(Ranks, ConstantSubscriptsInEveryDimension) {
  Kernel k = lower_one(ikj("  real(8) :: c(0:1), g(3, 3)\n",
                           "        t(i,k,j) = c(0)*w(i,k,j) + c(1)*g(1, 3)*w(i,k+1,j)"));
  EXPECT_NE(print_kernel(k).find("c(0)*w(i, k, j) + c(1)*g(1, 3)"), std::string::npos);
  EXPECT_EQ(analyze(k).read_bytes, 8);
}

TEST(Ranks, AStoreThatLeavesOutALoopVariableIsRefused) {
  std::string text = ikj("  real(8) :: col(nk)\n", "        col(k) = w(i,k,j)");
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, "Assignment to 'col(k)' has no subscript in loop variable 'i', so every "
                       "point of the DO loop over 'i' writes the same element; subscript 'col' "
                       "with 'i' too");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, "col(k) ="));
}

TEST(Ranks, DistinctConstantSubscriptsDoNotMeet) {
  // Component 1 is written, component 2 read at neighbours: independent.
  lower_one(R"(subroutine s(n, q)
  implicit none
  integer :: n, i, j
  real(8) :: q(0:n+1, 0:n+1, 2)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      q(i, j, 1) = q(i-1, j, 2) + q(i+1, j, 2)
    end do
  end do
end subroutine
)");
  // The same component read at a neighbour is a dependence.
  Diagnostic d = test::refusal(R"(subroutine s(n, q)
  implicit none
  integer :: n, i, j
  real(8) :: q(0:n+1, 0:n+1, 2)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      q(i, j, 1) = q(i-1, j, 1) + q(i+1, j, 2)
    end do
  end do
end subroutine
)");
  EXPECT_EQ(d.message, "'q' is written at (i,j,1) and read at (i-1,j,1) in the same sweep, so "
                       "the result depends on the loop order");
}

TEST(Ranks, AProfileReadAtAnotherLoopsPositionKeepsItsOwnDimension) {
  // 1D arrays indexed by the outer loop and a 2D one stored (j, i): the
  // transposed factor reads along y in its first dimension.
  Kernel k = lower_one(R"(subroutine s(n, m, a, b, p, q)
  implicit none
  integer :: n, m, i, j
  real(4) :: a(n, m), b(n, m), p(m), q(m, n)
  !$f2s stencil
  do j = 1, m
    do i = 1, n
      b(i, j) = a(i, j)*p(j) + q(j, i)
    end do
  end do
end subroutine
)");
  KernelFacts f = analyze(k);
  EXPECT_EQ(f.read_bytes, 4 + 4); // a, and q: the transposed factor has every loop variable
  EXPECT_EQ(f.grid_halo.at("q"), (std::vector<int64_t>{0, 0}));
}

} // namespace
} // namespace f2s
