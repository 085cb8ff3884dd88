// The CPU time-tiling target's ceiling (issue 14, bench/RESULTS.md): how fast
// can this host run the 3D 7-point sweep's arithmetic when its grids never
// leave a core's cache? Time tiling removes trips to memory, not arithmetic,
// so no time-tiled library of the loop can run faster than its sweep on data
// that stays in cache. If that rate is below 2.5x the single-sweep bound
// (STREAM over the bytes a sweep moves), the target is out of reach of the
// loop as written, whatever the tiles.
//
// Every OpenMP thread (one a core with the usage line's OMP_PROC_BIND and
// OMP_PLACES, as bench/cpu/stream.c is run) runs a ping-pong Jacobi on a
// private pair of N^3 grids (interior; N = 32 in double: 2 x 314 KB, in a
// 2 MiB L2) for SECONDS, the statements of the benchmark's loops in their
// order of operations:
//  - jacpp (examples/jacobi3d_pingpong, double): (six neighbours) / 6.0d0
//  - the same with * (1/6) instead (not the loop's result: what the division
//    costs)
//  - relax7 (examples/jacobi3d_pingpong_sp, single): sixth * (six neighbours)
// and prints GUpdates/s over all threads. Compiled with the flags the
// library's C is built with (harness/LibraryBuilder, Process.cpp's rounding
// flags: -O3 -march=native -ffp-contract=off -fopenmp-simd), so the
// arithmetic is the library's, rounded as gfortran rounds it.
//   usage: gcc -O3 -march=native -ffp-contract=off -fopenmp bench/cpu/incache_ceiling.c -o ceiling
//          OMP_PROC_BIND=spread OMP_PLACES=cores ./ceiling [N] [SECONDS]
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define AT(n, i, j, k) ((((long)(k)) * ((n) + 2) + (j)) * ((n) + 2) + (i))

// One sweep b = f(a) over the interior, in Fortran's loop order.
#define SWEEP(T, a, b, n, EXPR)                                                                    \
  for (int k = 1; k <= n; ++k)                                                                     \
    for (int j = 1; j <= n; ++j)                                                                   \
      for (int i = 1; i <= n; ++i) {                                                               \
        const T s = a[AT(n, i - 1, j, k)] + a[AT(n, i + 1, j, k)] + a[AT(n, i, j - 1, k)] +        \
                    a[AT(n, i, j + 1, k)] + a[AT(n, i, j, k - 1)] + a[AT(n, i, j, k + 1)];         \
        b[AT(n, i, j, k)] = EXPR;                                                                  \
      }

enum { DIV6, MUL6, SINGLE };
static const char *const names[] = {"jacpp, double, / 6.0d0 (the loop)",
                                    "jacpp, double, * (1/6) (not the loop's result)",
                                    "relax7, single, sixth * (the loop)"};

// Sweeps of one thread's grids until `seconds` pass; returns updates done.
static double run(int kind, int n, double seconds) {
  const long cells = (long)(n + 2) * (n + 2) * (n + 2);
  const size_t bytes = (kind == SINGLE ? sizeof(float) : sizeof(double)) * cells;
  void *pa = aligned_alloc(64, (bytes + 63) / 64 * 64),
       *pb = aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!pa || !pb) {
    fprintf(stderr, "incache_ceiling: cannot allocate\n");
    exit(1);
  }
  double *da = pa, *db = pb;
  float *fa = pa, *fb = pb;
  for (long c = 0; c < cells; ++c) {
    const double v = (double)((c * 7919) % 1000) / 1000.0;
    if (kind == SINGLE)
      fa[c] = fb[c] = (float)v;
    else
      da[c] = db[c] = v;
  }
  const double sixth = 1.0 / 6.0;
  const float sixth_f = 1.0f / 6.0f;
  long sweeps = 0;
  const double t0 = omp_get_wtime();
  while (omp_get_wtime() - t0 < seconds) {
    for (int r = 0; r < 16; ++r, sweeps += 2) {
      switch (kind) {
      case DIV6:
        SWEEP(double, da, db, n, (s) / 6.0)
        SWEEP(double, db, da, n, (s) / 6.0)
        break;
      case MUL6:
        SWEEP(double, da, db, n, (s) * (sixth))
        SWEEP(double, db, da, n, (s) * (sixth))
        break;
      default:
        SWEEP(float, fa, fb, n, (sixth_f) * (s))
        SWEEP(float, fb, fa, n, (sixth_f) * (s))
      }
    }
  }
  // Keep the result live, so the sweeps are not optimised away.
  volatile double sink =
      kind == SINGLE ? fa[AT(n, n / 2, n / 2, n / 2)] : da[AT(n, n / 2, n / 2, n / 2)];
  (void)sink;
  free(pa);
  free(pb);
  return (double)sweeps * n * n * n;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 32;
  const double seconds = argc > 2 ? atof(argv[2]) : 1.0;
  printf("incache_ceiling n=%d threads=%d\n", n, omp_get_max_threads());
  for (int kind = DIV6; kind <= SINGLE; ++kind) {
    double updates = 0, t0 = 0, t1 = 0;
#pragma omp parallel reduction(+ : updates)
    {
#pragma omp barrier
#pragma omp master
      t0 = omp_get_wtime();
      updates += run(kind, n, seconds);
#pragma omp barrier
#pragma omp master
      t1 = omp_get_wtime();
    }
    printf("ceiling kind=%d gups=%.2f  %s\n", kind, updates / (t1 - t0) / 1e9, names[kind]);
  }
  return 0;
}
