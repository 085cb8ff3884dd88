#include "driver/Pipeline.h"

#include "ast/Analysis.h"
#include "ast/Dependence.h"
#include "ast/IRPrinter.h"
#include "codegen/CSizeDispatch.h"
#include "codegen/Interfaces.h"
#include "frontend/Directives.h"
#include "frontend/Frontend.h"
#include "harness/CudaBuild.h"
#include "harness/LibraryBuilder.h"
#include "harness/Package.h"
#include "harness/Tuner.h"
#include "harness/TuningDb.h"
#include "report/Report.h"
#include "rewrite/Rewrite.h"
#include "strategy/CpuEngine.h"
#include "strategy/MachineModel.h"
#include "strategy/PerformanceModel.h"
#include "strategy/Search.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace f2s {

namespace {

namespace fs = std::filesystem;

void progress(const DriverOptions &o, const std::string &line) {
  if (!o.quiet)
    std::cerr << "f2stencil: " << line << "\n";
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

/// The kernels of the regions that lowered; the problems of the others go
/// to `problems`, to be reported with the analysis's.
std::vector<Kernel> parse_and_lower(const DriverOptions &o, Problems &problems) {
  FrontendOptions fe;
  fe.include_dirs = o.include_dirs;
  fe.defines = o.defines;
  if (!o.form.empty())
    fe.fixed_form = o.form == "fixed";
  fe.default_real_kind = o.default_real_kind;
  fe.double_precision_kind = o.double_precision_kind;
  LoweredFiles lowered = lower_files_collecting(o.files, fe);
  problems.add_all(lowered.problems);
  return std::move(lowered.kernels);
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
std::vector<std::pair<std::string, std::string>> rewrite_sources(const DriverOptions &o,
                                                                 const std::vector<Kernel> &kernels,
                                                                 const std::string &lib_name) {
  std::vector<std::pair<std::string, std::string>> sources;
  std::map<std::string, std::string> named;
  Problems problems;
  for (const std::string &f : o.files) {
    std::string name = fs::path(f).filename().string();
    if (auto [it, fresh] = named.emplace(name, f); !fresh)
      throw usage_error("--rewrite writes each file to src/ under its own name, and '" +
                        it->second + "' and '" + f + "' have the same; rename one of them");
    std::optional<std::string> text = read_text(f);
    if (!text)
      throw usage_error("Cannot read '" + f + "' again to rewrite it");
    std::vector<RegionCall> calls;
    for (const Kernel &k : kernels)
      if (k.source.file == f)
        calls.push_back(region_call(k));
    if (calls.empty()) {
      sources.emplace_back(name, *text);
      continue;
    }
    problems.attempt([&] {
      RewrittenSource r = rewrite_source(*text, f, calls, lib_name);
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

/// The procedures the library's Fortran module declares for kernel `k`
/// (harness/Package.cpp's entry points, and the BIND(C) interfaces behind
/// their wrappers): `K`, `K_<target>`, `K_first_touch` with a CPU target, and
/// each of those with `_explicit` when the kernel needs a wrapper.
std::vector<std::string> module_procedures(const Kernel &k,
                                           const std::vector<std::string> &targets) {
  std::vector<std::string> names = {k.name};
  for (const std::string &t : targets)
    names.push_back(k.name + "_" + t);
  if (std::any_of(targets.begin(), targets.end(), [](const std::string &t) { return t != "cuda"; }))
    names.push_back(k.name + "_first_touch");
  if (needs_wrapper(k))
    for (size_t i = 0, n = names.size(); i < n; ++i)
      names.push_back(names[i] + "_explicit");
  return names;
}

/// Fortran names have at most 63 characters.
constexpr size_t kMaxFortranName = 63;

/// The module must compile: no procedure has the name of one of its own
/// arguments, and no name is longer than Fortran allows.
void check_module_names(const Kernel &k, const std::vector<std::string> &targets,
                        Problems &problems) {
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

/// Every kernel must be safe to run in parallel, or with one loop in order
/// (recorded in the kernel), and every name the library exports must be
/// unique; each problem goes to `problems`.
void check_kernels(std::vector<Kernel> &kernels, const std::string &lib_name,
                   const std::vector<std::string> &targets, Problems &problems) {
  std::map<std::string, const Kernel *> exported;
  // The C symbols are <lib>_<name>: a kernel must not be named like what the
  // CUDA target exports per library (<lib>_data_enter, ...).
  std::set<std::string> reserved;
  if (std::find(targets.begin(), targets.end(), "cuda") != targets.end())
    for (const char *what :
         {"enter", "update_host", "update_device", "exit", "delete", "transfers"})
      reserved.insert(std::string("data_") + what);
  for (Kernel &k : kernels) {
    Ordering order = find_ordering(k);
    if (order.refusal)
      problems.add(*order.refusal);
    k.ordered = order.ordered;
    check_module_names(k, targets, problems);
    // Every name the library exports for the kernel: its procedure, one per
    // target, its first-touch procedure, and the C query of per-size variants.
    std::vector<std::string> names = {k.name, k.name + "_first_touch", k.name + "_tuned_size"};
    for (const std::string &t : targets)
      names.push_back(k.name + "_" + t);
    for (const std::string &n : names) {
      if (reserved.count(n))
        problems.add({k.loc, "Kernel name '" + n +
                                 "' is the name of the CUDA library's procedure '" + lib_name +
                                 "_" + n + "'; choose another with name(...)"});
      if (n == lib_name)
        problems.add({k.loc, "Kernel name '" + n +
                                 "' is also the library's module name; "
                                 "choose another with name(...) or --lib"});
      auto [it, fresh] = exported.emplace(n, &k);
      if (!fresh)
        problems.add({k.loc, "The library would export '" + n + "' twice (also for '" +
                                 it->second->name + "' at " + it->second->loc.str() +
                                 "); rename one kernel with name(...)"});
    }
  }
}

// -------------------------------------------- enumerate, transform, tune

/// The sizes to tune `k` at, each x first: --tune-size's, or the clause's,
/// in the order of their working sets (the library's dispatch order).
std::vector<std::vector<int64_t>> tuning_sizes(const Kernel &k, const DriverOptions &o) {
  std::vector<std::vector<int64_t>> sizes = !o.tune_sizes.empty() ? o.tune_sizes
                                            : k.tune_sizes.empty()
                                                ? std::vector<std::vector<int64_t>>{k.tune_size}
                                                : k.tune_sizes;
  for (const std::vector<int64_t> &s : o.tune_sizes)
    if (static_cast<int>(s.size()) != k.loop_depth())
      throw usage_error("--tune-size has " + std::to_string(s.size()) + " values but '" + k.name +
                        "' has " + std::to_string(k.loop_depth()) + " loops");
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
  return sizes;
}

/// `k` to be tuned at `extents` alone.
Kernel at_size(const Kernel &k, const std::vector<int64_t> &extents) {
  Kernel one = k;
  one.tune_size = extents;
  one.tune_sizes.clear();
  return one;
}

KernelBuild untuned_build(const Kernel &k, const DriverOptions &o) {
  SearchSpace space;
  std::vector<Candidate> chosen;
  for (const std::string &t : o.targets)
    chosen.push_back(default_candidate(space, t));
  std::vector<VariantCode> code = generate_variants(k, space);
  KernelBuild b{k, {}, 0, std::nullopt};
  for (const Candidate &c : chosen) {
    // Untimed, the parallel nest is the sensible default whatever the order
    // of --target.
    if (space.variants[c.variant].target == "pthreads")
      b.default_choice = b.choices.size();
    b.choices.push_back({code[c.variant], c});
  }
  return b;
}

/// Measures the space with the search method the user chose.
KernelTuning search(const Kernel &k, const KernelFacts &facts, const CpuModel &machine,
                    const SearchSpace &space, const std::vector<VariantCode> &code,
                    const ProblemSize &size, const TuneOptions &topt, const std::string &method) {
  if (method == "exhaustive")
    return tune_kernel(k, space, code, size, topt);
  std::vector<double> predicted;
  for (const Candidate &c : space.candidates)
    predicted.push_back(predict_seconds(k, facts, machine, size.extents, space, c));
  // The model ranks; a dozen measurements anchor the climb from its best.
  std::unique_ptr<SearchMethod> guided = model_guided_search(std::move(predicted), 12);
  if (method == "compare")
    return compare_searches(k, space, code, size, topt, *guided);
  return tune_kernel(k, space, code, size, topt, *guided);
}

KernelBuild tuned_build(const Kernel &k, const CpuModel &machine, const DriverOptions &o,
                        const fs::path &work_dir, TuningDb *db) {
  KernelFacts facts = analyze(k);
  ProblemSize size = problem_size_for(k, k.tune_size);
  SearchSpace space = enumerate_cpu(k, facts, size.extents, {o.targets, &machine});
  std::vector<VariantCode> code = generate_variants(k, space);
  progress(o, "'" + k.name + "': " + space.summary());

  TuneOptions topt;
  topt.work_dir = work_dir / k.name;
  topt.jobs =
      o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  topt.timeout_s = o.timeout_s;
  topt.reps = o.reps;
  topt.cflags = o.cflags;
  topt.budget_s = o.budget_s;
  // Threads are pinned NUMA nodes first; the list serves every thread count.
  topt.cpus = machine.placement(machine.pus);
  topt.progress = [&](const std::string &line) { progress(o, "'" + k.name + "' " + line); };
  if (db && !o.targets.empty())
    topt.log = db->log(cpu_tuning_key(k, o.targets, machine, o.cflags, size), o.retune);
  KernelTuning tuning = search(k, facts, machine, space, code, size, topt, o.search);

  KernelBuild b{k, {}, 0, tuning};
  auto overall = tuning.best();
  for (const std::string &t : o.targets) {
    auto best = tuning.best(t);
    if (!best)
      throw std::runtime_error("no candidate of '" + k.name + "' for target " + t +
                               " was verified (see the lines above)");
    const Candidate &c = tuning.results[*best].candidate;
    if (overall && *overall == *best)
      b.default_choice = b.choices.size();
    b.choices.push_back({code[c.variant], c});
  }
  return b;
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

/// Kernel `k` tuned at each of its sizes: the build at the smallest, with the
/// others in its other_sizes (tuned_build once per size).
KernelBuild tuned_at_sizes(const Kernel &k, const CpuModel &machine, const DriverOptions &o,
                           const fs::path &work_dir, TuningDb *db) {
  std::vector<std::vector<int64_t>> sizes = tuning_sizes(k, o);
  if (sizes.size() == 1)
    return tuned_build(at_size(k, sizes[0]), machine, o, work_dir, db);
  std::vector<KernelBuild> builds;
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::string name = size_name(sizes[i]);
    progress(o, "'" + k.name + "': size " + std::to_string(i + 1) + " of " +
                    std::to_string(sizes.size()) + ", " + name);
    builds.push_back(
        tuned_build(at_size(k, sizes[i]), machine, o, work_dir / ("size_" + name), db));
  }
  KernelBuild b = std::move(builds.front());
  b.other_sizes.assign(std::make_move_iterator(builds.begin() + 1),
                       std::make_move_iterator(builds.end()));
  return b;
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
    // The CUDA target's data procedures are named after the library.
    const std::string longest_data = lib_name + "_data_update_device";
    if (std::find(o.targets.begin(), o.targets.end(), "cuda") != o.targets.end() &&
        longest_data.size() > kMaxFortranName)
      throw usage_error("Library name '" + lib_name +
                        "' is too long for the CUDA target: its "
                        "module would declare '" +
                        longest_data + "', longer than Fortran's " +
                        std::to_string(kMaxFortranName) + " characters; choose one of at most " +
                        std::to_string(kMaxFortranName - (longest_data.size() - lib_name.size())) +
                        " characters with --lib");

    // Parse and lower, then analyse; every problem of both is reported at
    // once.
    if (auto said = already_rewritten(o)) {
      progress(o, *said);
      return 0;
    }
    Problems problems;
    std::vector<Kernel> kernels = parse_and_lower(o, problems);
    check_kernels(kernels, lib_name, o.targets, problems);
    problems.throw_if_any(o.files);
    // Before anything is tuned: a region that cannot be rewritten stops the
    // run at once.
    std::vector<std::pair<std::string, std::string>> rewritten;
    if (o.rewrite)
      rewritten = rewrite_sources(o, kernels, lib_name);
    if (o.emit == "ir") {
      for (const Kernel &k : kernels)
        std::cout << print_kernel(k);
      return 0;
    }

    // Enumerate, transform, emit, build, time and pick, per kernel.
    CpuModel machine = cpu_model_from_host();
    PackageInfo info{lib_name, o.files, machine.description, o.cflags};
    info.cpus = machine.placement(machine.pus);
    // The CPU targets first; CUDA's choice joins each build after them.
    DriverOptions cpu_o = o;
    std::erase(cpu_o.targets, std::string("cuda"));
    const bool cuda = cpu_o.targets.size() != o.targets.size();
    std::vector<KernelBuild> builds;
    std::unique_ptr<TuningDb> db;
    if (o.tune && o.emit.empty()) {
      progress(o, "tuning on " + machine.description);
      work_dir = make_work_dir();
      db = open_tuning_db(o);
      for (const Kernel &k : kernels)
        builds.push_back(tuned_at_sizes(k, machine, cpu_o, work_dir, db.get()));
    } else {
      for (const Kernel &k : kernels)
        builds.push_back(untuned_build(k, cpu_o));
    }
    CudaBuilds cuda_builds;
    if (cuda) {
      CudaBuildOptions co;
      co.tune = o.tune && o.emit.empty();
      co.work_dir = work_dir.empty() && co.tune ? (work_dir = make_work_dir()) : work_dir;
      co.tune_options.jobs =
          o.jobs > 0 ? o.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
      co.tune_options.timeout_s = o.timeout_s;
      co.tune_options.reps = o.reps;
      co.tune_options.progress = [&](const std::string &line) { progress(o, line); };
      co.exact = o.exact;
      co.db = db.get();
      co.retune = o.retune;
      cuda_builds = add_cuda_builds(builds, co);
    }
    if (o.emit == "c") {
      std::cout << library_c_source(info, builds);
      return 0;
    }

    // Package.
    fs::path out_dir = o.output_dir.empty() ? fs::path(lib_name) : fs::path(o.output_dir);
    LibraryFiles files = package_library(info, builds);
    files.rewritten_sources = std::move(rewritten);
    if (cuda)
      add_cuda_to_library(files, info, builds, cuda_builds.gpu, cuda_builds.times);
    build_library(files, out_dir);
    write_report(out_dir, lib_name); // DIR/NAME.html, from the record just written
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
      std::string how = b.tuning
                            ? b.tuning->space.describe(c.candidate)
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
    progress(o, "wrote " + out_dir.string() + "/: lib" + lib_name + ".a, lib" + lib_name + ".so, " +
                    lib_name + ".f90, " + lib_name + ".h, " + lib_name + ".json" +
                    (o.rewrite ? ", src/ (the sources, rewritten)" : ""));
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
