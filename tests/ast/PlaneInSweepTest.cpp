// ast/Planes' find_plane_in_sweep: a time loop's sweep with a plane at a
// run-time position (`u(n - 1, j)`, Index::sym) is refused at the access;
// the same sweep at loop variables plus constants is not.
#include "ast/IRPrinter.h"
#include "ast/Planes.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// do j = 1, m: u(0, j) = u(<first>, j), the read at 9:16.
Kernel sweep(Index first) {
  Kernel k;
  k.name = "steps_1";
  k.time_loop = "steps";
  Expr read = GridRef::make("u", {std::move(first), Index{"j"}}, Type::Float64,
                            SourceLoc{"input.f90", 9, 16});
  k.body = For::make("j", IntImm::make(1), Var::make("m", Type::Int32), IntImm::make(1),
                     LoopExec::Serial, Store::make("u", {Index{"", 1, 0}, Index{"j"}}, read));
  return k;
}

TEST(PlaneInSweep, APlaneAtARunTimePositionIsRefusedAtTheAccess) {
  Kernel k = sweep(Index{"", 1, -1, "n"});
  EXPECT_EQ(print_stmt(k.body), "for j = 1, m {\n"
                                "  u(0, j) = u(n - 1, j)\n"
                                "}\n");
  std::optional<Diagnostic> d = find_plane_in_sweep(k);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->loc.str(), "input.f90:9:16");
  EXPECT_EQ(d->message, "'u' is accessed at 'n - 1', a plane at a run-time position, which a "
                        "sweep of a '!$f2s stencil timesteps' loop cannot hold; annotate each "
                        "nest of the loop with a '!$f2s stencil' of its own, without TIMESTEPS");
}

TEST(PlaneInSweep, ConstantSubscriptsAreNoPlanes) {
  EXPECT_FALSE(find_plane_in_sweep(sweep(Index{"", 1, 7})));
}

} // namespace
} // namespace f2s
