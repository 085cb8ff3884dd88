#include "harness/MachineBounds.h"

#include "harness/Process.h"
#include "harness/TuningDb.h"
#include "strategy/GpuModel.h"
#include "strategy/MachineModel.h"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace f2s {

namespace fs = std::filesystem;

namespace {

// The CPU probe. Arrays are first touched by the threads that stream them
// (schedule(static) both times), so each thread's pages are local to it, as
// the library's first touch makes them. The FMA chains are eight
// independent 512-bit accumulators per thread: enough to cover the FMA
// latency on the cores of today, in GCC's vector extension so that a
// machine with narrower vectors runs them as two or four of its own.
constexpr const char *kCpuProbe = R"(#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef double v8 __attribute__((vector_size(64)));

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoull(argv[1], 0, 10) : 0;
  double *a = aligned_alloc(64, n * sizeof(double)), *b = aligned_alloc(64, n * sizeof(double)),
         *c = aligned_alloc(64, n * sizeof(double));
  if (n == 0 || !a || !b || !c) {
    printf("F2S-BOUNDS-ERROR cannot allocate 3 arrays of %zu doubles\n", n);
    return 3;
  }
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; ++i) {
    a[i] = 0;
    b[i] = 1;
    c[i] = 2;
  }
  double best = 1e30;
  for (int r = 0; r < 11; ++r) {
    double t = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; ++i)
      a[i] = b[i] + 3.0 * c[i];
    t = omp_get_wtime() - t;
    if (r > 0 && t < best)
      best = t;
  }
  if (a[n / 2] != 7.0) {
    printf("F2S-BOUNDS-ERROR the triad computed %g, not 7\n", a[n / 2]);
    return 3;
  }
  volatile double vm = 0.9999999, vd = 1e-7;
  const long iters = 1L << 23;
  double fbest = 1e30, sink = 0;
  int threads = 1;
  for (int r = 0; r < 5; ++r) {
    double t = omp_get_wtime();
#pragma omp parallel reduction(+ : sink)
    {
      threads = omp_get_num_threads();
      v8 m = {vm, vm, vm, vm, vm, vm, vm, vm}, d = {vd, vd, vd, vd, vd, vd, vd, vd};
      v8 x0 = d, x1 = d + d, x2 = x1 + d, x3 = x2 + d, x4 = x3 + d, x5 = x4 + d, x6 = x5 + d,
         x7 = x6 + d;
      for (long i = 0; i < iters; ++i) {
        x0 = x0 * m + d, x1 = x1 * m + d, x2 = x2 * m + d, x3 = x3 * m + d;
        x4 = x4 * m + d, x5 = x5 * m + d, x6 = x6 * m + d, x7 = x7 * m + d;
      }
      v8 s = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
      for (int j = 0; j < 8; ++j)
        sink += s[j];
    }
    t = omp_get_wtime() - t;
    if (t < fbest)
      fbest = t;
  }
  if (!(sink > 0)) {
    printf("F2S-BOUNDS-ERROR the FMA chains computed %g\n", sink);
    return 3;
  }
  printf("F2S-BOUNDS gbps=%.4g;gflops=%.4g;method=STREAM triad over 3 arrays of %.0f MiB and "
         "FMA chains, %d threads\n",
         24.0 * n / best / 1e9, 2.0 * 64 * iters * threads / fbest / 1e9, n * 8.0 / (1 << 20),
         threads);
  return 0;
}
)";

// The GPU probe: the copy engine's device-to-device copy, as CUDA's own
// bandwidthTest measures it (read and write counted), and eight independent
// FMA chains per thread in double, four blocks of 256 threads per SM.
constexpr const char *kGpuProbe = R"(#include <cstdio>
#include <cuda_runtime.h>

__global__ void chains(double *out, long iters, double m, double d) {
  double x0 = d, x1 = 2 * d, x2 = 3 * d, x3 = 4 * d, x4 = 5 * d, x5 = 6 * d, x6 = 7 * d,
         x7 = 8 * d;
  for (long i = 0; i < iters; ++i) {
    x0 = fma(x0, m, d), x1 = fma(x1, m, d), x2 = fma(x2, m, d), x3 = fma(x3, m, d);
    x4 = fma(x4, m, d), x5 = fma(x5, m, d), x6 = fma(x6, m, d), x7 = fma(x7, m, d);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}

#define CHECK(x)                                                                               \
  do {                                                                                         \
    cudaError_t e = (x);                                                                       \
    if (e != cudaSuccess) {                                                                    \
      printf("F2S-BOUNDS-ERROR %s: %s\n", #x, cudaGetErrorString(e));                          \
      return 3;                                                                                \
    }                                                                                          \
  } while (0)

int main() {
  int sms = 0;
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  size_t free_b = 0, total_b = 0;
  CHECK(cudaMemGetInfo(&free_b, &total_b));
  size_t bytes = free_b / 4 < (1ul << 30) ? free_b / 4 : (1ul << 30);
  char *src, *dst;
  CHECK(cudaMalloc(&src, bytes));
  CHECK(cudaMalloc(&dst, bytes));
  CHECK(cudaMemset(src, 1, bytes));
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  float best = 1e30f, ms = 0;
  for (int r = 0; r < 11; ++r) {
    CHECK(cudaEventRecord(t0));
    CHECK(cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    if (r > 0 && ms < best)
      best = ms;
  }
  const int threads = 256, blocks = 4 * sms;
  const long iters = 8192;
  double *out;
  CHECK(cudaMalloc(&out, sizeof(double) * threads * blocks));
  float fbest = 1e30f;
  for (int r = 0; r < 6; ++r) {
    CHECK(cudaEventRecord(t0));
    chains<<<blocks, threads>>>(out, iters, 0.9999999, 1e-7);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(t1));
    CHECK(cudaEventSynchronize(t1));
    CHECK(cudaEventElapsedTime(&ms, t0, t1));
    if (r > 0 && ms < fbest)
      fbest = ms;
  }
  printf("F2S-BOUNDS gbps=%.4g;gflops=%.4g;method=cudaMemcpy device to device of %.0f MiB "
         "(read and write counted) and FMA chains in double on %d SMs\n",
         2.0 * bytes / (best * 1e-3) / 1e9,
         2.0 * 8 * iters * threads * blocks / (fbest * 1e-3) / 1e9, bytes / 1048576.0, sms);
  return 0;
}
)";

void write_text(const fs::path &path, const std::string &text) {
  std::ofstream out(path);
  out << text;
}

/// The bounds the cache holds under `key`, or those `measure` gives (then
/// stored).
template <typename Measure>
std::optional<MachineBounds> cached(TuningDb *db, const TuningKey &key, bool retune,
                                    Measure measure) {
  std::shared_ptr<TuningLog> log = db ? db->log(key, retune) : nullptr;
  if (log && !log->stored().empty()) {
    const CandidateResult &r = log->stored().front().result;
    if (r.gbps > 0 && r.gflops > 0)
      return MachineBounds{r.gbps, r.gflops, r.detail, true};
  }
  std::optional<MachineBounds> b = measure();
  if (b && log) {
    CandidateResult r;
    r.description = "bounds";
    r.status = CandidateStatus::Verified;
    r.gbps = b->gbps;
    r.gflops = b->gflops;
    r.detail = b->method;
    log->record(r);
    log->finish("probe", false);
  }
  return b;
}

/// Runs a built probe and reads its line.
std::optional<MachineBounds> run_probe(Command run, std::string *why) {
  run.timeout_s = 120;
  ProcessResult r = run_process(run);
  std::optional<MachineBounds> b = bounds_from_probe(r.out);
  if (!b && why) {
    size_t e = r.out.find("F2S-BOUNDS-ERROR ");
    *why = e != std::string::npos ? first_line(r.out.substr(e + 17))
                                  : "the probe printed no bounds: " + first_line(r.err + r.out);
  }
  return b;
}

} // namespace

std::string describe(const MachineBounds &b) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%.4g GB/s, %.4g GFlop/s", b.gbps, b.gflops);
  return buf;
}

void add_bounds_to_record(std::string &record, const std::string &which, const MachineBounds &b) {
  nlohmann::json r = nlohmann::json::parse(record);
  r["bounds"][which] = {
      {"gbps", b.gbps}, {"gflops", b.gflops}, {"method", b.method}, {"reused", b.reused}};
  record = r.dump(2) + "\n";
}

std::optional<MachineBounds> bounds_from_probe(const std::string &output) {
  size_t at = output.find("F2S-BOUNDS ");
  if (at == std::string::npos)
    return std::nullopt;
  std::string line = output.substr(at + 11);
  line = line.substr(0, line.find('\n'));
  MachineBounds b;
  std::istringstream fields(line);
  for (std::string field; std::getline(fields, field, ';');) {
    size_t eq = field.find('=');
    if (eq == std::string::npos)
      continue;
    std::string key = field.substr(0, eq), value = field.substr(eq + 1);
    if (key == "gbps")
      b.gbps = std::strtod(value.c_str(), nullptr);
    else if (key == "gflops")
      b.gflops = std::strtod(value.c_str(), nullptr);
    else if (key == "method")
      b.method = value;
  }
  if (!(b.gbps > 0) || !(b.gflops > 0))
    return std::nullopt;
  return b;
}

std::optional<MachineBounds> cpu_bounds(const CpuModel &machine, const fs::path &work_dir,
                                        TuningDb *db, bool retune, std::string *why) {
  const std::vector<std::string> flags = {"-O3", "-march=native", "-fopenmp"};
  return cached(db, cpu_bounds_key(machine, flags), retune, [&]() -> std::optional<MachineBounds> {
    fs::create_directories(work_dir);
    write_text(work_dir / "bounds_probe.c", kCpuProbe);
    Command build;
    build.argv = {c_compiler()};
    build.argv.insert(build.argv.end(), flags.begin(), flags.end());
    build.argv.insert(build.argv.end(), {"-o", (work_dir / "bounds_probe").string(),
                                         (work_dir / "bounds_probe.c").string()});
    build.timeout_s = 120;
    ProcessResult b = run_process(build);
    if (!b.ok()) {
      if (why)
        *why = "cannot build the bandwidth probe: " + first_line(b.err + b.out);
      return std::nullopt;
    }
    // Arrays four times the last-level cache (all its instances), so that
    // the triad streams from memory, but at most an eighth of the memory
    // for the three.
    const CacheLevel *llc = machine.last_level_cache();
    double cache = llc ? double(llc->size_bytes) * llc->instances : 0;
    double bytes = std::max(4 * cache, 64.0 * (1 << 20));
    double memory = double(sysconf(_SC_PHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
    if (memory > 0)
      bytes = std::min(bytes, memory / 24);
    Command run;
    run.argv = {(work_dir / "bounds_probe").string(), std::to_string(size_t(bytes / 8))};
    run.env = {{"OMP_NUM_THREADS", std::to_string(machine.cores)},
               {"OMP_PLACES", "cores"},
               {"OMP_PROC_BIND", "spread"}};
    return run_probe(run, why);
  });
}

std::optional<MachineBounds> gpu_bounds(const GpuModel &gpu, const std::string &nvcc,
                                        const fs::path &work_dir, TuningDb *db, bool retune,
                                        std::string *why) {
  return cached(db, gpu_bounds_key(gpu, nvcc), retune, [&]() -> std::optional<MachineBounds> {
    fs::create_directories(work_dir);
    write_text(work_dir / "bounds_probe.cu", kGpuProbe);
    Command build;
    build.argv = {nvcc,
                  "-O3",
                  "-arch=" + gpu.arch(),
                  "-o",
                  (work_dir / "bounds_probe").string(),
                  (work_dir / "bounds_probe.cu").string()};
    build.timeout_s = 300;
    ProcessResult b = run_process(build);
    if (!b.ok()) {
      if (why)
        *why = "cannot build the GPU bandwidth probe: " + first_line(b.err + b.out);
      return std::nullopt;
    }
    Command run;
    run.argv = {(work_dir / "bounds_probe").string()};
    return run_probe(run, why);
  });
}

} // namespace f2s
