/* Why a tuned kernel may run slower inside a program than in its harness:
 * the same library call, timed over the same grids allocated and first
 * touched four ways, interleaved round by round:
 *   program      malloc, every value written by the main thread (what a
 *                Fortran program's ALLOCATE and serial initialisation do)
 *   program+thp  the same with madvise(MADV_HUGEPAGE) before the first touch
 *   first_touch  malloc, the library's K_first_touch, then the serial values
 *   harness      aligned_alloc(64) and every grid filled by the kernel's
 *                threads plane by plane (what the tuning harness does; here
 *                through K_first_touch, whose split is the kernel's)
 * Usage: gap MX MY MZ CALLS ROUNDS. Prints one line per way: the median
 * GFlop/s (34 flops a point, Himeno's count) and GB/s (14 grids read or
 * written a point, 4 bytes each). */
#define _GNU_SOURCE
#include "f2s_poisson19.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

enum { WAYS = 4 };
static const char *names[WAYS] = {"program", "program+thp", "first_touch", "harness"};

struct grids {
  float *p, *a, *b, *c, *wrk1, *bnd, *wrk2;
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static float *get(size_t n, int way) {
  size_t bytes = n * sizeof(float);
  float *x;
  if (way == 3) {
    x = aligned_alloc(64, (bytes + 63) / 64 * 64);
  } else {
    x = malloc(bytes);
  }
  if (!x) {
    fprintf(stderr, "gap: out of memory\n");
    exit(1);
  }
  if (way == 1) {
    /* The whole 2 MiB pages inside the allocation. */
    uintptr_t lo = ((uintptr_t)x + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1);
    uintptr_t hi = ((uintptr_t)x + bytes) & ~(uintptr_t)((2u << 20) - 1);
    if (hi > lo && madvise((void *)lo, hi - lo, MADV_HUGEPAGE) != 0)
      perror("madvise");
  }
  return x;
}

static void values(struct grids *g, int mx, int my, int mz) {
  size_t n = (size_t)mx * my * mz;
  for (size_t i = 0; i < n; ++i) {
    float z = (float)((i / ((size_t)mx * my)) % mz) / (float)(mz - 1);
    g->p[i] = z * z;
    g->wrk1[i] = 0;
    g->wrk2[i] = g->p[i];
    g->bnd[i] = 1;
  }
  for (size_t i = 0; i < 4 * n; ++i)
    g->a[i] = i < 3 * n ? 1.0f : 1.0f / 6.0f;
  for (size_t i = 0; i < 3 * n; ++i) {
    g->b[i] = 0;
    g->c[i] = 1;
  }
}

int main(int argc, char **argv) {
  if (argc != 6) {
    fprintf(stderr, "usage: gap MX MY MZ CALLS ROUNDS\n");
    return 2;
  }
  int mx = atoi(argv[1]), my = atoi(argv[2]), mz = atoi(argv[3]), calls = atoi(argv[4]),
      rounds = atoi(argv[5]);
  size_t n = (size_t)mx * my * mz;
  struct grids g[WAYS];
  for (int w = 0; w < WAYS; ++w) {
    g[w] = (struct grids){get(n, w), get(4 * n, w), get(3 * n, w), get(3 * n, w),
                          get(n, w), get(n, w),     get(n, w)};
    if (w >= 2)
      f2s_poisson19_jacobi19_first_touch(mx, my, mz, 0.8f, g[w].p, g[w].a, g[w].b, g[w].c,
                                         g[w].wrk1, g[w].bnd, g[w].wrk2);
    values(&g[w], mx, my, mz);
  }
  double *t = calloc((size_t)WAYS * rounds, sizeof(double));
  for (int r = 0; r < rounds; ++r)
    for (int w = 0; w < WAYS; ++w) {
      double t0 = now();
      for (int c = 0; c < calls; ++c)
        f2s_poisson19_jacobi19(mx, my, mz, 0.8f, g[w].p, g[w].a, g[w].b, g[w].c, g[w].wrk1,
                               g[w].bnd, g[w].wrk2);
      t[w * rounds + r] = (now() - t0) / calls;
    }
  double points = (double)(mx - 2) * (my - 2) * (mz - 2);
  for (int w = 0; w < WAYS; ++w) {
    double *x = t + w * rounds;
    for (int i = 0; i < rounds; ++i)
      for (int j = i + 1; j < rounds; ++j)
        if (x[j] < x[i]) {
          double s = x[i];
          x[i] = x[j];
          x[j] = s;
        }
    double s = x[rounds / 2];
    printf("gap %-12s %8.3f ms  %7.2f GFlop/s  %7.1f GB/s\n", names[w], s * 1e3,
           34 * points / s * 1e-9, 14 * 4 * points / s * 1e-9);
  }
  return 0;
}
