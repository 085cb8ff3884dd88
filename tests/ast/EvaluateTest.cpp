#include "ast/Evaluate.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(Evaluate, IntegerExpressionsTruncateLikeFortran) {
  Expr n = Var::make("n", Type::Int32);
  std::map<std::string, int64_t> values = {{"n", 7}};
  EXPECT_EQ(eval_int(Binary::make(BinaryOp::Add, n, IntImm::make(1)), values), 8);
  EXPECT_EQ(
      eval_int(Binary::make(BinaryOp::Div, Unary::make(UnaryOp::Neg, n), IntImm::make(2)), values),
      -3);
  EXPECT_EQ(eval_int(Call::make(Intrinsic::Min, {n, IntImm::make(3)}), values), 3);
  EXPECT_EQ(eval_int(Binary::make(BinaryOp::Pow, n, IntImm::make(2)), values), 49);
  EXPECT_FALSE(eval_int(Binary::make(BinaryOp::Add, n, Var::make("m", Type::Int32)), values));
  EXPECT_FALSE(eval_int(Binary::make(BinaryOp::Div, n, IntImm::make(0)), values));
  EXPECT_FALSE(eval_int(Var::make("x", Type::Float64), {{"x", 1}}));
}

} // namespace
} // namespace f2s
