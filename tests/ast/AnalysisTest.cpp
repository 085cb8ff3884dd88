#include "ast/Analysis.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

// Table I of Kamil et al. (IPDPS 2010): flops per point and compulsory
// traffic in bytes (read, write-back, write-allocate) for double grids.
TEST(Analysis, LaplacianMatchesTableOne) {
  KernelFacts f = analyze(test::example_kernel("laplacian"));
  EXPECT_EQ(f.flops, 8);
  EXPECT_EQ(f.footprint.at("u").reads.size(), 7u);
  EXPECT_EQ(f.footprint.at("u").reads,
            (std::set<Offset>{
                {0, 0, 0}, {1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}}));
  EXPECT_EQ(f.footprint.at("unew").writes, (std::set<Offset>{{0, 0, 0}}));
  EXPECT_EQ(f.read_set, (std::vector<std::string>{"u"}));
  EXPECT_EQ(f.write_set, (std::vector<std::string>{"unew"}));
  EXPECT_EQ(f.read_bytes, 8);
  EXPECT_EQ(f.write_bytes, 8);
  EXPECT_EQ(f.write_allocate_bytes, 8);
  EXPECT_NEAR(f.intensity(true), 0.33, 0.005);
  EXPECT_EQ(f.halo, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(f.loop_vars, (std::vector<std::string>{"i", "j", "k"}));
}

TEST(Analysis, DivergenceMatchesTableOne) {
  KernelFacts f = analyze(test::example_kernel("divergence"));
  EXPECT_EQ(f.flops, 8);
  EXPECT_EQ(f.read_set, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(f.write_set, (std::vector<std::string>{"u"}));
  EXPECT_EQ(f.read_bytes, 24);
  EXPECT_EQ(f.write_bytes, 8);
  EXPECT_EQ(f.write_allocate_bytes, 8);
  EXPECT_NEAR(f.intensity(true), 0.20, 0.005);
  EXPECT_EQ(f.grid_halo.at("x"), (std::vector<int64_t>{1, 0, 0}));
  EXPECT_EQ(f.grid_halo.at("z"), (std::vector<int64_t>{0, 0, 1}));
}

TEST(Analysis, GradientMatchesTableOne) {
  KernelFacts f = analyze(test::example_kernel("gradient"));
  EXPECT_EQ(f.flops, 6);
  EXPECT_EQ(f.read_set, (std::vector<std::string>{"u"}));
  EXPECT_EQ(f.write_set, (std::vector<std::string>{"x", "y", "z"}));
  EXPECT_EQ(f.footprint.at("u").reads.size(), 6u);
  EXPECT_EQ(f.read_bytes, 8);
  EXPECT_EQ(f.write_bytes, 24);
  EXPECT_EQ(f.write_allocate_bytes, 24);
  EXPECT_NEAR(f.intensity(true), 0.11, 0.005);
}

TEST(Analysis, CountsPowersIntrinsicsAndSinglePrecision) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, m, a, b)
  integer :: n, m, i, j
  real :: a(n, m), b(n, m)
  !$f2s stencil
  do j = 2, m - 1
    do i = 2, n - 1
      b(i, j) = a(i, j)**3 + max(a(i+2, j), a(i, j-1), 0.0) + sqrt(a(i, j))
    end do
  end do
end subroutine
)");
  KernelFacts f = analyze(k);
  // x**3: 2 multiplications; max of three: 2 comparisons; sqrt: 1; two adds.
  EXPECT_EQ(f.flops, 2 + 2 + 1 + 2);
  EXPECT_EQ(f.read_bytes, 4);
  EXPECT_EQ(f.write_allocate_bytes, 4);
  EXPECT_EQ(f.halo, (std::vector<int64_t>{2, 1}));
}

TEST(Analysis, AllowsReadingAWrittenGridAtThePointItself) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine acc(n, a, u)
  integer :: n, i, j
  real(8) :: a(n, n), u(n, n)
  !$f2s stencil
  do j = 1, n
    do i = 1, n
      u(i, j) = u(i, j) + 2d0*a(i, j)
    end do
  end do
end subroutine
)");
  KernelFacts f = analyze(k);
  EXPECT_EQ(f.write_allocate_bytes, 0); // u is read anyway
  EXPECT_EQ(f.read_bytes, 16);
}

// Scaled subscripts: a restriction reads 8 fine elements per coarse point
// (factor 2 along x, two of every two rows and planes), an interpolation
// reads and writes 8; stride-2 rows (refine2d: every other row, factor 2
// along x) cost two elements of the one row each point touches.
TEST(Analysis, CountsTheElementsScaledSubscriptsSpan) {
  KernelFacts r = analyze(test::example_kernel("restrict3d"));
  EXPECT_EQ(r.read_bytes, 64);
  EXPECT_EQ(r.write_bytes, 8);
  EXPECT_EQ(r.write_allocate_bytes, 8);
  KernelFacts p = analyze(test::example_kernel("interp3d"));
  EXPECT_EQ(p.read_bytes, 8 + 64);
  EXPECT_EQ(p.write_bytes, 64);
  EXPECT_EQ(p.write_allocate_bytes, 0);
  KernelFacts s = analyze(test::example_kernel("refine2d"));
  EXPECT_EQ(s.read_bytes, 16);
  EXPECT_EQ(s.write_bytes, 16);
  // Halos in points: the restriction's 2*i - 1 .. 2*i + 1 reach one point
  // into each neighbour; the interpolation's fine elements are its own (e
  // reaches i + 1); refine2d's rows j are apart, its x reads reach one point.
  EXPECT_EQ(r.halo, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(r.grid_halo.at("r"), (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(p.halo, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(p.grid_halo.at("u"), (std::vector<int64_t>{0, 0, 0}));
  EXPECT_EQ(s.halo, (std::vector<int64_t>{1, 0}));
}

} // namespace
} // namespace f2s
