#include "driver/Pipeline.h"

#include "ast/Analysis.h"
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "ast/TimeTiling.h"
#include "codegen/CMpiPrinter.h"
#include "codegen/CSizeDispatch.h"
#include "codegen/Interfaces.h"
#include "frontend/Directives.h"
#include "frontend/Frontend.h"
#include "harness/LibraryBuilder.h"
#include "harness/Package.h"
#include "harness/Tuner.h"
#include "harness/TuningDb.h"
#include "report/Report.h"
#include "rewrite/CallSummaries.h"
#include "rewrite/Rewrite.h"
#include "strategy/MachineModel.h"
#include "targets/Targets.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

#include <unistd.h>

namespace f2s {

namespace {

namespace fs = std::filesystem;

/// Whether the terminal's last line is a live line (live_progress) still
/// open: the next plain line starts below it, which keeps its last state.
bool live_line_open = false;

void progress(const DriverOptions &o, const std::string &line) {
  if (o.quiet)
    return;
  if (live_line_open)
    std::cerr << "\n";
  live_line_open = false;
  std::cerr << "f2stencil: " << line << "\n";
}

/// A kernel's tuning progress redrawn in place (harness/Progress.h), on a
/// terminal only: in a pipe, a log or with -q each candidate gets a plain
/// line, with no control characters.
std::function<void(const std::string &)> live_progress(const DriverOptions &o) {
  if (o.quiet || !isatty(fileno(stderr)))
    return {};
  return [](const std::string &line) {
    std::cerr << "\r\033[Kf2stencil: " << line << std::flush;
    live_line_open = true;
  };
}

/// An error in how f2stencil was invoked, not in the Fortran.
UserError usage_error(const std::string &message) {
  return UserError(SourceLoc{}, message);
}

bool is_fortran_name(const std::string &s) {
  if (s.empty() || s.size() > 63 || !std::isalpha(static_cast<unsigned char>(s[0])))
    return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
      return false;
  return true;
}

std::string default_lib_name(const std::string &first_file) {
  std::string name = "f2s_";
  for (char c : fs::path(first_file).stem().string())
    name += std::isalnum(static_cast<unsigned char>(c)) ? static_cast<char>(std::tolower(c)) : '_';
  return name;
}

// ------------------------------------------------------------ parse, lower

/// The kernels of the regions that lowered (and the time loops, whose sweeps
/// are among them); the problems of the others go to `problems`, to be
/// reported with the analysis's.
LoweredFiles parse_and_lower(const DriverOptions &o, Problems &problems) {
  FrontendOptions fe;
  fe.include_dirs = o.include_dirs;
  fe.defines = o.defines;
  if (!o.form.empty())
    fe.fixed_form = o.form == "fixed";
  fe.default_real_kind = o.default_real_kind;
  fe.double_precision_kind = o.double_precision_kind;
  fe.outline_host_units = o.rewrite && o.data_regions;
  fe.implicit_copies = o.rewrite && o.data_regions;
  LoweredFiles lowered = lower_files_collecting(o.files, fe);
  problems.add_all(lowered.problems);
  lowered.problems.clear();
  return lowered;
}

// ------------------------------------------------------------------ rewrite

std::optional<std::string> read_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Said when no file has a region left and some were written by --rewrite
/// (each region kept as a `!f2s rewritten:` comment above its call): running
/// f2stencil on its own output is nothing to do, not an error.
std::optional<std::string> already_rewritten(const DriverOptions &o) {
  std::string said;
  for (const std::string &f : o.files) {
    std::optional<std::string> text = read_text(f);
    if (!text)
      return std::nullopt; // the front end says why
    // Fixed form's column-1 spellings are a superset of free form's.
    if (!find_sentinels(*text, true).empty())
      return std::nullopt;
    size_t calls = rewritten_directive_lines(*text).size();
    if (calls)
      said += std::string(said.empty() ? "" : "; ") + "'" + f + "' was written by --rewrite (" +
              std::to_string(calls) + (calls == 1 ? " region is" : " regions are") + " a call now)";
  }
  if (said.empty())
    return std::nullopt;
  return "nothing to do: no file has a '!$f2s stencil' region left: " + said +
         "; run f2stencil on the original sources to build the library";
}

/// Every file, its regions replaced by calls of the library `lib_name`, by
/// file name (DIR/src/<name>); files without a region as they are, so that a
/// build can compile DIR/src/ in place of the originals. Every file's
/// problems are thrown at once, before anything is tuned or written.
std::vector<std::pair<std::string, std::string>>
rewrite_sources(const DriverOptions &o, const std::vector<Kernel> &kernels,
                const std::vector<TimeLoop> &time_loops, const std::string &lib_name,
                const std::map<std::string, HostUnits> &host_units) {
  // Data regions where the library can keep arrays on a GPU.
  bool data_regions =
      o.data_regions && std::find(o.targets.begin(), o.targets.end(), "cuda") != o.targets.end();
  std::vector<std::pair<std::string, std::string>> sources;
  std::map<std::string, std::string> named;
  Problems problems;
  // Each file's calls; a time loop's sweeps are inside its call. An
  // implicit copy whose text cannot be replaced stays the host's, for every
  // file's analysis.
  std::map<std::string, std::vector<RegionCall>> calls;
  for (const std::string &f : o.files) {
    std::vector<RegionCall> file_calls;
    for (const Kernel &k : kernels)
      if (k.source.file == f && k.time_loop.empty())
        file_calls.push_back(region_call(k));
    for (const TimeLoop &t : time_loops)
      if (t.signature.source.file == f)
        file_calls.push_back(region_call(t.signature));
    std::optional<std::string> text = read_text(f);
    calls[f] = text ? replaceable_calls(*text, f, file_calls, lib_name) : file_calls;
  }
  // What every procedure of every file does, for the regions of callers
  // (a main program in one file calling procedures with calls in another).
  std::optional<CallSummaries> summaries;
  if (data_regions) {
    std::map<std::string, std::vector<const RegionCall *>> by_file;
    for (const auto &[f, file_calls] : calls)
      for (const RegionCall &c : file_calls)
        by_file[f].push_back(&c);
    summaries.emplace(host_units, by_file, lib_name);
    std::map<std::string, std::string> texts;
    for (const std::string &f : o.files)
      if (std::optional<std::string> text = read_text(f))
        texts[f] = std::move(*text);
    for (const std::string &w : settle_self_updates(*summaries, texts, lib_name))
      if (!o.quiet)
        std::cerr << w << "\n";
  }
  for (const std::string &f : o.files) {
    std::string name = fs::path(f).filename().string();
    if (auto [it, fresh] = named.emplace(name, f); !fresh)
      throw usage_error("--rewrite writes each file to src/ under its own name, and '" +
                        it->second + "' and '" + f + "' have the same; rename one of them");
    std::optional<std::string> text = read_text(f);
    if (!text)
      throw usage_error("Cannot read '" + f + "' again to rewrite it");
    auto units = host_units.find(f);
    bool with_units = data_regions && units != host_units.end();
    if (calls[f].empty() && !with_units) {
      sources.emplace_back(name, *text);
      continue;
    }
    problems.attempt([&] {
      RewrittenSource r =
          rewrite_source(*text, f, calls[f], lib_name, with_units ? &units->second : nullptr,
                         summaries ? &*summaries : nullptr);
      for (const std::string &w : r.warnings)
        if (!o.quiet)
          std::cerr << w << "\n";
      sources.emplace_back(name, std::move(r.text));
    });
  }
  problems.throw_if_any(o.files);
  return sources;
}

// ------------------------------------------------------------------ analyse

/// The targets of the run, and the names asked for, in the order asked for.
struct RunTargets {
  std::vector<std::unique_ptr<Target>> targets;
  std::vector<std::string> names;
};

/// The procedures the library's Fortran module declares for kernel `k`
/// (harness/Package.cpp's entry points, and the BIND(C) interfaces behind
/// their wrappers): `K`, `K_<target>`, `K_first_touch` with a target that
/// touches first, and each of those with `_explicit` when the kernel needs a
/// wrapper.
std::vector<std::string> module_procedures(const Kernel &k, const RunTargets &targets) {
  std::vector<std::string> names = {k.name};
  for (const std::string &t : targets.names)
    names.push_back(k.name + "_" + t);
  if (std::any_of(targets.targets.begin(), targets.targets.end(),
                  [](const auto &t) { return t->first_touch(); }))
    names.push_back(k.name + "_first_touch");
  if (needs_wrapper(k))
    for (size_t i = 0, n = names.size(); i < n; ++i)
      names.push_back(names[i] + "_explicit");
  return names;
}

/// The module must compile: no procedure has the name of one of its own
/// arguments, and no name is longer than Fortran allows.
void check_module_names(const Kernel &k, const RunTargets &targets, Problems &problems) {
  std::vector<std::string> procedures = module_procedures(k, targets);
  for (const Variable &v : k.args) {
    if (v.name == k.name)
      problems.add({k.loc, "Kernel '" + k.name +
                               "' has the name of one of its arguments, which its procedure in "
                               "the library's module cannot have; choose another name with "
                               "name(...)"});
    else if (std::find(procedures.begin(), procedures.end(), v.name) != procedures.end())
      problems.add({k.loc, "Argument '" + v.name + "' of kernel '" + k.name +
                               "' has the name of the library's procedure '" + v.name +
                               "'; choose another kernel name with name(...)"});
  }
  const std::string *longest = &procedures.front();
  for (const std::string &n : procedures)
    longest = n.size() > longest->size() ? &n : longest;
  if (longest->size() > kMaxFortranName)
    problems.add({k.loc, "Kernel name '" + k.name +
                             "' is too long: the library's module would "
                             "declare '" +
                             *longest + "', " + std::to_string(longest->size()) +
                             " characters where Fortran allows " + std::to_string(kMaxFortranName) +
                             "; choose a name of at most " +
                             std::to_string(kMaxFortranName - (longest->size() - k.name.size())) +
                             " characters with name(...)"});
}

/// Whether two Fortran names are one name: Fortran ignores case, so
/// --lib=LAPLACIAN names the module as a kernel 'laplacian' is named.
bool same_fortran_name(const std::string &a, const std::string &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

/// A module procedure named like the module makes a module gfortran
/// rejects with a page of errors: refused up front, with the two fixes.
void check_not_library_name(const std::string &name, const std::string &what,
                            const std::string &lib_name, const SourceLoc &loc, Problems &problems) {
  if (same_fortran_name(name, lib_name))
    problems.add({loc, what + " '" + name + "' is also the library's module name '" + lib_name +
                           "'; choose another with name(...) or another --lib"});
}

/// Every kernel must be safe to run in parallel, or with one loop in order
/// (recorded in the kernel), and every name the library exports must be
/// unique; each problem goes to `problems`.
void check_kernels(std::vector<Kernel> &kernels, const std::string &lib_name,
                   const RunTargets &targets, bool mpi, Problems &problems) {
  std::map<std::string, const Kernel *> exported;
  // The C symbols are <lib>_<name>: a kernel must not be named like what the
  // CUDA target exports per library (<lib>_data_enter, ...).
  std::set<std::string> reserved;
  if (std::find(targets.names.begin(), targets.names.end(), "cuda") != targets.names.end())
    for (const char *what :
         {"enter", "update_host", "update_device", "exit", "delete", "transfers"})
      reserved.insert(std::string("data_") + what);
  for (Kernel &k : kernels) {
    Ordering order = find_ordering(k);
    if (order.refusal)
      problems.add(*order.refusal);
    k.ordered = order.ordered;
    check_module_names(k, targets, problems);
    if (mpi)
      if (HaloPlan plan = plan_halo_exchange(k, analyze(k)); plan.refusal)
        problems.add({k.loc, "Kernel '" + k.name + "' cannot have an MPI halo exchange: " +
                                 *plan.refusal + "; or build without --mpi"});
    // Every name the library exports for the kernel: its procedure, one per
    // target, its first-touch procedure, the C query of per-size variants,
    // and the MPI procedures with the boxes K_mpi computes.
    std::vector<std::string> names = {
        k.name,          k.name + "_first_touch", k.name + "_tuned_size", k.name + "_exchange",
        k.name + "_mpi", k.name + "_box",         k.name + "_box_tuned",  k.name + "_box_cuda"};
    for (const std::string &t : targets.names)
      names.push_back(k.name + "_" + t);
    for (const std::string &n : names) {
      if (reserved.count(n))
        problems.add({k.loc, "Kernel name '" + n +
                                 "' is the name of the CUDA library's procedure '" + lib_name +
                                 "_" + n + "'; choose another with name(...)"});
      check_not_library_name(n, "Kernel name", lib_name, k.loc, problems);
      auto [it, fresh] = exported.emplace(n, &k);
      if (!fresh)
        problems.add({k.loc, "The library would export '" + n + "' twice (also for '" +
                                 it->second->name + "' at " + it->second->loc.str() +
                                 "); rename one kernel with name(...)"});
    }
  }
}

/// A time loop's procedures (T, T_<target>) are exported beside the
/// kernels' names: each must be unique, and must compile in the module.
/// What --time-tile and --time-tile-form ask of every target.
TimeTileAsk time_tile_ask(const DriverOptions &o) {
  TimeTileAsk ask;
  ask.forced = o.time_tile == "auto" || o.time_tile == "off" ? 0 : std::stol(o.time_tile);
  ask.form = o.time_tile_form;
  return ask;
}

/// How each time loop runs on each target that tiles in time: tiled where
/// --time-tile forces it or tuning measured it faster, step by step
/// otherwise. Loops that cannot be tiled say why (--emit=ir, the record).
std::vector<TimeTileChoice>
choose_time_tiles_for(const DriverOptions &o, const std::vector<TimeLoop> &loops,
                      const std::vector<Kernel> &kernels, const RunTargets &targets,
                      const std::vector<KernelBuild> &builds, const TargetRun &run) {
  std::vector<TimeTileChoice> out;
  if (o.time_tile == "off")
    return out;
  std::vector<const Kernel *> all;
  for (const Kernel &k : kernels)
    all.push_back(&k);
  for (const TimeLoop &t : loops) {
    TimeTiling tiling = plan_time_tiling(t, all);
    if (!tiling.plan)
      continue;
    for (const std::unique_ptr<Target> &target : targets.targets)
      if (std::optional<TimeTileChoice> c =
              target->time_tile_choice(t, *tiling.plan, builds, time_tile_ask(o), run)) {
        progress(o, "time loop '" + t.signature.name + "' on " + c->target + ": " +
                        (c->tiled ? "tiled in time" : "step by step") + " (" + c->why + ")");
        out.push_back(std::move(*c));
      }
  }
  return out;
}

/// --emit=ir, after a loop's plan: what each target that tiles in time
/// does with it before anything is measured (the record has what tuning
/// chose): the tile --time-tile=N forces, and the model's bytes a point and
/// step for the steps and for that tile.
std::string print_time_tile_intent(const DriverOptions &o, const TimeLoop &t,
                                   const TimeTilePlan &plan, const std::vector<Kernel> &kernels,
                                   const RunTargets &targets, const CpuModel &machine) {
  std::vector<KernelBuild> builds;
  for (const Kernel &k : kernels)
    builds.push_back({k, {}, 0, std::nullopt, {}});
  TargetRun untuned;
  untuned.tune = false;
  untuned.build = false;
  untuned.host = &machine;
  const TimeTileAsk ask = time_tile_ask(o);
  std::ostringstream out;
  for (const std::unique_ptr<Target> &target : targets.targets)
    out << target->describe_time_tiling(plan, ask);
  for (const std::unique_ptr<Target> &target : targets.targets) {
    std::optional<TimeTileChoice> c = target->time_tile_choice(t, plan, builds, ask, untuned);
    if (!c)
      continue;
    out << "  " << c->target << ": ";
    if (c->tiled) {
      // A forced streaming tile on the CPU has extents of 0: sized at the call.
      const bool sized = std::find(c->tune.begin() + 1, c->tune.end(), 0) != c->tune.end();
      out << "tiled in time (" << c->why << "), T=" << c->tune[0] << " tile ";
      for (size_t d = 1; d < c->tune.size() && !sized; ++d)
        out << (d > 1 ? "x" : "") << c->tune[d];
      if (sized)
        out << "sized at the call";
    } else if (o.time_tile == "off") {
      out << "step by step (--time-tile=off)";
    } else {
      out << "tuning measures the steps against tiles of both forms (untuned: the steps)";
    }
    std::ostringstream bytes;
    bytes.precision(3);
    bytes << "; model bytes a point and step: the steps " << c->steps_bytes;
    if (c->tiled && c->tiled_bytes > 0)
      bytes << ", the tile " << c->tiled_bytes;
    out << bytes.str() << "\n";
  }
  return out.str();
}

void check_time_loops(const std::vector<TimeLoop> &loops, const std::vector<Kernel> &kernels,
                      const std::string &lib_name, const RunTargets &targets, Problems &problems) {
  std::map<std::string, SourceLoc> exported;
  for (const Kernel &k : kernels)
    for (const std::string &n : module_procedures(k, targets))
      exported.emplace(n, k.loc);
  for (const TimeLoop &t : loops) {
    const Kernel &k = t.signature;
    std::vector<std::string> names = {k.name};
    for (const std::string &n : targets.names)
      names.push_back(k.name + "_" + n);
    if (needs_wrapper(k))
      for (size_t i = 0, n = names.size(); i < n; ++i)
        names.push_back(names[i] + "_explicit");
    for (const std::string &n : names)
      check_not_library_name(n, "Time loop name", lib_name, k.loc, problems);
    for (const std::string &n : names)
      if (auto [it, fresh] = exported.emplace(n, k.loc); !fresh)
        problems.add({k.loc, "The library would export '" + n + "' twice (also for the " +
                                 "kernel at " + it->second.str() +
                                 "); rename one of them with name(...)"});
    for (const Variable &v : k.args)
      if (std::find(names.begin(), names.end(), v.name) != names.end())
        problems.add({k.loc, "Time loop '" + k.name +
                                 "' uses a variable named like its "
                                 "procedure '" +
                                 v.name + "'; choose another name with name(...)"});
    for (const std::string &n : names)
      if (n.size() > kMaxFortranName) {
        problems.add({k.loc, "Time loop name '" + k.name +
                                 "' is too long: the library's module would declare '" + n +
                                 "', longer than Fortran's " + std::to_string(kMaxFortranName) +
                                 " characters; choose a shorter name with name(...)"});
        break;
      }
  }
}

// -------------------------------------------- enumerate, transform, tune

/// The sizes to tune `k` at, each x first: --tune-size's of the nest's depth,
/// else the clause's, in the order of their working sets (the library's
/// dispatch order). --tune-size may list sizes of several depths, one set for
/// the 3D kernels of a multigrid code and one for its 2D face copies; a nest
/// of a depth it does not list keeps its clause (check_tune_size_depths says
/// so once per depth).
std::vector<std::vector<int64_t>> tuning_sizes(const Kernel &k, const DriverOptions &o) {
  const size_t depth = static_cast<size_t>(k.loop_depth());
  std::vector<std::vector<int64_t>> sizes;
  for (const std::vector<int64_t> &s : o.tune_sizes)
    if (s.size() == depth)
      sizes.push_back(s);
  // A time loop's boundary sweep takes the last values of the time loop's
  // own sizes, as its clause's: of the least depth above its own.
  if (sizes.empty() && !k.time_loop.empty()) {
    size_t deeper = SIZE_MAX;
    for (const std::vector<int64_t> &s : o.tune_sizes)
      if (s.size() > depth)
        deeper = std::min(deeper, s.size());
    for (const std::vector<int64_t> &s : o.tune_sizes)
      if (s.size() == deeper) {
        std::vector<int64_t> last(s.end() - static_cast<long>(depth), s.end());
        if (std::find(sizes.begin(), sizes.end(), last) == sizes.end())
          sizes.push_back(last);
      }
  }
  if (sizes.empty())
    sizes = k.tune_sizes.empty() ? std::vector<std::vector<int64_t>>{k.tune_size} : k.tune_sizes;
  // Every grid element a point touches counts alike at every size, so the
  // points order the sizes as their working sets do.
  auto points = [](const std::vector<int64_t> &s) {
    double p = 1;
    for (int64_t e : s)
      p *= static_cast<double>(e);
    return p;
  };
  std::stable_sort(sizes.begin(), sizes.end(),
                   [&](const auto &a, const auto &b) { return points(a) < points(b); });
  // Sizes a sweep took the last values of may meet in one working set, which
  // the library could never tell apart.
  sizes.erase(std::unique(sizes.begin(), sizes.end(),
                          [&](const auto &a, const auto &b) { return points(a) == points(b); }),
              sizes.end());
  return sizes;
}

/// `k` to be tuned at `extents` alone.
Kernel at_size(const Kernel &k, const std::vector<int64_t> &extents) {
  Kernel one = k;
  one.tune_size = extents;
  one.tune_sizes.clear();
  return one;
}

/// The tuning cache, when tuning (--no-tune neither reads nor writes it:
/// its library is the default variant whatever was measured); null, after a
/// warning, when it cannot be used.
std::unique_ptr<TuningDb> open_tuning_db(const DriverOptions &o) {
  fs::path path = o.tuning_db.empty() ? default_tuning_db_path() : fs::path(o.tuning_db);
  auto warn = [](const std::string &line) { std::cerr << "f2stencil: warning: " << line << "\n"; };
  if (path.empty()) {
    warn("Neither XDG_CACHE_HOME nor HOME is set, so tuning results are not kept; choose a "
         "file with --tuning-db");
    return nullptr;
  }
  return TuningDb::open(path, warn);
}

/// Kernel `k` with no choice yet: tuned, at each of its sizes (the smallest
/// first, the others in its other_sizes); untuned, as it is.
KernelBuild new_build(const Kernel &k, const DriverOptions &o, bool tune) {
  KernelBuild b;
  if (!tune) {
    b.kernel = k;
    return b;
  }
  std::vector<std::vector<int64_t>> sizes = tuning_sizes(k, o);
  b.kernel = at_size(k, sizes[0]);
  for (size_t i = 1; i < sizes.size(); ++i)
    b.other_sizes.emplace_back().kernel = at_size(k, sizes[i]);
  return b;
}

/// One line per kernel, and per size it was tuned at: the variant each runs
/// by default, with what it measured.
void say_choices(const DriverOptions &o, const std::vector<KernelBuild> &builds) {
  std::vector<std::pair<const KernelBuild *, std::string>> chosen;
  for (const KernelBuild &whole : builds) {
    chosen.push_back(
        {&whole, whole.other_sizes.empty() ? "" : " at " + size_name(whole.kernel.tune_size)});
    for (const KernelBuild &s : whole.other_sizes)
      chosen.push_back({&s, " at " + size_name(s.kernel.tune_size)});
  }
  for (const auto &[at, where] : chosen) {
    const KernelBuild &b = *at;
    const Choice &c = b.choices[b.default_choice];
    std::string how = b.tuning ? b.tuning->space.describe(c.candidate)
                               : c.code.variant.target + "/" + c.code.variant.name + ", not tuned";
    if (b.tuning)
      for (const CandidateResult &r : b.tuning->results)
        if (r.candidate.variant == c.candidate.variant && r.candidate.tune == c.candidate.tune &&
            r.candidate.threads == c.candidate.threads) {
          char buf[96];
          std::snprintf(buf, sizeof buf, " (%.2f GFlop/s, %.1f GB/s)", r.gflops, r.gbps);
          how += buf;
        }
    progress(o, "'" + b.kernel.name + "'" + where + ": " + how);
  }
}

/// --tune-size's depths against the run's nests: a depth no nest has is a
/// mistake (an error before anything is done); a nest of a depth it does not
/// list is tuned at its own clause, said once per nest when tuning.
void check_tune_size_depths(const DriverOptions &o, const std::vector<Kernel> &kernels, bool tune) {
  if (o.tune_sizes.empty())
    return;
  std::set<size_t> depths;
  for (const Kernel &k : kernels)
    depths.insert(static_cast<size_t>(k.loop_depth()));
  std::set<size_t> listed;
  for (const std::vector<int64_t> &s : o.tune_sizes)
    listed.insert(s.size());
  for (size_t n : listed) {
    // A time loop's sweeps of fewer loops take the last values.
    bool used = depths.count(n) > 0;
    for (const Kernel &k : kernels)
      used |= !k.time_loop.empty() && static_cast<size_t>(k.loop_depth()) < n;
    if (used || kernels.empty())
      continue;
    std::string have;
    for (size_t d : depths)
      have += (have.empty() ? "" : " or ") + std::to_string(d);
    throw usage_error("--tune-size has a size of " + std::to_string(n) +
                      " values, but the nests of this run have " + have +
                      " loops; give each size one value per loop, innermost first");
  }
  if (!tune)
    return;
  for (const Kernel &k : kernels) {
    const size_t depth = static_cast<size_t>(k.loop_depth());
    if (listed.count(depth) || !k.time_loop.empty())
      continue;
    std::string at;
    for (const std::vector<int64_t> &s : tuning_sizes(k, o))
      at += (at.empty() ? "" : ", ") + size_name(s);
    progress(o, "'" + k.name + "' has " + std::to_string(depth) +
                    (depth == 1 ? " loop" : " loops") +
                    " and --tune-size no size of as many values: tuned at its tune_size, " + at);
  }
}

fs::path make_work_dir() {
  std::string pattern = (fs::temp_directory_path() / "f2stencil-XXXXXX").string();
  if (!mkdtemp(pattern.data()))
    throw std::runtime_error("cannot create a temporary directory in " +
                             fs::temp_directory_path().string());
  return pattern;
}

} // namespace

int run_pipeline(const DriverOptions &o) {
  fs::path work_dir;
  try {
    std::string lib_name = o.lib_name.empty() ? default_lib_name(o.files.at(0)) : o.lib_name;
    if (!is_fortran_name(lib_name))
      throw usage_error("Library name '" + lib_name +
                        "' is not a Fortran name (a letter, then letters, digits or '_')");
    RunTargets targets{make_targets(o.targets), o.targets};
    for (const std::unique_ptr<Target> &t : targets.targets)
      t->check_library_name(lib_name);

    // Parse and lower, then analyse; every problem of both is reported at
    // once.
    if (auto said = already_rewritten(o)) {
      progress(o, *said);
      return 0;
    }
    Problems problems;
    LoweredFiles lowered = parse_and_lower(o, problems);
    std::vector<Kernel> &kernels = lowered.kernels;
    const std::vector<TimeLoop> &time_loops = lowered.time_loops;
    check_kernels(kernels, lib_name, targets, o.mpi, problems);
    check_time_loops(time_loops, kernels, lib_name, targets, problems);
    problems.throw_if_any(o.files);
    check_tune_size_depths(o, kernels, o.tune && o.emit.empty());
    // Before anything is tuned: a region that cannot be rewritten stops the
    // run at once.
    std::vector<std::pair<std::string, std::string>> rewritten;
    if (o.rewrite)
      rewritten = rewrite_sources(o, kernels, time_loops, lib_name, lowered.host_units);
    if (o.emit == "ir") {
      const CpuModel host = cpu_model_from_host();
      for (const Kernel &k : kernels)
        std::cout << print_kernel(k);
      std::vector<const Kernel *> all;
      for (const Kernel &k : kernels)
        all.push_back(&k);
      for (const TimeLoop &t : time_loops) {
        std::cout << print_time_loop(t);
        TimeTiling tiling = plan_time_tiling(t, all);
        if (tiling.plan) {
          std::cout << print_time_tile_plan(*tiling.plan)
                    << print_time_tile_intent(o, t, *tiling.plan, kernels, targets, host);
        } else
          std::cout << "  not tiled in time: " << tiling.reason << "\n";
      }
      return 0;
    }

    // Enumerate, transform, emit, build, time and pick: target after target,
    // each adding its choices to every kernel.
    CpuModel machine = cpu_model_from_host();
    PackageInfo info{
        lib_name, o.files, machine.description, o.cflags, machine.placement(machine.pus), o.mpi};
    TargetRun run;
    run.tune = o.tune && o.emit.empty();
    run.build = o.emit.empty();
    // Sources are for a build elsewhere, where nothing was measured: each
    // target's default variant, as --no-tune packages it (and --emit=c prints).
    if (o.emit == "sources" && o.tune)
      progress(o, "--emit=sources: nothing is tuned; each target's default variant is written, as "
                  "with --no-tune");
    run.host = &machine;
    run.tune_options.jobs =
        o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    run.tune_options.timeout_s = o.timeout_s;
    run.tune_options.reps = o.reps;
    run.tune_options.cflags = o.cflags;
    run.tune_options.budget_s = o.budget_s;
    run.tune_options.live = live_progress(o);
    run.search = o.search;
    run.candidates = o.candidates;
    run.retune = o.retune;
    run.exact = o.exact;
    run.progress = [&](const std::string &line) { progress(o, line); };
    std::unique_ptr<TuningDb> db;
    if (run.tune) {
      progress(o, "tuning on " + machine.description);
      run.work_dir = work_dir = make_work_dir();
      db = open_tuning_db(o);
      run.db = db.get();
    }
    std::vector<KernelBuild> builds;
    for (const Kernel &k : kernels)
      builds.push_back(new_build(k, o, run.tune));
    for (const std::unique_ptr<Target> &t : targets.targets) {
      t->begin(run);
      for (KernelBuild &b : builds)
        t->add_choices(b, run);
    }
    std::vector<TimeTileChoice> tiles =
        choose_time_tiles_for(o, time_loops, kernels, targets, builds, run);
    if (o.emit == "c") {
      std::cout << library_c_source(info, builds, time_loops, tiles);
      return 0;
    }

    // Package.
    fs::path out_dir = o.output_dir.empty() ? fs::path(lib_name) : fs::path(o.output_dir);
    LibraryFiles files = package_library(info, builds, time_loops, tiles);
    files.rewritten_sources = std::move(rewritten);
    for (const std::unique_ptr<Target> &t : targets.targets)
      t->package(files, info, builds, time_loops, tiles);
    if (o.emit == "sources") {
      write_library_sources(files, out_dir);
      say_choices(o, builds);
      std::string written = lib_name + ".c, " + lib_name + ".h, " + lib_name + ".f90";
      if (!files.cuda_source.empty())
        written += ", " + lib_name + "_cuda.cu";
      if (!files.mpi_source.empty())
        written += ", " + lib_name + "_mpi.c";
      progress(o, "wrote " + out_dir.string() + "/: " + written +
                      (o.rewrite ? ", src/ (the sources, rewritten)" : "") +
                      "; nothing compiled (docs/running.md says how to build them)");
      return 0;
    }
    std::vector<std::string> notes = build_library(files, out_dir);
    write_report(out_dir, lib_name); // DIR/NAME.html, from the record just written
    say_choices(o, builds);
    progress(o, "wrote " + out_dir.string() + "/: lib" + lib_name + ".a, lib" + lib_name + ".so, " +
                    lib_name + ".f90, " + lib_name + ".h, " + lib_name + ".json" +
                    (o.rewrite ? ", src/ (the sources, rewritten)" : ""));
    // Not an error (the library is complete for C and for a later Fortran
    // build), but never silent, even with -q.
    for (const std::string &n : notes)
      std::cerr << "f2stencil: note: " << n << "\n";
    if (!o.keep_work && !work_dir.empty())
      fs::remove_all(work_dir);
    else if (!work_dir.empty())
      progress(o, "kept the harnesses in " + work_dir.string());
    return 0;
  } catch (const UserError &e) {
    std::cerr << e.what() << "\n";
  } catch (const BuildError &e) {
    std::cerr << "f2stencil: error: " << e.what() << "\n";
  } catch (const std::exception &e) {
    std::cerr << "f2stencil: error: " << e.what() << "\n";
  }
  if (!work_dir.empty() && !o.keep_work)
    fs::remove_all(work_dir);
  return 1;
}

} // namespace f2s
