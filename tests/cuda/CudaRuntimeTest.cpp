// The CUDA run-time text on the CPU stand-in of tests/cuda/emulation/: which
// GPU a process uses under an MPI launcher (issue 15).
#include "runtime/CudaRuntimeText.h"

#include "common/TestUtil.h"
#include "harness/Process.h"

#include <gtest/gtest.h>

namespace f2s {
namespace {

// Makes one grid present (the first thing a library call does) and prints
// the device that was current for it.
const char *kDeviceProgram = R"(
int main(int argc, char **argv) {
  static double grid[16];
  if (argc > 1)
    cudaSetDevice(atoi(argv[1])); /* the program's own choice */
  f2s_cuda_enter(grid, sizeof grid);
  int device = -1;
  cudaGetDevice(&device);
  printf("%d\n", device);
  f2s_cuda_exit(grid, sizeof grid, 1);
  return 0;
}
)";

TEST(CudaRuntime, EachMpiRankOfANodeTakesItsOwnGpuUnlessTheProgramChose) {
  test::ScratchDir dir;
  std::string src = dir.write("device.cu", std::string("#include <cuda_runtime.h>\n") +
                                               cuda_runtime_text() + "\n" + kDeviceProgram);
  std::string bin = (dir.path() / "device").string();
  Command cxx;
  cxx.argv = {"g++",
              "-std=c++20",
              "-O1",
              "-pthread",
              "-w",
              "-I",
              std::string(F2S_SOURCE_DIR) + "/tests/cuda/emulation",
              "-x",
              "c++",
              src,
              "-o",
              bin};
  ProcessResult built = run_process(cxx);
  ASSERT_TRUE(built.ok()) << built.err.substr(0, 4000);
  auto device = [&](std::vector<std::pair<std::string, std::string>> env,
                    std::vector<std::string> args = {}) {
    Command run;
    run.argv = {bin};
    run.argv.insert(run.argv.end(), args.begin(), args.end());
    env.push_back({"F2S_EMU_DEVICES", "4"});
    run.env = env;
    ProcessResult r = run_process(run);
    EXPECT_TRUE(r.ok()) << r.describe() << r.err;
    return r.out;
  };
  // Outside MPI: the current device, 0.
  EXPECT_EQ(device({}), "0\n");
  // Local rank 5 of 6 on 4 GPUs: GPU 1 (Open MPI's variables, then Slurm's).
  EXPECT_EQ(device({{"OMPI_COMM_WORLD_LOCAL_RANK", "5"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "6"}}),
            "1\n");
  EXPECT_EQ(device({{"SLURM_LOCALID", "2"}, {"SLURM_NTASKS_PER_NODE", "4"}}), "2\n");
  // The user's choice wins: F2S_CUDA_DEVICE, or a device the program made current.
  EXPECT_EQ(device({{"OMPI_COMM_WORLD_LOCAL_RANK", "5"},
                    {"OMPI_COMM_WORLD_LOCAL_SIZE", "6"},
                    {"F2S_CUDA_DEVICE", "3"}}),
            "3\n");
  EXPECT_EQ(
      device({{"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}}, {"2"}),
      "2\n");
}

} // namespace
} // namespace f2s
