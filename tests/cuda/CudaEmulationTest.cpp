// The generated CUDA computes the right values: every example kernel, under
// every kind of mapping (plain, several points per thread, z streams,
// shared-memory planes), at odd sizes that leave partial tiles in x, y and z,
// through its own tuning harness, which compares every grid element with the
// serial reference. The harness and kernels are compiled for the CPU against
// tests/cuda/emulation/cuda_runtime.h (blocks run one after another on
// blockDim fibers, __syncthreads a barrier), so CI checks results
// without a GPU. Timing means nothing here; the GPU machine times.
#include "codegen/CPrinter.h"
#include "codegen/CudaHarnessPrinter.h"
#include "codegen/CudaPrinter.h"
#include "harness/CudaVariants.h"
#include "harness/ProblemSize.h"
#include "harness/Process.h"
#include "tests/common/TestUtil.h"
#include "tests/cuda/CudaShape.h"
#include "tests/cuda/Emulation.h"
#include "transforms/CudaPlaneSums.h"
#include "transforms/RestrictToBox.h"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

namespace f2s {

namespace {

Variant shape(int bx, int by, int px, int py, int sz, int sh = 0, int sum = 0) {
  return test::cuda_shape("e", bx, by, px, py, sz, sh, sum);
}

using test::emulated;

/// A kernel whose every mapping expect_every_mapping_verified runs. With
/// `unboxed`, `k` is that kernel on a box (transforms/RestrictToBox), run
/// once per box of `boxes` (its bounds, lo then hi per axis) at the problem
/// size of the kernel alone.
struct Emulated {
  Kernel k;
  const Kernel *unboxed = nullptr;
  std::vector<std::vector<std::string>> boxes = {{}};
};

/// Builds each kernel's harness for each kind of mapping against the
/// emulated runtime and runs it: every grid element must match the serial
/// reference.
void expect_every_mapping_verified(const test::ScratchDir &dir,
                                   const std::vector<Emulated> &kernels) {
  // One translation unit holds every mapping's harness of every kernel, each
  // in a namespace of its own with its main renamed, and one compile builds
  // them all: the emulated runtime and the harness support are parsed and
  // compiled once per test, not once per kernel or mapping. The binary's
  // first argument picks the kernel's mapping. The headers are included once
  // at the top (the harnesses' #include lines are then no-ops inside the
  // namespaces), and each argument struct is declared once, as the
  // reference's C entry point takes it.
  std::string includes, structs, unit, dispatch;
  struct Entry {
    size_t kernel;
    Variant v;
  };
  std::vector<Entry> entries;
  std::vector<std::string> objects;
  for (size_t n = 0; n < kernels.size(); ++n) {
    const Kernel &k = kernels[n].k;
    SCOPED_TRACE(k.name);
    const int depth = k.loop_depth();
    // Plain; several points per thread; a stream with two points per thread
    // in y; a stream keeping columns in registers (one point per thread, a
    // 3-plane chunk: two planes over); staged; staged with several points.
    // Those with two points along x run on a grid capped to 1x2x2 blocks.
    // Plane sums where they apply (a 3-plane chunk: the first and last
    // outputs of a chunk take the sums of planes outside it).
    std::vector<Variant> shapes = {shape(32, 8, 1, 1, 0, 0), shape(32, 2, 2, 3, 0, 0),
                                   shape(32, 4, 1, 2, 5, 0), shape(32, 2, 1, 1, 3, 0),
                                   shape(32, 4, 1, 1, 5, 1), shape(64, 2, 2, 2, 3, 1)};
    if (plane_sums_pay(k))
      shapes.push_back(shape(32, 2, 1, 1, 3, 0, 1));
    const std::string args_struct = print_c_args_struct(k);
    structs += args_struct + "\n";
    const size_t first = entries.size();
    for (const Variant &v : shapes) {
      if (depth < 3 && v.options.at("sz"))
        continue;
      // An ordered loop runs serially in each thread: no stream along it.
      if ((k.ordered || k.column) &&
          (v.options.at("sz") || v.options.at("sh") || v.options.count("sum")))
        continue;
      SCOPED_TRACE(v.name);
      VariantCode code = cuda_variant_code(k, v);
      CudaHarnessSource h = print_cuda_harness(k, code.cuda_source, "cuda_" + v.name);
      if (entries.size() == first) {
        std::string object = (dir.path() / ("reference" + std::to_string(n) + ".o")).string();
        Command cc;
        cc.argv = {c_compiler(), "-O1",
                   "-std=gnu11", "-ffp-contract=off",
                   "-c",         dir.write("reference" + std::to_string(n) + ".c", h.c_reference),
                   "-o",         object};
        ProcessResult r = run_process(cc);
        ASSERT_TRUE(r.ok()) << r.err;
        objects.push_back(object);
      }
      std::string text = emulated(h.cuda_main, v.options.at("px") == 2);
      for (const std::string &from :
           {args_struct, std::string("int main(int argc, char **argv) {")}) {
        size_t at = text.find(from);
        ASSERT_NE(at, std::string::npos) << from;
        text.replace(at, from.size(),
                     from == args_struct ? "" : "int harness_main(int argc, char **argv) {");
      }
      for (size_t at = 0; (at = text.find("#include ", at)) != std::string::npos;) {
        std::string line = text.substr(at, text.find('\n', at) - at + 1);
        if (includes.find(line) == std::string::npos)
          includes += line;
        at += line.size();
      }
      std::string ns = "mapping" + std::to_string(entries.size());
      unit += "namespace " + ns + " {\n" + text + "} // namespace " + ns + "\n\n";
      dispatch += "  case " + std::to_string(entries.size()) + ":\n    return " + ns +
                  "::harness_main(argc - 1, argv + 1);\n";
      entries.push_back({n, v});
    }
    ASSERT_NE(entries.size(), first) << "no mapping of " << k.name;
  }
  unit = includes + structs + unit +
         "int main(int argc, char **argv) {\n  switch (argc > 1 ? atoi(argv[1]) : -1) {\n" +
         dispatch + "  }\n  return 2;\n}\n";
  std::string bin = (dir.path() / "mappings").string();
  Command cxx;
  cxx.argv = {"g++",
              "-std=c++20",
              "-O1",
              "-ffp-contract=off",
              "-pthread",
              "-w",
              "-I",
              std::string(F2S_SOURCE_DIR) + "/tests/cuda/emulation",
              "-x",
              "c++",
              dir.write("mappings.cu", unit),
              "-x",
              "none"};
  cxx.argv.insert(cxx.argv.end(), objects.begin(), objects.end());
  cxx.argv.insert(cxx.argv.end(), {"-o", bin});
  cxx.timeout_s = 600;
  ProcessResult built = run_process(cxx);
  ASSERT_TRUE(built.ok()) << built.err.substr(0, 4000);
  for (size_t m = 0; m < entries.size(); ++m) {
    const Emulated &e = kernels[entries[m].kernel];
    const Variant &v = entries[m].v;
    SCOPED_TRACE(e.k.name + " " + v.name);
    // Partial tiles everywhere: 37 = 32+5 along x, 19 along y, 11 along z
    // (a 5-plane stream leaves one plane over).
    std::vector<int64_t> extents = {37, 19, 11};
    extents.resize(e.k.loop_depth());
    // Exact, except plane sums: they reassociate the sums (rounding level).
    bool single = false;
    for (const Variable &a : e.k.args)
      single = single || (a.is_grid() && a.type == Type::Float32);
    bool sums = v.options.count("sum") > 0;
    for (const std::vector<std::string> &box : e.boxes) {
      ProblemSize size = problem_size_for(e.unboxed ? *e.unboxed : e.k, extents);
      size.scalar_values.insert(size.scalar_values.end(), box.begin(), box.end());
      std::string where;
      for (const std::string &b : box)
        where += " " + b;
      SCOPED_TRACE(box.empty() ? std::string() : "box" + where);
      Command run;
      run.argv = {bin, std::to_string(m), "1", sums ? (single ? "1e-5" : "1e-12") : "0"};
      for (const std::string &s : size.scalar_values)
        run.argv.push_back(s);
      run.timeout_s = 120;
      ProcessResult r = run_process(run);
      ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
      EXPECT_NE(r.out.find("\"verified\": true"), std::string::npos) << r.out << r.err;
    }
  }
}

void expect_every_mapping_verified(const test::ScratchDir &dir, const Kernel &k) {
  expect_every_mapping_verified(dir, std::vector<Emulated>{{k}});
}

/// Every kernel of `ks`, for expect_every_mapping_verified.
std::vector<Emulated> every(const std::vector<Kernel> &ks) {
  std::vector<Emulated> all;
  for (const Kernel &k : ks)
    all.push_back({k});
  return all;
}

/// The example's source with its REAL(8) declarations made REAL(4).
std::string single_precision(const std::string &name) {
  std::ifstream in(std::string(F2S_SOURCE_DIR) + "/examples/" + name + "/" + name + ".f90");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (size_t pos; (pos = text.find("real(8)")) != std::string::npos;)
    text.replace(pos, 7, "real(4)");
  return text;
}

class CudaEmulation : public ::testing::TestWithParam<std::string> {};

} // namespace

TEST_P(CudaEmulation, EveryMappingMatchesTheSerialReference) {
  test::ScratchDir dir;
  expect_every_mapping_verified(dir, every(test::example_kernels(GetParam())));
}

// A kernel on a box of its points (transforms/RestrictToBox), as K_mpi runs
// its interior and strips on the GPU (docs/mpi.md, "On the GPU"): a box
// inside the points, clear of every edge, and boxes one cell thick in y and
// in z (where a z stream has one plane).
TEST(CudaEmulationBox, KernelOnABoxMatchesTheSerialReference) {
  // Bounds per axis (x: 37 points, y: 19, z: 11), lo then hi.
  const std::vector<std::vector<std::string>> boxes = {{"4", "33", "2", "17", "3", "9"},
                                                       {"3", "35", "18", "18", "2", "10"},
                                                       {"3", "35", "2", "17", "6", "6"}};
  // The boxes' bounds are the harness's arguments: one build of each
  // kernel's mappings runs every box.
  std::vector<Kernel> unboxed;
  for (const char *name : {"box27", "jacobi2d"}) {
    std::vector<Kernel> ks = test::example_kernels(name);
    ASSERT_FALSE(ks.empty()) << name;
    unboxed.push_back(ks[0]);
  }
  std::vector<Emulated> all;
  for (const Kernel &k : unboxed) {
    Emulated e{restrict_to_box(k), &k, {}};
    for (size_t b = 0; b < boxes.size(); ++b) {
      if (b == 2 && e.k.loop_depth() < 3)
        continue;
      e.boxes.push_back(boxes[b]);
      e.boxes.back().resize(2 * e.k.loop_depth());
    }
    all.push_back(e);
  }
  test::ScratchDir dir;
  expect_every_mapping_verified(dir, all);
}

// Single precision: the plane buffers, constants and intrinsics in float.
TEST(CudaEmulationSingle, StarAndBoxMatchTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Emulated> all;
  for (const char *name : {"star13", "box27"}) {
    all.push_back({test::lower_text(dir, single_precision(name))});
    ASSERT_EQ(all.back().k.args.back().type, Type::Float32) << name;
  }
  expect_every_mapping_verified(dir, all);
}

// Plane sums beyond the box: weights that are expressions (a division, a
// negation, a product with the z loop variable, which each output plane
// evaluates at its own k), terms spread over planes -2..1, a part that
// reads another grid (f), and REAL(8) terms stored into a REAL(4) grid.
TEST(CudaEmulationPlaneSums, WeightsRestAndMixedTypesMatchTheSerialReference) {
  const char *text = R"(subroutine aniso(nx, ny, nz, h, s, a, f, b)
  implicit none
  integer, intent(in) :: nx, ny, nz
  real(8), intent(in) :: h, s
  real(8), intent(in) :: a(0:nx+1, 0:ny+1, -1:nz+1), f(nx, ny, nz)
  real(4), intent(inout) :: b(nx, ny, nz)
  real(8) :: t, e
  integer :: i, j, k
  !$f2s stencil
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        t = (a(i-1,j,k) + a(i+1,j,k) + a(i,j-1,k) + a(i,j+1,k)) / h - 4.0d0*a(i,j,k)
        e = a(i-1,j-1,k-1) + a(i+1,j+1,k-1) + a(i-1,j+1,k+1) + a(i+1,j-1,k+1)
        b(i,j,k) = s*t - e*(k*0.5d0) + f(i,j,k) - (a(i,j,k-2) - a(i-1,j,k-2))*s
      end do
    end do
  end do
end subroutine
)";
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, text);
  ASSERT_TRUE(plane_sums_pay(k));
  expect_every_mapping_verified(dir, k);
}

// Branches, MERGE, comparisons and SIGN/LOG/MOD as CUDA prints them, the
// stride-2 red-black loop, and arguments whose names extend one another
// (u, u_n, u_ref) or are the harness's own (tolerance, terms).
TEST(CudaEmulationBranches, MatchTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Emulated> all;
  for (const char *name : {"branches2d", "stride2rb", "names2d"}) {
    std::ifstream in(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/" + name + ".f90");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    all.push_back({test::lower_text(dir, text)});
  }
  expect_every_mapping_verified(dir, all);
}

// The elementary intrinsics, the conversions and REAL powers as CUDA prints
// them (lround, floor, trunc, pow, atan2, ...), from fixed form.
TEST(CudaEmulationIntrinsics, ConversionsAndRealPowersMatchTheSerialReference) {
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/intrinsics2d.f");
  ASSERT_EQ(kernels.size(), 1u);
  test::ScratchDir dir;
  expect_every_mapping_verified(dir, kernels[0]);
}

// Fortran names that are C's (libm functions, GNU C keywords, macros GCC
// predefines) in every role, one role per region: nine kernels.
TEST(CudaEmulationNames, FortranNamesThatAreCsMatchTheSerialReference) {
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/cnames2d.f90");
  ASSERT_EQ(kernels.size(), 9u);
  test::ScratchDir dir;
  expect_every_mapping_verified(dir, every(kernels));
}

// An INTEGER count, a sum with two updates per point and a REAL(4) minimum
// under an IF, with the block trees of all three side by side; and a nest
// whose only results are reductions (no grid written).
TEST(CudaEmulationReductions, IntegerRealAndSingleMatchTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Emulated> all;
  for (const char *name : {"reductions2d", "norm2d"}) {
    std::ifstream in(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/" + name + ".f90");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    all.push_back({test::lower_text(dir, text)});
  }
  expect_every_mapping_verified(dir, all);
}

INSTANTIATE_TEST_SUITE_P(Examples, CudaEmulation,
                         ::testing::Values("laplacian", "divergence", "gradient", "star7", "star13",
                                           "himeno19", "box27", "laplacian_f77", "jacobi3d_f77",
                                           "heat3d_modern"));
// The wider kernel class: a 1D nest, 2D nests with several grids, variable
// coefficients and temporaries, three regions in one file, IF/ELSE and
// MERGE, and an in-place red-black colour test.
INSTANTIATE_TEST_SUITE_P(KernelClass, CudaEmulation,
                         ::testing::Values("jacobi1d", "jacobi2d", "poisson2d", "fdtd2d",
                                           "upwind2d", "gsrb3d"));
// Reductions over the nest: per-thread partials, a tree per block, the
// blocks' partials combined on the host, under every mapping.
// Multigrid transfers: subscripts 2*i + o in reads and in several stores of
// one grid, which the point pointers and staging leave to full indexing;
// and stride-2 loops as unit-step counters.
INSTANTIATE_TEST_SUITE_P(Multigrid, CudaEmulation,
                         ::testing::Values("restrict3d", "interp3d", "refine2d"));
INSTANTIATE_TEST_SUITE_P(Reductions, CudaEmulation, ::testing::Values("maxnorm2d", "himeno_gosa"));
// Arrays of other ranks than the nest (1D profiles, 2D map factors, component
// dimensions, constant subscripts): read at full index where a grid does not
// fit staging, register columns or plane sums.
INSTANTIATE_TEST_SUITE_P(Ranks, CudaEmulation, ::testing::Values("stress2d", "mapfactor3d"));

// Sweeps with one ordered loop: one thread per column (or per points_x by
// points_y columns), the ordered loop serial inside it, also backwards.
INSTANTIATE_TEST_SUITE_P(Ordered, CudaEmulation, ::testing::Values("tridiag_column"));

// Triangular and wedge domains: launches over the bounding box, the points
// outside skipped, under every mapping.
TEST(CudaEmulationBoundingBox, TriangleAndWedgeMatchTheSerialReference) {
  std::vector<Emulated> all;
  for (const char *name : {"tri2d", "wedge3d"})
    for (const Kernel &k :
         lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/" + name + ".f90"))
      all.push_back({k});
  test::ScratchDir dir;
  expect_every_mapping_verified(dir, all);
}

// Recurrences along the innermost loop (both ways) and along the innermost
// loop of a level-first (k,i,j) layout.
TEST(CudaEmulationOrdered, LineAndColumnRecurrencesMatchTheSerialReference) {
  std::vector<Emulated> all;
  for (const char *name : {"linerec2d", "colsweep3d"})
    for (const Kernel &k :
         lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/" + name + ".f90")) {
      ASSERT_TRUE(k.ordered) << k.name;
      all.push_back({k});
    }
  test::ScratchDir dir;
  expect_every_mapping_verified(dir, all);
}

// Imperfect nests as written, made perfect by canonicalization: a red-black
// colour offset computed between the loops.
INSTANTIATE_TEST_SUITE_P(Imperfect, CudaEmulation, ::testing::Values("rb_colour", "mg_resid"));

// The shape as offset loops inside the point: a radius-2 star with a weights
// array; in fixed form, a 27-point box of nested offset loops (radius a cpp
// macro) and a loop counting down.
INSTANTIATE_TEST_SUITE_P(Offsets, CudaEmulation, ::testing::Values("star_offsets"));

TEST(CudaEmulationOffsets, FixedFormOffsetLoopsMatchTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/offsets3d.F");
  ASSERT_EQ(kernels.size(), 2u);
  expect_every_mapping_verified(dir, every(kernels));
}

// INTEGER temporaries as subscripts, one computed between the loops.
TEST(CudaEmulationImperfect, IntegerTemporariesAsSubscriptsMatchTheSerialReference) {
  std::ifstream in(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/prolong2d.f90");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  test::ScratchDir dir;
  expect_every_mapping_verified(dir, test::lower_text(dir, text));
}

// Subscripts offset by INTEGER arguments (`r(2*i - d1, 2*j - d2)`), moved
// into the read grid's bounds.
TEST(CudaImperfect, SubscriptsOffsetByArgumentsMatchTheSerialReference) {
  std::ifstream in(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/rprjd2d.f90");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  test::ScratchDir dir;
  expect_every_mapping_verified(dir, test::lower_text(dir, text));
}

// A prolongation in F77 whose buffer readers store the fine grid at elements
// of other parities, fused into one loop.
TEST(CudaEmulationImperfect, ProlongationWithLineBuffersMatchesTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/intrp3d.f");
  ASSERT_EQ(kernels.size(), 1u);
  expect_every_mapping_verified(dir, kernels.front());
}

// Points skipped by IF (...) GO TO and IF (...) CYCLE, in F77.
TEST(CudaEmulationConditionals, PointsSkippedByJumpsMatchTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/skipland2d.f");
  ASSERT_EQ(kernels.size(), 2u);
  expect_every_mapping_verified(dir, every(kernels));
}

// From the blind survey: a sponge factor set under an IF between the loops
// (moved into the point), and an F77 MUSCL flux on grids sized by included
// PARAMETERs.
TEST(CudaEmulationImperfect, BlindSurveyNestsMatchTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Emulated> all;
  for (const char *input : {"b07_kji.f90", "b02_cflux.f"}) {
    std::vector<Kernel> kernels =
        lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/blind/" + input);
    ASSERT_EQ(kernels.size(), 1u) << input;
    all.push_back({kernels.front()});
  }
  expect_every_mapping_verified(dir, all);
}

// A restriction in F77 with its line buffers filled at the fine index.
TEST(CudaEmulationImperfect, RestrictionWithBuffersAtTheFineIndexMatchesTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/rstrct3d.f");
  ASSERT_EQ(kernels.size(), 1u);
  expect_every_mapping_verified(dir, kernels.front());
}

// A tridiagonal solve per column rewritten as the refusal of the column form
// says: the top level over (J, I), two sweeps ordered along K, the bottom
// level under an IF in the first.
TEST(CudaEmulationImperfect, ColumnSolveRewrittenAsTheRefusalSaysMatchesTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/vmixcol3d.f");
  ASSERT_EQ(kernels.size(), 3u);
  expect_every_mapping_verified(dir, every(kernels));
}

// Survey nest 6 as written: one thread per column (or per points_x by
// points_y columns, one after the other), the work arrays CP(K), DP(K) the
// thread's own, the loops over K in order inside it.
TEST(CudaEmulationImperfect, ColumnSolveAsWrittenMatchesTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/survey/s06_vdiff.f");
  ASSERT_EQ(kernels.size(), 1u);
  ASSERT_TRUE(kernels.front().column);
  expect_every_mapping_verified(dir, kernels.front());
}

// An ocean column over a varying sea floor: land skipped by GO TO, the
// coefficients masked by IF on KMT(I,J) in the loop.
TEST(CudaEmulationImperfect, ColumnSolveOverAVaryingSeaFloorMatchesTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/vmixkmt.f");
  ASSERT_EQ(kernels.size(), 1u);
  expect_every_mapping_verified(dir, kernels.front());
}

// Statement functions inlined, in F77.
TEST(CudaEmulationConditionals, StatementFunctionsMatchTheSerialReference) {
  test::ScratchDir dir;
  std::vector<Kernel> kernels =
      lower_file(std::string(F2S_SOURCE_DIR) + "/tests/inputs/e2e/stfun2d.f");
  ASSERT_EQ(kernels.size(), 1u);
  expect_every_mapping_verified(dir, kernels.front());
}

} // namespace f2s
