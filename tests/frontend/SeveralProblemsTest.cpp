// Refusals that help: every independent problem of the input in one run,
// each at its position, sorted, and with the fix where there is one.
#include "frontend/FrontendTestUtil.h"

#include <gmock/gmock.h>

namespace f2s {
namespace {

using test::line_col;
using test::loc_of;
using test::TempDir;
using ::testing::HasSubstr;

/// Every problem of lowering `files` (name, text), as "name:line:col:
/// message" with the folder left out; fails the test when none is thrown.
std::vector<std::string>
problems_of(const std::vector<std::pair<std::string, std::string>> &files) {
  TempDir dir;
  std::vector<std::string> paths;
  for (const auto &[name, text] : files)
    paths.push_back(dir.write(name, text));
  try {
    lower_files(paths);
  } catch (const UserError &e) {
    std::vector<std::string> out;
    for (const Diagnostic &d : e.diagnostics())
      out.push_back(std::filesystem::path(d.loc.file).filename().string() + ":" + line_col(d.loc) +
                    ": " + d.message);
    return out;
  }
  ADD_FAILURE() << "lowering succeeded, but errors were expected";
  return {};
}

std::vector<std::string> problems_of(const std::string &text) {
  return problems_of({{"input.f90", text}});
}

/// "input.f90:LINE:COL: message", the position that of `needle` in `text`.
std::string at(const std::string &text, const std::string &needle, const std::string &message,
               const std::string &file = "input.f90") {
  return file + ":" + loc_of(text, needle) + ": " + message;
}

// ------------------------------------------------------------ the mechanism

TEST(SeveralProblems, UserErrorSortsByFileThenPositionAndDropsRepeats) {
  std::vector<Diagnostic> ds = {
      {{"b.f90", 3, 7}, "third"},  {{"a.f90", 9, 1}, "second"},
      {{"b.f90", 2, 5}, "fourth"}, {{"a.f90", 4, 2}, "first"},
      {{"a.f90", 9, 1}, "second"}, {{"a.f90", 9, 1}, "another at the same place"}};
  UserError e(ds, {"b.f90", "a.f90"});
  std::vector<std::string> got;
  for (const Diagnostic &d : e.diagnostics())
    got.push_back(d.loc.str() + " " + d.message);
  EXPECT_EQ(got,
            (std::vector<std::string>{"b.f90:2:5 fourth", "b.f90:3:7 third", "a.f90:4:2 first",
                                      "a.f90:9:1 second", "a.f90:9:1 another at the same place"}));
  EXPECT_EQ(e.diagnostic().message, "fourth");
  EXPECT_EQ(std::string(e.what()),
            "b.f90:2:5: error: fourth\nb.f90:3:7: error: third\na.f90:4:2: error: first\n"
            "a.f90:9:1: error: second\na.f90:9:1: error: another at the same place");
}

TEST(SeveralProblems, UserErrorWithoutAFileOrderKeepsTheFilesAsTheyCame) {
  UserError e({{{"z.f90", 5, 1}, "z"}, {{"a.f90", 1, 1}, "a"}, {{"z.f90", 1, 1}, "z first"}});
  ASSERT_EQ(e.diagnostics().size(), 3u);
  EXPECT_EQ(e.diagnostics()[0].message, "z first");
  EXPECT_EQ(e.diagnostics()[1].message, "z");
  EXPECT_EQ(e.diagnostics()[2].message, "a");
}

TEST(SeveralProblems, ProblemsGoOnPastEachPartAndThrowThemAllAtTheEnd) {
  Problems problems;
  int parts_run = 0;
  EXPECT_FALSE(problems.attempt([&] {
    ++parts_run;
    throw UserError(SourceLoc{"f.f90", 8, 3}, "later");
  }));
  EXPECT_TRUE(problems.attempt([&] { ++parts_run; }));
  EXPECT_FALSE(problems.attempt([&] {
    ++parts_run;
    throw UserError(SourceLoc{"f.f90", 2, 3}, "earlier");
  }));
  EXPECT_EQ(parts_run, 3);
  ASSERT_EQ(problems.list().size(), 2u);
  try {
    problems.throw_if_any();
    ADD_FAILURE() << "no UserError";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message, "earlier");
    EXPECT_EQ(e.diagnostics().size(), 2u);
  }
  Problems none;
  EXPECT_NO_THROW(none.throw_if_any());
}

// A problem that is not the input's (an internal error) is not collected.
TEST(SeveralProblems, OnlyUserErrorsAreCollected) {
  Problems problems;
  EXPECT_THROW(problems.attempt([] { throw std::logic_error("a bug"); }), std::logic_error);
  EXPECT_TRUE(problems.empty());
}

// ------------------------------------------------------------ in a region

// The routine of a user who met four refusals in four runs.
const std::string kFourProblems = R"(subroutine relax(n, m, w, u, v, f)
  implicit none
  integer :: n, m, i, j, k
  real(8) :: w, r, s
  real(8) :: u(0:n+1, 0:n+1, 0:n+1), v(0:n+1, 0:n+1, 0:n+1), f(0:n+1, 0:n+1, 0:n+1)
  !$f2s stencil
  do k = 1, n
    do j = 1, n
      do i = 1, n
        r = u(m*i, j, k) - u(i-1, j, k)
        s = erf(r)
        call clip(s)
        v(i, j, k) = w*s + q*f(i, j, k)
      end do
    end do
  end do
end subroutine
)";

TEST(SeveralProblems, EveryStatementOfARegionIsCheckedOnItsOwn) {
  const std::string &src = kFourProblems;
  EXPECT_EQ(problems_of(src),
            (std::vector<std::string>{
                at(src, "m*i",
                   "Subscript 'm*i' of 'u' is not an integer multiple of a loop variable plus a "
                   "constant; make 'm' a named constant (PARAMETER)"),
                at(src, "erf",
                   "'erf' is an unknown function, so what it reads and writes cannot be known; "
                   "inside a '!$f2s stencil' region only the elementary intrinsics (SQRT, EXP, "
                   "LOG, LOG10, SIN, COS, TAN, ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH), "
                   "ABS, SIGN, MIN, MAX, MOD, MERGE, the conversions (REAL, DBLE, FLOAT, INT, "
                   "NINT, FLOOR, CEILING, AINT, ANINT) and their specific names (DSQRT, AMAX1, "
                   "...) are allowed; declare 'erf' if it is an array, or write the function's "
                   "computation inline"),
                at(src, "call clip",
                   "A CALL statement is not allowed inside a '!$f2s stencil' region; write the "
                   "subroutine's computation inline"),
                at(src, "q*", "'q' is not declared and IMPLICIT NONE is in force; declare it")}));
}

// The statements inside an IF construct are statements too.
TEST(SeveralProblems, StatementsInsideAnIfConstructAreCheckedOnTheirOwn) {
  std::string src = R"(subroutine s(n, a, b)
  implicit none
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      if (a(i, j) > 0d0) then
        b(i, j) = p
      else
        b(i, j) = a(i, j)
        print *, i
      end if
    end do
  end do
end subroutine
)";
  std::vector<std::string> got = problems_of(src);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0],
            at(src, "p\n", "'p' is not declared and IMPLICIT NONE is in force; declare it"));
  EXPECT_THAT(got[1], HasSubstr(loc_of(src, "print") + ": A PRINT statement"));
}

// A named constant whose value is refused is one problem, at the value, however
// many statements use it; the statements after it are lowered as statements,
// not as part of the constant's value.
TEST(SeveralProblems, AProblemInANamedConstantIsReportedOnce) {
  std::string src = R"(subroutine s(n, a, b)
  implicit none
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n), t
  real(8), parameter :: c = q
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      t = c*a(i, j)
      b(i, j) = t + c
    end do
  end do
end subroutine
)";
  EXPECT_EQ(problems_of(src),
            (std::vector<std::string>{
                at(src, "q\n", "'q' is not declared and IMPLICIT NONE is in force; declare it")}));
}

// A broken nest ends its own region, not the file.
TEST(SeveralProblems, EveryRegionOfAFileIsChecked) {
  std::string src = R"(subroutine s(n, nb, a, b)
  integer :: n, nb, i, j, it
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil
  do it = 1, 10
    do j = 1, n
      b(1, j) = 0d0
      do i = 1, n
        b(i, j) = a(i, j)
      end do
    end do
  end do
  !$f2s stencil
  do j = 1, n
    do i = 1, n, nb
      b(i, j) = a(i, j)
    end do
  end do
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      b(i, j) = idx(i)
    end do
  end do
end subroutine
)";
  std::vector<std::string> got = problems_of(src);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], at(src, "b(1, j)",
                       "Assignment to 'b(1, j)' has no subscript in loop variable 'it', so every "
                       "point of the DO loop over 'it' writes the same element; the DO loop over "
                       "'it' only repeats what it holds, so annotate the nest inside it instead, "
                       "or make it a time loop ('!$f2s stencil timesteps', docs/time-loops.md)"));
  EXPECT_EQ(got[1], at(src, "nb\n",
                       "The step of the DO loop over 'i' must be a positive INTEGER constant or -1 "
                       "in a '!$f2s stencil' region; make 'nb' a named constant (PARAMETER)"));
  EXPECT_THAT(got[2], HasSubstr(loc_of(src, "idx") + ": 'idx' is an unknown function"));
}

TEST(SeveralProblems, EveryFileIsCheckedInTheOrderGiven) {
  std::string second = R"(subroutine t(n, a, b)
  integer :: n, i
  real(8) :: a(n), b(n)
  !$f2s stencil
  do i = 1, n
    b(i) = a(i)
    call done(i)
  end do
end subroutine
)";
  std::vector<std::string> got =
      problems_of({{"z_first.f90", kFourProblems}, {"a_second.f90", second}});
  ASSERT_EQ(got.size(), 5u);
  EXPECT_THAT(got[3], HasSubstr("z_first.f90:" + loc_of(kFourProblems, "q*")));
  EXPECT_EQ(got[4], at(second, "call done",
                       "A CALL statement is not allowed inside a '!$f2s stencil' region; write "
                       "the subroutine's computation inline",
                       "a_second.f90"));
}

// Each temporary that would be read after its region is its own problem,
// and a region refused for another reason adds no doubtful one.
TEST(SeveralProblems, EveryTemporaryReadAfterItsRegionIsReported) {
  std::string src = R"(subroutine s(n, a, b)
  integer :: n, i
  real(8) :: a(n), b(n), t, u
  !$f2s stencil
  do i = 1, n
    t = a(i)
    u = 2d0*t
    b(i) = u
  end do
  !$f2s stencil
  do i = 1, n
    b(i) = t + g(i)
  end do
  print *, u
end subroutine
)";
  // t is read by the second region whatever its other problem: a real
  // problem of the first region, reported with the others.
  std::vector<std::string> got = problems_of(src);
  ASSERT_EQ(got.size(), 3u) << ::testing::PrintToString(got);
  EXPECT_THAT(got[0], HasSubstr(loc_of(src, "t = a(i)") + ": 't' is assigned in the '!$f2s "
                                                          "stencil' region and read after it"));
  EXPECT_THAT(got[1], HasSubstr(loc_of(src, "u = 2d0") + ": 'u' is assigned in the '!$f2s stencil' "
                                                         "region and read after it"));
  EXPECT_THAT(got[2], HasSubstr(loc_of(src, "g(i)") + ": 'g' is an unknown function"));
}

TEST(SeveralProblems, DirectivesThatAnnotateNothingAreEachReported) {
  std::string src = R"(subroutine s(n, a, b)
  integer :: n, i
  real(8) :: a(n), b(n)
  !$f2s stencil
  !$f2s stencil name(twice)
  b(1) = a(1)
  !$f2s stencil
  do i = 1, n
    b(i) = a(i) + x(i)
  end do
end subroutine
)";
  const std::string not_before_do = "A '!$f2s stencil' directive must be followed by a DO "
                                    "construct or an array assignment; put it on the line before "
                                    "the nest's first DO statement";
  std::vector<std::string> got = problems_of(src);
  ASSERT_EQ(got.size(), 3u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], at(src, "!$f2s stencil\n", not_before_do));
  EXPECT_EQ(got[1], at(src, "!$f2s stencil name", not_before_do));
  EXPECT_THAT(got[2], HasSubstr(loc_of(src, "x(i)") + ": 'x' is an unknown function"));
}

// A parse error stops before anything is lowered, but every file's is
// reported.
TEST(SeveralProblems, ParseErrorsOfEveryFileStopBeforeLowering) {
  std::string bad = "subroutine s(n)\n  integer :: n\n  n = n +\nend subroutine\n";
  std::vector<std::string> got =
      problems_of({{"one.f90", kFourProblems}, {"two.f90", bad}, {"three.f90", bad}});
  ASSERT_EQ(got.size(), 2u) << ::testing::PrintToString(got);
  EXPECT_THAT(got[0], HasSubstr("two.f90:3:"));
  EXPECT_THAT(got[1], HasSubstr("three.f90:3:"));
}

// ------------------------------------------------------------ the fixes

void expect_fix(const std::string &src, const std::string &where, const std::string &message) {
  std::vector<std::string> got = problems_of(src);
  ASSERT_EQ(got.size(), 1u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0], at(src, where, message));
}

std::string nest_2d(const std::string &loops, const std::string &decls = "") {
  return "subroutine s(n, m, a, b)\n"
         "  integer :: n, m, i, j\n"
         "  real(8) :: a(n, n), b(n, n)\n" +
         decls + "  !$f2s stencil\n" + loops + "end subroutine\n";
}

// Four loops, two of them repeating the nest: the kernel keeps three, and
// the store that leaves a kept loop's variable out says so.
TEST(SeveralProblems, AFourDeepNestWithRepeatLoopsNamesTheStore) {
  std::string src = nest_2d("  do it = 1, 5\n"
                            "  do l = 1, 2\n"
                            "  do j = 1, n\n"
                            "    do i = 1, n\n"
                            "      b(i, j) = a(i, j)\n"
                            "    end do\n"
                            "  end do\n"
                            "  end do\n"
                            "  end do\n",
                            "  integer :: it, l\n");
  expect_fix(src, "b(i, j) =",
             "Assignment to 'b(i, j)' has no subscript in loop variable 'l', so every point of the "
             "DO loop over 'l' writes the same element; the DO loop over 'l' only repeats what it "
             "holds, so annotate the nest inside it instead, or make it a time loop ('!$f2s "
             "stencil timesteps', docs/time-loops.md)");
}

TEST(SeveralProblems, ANegativeStepIsSwapped) {
  // -1 runs a sweep backwards; another negative step is the loop counting up.
  expect_fix(nest_2d("  do j = 1, n\n"
                     "    do i = n, 1, -2\n"
                     "      b(i, j) = a(i, j)\n"
                     "    end do\n"
                     "  end do\n"),
             "-2",
             "The step of the DO loop over 'i' must be a positive INTEGER constant or -1 in a "
             "'!$f2s stencil' region; swap its bounds and make the step positive if the points "
             "may run in any order");
}

// A temporary of the region is no constant to be: the refusal says why its
// value is unknown there instead.
TEST(SeveralProblems, ASubscriptWithATemporarySaysWhyItsValueIsUnknown) {
  // A local, assigned under an IF: no named constant can replace it.
  expect_fix(nest_2d("  do j = 1, n\n"
                     "    do i = 1, n\n"
                     "      if (j > 1) l = 2\n"
                     "      b(i, j) = a(i + l, j)\n"
                     "    end do\n"
                     "  end do\n",
                     "  integer :: l\n"),
             "i + l",
             "Subscript 'i + l' of 'a' is not an integer multiple of a loop variable plus a "
             "constant, as 'l' is assigned under an IF at line 8; assign it outside any IF, or "
             "write the access in each branch with its subscript in the loop variables");
}

TEST(SeveralProblems, StatementsWithARewriteSayIt) {
  auto body = [](const std::string &stmt) {
    return nest_2d("  do j = 1, n\n"
                   "    do i = 1, n\n" +
                   stmt +
                   "\n"
                   "    end do\n"
                   "  end do\n");
  };
  expect_fix(body("      select case (m)\n      case (1)\n        b(i, j) = 1d0\n      end select"),
             "select",
             "A SELECT CASE construct is not allowed inside a '!$f2s stencil' region; use an IF "
             "construct instead");
  expect_fix(body("      b(i, j) = sign(a=a(i, j), b=1d0)"), "sign",
             "Keyword and alternate arguments are not allowed inside a '!$f2s stencil' region; "
             "pass the arguments by position");
}

TEST(SeveralProblems, ADoConcurrentLoopIsWrittenAsDoLoops) {
  expect_fix(nest_2d("  do concurrent (j = 1:n, i = 1:n)\n"
                     "    b(i, j) = a(i, j)\n"
                     "  end do\n"),
             "do concurrent",
             "A DO CONCURRENT loop cannot be part of a '!$f2s stencil' region; write it as nested "
             "DO loops");
}

TEST(SeveralProblems, ARealLoopVariableIsDeclaredInteger) {
  expect_fix("subroutine s(n, a)\n"
             "  integer :: n\n"
             "  real :: x, a(n)\n"
             "  !$f2s stencil\n"
             "  do x = 1, n\n"
             "    a(x) = 0.0\n"
             "  end do\n"
             "end subroutine\n",
             "x = 1", "Loop variable 'x' must be an INTEGER scalar; declare it INTEGER");
}

} // namespace
} // namespace f2s
