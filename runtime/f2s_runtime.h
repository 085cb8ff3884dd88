/* The run-time support compiled into every generated library and harness.
 *
 * It is pasted, as text, at the top of each generated C file with every
 * function `static`, so that two f2stencil libraries linked into one program
 * never clash and a library needs nothing but libc and pthreads. */
#ifndef F2S_RUNTIME_H
#define F2S_RUNTIME_H

/* Thread pinning needs glibc's CPU-set macros; the generated prelude defines
 * this before its first #include, as must any file that includes system
 * headers before this text. Without them pinning is compiled out. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

/* One share of a parallel region: thread `tid` of `nthreads`. */
typedef void (*f2s_task_fn)(int tid, int nthreads, void *arg);

/* Runs fn(tid, nthreads, arg) for tid = 0..nthreads-1 on a persistent pool
 * (threads are created on first use and reused by every later call; the
 * calling thread runs tid 0) and returns when all have finished. */
static void f2s_parallel_run(int nthreads, f2s_task_fn fn, void *arg);

/* Pins thread tid of every later parallel run of more than one thread to
 * CPU cpus[tid] (OS numbering, as CpuModel::placement gives it), the calling
 * thread, tid 0, included, as OpenMP's OMP_PROC_BIND does. A run of more
 * threads than ncpus is not pinned at all (threads pinned before go back to
 * the CPUs the process started with); a CPU outside the process's allowed
 * set is skipped (that thread is left unpinned); pinning never fails a run.
 * F2S_PIN=0 in the environment turns it off. `cpus` must outlive the pool
 * (a static array); ncpus 0 stops pinning. */
static void f2s_set_placement(const int *cpus, int ncpus);

/* This process's rank among the MPI ranks its launcher started on this node
 * and their number, from the launcher's environment (Open MPI, MPICH and
 * Intel MPI, MVAPICH2, PMI and PALS launchers, Slurm with --ntasks-per-node);
 * 0 and 1 outside MPI. Under several ranks, the pool runs each rank's threads
 * on a share of the node of its own (docs/mpi.md). */
static void f2s_local_rank(int *rank, int *size);

/* F2S_NUM_THREADS when set to a positive number, else `fallback` when
 * positive, else the number of online processors; under several MPI ranks
 * per node, at most the threads of this rank's share. */
static int f2s_num_threads(int fallback);

/* The block size a variant uses for the loop its threads share, at most the
 * tuned `size`: the loop has `points` points, cut into blocks numbered
 * together with `others` blocks of the loops collapsed inside it and dealt
 * in runs of `run` blocks to `workers` threads (or groups). A variant is
 * tuned at one size and called at others, where its blocks may not divide
 * among the threads: 127 planes in blocks of 16 are 8 blocks for 16
 * threads. The tuned size is kept while the busiest worker does at most 10%
 * more than an equal share; otherwise the largest size within 10% of the
 * best share any size gives. Any size is correct (blocks are clipped to the
 * loop's bounds), so this only chooses speed. */
static long f2s_balanced_block(long size, long points, long others, long run, long workers);

#endif
