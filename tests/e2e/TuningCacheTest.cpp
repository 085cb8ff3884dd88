// The tuning cache through the f2stencil binary: a second identical run
// reuses the choice without measuring, --retune measures again, a changed
// kernel is tuned afresh, and a run killed mid-tuning resumes where it was.
#include "E2E.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace f2s {
namespace {

namespace fs = std::filesystem;

// A smoother as a legacy ocean model writes it: fixed coefficients, the
// grid's halo of one left to the caller.
constexpr const char *kSmoother = R"(subroutine smooth_eta(im, jm, eta, etaf)
  implicit none
  integer, intent(in) :: im, jm
  real(8), intent(in) :: eta(0:im+1, 0:jm+1)
  real(8), intent(inout) :: etaf(0:im+1, 0:jm+1)
  integer :: i, j
  !$f2s stencil name(smooth) tune_size(40, 30)
  do j = 1, jm
    do i = 1, im
      etaf(i,j) = 0.5d0*eta(i,j) + 0.125d0*(eta(i-1,j) + eta(i+1,j) + eta(i,j-1) + eta(i,j+1))
    end do
  end do
end subroutine smooth_eta
)";

struct Tuned {
  ProcessResult process;
  nlohmann::json kernel;             ///< the tuning record's entry
  std::vector<std::string> measured; ///< candidates measured, from the progress lines
};

/// The candidates a run's progress lines report measured ("'smooth' [7]
/// <candidate>: 0.004 ms, ..."), in order.
std::vector<std::string> measured_in(const std::string &err) {
  std::vector<std::string> out;
  std::istringstream in(err);
  for (std::string line; std::getline(in, line);) {
    size_t at = line.find("'smooth' [");
    if (at == std::string::npos)
      continue;
    size_t start = line.find("] ", at) + 2;
    out.push_back(line.substr(start, line.find(": ", start) - start));
  }
  return out;
}

struct CacheFixture {
  test::ScratchDir dir;
  std::string source = dir.write("smooth.f90", kSmoother);
  std::string db = seeded_db();

  /// The cache in the scratch directory, holding only the host's bounds
  /// (test::bounds_seed), so that the first run measures the kernel only.
  std::string seeded_db() {
    std::filesystem::path path = dir.path() / "cache" / "tuning.db";
    std::filesystem::create_directories(path.parent_path());
    if (std::filesystem::path seed = test::bounds_seed(); !seed.empty())
      std::filesystem::copy_file(seed, path);
    return path.string();
  }

  /// Tuned for c and pthreads (a --target in `extra` replaces them), 1 rep,
  /// over test::quick_tuning's variants.
  std::vector<std::string> args(const std::string &out, std::vector<std::string> extra = {}) {
    std::vector<std::string> a = {"--reps=1", "--tuning-db", db, "-o", (dir.path() / out).string()};
    if (std::none_of(extra.begin(), extra.end(),
                     [](const std::string &e) { return e.starts_with("--target="); }))
      a.push_back("--target=c,pthreads");
    a.insert(a.end(), extra.begin(), extra.end());
    a.push_back(source);
    // Every tuned run of a test over the same few variants: what is cached
    // and reused does not depend on how many there are.
    return std::find(extra.begin(), extra.end(), "--no-tune") == extra.end() ? test::quick_tuning(a)
                                                                             : a;
  }
  Tuned tune(const std::string &out, std::vector<std::string> extra = {}) {
    Tuned r;
    r.process = test::f2stencil(args(out, extra));
    EXPECT_TRUE(r.process.ok()) << r.process.describe() << "\n" << r.process.err;
    std::ifstream rec(dir.path() / out / "f2s_smooth.json");
    if (rec)
      r.kernel = nlohmann::json::parse(rec)["kernels"][0];
    r.measured = measured_in(r.process.err);
    return r;
  }
};

TEST(TuningCache, ASecondRunReusesTheChoiceAndRetuneMeasuresAgain) {
  CacheFixture f;
  Tuned first = f.tune("first");
  ASSERT_FALSE(first.measured.empty()) << first.process.err;
  EXPECT_EQ(first.kernel["search"]["reused"], false);
  EXPECT_EQ(first.kernel["search"]["reused_measurements"], 0);

  Tuned second = f.tune("second");
  EXPECT_TRUE(second.measured.empty()) << second.process.err;
  EXPECT_NE(second.process.err.find("'smooth' reused: " + std::to_string(first.measured.size()) +
                                    " measurement(s) from the tuning database"),
            std::string::npos)
      << second.process.err;
  EXPECT_EQ(second.kernel["search"]["reused"], true);
  EXPECT_EQ(second.kernel["search"]["reused_measurements"], first.measured.size());
  EXPECT_EQ(second.kernel["chosen"], first.kernel["chosen"]);
  EXPECT_EQ(second.kernel["candidates"], first.kernel["candidates"]);
  // The library is the same library: the same C, built again.
  auto text = [&](const std::string &out) {
    std::ifstream in(f.dir.path() / out / "f2s_smooth.c");
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  EXPECT_FALSE(text("second").empty());
  EXPECT_EQ(text("second"), text("first"));
  std::ifstream report(f.dir.path() / "second" / "f2s_smooth.txt");
  std::string r(std::istreambuf_iterator<char>(report), {});
  EXPECT_NE(r.find("reused from the tuning database"), std::string::npos) << r;

  Tuned again = f.tune("again", {"--retune"});
  EXPECT_FALSE(again.measured.empty()) << again.process.err;
  EXPECT_EQ(again.kernel["search"]["reused_measurements"], 0);
  EXPECT_EQ(again.process.err.find("reused"), std::string::npos) << again.process.err;
  // --retune replaced the stored measurements: the next run reuses those.
  Tuned after = f.tune("after");
  EXPECT_TRUE(after.measured.empty()) << after.process.err;
  EXPECT_EQ(after.kernel["candidates"], again.kernel["candidates"]);
}

TEST(TuningCache, AChangedKernelOrTargetIsTunedAfresh) {
  CacheFixture f;
  Tuned first = f.tune("first");
  ASSERT_FALSE(first.measured.empty());
  std::string changed = kSmoother;
  changed.replace(changed.find("0.5d0"), 5, "0.6d0");
  std::ofstream(f.source) << changed;
  Tuned other_ir = f.tune("other_ir");
  EXPECT_FALSE(other_ir.measured.empty()) << other_ir.process.err;
  EXPECT_EQ(other_ir.kernel["search"]["reused_measurements"], 0);
  std::ofstream(f.source) << kSmoother;
  Tuned other_target = f.tune("other_target", {"--target=pthreads"});
  EXPECT_FALSE(other_target.measured.empty()) << other_target.process.err;
  EXPECT_EQ(other_target.kernel["search"]["reused_measurements"], 0);
  // --no-tune neither reads nor writes the cache.
  ProcessResult untuned = test::f2stencil(f.args("untuned", {"--no-tune"}));
  EXPECT_TRUE(untuned.ok()) << untuned.err;
  EXPECT_EQ(untuned.err.find("reused"), std::string::npos) << untuned.err;
}

/// Runs f2stencil with `args` and SIGKILLs it as soon as its progress shows
/// `measurements` candidates measured; returns the candidates it showed.
std::vector<std::string> run_and_kill(const std::vector<std::string> &args, size_t measurements,
                                      const fs::path &tmp) {
  int pipefd[2];
  if (pipe(pipefd) != 0)
    return {};
  std::vector<std::string> argv = args;
  argv.insert(argv.begin(), std::string(F2S_BINARY_DIR) + "/driver/f2stencil");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(pipefd[1], 2);
    close(pipefd[0]);
    close(pipefd[1]);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    // The killed run's harness directory is left behind: in the test's.
    setenv("TMPDIR", tmp.c_str(), 1);
    std::vector<char *> c;
    for (std::string &a : argv)
      c.push_back(a.data());
    c.push_back(nullptr);
    execv(c[0], c.data());
    _exit(127);
  }
  close(pipefd[1]);
  std::string err;
  std::vector<std::string> seen;
  char buf[4096];
  ssize_t n;
  while (seen.size() < measurements && (n = read(pipefd[0], buf, sizeof buf)) > 0) {
    err.append(buf, static_cast<size_t>(n));
    seen = measured_in(err.substr(0, err.rfind('\n') + 1));
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  close(pipefd[0]);
  EXPECT_TRUE(WIFSIGNALED(status)) << "f2stencil ended before it was killed:\n" << err;
  return seen;
}

TEST(TuningCache, AKilledTuningResumesWithoutMeasuringAgain) {
  CacheFixture f;
  std::vector<std::string> killed = run_and_kill(f.args("killed"), 3, f.dir.path());
  ASSERT_GE(killed.size(), 3u);
  Tuned resumed = f.tune("resumed");
  // Every measurement reported before the kill was stored (and any made
  // before the signal arrived), and none is made again.
  size_t reused = resumed.kernel["search"]["reused_measurements"];
  EXPECT_GE(reused, killed.size());
  EXPECT_NE(resumed.process.err.find("'smooth' resuming from " + std::to_string(reused) +
                                     " measurement(s) stored in the tuning database"),
            std::string::npos)
      << resumed.process.err;
  std::set<std::string> before(killed.begin(), killed.end());
  for (const std::string &c : resumed.measured)
    EXPECT_FALSE(before.count(c)) << c << " was measured again";
  const nlohmann::json &cands = resumed.kernel["candidates"];
  ASSERT_EQ(cands.size(), reused + resumed.measured.size());
  for (size_t i = 0; i < killed.size(); ++i)
    EXPECT_EQ(cands[i]["id"], killed[i]);
  EXPECT_EQ(resumed.kernel["search"]["reused"], false);
  // The search went on to its end: a third run measures nothing.
  Tuned third = f.tune("third");
  EXPECT_TRUE(third.measured.empty()) << third.process.err;
  EXPECT_EQ(third.kernel["chosen"], resumed.kernel["chosen"]);
}

} // namespace
} // namespace f2s
