// Modules from other files (issue 5): several files are read as one program,
// so a region may use a module that any of them defines, in any order; a
// module that none of them defines is refused at its USE when the region may
// need what it brings.
#include "FrontendTestUtil.h"

#include "ast/IRPrinter.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

const char *const kRegionFile = R"(subroutine s(n, u, v)
  use fields, only: wp, c => coef, w
  implicit none
  integer :: n, i
  real(wp) :: u(n), v(n)
  !$f2s stencil name(k)
  do i = 1, n
    v(i) = c*u(i) + w(i)
  end do
end subroutine
)";

// `fields` uses `kinds`, which a later file defines, and brings `wp` along.
const char *const kFieldsFile = R"(module fields
  use kinds
  implicit none
  real(wp) :: coef
  real(wp), allocatable :: w(:)
end module
)";

const char *const kKindsFile = R"(module kinds
  integer, parameter :: wp = kind(1d0)
end module
)";

TEST(FrontendModules, AModuleOfAnyOtherFileInAnyOrder) {
  TempDir dir;
  std::string region = dir.write("region.f90", kRegionFile),
              fields = dir.write("fields.f90", kFieldsFile),
              kinds = dir.write("kinds.f90", kKindsFile);
  for (const auto &order : std::vector<std::vector<std::string>>{
           {region, fields, kinds}, {kinds, region, fields}, {fields, kinds, region}}) {
    std::vector<Kernel> ks = lower_files(order);
    ASSERT_EQ(ks.size(), 1u);
    std::string ir = print_kernel(ks[0]);
    EXPECT_EQ(ir.substr(0, ir.find('\n')),
              "kernel k(n: i32, u: f64(1:n), v: f64(1:n), c: f64, w: f64(w_lb1:w_ub1), w_lb1: "
              "i32, w_ub1: i32)");
    // The module variable's position is in its own file, by the user's path.
    const Variable *c = ks[0].find_arg("c");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->loc.file, fields);
    EXPECT_EQ(line_col(c->loc), loc_of(kFieldsFile, "coef"));
  }
}

/// The error of lowering `files`; fails the test when there is none.
Diagnostic files_error(const std::vector<std::string> &files) {
  try {
    lower_files(files);
  } catch (const UserError &e) {
    return e.diagnostic();
  }
  ADD_FAILURE() << "lowering succeeded, but an error was expected";
  return {};
}

TEST(FrontendModules, AModuleInNoFileIsRefusedAtItsUse) {
  TempDir dir;
  std::string region = dir.write("region.f90", kRegionFile),
              fields = dir.write("fields.f90", kFieldsFile);
  // `kinds` is missing: `wp`, which `fields` would pass on, is unknown.
  Diagnostic d = files_error({region, fields});
  EXPECT_EQ(d.message, "Module 'kinds' is defined in none of the files given, so the type of "
                       "'v' may be unknown; pass the file that defines 'kinds' to f2stencil too");
  EXPECT_EQ(d.loc.file, fields);
  EXPECT_EQ(line_col(d.loc), loc_of(kFieldsFile, "kinds"));

  // Under implicit typing a name the region uses could come from the module.
  std::string src = R"(subroutine s(n, u, v)
  use physics
  real(8) :: u(n), v(n)
  !$f2s stencil
  do i = 1, n
    v(i) = dt*u(i)
  end do
end subroutine
)";
  d = error_of(dir, src);
  EXPECT_EQ(d.message, "Module 'physics' is defined in none of the files given, so the '!$f2s "
                       "stencil' region cannot know 'dt' (line 6, column 12); pass the file "
                       "that defines 'physics' to f2stencil too");
  EXPECT_EQ(line_col(d.loc), loc_of(src, "physics"));
}

TEST(FrontendModules, AnUnknownModuleTheRegionDoesNotNeedIsAccepted) {
  TempDir dir;
  // ONLY names what it brings; OpenMP's module brings nothing a stencil uses.
  std::string src = R"(subroutine s(n, u, v)
  use mpi_stuff, only: comm_world
  use omp_lib
  real(8) :: u(n), v(n)
  !$f2s stencil
  do i = 1, n
    v(i) = 2*u(i)
  end do
end subroutine
)";
  EXPECT_EQ(lower_text(dir, src).size(), 1u);
}

TEST(FrontendModules, AFileMayHoldModulesAloneButOneRegionIsNeeded) {
  TempDir dir;
  std::string fields = dir.write("fields.f90", kFieldsFile),
              kinds = dir.write("kinds.f90", kKindsFile);
  Diagnostic d = files_error({fields, kinds});
  EXPECT_EQ(d.message, "No '!$f2s stencil' region in any of the 2 files");
  EXPECT_EQ(d.loc.file, fields);
}

} // namespace
} // namespace f2s::test
