#include "targets/CpuTarget.h"

#include "codegen/CSizeDispatch.h"
#include "harness/ProblemSize.h"
#include "harness/TimeTileTuner.h"
#include "harness/TuningDb.h"
#include "strategy/CpuEngine.h"
#include "strategy/MachineModel.h"
#include "strategy/PerformanceModel.h"
#include "strategy/Search.h"

#include <algorithm>
#include <filesystem>
#include <stdexcept>

namespace f2s {

namespace fs = std::filesystem;

namespace {

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

/// The serial code and the plain parallel nest, untimed.
void add_default_choices(KernelBuild &b, const std::vector<std::string> &names) {
  SearchSpace space;
  std::vector<Candidate> chosen;
  for (const std::string &t : names)
    chosen.push_back(default_candidate(space, t));
  std::vector<VariantCode> code = generate_variants(b.kernel, space);
  for (const Candidate &c : chosen) {
    // Untimed, the parallel nest is the sensible default whatever the order
    // of --target.
    if (space.variants[c.variant].target == "pthreads")
      b.default_choice = b.choices.size();
    b.choices.push_back({code[c.variant], c});
  }
}

/// Tunes `b` at its kernel's tune_size. The CPU target runs first, so its
/// tuning starts the kernel's record.
void add_tuned_choices(KernelBuild &b, const std::vector<std::string> &names, const TargetRun &run,
                       const fs::path &work_dir, double bound_gbps) {
  const Kernel &k = b.kernel;
  const CpuModel &machine = *run.host;
  KernelFacts facts = analyze(k);
  ProblemSize size = problem_size_for(k, k.tune_size);
  SearchSpace space = enumerate_cpu(k, facts, size.extents, {names, &machine});
  if (!run.candidates.empty() && space.keep_matching(run.candidates) == 0)
    throw std::runtime_error("no candidate of '" + k.name + "' matches --candidates '" +
                             run.candidates + "'");
  std::vector<VariantCode> code = generate_variants(k, space);
  run.progress("'" + k.name + "': " + space.summary());

  TuneOptions topt = run.tune_options;
  topt.work_dir = work_dir / k.name;
  // Threads are pinned NUMA nodes first; the list serves every thread count.
  topt.cpus = machine.placement(machine.pus);
  topt.bound_gbps = bound_gbps;
  if (const CacheLevel *llc = machine.last_level_cache()) {
    topt.llc_bytes = llc->size_bytes;
    topt.llc_instances = llc->instances;
  }
  topt.progress = [&](const std::string &line) { run.progress("'" + k.name + "' " + line); };
  if (run.db)
    topt.log = run.db->log(cpu_tuning_key(k, names, machine, topt.cflags, size), run.retune);
  KernelTuning tuning = search(k, facts, machine, space, code, size, topt, run.search);

  b.tuning = tuning;
  auto overall = tuning.best();
  for (const std::string &t : names) {
    auto best = tuning.best(t);
    if (!best)
      throw std::runtime_error("no candidate of '" + k.name + "' for target " + t +
                               " was verified (see the lines above)");
    const Candidate &c = tuning.results[*best].candidate;
    if (overall && *overall == *best)
      b.default_choice = b.choices.size();
    b.choices.push_back({code[c.variant], c});
  }
}

} // namespace

void CpuTarget::begin(const TargetRun &run) {
  if (!run.tune)
    return;
  std::string why;
  bounds_ = cpu_bounds(*run.host, run.work_dir / "bounds", run.db, run.retune, &why);
  if (!bounds_)
    run.progress("the host's bandwidth was not measured (" + why +
                 "); the report's roof is then the best bandwidth a candidate reached");
  else
    run.progress(std::string(bounds_->reused ? "the host's bounds, from the tuning cache: "
                                             : "measured the host's bounds: ") +
                 describe(*bounds_));
}

void CpuTarget::package(LibraryFiles &files, const PackageInfo &info,
                        const std::vector<KernelBuild> &builds, const std::vector<TimeLoop> &loops,
                        const std::vector<TimeTileChoice> &tiles) const {
  (void)info, (void)builds, (void)loops, (void)tiles;
  if (bounds_)
    add_bounds_to_record(files.tuning_record, "cpu", *bounds_);
}

std::optional<TimeTileChoice> CpuTarget::time_tile_choice(const TimeLoop &t,
                                                          const TimeTilePlan &plan,
                                                          const std::vector<KernelBuild> &builds,
                                                          const TimeTileAsk &ask,
                                                          const TargetRun &run) {
  const std::string target = "pthreads";
  if (std::find(names_.begin(), names_.end(), target) == names_.end())
    return std::nullopt;
  TimeTileRequest r;
  r.target = target;
  r.forced = ask.forced;
  r.form = ask.form;
  r.tune = run.tune;
  r.options = run.tune_options;
  r.options.progress = run.progress;
  r.options.cpus = run.host ? run.host->placement(run.host->pus) : std::vector<int>{};
  if (const CacheLevel *llc = run.host ? run.host->last_level_cache() : nullptr) {
    r.options.llc_bytes = llc->size_bytes;
    r.options.llc_instances = llc->instances;
  }
  if (run.tune) {
    r.options.work_dir = run.work_dir / ("time_tiles_" + t.signature.name);
    std::filesystem::create_directories(r.options.work_dir);
    if (run.progress)
      run.progress("time loop '" + t.signature.name + "': tiling in time against the steps");
  }
  return choose_time_tiles(t, plan, builds, *run.host, r);
}

void CpuTarget::add_choices(KernelBuild &b, const TargetRun &run) {
  if (!run.tune) {
    add_default_choices(b, names_);
    for (KernelBuild &s : b.other_sizes)
      add_default_choices(s, names_);
    return;
  }
  if (b.other_sizes.empty()) {
    add_tuned_choices(b, names_, run, run.work_dir, bounds_ ? bounds_->gbps : 0);
    return;
  }
  std::vector<KernelBuild *> sizes = {&b};
  for (KernelBuild &s : b.other_sizes)
    sizes.push_back(&s);
  for (size_t i = 0; i < sizes.size(); ++i) {
    std::string name = size_name(sizes[i]->kernel.tune_size);
    run.progress("'" + b.kernel.name + "': size " + std::to_string(i + 1) + " of " +
                 std::to_string(sizes.size()) + ", " + name);
    add_tuned_choices(*sizes[i], names_, run, run.work_dir / ("size_" + name),
                      bounds_ ? bounds_->gbps : 0);
  }
}

} // namespace f2s
