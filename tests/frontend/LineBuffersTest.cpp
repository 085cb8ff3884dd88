// Line buffers (issue 11, section 2): an inner loop fills local 1D arrays
// over a row and the next loops read them at neighbouring indices. The front
// end lowers the sibling loops as written, canonicalize/ForwardLineBuffers
// substitutes the buffers, and the kernel neither reads nor passes them.
// What cannot be substituted is refused with the reason and position.
#include "ast/IRPrinter.h"
#include "tests/common/TestUtil.h"
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// A 2D routine with a local buffer b(0:n+1), the region's body `body`, and
/// `after` following the region.
std::string routine(const std::string &body, const std::string &after = "",
                    const std::string &decls = "  real(8) :: b(0:n+1), c(0:n+1)\n") {
  return R"(subroutine s(n, m, u, r)
  implicit none
  integer :: n, m, i, j, ii
  real(8) :: u(0:n+1, 0:m+1), r(0:n+1, 0:m+1)
)" + decls +
         R"(  !$f2s stencil
  do j = 1, m
)" + body +
         R"(  end do
)" + after +
         R"(end subroutine
)";
}

const char *const kFill = R"(    do i = 0, n + 1
      b(i) = u(i, j-1) + u(i, j+1)
    end do
)";

TEST(LineBuffers, AreSubstitutedIntoTheLoopThatReadsThem) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, routine(std::string(kFill) + R"(    do i = 1, n
      r(i, j) = b(i-1) + 2.0d0*b(i) + b(i+1)
    end do
)"));
  ASSERT_EQ(ks.size(), 1u);
  const Kernel &k = ks[0];
  EXPECT_EQ(k.line_buffers, std::vector<std::string>{"b"});
  EXPECT_EQ(k.find_arg("b"), nullptr);
  EXPECT_EQ(print_stmt(k.body),
            "for j = 1, m {\n"
            "  for i = 1, n {\n"
            "    r(i, j) = u(i - 1, j - 1) + u(i - 1, j + 1) + 2.0d0*(u(i, j - 1) + u(i, j + 1)) "
            "+ (u(i + 1, j - 1) + u(i + 1, j + 1))\n"
            "  }\n"
            "}\n");
  EXPECT_NE(print_kernel(k).find("  line_buffer b\n"), std::string::npos);
}

// The F77 shape: labels, continuation lines, a buffer sized by a PARAMETER.
TEST(LineBuffers, FixedFormWithLabelsAndContinuations) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, R"(      SUBROUTINE RES(N, M, U, R)
      INTEGER N, M, NMAX, I, J
      PARAMETER (NMAX = 1000)
      DOUBLE PRECISION U(0:N+1, 0:M+1), R(N, M), UL(0:NMAX)
C$F2S STENCIL
      DO 20 J = 1, M
         DO 10 I = 0, N + 1
            UL(I) = U(I, J-1)
     >            + U(I, J+1)
   10    CONTINUE
         DO 15 I = 1, N
            R(I, J) = UL(I-1) + UL(I+1)
   15    CONTINUE
   20 CONTINUE
      END
)",
                                            "input.f");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].line_buffers, std::vector<std::string>{"ul"});
  EXPECT_EQ(ks[0].find_arg("ul"), nullptr);
}

// Loops over a grid sized by PARAMETERs have constant bounds, as loops over
// offsets inside the point do; filling a line buffer makes them the nest's
// loops (they were unrolled as offset loops, 1,088 copies, and refused).
TEST(LineBuffers, LoopsWithNamedConstantBoundsAreTheNestsLoops) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, R"(subroutine resid(u, r)
  integer, parameter :: nx = 34, ny = 34, nz = 34
  double precision :: u(nx, ny, nz), r(nx, ny, nz), u1(nx)
  integer :: i1, i2, i3
  !$f2s stencil
  do i3 = 2, nz - 1
    do i2 = 2, ny - 1
      do i1 = 1, nx
        u1(i1) = u(i1, i2 - 1, i3) + u(i1, i2 + 1, i3)
      end do
      do i1 = 2, nx - 1
        r(i1, i2, i3) = u1(i1 - 1) + u1(i1 + 1)
      end do
    end do
  end do
end subroutine
)");
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].line_buffers, std::vector<std::string>{"u1"});
  EXPECT_EQ(print_stmt(ks[0].body),
            "for i3 = 2, 33 {\n"
            "  for i2 = 2, 33 {\n"
            "    for i1 = 2, 33 {\n"
            "      r(i1, i2, i3) = u(i1 - 1, i2 - 1, i3) + u(i1 - 1, i2 + 1, i3) + "
            "(u(i1 + 1, i2 - 1, i3) + u(i1 + 1, i2 + 1, i3))\n"
            "    }\n"
            "  }\n"
            "}\n");
}

struct Refused {
  std::string body, after, message, at;
};

class LineBufferRefusals : public ::testing::TestWithParam<Refused> {};

TEST_P(LineBufferRefusals, SayWhy) {
  const Refused &c = GetParam();
  std::string text = routine(c.body, c.after);
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, c.message);
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, c.at));
}

INSTANTIATE_TEST_SUITE_P(
    Cases, LineBufferRefusals,
    ::testing::Values(
        // Filled over 1..n, read at i - 1 from i = 1.
        Refused{R"(    do i = 1, n
      b(i) = u(i, j-1)
    end do
    do i = 1, n
      r(i, j) = b(i-1)
    end do
)",
                "",
                "Line buffer 'b' is read at 'b(i - 1)', which the DO loop at line 8 may not "
                "fill (it runs from 1 to n); fill the buffer over a range that covers every "
                "read, as bounds that differ by constants",
                "b(i-1)"},
        // Read after the region: the library never fills it.
        Refused{std::string(kFill) + R"(    do i = 1, n
      r(i, j) = b(i)
    end do
)",
                "  r(1, 1) = b(1)\n",
                "Line buffer 'b' of the '!$f2s stencil' region is also used at line 15, column "
                "13, but the library computes its values where the region reads them and never "
                "fills it; give the region a buffer of its own",
                "!$f2s"},
        // Filled from the grid the nest writes.
        Refused{R"(    do i = 0, n + 1
      b(i) = r(i, j-1)
    end do
    do i = 1, n
      r(i, j) = b(i-1) + b(i+1)
    end do
)",
                "",
                "Line buffer 'b' is filled from 'r', which the '!$f2s stencil' region writes; a "
                "buffer may be filled only from arrays the nest does not write",
                "r(i, j-1)"},
        // Two readers that cannot run as one loop.
        Refused{std::string(kFill) + R"(    do i = 1, n
      r(i, j) = b(i)
    end do
    do i = 1, n
      r(i, j) = r(i+1, j) + b(i)
    end do
)",
                "",
                "The DO loops at line 11 and at line 14 that read line buffers cannot run as one "
                "loop: 'r' is written by one and accessed at other elements by the other",
                "r(i+1, j)"},
        // Readers over different ranges.
        Refused{std::string(kFill) + R"(    do i = 1, n
      r(i, j) = b(i)
    end do
    do i = 2, n
      r(i, j) = r(i, j) + b(i)
    end do
)",
                "",
                "The DO loops at line 11 and at line 14 read line buffers over different ranges; "
                "loops that read them must have the same bounds",
                "do i = 2, n"},
        // The loops side by side run over different variables.
        Refused{R"(    do ii = 0, n + 1
      b(ii) = u(ii, j-1)
    end do
    do i = 1, n
      r(i, j) = b(i)
    end do
)",
                "",
                "The DO loop over 'ii' beside the DO loop over 'i' at line 11 must run over 'i' "
                "too: line buffers are filled and read by loops over one variable",
                "ii = 0"},
        // Nothing is filled: two updates side by side.
        Refused{R"(    do i = 1, n
      r(i, j) = u(i, j)
    end do
    do i = 1, n
      r(i, j) = r(i, j) + u(i+1, j)
    end do
)",
                "",
                "Inner DO loops side by side in a '!$f2s stencil' region are accepted only "
                "when the first ones fill line buffers "
                "(local 1D arrays subscripted by the loop variable alone) that the later ones "
                "read, and the DO loop at line 8 fills none",
                "do i = 1, n\n      r(i, j) = r(i, j) +"},
        // A statement between the loops side by side.
        Refused{std::string(kFill) + "    r(1, j) = 0\n" + R"(    do i = 1, n
      r(i, j) = b(i)
    end do
)",
                "",
                "Inner DO loops side by side in a '!$f2s stencil' region are line buffers "
                "filled, then read, which may have only assignments to scalars before them; "
                "move this statement into one of the loops, or annotate each loop with a "
                "'!$f2s stencil' of its own",
                "r(1, j) = 0"},
        // A step of 2.
        Refused{R"(    do i = 0, n + 1, 2
      b(i) = u(i, j-1)
    end do
    do i = 1, n
      r(i, j) = b(i)
    end do
)",
                "",
                "The DO loops over 'i' side by side (line buffers filled, then read) must have "
                "a step of 1",
                "2\n"}));

// A dummy argument filled like a buffer: the caller would see the values.
TEST(LineBuffers, ADummyArgumentIsNoBuffer) {
  std::string text = R"(subroutine s(n, m, u, r, b)
  implicit none
  integer :: n, m, i, j
  real(8) :: u(0:n+1, 0:m+1), r(n, m), b(0:n+1)
  !$f2s stencil
  do j = 1, m
    do i = 0, n + 1
      b(i) = u(i, j-1)
    end do
    do i = 1, n
      r(i, j) = b(i-1) + b(i+1)
    end do
  end do
end subroutine
)";
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, "'b' is filled like a line buffer, beside the inner DO loop that reads "
                       "it, but its values are seen outside the procedure (a dummy argument, or "
                       "in COMMON or a module); only a local array can be a line buffer, so "
                       "fill a local array instead");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, "b(i) ="));
}

} // namespace
} // namespace f2s
