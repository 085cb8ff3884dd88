// transforms/CudaMapping: the nest before and after, printed by the IR printer.
#include "transforms/CudaMapping.h"
#include "ast/IRPrinter.h"
#include "frontend/Frontend.h"
#include "tests/common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {

namespace {

const char *kJacobi2D = R"(subroutine jacobi(n, m, u, v)
  integer, intent(in) :: n, m
  real(8), intent(in) :: u(0:n+1, 0:m+1)
  real(8), intent(inout) :: v(0:n+1, 0:m+1)
  integer :: i, j
  !$f2s stencil name(jacobi)
  do j = 1, m
    do i = 1, n
      v(i,j) = 0.25d0*(u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
    end do
  end do
end subroutine
)";

} // namespace

TEST(CudaMapping, PlainMappingIsOneThreadPerPoint) {
  Kernel k = test::example_kernel("laplacian");
  EXPECT_EQ(print_stmt(k.body).substr(0, 41), "for k = 1, nz {\n  for j = 1, ny {\n    for");
  Kernel m = map_cuda(k, {32, 8, 1, 1, 0});
  std::string after = print_stmt(m.body);
  EXPECT_EQ(after.substr(0, after.find("unew(")),
            "cuda.block.z for k = 1, nz {\n"
            "  cuda.block.y for j_b = 1, ny, 8 {\n"
            "    cuda.block.x for i_b = 1, nx, 32 {\n"
            "      cuda.thread.y for j_t = 0, 7 {\n"
            "        cuda.thread.x for i_t = 0, 31 {\n"
            "          unrolled for j = j_b + j_t, min(j_b + j_t, ny), 8 {\n"
            "            unrolled for i = i_b + i_t, min(i_b + i_t, nx), 32 {\n"
            "              ");
}

TEST(CudaMapping, TilesWithPointsPerThreadAndStreamsAlongZ) {
  Kernel k = test::example_kernel("laplacian");
  Kernel m = map_cuda(k, {32, 4, 2, 2, 16});
  std::string after = print_stmt(m.body);
  EXPECT_EQ(after.substr(0, after.find("unew(")),
            "cuda.block.z for k_b = 1, nz, 16 {\n"
            "  cuda.block.y for j_b = 1, ny, 8 {\n"
            "    cuda.block.x for i_b = 1, nx, 64 {\n"
            "      cuda.thread.y for j_t = 0, 3 {\n"
            "        cuda.thread.x for i_t = 0, 31 {\n"
            "          for k = k_b, min(k_b + 15, nz) {\n"
            "            unrolled for j = j_b + j_t, min(j_b + 7, ny), 4 {\n"
            "              unrolled for i = i_b + i_t, min(i_b + 63, nx), 32 {\n"
            "                ");
  // The statement itself is untouched and shared.
  EXPECT_NE(after.find("unew(i, j, k) = alpha*u(i, j, k)"), std::string::npos);
}

TEST(CudaMapping, TwoDimensionalNestHasNoZAxis) {
  test::ScratchDir dir;
  Kernel m = map_cuda(test::lower_text(dir, kJacobi2D), {64, 2, 1, 2, 8});
  EXPECT_EQ(print_stmt(m.body), "cuda.block.y for j_b = 1, m, 4 {\n"
                                "  cuda.block.x for i_b = 1, n, 64 {\n"
                                "    cuda.thread.y for j_t = 0, 1 {\n"
                                "      cuda.thread.x for i_t = 0, 63 {\n"
                                "        unrolled for j = j_b + j_t, min(j_b + 3, m), 2 {\n"
                                "          unrolled for i = i_b + i_t, min(i_b + i_t, n), 64 {\n"
                                "            v(i, j) = 0.25d0*(u(i - 1, j) + u(i + 1, j) + "
                                "u(i, j - 1) + u(i, j + 1))\n"
                                "          }\n"
                                "        }\n"
                                "      }\n"
                                "    }\n"
                                "  }\n"
                                "}\n");
}

TEST(CudaMapping, NeverCapturesAUserName) {
  test::ScratchDir dir;
  std::string src = kJacobi2D;
  // A user argument named like the block variable the pass would pick.
  for (auto [from, to] : {std::pair<std::string, std::string>{"(n, m, u, v)", "(n, m, u, v, i_b)"},
                          {"integer :: i, j", "integer :: i, j\n  integer, intent(in) :: i_b"},
                          {"u(i,j+1))", "u(i,j+1))*i_b"}})
    src.replace(src.find(from), from.size(), to);
  Kernel m = map_cuda(test::lower_text(dir, src), {32, 1, 1, 1, 0});
  EXPECT_NE(print_stmt(m.body).find("for i_b2 = 1, n, 32"), std::string::npos)
      << print_stmt(m.body);
}

} // namespace f2s
