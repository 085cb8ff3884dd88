// Scalar temporaries whose value after the region could be read (issue 5):
// the library keeps them private to each point, so a temporary the caller
// sees or the procedure reads later is refused, with the reason and both
// positions; reductions and temporaries nobody reads afterwards are kept.
#include "tests/frontend/FrontendTestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

/// A 2D subroutine with dummies n, a, b and the local t, whose region
/// assigns t; `after` follows the region.
std::string with_temp(const std::string &dummies, const std::string &decls,
                      const std::string &after) {
  return "subroutine s(n, a, b" + dummies + R"()
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
)" + decls +
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

void expect_refused(const std::string &text, const std::string &message) {
  Diagnostic d = test::refusal(text);
  EXPECT_EQ(d.message, message);
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(text, "t = a(i,j)")) << d.str();
}

/// "line L, column C" of `needle` in `text`, as the message names a read.
std::string position_of(const std::string &text, const std::string &needle) {
  std::string at = test::loc_of(text, needle);
  return "line " + at.substr(0, at.find(':')) + ", column " + at.substr(at.find(':') + 1);
}

std::vector<Kernel> lower_ok(const std::string &text) {
  test::TempDir dir;
  return test::lower_text(dir, text);
}

TEST(PrivateTemps, ALocalReadAfterTheRegionIsRefusedWithBothPositions) {
  std::string src = with_temp("", "  real(8) :: t", "  print *, b(1,1)\n  b(1,1) = 3d0 * t");
  expect_refused(src, "'t' is assigned in the '!$f2s stencil' region and read after it (" +
                          position_of(src, "t\nend") +
                          "), but the library keeps it private to each point");
}

TEST(PrivateTemps, AReadAsAnActualArgumentCounts) {
  std::string src = with_temp("", "  real(8) :: t", "  call report(t)");
  Diagnostic d = test::refusal(src);
  EXPECT_NE(d.message.find("read after it (" + position_of(src, "t)") + ")"), std::string::npos)
      << d.str();
}

TEST(PrivateTemps, ADummyArgumentIsRefused) {
  expect_refused(with_temp(", t", "  real(8) :: t", ""),
                 "'t' is assigned in the '!$f2s stencil' region and is a dummy argument, so its "
                 "value after the region can be read, but the library keeps it private to each "
                 "point; use a local variable for it if nothing after the region needs its value");
}

TEST(PrivateTemps, ACommonVariableIsRefused) {
  expect_refused(with_temp("", "  real(8) :: t\n  common /work/ t", ""),
                 "'t' is assigned in the '!$f2s stencil' region and is in COMMON, so its value "
                 "after the region can be read, but the library keeps it private to each "
                 "point; use a local variable for it if nothing after the region needs its value");
}

TEST(PrivateTemps, AModuleVariableIsRefusedWhetherUsedOrOfTheHost) {
  std::string module = "module m\n  real(8) :: t\nend module\n";
  // USE comes first in a specification part.
  std::string used = module + with_temp("", "", "");
  used.insert(used.find("  integer :: n"), "  use m\n");
  expect_refused(used, "'t' is assigned in the '!$f2s stencil' region and is a variable of module "
                       "'m', so its value after the region can be read, but the library keeps it "
                       "private to each point; use a local variable for it if nothing after the "
                       "region needs its value");
  std::string host =
      "module m\n  real(8) :: t\ncontains\n" + with_temp("", "", "") + "end module\n";
  expect_refused(host, "'t' is assigned in the '!$f2s stencil' region and is a variable of module "
                       "'m', so its value after the region can be read, but the library keeps it "
                       "private to each point; use a local variable for it if nothing after the "
                       "region needs its value");
}

TEST(PrivateTemps, AVariableOfTheHostProcedureIsRefused) {
  std::string src = "subroutine outer()\n  real(8) :: t\n  t = 0\ncontains\n" +
                    with_temp("", "", "") + "end subroutine outer\n";
  expect_refused(src, "'t' is assigned in the '!$f2s stencil' region and is a variable of the "
                      "host procedure 'outer', so its value after the region can be read, but "
                      "the library keeps it private to each point; use a local variable for it if "
                      "nothing after the region needs its value");
}

// Around a time loop, a read before the region sees the last trip's value.
TEST(PrivateTemps, AReadEarlierInALoopAroundTheRegionIsRefused) {
  std::string src = R"(subroutine s(n, a, b)
  integer :: n, i, j, it
  real(8) :: a(n, n), b(n, n), t, keep
  t = 0d0
  do it = 1, 3
    keep = t
    !$f2s stencil
    do j = 1, n
      do i = 1, n
        t = a(i,j) * 2d0
        b(i,j) = t + 1d0
      end do
    end do
  end do
end subroutine
)";
  Diagnostic d = test::refusal(src);
  EXPECT_EQ(d.message, "'t' is assigned in the '!$f2s stencil' region and read after it (line 6, "
                       "column 12), but the library keeps it private to each point");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(src, "t = a(i,j)"));
}

TEST(PrivateTemps, TemporariesNobodyReadsAfterwardsAreKept) {
  // Assigned again after the region, never read.
  std::vector<Kernel> ks = lower_ok(with_temp("", "  real(8) :: t", "  t = 0d0"));
  ASSERT_EQ(ks.size(), 1u);
  ASSERT_EQ(ks[0].temps.size(), 1u);
  EXPECT_EQ(ks[0].temps[0].name, "t");
  // Implicitly typed, and read in a later region that assigns it first: that
  // region has a temporary of its own.
  std::string two = with_temp("", "", R"(  !$f2s stencil
  do j = 1, n
    do i = 1, n
      t = b(i,j)
      a(i,j) = t * t
    end do
  end do)");
  EXPECT_EQ(lower_ok(two).size(), 2u);
}

TEST(PrivateTemps, AReadInALaterRegionThatDoesNotAssignItIsRefused) {
  std::string src = with_temp("", "  real(8) :: t", R"(  !$f2s stencil
  do j = 1, n
    do i = 1, n
      a(i,j) = t * b(i,j)
    end do
  end do)");
  Diagnostic d = test::refusal(src);
  EXPECT_EQ(d.message, "'t' is assigned in the '!$f2s stencil' region and read after it (" +
                           position_of(src, "t * b") +
                           "), but the library keeps it private to each point");
}

// A reduction's value after the region is the result, which the library
// returns: dummies and locals read afterwards alike.
TEST(PrivateTemps, ReductionsAreNotTemporaries) {
  std::string src = R"(subroutine s(n, a, err)
  integer :: n, i, j
  real(8) :: a(n, n), err, total
  total = 0d0
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      err = max(err, abs(a(i,j)))
      total = total + a(i,j)
    end do
  end do
  print *, total, err
end subroutine
)";
  std::vector<Kernel> ks = lower_ok(src);
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(ks[0].reductions.size(), 2u);
  EXPECT_TRUE(ks[0].temps.empty());
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

// A SAVEd local keeps its value between calls: a read before the region sees
// the previous call's last point.
TEST(PrivateTemps, ASavedLocalReadBeforeTheRegionIsRefused) {
  for (const std::string &save :
       {"  real(8), save :: t", "  real(8) :: t = 0d0", "  real(8) :: t\n  save t",
        "  real(8) :: t\n  save", "  real(8) :: t\n  data t /0d0/"}) {
    SCOPED_TRACE(save);
    std::string src = with_temp("", save, "");
    src.insert(src.find("  !$f2s"), "  print *, t\n");
    Diagnostic d = test::refusal(src);
    EXPECT_EQ(d.message, "'t' is assigned in the '!$f2s stencil' region and read in the next "
                         "call, as it is SAVEd (" +
                             position_of(src, "t\n  !$f2s") +
                             "), but the library keeps it private to each point");
  }
  // Not SAVEd: the read before the region sees this call's value.
  std::string src = with_temp("", "  real(8) :: t", "");
  src.insert(src.find("  !$f2s"), "  print *, t\n");
  EXPECT_EQ(lower_ok(src).size(), 1u);
}

TEST(PrivateTemps, AFunctionResultIsRefused) {
  std::string src = R"(real(8) function f(n, a, b) result(t)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      t = a(i,j) * 2d0
      b(i,j) = t + 1d0
    end do
  end do
end function
)";
  expect_refused(src, "'t' is assigned in the '!$f2s stencil' region and is the result of "
                      "function 'f', so its value after the region can be read, but the library "
                      "keeps it private to each point; use a local variable for it if nothing "
                      "after the region needs its value");
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

// A dummy updated like a reduction but read elsewhere is refused for that, by
// the dependence analysis; assigned first, it is a temporary like any other.
TEST(PrivateTemps, ACarriedScalarIsRefusedForBeingCarried) {
  std::string carried = with_temp(", t", "  real(8) :: t", "");
  carried.replace(carried.find("t = a(i,j) * 2d0"), 16, "t = t + a(i,j)");
  Diagnostic d = test::refusal(carried);
  EXPECT_EQ(d.message.rfind("'t' is accumulated with + at ", 0), 0u) << d.str();

  std::string reset = with_temp(", t", "  real(8) :: t", "");
  reset.replace(reset.find("t = a(i,j) * 2d0"), 16, "t = a(i,j) * 2d0\n      t = t + 1d0");
  expect_refused(reset, "'t' is assigned in the '!$f2s stencil' region and is a dummy argument, "
                        "so its value after the region can be read, but the library keeps it "
                        "private to each point; use a local variable for it if nothing after the "
                        "region needs its value");
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

// F77 iterates with a GO TO back to a label before the region: a read after
// the label sees the last iteration's value.
TEST(PrivateTemps, AReadInAGoToLoopAroundTheRegionIsRefused) {
  std::string src = R"(      SUBROUTINE S(N, A, B, TOL)
      REAL*8 A(N,N), B(N,N), T, TOL, KEEP
      T = 0
   10 KEEP = T
C$F2S STENCIL
      DO 20 J = 1, N
      DO 20 I = 1, N
         T = A(I,J) * 2D0
         B(I,J) = T + 1D0
   20 CONTINUE
      IF (B(1,1) .GT. TOL) GO TO 10
      END
)";
  test::TempDir dir;
  Diagnostic d = test::error_of(dir, src, "input.f");
  EXPECT_EQ(d.message, "'t' is assigned in the '!$f2s stencil' region and read after it (" +
                           position_of(src, "T\nC$F2S") +
                           "), but the library keeps it private to each point");
  EXPECT_EQ(test::line_col(d.loc), test::loc_of(src, "T = A(I,J)"));
  // Without the jump back, the read before the region is this call's.
  std::string once = src;
  once.replace(once.find("      IF (B(1,1)"), 35, "");
  EXPECT_EQ(test::lower_text(dir, once, "input.f").size(), 1u);
}

} // namespace
} // namespace f2s

namespace f2s {
namespace {

// An internal procedure sees its host's variables: one that reads the
// temporary may be called after the region; one with a `t` of its own not.
TEST(PrivateTemps, AReadInAnInternalProcedureIsRefused) {
  std::string internal = R"(contains
  subroutine show()
    print *, t
  end subroutine show
)";
  std::string src = with_temp("", "  real(8) :: t", "  call show()");
  src.insert(src.rfind("end subroutine"), internal);
  Diagnostic d = test::refusal(src);
  EXPECT_EQ(d.message, "'t' is assigned in the '!$f2s stencil' region and read after it (" +
                           position_of(src, "t\n  end subroutine show") +
                           "), but the library keeps it private to each point");

  std::string own = with_temp("", "  real(8) :: t", "  call show()");
  own.insert(own.rfind("end subroutine"), R"(contains
  subroutine show()
    real :: t
    t = 1
    print *, t
  end subroutine show
)");
  EXPECT_EQ(lower_ok(own).size(), 1u);
}

} // namespace
} // namespace f2s
