// run_process and friends: the harness trusts them to survive candidates
// that crash, hang, fork, or print a lot.
#include "harness/Process.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <thread>

#include <sys/types.h>

namespace f2s {
namespace {

Command sh(const std::string &script, double timeout_s = 0) {
  Command c;
  c.argv = {"sh", "-c", script};
  c.timeout_s = timeout_s;
  return c;
}

/// Whether `pid` is still a live process (a zombie waiting for init to reap
/// it counts as dead: it has been killed).
bool alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line))
    return false;
  auto close = line.rfind(')');
  char state = close + 2 < line.size() ? line[close + 2] : 'X';
  return state != 'Z' && state != 'X';
}

bool dies_within(pid_t pid, double seconds) {
  auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (alive(pid)) {
    if (std::chrono::steady_clock::now() > end)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return true;
}

TEST(Process, CapturesOutputAndExitCode) {
  ProcessResult r = run_process(sh("echo out; echo err >&2; exit 3"));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.signal, 0);
  EXPECT_FALSE(r.timed_out);
  EXPECT_EQ(r.out, "out\n");
  EXPECT_EQ(r.err, "err\n");
  EXPECT_EQ(r.describe(), "exit code 3");
}

TEST(Process, SuccessIsOk) {
  ProcessResult r = run_process(sh("true"));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.exit_code, 0);
}

TEST(Process, ReportsTheSignalThatKilledIt) {
  ProcessResult r = run_process(sh("kill -SEGV $$"));
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.signal, 11);
  EXPECT_EQ(r.describe(), "killed by signal 11 (SIGSEGV)");
}

TEST(Process, TimeoutKillsTheChild) {
  Command c;
  c.argv = {"sleep", "100"};
  c.timeout_s = 0.5;
  ProcessResult r = run_process(c);
  EXPECT_TRUE(r.timed_out);
  EXPECT_FALSE(r.ok());
  EXPECT_GE(r.seconds, 0.5);
  EXPECT_LT(r.seconds, 5);
  EXPECT_EQ(r.describe(), "timed out after 0.5 s");
}

TEST(Process, TimeoutKillsGrandchildren) {
  // The shell prints its background child's pid, then waits for it.
  ProcessResult r = run_process(sh("sleep 100 & echo $!; wait", 0.5));
  ASSERT_TRUE(r.timed_out);
  pid_t grandchild = std::atoi(r.out.c_str());
  ASSERT_GT(grandchild, 0) << r.out;
  EXPECT_TRUE(dies_within(grandchild, 5));
}

TEST(Process, DoesNotWaitForABackgroundGrandchild) {
  // The grandchild holds the output pipes open; the child's exit must be
  // enough to end the run, and the stray is killed with the group.
  ProcessResult r = run_process(sh("sleep 100 & echo $!", 30));
  EXPECT_FALSE(r.timed_out);
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_LT(r.seconds, 10);
  pid_t grandchild = std::atoi(r.out.c_str());
  ASSERT_GT(grandchild, 0) << r.out;
  EXPECT_TRUE(dies_within(grandchild, 5));
}

TEST(Process, LargeOutputOnBothStreamsDoesNotDeadlock) {
  // Reading one pipe to its end before the other would deadlock here: the
  // child fills stderr while we wait for stdout, or the other way round.
  ProcessResult r = run_process(sh("head -c 6000000 /dev/zero | tr '\\0' e >&2; "
                                   "head -c 5000000 /dev/zero | tr '\\0' o",
                                   60));
  ASSERT_TRUE(r.ok()) << r.describe();
  EXPECT_EQ(r.out.size(), 5000000u);
  EXPECT_EQ(r.err.size(), 6000000u);
  EXPECT_EQ(r.out.find_first_not_of('o'), std::string::npos);
  EXPECT_EQ(r.err.find_first_not_of('e'), std::string::npos);
}

TEST(Process, MissingProgramIsASpawnFailure) {
  Command c;
  c.argv = {"f2s-no-such-program"};
  ProcessResult r = run_process(c);
  EXPECT_TRUE(r.spawn_failed);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.describe(), "could not start 'f2s-no-such-program': No such file or directory");

  c.argv = {"/nonexistent/f2s"};
  EXPECT_EQ(run_process(c).describe(),
            "could not start '/nonexistent/f2s': No such file or directory");

  EXPECT_TRUE(run_process(Command{}).spawn_failed);
}

TEST(Process, WorkingDirectoryAndEnvironment) {
  Command c = sh("pwd; echo \"$F2S_TEST_VAR\"; echo \"$HOME\"");
  c.cwd = "/";
  c.env = {{"F2S_TEST_VAR", "hello"}, {"HOME", "/nowhere"}};
  ProcessResult r = run_process(c);
  ASSERT_TRUE(r.ok()) << r.describe() << r.err;
  EXPECT_EQ(r.out, "/\nhello\n/nowhere\n");
}

TEST(Process, StdinIsEmpty) {
  ProcessResult r = run_process(sh("cat", 10));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(r.out, "");
}

TEST(Process, RunParallelKeepsInputOrder) {
  std::vector<Command> cmds;
  for (int i = 0; i < 8; ++i)
    cmds.push_back(sh("sleep 0." + std::to_string(8 - i) + "; echo " + std::to_string(i)));
  auto results = run_parallel(cmds, 4);
  ASSERT_EQ(results.size(), cmds.size());
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(results[i].out, std::to_string(i) + "\n");
}

TEST(Process, RunParallelRunsJobsAtOnce) {
  std::vector<Command> cmds(4, sh("sleep 0.5"));
  auto start = std::chrono::steady_clock::now();
  auto results = run_parallel(cmds, 4);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const auto &r : results)
    EXPECT_TRUE(r.ok());
  EXPECT_LT(seconds, 1.5);
}

TEST(Process, RunParallelRunsNoMoreThanJobs) {
  std::vector<Command> cmds(3, sh("sleep 0.3"));
  auto start = std::chrono::steady_clock::now();
  run_parallel(cmds, 1);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(seconds, 0.9);
  EXPECT_TRUE(run_parallel({}, 4).empty());
}

TEST(Process, FindProgram) {
  auto sh_path = find_program("sh");
  ASSERT_TRUE(sh_path.has_value());
  EXPECT_EQ(sh_path->substr(sh_path->size() - 3), "/sh");
  EXPECT_FALSE(find_program("f2s-no-such-program").has_value());
  EXPECT_EQ(find_program("/bin/sh"), std::optional<std::string>("/bin/sh"));
  EXPECT_FALSE(find_program("/nonexistent/sh").has_value());
  EXPECT_FALSE(find_program("").has_value());
}

TEST(Process, CCompilerFollowsCC) {
  const char *saved = std::getenv("CC");
  std::string old = saved ? saved : "";
  ::setenv("CC", "my-cc", 1);
  EXPECT_EQ(c_compiler(), "my-cc");
  ::unsetenv("CC");
  EXPECT_EQ(c_compiler(), "cc");
  if (saved)
    ::setenv("CC", old.c_str(), 1);
}

// docs/running.md gives the flags a build of --emit=sources must keep, by
// hand: every flag the library is compiled with appears there.
TEST(Process, TheDocumentedFlagsAreTheLibrarys) {
  std::ifstream in(std::string(F2S_SOURCE_DIR) + "/docs/running.md");
  ASSERT_TRUE(in) << "docs/running.md";
  std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  size_t at = doc.find("CFLAGS=\"");
  ASSERT_NE(at, std::string::npos) << "no CFLAGS=\" in docs/running.md";
  at += 8;
  std::istringstream cflags(doc.substr(at, doc.find('"', at) - at));
  std::set<std::string> documented;
  for (std::string word; cflags >> word;)
    documented.insert(word);
  for (const std::string &flag : c_rounding_flags())
    EXPECT_TRUE(documented.count(flag)) << flag << " is missing from docs/running.md's CFLAGS";
}

} // namespace
} // namespace f2s
