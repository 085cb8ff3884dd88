// The links a halo exchange between the GPUs of one host can take, measured
// (bench/mpi/gpu.sh, issue 17): device to pinned host and back (the staged
// path of an MPI that is not CUDA-aware) and, between two GPUs, a peer copy
// (what a CUDA-aware MPI or CUDA IPC would use), each at the size of one
// halo face and at 64 MiB. Prints one line a measurement:
//   LINK what=d2h gpu=0 bytes=2097152 GBps=51.2 us=41.0
//   nvcc -O2 -arch=sm_90 -o links links.cu && ./links 2097152
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

static void check(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "links: %s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

// Best of `reps` copies of `bytes` from src to dst, each timed with events on
// the current device's stream: microseconds.
static double best_us(void *dst, const void *src, size_t bytes, int reps) {
  cudaEvent_t a, b;
  check(cudaEventCreate(&a), "event");
  check(cudaEventCreate(&b), "event");
  float best = 1e30f;
  for (int r = 0; r < reps; ++r) {
    check(cudaEventRecord(a), "record");
    check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault), "copy");
    check(cudaEventRecord(b), "record");
    check(cudaEventSynchronize(b), "sync");
    float ms;
    check(cudaEventElapsedTime(&ms, a, b), "elapsed");
    if (ms < best)
      best = ms;
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return best * 1e3;
}

static void report(const char *what, int gpu, size_t bytes, double us) {
  std::printf("LINK what=%s gpu=%d bytes=%zu GBps=%.1f us=%.1f\n", what, gpu, bytes,
              bytes / us * 1e-3, us);
}

int main(int argc, char **argv) {
  size_t face = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (size_t)2 << 20;
  int count = 0;
  check(cudaGetDeviceCount(&count), "counting GPUs");
  for (size_t bytes : {face, (size_t)64 << 20}) {
    for (int g = 0; g < count && g < 2; ++g) {
      check(cudaSetDevice(g), "device");
      void *dev, *host;
      check(cudaMalloc(&dev, bytes), "cudaMalloc");
      check(cudaMallocHost(&host, bytes), "cudaMallocHost");
      best_us(host, dev, bytes, 3); // warm-up
      report("d2h", g, bytes, best_us(host, dev, bytes, 20));
      report("h2d", g, bytes, best_us(dev, host, bytes, 20));
      cudaFree(dev);
      cudaFreeHost(host);
    }
    if (count >= 2) {
      int can = 0;
      check(cudaDeviceCanAccessPeer(&can, 0, 1), "peer query");
      void *d0, *d1;
      check(cudaSetDevice(1), "device");
      check(cudaMalloc(&d1, bytes), "cudaMalloc");
      if (can)
        cudaDeviceEnablePeerAccess(0, 0); // already enabled on the second size
      check(cudaSetDevice(0), "device");
      check(cudaMalloc(&d0, bytes), "cudaMalloc");
      if (can)
        cudaDeviceEnablePeerAccess(1, 0);
      cudaGetLastError();
      best_us(d1, d0, bytes, 3);
      report(can ? "peer" : "peer-through-host", 0, bytes, best_us(d1, d0, bytes, 20));
      cudaFree(d0);
      check(cudaSetDevice(1), "device");
      cudaFree(d1);
    }
  }
  return 0;
}
