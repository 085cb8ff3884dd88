// canonicalize/IfExtrema: a point's IFs before, the folded point after,
// printed by the IR printer; and the IFs that must stay as written.
#include "canonicalize/IfExtrema.h"
#include "ast/IRPrinter.h"
#include "tests/canonicalize/IRBuilders.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using namespace irb;

Expr a() {
  return var("a", Type::Float64);
}
Expr s() {
  return var("s", Type::Float64);
}
Expr u() {
  return GridRef::make("u", {{"i", 1, 0}, {"j", 1, 0}}, Type::Float64);
}
Stmt point(Stmt s) {
  return For::make("j", i32(1), var("m"), i32(1), LoopExec::Serial,
                   For::make("i", i32(1), var("n"), i32(1), LoopExec::Serial, std::move(s)));
}

TEST(IfExtrema, EachOrderOfTheComparisonFoldsIntoMaxOrMin) {
  Stmt before = point(Block::make({
      IfThenElse::make(bin(BinaryOp::Gt, a(), s()), Assign::make("s", a()), nullptr),
      IfThenElse::make(bin(BinaryOp::Le, s(), u()), Block::make({Assign::make("s", u())}), nullptr),
      IfThenElse::make(bin(BinaryOp::Lt, a(), s()), Assign::make("s", a()), nullptr),
      IfThenElse::make(bin(BinaryOp::Ge, s(), u()), Assign::make("s", u()), nullptr),
  }));
  EXPECT_EQ(print_stmt(fold_if_extrema(before)), "for j = 1, m {\n"
                                                 "  for i = 1, n {\n"
                                                 "    s = max(s, a)\n"
                                                 "    s = max(s, u(i, j))\n"
                                                 "    s = min(s, a)\n"
                                                 "    s = min(s, u(i, j))\n"
                                                 "  }\n"
                                                 "}\n");
}

TEST(IfExtrema, OtherIfsStayAsWritten) {
  Stmt before = point(Block::make({
      // With an ELSE, with a second statement (the maximum's location), with
      // another value than the one compared, a value that reads s, and a
      // comparison that is not an order.
      IfThenElse::make(bin(BinaryOp::Gt, a(), s()), Assign::make("s", a()), Assign::make("s", u())),
      IfThenElse::make(bin(BinaryOp::Gt, a(), s()),
                       Block::make({Assign::make("s", a()), Assign::make("is", var("i"))}),
                       nullptr),
      IfThenElse::make(bin(BinaryOp::Gt, a(), s()), Assign::make("s", u()), nullptr),
      IfThenElse::make(bin(BinaryOp::Gt, add(s(), a()), s()), Assign::make("s", add(s(), a())),
                       nullptr),
      IfThenElse::make(bin(BinaryOp::Ne, a(), s()), Assign::make("s", a()), nullptr),
      IfThenElse::make(bin(BinaryOp::Gt, a(), var("t", Type::Float64)), Assign::make("s", a()),
                       nullptr),
  }));
  EXPECT_EQ(print_stmt(fold_if_extrema(before)), print_stmt(before));
}

} // namespace
} // namespace f2s
