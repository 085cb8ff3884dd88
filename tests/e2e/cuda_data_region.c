/* Data regions keep iterations transfer-free: 10 Jacobi-like sweeps of the
 * Laplacian on present arrays move nothing, and the result equals the same
 * sweeps on the CPU. Usage: cuda_data_region [nx ny nz]. Exit 0 on success. */
#include "f2s_laplacian.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  int nx = argc > 3 ? atoi(argv[1]) : 67, ny = argc > 3 ? atoi(argv[2]) : 45,
      nz = argc > 3 ? atoi(argv[3]) : 33;
  size_t n = (size_t)(nx + 2) * (ny + 2) * (nz + 2), bytes = n * sizeof(double);
  double *u = malloc(bytes), *v = malloc(bytes), *cu = malloc(bytes), *cv = malloc(bytes);
  for (size_t i = 0; i < n; ++i)
    u[i] = v[i] = cu[i] = cv[i] = 0.5 + (double)((i * 2654435761u) % 1000) / 1000.0;

  /* The CPU reference: the same sweeps, alternating the grids. */
  for (int it = 0; it < 10; ++it) {
    if (it % 2 == 0)
      f2s_laplacian_laplacian_pthreads(nx, ny, nz, 0.4, 0.1, cu, cv);
    else
      f2s_laplacian_laplacian_pthreads(nx, ny, nz, 0.4, 0.1, cv, cu);
  }

  f2s_laplacian_data_enter(u, bytes);
  f2s_laplacian_data_enter(v, bytes);
  long long before = f2s_laplacian_data_transfers();
  for (int it = 0; it < 10; ++it) {
    if (it % 2 == 0)
      f2s_laplacian_laplacian(nx, ny, nz, 0.4, 0.1, u, v);
    else
      f2s_laplacian_laplacian(nx, ny, nz, 0.4, 0.1, v, u);
  }
  long long during = f2s_laplacian_data_transfers() - before;
  f2s_laplacian_data_exit(u, bytes);
  f2s_laplacian_data_exit(v, bytes);
  long long after = f2s_laplacian_data_transfers() - before;

  double err = 0, ref = 0;
  for (size_t i = 0; i < n; ++i) {
    err = fmax(err, fabs(u[i] - cu[i]) + fabs(v[i] - cv[i]));
    ref = fmax(ref, fabs(cu[i]));
  }
  printf("data region: %lld transfers during 10 sweeps, %lld at exit; largest relative "
         "difference from the CPU %.3e\n", during, after, err / ref);
  if (during != 0 || after != 2 || !(err / ref <= 1e-12)) {
    printf("FAILED\n");
    return 1;
  }
  /* Without a data region every call copies: 2 grids in, 1 back. */
  before = f2s_laplacian_data_transfers();
  setenv("F2S_TARGET", "cuda", 1);
  f2s_laplacian_laplacian(nx, ny, nz, 0.4, 0.1, u, v);
  long long plain = f2s_laplacian_data_transfers() - before;
  printf("one call outside a data region: %lld transfers\n", plain);
  if (plain != 3) {
    printf("FAILED\n");
    return 1;
  }
  printf("PASSED\n");
  return 0;
}
