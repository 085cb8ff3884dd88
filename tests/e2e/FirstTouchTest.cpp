// K_first_touch from Fortran: it links, writes zero to every element of
// every grid (halos included), and the kernel computed on first-touched
// arrays matches the gfortran-compiled original.
#include "e2e/E2E.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;
using test::f2stencil;
using test::run;
using test::source;

const char *kProgram = R"(program first_touch_check
  use f2s_laplacian, only: laplacian, laplacian_first_touch
  implicit none
  integer :: nx, ny, nz, i, j, k
  real(8), allocatable :: u(:,:,:), unew(:,:,:), ref(:,:,:)
  character(len=16) :: arg
  call get_command_argument(1, arg); read(arg, *) nx
  call get_command_argument(2, arg); read(arg, *) ny
  call get_command_argument(3, arg); read(arg, *) nz
  allocate(u(0:nx+1, 0:ny+1, 0:nz+1), unew(0:nx+1, 0:ny+1, 0:nz+1), ref(0:nx+1, 0:ny+1, 0:nz+1))
  ! Not zero, so that an element the first touch misses shows.
  u = 7; unew = 7
  call laplacian_first_touch(nx, ny, nz, 0.3d0, 0.1d0, u, unew)
  if (any(u /= 0) .or. any(unew /= 0)) then
    print *, 'FAILED: first touch left', count(u /= 0) + count(unew /= 0), 'elements'
    stop 1
  end if
  do k = 0, nz+1
    do j = 0, ny+1
      do i = 0, nx+1
        u(i,j,k) = sin(0.1d0*i + 0.2d0*j + 0.3d0*k)
      end do
    end do
  end do
  unew = 0.5d0
  ref = unew
  call laplacian(nx, ny, nz, 0.3d0, 0.1d0, u, unew)
  call smooth(nx, ny, nz, 0.3d0, 0.1d0, u, ref)
  if (maxval(abs(unew - ref)) > 1d-12) then
    print *, 'FAILED: largest difference', maxval(abs(unew - ref))
    stop 1
  end if
  print *, 'PASSED'
end program
)";

TEST(FirstTouch, ExportedProcedureLinksFromFortranAndZeroesEveryElement) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--no-tune", "--target=pthreads,c", "-q", "-o", out.string(),
                               source("examples/laplacian/laplacian.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / "check").string();
  r = run({"gfortran", "-O2", "-o", exe, source("examples/laplacian/laplacian.f90"),
           dir.write("check.f90", kProgram), "-I" + out.string(),
           (out / "libf2s_laplacian.a").string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  for (std::vector<std::string> size :
       {std::vector<std::string>{"1", "1", "1"}, {"13", "7", "5"}, {"37", "11", "9"}})
    for (const char *threads : {"1", "2", "3"}) {
      r = run({exe, size[0], size[1], size[2]}, {{"F2S_NUM_THREADS", threads}});
      EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos)
          << size[0] << "x" << size[1] << "x" << size[2] << " with " << threads
          << " threads: " << r.describe() << "\n"
          << r.out << r.err;
    }
}

// Arrays of other ranks than the nest: 2D map factors, 1D metrics, and
// component dimensions (4D arrays in a 3D nest) are touched whole.
const char *kRanksProgram = R"(program first_touch_ranks
  use f2s_mapfactor3d, only: mapfactor3d_first_touch
  implicit none
  integer :: ni, nk, nj
  real(8), allocatable :: msfx(:,:), msfy(:,:), rdzw(:), fnm(:), coef(:,:,:,:), w(:,:,:)
  real(8), allocatable :: tend(:,:,:,:)
  character(len=16) :: arg
  call get_command_argument(1, arg); read(arg, *) ni
  call get_command_argument(2, arg); read(arg, *) nk
  call get_command_argument(3, arg); read(arg, *) nj
  allocate(msfx(2:ni+1, 0:nj-1), msfy(2:ni+1, 0:nj-1), rdzw(nk), fnm(nk))
  allocate(coef(2:ni+1, nk, 0:nj-1, 3), w(1:ni+2, 0:nk+1, -1:nj), tend(2:ni+1, nk, 0:nj-1, 2))
  msfx = 7; msfy = 7; rdzw = 7; fnm = 7; coef = 7; w = 7; tend = 7
  call mapfactor3d_first_touch(2, ni+1, 1, nk, 0, nj-1, 0.3d0, 0.7d0, msfx, msfy, rdzw, fnm, &
                               coef, w, tend)
  if (any(msfx /= 0) .or. any(msfy /= 0) .or. any(rdzw /= 0) .or. any(fnm /= 0) .or. &
      any(coef /= 0) .or. any(w /= 0) .or. any(tend /= 0)) then
    print *, 'FAILED: first touch left elements untouched'
    stop 1
  end if
  print *, 'PASSED'
end program
)";

TEST(FirstTouch, ArraysOfOtherRanksThanTheNestAreZeroedWhole) {
  test::ScratchDir dir;
  fs::path out = dir.path() / "out";
  ProcessResult r = f2stencil({"--no-tune", "--target=pthreads", "-q", "-o", out.string(),
                               source("examples/mapfactor3d/mapfactor3d.f90")});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  std::string exe = (dir.path() / "check").string();
  r = run({"gfortran", "-O2", "-o", exe, dir.write("check.f90", kRanksProgram),
           "-I" + out.string(), (out / "libf2s_mapfactor3d.a").string(), "-lpthread"});
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.err;
  for (std::vector<std::string> size :
       {std::vector<std::string>{"1", "1", "1"}, {"13", "7", "5"}, {"3", "11", "9"}})
    for (const char *threads : {"1", "3"}) {
      r = run({exe, size[0], size[1], size[2]}, {{"F2S_NUM_THREADS", threads}});
      EXPECT_TRUE(r.ok() && r.out.find("PASSED") != std::string::npos)
          << size[0] << "x" << size[1] << "x" << size[2] << " with " << threads
          << " threads: " << r.describe() << "\n"
          << r.out << r.err;
    }
}

} // namespace
} // namespace f2s
