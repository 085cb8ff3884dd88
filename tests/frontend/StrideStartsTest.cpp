// Stride loops whose start is not a constant (issue 38): a red-black parity
// computed between the loops under an IF statement, an IF block or by MOD,
// on any loop of the nest, and a start the call gives. The front end lowers
// each as a unit-step loop from the smallest start with the guard that
// keeps the source's points around the point (frontend/LowerNest); which
// loops may run in parallel is the dependence analysis's answer
// (ast/Dependence, with isl), tested here on the lowered nests.
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"

#include "frontend/FrontendTestUtil.h"

namespace f2s::test {
namespace {

/// A red-black sweep of a slab nxl..nxr in place: `loops` (the DO loops,
/// with what lies between them) around the 7-point update.
std::string slab_sweep(const std::string &loops, const std::string &ends) {
  return R"(subroutine rb_sweep(nxl, nxr, ny, nz, colour, omega, rhs, p)
  integer, intent(in) :: nxl, nxr, ny, nz, colour
  real(8), intent(in) :: omega, rhs(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  real(8), intent(inout) :: p(nxl-1:nxr+1, 0:ny+1, 0:nz+1)
  integer :: i, j, k, nxl1, jst
  !$f2s stencil
)" + loops +
         R"(        p(i,j,k) = (1-omega)*p(i,j,k) + omega/6*(p(i-1,j,k)+p(i+1,j,k)+p(i,j-1,k) &
                   + p(i,j+1,k) + p(i,j,k-1) + p(i,j,k+1) - rhs(i,j,k))
)" + ends +
         "end subroutine\n";
}

const std::string kEnds = "      end do\n    end do\n  end do\n";

/// The one kernel of `src`, its nest printed without the update.
Kernel lowered(const std::string &src, std::string &nest) {
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  EXPECT_EQ(ks.size(), 1u);
  if (ks.empty())
    return Kernel{};
  nest = print_stmt(ks[0].body);
  nest = nest.substr(0, nest.find("p(i, j, k) = "));
  return ks[0];
}

void expect_ordered(const Kernel &k, const std::string &loop) {
  Ordering o = find_ordering(k);
  ASSERT_FALSE(o.refusal) << o.refusal->str();
  ASSERT_TRUE(o.ordered);
  EXPECT_EQ(o.ordered->var, loop);
  EXPECT_EQ(o.ordered->reason, "'p' is written at (i,j,k) and read at (i,j,k-1), a point of the "
                               "same colour, in the same sweep");
}

// The parity of each row's first point set by an IF statement between the
// loops, the stride-2 loop outside the vertical one: i and j run in
// parallel, k in order.
TEST(StrideStarts, AParityUnderAnIfStatementIsTheColourTestOfThePoint) {
  std::string nest;
  Kernel k = lowered(slab_sweep("  do j = 1, ny\n"
                                "    nxl1 = nxl\n"
                                "    if (mod(nxl + j + colour, 2) /= 0) nxl1 = nxl + 1\n"
                                "    do i = nxl1, nxr, 2\n"
                                "      do k = 1, nz\n",
                                kEnds),
                     nest);
  EXPECT_EQ(nest, "for j = 1, ny {\n"
                  "  for i = nxl, nxr {\n"
                  "    for k = 1, nz {\n"
                  "      nxl1 = nxl\n"
                  "      if mod(nxl + j + colour, 2) /= 0 {\n"
                  "        nxl1 = nxl + 1\n"
                  "      }\n"
                  "      if mod(i - merge(nxl + 1, nxl, mod(nxl + j + colour, 2) /= 0), 2) == 0 {\n"
                  "        ");
  expect_ordered(k, "k");
}

// An IF block with ELSE, the vertical loop outermost: k is ordered around
// the free horizontal loops.
TEST(StrideStarts, AParityFromAnIfBlockWithTheVerticalLoopOutside) {
  std::string nest;
  Kernel k = lowered(slab_sweep("  do k = 1, nz\n"
                                "    do j = 1, ny\n"
                                "      if (mod(j + colour + nxl, 2) == 0) then\n"
                                "        nxl1 = nxl\n"
                                "      else\n"
                                "        nxl1 = nxl + 1\n"
                                "      end if\n"
                                "      do i = nxl1, nxr, 2\n",
                                kEnds),
                     nest);
  EXPECT_NE(nest.find("    for i = nxl, nxr {\n"), std::string::npos) << nest;
  EXPECT_NE(nest.find("      if mod(i - merge(nxl, nxl + 1, mod(j + colour + nxl, 2) == 0), 2) "
                      "== 0 {\n"),
            std::string::npos)
      << nest;
  expect_ordered(k, "k");
}

// The start computed directly by MOD on a loop that is not the innermost.
TEST(StrideStarts, AParityByModOnAnOuterLoop) {
  std::string nest;
  Kernel k = lowered(slab_sweep("  do j = 1, ny\n"
                                "    nxl1 = nxl + mod(nxl + j + colour, 2)\n"
                                "    do i = nxl1, nxr, 2\n"
                                "      do k = 1, nz\n",
                                kEnds),
                     nest);
  EXPECT_EQ(nest, "for j = 1, ny {\n"
                  "  for i = nxl, nxr {\n"
                  "    for k = 1, nz {\n"
                  "      nxl1 = nxl + mod(nxl + j + colour, 2)\n"
                  "      if mod(i - (nxl + mod(nxl + j + colour, 2)), 2) == 0 {\n"
                  "        ");
  expect_ordered(k, "k");
}

// Four colours: j steps by 2 from a start the call gives, i from a parity
// set under an IF between them. The statements between the loops run under
// the outer loop's guard, as they do in the source.
TEST(StrideStarts, BothHorizontalLoopsStrideFromTheirStarts) {
  std::string nest;
  Kernel k = lowered(slab_sweep("  do j = 1 + colour/2, ny, 2\n"
                                "    nxl1 = nxl\n"
                                "    if (mod(colour, 2) == 1) nxl1 = nxl + 1\n"
                                "    do i = nxl1, nxr, 2\n"
                                "      do k = 1, nz\n",
                                kEnds),
                     nest);
  EXPECT_EQ(nest, "for j = colour/2 + 1, ny {\n"
                  "  for i = merge(nxl + 1, nxl, mod(colour, 2) == 1), nxr {\n"
                  "    for k = 1, nz {\n"
                  "      if mod(j - (1 + colour/2), 2) == 0 {\n"
                  "        nxl1 = nxl\n"
                  "      }\n"
                  "      if mod(j - (1 + colour/2), 2) == 0 {\n"
                  "        if mod(colour, 2) == 1 {\n"
                  "          nxl1 = nxl + 1\n"
                  "        }\n"
                  "      }\n"
                  "      if mod(j - (1 + colour/2), 2) == 0 .and. mod(i - merge(nxl + 1, nxl, "
                  "mod(colour, 2) == 1), 2) == 0 {\n"
                  "        ");
  expect_ordered(k, "k");
}

// A start the call gives: the loop runs from it, every other point kept.
TEST(StrideStarts, AStartFromAnArgument) {
  std::string src = R"(subroutine s(n, m, a, b)
  integer :: n, m, i, j
  real :: a(n, n), b(n, n)
  !$f2s stencil
  do j = 1, n
    do i = m, n, 2
      b(i, j) = a(i, j)
    end do
  end do
end subroutine
)";
  TempDir dir;
  std::vector<Kernel> ks = lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(print_stmt(ks[0].body), "for j = 1, n {\n"
                                    "  for i = m, n {\n"
                                    "    if mod(i - m, 2) == 0 {\n"
                                    "      b(i, j) = a(i, j)\n"
                                    "    }\n"
                                    "  }\n"
                                    "}\n");
  EXPECT_FALSE(find_dependence(ks[0]));
}

// Zebra lines whose parity test holds only for a non-negative k + colour:
// for a negative colour every level starts at the same j, so the level
// below is of the same colour too. isl finds it for some colour; the
// refusal names the dependence and the loops that carry it.
TEST(StrideStarts, AParityTestThatIsNotOneColourIsRefusedForItsDependence) {
  std::string src = slab_sweep("  do k = 1, nz\n"
                               "    jst = 1\n"
                               "    if (mod(k + colour, 2) == 1) jst = 2\n"
                               "    do j = jst, ny, 2\n"
                               "      do i = nxl, nxr\n",
                               kEnds);
  Diagnostic d = refusal(src);
  EXPECT_EQ(d.message, "'p' is written at (i,j,k) and read at (i,j,k-1), a point of the same "
                       "colour, in the same sweep, so the result depends on the loop order; more "
                       "than one loop carries a dependence ('k', 'i'), so no loop can run in "
                       "order while the others run in parallel");
  // With `/= 0`, a colour for every k: the lines run in parallel, each
  // relaxed in order along i.
  std::string nest;
  Kernel k = lowered(slab_sweep("  do k = 1, nz\n"
                                "    jst = 1\n"
                                "    if (mod(k + colour, 2) /= 0) jst = 2\n"
                                "    do j = jst, ny, 2\n"
                                "      do i = nxl, nxr\n",
                                kEnds),
                     nest);
  Ordering o = find_ordering(k);
  ASSERT_FALSE(o.refusal) << o.refusal->str();
  ASSERT_TRUE(o.ordered);
  EXPECT_EQ(o.ordered->var, "i");
}

// A start whose range over the rows has no constant width is refused at
// the start, with the forms that have one.
TEST(StrideStarts, AStartThatMovesWithALoopIsRefused) {
  std::string src = slab_sweep("  do j = 1, ny\n"
                               "    do i = nxl + j, nxr, 2\n"
                               "      do k = 1, nz\n",
                               kEnds);
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "The start 'nxl + j' of the DO loop over 'i' must be an INTEGER expression "
                       "of the scalar arguments plus a part that changes within a range of "
                       "constant width (MOD(e, 2) of the outer loop variables, or the values an "
                       "IF between the loops chooses from), to run the loop with a step of 2");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "nxl + j, nxr"));
}

} // namespace
} // namespace f2s::test
