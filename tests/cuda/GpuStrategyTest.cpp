// strategy/GpuModel (the probe's output) and strategy/GpuEngine (legal,
// sensible CUDA candidates).
#include "strategy/GpuEngine.h"
#include "strategy/GpuModel.h"
#include "tests/common/TestUtil.h"

#include <gtest/gtest.h>

#include <set>

namespace f2s {

TEST(GpuModel, ParsesTheProbe) {
  std::string err;
  auto m = gpu_model_from_probe(
      "noise\nF2S-GPU major=9;minor=0;sms=132;warp=32;max_threads_block=1024;max_threads_sm=2048;"
      "regs_per_block=65536;regs_per_sm=65536;smem_per_block=49152;smem_per_block_optin=232448;"
      "smem_per_sm=233472;l2_bytes=52428800;global_bytes=85045231616;name=NVIDIA H100 80GB HBM3\n",
      &err);
  ASSERT_TRUE(m) << err;
  EXPECT_EQ(m->name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(m->sms, 132);
  EXPECT_EQ(m->arch(), "sm_90");
  EXPECT_EQ(m->smem_per_block_optin, 232448);
  EXPECT_FALSE(gpu_model_from_probe("F2S-GPU-ERROR no CUDA device\n", &err));
  EXPECT_EQ(err, "no CUDA device");
  EXPECT_FALSE(gpu_model_from_probe("", &err));
}

// A sweep with an ordered loop: plain mappings of the free loops only, the
// ordered loop serial in each thread.
TEST(GpuEngine, AnOrderedNestIsNeitherStreamedNorStaged) {
  GpuModel gpu = gpu_model_h100();
  for (const Kernel &k : test::example_kernels("tridiag_column")) {
    SCOPED_TRACE(k.name);
    ASSERT_TRUE(k.ordered);
    SearchSpace space;
    CudaEnumeration e = enumerate_cuda(space, k, analyze(k), {1024, 1024, 64}, {&gpu, 12});
    ASSERT_FALSE(space.candidates.empty());
    EXPECT_GT(e.pruned.at("z streams, staging or plane sums of a nest with an ordered loop"), 0u);
    for (const Candidate &c : space.candidates) {
      const Variant &v = space.variants[c.variant];
      EXPECT_EQ(v.options.at("sz"), 0) << v.name;
      EXPECT_EQ(v.options.at("sh"), 0) << v.name;
      EXPECT_FALSE(v.options.count("sum")) << v.name;
    }
  }
}

// Planes at run-time positions (ast/Planes): staging, z streams and plane
// sums read subscripts as loop variables plus constants, so a nest with a
// plane (`v(i, j, n0)`) gets plain mappings only.
TEST(GpuEngine, ANestWithPlanesAtRunTimePositionsIsNeitherStreamedNorStaged) {
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, R"(subroutine s(nx, ny, nz, n0, u, v)
  implicit none
  integer :: nx, ny, nz, n0, i, j, k
  real(8) :: u(nx, ny, nz), v(nx, ny, nz)
  !$f2s stencil
  do k = 2, nz - 1
    do j = 2, ny - 1
      do i = 2, nx - 1
        u(i, j, k) = 0.5d0*(v(i-1, j, k) + v(i+1, j, k)) + v(i, j, n0)
      end do
    end do
  end do
end subroutine
)");
  GpuModel gpu = gpu_model_h100();
  SearchSpace space;
  CudaEnumeration e = enumerate_cuda(space, k, analyze(k), {256, 256, 256}, {&gpu, 12});
  ASSERT_FALSE(space.candidates.empty());
  EXPECT_GT(e.pruned.at("z streams, staging or plane sums of a nest with planes at run-time "
                        "positions"),
            0u);
  for (const Candidate &c : space.candidates) {
    const Variant &v = space.variants[c.variant];
    EXPECT_EQ(v.options.at("sz"), 0) << v.name;
    EXPECT_EQ(v.options.at("sh"), 0) << v.name;
    EXPECT_FALSE(v.options.count("sum")) << v.name;
  }
}

// --search=exhaustive and compare: every legal candidate, the model's picks
// among them, and nothing left out for the measuring budget.
TEST(GpuEngine, EveryLegalCandidateWhenAskedForAll) {
  Kernel k = test::example_kernel("laplacian");
  GpuModel gpu = gpu_model_h100();
  SearchSpace picked, all;
  enumerate_cuda(picked, k, analyze(k), {256, 256, 256}, {&gpu, 12});
  CudaEnumeration e = enumerate_cuda(all, k, analyze(k), {256, 256, 256}, {&gpu, kAllCandidates});
  EXPECT_EQ(e.pruned.count("ranked below the measuring budget by the model"), 0u);
  EXPECT_GT(all.candidates.size(), 10 * picked.candidates.size());
  std::set<std::string> every;
  for (const Candidate &c : all.candidates)
    every.insert(all.describe(c));
  EXPECT_EQ(every.size(), all.candidates.size()) << "each once";
  for (const Candidate &c : picked.candidates)
    EXPECT_TRUE(every.count(picked.describe(c))) << picked.describe(c);
  size_t pruned = 0;
  for (const auto &[why, n] : e.pruned)
    pruned += n;
  // Every shape considered is pruned or kept; the default 32x8 is legal at
  // 256^3, so it is one of the kept and nothing is added apart.
  EXPECT_EQ(e.considered, pruned + all.candidates.size());
}

TEST(GpuEngine, EnumeratesOnlyLegalLaunchShapes) {
  Kernel k = test::example_kernel("laplacian");
  GpuModel gpu = gpu_model_h100();
  SearchSpace space;
  CudaEnumeration e = enumerate_cuda(space, k, analyze(k), {512, 512, 512}, {&gpu, 12});
  ASSERT_FALSE(space.candidates.empty());
  EXPECT_LE(space.candidates.size(), 13u);
  EXPECT_GT(e.considered, space.candidates.size());
  EXPECT_GT(e.pruned.at("ranked below the measuring budget by the model"), 0u);
  bool streamed = false, plain = false;
  for (const Candidate &c : space.candidates) {
    const Variant &v = space.variants[c.variant];
    EXPECT_EQ(v.target, "cuda");
    int bx = v.options.at("bx"), by = v.options.at("by");
    EXPECT_EQ(bx % gpu.warp, 0) << v.name;
    EXPECT_LE(bx * by, 1024) << v.name;
    EXPECT_GE(bx * by, 64) << v.name;
    streamed = streamed || v.options.at("sz") > 0;
    plain = plain || v.name == "plain32x8";
  }
  EXPECT_TRUE(streamed);
  EXPECT_TRUE(plain) << "the default plain mapping is always measured";
  // The report names a CUDA candidate by its whole variant name, without a
  // CPU thread count.
  Candidate d = default_cuda_candidate(space);
  EXPECT_EQ(space.describe(d), "cuda/plain32x8 bx=32 by=8 px=1 py=1 sh=0 sz=0");
  // Shared-memory staging is measured where a grid is read around the point
  // (the Laplacian's u), never where none is (the divergence).
  size_t staged = 0;
  for (const Candidate &c : space.candidates)
    staged += space.variants[c.variant].options.at("sh") ? 1 : 0;
  EXPECT_GE(staged, 1u);
  Kernel div = test::example_kernel("divergence");
  SearchSpace dspace;
  CudaEnumeration de = enumerate_cuda(dspace, div, analyze(div), {512, 512, 512}, {&gpu, 12});
  for (const Candidate &c : dspace.candidates)
    EXPECT_EQ(dspace.variants[c.variant].options.at("sh"), 0);
  EXPECT_GT(de.pruned.at("no grid worth staging in shared memory"), 0u);
  // Plane sums are measured for the 27-point box, on one-point z streams,
  // and not for the Laplacian (a star: its register pipeline loads as little).
  for (const Candidate &c : space.candidates)
    EXPECT_EQ(space.variants[c.variant].options.count("sum"), 0u);
  EXPECT_GT(e.pruned.at("plane sums that do not apply or pay"), 0u);
  Kernel box = test::example_kernel("box27");
  SearchSpace bspace;
  enumerate_cuda(bspace, box, analyze(box), {512, 512, 512}, {&gpu, 12});
  size_t summed = 0;
  std::set<int> chunks;
  for (const Candidate &c : bspace.candidates) {
    const Variant &v = bspace.variants[c.variant];
    if (!v.options.count("sum"))
      continue;
    ++summed;
    EXPECT_TRUE(chunks.insert(v.options.at("sz")).second) << "one per chunk length: " << v.name;
    EXPECT_GT(v.options.at("sz"), 0) << v.name;
    EXPECT_EQ(v.options.at("px") * v.options.at("py"), 1) << v.name;
    EXPECT_NE(v.name.find("_sums"), std::string::npos) << v.name;
  }
  EXPECT_EQ(summed, 3u);
  EXPECT_LE(bspace.candidates.size(), 13u);
  // --exact: nothing that reassociates.
  SearchSpace exact;
  enumerate_cuda(exact, box, analyze(box), {512, 512, 512}, {&gpu, 12, false});
  for (const Candidate &c : exact.candidates)
    EXPECT_EQ(exact.variants[c.variant].options.count("sum"), 0u);
  // Small extents: no tile wider than the axis, no stream longer than z.
  SearchSpace small;
  enumerate_cuda(small, k, analyze(k), {40, 24, 12}, {&gpu, 100});
  for (const Candidate &c : small.candidates) {
    const Variant &v = small.variants[c.variant];
    EXPECT_LE(v.options.at("sz"), 12) << v.name;
    EXPECT_LE(v.options.at("py") * v.options.at("by"), 24) << v.name;
  }
}

} // namespace f2s
