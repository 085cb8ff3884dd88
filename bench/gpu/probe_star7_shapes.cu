// Probe behind bench/RESULTS.md's 7-point gap: the straightforward 7-point
// kernel (double, 512^3, one thread per point) in every block shape, with
// streaming (__stcs) stores, and with two points per thread along z (the
// column's middle planes loaded once). Median of 20, interleaved.
//
// H100 80GB HBM3, 2026-11-23 15:19 UTC (copy bound 2997 GB/s in the same
// call): best 128x2 0.809 ms = 165.9 GSt/s = 2654 GB/s = 88.6% of the bound;
// 32x8 0.817 ms; 32x16 0.835; 128x8 0.873; __stcs stores no better; two
// points per thread in z 0.818-0.824 ms. In the same call a kernel that only
// reads one array and writes another (bench/gpu/streams.cu, r1w1) reached
// 97% of the bound: the gap is the stencil's neighbour loads, not its streams.
//
// usage: nvcc -O3 -arch=sm_90 -std=c++17 bench/gpu/probe_star7_shapes.cu -o probe && ./probe
#include <algorithm>
#include <cstdio>
#include <vector>
// star7 double, one thread per point, block shapes and store hints
template <int BX, int BY, bool CS>
__global__ void __launch_bounds__(BX *BY)
    star7(int nx, int ny, int nz, double c0, double c1, const double *__restrict__ u,
          double *__restrict__ v) {
  int i = blockIdx.x * BX + threadIdx.x + 1, j = blockIdx.y * BY + threadIdx.y + 1,
      k = blockIdx.z + 1;
  if (i > nx || j > ny)
    return;
  const long Y = nx + 2, Z = (long)(nx + 2) * (ny + 2);
  long c = i + Y * j + Z * k;
  double t = (u[c + 1] + u[c - 1] + u[c + Y] + u[c - Y] + u[c + Z] + u[c - Z]) * c1 + c0 * u[c];
  if (CS)
    __stcs(&v[c], t);
  else
    v[c] = t;
}
// two points per thread in z (k, k+1): the shared column loads once
template <int BX, int BY>
__global__ void __launch_bounds__(BX *BY)
    star7z2(int nx, int ny, int nz, double c0, double c1, const double *__restrict__ u,
            double *__restrict__ v) {
  int i = blockIdx.x * BX + threadIdx.x + 1, j = blockIdx.y * BY + threadIdx.y + 1,
      k = 2 * blockIdx.z + 1;
  if (i > nx || j > ny)
    return;
  const long Y = nx + 2, Z = (long)(nx + 2) * (ny + 2);
  long c = i + Y * j + Z * k;
  double m = u[c - Z], a = u[c], b = u[c + Z], p = u[c + 2 * Z];
  v[c] = (u[c + 1] + u[c - 1] + u[c + Y] + u[c - Y] + b + m) * c1 + c0 * a;
  if (k + 1 <= nz) {
    long d = c + Z;
    v[d] = (u[d + 1] + u[d - 1] + u[d + Y] + u[d - Y] + p + a) * c1 + c0 * b;
  }
}
template <int BX, int BY, bool CS> void L(int n, const double *u, double *v) {
  star7<BX, BY, CS><<<dim3(n / BX, n / BY, n), dim3(BX, BY)>>>(n, n, n, 0.5, 0.1, u, v);
}
template <int BX, int BY> void Z2(int n, const double *u, double *v) {
  star7z2<BX, BY><<<dim3(n / BX, n / BY, n / 2), dim3(BX, BY)>>>(n, n, n, 0.5, 0.1, u, v);
}
int main() {
  int n = 512;
  size_t cnt = size_t(n + 2) * (n + 2) * (n + 2);
  double *u, *v;
  cudaMalloc(&u, cnt * 8);
  cudaMalloc(&v, cnt * 8);
  cudaMemset(u, 0, cnt * 8);
  cudaMemset(v, 0, cnt * 8);
  struct W {
    const char *name;
    void (*f)(int, const double *, double *);
  } w[] = {
      {"32x8", L<32, 8, false>},     {"64x4", L<64, 4, false>},       {"128x2", L<128, 2, false>},
      {"256x1", L<256, 1, false>},   {"32x16", L<32, 16, false>},     {"64x8", L<64, 8, false>},
      {"128x4", L<128, 4, false>},   {"32x4", L<32, 4, false>},       {"128x8", L<128, 8, false>},
      {"32x8 stcs", L<32, 8, true>}, {"128x2 stcs", L<128, 2, true>}, {"z2 32x8", Z2<32, 8>},
      {"z2 64x4", Z2<64, 4>},        {"z2 128x2", Z2<128, 2>}};
  const int N = sizeof(w) / sizeof(w[0]);
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  std::vector<float> t[N];
  for (int rep = 0; rep < 21; ++rep)
    for (int q = 0; q < N; ++q) {
      cudaEventRecord(e0);
      w[q].f(n, u, v);
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (rep)
        t[q].push_back(ms);
    }
  for (int q = 0; q < N; ++q) {
    std::sort(t[q].begin(), t[q].end());
    double g = double(n) * n * n / t[q][10] * 1e-6;
    printf("star7 %-12s %.4f ms %6.1f GSt/s %6.0f GB/s\n", w[q].name, t[q][10], g, 16 * g);
  }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
