/* Time tiling on the CPU (issue 14, section 3): for one time-loop procedure
 * of bench/time_loops.list, effective stencil updates per second of
 *   sweeps: each step's sweeps called one by one through the library's
 *           pthreads entry points (tuned single sweeps);
 *   loop:   the library's pthreads time-loop procedure (step by step, or
 *           tiled in time: whichever the library was built with).
 * Built on the GPU machine's host against the example's library:
 *   gcc -O2 -DTIME_LOOP_<PROCEDURE> -I DIR time_tiles_bench.c -L DIR -lf2s_<example>
 *   usage: time_tiles_bench STEPS N1 N2 [N3]
 * Prints one line per form: form, seconds (best of 3 after a warm-up),
 * updates/s; then the precision and a checksum of the grids after the last
 * loop call.
 *   usage: time_tiles_bench check N1 N2 [N3]
 * runs 5 steps as the sweeps one by one and 5 as the time-loop procedure
 * from the same grids, and prints "same" (exit 0) when they leave the same
 * grids and simulated time, bitwise: SWEEPS of bench/time_loop_rows.h
 * calls the loop's sweeps as the loop does, so "sweeps" times the same
 * work (tests/e2e/BenchRowsTest.cpp runs it for every row). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ENTRY(x) LIB(x##_pthreads)
#include "../time_loop_rows.h"

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

/* Values in [0, 1), first touched by the library's threads (FIRST_TOUCH)
   before they are filled. */
static real *field(size_t n) {
  real *p = malloc(n * sizeof *p);
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return p;
}

static void fill(real *p, size_t n) {
  for (size_t i = 0; i < n; ++i)
    p[i] = (real)((i * 2654435761u) % 1000) / (real)1000;
}

int main(int argc, char **argv) {
  if (argc < 3 + RANK - 1)
    return fprintf(stderr, "usage: %s STEPS|check N1 N2 [N3]\n", argv[0]), 2;
  const int check = !strcmp(argv[1], "check");
  int32_t steps = check ? 5 : atoi(argv[1]), n1 = atoi(argv[2]), n2 = atoi(argv[3]), it = 0;
  int32_t n3 = RANK == 3 && argc > 4 ? atoi(argv[4]) : RANK == 3 ? n2 : 1;
  real sim_time = 0, *g[NGRIDS], *tab = NULL;
  size_t n = (size_t)(n1 + 2 * HALO) * (n2 + 2 * HALO) * (RANK == 3 ? n3 + 2 * HALO : 1);
  double updates = (double)UPDATES_A_STEP * n1 * n2 * n3 * steps;
  double best[2] = {1e30, 1e30};
  for (int k = 0; k < NGRIDS; ++k)
    g[k] = field(n);
  FIRST_TOUCH;
  for (int k = 0; k < NGRIDS; ++k)
    fill(g[k], n);
#ifdef TABLE
  tab = field(steps);
  fill(tab, steps);
#endif
  (void)tab;
  if (check) {
    real *swept[NGRIDS], swept_time;
    for (int k = 0; k < NGRIDS; ++k) {
      swept[k] = field(n);
      memcpy(swept[k], g[k], n * sizeof(real));
    }
    for (int32_t s = 1; s <= steps; ++s) {
      SWEEPS(s);
    }
    swept_time = sim_time, sim_time = 0;
    for (int k = 0; k < NGRIDS; ++k) { /* the loop from the same grids */
      real *t = swept[k];
      swept[k] = g[k], g[k] = t;
    }
    LOOP;
    int same = sim_time == swept_time;
    for (int k = 0; k < NGRIDS; ++k)
      same = same && !memcmp(swept[k], g[k], n * sizeof(real));
    printf("%s\n", same ? "same" : "differ");
    return !same;
  }
  for (int rep = 0; rep < 4; ++rep) { /* the first of each form warms up */
    double t0 = now();
    for (int32_t s = 1; s <= steps; ++s) {
      SWEEPS(s);
    }
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
  double sum = 0;
  for (int k = 0; k < NGRIDS; ++k)
    for (size_t i = 0; i < n; ++i)
      sum += fabs((double)g[k][i]);
  printf("precision %s, checksum %.17g, simulated time %g\n",
         sizeof(real) == 8 ? "double" : "single", sum, (double)sim_time);
  return 0;
}
