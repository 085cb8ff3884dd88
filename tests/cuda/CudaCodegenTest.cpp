// The generated CUDA compiles: for every example kernel and every mapping
// shape, the library's CUDA source and the tuning harness go through
// `nvcc -arch=sm_90 -c`, one translation unit for both (skipped where nvcc is
// missing). CI has nvcc and no GPU, so a code-generation error fails CI.
#include "codegen/CPrinter.h"
#include "codegen/CudaHarnessPrinter.h"
#include "codegen/CudaPrinter.h"
#include "harness/CudaToolkit.h"
#include "harness/CudaVariants.h"
#include "harness/Process.h"
#include "tests/common/TestUtil.h"
#include "tests/cuda/CudaShape.h"
#include "transforms/CudaPlaneSums.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace f2s {

namespace {

Variant shape(int bx, int by, int px, int py, int sz, int sh = 0, int sum = 0) {
  return test::cuda_shape("t", bx, by, px, py, sz, sh, sum);
}

void expect_compiles(const test::ScratchDir &dir, const std::string &name, const std::string &text,
                     const std::vector<std::string> &extra = {}) {
  auto nvcc = find_nvcc();
  ASSERT_TRUE(nvcc);
  std::string src = dir.write(name + ".cu", text);
  Command c;
  c.argv = {*nvcc};
  for (const std::string &f : nvcc_flags())
    c.argv.push_back(f);
  c.argv.insert(c.argv.end(), extra.begin(), extra.end());
  c.argv.insert(c.argv.end(), {"-c", src, "-o", (dir.path() / (name + ".o")).string()});
  c.timeout_s = 300;
  ProcessResult r = run_process(c);
  EXPECT_TRUE(r.ok()) << name << ": " << r.err << r.out;
}

/// The library and harness of every mapping shape of each kernel of `ks`
/// (the kernels of one source, or of several with distinct names) compile.
void expect_example_compiles(const test::ScratchDir &dir, const std::vector<Kernel> &ks) {
  // The library of every kernel, as f2stencil writes one for a file.
  std::string lib = print_cuda_prelude(), c_code, c_structs;
  std::vector<Variant> harness_shapes;
  for (const Kernel &k : ks) {
    SCOPED_TRACE(k.name);
    lib += print_c_args_struct(k);
    c_structs += print_c_args_struct(k);
    // The plain mapping, tiles with points per thread, z streaming, and odd
    // shapes that exercise every guard.
    std::vector<Variant> shapes = {shape(32, 8, 1, 1, 0),   shape(32, 4, 2, 2, 16),
                                   shape(64, 2, 1, 4, 8),   shape(128, 1, 2, 1, 64),
                                   shape(32, 3, 3, 1, 5),   shape(32, 8, 1, 1, 16, 1),
                                   shape(32, 4, 2, 2, 7, 1)};
    if (plane_sums_pay(k))
      shapes.push_back(shape(64, 4, 1, 1, 16, 0, 1));
    // An ordered loop is never streamed (map_cuda runs it in each thread).
    if (k.ordered || k.column)
      shapes = {shape(32, 8, 1, 1, 0), shape(32, 4, 2, 2, 0), shape(64, 2, 1, 4, 0),
                shape(32, 3, 3, 1, 0)};
    for (const Variant &v : shapes) {
      VariantCode code = cuda_variant_code(k, v);
      EXPECT_NE(code.cuda_source.find("__global__"), std::string::npos) << v.name;
      lib += code.cuda_source;
      c_code += code.c_function;
    }
    harness_shapes.push_back(shapes[1]);
  }
  lib += print_cuda_data_exports("f2s_lib");
  // The library and the harness of one shape of each kernel in one
  // translation unit, one nvcc -c for all (nvcc's fixed cost per compile,
  // about 3 s, paid once): the library first, as it is on its own, so that
  // nothing of it can lean on the harnesses' support; then the harness
  // support once and each harness's own part, without the prelude and
  // argument struct the library has already declared. A harness's main
  // calls its shape's launcher, which the library holds; the harnesses after
  // the first are each in a namespace of their own, their main renamed.
  const std::string prelude = print_cuda_prelude();
  std::string support, harnesses;
  std::vector<std::string> references;
  for (size_t n = 0; n < ks.size(); ++n) {
    const Kernel &k = ks[n];
    SCOPED_TRACE(k.name);
    CudaHarnessSource h = print_cuda_harness(k, "", "cuda_" + harness_shapes[n].name);
    references.push_back(h.c_reference);
    std::string harness = h.cuda_main;
    const std::string args = print_c_args_struct(k);
    ASSERT_EQ(harness.rfind(prelude, 0), 0u) << "the harness no longer starts with the prelude";
    size_t at = harness.find(args, prelude.size());
    ASSERT_NE(at, std::string::npos) << "the harness no longer declares the argument struct";
    std::string own_support = harness.substr(prelude.size(), at - prelude.size());
    std::string own = harness.substr(at + args.size());
    if (n == 0) {
      support = own_support;
      harnesses += own;
      continue;
    }
    ASSERT_EQ(own_support, support) << "the harnesses' support differs between kernels";
    const std::string main = "int main(int argc, char **argv) {";
    at = own.find(main);
    ASSERT_NE(at, std::string::npos) << "the harness has no main";
    own.replace(at, main.size(), "int harness_main(int argc, char **argv) {");
    const std::string ns = "harness" + std::to_string(n);
    harnesses += "namespace " + ns + " {\n" + own + "} // namespace " + ns + "\n";
  }
  expect_compiles(dir, "library_and_harness", lib + support + harnesses);
  // The C side of the library (stubs and CPU fallbacks) and the harnesses'
  // references with the C compiler.
  std::vector<std::pair<std::string, std::string>> c_files = {
      {"lib.c", print_c_prelude(true) + c_structs + c_code}};
  for (size_t n = 0; n < references.size(); ++n)
    c_files.push_back({"reference" + std::to_string(n) + ".c", references[n]});
  for (const auto &[name, text] : c_files) {
    Command cc;
    cc.argv = {
        c_compiler(), "-std=gnu11",          "-Wall", "-Werror=implicit-function-declaration",
        "-c",         dir.write(name, text), "-o",    (dir.path() / (name + ".o")).string()};
    ProcessResult r = run_process(cc);
    EXPECT_TRUE(r.ok()) << name << ": " << r.err;
  }
}

void expect_example_compiles(const test::ScratchDir &dir, const Kernel &k) {
  expect_example_compiles(dir, std::vector<Kernel>{k});
}

class CudaCodegen : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(CudaCodegen, EveryMappingCompilesWithNvcc) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  expect_example_compiles(dir, test::example_kernels(GetParam()));
}

// Branches, MERGE, comparisons and SIGN/LOG/MOD in device code.
TEST(CudaCodegenBranches, EveryMappingCompilesWithNvcc) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  std::ifstream in(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/branches2d.f90");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  test::ScratchDir dir;
  expect_example_compiles(dir, test::lower_text(dir, text));
}

// A reduction on the GPU: a per-thread partial, a tree of fixed shape over
// the block in shared memory, one partial per block, and the launcher adding
// the blocks' partials to the argument on the host in block order.
TEST(CudaCodegenReductions, BlockTreesAndHostCombination) {
  VariantCode code = cuda_variant_code(test::example_kernel("maxnorm2d"), shape(32, 8, 1, 1, 0));
  const std::string &cu = code.cuda_source;
  auto has = [&](const std::string &s) { return cu.find(s) != std::string::npos; };
  EXPECT_TRUE(has("  double F_err = -INFINITY; /* this thread's partial */\n")) << cu;
  EXPECT_TRUE(has("    __shared__ double f2s_red_F_err[256];\n")) << cu;
  EXPECT_TRUE(has("    for (int f2s_n = 256; f2s_n > 1; f2s_n = (f2s_n + 1) / 2) {\n")) << cu;
  EXPECT_TRUE(has("      a.F_err[blockIdx.x + gridDim.x * (blockIdx.y + (size_t)gridDim.y * "
                  "blockIdx.z)] = f2s_red_F_err[0];\n"))
      << cu;
  // The blocks' partials combined in block order onto the argument's value:
  // when the launch ends, or (a box call of an overlapped MPI procedure)
  // when that procedure synchronizes (f2s_cuda_defer).
  EXPECT_TRUE(has("  double f2s_acc = *(double *)f2s_result;\n"
                  "  for (size_t f2s_b = 0; f2s_b < f2s_n; ++f2s_b)\n"))
      << cu;
  EXPECT_TRUE(has("(d->F_err, f2s_F_err_host, f2s_nblocks);\n")) << cu;
  EXPECT_TRUE(has("  if (f2s_cuda_deferring) {\n")) << cu;
  // The kernel gets the device array of partials, not the host address;
  // the array is kept between calls (no cudaMalloc/cudaFree per call).
  EXPECT_TRUE(has("  f2s_args.F_err = f2s_F_err_part;\n")) << cu;
  EXPECT_TRUE(has("  static thread_local double *f2s_F_err_part = NULL;\n")) << cu;
  EXPECT_TRUE(has("  if (f2s_F_err_part_size < f2s_nblocks) {\n")) << cu;
}

INSTANTIATE_TEST_SUITE_P(Examples, CudaCodegen,
                         ::testing::Values("laplacian", "divergence", "gradient", "star7", "star13",
                                           "himeno19", "box27", "laplacian_f77", "jacobi3d_f77",
                                           "heat3d_modern"));
// The wider kernel class: a 1D nest, 2D nests with several grids, variable
// coefficients and temporaries, three regions in one file, IF/ELSE and
// MERGE, and an in-place red-black colour test.
INSTANTIATE_TEST_SUITE_P(KernelClass, CudaCodegen,
                         ::testing::Values("jacobi1d", "jacobi2d", "poisson2d", "fdtd2d",
                                           "upwind2d", "gsrb3d"));
// Reductions: a block tree in shared memory and the partials' array.
// Multigrid transfers: subscripts 2*i + o in reads and in several stores of
// one grid, which the point pointers and staging leave to full indexing;
// and stride-2 loops as unit-step counters.
INSTANTIATE_TEST_SUITE_P(Multigrid, CudaCodegen,
                         ::testing::Values("restrict3d", "interp3d", "refine2d"));
INSTANTIATE_TEST_SUITE_P(Reductions, CudaCodegen, ::testing::Values("maxnorm2d", "himeno_gosa"));
// Arrays of other ranks than the nest (1D profiles, 2D map factors, component
// dimensions, constant subscripts): read at full index where a grid does not
// fit staging, register columns or plane sums.
INSTANTIATE_TEST_SUITE_P(Ranks, CudaCodegen, ::testing::Values("stress2d", "mapfactor3d"));
// Sweeps with an ordered loop, one running backwards.
INSTANTIATE_TEST_SUITE_P(Ordered, CudaCodegen, ::testing::Values("tridiag_column"));
// Imperfect as written: a red-black colour offset computed between the loops.
INSTANTIATE_TEST_SUITE_P(Imperfect, CudaCodegen, ::testing::Values("rb_colour", "mg_resid"));

// The shape as offset loops inside the point, unrolled.
INSTANTIATE_TEST_SUITE_P(Offsets, CudaCodegen, ::testing::Values("star_offsets"));

TEST(CudaCodegenOffsets, FixedFormOffsetLoopsCompileWithNvcc) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  expect_example_compiles(
      dir, lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/offsets3d.F"));
}

// Survey nest 6 as written: a column per thread with its own work arrays.
TEST(CudaCodegenImperfect, ColumnSolveAsWrittenCompilesWithNvcc) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  std::vector<Kernel> ks =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/survey/s06_vdiff.f");
  ASSERT_EQ(ks.size(), 1u);
  for (const Kernel &k : lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/vmixkmt.f"))
    ks.push_back(k);
  test::ScratchDir dir;
  expect_example_compiles(dir, ks);
}

// Automatic work arrays (cp(nz)): no fixed size for a thread's copy, refused
// with the fix.
TEST(CudaCodegenImperfect, AutomaticWorkArraysOfAColumnAreRefused) {
  std::vector<Kernel> ks =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/vdiffikj.f90");
  ASSERT_EQ(ks.size(), 1u);
  try {
    cuda_variant_code(ks.front(), shape(32, 8, 1, 1, 0));
    ADD_FAILURE() << "expected a refusal";
  } catch (const UserError &e) {
    EXPECT_EQ(e.diagnostic().message,
              "Work array 'cp' of the column is declared (1:nz), not with constant bounds, and "
              "the CUDA target gives each thread a copy of a fixed size; declare it with a named "
              "constant (PARAMETER) as its size");
  }
}

// INTEGER temporaries as subscripts, one computed between the loops.
TEST(CudaCodegenImperfect, IntegerTemporariesAsSubscriptsCompileWithNvcc) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  std::ifstream in(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/prolong2d.f90");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  test::ScratchDir dir;
  expect_example_compiles(dir, test::lower_text(dir, text));
}

// Subscripts offset by INTEGER arguments (`r(2*i - d1, 2*j - d2)`), moved
// into the read grid's bounds.
TEST(CudaImperfect, SubscriptsOffsetByArgumentsCompileWithNvcc) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  std::ifstream in(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/rprjd2d.f90");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  test::ScratchDir dir;
  expect_example_compiles(dir, test::lower_text(dir, text));
}

} // namespace f2s
