// Kinds as gfortran gives them: SELECTED_INT_KIND, SELECTED_REAL_KIND with
// its range and keywords, and the default REAL that -fdefault-real-8 and -r8
// change (FrontendOptions::default_real_kind and double_precision_kind).
#include "FrontendTestUtil.h"

#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

/// A 2D nest over arrays of REAL(wp), with `wp = <kind>` and loop
/// variables of INTEGER(iwp), `iwp = <int_kind>`.
std::string with_kinds(const std::string &kind, const std::string &int_kind = "4") {
  return "module prec\n"
         "  integer, parameter :: wp = " +
         kind +
         "\n"
         "  integer, parameter :: iwp = " +
         int_kind +
         "\n"
         "end module\n"
         "subroutine s(n, a, b)\n"
         "  use prec\n"
         "  integer(iwp) :: n, i, j\n"
         "  real(wp) :: a(n, n), b(n, n)\n"
         "  !$f2s stencil\n"
         "  do j = 1, n\n"
         "    do i = 1, n\n"
         "      b(i, j) = a(i, j)\n"
         "    end do\n"
         "  end do\n"
         "end subroutine\n";
}

// The values gfortran 12 prints for each on x86-64.
TEST(Kinds, SelectedRealKindHonoursPrecisionRangeAndKeywords) {
  struct Case {
    const char *kind;
    Type type;
  };
  const Case cases[] = {
      {"selected_real_kind(6)", Type::Float32},
      {"selected_real_kind(6, 37)", Type::Float32},
      // Six digits fit REAL(4), a range of 1e70 does not: REAL(8).
      {"selected_real_kind(6, 70)", Type::Float64},
      {"selected_real_kind(p=6, r=70)", Type::Float64},
      {"selected_real_kind(r=70, p=6)", Type::Float64},
      {"selected_real_kind(r=70)", Type::Float64},
      {"selected_real_kind(r=37)", Type::Float32},
      {"selected_real_kind(7)", Type::Float64},
      {"selected_real_kind(15, 307)", Type::Float64},
      {"selected_real_kind(6, radix=2)", Type::Float32},
      {"selected_real_kind(6, 70, 2)", Type::Float64},
  };
  for (const Case &c : cases) {
    TempDir dir;
    auto kernels = lower_text(dir, with_kinds(c.kind));
    ASSERT_EQ(kernels.size(), 1u) << c.kind;
    EXPECT_EQ(kernels[0].args.at(1).type, c.type) << c.kind;
    EXPECT_EQ(kernels[0].args.at(2).type, c.type) << c.kind;
  }
}

// REAL(10) (18 digits, or a range of 1e308), REAL(16), and gfortran's
// negative codes for what no kind gives: none is a type the IR holds.
TEST(Kinds, SelectedRealKindsTheIrCannotHoldAreRefusedByType) {
  for (const char *kind : {"selected_real_kind(16)", "selected_real_kind(r=308)",
                           "selected_real_kind(33)", "selected_real_kind(6, 5000)",
                           "selected_real_kind(40)", "selected_real_kind(6, radix=10)"}) {
    TempDir dir;
    std::string src = with_kinds(kind);
    Diagnostic d = error_of(dir, src);
    EXPECT_EQ(d.message, "The type of 'b' cannot be used inside a '!$f2s stencil' region; use "
                         "INTEGER, REAL(4), REAL(8) or default LOGICAL")
        << kind;
  }
}

// `integer(iwp) :: i` with `iwp = selected_int_kind(9)` is INTEGER(4): its
// loop variables and bounds are accepted.
TEST(Kinds, SelectedIntKindNineIsDefaultInteger) {
  for (const char *int_kind :
       {"selected_int_kind(9)", "selected_int_kind(r=9)", "selected_int_kind(5)"}) {
    TempDir dir;
    auto kernels = lower_text(dir, with_kinds("selected_real_kind(15)", int_kind));
    ASSERT_EQ(kernels.size(), 1u) << int_kind;
    EXPECT_EQ(kernels[0].args.at(0).name, "n");
    EXPECT_EQ(kernels[0].args.at(0).type, Type::Int32) << int_kind;
  }
}

// Ranges of 10 to 18 digits need INTEGER(8), 3 and 4 INTEGER(2): refused
// with the message for types, not as a loop variable that is no INTEGER.
TEST(Kinds, SelectedIntKindsTheIrCannotHoldAreRefusedByType) {
  for (const char *int_kind : {"selected_int_kind(10)", "selected_int_kind(18)",
                               "selected_int_kind(4)", "selected_int_kind(39)"}) {
    TempDir dir;
    std::string src = with_kinds("8", int_kind);
    Diagnostic d = error_of(dir, src);
    EXPECT_EQ(d.message, "The type of 'j' cannot be used inside a '!$f2s stencil' region; use "
                         "INTEGER, REAL(4), REAL(8) or default LOGICAL")
        << int_kind;
    EXPECT_EQ(line_col(d.loc), loc_of(src, "j = 1")) << int_kind;
  }
}

/// `kernel_2d`-like nest whose point stores `rhs` into REAL `b`, with
/// `decls` and the options of a code built with -fdefault-real-8 or -r8.
std::vector<Kernel> lower_with(const std::string &rhs, const std::string &decls,
                               const FrontendOptions &options) {
  TempDir dir;
  return lower_text(dir,
                    "subroutine s(n, a, b)\n"
                    "  integer :: n, i, j\n"
                    "  real :: a(n, n), b(n, n)\n" +
                        decls +
                        "  !$f2s stencil\n"
                        "  do j = 1, n\n"
                        "    do i = 1, n\n"
                        "      b(i, j) = " +
                        rhs +
                        "\n"
                        "    end do\n"
                        "  end do\n"
                        "end subroutine\n",
                    "input.f90", options);
}

FrontendOptions default_real_8(int double_kind) {
  FrontendOptions o;
  o.default_real_kind = 8;
  o.double_precision_kind = double_kind;
  return o;
}

// As gfortran -fdefault-real-8 types them: `real`, implicit REAL, REAL
// named constants and literals without a kind are REAL(8), and 0.1 is the
// double nearest 0.1; explicit kinds stay as written.
TEST(Kinds, DefaultReal8TypesDefaultRealAsReal8) {
  auto kernels = lower_with("0.1*a(i, j) + c + x + e(i, j) + 2.5e-1\n      e(i, j) = 0.5_4",
                            "  real, parameter :: c = 0.3\n"
                            "  real(4) :: e(n, n)\n",
                            default_real_8(8));
  const Kernel &k = kernels.at(0);
  EXPECT_EQ(k.find_arg("a")->type, Type::Float64);
  EXPECT_EQ(k.find_arg("b")->type, Type::Float64);
  // Implicitly typed x is default REAL.
  EXPECT_EQ(k.find_arg("x")->type, Type::Float64);
  EXPECT_EQ(k.find_arg("e")->type, Type::Float32);
  std::string printed = print_kernel(k);
  EXPECT_NE(printed.find("0.1d0*a(i, j) + 0.3d0 + x + e(i, j) + 0.25d0"), std::string::npos)
      << printed;
  EXPECT_NE(printed.find("e(i, j) = 0.5\n"), std::string::npos) << printed;
}

// Without the option the same source is single precision throughout.
TEST(Kinds, DefaultRealIsReal4WithoutTheOption) {
  auto kernels = lower_with("0.1*a(i, j) + x", "", {});
  const Kernel &k = kernels.at(0);
  EXPECT_EQ(k.find_arg("a")->type, Type::Float32);
  EXPECT_EQ(k.find_arg("x")->type, Type::Float32);
}

// gfortran's -fdefault-real-8 alone makes DOUBLE PRECISION and 1d0
// REAL(16), which the IR cannot hold; -fdefault-double-8 (or -r8) keeps
// them REAL(8).
TEST(Kinds, DoublePrecisionUnderDefaultReal8) {
  TempDir dir;
  try {
    lower_with("a(i, j) + 1d0", "", default_real_8(16));
    ADD_FAILURE() << "1d0 as REAL(16) was accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "REAL(16) constants are not supported inside a '!$f2s stencil' region");
  }
  try {
    lower_with("a(i, j) + d", "  double precision :: d\n", default_real_8(16));
    ADD_FAILURE() << "DOUBLE PRECISION as REAL(16) was accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "The type of 'd' cannot be used inside a '!$f2s stencil' region; use INTEGER, "
              "REAL(4), REAL(8) or default LOGICAL");
  }
  auto kernels = lower_with("a(i, j) + d + 1d0", "  double precision :: d\n", default_real_8(8));
  EXPECT_EQ(kernels.at(0).find_arg("d")->type, Type::Float64);
}

// KIND(0.0) follows the default REAL, as in gfortran.
TEST(Kinds, KindOfADefaultRealLiteralFollowsTheOption) {
  auto kernels = lower_with("a(i, j) + w(i, j)",
                            "  integer, parameter :: rk = kind(0.0)\n"
                            "  real(rk) :: w(n, n)\n",
                            default_real_8(8));
  EXPECT_EQ(kernels.at(0).find_arg("w")->type, Type::Float64);
}

} // namespace
} // namespace f2s::test
