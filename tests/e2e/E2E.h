// Running the f2stencil binary and the programs built against its output.
#pragma once

#include "harness/Process.h"

#include "common/TestUtil.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace f2s::test {

inline ProcessResult run(std::vector<std::string> argv,
                         std::vector<std::pair<std::string, std::string>> env = {}) {
  Command c;
  c.argv = std::move(argv);
  c.env = std::move(env);
  c.timeout_s = 600;
  return run_process(c);
}

/// A tuning cache that holds the host's bounds (harness/MachineBounds.h)
/// and nothing else, measured once per build of f2stencil by the first test
/// that asks (under a lock: tests run in parallel, each in its own process)
/// and copied by every later one. A tuned run with an empty cache measures
/// them first, with arrays four times the last-level cache on every core: 5
/// to 30 s of CI's 2 cores, for every tuned run of the suite. They only draw
/// the report's roofs and the progress line's share (the tuners never read
/// them), and harness/MachineBoundsTest measures them itself. f2stencil
/// measures them before it refuses a --candidates that matches nothing, and
/// stores them under a key of its own build; when that changes, the seed
/// holds nothing a run can use and the runs measure as without it.
inline std::filesystem::path bounds_seed() {
  namespace fs = std::filesystem;
  fs::path f2s = fs::path(F2S_BINARY_DIR) / "driver" / "f2stencil";
  fs::path dir = fs::path(F2S_BINARY_DIR) / "tests" / "bounds-seed";
  std::error_code error;
  auto stamp = fs::last_write_time(f2s, error).time_since_epoch().count();
  fs::path db = dir / ("tuning-" + std::to_string(stamp) + ".db");
  if (fs::exists(db))
    return db;
  fs::create_directories(dir);
  int lock = ::open((dir / "lock").c_str(), O_CREAT | O_RDWR, 0644);
  if (lock < 0 || ::flock(lock, LOCK_EX) != 0) {
    if (lock >= 0)
      ::close(lock);
    return {};
  }
  if (!fs::exists(db)) {
    fs::path work = dir / ("work-" + std::to_string(::getpid()));
    fs::remove_all(work);
    fs::create_directories(work);
    std::ofstream(work / "jac.f90") << kJacobi2D;
    ProcessResult r = run({f2s.string(), "--target=c", "--candidates", "^$", "--tuning-db",
                           (work / "tuning.db").string(), "-q", "-o", (work / "out").string(),
                           (work / "jac.f90").string()});
    if (r.err.find("matches --candidates") != std::string::npos && fs::exists(work / "tuning.db"))
      fs::rename(work / "tuning.db", db);
    fs::remove_all(work);
  }
  ::close(lock);
  return fs::exists(db) ? db : fs::path();
}

/// A new XDG_CACHE_HOME whose tuning cache holds only the host's bounds
/// (bounds_seed); empty after a failure of the test when it cannot be made.
inline std::string seeded_cache() {
  namespace fs = std::filesystem;
  std::string cache = (fs::temp_directory_path() / "f2s-cache-XXXXXX").string();
  if (!mkdtemp(cache.data())) {
    ADD_FAILURE() << "cannot create a directory like " << cache;
    return "";
  }
  if (fs::path seed = bounds_seed(); !seed.empty()) {
    fs::create_directories(fs::path(cache) / "f2stencil");
    fs::copy_file(seed, fs::path(cache) / "f2stencil" / "tuning.db");
  }
  return cache;
}

/// Runs f2stencil with a tuning cache of its own that holds only the host's
/// bounds (seeded_cache), so that no test depends on what another (or an
/// earlier run of the suite) measured of a kernel; a test of the cache
/// passes --tuning-db itself.
inline ProcessResult f2stencil(std::vector<std::string> args) {
  args.insert(args.begin(), std::string(F2S_BINARY_DIR) + "/driver/f2stencil");
  std::string cache = seeded_cache();
  if (cache.empty())
    return run(args);
  ProcessResult r = run(args, {{"XDG_CACHE_HOME", cache}});
  std::filesystem::remove_all(cache);
  return r;
}

/// Arguments that tune a nest over a few of its CPU variants: the serial
/// and parallel nests and the blocked and chunked ones with one register
/// block (rx=2) and array indexing, not the whole space (up to 98 variants,
/// one compile each: the tuned end-to-end runs spent most of their time
/// compiling harnesses). What these tests check is that a tuned library,
/// through search, harness, verification and packaging, computes what the
/// original does; harness/PassesCorrectnessTest compiles and checks every
/// pass's options, and the operators' tuned tests, the per-size and
/// time-loop tests tune over the whole space. F2S_TEST_FULL_TUNING=1 gives
/// the whole space here too.
/// For runs on targets c and pthreads only: `args` with that restriction.
inline std::vector<std::string> quick_tuning(std::vector<std::string> args) {
  if (const char *full = std::getenv("F2S_TEST_FULL_TUNING"); full && std::string(full) == "1")
    return args;
  args.insert(args.end(), {"--candidates", "^(c/.*|pthreads/parallel.*|pthreads/(blocked|chunked) "
                                           ".*bypass=0 .*indexing=1 .*rx=2 ry=1( rz=1)? .*)$"});
  return args;
}

inline std::string source(const std::string &relative) {
  return std::string(F2S_SOURCE_DIR) + "/" + relative;
}

} // namespace f2s::test
