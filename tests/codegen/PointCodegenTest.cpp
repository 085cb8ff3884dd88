// The C of the per-point passes: row pointers, streamed rows through row
// buffers, prefetches and vectorisable innermost loops, compiled for every
// streaming-store instruction set the printer chooses among.
#include "codegen/CPrinter.h"
#include "harness/Process.h"
#include "transforms/ArrayIndexing.h"
#include "transforms/CacheBypass.h"
#include "transforms/CommonSubexpressions.h"
#include "transforms/CoreBlocking.h"
#include "transforms/Parallelize.h"
#include "transforms/Prefetch.h"
#include "transforms/RegisterBlocking.h"

#include "common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

bool contains(const std::string &text, const std::string &needle) {
  return text.find(needle) != std::string::npos;
}

Kernel all_point_passes(const Kernel &k, RegisterBlockingOptions rb) {
  Kernel out = register_block(parallelize_outer(block_loops(k)), rb);
  out = eliminate_common_subexpressions(out, {});
  out = choose_array_indexing(out, {1});
  out = bypass_cache(out, {});
  return add_prefetch(out, {});
}

TEST(PointCodegen, RowPointersIndexTheInnermostLoopByXAlone) {
  Kernel k = choose_array_indexing(test::example_kernel("laplacian"), {1});
  std::string c = print_c_variant(k, "rows");
  EXPECT_TRUE(
      contains(c, "const double *restrict f2s_F_u_r1 = F_u + f2s_F_u_s1*(F_j + 1 - f2s_F_u_lo1) + "
                  "f2s_F_u_s2*(F_k - f2s_F_u_lo2) - f2s_F_u_lo0;\n"))
      << c;
  EXPECT_TRUE(contains(
      c, "double *restrict f2s_F_unew_r5 = F_unew + f2s_F_unew_s1*(F_j - f2s_F_unew_lo1) + "
         "f2s_F_unew_s2*(F_k - f2s_F_unew_lo2) - f2s_F_unew_lo0;\n"))
      << c;
  EXPECT_TRUE(
      contains(c, "        #pragma GCC ivdep\n        for (long F_i = 1; F_i <= F_nx; ++F_i) {\n"))
      << c;
  EXPECT_TRUE(
      contains(c, "f2s_F_unew_r5[F_i] = F_alpha*f2s_F_u_r0[F_i] + F_beta*(f2s_F_u_r0[F_i + 1] + "
                  "f2s_F_u_r0[F_i - 1] + f2s_F_u_r1[F_i]"))
      << c;
  // Without the attribute the full index stays, and the loop is still ivdep.
  std::string full = print_c_variant(test::example_kernel("laplacian"), "full");
  EXPECT_FALSE(contains(full, "_r0"));
  EXPECT_TRUE(
      contains(full, "      #pragma GCC ivdep\n      for (long F_i = 1; F_i <= F_nx; ++F_i) {\n"));
  EXPECT_TRUE(
      contains(full, "F_unew[(F_i - f2s_F_unew_lo0) + f2s_F_unew_s1*(F_j - f2s_F_unew_lo1)"));
}

TEST(PointCodegen, StreamedRowsGoThroughRowBuffers) {
  Kernel k = bypass_cache(register_block(test::example_kernel("gradient"), {2, 1, 1}), {});
  std::string c = print_c_variant(k, "nt");
  // One buffer per streamed grid, as long as its x extent, freed and fenced.
  EXPECT_TRUE(
      contains(c, "  double *restrict f2s_buf_F_y_0 = f2s_alloc_row(sizeof(double), (long)(F_nx "
                  "+ 1) - f2s_F_y_lo0 + 1);\n"))
      << c;
  EXPECT_TRUE(contains(c, "  free(f2s_buf_F_z_0);\n  f2s_stream_fence();")) << c;
  EXPECT_TRUE(contains(c, "f2s_buf_F_x_0[F_i + 1 - f2s_F_x_lo0] = F_alpha*(F_u[")) << c;
  // After the main loop (step 2): the stretch it wrote, 2 per iteration.
  EXPECT_TRUE(contains(
      c, "        if (1 <= F_nx - 1) {\n"
         "          const long F_i = 1;\n"
         "          const long f2s_n = ((F_nx - 1) - F_i) / 2 + 1;\n"
         "          f2s_stream_double(&F_x[(F_i - f2s_F_x_lo0) + f2s_F_x_s1*(F_j - "
         "f2s_F_x_lo1) + f2s_F_x_s2*(F_k - f2s_F_x_lo2)], f2s_buf_F_x_0 + (F_i - f2s_F_x_lo0), "
         "f2s_n * 2);\n"))
      << c;
  // u is read, so it is not streamed.
  EXPECT_FALSE(contains(c, "f2s_buf_F_u"));
}

TEST(PointCodegen, PrefetchesAheadWithinTheRow) {
  Kernel k = add_prefetch(block_loops(test::example_kernel("divergence")), {});
  std::string c = print_c_variant(k, "pf");
  EXPECT_TRUE(contains(c, "const long F_pf = tune[3] > 0 ? tune[3] : 0;")) << c;
  EXPECT_TRUE(contains(c, "if (F_pf > 0) {")) << c;
  EXPECT_TRUE(contains(
      c, "__builtin_prefetch(&F_x[(f2s_min_long(F_i + 1 + F_pf, (long)(F_nx + 1)) - "
         "f2s_F_x_lo0) + f2s_F_x_s1*(F_j - f2s_F_x_lo1) + f2s_F_x_s2*(F_k - f2s_F_x_lo2)], 0, "
         "0);"))
      << c;
}

/// Every construct together compiles cleanly, whichever streaming stores
/// the target has.
TEST(PointCodegen, GeneratedCCompilesForEveryStreamingStoreWidth) {
  test::ScratchDir dir;
  std::string src = print_c_prelude(true);
  std::vector<const char *> names = {"laplacian", "divergence", "gradient"};
  for (const char *name : names) {
    Kernel k = test::example_kernel(name);
    src += print_c_args_struct(k) + print_c_variant(k, "serial") +
           print_c_variant(all_point_passes(k, {3, 2, 2}), "all");
  }
  std::vector<Kernel> mixed =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/mixed2d.f90");
  ASSERT_EQ(mixed.size(), 1u);
  src +=
      print_c_args_struct(mixed[0]) + print_c_variant(all_point_passes(mixed[0], {8, 2, 1}), "all");
  // Branches, MERGE, comparisons, SIGN/LOG/MOD, a 1D nest and a colour test.
  std::vector<Kernel> wider =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/branches2d.f90");
  for (const char *name : {"jacobi1d", "upwind2d", "gsrb3d"})
    wider.push_back(test::example_kernel(name));
  for (const Kernel &k : wider)
    src += print_c_args_struct(k) + print_c_variant(k, "serial") +
           print_c_variant(all_point_passes(k, {2, 2, 1}), "all");
  std::string path = dir.write("lib.c", src);
  // -U__SSE2__: the scalar copy a target without streaming stores gets.
  for (const char *isa : {"-U__SSE2__", "-msse2", "-mavx", "-mavx512f"}) {
    Command cc;
    cc.argv = {c_compiler(),
               "-std=gnu11",
               "-O3",
               "-Wall",
               "-Wextra",
               "-Werror",
               "-Wno-unused-function",
               "-Wno-unused-parameter",
               "-pthread",
               isa,
               "-c",
               path,
               "-o",
               (dir.path() / "lib.o").string()};
    ProcessResult r = run_process(cc);
    EXPECT_TRUE(r.ok()) << isa << ": " << r.describe() << "\n" << r.err;
  }
}

} // namespace
} // namespace f2s
