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

} // namespace
} // namespace f2s
