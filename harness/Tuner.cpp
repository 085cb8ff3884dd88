#include "harness/Tuner.h"

#include "codegen/HarnessPrinter.h"
#include "harness/Process.h"
#include "harness/TuningDb.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <set>

namespace f2s {

namespace {

/// Verification tolerance: variants compute the same expressions in the same
/// order (no reassociation, -ffp-contract=off), so they agree to the last
/// bit in practice; the bound leaves room for a pass that reorders sums.
double tolerance_for(const Kernel &k, const KernelFacts &facts) {
  double tol = 0;
  for (const std::string &g : facts.write_set)
    tol = std::max(tol, k.find_arg(g)->type == Type::Float32 ? 1e-5 : 1e-12);
  // A reduction is compared too (a sum of many terms gets a bound that grows
  // with their number, in the harness), also when the kernel writes no grid.
  for (const Reduction &r : k.reductions)
    tol = std::max(tol, r.type == Type::Float32 ? 1e-5 : 1e-12);
  return tol;
}

void say(const TuneOptions &o, const std::string &line) {
  if (o.progress)
    o.progress(line);
}

CandidateResult run_candidate(const std::string &binary, const VariantCode &variant,
                              const Candidate &c, const ProblemSize &size, double tolerance,
                              const KernelFacts &facts, const TuneOptions &o) {
  CandidateResult r;
  r.candidate = c;
  Command cmd;
  cmd.argv = {binary, std::to_string(c.threads), std::to_string(o.reps)};
  char tol[32];
  std::snprintf(tol, sizeof tol, "%g", tolerance);
  cmd.argv.push_back(tol);
  for (const std::string &v : size.scalar_values)
    cmd.argv.push_back(v);
  for (long t : tune_values(variant, c))
    cmd.argv.push_back(std::to_string(t));
  cmd.timeout_s = o.timeout_s;
  // Under --sanitize the harness's grids are still allocated at exit, which
  // LeakSanitizer would report as a failure; out-of-bounds accesses and
  // undefined behaviour are what is looked for.
  if (std::any_of(o.cflags.begin(), o.cflags.end(),
                  [](const std::string &f) { return f.starts_with("-fsanitize="); }))
    cmd.env.push_back({"ASAN_OPTIONS", "detect_leaks=0"});
  if (o.llc_bytes > 0) {
    // Threads 0 (every processor) may span every instance.
    const int spans = c.threads > 0 ? std::min(c.threads, o.llc_instances) : o.llc_instances;
    cmd.env.push_back({"F2S_LLC_BYTES", std::to_string(o.llc_bytes * std::max(spans, 1))});
  }
  std::optional<nlohmann::json> result = read_harness_result(run_process(cmd), r);
  if (!result)
    return r;
  const nlohmann::json &j = *result;
  r.max_rel_err = j.value("max_rel_err", 0.0);
  if (!j["verified"].get<bool>()) {
    r.status = CandidateStatus::WrongResult;
    char buf[96];
    std::snprintf(buf, sizeof buf, "largest relative difference %.3g exceeds %.3g", r.max_rel_err,
                  tolerance);
    r.detail = buf;
    return r;
  }
  r.status = CandidateStatus::Verified;
  r.seconds = j.value("median_s", 0.0);
  double points = static_cast<double>(size.points());
  if (r.seconds > 0) {
    r.gflops = static_cast<double>(facts.flops) * points / r.seconds * 1e-9;
    r.gbps = static_cast<double>(facts.bytes(true)) * points / r.seconds * 1e-9;
  }
  return r;
}

} // namespace

std::optional<nlohmann::json> read_harness_result(const ProcessResult &p, CandidateResult &r) {
  if (p.timed_out) {
    r.status = CandidateStatus::TimedOut;
    r.detail = p.describe();
    return std::nullopt;
  }
  size_t at = p.out.find("F2S-RESULT ");
  if (!p.ok() || at == std::string::npos) {
    r.status = CandidateStatus::Crashed;
    r.detail = p.describe() + (p.err.empty() ? "" : ": " + first_line(p.err));
    return std::nullopt;
  }
  nlohmann::json j = nlohmann::json::parse(first_line(p.out.substr(at + 11)), nullptr, false);
  if (j.is_discarded() || !j.contains("verified")) {
    r.status = CandidateStatus::Crashed;
    r.detail = "unreadable harness output: " + first_line(p.out.substr(at));
    return std::nullopt;
  }
  return j;
}

const char *status_name(CandidateStatus s) {
  switch (s) {
  case CandidateStatus::Verified:
    return "verified";
  case CandidateStatus::WrongResult:
    return "wrong result";
  case CandidateStatus::Crashed:
    return "crashed";
  case CandidateStatus::TimedOut:
    return "timed out";
  case CandidateStatus::BuildFailed:
    return "build failed";
  }
  return "?";
}

std::optional<size_t> KernelTuning::best(const std::string &target) const {
  // A confirmed time is the better estimate: an unconfirmed one below it is
  // more likely luck than speed, so where there are confirmed candidates
  // the choice is among them.
  auto pick = [&](bool confirmed_only) {
    std::optional<size_t> best;
    for (size_t i = 0; i < results.size(); ++i) {
      const CandidateResult &r = results[i];
      if (r.status != CandidateStatus::Verified || (confirmed_only && !r.confirmed))
        continue;
      if (!target.empty() && space.variants[r.candidate.variant].target != target)
        continue;
      if (!best || r.seconds < results[*best].seconds)
        best = i;
    }
    return best;
  };
  if (auto confirmed = pick(true))
    return confirmed;
  return pick(false);
}

TuningSession::TuningSession(const Kernel &k, const SearchSpace &space,
                             const std::vector<VariantCode> &variants, const ProblemSize &size,
                             const TuneOptions &options)
    : kernel_(k), facts_(analyze(k)), variants_(variants), options_(options),
      start_(std::chrono::steady_clock::now()) {
  tuning_.kernel = k.name;
  tuning_.size = size;
  tuning_.space = space;
  std::filesystem::create_directories(options.work_dir);
  std::set<std::string> targets;
  for (const Variant &v : space.variants)
    targets.insert(v.target);
  std::string label = "'" + k.name + "'";
  for (const std::string &t : targets)
    label += (t == *targets.begin() ? " " : ",") + t;
  progress_.emplace(label, space.candidates.size(), options.budget_s);
  progress_->set_bound_gbps(options.bound_gbps);
  if (!options.log)
    return;
  // What a previous run measured counts as measured: a search replays its
  // steps over it and measures only what it had not reached.
  std::map<std::string, size_t> by_description;
  for (size_t i = 0; i < space.candidates.size(); ++i)
    by_description.emplace(space.describe(space.candidates[i]), i);
  for (const TuningLog::Stored &s : options.log->stored()) {
    auto it = by_description.find(s.result.description);
    if (it == by_description.end())
      continue;
    CandidateResult r = s.result;
    r.index = it->second;
    r.candidate = space.candidates[it->second];
    r.confirmed = s.extra.is_object() && s.extra.value("confirmed", false);
    measured_[r.index] =
        r.status == CandidateStatus::Verified ? r.seconds : std::numeric_limits<double>::infinity();
    // A confirmation is stored as a later row of the same candidate.
    auto same = std::find_if(tuning_.results.begin(), tuning_.results.end(),
                             [&](const CandidateResult &x) { return x.index == r.index; });
    if (same != tuning_.results.end())
      *same = std::move(r);
    else
      tuning_.results.push_back(std::move(r));
  }
  tuning_.reused = tuning_.results.size();
  progress_.emplace(label, space.candidates.size() - tuning_.reused, options.budget_s);
  progress_->set_bound_gbps(options.bound_gbps);
  if (tuning_.reused > 0 && options.log->finished_search().empty())
    say(options, "resuming from " + std::to_string(tuning_.reused) +
                     " measurement(s) stored in the tuning database");
}

bool TuningSession::budget_left() const {
  if (options_.budget_s <= 0)
    return true;
  // A budget never leaves a target with nothing to package: measuring goes
  // on until every target has a verified candidate.
  std::set<std::string> verified;
  for (const auto &[i, s] : measured_)
    if (std::isfinite(s))
      verified.insert(tuning_.space.variants[tuning_.space.candidates[i].variant].target);
  for (const Variant &v : tuning_.space.variants)
    if (!verified.count(v.target))
      return true;
  for (size_t i = 0; i < std::min(options_.always_measured, tuning_.space.candidates.size()); ++i)
    if (!measured_.count(i))
      return true;
  std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start_;
  return spent.count() < options_.budget_s;
}

KernelTuning TuningSession::result() const {
  KernelTuning t = tuning_;
  t.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  return t;
}

// Block sizes and thread counts are run-time arguments, so a variant is
// compiled once, however many of its candidates are measured.
void TuningSession::build(const std::vector<size_t> &wanted) {
  std::vector<Command> compiles;
  std::vector<size_t> compiled;
  std::vector<std::string> binaries;
  std::vector<std::pair<std::filesystem::path, std::string>> stamps;
  for (size_t v : wanted) {
    bool queued = std::find(compiled.begin(), compiled.end(), v) != compiled.end();
    if (queued || binary_.count(v) || build_error_.count(v))
      continue;
    const VariantCode &code = variants_[v];
    std::string stem = kernel_.name + "_" + code.variant.target + "_" + code.variant.name;
    std::filesystem::path src = options_.work_dir / (stem + ".c"), bin = options_.work_dir / stem;
    HarnessExtras extras;
    if (!code.first_touch_name.empty())
      extras = {&code.first_touch_ir, code.first_touch_function, code.first_touch_name, {}};
    extras.cpus = options_.cpus;
    extras.reference_code = code.harness_reference;
    std::string text =
        print_c_harness(kernel_, code.c_function, code.c_name, code.ir.tuning.size(), extras);
    Command cc;
    cc.argv = {c_compiler(), "-O3", "-std=gnu11", "-pthread"};
    cc.argv.insert(cc.argv.end(), c_rounding_flags().begin(), c_rounding_flags().end());
    cc.argv.insert(cc.argv.end(), options_.cflags.begin(), options_.cflags.end());
    cc.argv.insert(cc.argv.end(), {"-o", bin.string(), src.string(), "-lm"});
    cc.timeout_s = 600;
    // The harness takes the size at run time: a session at another size of
    // the same kernel in the same work directory (the tests that verify
    // every pass at several sizes) runs the binary an earlier session built
    // from the same source and command instead of compiling it again.
    std::string stamp = text + "\n/* built by:";
    for (const std::string &a : cc.argv)
      stamp += " " + a;
    stamp += " */\n";
    std::filesystem::path stamp_file = options_.work_dir / (stem + ".stamp");
    std::ifstream previous(stamp_file, std::ios::binary);
    std::string stamped((std::istreambuf_iterator<char>(previous)),
                        std::istreambuf_iterator<char>());
    if (stamped == stamp && std::filesystem::exists(bin)) {
      binary_[v] = bin.string();
      continue;
    }
    std::filesystem::remove(stamp_file);
    std::ofstream(src) << text;
    stamps.emplace_back(stamp_file, std::move(stamp));
    compiles.push_back(cc);
    compiled.push_back(v);
    binaries.push_back(bin.string());
  }
  if (compiles.empty())
    return;
  if (options_.live)
    options_.live(progress_->line() + ", building " + std::to_string(compiles.size()) +
                  " harness variant(s)");
  else
    say(options_, "building " + std::to_string(compiles.size()) + " harness variant(s)");
  std::vector<ProcessResult> built = run_parallel(compiles, options_.jobs);
  progress_->built(binary_.size() + build_error_.size() + built.size(), variants_.size());
  for (size_t i = 0; i < built.size(); ++i) {
    if (built[i].ok()) {
      binary_[compiled[i]] = binaries[i];
      std::ofstream(stamps[i].first, std::ios::binary) << stamps[i].second;
    } else
      build_error_[compiled[i]] = built[i].describe() + ": " + first_line(built[i].err);
  }
}

size_t TuningSession::measure(const std::vector<size_t> &candidates) {
  const SearchSpace &space = tuning_.space;
  std::vector<size_t> todo, variants;
  for (size_t i : candidates) {
    if (measured_.count(i) || std::find(todo.begin(), todo.end(), i) != todo.end())
      continue;
    todo.push_back(i);
    variants.push_back(space.candidates.at(i).variant);
  }
  build(variants);

  double tolerance = tolerance_for(kernel_, facts_);
  size_t done = 0;
  for (size_t i : todo) {
    if (!budget_left())
      break;
    ++done;
    const Candidate &c = space.candidates[i];
    CandidateResult r;
    if (auto e = build_error_.find(c.variant); e != build_error_.end()) {
      r.candidate = c;
      r.status = CandidateStatus::BuildFailed;
      r.detail = e->second;
    } else {
      r = run_candidate(binary_.at(c.variant), variants_[c.variant], c, tuning_.size, tolerance,
                        facts_, options_);
    }
    r.index = i;
    r.description = space.describe(c);
    measured_[i] =
        r.status == CandidateStatus::Verified ? r.seconds : std::numeric_limits<double>::infinity();
    char line[320];
    size_t n = tuning_.results.size() + 1;
    if (r.status == CandidateStatus::Verified)
      std::snprintf(line, sizeof line, "[%zu] %s: %.3f ms, %.2f GFlop/s, %.1f GB/s", n,
                    r.description.c_str(), r.seconds * 1e3, r.gflops, r.gbps);
    else
      std::snprintf(line, sizeof line, "[%zu] %s: %s (%s)", n, r.description.c_str(),
                    status_name(r.status), r.detail.c_str());
    // Stored before it is reported: a process killed after any progress
    // line keeps the measurement that line shows.
    if (options_.log)
      options_.log->record(r);
    progress_->measured(r);
    if (options_.live)
      options_.live(progress_->line());
    else
      say(options_, line);
    tuning_.results.push_back(std::move(r));
  }
  return done;
}

std::vector<size_t> TuningSession::confirm(size_t count, const std::vector<size_t> &also,
                                           int rounds) {
  const SearchSpace &space = tuning_.space;
  std::map<std::string, std::vector<size_t>> fastest; // per target, into results
  for (size_t i = 0; i < tuning_.results.size(); ++i)
    if (tuning_.results[i].status == CandidateStatus::Verified)
      fastest[space.variants[tuning_.results[i].candidate.variant].target].push_back(i);
  std::vector<size_t> chosen;
  for (auto &[target, list] : fastest) {
    std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) {
      return tuning_.results[a].seconds < tuning_.results[b].seconds;
    });
    for (size_t n = 0; n < list.size() && n < count; ++n)
      chosen.push_back(list[n]);
  }
  for (size_t index : also)
    for (size_t i = 0; i < tuning_.results.size(); ++i)
      if (tuning_.results[i].index == index &&
          tuning_.results[i].status == CandidateStatus::Verified &&
          std::find(chosen.begin(), chosen.end(), i) == chosen.end())
        chosen.push_back(i);
  if (chosen.size() < 2)
    return {};
  say(options_, "measuring the " + std::to_string(chosen.size()) + " fastest again in " +
                    std::to_string(rounds) + " interleaved rounds");
  double tolerance = tolerance_for(kernel_, facts_);
  std::map<size_t, std::vector<CandidateResult>> runs;
  for (int round = 0; round < rounds; ++round)
    for (size_t i : chosen) {
      const CandidateResult &r = tuning_.results[i];
      // A harness built by an earlier run (the cache held the measurement)
      // is built now.
      build({r.candidate.variant});
      if (!binary_.count(r.candidate.variant))
        continue;
      runs[i].push_back(run_candidate(binary_.at(r.candidate.variant),
                                      variants_[r.candidate.variant], r.candidate, tuning_.size,
                                      tolerance, facts_, options_));
    }
  std::vector<size_t> confirmed;
  for (auto &[i, list] : runs) {
    CandidateResult &r = tuning_.results[i];
    bool all_verified = std::all_of(list.begin(), list.end(), [](const CandidateResult &x) {
      return x.status == CandidateStatus::Verified;
    });
    if (!all_verified) {
      // Verified once and not again: the candidate is not trusted.
      const CandidateResult &bad = *std::find_if(list.begin(), list.end(), [](const auto &x) {
        return x.status != CandidateStatus::Verified;
      });
      r.status = bad.status;
      r.detail = "when measured again: " + bad.detail;
      measured_[r.index] = std::numeric_limits<double>::infinity();
    } else {
      std::sort(list.begin(), list.end(), [](const CandidateResult &a, const CandidateResult &b) {
        return a.seconds < b.seconds;
      });
      const CandidateResult &median = list[list.size() / 2];
      r.seconds = median.seconds;
      r.gflops = median.gflops;
      r.gbps = median.gbps;
      r.confirmed = true;
      measured_[r.index] = r.seconds;
      confirmed.push_back(r.index);
    }
    if (options_.log)
      options_.log->record(r, nlohmann::json{{"confirmed", r.confirmed}});
    char line[320];
    std::snprintf(line, sizeof line, "again %s: %.3f ms%s", r.description.c_str(), r.seconds * 1e3,
                  r.confirmed ? "" : (", " + r.detail).c_str());
    say(options_, line);
  }
  return confirmed;
}

namespace {

/// Runs `search` in `session` until it ends or the budget is spent; returns
/// whether the budget cut it short.
bool run_search(TuningSession &session, const SearchSpace &space, SearchMethod &search) {
  while (true) {
    std::vector<size_t> batch = search.next(space, session.measurements());
    if (batch.empty())
      return false;
    session.measure(batch);
    if (!session.budget_left())
      return !search.next(space, session.measurements()).empty();
  }
}

/// How many of each target's fastest candidates are measured again at the
/// end of a search (TuningSession::confirm).
constexpr size_t kConfirmed = 3;

double best_seconds(const Measurements &m) {
  double best = 0;
  for (const auto &[i, s] : m)
    if (std::isfinite(s) && (best == 0 || s < best))
      best = s;
  return best;
}

} // namespace

KernelTuning compare_searches(const Kernel &k, const SearchSpace &space,
                              const std::vector<VariantCode> &variants, const ProblemSize &size,
                              const TuneOptions &options, SearchMethod &cheap) {
  // The comparison's point is to measure: it neither reads nor writes the
  // tuning cache.
  TuneOptions measure_all = options;
  measure_all.log = nullptr;
  TuningSession session(k, space, variants, size, measure_all);
  run_search(session, space, cheap);
  // The cheap search ends as tune_kernel's does, with its fastest measured
  // again; what it would package is its choice.
  session.confirm(kConfirmed);
  KernelTuning::Comparison cmp;
  cmp.cheap = cheap.name();
  cmp.cheap_measured = session.measurements().size();
  cmp.cheap_best_s = best_seconds(session.measurements());
  KernelTuning after_cheap = session.result();
  std::optional<size_t> cheap_choice = after_cheap.best();
  if (cheap_choice)
    cmp.cheap_best_s = after_cheap.results[*cheap_choice].seconds;
  say(options, cheap.name() + " search: " + std::to_string(cmp.cheap_measured) +
                   " measured; continuing exhaustively");
  std::unique_ptr<SearchMethod> all = exhaustive_search();
  bool cut = run_search(session, space, *all);
  cmp.exhaustive_best_s = best_seconds(session.measurements());
  cmp.exhaustive_complete = !cut;
  // The minimum over hundreds of noisy medians is lower than the fastest
  // candidate's real time: the exhaustive fastest and the cheap choice are
  // measured again side by side, in the same rounds, and compared there.
  if (cheap_choice) {
    size_t cheap_index = after_cheap.results[*cheap_choice].index;
    // More rounds than a tuning's own confirmation: two answers a few
    // percent apart are told apart only by many side-by-side runs.
    std::vector<size_t> again = session.confirm(kConfirmed, {cheap_index}, 7);
    const Measurements &m = session.measurements();
    if (std::find(again.begin(), again.end(), cheap_index) != again.end()) {
      cmp.side_by_side = true;
      cmp.cheap_best_s = m.at(cheap_index);
      cmp.exhaustive_best_s = cmp.cheap_best_s;
      size_t fastest = cheap_index;
      for (size_t i : again)
        if (m.at(i) < cmp.exhaustive_best_s) {
          cmp.exhaustive_best_s = m.at(i);
          fastest = i;
        }
      cmp.cheap_choice = space.describe(space.candidates[cheap_index]);
      cmp.exhaustive_choice = space.describe(space.candidates[fastest]);
    }
  }
  KernelTuning t = session.result();
  t.search = cheap.name() + " then exhaustive";
  t.budget_exhausted = cut;
  t.comparison = cmp;
  return t;
}

KernelTuning tune_kernel(const Kernel &k, const SearchSpace &space,
                         const std::vector<VariantCode> &variants, const ProblemSize &size,
                         const TuneOptions &options, SearchMethod &search) {
  TuningSession session(k, space, variants, size, options);
  // A search that ran to its end before (or to its budget) is not run
  // again: its measurements hold its choice.
  bool finished = options.log && options.log->finished_search() == search.name() &&
                  !session.measurements().empty();
  bool exhausted = finished ? options.log->budget_exhausted() : run_search(session, space, search);
  if (!finished && session.budget_left())
    session.confirm(kConfirmed);
  KernelTuning t = session.result();
  t.search = search.name();
  t.budget_exhausted = exhausted;
  if (t.reused > 0 && t.reused == t.results.size())
    say(options, "reused: " + std::to_string(t.reused) +
                     " measurement(s) from the tuning database, none made (--retune measures "
                     "again)");
  if (options.log)
    options.log->finish(t.search, exhausted);
  return t;
}

KernelTuning tune_kernel(const Kernel &k, const SearchSpace &space,
                         const std::vector<VariantCode> &variants, const ProblemSize &size,
                         const TuneOptions &options) {
  std::unique_ptr<SearchMethod> all = exhaustive_search();
  return tune_kernel(k, space, variants, size, options, *all);
}

} // namespace f2s
