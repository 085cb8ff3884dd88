// canonicalize/SinkScalars: the nest as the front end lowers it (assignments
// between the loops) before, the perfect nest after, printed by the IR
// printer; and each refusal with its reason and position.
#include "canonicalize/SinkScalars.h"
#include "ast/IRPrinter.h"
#include "tests/canonicalize/IRBuilders.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using namespace irb;

Expr mod2(Expr a) {
  return Call::make(Intrinsic::Mod, {std::move(a), i32(2)});
}
Expr u(const std::string &g, std::vector<Index> ix) {
  return GridRef::make(g, std::move(ix), Type::Float64);
}
Stmt loop(const std::string &v, Stmt body) {
  return For::make(v, i32(1), var("n"), i32(1), LoopExec::Serial, std::move(body));
}
SourceLoc line(int l) {
  return SourceLoc{"s.f90", l, 5};
}
std::vector<Index> ijk(int64_t di = 0) {
  return {{"i", 1, di}, {"j", 1, 0}, {"k", 1, 0}};
}

/// `for k { w = 2*s; for j { joff = mod(j + k, 2); for i { point } } }`
Stmt imperfect(Stmt point) {
  return loop(
      "k", Block::make(
               {Assign::make("w", mul(FloatImm::make(2, Type::Float64), var("s", Type::Float64)),
                             line(2)),
                loop("j", Block::make({Assign::make("joff", mod2(add(var("j"), var("k"))), line(4)),
                                       loop("i", std::move(point))}))}));
}

TEST(SinkScalars, MovesAssignmentsBetweenLoopsIntoThePointInSourceOrder) {
  Stmt point = Block::make({Store::make("b", ijk(), mul(var("w", Type::Float64), u("a", ijk(1))))});
  Stmt before = imperfect(point);
  EXPECT_EQ(print_stmt(before), "for k = 1, n {\n"
                                "  w = 2.0d0*s\n"
                                "  for j = 1, n {\n"
                                "    joff = mod(j + k, 2)\n"
                                "    for i = 1, n {\n"
                                "      b(i, j, k) = w*a(i + 1, j, k)\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  Stmt after = sink_scalars(before);
  EXPECT_EQ(print_stmt(after), "for k = 1, n {\n"
                               "  for j = 1, n {\n"
                               "    for i = 1, n {\n"
                               "      w = 2.0d0*s\n"
                               "      joff = mod(j + k, 2)\n"
                               "      b(i, j, k) = w*a(i + 1, j, k)\n"
                               "    }\n"
                               "  }\n"
                               "}\n");
  EXPECT_EQ(perfect_nest(after).size(), 3u);
  // A perfect nest comes back as it was.
  EXPECT_EQ(sink_scalars(after), after);
}

/// The message of the UserError that sink_scalars throws on `nest`, with
/// its line.
std::string refusal(const Stmt &nest) {
  try {
    sink_scalars(nest);
  } catch (const UserError &e) {
    return std::to_string(e.diagnostic().loc.line) + ": " + e.diagnostic().message;
  }
  return "accepted";
}

TEST(SinkScalars, RefusesWhatWouldChangeTheValueAtSomePoints) {
  // Assigned again in the point: the next points would see that value.
  EXPECT_EQ(refusal(imperfect(Block::make({Assign::make("joff", i32(0), line(6))}))),
            "4: 'joff' is assigned between the DO loops of the '!$f2s stencil' region and again "
            "inside the innermost loop (line 6); assign it in one place, inside the innermost "
            "loop");
  // Read from a grid, which the nest may write.
  Stmt from_grid = loop(
      "j",
      Block::make(
          {Assign::make("t", GridRef::make("a", {{"", 0, 1}, {"j", 1, 0}}, Type::Float64, line(3)),
                        line(3)),
           loop("i", Store::make("b", {{"i", 1, 0}, {"j", 1, 0}}, var("t", Type::Float64)))}));
  EXPECT_EQ(refusal(from_grid),
            "3: 't' is assigned between the DO loops of the '!$f2s stencil' region from array "
            "'a'; only outer loop variables and scalars may be read there, so move the "
            "assignment into the innermost loop");
  // The inner loop's variable has no value before the inner loop.
  Stmt inner_var =
      loop("j", Block::make({Assign::make("t", Var::make("i", Type::Int32, line(3)), line(3)),
                             loop("i", Store::make("b", {{"i", 1, 0}, {"j", 1, 0}}, var("t")))}));
  EXPECT_EQ(refusal(inner_var),
            "3: 't' is assigned between the DO loops of the '!$f2s stencil' region from loop "
            "variable 'i' of an inner loop, which has no value there; move the assignment into "
            "the innermost loop");
  // Read from a scalar that the point changes.
  Stmt from_point =
      loop("j", Block::make({Assign::make("t", Var::make("c", Type::Int32, line(3)), line(3)),
                             loop("i", Block::make({Assign::make("c", var("i")),
                                                    Store::make("b", {{"i", 1, 0}, {"j", 1, 0}},
                                                                add(var("t"), var("c")))}))}));
  EXPECT_EQ(refusal(from_point),
            "3: 't' is assigned between the DO loops of the '!$f2s stencil' region from 'c', "
            "which the nest assigns after it; move the assignment into the innermost loop");
  // Assigned at two levels: the inner one changes it from row to row.
  Stmt twice = loop(
      "k", Block::make({Assign::make("t", i32(1), line(2)),
                        loop("j", Block::make({Assign::make("t", add(var("t"), i32(1)), line(4)),
                                               loop("i", Store::make("b", ijk(), var("t")))}))}));
  EXPECT_EQ(refusal(twice), "4: 't' is assigned twice between the DO loops of the '!$f2s "
                            "stencil' region; assign it in one place, inside the innermost loop");
  // Anything after the inner loop.
  Stmt after =
      loop("j", Block::make({loop("i", Store::make("b", {{"i", 1, 0}, {"j", 1, 0}}, i32(0))),
                             Assign::make("t", i32(1), line(5))}));
  EXPECT_EQ(refusal(after), "5: The DO loops of a '!$f2s stencil' region must be perfectly "
                            "nested; only assignments to scalars may come between them, before "
                            "the inner DO loop");
}

} // namespace
} // namespace f2s
