/* Device residency for the CUDA part of a generated library (f2stencil).
 *
 * A kernel call maps each grid it touches: a grid that a data region made
 * present is used where it lives and moves nothing; any other grid is copied
 * to the device for the call (and back when the kernel writes it). Data
 * regions follow OpenACC's `enter data copyin`, `update host`, `update
 * device` and `exit data copyout`, counted per host address.
 *
 * Embedded as text, after the CUDA prelude, into the CUDA source of every
 * generated library: every name is static; the library exports the data
 * region procedures with its own prefix. */
#include <cuda_runtime.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* From runtime/f2s_launcher.c, appended after this runtime. */
static int f2s_env_int_(const char *name);
static void f2s_local_rank(int *rank, int *size);

/* One host range made present by a data region. */
struct f2s_present {
  const char *host;
  size_t bytes;
  void *dev;
  int refs;
};

/* A grid mapped for one kernel call. */
struct f2s_cuda_arg {
  const void *host;
  void *dev;
  size_t bytes;
  int temporary; /* allocated for this call only */
};

static void f2s_cuda_check(cudaError_t e, const char *what);
static int f2s_cuda_wanted(int n, const void *const *host);
static void *f2s_cuda_map(const void *host, size_t bytes, int copy_in, struct f2s_cuda_arg *m);
static void f2s_cuda_unmap(struct f2s_cuda_arg *m, int copy_out);
static void f2s_cuda_enter(const void *host, size_t bytes);
static void f2s_cuda_update_host(const void *host, size_t bytes);
static void f2s_cuda_update_device(const void *host, size_t bytes);
static void f2s_cuda_exit(const void *host, size_t bytes, int copy_out);
