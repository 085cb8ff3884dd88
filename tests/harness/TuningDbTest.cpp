// The tuning cache: keys that are the same on every run and machine, stored
// measurements read back in order, --retune, resuming a session from stored
// measurements, and a database it cannot use turned into a warning.
#include "harness/TuningDb.h"

#include "ast/IRPrinter.h"
#include "harness/CudaToolkit.h"
#include "harness/CudaTuner.h"
#include "strategy/GpuEngine.h"
#include "strategy/MachineModel.h"

#include "common/TestUtil.h"

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include <fstream>
#include <limits>

namespace f2s {
namespace {

namespace fs = std::filesystem;

TEST(TuningDb, HashIsFnv1a64) {
  // The published FNV-1a 64 test vectors: any run on any machine agrees.
  EXPECT_EQ(stable_hash(""), "cbf29ce484222325");
  EXPECT_EQ(stable_hash("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(stable_hash("foobar"), "85944171f73967e8");
}

TEST(TuningDb, KeyFollowsTheIrTargetsMachineFlagsAndSize) {
  test::ScratchDir dir;
  const CpuModel machine = cpu_model_from_synthetic("pack:1 core:2 pu:1");
  Kernel k = test::lower_text(dir, test::kJacobi2D);
  ProblemSize size = problem_size_for(k, {20, 12});
  TuningKey key = cpu_tuning_key(k, {"c", "pthreads"}, machine, {"-march=native"}, size);
  // Lowering the same source again gives the same key.
  EXPECT_EQ(cpu_tuning_key(test::lower_text(dir, test::kJacobi2D), {"c", "pthreads"}, machine,
                           {"-march=native"}, size)
                .id(),
            key.id());
  EXPECT_EQ(key.ir_hash, stable_hash(print_kernel(k)));
  EXPECT_EQ(key.target, "c,pthreads");
  EXPECT_NE(key.compiler.find("-march=native"), std::string::npos) << key.compiler;
  EXPECT_NE(key.machine.find(machine.description), std::string::npos) << key.machine;

  std::string changed = test::kJacobi2D;
  changed.replace(changed.find("0.25d0"), 6, "0.20d0");
  Kernel k2 = test::lower_text(dir, changed);
  std::vector<std::string> ids = {
      cpu_tuning_key(k2, {"c", "pthreads"}, machine, {"-march=native"}, size).id(),
      cpu_tuning_key(k, {"pthreads"}, machine, {"-march=native"}, size).id(),
      cpu_tuning_key(k, {"c", "pthreads"}, cpu_model_from_synthetic("pack:1 core:4 pu:1"),
                     {"-march=native"}, size)
          .id(),
      cpu_tuning_key(k, {"c", "pthreads"}, machine, {"-march=native", "-fsanitize=address"}, size)
          .id(),
      cpu_tuning_key(k, {"c", "pthreads"}, machine, {"-march=native"},
                     problem_size_for(k, {20, 13}))
          .id()};
  for (const std::string &id : ids)
    EXPECT_NE(id, key.id());
}

TuningKey some_key(const std::string &size = "8,8") {
  return {"jac", "0123456789abcdef", "c,pthreads", "a machine", "a compiler", size};
}

CandidateResult result(const std::string &description, CandidateStatus status, double seconds) {
  CandidateResult r;
  r.description = description;
  r.status = status;
  r.seconds = seconds;
  r.gflops = 1.5;
  r.detail = status == CandidateStatus::Verified ? "" : "it broke";
  return r;
}

std::vector<std::string> warnings;
void collect(const std::string &w) {
  warnings.push_back(w);
}

TEST(TuningDb, StoresEveryMeasurementInOrderAndTheFinishedSearch) {
  test::ScratchDir dir;
  fs::path path = dir.path() / "sub" / "tuning.db";
  warnings.clear();
  {
    auto db = TuningDb::open(path, collect);
    ASSERT_TRUE(db);
    auto log = db->log(some_key(), false);
    EXPECT_TRUE(log->stored().empty());
    EXPECT_EQ(log->finished_search(), "");
    log->record(result("c/serial", CandidateStatus::Verified, 2e-3));
    log->record(result("pthreads/parallel t=2", CandidateStatus::Crashed, 0));
    log->record(result("pthreads/parallel t=1", CandidateStatus::Verified, 1e-3), {{"h2d_s", 0.5}});
    // Another key's rows stay apart.
    db->log(some_key("9,9"), false)->record(result("c/serial", CandidateStatus::Verified, 5));
  }
  // A process that stopped before finish(): everything it recorded is there.
  auto db = TuningDb::open(path, collect);
  ASSERT_TRUE(db);
  auto log = db->log(some_key(), false);
  ASSERT_EQ(log->stored().size(), 3u);
  EXPECT_EQ(log->stored()[0].result.description, "c/serial");
  EXPECT_EQ(log->stored()[0].result.seconds, 2e-3);
  EXPECT_EQ(log->stored()[0].result.gflops, 1.5);
  EXPECT_EQ(log->stored()[1].result.status, CandidateStatus::Crashed);
  EXPECT_EQ(log->stored()[1].result.detail, "it broke");
  EXPECT_EQ(log->stored()[2].result.description, "pthreads/parallel t=1");
  EXPECT_EQ(log->stored()[2].extra.value("h2d_s", 0.0), 0.5);
  EXPECT_EQ(log->finished_search(), "");
  log->finish("model-guided", true);
  auto again = TuningDb::open(path, collect)->log(some_key(), false);
  EXPECT_EQ(again->finished_search(), "model-guided");
  EXPECT_TRUE(again->budget_exhausted());
  EXPECT_EQ(again->stored().size(), 3u);
  EXPECT_TRUE(warnings.empty());
}

TEST(TuningDb, RetuneForgetsOnlyThatKey) {
  test::ScratchDir dir;
  fs::path path = dir.path() / "tuning.db";
  {
    auto db = TuningDb::open(path, collect);
    auto log = db->log(some_key(), false);
    log->record(result("c/serial", CandidateStatus::Verified, 1));
    log->finish("exhaustive", false);
    db->log(some_key("9,9"), false)->record(result("c/serial", CandidateStatus::Verified, 5));
  }
  auto db = TuningDb::open(path, collect);
  auto log = db->log(some_key(), true);
  EXPECT_TRUE(log->stored().empty());
  EXPECT_EQ(log->finished_search(), "");
  log->record(result("pthreads/parallel t=2", CandidateStatus::Verified, 0.5));
  auto reread = TuningDb::open(path, collect)->log(some_key(), false);
  ASSERT_EQ(reread->stored().size(), 1u);
  EXPECT_EQ(reread->stored()[0].result.description, "pthreads/parallel t=2");
  EXPECT_EQ(db->log(some_key("9,9"), false)->stored().size(), 1u);
}

TEST(TuningDb, AnUnusableFileIsAWarningNotAnError) {
  test::ScratchDir dir;
  warnings.clear();
  std::string garbage = dir.write("garbage.db", std::string(4096, 'x'));
  EXPECT_FALSE(TuningDb::open(garbage, collect));
  // A directory where the file should be, and a parent that is a file.
  fs::create_directories(dir.path() / "a-directory.db");
  EXPECT_FALSE(TuningDb::open(dir.path() / "a-directory.db", collect));
  EXPECT_FALSE(TuningDb::open(fs::path(garbage) / "tuning.db", collect));
  ASSERT_EQ(warnings.size(), 3u);
  for (const std::string &w : warnings) {
    EXPECT_EQ(w.rfind("Cannot use the tuning database '", 0), 0u) << w;
    EXPECT_NE(w.find("--tuning-db"), std::string::npos) << w;
  }
}

TEST(TuningDb, ANewerSchemaIsLeftAlone) {
  test::ScratchDir dir;
  fs::path path = dir.path() / "tuning.db";
  TuningDb::open(path, collect).reset();
  // What a later f2stencil with other tables would have written.
  SQLite::Database(path.string(), SQLite::OPEN_READWRITE).exec("PRAGMA user_version = 99");
  warnings.clear();
  EXPECT_FALSE(TuningDb::open(path, collect));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("newer f2stencil"), std::string::npos) << warnings[0];
}

TEST(TuningDb, DefaultPathFollowsXdg) {
  const char *saved_xdg = std::getenv("XDG_CACHE_HOME");
  const char *saved_home = std::getenv("HOME");
  std::string xdg = saved_xdg ? saved_xdg : "", home = saved_home ? saved_home : "";
  setenv("XDG_CACHE_HOME", "/x/cache", 1);
  setenv("HOME", "/home/u", 1);
  EXPECT_EQ(default_tuning_db_path(), fs::path("/x/cache/f2stencil/tuning.db"));
  // A relative XDG_CACHE_HOME is to be ignored (XDG base directory spec).
  setenv("XDG_CACHE_HOME", "relative", 1);
  EXPECT_EQ(default_tuning_db_path(), fs::path("/home/u/.cache/f2stencil/tuning.db"));
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  EXPECT_EQ(default_tuning_db_path(), fs::path());
  saved_xdg ? setenv("XDG_CACHE_HOME", xdg.c_str(), 1) : unsetenv("XDG_CACHE_HOME");
  saved_home ? setenv("HOME", home.c_str(), 1) : unsetenv("HOME");
}

// A session given a log counts what it holds as measured: measuring those
// candidates again measures nothing, and a search continues from them.
TEST(TuningDb, ASessionResumesFromTheStoredMeasurements) {
  test::ScratchDir dir;
  const CpuModel machine = cpu_model_from_synthetic("pack:1 core:2 pu:1");
  Kernel k = test::lower_text(dir, test::kJacobi2D);
  ProblemSize size = problem_size_for(k, {20, 12});
  SearchSpace space = enumerate_cpu(k, analyze(k), size.extents, {{"c", "pthreads"}, &machine});
  std::vector<VariantCode> code = generate_variants(k, space);
  ASSERT_GT(space.candidates.size(), 3u);
  auto db = TuningDb::open(dir.path() / "tuning.db", collect);
  TuningKey key = cpu_tuning_key(k, {"c", "pthreads"}, machine, {}, size);
  {
    auto log = db->log(key, false);
    log->record(result(space.describe(space.candidates[0]), CandidateStatus::Verified, 3e-3));
    log->record(result(space.describe(space.candidates[2]), CandidateStatus::WrongResult, 0));
    log->record(result("a candidate of an older space", CandidateStatus::Verified, 1e-9));
  }
  TuneOptions o;
  o.work_dir = dir.path() / "work";
  o.reps = 1;
  o.log = db->log(key, false);
  TuningSession session(k, space, code, size, o);
  EXPECT_EQ(session.measurements().size(), 2u);
  EXPECT_EQ(session.measurements().at(0), 3e-3);
  EXPECT_EQ(session.measurements().at(2), std::numeric_limits<double>::infinity());
  EXPECT_EQ(session.measure({0, 2}), 0u);
  EXPECT_EQ(session.measure({0, 1}), 1u);
  KernelTuning t = session.result();
  EXPECT_EQ(t.reused, 2u);
  ASSERT_EQ(t.results.size(), 3u);
  EXPECT_EQ(t.results[2].index, 1u);
  // The new measurement was stored as it was made.
  auto stored = db->log(key, false)->stored();
  ASSERT_EQ(stored.size(), 4u);
  EXPECT_EQ(stored[3].result.description, space.describe(space.candidates[1]));
}

// The CUDA tuner takes what the log holds (with its transfer times) and
// builds nothing for it: with every candidate stored, no GPU is needed.
TEST(TuningDb, CudaCandidatesStoredAreNotBuilt) {
  if (!find_nvcc())
    GTEST_SKIP() << "nvcc not found";
  test::ScratchDir dir;
  Kernel k = test::lower_text(dir, test::kJacobi2D);
  ProblemSize size = problem_size_for(k, {64, 48});
  GpuModel gpu = gpu_model_h100();
  SearchSpace space;
  enumerate_cuda(space, k, analyze(k), size.extents, {&gpu, 12, true});
  ASSERT_FALSE(space.candidates.empty());
  std::vector<VariantCode> code = generate_variants(k, space);
  auto db = TuningDb::open(dir.path() / "tuning.db", collect);
  TuningKey key = cuda_tuning_key(k, gpu, *find_nvcc(), size, false);
  EXPECT_EQ(key.machine, gpu.description());
  {
    auto log = db->log(key, false);
    for (size_t i = 0; i < space.candidates.size(); ++i)
      log->record(result(space.describe(space.candidates[i]), CandidateStatus::Verified,
                         1e-3 * static_cast<double>(i + 1)),
                  {{"h2d_s", 0.25}, {"d2h_s", 0.5}});
  }
  TuneOptions o;
  o.work_dir = dir.path() / "work";
  o.log = db->log(key, false);
  std::vector<CandidateResult> results;
  std::map<size_t, CudaCandidateTimes> times;
  EXPECT_EQ(tune_cuda(k, space, code, size, o, results, &times), space.candidates.size());
  ASSERT_EQ(results.size(), space.candidates.size());
  for (size_t i = 0; i < results.size(); ++i) {
    EXPECT_EQ(results[i].index, i);
    EXPECT_EQ(results[i].seconds, 1e-3 * static_cast<double>(i + 1));
    EXPECT_EQ(times.at(i).h2d_s, 0.25);
    EXPECT_EQ(times.at(i).d2h_s, 0.5);
  }
  EXPECT_FALSE(fs::exists(dir.path() / "work" / "cuda" / "reference.o"));
}

} // namespace
} // namespace f2s
