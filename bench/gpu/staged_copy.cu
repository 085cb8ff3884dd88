// Host<->device copies of pageable memory: plain cudaMemcpy against the
// library's staged copy (f2s_cuda_copy through its ring of pinned buffers,
// runtime/f2s_cuda_runtime.cu), with a pinned-to-device cudaMemcpy as the
// link's bound, for 64 MiB to 1 GiB each way. Wall time of the whole copy
// (both are synchronous), median of 5 after a warm-up; GB/s = 1e9 bytes/s.
// The library's run-time text is compiled in, as the generated libraries
// embed it, so the staged path measured is the one they run.
//
//   nvcc -O2 -arch=sm_90 bench/gpu/staged_copy.cu -o staged_copy
//   ./staged_copy [largest MiB, 1024] [F2S_CUDA_STAGE=0 in the environment: both plain]
#include "../../runtime/f2s_cuda_runtime.h"
// The order runtime/EmbedCudaRuntime.cmake puts them in.
#include "../../runtime/f2s_calls.c"
#include "../../runtime/f2s_cuda_runtime.cu"
#include "../../runtime/f2s_launcher.c"

#include <algorithm>
#include <sys/mman.h>
#include <thread>
#include <vector>

static double median_gbs(size_t bytes, std::vector<double> seconds) {
  std::sort(seconds.begin(), seconds.end());
  return 1e-9 * (double)bytes / seconds[seconds.size() / 2];
}

int main(int argc, char **argv) {
  const size_t largest = (argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024) << 20;
  char *host = (char *)malloc(largest), *back = (char *)malloc(largest), *pinned = NULL;
  void *dev = NULL;
  f2s_cuda_check(cudaMalloc(&dev, largest), "cudaMalloc");
  f2s_cuda_check(cudaMallocHost((void **)&pinned, largest), "cudaMallocHost");
  for (size_t i = 0; i < largest; ++i) /* touched: no page faults in the timings */
    host[i] = (char)(i * 131 + (i >> 20));
  memset(back, 0, largest);
  memset(pinned, 1, largest);

  double t = f2s_now_();
  f2s_cuda_copy(dev, host, f2s_stage_min, cudaMemcpyHostToDevice, "warm-up");
  t = f2s_now_() - t;
  printf("staged copies: threshold %zu MiB, chunks of %zu MiB, %d pinned buffers, %d host "
         "threads%s; first copy (makes the ring) %.1f ms\n",
         f2s_stage_min >> 20, f2s_stage_chunk >> 20, (int)F2S_STAGE_BUFS, f2s_stage_threads,
         f2s_stage_state > 0 ? "" : " (NOT STAGED: F2S_CUDA_STAGE=0 or no pinned memory)", 1e3 * t);
  printf("%10s %12s %12s %12s %12s %12s %12s  %s\n", "MiB", "plain h2d", "staged h2d", "pinned h2d",
         "plain d2h", "staged d2h", "pinned d2h", "(GB/s)");
  for (size_t bytes = (size_t)64 << 20; bytes <= largest; bytes *= 2) {
    std::vector<double> s[6];
    for (int rep = 0; rep < 6; ++rep) {
      double t0;
      t0 = f2s_now_();
      f2s_cuda_check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "plain h2d");
      s[0].push_back(f2s_now_() - t0);
      t0 = f2s_now_();
      f2s_cuda_copy(dev, host, bytes, cudaMemcpyHostToDevice, "staged h2d");
      s[1].push_back(f2s_now_() - t0);
      t0 = f2s_now_();
      f2s_cuda_check(cudaMemcpy(dev, pinned, bytes, cudaMemcpyHostToDevice), "pinned h2d");
      s[2].push_back(f2s_now_() - t0);
      t0 = f2s_now_();
      f2s_cuda_check(cudaMemcpy(back, dev, bytes, cudaMemcpyDeviceToHost), "plain d2h");
      s[3].push_back(f2s_now_() - t0);
      /* The staged copy back must give what the staged copy in wrote. */
      f2s_cuda_copy(dev, host, bytes, cudaMemcpyHostToDevice, "staged h2d");
      memset(back, 0, bytes);
      t0 = f2s_now_();
      f2s_cuda_copy(back, dev, bytes, cudaMemcpyDeviceToHost, "staged d2h");
      s[4].push_back(f2s_now_() - t0);
      if (memcmp(back, host, bytes) != 0) {
        fprintf(stderr, "staged_copy: the round trip of %zu bytes changed them\n", bytes);
        return 1;
      }
      t0 = f2s_now_();
      f2s_cuda_check(cudaMemcpy(pinned, dev, bytes, cudaMemcpyDeviceToHost), "pinned d2h");
      s[5].push_back(f2s_now_() - t0);
      if (rep == 0) /* the warm-up */
        for (auto &v : s)
          v.clear();
    }
    printf("%10zu", bytes >> 20);
    for (auto &v : s)
      printf(" %12.1f", median_gbs(bytes, v));
    printf("\n");
  }
  /* A copy back into pages the host never wrote (a data region whose
   * arrays the device filled): each rep maps fresh memory. "fresh" takes a
   * page fault per 4 KiB inside the copy; "hugepage" is advised
   * MADV_HUGEPAGE first (a fault per 2 MiB where the kernel grants them);
   * "populated" has MADV_POPULATE_WRITE run first, timed apart ("populate"),
   * so that the copy itself meets no fault; "populate x8" the same advice
   * by 8 threads, each on an eighth. */
  printf("%10s %12s %12s %12s %12s %12s  %s\n", "MiB", "fresh d2h", "hugepage d2h", "populate",
         "populated d2h", "populate x8", "(GB/s; staged copies)");
  for (size_t bytes = (size_t)256 << 20; bytes <= largest; bytes *= 2) {
    std::vector<double> s[5];
    for (int rep = 0; rep < 4; ++rep)
      for (int form = 0; form < 4; ++form) {
        char *fresh =
            (char *)mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (fresh == MAP_FAILED)
          return 1;
        if (form == 1)
          madvise(fresh, bytes, MADV_HUGEPAGE);
        double t0 = f2s_now_();
        if (form == 3) {
          std::vector<std::thread> team;
          const size_t eighth = (bytes / 8) & ~(size_t)4095;
          for (int k = 0; k < 8; ++k)
            team.emplace_back([=] {
              madvise(fresh + k * eighth, k == 7 ? bytes - 7 * eighth : eighth,
                      MADV_POPULATE_WRITE);
            });
          for (auto &t : team)
            t.join();
          s[4].push_back(f2s_now_() - t0);
          munmap(fresh, bytes);
          continue;
        }
        if (form == 2) {
          if (madvise(fresh, bytes, MADV_POPULATE_WRITE) != 0)
            perror("madvise(MADV_POPULATE_WRITE)");
          s[2].push_back(f2s_now_() - t0);
          t0 = f2s_now_();
        }
        f2s_cuda_copy(fresh, dev, bytes, cudaMemcpyDeviceToHost, "fresh d2h");
        s[form == 2 ? 3 : form].push_back(f2s_now_() - t0);
        munmap(fresh, bytes);
      }
    printf("%10zu", bytes >> 20);
    for (auto &v : s)
      printf(" %12.1f", median_gbs(bytes, v));
    printf("\n");
  }
  printf("staged copies made: %lld\n", f2s_stage_copies);
  return 0;
}
