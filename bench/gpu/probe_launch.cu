// A/B probe behind bench/RESULTS.md's 'grid-stride loops cost 6%': f2stencil's
// untuned star7 kernel (plain32x8), the hand-written one, and the hand-written one
// with grid-stride block loops, on the same arrays, interleaved, median of 20.
// usage (after bench/gpu/prepare.sh, on the GPU machine):
//   cp .device-cuda/lib/star7/f2s_star7_cuda.cu /tmp/gen.cu
//   nvcc -O3 -arch=sm_90 -std=c++17 -I/tmp bench/gpu/probe_launch.cu -o /tmp/probe && /tmp/probe
#include "gen.cu"
#include <algorithm>
#include <vector>
template <class T>
__global__ void hw_star7(int nx, int ny, int nz, T c0, T c1, const T *__restrict__ u, T *__restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1, j = blockIdx.y * blockDim.y + threadIdx.y + 1, k = blockIdx.z + 1;
  if (i > nx || j > ny) return;
  const long X = 1, Y = nx + 2, Z = (long)(nx + 2) * (ny + 2);
  long c = i + Y * j + Z * k;
  T t = (u[c + X] + u[c - X] + u[c + Y] + u[c - Y] + u[c + Z] + u[c - Z]) * c1;
  v[c] = t + c0 * u[c];
}
// hand-written with the generated kernel's grid-stride loops
template <class T>
__global__ void hw_loops(int nx, int ny, int nz, T c0, T c1, const T *__restrict__ u, T *__restrict__ v) {
  const int Y = nx + 2, Z = (nx + 2) * (ny + 2);
  for (int k = 1 + blockIdx.z; k <= nz; k += gridDim.z)
    for (int jb = 1 + blockIdx.y * 8; jb <= ny; jb += gridDim.y * 8)
      for (int ib = 1 + blockIdx.x * 32; ib <= nx; ib += gridDim.x * 32) {
        int i = ib + threadIdx.x, j = jb + threadIdx.y;
        if (i <= nx && j <= ny) {
          const T *p = &u[i + Y * j + Z * k];
          T t = (p[1] + p[-1] + p[Y] + p[-Y] + p[Z] + p[-Z]) * c1;
          v[i + Y * j + Z * k] = t + c0 * p[0];
        }
      }
}
int main() {
  int n = 512;
  size_t cnt = size_t(n + 2) * (n + 2) * (n + 2);
  double *u, *v;
  cudaMalloc(&u, cnt * 8); cudaMalloc(&v, cnt * 8);
  std::vector<double> h(cnt); for (size_t q = 0; q < cnt; ++q) h[q] = 1.0 + (q % 97) * 1e-3;
  cudaMemcpy(u, h.data(), cnt * 8, cudaMemcpyHostToDevice); cudaMemcpy(v, h.data(), cnt * 8, cudaMemcpyHostToDevice);
  f2s_star7_args a{n, n, n, 0.5, 0.1, u, v};
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  dim3 g(n / 32, n / 8, n), b(32, 8);
  std::vector<double> t[3];
  for (int rep = 0; rep < 21; ++rep)
    for (int w = 0; w < 3; ++w) {
      cudaEventRecord(e0);
      if (w == 0) f2s_star7_cuda_plain32x8_launch(&a, 0);
      if (w == 1) hw_star7<double><<<g, b>>>(n, n, n, 0.5, 0.1, u, v);
      if (w == 2) hw_loops<double><<<g, b>>>(n, n, n, 0.5, 0.1, u, v);
      cudaEventRecord(e1); cudaEventSynchronize(e1);
      float ms; cudaEventElapsedTime(&ms, e0, e1); if (rep) t[w].push_back(ms);
    }
  const char *names[3] = {"generated plain32x8", "hand-written", "hand-written+loops"};
  for (int w = 0; w < 3; ++w) { std::sort(t[w].begin(), t[w].end());
    printf("%-22s median %.4f ms  %.1f GSt/s\n", names[w], t[w][10], double(n) * n * n / t[w][10] * 1e-6); }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
