// ast/Aliasing's find_shared_storage: names that EQUIVALENCE gives one
// storage, as the front end records them on a kernel (Kernel::shared_storage),
// refused where the region writes one and uses another.
#include "ast/Aliasing.h"
#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

Variable grid(const std::string &name) {
  return Variable{name, Type::Float64, {Dim{IntImm::make(1), Var::make("n", Type::Int32)}}};
}

/// do i = 1, n: <store>(i) = <read>(i), the directive at line 6, with `b`
/// sharing the storage of `a` and `w` (the EQUIVALENCE at 5:28).
Kernel nest(const std::string &store, const std::string &read) {
  Kernel k;
  k.name = "s_1";
  k.loc = SourceLoc{"input.f", 6, 1};
  for (const std::string &g : {std::string("a"), std::string("b"), std::string("w")})
    if (g == store || g == read)
      k.args.push_back(grid(g));
  k.args.push_back(Variable{"n", Type::Int32, {}});
  k.body = For::make(
      "i", IntImm::make(1), Var::make("n", Type::Int32), IntImm::make(1), LoopExec::Serial,
      Store::make(store, {Index{"i"}}, GridRef::make(read, {Index{"i"}}, Type::Float64)));
  k.shared_storage = {SharedStorage{"b", {"a", "b", "w"}, SourceLoc{"input.f", 5, 28}}};
  return k;
}

TEST(SharedStorage, AWrittenNameAndAnotherOfItsStorageAreRefused) {
  Kernel k = nest("b", "a");
  EXPECT_EQ(print_stmt(k.body), "for i = 1, n {\n"
                                "  b(i) = a(i)\n"
                                "}\n");
  std::optional<Diagnostic> d = find_shared_storage(k);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->loc.str(), "input.f:5:28");
  EXPECT_EQ(d->message, "'b' and 'a' share storage through EQUIVALENCE, and the '!$f2s stencil' "
                        "region at line 6 writes 'b' and uses 'a', which the library would take "
                        "as two arrays; use one of the names for both in the region");
}

TEST(SharedStorage, OneNameAloneOrOnlyReadIsAccepted) {
  // Only 'b' of its storage: one array.
  EXPECT_FALSE(find_shared_storage(nest("b", "b")));
  // 'a' and 'b' read, 'w' (no name of a recorded storage) written.
  Kernel k = nest("w", "b");
  k.shared_storage.clear();
  EXPECT_FALSE(find_shared_storage(k));
}

} // namespace
} // namespace f2s
