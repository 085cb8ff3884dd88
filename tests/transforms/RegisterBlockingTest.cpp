// Register blocking: strip-mining and unroll-and-jam of the point loops, with
// remainders, and a copy of each temporary per jammed point.
#include "transforms/RegisterBlocking.h"
#include "ast/IRPrinter.h"
#include "transforms/CoreBlocking.h"
#include "transforms/Parallelize.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

const char *kJacobiWithTemp = R"(subroutine jacobi(n, m, u, v)
  integer :: n, m, i, j
  real(8) :: u(0:n+1, 0:m+1), v(0:n+1, 0:m+1), t
  !$f2s stencil name(jac)
  do j = 1, m
    do i = 1, n
      t = u(i-1, j) + u(i+1, j)
      v(i, j) = 0.25d0*(t + u(i, j-1) + u(i, j+1))
    end do
  end do
end subroutine
)";

std::vector<std::string> lines(const std::string &text) {
  std::vector<std::string> out;
  for (size_t pos = 0, nl; pos < text.size(); pos = nl + 1) {
    nl = text.find('\n', pos);
    out.push_back(text.substr(pos, nl - pos));
  }
  return out;
}

/// The loop headers of a printed statement, in order.
std::vector<std::string> loop_headers(const std::string &ir) {
  std::vector<std::string> out;
  for (const std::string &l : lines(ir))
    if (l.find("for ") != std::string::npos)
      out.push_back(l.substr(l.find_first_not_of(' ')));
  return out;
}

TEST(RegisterBlocking, JamsXAndYWithRemaindersAndRenamesTemps) {
  test::ScratchDir dir;
  Kernel before = test::lower_text(dir, kJacobiWithTemp);
  EXPECT_EQ(print_stmt(before.body), "for j = 1, m {\n"
                                     "  for i = 1, n {\n"
                                     "    t = u(i - 1, j) + u(i + 1, j)\n"
                                     "    v(i, j) = 0.25d0*(t + u(i, j - 1) + u(i, j + 1))\n"
                                     "  }\n"
                                     "}\n");
  Kernel after = register_block(before, {3, 2, 1});
  EXPECT_EQ(print_stmt(after.body),
            "for j = 1, m - 1, 2 {\n"
            "  for i = 1, n - 2, 3 {\n"
            "    t_0 = u(i - 1, j) + u(i + 1, j)\n"
            "    v(i, j) = 0.25d0*(t_0 + u(i, j - 1) + u(i, j + 1))\n"
            "    t_1 = u(i, j) + u(i + 2, j)\n"
            "    v(i + 1, j) = 0.25d0*(t_1 + u(i + 1, j - 1) + u(i + 1, j + 1))\n"
            "    t_2 = u(i + 1, j) + u(i + 3, j)\n"
            "    v(i + 2, j) = 0.25d0*(t_2 + u(i + 2, j - 1) + u(i + 2, j + 1))\n"
            "    t_3 = u(i - 1, j + 1) + u(i + 1, j + 1)\n"
            "    v(i, j + 1) = 0.25d0*(t_3 + u(i, j) + u(i, j + 2))\n"
            "    t_4 = u(i, j + 1) + u(i + 2, j + 1)\n"
            "    v(i + 1, j + 1) = 0.25d0*(t_4 + u(i + 1, j) + u(i + 1, j + 2))\n"
            "    t_5 = u(i + 1, j + 1) + u(i + 3, j + 1)\n"
            "    v(i + 2, j + 1) = 0.25d0*(t_5 + u(i + 2, j) + u(i + 2, j + 2))\n"
            "  }\n"
            "  for i = 1 + n/3*3, n {\n"
            "    t_0 = u(i - 1, j) + u(i + 1, j)\n"
            "    v(i, j) = 0.25d0*(t_0 + u(i, j - 1) + u(i, j + 1))\n"
            "    t_1 = u(i - 1, j + 1) + u(i + 1, j + 1)\n"
            "    v(i, j + 1) = 0.25d0*(t_1 + u(i, j) + u(i, j + 2))\n"
            "  }\n"
            "}\n"
            "for j = 1 + m/2*2, m {\n"
            "  for i = 1, n - 2, 3 {\n"
            "    t_0 = u(i - 1, j) + u(i + 1, j)\n"
            "    v(i, j) = 0.25d0*(t_0 + u(i, j - 1) + u(i, j + 1))\n"
            "    t_1 = u(i, j) + u(i + 2, j)\n"
            "    v(i + 1, j) = 0.25d0*(t_1 + u(i + 1, j - 1) + u(i + 1, j + 1))\n"
            "    t_2 = u(i + 1, j) + u(i + 3, j)\n"
            "    v(i + 2, j) = 0.25d0*(t_2 + u(i + 2, j - 1) + u(i + 2, j + 1))\n"
            "  }\n"
            "  for i = 1 + n/3*3, n {\n"
            "    t = u(i - 1, j) + u(i + 1, j)\n"
            "    v(i, j) = 0.25d0*(t + u(i, j - 1) + u(i, j + 1))\n"
            "  }\n"
            "}\n");
  std::vector<std::string> temps;
  for (const Variable &t : after.temps) {
    temps.push_back(t.name);
    EXPECT_EQ(t.type, Type::Float64) << t.name;
  }
  EXPECT_EQ(temps, (std::vector<std::string>{"t", "t_0", "t_1", "t_2", "t_3", "t_4", "t_5"}));
}

TEST(RegisterBlocking, JamsTheBlockedPointLoopsOfA3DNest) {
  Kernel k = register_block(block_loops(test::example_kernel("laplacian")), {2, 1, 2});
  EXPECT_EQ(loop_headers(print_stmt(k.body)),
            (std::vector<std::string>{
                "for k_blk = 1, nz, cz {", "for j_blk = 1, ny, cy {", "for i_blk = 1, nx, cx {",
                "for k = k_blk, min(k_blk + cz - 1, nz) - 1, 2 {",
                "for j = j_blk, min(j_blk + cy - 1, ny) {",
                "for i = i_blk, min(i_blk + cx - 1, nx) - 1, 2 {",
                "for i = i_blk + (min(i_blk + cx - 1, nx) - i_blk + 1)/2*2, min(i_blk + cx - 1, "
                "nx) {",
                "for k = k_blk + (min(k_blk + cz - 1, nz) - k_blk + 1)/2*2, min(k_blk + cz - 1, "
                "nz) {",
                "for j = j_blk, min(j_blk + cy - 1, ny) {",
                "for i = i_blk, min(i_blk + cx - 1, nx) - 1, 2 {",
                "for i = i_blk + (min(i_blk + cx - 1, nx) - i_blk + 1)/2*2, min(i_blk + cx - 1, "
                "nx) {"}));
  // The main body holds the four points (k, k + 1) x (i, i + 1), x fastest.
  std::string ir = print_stmt(k.body);
  size_t main = ir.find("nx) - 1, 2 {\n");
  ASSERT_NE(main, std::string::npos);
  std::vector<std::string> body = lines(ir.substr(main));
  ASSERT_GT(body.size(), 5u);
  EXPECT_EQ(body[1].substr(0, body[1].find('=')), "            unew(i, j, k) ");
  EXPECT_EQ(body[2].substr(0, body[2].find('=')), "            unew(i + 1, j, k) ");
  EXPECT_EQ(body[3].substr(0, body[3].find('=')), "            unew(i, j, k + 1) ");
  EXPECT_EQ(body[4].substr(0, body[4].find('=')), "            unew(i + 1, j, k + 1) ");
  EXPECT_EQ(body[5], "          }");
  EXPECT_NE(body[3].find("u(i, j, k + 2)"), std::string::npos) << body[3];
}

TEST(RegisterBlocking, KeepsAParallelLoopParallelInBothParts) {
  test::ScratchDir dir;
  Kernel k = register_block(parallelize_outer(test::lower_text(dir, kJacobiWithTemp)), {1, 2, 1});
  EXPECT_EQ(loop_headers(print_stmt(k.body)),
            (std::vector<std::string>{"parallel for j = 1, m - 1, 2 {", "for i = 1, n {",
                                      "parallel for j = 1 + m/2*2, m {", "for i = 1, n {"}));
}

TEST(RegisterBlocking, LoopVariablesInExpressionsAreShifted) {
  test::ScratchDir dir;
  Kernel k = register_block(test::lower_text(dir, R"(subroutine s(n, a, b)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n)
  !$f2s stencil
  do j = 1, n
  do i = 2, n
    b(i, j) = a(i, j) * i
  end do
  end do
end subroutine
)"),
                            {2, 1, 1});
  EXPECT_EQ(print_stmt(k.body), "for j = 1, n {\n"
                                "  for i = 2, n - 1, 2 {\n"
                                "    b(i, j) = a(i, j)*i\n"
                                "    b(i + 1, j) = a(i + 1, j)*(i + 1)\n"
                                "  }\n"
                                "  for i = 2 + (n - 1)/2*2, n {\n"
                                "    b(i, j) = a(i, j)*i\n"
                                "  }\n"
                                "}\n");
}

TEST(RegisterBlocking, TemporaryCopiesNeverCaptureAUserName) {
  test::ScratchDir dir;
  Kernel k = register_block(test::lower_text(dir, R"(subroutine s(n, t_1, a, b)
  integer :: n, i, j
  real(8) :: a(n, n), b(n, n), t, t_1
  !$f2s stencil
  do j = 1, n
  do i = 1, n
    t = a(i, j) + t_1
    b(i, j) = t
  end do
  end do
end subroutine
)"),
                            {2, 1, 1});
  EXPECT_EQ(print_stmt(k.body), "for j = 1, n {\n"
                                "  for i = 1, n - 1, 2 {\n"
                                "    t_0 = a(i, j) + t_1\n"
                                "    b(i, j) = t_0\n"
                                "    t_1_2 = a(i + 1, j) + t_1\n"
                                "    b(i + 1, j) = t_1_2\n"
                                "  }\n"
                                "  for i = 1 + n/2*2, n {\n"
                                "    t = a(i, j) + t_1\n"
                                "    b(i, j) = t\n"
                                "  }\n"
                                "}\n");
}

TEST(RegisterBlocking, FactorsOfOneChangeNothing) {
  Kernel k = block_loops(test::example_kernel("gradient"));
  Kernel same = register_block(k, {1, 1, 1});
  EXPECT_EQ(same.body, k.body);
  EXPECT_EQ(same.temps.size(), k.temps.size());
}

TEST(RegisterBlocking, RefusesFactorsOutOfRange) {
  Kernel k = test::example_kernel("laplacian");
  EXPECT_THROW(register_block(k, {9, 1, 1}), std::invalid_argument);
  EXPECT_THROW(register_block(k, {1, 3, 1}), std::invalid_argument);
  EXPECT_THROW(register_block(k, {1, 1, 0}), std::invalid_argument);
}

} // namespace
} // namespace f2s
