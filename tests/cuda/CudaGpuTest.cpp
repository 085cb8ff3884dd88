// End to end through the f2stencil binary: without a GPU, tuning for CUDA
// stops with a clear error; with one (the device machine), the data-region
// program keeps ten sweeps transfer-free and matches the CPU.
#include "harness/CudaToolkit.h"
#include "harness/CudaTuner.h"
#include "harness/Process.h"
#include "tests/common/TestUtil.h"

#include <gtest/gtest.h>

namespace f2s {

namespace {

std::string f2stencil() {
  return std::string(F2S_BINARY_DIR) + "/driver/f2stencil";
}

bool gpu_visible(const test::ScratchDir &dir) {
  try {
    probe_gpu(dir.path() / "probe");
    return true;
  } catch (const std::exception &) {
    return false;
  }
}

} // namespace

TEST(CudaTarget, TuningWithoutAGpuIsAClearError) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  if (gpu_visible(dir))
    GTEST_SKIP() << "a GPU is visible";
  Command c;
  c.argv = {f2stencil(),
            "--target=cuda",
            "--tuning-db",
            (dir.path() / "tuning.db").string(),
            "-o",
            (dir.path() / "out").string(),
            std::string(F2S_SOURCE_DIR) + "/examples/laplacian/laplacian.f90"};
  c.timeout_s = 300;
  ProcessResult r = run_process(c);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("needs a visible GPU"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--no-tune"), std::string::npos) << r.err;
}

TEST(CudaTarget, DataRegionKeepsIterationsTransferFree) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  // Building the untuned library needs no GPU.
  std::string lib = (dir.path() / "lap").string();
  Command build;
  build.argv = {f2stencil(),
                "-q",
                "--target=pthreads,cuda",
                "--no-tune",
                "-o",
                lib,
                std::string(F2S_SOURCE_DIR) + "/examples/laplacian/laplacian.f90"};
  build.timeout_s = 600;
  ProcessResult b = run_process(build);
  ASSERT_TRUE(b.ok()) << b.err;
  std::string prog = (dir.path() / "data_region").string();
  Command cc;
  cc.argv = {c_compiler(),
             "-O2",
             "-I",
             lib,
             std::string(F2S_SOURCE_DIR) + "/tests/e2e/cuda_data_region.c",
             "-L",
             lib,
             "-Wl,-rpath," + lib,
             "-lf2s_laplacian",
             "-lm",
             "-o",
             prog};
  ProcessResult ccr = run_process(cc);
  ASSERT_TRUE(ccr.ok()) << ccr.err;
  if (!gpu_visible(dir))
    GTEST_SKIP() << "no GPU visible: built, not run";
  Command run;
  run.argv = {prog};
  run.timeout_s = 120;
  ProcessResult r = run_process(run);
  EXPECT_TRUE(r.ok()) << r.out << r.err;
  EXPECT_NE(r.out.find("0 transfers during 10 sweeps"), std::string::npos) << r.out;
}

} // namespace f2s
