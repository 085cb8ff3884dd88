#include "harness/CudaBuild.h"

#include "harness/CudaToolkit.h"
#include "harness/ProblemSize.h"
#include "harness/TuningDb.h"
#include "strategy/GpuEngine.h"

#include <chrono>
#include <stdexcept>

namespace f2s {

std::string cuda_times_key(const std::string &kernel, size_t size) {
  return size ? kernel + "@" + std::to_string(size) : kernel;
}

CudaBuilds add_cuda_builds(std::vector<KernelBuild> &builds, const CudaBuildOptions &o) {
  CudaBuilds out;
  if (!find_nvcc())
    throw std::runtime_error("--target=cuda needs nvcc (not in PATH, $NVCC unset, no "
                             "/usr/local/cuda/bin/nvcc)");
  std::optional<GpuModel> gpu;
  if (o.tune) {
    gpu = probe_gpu(o.work_dir / "gpu");
    out.gpu = gpu->description();
    if (o.tune_options.progress)
      o.tune_options.progress("tuning CUDA on " + out.gpu);
  }
  // One kernel at one size (its tune_size); `key` names it in out.times.
  auto add_one = [&](KernelBuild &b, const std::string &key) {
    const Kernel &k = b.kernel;
    if (!o.tune) {
      SearchSpace space;
      Candidate c = default_cuda_candidate(space);
      std::vector<VariantCode> code = generate_variants(k, space);
      b.default_choice = b.choices.size();
      b.choices.push_back({code[c.variant], c});
      return;
    }
    auto start = std::chrono::steady_clock::now();
    KernelFacts facts = analyze(k);
    ProblemSize size = problem_size_for(k, k.tune_size);
    if (!b.tuning) {
      KernelTuning t;
      t.kernel = k.name;
      t.size = size;
      t.search = "cuda model-pruned exhaustive";
      b.tuning = t;
    }
    KernelTuning &t = *b.tuning;
    size_t first_variant = t.space.variants.size(), first_candidate = t.space.candidates.size();
    CudaEnumeration en = enumerate_cuda(t.space, k, facts, size.extents, {&*gpu, 12, !o.exact});
    SearchSpace cuda_space;
    cuda_space.variants = t.space.variants;
    std::vector<VariantCode> code = generate_variants(k, cuda_space);
    TuneOptions topt = o.tune_options;
    topt.work_dir = o.work_dir / key;
    auto say = [&](const std::string &line) {
      if (o.tune_options.progress)
        o.tune_options.progress("'" + k.name + "' " + line);
    };
    topt.progress = say;
    if (o.db)
      topt.log = o.db->log(cuda_tuning_key(k, *gpu, *find_nvcc(), size, o.exact), o.retune);
    say(en.summary(t.space.candidates.size() - first_candidate) + ", in " +
        std::to_string(t.space.variants.size() - first_variant) + " variants");
    SearchSpace only_cuda = t.space;
    std::vector<CandidateResult> results;
    std::map<size_t, CudaCandidateTimes> times;
    size_t reused = tune_cuda(k, only_cuda, code, size, topt, results, &times);
    t.reused += reused;
    size_t base = t.results.size();
    for (auto &[i, tt] : times)
      out.times[key][base + i] = tt;
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
  };
  for (KernelBuild &b : builds) {
    add_one(b, b.kernel.name);
    for (size_t i = 0; i < b.other_sizes.size(); ++i)
      add_one(b.other_sizes[i], cuda_times_key(b.kernel.name, i + 1));
  }
  return out;
}

} // namespace f2s
