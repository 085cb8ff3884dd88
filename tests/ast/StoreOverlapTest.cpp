// ast/Dependence's find_store_overlap: a store that leaves a loop variable of
// the nest out of its subscripts writes one element from every point along
// that loop (an output dependence of the store on itself), named as the
// source writes it (Kernel::store_sources).
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// do j = 1, m; do i = 1, n: b(<index>) = a(i, j), the store at 7:7 written
/// as `text`.
Kernel nest(std::vector<Index> index, const std::string &text) {
  Kernel k;
  k.name = "s_1";
  SourceLoc at{"input.f90", 7, 7};
  Expr n = Var::make("n", Type::Int32), m = Var::make("m", Type::Int32);
  Stmt store = Store::make("b", std::move(index),
                           GridRef::make("a", {Index{"i"}, Index{"j"}}, Type::Float64), at);
  k.body = For::make("j", IntImm::make(1), m, IntImm::make(1), LoopExec::Serial,
                     For::make("i", IntImm::make(1), n, IntImm::make(1), LoopExec::Serial, store));
  k.store_sources = {StoreSource{at, at, text}};
  return k;
}

TEST(StoreOverlap, AStoreThatLeavesOutALoopVariableIsRefusedAsWritten) {
  Kernel k = nest({Index{"", 1, 1}, Index{"j"}}, "b(1, j)");
  EXPECT_EQ(print_stmt(k.body), "for j = 1, m {\n"
                                "  for i = 1, n {\n"
                                "    b(1, j) = a(i, j)\n"
                                "  }\n"
                                "}\n");
  std::optional<Diagnostic> d = find_store_overlap(k);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->loc.str(), "input.f90:7:7");
  EXPECT_EQ(d->message, "Assignment to 'b(1, j)' has no subscript in loop variable 'i', so every "
                        "point of the DO loop over 'i' writes the same element; subscript 'b' "
                        "with 'i' too");
  // The source's text, not the IR's: `0*j + 1` lowers to 1.
  d = find_store_overlap(nest({Index{"i"}, Index{"", 1, 1}}, "b(i, 0*j + 1)"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->message, "Assignment to 'b(i, 0*j + 1)' has no subscript in loop variable 'j', so "
                        "every point of the DO loop over 'j' writes the same element; subscript "
                        "'b' with 'j' too");
}

TEST(StoreOverlap, OneLoopVariableInTwoSubscriptsIsRefused) {
  std::optional<Diagnostic> d = find_store_overlap(nest({Index{"i"}, Index{"i"}}, "b(i, i)"));
  ASSERT_TRUE(d);
  EXPECT_EQ(d->message, "Assignment to 'b(i, i)' uses loop variable 'i' in two subscripts, so "
                        "points of the nest could write one element; subscript each dimension by "
                        "its own loop variable or a constant");
}

TEST(StoreOverlap, EveryLoopInTheSubscriptsIsAccepted) {
  EXPECT_FALSE(find_store_overlap(nest({Index{"i"}, Index{"j", 1, -1}}, "b(i, j-1)")));
  // A store the front end did not record (made by a pass) is not judged.
  Kernel k = nest({Index{"", 1, 1}, Index{"j"}}, "b(1, j)");
  k.store_sources.clear();
  EXPECT_FALSE(find_store_overlap(k));
}

} // namespace
} // namespace f2s
