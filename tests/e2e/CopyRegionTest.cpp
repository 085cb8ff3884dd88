// An annotated array assignment is a region of its own: the copy back of a
// Jacobi iteration (`p(2:mx-1, ...) = wrk2(2:mx-1, ...)`), which a program
// runs between its sweeps on the host, becomes a parallel library call, in
// free and fixed form, through --rewrite (OpenMP's WORKSHARE around it
// removed), with the original's results.
#include "e2e/E2E.h"

#include <gtest/gtest.h>

#include <filesystem>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;

const char *kFree = R"(subroutine iter(mx, my, mz, n, p, wrk2, gosa)
  implicit none
  integer, intent(in) :: mx, my, mz, n
  real(4), intent(inout) :: p(mx, my, mz), wrk2(mx, my, mz)
  real(4), intent(out) :: gosa
  integer :: i, j, k, it
  do it = 1, n
    !$f2s stencil name(sweep)
    do k = 2, mz - 1
      do j = 2, my - 1
        do i = 2, mx - 1
          wrk2(i,j,k) = (p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) + p(i,j+1,k) &
                       + p(i,j,k-1) + p(i,j,k+1)) / 6.0
        end do
      end do
    end do
    !$omp parallel workshare
    !$f2s stencil name(copyback)
    p(2:mx-1, 2:my-1, &
      2:mz-1) = wrk2(2:mx-1, 2:my-1, 2:mz-1)
    !$omp end parallel workshare
  end do
  gosa = sum(p)
end subroutine
)";

const char *kFreeMain = R"(program m
  implicit none
  integer, parameter :: mx = 13, my = 9, mz = 11
  real(4) :: p(mx, my, mz), w(mx, my, mz), g
  integer :: i
  do i = 1, mx
    p(i, :, :) = real(i * i, 4) / 7.0
  end do
  p(:, 3, :) = 2.5
  w = 0
  call iter(mx, my, mz, 5, p, w, g)
  print '(3es17.9)', g, p(5, 4, 6), w(7, 3, 2)
end program
)";

// Fixed form: the copy is the labelled statement a label DO ends on (the
// call keeps the label), and the right side is another array whose section
// starts elsewhere.
const char *kFixed = R"(      SUBROUTINE SHIFT(N, M, NT, A, B)
      INTEGER N, M, NT, IT, I, J
      DOUBLE PRECISION A(0:N+1, M), B(N, M)
      DO 10 IT = 1, NT
C$F2S STENCIL NAME(SMOOTH)
        DO 20 J = 1, M
        DO 20 I = 1, N
          B(I, J) = 0.25D0 * (A(I-1, J) + 2.0D0 * A(I, J) + A(I+1, J))
   20   CONTINUE
C$F2S STENCIL NAME(BACK)
   10 A(1:N, 1:M) =
     &   B(1:N, 1:M)
      END
)";

const char *kFixedMain = R"(      PROGRAM SHIFTS
      INTEGER N, M, I, J
      PARAMETER (N = 17, M = 5)
      DOUBLE PRECISION A(0:N+1, M), B(N, M)
      DO 1 J = 1, M
      DO 1 I = 0, N + 1
        A(I, J) = DBLE(MOD(I * 7 + J * 3, 11)) / 3.0D0
    1 CONTINUE
      CALL SHIFT(N, M, 4, A, B)
      PRINT '(3ES25.17)', A(3, 2), A(N, M), B(9, 4)
      END
)";

/// The original and the rewritten program print the same, with 1 and 3
/// threads; returns the rewritten source.
std::string expect_same_output(const std::string &name, const std::string &ext,
                               const std::string &sub, const std::string &main) {
  test::ScratchDir dir;
  std::string src = dir.write(name + ext, sub), prog = dir.write("main" + ext, main);
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--no-tune", "-q", "--rewrite", "--target=c,pthreads",
                               "--lib=f2s_" + name, "-o", out.string(), src});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  if (!r.ok())
    return "";
  std::string original = (dir.path() / "original").string(),
              rewritten = (dir.path() / "rewritten").string();
  r = run({"gfortran", "-O2", "-o", original, src, prog});
  EXPECT_TRUE(r.ok()) << r.err;
  r = run({"gfortran", "-O2", "-o", rewritten, "-I" + out.string(),
           (out / "src" / (name + ext)).string(), prog, (out / ("libf2s_" + name + ".a")).string(),
           "-lpthread"});
  EXPECT_TRUE(r.ok()) << r.err;
  std::string want = run({original}).out;
  EXPECT_NE(want, "");
  for (const char *threads : {"1", "3"})
    EXPECT_EQ(run({rewritten}, {{"F2S_NUM_THREADS", threads}}).out, want) << threads;
  return test::read_file(out / "src" / (name + ext));
}

TEST(CopyRegions, AnnotatedSectionCopyIsACallInFreeForm) {
  std::string text = expect_same_output("iter", ".f90", kFree, kFreeMain);
  // OpenMP's WORKSHARE pair around the copy goes with it, as a PARALLEL DO
  // pair goes with a nest.
  EXPECT_NE(
      text.find("    !f2s rewritten: stencil name(copyback)\n"
                "    ! f2stencil --rewrite removed '!$omp parallel workshare' (line 17) around "
                "the nest: the library runs it in parallel\n"
                "    call copyback(mx, my, mz, p, wrk2)\n  end do\n"),
      std::string::npos)
      << text;
}

TEST(CopyRegions, AnnotatedCopyEndingALabelDoKeepsItsLabelInFixedForm) {
  std::string text = expect_same_output("shift", ".f", kFixed, kFixedMain);
  EXPECT_NE(text.find("\n   10 call back("), std::string::npos) << text;
  EXPECT_EQ(text.find("B(1:N, 1:M)"), std::string::npos) << text;
}

// The copy is a nest over the left side's section, its loops free.
TEST(CopyRegions, TheCopysKernelIsANestOverTheSection) {
  test::ScratchDir dir;
  std::string src = dir.write("iter.f90", kFree);
  ProcessResult r = f2stencil({"--emit=ir", "--target=pthreads", src});
  ASSERT_TRUE(r.ok()) << r.err;
  size_t at = r.out.find("kernel copyback");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::string ir = r.out.substr(at);
  EXPECT_NE(ir.find("  for f2s_c3 = 2, mz - 1 {\n    for f2s_c2 = 2, my - 1 {\n"
                    "      for f2s_c1 = 2, mx - 1 {\n"
                    "        p(f2s_c1, f2s_c2, f2s_c3) = wrk2(f2s_c1, f2s_c2, f2s_c3)\n"),
            std::string::npos)
      << ir;
}

// What is not a copy of one array to another says so, at the statement.
TEST(CopyRegions, AnAssignmentThatIsNotACopyIsRefused) {
  test::ScratchDir dir;
  std::string src = dir.write("bad.f90", "subroutine s(n, u)\n"
                                         "  integer :: n\n"
                                         "  real(8) :: u(n)\n"
                                         "  !$f2s stencil\n"
                                         "  u = 2*u\n"
                                         "end subroutine\n");
  ProcessResult r = f2stencil({"-q", "--no-tune", "-o", (dir.path() / "out").string(), src});
  EXPECT_EQ(r.exit_code, 1) << r.describe();
  EXPECT_FALSE(fs::exists(dir.path() / "out"));
  EXPECT_NE(
      r.err.find("bad.f90:5:7: error: An array assignment f2stencil runs must copy one array "
                 "(or section) to another, as 'u = unew' does, or set it to one scalar value"),
      std::string::npos)
      << r.err;
}

// A copy within one array between elements apart (a face copy written with
// ranges of one element, a shift) was lowered as a copy of each element onto
// itself, in regions and time loops alike: it is refused, at the statement.
// (A face written with a subscript, `u(1, :) = u(n-1, :)`, is a plane and
// runs: DataRegionsTest's FaceCopies.)
TEST(CopyRegions, ACopyWithinOneArrayIsRefused) {
  test::ScratchDir dir;
  for (const std::string &copy : {"u(1:1, 1:m) = u(n-1:n-1, 1:m)", "u(2:n, :) = u(1:n-1, :)"}) {
    std::string src = dir.write("bad.f90", "subroutine s(n, m, nt, u, v)\n"
                                           "  integer :: n, m, nt, it, i, j\n"
                                           "  real(8) :: u(n, m), v(n, m)\n"
                                           "  !$f2s stencil\n"
                                           "  " +
                                               copy +
                                               "\n"
                                               "  !$f2s stencil timesteps\n"
                                               "  do it = 1, nt\n"
                                               "    do j = 1, m\n"
                                               "      do i = 2, n - 1\n"
                                               "        v(i, j) = u(i-1, j) + u(i+1, j)\n"
                                               "      end do\n"
                                               "    end do\n"
                                               "    u = v\n"
                                               "    " +
                                               copy +
                                               "\n"
                                               "  end do\n"
                                               "end subroutine\n");
    ProcessResult r = f2stencil({"-q", "--no-tune", "-o", (dir.path() / "out").string(), src});
    EXPECT_EQ(r.exit_code, 1) << r.describe();
    EXPECT_FALSE(fs::exists(dir.path() / "out"));
    const std::string why = "' moves elements within one array, which f2stencil cannot run as "
                            "Fortran does (the whole right side read first)";
    EXPECT_NE(r.err.find("bad.f90:5:3: error: The copy '" + copy + why), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("bad.f90:14:5: error: The copy '" + copy + why), std::string::npos)
        << r.err;
  }
}

// Broadcasts, annotated and not: `u = 0` on a whole array, a face set to a
// scalar expression (a subscript in place of a range), a LOGICAL mask; and,
// unannotated between the calls, a copy to a face of another array. --rewrite
// makes each a call (those without a directive because they lie in the loop
// of a region); the program prints what the original prints.
TEST(CopyRegions, BroadcastsAndFacesAnnotatedOrNotMatchTheOriginal) {
  const char *sub = R"(subroutine relax(n, m, nt, u, v, edge, mask)
  implicit none
  integer, intent(in) :: n, m, nt
  real(8), intent(inout) :: u(0:n+1, 0:m+1), v(0:n+1, 0:m+1), edge
  logical, intent(inout) :: mask(n, m)
  integer :: i, j, it
  do it = 1, nt
    !$f2s stencil name(avg)
    do j = 1, m
      do i = 1, n
        v(i,j) = 0.25d0*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
        if (mask(i,j)) v(i,j) = -v(i,j)
      end do
    end do
    !$f2s stencil name(clear)
    u = 0
    u(1:n, 1:m) = v(1:n, 1:m)
    u(0, 1:m) = edge*it
    v(n+1, :) = 1
    mask = .false.
    u(1:n, m+1) = v(1:n, 1)
  end do
end subroutine
)";
  const char *main = R"(program bcast
  implicit none
  integer, parameter :: n = 11, m = 7
  real(8) :: u(0:n+1, 0:m+1), v(0:n+1, 0:m+1), e
  logical :: mask(n, m)
  integer :: i, j
  do j = 0, m + 1
    do i = 0, n + 1
      u(i, j) = dble(mod(3*i + 5*j, 13)) / 4
    end do
  end do
  v = -1
  mask = .true.
  mask(2, 3) = .false.
  e = 0.75d0
  call relax(n, m, 3, u, v, e, mask)
  print '(4es25.16)', sum(u), u(0, 4), u(5, m+1), sum(v)
  print '(l1)', any(mask)
end program
)";
  std::string text = expect_same_output("relax", ".f90", sub, main);
  for (const char *call :
       {"    call clear(n, m, u)\n", "    call relax_copy_17(n, m, u, v)\n",
        "    call relax_copy_18(n, m, u, edge, it)\n", "    call relax_copy_19(n, m, v)\n",
        "    call relax_copy_20(n, m, mask)\n", "    call relax_copy_21(n, m, u, v)\n"})
    EXPECT_NE(text.find(call), std::string::npos) << call << text;
}

// The documented path for a GPU: module ALLOCATABLE arrays, a sweep and an
// annotated copy back in an iteration loop. --rewrite's data regions keep the
// arrays on the device around the loop, and nothing in the loop is left to
// the host, so no update is written; the sizes go as SIZE * STORAGE_SIZE
// (gfortran takes C_SIZEOF of explicit-shape arrays only), and the rewritten
// source compiles.
TEST(CopyRegions, AllocatableArraysStayOnTheDeviceAroundTheLoop) {
  test::ScratchDir dir;
  std::string src = dir.write("solver.f90", R"(module grids
  real(4), allocatable :: p(:,:,:), wrk2(:,:,:)
end module grids
subroutine iterate(mx, my, mz, n)
  use grids
  implicit none
  integer, intent(in) :: mx, my, mz, n
  integer :: i, j, k, it
  do it = 1, n
    !$f2s stencil name(sweep)
    do k = 2, mz - 1
      do j = 2, my - 1
        do i = 2, mx - 1
          wrk2(i,j,k) = (p(i-1,j,k) + p(i+1,j,k) + p(i,j-1,k) + p(i,j+1,k)) / 4.0
        end do
      end do
    end do
    !$f2s stencil name(copy_back)
    p(2:mx-1, 2:my-1, 2:mz-1) = wrk2(2:mx-1, 2:my-1, 2:mz-1)
  end do
end subroutine iterate
)");
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--emit=sources", "-q", "--rewrite", "--target=pthreads,cuda",
                               "--lib=f2s_solver", "-o", out.string(), src});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string text = test::read_file(out / "src" / "solver.f90");
  EXPECT_NE(text.find("  call f2s_solver_data_enter(p, size(p, kind=c_size_t) * storage_size(p) "
                      "/ 8)\n  call f2s_solver_data_enter(wrk2, size(wrk2, kind=c_size_t) * "
                      "storage_size(wrk2) / 8)\n  do it = 1, n\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("update"), std::string::npos) << text;
  EXPECT_NE(text.find("    call copy_back(mx, my, mz, p, wrk2)\n  end do\n"
                      "  call f2s_solver_data_exit(p, "),
            std::string::npos)
      << text;
  // The program unit compiles against the module (the grids module first).
  std::string mod_dir = dir.path().string();
  r = run({"gfortran", "-c", "-J" + mod_dir, "-o", (dir.path() / "m.o").string(),
           (out / "f2s_solver.f90").string()});
  ASSERT_TRUE(r.ok()) << r.err;
  r = run({"gfortran", "-fsyntax-only", "-J" + mod_dir, "-I" + mod_dir,
           (out / "src" / "solver.f90").string()});
  EXPECT_TRUE(r.ok()) << r.err;
}

} // namespace
} // namespace f2s
