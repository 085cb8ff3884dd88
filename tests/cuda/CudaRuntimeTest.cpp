// The CUDA run-time text on the CPU stand-in of tests/cuda/emulation/: which
// GPU a process uses under an MPI launcher (issue 15); large copies staged
// through pinned memory (issue 37).
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

// The run-time text and `program`, built on the emulation: the binary.
std::string build_with_runtime(test::ScratchDir &dir, const std::string &name,
                               const char *program) {
  std::string src = dir.write(name + ".cu", std::string("#include <cuda_runtime.h>\n") +
                                                cuda_runtime_text() + "\n" + program);
  std::string bin = (dir.path() / name).string();
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
  EXPECT_TRUE(built.ok()) << built.err.substr(0, 4000);
  return built.ok() ? bin : "";
}

TEST(CudaRuntime, EachMpiRankOfANodeTakesItsOwnGpuUnlessTheProgramChose) {
  test::ScratchDir dir;
  std::string bin = build_with_runtime(dir, "device", kDeviceProgram);
  ASSERT_FALSE(bin.empty());
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

// Copies of many sizes each way through f2s_cuda_copy, the bytes checked
// and the bytes around them untouched; whether each went through the pinned
// ring. argv[1]: "small" (a 1000-byte threshold, 4 KiB chunks, so that a
// copy wraps the ring many times) or the library's sizes. The emulation runs
// the ring's DMA only when the code waits for it (f2s_emu_async), so a
// buffer refilled or read before its copy ended shows as wrong bytes.
const char *kStagedProgram = R"(
static unsigned char pattern(size_t i, int seed) { return (unsigned char)(i * 131 + seed * 7 + (i >> 12)); }

/* 1 where a copy of `bytes` each way gives exactly the bytes. */
static int round_trip(size_t bytes, int seed) {
  const size_t guard = 64;
  unsigned char *host = (unsigned char *)malloc(bytes + 2 * guard);
  unsigned char *back = (unsigned char *)malloc(bytes + 2 * guard);
  unsigned char *dev = NULL;
  cudaMalloc((void **)&dev, bytes + 2 * guard);
  memset(dev, 0xEE, bytes + 2 * guard);
  memset(back, 0xDD, bytes + 2 * guard);
  for (size_t i = 0; i < bytes + 2 * guard; ++i)
    host[i] = pattern(i, seed);
  f2s_cuda_copy(dev + guard, host + guard, bytes, cudaMemcpyHostToDevice, "test to device");
  /* Complete on return, without a wait: the DMA left queued would show. */
  int ok = memcmp(dev + guard, host + guard, bytes) == 0 && dev[guard - 1] == 0xEE &&
           dev[guard + bytes] == 0xEE;
  f2s_cuda_copy(back + guard, dev + guard, bytes, cudaMemcpyDeviceToHost, "test to host");
  ok = ok && memcmp(back + guard, host + guard, bytes) == 0 && back[guard - 1] == 0xDD &&
       back[guard + bytes] == 0xDD;
  cudaFree(dev);
  free(host);
  free(back);
  return ok;
}

int main(int argc, char **argv) {
  f2s_emu_async = true;
  if (argc > 1 && !strcmp(argv[1], "small")) {
    f2s_stage_min = 1000;
    f2s_stage_chunk = 4096 * 4;
    f2s_stage_piece_min = 4096;
  }
  const size_t min = f2s_stage_min, chunk = f2s_stage_chunk;
  const size_t sizes[] = {min - 1,   min,           min + 1,
                          chunk - 3, chunk,         chunk + 1,
                          3 * chunk + 12345 % chunk, 2 * F2S_STAGE_BUFS * chunk + 13};
  for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; ++k) {
    long long staged = f2s_stage_copies;
    int ok = round_trip(sizes[k], (int)k);
    printf("%zu %s %lld\n", sizes[k], ok ? "ok" : "WRONG", f2s_stage_copies - staged);
  }

  /* A kernel still running on the legacy stream when the copy to the host
   * is asked for: the copy sees what it writes. */
  const size_t n = 3 * chunk + 5;
  unsigned char *dev = NULL, *host = (unsigned char *)malloc(n), *seen = (unsigned char *)malloc(n);
  cudaMalloc((void **)&dev, n);
  memset(dev, 0, n);
  f2s_emu_enqueue(0, [=] { for (size_t i = 0; i < n; ++i) dev[i] = pattern(i, 99); });
  f2s_cuda_copy(host, dev, n, cudaMemcpyDeviceToHost, "test to host");
  int ok = 1;
  for (size_t i = 0; i < n; ++i)
    ok &= host[i] == pattern(i, 99);
  printf("after a kernel: %s\n", ok ? "ok" : "WRONG");

  /* A kernel still reading the destination when the copy to the device is
   * asked for: it reads the old values. */
  f2s_emu_enqueue(0, [=] { memcpy(seen, dev, n); });
  for (size_t i = 0; i < n; ++i)
    host[i] = pattern(i, 7);
  f2s_cuda_copy(dev, host, n, cudaMemcpyHostToDevice, "test to device");
  cudaDeviceSynchronize();
  ok = 1;
  for (size_t i = 0; i < n; ++i)
    ok &= seen[i] == pattern(i, 99) && dev[i] == pattern(i, 7);
  printf("before a kernel's reads end: %s\n", ok ? "ok" : "WRONG");
  return 0;
}
)";

TEST(CudaRuntime, LargeCopiesGoThroughThePinnedRingAndGiveExactlyTheBytes) {
  test::ScratchDir dir;
  std::string bin = build_with_runtime(dir, "staged", kStagedProgram);
  ASSERT_FALSE(bin.empty());
  auto run = [&](std::string sizes, std::vector<std::pair<std::string, std::string>> env = {}) {
    Command c;
    c.argv = {bin, sizes};
    c.env = env;
    ProcessResult r = run_process(c);
    EXPECT_TRUE(r.ok()) << r.describe() << r.err;
    return r.out;
  };
  // Below the threshold cudaMemcpy; at it and above, the ring: smaller than
  // a chunk, a chunk, one byte more, not a multiple of it, round the ring twice.
  const std::string staged = "999 ok 0\n1000 ok 2\n1001 ok 2\n16381 ok 2\n16384 ok 2\n"
                             "16385 ok 2\n61497 ok 2\n131085 ok 2\n"
                             "after a kernel: ok\nbefore a kernel's reads end: ok\n";
  EXPECT_EQ(run("small"), staged);
  // The library's sizes: 4 MiB threshold, 8 MiB chunks.
  EXPECT_EQ(run("default"), "4194303 ok 0\n4194304 ok 2\n4194305 ok 2\n8388605 ok 2\n"
                            "8388608 ok 2\n8388609 ok 2\n25178169 ok 2\n67108877 ok 2\n"
                            "after a kernel: ok\nbefore a kernel's reads end: ok\n");
  // F2S_CUDA_STAGE=0: every copy plain, the same bytes.
  std::string plain = run("small", {{"F2S_CUDA_STAGE", "0"}});
  EXPECT_EQ(plain,
            "999 ok 0\n1000 ok 0\n1001 ok 0\n16381 ok 0\n16384 ok 0\n16385 ok 0\n"
            "61497 ok 0\n131085 ok 0\nafter a kernel: ok\nbefore a kernel's reads end: ok\n");
}

} // namespace
} // namespace f2s
