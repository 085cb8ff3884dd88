// Child processes for the harness. Every child is spawned in a process group
// of its own, so that a time limit or a leftover background process can be
// dealt with by killing the whole group rather than one pid: a candidate that
// hangs may have forked helpers, and a compiler driver always has.
#include "harness/Process.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace f2s {

namespace {

using Clock = std::chrono::steady_clock;

/// A file descriptor closed on scope exit.
class Fd {
public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd &) = delete;
  Fd &operator=(const Fd &) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset(int fd = -1) {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = fd;
  }

private:
  int fd_ = -1;
};

/// The environment of the child: ours with `extra` set on top. Built before
/// spawning because nothing may allocate between fork and exec.
std::vector<std::string> child_environment(const Command &cmd) {
  std::vector<std::string> env;
  for (char **e = environ; e && *e; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('='));
    bool overridden = false;
    for (const auto &[key, value] : cmd.env)
      overridden = overridden || key == name;
    if (!overridden)
      env.push_back(std::move(entry));
  }
  for (const auto &[key, value] : cmd.env)
    env.push_back(key + "=" + value);
  return env;
}

std::vector<char *> c_strings(std::vector<std::string> &strings) {
  std::vector<char *> out;
  for (auto &s : strings)
    out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

/// Appends what is readable now; returns false at end of file or on error.
bool drain(int fd, std::string &into) {
  char buf[65536];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      into.append(buf, static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      return true;
    return false;
  }
}

ProcessResult spawn_failure(const Command &cmd, int err) {
  ProcessResult r;
  r.spawn_failed = true;
  std::string what = cmd.argv.empty() ? std::string() : cmd.argv[0];
  r.err = "could not start '" + what + "': " + std::strerror(err);
  return r;
}

/// Whether the child has exited, without reaping it: while it is a zombie its
/// pid, and so its process group id, cannot be reused, which keeps the final
/// kill(-pid) aimed at our group only.
bool has_exited(pid_t pid) {
  siginfo_t info{};
  if (::waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) != 0)
    return errno == ECHILD;
  return info.si_pid == pid;
}

} // namespace

std::string ProcessResult::describe() const {
  if (spawn_failed)
    return err.substr(0, err.find('\n'));
  if (timed_out) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "timed out after %g s", std::round(seconds * 10) / 10);
    return buf;
  }
  if (signal != 0) {
    const char *abbrev = ::sigabbrev_np(signal);
    return "killed by signal " + std::to_string(signal) +
           (abbrev ? " (SIG" + std::string(abbrev) + ")" : std::string());
  }
  return "exit code " + std::to_string(exit_code);
}

ProcessResult run_process(const Command &cmd) {
  if (cmd.argv.empty())
    return spawn_failure(cmd, EINVAL);
  auto start = Clock::now();

  // O_CLOEXEC so that children spawned at the same time by other threads do
  // not inherit our write ends and hold our pipes open past our child's exit.
  int out_pipe[2], err_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0)
    return spawn_failure(cmd, errno);
  Fd out_r(out_pipe[0]), out_w(out_pipe[1]);
  if (::pipe2(err_pipe, O_CLOEXEC) != 0)
    return spawn_failure(cmd, errno);
  Fd err_r(err_pipe[0]), err_w(err_pipe[1]);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_w.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_w.get(), STDERR_FILENO);
  if (!cmd.cwd.empty())
    posix_spawn_file_actions_addchdir_np(&actions, cmd.cwd.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // A group of its own (pgid = its pid), and default signal dispositions.
  sigset_t all_signals;
  sigfillset(&all_signals);
  sigset_t no_signals;
  sigemptyset(&no_signals);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigdefault(&attr, &all_signals);
  posix_spawnattr_setsigmask(&attr, &no_signals);

  std::vector<std::string> argv_strings = cmd.argv;
  std::vector<char *> argv = c_strings(argv_strings);
  std::vector<std::string> env_strings;
  std::vector<char *> envp;
  if (!cmd.env.empty()) {
    env_strings = child_environment(cmd);
    envp = c_strings(env_strings);
  }
  pid_t pid = -1;
  int spawn_err = ::posix_spawnp(&pid, argv[0], &actions, &attr, argv.data(),
                                 cmd.env.empty() ? environ : envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (spawn_err != 0)
    return spawn_failure(cmd, spawn_err);
  out_w.reset();
  err_w.reset();
  ::fcntl(out_r.get(), F_SETFL, O_NONBLOCK);
  ::fcntl(err_r.get(), F_SETFL, O_NONBLOCK);

  // A pidfd makes the child's exit one more thing poll() waits for; where the
  // kernel has none, poll() wakes up every few milliseconds to ask instead.
  // (Through syscall(): glibc 2.36's <sys/pidfd.h> lacks extern "C".)
  Fd exit_fd(static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)));
  auto deadline = start + std::chrono::duration_cast<Clock::duration>(
                              std::chrono::duration<double>(cmd.timeout_s));

  ProcessResult r;
  bool out_open = true, err_open = true, exited = false;
  while (!exited) {
    int wait_ms = -1;
    if (cmd.timeout_s > 0) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) {
        r.timed_out = true;
        break;
      }
      wait_ms = static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30));
    }
    if (exit_fd.get() < 0)
      wait_ms = wait_ms < 0 ? 10 : std::min(wait_ms, 10);
    pollfd fds[3] = {{out_open ? out_r.get() : -1, POLLIN, 0},
                     {err_open ? err_r.get() : -1, POLLIN, 0},
                     {exit_fd.get(), POLLIN, 0}};
    int n = ::poll(fds, 3, wait_ms);
    if (n < 0 && errno != EINTR)
      break;
    if (out_open && fds[0].revents)
      out_open = drain(out_r.get(), r.out);
    if (err_open && fds[1].revents)
      err_open = drain(err_r.get(), r.err);
    exited = exit_fd.get() >= 0 ? (fds[2].revents != 0) : has_exited(pid);
  }

  if (exited) {
    // What it wrote before exiting is all in the pipes now; take it without
    // waiting for an end of file a background grandchild could withhold.
    if (out_open)
      drain(out_r.get(), r.out);
    if (err_open)
      drain(err_r.get(), r.err);
  }
  // On a timeout this ends the child and everything it started; after a
  // normal exit it ends stray background processes, which no compiler or
  // candidate should leave behind.
  ::kill(-pid, SIGKILL);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.signal = WTERMSIG(status);
  return r;
}

std::vector<ProcessResult> run_parallel(const std::vector<Command> &cmds, int jobs) {
  std::vector<ProcessResult> results(cmds.size());
  size_t workers = std::min(cmds.size(), static_cast<size_t>(std::max(jobs, 1)));
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < cmds.size(); i = next++)
      results[i] = run_process(cmds[i]);
  };
  std::vector<std::thread> threads;
  for (size_t t = 1; t < workers; ++t)
    threads.emplace_back(work);
  work();
  for (auto &t : threads)
    t.join();
  return results;
}

std::optional<std::string> find_program(const std::string &name) {
  auto executable = [](const std::string &path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
           ::access(path.c_str(), X_OK) == 0;
  };
  if (name.empty())
    return std::nullopt;
  if (name.find('/') != std::string::npos)
    return executable(name) ? std::optional<std::string>(name) : std::nullopt;
  // As execvp does: an unset PATH means the system default, an empty entry
  // means the current directory.
  std::string path;
  if (const char *env = std::getenv("PATH")) {
    path = env;
  } else {
    path.resize(::confstr(_CS_PATH, nullptr, 0));
    ::confstr(_CS_PATH, path.data(), path.size());
    path.resize(std::strlen(path.c_str()));
  }
  size_t begin = 0;
  for (;;) {
    size_t end = path.find(':', begin);
    std::string entry = path.substr(begin, end == std::string::npos ? end : end - begin);
    std::string candidate = (entry.empty() ? std::string(".") : entry) + "/" + name;
    if (executable(candidate))
      return candidate;
    if (end == std::string::npos)
      return std::nullopt;
    begin = end + 1;
  }
}

std::string first_line(const std::string &text) {
  size_t end = text.find('\n');
  return text.substr(0, std::min<size_t>(end, 300));
}

std::string c_compiler() {
  const char *cc = std::getenv("CC");
  return cc && *cc ? std::string(cc) : std::string("cc");
}

std::vector<std::string> compiler_words() {
  std::istringstream in(c_compiler());
  std::vector<std::string> words;
  for (std::string w; in >> w;)
    words.push_back(w);
  return words;
}

const std::vector<std::string> &c_rounding_flags() {
  static const std::vector<std::string> flags = [] {
    std::vector<std::string> f = {"-ffp-contract=off", "-fopenmp-simd"};
    for (const char *fn : {"sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh",
                           "tanh", "exp", "log", "log10", "pow"})
      for (const char *suffix : {"", "f"})
        f.push_back(std::string("-fno-builtin-") + fn + suffix);
    return f;
  }();
  return flags;
}

} // namespace f2s
