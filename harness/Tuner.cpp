#include "harness/Tuner.h"

#include "codegen/HarnessPrinter.h"
#include "harness/Process.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>

namespace f2s {

namespace {

/// Verification tolerance: variants compute the same expressions in the same
/// order (no reassociation, -ffp-contract=off), so they agree to the last
/// bit in practice; the bound leaves room for a pass that reorders sums.
double tolerance_for(const Kernel &k, const KernelFacts &facts) {
  double tol = 0;
  for (const std::string &g : facts.write_set)
    tol = std::max(tol, k.find_arg(g)->type == Type::Float32 ? 1e-5 : 1e-12);
  return tol;
}

void say(const TuneOptions &o, const std::string &line) {
  if (o.progress)
    o.progress(line);
}

std::string first_line(const std::string &text) {
  size_t end = text.find('\n');
  return text.substr(0, std::min<size_t>(end, 300));
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
  ProcessResult p = run_process(cmd);
  if (p.timed_out) {
    r.status = CandidateStatus::TimedOut;
    r.detail = p.describe();
    return r;
  }
  size_t at = p.out.find("F2S-RESULT ");
  if (!p.ok() || at == std::string::npos) {
    r.status = CandidateStatus::Crashed;
    r.detail = p.describe() + (p.err.empty() ? "" : ": " + first_line(p.err));
    return r;
  }
  nlohmann::json j = nlohmann::json::parse(first_line(p.out.substr(at + 11)), nullptr, false);
  if (j.is_discarded() || !j.contains("verified")) {
    r.status = CandidateStatus::Crashed;
    r.detail = "unreadable harness output: " + first_line(p.out.substr(at));
    return r;
  }
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
  std::optional<size_t> best;
  for (size_t i = 0; i < results.size(); ++i) {
    const CandidateResult &r = results[i];
    if (r.status != CandidateStatus::Verified)
      continue;
    if (!target.empty() && space.variants[r.candidate.variant].target != target)
      continue;
    if (!best || r.seconds < results[*best].seconds)
      best = i;
  }
  return best;
}

KernelTuning tune_kernel(const Kernel &k, const SearchSpace &space,
                         const std::vector<VariantCode> &variants, const ProblemSize &size,
                         const TuneOptions &o) {
  KernelTuning tuning{k.name, size, space, {}};
  KernelFacts facts = analyze(k);
  std::filesystem::create_directories(o.work_dir);

  // One harness per variant that has candidates; block sizes and thread
  // counts are run-time arguments, so a variant is compiled once.
  std::vector<bool> used(variants.size(), false);
  for (const Candidate &c : space.candidates)
    used[c.variant] = true;
  std::vector<Command> compiles;
  std::vector<size_t> compiled_variant;
  std::map<size_t, std::string> binary;
  for (size_t v = 0; v < variants.size(); ++v) {
    if (!used[v])
      continue;
    std::string stem = k.name + "_" + variants[v].variant.target + "_" + variants[v].variant.name;
    std::filesystem::path src = o.work_dir / (stem + ".c"), bin = o.work_dir / stem;
    const VariantCode &code = variants[v];
    HarnessExtras extras;
    if (!code.first_touch_name.empty())
      extras = {&code.first_touch_ir, code.first_touch_function, code.first_touch_name, {}};
    extras.cpus = o.cpus;
    std::ofstream(src) << print_c_harness(k, code.c_function, code.c_name, code.ir.tuning.size(),
                                          extras);
    Command cc;
    cc.argv = {c_compiler(), "-O3", "-std=gnu11", "-pthread", "-ffp-contract=off"};
    cc.argv.insert(cc.argv.end(), o.cflags.begin(), o.cflags.end());
    cc.argv.insert(cc.argv.end(), {"-o", bin.string(), src.string(), "-lm"});
    cc.timeout_s = 600;
    compiles.push_back(cc);
    compiled_variant.push_back(v);
    binary[v] = bin.string();
  }
  say(o, "building " + std::to_string(compiles.size()) + " harness variant(s) of '" + k.name + "'");
  std::vector<ProcessResult> built = run_parallel(compiles, o.jobs);
  std::map<size_t, std::string> build_error;
  for (size_t i = 0; i < built.size(); ++i)
    if (!built[i].ok())
      build_error[compiled_variant[i]] = built[i].describe() + ": " + first_line(built[i].err);

  double tolerance = tolerance_for(k, facts);
  for (size_t i = 0; i < space.candidates.size(); ++i) {
    const Candidate &c = space.candidates[i];
    CandidateResult r;
    if (auto e = build_error.find(c.variant); e != build_error.end()) {
      r.candidate = c;
      r.status = CandidateStatus::BuildFailed;
      r.detail = e->second;
    } else {
      r = run_candidate(binary[c.variant], variants[c.variant], c, size, tolerance, facts, o);
    }
    r.description = space.describe(c);
    char line[256];
    if (r.status == CandidateStatus::Verified)
      std::snprintf(line, sizeof line, "[%zu/%zu] %s: %.3f ms, %.2f GFlop/s, %.1f GB/s", i + 1,
                    space.candidates.size(), r.description.c_str(), r.seconds * 1e3, r.gflops,
                    r.gbps);
    else
      std::snprintf(line, sizeof line, "[%zu/%zu] %s: %s (%s)", i + 1, space.candidates.size(),
                    r.description.c_str(), status_name(r.status), r.detail.c_str());
    say(o, line);
    tuning.results.push_back(std::move(r));
  }
  return tuning;
}

} // namespace f2s
