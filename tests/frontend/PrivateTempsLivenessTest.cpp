// A temporary's value after its region matters only where some path from
// the region's end reads it before assigning it again (issue 11): the
// shapes that real codes use and that a read later in the source alone
// refused, and those that stay refused.
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// A 2D subroutine with dummies n, a, b and the local t: `before`, the
/// region that assigns t, then `after`.
std::string around(const std::string &before, const std::string &after) {
  return R"(subroutine s(n, a, b)
  integer :: n, i, j, k
  real(8) :: a(n, n), b(n, n), t
)" + before +
         R"(
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      t = a(i,j) * 2d0
      b(i,j) = t + 1d0
    end do
  end do
)" + after +
         R"(
end subroutine
)";
}

void expect_accepted(const std::string &src) {
  test::TempDir dir;
  std::vector<Kernel> ks = test::lower_text(dir, src);
  ASSERT_EQ(ks.size(), 1u) << src;
  ASSERT_EQ(ks[0].temps.size(), 1u);
  EXPECT_EQ(ks[0].temps[0].name, "t");
}

/// Refused at the region's assignment to t, naming the read at `read`.
void expect_read_after(const std::string &src, const std::string &read) {
  Diagnostic d = test::refusal(src);
  std::string at = test::loc_of(src, read);
  EXPECT_EQ(d.message, "'t' is assigned in the '!$f2s stencil' region and read after it (line " +
                           at.substr(0, at.find(':')) + ", column " + at.substr(at.find(':') + 1) +
                           "), but the library keeps it private to each point")
      << src;
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(src, "t = a(i,j)")) << src;
}

TEST(PrivateTempsLiveness, AReadAfterAnAssignmentOnEveryPathIsAccepted) {
  expect_accepted(around("", R"(  if (n > 3) then
    t = 1d0
  else if (n > 2) then
    t = b(1,1)
  else
    t = 2d0
  end if
  b(1,1) = t)"));
  expect_accepted(around("", R"(  select case (n)
  case (1)
    t = 1d0
  case default
    t = 0d0
  end select
  b(1,1) = t)"));
}

TEST(PrivateTempsLiveness, AReadAfterAnAssignmentOnSomePathsIsRefused) {
  expect_read_after(around("", R"(  if (n > 3) then
    t = 1d0
  end if
  b(1,1) = t)"),
                    "t\nend");
  // SELECT CASE without CASE DEFAULT may take no branch.
  expect_read_after(around("", R"(  select case (n)
  case (1)
    t = 1d0
  case (2:)
    t = 0d0
  end select
  b(1,1) = t)"),
                    "t\nend");
}

TEST(PrivateTempsLiveness, ALaterLoopThatAssignsBeforeReadingIsAccepted) {
  expect_accepted(around("", R"(  do k = 1, n
    t = a(k,1) - a(k,n)
    b(k,1) = b(k,1) + t
  end do)"));
  // A loop without control leaves by EXIT only, after its assignment.
  expect_accepted(around("", R"(  do
    t = b(1,1) * 0.5d0
    if (t < 1d0) exit
    b(1,1) = t
  end do
  a(1,1) = t)"));
  // Another region in that loop is no way out of it.
  std::string two = around("", R"(  do
    !$f2s stencil
    do j = 2, n
      do i = 1, n
        a(i,j) = b(i,j) * 0.5d0
      end do
    end do
    t = a(2,2)
    if (t < 1d0) exit
  end do
  b(1,1) = t)");
  test::TempDir dir;
  EXPECT_EQ(test::lower_text(dir, two).size(), 2u);
}

TEST(PrivateTempsLiveness, ALaterLoopThatReadsFirstOrMayNotRunIsRefused) {
  // The second trip reads the first's t; the first reads the region's.
  expect_read_after(around("", R"(  do k = 1, n
    b(k,1) = b(k,1) + t
    t = a(k,1)
  end do)"),
                    "t\n    t = a(k,1)");
  // A DO loop may run zero times.
  expect_read_after(around("", R"(  do k = 1, n
    t = a(k,1)
  end do
  b(1,1) = t)"),
                    "t\nend");
  // EXIT before the assignment.
  expect_read_after(around("", R"(  do
    if (b(1,1) > 1d0) exit
    t = b(1,1)
    b(1,1) = t * 2d0
  end do
  a(1,1) = t)"),
                    "t\nend");
  // CYCLE skips the assignment; the loop may then end.
  expect_read_after(around("", R"(  do k = 1, n
    if (b(k,1) > 1d0) cycle
    t = b(k,1)
  end do
  a(1,1) = t)"),
                    "t\nend");
}

TEST(PrivateTempsLiveness, AReadOnlyInTheOtherBranchIsAccepted) {
  std::string src = R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n), t
  t = 0.5d0
  if (n > 3) then
    !$f2s stencil
    do j = 1, n
      do i = 1, n
        t = a(i,j) * 2d0
        b(i,j) = t + 1d0
      end do
    end do
  else
    b(1,1) = t
  end if
end subroutine
)";
  expect_accepted(src);
  // In the branch of the region, after it: refused.
  std::string same_branch = src;
  same_branch.replace(same_branch.find("  else\n"), 7, "");
  expect_read_after(same_branch, "t\n  end if");
}

// Around a loop, the next trip reaches what comes before the region in it,
// unless it assigns first.
TEST(PrivateTempsLiveness, LoopsAroundTheRegion) {
  std::string read_first = R"(subroutine s(n, a, b)
  integer :: n, i, j, it
  real(8) :: a(n, n), b(n, n), t, keep
  t = 0d0
  do it = 1, 3
    keep = keep + t
    !$f2s stencil
    do j = 1, n
      do i = 1, n
        t = a(i,j) * 2d0
        b(i,j) = t + 1d0
      end do
    end do
    t = 1d0
  end do
end subroutine
)";
  // The assignment after the region is on the path to the next trip.
  expect_accepted(read_first);
  std::string no_reset = read_first;
  no_reset.replace(no_reset.find("    t = 1d0\n"), 12, "");
  expect_read_after(no_reset, "t\n    !$f2s");
}

// With a GO TO anywhere in the procedure, paths are not followed: any read
// after the region counts, as before.
TEST(PrivateTempsLiveness, AProcedureWithAGoToStaysConservative) {
  std::string src = around("", R"(  t = 1d0
  b(1,1) = t
  if (b(1,1) > 2d0) go to 99
  b(2,2) = 0d0
99 continue)");
  expect_read_after(src, "t\n  if");
  std::string without = src;
  without.replace(without.find("go to 99"), 8, "b(1,1) = 0d0");
  expect_accepted(without);
}

} // namespace
} // namespace f2s
