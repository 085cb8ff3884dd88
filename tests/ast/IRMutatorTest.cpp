// The default IRMutator rebuilds only what changed, and keeps what each node
// means when it rebuilds it.
#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// Renames one variable: every node above it is rebuilt.
class Rename : public IRMutator {
protected:
  Expr visit_var(const Var *op, const Expr &self) override {
    return op->name == "x" ? Var::make("y", op->type) : self;
  }
};

TEST(IRMutator, RebuiltConversionsKeepTheirKind) {
  // sngl(log(x)) + x, x REAL(8): the conversion is REAL(4) whatever its
  // argument; a register-blocked copy once printed it as a double (seed 140250).
  Expr x = Var::make("x", Type::Float64);
  Expr sngl = Call::convert(Intrinsic::Real, Call::make(Intrinsic::Log, {x}), Type::Float32);
  Expr nint = Call::convert(Intrinsic::Nint, x, Type::Int32);
  Expr sum = Binary::make(BinaryOp::Add, sngl, Binary::make(BinaryOp::Add, x, nint));
  Expr renamed = Rename().mutate(sum);
  ASSERT_NE(renamed, sum);
  const Binary *b = as<Binary>(renamed);
  EXPECT_EQ(b->a->type, Type::Float32);
  EXPECT_EQ(as<Binary>(b->b)->b->type, Type::Int32);
  // The same text but for the name: the kinds printed are the original's.
  std::string before = print_expr(sum), after = print_expr(renamed);
  for (size_t at; (at = before.find('x')) != std::string::npos;)
    before[at] = 'y';
  EXPECT_EQ(after, before);
}

TEST(IRMutator, ReturnsTheSameNodeWhenNothingChanged) {
  Expr z = Var::make("z", Type::Float64);
  Expr e = Call::convert(Intrinsic::Real, z, Type::Float32);
  EXPECT_EQ(Rename().mutate(e), e);
}

} // namespace
} // namespace f2s
