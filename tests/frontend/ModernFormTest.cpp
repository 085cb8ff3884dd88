// Modern free-form codes: assumed-shape dummies, allocatable module arrays,
// USE with ONLY and renames, kinds through named constants, and LBOUND,
// UBOUND and SIZE in loop bounds. Each is checked through the IR printer.
#include "FrontendTestUtil.h"

#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

std::vector<Kernel> lower(const std::string &text) {
  TempDir dir;
  return lower_text(dir, text);
}

std::string printed(const std::string &text) {
  std::vector<Kernel> ks = lower(text);
  EXPECT_EQ(ks.size(), 1u);
  return ks.empty() ? "" : print_kernel(ks[0]);
}

std::string error_at(const std::string &text) {
  TempDir dir;
  Diagnostic d = error_of(dir, text);
  return line_col(d.loc) + ": " + d.message;
}

const char *kHeat = R"(module kinds
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: wp = real64
end module kinds

module fields
  use kinds, only: wp
  implicit none
  real(wp), allocatable :: kappa(:,:,:)
  real(wp), allocatable :: unused(:,:,:)
end module fields

module solver
  use kinds
  use fields, only: cond => kappa
  implicit none
contains
  subroutine step(dt, t, tnew)
    real(wp), intent(in) :: dt
    real(wp), intent(in) :: t(0:, 0:, :)
    real(kind=wp), intent(inout) :: tnew(0:, 0:, :)
    integer :: i, j, k
    !$f2s stencil name(heat)
    do k = 2, ubound(t, 3) - 1
      do j = lbound(t, 2) + 1, size(t, dim=2) - 2
        do i = 1, ubound(t, 1) - 1
          tnew(i,j,k) = t(i,j,k) + dt*cond(i,j,k)*(t(i+1,j,k) + t(i-1,j,k) + t(i,j,k-1))
        end do
      end do
    end do
  end subroutine step
end module solver
)";

TEST(ModernForm, AssumedShapeAndAllocatableGridsTakeTheirBoundsAsArguments) {
  EXPECT_EQ(printed(kHeat),
            "kernel heat(dt: f64, t: f64(0:t_ub1, 0:t_ub2, 1:t_ub3), "
            "tnew: f64(0:tnew_ub1, 0:tnew_ub2, 1:tnew_ub3), "
            "cond: f64(cond_lb1:cond_ub1, cond_lb2:cond_ub2, cond_lb3:cond_ub3), "
            "t_ub1: i32, t_ub2: i32, t_ub3: i32, tnew_ub1: i32, tnew_ub2: i32, tnew_ub3: i32, "
            "cond_lb1: i32, cond_ub1: i32, cond_lb2: i32, cond_ub2: i32, cond_lb3: i32, "
            "cond_ub3: i32)\n"
            "  tune_size(256, 256, 256)\n"
            "  for k = 2, t_ub3 - 1 {\n"
            "    for j = 1, t_ub2 + 1 - 2 {\n"
            "      for i = 1, t_ub1 - 1 {\n"
            "        tnew(i, j, k) = t(i, j, k) + dt*cond(i, j, k)*(t(i + 1, j, k) + "
            "t(i - 1, j, k) + t(i, j, k - 1))\n"
            "      }\n"
            "    }\n"
            "  }\n");
}

TEST(ModernForm, BoundArgumentsSayWhatTheyHold) {
  Kernel k = lower(kHeat).at(0);
  ASSERT_EQ(k.args.size(), 16u);
  EXPECT_EQ(k.args[1].decl, ArrayDecl::AssumedShape);
  EXPECT_EQ(k.args[3].decl, ArrayDecl::Allocatable);
  EXPECT_EQ(k.args[0].decl, ArrayDecl::Explicit);
  const Variable &cond_lb2 = k.args[12];
  EXPECT_EQ(cond_lb2.name, "cond_lb2");
  ASSERT_TRUE(cond_lb2.bound_of);
  EXPECT_EQ(cond_lb2.bound_of->grid, "cond");
  EXPECT_EQ(cond_lb2.bound_of->dim, 2);
  EXPECT_FALSE(cond_lb2.bound_of->upper);
  EXPECT_TRUE(k.args[6].bound_of->upper);
  EXPECT_FALSE(k.args[0].bound_of);
}

TEST(ModernForm, KindsThroughNamedConstants) {
  std::string p = printed(R"(module precision
  use, intrinsic :: iso_fortran_env
  implicit none
  integer, parameter :: sp = real32, dp = selected_real_kind(15, 307)
  integer, parameter :: hp = selected_real_kind(6)
end module
subroutine s(n, a, b, c, d)
  use precision, only: sp, wide => dp, hp
  use, intrinsic :: iso_c_binding, only: c_double
  integer :: n, i, j
  real(sp) :: a(n, n)
  real(kind=wide) :: b(n, n)
  real(hp) :: c(n, n)
  real(c_double) :: d(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      d(i, j) = a(i, j) + b(i, j) + c(i, j) + 1.0_wide + 2.0_sp
    end do
  end do
end subroutine
)");
  EXPECT_EQ(p.substr(0, p.find('\n')),
            "kernel s_1(n: i32, a: f32(1:n, 1:n), b: f64(1:n, 1:n), c: f32(1:n, 1:n), "
            "d: f64(1:n, 1:n))");
  EXPECT_NE(p.find("+ 1.0d0 + 2.0"), std::string::npos) << p;
}

TEST(ModernForm, BoundInquiriesOfExplicitShapeArrays) {
  std::string p = printed(R"(subroutine s(n, m, a, b)
  integer :: n, m, i, j
  real(8) :: a(0:n+1, m), b(0:n+1, m)
  !$f2s stencil
  do j = lbound(a, 2), ubound(a, 2)
    do i = lbound(a, 1) + 1, size(a, 1) - 2
      b(i, j) = a(i - 1, j)
    end do
  end do
end subroutine
)");
  EXPECT_NE(p.find("for j = 1, m {"), std::string::npos) << p;
  EXPECT_NE(p.find("for i = 1, n + 1 + 1 - 2 {"), std::string::npos) << p;
}

TEST(ModernForm, UseOnlyBringsOnlyWhatItNames) {
  const std::string src = R"(module m
  implicit none
  real(8) :: u(10, 10), v(10, 10)
end module
subroutine s(x)
  use m, only: u
  implicit none
  real(8) :: x
  integer :: i, j
  !$f2s stencil
  do j = 2, 9
    do i = 2, 9
      u(i, j) = x*v(i, j)
    end do
  end do
end subroutine
)";
  EXPECT_EQ(error_at(src),
            "13:19: 'v' is an unknown function, so what it reads and writes cannot be known; "
            "inside a '!$f2s stencil' region only the elementary intrinsics (SQRT, EXP, LOG, "
            "LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH), ABS, SIGN, MIN, "
            "MAX, MOD, MERGE, the conversions (REAL, DBLE, FLOAT, INT, NINT, FLOOR, CEILING, "
            "AINT, ANINT) and their specific names (DSQRT, AMAX1, ...) are allowed; declare "
            "'v' if it is an array, or write the function's computation inline");
  // Renamed, under the local name.
  std::string renamed = src;
  renamed.replace(renamed.find("only: u"), 7, "only: u, w => v");
  renamed.replace(renamed.find("x*v(i, j)"), 9, "x*w(i, j)");
  EXPECT_EQ(printed(renamed).substr(0, 59),
            "kernel s_1(x: f64, u: f64(1:10, 1:10), w: f64(1:10, 1:10))\n");
}

// ------------------------------------------------------------------ errors

std::string with_bounds(const std::string &lo, const std::string &hi) {
  return R"(subroutine s(a, b)
  real(8) :: a(:, :), b(:, :)
  integer :: i, j
  !$f2s stencil
  do j = 1, 8
    do i = )" +
         lo + ", " + hi + R"(
      b(i, j) = a(i, j)
    end do
  end do
end subroutine
)";
}

TEST(ModernFormErrors, BoundInquiries) {
  EXPECT_EQ(error_at(with_bounds("1", "size(a)")),
            "6:15: Intrinsic 'size' needs a constant DIM argument from 1 to 2 inside a '!$f2s "
            "stencil' region");
  EXPECT_EQ(error_at(with_bounds("1", "ubound(a, j)")),
            "6:15: Intrinsic 'ubound' needs a constant DIM argument from 1 to 2 inside a '!$f2s "
            "stencil' region");
  EXPECT_EQ(error_at(with_bounds("1", "ubound(a, 3)")),
            "6:15: Intrinsic 'ubound' needs a constant DIM argument from 1 to 2 inside a '!$f2s "
            "stencil' region");
  EXPECT_EQ(error_at(with_bounds("lbound(i, 1)", "8")),
            "6:12: The first argument of 'lbound' must be an array inside a '!$f2s stencil' "
            "region");
  EXPECT_EQ(error_at(with_bounds("1", "ubound(a, 1, kind=4)")),
            "6:15: Intrinsic 'ubound' takes an array and a DIM argument inside a '!$f2s stencil' "
            "region");
}

TEST(ModernFormErrors, BoundArgumentNameTaken) {
  EXPECT_EQ(error_at(R"(subroutine s(a, a_ub1)
  real(8) :: a(:, :)
  integer :: a_ub1, i, j
  !$f2s stencil
  do j = 1, 8
    do i = 1, 8
      a(i, j) = 0d0
    end do
  end do
end subroutine
)"),
            "2:14: Array 'a' needs an argument 'a_ub1' for a bound, but the procedure has a "
            "variable of that name; rename that variable");
}

TEST(ModernFormErrors, AssumedRankAndImpliedShape) {
  EXPECT_EQ(error_at(R"(subroutine s(n, a)
  integer :: n, i, j
  real(8) :: a(..)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      a(i, j) = 0d0
    end do
  end do
end subroutine
)"),
            "7:7: Array 'a' must have an explicit, assumed or deferred shape to be used in a "
            "'!$f2s stencil' region");
}

} // namespace
} // namespace f2s::test

namespace f2s::test {
namespace {

// POINTER and TARGET as statements: a pointer's bounds are its target's, so
// it takes lower and upper bound arguments like an ALLOCATABLE array.
TEST(ModernForm, PointerAndTargetStatements) {
  EXPECT_EQ(printed(R"(subroutine s(n, a, b, c)
  integer :: n, i, j
  real(8), dimension(:,:) :: a
  real(8) :: b, c
  pointer :: a
  POINTER B(:,:)
  target :: c(0:n, 0:n)
  !$f2s stencil name(p)
  do j = 1, n
    do i = 1, n
      b(i,j) = a(i,j) + c(i-1,j)
    end do
  end do
end subroutine
)"),
            "kernel p(n: i32, a: f64(a_lb1:a_ub1, a_lb2:a_ub2), b: f64(b_lb1:b_ub1, "
            "b_lb2:b_ub2), c: f64(0:n, 0:n), a_lb1: i32, a_ub1: i32, a_lb2: i32, a_ub2: i32, "
            "b_lb1: i32, b_ub1: i32, b_lb2: i32, b_ub2: i32)\n"
            "  tune_size(1024, 1024)\n"
            "  for j = 1, n {\n"
            "    for i = 1, n {\n"
            "      b(i, j) = a(i, j) + c(i - 1, j)\n"
            "    }\n"
            "  }\n");
  TempDir dir;
  Kernel k = lower_text(dir, R"(subroutine s(n, a, b)
  integer :: n, i
  real(8) :: a(:), b(n)
  pointer a
  !$f2s stencil
  do i = 1, n
    b(i) = a(i)
  end do
end subroutine
)")
                 .at(0);
  EXPECT_EQ(k.find_arg("a")->decl, ArrayDecl::Pointer);
}

} // namespace
} // namespace f2s::test
