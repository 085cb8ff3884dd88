// The runtime as generated libraries get it: runtime_c_text() pasted at the
// top of a C file, compiled with the system compiler, run as a program.
#include "runtime/RuntimeText.h"

#include "harness/Process.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include <stdlib.h>

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

TEST_F(Runtime, PinningIsOffWithF2sPin0) {
  ASSERT_EQ(compile(kPinOffProgram, "pinoff"), "");
  ProcessResult r = run("pinoff", {{"F2S_PIN", "0"}});
  EXPECT_TRUE(r.ok()) << r.describe() << "\n" << r.out << r.err;
  EXPECT_EQ(r.out, "1 1\n");
}

} // namespace
} // namespace f2s
