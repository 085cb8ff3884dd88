// What the benchmark kernels' memory streams alone reach: for each pattern of
// arrays read and written at every point (no neighbours, no arithmetic but
// a sum), the bandwidth of a kernel with one thread per element, as a
// fraction of the device-to-device copy bound measured in the same process.
// It separates what a stencil's loads cost from what its mix of streams
// costs: a gradient writes three arrays for each one it reads, a copy one.
//   r1w1: star7, laplacian, star13, box27   r3w1: divergence
//   r1w3: gradient                          r13w1: himeno19
// usage: streams [points] (default 512^3); prints one STREAMS line per pattern
// and precision.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "streams: %s: %s\n", #x, cudaGetErrorString(e_));                       \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

template <class T> struct Arrays {
  const T *in[13];
  T *out[3];
};

template <class T, int R, int W> __global__ void streams(Arrays<T> a, long n) {
  long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  T s = 0;
#pragma unroll
  for (int r = 0; r < R; ++r)
    s += __ldg(&a.in[r][i]);
#pragma unroll
  for (int w = 0; w < W; ++w)
    a.out[w][i] = s * T(w + 1);
}

template <class T> float median_ms(void (*launch)(Arrays<T>, long), Arrays<T> a, long n) {
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> ms;
  for (int rep = 0; rep < 13; ++rep) {
    cudaEventRecord(e0);
    launch(a, n);
    cudaEventRecord(e1);
    CHECK(cudaEventSynchronize(e1));
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    if (rep >= 3)
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

template <class T, int R, int W> void launch(Arrays<T> a, long n) {
  streams<T, R, W><<<(n + 255) / 256, 256>>>(a, n);
}

template <class T> void run(const char *prec, long n, double copy_gbps, char *pool) {
  Arrays<T> a;
  for (int r = 0; r < 13; ++r)
    a.in[r] = reinterpret_cast<const T *>(pool + r * n * sizeof(T));
  for (int w = 0; w < 3; ++w)
    a.out[w] = reinterpret_cast<T *>(pool + (13 + w) * n * sizeof(T));
  struct P {
    const char *name;
    void (*f)(Arrays<T>, long);
    int arrays;
  } patterns[] = {{"r1w1", launch<T, 1, 1>, 2},
                  {"r3w1", launch<T, 3, 1>, 4},
                  {"r1w3", launch<T, 1, 3>, 4},
                  {"r13w1", launch<T, 13, 1>, 14}};
  for (const P &p : patterns) {
    double s = median_ms<T>(p.f, a, n) * 1e-3;
    double gbps = double(p.arrays) * n * sizeof(T) / s * 1e-9;
    std::printf("STREAMS {\"pattern\": \"%s\", \"precision\": \"%s\", \"points\": %ld, "
                "\"median_s\": %.6e, \"gbps\": %.1f, \"of_copy\": %.3f}\n",
                p.name, prec, n, s, gbps, gbps / copy_gbps);
  }
}

int main(int argc, char **argv) {
  long n = argc > 1 ? std::atol(argv[1]) : 512L * 512 * 512;
  char *pool;
  CHECK(cudaMalloc(&pool, 16 * n * sizeof(double)));
  CHECK(cudaMemset(pool, 0, 16 * n * sizeof(double)));
  // The copy bound, as bench/gpu/copy_bw.cu measures it (bytes read + written).
  size_t bytes = n * sizeof(double);
  std::vector<float> ms;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int rep = 0; rep < 23; ++rep) {
    cudaEventRecord(e0);
    CHECK(cudaMemcpy(pool + bytes, pool, bytes, cudaMemcpyDeviceToDevice));
    cudaEventRecord(e1);
    cudaEventSynchronize(e1);
    float t;
    cudaEventElapsedTime(&t, e0, e1);
    if (rep >= 3)
      ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  double copy = 2.0 * bytes / (ms[ms.size() / 2] * 1e-3) * 1e-9;
  std::printf("STREAMS-COPY {\"bytes\": %zu, \"gbps\": %.1f}\n", bytes, copy);
  run<double>("double", n, copy, pool);
  run<float>("single", n, copy, pool);
  return 0;
}
