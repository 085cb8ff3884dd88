// Offset loops (frontend/OffsetLoops): DO loops with constant bounds inside
// the point, the shape of a stencil written as loops over offsets, unrolled
// in source order while lowering; and the refusals of loops inside the point
// that cannot be unrolled.
#include "ast/IRPrinter.h"

#include "frontend/FrontendTestUtil.h"

namespace f2s::test {
namespace {

/// A radius-2 star with its weights in a 2D array, the arms as offset loops
/// (the centre once, in the loop over jj).
const char *const kStar = R"(subroutine star(m, n, w, fin, fout)
  implicit none
  integer, parameter :: rad = 2
  integer, intent(in) :: m, n
  real(8), intent(in) :: w(-rad:rad, -rad:rad), fin(m, n)
  real(8), intent(inout) :: fout(m, n)
  integer :: i, j, ii, jj
  !$f2s stencil
  do j = rad+1, n-rad
    do i = rad+1, m-rad
      fout(i,j) = 0.0d0
      do jj = -rad, rad
        fout(i,j) = fout(i,j) + w(0,jj)*fin(i,j+jj)
      end do
      do ii = -rad, -1
        fout(i,j) = fout(i,j) + w(ii,0)*fin(i+ii,j)
      end do
      do ii = 1, rad
        fout(i,j) = fout(i,j) + w(ii,0)*fin(i+ii,j)
      end do
    end do
  end do
end subroutine
)";

TEST(OffsetLoops, AStarWrittenAsOffsetLoopsUnrollsInSourceOrder) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, kStar);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 3, n - 2 {\n"
                                    "  for i = 3, m - 2 {\n"
                                    "    fout(i, j) = 0.0d0\n"
                                    "    fout(i, j) = fout(i, j) + w(0, -2)*fin(i, j - 2)\n"
                                    "    fout(i, j) = fout(i, j) + w(0, -1)*fin(i, j - 1)\n"
                                    "    fout(i, j) = fout(i, j) + w(0, 0)*fin(i, j)\n"
                                    "    fout(i, j) = fout(i, j) + w(0, 1)*fin(i, j + 1)\n"
                                    "    fout(i, j) = fout(i, j) + w(0, 2)*fin(i, j + 2)\n"
                                    "    fout(i, j) = fout(i, j) + w(-2, 0)*fin(i - 2, j)\n"
                                    "    fout(i, j) = fout(i, j) + w(-1, 0)*fin(i - 1, j)\n"
                                    "    fout(i, j) = fout(i, j) + w(1, 0)*fin(i + 1, j)\n"
                                    "    fout(i, j) = fout(i, j) + w(2, 0)*fin(i + 2, j)\n"
                                    "  }\n"
                                    "}\n");
  // The loop variables of the offset loops are no arguments.
  ASSERT_EQ(ks[0].args.size(), 5u);
  EXPECT_FALSE(ks[0].find_arg("jj"));
  EXPECT_FALSE(ks[0].find_arg("ii"));
  // Each point accumulates into its own element.
  EXPECT_FALSE(find_dependence(ks[0]));
}

TEST(OffsetLoops, NestedOffsetLoopsWithACppRadiusAndAnAccumulator) {
  std::string src = R"(#define R 1
subroutine box(m, n, w, fin, fout)
  integer :: m, n, i, j, ii, jj
  real(8) :: w(-R:R, -R:R), fin(0:m+1, 0:n+1), fout(m, n), acc
  !$f2s stencil
  do j = 1, n
    do i = 1, m
      acc = 0.0d0
      do jj = -R, R
        do ii = -R, R
          acc = acc + w(ii,jj)*fin(i+ii,j+jj)
        end do
      end do
      fout(i,j) = acc
    end do
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src, "box.F90");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, n {\n"
                                    "  for i = 1, m {\n"
                                    "    acc = 0.0d0\n"
                                    "    acc = acc + w(-1, -1)*fin(i - 1, j - 1)\n"
                                    "    acc = acc + w(0, -1)*fin(i, j - 1)\n"
                                    "    acc = acc + w(1, -1)*fin(i + 1, j - 1)\n"
                                    "    acc = acc + w(-1, 0)*fin(i - 1, j)\n"
                                    "    acc = acc + w(0, 0)*fin(i, j)\n"
                                    "    acc = acc + w(1, 0)*fin(i + 1, j)\n"
                                    "    acc = acc + w(-1, 1)*fin(i - 1, j + 1)\n"
                                    "    acc = acc + w(0, 1)*fin(i, j + 1)\n"
                                    "    acc = acc + w(1, 1)*fin(i + 1, j + 1)\n"
                                    "    fout(i, j) = acc\n"
                                    "  }\n"
                                    "}\n");
  // The accumulator is a temporary of the point, not a reduction.
  EXPECT_TRUE(ks[0].reductions.empty());
  ASSERT_EQ(ks[0].temps.size(), 1u);
  EXPECT_FALSE(find_dependence(ks[0]));
}

/// A 2D nest whose point is `body`, over u and v of (0:n+1, 0:n+1) and c(3),
/// with INTEGER i, j, k, l, ii and jj.
std::string nest2(const std::string &body, const std::string &decls = "") {
  return R"(subroutine s(n, c, u, v)
  integer :: n, i, j, k, l, ii, jj
  real(8) :: c(3), u(0:n+1, 0:n+1), v(0:n+1, 0:n+1)
)" + decls +
         R"(  !$f2s stencil
  do j = 1, n
    do i = 1, n
)" + body +
         R"(    end do
  end do
end subroutine
)";
}

/// The statements of the point of a 2D nest.
std::string point_of(const Kernel &k) {
  std::string s = print_stmt(k.body);
  size_t start = s.find('\n', s.find("for i")) + 1;
  return s.substr(start, s.find("  }\n", start) - start);
}

TEST(OffsetLoops, TheOnlyStatementOfThePointIsAnOffsetLoopWhenItsVariableIsAnOffset) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, nest2(R"(      do jj = -1, 1
        v(i,j) = v(i,j) + c(jj+2)*u(i,j+jj)
      end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 2);
  EXPECT_EQ(point_of(ks[0]), "    v(i, j) = v(i, j) + c(1)*u(i, j - 1)\n"
                             "    v(i, j) = v(i, j) + c(2)*u(i, j)\n"
                             "    v(i, j) = v(i, j) + c(3)*u(i, j + 1)\n");
}

TEST(OffsetLoops, AStoreWithoutTheLoopVariableMakesTheOnlyLoopAnOffsetLoop) {
  // A sum over a component dimension into the point's own element.
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, R"(subroutine s(n, c, p, v)
  integer :: n, i, j, l
  real(8) :: c(3), p(n, n, 3), v(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      do l = 1, 3
        v(i,j) = v(i,j) + c(l)*p(i,j,l)
      end do
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 2);
  EXPECT_EQ(point_of(ks[0]), "    v(i, j) = v(i, j) + c(1)*p(i, j, 1)\n"
                             "    v(i, j) = v(i, j) + c(2)*p(i, j, 2)\n"
                             "    v(i, j) = v(i, j) + c(3)*p(i, j, 3)\n");
}

TEST(OffsetLoops, AConstantLoopWhoseVariableIsASubscriptStaysALoopOfTheNest) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, R"(subroutine s(n, p, q)
  integer :: n, i, j, k
  real(8) :: p(n, n, 4), q(n, n, 4)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      do k = 1, 4
        q(i,j,k) = 2*p(i,j,k)
      end do
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, n {\n"
                                    "  for i = 1, n {\n"
                                    "    for k = 1, 4 {\n"
                                    "      q(i, j, k) = 2*p(i, j, k)\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n");
}

TEST(OffsetLoops, AFourthLoopWithConstantBoundsIsUnrolledInThePoint) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, R"(subroutine s(n, p, q)
  integer :: n, i, j, k, l
  real(8) :: p(n, n, n, 2), q(n, n, n, 2)
  !$f2s stencil
  do k = 1, n
    do j = 1, n
      do i = 1, n
        do l = 1, 2
          q(i,j,k,l) = 2*p(i,j,k,l)
        end do
      end do
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].loop_depth(), 3);
  std::string body = print_stmt(ks[0].body);
  EXPECT_NE(body.find("      q(i, j, k, 1) = 2*p(i, j, k, 1)\n"
                      "      q(i, j, k, 2) = 2*p(i, j, k, 2)\n"),
            std::string::npos)
      << body;
}

TEST(OffsetLoops, StepsEmptyRangesAndTheValueAfterTheLoop) {
  // A negative step runs from the top; an empty range makes no copy; after
  // its loop the variable holds the value the loop left (here 4 and -4:
  // 10*4 - 4, folded).
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, nest2(R"(      do ii = 2, -2, -2
        v(i,j) = v(i,j) + ii*u(i+ii,j)
      end do
      do jj = 1, 0
        v(i,j) = 0
      end do
      do jj = 1, 3
      end do
      v(i,j) = v(i,j) + (10*jj + ii)*u(i,j)
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(point_of(ks[0]), "    v(i, j) = v(i, j) + 2*u(i + 2, j)\n"
                             "    v(i, j) = v(i, j) + 0*u(i, j)\n"
                             "    v(i, j) = v(i, j) + (-2)*u(i - 2, j)\n"
                             "    v(i, j) = v(i, j) + 36*u(i, j)\n");
}

TEST(OffsetLoops, ADiamondWithBoundsOfTheOuterOffsetLoop) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, nest2(R"(      do jj = -1, 1
        do ii = -(1 - abs(jj)), max(1 - abs(jj), 0)
          v(i,j) = v(i,j) + u(i+ii,j+jj)
        end do
      end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(point_of(ks[0]), "    v(i, j) = v(i, j) + u(i, j - 1)\n"
                             "    v(i, j) = v(i, j) + u(i - 1, j)\n"
                             "    v(i, j) = v(i, j) + u(i, j)\n"
                             "    v(i, j) = v(i, j) + u(i + 1, j)\n"
                             "    v(i, j) = v(i, j) + u(i, j + 1)\n");
}

TEST(OffsetLoops, AnOffsetLoopInPlaceIsSeenByTheDependenceAnalysis) {
  // Unrolled, the point reads u(i-1,j) and u(i+1,j) where other points write.
  Diagnostic d = refusal(nest2(R"(      do ii = -1, 1, 2
        u(i,j) = u(i,j) + c(2)*u(i+ii,j)
      end do
)"));
  EXPECT_NE(d.message.find("'u' is written at (i,j) and read at (i-1,j)"), std::string::npos)
      << d.str();
}

// Bounds that are not constants: the loop is not unrolled but stays a loop
// of the point (InnerLoopsTest).
TEST(OffsetLoops, BoundsThatAreNotConstantsKeepTheLoop) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, nest2(R"(      do jj = -r, r
        v(i,j) = v(i,j) + u(i,j+jj)
      end do
)",
                                                 "  integer :: r\n"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, n {\n"
                                    "  for i = 1, n {\n"
                                    "    for jj = -r, r {\n"
                                    "      v(i, j) = v(i, j) + u(i, j + jj)\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n");
}

TEST(OffsetLoops, ALoopVariableAssignedInTheRegionIsRefused) {
  std::string src = nest2(R"(      do jj = -1, 1
        v(i,j) = v(i,j) + u(i,j+jj)
        jj = jj + 1
      end do
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "Loop variable 'jj' of a DO loop inside the point is assigned in the "
                       "'!$f2s stencil' region, so the loop cannot be unrolled; assign another "
                       "variable");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "jj = -1"));
}

TEST(OffsetLoops, TooManyCopiesAreRefused) {
  std::string src = nest2(R"(      do jj = -10, 10
        do ii = -12, 12
          v(i,j) = v(i,j) + u(i,j)
        end do
      end do
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "The DO loop over 'ii' inside the point would make 525 copies of its "
                       "body with the loops around it, more than the 512 that f2stencil unrolls");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "do ii"));
}

TEST(OffsetLoops, ALoopVariableOfTheNestIsRefusedInside) {
  std::string src = nest2(R"(      do i = -1, 1
        v(i,j) = 0
      end do
      v(1,j) = 0
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "Loop variable 'i' is used by two loops of the '!$f2s stencil' region; "
                       "give the inner DO loop another variable");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "i = -1"));
}

TEST(OffsetLoops, AnOffsetLoopAfterTheInnerLoopRunsOncePerRow) {
  // The loop over i is a loop over the grid; the offset loop after it is a
  // statement of the row, unrolled, at the last point of the loop over i
  // (canonicalize/SinkScalars).
  std::string src = R"(subroutine s(n, u, v)
  integer :: n, i, j, jj
  real(8) :: u(0:n+1, 0:n+1), v(0:n+1, 0:n+1)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      v(i,j) = u(i,j)
    end do
    do jj = -1, 1
      v(0,j) = v(0,j) + u(0,j+jj)
    end do
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, n {\n"
                                    "  for i = 1, max(n, 1) {\n"
                                    "    if i <= n {\n"
                                    "      v(i, j) = u(i, j)\n"
                                    "    }\n"
                                    "    if i == max(n, 1) {\n"
                                    "      v(0, j) = v(0, j) + u(0, j - 1)\n"
                                    "      v(0, j) = v(0, j) + u(0, j)\n"
                                    "      v(0, j) = v(0, j) + u(0, j + 1)\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n");
  EXPECT_FALSE(find_dependence(ks[0]));
}

TEST(OffsetLoops, ADoWhileInsideThePointIsRefused) {
  std::string src = nest2(R"(      if (u(i,j) > 0) then
        do while (v(i,j) < 1)
          v(i,j) = v(i,j) + u(i,j)
        end do
      end if
)");
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "A DO loop without a loop variable (DO WHILE, DO CONCURRENT, DO alone) "
                       "cannot be inside the point of a '!$f2s stencil' region, where loops are "
                       "unrolled");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "do while"));
}

// The arguments of an intrinsic are no subscripts: `mod(u(i,j), 3.0)` does
// not put i beside j, so with a store that leaves out i the loop over i stays
// a loop of the nest, refused for the store (found by the random programs).
TEST(OffsetLoops, AnIntrinsicsArgumentsAreNoSubscripts) {
  std::string src = nest2(R"(      v(i,j) = mod(u(i,j), 3.0d0)
      v(1,j) = 0.5d0
)");
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "Assignment to 'v(1,j)' has no subscript in loop variable 'i', so every "
                       "point of the DO loop over 'i' writes the same element; subscript 'v' "
                       "with 'i' too");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "v(1,j)"));
}

} // namespace
} // namespace f2s::test
