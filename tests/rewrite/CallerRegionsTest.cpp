// Data regions of callers (rewrite/CallSummaries.h, rewrite/DataRegions.h): a
// unit that calls, in a loop, procedures holding library calls keeps the
// arrays those calls pass on the device around the loop; the whole rewritten
// text of each file is compared.
#include "frontend/FrontendTestUtil.h"

#include "rewrite/CallSummaries.h"
#include "rewrite/Rewrite.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

/// Every file of `files` (name, text) rewritten with the data regions, the
/// procedures of all of them seen together (as the driver does), by name;
/// settle_self_updates's warnings in `settled`.
std::map<std::string, RewrittenSource>
rewrite_all(const TempDir &dir, const std::vector<std::pair<std::string, std::string>> &files,
            std::vector<std::string> *settled = nullptr) {
  std::vector<std::string> paths;
  for (const auto &[name, text] : files)
    paths.push_back(dir.write(name, text));
  FrontendOptions options;
  options.outline_host_units = true;
  LoweredFiles lowered = lower_files_collecting(paths, options);
  EXPECT_TRUE(lowered.problems.empty());
  std::map<std::string, std::vector<RegionCall>> calls;
  for (const Kernel &k : lowered.kernels)
    if (k.time_loop.empty())
      calls[k.source.file].push_back(region_call(k));
  std::map<std::string, std::vector<const RegionCall *>> by_file;
  for (const auto &[f, file_calls] : calls)
    for (const RegionCall &c : file_calls)
      by_file[f].push_back(&c);
  CallSummaries summaries(lowered.host_units, by_file, "f2s_lib");
  std::map<std::string, std::string> texts;
  for (size_t i = 0; i < files.size(); ++i)
    texts[paths[i]] = files[i].second;
  std::vector<std::string> warnings = settle_self_updates(summaries, texts, "f2s_lib");
  if (settled)
    *settled = warnings;
  std::map<std::string, RewrittenSource> out;
  for (size_t i = 0; i < files.size(); ++i)
    out[files[i].first] = rewrite_source(files[i].second, paths[i], calls[paths[i]], "f2s_lib",
                                         &lowered.host_units.at(paths[i]), &summaries);
  return out;
}

const char *const kModules = R"(module state
  implicit none
  integer :: n
  real(8), allocatable :: u(:), v(:), w(:)
end module state

module kernels
  use state
  implicit none
contains
  subroutine smooth
    integer :: i
    !$f2s stencil name(smooth)
    do i = 1, n
      v(i) = 0.5d0*(u(i-1) + u(i+1))
    end do
  end subroutine smooth

  subroutine back(a)
    real(8), intent(in) :: a
    integer :: i
    !$f2s stencil name(back)
    do i = 1, n
      u(i) = a*v(i)
    end do
  end subroutine back

  subroutine halo(f)
    real(8), intent(inout) :: f(0:)
    f(0) = f(n)
    f(n+1) = f(1)
  end subroutine halo
end module kernels
)";

TEST(CallerRegions, AMainProgramKeepsTheModuleArraysOfItsCalleesOnTheDevice) {
  // The main program calls, in its time loop, two module procedures that
  // hold library calls over module arrays (no update around them: their
  // calls find the arrays present) and a host routine of the module between
  // them, which gets updates of the one array it receives. `w`, which no
  // library call passes, is not entered; the write of the result reads `u`
  // after the region, which comes back; `v`, which nothing reads after it,
  // is freed.
  TempDir dir;
  auto r = rewrite_all(dir, {{"kernels.f90", kModules}, {"main.f90", R"(program main
  use state
  use kernels
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), v(0:n+1), w(n))
  u = 1
  v = 0
  w = 2
  do it = 1, 5
    call smooth
    call halo(v)
    call back(0.5d0)
    w(1) = w(1) + 1
  end do
  print *, u(3), w(1)
end program main
)"}});
  EXPECT_TRUE(r["main.f90"].warnings.empty());
  EXPECT_EQ(r["main.f90"].text, R"(program main
  use state
  use kernels
  use f2s_lib, only: f2s_lib_data_enter, f2s_lib_data_update_host, f2s_lib_data_update_device, f2s_lib_data_exit, &
      f2s_lib_data_delete
  use, intrinsic :: iso_c_binding, only: c_size_t
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), v(0:n+1), w(n))
  u = 1
  v = 0
  w = 2
  call f2s_lib_data_enter(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_enter(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  do it = 1, 5
    call smooth
    call f2s_lib_data_update_host(v, size(v, kind=c_size_t) * storage_size(v) / 8)
    call halo(v)
    call f2s_lib_data_update_device(v, size(v, kind=c_size_t) * storage_size(v) / 8)
    call back(0.5d0)
    w(1) = w(1) + 1
  end do
  call f2s_lib_data_exit(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_delete(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  print *, u(3), w(1)
end program main
)");
  // The callees hold one call each, in no loop: no region of their own.
  EXPECT_EQ(r["kernels.f90"].text.find("_data_"), std::string::npos) << r["kernels.f90"].text;
}

TEST(CallerRegions, AProcedureWhoseHostCodeTouchesTheArraysLeavesTheCallerWithoutARegion) {
  // `step` runs a library call on u and then reads u on the host: inside a
  // caller's region its host code would read what the call left on the
  // device, which no update around `call step` can order. One warning.
  TempDir dir;
  auto r = rewrite_all(dir, {{"step.f90", R"(module m
  implicit none
  real(8) :: u(0:11), v(0:11), s
contains
  subroutine step
    integer :: i
    !$f2s stencil name(smooth)
    do i = 1, 10
      v(i) = 0.5d0*(u(i-1) + u(i+1))
    end do
    s = v(5)
  end subroutine step
end module m

program main
  use m
  implicit none
  integer :: it
  u = 1
  do it = 1, 3
    call step
  end do
  print *, s
end program main
)"}});
  ASSERT_EQ(r["step.f90"].warnings.size(), 1u);
  EXPECT_NE(r["step.f90"].warnings[0].find(
                "step.f90:21:1: warning: no data region in 'main': 'step', called at line 21, "
                "runs library calls and host code ("),
            std::string::npos)
      << r["step.f90"].warnings[0];
  EXPECT_NE(r["step.f90"].warnings[0].find(
                "step.f90:11) on 'v', which updates around the CALL cannot order; the library "
                "calls of the procedures it calls copy their arrays to the device and back each "
                "time"),
            std::string::npos)
      << r["step.f90"].warnings[0];
  EXPECT_EQ(r["step.f90"].text.find("_data_"), std::string::npos) << r["step.f90"].text;
}

TEST(CallerRegions, FixedFormCommonAndArraysPassedDownAsArguments) {
  // F77: the main program passes its arrays down to `cycle`, which passes
  // them (an element, sequence association) to the procedure with the
  // library call; a COMMON array is used by the kernel's procedure and seen
  // in the main program under the same name. `bc` is a host routine: its
  // update is of the one array it receives; `cycle` runs no host code on
  // them, so its CALL needs none. No call writes u, so it is not brought
  // to the host before `bc` (only sent after it), and only deleted at the
  // end.
  TempDir dir;
  auto r = rewrite_all(dir, {{"mg.f", R"(      program mg
      implicit none
      integer n, it
      parameter (n = 16)
      double precision u(n+2), r(n+2), c(n+2)
      common /coef/ c
      integer i
      do 5 i = 1, n + 2
         u(i) = 0.1d0*i
         r(i) = 0.0d0
         c(i) = 1.0d0
    5 continue
      do 20 it = 1, 4
         call cycle(u, r, n)
         call bc(u, n)
   20 continue
      print *, u(3), r(4)
      end

      subroutine cycle(u, r, n)
      implicit none
      integer n
      double precision u(*), r(*)
      call sweep(u(1), r(1), n)
      end

      subroutine sweep(u, r, n)
      implicit none
      integer n, i
      double precision u(n+2), r(n+2), c(18)
      common /coef/ c
c$f2s stencil name(sweep)
      do 10 i = 2, n + 1
         r(i) = c(i)*(u(i-1) + u(i+1))
   10 continue
      end

      subroutine bc(u, n)
      implicit none
      integer n
      double precision u(n+2)
      u(1) = u(n+1)
      u(n+2) = u(2)
      end
)"}});
  EXPECT_TRUE(r["mg.f"].warnings.empty()) << r["mg.f"].warnings[0];
  const std::string &text = r["mg.f"].text;
  EXPECT_NE(text.find(R"(      program mg
      use f2s_lib, only: f2s_lib_data_enter, f2s_lib_data_update_device,
     &    f2s_lib_data_exit, f2s_lib_data_delete
      use, intrinsic :: iso_c_binding, only: c_size_t
      implicit none
      integer n, it
      parameter (n = 16)
      double precision u(n+2), r(n+2), c(n+2)
      common /coef/ c
      integer i
      do 5 i = 1, n + 2
         u(i) = 0.1d0*i
         r(i) = 0.0d0
         c(i) = 1.0d0
    5 continue
      call f2s_lib_data_enter(u, size(u,
     &    kind=c_size_t) * storage_size(u) / 8)
      call f2s_lib_data_enter(r, size(r,
     &    kind=c_size_t) * storage_size(r) / 8)
      call f2s_lib_data_enter(c, size(c,
     &    kind=c_size_t) * storage_size(c) / 8)
      do 20 it = 1, 4
         call cycle(u, r, n)
         call bc(u, n)
         call f2s_lib_data_update_device(u, size(u,
     &       kind=c_size_t) * storage_size(u) / 8)
   20 continue
      call f2s_lib_data_delete(u, size(u,
     &    kind=c_size_t) * storage_size(u) / 8)
      call f2s_lib_data_exit(r, size(r,
     &    kind=c_size_t) * storage_size(r) / 8)
      call f2s_lib_data_delete(c, size(c,
     &    kind=c_size_t) * storage_size(c) / 8)
      print *, u(3), r(4)
)"),
            std::string::npos)
      << text;
}

TEST(CallerRegions, AProcedureCallingAHostRoutineBetweenKernelsBringsItsArraysItself) {
  // `vcycle` holds no nest; the procedures it calls do, and between them it
  // calls the host routine `bc` on a level of the work array (sequence
  // association, an assumed-size dummy whose size it cannot know). It
  // brings what `bc` receives, from the element passed to the end of the
  // present array, to the host and back, if present (nothing when no
  // region holds it); so its caller's region holds w across `call vcycle`,
  // with no update around it.
  TempDir dir;
  auto r = rewrite_all(dir, {{"v.f", R"(      program v
      implicit none
      integer n, it
      parameter (n = 8)
      double precision w(2*n+4)
      w = 1
      do 20 it = 1, 3
         call vcycle(w, n)
   20 continue
      print *, w(3)
      end

      subroutine vcycle(w, n)
      implicit none
      integer n
      double precision w(*)
      call sweep(w(1), w(n+3), n)
      call bc(w(n+3), n)
      call sweep(w(n+3), w(1), n)
      end

      subroutine sweep(u, r, n)
      implicit none
      integer n, i
      double precision u(n+2), r(n+2)
c$f2s stencil name(sweep)
      do 10 i = 2, n + 1
         r(i) = 0.5d0*(u(i-1) + u(i+1))
   10 continue
      end

      subroutine bc(u, n)
      implicit none
      integer n
      double precision u(n+2)
      u(1) = u(n+1)
      u(n+2) = u(2)
      end
)"}});
  EXPECT_TRUE(r["v.f"].warnings.empty()) << r["v.f"].warnings[0];
  EXPECT_EQ(r["v.f"].text.substr(0, r["v.f"].text.find("      subroutine sweep")),
            R"(      program v
      use f2s_lib, only: f2s_lib_data_enter, f2s_lib_data_exit
      use, intrinsic :: iso_c_binding, only: c_size_t
      implicit none
      integer n, it
      parameter (n = 8)
      double precision w(2*n+4)
      w = 1
      call f2s_lib_data_enter(w, size(w,
     &    kind=c_size_t) * storage_size(w) / 8)
      do 20 it = 1, 3
         call vcycle(w, n)
   20 continue
      call f2s_lib_data_exit(w, size(w,
     &    kind=c_size_t) * storage_size(w) / 8)
      print *, w(3)
      end

      subroutine vcycle(w, n)
      use f2s_lib, only: f2s_lib_data_update_host_if_present,
     &    f2s_lib_data_update_device_if_present
      use, intrinsic :: iso_c_binding, only: c_size_t
      implicit none
      integer n
      double precision w(*)
      call sweep(w(1), w(n+3), n)
      call f2s_lib_data_update_host_if_present(w(n+3))
      call bc(w(n+3), n)
      call f2s_lib_data_update_device_if_present(w(n+3))
      call sweep(w(n+3), w(1), n)
      end

)");
}

TEST(CallerRegions, AnInternalProcedureSeesItsHostsArraysWhichItsCallerDoesNotEnter) {
  // `step` runs its nest on its host's arrays (host association, which the
  // summaries do not map back to the host's names): nothing is entered,
  // and the calls copy their arrays as before. No warning: nothing unsafe
  // was asked for.
  TempDir dir;
  auto r = rewrite_all(dir, {{"internal.f90", R"(program main
  implicit none
  real(8) :: u(0:11), v(0:11)
  integer :: it
  u = 1
  do it = 1, 3
    call step
  end do
  print *, v(5)
contains
  subroutine step
    integer :: i
    !$f2s stencil name(smooth)
    do i = 1, 10
      v(i) = 0.5d0*(u(i-1) + u(i+1))
    end do
  end subroutine step
end program main
)"}});
  EXPECT_TRUE(r["internal.f90"].warnings.empty());
  EXPECT_EQ(r["internal.f90"].text.find("_data_"), std::string::npos) << r["internal.f90"].text;
}

TEST(CallerRegions, AProcedureWhoseUpdatesCannotBeWrittenLeavesItsCallerWithoutARegion) {
  // The CALL of the host routine shares its line with the DO: no update
  // can go between them, so `vcycle` brings nothing itself (said once),
  // and its caller, which would have counted on it, gets no region.
  TempDir dir;
  std::vector<std::string> settled;
  auto r = rewrite_all(dir, {{"v.f90", R"(program v
  implicit none
  real(8) :: w(20)
  integer :: it
  w = 1
  do it = 1, 3
    call vcycle(w, 8)
  end do
  print *, w(3)
end program v

subroutine vcycle(w, n)
  implicit none
  integer :: n, k
  real(8) :: w(*)
  call sweep(w(1), w(n+3), n)
  do k = 1, 1; call bc(w(n+3), n); end do
  call sweep(w(n+3), w(1), n)
end subroutine vcycle

subroutine sweep(u, r, n)
  implicit none
  integer :: n, i
  real(8) :: u(n+2), r(n+2)
  !$f2s stencil name(sweep)
  do i = 2, n + 1
    r(i) = 0.5d0*(u(i-1) + u(i+1))
  end do
end subroutine sweep

subroutine bc(u, n)
  implicit none
  integer :: n
  real(8) :: u(n+2)
  u(1) = u(n+1)
end subroutine bc
)"}},
                       &settled);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_NE(settled[0].find("v.f90:12:1: warning: 'vcycle' does not bring its arrays to the host "
                            "and back itself, so its callers hold none of them around its CALL: "),
            std::string::npos)
      << settled[0];
  EXPECT_NE(settled[0].find("v.f90:17: line 17 holds two statements"), std::string::npos)
      << settled[0];
  ASSERT_EQ(r["v.f90"].warnings.size(), 1u);
  EXPECT_NE(r["v.f90"].warnings[0].find("no data region in 'v': 'vcycle', called at line 7, runs "
                                        "library calls and host code"),
            std::string::npos)
      << r["v.f90"].warnings[0];
  EXPECT_EQ(r["v.f90"].text.find("_data_"), std::string::npos) << r["v.f90"].text;
}

TEST(CallerRegions, ACalleeInAnotherFileGivenOnTheSameCommandLine) {
  // The procedure with the library call is in one file, its caller's loop
  // in another: the caller's file, which has no region of its own, gets
  // the region and the USE of the data procedures. Only `a` is read after
  // it.
  TempDir dir;
  auto r = rewrite_all(dir, {{"main.f90", R"(program main
  implicit none
  real(8) :: a(0:41), b(0:41)
  integer :: it
  a = 1
  b = 0
  do it = 1, 10
    call relax(40, a, b)
    call relax(40, b, a)
  end do
  print *, a(5)
end program main
)"},
                             {"relax.f90", R"(subroutine relax(n, x, y)
  implicit none
  integer, intent(in) :: n
  real(8), intent(in) :: x(0:n+1)
  real(8), intent(inout) :: y(0:n+1)
  integer :: i
  !$f2s stencil name(relax)
  do i = 1, n
    y(i) = 0.5d0*(x(i-1) + x(i+1))
  end do
end subroutine relax
)"}});
  EXPECT_TRUE(r["main.f90"].warnings.empty());
  EXPECT_EQ(r["main.f90"].text, R"(program main
  use f2s_lib, only: f2s_lib_data_enter, f2s_lib_data_exit, f2s_lib_data_delete
  use, intrinsic :: iso_c_binding, only: c_size_t
  implicit none
  real(8) :: a(0:41), b(0:41)
  integer :: it
  a = 1
  b = 0
  call f2s_lib_data_enter(a, size(a, kind=c_size_t) * storage_size(a) / 8)
  call f2s_lib_data_enter(b, size(b, kind=c_size_t) * storage_size(b) / 8)
  do it = 1, 10
    call relax(40, a, b)
    call relax(40, b, a)
  end do
  call f2s_lib_data_exit(a, size(a, kind=c_size_t) * storage_size(a) / 8)
  call f2s_lib_data_delete(b, size(b, kind=c_size_t) * storage_size(b) / 8)
  print *, a(5)
end program main
)");
}

TEST(CallerRegions, ACalleeNoFileDefinesIsAHostCallThatMayTouchEverything) {
  // `report` is defined nowhere given: it may read and define the array it
  // receives and any module array, so the entered module arrays come to
  // the host before it and go back after it. Nothing reads them after the
  // loop, at the main program's end: its exit frees them.
  TempDir dir;
  auto r = rewrite_all(dir, {{"kernels.f90", kModules}, {"main.f90", R"(program main
  use state
  use kernels
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), v(0:n+1), w(n))
  u = 1
  v = 0
  do it = 1, 5
    call smooth
    call report(w)
    call back(0.5d0)
  end do
end program main
)"}});
  EXPECT_EQ(r["main.f90"].text, R"(program main
  use state
  use kernels
  use f2s_lib, only: f2s_lib_data_enter, f2s_lib_data_update_host, f2s_lib_data_update_device, f2s_lib_data_delete
  use, intrinsic :: iso_c_binding, only: c_size_t
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), v(0:n+1), w(n))
  u = 1
  v = 0
  call f2s_lib_data_enter(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_enter(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  do it = 1, 5
    call smooth
    call f2s_lib_data_update_host(u, size(u, kind=c_size_t) * storage_size(u) / 8)
    call f2s_lib_data_update_host(v, size(v, kind=c_size_t) * storage_size(v) / 8)
    call report(w)
    call f2s_lib_data_update_device(u, size(u, kind=c_size_t) * storage_size(u) / 8)
    call f2s_lib_data_update_device(v, size(v, kind=c_size_t) * storage_size(v) / 8)
    call back(0.5d0)
  end do
  call f2s_lib_data_delete(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_delete(v, size(v, kind=c_size_t) * storage_size(v) / 8)
end program main
)");
}

TEST(CallerRegions, SetUpAndFinalCallsOutsideTheLoopJoinTheRegion) {
  // A program's set-up call before its iteration loop and its final call
  // after it hold library calls too: the region spans them all, so they run
  // on the device without copies of their own; the host statement between
  // (`w = 2`) touches no entered array. After the region only `v` is read:
  // it comes back, `u` is freed.
  TempDir dir;
  auto r = rewrite_all(dir, {{"kernels.f90", kModules}, {"main.f90", R"(program main
  use state
  use kernels
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), v(0:n+1), w(n))
  call back(1d0)
  w = 2
  do it = 1, 5
    call smooth
    call back(0.5d0)
  end do
  call smooth
  print *, v(3), w(1)
end program main
)"}});
  EXPECT_TRUE(r["main.f90"].warnings.empty());
  EXPECT_EQ(r["main.f90"].text, R"(program main
  use state
  use kernels
  use f2s_lib, only: f2s_lib_data_enter, f2s_lib_data_exit, f2s_lib_data_delete
  use, intrinsic :: iso_c_binding, only: c_size_t
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), v(0:n+1), w(n))
  call f2s_lib_data_enter(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_enter(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  call back(1d0)
  w = 2
  do it = 1, 5
    call smooth
    call back(0.5d0)
  end do
  call smooth
  call f2s_lib_data_delete(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_exit(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  print *, v(3), w(1)
end program main
)");
}

TEST(CallerRegions, AnAllocateBetweenTheCallsKeepsTheRegionAroundTheLoop) {
  // `v` is allocated after the set-up call, so no region can span both:
  // the region is the loop's, and the set-up call copies its arrays itself.
  TempDir dir;
  auto r = rewrite_all(dir, {{"kernels.f90", kModules}, {"main.f90", R"(program main
  use state
  use kernels
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), w(n))
  u = 1
  call smooth_w
  allocate(v(0:n+1))
  do it = 1, 5
    call smooth
    call back(0.5d0)
  end do
  print *, u(3)
contains
  subroutine smooth_w
    call smooth
  end subroutine smooth_w
end program main
)"}});
  EXPECT_EQ(r["main.f90"].text, R"(program main
  use state
  use kernels
  use f2s_lib, only: f2s_lib_data_enter, f2s_lib_data_exit, f2s_lib_data_delete
  use, intrinsic :: iso_c_binding, only: c_size_t
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), w(n))
  u = 1
  call smooth_w
  allocate(v(0:n+1))
  call f2s_lib_data_enter(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_enter(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  do it = 1, 5
    call smooth
    call back(0.5d0)
  end do
  call f2s_lib_data_exit(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_delete(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  print *, u(3)
contains
  subroutine smooth_w
    call smooth
  end subroutine smooth_w
end program main
)");
}

TEST(CallerRegions, WhatTheCodeAfterTheRegionMayReadComesBack) {
  // After the loop, a procedure no file defines receives `w`, and may read
  // any module array: every written array comes back. And a GO TO after
  // the region may go back before it: everything comes back too.
  TempDir dir;
  for (const char *after : {"  call report(w)\n", "10 continue\n  if (n < 0) go to 10\n"}) {
    auto r = rewrite_all(dir, {{"kernels.f90", kModules}, {"main.f90", std::string(R"(program main
  use state
  use kernels
  implicit none
  integer :: it
  n = 20
  allocate(u(0:n+1), v(0:n+1), w(n))
  u = 1
  do it = 1, 5
    call smooth
    call back(0.5d0)
  end do
)") + after + "end program main\n"}});
    const std::string &text = r["main.f90"].text;
    EXPECT_NE(text.find("call f2s_lib_data_exit(u"), std::string::npos) << after << text;
    EXPECT_NE(text.find("call f2s_lib_data_exit(v"), std::string::npos) << after << text;
    EXPECT_EQ(text.find("call f2s_lib_data_delete"), std::string::npos) << after << text;
  }
}

TEST(CallerRegions, ASubroutinesRegionCopiesBackWhatItsCallerMaySee) {
  // Outside the main program the caller may read the module arrays after
  // the call: they come back whatever the subroutine reads after its loop.
  TempDir dir;
  auto r = rewrite_all(dir, {{"kernels.f90", kModules}, {"drive.f90", R"(subroutine drive(steps)
  use state
  use kernels
  implicit none
  integer, intent(in) :: steps
  integer :: it
  do it = 1, steps
    call smooth
    call back(0.5d0)
  end do
end subroutine drive
)"}});
  const std::string &text = r["drive.f90"].text;
  EXPECT_NE(text.find("call f2s_lib_data_exit(u"), std::string::npos) << text;
  EXPECT_NE(text.find("call f2s_lib_data_exit(v"), std::string::npos) << text;
}

} // namespace
} // namespace f2s::test
