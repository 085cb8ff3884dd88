#include "ast/IRPrinter.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

Expr v(const std::string &n) {
  return Var::make(n, Type::Float64);
}
Expr bin(BinaryOp op, Expr a, Expr b) {
  return Binary::make(op, a, b);
}

TEST(IRPrinter, PrintsConditionsWithFortransPrecedence) {
  Expr a = v("a"), b = v("b"), c = v("c");
  Expr lt = bin(BinaryOp::Lt, a, bin(BinaryOp::Add, b, c));
  Expr ne = bin(BinaryOp::Ne, a, b);
  Expr gt = bin(BinaryOp::Gt, c, a);
  EXPECT_EQ(print_expr(lt), "a < b + c");
  EXPECT_EQ(print_expr(bin(BinaryOp::And, bin(BinaryOp::Or, lt, ne), gt)),
            "(a < b + c .or. a /= b) .and. c > a");
  EXPECT_EQ(print_expr(bin(BinaryOp::Or, lt, bin(BinaryOp::And, ne, gt))),
            "a < b + c .or. a /= b .and. c > a");
  EXPECT_EQ(print_expr(Unary::make(UnaryOp::Not, bin(BinaryOp::And, ne, gt))),
            ".not. (a /= b .and. c > a)");
  EXPECT_EQ(print_expr(bin(BinaryOp::And, Unary::make(UnaryOp::Not, ne), gt)),
            ".not. a /= b .and. c > a");
  EXPECT_EQ(print_expr(Select::make(gt, a, bin(BinaryOp::Mul, b, c))), "merge(a, b*c, c > a)");
  EXPECT_EQ(print_expr(Call::make(Intrinsic::Mod, {IntImm::make(7), IntImm::make(2)})),
            "mod(7, 2)");
}

TEST(IRPrinter, KeepsTheParenthesesTheTreeNeeds) {
  Expr a = v("a"), b = v("b"), c = v("c");
  EXPECT_EQ(print_expr(bin(BinaryOp::Add, bin(BinaryOp::Add, a, b), c)), "a + b + c");
  EXPECT_EQ(print_expr(bin(BinaryOp::Add, a, bin(BinaryOp::Add, b, c))), "a + (b + c)");
  EXPECT_EQ(print_expr(bin(BinaryOp::Sub, a, bin(BinaryOp::Sub, b, c))), "a - (b - c)");
  EXPECT_EQ(print_expr(bin(BinaryOp::Mul, bin(BinaryOp::Add, a, b), c)), "(a + b)*c");
  EXPECT_EQ(print_expr(bin(BinaryOp::Div, a, bin(BinaryOp::Mul, b, c))), "a/(b*c)");
  EXPECT_EQ(print_expr(bin(BinaryOp::Mul, Unary::make(UnaryOp::Neg, a), b)), "(-a)*b");
  // Fortran reads -a*b as -(a*b): unary minus binds like binary minus.
  EXPECT_EQ(print_expr(Unary::make(UnaryOp::Neg, bin(BinaryOp::Mul, a, b))), "-a*b");
  EXPECT_EQ(print_expr(Unary::make(UnaryOp::Neg, bin(BinaryOp::Add, a, b))), "-(a + b)");
  EXPECT_EQ(print_expr(bin(BinaryOp::Add, a, Unary::make(UnaryOp::Neg, b))), "a + (-b)");
  Expr two = IntImm::make(2);
  EXPECT_EQ(print_expr(bin(BinaryOp::Pow, bin(BinaryOp::Pow, a, two), two)), "(a**2)**2");
  EXPECT_EQ(print_expr(bin(BinaryOp::Mul, a, bin(BinaryOp::Pow, b, two))), "a*b**2");
}

TEST(IRPrinter, PrintsLiteralsInTheirFortranKind) {
  EXPECT_EQ(print_float_literal(0.5, Type::Float64), "0.5d0");
  EXPECT_EQ(print_float_literal(0.1, Type::Float64), "0.1d0");
  EXPECT_EQ(print_float_literal(2.0, Type::Float64), "2.0d0");
  EXPECT_EQ(print_float_literal(1e-30, Type::Float64), "1.0d-30");
  EXPECT_EQ(print_float_literal(static_cast<float>(0.1), Type::Float32), "0.1");
  EXPECT_EQ(print_float_literal(3.0, Type::Float32), "3.0");
  EXPECT_EQ(print_expr(Call::make(Intrinsic::Max, {v("a"), v("b"), v("c")})), "max(a, b, c)");
}

TEST(IRPrinter, PrintsSubscripts) {
  EXPECT_EQ(print_index({"i", 1, 0}), "i");
  EXPECT_EQ(print_index({"i", 1, 2}), "i + 2");
  EXPECT_EQ(print_index({"j", 1, -1}), "j - 1");
  EXPECT_EQ(print_index({"k", 2, -1}), "2*k - 1");
  EXPECT_EQ(print_index({"", 1, 3}), "3");
}

TEST(IRPrinter, PrintsTheLaplacianAsLowered) {
  EXPECT_EQ(print_kernel(test::example_kernel("laplacian")),
            "kernel laplacian(nx: i32, ny: i32, nz: i32, alpha: f64, beta: f64, "
            "u: f64(0:nx + 1, 0:ny + 1, 0:nz + 1), unew: f64(0:nx + 1, 0:ny + 1, 0:nz + 1))\n"
            "  tune_size(256, 256, 256)\n"
            "  for k = 1, nz {\n"
            "    for j = 1, ny {\n"
            "      for i = 1, nx {\n"
            "        unew(i, j, k) = alpha*u(i, j, k) + beta*(u(i + 1, j, k) + u(i - 1, j, k) + "
            "u(i, j + 1, k) + u(i, j - 1, k) + u(i, j, k + 1) + u(i, j, k - 1))\n"
            "      }\n"
            "    }\n"
            "  }\n");
}

} // namespace
} // namespace f2s
