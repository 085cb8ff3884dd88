#include "harness/Package.h"

#include "ast/TimeTiling.h"
#include "codegen/CudaTimeTile.h"
#include "harness/TimeTileTuner.h"

#include "ast/Aliasing.h"
#include "ast/Analysis.h"
#include "ast/IRPrinter.h"
#include "codegen/CGpuEntry.h"
#include "codegen/CMpiPrinter.h"
#include "codegen/CPrinter.h"
#include "codegen/CSizeDispatch.h"
#include "codegen/CTimeLoop.h"
#include "codegen/Interfaces.h"
#include "harness/Process.h"
#include "harness/Variants.h"
#include "transforms/Parallelize.h"
#include "transforms/RestrictToBox.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

std::string describe_choice(const KernelBuild &b, const Choice &c) {
  const SearchSpace *space = b.tuning ? &b.tuning->space : nullptr;
  std::string what = c.code.variant.target + "/" + c.code.variant.name;
  if (!space)
    return what + ", not tuned";
  return space->describe(c.candidate) + ", tuned";
}

std::string entry_symbol(const PackageInfo &info, const Kernel &k, const std::string &suffix) {
  return info.name + "_" + k.name + suffix;
}

/// The builds of a kernel at each of its tuning sizes, smallest working set
/// first (one with one size).
std::vector<const KernelBuild *> by_size(const KernelBuild &b) {
  std::vector<const KernelBuild *> sizes = {&b};
  for (const KernelBuild &o : b.other_sizes)
    sizes.push_back(&o);
  return sizes;
}

/// The choice of target `target` at one size.
const Choice &choice_of(const KernelBuild &b, const std::string &target) {
  for (const Choice &c : b.choices)
    if (c.code.variant.target == target)
      return c;
  throw std::logic_error("no choice for target " + target + " at one size of '" + b.kernel.name +
                         "'");
}

std::vector<EntryPoint> entry_points(const PackageInfo &info,
                                     const std::vector<KernelBuild> &kernels) {
  std::vector<EntryPoint> entries;
  for (const KernelBuild &b : kernels) {
    const Kernel &k = b.kernel;
    std::string where = k.loc.str();
    auto describe = [&](const Choice &c) {
      if (b.other_sizes.empty())
        return describe_choice(b, c);
      std::string at;
      for (const KernelBuild *s : by_size(b))
        at += (at.empty() ? "" : ", ") + size_name(s->kernel.tune_size);
      return "tuned at " + at + "; each call runs the variant of the size nearest its own";
    };
    entries.push_back({&k, k.name, entry_symbol(info, k, ""),
                       "'" + k.name + "' from '" + k.procedure + "' (" + where +
                           "): " + describe(b.choices[b.default_choice])});
    for (const Choice &c : b.choices)
      entries.push_back(
          {&k, k.name + "_" + c.code.variant.target,
           entry_symbol(info, k, "_" + c.code.variant.target),
           "'" + k.name + "' on target " + c.code.variant.target + ": " + describe(c)});
    const Choice &d = b.choices[b.default_choice];
    bool first_touch = true;
    for (const KernelBuild *s : by_size(b))
      first_touch &= !s->choices[s->default_choice].code.first_touch_name.empty();
    if (first_touch)
      entries.push_back({&d.code.first_touch_ir, k.name + "_first_touch",
                         entry_symbol(info, k, "_first_touch"),
                         "zero in every grid of '" + k.name + "', touched by the threads of '" +
                             k.name + "' (call it right after ALLOCATE)"});
    if (info.mpi) {
      entries.push_back({&k, k.name + "_exchange", entry_symbol(info, k, "_exchange"),
                         "the halo of '" + k.name +
                             "' from its neighbours over a Cartesian communicator (docs/mpi.md)",
                         true});
      entries.push_back({&k, k.name + "_mpi", entry_symbol(info, k, "_mpi"),
                         "'" + k.name +
                             "' with its halo exchanged, the interior computed while the halo "
                             "travels (docs/mpi.md)",
                         true});
    }
  }
  return entries;
}

// ------------------------------------------------------------- time loops

const KernelBuild &build_of(const std::vector<KernelBuild> &builds, const std::string &name) {
  for (const KernelBuild &b : builds)
    if (b.kernel.name == name)
      return b;
  throw std::logic_error("no build of sweep '" + name + "'");
}

/// The sweeps of `t`, as built.
std::vector<const Kernel *> sweeps_of(const TimeLoop &t, const std::vector<KernelBuild> &builds) {
  std::vector<const Kernel *> sweeps;
  for (const std::string &s : t.sweeps())
    sweeps.push_back(&build_of(builds, s).kernel);
  return sweeps;
}

/// The target names every kernel has a choice for, in the order asked for.
std::vector<std::string> target_names(const KernelBuild &b) {
  std::vector<std::string> names;
  for (const Choice &c : b.choices)
    names.push_back(c.code.variant.target);
  return names;
}

/// Whether the entry points `suffix` ("" the plain ones, "_<target>") of
/// every sweep of `t` run on the GPU, at every tuned size: then the loop
/// keeps its grids there.
bool sweeps_on_gpu(const TimeLoop &t, const std::vector<KernelBuild> &builds,
                   const std::string &suffix) {
  for (const std::string &s : t.sweeps())
    for (const KernelBuild *at : by_size(build_of(builds, s))) {
      const Choice &c =
          suffix.empty() ? at->choices[at->default_choice] : choice_of(*at, suffix.substr(1));
      if (!c.code.runs_on_gpu())
        return false;
    }
  return true;
}

/// The procedures of time loop `t`: the plain one, then one per target.
std::vector<std::pair<std::string, TimeLoopProcedure>>
time_loop_procedures(const PackageInfo &info, const TimeLoop &t,
                     const std::vector<KernelBuild> &builds) {
  const Kernel &k = t.signature;
  std::string sweeps;
  for (const std::string &s : t.sweeps())
    sweeps += (sweeps.empty() ? "'" : ", '") + s + "'";
  std::vector<std::pair<std::string, TimeLoopProcedure>> out;
  std::vector<std::string> suffixes = {""};
  for (const std::string &n : target_names(build_of(builds, t.sweeps().front())))
    suffixes.push_back("_" + n);
  for (const std::string &suffix : suffixes) {
    TimeLoopProcedure p;
    p.symbol = entry_symbol(info, k, suffix);
    p.sweep_prefix = info.name + "_";
    p.sweep_suffix = suffix;
    bool gpu = sweeps_on_gpu(t, builds, suffix);
    if (gpu)
      p.resident = info.name + "_f2s_steps";
    p.comment = "'" + k.name + "' from '" + k.procedure + "' (" + k.loc.str() +
                "): every step of " + "the loop over '" + t.var + "', running " + sweeps +
                (suffix.empty() ? "" : " on target " + suffix.substr(1)) +
                (gpu ? ", the grids on the GPU from the first step to the last" : "");
    out.emplace_back(suffix, p);
  }
  return out;
}

/// The plan of a loop that has a tiled choice (the driver chose from it).
TimeTilePlan tiled_plan(const TimeLoop &t, const std::vector<const Kernel *> &sweeps) {
  TimeTiling tiling = plan_time_tiling(t, sweeps);
  if (!tiling.plan)
    throw std::logic_error("time loop '" + t.signature.name + "' has a tiled choice but no plan");
  return *tiling.plan;
}

/// The tiled choice for loop `t` on the target of procedure `suffix`
/// ("": the sweeps' default target), if it has one.
const TimeTileChoice *tiled_choice(const TimeLoop &t, const std::string &suffix,
                                   const std::vector<KernelBuild> &builds,
                                   const std::vector<TimeTileChoice> &tiles) {
  const KernelBuild &first = build_of(builds, t.sweeps().front());
  std::string target =
      suffix.empty() ? first.choices[first.default_choice].code.variant.target : suffix.substr(1);
  for (const TimeTileChoice &c : tiles)
    if (c.loop == t.signature.name && c.target == target && c.tiled)
      return &c;
  return nullptr;
}

std::string time_loops_c_source(const PackageInfo &info, const std::vector<KernelBuild> &builds,
                                const std::vector<TimeLoop> &loops,
                                const std::vector<TimeTileChoice> &tiles) {
  std::ostringstream out;
  bool declared = false;
  for (const TimeLoop &t : loops) {
    bool args_struct = false;
    std::set<std::string> coded; // the targets and forms whose tiled variant is printed
    for (const auto &[suffix, p] : time_loop_procedures(info, t, builds)) {
      if (!p.resident.empty() && !declared) {
        out << "/* The CUDA source's residency for time loops. */\n"
            << print_c_time_loop_residency(p.resident);
        declared = true;
      }
      const TimeTileChoice *c = tiled_choice(t, suffix, builds, tiles);
      if (!c) {
        out << print_c_time_loop(t, sweeps_of(t, builds), p);
        continue;
      }
      if (c->target == "cuda") {
        // The GPU procedure is in the CUDA source; the steps are its fallback.
        TimeLoopProcedure steps = p;
        steps.symbol = p.symbol + "_steps";
        steps.comment = p.comment + "; the fallback of the procedure tiled in time";
        out << print_c_time_loop(t, sweeps_of(t, builds), steps);
        continue;
      }
      std::vector<const Kernel *> sweeps = sweeps_of(t, builds);
      TimeTilePlan plan = tiled_plan(t, sweeps);
      if (!args_struct)
        out << print_c_args_struct(t.signature);
      args_struct = true;
      if (coded.insert(c->target + "/" + c->form).second)
        out << print_time_tiled_code(t, plan, sweeps, *c);
      std::string tile;
      for (size_t d = 1; d < c->tune.size(); ++d)
        tile += (d > 1 ? "x" : "") + std::to_string(c->tune[d]);
      out << print_time_tiled_entry(t, plan, *c, p.symbol,
                                    "'" + t.signature.name + "' from '" + t.signature.procedure +
                                        "' (" + t.signature.loc.str() +
                                        "): every step of the loop over '" + t.var +
                                        "', tiled in time on target " + c->target + " (" +
                                        (c->form.empty() ? std::string("overlapped") : c->form) +
                                        "): " + std::to_string(c->tune[0]) + " steps per tile of " +
                                        tile + " points (" + c->why + ")");
    }
  }
  return out.str();
}

std::vector<EntryPoint> time_loop_entries(const PackageInfo &info,
                                          const std::vector<KernelBuild> &builds,
                                          const std::vector<TimeLoop> &loops) {
  std::vector<EntryPoint> entries;
  for (const TimeLoop &t : loops)
    for (const auto &[suffix, p] : time_loop_procedures(info, t, builds))
      entries.push_back({&t.signature, t.signature.name + suffix, p.symbol, p.comment});
  return entries;
}

/// How the loop was tiled in time, or why not, and what each target chose.
nlohmann::json time_tiling_record(const TimeLoop &t, const std::vector<KernelBuild> &builds,
                                  const std::vector<TimeTileChoice> &tiles) {
  TimeTiling tiling = plan_time_tiling(t, sweeps_of(t, builds));
  nlohmann::json j;
  if (!tiling.plan) {
    j["possible"] = false;
    j["reason"] = tiling.reason;
    return j;
  }
  j["possible"] = true;
  j["plan"] = print_time_tile_plan(*tiling.plan);
  j["choices"] = nlohmann::json::array();
  for (const TimeTileChoice &c : tiles) {
    if (c.loop != t.signature.name)
      continue;
    nlohmann::json cj = {
        {"target", c.target},
        {"tiled", c.tiled},
        {"why", c.why},
        {"model_bytes_per_point_step", {{"steps", c.steps_bytes}, {"tiled", c.tiled_bytes}}}};
    if (c.tiled) {
      cj["time_tile"] = c.tune[0];
      cj["tile"] = std::vector<long>(c.tune.begin() + 1, c.tune.end());
      if (!c.form.empty())
        cj["form"] = c.form;
    }
    if (c.tuning) {
      cj["measured"] = {{"trips", c.trips}, {"steps_s", c.steps_s}, {"tiled_s", c.tiled_s}};
      nlohmann::json cands = nlohmann::json::array();
      for (const CandidateResult &r : c.tuning->results) {
        nlohmann::json rj = {{"variant", c.tuning->space.variants[r.candidate.variant].name},
                             {"status", status_name(r.status)},
                             {"seconds", r.seconds}};
        if (!r.candidate.tune.empty())
          rj["tune"] = r.candidate.tune;
        if (!r.detail.empty())
          rj["detail"] = r.detail;
        cands.push_back(rj);
      }
      cj["candidates"] = cands;
    }
    j["choices"].push_back(cj);
  }
  return j;
}

nlohmann::json time_loops_record(const std::vector<TimeLoop> &loops,
                                 const std::vector<KernelBuild> &builds,
                                 const std::vector<TimeTileChoice> &tiles) {
  nlohmann::json out = nlohmann::json::array();
  for (const TimeLoop &t : loops) {
    const Kernel &k = t.signature;
    nlohmann::json written = nlohmann::json::array();
    for (const Reduction &r : k.reductions)
      written.push_back(r.var);
    out.push_back({{"name", k.name},
                   {"procedure", k.procedure},
                   {"source", k.loc.str()},
                   {"variable", t.var},
                   {"sweeps", t.sweeps()},
                   {"writes_scalars", written},
                   {"ir", print_time_loop(t)},
                   {"time_tiling", time_tiling_record(t, builds, tiles)}});
  }
  return out;
}

/// <NAME>_mpi.c: every kernel's halo exchange.
std::string library_mpi_source(const PackageInfo &info, const std::vector<KernelBuild> &kernels) {
  // Kernels whose default choice runs on the GPU exchange there what a data
  // region keeps there (docs/mpi.md, "On the GPU").
  auto on_gpu = [](const KernelBuild &b) { return b.choices[b.default_choice].code.runs_on_gpu(); };
  const bool gpu = std::any_of(kernels.begin(), kernels.end(), on_gpu);
  std::string out = "/* Generated by f2stencil: do not edit. The MPI part of the library. */\n"
                    "#include <mpi.h>\n#include <stdint.h>\n#include <stdio.h>\n"
                    "#include <stdlib.h>\n\n" +
                    print_c_mpi_prelude(gpu ? info.name : "");
  for (const KernelBuild &b : kernels) {
    const Kernel &k = b.kernel;
    HaloPlan plan = plan_halo_exchange(k, analyze(k));
    if (plan.refusal) // the driver refused it before anything was built
      throw std::logic_error("kernel '" + k.name + "' has no halo exchange: " + *plan.refusal);
    std::optional<MpiGpu> g;
    if (on_gpu(b)) {
      // harness/CudaPackage prints the box where this names it.
      g = MpiGpu{info.name, entry_symbol(info, k, "_box_cuda")};
      std::string proto = print_c_entry_prototype(restrict_to_box(k), g->box_symbol);
      out += "int " + g->box_symbol + "(int f2s_stream, " +
             proto.substr(5 + g->box_symbol.size() + 1) + ";\n";
    }
    out += print_c_exchange(k, plan, entry_symbol(info, k, "_exchange"), g ? &*g : nullptr);
    // mpi_box_entries prints both in the library's C.
    std::string interior = entry_symbol(info, k, "_box_tuned"),
                strip = entry_symbol(info, k, "_box");
    out += print_c_entry_prototype(restrict_to_box(k), interior) + ";\n";
    out += print_c_entry_prototype(restrict_to_box(k), strip) + ";\n";
    out += print_c_overlapped(k, plan, entry_symbol(info, k, "_mpi"), interior, strip,
                              g ? &*g : nullptr);
  }
  return out;
}

std::string header_comment(const PackageInfo &info) {
  std::string files;
  for (const std::string &s : info.sources)
    files += (files.empty() ? "" : ", ") + s;
  return "Generated by f2stencil from " + files + ": do not edit.\nLibrary " + info.name +
         ", tuned on " + info.machine + ".";
}

nlohmann::json facts_json(const Kernel &k) {
  KernelFacts f = analyze(k);
  nlohmann::json grids = nlohmann::json::object();
  for (const auto &[grid, fp] : f.footprint) {
    grids[grid] = {
        {"reads", fp.reads.size()},
        {"writes", fp.writes.size()},
        {"halo", f.grid_halo.count(grid) ? f.grid_halo.at(grid) : std::vector<int64_t>{}}};
  }
  return {{"flops_per_point", f.flops},
          {"read_bytes_per_point", f.read_bytes},
          {"write_bytes_per_point", f.write_bytes},
          {"write_allocate_bytes_per_point", f.write_allocate_bytes},
          {"intensity", f.intensity(false)},
          {"intensity_with_write_allocate", f.intensity(true)},
          {"halo", f.halo},
          {"grids", grids}};
}

nlohmann::json tuning_record(const PackageInfo &info, const std::vector<KernelBuild> &kernels) {
  nlohmann::json record = {{"library", info.name},    {"generator", "f2stencil " F2S_VERSION},
                           {"sources", info.sources}, {"machine", info.machine},
                           {"cflags", info.cflags},   {"kernels", nlohmann::json::array()}};
  for (const KernelBuild &b : kernels) {
    const Kernel &k = b.kernel;
    nlohmann::json kj = {{"name", k.name},
                         {"procedure", k.procedure},
                         {"source", k.loc.str()},
                         {"facts", facts_json(k)},
                         {"tuned", b.tuning.has_value()}};
    kj["ir"] = print_kernel(k); // as --emit=ir prints it, for the report
    if (k.ordered)
      kj["ordered"] = {
          {"loop", k.ordered->var}, {"reason", k.ordered->reason}, {"at", k.ordered->loc.str()}};
    if (k.column) {
      nlohmann::json work = nlohmann::json::array();
      for (const Variable &w : k.column->work)
        work.push_back(w.name);
      kj["column"] = {{"loop", k.column->var}, {"work_arrays", work}, {"at", k.column->loc.str()}};
    }
    nlohmann::json chosen = nlohmann::json::object();
    for (const Choice &c : b.choices) {
      std::string id = b.tuning ? b.tuning->space.describe(c.candidate)
                                : c.code.variant.target + "/" + c.code.variant.name;
      chosen[c.code.variant.target] = id;
    }
    chosen["default"] = chosen[b.choices[b.default_choice].code.variant.target];
    kj["chosen"] = chosen;
    if (b.tuning) {
      const KernelTuning &t = *b.tuning;
      kj["tune_size"] = k.tune_size;
      kj["extents"] = t.size.extents;
      nlohmann::json cands = nlohmann::json::array();
      for (const CandidateResult &r : t.results) {
        const Variant &v = t.space.variants[r.candidate.variant];
        nlohmann::json params = {{"threads", r.candidate.threads}};
        for (const auto &[name, value] : v.options)
          params[name] = value;
        for (const auto &[name, value] : r.candidate.tune)
          params[name] = value;
        nlohmann::json cj = {{"id", r.description},
                             {"target", v.target},
                             {"variant", v.name},
                             {"params", params},
                             {"status", status_name(r.status)},
                             {"verified", r.status == CandidateStatus::Verified}};
        if (r.status == CandidateStatus::Verified || r.status == CandidateStatus::WrongResult)
          cj["max_rel_err"] = r.max_rel_err;
        if (r.status == CandidateStatus::Verified) {
          cj["time_s"] = r.seconds;
          cj["gflops"] = r.gflops;
          cj["gbps"] = r.gbps;
          if (r.confirmed)
            cj["confirmed"] = true;
        } else {
          cj["detail"] = r.detail;
        }
        cands.push_back(cj);
      }
      kj["candidates"] = cands;
      nlohmann::json search = {{"method", t.search},
                               {"space", t.space.summary()},
                               {"enumerated", t.space.candidates.size()},
                               {"measured", t.results.size()},
                               {"budget_exhausted", t.budget_exhausted},
                               {"seconds", t.seconds},
                               {"reused_measurements", t.reused},
                               {"reused", t.reused > 0 && t.reused == t.results.size()},
                               {"considered", t.space.considered},
                               {"pruned", t.space.pruned}};
      // The space holds every target's candidates; the report counts each.
      std::map<std::string, size_t> by_target;
      for (const Candidate &c : t.space.candidates)
        ++by_target[t.space.variants[c.variant].target];
      search["enumerated_by_target"] = by_target;
      if (t.cuda_considered > 0) {
        search["cuda_considered"] = t.cuda_considered;
        search["cuda_pruned"] = t.cuda_pruned;
      }
      auto comparison = [](const KernelTuning::Comparison &c) {
        nlohmann::json j = {{"cheap", c.cheap},
                            {"cheap_measured", c.cheap_measured},
                            {"cheap_best_s", c.cheap_best_s},
                            {"exhaustive_best_s", c.exhaustive_best_s},
                            {"exhaustive_complete", c.exhaustive_complete}};
        if (c.cheap_best_s > 0)
          j["exhaustive_over_cheap"] = c.exhaustive_best_s / c.cheap_best_s;
        if (c.side_by_side) {
          j["side_by_side"] = true;
          j["cheap_choice"] = c.cheap_choice;
          j["exhaustive_choice"] = c.exhaustive_choice;
        }
        return j;
      };
      if (t.comparison)
        search["comparison"] = comparison(*t.comparison);
      if (t.cuda_comparison)
        search["cuda_comparison"] = comparison(*t.cuda_comparison);
      kj["search"] = search;
      auto best = t.best();
      kj["winner"] = best ? nlohmann::json(t.results[*best].description) : nlohmann::json();
    }
    if (!b.other_sizes.empty()) {
      std::vector<TunedSize> tuned = tuned_sizes(b);
      std::vector<double> bounds = dispatch_bounds(tuned);
      nlohmann::json sizes = nlohmann::json::array();
      std::vector<const KernelBuild *> all = by_size(b);
      for (size_t i = 0; i < all.size(); ++i) {
        KernelBuild one = *all[i];
        one.other_sizes.clear();
        nlohmann::json sj = tuning_record(info, {one})["kernels"][0];
        sj.erase("ir"); // the kernel's, above
        sj["working_set_bytes"] = tuned[i].bytes;
        // The calls whose working set is in (from, up_to] run this size's
        // choices; null: no bound.
        sj["calls_from_bytes"] = i ? nlohmann::json(bounds[i - 1]) : nlohmann::json();
        sj["calls_up_to_bytes"] = i < bounds.size() ? nlohmann::json(bounds[i]) : nlohmann::json();
        sizes.push_back(sj);
      }
      kj["sizes"] = sizes;
    }
    record["kernels"].push_back(kj);
  }
  return record;
}

std::string megabytes(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g MB", bytes * 1e-6);
  return buf;
}

std::string report(const PackageInfo &info, const std::vector<KernelBuild> &kernels) {
  std::ostringstream out;
  out << header_comment(info) << "\n\n";
  // A kernel tuned at several sizes has a section per size, after a line
  // that says which calls run its choices.
  std::vector<std::pair<const KernelBuild *, std::string>> sections;
  for (const KernelBuild &b : kernels) {
    std::vector<const KernelBuild *> sizes = by_size(b);
    std::vector<TunedSize> tuned = tuned_sizes(b);
    std::vector<double> bounds = dispatch_bounds(tuned);
    for (size_t i = 0; i < sizes.size(); ++i) {
      std::string line;
      if (sizes.size() > 1)
        line = "  size " + std::to_string(i + 1) + " of " + std::to_string(sizes.size()) + ", " +
               size_name(tuned[i].extents) + " (working set " + megabytes(tuned[i].bytes) +
               "): runs the calls with a working set" +
               (i ? " above " + megabytes(bounds[i - 1]) : "") +
               (i && i < bounds.size() ? "," : "") +
               (i < bounds.size() ? " up to " + megabytes(bounds[i]) : "") + "\n";
      sections.push_back({sizes[i], line});
    }
  }
  for (const auto &[section, size_line] : sections) {
    const KernelBuild &b = *section;
    const Kernel &k = b.kernel;
    char line[256];
    if (section->other_sizes.size() || size_line.empty()) {
      KernelFacts f = analyze(k);
      out << "Kernel '" << k.name << "' from '" << k.procedure << "' at " << k.loc.str() << "\n";
      std::snprintf(line, sizeof line,
                    "  %lld flops, %lld bytes read, %lld written, %lld write-allocate per point; "
                    "intensity %.3f (%.3f with write-allocate)\n",
                    (long long)f.flops, (long long)f.read_bytes, (long long)f.write_bytes,
                    (long long)f.write_allocate_bytes, f.intensity(false), f.intensity(true));
      out << line;
      if (k.ordered)
        out << "  loop '" << k.ordered->var
            << "' runs in order inside each column of the others: " << k.ordered->reason << " ("
            << k.ordered->loc.str() << ")\n";
      if (k.column) {
        out << "  the nest runs columns in order along '" << k.column->var
            << "', each with its own work arrays (";
        for (size_t w = 0; w < k.column->work.size(); ++w)
          out << (w ? ", " : "") << "'" << k.column->work[w].name << "'";
        out << ") (" << k.column->loc.str() << ")\n";
      }
    }
    out << size_line;
    for (const Choice &c : b.choices)
      out << "  " << c.code.variant.target << ": " << describe_choice(b, c) << "\n";
    if (!b.tuning) {
      out << "\n";
      continue;
    }
    const KernelTuning &t = *b.tuning;
    size_t verified = 0;
    for (const CandidateResult &r : t.results)
      verified += r.status == CandidateStatus::Verified;
    out << "  tuned at";
    for (int64_t e : t.size.extents)
      out << " " << e;
    out << ": " << t.space.summary() << "\n";
    std::snprintf(line, sizeof line, "  %s search measured %zu, %zu verified, in %.1f s%s\n",
                  t.search.c_str(), t.results.size(), verified, t.seconds,
                  t.budget_exhausted ? " (budget spent)" : "");
    out << line;
    if (t.reused > 0 && t.reused == t.results.size())
      out << "  reused from the tuning database: nothing measured in this run\n";
    else if (t.reused > 0)
      out << "  resumed: " << t.reused
          << " of the measurements were taken from the tuning database\n";
    for (const auto &cmp : {t.comparison, t.cuda_comparison}) {
      if (!cmp || cmp->cheap_best_s <= 0)
        continue;
      const KernelTuning::Comparison &c = *cmp;
      std::snprintf(line, sizeof line,
                    "  %s search: best %.3f ms after %zu measurements; exhaustive%s: best %.3f "
                    "ms (the cheap search reached %.1f%% of its speed)\n",
                    c.cheap.c_str(), c.cheap_best_s * 1e3, c.cheap_measured,
                    c.exhaustive_complete ? "" : " (cut by the budget)", c.exhaustive_best_s * 1e3,
                    100.0 * c.exhaustive_best_s / c.cheap_best_s);
      out << line;
      if (c.side_by_side)
        out << "  (both bests measured again side by side: " << c.cheap_choice << " and "
            << c.exhaustive_choice << ")\n";
    }
    for (const CandidateResult &r : t.results) {
      if (r.status == CandidateStatus::Verified)
        std::snprintf(line, sizeof line, "    %-44s %9.3f ms %8.2f GFlop/s %7.1f GB/s\n",
                      r.description.c_str(), r.seconds * 1e3, r.gflops, r.gbps);
      else
        std::snprintf(line, sizeof line, "    %-44s %s: %s\n", r.description.c_str(),
                      status_name(r.status), r.detail.c_str());
      out << line;
    }
    out << "\n";
  }
  return out.str();
}

/// `per_size` (entry i: what an entry point runs for calls nearest tuned size
/// i) with the calls that run one variant with the same values and threads
/// merged, each comment saying the sizes it serves.
std::vector<SizedCall> merge_sized_calls(const std::vector<SizedCall> &per_size,
                                         const std::vector<TunedSize> &tuned) {
  std::vector<SizedCall> calls;
  for (const SizedCall &call : per_size) {
    auto same = std::find_if(calls.begin(), calls.end(), [&](const SizedCall &o) {
      return o.variant == call.variant && o.tune == call.tune && o.threads == call.threads;
    });
    if (same != calls.end())
      same->sizes.insert(same->sizes.end(), call.sizes.begin(), call.sizes.end());
    else
      calls.push_back(call);
  }
  for (SizedCall &call : calls) {
    std::string at;
    for (size_t i : call.sizes)
      at += (at.empty() ? "" : ", ") + size_name(tuned[i].extents);
    call.comment = "tuned at " + at + ": " + call.comment;
  }
  return calls;
}

/// The choice whose code a call of `at`'s size runs on the CPU: the default
/// where it runs there, else the pthreads choice (the tuned threads and
/// their pinning), else the c one; null where the library has no CPU target.
const Choice *cpu_choice(const KernelBuild &at) {
  const Choice &d = at.choices[at.default_choice];
  if (!d.code.runs_on_gpu())
    return &d;
  for (const char *target : {"pthreads", "c"})
    for (const Choice &c : at.choices)
      if (c.code.variant.target == target)
        return &c;
  return nullptr;
}

/// Whether some choice of `b`, at some size, runs on the GPU.
bool has_gpu_choice(const KernelBuild &b) {
  for (const KernelBuild *s : by_size(b))
    for (const Choice &c : s->choices)
      if (c.code.runs_on_gpu())
        return true;
  return false;
}

/// The name of the CPU code that a GPU entry point of `k` hands the calls
/// to that do not run on the GPU.
std::string cpu_path_name(const Kernel &k) {
  return "f2s_" + k.name + "_on_cpu";
}

/// That code (EntryForm::CpuPath): at each tuned size, the variant of
/// cpu_choice with its tuning values and threads, or, without a CPU
/// target, the parallel nest on every processor (f2s_num_threads(0)).
/// With several sizes, `selector` (print_c_size_selector) precedes it.
std::string cpu_path(const KernelBuild &b, const std::string &selector, AliasedCalls aliased) {
  const Kernel &k = b.kernel;
  std::vector<const KernelBuild *> sizes = by_size(b);
  std::vector<SizedCall> calls;
  bool plain = false;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const Choice *c = cpu_choice(*sizes[i]);
    plain |= !c;
    if (!c)
      calls.push_back(
          {{i}, "parallel", {}, 0, "no CPU target: the parallel nest on every processor"});
    else
      calls.push_back({{i},
                       c->code.variant.target + "_" + c->code.variant.name,
                       tune_values(c->code, c->candidate),
                       c->candidate.threads,
                       describe_choice(*sizes[i], *c)});
  }
  std::ostringstream out;
  if (plain)
    out << print_c_variant(parallelize_outer(k), "parallel");
  const std::string comment =
      "'" + k.name + "' on the CPU, for the calls its GPU entry points do not run on the GPU";
  if (sizes.size() == 1) {
    out << print_c_entry(k, cpu_path_name(k), calls[0].variant, calls[0].tune, calls[0].threads,
                         comment + ": " + calls[0].comment, aliased, EntryForm::CpuPath);
    return out.str();
  }
  out << print_c_sized_entry(
      k, cpu_path_name(k), selector, merge_sized_calls(calls, tuned_sizes(b)),
      comment + "; the variant tuned at the size nearest the call's", aliased, EntryForm::CpuPath);
  return out.str();
}

/// The entry points of a kernel tuned at several sizes: each runs, for a
/// call, the choice of the tuned size nearest the call's (one case per
/// distinct choice, so a variant that won with the same values and threads at
/// several sizes is called from one place; an entry whose choice is the same
/// at every size does not dispatch at all).
std::string sized_entries(const PackageInfo &info, const KernelBuild &b, AliasedCalls cpu_aliased,
                          bool check_aliasing) {
  const Kernel &k = b.kernel;
  std::vector<const KernelBuild *> sizes = by_size(b);
  std::vector<TunedSize> tuned = tuned_sizes(b);
  const std::string selector = "f2s_" + k.name + "_nearest_size";
  std::ostringstream out;
  out << print_c_size_selector(k, k.name, selector, tuned, bytes_per_point(k))
      << print_c_size_query(k, entry_symbol(info, k, "_tuned_size"), selector, tuned);
  if (has_gpu_choice(b))
    out << cpu_path(b, selector, cpu_aliased);

  // The calls of one entry point: its choice at each size, merged where equal.
  auto calls_of = [&](auto &&choice_at) {
    std::vector<SizedCall> calls;
    for (size_t i = 0; i < sizes.size(); ++i) {
      const Choice &c = choice_at(*sizes[i]);
      calls.push_back({{i},
                       c.code.variant.target + "_" + c.code.variant.name,
                       tune_values(c.code, c.candidate),
                       c.candidate.threads,
                       describe_choice(*sizes[i], c)});
    }
    return merge_sized_calls(calls, tuned);
  };
  auto entry = [&](const Kernel &ek, const std::string &suffix, const std::string &sel,
                   const std::vector<SizedCall> &calls, const std::string &comment,
                   AliasedCalls aliased, bool gpu = false) {
    if (gpu)
      out << print_c_gpu_entry(ek, entry_symbol(info, k, suffix), sel, calls, cpu_path_name(k),
                               comment + (calls.size() == 1 ? "; " + calls[0].comment
                                                            : "; the variant tuned at the size "
                                                              "nearest the call's"),
                               check_aliasing);
    else if (calls.size() == 1)
      out << print_c_entry(ek, entry_symbol(info, k, suffix), calls[0].variant, calls[0].tune,
                           calls[0].threads, comment + "; " + calls[0].comment, aliased);
    else
      out << print_c_sized_entry(ek, entry_symbol(info, k, suffix), sel, calls,
                                 comment + "; the variant tuned at the size nearest the call's",
                                 aliased);
  };
  auto is_gpu = [](const Choice &c) { return c.code.runs_on_gpu(); };
  const Choice &d = b.choices[b.default_choice];
  auto default_of = [](const KernelBuild &s) -> const Choice & {
    return s.choices[s.default_choice];
  };
  entry(k, "", selector, calls_of(default_of), "'" + k.name + "'", cpu_aliased, is_gpu(d));
  for (const Choice &c : b.choices) {
    const std::string &t = c.code.variant.target;
    entry(k, "_" + t, selector,
          calls_of([&](const KernelBuild &s) -> const Choice & { return choice_of(s, t); }),
          "'" + k.name + "' on target " + t, cpu_aliased, is_gpu(c));
  }
  // The first touch runs, for a call with the same arguments, the first-touch
  // function of the variant the plain entry point runs for it, with the same
  // tuning values and threads: the same size is selected from the same
  // extents, so each page goes to the thread that computes it at that size.
  for (const KernelBuild *s : sizes)
    if (s->choices[s->default_choice].code.first_touch_name.empty())
      return out.str();
  const Kernel &ft = d.code.first_touch_ir;
  out << print_c_args_struct(ft);
  std::set<std::string> printed;
  for (const KernelBuild *s : sizes) {
    const Choice &c = s->choices[s->default_choice];
    if (printed.insert(c.code.first_touch_name).second)
      out << c.code.first_touch_function;
  }
  std::vector<SizedCall> calls = calls_of(default_of);
  const std::string ft_selector = "f2s_" + ft.name + "_nearest_size";
  if (calls.size() > 1)
    out << print_c_size_selector(k, ft.name, ft_selector, tuned, bytes_per_point(k));
  entry(ft, "_first_touch", ft_selector, calls,
        "'" + k.name + "_first_touch': zero in every grid, by the threads of '" + k.name + "'",
        AliasedCalls::Unchecked);
  return out.str();
}

/// The CPU choice whose variant K_mpi runs on the interior at one size: the
/// default where it runs on the CPU. Where the default runs on the GPU,
/// K_mpi computes on the CPU only for grids outside a data region, and runs
/// the pthreads choice there; null where the kernel has none (the plain
/// parallel nest on every processor).
const Choice *mpi_cpu_choice(const KernelBuild &b) {
  const Choice &d = b.choices[b.default_choice];
  if (!d.code.runs_on_gpu())
    return &d;
  for (const Choice &c : b.choices)
    if (c.code.variant.target == "pthreads")
      return &c;
  return nullptr;
}

/// What K_mpi's interior runs at tuned size `i`: choice `c`'s variant on
/// `box` (its passes applied to the box kernel, the function printed to `out`
/// once per variant), with the choice's tuning values and threads. The plain
/// parallel nest is the strips' function already.
SizedCall interior_call(const Kernel &box, const KernelBuild &at, const Choice *c, size_t i,
                        std::set<std::string> &printed, std::ostringstream &out) {
  if (!c)
    return {{i}, "parallel", {}, 0, "no CPU choice: the plain parallel nest on every processor"};
  const Variant &v = c->code.variant;
  const std::string why = describe_choice(at, *c);
  if (v.passes == std::vector<Pass>{Pass::ParallelizeOuter})
    return {{i}, "parallel", {}, c->candidate.threads, why};
  const std::string name = v.target + "_" + v.name;
  Kernel ir = apply_variant(box, v);
  // The box's bounds are named apart from every name of the kernel, so the
  // passes name their tuning parameters (block sizes, chunk, thread group)
  // as they did for the kernel, and the choice's values fit them in order.
  std::vector<std::string> want, got;
  for (const Variable &p : c->code.ir.tuning)
    want.push_back(p.name);
  for (const Variable &p : ir.tuning)
    got.push_back(p.name);
  if (want != got)
    throw std::logic_error("variant '" + v.name + "' of '" + box.name +
                           "' has other tuning parameters than on the whole nest");
  if (printed.insert(name).second)
    out << print_c_variant(ir, name);
  return {{i}, name, tune_values(c->code, c->candidate), c->candidate.threads, why};
}

/// The entry points K_mpi (codegen/CMpiPrinter's print_c_overlapped)
/// computes with, each the kernel on a box of its points given at run time
/// (transforms/RestrictToBox):
/// - NAME_K_box_tuned, for the interior (the owned cells less a halo's width
///   at each side with a neighbour: nearly all of them), runs the tuned CPU
///   variant (mpi_cpu_choice) with its block sizes, chunks and thread groups,
///   which the generated loops clip to any box, and its threads;
/// - NAME_K_box, for the strips around the interior (as thin as the halo),
///   runs the plain parallel nest with the same threads.
/// A kernel tuned at several sizes dispatches in both by the call's size
/// (the kernel's arguments, not the box), as its own entry points do.
std::string mpi_box_entries(const PackageInfo &info, const KernelBuild &b) {
  const Kernel &k = b.kernel;
  const Kernel box = restrict_to_box(k);
  std::vector<const KernelBuild *> sizes = by_size(b);
  std::vector<TunedSize> tuned = tuned_sizes(b);
  std::ostringstream out, variants;
  std::set<std::string> printed;
  std::vector<SizedCall> interior, strips;
  for (size_t i = 0; i < sizes.size(); ++i) {
    const Choice *c = mpi_cpu_choice(*sizes[i]);
    interior.push_back(interior_call(box, *sizes[i], c, i, printed, variants));
    strips.push_back(
        {{i},
         "parallel",
         {},
         c ? c->candidate.threads : 0,
         c ? "the plain parallel nest with the threads of " + describe_choice(*sizes[i], *c)
           : "no CPU choice: the plain parallel nest on every processor"});
  }
  interior = merge_sized_calls(interior, tuned);
  strips = merge_sized_calls(strips, tuned);
  out << print_c_args_struct(box) << print_c_variant(parallelize_outer(box), "parallel")
      << variants.str();
  const std::string selector = "f2s_" + box.name + "_nearest_size";
  if (interior.size() > 1 || strips.size() > 1)
    out << print_c_size_selector(k, box.name, selector, tuned, bytes_per_point(k));
  auto entry = [&](const std::string &suffix, const std::vector<SizedCall> &calls,
                   const std::string &comment) {
    if (calls.size() == 1)
      out << print_c_entry(box, entry_symbol(info, k, suffix), calls[0].variant, calls[0].tune,
                           calls[0].threads, comment + "; " + calls[0].comment);
    else
      out << print_c_sized_entry(box, entry_symbol(info, k, suffix), selector, calls,
                                 comment + "; the variant tuned at the size nearest the call's");
  };
  entry("_box_tuned", interior,
        "'" + k.name + "' on a box of its points, for the interior of " + k.name + "_mpi");
  entry("_box", strips,
        "'" + k.name + "' on a box of its points, for the strips of " + k.name + "_mpi");
  return out.str();
}

} // namespace

int64_t bytes_per_point(const Kernel &k) {
  return std::max<int64_t>(1, analyze(k).bytes(false));
}

std::vector<TunedSize> tuned_sizes(const KernelBuild &b) {
  std::vector<TunedSize> sizes;
  for (const KernelBuild *s : by_size(b))
    sizes.push_back(
        {s->kernel.tune_size, working_set_bytes(s->kernel.tune_size, bytes_per_point(b.kernel))});
  return sizes;
}

std::string library_c_source(const PackageInfo &info, const std::vector<KernelBuild> &kernels,
                             const std::vector<TimeLoop> &time_loops,
                             const std::vector<TimeTileChoice> &tiles) {
  std::ostringstream out;
  for (const KernelBuild &b : kernels) {
    const Kernel &k = b.kernel;
    out << print_c_args_struct(k);
    // A variant chosen at several sizes (with other tuning values or not) is
    // one function. Its code depends on the variant alone; the comment above
    // it prints the kernel, whose tune_size is the size it was tuned at.
    auto code_of = [](const std::string &function) {
      size_t comment_end = function.find(" */\n");
      return function.substr(comment_end == std::string::npos ? 0 : comment_end);
    };
    std::map<std::string, std::string> printed;
    for (const KernelBuild *at : by_size(b))
      for (const Choice &c : at->choices)
        if (printed.emplace(c.code.c_name, code_of(c.code.c_function)).second)
          out << c.code.c_function;
        else if (printed[c.code.c_name] != code_of(c.code.c_function))
          throw std::logic_error("variant '" + c.code.c_name + "' of '" + k.name +
                                 "' has different code at two tuning sizes");
    // Calls that pass one array as two arguments: the plain parallel nest
    // without restrict on the CPU, and on the GPU the nest with them
    // identified (harness/CudaVariants), where that nest is still free of
    // dependences; a stop with the arguments' names otherwise (no code of
    // the library computes what the loops do then).
    Aliasing aliasing = analyze_aliasing(k);
    AliasedCalls cpu_aliased = AliasedCalls::Unchecked;
    const bool check_aliasing = needs_aliasing_check(aliasing);
    if (check_aliasing) {
      out << print_c_aliasing_check(k, aliasing);
      cpu_aliased = AliasedCalls::Stop;
      if (!aliasing.safe.empty()) {
        out << print_c_variant(parallelize_outer(k), "aliased", false);
        cpu_aliased = AliasedCalls::RunAliasedVariant;
      }
    }
    if (has_gpu_choice(b) && b.other_sizes.empty())
      out << cpu_path(b, "", cpu_aliased);
    auto entry = [&](const Choice &c, const std::string &suffix, const std::string &comment) {
      const std::string variant = c.code.variant.target + "_" + c.code.variant.name;
      if (c.code.runs_on_gpu())
        out << print_c_gpu_entry(k, entry_symbol(info, k, suffix), "", {{{0}, variant, {}, 0, ""}},
                                 cpu_path_name(k), comment, check_aliasing);
      else
        out << print_c_entry(k, entry_symbol(info, k, suffix), variant,
                             tune_values(c.code, c.candidate), c.candidate.threads, comment,
                             cpu_aliased);
    };
    const Choice &d = b.choices[b.default_choice];
    if (info.mpi) // the overlapped MPI procedure's interior and strips (<lib>_mpi.c)
      out << mpi_box_entries(info, b);
    if (!b.other_sizes.empty()) {
      out << sized_entries(info, b, cpu_aliased, check_aliasing);
      continue;
    }
    entry(d, "", "'" + k.name + "': " + describe_choice(b, d));
    for (const Choice &c : b.choices)
      entry(c, "_" + c.code.variant.target,
            "'" + k.name + "' on target " + c.code.variant.target + ": " + describe_choice(b, c));
    // The first touch takes the default choice's tuning values and threads,
    // so it splits the grids exactly as the plain entry point computes them.
    if (!d.code.first_touch_name.empty()) {
      const Kernel &ft = d.code.first_touch_ir;
      out << print_c_args_struct(ft) << d.code.first_touch_function
          << print_c_entry(ft, entry_symbol(info, k, "_first_touch"),
                           d.code.variant.target + "_" + d.code.variant.name,
                           tune_values(d.code, d.candidate), d.candidate.threads,
                           "'" + k.name + "_first_touch': zero in every grid, by the threads of " +
                               describe_choice(b, d));
    }
  }
  out << time_loops_c_source(info, kernels, time_loops, tiles);
  const std::string code = out.str();
  return print_c_prelude(c_code_streams_rows(code)) +
         print_c_placement(info.cpus, "placement on " + info.machine) + code;
}

LibraryFiles package_library(const PackageInfo &info, const std::vector<KernelBuild> &kernels,
                             const std::vector<TimeLoop> &time_loops,
                             const std::vector<TimeTileChoice> &tiles) {
  LibraryFiles files;
  files.name = info.name;
  files.c_source = library_c_source(info, kernels, time_loops, tiles);
  if (info.mpi)
    files.mpi_source = library_mpi_source(info, kernels);
  std::vector<EntryPoint> entries = entry_points(info, kernels);
  for (EntryPoint &e : time_loop_entries(info, kernels, time_loops))
    entries.push_back(std::move(e));
  files.header = print_c_header(info.name, entries, header_comment(info));
  std::string queries;
  for (const KernelBuild &b : kernels)
    if (!b.other_sizes.empty())
      queries +=
          "/* Which tuned size of '" + b.kernel.name +
          "' a call with these arguments runs the variant of, smallest working set "
          "first (" +
          std::to_string(b.other_sizes.size() + 1) + " sizes). */\nint " +
          print_c_entry_prototype(b.kernel, entry_symbol(info, b.kernel, "_tuned_size")).substr(5) +
          ";\n\n";
  if (!queries.empty())
    files.header.insert(files.header.rfind("#ifdef __cplusplus\n}"), queries);
  files.fortran_module = print_fortran_module(info.name, entries, header_comment(info));
  nlohmann::json record = tuning_record(info, kernels);
  if (!time_loops.empty())
    record["time_loops"] = time_loops_record(time_loops, kernels, tiles);
  files.tuning_record = record.dump(2) + "\n";
  files.report = report(info, kernels);
  for (const TimeLoop &t : time_loops)
    files.report += "Time loop '" + t.signature.name + "' from '" + t.signature.procedure +
                    "' at " + t.signature.loc.str() + ": every step in one call\n" +
                    print_time_loop(t) + "\n";
  files.cflags = info.cflags;
  files.cflags.insert(files.cflags.end(), c_rounding_flags().begin(), c_rounding_flags().end());
  return files;
}

std::string time_tiled_cuda_source(const PackageInfo &info, const std::vector<KernelBuild> &builds,
                                   const std::vector<TimeLoop> &loops,
                                   const std::vector<TimeTileChoice> &tiles) {
  std::ostringstream out;
  for (const TimeLoop &t : loops)
    for (const auto &[suffix, p] : time_loop_procedures(info, t, builds)) {
      const TimeTileChoice *c = tiled_choice(t, suffix, builds, tiles);
      if (!c || c->target != "cuda")
        continue;
      std::vector<const Kernel *> sweeps = sweeps_of(t, builds);
      TimeTilePlan plan = tiled_plan(t, sweeps);
      CudaTimeTileParams cp;
      cp.symbol = p.symbol;
      cp.fallback = p.symbol + "_steps";
      cp.steps = static_cast<int>(c->tune[0]);
      cp.tile.assign(c->tune.begin() + 1, c->tune.end());
      cp.threads = c->threads;
      cp.form = cuda_time_tile_form(c->form, plan);
      cp.comment = p.comment + ", tiled in time: " + c->why;
      out << print_cuda_time_tiled_loop(t, plan, sweeps, cp);
    }
  return out.str();
}

} // namespace f2s
