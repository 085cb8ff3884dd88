// LOGICAL scalars in a region (issue 5): temporaries, .TRUE. and .FALSE.,
// .EQV. and .NEQV., named constants and arguments, printed in the IR with
// Fortran's precedence; LOGICAL arrays and mixed assignments are refused.
#include "FrontendTestUtil.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

/// A 2D subroutine with dummies n, on (LOGICAL), a, b, the LOGICAL locals
/// wet and flip, and the REAL(8) local t, around `body`.
std::string logical_nest(const std::string &body, const std::string &decls = "") {
  return R"(subroutine s(n, on, a, b)
  integer :: n, i, j
  logical :: on, wet, flip
  real(8) :: a(n, n), b(n, n), t
)" + decls +
         R"(  !$f2s stencil name(lg)
  do j = 1, n
    do i = 1, n
)" + body +
         R"(
    end do
  end do
end subroutine
)";
}

std::string lowered(const std::string &src) {
  TempDir dir;
  auto kernels = lower_text(dir, src);
  EXPECT_EQ(kernels.size(), 1u);
  return kernels.empty() ? "" : print_kernel(kernels[0]);
}

TEST(FrontendLogical, TemporariesLiteralsEquivalenceAndArgument) {
  std::string ir = lowered(logical_nest(R"(      wet = a(i,j) > 0d0 .and. always
      flip = (wet .eqv. on) .neqv. .false.
      if (flip .or. (wet .eqv. .not. on)) b(i,j) = a(i,j))",
                                        "  logical, parameter :: always = .true.\n"));
  EXPECT_EQ(ir, "kernel lg(n: i32, on: bool, a: f64(1:n, 1:n), b: f64(1:n, 1:n))\n"
                "  temp wet: bool\n"
                "  temp flip: bool\n"
                "  tune_size(1024, 1024)\n"
                "  for j = 1, n {\n"
                "    for i = 1, n {\n"
                "      wet = a(i, j) > 0.0d0 .and. .true.\n"
                "      flip = wet .eqv. on .neqv. .false.\n"
                "      if flip .or. (wet .eqv. .not. on) {\n"
                "        b(i, j) = a(i, j)\n"
                "      }\n"
                "    }\n"
                "  }\n");
}

// .EQV. binds more loosely than .OR.: the parse keeps that grouping.
TEST(FrontendLogical, EquivalenceBindsLooserThanOr) {
  std::string ir = lowered(logical_nest("      wet = on .or. a(i,j) > 0d0 .eqv. on .and. .true.\n"
                                        "      if (wet) b(i,j) = 1d0"));
  EXPECT_NE(ir.find("wet = on .or. a(i, j) > 0.0d0 .eqv. on .and. .true.\n"), std::string::npos)
      << ir;
  TempDir dir;
  Kernel k = lower_text(dir, logical_nest("      wet = on .or. a(i,j) > 0d0 .eqv. on\n"
                                          "      if (wet) b(i,j) = 1d0"))
                 .at(0);
  struct FirstAssign : IRVisitor {
    const Assign *found = nullptr;
    void visit_assign(const Assign *a) override { found = found ? found : a; }
  } first;
  first.visit(k.body);
  ASSERT_NE(first.found, nullptr);
  const Binary *eqv = as<Binary>(first.found->value);
  ASSERT_NE(eqv, nullptr);
  EXPECT_EQ(eqv->op, BinaryOp::Eq);
  EXPECT_EQ(eqv->a->type, Type::Bool);
  EXPECT_EQ(as<Binary>(eqv->a)->op, BinaryOp::Or);
}

void expect_error(const std::string &src, const std::string &message, const std::string &where) {
  TempDir dir;
  Diagnostic d = error_of(dir, src);
  EXPECT_EQ(d.message, message);
  EXPECT_EQ(line_col(d.loc), loc_of(src, where)) << d.str();
}

TEST(FrontendLogical, ANumberIsNotALogicalAndALogicalIsNotANumber) {
  std::string src = logical_nest("      wet = a(i,j)\n      b(i,j) = 0d0");
  expect_error(src, "'a(i,j)' is not LOGICAL", "a(i,j)\n");
  src = logical_nest("      t = wet\n      b(i,j) = t");
  expect_error(src, "'wet' is LOGICAL where a number is needed", "wet\n");
}

// A mask is read like any grid, its elements LOGICAL.
TEST(FrontendLogical, LogicalArraysAreReadAsMasks) {
  std::string ir = lowered(logical_nest("      if (mask(i,j) .and. .not. mask(i-1,j)) b(i,j) = 0d0",
                                        "  logical :: mask(0:n, n)\n"));
  EXPECT_EQ(ir.substr(0, ir.find('\n')),
            "kernel lg(n: i32, b: f64(1:n, 1:n), mask: bool(0:n, 1:n))");
  EXPECT_NE(ir.find("if mask(i, j) .and. .not. mask(i - 1, j) {"), std::string::npos) << ir;
}

TEST(FrontendLogical, AssigningALogicalArrayAndOtherKindsAreRefused) {
  std::string src = logical_nest("      mask(i,j) = a(i,j) > 0d0\n      b(i,j) = 0d0",
                                 "  logical :: mask(n, n)\n");
  expect_error(src,
               "LOGICAL array 'mask' cannot be assigned inside a '!$f2s stencil' region; LOGICAL "
               "arrays (masks) may only be read",
               "mask(i,j)");
  src = logical_nest("      if (small) b(i,j) = 0d0", "  logical(1) :: small\n");
  expect_error(src,
               "The type of 'small' cannot be used inside a '!$f2s stencil' region; use "
               "INTEGER, REAL(4), REAL(8) or default LOGICAL",
               "small)");
}

} // namespace
} // namespace f2s::test
