// canonicalize/ForwardLineBuffers: the nest as the front end lowers it (a
// loop filling line buffers beside the loops reading them) before, the nest
// with one inner loop after, printed by the IR printer; and a refusal.
#include "canonicalize/ForwardLineBuffers.h"
#include "ast/IRPrinter.h"
#include "tests/canonicalize/IRBuilders.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using namespace irb;

Expr ref(const std::string &g, std::vector<Index> ix) {
  return GridRef::make(g, std::move(ix), Type::Float64);
}
std::vector<Index> ij(int64_t di, int64_t dj) {
  return {{"i", 1, di}, {"j", 1, dj}};
}
std::vector<Index> at_i(int64_t di) {
  return {{"i", 1, di}};
}
Stmt loop(const std::string &v, Expr lo, Expr hi, Stmt body, int line = 0) {
  return For::make(v, std::move(lo), std::move(hi), i32(1), LoopExec::Serial, std::move(body),
                   SourceLoc{"s.f90", line, 5});
}
Expr n_plus(int64_t c) {
  return c == 0
             ? var("n")
             : Binary::make(c > 0 ? BinaryOp::Add : BinaryOp::Sub, var("n"), i32(c < 0 ? -c : c));
}

/// for j { w = 2*s; for i = 0, n + 1 { b(i) = u(i, j-1); c(i) = b(i) + u(i, j) }
///         for i = 1, n { r(i, j) = w*b(i-1) }  for i = 1, n { r(i, j) = r(i, j) + c(i+1) } }
Stmt with_buffers(Expr fill_lo) {
  Stmt fill =
      loop("i", std::move(fill_lo), n_plus(1),
           Block::make({Store::make("b", at_i(0), ref("u", ij(0, -1))),
                        Store::make("c", at_i(0), add(ref("b", at_i(0)), ref("u", ij(0, 0))))}),
           3);
  Stmt first = loop(
      "i", i32(1), var("n"),
      Block::make({Store::make("r", ij(0, 0), mul(var("w", Type::Float64), ref("b", at_i(-1))))}),
      6);
  Stmt second = loop(
      "i", i32(1), var("n"),
      Block::make({Store::make("r", ij(0, 0), add(ref("r", ij(0, 0)), ref("c", at_i(1))))}), 9);
  return loop(
      "j", i32(1), var("m"),
      Block::make({Assign::make("w", mul(i32(2), var("s", Type::Float64))), fill, first, second}),
      1);
}

TEST(ForwardLineBuffers, SubstitutesShiftedDefinitionsAndFusesTheReaders) {
  Stmt before = with_buffers(i32(0));
  EXPECT_EQ(print_stmt(before), "for j = 1, m {\n"
                                "  w = 2*s\n"
                                "  for i = 0, n + 1 {\n"
                                "    b(i) = u(i, j - 1)\n"
                                "    c(i) = b(i) + u(i, j)\n"
                                "  }\n"
                                "  for i = 1, n {\n"
                                "    r(i, j) = w*b(i - 1)\n"
                                "  }\n"
                                "  for i = 1, n {\n"
                                "    r(i, j) = r(i, j) + c(i + 1)\n"
                                "  }\n"
                                "}\n");
  ForwardedBuffers after = forward_line_buffers(before, {"b", "c"});
  EXPECT_EQ(after.buffers, (std::vector<std::string>{"b", "c"}));
  EXPECT_EQ(print_stmt(after.nest), "for j = 1, m {\n"
                                    "  w = 2*s\n"
                                    "  for i = 1, n {\n"
                                    "    r(i, j) = w*u(i - 1, j - 1)\n"
                                    "    r(i, j) = r(i, j) + (u(i + 1, j - 1) + u(i + 1, j))\n"
                                    "  }\n"
                                    "}\n");
  // Without loops side by side, the nest comes back as it was.
  EXPECT_EQ(forward_line_buffers(after.nest, {"b", "c"}).nest, after.nest);
}

TEST(ForwardLineBuffers, RefusesAReadOutsideTheFilledRange) {
  // Filled from 1: the read of b(i - 1) at i = 1 would see no value.
  try {
    forward_line_buffers(with_buffers(i32(1)), {"b", "c"});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "Line buffer 'b' is read at 'b(i - 1)', which the DO loop at line 3 may not fill "
              "(it runs from 1 to n + 1); fill the buffer over a range that covers every read, "
              "as bounds that differ by constants");
  }
}

/// for j { for i = 1, n + 1 { b(i) = u(i, j) }
///         for i = 1, n { f(2*i - 1, j) = b(i) }
///         for i = 1, n { f(2*i, j) = b(i) + b(i+1) ... } }: a prolongation's
/// rows, whose readers store one fine grid at elements of other parities;
/// `second_read` is the fine-grid subscript the second reader also reads.
Stmt prolongation_row(int64_t second_read) {
  auto fine = [](int64_t c) { return std::vector<Index>{{"i", 2, c}, {"j", 1, 0}}; };
  Stmt fill =
      loop("i", i32(1), n_plus(1), Block::make({Store::make("b", at_i(0), ref("u", ij(0, 0)))}), 3);
  Stmt odd =
      loop("i", i32(1), var("n"), Block::make({Store::make("f", fine(-1), ref("b", at_i(0)))}), 6);
  Stmt even = loop("i", i32(1), var("n"),
                   Block::make({Store::make("f", fine(0),
                                            add(ref("f", fine(second_read)),
                                                add(ref("b", at_i(0)), ref("b", at_i(1)))))}),
                   9);
  return loop("j", i32(1), var("m"), Block::make({fill, odd, even}), 1);
}

TEST(ForwardLineBuffers, FusesReadersThatStoreElementsOfOtherParities) {
  Stmt before = prolongation_row(0);
  EXPECT_EQ(print_stmt(before), "for j = 1, m {\n"
                                "  for i = 1, n + 1 {\n"
                                "    b(i) = u(i, j)\n"
                                "  }\n"
                                "  for i = 1, n {\n"
                                "    f(2*i - 1, j) = b(i)\n"
                                "  }\n"
                                "  for i = 1, n {\n"
                                "    f(2*i, j) = f(2*i, j) + (b(i) + b(i + 1))\n"
                                "  }\n"
                                "}\n");
  EXPECT_EQ(print_stmt(forward_line_buffers(before, {"b"}).nest),
            "for j = 1, m {\n"
            "  for i = 1, n {\n"
            "    f(2*i - 1, j) = u(i, j)\n"
            "    f(2*i, j) = f(2*i, j) + (u(i, j) + u(i + 1, j))\n"
            "  }\n"
            "}\n");
}

TEST(ForwardLineBuffers, RefusesToFuseReadersWhenOneReadsWhatTheOtherStoresElsewhere) {
  // f(2*i + 1, j) is what the first reader stores at the next point: as one
  // loop, the second would read it before that store.
  try {
    forward_line_buffers(prolongation_row(1), {"b"});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "The DO loops at line 6 and at line 9 that read line buffers cannot run as one "
              "loop: 'f' is written by one and accessed at other elements by the other");
  }
}

/// for j { for i = 2, n { i1 = <i1 value>; x(2*i - 1) = r(2*i - 1, j) }
///         for i = 2, n - 1 { i1 = 2*i; s(i, j) = x(2*i - 1) + x(2*i + 1) + <read> } }:
/// a restriction's row, its buffer filled at the fine index.
Stmt restriction_row(Expr filler_i1, Expr extra_read) {
  auto fine = [](int64_t c) { return std::vector<Index>{{"i", 2, c}}; };
  Stmt fill = loop("i", i32(2), var("n"),
                   Block::make({Assign::make("i1", std::move(filler_i1)),
                                Store::make("x", fine(-1), ref("r", {{"i", 2, -1}, {"j", 1, 0}}))}),
                   3);
  Expr sum = add(ref("x", fine(-1)), ref("x", fine(1)));
  if (extra_read)
    sum = add(sum, std::move(extra_read));
  Stmt read = loop(
      "i", i32(2), n_plus(-1),
      Block::make({Assign::make("i1", mul(i32(2), var("i"))), Store::make("s", ij(0, 0), sum)}), 7);
  return loop("j", i32(1), var("m"), Block::make({fill, read}), 1);
}

TEST(ForwardLineBuffers, SubstitutesABufferFilledAtAFineIndex) {
  Stmt before = restriction_row(mul(i32(2), var("i")), nullptr);
  EXPECT_EQ(print_stmt(before), "for j = 1, m {\n"
                                "  for i = 2, n {\n"
                                "    i1 = 2*i\n"
                                "    x(2*i - 1) = r(2*i - 1, j)\n"
                                "  }\n"
                                "  for i = 2, n - 1 {\n"
                                "    i1 = 2*i\n"
                                "    s(i, j) = x(2*i - 1) + x(2*i + 1)\n"
                                "  }\n"
                                "}\n");
  EXPECT_EQ(print_stmt(forward_line_buffers(before, {"x"}).nest),
            "for j = 1, m {\n"
            "  for i = 2, n - 1 {\n"
            "    i1 = 2*i\n"
            "    s(i, j) = r(2*i - 1, j) + r(2*i + 1, j)\n"
            "  }\n"
            "}\n");
}

TEST(ForwardLineBuffers, RefusesABufferReadBetweenTheElementsItWasFilledAt) {
  try {
    forward_line_buffers(restriction_row(mul(i32(2), var("i")), ref("x", {{"i", 2, 0}})), {"x"});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "Line buffer 'x' is read at 'x(2*i)'; a '!$f2s stencil' region reads line buffers "
              "at the subscript they are filled at, 'x(2*i - 1)', plus a multiple of 2 only");
  }
}

TEST(ForwardLineBuffers, RefusesATemporaryOfTheFillingLoopReadByTheReadingLoop) {
  // The reading loop uses i1 before assigning it: the filling loop's last
  // value, which goes with that loop.
  Stmt fill = loop("i", i32(1), var("n"),
                   Block::make({Assign::make("i1", mul(i32(2), var("i")), SourceLoc{"s.f90", 4, 7}),
                                Store::make("x", at_i(0), ref("u", ij(0, 0)))}),
                   3);
  Stmt read = loop("i", i32(1), var("n"),
                   Block::make({Store::make("r", ij(0, 0), add(ref("x", at_i(0)), var("i1"))),
                                Assign::make("i1", i32(0))}),
                   7);
  try {
    forward_line_buffers(loop("j", i32(1), var("m"), Block::make({fill, read}), 1), {"x"});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "'i1' is assigned at line 4 in a DO loop that only fills line buffers, and used in "
              "the DO loop that reads them before that loop assigns it; assign it there first");
  }
}

/// for j { for i = 1, n + 1 { b(i) = u(i, j) }
///         for i = 1, n { i1 = 2*i - 1; f(i1, j) = b(i) }
///         for i = 1, n { <second> } }: a prolongation's row whose two reading loops each
/// compute the fine index into one temporary, as F77 codes do.
Stmt reused_index_row(Stmt second) {
  Stmt fill =
      loop("i", i32(1), n_plus(1), Block::make({Store::make("b", at_i(0), ref("u", ij(0, 0)))}), 3);
  Expr fine = Binary::make(BinaryOp::Sub, mul(i32(2), var("i")), i32(1));
  Stmt first = loop("i", i32(1), var("n"),
                    Block::make({Assign::make("i1", fine, SourceLoc{"s.f90", 7, 7}),
                                 Store::make("f", {{"i", 2, -1}, {"j", 1, 0}}, ref("b", at_i(0)))}),
                    6);
  return loop("j", i32(1), var("m"),
              Block::make({fill, first, loop("i", i32(1), var("n"), std::move(second), 9)}), 1);
}

TEST(ForwardLineBuffers, FusesReadersThatEachAssignTheirIndexTemporaryFirst) {
  Expr fine = Binary::make(BinaryOp::Sub, mul(i32(2), var("i")), i32(1));
  Stmt before = reused_index_row(Block::make(
      {Assign::make("i1", fine),
       Store::make("g", {{"i", 2, -1}, {"j", 1, 0}}, add(ref("b", at_i(0)), ref("b", at_i(1))))}));
  EXPECT_EQ(print_stmt(forward_line_buffers(before, {"b"}).nest),
            "for j = 1, m {\n"
            "  for i = 1, n {\n"
            "    i1 = 2*i - 1\n"
            "    f(2*i - 1, j) = u(i, j)\n"
            "    i1 = 2*i - 1\n"
            "    g(2*i - 1, j) = u(i, j) + u(i + 1, j)\n"
            "  }\n"
            "}\n");
}

TEST(ForwardLineBuffers, RefusesReadersWhenTheSecondUsesTheFirstsTemporaryBeforeAssigningIt) {
  // The second loop reads i1 before it assigns it (under an IF, which may
  // not run): as one loop it would read the first loop's value at that point.
  Stmt second = Block::make(
      {Store::make("g", {{"i", 1, 0}, {"j", 1, 0}}, add(ref("b", at_i(0)), var("i1", Type::Int32))),
       IfThenElse::make(bin(BinaryOp::Gt, var("i"), i32(1)), Assign::make("i1", i32(0)), nullptr)});
  try {
    forward_line_buffers(reused_index_row(second), {"b"});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "The DO loops at line 6 and at line 9 that read line buffers cannot run as one "
              "loop: 'i1' is assigned in one and used in the other; use a name of its own in each");
  }
}

/// for j { for <v> = 0, n + 1 { b(<v>) = u(<v>, j-1) }  for i = 1, n { r(i, j) = b(i-1) + b(i+1) }
/// }: the filling loop at line 2 (its variable at column 8, its step, if any, at column 22), the
/// reading loop at line 5, as the front end lowers them; a source step of 2 leaves a counter loop
/// from 0, -1 a reversed loop.
Stmt row_over(const std::string &v, bool reverse = false) {
  Stmt fill =
      For::reversed(loop(v, i32(0), n_plus(1),
                         Store::make("b", {{v, 1, 0}}, ref("u", {{v, 1, 0}, {"j", 1, -1}})), 2),
                    reverse);
  Stmt read = loop("i", i32(1), var("n"),
                   Store::make("r", ij(0, 0), add(ref("b", at_i(-1)), ref("b", at_i(1)))), 5);
  return loop("j", i32(1), var("m"), Block::make({fill, read}), 1);
}

SourceLoc at_col(int line, int column) {
  return SourceLoc{"s.f90", line, column};
}

TEST(ForwardLineBuffers, RefusesALoopBesideTheLastOverAnotherVariableAtTheVariable) {
  Stmt before = row_over("ii");
  EXPECT_EQ(print_stmt(before), "for j = 1, m {\n"
                                "  for ii = 0, n + 1 {\n"
                                "    b(ii) = u(ii, j - 1)\n"
                                "  }\n"
                                "  for i = 1, n {\n"
                                "    r(i, j) = b(i - 1) + b(i + 1)\n"
                                "  }\n"
                                "}\n");
  try {
    forward_line_buffers(before, {"b"}, {{at_col(2, 5), at_col(2, 8), 1, {}}});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "The DO loop over 'ii' beside the DO loop over 'i' at line 5 must run over 'i' "
              "too: line buffers are filled and read by loops over one variable");
    EXPECT_EQ(e.diagnostic().loc.column, 8);
  }
}

TEST(ForwardLineBuffers, RefusesAStepOtherThanOneAsTheSourceWritesIt) {
  // Step 2: lowered as a counter loop that looks like a unit step; the
  // source's step says otherwise, at the step.
  try {
    forward_line_buffers(row_over("i"), {"b"}, {{at_col(2, 5), at_col(2, 8), 2, at_col(2, 22)}});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message, "The DO loops over 'i' side by side (line buffers filled, "
                                      "then read) must have a step of 1");
    EXPECT_EQ(e.diagnostic().loc.column, 22);
  }
  // A backward loop, known from the lowered loop alone: may run forward.
  try {
    forward_line_buffers(row_over("i", true), {"b"});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "The DO loops over 'i' side by side (line buffers filled, then read) must have a "
              "step of 1; swap the bounds of this one and make its step 1 if its points may run "
              "in any order");
    EXPECT_EQ(e.diagnostic().loc.line, 2);
  }
  // With a unit step the row is substituted.
  EXPECT_EQ(
      print_stmt(
          forward_line_buffers(row_over("i"), {"b"}, {{at_col(2, 5), at_col(2, 8), 1, {}}}).nest),
      "for j = 1, m {\n"
      "  for i = 1, n {\n"
      "    r(i, j) = u(i - 1, j - 1) + u(i + 1, j - 1)\n"
      "  }\n"
      "}\n");
}

TEST(ForwardLineBuffers, RefusesAnArrayFilledLikeABufferThatIsNoCandidate) {
  // 'b' filled at i beside the last loop, but not local to the procedure.
  try {
    forward_line_buffers(row_over("i"), {}, {{at_col(2, 5), at_col(2, 8), 1, {}}});
    FAIL() << "accepted";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "'b' is filled like a line buffer, beside the inner DO loop that reads it, but its "
              "values are seen outside the procedure (a dummy argument, or in COMMON or a "
              "module); only a local array can be a line buffer, so fill a local array instead");
  }
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

using namespace irb;

// Loops inside the point with run-time trip counts (ast/InnerLoops) side by
// side, the copies of an unrolled `do jj = -1, 1` around `do ii = -r, r`: no
// line buffers, the nest comes back as it was; taken for sibling loops of the
// nest they would be refused for filling none.
TEST(ForwardLineBuffers, LoopsInsideThePointAreNoSiblingLoops) {
  auto window = [](int64_t dj) {
    Index x("i", 1, 0);
    x.inner = "ii";
    Stmt sum = Assign::make("s", add(var("s", Type::Float64), ref("u", {x, Index("j", 1, dj)})));
    return For::make("ii", Unary::make(UnaryOp::Neg, var("r")), var("r"), i32(1), LoopExec::Serial,
                     sum);
  };
  Stmt before = loop("j", i32(1), var("n"),
                     loop("i", i32(1), var("n"),
                          Block::make({Assign::make("s", r8(0)), window(-1), window(0), window(1),
                                       Store::make("v", ij(0, 0), var("s", Type::Float64))})));
  EXPECT_EQ(print_stmt(before), "for j = 1, n {\n"
                                "  for i = 1, n {\n"
                                "    s = 0.0d0\n"
                                "    for ii = -r, r {\n"
                                "      s = s + u(i + ii, j - 1)\n"
                                "    }\n"
                                "    for ii = -r, r {\n"
                                "      s = s + u(i + ii, j)\n"
                                "    }\n"
                                "    for ii = -r, r {\n"
                                "      s = s + u(i + ii, j + 1)\n"
                                "    }\n"
                                "    v(i, j) = s\n"
                                "  }\n"
                                "}\n");
  ForwardedBuffers after = forward_line_buffers(before, {}, {}, {"ii"});
  EXPECT_EQ(after.nest, before);
  EXPECT_TRUE(after.buffers.empty());
  EXPECT_THROW(forward_line_buffers(before, {}), UserError);
}

} // namespace
} // namespace f2s
