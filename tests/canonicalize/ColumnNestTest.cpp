// canonicalize/ColumnNest: a column nest as the front end lowers it (a
// scalar assigned between the loops, the column's statements and DO loops
// over k in the innermost body) before, the canonical nest after, printed by
// the IR printer; and the refusal SinkScalars gives a scalar it cannot move.
#include "canonicalize/ColumnNest.h"
#include "ast/IRPrinter.h"
#include "tests/canonicalize/IRBuilders.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using namespace irb;

Stmt loop(const std::string &v, Expr lo, Expr hi, Stmt body) {
  return For::make(v, std::move(lo), std::move(hi), i32(1), LoopExec::Serial, std::move(body));
}
Expr t(std::vector<Index> ix) {
  return GridRef::make("t", std::move(ix), Type::Float64);
}

/// `for j { r = 2*s; for i { w(1) = t(i,j,1); for k = 2, nz {...};
/// t(i,j,nz) = w(nz)*(1 + 1); reverse for k = 1, nz - 1 {...} } }`
Stmt column_nest(Expr r_value) {
  Stmt down = loop(
      "k", i32(2), var("nz"),
      Store::make("w", {{"k", 1, 0}},
                  mul(var("r", Type::Float64), GridRef::make("w", {{"k", 1, -1}}, Type::Float64))));
  Stmt up = For::reversed(loop("k", i32(1), bin(BinaryOp::Sub, var("nz"), i32(1)),
                               Store::make("t", {{"i", 1, 0}, {"j", 1, 0}, {"k", 1, 0}},
                                           GridRef::make("w", {{"k", 1, 0}}, Type::Float64))),
                          true);
  Stmt column = Block::make(
      {Store::make("w", {{"", 1, 1}}, t({{"i", 1, 0}, {"j", 1, 0}, {"", 1, 1}})), down,
       Store::make("t", {{"i", 1, 0}, {"j", 1, 0}, {"nz", 1, 0}},
                   mul(GridRef::make("w", {{"nz", 1, 0}}, Type::Float64), add(i32(1), i32(1)))),
       up});
  return loop(
      "j", i32(1), var("n"),
      Block::make({Assign::make("r", std::move(r_value)), loop("i", i32(1), var("n"), column)}));
}

TEST(ColumnNest, ScalarsBetweenTheLoopsMoveIntoTheColumnAndConstantsFold) {
  Stmt before = column_nest(mul(r8(2), var("s", Type::Float64)));
  EXPECT_EQ(print_stmt(before), R"(for j = 1, n {
  r = 2.0d0*s
  for i = 1, n {
    w(1) = t(i, j, 1)
    for k = 2, nz {
      w(k) = r*w(k - 1)
    }
    t(i, j, nz) = w(nz)*(1 + 1)
    reverse for k = 1, nz - 1 {
      t(i, j, k) = w(k)
    }
  }
}
)");
  EXPECT_EQ(print_stmt(canonicalize_column(before, "k")), R"(for j = 1, n {
  for i = 1, n {
    r = 2.0d0*s
    w(1) = t(i, j, 1)
    for k = 2, nz {
      w(k) = r*w(k - 1)
    }
    t(i, j, nz) = w(nz)*2
    reverse for k = 1, nz - 1 {
      t(i, j, k) = w(k)
    }
  }
}
)");
}

TEST(ColumnNest, AScalarBetweenTheLoopsFromAnArrayIsRefused) {
  Stmt before = column_nest(t({{"", 1, 1}, {"j", 1, 0}, {"", 1, 1}}));
  try {
    canonicalize_column(before, "k");
    ADD_FAILURE() << "expected a refusal";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "'r' is assigned between the DO loops of the '!$f2s stencil' region from array "
              "'t', which the nest writes; only outer loop variables, scalars and arrays the "
              "nest does not write may be read there, so move the assignment into the innermost "
              "loop");
  }
}

} // namespace
} // namespace f2s
