// Prefetch: a run-time prefetch distance among the kernel's tuning
// parameters (the C it gives is in tests/codegen).
#include "transforms/Prefetch.h"
#include "ast/IRPrinter.h"
#include "transforms/CoreBlocking.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(Prefetch, AddsTheDistanceAsATuningParameter) {
  Kernel k = block_loops(test::example_kernel("gradient"));
  Kernel after = add_prefetch(k, {});
  ASSERT_EQ(after.tuning.size(), 4u);
  EXPECT_EQ(after.tuning[3].name, "pf");
  EXPECT_EQ(after.tuning[3].type, Type::Int32);
  EXPECT_EQ(after.prefetch_distance, "pf");
  std::string text = print_kernel(after);
  EXPECT_NE(text.find("  tuning cz: i32\n  tuning pf: i32\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  prefetch distance pf\n"), std::string::npos) << text;
  EXPECT_EQ(after.body, k.body);
  // Applied twice, or disabled, it adds nothing.
  EXPECT_EQ(add_prefetch(after, {}).tuning.size(), 4u);
  EXPECT_EQ(add_prefetch(k, {false}).tuning.size(), 3u);
  EXPECT_TRUE(add_prefetch(k, {false}).prefetch_distance.empty());
}

TEST(Prefetch, NeverCapturesAUserName) {
  test::ScratchDir dir;
  Kernel k = add_prefetch(test::lower_text(dir, R"(subroutine s(n, pf, a, b)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n), pf
  !$f2s stencil
  do j = 1, n
  do i = 1, n
    b(i, j) = pf*a(i, j)
  end do
  end do
end subroutine
)"),
                          {});
  EXPECT_EQ(k.prefetch_distance, "pf2");
  ASSERT_EQ(k.tuning.size(), 1u);
  EXPECT_EQ(k.tuning[0].name, "pf2");
}

} // namespace
} // namespace f2s
