/* Host-device copies made by this library since it was loaded: the tests
 * read it to show that iterations inside a data region move nothing. */
static long long f2s_cuda_transfer_count = 0;
static long long f2s_cuda_transfer_bytes = 0;

enum { F2S_MAX_PRESENT = 1024 };
static struct f2s_present f2s_present_table[F2S_MAX_PRESENT];
static int f2s_present_count = 0;
static pthread_mutex_t f2s_present_lock = PTHREAD_MUTEX_INITIALIZER;

/* A CUDA error is never a silent wrong result: the program stops with the
 * operation and CUDA's own message. */
static void f2s_cuda_check(cudaError_t e, const char *what) {
  if (e == cudaSuccess)
    return;
  fprintf(stderr, "f2stencil runtime: CUDA error in %s: %s (%s)\n", what, cudaGetErrorString(e),
          cudaGetErrorName(e));
  exit(EXIT_FAILURE);
}

static void f2s_cuda_copy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                          const char *what) {
  if (bytes == 0)
    return;
  f2s_cuda_check(cudaMemcpy(dst, src, bytes, kind), what);
  __atomic_add_fetch(&f2s_cuda_transfer_count, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&f2s_cuda_transfer_bytes, (long long)bytes, __ATOMIC_RELAXED);
}

/* The entry whose host range holds `host`, or NULL. Caller holds the lock. */
static struct f2s_present *f2s_present_find(const void *host) {
  const char *p = (const char *)host;
  for (int i = 0; i < f2s_present_count; ++i) {
    struct f2s_present *e = &f2s_present_table[i];
    if (p >= e->host && p < e->host + (e->bytes ? e->bytes : 1))
      return e;
  }
  return NULL;
}

/* The device address of present host memory, or NULL. */
static void *f2s_present_device(const void *host) {
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_find(host);
  void *dev = e ? (char *)e->dev + ((const char *)host - e->host) : NULL;
  pthread_mutex_unlock(&f2s_present_lock);
  return dev;
}

/* F2S_TARGET=cuda: always the GPU; F2S_TARGET=cpu (or c, pthreads): never;
 * unset: the GPU when every grid of the call is present there. */
static int f2s_cuda_wanted(int n, const void *const *host) {
  const char *t = getenv("F2S_TARGET");
  if (t && *t) {
    if (!strcmp(t, "cuda"))
      return 1;
    if (!strcmp(t, "cpu") || !strcmp(t, "c") || !strcmp(t, "pthreads"))
      return 0;
    fprintf(stderr, "f2stencil runtime: F2S_TARGET='%s' is not cuda, cpu, c or pthreads\n", t);
    exit(EXIT_FAILURE);
  }
  if (n == 0)
    return 0;
  for (int i = 0; i < n; ++i)
    if (!f2s_present_device(host[i]))
      return 0;
  return 1;
}

/* The GPU of this process. Under several MPI ranks per node (f2s_local_rank),
 * rank r takes GPU r mod the GPUs it sees, unless the program chose one:
 * F2S_CUDA_DEVICE set, or a device other than 0 made current (cudaSetDevice)
 * before the library's first call. Outside MPI, whatever is current. The
 * choice is made once and made current on every host thread that calls the
 * library (CUDA's current device is per thread). */
static int f2s_cuda_device = -1;
static pthread_once_t f2s_cuda_device_once = PTHREAD_ONCE_INIT;
static __thread int f2s_cuda_device_current;

static void f2s_cuda_choose_device(void) {
  int rank, size, count = 0, current = 0, chosen = f2s_env_int_("F2S_CUDA_DEVICE");
  if (chosen >= 0) {
    f2s_cuda_device = chosen;
    return;
  }
  f2s_local_rank(&rank, &size);
  if (size <= 1 || cudaGetDeviceCount(&count) != cudaSuccess || count <= 1)
    return;
  if (cudaGetDevice(&current) == cudaSuccess && current != 0)
    return;
  f2s_cuda_device = rank % count;
}

static void f2s_cuda_use_device(void) {
  pthread_once(&f2s_cuda_device_once, f2s_cuda_choose_device);
  if (f2s_cuda_device >= 0 && !f2s_cuda_device_current) {
    f2s_cuda_check(cudaSetDevice(f2s_cuda_device), "selecting this rank's GPU (F2S_CUDA_DEVICE or "
                                                   "the MPI local rank)");
    f2s_cuda_device_current = 1;
  }
}

static void *f2s_cuda_map(const void *host, size_t bytes, int copy_in, struct f2s_cuda_arg *m) {
  f2s_cuda_use_device();
  m->host = host;
  m->bytes = bytes;
  m->dev = f2s_present_device(host);
  m->temporary = m->dev == NULL;
  if (m->temporary) {
    f2s_cuda_check(cudaMalloc(&m->dev, bytes ? bytes : 1), "allocating a grid on the device");
    if (copy_in)
      f2s_cuda_copy(m->dev, host, bytes, cudaMemcpyHostToDevice, "copying a grid to the device");
  }
  return m->dev;
}

static void f2s_cuda_unmap(struct f2s_cuda_arg *m, int copy_out) {
  if (!m->temporary)
    return;
  if (copy_out)
    f2s_cuda_copy((void *)m->host, m->dev, m->bytes, cudaMemcpyDeviceToHost,
                  "copying a grid back to the host");
  f2s_cuda_check(cudaFree(m->dev), "freeing a grid on the device");
}

static void f2s_cuda_enter(const void *host, size_t bytes) {
  f2s_cuda_use_device();
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_find(host);
  if (e) {
    if ((const char *)host + bytes > e->host + e->bytes) {
      fprintf(stderr,
              "f2stencil runtime: data enter of %zu bytes at %p overlaps a present "
              "array it does not fit in\n",
              bytes, host);
      exit(EXIT_FAILURE);
    }
    ++e->refs;
    pthread_mutex_unlock(&f2s_present_lock);
    return;
  }
  if (f2s_present_count == F2S_MAX_PRESENT) {
    fprintf(stderr, "f2stencil runtime: more than %d arrays present on the device\n",
            F2S_MAX_PRESENT);
    exit(EXIT_FAILURE);
  }
  void *dev = NULL;
  f2s_cuda_check(cudaMalloc(&dev, bytes ? bytes : 1), "data enter (allocation)");
  f2s_cuda_copy(dev, host, bytes, cudaMemcpyHostToDevice, "data enter (copy to the device)");
  f2s_present_table[f2s_present_count++] = (struct f2s_present){(const char *)host, bytes, dev, 1};
  pthread_mutex_unlock(&f2s_present_lock);
}

static struct f2s_present *f2s_present_require(const void *host, size_t bytes, const char *what) {
  struct f2s_present *e = f2s_present_find(host);
  if (!e || (const char *)host + bytes > e->host + e->bytes) {
    fprintf(stderr,
            "f2stencil runtime: %s of %zu bytes at %p: the array is not present on the "
            "device (call the data enter procedure first)\n",
            what, bytes, host);
    exit(EXIT_FAILURE);
  }
  return e;
}

static void f2s_cuda_update_host(const void *host, size_t bytes) {
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_require(host, bytes, "update host");
  f2s_cuda_copy((void *)host, (char *)e->dev + ((const char *)host - e->host), bytes,
                cudaMemcpyDeviceToHost, "update host");
  pthread_mutex_unlock(&f2s_present_lock);
}

static void f2s_cuda_update_device(const void *host, size_t bytes) {
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_require(host, bytes, "update device");
  f2s_cuda_copy((char *)e->dev + ((const char *)host - e->host), host, bytes,
                cudaMemcpyHostToDevice, "update device");
  pthread_mutex_unlock(&f2s_present_lock);
}

/* The last exit of an array copies it back (when copy_out) and frees it. */
static void f2s_cuda_exit(const void *host, size_t bytes, int copy_out) {
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_require(host, bytes, "data exit");
  if (--e->refs == 0) {
    if (copy_out)
      f2s_cuda_copy((void *)e->host, e->dev, e->bytes, cudaMemcpyDeviceToHost,
                    "data exit (copy to the host)");
    f2s_cuda_check(cudaFree(e->dev), "data exit (free)");
    *e = f2s_present_table[--f2s_present_count];
  }
  pthread_mutex_unlock(&f2s_present_lock);
}

/* Time loops (codegen/CTimeLoop): while a host thread runs one whose grids
 * stay on the device, the kernels it launches are not waited for one by one
 * (the stream keeps them in order); the loop's end waits once. */
static __thread int f2s_cuda_in_steps = 0;

/* Before the first step: 0 when F2S_TARGET keeps the library on the CPU;
 * else every grid enters the device (nothing moves for one a data region
 * holds already) and 1. */
static int f2s_cuda_steps_begin(int n, const void *const *host, const size_t *bytes) {
  const char *t = getenv("F2S_TARGET");
  if (t && *t && !f2s_cuda_wanted(0, host))
    return 0;
  for (int i = 0; i < n; ++i)
    f2s_cuda_enter(host[i], bytes[i]);
  ++f2s_cuda_in_steps;
  return 1;
}

/* After the last step: the device's work is waited for, and the grids
 * leave it, the written ones copied back (unless a data region holds them). */
static void f2s_cuda_steps_end(int n, const void *const *host, const size_t *bytes,
                               const int *written) {
  --f2s_cuda_in_steps;
  f2s_cuda_check(cudaDeviceSynchronize(), "running the sweeps of a time loop");
  for (int i = 0; i < n; ++i)
    f2s_cuda_exit(host[i], bytes[i], written[i]);
}

/* Reductions deferred (the overlapped MPI procedures' box calls,
 * codegen/CMpiPrinter): while f2s_cuda_deferring is set, a launch that
 * reduces copies its blocks' partials to pinned host memory without waiting
 * for them, and they are combined into the result, in launch order, once the
 * stream has been synchronized (f2s_cuda_finish_deferred). The launch then
 * returns at once, so the interior computes while the halo travels; the
 * values and their order of combination are those of a launch that waits. */
static __thread int f2s_cuda_deferring __attribute__((unused)) = 0;
enum { F2S_MAX_DEFERRED = 64 };
struct f2s_deferred {
  void (*combine)(void *result, const void *partials, size_t n);
  void *result;
  size_t n;
  void *partials; /* pinned, kept for the next launch of this slot */
  size_t capacity;
};
static __thread struct f2s_deferred f2s_deferred_list[F2S_MAX_DEFERRED];
static __thread int f2s_deferred_count = 0;

static void __attribute__((unused)) f2s_cuda_finish_deferred(void) {
  for (int i = 0; i < f2s_deferred_count; ++i) {
    struct f2s_deferred *e = &f2s_deferred_list[i];
    e->combine(e->result, e->partials, e->n);
  }
  f2s_deferred_count = 0;
}

/* The pinned buffer that `n` partials of `bytes` each of a launch on stream
 * `s` are to be copied into, to be combined into `result` by `combine`. */
static void *__attribute__((unused))
f2s_cuda_defer(cudaStream_t s, void (*combine)(void *result, const void *partials, size_t n),
               void *result, size_t n, size_t bytes) {
  if (f2s_deferred_count == F2S_MAX_DEFERRED) { /* more launches than slots: settle them now */
    f2s_cuda_check(cudaStreamSynchronize(s), "combining the partials of a reduction");
    f2s_cuda_finish_deferred();
  }
  struct f2s_deferred *e = &f2s_deferred_list[f2s_deferred_count++];
  if (n * bytes > e->capacity) {
    if (e->partials)
      f2s_cuda_check(cudaFreeHost(e->partials), "freeing the partials of a reduction");
    e->partials = NULL;
    f2s_cuda_check(cudaMallocHost(&e->partials, n * bytes),
                   "allocating pinned memory for the partials of a reduction");
    e->capacity = n * bytes;
  }
  e->combine = combine;
  e->result = result;
  e->n = n;
  return e->partials;
}
