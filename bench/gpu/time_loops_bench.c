/* Time loops on the GPU (issue 14, section 2): for one example's time loop,
 * effective stencil updates per second of
 *   sweeps:    each step's sweeps called one by one through the library's
 *              single-sweep entry points, the grids resident in a data region;
 *   loop:      the time-loop procedure, the grids resident in a data region;
 *   loop+copy: the time-loop procedure on host arrays (one copy in and out
 *              per call, inside the time).
 * Built on the GPU machine against the example's library:
 *   gcc -O2 -DEXAMPLE_<NAME> -I DIR time_loops_bench.c -L DIR -lf2s_<name>
 *   usage: time_loops_bench STEPS N1 N2 [N3]
 * Prints one line per form: form, seconds (best of 3), updates/s. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#if defined(EXAMPLE_JACOBI3D_PINGPONG)
#include "f2s_jacobi3d_pingpong.h"
#define LIB(x) f2s_jacobi3d_pingpong_##x
#elif defined(EXAMPLE_BOX27_STEPS)
#include "f2s_box27_steps.h"
#define LIB(x) f2s_box27_steps_##x
#elif defined(EXAMPLE_HEAT2D_STEPS)
#include "f2s_heat2d_steps.h"
#define LIB(x) f2s_heat2d_steps_##x
#elif defined(EXAMPLE_FDTD2D_STEPS)
#include "f2s_fdtd2d_steps.h"
#define LIB(x) f2s_fdtd2d_steps_##x
#else
#error "define EXAMPLE_<NAME>"
#endif

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static double *field(size_t n) {
  double *p = malloc(n * sizeof *p);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < n; ++i)
    p[i] = (double)((i * 2654435761u) % 1000) / 1000.0;
  return p;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return fprintf(stderr, "usage: %s STEPS N1 N2 [N3]\n", argv[0]), 2;
  int32_t steps = atoi(argv[1]), n1 = atoi(argv[2]), n2 = atoi(argv[3]), it = 0;
  double best[3] = {1e30, 1e30, 1e30};
#if defined(EXAMPLE_JACOBI3D_PINGPONG)
  int32_t n3 = argc > 4 ? atoi(argv[4]) : n2;
  size_t n = (size_t)(n1 + 2) * (n2 + 2) * (n3 + 2), bytes = n * sizeof(double);
  double *a = field(n), *b = field(n);
  double updates = 2.0 * n1 * n2 * n3 * steps; /* two sweeps a step */
  void *grids[] = {a, b};
#define SWEEPS                                                                                    \
  for (int s = 0; s < steps; ++s) {                                                               \
    LIB(jacpp_1)(n1, n2, n3, a, b);                                                               \
    LIB(jacpp_2)(n1, n2, n3, a, b);                                                               \
  }
#define LOOP LIB(jacpp)(n1, n2, n3, steps, a, b, &it)
#elif defined(EXAMPLE_BOX27_STEPS)
  int32_t n3 = argc > 4 ? atoi(argv[4]) : n2;
  size_t n = (size_t)(n1 + 2) * (n2 + 2) * (n3 + 2), bytes = n * sizeof(double);
  double *a = field(n), *b = field(n);
  double updates = 2.0 * n1 * n2 * n3 * steps; /* two sweeps a step */
  void *grids[] = {a, b};
#define SWEEPS                                                                                    \
  for (int s = 0; s < steps; ++s) {                                                               \
    LIB(box27_steps_1)(n1, n2, n3, 0.4, 0.05, 0.02, 0.0125, a, b);                                \
    LIB(box27_steps_2)(n1, n2, n3, 0.4, 0.05, 0.02, 0.0125, a, b);                                \
  }
#define LOOP LIB(box27_steps)(n1, n2, n3, steps, 0.4, 0.05, 0.02, 0.0125, a, b, &it)
#elif defined(EXAMPLE_HEAT2D_STEPS)
  size_t n = (size_t)(n1 + 2) * (n2 + 2), bytes = n * sizeof(double);
  double *u = field(n), *v = field(n);
  double updates = (double)n1 * n2 * steps; /* one stencil update a step, then the copy */
  void *grids[] = {u, v};
#define SWEEPS                                                                                    \
  for (int s = 0; s < steps; ++s) {                                                               \
    LIB(heat_steps_1)(n1, n2, 0.1, u, v);                                                         \
    LIB(heat_steps_2)(n1, n2, u, v);                                                              \
  }
#define LOOP LIB(heat_steps)(n1, n2, steps, 0.1, u, v, &it)
#else
  size_t n = (size_t)n1 * n2, bytes = n * sizeof(double);
  double *ex = field(n), *ey = field(n), *hz = field(n), *fict = field(steps);
  double updates = (double)n1 * n2 * steps; /* one FDTD step: three fields */
  void *grids[] = {ex, ey, hz};
#define SWEEPS                                                                                    \
  for (int t = 1; t <= steps; ++t) {                                                              \
    LIB(fdtd_steps_1)(n1, n2, steps, ey, fict, t);                                                \
    LIB(fdtd_steps_2)(n1, n2, ey, hz);                                                            \
    LIB(fdtd_steps_3)(n1, n2, ex, hz);                                                            \
    LIB(fdtd_steps_4)(n1, n2, ex, ey, hz);                                                        \
  }
#define LOOP LIB(fdtd_steps)(n1, n2, steps, ex, ey, hz, fict, &it)
#endif
  const int ngrids = sizeof grids / sizeof grids[0];
#if defined(EXAMPLE_FDTD2D_STEPS)
  LIB(data_enter)(fict, steps * sizeof(double));
#endif
  for (int rep = 0; rep < 4; ++rep) { /* the first of each form warms up */
    for (int g = 0; g < ngrids; ++g)
      LIB(data_enter)(grids[g], bytes);
    double t0 = now();
    SWEEPS;
    LIB(data_update_host)(grids[0], 8); /* waits for the device */
    double t1 = now();
    LOOP;
    LIB(data_update_host)(grids[0], 8);
    double t2 = now();
    for (int g = 0; g < ngrids; ++g)
      LIB(data_exit)(grids[g], bytes);
    double t3 = now();
    LOOP;
    double t4 = now();
    if (rep) {
      best[0] = t1 - t0 < best[0] ? t1 - t0 : best[0];
      best[1] = t2 - t1 < best[1] ? t2 - t1 : best[1];
      best[2] = t4 - t3 < best[2] ? t4 - t3 : best[2];
    }
  }
  const char *form[3] = {"sweeps", "loop", "loop+copy"};
  for (int f = 0; f < 3; ++f)
    printf("%-10s %10.4f s %8.3f GUpdates/s\n", form[f], best[f], updates / best[f] * 1e-9);
  return 0;
}
