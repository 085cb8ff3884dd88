/* Time tiling on the CPU (issue 14, section 3): for one example's time loop,
 * effective stencil updates per second of
 *   sweeps: each step's sweeps called one by one through the library's
 *           pthreads entry points (tuned single sweeps);
 *   loop:   the library's pthreads time-loop procedure (step by step, or
 *           tiled in time: whichever the library was built with).
 * Built on the GPU machine's host against one library:
 *   gcc -O2 -DEXAMPLE_<NAME> -I DIR time_tiles_bench.c -L DIR -lf2s_<name>
 *   usage: time_tiles_bench STEPS N1 N2 [N3]
 * Prints one line per form: form, seconds (best of 3 after a warm-up),
 * updates/s; then a checksum of the fields after the last loop call. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(EXAMPLE_JACOBI3D_PINGPONG)
#include "f2s_jacobi3d_pingpong.h"
#define LIB(x) f2s_jacobi3d_pingpong_##x
#elif defined(EXAMPLE_HEAT2D_STEPS)
#include "f2s_heat2d_steps.h"
#define LIB(x) f2s_heat2d_steps_##x
#else
#error "define EXAMPLE_<NAME>"
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Values in [0, 1), first touched by the library's threads where it exports
   a first-touch procedure for the loop's first sweep. */
static double *field(size_t n) {
  double *p = malloc(n * sizeof *p);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

static void fill(double *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    p[i] = (double)((i * 2654435761u) % 1000) / 1000.0;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return fprintf(stderr, "usage: %s STEPS N1 N2 [N3]\n", argv[0]), 2;
  int32_t steps = atoi(argv[1]), n1 = atoi(argv[2]), n2 = atoi(argv[3]), it = 0;
  double best[2] = {1e30, 1e30};
#if defined(EXAMPLE_JACOBI3D_PINGPONG)
  int32_t n3 = argc > 4 ? atoi(argv[4]) : n2;
  size_t n = (size_t)(n1 + 2) * (n2 + 2) * (n3 + 2);
  double *a = field(n), *b = field(n);
  LIB(jacpp_1_first_touch)(n1, n2, n3, a, b);
  fill(a, n), fill(b, n);
  double updates = 2.0 * n1 * n2 * n3 * steps; /* two sweeps a step */
#define SWEEPS                                                                                    \
  for (int s = 0; s < steps; ++s) {                                                               \
    LIB(jacpp_1_pthreads)(n1, n2, n3, a, b);                                                      \
    LIB(jacpp_2_pthreads)(n1, n2, n3, a, b);                                                      \
  }
#define LOOP LIB(jacpp_pthreads)(n1, n2, n3, steps, a, b, &it)
#define SUM(s)                                                                                    \
  for (size_t i = 0; i < n; ++i)                                                                  \
  s += fabs(a[i]) + fabs(b[i])
#else
  size_t n = (size_t)(n1 + 2) * (n2 + 2);
  double *u = field(n), *v = field(n);
  LIB(heat_steps_1_first_touch)(n1, n2, 0.1, u, v);
  fill(u, n), fill(v, n);
  double updates = (double)n1 * n2 * steps; /* one stencil update a step, then the copy */
#define SWEEPS                                                                                    \
  for (int s = 0; s < steps; ++s) {                                                               \
    LIB(heat_steps_1_pthreads)(n1, n2, 0.1, u, v);                                                \
    LIB(heat_steps_2_pthreads)(n1, n2, u, v);                                                     \
  }
#define LOOP LIB(heat_steps_pthreads)(n1, n2, steps, 0.1, u, v, &it)
#define SUM(s)                                                                                    \
  for (size_t i = 0; i < n; ++i)                                                                  \
  s += fabs(u[i]) + fabs(v[i])
#endif
  for (int rep = 0; rep < 4; ++rep) { /* the first of each form warms up */
    double t0 = now();
    SWEEPS;
    double t1 = now();
    LOOP;
    double t2 = now();
    if (rep) {
      best[0] = t1 - t0 < best[0] ? t1 - t0 : best[0];
      best[1] = t2 - t1 < best[1] ? t2 - t1 : best[1];
    }
  }
  const char *form[2] = {"sweeps", "loop"};
  for (int f = 0; f < 2; ++f)
    printf("%-10s %10.4f s %8.3f GUpdates/s\n", form[f], best[f], updates / best[f] * 1e-9);
  double s = 0;
  SUM(s);
  printf("checksum %.17g\n", s);
  return 0;
}
