// The baseline of the GPU benchmark: the straightforward CUDA port a user
// would write by hand, one thread per point, 32x8 threads per block, one block
// row per (y tile, z plane), an if for the edges, the index computed once per
// thread. Same loop nests as examples/*/ (Fortran order: x fastest), in double
// and single precision, timed with CUDA events on resident data (one warm-up,
// median of REPS). Prints one BASELINE line per kernel and precision.
//
// usage: baseline [nx ny nz] [reps]      (default 512 512 512, 10)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "baseline: %s: %s\n", #x, cudaGetErrorString(e_));                      \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

// Arrays are (1-h:n+h) in every dimension, h the halo; points 1..n are computed.
struct Shape {
  int nx, ny, nz, h;
  __host__ __device__ long sx() const { return nx + 2 * h; }
  __host__ __device__ long sxy() const { return sx() * (ny + 2 * h); }
  size_t elements() const { return size_t(sxy()) * (nz + 2 * h); }
};

// The point of this thread, or false outside the interior.
__device__ inline bool point(const Shape s, int &i, int &j, int &k, long &c) {
  i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  j = blockIdx.y * blockDim.y + threadIdx.y + 1;
  k = blockIdx.z + 1;
  if (i > s.nx || j > s.ny)
    return false;
  c = (i - 1 + s.h) + s.sx() * (j - 1 + s.h) + s.sxy() * (k - 1 + s.h);
  return true;
}

template <class T>
__global__ void star7(Shape s, T c0, T c1, const T *__restrict__ u, T *__restrict__ v) {
  int i, j, k;
  long c;
  if (!point(s, i, j, k, c))
    return;
  const long X = 1, Y = s.sx(), Z = s.sxy();
  T t = (u[c + X] + u[c - X] + u[c + Y] + u[c - Y] + u[c + Z] + u[c - Z]) * c1;
  v[c] = t + c0 * u[c];
}

template <class T>
__global__ void laplacian(Shape s, T alpha, T beta, const T *__restrict__ u, T *__restrict__ v) {
  int i, j, k;
  long c;
  if (!point(s, i, j, k, c))
    return;
  const long X = 1, Y = s.sx(), Z = s.sxy();
  v[c] = alpha * u[c] + beta * (u[c + X] + u[c - X] + u[c + Y] + u[c - Y] + u[c + Z] + u[c - Z]);
}

template <class T>
__global__ void star13(Shape s, T c0, T c1, T c2, const T *__restrict__ u, T *__restrict__ v) {
  int i, j, k;
  long c;
  if (!point(s, i, j, k, c))
    return;
  const long X = 1, Y = s.sx(), Z = s.sxy();
  T t = c1 * (u[c + X] + u[c - X] + u[c + Y] + u[c - Y] + u[c + Z] + u[c - Z]);
  t = t + c2 * (u[c + 2 * X] + u[c - 2 * X] + u[c + 2 * Y] + u[c - 2 * Y] + u[c + 2 * Z] +
                u[c - 2 * Z]);
  v[c] = t + c0 * u[c];
}

template <class T>
__global__ void box27(Shape s, T c0, T c1, T c2, T c3, const T *__restrict__ a,
                      T *__restrict__ b) {
  int i, j, k;
  long c;
  if (!point(s, i, j, k, c))
    return;
  const long X = 1, Y = s.sx(), Z = s.sxy();
  T faces = a[c - X] + a[c + X] + a[c - Y] + a[c + Y] + a[c - Z] + a[c + Z];
  T edges = a[c - X - Y] + a[c - X + Y] + a[c + X - Y] + a[c + X + Y] + a[c - X - Z] +
            a[c - X + Z] + a[c + X - Z] + a[c + X + Z] + a[c - Y - Z] + a[c - Y + Z] +
            a[c + Y - Z] + a[c + Y + Z];
  T corners = a[c - X - Y - Z] + a[c - X - Y + Z] + a[c - X + Y - Z] + a[c - X + Y + Z] +
              a[c + X - Y - Z] + a[c + X - Y + Z] + a[c + X + Y - Z] + a[c + X + Y + Z];
  b[c] = c0 * a[c] + c1 * faces + c2 * edges + c3 * corners;
}

template <class T>
__global__ void divergence(Shape s, T alpha, T beta, T gamma, const T *__restrict__ x,
                           const T *__restrict__ y, const T *__restrict__ z, T *__restrict__ u) {
  int i, j, k;
  long c;
  if (!point(s, i, j, k, c))
    return;
  const long X = 1, Y = s.sx(), Z = s.sxy();
  u[c] = alpha * (x[c + X] - x[c - X]) + beta * (y[c + Y] - y[c - Y]) +
         gamma * (z[c + Z] - z[c - Z]);
}

template <class T>
__global__ void gradient(Shape s, T alpha, T beta, T gamma, const T *__restrict__ u,
                         T *__restrict__ x, T *__restrict__ y, T *__restrict__ z) {
  int i, j, k;
  long c;
  if (!point(s, i, j, k, c))
    return;
  const long X = 1, Y = s.sx(), Z = s.sxy();
  x[c] = alpha * (u[c + X] - u[c - X]);
  y[c] = beta * (u[c + Y] - u[c - Y]);
  z[c] = gamma * (u[c + Z] - u[c - Z]);
}

// g[0] = p; a0..a3 = g[1..4]; b0..b2 = g[5..7]; c0..c2 = g[8..10]; wrk1, bnd = g[11..12].
template <class T>
__global__ void himeno19(Shape s, T omega, const T *__restrict__ p, const T *__restrict__ a0,
                         const T *__restrict__ a1, const T *__restrict__ a2,
                         const T *__restrict__ a3, const T *__restrict__ b0,
                         const T *__restrict__ b1, const T *__restrict__ b2,
                         const T *__restrict__ c0, const T *__restrict__ c1,
                         const T *__restrict__ c2, const T *__restrict__ wrk1,
                         const T *__restrict__ bnd, T *__restrict__ wrk2) {
  int i, j, k;
  long c;
  if (!point(s, i, j, k, c))
    return;
  const long X = 1, Y = s.sx(), Z = s.sxy();
  T s0 = a0[c] * p[c + X] + a1[c] * p[c + Y] + a2[c] * p[c + Z] +
         b0[c] * (p[c + X + Y] - p[c + X - Y] - p[c - X + Y] + p[c - X - Y]) +
         b1[c] * (p[c + Y + Z] - p[c - Y + Z] - p[c + Y - Z] + p[c - Y - Z]) +
         b2[c] * (p[c + X + Z] - p[c - X + Z] - p[c + X - Z] + p[c - X - Z]) + c0[c] * p[c - X] +
         c1[c] * p[c - Y] + c2[c] * p[c - Z] + wrk1[c];
  T ss = (s0 * a3[c] - p[c]) * bnd[c];
  wrk2[c] = p[c] + omega * ss;
}

template <class T> __global__ void fill(T *a, size_t n, unsigned seed) {
  for (size_t e = blockIdx.x * size_t(blockDim.x) + threadIdx.x; e < n;
       e += size_t(gridDim.x) * blockDim.x) {
    unsigned x = unsigned(e) * 2654435761u ^ seed * 40503u;
    x ^= x >> 13;
    x *= 0x5bd1e995u;
    x ^= x >> 15;
    a[e] = T(x & 0xffff) / T(65536) + T(0.5);
  }
}

struct Timer {
  int reps;
  template <class Launch> double median_s(Launch launch) {
    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    launch(); // warm-up
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    std::vector<float> ms;
    for (int r = 0; r < reps; ++r) {
      CHECK(cudaEventRecord(e0));
      launch();
      CHECK(cudaEventRecord(e1));
      CHECK(cudaEventSynchronize(e1));
      float t;
      CHECK(cudaEventElapsedTime(&t, e0, e1));
      ms.push_back(t);
    }
    CHECK(cudaGetLastError());
    std::sort(ms.begin(), ms.end());
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    return ms[ms.size() / 2] * 1e-3;
  }
};

template <class T> struct Grids {
  std::vector<T *> g;
  Grids(const Shape &s, int n) {
    for (int i = 0; i < n; ++i) {
      T *p;
      CHECK(cudaMalloc(&p, s.elements() * sizeof(T)));
      fill<T><<<1024, 256>>>(p, s.elements(), 17u + i);
      g.push_back(p);
    }
    CHECK(cudaDeviceSynchronize());
  }
  ~Grids() {
    for (T *p : g)
      cudaFree(p);
  }
  T *operator[](int i) const { return g[i]; }
};

template <class T> void report(const char *kernel, const Shape &s, int grids, double sec) {
  double points = double(s.nx) * s.ny * s.nz;
  double bytes = points * grids * sizeof(T);
  std::printf("BASELINE {\"kernel\": \"%s\", \"precision\": \"%s\", \"size\": [%d, %d, %d], "
              "\"median_s\": %.6e, \"gstencils\": %.2f, \"gbps\": %.1f}\n",
              kernel, sizeof(T) == 8 ? "double" : "single", s.nx, s.ny, s.nz, sec,
              points / sec * 1e-9, bytes / sec * 1e-9);
  std::fflush(stdout);
}

template <class T> void run_all(int nx, int ny, int nz, int reps) {
  Timer timer{reps};
  const dim3 block(32, 8, 1);
  auto grid = [&](const Shape &s) { return dim3((s.nx + 31) / 32, (s.ny + 7) / 8, s.nz); };
  const T c0 = T(0.25), c1 = T(0.125), c2 = T(-0.0625), c3 = T(0.03125);
  {
    Shape s{nx, ny, nz, 1};
    Grids<T> g(s, 2);
    report<T>("star7", s, 2, timer.median_s([&] {
      star7<T><<<grid(s), block>>>(s, c0, c1, g[0], g[1]);
    }));
    report<T>("laplacian", s, 2, timer.median_s([&] {
      laplacian<T><<<grid(s), block>>>(s, c0, c1, g[0], g[1]);
    }));
    report<T>("box27", s, 2, timer.median_s([&] {
      box27<T><<<grid(s), block>>>(s, c0, c1, c2, c3, g[0], g[1]);
    }));
  }
  {
    Shape s{nx, ny, nz, 2};
    Grids<T> g(s, 2);
    report<T>("star13", s, 2, timer.median_s([&] {
      star13<T><<<grid(s), block>>>(s, c0, c1, c2, g[0], g[1]);
    }));
  }
  {
    Shape s{nx, ny, nz, 1};
    Grids<T> g(s, 4);
    report<T>("divergence", s, 4, timer.median_s([&] {
      divergence<T><<<grid(s), block>>>(s, c0, c1, c2, g[0], g[1], g[2], g[3]);
    }));
    report<T>("gradient", s, 4, timer.median_s([&] {
      gradient<T><<<grid(s), block>>>(s, c0, c1, c2, g[0], g[1], g[2], g[3]);
    }));
  }
  {
    Shape s{nx, ny, nz, 1};
    Grids<T> g(s, 14);
    report<T>("himeno19", s, 14, timer.median_s([&] {
      himeno19<T><<<grid(s), block>>>(s, c0, g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7],
                                       g[8], g[9], g[10], g[11], g[12], g[13]);
    }));
  }
}

int main(int argc, char **argv) {
  int nx = argc > 3 ? std::atoi(argv[1]) : 512;
  int ny = argc > 3 ? std::atoi(argv[2]) : 512;
  int nz = argc > 3 ? std::atoi(argv[3]) : 512;
  int reps = argc > 4 ? std::atoi(argv[4]) : 10;
  run_all<double>(nx, ny, nz, reps);
  run_all<float>(nx, ny, nz, reps);
  return 0;
}
