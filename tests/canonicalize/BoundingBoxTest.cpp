// canonicalize/BoundingBox: a triangular nest before, its bounding box with
// a guard after, printed by the IR printer; and the refusal of a bound that
// does not change monotonically with an outer loop's variable.
#include "canonicalize/BoundingBox.h"
#include "ast/IRPrinter.h"
#include "tests/canonicalize/IRBuilders.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using namespace irb;

/// for j = 1, n { for i = <lo>, n { r(i, j) = u(i, j) } }
Kernel triangle(Expr lo) {
  Stmt store = Store::make("r", {Index{"i"}, Index{"j"}},
                           GridRef::make("u", {Index{"i"}, Index{"j"}}, Type::Float64));
  Kernel k;
  k.name = "tri";
  k.body = For::make("j", i32(1), var("n"), i32(1), LoopExec::Serial,
                     For::make("i", std::move(lo), var("n"), i32(1), LoopExec::Serial, store,
                               SourceLoc{"s.f90", 3, 5}),
                     SourceLoc{"s.f90", 2, 3});
  return k;
}

TEST(BoundingBox, RunsATriangleOverItsBoxUnderAGuard) {
  Kernel before = triangle(var("j"));
  EXPECT_EQ(print_stmt(before.body), "for j = 1, n {\n"
                                     "  for i = j, n {\n"
                                     "    r(i, j) = u(i, j)\n"
                                     "  }\n"
                                     "}\n");
  EXPECT_EQ(print_stmt(bound_box(before).body), "for j = 1, n {\n"
                                                "  for i = 1, n {\n"
                                                "    if i >= j {\n"
                                                "      r(i, j) = u(i, j)\n"
                                                "    }\n"
                                                "  }\n"
                                                "}\n");
  // Fixed bounds: the nest comes back as it was.
  Kernel square = triangle(i32(1));
  EXPECT_EQ(bound_box(square).body, square.body);
}

TEST(BoundingBox, RefusesABoundThatDoesNotChangeMonotonically) {
  try {
    bound_box(triangle(bin(BinaryOp::Mul, var("j"), var("j"))));
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "The bounds of the DO loop over 'i' must change monotonically with loop variable "
              "'j' (sums, constant multiples, MIN and MAX of it); run it over a range that holds "
              "every point and skip the others with an IF around its body");
    EXPECT_EQ(e.diagnostic().loc.line, 3);
  }
}

} // namespace
} // namespace f2s
