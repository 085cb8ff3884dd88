// canonicalize/PointArrays: the nest as the front end lowers it (a work
// array of the point filled and read at constant subscripts, the loops over
// its components unrolled) before, the same nest with one temporary per
// element after, printed by the IR printer; and each refusal with its
// reason and position.
#include "canonicalize/PointArrays.h"
#include "ast/IRPrinter.h"
#include "tests/canonicalize/IRBuilders.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

using namespace irb;

SourceLoc line(int l) {
  return SourceLoc{"s.f90", l, 7};
}
Expr ref(const std::string &g, std::vector<Index> ix, int l = 0) {
  return GridRef::make(g, std::move(ix), Type::Float64, line(l));
}
/// The element (m, i, j) of a grid of components, at neighbour (di, dj).
std::vector<Index> mij(int64_t m, int64_t di = 0, int64_t dj = 0) {
  return {Index{"", 0, m}, Index{"i", 1, di}, Index{"j", 1, dj}};
}
/// A constant subscript of a work array.
std::vector<Index> at(std::vector<int64_t> subs) {
  std::vector<Index> out;
  for (int64_t s : subs)
    out.push_back(Index{"", 0, s});
  return out;
}
Stmt nest(std::vector<Stmt> point) {
  return For::make(
      "j", i32(2), var("ny"), i32(1), LoopExec::Serial,
      For::make("i", i32(2), var("nx"), i32(1), LoopExec::Serial, Block::make(std::move(point))));
}

const std::map<std::string, Type> kWork = {{"tv", Type::Float64}, {"tmat", Type::Float64}};

// The Jacobi step of a block-tridiagonal sweep, two components: a 2x2
// matrix and a vector filled per point, then their product stored.
TEST(PointArrays, ElementsBecomeTemporariesOfThePoint) {
  std::vector<Stmt> point;
  for (int64_t n = 1; n <= 2; ++n)
    for (int64_t m = 1; m <= 2; ++m)
      point.push_back(Store::make("tmat", at({m, n}), mul(r8(0.5), ref("a", mij(m))), line(3)));
  for (int64_t m = 1; m <= 2; ++m)
    point.push_back(
        Store::make("tv", at({m}), add(ref("rhs", mij(m)), ref("uold", mij(m, -1))), line(6)));
  for (int64_t m = 1; m <= 2; ++m)
    point.push_back(Store::make("u", mij(m),
                                add(mul(ref("tmat", at({m, 1})), ref("tv", at({1}))),
                                    mul(ref("tmat", at({m, 2})), ref("tv", at({2})))),
                                line(9)));
  Stmt before = nest(point);
  EXPECT_EQ(print_stmt(before), "for j = 2, ny {\n"
                                "  for i = 2, nx {\n"
                                "    tmat(1, 1) = 0.5d0*a(1, i, j)\n"
                                "    tmat(2, 1) = 0.5d0*a(2, i, j)\n"
                                "    tmat(1, 2) = 0.5d0*a(1, i, j)\n"
                                "    tmat(2, 2) = 0.5d0*a(2, i, j)\n"
                                "    tv(1) = rhs(1, i, j) + uold(1, i - 1, j)\n"
                                "    tv(2) = rhs(2, i, j) + uold(2, i - 1, j)\n"
                                "    u(1, i, j) = tmat(1, 1)*tv(1) + tmat(1, 2)*tv(2)\n"
                                "    u(2, i, j) = tmat(2, 1)*tv(1) + tmat(2, 2)*tv(2)\n"
                                "  }\n"
                                "}\n");
  PrivateArrays after = privatize_point_arrays(before, kWork, {"tv", "tmat", "u"});
  EXPECT_EQ(print_stmt(after.nest), "for j = 2, ny {\n"
                                    "  for i = 2, nx {\n"
                                    "    tmat_1_1 = 0.5d0*a(1, i, j)\n"
                                    "    tmat_2_1 = 0.5d0*a(2, i, j)\n"
                                    "    tmat_1_2 = 0.5d0*a(1, i, j)\n"
                                    "    tmat_2_2 = 0.5d0*a(2, i, j)\n"
                                    "    tv_1 = rhs(1, i, j) + uold(1, i - 1, j)\n"
                                    "    tv_2 = rhs(2, i, j) + uold(2, i - 1, j)\n"
                                    "    u(1, i, j) = tmat_1_1*tv_1 + tmat_1_2*tv_2\n"
                                    "    u(2, i, j) = tmat_2_1*tv_1 + tmat_2_2*tv_2\n"
                                    "  }\n"
                                    "}\n");
  std::vector<std::string> temps;
  for (const Variable &t : after.temps)
    temps.push_back(t.name + ":" + std::to_string(t.loc.line));
  EXPECT_EQ(temps, (std::vector<std::string>{"tmat_1_1:3", "tmat_2_1:3", "tmat_1_2:3", "tmat_2_2:3",
                                             "tv_1:6", "tv_2:6"}));
  ASSERT_EQ(after.arrays.size(), 2u);
  EXPECT_EQ(after.arrays[0].name, "tmat");
  EXPECT_EQ(after.arrays[1].name, "tv");
  EXPECT_EQ(after.arrays[1].loc.line, 6);
}

// A name the procedure already has, or another element's, is not taken: the
// next free `_2`, `_3`; a negative subscript reads `m1`. An array the nest
// does not use is no work array of it, and a nest without one comes back as
// it was.
TEST(PointArrays, AvoidsEveryNameTakenAndKeepsANestWithoutWorkArrays) {
  Stmt before =
      nest({Store::make("tv", at({1}), r8(1), line(3)), Store::make("tv", at({-1}), r8(2), line(4)),
            Store::make("u", mij(1), add(ref("tv", at({1})), ref("tv", at({-1}))))});
  PrivateArrays after = privatize_point_arrays(before, kWork, {"tv_1", "tv_1_2"});
  EXPECT_EQ(print_stmt(after.nest), "for j = 2, ny {\n"
                                    "  for i = 2, nx {\n"
                                    "    tv_1_3 = 1.0d0\n"
                                    "    tv_m1 = 2.0d0\n"
                                    "    u(1, i, j) = tv_1_3 + tv_m1\n"
                                    "  }\n"
                                    "}\n");
  ASSERT_EQ(after.arrays.size(), 1u);
  EXPECT_EQ(after.arrays[0].name, "tv");
  Stmt without = nest({Store::make("u", mij(1), ref("rhs", mij(1)))});
  PrivateArrays same = privatize_point_arrays(without, kWork, {});
  EXPECT_EQ(same.nest, without);
  EXPECT_TRUE(same.temps.empty());
  EXPECT_TRUE(same.arrays.empty());
}

/// The message of the UserError that privatize_point_arrays throws on
/// `point`, with its line.
std::string refusal(std::vector<Stmt> point) {
  try {
    privatize_point_arrays(nest(std::move(point)), kWork, {});
  } catch (const UserError &e) {
    return std::to_string(e.diagnostic().loc.line) + ": " + e.diagnostic().message;
  }
  return "accepted";
}

TEST(PointArrays, RefusesAnElementReadBeforeThePointAssignsIt) {
  // Read, then assigned: each point would read what the point before left.
  EXPECT_EQ(refusal({Store::make("u", mij(1), ref("tv", at({1}), 3), line(3)),
                     Store::make("tv", at({1}), ref("rhs", mij(1)), line(4))}),
            "3: Element 'tv(1)' of work array 'tv' is read before the point assigns it, so its "
            "value is carried between iterations of the '!$f2s stencil' region; f2stencil gives "
            "each point its own copy of a local array that the point assigns at constant "
            "subscripts, so assign every element in the point before reading it there");
  // Another element than the one assigned.
  EXPECT_EQ(refusal({Store::make("tv", at({1}), r8(0), line(3)),
                     Store::make("u", mij(1), ref("tv", at({2}), 4), line(4))}),
            "4: Element 'tv(2)' of work array 'tv' is read before the point assigns it, so its "
            "value is carried between iterations of the '!$f2s stencil' region; f2stencil gives "
            "each point its own copy of a local array that the point assigns at constant "
            "subscripts, so assign every element in the point before reading it there");
  // Assigned in one branch of an IF only.
  Expr cond = bin(BinaryOp::Gt, ref("rhs", mij(1)), r8(0));
  EXPECT_EQ(refusal({IfThenElse::make(cond, Store::make("tv", at({1}), r8(1), line(3)), nullptr),
                     Store::make("u", mij(1), ref("tv", at({1}), 5), line(5))}),
            "5: Element 'tv(1)' of work array 'tv' may be read before the point assigns it (only "
            "some branches of an IF assign it, or a DO loop that may run no trip), so its value "
            "is carried between iterations of the '!$f2s stencil' region; f2stencil gives each "
            "point its own copy of a local array that the point assigns at constant subscripts, "
            "so assign every element in the point before reading it there");
  // Assigned in both branches: accepted.
  EXPECT_EQ(refusal({IfThenElse::make(cond, Store::make("tv", at({1}), r8(1), line(3)),
                                      Store::make("tv", at({1}), r8(2), line(4))),
                     Store::make("u", mij(1), ref("tv", at({1}), 5), line(5))}),
            "accepted");
}

TEST(PointArrays, RefusesAnAccessAtASubscriptThatIsNotAConstant) {
  EXPECT_EQ(refusal({Store::make("tv", at({1}), r8(0), line(3)),
                     Store::make("u", mij(1), ref("tv", {Index{"i", 1, 0}}, 4), line(4))}),
            "4: Work array 'tv' of the point is accessed at 'tv(i)', with a subscript that is not "
            "a constant; the point assigns 'tv' at constant subscripts elsewhere, which makes "
            "each of its elements a scalar of the point's own, so subscript it only by constants "
            "or by the variables of DO loops with constant bounds inside the point");
}

} // namespace
} // namespace f2s
