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

// A loop inside the point with a run-time trip count (ast/InnerLoops) is
// part of the point: the scalar before it starts the point's sum, and the
// nest ends at the loop over i, not at the window's loop over jj.
TEST(SinkScalars, TheNestEndsAboveALoopInsideThePoint) {
  Index shifted("i", 1, 0);
  shifted.inner = "jj";
  Stmt window =
      For::make("jj", Unary::make(UnaryOp::Neg, var("r")), var("r"), i32(1), LoopExec::Serial,
                Assign::make("s", add(var("s", Type::Float64), u("a", {shifted})), line(6)));
  Stmt before = loop(
      "j",
      Block::make(
          {Assign::make("w", mul(r8(2), var("q", Type::Float64)), line(3)),
           loop("i", Block::make({Assign::make("s", var("w", Type::Float64), line(5)), window}))}));
  EXPECT_EQ(print_stmt(before), "for j = 1, n {\n"
                                "  w = 2.0d0*q\n"
                                "  for i = 1, n {\n"
                                "    s = w\n"
                                "    for jj = -r, r {\n"
                                "      s = s + a(i + jj)\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
  Stmt after = sink_scalars(before, nullptr, {}, {"jj"});
  EXPECT_EQ(print_stmt(after), "for j = 1, n {\n"
                               "  for i = 1, n {\n"
                               "    w = 2.0d0*q\n"
                               "    s = w\n"
                               "    for jj = -r, r {\n"
                               "      s = s + a(i + jj)\n"
                               "    }\n"
                               "  }\n"
                               "}\n");
  EXPECT_EQ(perfect_nest(after).size(), 2u);
}

// A level's damping factor set under an IF (`damp = 0`, then `if (z > zs)
// damp = ...`), and a metric read from an array the nest does not write:
// both move into the point in source order.
TEST(SinkScalars, MovesIfsAroundScalarsAndReadsOfArraysTheNestDoesNotWrite) {
  Expr z = var("z", Type::Float64);
  Stmt before = loop(
      "k",
      Block::make(
          {Assign::make("z", mul(r8(0.5), var("k")), line(2)), Assign::make("damp", r8(0), line(3)),
           IfThenElse::make(bin(BinaryOp::Gt, z, var("zs", Type::Float64)),
                            Assign::make("damp", mul(var("alpha", Type::Float64), z), line(4)),
                            nullptr, line(4)),
           loop("j", Block::make(
                         {Assign::make("rdy",
                                       GridRef::make("rdy1", {{"j", 1, 0}}, Type::Float64, line(6)),
                                       line(6)),
                          loop("i", Store::make(
                                        "b", ijk(),
                                        mul(var("damp", Type::Float64),
                                            mul(var("rdy", Type::Float64), u("a", ijk(1))))))}))}));
  EXPECT_EQ(print_stmt(sink_scalars(before)), "for k = 1, n {\n"
                                              "  for j = 1, n {\n"
                                              "    for i = 1, n {\n"
                                              "      z = 0.5d0*k\n"
                                              "      damp = 0.0d0\n"
                                              "      if z > zs {\n"
                                              "        damp = alpha*z\n"
                                              "      }\n"
                                              "      rdy = rdy1(j)\n"
                                              "      b(i, j, k) = damp*(rdy*a(i + 1, j, k))\n"
                                              "    }\n"
                                              "  }\n"
                                              "}\n");
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
  // Read from a grid that the nest writes.
  Stmt from_grid = loop(
      "j",
      Block::make(
          {Assign::make("t", GridRef::make("a", {{"", 0, 1}, {"j", 1, 0}}, Type::Float64, line(3)),
                        line(3)),
           loop("i", Store::make("a", {{"i", 1, 0}, {"j", 1, 0}}, var("t", Type::Float64)))}));
  EXPECT_EQ(refusal(from_grid),
            "3: 't' is assigned between the DO loops of the '!$f2s stencil' region from array "
            "'a', which the nest writes; only outer loop variables, scalars and arrays the nest "
            "does not write may be read there, so move the assignment into the innermost loop");
  // A grid read at an inner loop's variable.
  Stmt at_inner = loop(
      "j",
      Block::make(
          {Assign::make("t", GridRef::make("dx", {{"i", 1, 0}}, Type::Float64, line(3)), line(3)),
           loop("i", Store::make("b", {{"i", 1, 0}, {"j", 1, 0}}, var("t", Type::Float64)))}));
  EXPECT_EQ(refusal(at_inner),
            "3: 't' is assigned between the DO loops of the '!$f2s stencil' region from 'dx' at "
            "loop variable 'i' of an inner loop, which has no value there; move the assignment "
            "into the innermost loop");
  // An IF that tests what the point changes.
  Stmt if_from_point = loop(
      "j",
      Block::make({IfThenElse::make(bin(BinaryOp::Gt, Var::make("c", Type::Int32, line(3)), i32(0)),
                                    Assign::make("t", i32(1), line(3)), nullptr, line(3)),
                   loop("i", Block::make({Assign::make("c", var("i")),
                                          Store::make("b", {{"i", 1, 0}, {"j", 1, 0}},
                                                      add(var("t"), var("c")))}))}));
  EXPECT_EQ(refusal(if_from_point),
            "3: The IF between the DO loops of the '!$f2s stencil' region tests 'c', which the "
            "nest assigns after it; move the IF into the innermost loop");
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
  // Anything after the inner loop, where statements of an outer level may
  // not move (a column's nest: no `outer` given).
  Stmt after =
      loop("j", Block::make({loop("i", Store::make("b", {{"i", 1, 0}, {"j", 1, 0}}, i32(0))),
                             Assign::make("t", i32(1), line(5))}));
  EXPECT_EQ(refusal(after), "5: Only assignments to scalars may come between the DO loops of a "
                            "'!$f2s stencil' region whose point is a column, before the inner DO "
                            "loop; move the statement into the column");
}

// Statements of an outer level that are not scalar assignments run once per
// iteration of their loops: before the inner loop at its first point, after
// it at its last (the first point of a loop that runs backward is its top),
// a scalar beside them at every point in source order. An inner loop whose
// bounds are not constants may run no trip: it runs at least one, and the
// statements of its level and below only at its own trips.
TEST(SinkScalars, OuterStatementsRunOncePerIterationOfTheirLoops) {
  Stmt before = loop(
      "k",
      Block::make(
          {Store::make("c", {{"", 1, 1}, {"k", 1, 0}}, r8(0), line(2)),
           loop("j", Block::make(
                         {Assign::make("t", var("k"), line(4)),
                          Store::make("c", {{"j", 1, 0}, {"k", 1, 0}}, var("t"), line(5)),
                          For::reversed(For::make("i", i32(1), i32(8), i32(1), LoopExec::Serial,
                                                  Store::make("b", ijk(), var("t"))),
                                        true),
                          Store::make("d", {{"j", 1, 0}, {"k", 1, 0}},
                                      u("b", {{"", 1, 1}, {"j", 1, 0}, {"k", 1, 0}}), line(9))})),
           Store::make("c", {{"", 1, 2}, {"k", 1, 0}}, r8(1), line(11))}));
  std::vector<OuterStatement> outer;
  Stmt after = sink_scalars(before, nullptr, {}, {}, &outer);
  EXPECT_EQ(print_stmt(after), "for k = 1, n {\n"
                               "  for j = 1, max(n, 1) {\n"
                               "    reverse for i = 1, 8 {\n"
                               "      if j == 1 .and. i == 8 {\n"
                               "        c(1, k) = 0.0d0\n"
                               "      }\n"
                               "      if j <= n {\n"
                               "        t = k\n"
                               "      }\n"
                               "      if j <= n .and. i == 8 {\n"
                               "        c(j, k) = t\n"
                               "      }\n"
                               "      if j <= n {\n"
                               "        b(i, j, k) = t\n"
                               "      }\n"
                               "      if j <= n .and. i == 1 {\n"
                               "        d(j, k) = b(1, j, k)\n"
                               "      }\n"
                               "      if j == max(n, 1) .and. i == 1 {\n"
                               "        c(2, k) = 1.0d0\n"
                               "      }\n"
                               "    }\n"
                               "  }\n"
                               "}\n");
  // Each assignment moved, by level, with the loops around it.
  std::vector<std::pair<int, int>> lines_depths;
  for (const OuterStatement &o : outer)
    lines_depths.push_back({o.loc.line, o.depth});
  EXPECT_EQ(lines_depths, (std::vector<std::pair<int, int>>{{2, 1}, {11, 1}, {5, 2}, {9, 2}}));
}

} // namespace
} // namespace f2s
