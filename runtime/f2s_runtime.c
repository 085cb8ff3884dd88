/* The thread pool behind every parallel stencil sweep.
 *
 * This text follows f2s_runtime.h at the top of each generated C file (the
 * build embeds the two, header first, as runtime_c_text()), which is why the
 * #include of the header below is skipped there and why every name is static
 * and marked unused: a library that uses none of it must still compile
 * without a warning. It sticks to the GNU C dialect that gcc, clang and a
 * C++ compiler (for CUDA host code) all accept: __atomic builtins rather
 * than <stdatomic.h>, explicit casts from void *.
 *
 * A stencil sweep on a small grid takes microseconds, so a dispatch must
 * cost far less: the caller publishes the job with one atomic store and the
 * workers, which spin for a while after each job before they go to sleep,
 * usually see it without a system call. */
#ifndef F2S_RUNTIME_H
#include "f2s_runtime.h"
#endif

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#define F2S_CPU_RELAX() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define F2S_CPU_RELAX() __asm__ __volatile__("yield" ::: "memory")
#else
#define F2S_CPU_RELAX() ((void)0)
#endif

/* How long a waiting thread spins before it blocks: 2^14 pause
 * instructions, from about 0.1 ms to 1 ms depending on the processor, which
 * covers the gap between the sweeps of a time loop without burning a core for
 * long once the program has gone on to something else. When the pool has
 * more threads than the machine has processors, a spinning thread would
 * only take the processor from the thread it waits for, so waiters spin just
 * F2S_SPIN_OVERSUBSCRIBED times (libgomp makes the same choice). */
#define F2S_SPIN_LIMIT (1 << 14)
#define F2S_SPIN_OVERSUBSCRIBED 64

/* The job word: a generation number above the thread count of the job, so
 * that one atomic load tells a worker both that there is a new job and
 * whether it takes part, without reading fields the next job may overwrite. */
#define F2S_JOB_THREAD_BITS 20
#define F2S_MAX_THREADS ((1 << F2S_JOB_THREAD_BITS) - 1)

struct f2s_pool {
  /* Held for a whole f2s_parallel_run: the pool runs one job at a time, so
   * callers on several user threads take turns. */
  pthread_mutex_t run_lock;
  /* Guards the two condition variables' waits. */
  pthread_mutex_t lock;
  pthread_cond_t job_posted;
  pthread_cond_t job_done;
  int nworkers;                /* threads created, tids 1..nworkers */
  unsigned long long job_word; /* generation << F2S_JOB_THREAD_BITS | nthreads */
  f2s_task_fn fn;              /* stable while any worker of the job runs */
  void *arg;
  int remaining; /* workers of the current job not yet finished */
  int sleepers;  /* workers blocked on job_posted */
  int caller_sleeping;
  int spin_limit; /* F2S_SPIN_LIMIT or F2S_SPIN_OVERSUBSCRIBED */
  /* Placement (f2s_set_placement); `pinned` says whether the current job
   * pins, published with the job word like fn and arg. */
  const int *cpus;
  int ncpus;
  int pinned;
};

static struct f2s_pool f2s_pool_ = {PTHREAD_MUTEX_INITIALIZER,
                                    PTHREAD_MUTEX_INITIALIZER,
                                    PTHREAD_COND_INITIALIZER,
                                    PTHREAD_COND_INITIALIZER,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    0,
                                    F2S_SPIN_LIMIT,
                                    0,
                                    0,
                                    0};

/* Set while this thread runs a share of a job: a nested f2s_parallel_run
 * then runs inline instead of waiting for a pool that is waiting for it. */
static __thread int f2s_in_job_;

struct f2s_worker_start {
  int tid;
  unsigned long long seen; /* the job word when it was created */
};

static unsigned long long f2s_load_job_(void) {
  return __atomic_load_n(&f2s_pool_.job_word, __ATOMIC_ACQUIRE);
}

/* Where a thread runs: pinned to one CPU, or on every CPU the machine has
 * (f2s_allowed_), which a pinned thread gets back when a later job is not
 * pinned. The caller's own mask is not a guide: an OpenMP program with
 * OMP_PROC_BIND has bound its main thread to one core, and pool threads that
 * inherited that mask would all share it. The kernel intersects any mask with
 * the process's cpuset, so naming CPUs it may not use is harmless. */
#ifdef CPU_SETSIZE
static cpu_set_t f2s_allowed_;
static int f2s_allowed_known_;
#define F2S_UNPINNED (-1)
#define F2S_UNKNOWN (-2)

/* This rank's share of the node under MPI (f2s_rank_init_); n == 0: none,
 * the library's own placement applies. */
static struct {
  int n;     /* CPUs in cpus[] */
  int pin;   /* the share is this rank's alone: thread t on cpus[t] */
  int limit; /* threads the rank may run */
  int cpus[CPU_SETSIZE];
} f2s_rank_;

/* The CPU thread `tid` of the current job runs on, or F2S_UNPINNED. */
static int f2s_cpu_for_(int tid) {
  const struct f2s_pool *p = &f2s_pool_;
  const int *cpus = f2s_rank_.n ? f2s_rank_.cpus : p->cpus;
  int ncpus = f2s_rank_.n ? (f2s_rank_.pin ? f2s_rank_.n : 0) : p->ncpus;
  int cpu;
  if (!p->pinned || tid >= ncpus || !f2s_allowed_known_)
    return F2S_UNPINNED;
  cpu = cpus[tid];
  if (cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET(cpu, &f2s_allowed_))
    return F2S_UNPINNED;
  return cpu;
}

/* Moves the calling thread to `cpu` (or back to the allowed set) unless it is
 * there already; *bound remembers where it is. Errors leave it where it was. */
static void f2s_bind_(int cpu, int *bound) {
  cpu_set_t set;
  if (cpu == *bound)
    return;
  if (cpu == F2S_UNPINNED) {
    set = f2s_allowed_;
  } else {
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
  }
  if (!f2s_allowed_known_)
    return;
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set) == 0) {
    *bound = cpu;
    return;
  }
  /* A CPU outside the cpuset: run anywhere rather than where it was. */
  if (cpu != F2S_UNPINNED &&
      pthread_setaffinity_np(pthread_self(), sizeof f2s_allowed_, &f2s_allowed_) == 0)
    *bound = F2S_UNPINNED;
}

/* The caller runs tid 0: it is pinned like a worker, and moved back to the
 * allowed set when a later job is not pinned; a caller never pinned is left
 * alone. */
static __thread int f2s_caller_bound_ = F2S_UNPINNED;

static void f2s_bind_caller_(void) {
  if (f2s_cpu_for_(0) != F2S_UNPINNED || f2s_caller_bound_ != F2S_UNPINNED)
    f2s_bind_(f2s_cpu_for_(0), &f2s_caller_bound_);
}
#else
#define F2S_UNKNOWN 0
static void f2s_bind_caller_(void) {}
#endif

/* Waits until the job word differs from `seen` and returns it. */
static unsigned long long f2s_wait_job_(unsigned long long seen) {
  struct f2s_pool *p = &f2s_pool_;
  unsigned long long word;
  int spins, limit = __atomic_load_n(&p->spin_limit, __ATOMIC_RELAXED);
  for (spins = 0; spins < limit; ++spins) {
    word = f2s_load_job_();
    if (word != seen)
      return word;
    F2S_CPU_RELAX();
  }
  pthread_mutex_lock(&p->lock);
  /* sleepers and job_word pair up as in Dekker's algorithm: the caller
   * stores the job word then reads sleepers, we store sleepers then read the
   * job word, both sequentially consistent, so one of us sees the other. */
  __atomic_add_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
  while ((word = __atomic_load_n(&p->job_word, __ATOMIC_SEQ_CST)) == seen)
    pthread_cond_wait(&p->job_posted, &p->lock);
  __atomic_sub_fetch(&p->sleepers, 1, __ATOMIC_SEQ_CST);
  pthread_mutex_unlock(&p->lock);
  return word;
}

static void *f2s_worker_(void *start_arg) {
  struct f2s_pool *p = &f2s_pool_;
  struct f2s_worker_start *start = (struct f2s_worker_start *)start_arg;
  int tid = start->tid;
  unsigned long long seen = start->seen;
  int bound = F2S_UNKNOWN; /* inherited from its creator */
  free(start);
  f2s_in_job_ = 1; /* a worker only ever runs inside a job */
  for (;;) {
    int nthreads;
    seen = f2s_wait_job_(seen);
    nthreads = (int)(seen & F2S_MAX_THREADS);
    /* A worker can skip a generation only if it took no part in it: the
     * caller cannot post the next job before every share has finished. */
    if (tid >= nthreads)
      continue;
#ifdef CPU_SETSIZE
    f2s_bind_(f2s_cpu_for_(tid), &bound);
#else
    (void)bound;
#endif
    p->fn(tid, nthreads, p->arg);
    if (__atomic_sub_fetch(&p->remaining, 1, __ATOMIC_SEQ_CST) == 0 &&
        __atomic_load_n(&p->caller_sleeping, __ATOMIC_SEQ_CST)) {
      pthread_mutex_lock(&p->lock);
      pthread_cond_signal(&p->job_done);
      pthread_mutex_unlock(&p->lock);
    }
  }
  return NULL;
}

/* Brings the pool to `want` workers, or as near as the system allows, and
 * returns how many it has. Workers block every signal, so that the program's
 * handlers keep running on the threads the program made. */
static int f2s_grow_pool_(int want) {
  struct f2s_pool *p = &f2s_pool_;
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  while (p->nworkers < want) {
    pthread_t thread;
    pthread_attr_t attr;
    int created;
    struct f2s_worker_start *start =
        (struct f2s_worker_start *)malloc(sizeof(struct f2s_worker_start));
    if (!start)
      break;
    start->tid = p->nworkers + 1;
    start->seen = p->job_word;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    created = pthread_create(&thread, &attr, f2s_worker_, start) == 0;
    pthread_attr_destroy(&attr);
    if (!created) {
      free(start);
      break;
    }
    ++p->nworkers;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  __atomic_store_n(&p->spin_limit,
                   p->nworkers + 1 > sysconf(_SC_NPROCESSORS_ONLN) ? F2S_SPIN_OVERSUBSCRIBED
                                                                   : F2S_SPIN_LIMIT,
                   __ATOMIC_RELAXED);
  return p->nworkers;
}

/* A child of fork() has none of the pool's threads: it starts a pool of its
 * own on its first parallel run. */
static void f2s_pool_after_fork_(void) {
  static const struct f2s_pool fresh = {PTHREAD_MUTEX_INITIALIZER,
                                        PTHREAD_MUTEX_INITIALIZER,
                                        PTHREAD_COND_INITIALIZER,
                                        PTHREAD_COND_INITIALIZER,
                                        0,
                                        0,
                                        0,
                                        0,
                                        0,
                                        0,
                                        0,
                                        F2S_SPIN_LIMIT,
                                        0,
                                        0,
                                        0};
  f2s_pool_ = fresh;
}

static pthread_once_t f2s_pool_once_ = PTHREAD_ONCE_INIT;

#ifdef CPU_SETSIZE
/* The core `cpu` belongs to, as a number that orders cores by package:
 * Linux's topology files, or the CPU itself where they cannot be read. */
static long f2s_core_of_(int cpu) {
  char path[96];
  long package = 0, core = -1;
  FILE *f;
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/physical_package_id", cpu);
  if ((f = fopen(path, "r"))) {
    if (fscanf(f, "%ld", &package) != 1)
      package = 0;
    fclose(f);
  }
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/topology/core_id", cpu);
  if ((f = fopen(path, "r"))) {
    if (fscanf(f, "%ld", &core) != 1)
      core = -1;
    fclose(f);
  }
  return core < 0 ? (long)cpu << 20 | 0xfffff : package << 40 | core << 20;
}

/* Whether Linux has `cpu` online (a CPU without an `online` file, as cpu0
 * often is, always is). */
static int f2s_cpu_online_(int cpu) {
  char path[80];
  int on = 1;
  FILE *f;
  snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%d/online", cpu);
  if ((f = fopen(path, "r"))) {
    if (fscanf(f, "%d", &on) != 1)
      on = 1;
    fclose(f);
  }
  return on;
}

/* The node's online CPUs (of the first `configured`) into cpus[], with
 * the core of each in core[]; returns how many. */
static int f2s_online_cores_(int configured, int *cpus, long *core) {
  int n = 0, cpu;
  for (cpu = 0; cpu < configured; ++cpu)
    if (f2s_cpu_online_(cpu)) {
      cpus[n] = cpu;
      core[n++] = f2s_core_of_(cpu);
    }
  return n;
}

/* Rank `rank` of `size` ranks on CPUs cpus[0..n) (core[i] the core of
 * cpus[i]; both are sorted here): the CPUs of its slice of the cores, cores
 * [rank*C/size, (rank+1)*C/size) of the C in order, their first CPUs first
 * and then their second (hyperthreads last, as OMP_PLACES=cores fills).
 * With fewer cores than ranks the CPUs are sliced instead, and with fewer
 * CPUs than ranks each rank gets one, shared. Returns how many CPUs it wrote
 * to out; *exclusive says whether no other rank gets them. */
static int f2s_rank_slice_(int *cpus, long *core, int n, int rank, int size, int *out,
                           int *exclusive) {
  int i, j, ncores = 0, first, last, k, m = 0, widest = 1;
  for (i = 1; i < n; ++i) /* insertion sort by (core, cpu): n is small */
    for (j = i;
         j > 0 && (core[j - 1] > core[j] || (core[j - 1] == core[j] && cpus[j - 1] > cpus[j]));
         --j) {
      long c = core[j];
      int u = cpus[j];
      core[j] = core[j - 1];
      cpus[j] = cpus[j - 1];
      core[j - 1] = c;
      cpus[j - 1] = u;
    }
  for (i = 0; i < n; ++i)
    ncores += i == 0 || core[i] != core[i - 1];
  *exclusive = 1;
  if (n < size) {
    out[0] = cpus[rank % n];
    *exclusive = 0;
    return 1;
  }
  if (ncores < size) {
    for (i = (int)((long)rank * n / size); i < (int)((long)(rank + 1) * n / size); ++i)
      out[m++] = cpus[i];
    return m;
  }
  first = (int)((long)rank * ncores / size);
  last = (int)((long)(rank + 1) * ncores / size);
  /* k-th CPU of each core of the slice, k = 0, 1, ... */
  for (k = 0; k < widest; ++k) {
    int c = -1, at = 0;
    for (i = 0; i < n; ++i) {
      if (i == 0 || core[i] != core[i - 1]) {
        ++c;
        at = 0;
      } else {
        ++at;
      }
      if (at + 1 > widest)
        widest = at + 1;
      if (c >= first && c < last && at == k)
        out[m++] = cpus[i];
    }
  }
  return m;
}

/* The share of the node this process's threads use when an MPI launcher
 * started several ranks on it (f2s_local_rank):
 * - the launcher bound the rank (its affinity mask is narrower than the
 *   node): the CPUs of the mask, pinned when the ranks' masks can be
 *   disjoint; when they cannot (the local ranks times the mask's CPUs exceed
 *   the node, as when several ranks are bound to one package), the rank runs
 *   its fair part of the mask's CPUs as threads, unpinned, within the mask;
 * - no binding (or OMP_PROC_BIND/OMP_PLACES set, whose binding of the calling
 *   thread says nothing of the rank's): the node's cores split evenly by
 *   local rank (f2s_rank_slice_), pinned.
 * Outside MPI, nothing: the library's tuned placement on the whole node. */
static void f2s_rank_init_(void) {
  static int cpus[CPU_SETSIZE];
  static long core[CPU_SETSIZE];
  cpu_set_t mask;
  int rank, size, n = 0, cpu, configured = (int)sysconf(_SC_NPROCESSORS_CONF), exclusive;
  int online = (int)sysconf(_SC_NPROCESSORS_ONLN); /* the node: offline CPUs are none of it */
  const char *bind = getenv("OMP_PROC_BIND");
  int omp_bound = (bind && *bind && strcmp(bind, "false") != 0 && strcmp(bind, "FALSE") != 0) ||
                  getenv("OMP_PLACES") != NULL;
  f2s_local_rank(&rank, &size);
  if (size <= 1 || configured < 1 || online < 1)
    return;
  if (configured > CPU_SETSIZE)
    configured = CPU_SETSIZE;
  if (!omp_bound && sched_getaffinity(0, sizeof mask, &mask) == 0 && CPU_COUNT(&mask) < online) {
    for (cpu = 0; cpu < configured; ++cpu)
      if (CPU_ISSET(cpu, &mask)) {
        cpus[n] = cpu;
        core[n++] = f2s_core_of_(cpu);
      }
    /* All of the mask, in core order. */
    f2s_rank_.n = f2s_rank_slice_(cpus, core, n, 0, 1, f2s_rank_.cpus, &exclusive);
    if ((long)n * size <= online) {
      f2s_rank_.pin = 1;
      f2s_rank_.limit = f2s_rank_.n;
    } else {
      int sharers = (int)(((long)n * size + online - 1) / online);
      f2s_rank_.pin = 0;
      f2s_rank_.limit = n / sharers > 0 ? n / sharers : 1;
    }
  } else {
    n = f2s_online_cores_(configured, cpus, core);
    f2s_rank_.n = f2s_rank_slice_(cpus, core, n, rank, size, f2s_rank_.cpus, &exclusive);
    f2s_rank_.pin = exclusive;
    f2s_rank_.limit = f2s_rank_.n;
  }
}
#endif

#ifdef CPU_SETSIZE
/* A library's placement is its build machine's (CpuModel::placement there).
 * Run on another machine, as when a login node builds for compute nodes or
 * one machine builds the programs another runs, it names other CPUs: the 2
 * of a build machine, on a node of 16, leave 14 of 16 threads unpinned,
 * free to move, where an OpenMP program with OMP_PROC_BIND pins all of
 * them. A placement that is not exactly this node's online CPUs gives way
 * to those CPUs in core order (each core's first CPU, then the second ones:
 * OMP_PLACES=cores with OMP_PROC_BIND=close), said once under F2S_VERBOSE.
 * No placement (a harness that pins nothing) stays none. */
static int f2s_node_cpus_[CPU_SETSIZE];

static void f2s_fit_placement_(void) {
  static int cpus[CPU_SETSIZE];
  static long core[CPU_SETSIZE];
  struct f2s_pool *p = &f2s_pool_;
  int n, i, exclusive, fits, configured = (int)sysconf(_SC_NPROCESSORS_CONF);
  const char *verbose = getenv("F2S_VERBOSE");
  if (p->ncpus <= 0 || configured < 1)
    return;
  if (configured > CPU_SETSIZE)
    configured = CPU_SETSIZE;
  n = f2s_online_cores_(configured, cpus, core);
  fits = p->ncpus == n;
  for (i = 0; fits && i < p->ncpus; ++i)
    fits = p->cpus[i] >= 0 && p->cpus[i] < configured && f2s_cpu_online_(p->cpus[i]);
  if (fits || n == 0)
    return;
  if (verbose && *verbose && strcmp(verbose, "0") != 0)
    fprintf(stderr,
            "f2stencil: the library's thread placement was made for a machine with %d CPUs; "
            "this one has %d online: threads go to its cores in order\n",
            p->ncpus, n);
  p->ncpus = f2s_rank_slice_(cpus, core, n, 0, 1, f2s_node_cpus_, &exclusive);
  p->cpus = f2s_node_cpus_;
}
#endif

static void f2s_pool_init_(void) {
  pthread_atfork(NULL, NULL, f2s_pool_after_fork_);
#ifdef CPU_SETSIZE
  {
    long cpu, configured = sysconf(_SC_NPROCESSORS_CONF);
    f2s_allowed_known_ = sched_getaffinity(0, sizeof f2s_allowed_, &f2s_allowed_) == 0;
    for (cpu = 0; f2s_allowed_known_ && cpu < configured && cpu < CPU_SETSIZE; ++cpu)
      CPU_SET(cpu, &f2s_allowed_);
    /* Under MPI, an unpinned thread stays within its rank's share. */
    f2s_rank_init_();
    if (f2s_allowed_known_ && f2s_rank_.n) {
      int i;
      CPU_ZERO(&f2s_allowed_);
      for (i = 0; i < f2s_rank_.n; ++i)
        CPU_SET(f2s_rank_.cpus[i], &f2s_allowed_);
    } else {
      f2s_fit_placement_(); /* the library's placement, set by its constructor */
    }
  }
#endif
}

/* F2S_PIN=0 turns pinning off, read once. */
static int f2s_pin_enabled_(void) {
  static int enabled = -1;
  if (enabled < 0) {
    const char *env = getenv("F2S_PIN");
    enabled = !(env && env[0] == '0' && env[1] == '\0');
  }
  return enabled;
}

__attribute__((unused)) static void f2s_set_placement(const int *cpus, int ncpus) {
  struct f2s_pool *p = &f2s_pool_;
  pthread_mutex_lock(&p->run_lock);
  p->cpus = cpus;
  p->ncpus = cpus && ncpus > 0 ? ncpus : 0;
  pthread_mutex_unlock(&p->run_lock);
}

__attribute__((unused)) static void f2s_parallel_run(int nthreads, f2s_task_fn fn, void *arg) {
  struct f2s_pool *p = &f2s_pool_;
  unsigned long long generation;
  int spins, limit;
  if (nthreads <= 1 || f2s_in_job_) {
    fn(0, 1, arg);
    return;
  }
  if (nthreads > F2S_MAX_THREADS)
    nthreads = F2S_MAX_THREADS;
  pthread_once(&f2s_pool_once_, f2s_pool_init_);
  pthread_mutex_lock(&p->run_lock);
  if (nthreads - 1 > p->nworkers)
    nthreads = 1 + f2s_grow_pool_(nthreads - 1);
  if (nthreads <= 1) {
    pthread_mutex_unlock(&p->run_lock);
    fn(0, 1, arg);
    return;
  }

  p->fn = fn;
  p->arg = arg;
#ifdef CPU_SETSIZE
  if (f2s_rank_.n)
    p->pinned = f2s_rank_.pin && nthreads <= f2s_rank_.n && f2s_pin_enabled_();
  else
#endif
    p->pinned = p->ncpus > 0 && nthreads <= p->ncpus && f2s_pin_enabled_();
  __atomic_store_n(&p->remaining, nthreads - 1, __ATOMIC_RELAXED);
  generation = (p->job_word >> F2S_JOB_THREAD_BITS) + 1;
  /* Publishes fn, arg and remaining with the word (see f2s_wait_job_). */
  __atomic_store_n(&p->job_word, generation << F2S_JOB_THREAD_BITS | (unsigned long long)nthreads,
                   __ATOMIC_SEQ_CST);
  if (__atomic_load_n(&p->sleepers, __ATOMIC_SEQ_CST) > 0) {
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->job_posted);
    pthread_mutex_unlock(&p->lock);
  }

  f2s_bind_caller_();
  f2s_in_job_ = 1;
  fn(0, nthreads, arg);
  f2s_in_job_ = 0;

  limit = __atomic_load_n(&p->spin_limit, __ATOMIC_RELAXED);
  for (spins = 0; spins < limit; ++spins) {
    if (__atomic_load_n(&p->remaining, __ATOMIC_ACQUIRE) == 0)
      break;
    F2S_CPU_RELAX();
  }
  if (spins == limit) {
    pthread_mutex_lock(&p->lock);
    __atomic_store_n(&p->caller_sleeping, 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&p->remaining, __ATOMIC_SEQ_CST) != 0)
      pthread_cond_wait(&p->job_done, &p->lock);
    __atomic_store_n(&p->caller_sleeping, 0, __ATOMIC_RELAXED);
    pthread_mutex_unlock(&p->lock);
  }
  pthread_mutex_unlock(&p->run_lock);
}

/* The processors online, read once: glibc's sysconf reads
 * /sys/devices/system/cpu/online at every call (an open, a read and a close,
 * 5 to 8 us), which every call of a kernel would pay: a multigrid V-cycle
 * makes a hundred calls on its coarse levels, each a few microseconds of work. */
static long f2s_online_cpus_(void) {
  static long online = 0;
  long n = __atomic_load_n(&online, __ATOMIC_RELAXED);
  if (n == 0) {
    n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
      n = 1;
    __atomic_store_n(&online, n, __ATOMIC_RELAXED);
  }
  return n;
}

__attribute__((unused)) static int f2s_num_threads(int fallback) {
  const char *env = getenv("F2S_NUM_THREADS");
  long n;
  if (env) {
    char *end;
    n = strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n <= F2S_MAX_THREADS)
      return (int)n;
  }
  n = fallback > 0 ? fallback : f2s_online_cpus_();
#ifdef CPU_SETSIZE
  /* Under MPI, at most the threads of this rank's share. */
  pthread_once(&f2s_pool_once_, f2s_pool_init_);
  if (f2s_rank_.n && n > f2s_rank_.limit)
    n = f2s_rank_.limit;
#endif
  return n > 0 ? (int)n : 1;
}

/* The busiest worker's share in points of the balanced loop times blocks of
 * the others: its rounds of runs of blocks of `block` points. */
__attribute__((unused)) static long f2s_busiest_share_(long block, long points, long others, long run, long workers) {
  long blocks = (points + block - 1) / block * others;
  long runs = (blocks + run - 1) / run;
  return (runs + workers - 1) / workers * run * block;
}

__attribute__((unused)) static long f2s_balanced_block(long size, long points, long others,
                                                       long run, long workers) {
  long c, best, share;
  if (size <= 1 || points <= 0 || workers <= 1)
    return size;
  if (others < 1)
    others = 1;
  if (run < 1)
    run = 1;
  /* An equal share, rounded up, against the tuned size's busiest one. */
  share = f2s_busiest_share_(size, points, others, run, workers);
  if (share * workers * 10 <= points * others * 11)
    return size;
  best = share;
  for (c = size - 1; c >= 1; --c) {
    long s = f2s_busiest_share_(c, points, others, run, workers);
    if (s < best)
      best = s;
  }
  for (c = size; c >= 1; --c)
    if (f2s_busiest_share_(c, points, others, run, workers) * 10 <= best * 11)
      return c;
  return size;
}
