// The bound of the GPU benchmark: device-to-device copy bandwidth, counting
// bytes read plus bytes written, measured with CUDA events (median of 20).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(x)                                                                                  \
  do {                                                                                            \
    cudaError_t e = (x);                                                                          \
    if (e != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "copy_bw: %s: %s\n", #x, cudaGetErrorString(e));                     \
      return 1;                                                                                   \
    }                                                                                             \
  } while (0)

int main(int argc, char **argv) {
  size_t bytes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : (size_t)512 * 512 * 512 * 8;
  void *a, *b;
  CHECK(cudaMalloc(&a, bytes));
  CHECK(cudaMalloc(&b, bytes));
  CHECK(cudaMemset(a, 1, bytes));
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int rep = 0; rep < 23; ++rep) {
    cudaEventRecord(e0);
    CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    if (rep >= 3)
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  double med = ms[ms.size() / 2] * 1e-3;
  std::printf("COPY-BW {\"gpu\": \"%s\", \"bytes\": %zu, \"median_s\": %.6e, \"gbps\": %.1f}\n",
              p.name, bytes, med, 2.0 * bytes / med * 1e-9);
  return 0;
}
