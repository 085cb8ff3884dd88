/* Device residency for the CUDA part of a generated library (f2stencil).
 *
 * A kernel call maps each grid it touches: a grid that a data region made
 * present is used where it lives and moves nothing; any other grid is copied
 * to the device for the call (and back when the kernel writes it), once for
 * all the arguments that pass it. Without a GPU, or where the device has no
 * room, the call runs its CPU code instead: never a stop. Data
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

/* From runtime/f2s_launcher.c, appended after this runtime. runtime/f2s_calls.c
 * (F2S_TARGET, F2S_VERBOSE, F2S_PROFILE) comes before it. */
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
  int copy_out;  /* copied back after the call (a temporary one) */
};

static void f2s_cuda_check(cudaError_t e, const char *what);
static int f2s_cuda_on(void);
static int f2s_cuda_wanted(int n, const void *const *host);
static void *f2s_cuda_map_arg(struct f2s_cuda_arg *m, int i, const void *host, size_t bytes,
                              int copy_in, int copy_out);
static void f2s_cuda_unmap_args(struct f2s_cuda_arg *m, int n, int ran);
static void f2s_cuda_sync_present(int n, const void *const *host, const size_t *bytes,
                                  const int *written, int to_device);
static void f2s_cuda_enter(const void *host, size_t bytes);
static int f2s_cuda_enter_all(int n, const void *const *host, const size_t *bytes);
static void f2s_cuda_update_host(const void *host, size_t bytes);
static void f2s_cuda_update_device(const void *host, size_t bytes);
static void f2s_cuda_update_if_present(const void *host, int to_device);
static void f2s_cuda_exit(const void *host, size_t bytes, int copy_out);
