// STREAM-style memory bandwidth of this machine, the bound for the table:
// copy (c = a) and triad (a = b + s*c) with OpenMP, arrays first touched by
// the same static schedule that uses them and each far larger than the last-
// level cache. Bandwidth is counted as STREAM counts it: bytes read plus
// bytes written, no write-allocate. Best of NTIMES.
//   usage: stream [N]   (default 2^27 doubles per array, 1 GiB each)
// Prints: STREAM n=N threads=T copy_gbs=... triad_gbs=...
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

enum { NTIMES = 10 };

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : (1L << 27);
  double *a = aligned_alloc(64, n * sizeof(double));
  double *b = aligned_alloc(64, n * sizeof(double));
  double *c = aligned_alloc(64, n * sizeof(double));
  if (!a || !b || !c) {
    fprintf(stderr, "stream: cannot allocate 3 x %ld doubles\n", n);
    return 1;
  }
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.5;
  }
  double best_copy = 1e30, best_triad = 1e30, s = 3.0;
  for (int t = 0; t < NTIMES; ++t) {
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
      c[i] = a[i];
    double t1 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i)
      a[i] = b[i] + s * c[i];
    double t2 = omp_get_wtime();
    if (t1 - t0 < best_copy)
      best_copy = t1 - t0;
    if (t2 - t1 < best_triad)
      best_triad = t2 - t1;
  }
  // A use of the results, so that no loop is optimised away.
  double check = 0;
  for (long i = 0; i < n; i += 4096)
    check += a[i] + c[i];
  printf("STREAM n=%ld threads=%d copy_gbs=%.2f triad_gbs=%.2f check=%g\n", n,
         omp_get_max_threads(), 16.0 * n / best_copy * 1e-9, 24.0 * n / best_triad * 1e-9, check);
  free(a);
  free(b);
  free(c);
  return 0;
}
