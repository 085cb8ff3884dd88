// --rewrite's data regions (rewrite/DataRegions.h): each file is lowered and
// outlined by the front end, then rewritten with its data regions; the whole
// rewritten text is compared.
#include "frontend/FrontendTestUtil.h"

#include "rewrite/Rewrite.h"

#include <gtest/gtest.h>

namespace f2s::test {
namespace {

/// `text` rewritten with the data regions, or without them (`regions`
/// false: --no-data-regions, or a library without a GPU target).
RewrittenSource with_regions(const TempDir &dir, const std::string &file, const std::string &text,
                             bool regions = true, bool implicit_copies = false) {
  std::string path = dir.write(file, text);
  FrontendOptions options;
  options.outline_host_units = true;
  options.implicit_copies = implicit_copies;
  LoweredFiles lowered = lower_files_collecting({path}, options);
  EXPECT_TRUE(lowered.problems.empty());
  std::vector<RegionCall> calls;
  for (const Kernel &k : lowered.kernels)
    if (k.time_loop.empty())
      calls.push_back(region_call(k));
  for (const TimeLoop &t : lowered.time_loops)
    calls.push_back(region_call(t.signature));
  return rewrite_source(text, path, calls, "f2s_lib",
                        regions ? &lowered.host_units.at(path) : nullptr);
}

const char *const kTimeLoop = R"(subroutine run(n, nt, u, v, w, total)
  implicit none
  integer, intent(in) :: n, nt
  real(8), intent(inout) :: u(0:n+1), v(0:n+1), w(n)
  real(8), intent(out) :: total
  integer :: i, it
  total = 0
  do it = 1, nt
    !$f2s stencil name(smooth)
    do i = 1, n
      v(i) = 0.5d0*(u(i-1) + u(i+1))
    end do
    total = total + v(1)
    do i = 0, 1
      u(i*(n+1)) = v(n-i)
    end do
    call helper(n, w)
    call check(n, v)
    if (total > 1d10) exit
    if (it == 1000) return
    !$f2s stencil name(copy)
    do i = 1, n
      u(i) = v(i)
    end do
  end do
  total = total + u(1)
end subroutine
)";

TEST(DataRegions, ATimeLoopKeepsItsArraysOnTheDeviceWithUpdatesAroundHostCode) {
  // Between the calls: a read of v (update host before), a host loop that
  // writes u (update host before, once around the loop), a CALL of another
  // procedure with a local array that is not entered (nothing), one with v
  // (it may read and write it; v is on the host already), then the updates
  // to the device of the run, before the EXIT and the RETURN out of the
  // region (exits first).
  TempDir dir;
  RewrittenSource r = with_regions(dir, "tl.f90", kTimeLoop);
  EXPECT_EQ(r.text, R"(subroutine run(n, nt, u, v, w, total)
  use f2s_lib, only: smooth, copy, f2s_lib_data_enter, f2s_lib_data_update_host, f2s_lib_data_update_device, f2s_lib_data_exit
  use, intrinsic :: iso_c_binding, only: c_size_t
  implicit none
  integer, intent(in) :: n, nt
  real(8), intent(inout) :: u(0:n+1), v(0:n+1), w(n)
  real(8), intent(out) :: total
  integer :: i, it
  total = 0
  call f2s_lib_data_enter(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_enter(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  do it = 1, nt
    !f2s rewritten: stencil name(smooth)
    call smooth(n, u, v)
    call f2s_lib_data_update_host(v, size(v, kind=c_size_t) * storage_size(v) / 8)
    total = total + v(1)
    call f2s_lib_data_update_host(u, size(u, kind=c_size_t) * storage_size(u) / 8)
    do i = 0, 1
      u(i*(n+1)) = v(n-i)
    end do
    call helper(n, w)
    call check(n, v)
    call f2s_lib_data_update_device(u, size(u, kind=c_size_t) * storage_size(u) / 8)
    call f2s_lib_data_update_device(v, size(v, kind=c_size_t) * storage_size(v) / 8)
    if (total > 1d10) then
      call f2s_lib_data_exit(u, size(u, kind=c_size_t) * storage_size(u) / 8)
      call f2s_lib_data_exit(v, size(v, kind=c_size_t) * storage_size(v) / 8)
      exit
    end if
    if (it == 1000) then
      call f2s_lib_data_exit(u, size(u, kind=c_size_t) * storage_size(u) / 8)
      call f2s_lib_data_exit(v, size(v, kind=c_size_t) * storage_size(v) / 8)
      return
    end if
    !f2s rewritten: stencil name(copy)
    call copy(n, u, v)
  end do
  call f2s_lib_data_exit(u, size(u, kind=c_size_t) * storage_size(u) / 8)
  call f2s_lib_data_exit(v, size(v, kind=c_size_t) * storage_size(v) / 8)
  total = total + u(1)
end subroutine
)");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(DataRegions, NoDataRegionsKeepsTheRewriteAsItWas) {
  TempDir dir;
  RewrittenSource r = with_regions(dir, "tl.f90", kTimeLoop, false);
  EXPECT_EQ(r.text.find("_data_"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("c_size_t"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("  use f2s_lib, only: smooth, copy\n"), std::string::npos) << r.text;
}

TEST(DataRegions, FixedFormLabelDoLoopsElementArgumentsAndGoTo) {
  // F77: the time loop is DO 10 ... 10 CONTINUE, the nests end on labels,
  // `call resid(u(ir(k)), r(ir(k)), n)` passes elements that start
  // sub-arrays (the whole of u and r are updated around it), and a logical
  // IF's GO TO out of the loop exits first.
  TempDir dir;
  RewrittenSource r = with_regions(dir, "mg.f", R"(      subroutine cycle(n, nit, u, r, ir, k, rnm)
      integer n, nit, ir(4), k, it, i
      double precision u(n), r(n), rnm
      common /work/ wk(100)
      double precision wk
      rnm = 0d0
      do 10 it = 1, nit
!$f2s stencil name(relax)
         do 20 i = 2, n - 1
            r(i) = u(i) - 0.5d0*(u(i-1) + u(i+1))
   20    continue
         call resid(u(ir(k)), r(ir(k)), n)
         if (r(2) .gt. 1d5) goto 99
         rnm = max(rnm, abs(r(2)))
!$f2s stencil name(upd)
         do 30 i = 2, n - 1
            u(i) = u(i) + r(i)
   30    continue
   10 continue
   99 continue
      end
)");
  EXPECT_EQ(r.text, R"(      subroutine cycle(n, nit, u, r, ir, k, rnm)
      use f2s_lib, only: relax, upd, f2s_lib_data_enter,
     &    f2s_lib_data_update_host, f2s_lib_data_update_device,
     &    f2s_lib_data_exit
      use, intrinsic :: iso_c_binding, only: c_size_t
      integer n, nit, ir(4), k, it, i
      double precision u(n), r(n), rnm
      common /work/ wk(100)
      double precision wk
      rnm = 0d0
      call f2s_lib_data_enter(u, size(u,
     &    kind=c_size_t) * storage_size(u) / 8)
      call f2s_lib_data_enter(r, size(r,
     &    kind=c_size_t) * storage_size(r) / 8)
      do 10 it = 1, nit
!f2s rewritten: stencil name(relax)
         call relax(n, u, r)
         call f2s_lib_data_update_host(u, size(u,
     &       kind=c_size_t) * storage_size(u) / 8)
         call f2s_lib_data_update_host(r, size(r,
     &       kind=c_size_t) * storage_size(r) / 8)
         call resid(u(ir(k)), r(ir(k)), n)
         call f2s_lib_data_update_device(u, size(u,
     &       kind=c_size_t) * storage_size(u) / 8)
         call f2s_lib_data_update_device(r, size(r,
     &       kind=c_size_t) * storage_size(r) / 8)
         if (r(2) .gt. 1d5) then
           call f2s_lib_data_exit(u, size(u,
     &         kind=c_size_t) * storage_size(u) / 8)
           call f2s_lib_data_exit(r, size(r,
     &         kind=c_size_t) * storage_size(r) / 8)
           goto 99
         end if
         rnm = max(rnm, abs(r(2)))
!f2s rewritten: stencil name(upd)
         call upd(n, u, r)
   10 continue
      call f2s_lib_data_exit(u, size(u,
     &    kind=c_size_t) * storage_size(u) / 8)
      call f2s_lib_data_exit(r, size(r,
     &    kind=c_size_t) * storage_size(r) / 8)
   99 continue
      end
)");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(DataRegions, ModuleArraysAnInternalProcedureAndAnAllocateBeforeTheLoop) {
  // The calls pass ALLOCATABLE arrays of a module; a (read only by the
  // calls) is never brought back to the host, inside or at the end (delete,
  // not exit: the host's copy is current); the internal procedure
  // `boundary`, whose body the summaries see, reads and defines a only, so
  // nothing comes to the host before it (no call writes a), b comes before
  // the statement that reads it, and a goes to the device after the run of
  // host statements, at the loop's end; the ALLOCATE comes before the
  // region, which starts at the loop; after it only `a` is read, and b is
  // freed without coming back.
  TempDir dir;
  RewrittenSource r = with_regions(dir, "mod.f90", R"(module fields
  implicit none
  real(8), allocatable :: a(:,:), b(:,:)
  integer :: n
end module fields

program main
  use fields
  implicit none
  integer :: i, j, it
  n = 20
  allocate(a(0:n+1,0:n+1), b(0:n+1,0:n+1))
  a = 1
  b = 0
  do it = 1, 5
    !$f2s stencil name(jac)
    do j = 1, n
      do i = 1, n
        b(i,j) = 0.25d0*(a(i-1,j) + a(i+1,j) + a(i,j-1) + a(i,j+1))
      end do
    end do
    call boundary()
    a(1:n,1:n) = b(1:n,1:n)
    select case (it)
    case (3)
      print *, 'it 3', sum(b)
    end select
  end do
  print *, sum(a)
contains
  subroutine boundary()
    a(0,:) = a(n,:)
  end subroutine
end program
)");
  EXPECT_EQ(r.text, R"(module fields
  implicit none
  real(8), allocatable :: a(:,:), b(:,:)
  integer :: n
end module fields

program main
  use fields
  use f2s_lib, only: jac, f2s_lib_data_enter, f2s_lib_data_update_host, f2s_lib_data_update_device, f2s_lib_data_delete
  use, intrinsic :: iso_c_binding, only: c_size_t
  implicit none
  integer :: i, j, it
  n = 20
  allocate(a(0:n+1,0:n+1), b(0:n+1,0:n+1))
  a = 1
  b = 0
  call f2s_lib_data_enter(a, size(a, kind=c_size_t) * storage_size(a) / 8)
  call f2s_lib_data_enter(b, size(b, kind=c_size_t) * storage_size(b) / 8)
  do it = 1, 5
    !f2s rewritten: stencil name(jac)
    call jac(a, b, n)
    call boundary()
    call f2s_lib_data_update_host(b, size(b, kind=c_size_t) * storage_size(b) / 8)
    a(1:n,1:n) = b(1:n,1:n)
    select case (it)
    case (3)
      print *, 'it 3', sum(b)
    end select
    call f2s_lib_data_update_device(a, size(a, kind=c_size_t) * storage_size(a) / 8)
  end do
  call f2s_lib_data_delete(a, size(a, kind=c_size_t) * storage_size(a) / 8)
  call f2s_lib_data_delete(b, size(b, kind=c_size_t) * storage_size(b) / 8)
  print *, sum(a)
contains
  subroutine boundary()
    a(0,:) = a(n,:)
  end subroutine
end program
)");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(DataRegions, LabelsMoveToAContinueAndReturnFromAHostIfCopiesBack) {
  // `30 err = v(2) - v(3)` is a GO TO's target and needs an update before
  // it: its label goes to a CONTINUE in front of the update. The IF
  // construct without calls is taken whole (u to the host before it, to the
  // device after it); its RETURN sends what it defined to the device and
  // exits first. `GO TO 30` stays inside and needs nothing.
  TempDir dir;
  RewrittenSource r = with_regions(dir, "lb.f", R"(      subroutine lb(n, nit, u, v, err)
      integer n, nit, it, i, k
      double precision u(n), v(n), err
      k = 0
      do 10 it = 1, nit
!$f2s stencil name(s1)
         do 20 i = 2, n - 1
            v(i) = u(i-1) + u(i+1)
   20    continue
   30    err = v(2) - v(3)
         if (err .gt. 1d3) then
            u(1) = 0d0
            return
         end if
   40    if (v(1) .lt. 0d0) goto 99
         k = k + 1
         if (k .lt. 2) goto 30
!$f2s stencil name(s2)
         do 50 i = 2, n - 1
            u(i) = 0.5d0*v(i)
   50    continue
   10 continue
   99 continue
      end
)");
  EXPECT_EQ(r.text, R"(      subroutine lb(n, nit, u, v, err)
      use f2s_lib, only: s1, s2, f2s_lib_data_enter,
     &    f2s_lib_data_update_host, f2s_lib_data_update_device,
     &    f2s_lib_data_exit
      use, intrinsic :: iso_c_binding, only: c_size_t
      integer n, nit, it, i, k
      double precision u(n), v(n), err
      k = 0
      call f2s_lib_data_enter(u, size(u,
     &    kind=c_size_t) * storage_size(u) / 8)
      call f2s_lib_data_enter(v, size(v,
     &    kind=c_size_t) * storage_size(v) / 8)
      do 10 it = 1, nit
!f2s rewritten: stencil name(s1)
         call s1(n, u, v)
   30    continue
         call f2s_lib_data_update_host(v, size(v,
     &       kind=c_size_t) * storage_size(v) / 8)
         err = v(2) - v(3)
         call f2s_lib_data_update_host(u, size(u,
     &       kind=c_size_t) * storage_size(u) / 8)
         if (err .gt. 1d3) then
            u(1) = 0d0
            call f2s_lib_data_update_device(u, size(u,
     &          kind=c_size_t) * storage_size(u) / 8)
            call f2s_lib_data_exit(u, size(u,
     &          kind=c_size_t) * storage_size(u) / 8)
            call f2s_lib_data_exit(v, size(v,
     &          kind=c_size_t) * storage_size(v) / 8)
            return
         end if
         call f2s_lib_data_update_device(u, size(u,
     &       kind=c_size_t) * storage_size(u) / 8)
   40    continue
         call f2s_lib_data_update_host(v, size(v,
     &       kind=c_size_t) * storage_size(v) / 8)
         if (v(1) .lt. 0d0) then
           call f2s_lib_data_exit(u, size(u,
     &         kind=c_size_t) * storage_size(u) / 8)
           call f2s_lib_data_exit(v, size(v,
     &         kind=c_size_t) * storage_size(v) / 8)
           goto 99
         end if
         k = k + 1
         if (k .lt. 2) goto 30
!f2s rewritten: stencil name(s2)
         call s2(n, u, v)
   10 continue
      call f2s_lib_data_exit(u, size(u,
     &    kind=c_size_t) * storage_size(u) / 8)
      call f2s_lib_data_exit(v, size(v,
     &    kind=c_size_t) * storage_size(v) / 8)
   99 continue
      end
)");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(DataRegions, AnAssumedShapeArrayLeavesTheUnitWithoutARegion) {
  TempDir dir;
  std::string text = R"(subroutine s(n, u, v)
  integer :: n, i, it
  real(8) :: u(:), v(0:n+1)
  do it = 1, 10
    !$f2s stencil name(k1)
    do i = 1, n
      u(i) = v(i-1) + v(i+1)
    end do
  end do
end subroutine
)";
  RewrittenSource r = with_regions(dir, "s.f90", text);
  EXPECT_EQ(r.text.find("_data_"), std::string::npos) << r.text;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("warning: no data region in 's': 'u' is not an explicit-shape or "
                               "ALLOCATABLE array"),
            std::string::npos)
      << r.warnings[0];
}

TEST(DataRegions, ATargetArrayLeavesTheUnitWithoutARegion) {
  // A pointer may write u under another name, unseen by the updates.
  TempDir dir;
  std::string text = R"(subroutine s(n, u, v)
  integer :: n, i, it
  real(8), target :: u(0:n+1)
  real(8) :: v(0:n+1)
  real(8), pointer :: p(:)
  p => u
  do it = 1, 10
    !$f2s stencil name(k1)
    do i = 1, n
      v(i) = u(i-1) + u(i+1)
    end do
    p(1) = v(2)
  end do
end subroutine
)";
  RewrittenSource r = with_regions(dir, "t.f90", text);
  EXPECT_EQ(r.text.find("_data_"), std::string::npos) << r.text;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("'u' is a TARGET or in EQUIVALENCE"), std::string::npos)
      << r.warnings[0];
}

TEST(DataRegions, ACallAloneInNoLoopGetsNone) {
  // A region would only copy u and v in and out around the one call; the
  // call finds them present when a caller's region holds them.
  TempDir dir;
  std::string text = R"(subroutine s(n, u, v)
  integer :: n, i
  real(8) :: u(0:n+1), v(0:n+1)
  !$f2s stencil name(k1)
  do i = 1, n
    v(i) = u(i-1) + u(i+1)
  end do
  u(0) = v(1)
end subroutine
)";
  RewrittenSource r = with_regions(dir, "lone.f90", text);
  EXPECT_EQ(r.text.find("_data_"), std::string::npos) << r.text;
  EXPECT_TRUE(r.warnings.empty());
}

TEST(DataRegions, CopiesBetweenTheCallsBecomeCallsAndTheRestStaysOnTheHost) {
  // In the loop with the region: a section copy and a broadcast become
  // kernels of their own and calls, with no update around them; a shift
  // within one array whose elements depend on each other (ast/LoopDependences;
  // a face copy is a call: FaceCopies in tests/e2e, and so is a shift whose
  // elements never meet) and a copy between ranks stay the host's, with their
  // updates.
  // After the loop, a copy stays as written.
  // (A copy sharing its line: CopySharingItsLineStaysOnTheHost.)
  TempDir dir;
  std::string text = R"(subroutine iterate(n, nt, p, wrk, s)
  implicit none
  integer :: n, nt, i, j, it
  real(8) :: p(0:n+1, 0:n+1), wrk(0:n+1, 0:n+1), s(n), x
  do it = 1, nt
    !$f2s stencil name(relax)
    do j = 1, n
      do i = 1, n
        wrk(i,j) = 0.25d0*(p(i-1,j) + p(i+1,j) + p(i,j-1) + p(i,j+1))
      end do
    end do
    p(1:n, 1:n) = wrk(1:n, 1:n)
    p(1, 1:n) = p(1, 0:n-1)
    s = 0
    wrk(1:n, 0) = s
  end do
  p = wrk
end subroutine
)";
  RewrittenSource r = with_regions(dir, "copies.f90", text, true, true);
  EXPECT_EQ(r.text, R"(subroutine iterate(n, nt, p, wrk, s)
  use f2s_lib, only: relax, iterate_copy_12, iterate_copy_14, f2s_lib_data_enter, f2s_lib_data_update_host, &
      f2s_lib_data_update_device, f2s_lib_data_exit
  use, intrinsic :: iso_c_binding, only: c_size_t
  implicit none
  integer :: n, nt, i, j, it
  real(8) :: p(0:n+1, 0:n+1), wrk(0:n+1, 0:n+1), s(n), x
  call f2s_lib_data_enter(p, size(p, kind=c_size_t) * storage_size(p) / 8)
  call f2s_lib_data_enter(wrk, size(wrk, kind=c_size_t) * storage_size(wrk) / 8)
  call f2s_lib_data_enter(s, size(s, kind=c_size_t) * storage_size(s) / 8)
  do it = 1, nt
    !f2s rewritten: stencil name(relax)
    call relax(n, p, wrk)
    !f2s rewritten: (no directive) a copy between the library's calls, which the library runs
    call iterate_copy_12(n, p, wrk)
    call f2s_lib_data_update_host(p, size(p, kind=c_size_t) * storage_size(p) / 8)
    p(1, 1:n) = p(1, 0:n-1)
    call f2s_lib_data_update_device(p, size(p, kind=c_size_t) * storage_size(p) / 8)
    !f2s rewritten: (no directive) a copy between the library's calls, which the library runs
    call iterate_copy_14(n, s)
    call f2s_lib_data_update_host(wrk, size(wrk, kind=c_size_t) * storage_size(wrk) / 8)
    call f2s_lib_data_update_host(s, size(s, kind=c_size_t) * storage_size(s) / 8)
    wrk(1:n, 0) = s
    call f2s_lib_data_update_device(wrk, size(wrk, kind=c_size_t) * storage_size(wrk) / 8)
  end do
  call f2s_lib_data_exit(p, size(p, kind=c_size_t) * storage_size(p) / 8)
  call f2s_lib_data_exit(wrk, size(wrk, kind=c_size_t) * storage_size(wrk) / 8)
  call f2s_lib_data_exit(s, size(s, kind=c_size_t) * storage_size(s) / 8)
  p = wrk
end subroutine
)");
  EXPECT_TRUE(r.warnings.empty()) << r.warnings[0];
}

TEST(DataRegions, ACopySharingItsLineStaysOnTheHost) {
  // --rewrite cannot replace the copy's text alone: the copy stays as
  // written, and the unit gets no region (said once), as for any such line.
  TempDir dir;
  std::string text = R"(subroutine twice(n, nt, p, wrk)
  implicit none
  integer :: n, nt, i, it
  real(8) :: p(0:n+1), wrk(0:n+1), x
  do it = 1, nt
    !$f2s stencil name(avg)
    do i = 1, n
      wrk(i) = 0.5d0*(p(i-1) + p(i+1))
    end do
    x = 1; p(1:n) = wrk(1:n)
  end do
end subroutine
)";
  RewrittenSource r = with_regions(dir, "shared.f90", text, true, true);
  EXPECT_NE(r.text.find("    x = 1; p(1:n) = wrk(1:n)\n"), std::string::npos) << r.text;
  EXPECT_EQ(r.text.find("twice_copy"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("  use f2s_lib, only: avg\n"), std::string::npos) << r.text;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("holds two statements"), std::string::npos) << r.warnings[0];
}

} // namespace
} // namespace f2s::test
