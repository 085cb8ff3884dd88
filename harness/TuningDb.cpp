#include "harness/TuningDb.h"

#include "ast/IRPrinter.h"
#include "harness/CudaToolkit.h"
#include "harness/Process.h"

#include <SQLiteCpp/SQLiteCpp.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <utility>

#include <elf.h>
#include <link.h>

namespace f2s {

namespace fs = std::filesystem;

namespace {

/// Bumped when the tables change; a database with a larger version was
/// written by a newer f2stencil and is left alone.
constexpr int kSchemaVersion = 1;

// WAL: a reader never waits for the tuner that writes, and with
// synchronous=NORMAL a commit survives the process being killed (only a
// power cut may lose the last ones), at a fraction of FULL's fsyncs.
constexpr const char *kSchema = R"(
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
PRAGMA foreign_keys = ON;
CREATE TABLE IF NOT EXISTS tunings (
  id TEXT PRIMARY KEY,
  kernel TEXT NOT NULL,
  ir_hash TEXT NOT NULL,
  target TEXT NOT NULL,
  machine TEXT NOT NULL,
  compiler TEXT NOT NULL,
  size TEXT NOT NULL,
  finished_search TEXT NOT NULL DEFAULT '',
  budget_exhausted INTEGER NOT NULL DEFAULT 0,
  updated TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS measurements (
  tuning TEXT NOT NULL REFERENCES tunings(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  candidate TEXT NOT NULL,
  status TEXT NOT NULL,
  seconds REAL NOT NULL,
  max_rel_err REAL NOT NULL,
  gflops REAL NOT NULL,
  gbps REAL NOT NULL,
  detail TEXT NOT NULL,
  extra TEXT NOT NULL,
  PRIMARY KEY (tuning, candidate)
);
)";

std::string now_utc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string join(const std::vector<std::string> &parts, const char *sep) {
  std::string s;
  for (const std::string &p : parts)
    s += (s.empty() ? "" : sep) + p;
  return s;
}

/// The GNU build ID of f2stencil's executable (a hash of its contents, which
/// the linker writes), so that a rebuilt f2stencil, whose generated code may
/// differ, does not reuse what the previous one measured; "" without one.
std::string build_id() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info *info, size_t, void *out) -> int {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr) &ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE)
            continue;
          auto *at = reinterpret_cast<const char *>(info->dlpi_addr + ph.p_vaddr);
          const char *end = at + ph.p_memsz;
          while (at + sizeof(ElfW(Nhdr)) <= end) {
            auto *note = reinterpret_cast<const ElfW(Nhdr) *>(at);
            const char *name = at + sizeof(ElfW(Nhdr));
            const unsigned char *desc =
                reinterpret_cast<const unsigned char *>(name + ((note->n_namesz + 3) & ~3u));
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 &&
                std::memcmp(name, "GNU", 4) == 0) {
              auto *s = static_cast<std::string *>(out);
              for (unsigned k = 0; k < note->n_descsz; ++k) {
                char hex[3];
                std::snprintf(hex, sizeof hex, "%02x", desc[k]);
                *s += hex;
              }
              return 1;
            }
            at = reinterpret_cast<const char *>(desc) + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 1; // the first object is the executable: look no further
      },
      &id);
  return id;
}

/// "f2stencil 0.1 (build ...)", then the first line `compiler --version`
/// prints (which names the compiler and its version).
std::string tool_identity(const std::string &compiler) {
  static std::map<std::string, std::string> known;
  if (auto it = known.find(compiler); it != known.end())
    return it->second;
  std::string id = "f2stencil " F2S_VERSION;
  if (std::string b = build_id(); !b.empty())
    id += " (build " + b + ")";
  Command version;
  version.argv = {compiler, "--version"};
  version.timeout_s = 60;
  ProcessResult p = run_process(version);
  const std::string &said = p.out.empty() ? p.err : p.out;
  std::string first = said.substr(0, said.find('\n'));
  id += "; " + compiler + ": " + (p.ok() ? first : "version unknown");
  return known[compiler] = id;
}

std::string size_text(const ProblemSize &size) {
  std::string s;
  for (int64_t e : size.extents)
    s += (s.empty() ? "" : ",") + std::to_string(e);
  if (!size.scalar_values.empty())
    s += "; scalars " + join(size.scalar_values, ",");
  return s;
}

CandidateStatus status_from_name(const std::string &name) {
  for (CandidateStatus s :
       {CandidateStatus::Verified, CandidateStatus::WrongResult, CandidateStatus::Crashed,
        CandidateStatus::TimedOut, CandidateStatus::BuildFailed})
    if (name == status_name(s))
      return s;
  throw std::runtime_error("unknown candidate status '" + name + "'");
}

} // namespace

std::string stable_hash(std::string_view text) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string TuningKey::id() const {
  // Fields joined by a byte none of them holds, so that no two keys join
  // to the same text.
  return stable_hash(join({kernel, ir_hash, target, machine, compiler, size}, "\x1f"));
}

TuningKey cpu_tuning_key(const Kernel &k, const std::vector<std::string> &targets,
                         const CpuModel &machine, const std::vector<std::string> &cflags,
                         const ProblemSize &size) {
  TuningKey key;
  key.kernel = k.name;
  key.ir_hash = stable_hash(print_kernel(k));
  key.target = join(targets, ",");
  key.machine =
      (machine.cpu_name.empty() ? "unknown CPU" : machine.cpu_name) + "; " + machine.description;
  key.compiler = tool_identity(c_compiler()) + "; flags " + join(cflags, " ");
  key.size = size_text(size);
  return key;
}

// A machine's bounds are stored as a tuning of no kernel: one row, whose
// GB/s and GFlop/s are the machine's, under a key of the machine and the
// probe's compiler.
TuningKey cpu_bounds_key(const CpuModel &machine, const std::vector<std::string> &flags) {
  TuningKey key;
  key.kernel = "(machine bounds)";
  key.target = "cpu";
  key.machine =
      (machine.cpu_name.empty() ? "unknown CPU" : machine.cpu_name) + "; " + machine.description;
  key.compiler = tool_identity(c_compiler()) + "; flags " + join(flags, " ");
  return key;
}

TuningKey gpu_bounds_key(const GpuModel &gpu, const std::string &nvcc) {
  TuningKey key;
  key.kernel = "(machine bounds)";
  key.target = "cuda";
  key.machine = gpu.description();
  key.compiler = tool_identity(nvcc);
  return key;
}

TuningKey cuda_tuning_key(const Kernel &k, const GpuModel &gpu, const std::string &nvcc,
                          const ProblemSize &size, bool exact) {
  TuningKey key;
  key.kernel = k.name;
  key.ir_hash = stable_hash(print_kernel(k));
  key.target = exact ? "cuda, exact" : "cuda";
  key.machine = gpu.description();
  key.compiler = tool_identity(nvcc) + "; flags " + join(nvcc_flags(), " ");
  key.size = size_text(size);
  return key;
}

fs::path default_tuning_db_path() {
  // The XDG base directory specification ignores a relative XDG_CACHE_HOME.
  const char *xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && fs::path(xdg).is_absolute())
    return fs::path(xdg) / "f2stencil" / "tuning.db";
  const char *home = std::getenv("HOME");
  if (home && *home)
    return fs::path(home) / ".cache" / "f2stencil" / "tuning.db";
  return {};
}

std::unique_ptr<TuningDb> TuningDb::open(const fs::path &path,
                                         std::function<void(const std::string &)> warn) {
  auto db = std::make_unique<TuningDb>();
  db->path_ = path;
  db->warn_ = std::move(warn);
  try {
    if (path.has_parent_path())
      fs::create_directories(path.parent_path());
    db->db_ = std::make_shared<SQLite::Database>(path.string(),
                                                 SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    // Builds run in parallel (make -j) share the default database: a writer
    // waits for another's short transaction instead of failing.
    db->db_->setBusyTimeout(10000);
    int version = db->db_->execAndGet("PRAGMA user_version").getInt();
    if (version > kSchemaVersion)
      throw std::runtime_error("it was written by a newer f2stencil (schema " +
                               std::to_string(version) + ")");
    db->db_->exec(kSchema);
    db->db_->exec("PRAGMA user_version = " + std::to_string(kSchemaVersion));
  } catch (const std::exception &e) {
    db->warn_("Cannot use the tuning database '" + path.string() + "' (" + e.what() +
              "), so everything is measured again; delete the file or choose another with "
              "--tuning-db");
    return nullptr;
  }
  return db;
}

std::shared_ptr<TuningLog> TuningDb::log(const TuningKey &key, bool retune) {
  auto log = std::make_shared<TuningLog>();
  log->db_ = db_;
  log->warn_ = warn_;
  log->failed_ = failed_;
  log->id_ = key.id();
  if (*failed_)
    return log;
  try {
    SQLite::Transaction tx(*db_);
    if (retune) {
      SQLite::Statement del(*db_, "DELETE FROM measurements WHERE tuning = ?");
      del.bind(1, log->id_);
      del.exec();
    }
    SQLite::Statement up(*db_, R"(
      INSERT INTO tunings (id, kernel, ir_hash, target, machine, compiler, size, updated)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (id) DO UPDATE SET updated = excluded.updated)");
    int n = 0;
    for (const std::string &v : {log->id_, key.kernel, key.ir_hash, key.target, key.machine,
                                 key.compiler, key.size, now_utc()})
      up.bind(++n, v);
    up.exec();
    if (retune) {
      SQLite::Statement unfinish(
          *db_, "UPDATE tunings SET finished_search = '', budget_exhausted = 0 WHERE id = ?");
      unfinish.bind(1, log->id_);
      unfinish.exec();
    }
    SQLite::Statement fin(*db_,
                          "SELECT finished_search, budget_exhausted FROM tunings WHERE id = ?");
    fin.bind(1, log->id_);
    if (fin.executeStep()) {
      log->finished_ = fin.getColumn(0).getString();
      log->budget_exhausted_ = fin.getColumn(1).getInt() != 0;
    }
    SQLite::Statement rows(*db_, R"(
      SELECT seq, candidate, status, seconds, max_rel_err, gflops, gbps, detail, extra
      FROM measurements WHERE tuning = ? ORDER BY seq)");
    rows.bind(1, log->id_);
    while (rows.executeStep()) {
      TuningLog::Stored s;
      log->next_seq_ = rows.getColumn(0).getInt64() + 1;
      s.result.description = rows.getColumn(1).getString();
      s.result.status = status_from_name(rows.getColumn(2).getString());
      s.result.seconds = rows.getColumn(3).getDouble();
      s.result.max_rel_err = rows.getColumn(4).getDouble();
      s.result.gflops = rows.getColumn(5).getDouble();
      s.result.gbps = rows.getColumn(6).getDouble();
      s.result.detail = rows.getColumn(7).getString();
      s.extra = nlohmann::json::parse(rows.getColumn(8).getString(), nullptr, false);
      log->stored_.push_back(std::move(s));
    }
    tx.commit();
  } catch (const std::exception &e) {
    *failed_ = true;
    log->stored_.clear();
    log->finished_.clear();
    warn_("Cannot read the tuning database '" + path_.string() + "' (" + e.what() +
          "), so everything is measured again; delete the file or choose another with "
          "--tuning-db");
  }
  return log;
}

void TuningLog::write(const std::function<void()> &statement) {
  if (*failed_)
    return;
  try {
    statement();
  } catch (const std::exception &e) {
    *failed_ = true;
    warn_(std::string("Cannot write to the tuning database (") + e.what() +
          "); the rest of this run's measurements are not stored");
  }
}

void TuningLog::record(const CandidateResult &r, const nlohmann::json &extra) {
  write([&] {
    // One statement is one transaction: committed before the next
    // candidate runs. A candidate measured again (a confirmation) keeps its
    // place in the order measured: a later run replays the same record.
    SQLite::Statement ins(*db_, R"(
      INSERT INTO measurements
        (tuning, seq, candidate, status, seconds, max_rel_err, gflops, gbps, detail, extra)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (tuning, candidate) DO UPDATE SET
        status = excluded.status, seconds = excluded.seconds, max_rel_err = excluded.max_rel_err,
        gflops = excluded.gflops, gbps = excluded.gbps, detail = excluded.detail,
        extra = excluded.extra)");
    ins.bind(1, id_);
    ins.bind(2, static_cast<int64_t>(next_seq_));
    ins.bind(3, r.description);
    ins.bind(4, status_name(r.status));
    ins.bind(5, r.seconds);
    ins.bind(6, r.max_rel_err);
    ins.bind(7, r.gflops);
    ins.bind(8, r.gbps);
    ins.bind(9, r.detail);
    ins.bind(10, extra.dump());
    ins.exec();
    ++next_seq_;
  });
}

void TuningLog::finish(const std::string &search, bool budget_exhausted) {
  write([&] {
    SQLite::Statement up(*db_, "UPDATE tunings SET finished_search = ?, budget_exhausted = ?, "
                               "updated = ? WHERE id = ?");
    up.bind(1, search);
    up.bind(2, budget_exhausted ? 1 : 0);
    up.bind(3, now_utc());
    up.bind(4, id_);
    up.exec();
  });
  finished_ = search;
  budget_exhausted_ = budget_exhausted;
}

} // namespace f2s
