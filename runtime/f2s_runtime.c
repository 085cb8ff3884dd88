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
#include <stdlib.h>
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

/* The CPU thread `tid` of the current job runs on, or F2S_UNPINNED. */
static int f2s_cpu_for_(int tid) {
  const struct f2s_pool *p = &f2s_pool_;
  int cpu;
  if (!p->pinned || tid >= p->ncpus || !f2s_allowed_known_)
    return F2S_UNPINNED;
  cpu = p->cpus[tid];
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

static void f2s_pool_init_(void) {
  pthread_atfork(NULL, NULL, f2s_pool_after_fork_);
#ifdef CPU_SETSIZE
  {
    long cpu, configured = sysconf(_SC_NPROCESSORS_CONF);
    f2s_allowed_known_ = sched_getaffinity(0, sizeof f2s_allowed_, &f2s_allowed_) == 0;
    for (cpu = 0; f2s_allowed_known_ && cpu < configured && cpu < CPU_SETSIZE; ++cpu)
      CPU_SET(cpu, &f2s_allowed_);
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

__attribute__((unused)) static int f2s_num_threads(int fallback) {
  const char *env = getenv("F2S_NUM_THREADS");
  long n;
  if (env) {
    char *end;
    n = strtol(env, &end, 10);
    if (end != env && *end == '\0' && n > 0 && n <= F2S_MAX_THREADS)
      return (int)n;
  }
  if (fallback > 0)
    return fallback;
  n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)n : 1;
}
