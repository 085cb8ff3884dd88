// Nests that are imperfect as written: scalars assigned between the loops
// (canonicalize/SinkScalars) and the red-black start that reads one (`do i
// = 2 + joff, n - 1, 2`); statements of an outer level that run once per
// outer iteration (a boundary element of each row, before or after the
// inner loop), moved into the point under a guard, their legality isl's.
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"

#include "frontend/FrontendTestUtil.h"

namespace f2s::test {
namespace {

/// A red-black sweep in place over 2..n-1, with `joff = mod(j + k, 2)`
/// between the `j` and `i` loops and the inner loop starting at `start`.
std::string rb_sweep(const std::string &start, const std::string &after = "") {
  return R"(subroutine rb(n, w, f, u)
  integer :: n, i, j, k, joff
  real(8) :: w, f(n, n, n), u(n, n, n), wd
  !$f2s stencil
  do k = 2, n - 1
    wd = w/6.0d0
    do j = 2, n - 1
      joff = mod(j + k, 2)
      do i = )" +
         start + R"(, n - 1, 2
        u(i,j,k) = wd*(u(i-1,j,k) + u(i+1,j,k) + u(i,j-1,k) + u(i,j+1,k) + u(i,j,k-1) &
                 + u(i,j,k+1) - f(i,j,k))
      end do
    end do
  end do
)" + after +
         "end subroutine\n";
}

/// The kernel's loops and the statements of its point, without the point's
/// update (the same in every test here).
std::string nest_of(const Kernel &k) {
  std::string s = print_stmt(k.body);
  return s.substr(0, s.find("        u(i, j, k) = "));
}

TEST(ImperfectNests, RedBlackStartFromAScalarBetweenTheLoops) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, rb_sweep("2 + joff"));
  ASSERT_EQ(ks.size(), 1u);
  // The scalars move into the point; the colour test reads the loops.
  EXPECT_EQ(nest_of(ks[0]), "for k = 2, n - 1 {\n"
                            "  for j = 2, n - 1 {\n"
                            "    for i = 2, n - 1 {\n"
                            "      wd = w/6.0d0\n"
                            "      joff = mod(j + k, 2)\n"
                            "      if mod(i - (2 + mod(j + k, 2)), 2) == 0 {\n");
  // In place, and proved safe by the colour test.
  EXPECT_FALSE(find_dependence(ks[0]));
  ASSERT_EQ(ks[0].temps.size(), 2u);
}

TEST(ImperfectNests, TheOtherColourStartsOneEarlier) {
  for (const char *start : {"3 - joff", "2 + (1 - joff)"}) {
    SCOPED_TRACE(start);
    TempDir dir;
    std::vector<Kernel> ks = lower_text(dir, rb_sweep(start));
    ASSERT_EQ(ks.size(), 1u);
    std::string nest = nest_of(ks[0]);
    EXPECT_NE(nest.find("    for i = 2, n - 1 {\n"), std::string::npos) << nest;
    EXPECT_NE(nest.find("mod(i - (" + std::string(start[0] == '3' ? "3 - " : "2 + (1 - ") +
                        "mod(j + k, 2)"),
              std::string::npos)
        << nest;
    EXPECT_FALSE(find_dependence(ks[0]));
  }
}

// `2 + 2*joff` starts every row at an even i: lowered as written, the
// vertical and the next row's neighbours are of the same colour, which the
// analysis finds.
TEST(ImperfectNests, AStartThatIsNotAColourIsRefusedForItsDependence) {
  std::string src = rb_sweep("2 + 2*joff");
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_NE(nest_of(ks[0]).find("if i >= 2 + 2*mod(j + k, 2) .and. mod(i - (2 + 2*mod(j + k, "
                                "2)), 2) == 0 {\n"),
            std::string::npos)
      << nest_of(ks[0]);
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "'u' is written at (i,j,k) and read at (i,j,k-1), a point of the same "
                       "colour, in the same sweep, so the result depends on the loop order; more "
                       "than one loop carries a dependence ('k', 'j'), so no loop can run in "
                       "order while the others run in parallel");
}

TEST(ImperfectNests, AScalarBetweenTheLoopsReadAfterTheRegionIsRefused) {
  std::string src = rb_sweep("2 + joff", "  u(1,1,1) = joff\n");
  Diagnostic d = refusal(src);
  EXPECT_NE(d.message.find("'joff' is assigned in the '!$f2s stencil' region and read after it"),
            std::string::npos)
      << d.str();
  EXPECT_EQ(line_col(d.loc), loc_of(src, "joff = mod"));
}

TEST(ImperfectNests, AScalarReassignedInThePointIsRefused) {
  std::string src = R"(subroutine s(n, a, b)
  integer :: n, i, j
  real :: a(n, n), b(n, n), t
  !$f2s stencil
  do j = 1, n
    t = 0.0
    do i = 1, n
      t = t + a(i, j)
      b(i, j) = t
    end do
  end do
end subroutine
)";
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "'t' is assigned between the DO loops of the '!$f2s stencil' region and "
                       "again inside the innermost loop (line 8); assign it in one place, inside "
                       "the innermost loop");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "t = 0.0"));
}

/// Bilinear interpolation of a coarse grid into a fine one, with the fine
/// indices in INTEGER temporaries, one computed between the loops.
const char *const kInterpolation = R"(subroutine interp(n, c, f)
  integer :: n, i, j, ic, jc
  real(8) :: c(0:n+1, 0:n+1), f(0:2*n+1, 0:2*n+1)
  !$f2s stencil
  do j = 1, n
    jc = 2*j - 1
    do i = 1, n
      ic = 2*i - 1
      f(ic, jc) = c(i, j)
      f(ic + 1, jc) = 0.5d0*(c(i, j) + c(i + 1, j))
      f(ic, jc + 1) = 0.5d0*(c(i, j) + c(i, j + 1))
    end do
  end do
end subroutine
)";

TEST(ImperfectNests, IntegerTemporariesInSubscriptsReadAsTheirValues) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, kInterpolation);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, n {\n"
                                    "  for i = 1, n {\n"
                                    "    jc = 2*j - 1\n"
                                    "    ic = 2*i - 1\n"
                                    "    f(2*i - 1, 2*j - 1) = c(i, j)\n"
                                    "    f(2*i, 2*j - 1) = 0.5d0*(c(i, j) + c(i + 1, j))\n"
                                    "    f(2*i - 1, 2*j) = 0.5d0*(c(i, j) + c(i, j + 1))\n"
                                    "  }\n"
                                    "}\n");
  EXPECT_FALSE(find_dependence(ks[0]));
}

// The refusal says why the temporary has no known value there, and the fix.
TEST(ImperfectNests, AnIntegerTemporaryAssignedTwiceOrUnderAnIfIsNotASubscript) {
  for (const auto &[assign, line] : std::vector<std::pair<const char *, int>>{
           {"ic = 2*i - 1\n      if (i > 1) ic = 2*i", 8},
           {"if (i > 0) then\n        ic = 2*i - 1\n      end if", 8}}) {
    SCOPED_TRACE(assign);
    std::string src = std::string(R"(subroutine s(n, c, f)
  integer :: n, i, j, ic
  real(8) :: c(n, n), f(2*n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      )") + assign + R"(
      f(ic, j) = c(i, j)
    end do
  end do
end subroutine
)";
    TempDir dir;
    Diagnostic d = error_of(dir, src);
    EXPECT_EQ(d.message, "Subscript 'ic' of 'f' is not an integer multiple of a loop variable "
                         "plus a constant, as 'ic' is assigned under an IF at line " +
                             std::to_string(line) +
                             "; assign it outside any IF, or write the access in each branch "
                             "with its subscript in the loop variables");
    EXPECT_EQ(line_col(d.loc), loc_of(src, "ic, j)"));
  }
}

// Assigned something else, the temporary's value is named.
TEST(ImperfectNests, AnIntegerTemporaryAssignedAnythingElseSaysItsValue) {
  std::string src = R"(subroutine s(n, c, f, idx)
  integer :: n, i, j, ic, idx(n)
  real(8) :: c(n, n), f(2*n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      ic = idx(i) + 1
      f(ic, j) = c(i, j)
    end do
  end do
end subroutine
)";
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "Subscript 'ic' of 'f' is not an integer multiple of a loop variable "
                       "plus a constant, as 'ic' is assigned 'idx(i) + 1' at line 7, which is "
                       "not one either");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "ic, j)"));
}

// Assigned again, a temporary reads as its latest value (the fine indices of
// a restriction's buffer loop and its reading loop, each assigning `i1`); read
// before its assignment in the loop body, it would be the previous point's.
TEST(ImperfectNests, AnIntegerTemporaryReadsAsItsLatestAssignment) {
  auto nest = [](const std::string &point) {
    return R"(subroutine s(n, c, f)
  integer :: n, i, j, ic
  real(8) :: c(n, n), f(2*n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
)" + point +
           R"(
    end do
  end do
end subroutine
)";
  };
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, nest("      ic = 2*i - 1\n"
                                                "      f(ic, j) = c(i, j)\n"
                                                "      ic = ic + 1\n"
                                                "      f(ic, j) = -c(i, j)"));
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, n {\n"
                                    "  for i = 1, n {\n"
                                    "    ic = 2*i - 1\n"
                                    "    f(2*i - 1, j) = c(i, j)\n"
                                    "    ic = ic + 1\n"
                                    "    f(2*i, j) = -c(i, j)\n"
                                    "  }\n"
                                    "}\n");
  std::string before = nest("      f(ic, j) = c(i, j)\n      ic = 2*i");
  Diagnostic d = error_of(dir, before);
  EXPECT_EQ(d.message, "Subscript 'ic' of 'f' is not an integer multiple of a loop variable "
                       "plus a constant, as 'ic' is read before its assignment in the loop body, "
                       "where it holds what the previous point left; assign it before this "
                       "statement");
  EXPECT_EQ(line_col(d.loc), loc_of(before, "ic, j)"));
}

// A sponge layer's damping factor, set per level under an IF between the k
// and j loops (a one-line IF and an IF construct), and a metric read from a
// 1D array between the j and i loops: they move into the point.
TEST(ImperfectNests, IfsAroundScalarsAndArrayReadsBetweenTheLoopsMoveIntoThePoint) {
  std::string src = R"(subroutine sponge(n, zs, alpha, rdy, u, un)
  integer :: n, i, j, k
  real(8) :: zs, alpha, rdy(n), u(0:n+1, 0:n+1, n), un(0:n+1, 0:n+1, n), z, damp, r
  !$f2s stencil
  do k = 1, n
    z = dble(k)
    damp = 0d0
    if (z > zs) damp = alpha*(z - zs)
    if (k == 1) then
      damp = 1d0
    end if
    do j = 1, n
      r = rdy(j)
      do i = 1, n
        un(i,j,k) = (1d0 - damp)*u(i,j,k) + damp*r*(u(i-1,j,k) + u(i+1,j,k))
      end do
    end do
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  std::string s = print_stmt(ks[0].body);
  EXPECT_EQ(s.substr(0, s.find("      un(i, j, k) = ")), "for k = 1, n {\n"
                                                         "  for j = 1, n {\n"
                                                         "    for i = 1, n {\n"
                                                         "      z = real(k, 8)\n"
                                                         "      damp = 0.0d0\n"
                                                         "      if z > zs {\n"
                                                         "        damp = alpha*(z - zs)\n"
                                                         "      }\n"
                                                         "      if k == 1 {\n"
                                                         "        damp = 1.0d0\n"
                                                         "      }\n"
                                                         "      r = rdy(j)\n");
  EXPECT_FALSE(find_dependence(ks[0]));
}

// Bounds computed between the loops read as their values there: a width set
// under an IF on a LOGICAL argument is a MERGE of the call's scalars, and an
// IF ... ELSE of two ranges a MERGE of each bound (the assignments stay, for
// canonicalize/SinkScalars to move into the point).
TEST(ImperfectNests, BoundsComputedBetweenTheLoopsReadAsTheirValues) {
  std::string src = R"(subroutine s(nx, ny, b_dist, periodic, wide, u, un)
  integer :: nx, ny, b_dist, wide, i, j, b, ilo, ihi
  logical :: periodic
  real(8) :: u(0:nx+1, 0:ny+1), un(0:nx+1, 0:ny+1)
  !$f2s stencil
  do j = 1, ny
    b = b_dist
    if (periodic) b = 0
    if (wide > 0) then
      ilo = 1 + b
      ihi = nx - b
    else
      ilo = 2 + b
      ihi = nx - 1
    end if
    do i = ilo, ihi
      un(i,j) = u(i-1,j) + u(i+1,j)
    end do
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  std::vector<const For *> loops = perfect_nest(ks[0].body);
  ASSERT_EQ(loops.size(), 2u);
  EXPECT_EQ(print_expr(loops[1]->lo),
            "merge(1 + merge(0, b_dist, periodic), 2 + merge(0, b_dist, periodic), wide > 0)");
  EXPECT_EQ(print_expr(loops[1]->hi), "merge(nx - merge(0, b_dist, periodic), nx - 1, wide > 0)");
  EXPECT_FALSE(find_dependence(ks[0]));
}

// A bound read from a scalar whose value there is no one expression (a
// branch reads what it assigned before) is refused as before.
TEST(ImperfectNests, ABoundFromABranchThatReadsItsOwnAssignmentIsRefused) {
  std::string src = R"(subroutine s(n, flag, u, un)
  integer :: n, i, j, ilo
  logical :: flag
  real(8) :: u(0:n+1, 0:n+1), un(0:n+1, 0:n+1)
  !$f2s stencil
  do j = 1, n
    ilo = 1
    if (flag) then
      ilo = 2
      ilo = ilo + 1
    end if
    do i = ilo, n
      un(i,j) = u(i-1,j)
    end do
  end do
end subroutine
)";
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "'ilo' is assigned inside the '!$f2s stencil' region, so it cannot be used "
                       "in the bounds of the DO loop over 'i'; set it between the loops by "
                       "assignments and IFs whose branches assign it at most once each, from "
                       "what the scalars held before the IF");
}

// Set under an IF alone, the scalar keeps its value from the level before
// at the others: carried, and refused as such.
TEST(ImperfectNests, AScalarSetOnlyUnderAnIfBetweenTheLoopsIsRefused) {
  std::string src = R"(subroutine s(n, u, un)
  integer :: n, i, j
  real(8) :: u(0:n+1, 0:n+1), un(0:n+1, 0:n+1), f
  f = 1d0
  !$f2s stencil
  do j = 1, n
    if (j == 1) f = 2d0
    do i = 1, n
      un(i,j) = f*u(i,j)
    end do
  end do
end subroutine
)";
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "'f' may be read before it is assigned (only some branches of an IF assign "
                       "it) in the '!$f2s stencil' region, so its value is carried between "
                       "iterations");
}

// A scalar between the loops from an array the nest writes has another
// value once the nest has run over part of it.
TEST(ImperfectNests, AScalarBetweenTheLoopsFromAWrittenArrayIsRefused) {
  std::string src = R"(subroutine s(n, u)
  integer :: n, i, j
  real(8) :: u(0:n+1, 0:n+1), t
  !$f2s stencil
  do j = 1, n
    t = u(0, j)
    do i = 1, n
      u(i,j) = t
    end do
  end do
end subroutine
)";
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "'t' is assigned between the DO loops of the '!$f2s stencil' region from "
                       "array 'u', which the nest writes; only outer loop variables, scalars and "
                       "arrays the nest does not write may be read there, so move the assignment "
                       "into the innermost loop");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "u(0, j)"));
}

// A red-black colour flipped under an IF between the loops: the start is
// the MERGE of the IF's values, and the colour test reads it.
TEST(ImperfectNests, AColourFlippedUnderAnIfIsTheMergeOfItsValues) {
  std::string src = R"(subroutine s(n, ipass, f, u)
  integer :: n, ipass, i, j, joff
  real(8) :: f(n, n), u(n, n)
  !$f2s stencil
  do j = 2, n - 1
    joff = mod(j, 2)
    if (ipass == 2) joff = 1 - joff
    do i = 2 + joff, n - 1, 2
      u(i,j) = 0.25d0*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1) - f(i,j))
    end do
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body),
            "for j = 2, n - 1 {\n"
            "  for i = 2, n - 1 {\n"
            "    joff = mod(j, 2)\n"
            "    if ipass == 2 {\n"
            "      joff = 1 - joff\n"
            "    }\n"
            "    if mod(i - (2 + merge(1 - mod(j, 2), mod(j, 2), ipass == 2)), 2) == 0 {\n"
            "      u(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + u(i, j + 1) - "
            "f(i, j))\n"
            "    }\n"
            "  }\n"
            "}\n");
  EXPECT_FALSE(find_dependence(ks[0]));
}

// A line buffer read between the loops holds what the previous row filled
// (the buffer is gone once its reads are substituted): refused as an array
// the nest writes.
TEST(ImperfectNests, ALineBufferReadBetweenTheLoopsIsRefused) {
  std::string src = R"(subroutine s(n, u, v)
  integer :: n, i, j
  real(8) :: u(0:n+1, 0:n+1), v(n, n), row(0:200), t
  !$f2s stencil
  do j = 1, n
    t = row(1)
    do i = 0, n + 1
      row(i) = u(i, j)
    end do
    do i = 1, n
      v(i, j) = row(i - 1) + row(i + 1) + t
    end do
  end do
end subroutine
)";
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "'t' is assigned between the DO loops of the '!$f2s stencil' region from "
                       "array 'row', which the nest writes; only outer loop variables, scalars "
                       "and arrays the nest does not write may be read there, so move the "
                       "assignment into the innermost loop");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "row(1)"));
}

// The brief's row: a boundary element before the inner loop and one after
// it, which reads what the inner loop wrote in the same row. Each runs at
// one point of the row, in the source's order with the inner loop's; the
// inner loop may run no trip (nx = 2), so it runs at least one, and its own
// statement only where it is at one of its trips.
TEST(ImperfectNests, StatementsBeforeAndAfterTheInnerLoopRunOncePerRow) {
  std::string src = R"(subroutine s(nx, ny, a, b)
  integer :: nx, ny, i, j
  real(8) :: a(nx, ny), b(nx, ny)
  !$f2s stencil
  do j = 2, ny - 1
    a(1, j) = a(2, j)
    do i = 2, nx - 1
      b(i, j) = 0.25d0*(a(i-1, j) + a(i+1, j) + a(i, j-1) + a(i, j+1))
    end do
    b(nx, j) = b(nx-1, j)
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body),
            "for j = 2, ny - 1 {\n"
            "  for i = 2, max(nx - 1, 2) {\n"
            "    if i == 2 {\n"
            "      a(1, j) = a(2, j)\n"
            "    }\n"
            "    if i <= nx - 1 {\n"
            "      b(i, j) = 0.25d0*(a(i - 1, j) + a(i + 1, j) + a(i, j - 1) + a(i, j + 1))\n"
            "    }\n"
            "    if i == max(nx - 1, 2) {\n"
            "      b(nx, j) = b(nx - 1, j)\n"
            "    }\n"
            "  }\n"
            "}\n");
  ASSERT_EQ(ks[0].outer_statements.size(), 2u);
  EXPECT_EQ(line_col(ks[0].outer_statements[0].loc), loc_of(src, "a(1, j) ="));
  EXPECT_EQ(ks[0].outer_statements[1].depth, 1);
  // Every point touches its own elements: both loops run in parallel.
  EXPECT_FALSE(find_dependence(ks[0]));
}

// 3D: a statement per row between the j and i loops beside a scalar (which
// runs at every point, as before), one per plane under an IF on the plane's
// loop variable, and one after the j loop. (Inner loops of constant bounds
// beside statements are loops over offsets, unrolled in the point.)
TEST(ImperfectNests, StatementsAtEachLevelOfA3DNest) {
  std::string src = R"(subroutine s(n, nz, u, v)
  integer :: n, nz, i, j, k
  real(8) :: u(0:n+1, 0:n+1, nz), v(0:n+1, 0:n+1, nz), s1
  !$f2s stencil
  do k = 1, nz
    if (k == 1) v(0, 0, k) = 0d0
    do j = 1, n
      s1 = u(0, j, k)
      v(0, j, k) = s1
      do i = 1, n
        v(i, j, k) = s1*u(i, j, k)
      end do
    end do
    v(n+1, n+1, k) = v(n, n, k)
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for k = 1, nz {\n"
                                    "  for j = 1, max(n, 1) {\n"
                                    "    for i = 1, max(n, 1) {\n"
                                    "      if j == 1 .and. i == 1 {\n"
                                    "        if k == 1 {\n"
                                    "          v(0, 0, k) = 0.0d0\n"
                                    "        }\n"
                                    "      }\n"
                                    "      if j <= n {\n"
                                    "        s1 = u(0, j, k)\n"
                                    "      }\n"
                                    "      if j <= n .and. i == 1 {\n"
                                    "        v(0, j, k) = s1\n"
                                    "      }\n"
                                    "      if j <= n .and. i <= n {\n"
                                    "        v(i, j, k) = s1*u(i, j, k)\n"
                                    "      }\n"
                                    "      if j == max(n, 1) .and. i == max(n, 1) {\n"
                                    "        v(n + 1, n + 1, k) = v(n, n, k)\n"
                                    "      }\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n");
  std::vector<int> depths;
  for (const OuterStatement &o : ks[0].outer_statements)
    depths.push_back(o.depth);
  EXPECT_EQ(depths, (std::vector<int>{1, 1, 2}));
  EXPECT_FALSE(find_dependence(ks[0]));
}

// What an outer statement reads from another row is a dependence like any
// other: carried by j alone, the rows run in order (the loop over j is
// ordered); carried by both loops (the last point of the previous row),
// refused for it, with both subscripts and the loops.
TEST(ImperfectNests, AnOuterStatementsDependenceIsTheAnalysiss) {
  auto row = [](const std::string &first) {
    return R"(subroutine s(nx, ny, a, b)
  integer :: nx, ny, i, j
  real(8) :: a(nx, ny), b(nx, ny)
  !$f2s stencil
  do j = 2, ny
    a(1, j) = )" +
           first + R"(
    do i = 2, nx - 1
      b(i, j) = a(i-1, j)
    end do
  end do
end subroutine
)";
  };
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, row("0.5d0*a(1, j-1)"));
  ASSERT_EQ(ks.size(), 1u);
  ASSERT_TRUE(ks[0].ordered);
  EXPECT_EQ(ks[0].ordered->var, "j");
  EXPECT_EQ(ks[0].ordered->reason, "'a' is written at (1,j) and read at (1,j-1) in the same sweep");
  std::string src = row("b(nx-1, j-1)");
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "'b' is written at (i,j) and read at (nx-1,j-1) in the same sweep, so the "
                       "result depends on the loop order; every loop of the nest carries a "
                       "dependence ('j', 'i'), so none can run in parallel");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "b(nx-1"));
}

// A maximum over the rows of what each row's last point wrote, after the
// inner loop: a reduction updated once per row, its read of the row's own
// element at a run-time position ('nx') decided by isl, not the planes' rule.
TEST(ImperfectNests, AReductionAfterTheInnerLoopIsUpdatedOncePerRow) {
  std::string src = R"(subroutine s(nx, ny, a, b, smax)
  integer :: nx, ny, i, j
  real(8) :: a(nx, ny), b(nx, ny), smax
  !$f2s stencil
  do j = 2, ny - 1
    do i = 2, nx - 1
      b(i, j) = a(i-1, j) + a(i+1, j)
    end do
    smax = max(smax, b(nx-1, j))
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  ASSERT_EQ(ks[0].reductions.size(), 1u);
  EXPECT_EQ(ks[0].reductions[0].var, "smax");
  EXPECT_NE(print_stmt(ks[0].body)
                .find("    if i == max(nx - 1, 2) {\n"
                      "      smax = max(smax, b(nx - 1, j))\n"),
            std::string::npos)
      << print_stmt(ks[0].body);
  EXPECT_FALSE(find_dependence(ks[0]));
}

// A jump between the loops would skip the inner loop for some rows, which
// no statement of the point can say: refused with the rewrite (the IF
// around the statements it skips), also as the label that ends the loop.
TEST(ImperfectNests, AJumpBetweenTheLoopsIsRefusedWithItsRewrite) {
  for (const char *jump : {"if (m(j)) cycle", "if (m(j)) go to 100"}) {
    SCOPED_TRACE(jump);
    std::string src = std::string(R"(subroutine s(n, a, b, m)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
  logical :: m(n)
  !$f2s stencil
  do 100 j = 1, n
    )") + jump + R"(
    do i = 1, n
      b(i, j) = a(i, j)
    end do
100 continue
end subroutine
)";
    TempDir dir;
    Diagnostic d = error_of(dir, src);
    EXPECT_EQ(d.message, "A jump (CYCLE, EXIT, GO TO) between the DO loops of a '!$f2s stencil' "
                         "region skips the inner DO loop or the statements after it for some "
                         "iterations of the loop around it, which f2stencil cannot run as "
                         "written; put IF (.NOT. (...)) around each statement it skips instead, "
                         "inside the inner DO loop for that loop's body");
    EXPECT_EQ(line_col(d.loc), loc_of(src, std::string(jump).substr(10)));
  }
}

// After its loop, Fortran's loop variable is one past the last trip; the
// point has no such value.
TEST(ImperfectNests, AnInnerLoopVariableReadOutsideItsLoopIsRefused) {
  std::string src = R"(subroutine s(n, a)
  integer :: n, i, j
  real(8) :: a(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n - 1
      a(i, j) = 0d0
    end do
    a(n, j) = a(i - 1, j)
  end do
end subroutine
)";
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "Loop variable 'i' is read after its DO loop, between the DO loops of the "
                       "'!$f2s stencil' region, where it has no value of the loop's; write the "
                       "element with the bound of the loop instead");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "a(i - 1"));
}

} // namespace
} // namespace f2s::test
