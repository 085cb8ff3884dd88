// RestrictToBox: the nest clipped to a run-time box.
#include "transforms/RestrictToBox.h"

#include "ast/IRPrinter.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(RestrictToBox, ClipsEveryLoopOfTheNest) {
  test::ScratchDir dir;
  // A red-black sweep (its colour test stays inside the point).
  Kernel k = test::lower_text(dir, R"(subroutine s(n, c, u)
  integer :: n, c, i, j
  real(8) :: u(0:n+1, 0:n+1)
  !$f2s stencil
  do j = 1, n
    do i = 1 + mod(j + c, 2), n, 2
      u(i, j) = 0.25d0*(u(i-1, j) + u(i+1, j) + u(i, j-1) + u(i, j+1))
    end do
  end do
end subroutine
)");
  std::string before = print_kernel(k);
  Kernel box = restrict_to_box(k);
  std::string after = print_kernel(box);
  EXPECT_EQ(box.name, k.name + "_box");
  ASSERT_EQ(box.args.size(), k.args.size() + 4);
  EXPECT_EQ(box.args[k.args.size()].name, "box_lox");
  EXPECT_EQ(box.args[k.args.size() + 1].name, "box_hix");
  EXPECT_EQ(box.args[k.args.size() + 2].name, "box_loy");
  EXPECT_EQ(box.args[k.args.size() + 3].name, "box_hiy");
  ASSERT_NE(before.find("  for j = 1, n {\n    for i = 1, n {\n"), std::string::npos) << before;
  std::string clipped = "  for j = max(1, box_loy), min(n, box_hiy) {\n"
                        "    for i = max(1, box_lox), min(n, box_hix) {\n";
  EXPECT_NE(after.find(clipped), std::string::npos) << after;
  // The point itself is the original's.
  EXPECT_EQ(after.substr(after.find(clipped) + clipped.size()),
            before.substr(before.find("    for i = 1, n {\n") + 19));
}

TEST(RestrictToBox, NeverCapturesAUserName) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, box_lox, a, b)
  integer :: n, box_lox, i
  real(8) :: a(n), b(n)
  !$f2s stencil
  do i = 1, n
    b(i) = a(i) * box_lox
  end do
end subroutine
)");
  Kernel box = restrict_to_box(k);
  EXPECT_EQ(box.args[box.args.size() - 2].name, "box_lox2");
}

} // namespace
} // namespace f2s
