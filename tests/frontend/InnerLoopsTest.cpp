// Loops inside the point with a run-time trip count (issue 38): `do jj =
// -r, r` with the radius an argument stays a loop of the point (a serial For
// whose variable is Index::inner in the subscripts it reaches), where loops
// of constant bounds are unrolled (OffsetLoopsTest). The dependence analysis
// sees the whole window; what cannot stay a loop is refused with the
// construct and its position.
#include "ast/InnerLoops.h"
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"

#include "frontend/FrontendTestUtil.h"

namespace f2s::test {
namespace {

/// A 2D nest over the interior whose point is `body`, the radius `r` an
/// argument.
std::string window(const std::string &body, const std::string &decls = "") {
  return R"(subroutine s(n, m, r, w, c, u, v)
  implicit none
  integer, intent(in) :: n, m, r
  real(8), intent(in) :: w(-r:r), c(-r:r, -r:r), u(1-r:n+r, 1-r:m+r)
  real(8), intent(inout) :: v(n, m)
  integer :: i, j, ii, jj
  real(8) :: s
)" + decls +
         R"(  !$f2s stencil
  do j = 1, m
    do i = 1, n
)" + body +
         R"(    end do
  end do
end subroutine
)";
}

TEST(InnerLoops, AWindowSummedIntoATemporaryStaysALoop) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, window(R"(      s = 0
      do jj = -r, r
        s = s + w(jj)*u(i + jj, j)
      end do
      v(i, j) = s
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 2);
  EXPECT_TRUE(has_inner_loops(ks[0]));
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, m {\n"
                                    "  for i = 1, n {\n"
                                    "    s = 0\n"
                                    "    for jj = -r, r {\n"
                                    "      s = s + w(jj)*u(i + jj, j)\n"
                                    "    }\n"
                                    "    v(i, j) = s\n"
                                    "  }\n"
                                    "}\n");
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

TEST(InnerLoops, ANestedWindowAddedIntoThePointsElementIsTheWholePoint) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, window(R"(      do jj = -r, r
        do ii = -r, r
          v(i, j) = v(i, j) + c(ii, jj)*u(i + ii, j + jj)
        end do
      end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 2);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, m {\n"
                                    "  for i = 1, n {\n"
                                    "    for jj = -r, r {\n"
                                    "      for ii = -r, r {\n"
                                    "        v(i, j) = v(i, j) + c(ii, jj)*u(i + ii, j + jj)\n"
                                    "      }\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n");
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

// A constant loop around a window (`do jj = -1, 1` around `do ii = -r, r`)
// is unrolled, each copy holding the window; the copies are statements of
// the point, not line buffers side by side.
TEST(InnerLoops, AConstantLoopAroundAWindowIsUnrolledAroundIt) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, window(R"(      s = 0
      do jj = -1, 1
        do ii = -r, r
          s = s + u(i + ii, j + jj)
        end do
      end do
      v(i, j) = s
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, m {\n"
                                    "  for i = 1, n {\n"
                                    "    s = 0\n"
                                    "    for ii = -r, r {\n"
                                    "      s = s + u(i + ii, j - 1)\n"
                                    "    }\n"
                                    "    for ii = -r, r {\n"
                                    "      s = s + u(i + ii, j)\n"
                                    "    }\n"
                                    "    for ii = -r, r {\n"
                                    "      s = s + u(i + ii, j + 1)\n"
                                    "    }\n"
                                    "    v(i, j) = s\n"
                                    "  }\n"
                                    "}\n");
}

TEST(InnerLoops, ALoopCountingDownKeepsItsOrderAndItsVariableInArithmetic) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, window(R"(      s = u(i, j)
      do jj = r, 1, -1
        s = 0.5d0*s + dble(jj)*(u(i, j + jj) - u(i, j - jj))
      end do
      v(i, j) = s
)"));
  ASSERT_EQ(ks.size(), 1u);
  std::optional<InnerLoop> inner = first_inner_loop(ks[0]);
  ASSERT_TRUE(inner);
  EXPECT_EQ(inner->var, "jj");
  std::string ir = print_stmt(ks[0].body);
  EXPECT_NE(ir.find("(u(i, j + jj) - u(i, j - jj))"), std::string::npos) << ir;
  const For *loop = nullptr;
  for (const Stmt &st : as<Block>(perfect_nest(ks[0].body).back()->body)->stmts)
    if (const For *f = as<For>(st))
      loop = f;
  ASSERT_NE(loop, nullptr);
  EXPECT_TRUE(loop->reverse);
  EXPECT_EQ(print_expr(loop->lo), "1");
  EXPECT_EQ(print_expr(loop->hi), "r");
}

TEST(InnerLoops, AConstantRadiusStillUnrolls) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, window(R"(      s = 0
      do jj = -1, 1
        s = s + u(i + jj, j)
      end do
      v(i, j) = s
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_FALSE(has_inner_loops(ks[0]));
  EXPECT_NE(print_stmt(ks[0].body).find("s = s + u(i - 1, j)"), std::string::npos);
}

TEST(InnerLoops, AWindowOverElementsOtherPointsWriteIsRefusedForTheDependence) {
  Diagnostic d = refusal(window(R"(      do jj = -r, r
        v(i, j) = v(i, j) + v(i + jj, j)
      end do
)"));
  EXPECT_NE(d.message.find("'v' is written at (i,j) and read at (i+jj,j)"), std::string::npos)
      << d.str();
}

// A bound may read the nest's variables: each point runs its own trips (a
// prefix of its row), which the dependence analysis models exactly.
TEST(InnerLoops, BoundsThatReadALoopVariableOfTheNestAreThePoints) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, window(R"(      do jj = 1, i
        v(i, j) = v(i, j) + u(i - jj, j)
      end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 2);
  EXPECT_NE(print_stmt(ks[0].body).find("for jj = 1, i {"), std::string::npos);
  EXPECT_FALSE(has_point_bounds(ks[0]));
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

/// A 2D nest over ocean columns of a varying depth, kmt(i, j) wet levels.
std::string columns(const std::string &body) {
  return R"(subroutine c(nx, ny, nz, kmt, t, s, p)
  implicit none
  integer, intent(in) :: nx, ny, nz, kmt(nx, ny)
  real(8), intent(in) :: t(nx, ny, nz)
  real(8), intent(inout) :: s(nx, ny), p(nx, nz, ny)
  integer :: i, j, k, nk
  real(8) :: acc
  !$f2s stencil
  do j = 1, ny
    do i = 1, nx
)" + body +
         R"(    end do
  end do
end subroutine
)";
}

// `do k = 1, kmt(i, j)`: the bound is the point's element, read where the
// loop starts; the loop is the point's (not a third loop of the nest, though
// its variable subscripts a dimension of its own), and the columns are free.
TEST(InnerLoops, ALoopToTheColumnsDepthIsALoopOfThePoint) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, columns(R"(      acc = 0
      do k = 1, kmt(i, j)
        acc = acc + t(i, j, k)
        p(i, k, j) = acc
      end do
      s(i, j) = acc
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 2);
  EXPECT_TRUE(has_point_bounds(ks[0]));
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, ny {\n"
                                    "  for i = 1, nx {\n"
                                    "    acc = 0\n"
                                    "    for k = 1, kmt(i, j) {\n"
                                    "      acc = acc + t(i, j, k)\n"
                                    "      p(i, k, j) = acc\n"
                                    "    }\n"
                                    "    s(i, j) = acc\n"
                                    "  }\n"
                                    "}\n");
  EXPECT_NE(ks[0].find_arg("kmt"), nullptr);
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

// The depth in a temporary, set under an IF (both branches) and clipped by
// MIN: the loop reads the temporary.
TEST(InnerLoops, ATemporaryBoundSetUnderAnIfIsRead) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, columns(R"(      if (t(i, j, 1) > 0.5d0) then
        nk = min(kmt(i, j), nz)
      else
        nk = 1
      end if
      acc = 0
      do k = 1, nk
        acc = acc + t(i, j, k)
      end do
      s(i, j) = acc
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 2);
  EXPECT_TRUE(has_point_bounds(ks[0]));
  EXPECT_NE(print_stmt(ks[0].body).find("    for k = 1, nk {\n"), std::string::npos)
      << print_stmt(ks[0].body);
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

// Counting down from the floor: the loop keeps its order (a recurrence).
TEST(InnerLoops, ALoopCountingDownFromTheFloorKeepsItsOrder) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, columns(R"(      acc = 0
      do k = kmt(i, j), 1, -1
        acc = 0.5d0*acc + t(i, j, k)
        p(i, k, j) = acc
      end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  std::string ir = print_stmt(ks[0].body);
  EXPECT_NE(ir.find("    reverse for k = 1, kmt(i, j) {\n"), std::string::npos) << ir;
  EXPECT_FALSE(find_dependence(ks[0])) << find_dependence(ks[0])->str();
}

// Fortran counts the trips once, before the loop; a body that changes what
// the bounds read would run other trips in C.
TEST(InnerLoops, ABodyThatChangesItsBoundIsRefused) {
  std::string src = columns(R"(      nk = kmt(i, j)
      acc = 0
      do k = 1, nk
        acc = acc + t(i, j, k)
        if (acc > 1d0) nk = k
      end do
      s(i, j) = acc
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "The DO loop over 'k' inside the point assigns 'nk', which its bounds "
                       "read; Fortran counts the trips once, before the loop, so copy the bound "
                       "to a scalar the loop does not assign and bound the loop by it");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "do k"));
}

// The nest's own loops run over the library's sizes: their bounds stay free
// of what the region reads or assigns, and the refusal names the loop.
TEST(InnerLoops, ANestLoopBoundedByAnElementIsRefusedByName) {
  std::string src = columns(R"(      s(i, j) = 0
)");
  src.replace(src.find("do j = 1, ny"), 12, "do j = 1, kmt(1, 1)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "Array element of 'kmt' cannot be used in the bounds of the DO loop over "
                       "'j' of a '!$f2s stencil' region; assign it to a scalar before the region "
                       "and use the scalar");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "kmt(1, 1)"));
}

TEST(InnerLoops, TheVariableReadAfterTheLoopIsRefused) {
  std::string src = window(R"(      s = 0
      do jj = -r, r
        s = s + u(i + jj, j)
      end do
      v(i, j) = s + jj
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "Loop variable 'jj' is read after its DO loop inside the point, whose trip "
                       "count is known only at run time; use another variable there");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "jj\n", 2));
}

TEST(InnerLoops, AStepThatIsNotAConstantIsRefused) {
  std::string src = window(R"(      do jj = -r, r, n
        v(i, j) = v(i, j) + u(i + jj, j)
      end do
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_NE(d.message.find("The step of the DO loop over 'jj' inside the point of a '!$f2s "
                           "stencil' region must be a positive INTEGER constant or -1"),
            std::string::npos)
      << d.str();
}

} // namespace
} // namespace f2s::test
