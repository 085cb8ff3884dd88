// Lowering the wider point computations: 1D nests, IF constructs and
// statements, MERGE, comparisons and logical operators, and the intrinsics
// SIGN, LOG and MOD.
#include "FrontendTestUtil.h"

#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

std::string lowered(const std::string &src) {
  TempDir dir;
  auto kernels = lower_text(dir, src);
  EXPECT_EQ(kernels.size(), 1u);
  return kernels.empty() ? "" : print_kernel(kernels[0]);
}

TEST(FrontendConditionals, OneLoopNest) {
  EXPECT_EQ(lowered(R"(subroutine s(n, a, b)
  integer :: n, i
  real(8) :: a(0:n+1), b(0:n+1)
  !$f2s stencil name(j1)
  do i = 1, n
    b(i) = (a(i-1) + a(i) + a(i+1))/3d0
  end do
end subroutine
)"),
            "kernel j1(n: i32, a: f64(0:n + 1), b: f64(0:n + 1))\n"
            "  tune_size(1048576)\n"
            "  for i = 1, n {\n"
            "    b(i) = (a(i - 1) + a(i) + a(i + 1))/3.0d0\n"
            "  }\n");
}

TEST(FrontendConditionals, IfElseIfElseAndOneLineIf) {
  EXPECT_EQ(lowered(R"(subroutine s(n, c, a, b)
  integer :: n, i, j, c
  real(8) :: a(n, n), b(n, n), t
  !$f2s stencil name(br)
  do j = 1, n
    do i = 1, n
      if (a(i,j) .lt. 0d0 .and. .not. (j >= 2 .or. i == n)) then
        t = -a(i,j)
      else if (a(i,j) /= 1d0) then
        t = sign(log(a(i,j)), -1d0)
      else
        t = merge(1d0, 2d0, mod(i + j + c, 2) .eq. 0)
      end if
      if (t > 1d0) b(i,j) = t
    end do
  end do
end subroutine
)"),
            "kernel br(n: i32, c: i32, a: f64(1:n, 1:n), b: f64(1:n, 1:n))\n"
            "  temp t: f64\n"
            "  tune_size(1024, 1024)\n"
            "  for j = 1, n {\n"
            "    for i = 1, n {\n"
            "      if a(i, j) < 0.0d0 .and. .not. (j >= 2 .or. i == n) {\n"
            "        t = -a(i, j)\n"
            "      } else {\n"
            "        if a(i, j) /= 1.0d0 {\n"
            "          t = sign(log(a(i, j)), -1.0d0)\n"
            "        } else {\n"
            "          t = merge(1.0d0, 2.0d0, mod(i + j + c, 2) == 0)\n"
            "        }\n"
            "      }\n"
            "      if t > 1.0d0 {\n"
            "        b(i, j) = t\n"
            "      }\n"
            "    }\n"
            "  }\n");
}

TEST(FrontendConditionals, StrideTwoRedBlackLoopIsAColourTest) {
  EXPECT_EQ(lowered(R"(subroutine s(n, color, f, u)
  integer :: n, color, i, j
  real(8) :: f(0:n+1, 0:n+1), u(0:n+1, 0:n+1)
  !$f2s stencil name(rb)
  do j = 1, n
    do i = 1 + mod(j + color, 2), n, 2
      u(i,j) = 0.25d0*(f(i,j) + u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
    end do
  end do
end subroutine
)"),
            "kernel rb(n: i32, color: i32, f: f64(0:n + 1, 0:n + 1), u: f64(0:n + 1, 0:n + 1))\n"
            "  tune_size(1024, 1024)\n"
            "  for j = 1, n {\n"
            "    for i = 1, n {\n"
            "      if mod(i - (1 + mod(j + color, 2)), 2) == 0 {\n"
            "        u(i, j) = 0.25d0*(f(i, j) + u(i - 1, j) + u(i + 1, j) + u(i, j - 1) + "
            "u(i, j + 1))\n"
            "      }\n"
            "    }\n"
            "  }\n");
}

// The red-black form on an outer loop is the same colour test, in the point
// (tests/frontend/StrideStartsTest.cpp has the other starts).
TEST(FrontendConditionals, StrideTwoRedBlackOuterLoopIsAColourTestInThePoint) {
  std::string outer = R"(subroutine s(n, a)
  integer :: n, i, j
  real(8) :: a(n, n)
  !$f2s stencil
  do j = 1 + mod(n, 2), n, 2
    do i = 1, n
      a(i,j) = 0d0
    end do
  end do
end subroutine
)";
  std::string ir = lowered(outer);
  EXPECT_NE(ir.find("  for j = 1, n {\n"
                    "    for i = 1, n {\n"
                    "      if mod(j - (1 + mod(n, 2)), 2) == 0 {\n"
                    "        a(i, j) = 0.0d0\n"
                    "      }\n"),
            std::string::npos)
      << ir;
}

TEST(FrontendConditionals, RefusesAStrideTwoLoopThatIsNotRedBlack) {
  TempDir dir;
  Diagnostic d;
  std::string grid = R"(subroutine s(n, a)
  integer :: n, i, j
  real(8) :: a(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1 + mod(j + iround(a(1,j)), 2), n, 2
      a(i,j) = 0d0
    end do
  end do
end subroutine
)";
  d = error_of(dir, grid);
  EXPECT_EQ(d.message,
            "'iround' is an unknown function, so what it reads and writes cannot be known; "
            "inside a '!$f2s stencil' region only the elementary intrinsics (SQRT, EXP, LOG, "
            "LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH), ABS, SIGN, MIN, "
            "MAX, MOD, MERGE, the conversions (REAL, DBLE, FLOAT, INT, NINT, FLOOR, CEILING, "
            "AINT, ANINT) and their specific names (DSQRT, AMAX1, ...) are allowed; declare "
            "'iround' if it is an array, or write the function's computation inline");
  std::string self = R"(subroutine s(n, a)
  integer :: n, i, j
  real(8) :: a(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1 + mod(i + j, 2), n, 2
      a(i,j) = 0d0
    end do
  end do
end subroutine
)";
  d = error_of(dir, self);
  EXPECT_EQ(d.message, "'i + j' must be an INTEGER expression of the outer loop variables and "
                       "scalar arguments to choose the colour of the DO loop over 'i'");
  EXPECT_EQ(line_col(d.loc), loc_of(self, "i + j, 2)"));
}

TEST(FrontendConditionals, RefusesLogicalWhereANumberIsNeeded) {
  TempDir dir;
  std::string src = R"(subroutine s(n, a)
  integer :: n, i
  real(8) :: a(n)
  !$f2s stencil
  do i = 1, n
    a(i) = merge(1d0, 0d0, a(i)) + 1d0
  end do
end subroutine
)";
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, "'a(i)' is not LOGICAL");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "a(i)) + 1d0"));
  std::string src2 = R"(subroutine s(n, a)
  integer :: n, i
  real(8) :: a(n)
  !$f2s stencil
  do i = 1, n
    a(i) = (a(i) > 0d0)
  end do
end subroutine
)";
  d = error_of(dir, src2);
  EXPECT_EQ(d.message, "'(a(i) > 0d0)' is LOGICAL where a number is needed");
}

// Points skipped by jumps, as F77 codes mask land: IF (...) GO TO the
// CONTINUE that ends the loops, or a label further down the same body, and
// IF (...) CYCLE. The statements a jump skips run under its negated
// condition; the statement at the label runs at every point.
TEST(FrontendConditionals, ForwardJumpsAndCycleBecomeIfs) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(      SUBROUTINE S(N, K, KMT, A, B)
      INTEGER N, K, KMT(N, N), I, J
      REAL A(N, N), B(N, N), T
C$F2S STENCIL NAME(GOTOS)
      DO 100 J = 2, N-1
        DO 100 I = 2, N-1
          IF (KMT(I,J) .LT. K) GO TO 100
          T = A(I+1,J)
          IF (KMT(I+1,J) .LT. K) GO TO 50
          T = T + A(I-1,J)
   50     B(I,J) = T
  100 CONTINUE
C$F2S STENCIL NAME(CYCLES)
      DO J = 2, N-1
        DO I = 2, N-1
          IF (KMT(I,J) .LT. K) CYCLE
          B(I,J) = A(I,J+1)
        END DO
      END DO
      END
)",
                            "input.f");
  ASSERT_EQ(kernels.size(), 2u);
  EXPECT_EQ(print_kernel(kernels[0]),
            "kernel gotos(n: i32, k: i32, kmt: i32(1:n, 1:n), a: f32(1:n, 1:n), b: f32(1:n, 1:n))\n"
            "  temp t: f32\n"
            "  tune_size(1024, 1024)\n"
            "  for j = 2, n - 1 {\n"
            "    for i = 2, n - 1 {\n"
            "      if .not. kmt(i, j) < k {\n"
            "        t = a(i + 1, j)\n"
            "        if .not. kmt(i + 1, j) < k {\n"
            "          t = t + a(i - 1, j)\n"
            "        }\n"
            "        b(i, j) = t\n"
            "      }\n"
            "    }\n"
            "  }\n");
  EXPECT_EQ(
      print_kernel(kernels[1]),
      "kernel cycles(n: i32, k: i32, kmt: i32(1:n, 1:n), a: f32(1:n, 1:n), b: f32(1:n, 1:n))\n"
      "  tune_size(1024, 1024)\n"
      "  for j = 2, n - 1 {\n"
      "    for i = 2, n - 1 {\n"
      "      if .not. kmt(i, j) < k {\n"
      "        b(i, j) = a(i, j + 1)\n"
      "      }\n"
      "    }\n"
      "  }\n");
}

// A CYCLE inside an IF construct skips the rest of the loop body too: the
// rest runs after each branch that does not cycle (the implicit ELSE
// included), and a CYCLE in the middle of a branch ends it.
TEST(FrontendConditionals, CycleInsideAnIfConstructSkipsTheRestOfTheBody) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      if (a(i,j) > 0d0) then
        if (a(i,j) > 1d0) cycle
        b(i,j) = 1d0
      else if (a(i,j) < -1d0) then
        b(i,j) = 2d0
        cycle
        b(i,j) = 3d0
      end if
      b(i,j) = b(i,j) + a(i,j)
    end do
  end do
end subroutine
)");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(print_kernel(kernels[0]), "kernel s_1(n: i32, a: f64(1:n, 1:n), b: f64(1:n, 1:n))\n"
                                      "  tune_size(1024, 1024)\n"
                                      "  for j = 1, n {\n"
                                      "    for i = 1, n {\n"
                                      "      if a(i, j) > 0.0d0 {\n"
                                      "        if .not. a(i, j) > 1.0d0 {\n"
                                      "          b(i, j) = 1.0d0\n"
                                      "          b(i, j) = b(i, j) + a(i, j)\n"
                                      "        }\n"
                                      "      } else {\n"
                                      "        if a(i, j) < -1.0d0 {\n"
                                      "          b(i, j) = 2.0d0\n"
                                      "        } else {\n"
                                      "          b(i, j) = b(i, j) + a(i, j)\n"
                                      "        }\n"
                                      "      }\n"
                                      "    }\n"
                                      "  }\n");
}

// A CYCLE among the statements an IF (...) GO TO skips skips the label's
// statements too: they run after the skipped ones that do not cycle, and
// alone where the jump is taken.
TEST(FrontendConditionals, CycleAmongTheStatementsAGoToSkips) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(      SUBROUTINE S(N, A, B)
      INTEGER N, I
      REAL A(N), B(N)
C$F2S STENCIL
      DO 100 I = 1, N
        IF (A(I) .LT. 0.0) GO TO 50
        IF (A(I) .GT. 1.0) CYCLE
        B(I) = 1.0
   50   B(I) = B(I) + A(I)
  100 CONTINUE
      END
)",
                            "input.f");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(print_kernel(kernels[0]), "kernel s_1(n: i32, a: f32(1:n), b: f32(1:n))\n"
                                      "  tune_size(1048576)\n"
                                      "  for i = 1, n {\n"
                                      "    if .not. a(i) < 0.0 {\n"
                                      "      if .not. a(i) > 1.0 {\n"
                                      "        b(i) = 1.0\n"
                                      "        b(i) = b(i) + a(i)\n"
                                      "      }\n"
                                      "    } else {\n"
                                      "      b(i) = b(i) + a(i)\n"
                                      "    }\n"
                                      "  }\n");
}

// F77 statement functions: each reference is the function's expression with
// the dummies reading as the actual arguments (lowered where the reference
// is), one statement function referencing another.
TEST(FrontendConditionals, StatementFunctionsAreInlined) {
  TempDir dir;
  auto kernels = lower_text(dir, R"(      SUBROUTINE S(N, Q, R, C)
      INTEGER N, I
      REAL Q(0:N+1), R(N), C, X, Y, F, G
      F(X, Y) = X*Y + C
      G(X) = F(X, 2.0) - X
C$F2S STENCIL NAME(SF)
      DO 10 I = 1, N
         R(I) = F(Q(I-1) + Q(I+1), Q(I)) + G(Q(I))
   10 CONTINUE
      END
)",
                            "input.f");
  ASSERT_EQ(kernels.size(), 1u);
  EXPECT_EQ(print_kernel(kernels[0]), "kernel sf(n: i32, q: f32(0:n + 1), r: f32(1:n), c: f32)\n"
                                      "  tune_size(1048576)\n"
                                      "  for i = 1, n {\n"
                                      "    r(i) = (q(i - 1) + q(i + 1))*q(i) + c + "
                                      "(q(i)*2.0 + c - q(i))\n"
                                      "  }\n");
}

TEST(FrontendConditionals, AStatementFunctionArgumentOfAnotherTypeIsRefused) {
  TempDir dir;
  try {
    lower_text(dir, R"(      SUBROUTINE S(N, Q, R)
      INTEGER N, I
      REAL Q(N), R(N), X, F
      F(X) = 2.0*X
C$F2S STENCIL
      DO 10 I = 1, N
         R(I) = F(Q(I)) + F(1.0D0)
   10 CONTINUE
      END
)",
               "input.f");
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "Argument '1.0d0' of statement function 'f' has another type than its dummy "
              "argument 'x'; convert it, as Fortran requires the types to agree");
  }
}

} // namespace
} // namespace f2s::test
