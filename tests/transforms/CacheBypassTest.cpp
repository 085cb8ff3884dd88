// Cache bypass: the grids written and never read are the ones streamed.
#include "transforms/CacheBypass.h"
#include "ast/IRPrinter.h"
#include "transforms/CoreBlocking.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(CacheBypass, StreamsTheGridsThatAreWrittenAndNotRead) {
  Kernel k = block_loops(test::example_kernel("laplacian"));
  Kernel after = bypass_cache(k, {});
  EXPECT_EQ(after.streamed, (std::vector<std::string>{"unew"}));
  std::string text = print_kernel(after);
  EXPECT_NE(text.find("  tuning cz: i32\n  tune_size(256, 256, 256)\n  stream unew\n  for k_blk"),
            std::string::npos)
      << text;
  EXPECT_EQ(after.body, k.body);
  EXPECT_TRUE(bypass_cache(k, {false}).streamed.empty());
}

TEST(CacheBypass, NeverStreamsAGridThatIsAlsoRead) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, a, b, c, d)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n), d(n, n)
  real(4) :: c(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      b(i, j) = b(i, j) + a(i, j)
      d(i, j) = 2*a(i, j)
      c(i, j) = a(i, j)
    end do
  end do
end subroutine
)");
  EXPECT_EQ(bypass_cache(k, {}).streamed, (std::vector<std::string>{"c", "d"}));
}

} // namespace
} // namespace f2s
