/* What a library call ran, for its user: the environment that steers the
 * calls (F2S_TARGET), the once-per-kernel report (F2S_VERBOSE=1) and the
 * profile printed at exit (F2S_PROFILE=1). Shared by the CPU and the CUDA
 * run-time text (the build embeds it in both: last in the C text, before
 * the CUDA runtime that uses it in the CUDA text), so valid C and C++;
 * every name is static. Each translation unit has its own state: the C
 * part of a library reports and profiles its CPU calls, the CUDA part its
 * GPU calls and the copies. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* F2S_TARGET: unset (or empty) lets each call choose; the CPU values keep
 * every call on the CPU; cuda sends every call that can go there to the GPU. */
enum { F2S_TARGET_ANY = 0, F2S_TARGET_CPU = 1, F2S_TARGET_CUDA = 2 };

struct f2s_env {
  int target;  /* F2S_TARGET_* */
  int verbose; /* F2S_VERBOSE set to anything but 0 */
  int profile; /* F2S_PROFILE set to anything but 0 */
};
static struct f2s_env f2s_env_;
static pthread_once_t f2s_env_once_ = PTHREAD_ONCE_INIT;

/* One row of the profile: a kernel (or the data regions) on one target.
 * A kernel's calls also report their size (f2s_prof_size): the loops'
 * trips, of which the first F2S_PROF_SIZES distinct ones are kept with their
 * counts, and the compulsory traffic, from which the row's rate follows. */
enum { F2S_PROF_SIZES = 8, F2S_PROF_RANK = 4 };

/* A call's size as the library's entry computes it under F2S_PROFILE
 * (codegen print_c_call_size): the trips of its loops, innermost first, and
 * its compulsory traffic per point; rank 0 where it has none to give. The
 * C entry of a GPU call passes it to the CUDA part, whose table times it. */
struct f2s_call_size {
  int rank;
  long trips[F2S_PROF_RANK];
  double bytes_per_point;
};
struct f2s_prof {
  const char *kernel, *target;
  long long calls, updates, h2d_bytes, d2h_bytes;
  double seconds, h2d_s, d2h_s;
  double traffic; /* bytes: each grid element read once and written once */
  int rank;
  long sizes[F2S_PROF_SIZES][F2S_PROF_RANK];
  long long size_calls[F2S_PROF_SIZES], other_size_calls;
  double size_seconds[F2S_PROF_SIZES], size_traffic[F2S_PROF_SIZES]; /* each size's share */
};
enum { F2S_PROF_ROWS = 512 };
static struct f2s_prof f2s_prof_rows_[F2S_PROF_ROWS];
static int f2s_prof_count_ = 0;
static pthread_mutex_t f2s_prof_lock_ = PTHREAD_MUTEX_INITIALIZER;
/* The time of this thread's last call (f2s_call_end), for its size's share
 * (f2s_prof_size, which follows it). */
static __thread double f2s_prof_last_s_ = 0;

__attribute__((unused)) static double f2s_now_(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Printed at exit under F2S_PROFILE=1: one line per kernel and target, as
 * NV_ACC_TIME does for an OpenACC program, so that a user sees whether the
 * kernels or the copies take the time. */
__attribute__((unused)) static void f2s_prof_print_(void) {
  pthread_mutex_lock(&f2s_prof_lock_);
  if (f2s_prof_count_ > 0) {
    fprintf(stderr, "f2stencil profile (F2S_PROFILE=1), per kernel and target:\n");
    fprintf(stderr, "  %-24s %-9s %9s %12s %14s %10s %14s %10s %8s\n", "kernel", "target", "calls",
            "time (s)", "to GPU (B)", "(s)", "to host (B)", "(s)", "updates");
    for (int i = 0; i < f2s_prof_count_; ++i) {
      const struct f2s_prof *r = &f2s_prof_rows_[i];
      fprintf(stderr, "  %-24s %-9s %9lld %12.6f %14lld %10.6f %14lld %10.6f %8lld\n", r->kernel,
              r->target, r->calls, r->seconds, r->h2d_bytes, r->h2d_s, r->d2h_bytes, r->d2h_s,
              r->updates);
    }
    /* Whether a kernel is bound by memory, and the sizes to tune at: a
     * library tuned at another size than its calls run may have chosen for
     * another cache level (docs/running.md). */
    int sized = 0;
    for (int i = 0; i < f2s_prof_count_; ++i)
      sized |= f2s_prof_rows_[i].rank > 0;
    if (sized) {
      fprintf(stderr, "f2stencil profile: per kernel, its compulsory traffic (each grid element "
                      "read once, written once) over its time, and the sizes its calls ran at "
                      "(loop trips, innermost first; tune there: --tune-size or tune_size), "
                      "each with its calls and its own rate:\n");
      for (int i = 0; i < f2s_prof_count_; ++i) {
        const struct f2s_prof *r = &f2s_prof_rows_[i];
        if (r->rank == 0)
          continue;
        const double rate = r->seconds > 0 ? 1e-9 * r->traffic / r->seconds : 0.0;
        fprintf(stderr, rate >= 100 ? "  %-24s %-9s %9.1f GB/s  " : "  %-24s %-9s %9.3g GB/s  ",
                r->kernel, r->target, rate);
        /* Largest first (by points times calls): where the time goes. */
        int order[F2S_PROF_SIZES], n = 0;
        double weight[F2S_PROF_SIZES];
        for (int s = 0; s < F2S_PROF_SIZES && r->size_calls[s]; ++s) {
          weight[s] = (double)r->size_calls[s];
          for (int d = 0; d < r->rank; ++d)
            weight[s] *= (double)r->sizes[s][d];
          int at = n++;
          for (; at > 0 && weight[order[at - 1]] < weight[s]; --at)
            order[at] = order[at - 1];
          order[at] = s;
        }
        for (int o = 0; o < n; ++o) {
          const int s = order[o];
          fprintf(stderr, "%s", o ? ", " : "");
          for (int d = 0; d < r->rank; ++d)
            fprintf(stderr, "%s%ld", d ? "x" : "", r->sizes[s][d]);
          /* A kernel's rate over all its sizes mixes the large calls, which
           * show the bandwidth it reaches, with small ones bound by latency. */
          const double size_rate =
              r->size_seconds[s] > 0 ? 1e-9 * r->size_traffic[s] / r->size_seconds[s] : 0.0;
          fprintf(stderr, size_rate >= 100 ? " (%lld, %.1f GB/s)" : " (%lld, %.3g GB/s)",
                  r->size_calls[s], size_rate);
        }
        if (r->other_size_calls)
          fprintf(stderr, ", other sizes (%lld)", r->other_size_calls);
        fprintf(stderr, "\n");
      }
    }
  }
  pthread_mutex_unlock(&f2s_prof_lock_);
}

__attribute__((unused)) static int f2s_env_flag_(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

__attribute__((unused)) static void f2s_env_read_(void) {
  const char *t = getenv("F2S_TARGET");
  f2s_env_.target = F2S_TARGET_ANY;
  if (t && *t) {
    if (!strcmp(t, "cuda"))
      f2s_env_.target = F2S_TARGET_CUDA;
    else if (!strcmp(t, "cpu") || !strcmp(t, "pthreads") || !strcmp(t, "c"))
      f2s_env_.target = F2S_TARGET_CPU;
    else {
      /* A misspelt target would silently run elsewhere than asked. */
      fprintf(stderr,
              "f2stencil: the environment variable F2S_TARGET is '%s', but it takes cpu, "
              "pthreads, c or cuda\n",
              t);
      exit(EXIT_FAILURE);
    }
  }
  f2s_env_.verbose = f2s_env_flag_("F2S_VERBOSE");
  f2s_env_.profile = f2s_env_flag_("F2S_PROFILE");
  if (f2s_env_.profile)
    atexit(f2s_prof_print_);
}

/* The environment, read at the first call of the library. */
__attribute__((unused)) static const struct f2s_env *f2s_env(void) {
  pthread_once(&f2s_env_once_, f2s_env_read_);
  return &f2s_env_;
}

/* The profile's row of `kernel` on `target` (string literals of the
 * library), made on first use; NULL when the table is full. */
__attribute__((unused)) static struct f2s_prof *f2s_prof_row(const char *kernel,
                                                             const char *target) {
  struct f2s_prof *row = NULL;
  pthread_mutex_lock(&f2s_prof_lock_);
  for (int i = 0; i < f2s_prof_count_ && !row; ++i)
    if (!strcmp(f2s_prof_rows_[i].kernel, kernel) && !strcmp(f2s_prof_rows_[i].target, target))
      row = &f2s_prof_rows_[i];
  if (!row && f2s_prof_count_ < F2S_PROF_ROWS) {
    row = &f2s_prof_rows_[f2s_prof_count_++];
    memset(row, 0, sizeof *row);
    row->kernel = kernel;
    row->target = target;
  }
  pthread_mutex_unlock(&f2s_prof_lock_);
  return row;
}

/* The trips of a DO loop from lo to hi by step (Fortran's count, 0 if none). */
__attribute__((unused)) static long f2s_trips_of(long lo, long hi, long step) {
  if (step > 0)
    return hi >= lo ? (hi - lo) / step + 1 : 0;
  if (step < 0)
    return lo >= hi ? (lo - hi) / -step + 1 : 0;
  return 0;
}

/* Under F2S_PROFILE, the size of a call of `kernel` on `target` (nothing
 * for a size of rank 0, or NULL), counted in its row. */
__attribute__((unused)) static void f2s_prof_size(const char *kernel, const char *target,
                                                  const struct f2s_call_size *size) {
  if (!size || size->rank <= 0 || !f2s_env()->profile)
    return;
  struct f2s_prof *row = f2s_prof_row(kernel, target);
  if (!row)
    return;
  const int rank = size->rank > F2S_PROF_RANK ? F2S_PROF_RANK : size->rank;
  const long *trips = size->trips;
  const double bytes_per_point = size->bytes_per_point;
  double points = 1;
  for (int d = 0; d < rank; ++d)
    points *= trips[d] > 0 ? (double)trips[d] : 0.0;
  pthread_mutex_lock(&f2s_prof_lock_);
  row->rank = rank;
  row->traffic += points * bytes_per_point;
  int s = 0;
  for (; s < F2S_PROF_SIZES && row->size_calls[s]; ++s)
    if (!memcmp(row->sizes[s], trips, sizeof(long) * (size_t)rank))
      break;
  if (s == F2S_PROF_SIZES) {
    ++row->other_size_calls;
  } else {
    if (!row->size_calls[s])
      memcpy(row->sizes[s], trips, sizeof(long) * (size_t)rank);
    ++row->size_calls[s];
    row->size_seconds[s] += f2s_prof_last_s_;
    row->size_traffic[s] += points * bytes_per_point;
  }
  pthread_mutex_unlock(&f2s_prof_lock_);
}

/* The start of a call: reads the environment on the first (an F2S_TARGET
 * it does not know stops the program there), and under F2S_PROFILE the
 * time, which f2s_call_end takes; 0 otherwise. */
__attribute__((unused)) static double f2s_call_begin(void) {
  return f2s_env()->profile ? f2s_now_() : 0;
}

/* The end of a call of `kernel` that ran `variant` ("pthreads/blocked",
 * "cuda/b32x8") on `target`: under F2S_VERBOSE, said once per call site
 * (`said`, a static of the caller) and target; under F2S_PROFILE, counted
 * with its time since `t0`. `threads` is 0 for the GPU. */
__attribute__((unused)) static void f2s_call_end(int *said, const char *kernel, const char *target,
                                                 const char *variant, int threads, double t0) {
  const struct f2s_env *e = f2s_env();
  if (e->verbose && !__atomic_exchange_n(said, 1, __ATOMIC_RELAXED)) {
    if (threads > 0)
      fprintf(stderr, "f2stencil: '%s' ran %s with %d thread%s\n", kernel, variant, threads,
              threads == 1 ? "" : "s");
    else
      fprintf(stderr, "f2stencil: '%s' ran %s on the GPU\n", kernel, variant);
  }
  if (e->profile) {
    struct f2s_prof *row = f2s_prof_row(kernel, target);
    if (row) {
      double dt = f2s_now_() - t0;
      f2s_prof_last_s_ = dt;
      pthread_mutex_lock(&f2s_prof_lock_);
      row->calls += 1;
      row->seconds += dt;
      pthread_mutex_unlock(&f2s_prof_lock_);
    }
  }
}

/* A note under F2S_VERBOSE, once per `said` (a static of the caller). */
__attribute__((unused)) static void f2s_note_once(int *said, const char *note) {
  if (f2s_env()->verbose && !__atomic_exchange_n(said, 1, __ATOMIC_RELAXED))
    fprintf(stderr, "f2stencil: %s\n", note);
}
