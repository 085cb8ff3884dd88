#include "targets/CudaTarget.h"

#include "codegen/CudaTimeTile.h"
#include "harness/CudaPackage.h"
#include "harness/CudaToolkit.h"
#include "harness/CudaVariants.h"
#include "harness/ProblemSize.h"
#include "harness/TimeTileTuner.h"
#include "harness/TuningDb.h"
#include "strategy/GpuEngine.h"

#include <chrono>
#include <filesystem>
#include <set>
#include <stdexcept>

namespace f2s {

void CudaTarget::check_library_name(const std::string &lib_name) const {
  // The longest of the data procedures (runtime/f2s_cuda_runtime.cu).
  const std::string longest_data = lib_name + "_data_update_device_if_present";
  if (longest_data.size() > kMaxFortranName)
    throw UserError(SourceLoc{},
                    "Library name '" + lib_name +
                        "' is too long for the CUDA target: its "
                        "module would declare '" +
                        longest_data + "', longer than Fortran's " +
                        std::to_string(kMaxFortranName) + " characters; choose one of at most " +
                        std::to_string(kMaxFortranName - (longest_data.size() - lib_name.size())) +
                        " characters with --lib");
}

void CudaTarget::begin(const TargetRun &run) {
  // Asked for before anything is generated, so that a machine without nvcc
  // fails at once rather than at the library's build; sources alone need none.
  if (run.tune || run.build)
    require_nvcc();
  if (!run.tune)
    return;
  gpu_ = probe_gpu(run.work_dir / "gpu");
  run.progress("tuning CUDA on " + gpu_->description());
  std::string why;
  bounds_ = gpu_bounds(*gpu_, *find_nvcc(), run.work_dir / "gpu", run.db, run.retune, &why);
  if (!bounds_)
    run.progress("the GPU's bandwidth was not measured (" + why +
                 "); the report's roof is then the best bandwidth a candidate reached");
  else
    run.progress(std::string(bounds_->reused ? "the GPU's bounds, from the tuning cache: "
                                             : "measured the GPU's bounds: ") +
                 describe(*bounds_));
}

void CudaTarget::add_choices(KernelBuild &b, const TargetRun &run) {
  add_choice(b, b.kernel.name, run);
  for (size_t i = 0; i < b.other_sizes.size(); ++i)
    add_choice(b.other_sizes[i], cuda_times_key(b.kernel.name, i + 1), run);
}

void CudaTarget::add_choice(KernelBuild &b, const std::string &key, const TargetRun &run) {
  const Kernel &k = b.kernel;
  if (!run.tune) {
    SearchSpace space;
    Candidate c = default_cuda_candidate(space);
    b.default_choice = b.choices.size();
    b.choices.push_back({cuda_variant_code(k, space.variants[c.variant]), c});
    return;
  }
  auto start = std::chrono::steady_clock::now();
  KernelFacts facts = analyze(k);
  ProblemSize size = problem_size_for(k, k.tune_size);
  if (!b.tuning) {
    KernelTuning t;
    t.kernel = k.name;
    t.size = size;
    t.search = run.search == "model"     ? "cuda model-pruned exhaustive"
               : run.search == "compare" ? "cuda model-pruned, then exhaustive"
                                         : "cuda exhaustive";
    b.tuning = t;
  }
  KernelTuning &t = *b.tuning;
  size_t first_variant = t.space.variants.size(), first_candidate = t.space.candidates.size();
  // --search=exhaustive and compare measure every legal candidate; compare
  // measures the model's picks first and records how close they came.
  bool every = run.search != "model";
  CudaEnumeration en = enumerate_cuda(t.space, k, facts, size.extents,
                                      {&*gpu_, every ? kAllCandidates : 12, !run.exact});
  if (!run.candidates.empty()) {
    // The GPU engine's count, not the CPU's: moved to its own reasons.
    const std::string why = "not matching --candidates";
    size_t cpu_count = t.space.pruned.count(why) ? t.space.pruned[why] : 0;
    size_t left = t.space.keep_matching(run.candidates, first_candidate);
    en.pruned[why] += t.space.pruned[why] - cpu_count;
    if (cpu_count > 0)
      t.space.pruned[why] = cpu_count;
    else
      t.space.pruned.erase(why);
    if (left == 0)
      throw std::runtime_error("no CUDA candidate of '" + k.name + "' matches --candidates '" +
                               run.candidates + "'");
  }
  t.cuda_considered += en.considered;
  for (const auto &[why, n] : en.pruned)
    t.cuda_pruned[why] += n;
  // The code of its own variants only, by variant index as tune_cuda reads
  // it; the CPU target's variants before them are not generated again.
  std::vector<VariantCode> code(t.space.variants.size());
  for (size_t v = 0; v < code.size(); ++v) {
    code[v].variant = t.space.variants[v];
    if (t.space.variants[v].target == "cuda")
      code[v] = cuda_variant_code(k, t.space.variants[v]);
  }
  TuneOptions topt = run.tune_options;
  topt.work_dir = run.work_dir / key;
  topt.bound_gbps = bounds_ ? bounds_->gbps : 0;
  auto say = [&](const std::string &line) { run.progress("'" + k.name + "' " + line); };
  topt.progress = say;
  if (run.db)
    topt.log = run.db->log(cuda_tuning_key(k, *gpu_, *find_nvcc(), size, run.exact), run.retune);
  say(en.summary(t.space.candidates.size() - first_candidate) + ", in " +
      std::to_string(t.space.variants.size() - first_variant) + " variants");
  std::vector<CandidateResult> results;
  std::map<size_t, CudaCandidateTimes> times;
  size_t reused = 0;
  if (run.search == "compare") {
    SearchSpace model;
    enumerate_cuda(model, k, facts, size.extents, {&*gpu_, 12, !run.exact});
    if (!run.candidates.empty())
      model.keep_matching(run.candidates);
    std::set<std::string> picked;
    for (const Candidate &c : model.candidates)
      picked.insert(model.describe(c));
    std::vector<size_t> first, rest;
    for (size_t i = first_candidate; i < t.space.candidates.size(); ++i)
      (picked.count(t.space.describe(t.space.candidates[i])) ? first : rest).push_back(i);
    say("comparing searches: the model's " + std::to_string(first.size()) + " first, then the " +
        std::to_string(rest.size()) + " others");
    reused = tune_cuda(k, t.space, code, size, topt, results, &times, &first);
    auto fastest = [&]() {
      double best = 0;
      for (const CandidateResult &r : results)
        if (r.status == CandidateStatus::Verified && (best == 0 || r.seconds < best))
          best = r.seconds;
      return best;
    };
    KernelTuning::Comparison cmp{"cuda model-pruned", results.size(), fastest(), 0, true};
    // tune_cuda numbers its times by the results it appended: the second
    // call's are shifted past the first's.
    std::vector<CandidateResult> more;
    std::map<size_t, CudaCandidateTimes> more_times;
    reused += tune_cuda(k, t.space, code, size, topt, more, &more_times, &rest);
    for (auto &[i, tt] : more_times)
      times[results.size() + i] = tt;
    results.insert(results.end(), more.begin(), more.end());
    cmp.exhaustive_best_s = fastest();
    t.cuda_comparison = cmp;
  } else {
    reused = tune_cuda(k, t.space, code, size, topt, results, &times);
  }
  t.reused += reused;
  size_t base = t.results.size();
  for (auto &[i, tt] : times)
    times_[key][base + i] = tt;
  size_t verified = 0;
  for (CandidateResult &r : results) {
    verified += r.status == CandidateStatus::Verified;
    t.results.push_back(r);
  }
  t.seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  say("CUDA: " + std::to_string(results.size() - reused) + " built and run, " +
      std::to_string(reused) + " reused, " + std::to_string(verified) + " verified and timed");
  auto best = t.best("cuda");
  if (!best)
    throw std::runtime_error("no CUDA candidate of '" + k.name +
                             "' was verified (see the lines above)");
  const Candidate &c = t.results[*best].candidate;
  b.default_choice = b.choices.size();
  b.choices.push_back({code[c.variant], c});
}

void CudaTarget::package(LibraryFiles &files, const PackageInfo &info,
                         const std::vector<KernelBuild> &builds, const std::vector<TimeLoop> &loops,
                         const std::vector<TimeTileChoice> &tiles) const {
  add_cuda_to_library(files, info, builds, gpu_ ? gpu_->description() : "", times_);
  if (bounds_)
    add_bounds_to_record(files.tuning_record, "gpu", *bounds_);
  files.cuda_source += time_tiled_cuda_source(info, builds, loops, tiles);
}

std::optional<TimeTileChoice> CudaTarget::time_tile_choice(const TimeLoop &t,
                                                           const TimeTilePlan &plan,
                                                           const std::vector<KernelBuild> &builds,
                                                           const TimeTileAsk &ask,
                                                           const TargetRun &run) {
  if (ask.forced > 0 || !run.tune)
    return choose_cuda_time_tiles(t, plan, ask.forced, ask.form);
  // Measured on the GPU: the steps against both forms' tiles.
  TuneOptions options = run.tune_options;
  options.work_dir = run.work_dir / ("cuda_time_tiles_" + t.signature.name);
  options.progress = run.progress;
  std::filesystem::create_directories(options.work_dir);
  if (run.progress)
    run.progress("time loop '" + t.signature.name + "' on cuda: tiling in time against the steps");
  try {
    return tune_cuda_time_tiles(t, plan, builds, options);
  } catch (const std::runtime_error &e) {
    TimeTileChoice c = choose_cuda_time_tiles(t, plan, 0);
    c.why = std::string("the GPU tiles could not be measured: ") + e.what();
    return c;
  }
}

std::string CudaTarget::describe_time_tiling(const TimeTilePlan &plan,
                                             const TimeTileAsk &ask) const {
  return std::string("  cuda form ") +
         cuda_time_tile_form_name(cuda_time_tile_form(ask.form, plan)) + "\n";
}

} // namespace f2s
