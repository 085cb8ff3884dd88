#include "harness/CudaTuner.h"

#include "codegen/CudaHarnessPrinter.h"
#include "harness/CudaToolkit.h"
#include "harness/Process.h"
#include "harness/TuningDb.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <set>

namespace f2s {

namespace fs = std::filesystem;

namespace {

void write_file(const fs::path &p, const std::string &text) {
  std::ofstream out(p);
  out << text;
  if (!out)
    throw std::runtime_error("cannot write " + p.string());
}

} // namespace

GpuModel probe_gpu(const fs::path &work_dir) {
  std::string nvcc = require_nvcc();
  fs::create_directories(work_dir);
  write_file(work_dir / "gpu_probe.cu", gpu_probe_source());
  Command build;
  build.argv = {nvcc, "-o", (work_dir / "gpu_probe").string(),
                (work_dir / "gpu_probe.cu").string()};
  build.timeout_s = 300;
  ProcessResult b = run_process(build);
  if (!b.ok())
    throw std::runtime_error("cannot build the GPU probe with " + nvcc + ": " +
                             first_line(b.err + b.out));
  Command run;
  run.argv = {(work_dir / "gpu_probe").string()};
  run.timeout_s = 60;
  ProcessResult r = run_process(run);
  std::string error;
  auto model = gpu_model_from_probe(r.out, &error);
  if (!model)
    throw std::runtime_error("tuning for --target=cuda needs a visible GPU (" + error +
                             "); use --no-tune to package the default CUDA variant untimed");
  return *model;
}

size_t tune_cuda(const Kernel &k, const SearchSpace &space, const std::vector<VariantCode> &code,
                 const ProblemSize &size, const TuneOptions &o,
                 std::vector<CandidateResult> &results, std::map<size_t, CudaCandidateTimes> *times,
                 const std::vector<size_t> *only) {
  std::string nvcc = require_nvcc();
  KernelFacts facts = analyze(k);
  fs::path dir = o.work_dir / "cuda";
  fs::create_directories(dir);

  // Every candidate is measured (the space is pruned by the model already):
  // those the tuning cache holds are taken from it, the others built and run.
  std::map<std::string, const TuningLog::Stored *> stored;
  if (o.log)
    for (const TuningLog::Stored &s : o.log->stored())
      stored.emplace(s.result.description, &s);
  std::vector<size_t> cands;
  size_t reused = 0;
  std::set<size_t> wanted;
  if (only)
    wanted.insert(only->begin(), only->end());
  for (size_t i = 0; i < space.candidates.size(); ++i) {
    if (space.variants[space.candidates[i].variant].target != "cuda" || (only && !wanted.count(i)))
      continue;
    auto it = stored.find(space.describe(space.candidates[i]));
    if (it == stored.end()) {
      cands.push_back(i);
      continue;
    }
    CandidateResult r = it->second->result;
    r.index = i;
    r.candidate = space.candidates[i];
    const nlohmann::json &extra = it->second->extra;
    if (times && r.status == CandidateStatus::Verified && extra.is_object())
      (*times)[results.size()] = {r.seconds, extra.value("h2d_s", 0.0), extra.value("d2h_s", 0.0)};
    results.push_back(r);
    ++reused;
  }
  if (reused > 0 && o.progress)
    o.progress(std::to_string(reused) + " CUDA candidate(s) reused from the tuning database, " +
               std::to_string(cands.size()) + " to measure");
  if (cands.empty())
    return reused;

  // The reference is the same for every variant: compiled once.
  auto harness_call = [](const VariantCode &vc) {
    return CudaHarnessCall{vc.cuda_call, vc.cuda_resident, vc.harness_reference};
  };
  const VariantCode &first = code[space.candidates[cands[0]].variant];
  CudaHarnessSource ref = print_cuda_harness(
      k, first.cuda_source, first.variant.target + "_" + first.variant.name, harness_call(first));
  write_file(dir / "reference.c", ref.c_reference);
  Command cc;
  cc.argv = {c_compiler(), "-O2", "-std=gnu11", "-pthread"};
  cc.argv.insert(cc.argv.end(), c_rounding_flags().begin(), c_rounding_flags().end());
  cc.argv.insert(cc.argv.end(),
                 {"-c", (dir / "reference.c").string(), "-o", (dir / "reference.o").string()});
  cc.timeout_s = 300;
  ProcessResult cr = run_process(cc);
  if (!cr.ok())
    throw std::runtime_error("cannot compile the CUDA harness's reference: " +
                             first_line(cr.err + cr.out));

  std::vector<Command> builds;
  for (size_t i : cands) {
    const VariantCode &vc = code[space.candidates[i].variant];
    std::string variant = vc.variant.target + "_" + vc.variant.name;
    CudaHarnessSource h = print_cuda_harness(k, vc.cuda_source, variant, harness_call(vc));
    // The file is named after the candidate and its variant with only
    // letters, digits and `_=.-` kept: nvcc splits its arguments at commas
    // ("streaming T=2 32x16x128, 2 columns a thread" made two files).
    std::string file = std::to_string(i) + "_" + variant;
    for (char &ch : file)
      if (!std::isalnum(static_cast<unsigned char>(ch)) && !std::strchr("_=.-", ch))
        ch = '_';
    fs::path src = dir / (file + ".cu"), bin = dir / file;
    write_file(src, h.cuda_main);
    Command c;
    c.argv = {nvcc};
    for (const std::string &f : nvcc_flags())
      c.argv.push_back(f);
    c.argv.insert(c.argv.end(), {"-o", bin.string(), src.string(), (dir / "reference.o").string()});
    c.timeout_s = 600;
    builds.push_back(c);
  }
  TuningProgress progress("'" + k.name + "' cuda", cands.size(), o.budget_s);
  progress.set_bound_gbps(o.bound_gbps);
  if (o.live)
    o.live(progress.line() + ", building " + std::to_string(builds.size()) + " CUDA harness(es)");
  else if (o.progress)
    o.progress("building " + std::to_string(builds.size()) + " CUDA harness(es) with " + nvcc);
  std::vector<ProcessResult> built = run_parallel(builds, std::max(1, o.jobs));
  progress.built(built.size(), built.size());

  std::error_code ignored;
  fs::remove(dir / "reference.bin", ignored); // from another tuning in this directory
  double tolerance = 0;
  for (const std::string &g : facts.write_set)
    tolerance = std::max(tolerance, k.find_arg(g)->type == Type::Float32 ? 1e-5 : 1e-12);
  char tol[32];
  std::snprintf(tol, sizeof tol, "%g", tolerance);
  double points = static_cast<double>(size.points());

  for (size_t n = 0; n < cands.size(); ++n) {
    const Candidate &c = space.candidates[cands[n]];
    CandidateResult r;
    nlohmann::json extra;
    r.index = cands[n];
    r.candidate = c;
    r.description = space.describe(c);
    if (!built[n].ok()) {
      r.status = CandidateStatus::BuildFailed;
      r.detail = first_line(built[n].err + built[n].out);
      if (o.log)
        o.log->record(r);
      progress.measured(r);
      results.push_back(r);
      continue;
    }
    Command run;
    run.argv = {builds[n].argv[builds[n].argv.size() - 3], std::to_string(o.reps), tol};
    for (const std::string &v : size.scalar_values)
      run.argv.push_back(v);
    // A time loop's serial steps: computed by the first candidate's run,
    // read by the others' (the same size and scalars).
    if (!code[c.variant].harness_reference.empty())
      run.argv.push_back((dir / "reference.bin").string());
    run.timeout_s = o.timeout_s;
    if (std::optional<nlohmann::json> result = read_harness_result(run_process(run), r)) {
      const nlohmann::json &j = *result;
      if (!j["verified"].get<bool>()) {
        r.status = CandidateStatus::WrongResult;
        r.max_rel_err = j.value("max_rel_err", 0.0);
        r.detail =
            "largest relative difference " + std::to_string(r.max_rel_err) + " exceeds " + tol;
      } else {
        r.status = CandidateStatus::Verified;
        r.max_rel_err = j.value("max_rel_err", 0.0);
        r.seconds = j.value("median_s", 0.0);
        // GPUs write whole sectors without reading them first: no
        // write-allocate traffic in the compulsory bytes.
        if (r.seconds > 0) {
          r.gflops = static_cast<double>(facts.flops) * points / r.seconds * 1e-9;
          r.gbps = static_cast<double>(facts.bytes(false)) * points / r.seconds * 1e-9;
        }
        CudaCandidateTimes t{r.seconds, j.value("h2d_s", 0.0), j.value("d2h_s", 0.0)};
        if (times)
          (*times)[results.size()] = t;
        extra = {{"h2d_s", t.h2d_s}, {"d2h_s", t.d2h_s}};
      }
    }
    // Stored before it is reported, as the CPU tuner does.
    if (o.log)
      o.log->record(r, extra);
    progress.measured(r);
    if (o.live) {
      o.live(progress.line());
      results.push_back(r);
      continue;
    }
    if (r.status == CandidateStatus::Verified && o.progress) {
      char line[256];
      std::snprintf(line, sizeof line,
                    "%s: %.3f ms kernel, %.1f GB/s (transfers excluded: %.2f ms in, %.2f ms out)",
                    r.description.c_str(), r.seconds * 1e3, r.gbps, extra.value("h2d_s", 0.0) * 1e3,
                    extra.value("d2h_s", 0.0) * 1e3);
      o.progress(line);
    }
    if (r.status != CandidateStatus::Verified && o.progress)
      o.progress(r.description + ": " + status_name(r.status) + ": " + r.detail);
    results.push_back(r);
  }
  return reused;
}

} // namespace f2s
