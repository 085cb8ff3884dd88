// The runtime as generated libraries get it: runtime_c_text() pasted at the
// top of a C file, compiled with the system compiler, run as a program.
#include "runtime/RuntimeText.h"

#include "harness/Process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <stdlib.h>
#include <unistd.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;

// Each check prints a line starting "FAIL" and the program exits 1 when
// something is wrong, so the test's failure message says which check.
const char *kPoolProgram = R"(
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <dirent.h>

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { ++failures; printf("FAIL line %d: ", __LINE__); \
  printf(__VA_ARGS__); printf("\n"); } } while (0)

#define MAX_T 8
struct sum_job {
  long n;
  long long partial[MAX_T];
  int seen_nthreads[MAX_T];
  pthread_t who[MAX_T];
};

static void sum_share(int tid, int nthreads, void *p) {
  struct sum_job *job = (struct sum_job *)p;
  long lo = job->n * tid / nthreads, hi = job->n * (tid + 1) / nthreads;
  long long s = 0;
  for (long i = lo; i < hi; ++i)
    s += i;
  job->partial[tid] = s;
  job->seen_nthreads[tid] = nthreads;
  job->who[tid] = pthread_self();
}

/* Runs one sum over [0, n) with nthreads and checks every share ran. */
static int run_sum(int nthreads, long n, struct sum_job *job) {
  long long total = 0;
  memset(job, 0, sizeof *job);
  job->n = n;
  for (int t = 0; t < MAX_T; ++t)
    job->partial[t] = -1;
  f2s_parallel_run(nthreads, sum_share, job);
  int used = nthreads < 1 ? 1 : nthreads;
  for (int t = 0; t < used; ++t) {
    if (job->seen_nthreads[t] != used)
      return 0;
    total += job->partial[t];
  }
  for (int t = used; t < MAX_T; ++t)
    if (job->partial[t] != -1)
      return 0;
  return total == (long long)n * (n - 1) / 2;
}

static int count_tasks(void) {
  DIR *d = opendir("/proc/self/task");
  int n = 0;
  struct dirent *e;
  if (!d)
    return -1;
  while ((e = readdir(d)))
    n += e->d_name[0] != '.';
  closedir(d);
  return n;
}

static void nested_share(int tid, int nthreads, void *p) {
  struct sum_job inner;
  (void)nthreads;
  int *ok = (int *)p;
  /* A nested parallel run executes inline rather than deadlocking. */
  memset(&inner, 0, sizeof inner);
  inner.n = 1000;
  f2s_parallel_run(4, sum_share, &inner);
  ok[tid] = inner.seen_nthreads[0] == 1 && inner.partial[0] == 1000 * 999 / 2 &&
            pthread_equal(inner.who[0], pthread_self());
}

static void *concurrent_caller(void *p) {
  int *ok = (int *)p;
  struct sum_job job;
  *ok = 1;
  for (int i = 0; i < 2000; ++i)
    *ok = *ok && run_sum(3, 5000 + i, &job);
  return NULL;
}

int main(void) {
  struct sum_job job;
  int counts[] = {1, 2, 4, 8};
  CHECK(run_sum(0, 100, &job), "nthreads 0 runs inline");
  CHECK(pthread_equal(job.who[0], pthread_self()), "inline on the caller");
  CHECK(count_tasks() == 1, "no pool before a parallel run: %d tasks", count_tasks());
  for (int c = 0; c < 4; ++c) {
    CHECK(run_sum(counts[c], 1000003, &job), "sum with %d threads", counts[c]);
    CHECK(pthread_equal(job.who[0], pthread_self()), "the caller is tid 0");
  }

  /* Reuse: ten thousand runs, a bounded set of threads, no new tasks. */
  int tasks = count_tasks();
  CHECK(tasks == 8, "8 threads after a run with 8: %d", tasks);
  pthread_t distinct[64];
  int ndistinct = 0;
  for (int i = 0; i < 10000; ++i) {
    int nthreads = 1 + i % 8;
    if (!run_sum(nthreads, 10000 + i, &job)) {
      CHECK(0, "run %d with %d threads", i, nthreads);
      break;
    }
    for (int t = 0; t < nthreads && ndistinct < 64; ++t) {
      int known = 0;
      for (int d = 0; d < ndistinct; ++d)
        known = known || pthread_equal(distinct[d], job.who[t]);
      if (!known)
        distinct[ndistinct++] = job.who[t];
    }
  }
  CHECK(ndistinct == 8, "8 distinct threads over 10000 runs: %d", ndistinct);
  CHECK(count_tasks() == tasks, "tasks stay %d: %d", tasks, count_tasks());

  /* Nested runs. */
  int ok[4] = {0, 0, 0, 0};
  f2s_parallel_run(4, nested_share, ok);
  CHECK(ok[0] && ok[1] && ok[2] && ok[3], "nested runs: %d %d %d %d", ok[0], ok[1], ok[2], ok[3]);

  /* Callers on several threads take turns. */
  pthread_t callers[3];
  int caller_ok[3];
  for (int i = 0; i < 3; ++i)
    pthread_create(&callers[i], NULL, concurrent_caller, &caller_ok[i]);
  for (int i = 0; i < 3; ++i) {
    pthread_join(callers[i], NULL);
    CHECK(caller_ok[i], "concurrent caller %d", i);
  }
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
)";

const char *kGrowProgram = R"(
#include <stdio.h>
#include <unistd.h>

static void count_share(int tid, int nthreads, void *p) {
  (void)nthreads;
  __atomic_add_fetch((int *)p + tid, 1, __ATOMIC_RELAXED);
}

int main(void) {
  int sizes[] = {2, 6, 3, 12, 1, 5, 12};
  int failures = 0;
  for (int s = 0; s < 7; ++s) {
    int hits[16] = {0};
    /* A pause lets the workers fall asleep, so waking them is tested too. */
    if (s % 2)
      usleep(50000);
    f2s_parallel_run(sizes[s], count_share, hits);
    for (int t = 0; t < 16; ++t)
      if (hits[t] != (t < sizes[s])) {
        printf("FAIL size %d tid %d hits %d\n", sizes[s], t, hits[t]);
        ++failures;
      }
  }
  printf("%d %d %d\n", f2s_num_threads(5), f2s_num_threads(0) > 0, failures);
  return failures != 0;
}
)";

const char *kUnusedProgram = "int main(void) { return 0; }\n";

const char *kPinProgram = R"(
#include <sched.h>
#include <stdio.h>
#include <string.h>

struct where {
  int cpu[4];
  cpu_set_t mask[4];
};

static void record(int tid, int nthreads, void *p) {
  struct where *w = (struct where *)p;
  (void)nthreads;
  w->cpu[tid] = sched_getcpu();
  pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), &w->mask[tid]);
}

static int only(const cpu_set_t *m, int cpu) {
  return CPU_COUNT(m) == 1 && CPU_ISSET(cpu, m);
}

int main(void) {
  static const int reversed[] = {1, 0};
  static const int with_missing[] = {0, 9999};
  cpu_set_t allowed;
  struct where w;
  int failures = 0;
  sched_getaffinity(0, sizeof allowed, &allowed);
  if (!CPU_ISSET(0, &allowed) || !CPU_ISSET(1, &allowed)) {
    printf("SKIP: CPUs 0 and 1 are not both allowed\n");
    return 0;
  }
#define CHECK(cond, what) do { if (!(cond)) { ++failures; printf("FAIL %s\n", what); } } while (0)
  f2s_set_placement(reversed, 2);
  for (int rep = 0; rep < 3; ++rep) {
    memset(&w, 0, sizeof w);
    f2s_parallel_run(2, record, &w);
    CHECK(w.cpu[0] == 1 && only(&w.mask[0], 1), "tid 0 on CPU 1");
    CHECK(w.cpu[1] == 0 && only(&w.mask[1], 0), "tid 1 on CPU 0");
  }
  /* More threads than listed CPUs: nobody pinned, the caller included. */
  memset(&w, 0, sizeof w);
  f2s_parallel_run(3, record, &w);
  for (int t = 0; t < 3; ++t)
    CHECK(CPU_EQUAL(&w.mask[t], &allowed), "unpinned with 3 threads");
  /* A CPU the process may not use is skipped, the others still pinned. */
  f2s_set_placement(with_missing, 2);
  memset(&w, 0, sizeof w);
  f2s_parallel_run(2, record, &w);
  CHECK(w.cpu[0] == 0 && only(&w.mask[0], 0), "tid 0 on CPU 0");
  CHECK(CPU_EQUAL(&w.mask[1], &allowed), "tid 1 unpinned: CPU 9999 is not allowed");
  printf("%s\n", failures ? "FAILED" : "PASSED");
  return failures != 0;
}
)";

const char *kPinOffProgram = R"(
#include <sched.h>
#include <stdio.h>

static void record(int tid, int nthreads, void *p) {
  (void)nthreads;
  pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), (cpu_set_t *)p + tid);
}

int main(void) {
  static const int cpus[] = {1, 0};
  cpu_set_t allowed, mask[2];
  sched_getaffinity(0, sizeof allowed, &allowed);
  f2s_set_placement(cpus, 2);
  f2s_parallel_run(2, record, mask);
  printf("%d %d\n", CPU_EQUAL(&mask[0], &allowed), CPU_EQUAL(&mask[1], &allowed));
  return 0;
}
)";

/* A library built on another machine: its placement names 64 CPUs, of
 * which this machine has fewer; the pool pins to this machine's cores in
 * order instead of leaving threads unpinned. */
const char *kForeignPlacementProgram = R"(
#include <sched.h>
#include <stdio.h>

static void record(int tid, int nthreads, void *p) {
  (void)nthreads;
  pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), (cpu_set_t *)p + tid);
}

int main(void) {
  static int foreign[64];
  cpu_set_t allowed, mask[2];
  sched_getaffinity(0, sizeof allowed, &allowed);
  if (CPU_COUNT(&allowed) < 2 || CPU_COUNT(&allowed) >= 64) {
    printf("SKIP: %d CPUs\n", CPU_COUNT(&allowed));
    return 0;
  }
  for (int i = 0; i < 64; ++i)
    foreign[i] = 63 - i;
  f2s_set_placement(foreign, 64);
  f2s_parallel_run(2, record, mask);
  printf("%d %d\n", CPU_COUNT(&mask[0]), CPU_COUNT(&mask[1]));
  return 0;
}
)";

/* An OpenMP program with OMP_PROC_BIND binds its main thread to one core
 * before it calls the library: the pool must still spread over the machine. */
const char *kBoundCallerProgram = R"(
#include <sched.h>
#include <stdio.h>

static void record(int tid, int nthreads, void *p) {
  (void)nthreads;
  pthread_getaffinity_np(pthread_self(), sizeof(cpu_set_t), (cpu_set_t *)p + tid);
}

int main(void) {
  cpu_set_t one, mask[2];
  CPU_ZERO(&one);
  CPU_SET(0, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) {
    printf("SKIP: cannot bind to CPU 0\n");
    return 0;
  }
  f2s_parallel_run(2, record, mask);
  printf("%d\n", CPU_COUNT(&mask[1]) > 1);
  return 0;
}
)";

/* Under an MPI launcher, each rank's share of the node (issue 15): the slice
 * of a synthetic node, then what this machine's ranks get. */
const char *kRankSliceProgram = R"(
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { ++failures; printf("FAIL line %d: ", __LINE__); \
  printf(__VA_ARGS__); printf("\n"); } } while (0)

/* 4 cores of 2 hyperthreads, numbered as Linux does: CPU c and c + 4 share core c. */
static int slice(int rank, int size, int *out, int *exclusive) {
  int cpus[8];
  long core[8];
  for (int c = 0; c < 8; ++c) {
    cpus[c] = 7 - c; /* any order in */
    core[c] = (7 - c) % 4;
  }
  return f2s_rank_slice_(cpus, core, 8, rank, size, out, exclusive);
}

static int same(const int *got, int n, const int *want, int m) {
  return n == m && memcmp(got, want, sizeof(int) * (size_t)n) == 0;
}

int main(void) {
  int out[8], ex, n;
  static const int r0of2[] = {0, 1, 4, 5}, r1of2[] = {2, 3, 6, 7}, r2of3[] = {2, 3, 6, 7},
                   r0of3[] = {0, 4}, r1of8[] = {4}, r5of8[] = {6};
  n = slice(0, 2, out, &ex);
  CHECK(same(out, n, r0of2, 4) && ex, "rank 0 of 2: cores 0-1, first threads first");
  n = slice(1, 2, out, &ex);
  CHECK(same(out, n, r1of2, 4) && ex, "rank 1 of 2: cores 2-3");
  n = slice(0, 3, out, &ex);
  CHECK(same(out, n, r0of3, 2) && ex, "rank 0 of 3: core 0");
  n = slice(2, 3, out, &ex);
  CHECK(same(out, n, r2of3, 4) && ex, "rank 2 of 3: cores 2-3");
  /* More ranks than cores: CPUs sliced in core order 0 4 1 5 2 6 3 7. */
  n = slice(1, 8, out, &ex);
  CHECK(same(out, n, r1of8, 1) && ex, "rank 1 of 8: CPU 4");
  n = slice(5, 8, out, &ex);
  CHECK(same(out, n, r5of8, 1) && ex, "rank 5 of 8: CPU 6, core 2 with rank 4");
  /* More ranks than CPUs: one CPU each, shared. */
  n = slice(9, 10, out, &ex);
  CHECK(n == 1 && !ex, "rank 9 of 10: one shared CPU");
  if (!failures)
    printf("PASSED\n");
  return failures != 0;
}
)";

/* Prints the threads a tuned count of 64 becomes, then this rank's share
 * (pinned or not, its CPUs). With argument "bind0", binds itself to CPU 0
 * first, as mpirun --bind-to core does for the first rank. */
const char *kRankShareProgram = R"(
#include <sched.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "bind0") == 0) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(0, &one);
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
      printf("SKIP: cannot bind to CPU 0\n");
      return 0;
    }
  }
  int threads = f2s_num_threads(64); /* computes the share */
  printf("%d %d", threads, f2s_rank_.pin);
  for (int i = 0; i < f2s_rank_.n; ++i)
    printf(" %d", f2s_rank_.cpus[i]);
  printf("\n");
  return 0;
}
)";

/* f2s_balanced_block on the sizes a tuned variant meets in programs. */
const char *kBalanceProgram = R"(
#include <stdio.h>

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { ++failures; printf("FAIL line %d: ", __LINE__); \
  printf(__VA_ARGS__); printf("\n"); } } while (0)

int main(void) {
  long b;
  /* At the size it was tuned at, a block size that divides evenly stays. */
  CHECK(f2s_balanced_block(16, 256, 1, 1, 16) == 16, "256 points, 16 threads");
  /* 127 planes in blocks of 16 are 8 blocks for 16 threads: blocks of 8. */
  b = f2s_balanced_block(16, 127, 1, 1, 16);
  CHECK(b == 8, "127 points, 16 threads: %ld", b);
  /* 300 points: 19 blocks of 16, two rounds for 3 threads; 30 blocks of 10
   * are two rounds for all. */
  b = f2s_balanced_block(16, 300, 1, 1, 16);
  CHECK(b == 10, "300 points, 16 threads: %ld", b);
  /* Blocks of the loops numbered with it count: 8 blocks times 2 are 16. */
  CHECK(f2s_balanced_block(16, 127, 2, 1, 16) == 16, "127 points, 2 blocks inside");
  /* Runs of 4 blocks: 127 points need runs of blocks of 2 for 16 groups. */
  b = f2s_balanced_block(16, 127, 1, 4, 16);
  CHECK(b == 2, "127 points, runs of 4: %ld", b);
  /* Within 10% of an equal share: kept. */
  CHECK(f2s_balanced_block(16, 250, 1, 1, 16) == 16, "250 points");
  /* Never larger than tuned, never below 1, one thread or none left alone. */
  CHECK(f2s_balanced_block(16, 3, 1, 1, 16) == 1, "3 points: %ld", f2s_balanced_block(16, 3, 1, 1, 16));
  CHECK(f2s_balanced_block(16, 127, 1, 1, 1) == 16, "one thread");
  CHECK(f2s_balanced_block(1, 127, 1, 1, 16) == 1, "blocks of 1");
  CHECK(f2s_balanced_block(16, 0, 1, 1, 16) == 16, "no points");
  for (long n = 1; n <= 600; ++n)
    for (long t = 1; t <= 33; t += 4) {
      b = f2s_balanced_block(32, n, 1, 1, t);
      CHECK(b >= 1 && b <= 32, "%ld points, %ld threads: %ld", n, t, b);
    }
  if (!failures)
    printf("PASSED\n");
  return failures != 0;
}
)";

class Runtime : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "f2s-rttest-XXXXXX").string();
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }
  void TearDown() override { fs::remove_all(dir); }

  /// Compiles runtime + `program` warning-free; returns the compiler's complaint.
  std::string compile(const std::string &program, const std::string &exe,
                      const std::string &language = "c") {
    std::string source = exe + (language == "c" ? ".c" : ".cpp");
    std::ofstream(dir / source) << runtime_c_text() << "\n" << program;
    Command cc;
    if (language == "c")
      cc.argv = {c_compiler(), "-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread"};
    else
      cc.argv = {"c++", "-std=c++17", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread"};
    cc.argv.insert(cc.argv.end(), {source, "-o", exe});
    cc.cwd = dir.string();
    ProcessResult r = run_process(cc);
    return r.ok() ? std::string() : r.describe() + "\n" + r.err + r.out;
  }

  ProcessResult run(const std::string &exe,
                    std::vector<std::pair<std::string, std::string>> env = {}) {
    Command c;
    c.argv = {(dir / exe).string()};
    c.env = std::move(env);
    c.timeout_s = 120;
    return run_process(c);
  }

  fs::path dir;
};

TEST_F(Runtime, CompilesWarningFreeWhenUnused) {
  EXPECT_EQ(compile(kUnusedProgram, "unused"), "");
  EXPECT_EQ(compile("int main() { return 0; }\n", "unused_cpp", "c++"), "");
}

// A variant tuned at one size and called at another deals its blocks so that
// no thread is left idle (issue 37 §1: 127 planes in blocks of 16 for 16
// threads ran at half speed).
TEST_F(Runtime, BlocksAreTrimmedSoThatEveryThreadGetsAShare) {
  ASSERT_EQ(compile(kBalanceProgram, "balance"), "");
  ProcessResult r = run("balance");
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  EXPECT_EQ(r.out, "PASSED\n");
}

TEST_F(Runtime, PoolSumsAreRightAndThreadsAreReused) {
  ASSERT_EQ(compile(kPoolProgram, "pool"), "");
  ProcessResult r = run("pool");
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  EXPECT_EQ(r.out, "PASSED\n");
}

TEST_F(Runtime, PoolGrowsAndNumThreadsReadsTheEnvironment) {
  ASSERT_EQ(compile(kGrowProgram, "grow"), "");
  ProcessResult r = run("grow", {{"F2S_NUM_THREADS", "7"}});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  EXPECT_EQ(r.out, "7 1 0\n");
  r = run("grow", {{"F2S_NUM_THREADS", "nonsense"}});
  EXPECT_EQ(r.out, "5 1 0\n");
  r = run("grow", {{"F2S_NUM_THREADS", "0"}});
  EXPECT_EQ(r.out, "5 1 0\n");
}

TEST_F(Runtime, PinsThreadsToThePlacementAndSkipsUnavailableCpus) {
  ASSERT_EQ(compile(kPinProgram, "pin"), "");
  ProcessResult r = run("pin");
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  if (r.out.rfind("SKIP", 0) == 0)
    GTEST_SKIP() << r.out;
  EXPECT_EQ(r.out, "PASSED\n");
}

TEST_F(Runtime, PoolThreadsDoNotInheritACallersBinding) {
  ASSERT_EQ(compile(kBoundCallerProgram, "bound"), "");
  ProcessResult r = run("bound");
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  if (r.out.rfind("SKIP", 0) == 0)
    GTEST_SKIP() << r.out;
  EXPECT_EQ(r.out, "1\n");
}

TEST_F(Runtime, APlacementOfAnotherMachineGivesWayToThisMachinesCores) {
  ASSERT_EQ(compile(kForeignPlacementProgram, "foreign"), "");
  ProcessResult r = run("foreign", {{"F2S_VERBOSE", "1"}});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  if (r.out.rfind("SKIP", 0) == 0)
    GTEST_SKIP() << r.out;
  EXPECT_EQ(r.out, "1 1\n"); // each thread pinned to one CPU
  EXPECT_NE(r.err.find("made for a machine with 64 CPUs"), std::string::npos) << r.err;
}

TEST_F(Runtime, PinningIsOffWithF2sPin0) {
  ASSERT_EQ(compile(kPinOffProgram, "pinoff"), "");
  ProcessResult r = run("pinoff", {{"F2S_PIN", "0"}});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  EXPECT_EQ(r.out, "1 1\n");
}

TEST_F(Runtime, RanksOfANodeGetDisjointSlicesOfItsCores) {
  ASSERT_EQ(compile(kRankSliceProgram, "slice"), "");
  ProcessResult r = run("slice");
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  EXPECT_EQ(r.out, "PASSED\n");
}

/// Words of one output line as integers.
std::vector<int> numbers(const std::string &line) {
  std::vector<int> v;
  std::istringstream in(line);
  for (int x; in >> x;)
    v.push_back(x);
  return v;
}

TEST_F(Runtime, UnderMpiEachRankRunsOnItsShareOfTheNode) {
  ASSERT_EQ(compile(kRankShareProgram, "share"), "");
  long cpus = ::sysconf(_SC_NPROCESSORS_CONF);
  // Outside MPI: the tuned count, the whole machine.
  ProcessResult r = run("share");
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  EXPECT_EQ(r.out, "64 0\n");
  // Two ranks unbound (Open MPI's and MPICH's variables): the node split in
  // two, pinned, disjoint, each as many threads as CPUs.
  std::set<int> seen;
  for (int rank = 0; rank < 2; ++rank) {
    for (auto env : {std::vector<std::pair<std::string, std::string>>{
                         {"OMPI_COMM_WORLD_LOCAL_RANK", std::to_string(rank)},
                         {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}},
                     std::vector<std::pair<std::string, std::string>>{
                         {"MPI_LOCALRANKID", std::to_string(rank)}, {"MPI_LOCALNRANKS", "2"}}}) {
      r = run("share", env);
      ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
      std::vector<int> v = numbers(r.out);
      ASSERT_GE(v.size(), 3u) << r.out;
      EXPECT_EQ(v[0], static_cast<int>(v.size()) - 2) << r.out;
      EXPECT_EQ(v[1], cpus >= 2 ? 1 : 0) << r.out;
      if (env.front().first[0] == 'O') {
        for (size_t i = 2; i < v.size(); ++i)
          EXPECT_TRUE(seen.insert(v[i]).second) << "CPU " << v[i] << " given to both ranks";
      }
    }
  }
  if (cpus >= 2) {
    EXPECT_EQ(static_cast<long>(seen.size()), cpus);
  }
  // The user's F2S_NUM_THREADS wins over the share.
  r = run("share", {{"OMPI_COMM_WORLD_LOCAL_RANK", "0"},
                    {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
                    {"F2S_NUM_THREADS", "3"}});
  EXPECT_EQ(numbers(r.out).at(0), 3) << r.out;
  // Bound by the launcher to CPU 0: that CPU, pinned, one thread.
  Command bound;
  bound.argv = {(dir / "share").string(), "bind0"};
  bound.env = {{"OMPI_COMM_WORLD_LOCAL_RANK", "0"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}};
  r = run_process(bound);
  ASSERT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  if (r.out.rfind("SKIP", 0) == 0)
    GTEST_SKIP() << r.out;
  if (cpus >= 2) {
    EXPECT_EQ(r.out, "1 1 0\n");
  }
  // Bound to CPU 0 with more ranks than CPUs: masks that must overlap, so
  // one thread, not pinned.
  bound.env = {{"OMPI_COMM_WORLD_LOCAL_RANK", "1"},
               {"OMPI_COMM_WORLD_LOCAL_SIZE", std::to_string(2 * cpus)}};
  r = run_process(bound);
  EXPECT_EQ(r.out, "1 0 0\n") << r.describe() << r.err;
  // OMP_PROC_BIND set: the caller's binding is OpenMP's, not the rank's:
  // the node is split instead.
  bound.env = {{"OMPI_COMM_WORLD_LOCAL_RANK", "0"},
               {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"},
               {"OMP_PROC_BIND", "true"}};
  r = run_process(bound);
  std::vector<int> v = numbers(r.out);
  ASSERT_GE(v.size(), 3u) << r.out;
  EXPECT_EQ(v[0], static_cast<int>(v.size()) - 2) << r.out;
  if (cpus >= 4) {
    EXPECT_GT(v[0], 1) << r.out;
  }
}

} // namespace
} // namespace f2s
