/* The time-loop procedures of bench/time_loops.list, for the programs that
 * time them (bench/gpu/time_loops_bench.c, bench/cpu/time_tiles_bench.c):
 * one is chosen by -DTIME_LOOP_<PROCEDURE> (its name in upper case) and
 * compiled against its example's library. Before including this file,
 * define ENTRY(x) as the entry point that runs the library's name x (the
 * plain one on the GPU, x##_pthreads on the CPU). Defines:
 *   real             the grids' element type (the loop's precision)
 *   RANK, HALO       the grids' rank, and the points of halo on each side
 *   NGRIDS           how many grids: g[0] .. g[NGRIDS - 1], in the
 *                    procedure's argument order
 *   UPDATES_A_STEP   stencil updates a step (a ping-pong's step is two
 *                    sweeps; a copy back or a boundary sweep is no update)
 *   SWEEPS(s)        step s (1, 2, ...) run as the sweeps one by one, with
 *                    the scalars the loop computes between them
 *   LOOP             the time-loop procedure over `steps` steps
 *   FIRST_TOUCH      the first-touch procedure of a sweep that writes over
 *                    the whole domain and reads every grid it can (CPU)
 *   TABLE            defined when the loop reads a table `tab` of `steps`
 *                    values indexed by the time variable
 * The names they use: n1, n2, n3 (interior sizes), steps, it (the time
 * variable), g, tab, and sim_time (a loop's simulated time). The scalar
 * arguments are those of the examples' checking programs. */
#include <stdint.h>

#if defined(TIME_LOOP_JACPP) /* 3D 7-point ping-pong, double (fixed form) */
#include "f2s_jacobi3d_pingpong.h"
#define LIB(x) f2s_jacobi3d_pingpong_##x
typedef double real;
#define RANK 3
#define HALO 1
#define NGRIDS 2
#define UPDATES_A_STEP 2
#define SWEEPS(s)                                                                                  \
  ENTRY(jacpp_1)(n1, n2, n3, g[0], g[1]);                                                          \
  ENTRY(jacpp_2)(n1, n2, n3, g[0], g[1])
#define LOOP ENTRY(jacpp)(n1, n2, n3, steps, g[0], g[1], &it)
#define FIRST_TOUCH LIB(jacpp_1_first_touch)(n1, n2, n3, g[0], g[1])

#elif defined(TIME_LOOP_RELAX7_STEPS) /* 3D 7-point ping-pong, single */
#include "f2s_jacobi3d_pingpong_sp.h"
#define LIB(x) f2s_jacobi3d_pingpong_sp_##x
typedef float real;
#define RANK 3
#define HALO 1
#define NGRIDS 2
#define UPDATES_A_STEP 2
#define SWEEPS(s)                                                                                  \
  ENTRY(relax7_steps_1)(n1, n2, n3, g[0], g[1]);                                                   \
  ENTRY(relax7_steps_2)(n1, n2, n3, g[0], g[1])
#define LOOP ENTRY(relax7_steps)(n1, n2, n3, steps, g[0], g[1], &it)
#define FIRST_TOUCH LIB(relax7_steps_1_first_touch)(n1, n2, n3, g[0], g[1])

#elif defined(TIME_LOOP_BOX27_STEPS) /* 3D 27-point ping-pong, double */
#include "f2s_box27_steps.h"
#define LIB(x) f2s_box27_steps_##x
typedef double real;
#define RANK 3
#define HALO 1
#define NGRIDS 2
#define UPDATES_A_STEP 2
#define W27 0.4, 0.05, 0.02, 0.0125
#define SWEEPS(s)                                                                                  \
  ENTRY(box27_steps_1)(n1, n2, n3, W27, g[0], g[1]);                                               \
  ENTRY(box27_steps_2)(n1, n2, n3, W27, g[0], g[1])
#define LOOP ENTRY(box27_steps)(n1, n2, n3, steps, W27, g[0], g[1], &it)
#define FIRST_TOUCH LIB(box27_steps_1_first_touch)(n1, n2, n3, W27, g[0], g[1])

#elif defined(TIME_LOOP_SMOOTH27S_STEPS) /* 3D 27-point ping-pong, single */
#include "f2s_box27_steps_sp.h"
#define LIB(x) f2s_box27_steps_sp_##x
typedef float real;
#define RANK 3
#define HALO 1
#define NGRIDS 2
#define UPDATES_A_STEP 2
#define W27 0.36f, 0.05f, 0.02f, 0.0125f /* weights summing to 1: no overflow in float */
#define SWEEPS(s)                                                                                  \
  ENTRY(smooth27s_steps_1)(n1, n2, n3, W27, g[0], g[1]);                                           \
  ENTRY(smooth27s_steps_2)(n1, n2, n3, W27, g[0], g[1])
#define LOOP ENTRY(smooth27s_steps)(n1, n2, n3, steps, W27, g[0], g[1], &it)
#define FIRST_TOUCH LIB(smooth27s_steps_1_first_touch)(n1, n2, n3, W27, g[0], g[1])

#elif defined(TIME_LOOP_HEAT_STEPS) /* 2D 5-point and a copy back, double */
#include "f2s_heat2d_steps.h"
#define LIB(x) f2s_heat2d_steps_##x
typedef double real;
#define RANK 2
#define HALO 1
#define NGRIDS 2
#define UPDATES_A_STEP 1
#define SWEEPS(s)                                                                                  \
  ENTRY(heat_steps_1)(n1, n2, 0.1, g[0], g[1]);                                                    \
  ENTRY(heat_steps_2)(n1, n2, g[0], g[1])
#define LOOP ENTRY(heat_steps)(n1, n2, steps, 0.1, g[0], g[1], &it)
#define FIRST_TOUCH LIB(heat_steps_1_first_touch)(n1, n2, 0.1, g[0], g[1])

#elif defined(TIME_LOOP_HEAT_INTERIOR_STEPS) /* 2D 5-point, interior copied back, single */
#include "f2s_heat2d_steps.h"
#define LIB(x) f2s_heat2d_steps_##x
typedef float real;
#define RANK 2
#define HALO 1
#define NGRIDS 2
#define UPDATES_A_STEP 1
#define SWEEPS(s)                                                                                  \
  ENTRY(heat_interior_steps_1)(n1, n2, 0.05f, g[0], g[1]);                                         \
  sim_time += 0.05f;                                                                               \
  ENTRY(heat_interior_steps_2)(n1, n2, g[0], g[1])
#define LOOP ENTRY(heat_interior_steps)(n1, n2, steps, 0.05f, &sim_time, g[0], g[1], &it)
#define FIRST_TOUCH LIB(heat_interior_steps_1_first_touch)(n1, n2, 0.05f, g[0], g[1])

#elif defined(TIME_LOOP_JACOBI9_STEPS) /* 2D 9-point ping-pong, double */
#include "f2s_jacobi2d9_steps.h"
#define LIB(x) f2s_jacobi2d9_steps_##x
typedef double real;
#define RANK 2
#define HALO 1
#define NGRIDS 2
#define UPDATES_A_STEP 2
#define W9 0.5, 0.1, 0.025
#define SWEEPS(s)                                                                                  \
  ENTRY(jacobi9_steps_1)(n1, n2, W9, g[0], g[1]);                                                  \
  ENTRY(jacobi9_steps_2)(n1, n2, W9, g[0], g[1])
#define LOOP ENTRY(jacobi9_steps)(n1, n2, steps, W9, g[0], g[1], &it)
#define FIRST_TOUCH LIB(jacobi9_steps_1_first_touch)(n1, n2, W9, g[0], g[1])

#elif defined(TIME_LOOP_BLUR9_STEPS) /* 2D 9-point ping-pong, single */
#include "f2s_jacobi2d9_steps_sp.h"
#define LIB(x) f2s_jacobi2d9_steps_sp_##x
typedef float real;
#define RANK 2
#define HALO 1
#define NGRIDS 2
#define UPDATES_A_STEP 2
#define SWEEPS(s)                                                                                  \
  ENTRY(blur9_steps_1)(n1, n2, g[0], g[1]);                                                        \
  ENTRY(blur9_steps_2)(n1, n2, g[0], g[1])
#define LOOP ENTRY(blur9_steps)(n1, n2, steps, g[0], g[1], &it)
#define FIRST_TOUCH LIB(blur9_steps_1_first_touch)(n1, n2, g[0], g[1])

#elif defined(TIME_LOOP_FDTD_STEPS) /* 2D FDTD, three fields and a source edge, double */
#include "f2s_fdtd2d_steps.h"
#define LIB(x) f2s_fdtd2d_steps_##x
typedef double real;
#define RANK 2
#define HALO 0
#define NGRIDS 3 /* ex, ey, hz */
#define UPDATES_A_STEP 1
#define TABLE
#define SWEEPS(s)                                                                                  \
  ENTRY(fdtd_steps_1)(n1, n2, steps, g[1], tab, s);                                                \
  ENTRY(fdtd_steps_2)(n1, n2, g[1], g[2]);                                                         \
  ENTRY(fdtd_steps_3)(n1, n2, g[0], g[2]);                                                         \
  ENTRY(fdtd_steps_4)(n1, n2, g[0], g[1], g[2])
#define LOOP ENTRY(fdtd_steps)(n1, n2, steps, g[0], g[1], g[2], tab, &it)
#define FIRST_TOUCH LIB(fdtd_steps_4_first_touch)(n1, n2, g[0], g[1], g[2])

#elif defined(TIME_LOOP_YEE2D_STEPS) /* 2D FDTD, three fields and a source edge, single */
#include "f2s_fdtd2d_steps_sp.h"
#define LIB(x) f2s_fdtd2d_steps_sp_##x
typedef float real;
#define RANK 2
#define HALO 0
#define NGRIDS 3 /* ex, ey, hz */
#define UPDATES_A_STEP 1
#define TABLE
#define SWEEPS(s)                                                                                  \
  ENTRY(yee2d_steps_1)(n1, n2, 0.7f, g[0], g[1], g[2]);                                            \
  ENTRY(yee2d_steps_2)(n1, n2, 0.5f, g[0], g[2]);                                                  \
  ENTRY(yee2d_steps_3)(n1, n2, 0.5f, g[1], g[2]);                                                  \
  ENTRY(yee2d_steps_4)(n1, n2, steps, g[1], tab, s)
#define LOOP ENTRY(yee2d_steps)(n1, n2, steps, 0.5f, 0.7f, g[0], g[1], g[2], tab, &it)
#define FIRST_TOUCH LIB(yee2d_steps_1_first_touch)(n1, n2, 0.7f, g[0], g[1], g[2])

#else
#error "define TIME_LOOP_<PROCEDURE>, a procedure of bench/time_loops.list in upper case"
#endif
