/* Time loops on the GPU (issue 14, sections 2 and 3): for one time-loop
 * procedure of bench/time_loops.list, effective stencil updates per second of
 *   sweeps:    each step's sweeps called one by one through the library's
 *              single-sweep entry points, the grids resident in a data region;
 *   loop:      the time-loop procedure (step by step or tiled in time: as the
 *              library was built), the grids resident in a data region;
 *   loop+copy: the time-loop procedure on host arrays (one copy in and out
 *              per call, inside the time).
 * Built on the GPU machine against the example's library:
 *   gcc -O2 -DTIME_LOOP_<PROCEDURE> -I DIR time_loops_bench.c -L DIR -lf2s_<example>
 *   usage: time_loops_bench STEPS N1 N2 [N3]
 * Prints one line per form: form, seconds (best of 3 after a warm-up),
 * updates/s; then the precision and a checksum of the grids after the
 * last call (the same for every library of one procedure, tiled or not). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define ENTRY(x) LIB(x)
#include "../time_loop_rows.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static real *field(size_t n) {
  real *p = malloc(n * sizeof *p);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (size_t i = 0; i < n; ++i)
    p[i] = (real)((i * 2654435761u) % 1000) / (real)1000;
  return p;
}

int main(int argc, char **argv) {
  if (argc < 3 + RANK - 1)
    return fprintf(stderr, "usage: %s STEPS N1 N2 [N3]\n", argv[0]), 2;
  int32_t steps = atoi(argv[1]), n1 = atoi(argv[2]), n2 = atoi(argv[3]), it = 0;
  int32_t n3 = RANK == 3 && argc > 4 ? atoi(argv[4]) : RANK == 3 ? n2 : 1;
  real sim_time = 0, *g[NGRIDS], *tab = NULL;
  size_t n = (size_t)(n1 + 2 * HALO) * (n2 + 2 * HALO) * (RANK == 3 ? n3 + 2 * HALO : 1);
  size_t bytes = n * sizeof(real);
  double updates = (double)UPDATES_A_STEP * n1 * n2 * n3 * steps;
  double best[3] = {1e30, 1e30, 1e30};
  for (int k = 0; k < NGRIDS; ++k)
    g[k] = field(n);
#ifdef TABLE
  tab = field(steps);
  LIB(data_enter)(tab, steps * sizeof(real));
#endif
  (void)tab;
  for (int rep = 0; rep < 4; ++rep) { /* the first of each form warms up */
    for (int k = 0; k < NGRIDS; ++k)
      LIB(data_enter)(g[k], bytes);
    double t0 = now();
    for (int32_t s = 1; s <= steps; ++s) {
      SWEEPS(s);
    }
    LIB(data_update_host)(g[0], sizeof(real)); /* waits for the device */
    double t1 = now();
    LOOP;
    LIB(data_update_host)(g[0], sizeof(real));
    double t2 = now();
    for (int k = 0; k < NGRIDS; ++k)
      LIB(data_exit)(g[k], bytes);
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
  double sum = 0;
  for (int k = 0; k < NGRIDS; ++k)
    for (size_t i = 0; i < n; ++i)
      sum += fabs((double)g[k][i]);
  printf("precision %s, checksum %.17g, simulated time %g\n",
         sizeof(real) == 8 ? "double" : "single", sum, (double)sim_time);
  return 0;
}
