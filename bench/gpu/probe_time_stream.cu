// Probe behind bench/RESULTS.md's time-tiling targets (issue 14): how fast
// can the streaming form (AN5D's register pipeline along the slowest
// dimension) run the benchmark's two loops on this GPU, written by hand for
// exactly these stencils, bitwise equal to the steps? It is the ceiling the
// generated kernel (codegen/CudaTimeStream) is measured against.
//
//  - 2D: the heat step of examples/heat2d_steps (double, 5 points,
//    u + alpha*(l + r + d + u - 4c)); its copy back is a renaming, so a chunk
//    of T steps is T stages over two buffers.
//  - 3D: the ping-pong Jacobi of examples/jacobi3d_pingpong (double, 7 points,
//    sum / 6.0): a chunk of T sweeps (T/2 steps) is T stages.
//
// A block holds BX x BY columns (one a thread) of the plane and walks a
// segment of L planes of z (rows of y in 2D) with the chunk's T stages in
// flight: stage s computes plane r - s when plane r is loaded. A star reads
// its neighbours' columns only in its own plane, which the stage before
// stored in the pass before, so one barrier a pass suffices (rings of two
// planes a version); the three planes of its own column are registers,
// renamed by unrolling the pass loop by 6. Columns outside the domain and
// boundary planes keep the previous version's value (Dirichlet). The passes
// whose planes all lie inside the domain run without tests.
//
// Two 3D variants multiply by RN(1/6) instead of dividing by 6: not the
// loop's results (their check says so), only what the division costs.
//
// Every variant is checked bitwise against the step kernel (one launch a
// sweep) after the same number of sweeps; GUpdates/s counts interior points
// times sweeps over the time. The copy bound is a device-to-device copy in
// the same run; "x bound" is the speed over copy / bytes a sweep moves
// (2D: 32, the heat loop's stencil and copy as bench/time_loops.list counts
// them; 3D: 16).
//
// usage: nvcc -O3 -arch=sm_90 -std=c++17 --fmad=false bench/gpu/probe_time_stream.cu -o probe
//        ./probe [2d|3d|all|2d-big]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#define CK(x)                                                                                      \
  do {                                                                                             \
    cudaError_t e_ = (x);                                                                          \
    if (e_ != cudaSuccess) {                                                                       \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_));      \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

struct Dom {
  int nx, ny, nz; // interior; arrays are (nx+2) x (ny+2) [x (nz+2)]
  int dim;
  __host__ __device__ long sx() const { return nx + 2; }
  __host__ __device__ long sy() const { return dim == 2 ? 0 : (long)(nx + 2) * (ny + 2); }
  long elems() const { return dim == 2 ? (long)(nx + 2) * (ny + 2) : sy() * (nz + 2); }
  long points() const { return dim == 2 ? (long)nx * ny : (long)nx * ny * nz; }
};

// The two stencils, in the Fortran's order of operations.
struct Heat {
  double alpha;
  __device__ double operator()(double l, double r, double d, double u, double c) const {
    return c + alpha * ((((l + r) + d) + u) - 4.0 * c);
  }
};
struct Jac {
  __device__ double operator()(double w, double e, double s, double n, double b, double t) const {
    return (((((w + e) + s) + n) + b) + t) / 6.0;
  }
};
// What the division costs: the same sum times RN(1/6), which is not the
// loop's result (the check says DIFFERS), only the ceiling without it.
struct JacMul {
  __device__ double operator()(double w, double e, double s, double n, double b, double t) const {
    return (((((w + e) + s) + n) + b) + t) * (1.0 / 6.0);
  }
};

// ---------------------------------------------------------------- the steps
__global__ void step2d(Dom D, Heat f, const double *__restrict__ a, double *__restrict__ b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1, j = blockIdx.y + 1;
  if (i > D.nx)
    return;
  long c = i + D.sx() * j;
  b[c] = f(a[c - 1], a[c + 1], a[c - D.sx()], a[c + D.sx()], a[c]);
}
__global__ void step3d(Dom D, Jac f, const double *__restrict__ a, double *__restrict__ b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1, j = blockIdx.y * blockDim.y + threadIdx.y + 1,
      k = blockIdx.z + 1;
  if (i > D.nx || j > D.ny)
    return;
  long c = i + D.sx() * j + D.sy() * k;
  b[c] = f(a[c - 1], a[c + 1], a[c - D.sx()], a[c + D.sx()], a[c - D.sy()], a[c + D.sy()]);
}

// ------------------------------------------------------------ the streaming
// Plane index of the walked dimension: y in 2D, z in 3D.
template <int T, int BX, int BY, int DIM> struct Stream {
  static constexpr int NT = BX * BY;
  static constexpr int PX = BX + 2, PY = DIM == 3 ? BY + 2 : 1; // shared plane, padded
  static constexpr int PL = PX * PY;
};

template <int T, int BX, int BY, int DIM, class F>
__global__ void __launch_bounds__(BX *BY)
    stream(Dom D, F f, int L, const double *__restrict__ a, double *__restrict__ b) {
  using S = Stream<T, BX, BY, DIM>;
  // Rings: version v (0..T-1) of the plane, two planes deep, a plane's
  // slot the parity of its index (written a pass before it is read).
  extern __shared__ double smem[];
  auto sh = [&](int v, int slot) { return smem + (v * 2 + slot) * S::PL; };
  const int tx = threadIdx.x, ty = DIM == 3 ? threadIdx.y : 0;
  const int x = 1 + blockIdx.x * (BX - 2 * T) - T + tx;
  const int y = DIM == 3 ? 1 + blockIdx.y * (BY - 2 * T) - T + ty : 0;
  const int seg = DIM == 3 ? blockIdx.z : blockIdx.y;
  const int nw = DIM == 3 ? D.nz : D.ny; // planes of the walked dimension's interior
  const long sx = D.sx(), sp = DIM == 3 ? D.sy() : D.sx(); // stride of a plane
  const int z0 = 1 + seg * L, z1 = min(z0 + L - 1, nw);
  const bool inx = x >= 1 && x <= D.nx && (DIM == 2 || (y >= 1 && y <= D.ny));
  const bool inarr = x >= 0 && x <= D.nx + 1 && (DIM == 2 || (y >= 0 && y <= D.ny + 1));
  const bool out = inx && tx >= T && tx < BX - T && (DIM == 2 || (ty >= T && ty < BY - T));
  const int q = (tx + 1) + (DIM == 3 ? (ty + 1) * S::PX : 0); // place in a shared plane
  const long col = inarr ? x + (DIM == 3 ? (long)y * sx : 0) : 0;
  // passes r = rs..re; the steady ones (no z test, loads in range) ra..rb
  const int rs = z0 - T, re = z1 + T;
  const int ra = max(z0 + T, T + 1), rb = min(z1 + T, nw);
  double R[T + 1][3] = {}; // per version, its newest three planes at this column
  double next = 0.0;
  auto load = [&](int r) -> double {
    return inarr && r >= 0 && r <= nw + 1 ? a[col + sp * r] : 0.0;
  };
  next = load(rs);
  auto pass = [&](auto ph_c, auto steady_c, int r) {
    constexpr int ph = decltype(ph_c)::value;
    constexpr bool steady = decltype(steady_c)::value;
    constexpr int n0 = ph % 3, n1 = (ph + 2) % 3, n2 = (ph + 1) % 3; // newest, -1, -2
    double v0 = next;
    if (steady)
      next = a[col + sp * (r + 1)];
    else
      next = load(r + 1);
    R[0][n0] = v0;
    sh(0, ph & 1)[q] = v0;
#pragma unroll
    for (int s = 1; s <= T; ++s) {
      const int c = r - s;                       // the plane stage s computes
      const double *p = sh(s - 1, (ph - s) & 1); // version s-1, plane c
      double v;
      double ctr = R[s - 1][n1];
      if constexpr (DIM == 2)
        v = f(p[q - 1], p[q + 1], R[s - 1][n2], R[s - 1][n0], ctr);
      else
        v = f(p[q - 1], p[q + 1], p[q - S::PX], p[q + S::PX], R[s - 1][n2], R[s - 1][n0]);
      bool in = steady ? inx : inx && c >= 1 && c <= nw;
      v = in ? v : ctr;
      R[s][n0] = v;
      if (s < T)
        sh(s, (ph - s) & 1)[q] = v;
    }
    const int c = r - T;
    if (out && (steady || (c >= z0 && c <= z1)))
      b[col + sp * c] = R[T][n0];
    __syncthreads();
  };
  using I0 = std::integral_constant<int, 0>;
  using I1 = std::integral_constant<int, 1>;
  using I2 = std::integral_constant<int, 2>;
  using I3 = std::integral_constant<int, 3>;
  using I4 = std::integral_constant<int, 4>;
  using I5 = std::integral_constant<int, 5>;
  using Y = std::true_type;
  using N = std::false_type;
  for (int r0 = rs; r0 <= re; r0 += 6) {
    if (r0 >= ra && r0 + 5 <= rb) {
      pass(I0{}, Y{}, r0);
      pass(I1{}, Y{}, r0 + 1);
      pass(I2{}, Y{}, r0 + 2);
      pass(I3{}, Y{}, r0 + 3);
      pass(I4{}, Y{}, r0 + 4);
      pass(I5{}, Y{}, r0 + 5);
    } else {
      // Every thread runs the same passes: the barrier is uniform.
      pass(I0{}, N{}, r0);
      if (r0 + 1 <= re)
        pass(I1{}, N{}, r0 + 1);
      if (r0 + 2 <= re)
        pass(I2{}, N{}, r0 + 2);
      if (r0 + 3 <= re)
        pass(I3{}, N{}, r0 + 3);
      if (r0 + 4 <= re)
        pass(I4{}, N{}, r0 + 4);
      if (r0 + 5 <= re)
        pass(I5{}, N{}, r0 + 5);
    }
  }
}

// ------------------------------------------------------------------ driver
struct Timer {
  cudaEvent_t a, b;
  Timer() {
    cudaEventCreate(&a);
    cudaEventCreate(&b);
  }
};

double copy_bw() {
  size_t bytes = (size_t)1 << 31;
  void *a, *b;
  CK(cudaMalloc(&a, bytes));
  CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 1, bytes));
  Timer t;
  std::vector<float> ms;
  for (int i = 0; i < 13; ++i) {
    cudaEventRecord(t.a);
    CK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    cudaEventRecord(t.b);
    cudaEventSynchronize(t.b);
    float m;
    cudaEventElapsedTime(&m, t.a, t.b);
    if (i >= 3)
      ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  CK(cudaFree(a));
  CK(cudaFree(b));
  return 2.0 * bytes / (ms[ms.size() / 2] * 1e-3);
}

struct Case {
  Dom D;
  int sweeps;
  double *a0, *a, *b, *ref; // initial, work pair, reference result
  std::vector<double> host_ref;
};

void init(Case &c) {
  long n = c.D.elems();
  std::vector<double> h(n);
  unsigned s = 12345;
  for (long i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    h[i] = (s >> 8) * (1.0 / 16777216.0);
  }
  CK(cudaMalloc(&c.a0, n * 8));
  CK(cudaMalloc(&c.a, n * 8));
  CK(cudaMalloc(&c.b, n * 8));
  CK(cudaMemcpy(c.a0, h.data(), n * 8, cudaMemcpyHostToDevice));
}

// Runs `sweeps` sweeps from a0 with `launch(from, to, n)` doing n sweeps a
// call, leaves the result in `res` (a or b); returns the best of 3 (s).
template <class Launch> double run(Case &c, int per, Launch launch, double **res) {
  long n = c.D.elems();
  Timer t;
  float best = 1e30f;
  for (int rep = 0; rep < 3; ++rep) {
    CK(cudaMemcpy(c.a, c.a0, n * 8, cudaMemcpyDeviceToDevice));
    CK(cudaMemcpy(c.b, c.a0, n * 8, cudaMemcpyDeviceToDevice)); // same boundary
    double *x = c.a, *y = c.b;
    CK(cudaDeviceSynchronize());
    cudaEventRecord(t.a);
    for (int done = 0; done < c.sweeps; done += per) {
      launch(x, y);
      std::swap(x, y);
    }
    cudaEventRecord(t.b);
    CK(cudaEventSynchronize(t.b));
    CK(cudaGetLastError());
    float m;
    cudaEventElapsedTime(&m, t.a, t.b);
    best = std::min(best, m);
    *res = x;
  }
  return best * 1e-3;
}

bool same(const Case &c, const double *d) {
  std::vector<double> h(c.D.elems());
  CK(cudaMemcpy(h.data(), d, h.size() * 8, cudaMemcpyDeviceToHost));
  return std::memcmp(h.data(), c.host_ref.data(), h.size() * 8) == 0;
}

template <int T, int BX, int BY, int DIM, class F>
void variant(Case &c, F f, int L, double bound, const char *what) {
  auto k = stream<T, BX, BY, DIM, F>;
  dim3 blk(BX, DIM == 3 ? BY : 1);
  int nw = DIM == 3 ? c.D.nz : c.D.ny;
  dim3 grd((c.D.nx + BX - 2 * T - 1) / (BX - 2 * T),
           DIM == 3 ? (c.D.ny + BY - 2 * T - 1) / (BY - 2 * T) : (nw + L - 1) / L,
           DIM == 3 ? (nw + L - 1) / L : 1);
  size_t shm = sizeof(double) * T * 2 * Stream<T, BX, BY, DIM>::PL;
  if (shm > 227 * 1024) {
    std::printf("| %s | T=%d | %dx%d | L=%d | needs %zu B of shared memory |\n", what, T, BX, BY, L,
                shm);
    return;
  }
  CK(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shm));
  double *res;
  double s = run(
      c, T, [&](double *x, double *y) { k<<<grd, blk, shm>>>(c.D, f, L, x, y); }, &res);
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, k);
  double g = (double)c.D.points() * c.sweeps / s * 1e-9;
  std::printf("| %s | T=%d | %dx%d | L=%d | %d regs, %d spill B | %.2f ms | %.1f | %.2f | %s |\n",
              what, T, BX, BY, L, fa.numRegs, (int)fa.localSizeBytes, s * 1e3, g, g / bound,
              same(c, res) ? "bitwise" : "DIFFERS");
  std::fflush(stdout);
}

// The steps, one launch a sweep: their result is every variant's
// reference, and their row the table's first for the case.
template <class Launch>
void reference(Case &c, Launch launch, double bound, const char *what, const char *block) {
  double *res;
  double s = run(c, 1, launch, &res);
  c.host_ref.resize(c.D.elems());
  CK(cudaMemcpy(c.host_ref.data(), res, c.D.elems() * 8, cudaMemcpyDeviceToHost));
  double g = (double)c.D.points() * c.sweeps / s * 1e-9;
  std::printf("| %s | steps | %s | | | %.2f ms | %.1f | %.2f | reference |\n", what, block, s * 1e3,
              g, g / bound);
}

void release(Case &c) {
  CK(cudaFree(c.a0));
  CK(cudaFree(c.a));
  CK(cudaFree(c.b));
}

void all2d(int nx, int ny, int sweeps, double bw) {
  Case c{{nx, ny, 1, 2}, sweeps};
  init(c);
  Heat f{0.1};
  double bound = bw / 32 * 1e-9;
  dim3 blk(256), grd((c.D.nx + 255) / 256, c.D.ny);
  char what[64];
  std::snprintf(what, sizeof what, "heat %dx%d, %d steps", nx, ny, sweeps);
  reference(
      c, [&](double *x, double *y) { step2d<<<grd, blk>>>(c.D, f, x, y); }, bound, what, "256");
  variant<4, 256, 1, 2>(c, f, 256, bound, "heat");
  variant<6, 256, 1, 2>(c, f, 256, bound, "heat");
  variant<8, 256, 1, 2>(c, f, 256, bound, "heat");
  variant<8, 512, 1, 2>(c, f, 256, bound, "heat");
  variant<12, 256, 1, 2>(c, f, 256, bound, "heat");
  variant<12, 512, 1, 2>(c, f, 512, bound, "heat");
  variant<16, 512, 1, 2>(c, f, 512, bound, "heat");
  release(c);
}

void all3d(int nx, int ny, int nz, int sweeps, double bw) {
  Case c{{nx, ny, nz, 3}, sweeps};
  init(c);
  Jac f;
  double bound = bw / 16 * 1e-9;
  dim3 blk(32, 8), grd((nx + 31) / 32, (ny + 7) / 8, nz);
  char what[64];
  std::snprintf(what, sizeof what, "jacobi %dx%dx%d, %d sweeps", nx, ny, nz, sweeps);
  reference(
      c, [&](double *x, double *y) { step3d<<<grd, blk>>>(c.D, f, x, y); }, bound, what, "32x8");
  variant<2, 32, 16, 3>(c, f, 128, bound, "jacobi");
  variant<2, 32, 32, 3>(c, f, 128, bound, "jacobi");
  variant<3, 32, 32, 3>(c, f, 128, bound, "jacobi");
  variant<4, 32, 32, 3>(c, f, 128, bound, "jacobi");
  variant<4, 64, 16, 3>(c, f, 128, bound, "jacobi");
  variant<6, 32, 32, 3>(c, f, 128, bound, "jacobi");
  variant<3, 32, 32, 3>(c, JacMul{}, 128, bound, "jacobi, x (1/6) for / 6");
  variant<4, 32, 32, 3>(c, JacMul{}, 128, bound, "jacobi, x (1/6) for / 6");
  release(c);
}

int main(int argc, char **argv) {
  const char *which = argc > 1 ? argv[1] : "all";
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  double bw = copy_bw();
  std::printf("%s, copy %.1f GB/s\n\n", p.name, bw * 1e-9);
  std::printf("| loop | T | block | segment | registers | time | GUpd/s | x bound | check |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  // 2d-big: the benchmark's 2D size alone (for a profiler's first launch).
  bool big = !std::strcmp(which, "2d-big");
  bool d2 = big || !std::strcmp(which, "2d") || !std::strcmp(which, "all");
  bool d3 = !std::strcmp(which, "3d") || !std::strcmp(which, "all");
  // Odd sizes first (remainders in every dimension, segments cut short),
  // then the benchmark's.
  if (d2 && !big)
    all2d(1000, 777, 48, bw);
  if (d3)
    all3d(67, 45, 33, 24, bw);
  if (d2)
    all2d(16384, 16384, 96, bw);
  if (d3)
    all3d(512, 512, 512, 48, bw);
  return 0;
}
