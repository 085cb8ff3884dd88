/* The run-time support compiled into every generated library and harness.
 *
 * It is pasted, as text, at the top of each generated C file with every
 * function `static`, so that two f2stencil libraries linked into one program
 * never clash and a library needs nothing but libc and pthreads. */
#ifndef F2S_RUNTIME_H
#define F2S_RUNTIME_H

/* One share of a parallel region: thread `tid` of `nthreads`. */
typedef void (*f2s_task_fn)(int tid, int nthreads, void *arg);

/* Runs fn(tid, nthreads, arg) for tid = 0..nthreads-1 on a persistent pool
 * (threads are created on first use and reused by every later call; the
 * calling thread runs tid 0) and returns when all have finished. */
static void f2s_parallel_run(int nthreads, f2s_task_fn fn, void *arg);

/* F2S_NUM_THREADS when set to a positive number, else `fallback` when
 * positive, else the number of online processors. */
static int f2s_num_threads(int fallback);

#endif
