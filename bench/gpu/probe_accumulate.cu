// A/B probe behind transforms/CudaPlaneSums: is the 27-point box limited by
// its 27 loads a point rather than by DRAM? Times, on the same arrays,
// interleaved, median of 20: the hand-written box (one thread per point), and
// plane sums accumulated along z (each thread walks a z chunk; per plane it
// loads the in-plane values once, from global memory or a shared tile, and
// adds the plane's weighted sums to the outputs of planes p-1, p, p+1: 9
// loads a point, sums reassociated) in several launch shapes, one or more
// points per thread in y. Checks each against the hand-written result.
//
// H100 80GB HBM3, 2026-11-23 ~15:00 UTC: hand-written 1.345 ms (99.8 GSt/s);
// plane sums from global memory, 64x4 threads, 32-plane chunks: 0.925 ms
// (145 GSt/s); the same through a shared tile: 1.34 ms; two points per thread
// in y, 16-plane chunks: 0.895 ms (150 GSt/s); max rel diff 2.8e-16. (An
// earlier version also timed the gradient with streaming __stcs stores: 2%
// slower than plain stores, so they were not pursued.)
//
// usage: nvcc -O3 -arch=sm_90 -std=c++17 --fmad=false bench/gpu/probe_accumulate.cu -o probe &&
// ./probe
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

struct Shape {
  int nx, ny, nz;
  __host__ __device__ long sx() const { return nx + 2; }
  __host__ __device__ long sxy() const { return sx() * (ny + 2); }
  size_t elements() const { return size_t(sxy()) * (nz + 2); }
};

template <class T>
__global__ void box27(Shape s, T c0, T c1, T c2, T c3, const T *__restrict__ a, T *__restrict__ b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1, j = blockIdx.y * blockDim.y + threadIdx.y + 1,
      k = blockIdx.z + 1;
  if (i > s.nx || j > s.ny)
    return;
  const long X = 1, Y = s.sx(), Z = s.sxy();
  long c = i + Y * j + Z * k;
  T faces = a[c - X] + a[c + X] + a[c - Y] + a[c + Y] + a[c - Z] + a[c + Z];
  T edges = a[c - X - Y] + a[c - X + Y] + a[c + X - Y] + a[c + X + Y] + a[c - X - Z] +
            a[c - X + Z] + a[c + X - Z] + a[c + X + Z] + a[c - Y - Z] + a[c - Y + Z] +
            a[c + Y - Z] + a[c + Y + Z];
  T corners = a[c - X - Y - Z] + a[c - X - Y + Z] + a[c - X + Y - Z] + a[c - X + Y + Z] +
              a[c + X - Y - Z] + a[c + X - Y + Z] + a[c + X + Y - Z] + a[c + X + Y + Z];
  b[c] = c0 * a[c] + c1 * faces + c2 * edges + c3 * corners;
}

// Plane sums along z. SMEM: the plane's (BX+2)x(BY+2) tile goes through shared memory.
template <class T, int BX, int BY, int CZ, bool SMEM>
__global__ void __launch_bounds__(BX *BY)
    box27_acc(Shape s, T c0, T c1, T c2, T c3, const T *__restrict__ a, T *__restrict__ b) {
  __shared__ T tile[SMEM ? (BY + 2) : 1][SMEM ? (BX + 2) : 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.x * BX + tx + 1, j = blockIdx.y * BY + ty + 1;
  const int k0 = blockIdx.z * CZ + 1, k1 = min(k0 + CZ - 1, s.nz);
  const bool in = i <= s.nx && j <= s.ny;
  const long Y = s.sx(), Z = s.sxy();
  const long col = (long)i + Y * j;
  T pend = 0, p1prev = 0; // pend: P1(p-2) + P0(p-1); p1prev: P1(p-1)
  for (int p = k0 - 1; p <= k1 + 1; ++p) {
    T s0, s1, s2;
    if constexpr (SMEM) {
      const int i0 = blockIdx.x * BX, j0 = blockIdx.y * BY; // tile origin = (i0, j0) (halo incl.)
      __syncthreads();
      for (int q = ty * BX + tx; q < (BX + 2) * (BY + 2); q += BX * BY) {
        int y = q / (BX + 2), x = q % (BX + 2);
        int gi = i0 + x, gj = j0 + y;
        if (gi <= s.nx + 1 && gj <= s.ny + 1)
          tile[y][x] = a[gi + Y * gj + Z * p];
      }
      __syncthreads();
      if (!in)
        continue;
      const int x = tx + 1, y = ty + 1;
      s0 = tile[y][x];
      s1 = tile[y][x - 1] + tile[y][x + 1] + tile[y - 1][x] + tile[y + 1][x];
      s2 = tile[y - 1][x - 1] + tile[y + 1][x - 1] + tile[y - 1][x + 1] + tile[y + 1][x + 1];
    } else {
      if (!in)
        return;
      const T *q = a + col + Z * p;
      s0 = q[0];
      s1 = q[-1] + q[1] + q[-Y] + q[Y];
      s2 = q[-1 - Y] + q[-1 + Y] + q[1 - Y] + q[1 + Y];
    }
    T P0 = c0 * s0 + c1 * s1 + c2 * s2; // weights of the output's own plane
    T P1 = c1 * s0 + c2 * s1 + c3 * s2; // weights of the planes above and below
    if (p - 1 >= k0)
      b[col + Z * (p - 1)] = pend + P1;
    pend = p1prev + P0;
    p1prev = P1;
  }
}

// PY points per thread in y; the next plane's values are loaded before the
// current plane's sums are combined (software pipelining).
template <class T, int BX, int BY, int CZ, int PY>
__global__ void __launch_bounds__(BX *BY)
    box27_acc2(Shape s, T c0, T c1, T c2, T c3, const T *__restrict__ a, T *__restrict__ b) {
  const int i = blockIdx.x * BX + threadIdx.x + 1, j = (blockIdx.y * BY + threadIdx.y) * PY + 1;
  const int k0 = blockIdx.z * CZ + 1, k1 = min(k0 + CZ - 1, s.nz);
  if (i > s.nx || j > s.ny)
    return;
  const long Y = s.sx(), Z = s.sxy();
  const long col = (long)i + Y * j;
  T pend[PY], p1prev[PY];
#pragma unroll
  for (int r = 0; r < PY; ++r)
    pend[r] = p1prev[r] = 0;
  T v[PY + 2][3];
  auto load = [&](int p) {
    const T *q = a + col + Z * p - Y;
#pragma unroll
    for (int r = 0; r < PY + 2; ++r) {
      v[r][0] = q[r * Y - 1];
      v[r][1] = q[r * Y];
      v[r][2] = q[r * Y + 1];
    }
  };
  load(k0 - 1);
  for (int p = k0 - 1; p <= k1 + 1; ++p) {
    T w[PY + 2][3];
#pragma unroll
    for (int r = 0; r < PY + 2; ++r)
      w[r][0] = v[r][0], w[r][1] = v[r][1], w[r][2] = v[r][2];
    if (p <= k1)
      load(p + 1);
#pragma unroll
    for (int r = 0; r < PY; ++r) {
      if (j + r > s.ny)
        break;
      T s0 = w[r + 1][1];
      T s1 = w[r + 1][0] + w[r + 1][2] + w[r][1] + w[r + 2][1];
      T s2 = w[r][0] + w[r + 2][0] + w[r][2] + w[r + 2][2];
      T P0 = c0 * s0 + c1 * s1 + c2 * s2;
      T P1 = c1 * s0 + c2 * s1 + c3 * s2;
      if (p - 1 >= k0)
        b[col + r * Y + Z * (p - 1)] = pend[r] + P1;
      pend[r] = p1prev[r] + P0;
      p1prev[r] = P1;
    }
  }
}

template <int BX, int BY, int CZ, int PY> void launch2(Shape s, const double *a, double *b) {
  dim3 g((s.nx + BX - 1) / BX, (s.ny + BY * PY - 1) / (BY * PY), (s.nz + CZ - 1) / CZ);
  box27_acc2<double, BX, BY, CZ, PY><<<g, dim3(BX, BY)>>>(s, 0.5, 0.1, 0.05, 0.025, a, b);
}

int main() {
  using T = double;
  Shape s{512, 512, 512};
  size_t n = s.elements();
  T *a, *b, *r, *g1, *g2, *g3;
  cudaMalloc(&a, n * sizeof(T));
  cudaMalloc(&b, n * sizeof(T));
  cudaMalloc(&r, n * sizeof(T));
  cudaMalloc(&g1, n * sizeof(T));
  cudaMalloc(&g2, n * sizeof(T));
  cudaMalloc(&g3, n * sizeof(T));
  std::vector<T> h(n);
  for (size_t q = 0; q < n; ++q)
    h[q] = 1.0 + ((q * 2654435761u) % 1000) * 1e-3;
  cudaMemcpy(a, h.data(), n * sizeof(T), cudaMemcpyHostToDevice);
  cudaMemset(b, 0, n * sizeof(T));
  cudaMemset(r, 0, n * sizeof(T));
  const T c0 = 0.5, c1 = 0.1, c2 = 0.05, c3 = 0.025;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  const int W = 14;
  const char *names[W] = {
      "box27 hand-written 32x8", "acc 64x4 z32 (no prefetch)", "acc2 64x4 z32 py1",
      "acc2 64x4 z16 py1",       "acc2 64x4 z64 py1",          "acc2 32x8 z32 py1",
      "acc2 128x2 z32 py1",      "acc2 64x4 z32 py2",          "acc2 64x2 z32 py2",
      "acc2 32x4 z32 py2",       "acc2 64x4 z16 py2",          "acc2 64x2 z32 py4",
      "acc2 128x1 z32 py4",      "acc2 32x4 z16 py4"};
  std::vector<float> t[W];
  dim3 b328(32, 8), g328(s.nx / 32, s.ny / 8, s.nz);
  for (int rep = 0; rep < 21; ++rep)
    for (int w = 0; w < W; ++w) {
      cudaEventRecord(e0);
      switch (w) {
      case 0:
        box27<T><<<g328, b328>>>(s, c0, c1, c2, c3, a, r);
        break;
      case 1:
        box27_acc<T, 64, 4, 32, false><<<dim3(8, 128, 16), dim3(64, 4)>>>(s, c0, c1, c2, c3, a, b);
        break;
      case 2:
        launch2<64, 4, 32, 1>(s, a, b);
        break;
      case 3:
        launch2<64, 4, 16, 1>(s, a, b);
        break;
      case 4:
        launch2<64, 4, 64, 1>(s, a, b);
        break;
      case 5:
        launch2<32, 8, 32, 1>(s, a, b);
        break;
      case 6:
        launch2<128, 2, 32, 1>(s, a, b);
        break;
      case 7:
        launch2<64, 4, 32, 2>(s, a, b);
        break;
      case 8:
        launch2<64, 2, 32, 2>(s, a, b);
        break;
      case 9:
        launch2<32, 4, 32, 2>(s, a, b);
        break;
      case 10:
        launch2<64, 4, 16, 2>(s, a, b);
        break;
      case 11:
        launch2<64, 2, 32, 4>(s, a, b);
        break;
      case 12:
        launch2<128, 1, 32, 4>(s, a, b);
        break;
      case 13:
        launch2<32, 4, 16, 4>(s, a, b);
        break;
      }
      cudaEventRecord(e1);
      cudaEventSynchronize(e1);
      float ms;
      cudaEventElapsedTime(&ms, e0, e1);
      if (rep)
        t[w].push_back(ms);
      if (w >= 1 && rep == 0) { // check against the hand-written result
        std::vector<T> x(n), y(n);
        cudaMemcpy(x.data(), r, n * sizeof(T), cudaMemcpyDeviceToHost);
        cudaMemcpy(y.data(), b, n * sizeof(T), cudaMemcpyDeviceToHost);
        double e = 0, m = 0;
        for (size_t q = 0; q < n; ++q)
          e = std::max(e, std::fabs(x[q] - y[q])), m = std::max(m, std::fabs(x[q]));
        printf("%-28s max rel diff %.3g\n", names[w], e / m);
        cudaMemset(b, 0, n * sizeof(T));
      }
    }
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  for (int w = 0; w < W; ++w) {
    std::sort(t[w].begin(), t[w].end());
    double bytes = 16;
    double gst = double(s.nx) * s.ny * s.nz / t[w][10] * 1e-6;
    printf("%-28s median %.4f ms  %6.1f GSt/s  %6.0f GB/s\n", names[w], t[w][10], gst, gst * bytes);
  }
}
