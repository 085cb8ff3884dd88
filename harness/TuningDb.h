// The tuning cache: every measurement the tuners make, kept in a small SQLite
// database so that a build does not re-tune what it tuned before, and an
// interrupted tuning resumes from what it had measured. docs/tuning-cache.md
// is the user's guide.
#pragma once

#include "harness/Tuner.h"
#include "strategy/GpuModel.h"
#include "strategy/MachineModel.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace SQLite {
class Database;
}

namespace f2s {

/// FNV-1a, 64 bits, as 16 lower-case hex digits: the same for the same text
/// on every run and machine (std::hash promises neither).
std::string stable_hash(std::string_view text);

/// What must be equal for a stored measurement to stand for a new one. Each
/// field is text a user can read in the database.
struct TuningKey {
  std::string kernel;     ///< the kernel's name (informative: the IR names it too)
  std::string ir_hash;    ///< stable_hash of the kernel's printed IR
  std::string target;     ///< the targets tuned together: "c,pthreads", "cuda"
  std::string machine;    ///< CPU model and topology, or GPU name and SMs
  std::string compiler;   ///< f2stencil's build, the compiler's version and the flags
  std::string size;       ///< the extents and scalar values tuned at
  std::string id() const; ///< stable_hash of every field
};

/// The key of a CPU tuning of `k` for `targets` (tuned together in one search
/// space) on `machine`, with harnesses built by c_compiler() and `cflags`.
TuningKey cpu_tuning_key(const Kernel &k, const std::vector<std::string> &targets,
                         const CpuModel &machine, const std::vector<std::string> &cflags,
                         const ProblemSize &size);

/// The key of a CUDA tuning of `k` on `gpu`, built by `nvcc` with
/// nvcc_flags(); `exact` tunings leave out candidates that reassociate.
TuningKey cuda_tuning_key(const Kernel &k, const GpuModel &gpu, const std::string &nvcc,
                          const ProblemSize &size, bool exact);

/// The keys of the machine's measured bounds (harness/MachineBounds.h): the
/// CPU's with the probe's compiler and flags, the GPU's with nvcc.
TuningKey cpu_bounds_key(const CpuModel &machine, const std::vector<std::string> &flags);
TuningKey gpu_bounds_key(const GpuModel &gpu, const std::string &nvcc);

/// $XDG_CACHE_HOME/f2stencil/tuning.db, else ~/.cache/f2stencil/tuning.db;
/// empty when neither variable is set.
std::filesystem::path default_tuning_db_path();

/// The stored rows of one key, which a tuner reads once and appends to as it
/// measures. Each record() is its own transaction, so a process killed at
/// any point keeps every measurement it reported.
class TuningLog {
public:
  struct Stored {
    CandidateResult result; ///< description, status, times; index and candidate unset
    nlohmann::json extra;   ///< what a tuner stored beside (CUDA: transfer times)
  };
  /// The measurements stored under the key, in the order they were made.
  const std::vector<Stored> &stored() const { return stored_; }
  /// The search that ran to its end under this key ("" while none did), and
  /// whether its budget cut it short.
  const std::string &finished_search() const { return finished_; }
  bool budget_exhausted() const { return budget_exhausted_; }

  void record(const CandidateResult &r, const nlohmann::json &extra = nullptr);
  void finish(const std::string &search, bool budget_exhausted);

private:
  friend class TuningDb;
  void write(const std::function<void()> &statement);

  std::shared_ptr<SQLite::Database> db_;
  std::function<void(const std::string &)> warn_;
  std::shared_ptr<bool> failed_; ///< shared by the logs of one database
  std::string id_;
  std::vector<Stored> stored_;
  std::string finished_;
  bool budget_exhausted_ = false;
  long next_seq_ = 0;
};

/// The database file. A file that cannot be opened, created or read (a
/// directory without write permission, another program's file, a newer
/// f2stencil's schema) gives one warning and no database: the tuners then
/// measure everything, as without a cache, because a cache must never be
/// the reason a build fails. A write that fails later (a full disk) warns
/// once and stops writing for the rest of the run.
class TuningDb {
public:
  /// Opens or creates the database at `path` (and its directory); nullptr
  /// after calling `warn` with the reason when it cannot be used.
  static std::unique_ptr<TuningDb> open(const std::filesystem::path &path,
                                        std::function<void(const std::string &)> warn);

  /// The rows stored under `key`; with `retune`, none: those stored are
  /// deleted first, and the new measurements replace them.
  std::shared_ptr<TuningLog> log(const TuningKey &key, bool retune);

  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
  std::shared_ptr<SQLite::Database> db_;
  std::function<void(const std::string &)> warn_;
  std::shared_ptr<bool> failed_ = std::make_shared<bool>(false);
};

} // namespace f2s
