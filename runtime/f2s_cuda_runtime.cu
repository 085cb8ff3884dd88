#include <unistd.h> /* sysconf; here, as tests include this text without the library's prelude */

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

/* Under F2S_PROFILE, the row the copies of the running kernel call count
 * in; the data regions' row outside a call. */
static __thread struct f2s_prof *f2s_cuda_prof_kernel = NULL;

/* Large copies staged through pinned memory. cudaMemcpy from or to the
 * program's pageable memory ran at 6.4 GB/s to an H100 and 3.3 GB/s back
 * (the driver stages it itself, through small buffers, one thread), where
 * the PCIe 5 link does 25 to 50 GB/s from pinned memory. So a copy of at
 * least f2s_stage_min bytes goes through a ring of F2S_STAGE_BUFS pinned
 * buffers, made on first use and kept: host threads copy one chunk between
 * the program's memory and a buffer while the copy engine moves another, and
 * an event per buffer keeps a buffer from being refilled before its DMA has
 * ended. The copy keeps cudaMemcpy's meaning: it starts after the work
 * launched before it on the legacy stream (an event recorded there, which
 * also waits for the blocking streams, as cudaMemcpy does), and it has ended
 * when it returns, so later kernels see it. Copies of several host threads
 * take the ring in turn. Plain cudaMemcpy below the threshold, for memory
 * that is pinned already, with F2S_CUDA_STAGE=0, or where the ring cannot
 * be made.
 *
 * The sizes, chosen without measuring: below 4 MiB a pageable copy takes
 * under a millisecond and a pipeline would hardly fill. A chunk of 8 MiB is
 * 0.16 to 0.33 ms of DMA, far above the ~10 us of issuing a copy, recording
 * an event and waking the threads, so the per-chunk cost is a few percent;
 * smaller copies are cut into pieces of at least 2 MiB so that two of them
 * still overlap. Four buffers (32 MiB pinned per process) let either side
 * run ahead of the other by three chunks. Up to 8 host threads (fewer where
 * MPI ranks share the node's cores): one thread's memcpy does 5 to 10 GB/s,
 * eight more than the link takes. Tests and bench/gpu/staged_copy.cu set
 * these before the first copy. */
enum { F2S_STAGE_BUFS = 4, F2S_STAGE_THREADS = 8 };
static size_t f2s_stage_min = (size_t)4 << 20;
static size_t f2s_stage_chunk = (size_t)8 << 20;
static size_t f2s_stage_piece_min = (size_t)2 << 20;
static long long f2s_stage_copies = 0; /* copies that went through the ring */

static pthread_mutex_t f2s_stage_lock = PTHREAD_MUTEX_INITIALIZER; /* one copy at a time */
static int f2s_stage_state = 0; /* 0: not made yet; 1: ready; -1: plain cudaMemcpy */
static int f2s_stage_device = -1;
static cudaStream_t f2s_stage_stream;
static cudaEvent_t f2s_stage_prior;                   /* the legacy stream's work before a copy */
static void *f2s_stage_buf[F2S_STAGE_BUFS];           /* pinned, f2s_stage_chunk bytes each */
static cudaEvent_t f2s_stage_drained[F2S_STAGE_BUFS]; /* the buffer's last DMA has ended */

/* The host threads: the caller and f2s_stage_threads - 1 workers, which wait
 * for a generation to copy their share of one piece and never call CUDA. */
static int f2s_stage_threads = 1;
static pthread_mutex_t f2s_stage_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t f2s_stage_go = PTHREAD_COND_INITIALIZER;
static pthread_cond_t f2s_stage_done = PTHREAD_COND_INITIALIZER;
static unsigned long f2s_stage_generation = 0;
static int f2s_stage_left = 0;
static char *f2s_stage_to;
static const char *f2s_stage_from;
static size_t f2s_stage_bytes;

static void f2s_stage_share(int k) {
  const size_t per = (f2s_stage_bytes / (size_t)f2s_stage_threads + 4095) & ~(size_t)4095;
  const size_t lo = per * (size_t)k;
  if (lo < f2s_stage_bytes)
    memcpy(f2s_stage_to + lo, f2s_stage_from + lo,
           per < f2s_stage_bytes - lo ? per : f2s_stage_bytes - lo);
}

static void *f2s_stage_worker(void *k) {
  unsigned long seen = 0;
  pthread_mutex_lock(&f2s_stage_pool_lock);
  for (;;) {
    while (f2s_stage_generation == seen)
      pthread_cond_wait(&f2s_stage_go, &f2s_stage_pool_lock);
    seen = f2s_stage_generation;
    pthread_mutex_unlock(&f2s_stage_pool_lock);
    f2s_stage_share((int)(intptr_t)k);
    pthread_mutex_lock(&f2s_stage_pool_lock);
    if (--f2s_stage_left == 0)
      pthread_cond_signal(&f2s_stage_done);
  }
  return NULL;
}

/* memcpy by the host threads; one thread for less than 1 MiB. */
static void f2s_stage_memcpy(void *to, const void *from, size_t bytes) {
  if (f2s_stage_threads <= 1 || bytes < ((size_t)1 << 20)) {
    memcpy(to, from, bytes);
    return;
  }
  pthread_mutex_lock(&f2s_stage_pool_lock);
  f2s_stage_to = (char *)to;
  f2s_stage_from = (const char *)from;
  f2s_stage_bytes = bytes;
  f2s_stage_left = f2s_stage_threads - 1;
  ++f2s_stage_generation;
  pthread_cond_broadcast(&f2s_stage_go);
  pthread_mutex_unlock(&f2s_stage_pool_lock);
  f2s_stage_share(0);
  pthread_mutex_lock(&f2s_stage_pool_lock);
  while (f2s_stage_left > 0)
    pthread_cond_wait(&f2s_stage_done, &f2s_stage_pool_lock);
  pthread_mutex_unlock(&f2s_stage_pool_lock);
}

/* The ring and the threads, on the current device; 1, or 0 with nothing
 * kept (said once under F2S_VERBOSE). Caller holds f2s_stage_lock. */
static int f2s_stage_make(void) {
  if (f2s_env_int_("F2S_CUDA_STAGE") == 0)
    return 0;
  int made = 0;
  cudaError_t e = cudaGetDevice(&f2s_stage_device);
  if (e == cudaSuccess)
    e = cudaStreamCreate(&f2s_stage_stream); /* blocking: the legacy stream waits for it */
  if (e == cudaSuccess)
    e = cudaEventCreateWithFlags(&f2s_stage_prior, cudaEventDisableTiming);
  for (; e == cudaSuccess && made < F2S_STAGE_BUFS; ++made) {
    e = cudaMallocHost(&f2s_stage_buf[made], f2s_stage_chunk);
    if (e == cudaSuccess)
      e = cudaEventCreateWithFlags(&f2s_stage_drained[made], cudaEventDisableTiming);
    else
      f2s_stage_buf[made] = NULL;
  }
  if (e != cudaSuccess) {
    cudaGetLastError(); /* not sticky: the plain copy must not see it */
    for (int i = 0; i < made; ++i)
      if (f2s_stage_buf[i])
        cudaFreeHost(f2s_stage_buf[i]);
    cudaGetLastError();
    if (f2s_env()->verbose)
      fprintf(stderr,
              "f2stencil: no pinned memory for staging copies (%s): copies run at "
              "pageable speed\n",
              cudaGetErrorString(e));
    return 0;
  }
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  int rank = 0, ranks = 1;
  f2s_local_rank(&rank, &ranks);
  long want = cores / ranks;
  want = want < 1 ? 1 : want > (long)F2S_STAGE_THREADS ? (long)F2S_STAGE_THREADS : want;
  f2s_stage_threads = 1;
  for (int k = 1; k < want; ++k) {
    pthread_t t;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    const int started = pthread_create(&t, &attr, f2s_stage_worker, (void *)(intptr_t)k) == 0;
    pthread_attr_destroy(&attr);
    if (!started)
      break;
    f2s_stage_threads = k + 1;
  }
  return 1;
}

/* Whether host memory is pinned (or managed) already: then cudaMemcpy is as
 * fast as the link, and staging would only add a copy. */
static int f2s_stage_host_pinned(const void *host) {
  struct cudaPointerAttributes a;
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
    cudaGetLastError(); /* CUDA before 11 calls pageable memory an invalid value */
    return 0;
  }
  return a.type != cudaMemoryTypeUnregistered;
}

/* The copy through the ring: 1, or 0 where the caller is to use cudaMemcpy. */
static int f2s_cuda_copy_staged(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                                const char *what) {
  const int to_device = kind == cudaMemcpyHostToDevice;
  if (bytes < f2s_stage_min || (!to_device && kind != cudaMemcpyDeviceToHost) ||
      __atomic_load_n(&f2s_stage_state, __ATOMIC_ACQUIRE) < 0)
    return 0;
  if (f2s_stage_host_pinned(to_device ? src : dst))
    return 0;
  pthread_mutex_lock(&f2s_stage_lock);
  if (f2s_stage_state == 0)
    __atomic_store_n(&f2s_stage_state, f2s_stage_make() ? 1 : -1, __ATOMIC_RELEASE);
  int device = -1;
  if (f2s_stage_state < 0 || cudaGetDevice(&device) != cudaSuccess || device != f2s_stage_device) {
    pthread_mutex_unlock(&f2s_stage_lock);
    return 0; /* a thread on another device: the ring's stream is not its own */
  }
  /* Pieces of the chunk's size, or, for a copy of fewer chunks than the ring
   * holds, as many as the ring holds (at least 2 MiB, 4 KiB multiples). */
  size_t piece = (bytes / F2S_STAGE_BUFS + 4095) & ~(size_t)4095;
  piece = piece < f2s_stage_piece_min ? f2s_stage_piece_min : piece;
  piece = piece > f2s_stage_chunk ? f2s_stage_chunk : piece;
  const size_t pieces = (bytes + piece - 1) / piece;
  char *to = (char *)dst;
  const char *from = (const char *)src;
  f2s_cuda_check(cudaEventRecord(f2s_stage_prior, 0), what);
  f2s_cuda_check(cudaStreamWaitEvent(f2s_stage_stream, f2s_stage_prior, 0), what);
  if (to_device) {
    /* Host threads fill buffer i % BUFS while the DMA of the pieces before
     * it runs. */
    for (size_t i = 0; i < pieces; ++i) {
      const int b = (int)(i % F2S_STAGE_BUFS);
      const size_t at = i * piece, n = bytes - at < piece ? bytes - at : piece;
      if (i >= F2S_STAGE_BUFS)
        f2s_cuda_check(cudaEventSynchronize(f2s_stage_drained[b]), what);
      f2s_stage_memcpy(f2s_stage_buf[b], from + at, n);
      f2s_cuda_check(cudaMemcpyAsync(to + at, f2s_stage_buf[b], n, kind, f2s_stage_stream), what);
      f2s_cuda_check(cudaEventRecord(f2s_stage_drained[b], f2s_stage_stream), what);
    }
  } else {
    /* The DMA of up to BUFS pieces ahead; host threads empty piece i's
     * buffer, which then takes piece i + BUFS. */
    for (size_t i = 0; i < pieces + F2S_STAGE_BUFS; ++i) {
      if (i >= F2S_STAGE_BUFS) {
        const size_t j = i - F2S_STAGE_BUFS, at = j * piece;
        const int b = (int)(j % F2S_STAGE_BUFS);
        f2s_cuda_check(cudaEventSynchronize(f2s_stage_drained[b]), what);
        f2s_stage_memcpy(to + at, f2s_stage_buf[b], bytes - at < piece ? bytes - at : piece);
      }
      if (i < pieces) {
        const int b = (int)(i % F2S_STAGE_BUFS);
        const size_t at = i * piece, n = bytes - at < piece ? bytes - at : piece;
        f2s_cuda_check(cudaMemcpyAsync(f2s_stage_buf[b], from + at, n, kind, f2s_stage_stream),
                       what);
        f2s_cuda_check(cudaEventRecord(f2s_stage_drained[b], f2s_stage_stream), what);
      }
    }
  }
  f2s_cuda_check(cudaStreamSynchronize(f2s_stage_stream), what);
  ++f2s_stage_copies;
  pthread_mutex_unlock(&f2s_stage_lock);
  return 1;
}

static void f2s_cuda_copy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind,
                          const char *what) {
  if (bytes == 0)
    return;
  const int profile = f2s_env()->profile;
  const double t0 = profile ? f2s_now_() : 0;
  if (!f2s_cuda_copy_staged(dst, src, bytes, kind, what))
    f2s_cuda_check(cudaMemcpy(dst, src, bytes, kind), what);
  __atomic_add_fetch(&f2s_cuda_transfer_count, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&f2s_cuda_transfer_bytes, (long long)bytes, __ATOMIC_RELAXED);
  if (!profile)
    return;
  struct f2s_prof *row =
      f2s_cuda_prof_kernel ? f2s_cuda_prof_kernel : f2s_prof_row("(data regions)", "cuda");
  if (!row)
    return;
  const double dt = f2s_now_() - t0;
  pthread_mutex_lock(&f2s_prof_lock_);
  if (kind == cudaMemcpyHostToDevice) {
    row->h2d_bytes += (long long)bytes;
    row->h2d_s += dt;
  } else {
    row->d2h_bytes += (long long)bytes;
    row->d2h_s += dt;
  }
  pthread_mutex_unlock(&f2s_prof_lock_);
}

/* Whether this process has a GPU to use: asked once (no driver, no device,
 * a driver too old: none), said once under F2S_VERBOSE. Without one every
 * call runs its CPU code and the data regions keep nothing. */
static int f2s_cuda_have_device = 0;
static pthread_once_t f2s_cuda_detect_once = PTHREAD_ONCE_INIT;

static void f2s_cuda_detect(void) {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  f2s_cuda_have_device = e == cudaSuccess && count > 0;
  if (f2s_cuda_have_device || !f2s_env()->verbose)
    return;
  if (e != cudaSuccess)
    cudaGetLastError(); /* not sticky: later calls must not see it */
  fprintf(stderr, "f2stencil: no CUDA device (%s): every call runs its CPU code\n",
          e != cudaSuccess ? cudaGetErrorString(e) : "the driver sees none");
}

/* Whether calls may run on the GPU: a device, and F2S_TARGET not a CPU. */
static int f2s_cuda_on(void) {
  if (f2s_env()->target == F2S_TARGET_CPU)
    return 0;
  pthread_once(&f2s_cuda_detect_once, f2s_cuda_detect);
  return f2s_cuda_have_device;
}

/* Device memory, or NULL where there is too little (said once under
 * F2S_VERBOSE, `what` the array's role): the caller runs the CPU code. */
static void *f2s_cuda_alloc(size_t bytes, const char *what) {
  static int said = 0;
  void *dev = NULL;
  cudaError_t e = cudaMalloc(&dev, bytes ? bytes : 1);
  if (e == cudaSuccess)
    return dev;
  cudaGetLastError(); /* a failed allocation must not fail the next launch's check */
  if (f2s_env()->verbose && !__atomic_exchange_n(&said, 1, __ATOMIC_RELAXED))
    fprintf(stderr,
            "f2stencil: the GPU has no room for %s of %zu bytes (%s): the calls that need it "
            "run on the CPU\n",
            what, bytes, cudaGetErrorString(e));
  return NULL;
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
  void *dev = e && e->dev ? (char *)e->dev + ((const char *)host - e->host) : NULL;
  pthread_mutex_unlock(&f2s_present_lock);
  return dev;
}

/* F2S_TARGET=cuda: the GPU where there is one; F2S_TARGET=cpu (or c,
 * pthreads), or no GPU: never; unset: the GPU when every grid of the call is
 * present there. */
static int f2s_cuda_wanted(int n, const void *const *host) {
  if (!f2s_cuda_on())
    return 0;
  if (f2s_env()->target == F2S_TARGET_CUDA)
    return 1;
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

/* The context made early. A program's first CUDA call pays for the
 * driver's start and the device's context (0.12 to 0.17 s on an H100), and
 * its first call of the library comes after its own set-up (allocating and
 * filling its arrays, reading its input). So when the library is loaded, a
 * thread starts the driver and retains the device's primary context, the
 * one the runtime then uses, while the program sets up; the first call
 * waits for the thread, if it is still running, and releases the retain.
 * Through the driver API, opened with dlopen: the CUDA runtime's own state
 * is touched only by the program's threads, so a program that exits before
 * its first call cannot meet the runtime's teardown halfway through its
 * start (the exit waits for the thread, whose driver calls are
 * thread-safe), and a machine without a driver just has no thread's work.
 * Only where the device is known before the program could choose one: a
 * single visible device, or F2S_CUDA_DEVICE; not under MPI (several ranks
 * per node choose by rank), not with F2S_TARGET a CPU, not with
 * F2S_CUDA_EARLY=0. */
#include <dlfcn.h> /* here, as tests include this text without the library's prelude */
#include <string.h>
typedef int (*f2s_cu_init_t)(unsigned);
typedef int (*f2s_cu_count_t)(int *);
typedef int (*f2s_cu_get_t)(int *, int);
typedef int (*f2s_cu_retain_t)(void **, int);
typedef int (*f2s_cu_release_t)(int);
static pthread_t f2s_cuda_early_thread;
static int f2s_cuda_early_started = 0, f2s_cuda_early_joined = 0, f2s_cuda_early_device = -1;
static f2s_cu_release_t f2s_cuda_early_release = NULL;
static pthread_mutex_t f2s_cuda_early_lock = PTHREAD_MUTEX_INITIALIZER;

static void *f2s_cuda_early_start(void *wanted_p) {
  const int wanted = (int)(intptr_t)wanted_p;
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib)
    return NULL;
  f2s_cu_init_t init = (f2s_cu_init_t)dlsym(lib, "cuInit");
  f2s_cu_count_t count = (f2s_cu_count_t)dlsym(lib, "cuDeviceGetCount");
  f2s_cu_get_t get = (f2s_cu_get_t)dlsym(lib, "cuDeviceGet");
  f2s_cu_retain_t retain = (f2s_cu_retain_t)dlsym(lib, "cuDevicePrimaryCtxRetain");
  f2s_cu_release_t release = (f2s_cu_release_t)dlsym(lib, "cuDevicePrimaryCtxRelease_v2");
  int n = 0, device = 0;
  void *context = NULL;
  if (!init || !count || !get || !retain || !release || init(0) != 0 || count(&n) != 0 ||
      (wanted < 0 && n != 1) || get(&device, wanted < 0 ? 0 : wanted) != 0 ||
      retain(&context, device) != 0)
    return NULL; /* the library handle stays open: the runtime opens the same */
  f2s_cuda_early_device = device;
  f2s_cuda_early_release = release;
  return NULL;
}

static void f2s_cuda_early_join(void) {
  pthread_mutex_lock(&f2s_cuda_early_lock);
  if (f2s_cuda_early_started && !f2s_cuda_early_joined) {
    pthread_join(f2s_cuda_early_thread, NULL);
    f2s_cuda_early_joined = 1;
  }
  pthread_mutex_unlock(&f2s_cuda_early_lock);
}

__attribute__((constructor)) static void f2s_cuda_early_begin(void) {
  const char *target = getenv("F2S_TARGET"), *early = getenv("F2S_CUDA_EARLY");
  if ((target && *target && strcmp(target, "cuda") != 0) || (early && !strcmp(early, "0")))
    return;
  int rank = 0, size = 1;
  f2s_local_rank(&rank, &size);
  if (size > 1)
    return;
  const int wanted = f2s_env_int_("F2S_CUDA_DEVICE");
  /* Registered before the thread exists, so the exit always waits for it. */
  if (atexit(f2s_cuda_early_join) != 0)
    return;
  f2s_cuda_early_started = pthread_create(&f2s_cuda_early_thread, NULL, f2s_cuda_early_start,
                                          (void *)(intptr_t)wanted) == 0;
}

/* CUDA creates a process's context on its first real call, a few tenths of
 * a second that every CUDA program pays once (less what the early start
 * above did while the program set up). Made here, on the chosen device, by
 * the no-op cudaFree(0), so that F2S_PROFILE shows what is left of it as a
 * row of its own, "(CUDA start-up)", instead of inside the first allocation
 * or copy; its errors are left to the call that follows, which checks. */
static pthread_once_t f2s_cuda_context_once = PTHREAD_ONCE_INIT;

static void f2s_cuda_create_context(void) {
  const double t0 = f2s_env()->profile ? f2s_now_() : 0;
  f2s_cuda_early_join();
  (void)cudaFree(0);
  /* The runtime holds the primary context now; the early retain goes, so
   * that a cudaDeviceReset of the program's still ends it. */
  if (f2s_cuda_early_release)
    f2s_cuda_early_release(f2s_cuda_early_device);
  f2s_cuda_early_release = NULL;
  if (f2s_env()->profile) {
    struct f2s_prof *row = f2s_prof_row("(CUDA start-up)", "cuda");
    if (row) {
      pthread_mutex_lock(&f2s_prof_lock_);
      row->calls += 1;
      row->seconds += f2s_now_() - t0;
      pthread_mutex_unlock(&f2s_prof_lock_);
    }
  }
}

static void f2s_cuda_use_device(void) {
  pthread_once(&f2s_cuda_device_once, f2s_cuda_choose_device);
  if (f2s_cuda_device >= 0 && !f2s_cuda_device_current) {
    f2s_cuda_check(cudaSetDevice(f2s_cuda_device), "selecting this rank's GPU (F2S_CUDA_DEVICE or "
                                                   "the MPI local rank)");
    f2s_cuda_device_current = 1;
  }
  pthread_once(&f2s_cuda_context_once, f2s_cuda_create_context);
}

/* Grid i of a call (m[0..i-1] mapped before it): where a data region keeps
 * it, used there; the same host range as an earlier grid of the call (an
 * array passed as two arguments), that grid's buffer, copied back if either
 * is written; otherwise a buffer for this call. NULL where the device has no
 * room: the caller unmaps what it mapped and runs the CPU code. */
static void *f2s_cuda_map_arg(struct f2s_cuda_arg *m, int i, const void *host, size_t bytes,
                              int copy_in, int copy_out) {
  struct f2s_cuda_arg *a = &m[i];
  a->host = host;
  a->bytes = bytes;
  a->temporary = 0;
  a->copy_out = 0;
  for (int j = 0; j < i; ++j)
    if (m[j].host == host && m[j].bytes == bytes && m[j].dev) {
      m[j].copy_out |= copy_out;
      return a->dev = m[j].dev;
    }
  a->dev = f2s_present_device(host);
  if (a->dev)
    return a->dev;
  a->dev = f2s_cuda_alloc(bytes, "an array of a call");
  if (!a->dev)
    return NULL;
  a->temporary = 1;
  a->copy_out = copy_out;
  if (copy_in)
    f2s_cuda_copy(a->dev, host, bytes, cudaMemcpyHostToDevice, "copying a grid to the device");
  return a->dev;
}

/* The end of a call's mapping: each buffer made for it copied back (when
 * `ran` and written) and freed. */
static void f2s_cuda_unmap_args(struct f2s_cuda_arg *m, int n, int ran) {
  for (int i = 0; i < n; ++i) {
    if (!m[i].temporary)
      continue;
    if (ran && m[i].copy_out)
      f2s_cuda_copy((void *)m[i].host, m[i].dev, m[i].bytes, cudaMemcpyDeviceToHost,
                    "copying a grid back to the host");
    f2s_cuda_check(cudaFree(m[i].dev), "freeing a grid on the device");
  }
}

/* Around a call that runs on the CPU although some of its grids are present
 * on the device (F2S_TARGET=cuda short of memory, a data region holding
 * only some): before it (to_device 0) their device copies come to the host;
 * after it (to_device 1) those `written` go back. Nothing moves for grids
 * that are not present, so a call outside data regions costs a lookup. */
static void f2s_cuda_sync_present(int n, const void *const *host, const size_t *bytes,
                                  const int *written, int to_device) {
  for (int i = 0; i < n; ++i) {
    if (to_device && !written[i])
      continue;
    void *dev = f2s_present_device(host[i]);
    if (!dev)
      continue;
    if (to_device)
      f2s_cuda_copy(dev, host[i], bytes[i], cudaMemcpyHostToDevice,
                    "copying a grid the CPU wrote back to the device");
    else
      f2s_cuda_copy((void *)host[i], dev, bytes[i], cudaMemcpyDeviceToHost,
                    "copying a grid to the host for the CPU");
  }
}

/* Without a GPU (or under F2S_TARGET=cpu) nothing is entered: the host's
 * copy is the only one. Where the device has no room, the range is entered
 * without a device copy, so that the calls on it run on the CPU and its
 * updates and exit find it. */
static void f2s_cuda_enter(const void *host, size_t bytes) {
  if (!f2s_cuda_on())
    return;
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
  void *dev = f2s_cuda_alloc(bytes, "an array of a data region");
  if (dev)
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
  if (!f2s_cuda_on())
    return;
  if (f2s_env()->profile) {
    struct f2s_prof *row = f2s_prof_row("(data regions)", "cuda");
    if (row)
      __atomic_add_fetch(&row->updates, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_require(host, bytes, "update host");
  if (e->dev)
    f2s_cuda_copy((void *)host, (char *)e->dev + ((const char *)host - e->host), bytes,
                cudaMemcpyDeviceToHost, "update host");
  pthread_mutex_unlock(&f2s_present_lock);
}

static void f2s_cuda_update_device(const void *host, size_t bytes) {
  if (!f2s_cuda_on())
    return;
  if (f2s_env()->profile) {
    struct f2s_prof *row = f2s_prof_row("(data regions)", "cuda");
    if (row)
      __atomic_add_fetch(&row->updates, 1, __ATOMIC_RELAXED);
  }
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_require(host, bytes, "update device");
  if (e->dev)
    f2s_cuda_copy((char *)e->dev + ((const char *)host - e->host), host, bytes,
                cudaMemcpyHostToDevice, "update device");
  pthread_mutex_unlock(&f2s_present_lock);
}

/* OpenACC's `update ... if_present`, for a procedure that cannot know how
 * much of an array it was given (an assumed-size dummy, sequence
 * association's `u(ir(k))`): where `host` lies in a present array, from
 * there to that array's end, the part such a procedure can reach; nothing
 * where it lies in none (then no device copy exists, and the host's is
 * current). */
static void f2s_cuda_update_if_present(const void *host, int to_device) {
  if (!f2s_cuda_on())
    return;
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_find(host);
  if (e && e->dev) {
    size_t offset = (size_t)((const char *)host - e->host);
    if (f2s_env()->profile) {
      struct f2s_prof *row = f2s_prof_row("(data regions)", "cuda");
      if (row)
        __atomic_add_fetch(&row->updates, 1, __ATOMIC_RELAXED);
    }
    if (to_device)
      f2s_cuda_copy((char *)e->dev + offset, host, e->bytes - offset, cudaMemcpyHostToDevice,
                    "update device if present");
    else
      f2s_cuda_copy((void *)host, (char *)e->dev + offset, e->bytes - offset,
                    cudaMemcpyDeviceToHost, "update host if present");
  }
  pthread_mutex_unlock(&f2s_present_lock);
}

/* The last exit of an array copies it back (when copy_out) and frees it. */
static void f2s_cuda_exit(const void *host, size_t bytes, int copy_out) {
  if (!f2s_cuda_on())
    return;
  pthread_mutex_lock(&f2s_present_lock);
  struct f2s_present *e = f2s_present_require(host, bytes, "data exit");
  if (--e->refs == 0 && e->dev) {
    if (copy_out)
      f2s_cuda_copy((void *)e->host, e->dev, e->bytes, cudaMemcpyDeviceToHost,
                    "data exit (copy to the host)");
    f2s_cuda_check(cudaFree(e->dev), "data exit (free)");
  }
  if (e->refs == 0) {
    *e = f2s_present_table[--f2s_present_count];
  }
  pthread_mutex_unlock(&f2s_present_lock);
}

/* Time loops (codegen/CTimeLoop): while a host thread runs one whose grids
 * stay on the device, the kernels it launches are not waited for one by one
 * (the stream keeps them in order); the loop's end waits once. */
static __thread int f2s_cuda_in_steps = 0;

/* Every grid of a call on the device for the whole call (nothing moves for
 * one a data region holds already): 1, or 0 with nothing entered where the
 * GPU is not to be used or has no room for them all (the CPU code runs). */
static int f2s_cuda_enter_all(int n, const void *const *host, const size_t *bytes) {
  if (!f2s_cuda_on())
    return 0;
  for (int i = 0; i < n; ++i) {
    f2s_cuda_enter(host[i], bytes[i]);
    if (f2s_present_device(host[i]))
      continue;
    for (int j = 0; j <= i; ++j) /* the host's copies are current: nothing comes back */
      f2s_cuda_exit(host[j], bytes[j], 0);
    return 0;
  }
  return 1;
}

/* Before the first step of a time loop: 1 with every grid on the device,
 * or 0 (the CPU, or no room: the sweeps run on the CPU). */
static int f2s_cuda_steps_begin(int n, const void *const *host, const size_t *bytes) {
  if (!f2s_cuda_enter_all(n, host, bytes))
    return 0;
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
