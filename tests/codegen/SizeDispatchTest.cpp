// The selector of a kernel tuned at several sizes: the bounds between sizes
// are geometric means of their working sets, and the generated C counts a
// call's points from the kernel's own loop bounds.
#include "codegen/CPrinter.h"
#include "codegen/CSizeDispatch.h"
#include "harness/Process.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

TEST(SizeDispatch, BoundsAreGeometricMeansOfWorkingSets) {
  // The Laplacian: 16 bytes per point at 64³, 256³ and 512³.
  std::vector<TunedSize> sizes;
  for (int64_t n : {64, 256, 512})
    sizes.push_back({{n, n, n}, working_set_bytes({n, n, n}, 16)});
  EXPECT_EQ(sizes[1].bytes, 268435456.0);
  std::vector<double> bounds = dispatch_bounds(sizes);
  ASSERT_EQ(bounds.size(), 2u);
  EXPECT_DOUBLE_EQ(bounds[0], 33554432.0);  // 2^25: between 2^22 and 2^28
  EXPECT_NEAR(bounds[1], 759250125.0, 1.0); // 2^29.5
  EXPECT_EQ(size_name({64, 32, 7}), "64x32x7");
}

// A call's points are the trips of the kernel's loops at its arguments: here
// j runs from 2 to m-1 and i from 1 to n, so 10 x 10 points is n = 10, m = 12.
TEST(SizeDispatch, SelectorCountsTheTripsOfTheKernelsLoops) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(n, m, a, b)
  integer, intent(in) :: n, m
  real(8), intent(in) :: a(0:n+1, m)
  real(8), intent(inout) :: b(n, m)
  integer :: i, j
  !$f2s stencil name(rows)
  do j = 2, m - 1
    do i = 1, n
      b(i, j) = a(i-1, j) + a(i+1, j) - a(i, j-1)
    end do
  end do
end subroutine
)");
  // Tuned at 10x10 and 40x40 points, 8 bytes per point each way: the bound
  // is at 20x20 points.
  std::vector<TunedSize> sizes = {{{10, 10}, working_set_bytes({10, 10}, 16)},
                                  {{40, 40}, working_set_bytes({40, 40}, 16)}};
  std::string c = "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n" +
                  print_c_args_struct(k) + print_c_size_selector(k, k.name, "nearest", sizes, 16) +
                  "int main(int argc, char **argv) {\n"
                  "  struct f2s_rows_args a = {0};\n"
                  "  a.F_n = atoi(argv[1]);\n  a.F_m = atoi(argv[2]);\n"
                  "  printf(\"%d\\n\", nearest(&a));\n  return 0;\n}\n";
  std::string exe = (dir.path() / "selector").string();
  Command cc;
  cc.argv = {c_compiler(), "-std=gnu11", "-Wall", "-Werror", "-o", exe, dir.write("sel.c", c)};
  ProcessResult r = run_process(cc);
  ASSERT_TRUE(r.ok()) << r.err << c;
  auto index = [&](int n, int m) {
    Command run;
    run.argv = {exe, std::to_string(n), std::to_string(m)};
    ProcessResult p = run_process(run);
    EXPECT_TRUE(p.ok()) << p.err;
    return std::atoi(p.out.c_str());
  };
  EXPECT_EQ(index(10, 12), 0);
  EXPECT_EQ(index(20, 22), 0); // 400 points: on the bound, the smaller size
  EXPECT_EQ(index(21, 22), 1); // 420
  EXPECT_EQ(index(20, 23), 1); // 20 x 21: m counts two trips fewer
  EXPECT_EQ(index(100, 2), 0); // no trips of j: no points
  EXPECT_EQ(index(1000, 1000), 1);
}

} // namespace
} // namespace f2s
