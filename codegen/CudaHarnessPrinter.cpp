#include "codegen/CudaHarnessPrinter.h"
#include "codegen/HarnessPrinter.h"

#include "ast/Analysis.h"
#include "codegen/CPrinter.h"
#include "codegen/CTimeTile.h"
#include "codegen/CudaPrinter.h"

#include <algorithm>
#include <stdexcept>

#include <set>
#include <sstream>

namespace f2s {

namespace {

// Fixed support of every CUDA harness; only main() is printed from the kernel.
const char *cuda_harness_support = R"(#include <algorithm>
#include <cfloat>
#include <thread>
#include <vector>

/* f(begin, end) over [0, n) on every host core: filling and comparing 14
 * grids of 512^3 serially took longer than the GPU work of a candidate. The
 * reference itself stays serial. */
template <class F> static void f2s_host_parallel(size_t n, F f, size_t elements = 0) {
  elements = elements ? elements : n;
  unsigned t = elements < ((size_t)1 << 20) ? 1 : std::max(1u, std::thread::hardware_concurrency());
  t = (unsigned)std::min<size_t>(t, n ? n : 1);
  std::vector<std::thread> threads;
  for (unsigned i = 1; i < t; ++i)
    threads.emplace_back([=] { f(n * i / t, n * (i + 1) / t); });
  f(0, n / t);
  for (std::thread &th : threads)
    th.join();
}

/* The same deterministic values as the C harness: splitmix64 of (grid, i). */
static double f2s_random(unsigned grid, long i) {
  uint64_t x = (uint64_t)i + 0x9E3779B97F4A7C15ull * (grid + 1);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return 0.5 + (double)(x >> 11) * 0x1.0p-53;
}

/* `logical`: the grid is a LOGICAL mask, whose elements are 0 or 1. */
template <class T> static T *f2s_new_grid(size_t n, unsigned grid, bool logical = false) {
  T *p = (T *)malloc((n ? n : 1) * sizeof(T));
  if (!p) {
    fprintf(stderr, "f2s harness: cannot allocate %zu elements\n", n);
    exit(2);
  }
  f2s_host_parallel(n, [=](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      double v = f2s_random(grid, (long)i);
      p[i] = logical ? (T)((int)(v * 100) & 1) : sizeof(T) == 4 && (T)0.5 == 0 ? (T)(v * 100) : (T)v;
    }
  });
  return p;
}

/* max |c - r| / max |r|; a NaN on one side only is an error. */
template <class T> static double f2s_max_rel_err(const T *c, const T *r, size_t n) {
  struct Part {
    double diff = 0, ref = 0;
    bool nan_mismatch = false;
  };
  const unsigned parts = 64;
  std::vector<Part> part(parts);
  f2s_host_parallel(parts, [&](size_t pb, size_t pe) {
    for (size_t q = pb; q < pe; ++q)
      for (size_t i = n * q / parts; i < n * (q + 1) / parts; ++i) {
        double cv = (double)c[i], rv = (double)r[i];
        if (isnan(cv) != isnan(rv))
          part[q].nan_mismatch = true;
        part[q].diff = fmax(part[q].diff, fabs(cv - rv));
        part[q].ref = fmax(part[q].ref, fabs(rv));
      }
  }, n);
  double max_diff = 0, max_ref = 0;
  for (const Part &p : part) {
    if (p.nan_mismatch)
      return INFINITY;
    max_diff = fmax(max_diff, p.diff);
    max_ref = fmax(max_ref, p.ref);
  }
  return max_ref > 0 ? max_diff / max_ref : max_diff;
}

static void f2s_print_error(double e) {
  if (isfinite(e))
    printf("%.6e", e);
  else
    printf("1e308");
}

)";

} // namespace

std::string print_cuda_time_loop_steps(const TimeLoop &t, const std::vector<const Kernel *> &sweeps,
                                       const std::vector<CudaSweepCode> &code,
                                       const std::string &variant) {
  std::vector<std::string> names = t.sweeps();
  if (code.size() != names.size())
    throw std::logic_error("time loop steps: a CUDA variant per sweep expected");
  // The sweeps' entries divide no pool: a launch is the whole sweep.
  std::string out = "static int f2s_num_threads(int n) { return n; }\n\n";
  std::vector<SweepCall> calls;
  for (size_t i = 0; i < names.size(); ++i) {
    auto k = std::find_if(sweeps.begin(), sweeps.end(),
                          [&](const Kernel *s) { return s->name == names[i]; });
    if (k == sweeps.end())
      throw std::logic_error("time loop steps: no sweep '" + names[i] + "'");
    out += print_c_args_struct(**k) + code[i].source + "static void " +
           c_variant_name(**k, "on_device") + "(const struct f2s_" + (*k)->name +
           "_args *a, const long *tune, int nthreads) {\n  (void)tune;\n  (void)nthreads;\n  " +
           cuda_launch_name(*code[i].ir, code[i].variant) + "(a, 0);\n}\n\n";
    calls.push_back({"on_device", {}, 1});
  }
  return out + print_c_time_loop_variant(t, sweeps, calls, variant);
}

std::string print_cuda_harness_entry_call(const Kernel &k, const std::string &symbol) {
  std::string args;
  for (const Variable &v : k.args)
    args += (args.empty() ? "d." : ", d.") + c_name(v.name);
  return symbol + "(" + args + ");";
}

CudaHarnessSource print_cuda_harness(const Kernel &original, const std::string &variant_code,
                                     const std::string &variant, const CudaHarnessCall &call) {
  KernelFacts facts = analyze(original);
  std::set<std::string> written(facts.write_set.begin(), facts.write_set.end());
  std::string args_type = "struct f2s_" + original.name + "_args";
  std::string reference = c_variant_name(original, "reference");

  CudaHarnessSource src;
  const std::string reference_code =
      call.reference_code.empty() ? print_c_variant(original, "reference") : call.reference_code;
  src.c_reference = print_c_prelude(c_code_streams_rows(reference_code)) +
                    print_c_args_struct(original) + reference_code + "void " + reference +
                    "_entry(const " + args_type + " *a) {\n  static const long tune[1] = {0};\n  " +
                    reference + "(a, tune, 1);\n}\n";

  std::ostringstream out;
  out << print_cuda_prelude() << cuda_harness_support << print_c_args_struct(original)
      << variant_code;
  out << "extern \"C\" void " << reference << "_entry(const " << args_type << " *a);\n\n";

  size_t n_scalars = 0;
  std::string usage;
  for (const Variable &v : original.args)
    if (!v.is_grid()) {
      ++n_scalars;
      usage += " " + v.name;
    }
  const bool cached = !call.reference_code.empty();
  out << "int main(int argc, char **argv) {\n";
  out << "  if (argc != " << 3 + n_scalars
      << (cached ? " && argc != " + std::to_string(4 + n_scalars) : "") << ") {\n"
      << "    fprintf(stderr, \"usage: %s REPS TOLERANCE" << usage
      << (cached ? " [REFERENCE-FILE]" : "") << "\\n\", argv[0]);\n"
      << "    return 2;\n  }\n";
  out << "  const int reps = atoi(argv[1]) > 0 ? atoi(argv[1]) : 1;\n"
      << "  const double f2s_tolerance = strtod(argv[2], NULL);\n";
  out << "  " << args_type << " a, r, d;\n";
  out << print_c_scalar_args(original, 3, {"a", "r", "d"});
  out << "  cudaEvent_t e0, e1;\n"
      << "  f2s_cuda_check(cudaEventCreate(&e0), \"creating an event\");\n"
      << "  f2s_cuda_check(cudaEventCreate(&e1), \"creating an event\");\n"
      << "  float ms = 0;\n  double h2d = 0, d2h = 0;\n";
  unsigned grid_id = 0;
  for (const Variable &v : original.args) {
    if (!v.is_grid())
      continue;
    std::string n = c_name(v.name), h = harness_name(original, v.name), t = c_type(v.type),
                cnt = h + "_n";
    out << "  size_t " << cnt << " = 1;\n";
    for (int dim = 0; dim < v.rank(); ++dim) {
      std::string ext = "((long)(" + print_c_expr(original, v.dims[dim].hi) + ") - (long)(" +
                        print_c_expr(original, v.dims[dim].lo) + ") + 1)";
      out << "  " << cnt << " *= (size_t)(" << ext << " > 0 ? " << ext << " : 0);\n";
    }
    out << "  " << t << " *" << h << " = f2s_new_grid<" << t << ">(" << cnt << ", " << grid_id++
        << (v.type == Type::Bool ? ", true" : "") << ");\n"
        << "  a." << n << " = r." << n << " = " << h << ";\n";
    if (written.count(v.name))
      out << "  " << t << " *" << h << "_ref = (" << t << " *)malloc(" << cnt << " * sizeof(" << t
          << ") + 1);\n"
          << "  memcpy(" << h << "_ref, " << h << ", " << cnt << " * sizeof(" << t << "));\n"
          << "  r." << n << " = " << h << "_ref;\n";
    if (call.resident) {
      // The procedure finds the grid present and runs on its device copy.
      out << "  cudaEventRecord(e0);\n"
          << "  f2s_cuda_enter(" << h << ", " << cnt << " * sizeof(" << t << "));\n"
          << "  cudaEventRecord(e1);\n  cudaEventSynchronize(e1);\n"
          << "  cudaEventElapsedTime(&ms, e0, e1);\n  h2d += 1e-3 * ms;\n"
          << "  d." << n << " = " << h << ";\n";
      continue;
    }
    out << "  " << t << " *" << h << "_dev = NULL;\n"
        << "  f2s_cuda_check(cudaMalloc((void **)&" << h << "_dev, " << cnt << " * sizeof(" << t
        << ") + 1), \"allocating '" << v.name << "'\");\n"
        << "  cudaEventRecord(e0);\n"
        << "  f2s_cuda_check(cudaMemcpy(" << h << "_dev, " << h << ", " << cnt << " * sizeof(" << t
        << "), cudaMemcpyHostToDevice), \"copying '" << v.name << "'\");\n"
        << "  cudaEventRecord(e1);\n  cudaEventSynchronize(e1);\n"
        << "  cudaEventElapsedTime(&ms, e0, e1);\n  h2d += 1e-3 * ms;\n"
        << "  d." << n << " = " << h << "_dev;\n";
  }
  std::string run =
      call.call.empty() ? cuda_launch_name(original, variant) + "(&d, 0);" : call.call;
  if (cached) {
    // The written grids and scalars of the serial reference, in one file:
    // read where it holds them all, computed and written otherwise.
    std::vector<std::pair<std::string, std::string>> parts; // address, bytes
    for (const Variable &v : original.args) {
      std::string h = harness_name(original, v.name);
      if (v.is_grid() && written.count(v.name))
        parts.emplace_back(h + "_ref", h + "_n * sizeof(" + std::string(c_type(v.type)) + ")");
      else if (!v.is_grid() && original.find_reduction(v.name))
        parts.emplace_back("&" + h + "_r", "sizeof(" + std::string(c_type(v.type)) + ")");
    }
    // Read only a file of exactly the size expected: the reference's
    // inputs are the grids read into.
    std::string total = "(size_t)0";
    for (const auto &[addr, bytes] : parts)
      total += " + (size_t)(" + bytes + ")";
    out << "  const char *f2s_ref_file = argc > " << 3 + n_scalars << " ? argv[" << 3 + n_scalars
        << "] : NULL;\n"
        << "  int f2s_ref_read = 0;\n"
        << "  if (f2s_ref_file) {\n"
        << "    FILE *f2s_f = fopen(f2s_ref_file, \"rb\");\n"
        << "    if (f2s_f && fseek(f2s_f, 0, SEEK_END) == 0 && (size_t)ftell(f2s_f) == " << total
        << " && fseek(f2s_f, 0, SEEK_SET) == 0) {\n      f2s_ref_read = 1;\n";
    for (const auto &[addr, bytes] : parts)
      out << "      f2s_ref_read = f2s_ref_read && fread(" << addr << ", 1, " << bytes
          << ", f2s_f) == (size_t)(" << bytes << ");\n";
    out << "      if (!f2s_ref_read) {\n"
        << "        fprintf(stderr, \"f2s harness: cannot read %s\\n\", f2s_ref_file);\n"
        << "        return 2;\n      }\n    }\n"
        << "    if (f2s_f)\n      fclose(f2s_f);\n  }\n"
        << "  if (!f2s_ref_read) {\n"
        << "    " << reference << "_entry(&r);\n"
        << "    FILE *f2s_f = f2s_ref_file ? fopen(f2s_ref_file, \"wb\") : NULL;\n"
        << "    if (f2s_f) {\n";
    for (const auto &[addr, bytes] : parts)
      out << "      fwrite(" << addr << ", 1, " << bytes << ", f2s_f);\n";
    out << "      fclose(f2s_f);\n    }\n  }\n";
  } else {
    out << "  " << reference << "_entry(&r);\n";
  }
  out << "  " << run << "\n"
      << "  f2s_cuda_check(cudaGetLastError(), \"launching the variant\");\n"
      << "  f2s_cuda_check(cudaDeviceSynchronize(), \"running the variant\");\n";
  // f2s__: no grid's f2s_<name> starts so, as Fortran names begin with a letter.
  out << "  double f2s__err = 0, f2s__e;\n";
  for (const Variable &v : original.args) {
    if (!v.is_grid() || !written.count(v.name))
      continue;
    std::string n = c_name(v.name), h = harness_name(original, v.name), t = c_type(v.type);
    out << "  cudaEventRecord(e0);\n";
    if (call.resident)
      out << "  f2s_cuda_update_host(" << h << ", " << h << "_n * sizeof(" << t << "));\n";
    else
      out << "  f2s_cuda_check(cudaMemcpy(" << h << ", " << h << "_dev, " << h << "_n * sizeof("
          << t << "), cudaMemcpyDeviceToHost), \"copying '" << v.name << "' back\");\n";
    out << "  cudaEventRecord(e1);\n  cudaEventSynchronize(e1);\n"
        << "  cudaEventElapsedTime(&ms, e0, e1);\n  d2h += 1e-3 * ms;\n"
        << "  f2s__e = f2s_max_rel_err(" << h << ", " << h << "_ref, " << h << "_n);\n"
        << "  if (!(f2s__e <= f2s__err))\n    f2s__err = f2s__e;\n";
  }
  // Reductions: the blocks' partials were combined on the host by the
  // launcher into d's copy; their tolerance grows with the number of terms
  // (the points of the nest).
  out << "  const double f2s_terms = " << print_c_point_count(original) << ";\n"
      << "  (void)f2s_terms;\n";
  out << "  int f2s_reduction_bad = 0;\n  double f2s_reduction_err = 0;\n";
  out << print_c_reduction_check(original, "d", "r", "f2s_terms");
  out << "  const int f2s_grids_bad = !(f2s__err <= f2s_tolerance);\n"
      << "  if (!(f2s_reduction_err <= f2s__err))\n    f2s__err = f2s_reduction_err;\n";
  out << "  if (f2s_grids_bad || f2s_reduction_bad) {\n"
      << "    printf(\"F2S-RESULT {\\\"verified\\\": false, \\\"max_rel_err\\\": \");\n"
      << "    f2s_print_error(f2s__err);\n    printf(\"}\\n\");\n    return 0;\n  }\n";
  out << "  " << run << " /* warm-up */\n"
      << "  std::vector<double> times;\n"
      << "  for (int rep = 0; rep < reps; ++rep) {\n"
      << "    cudaEventRecord(e0);\n"
      << "    " << run << "\n"
      << "    cudaEventRecord(e1);\n"
      << "    f2s_cuda_check(cudaEventSynchronize(e1), \"timing the variant\");\n"
      << "    cudaEventElapsedTime(&ms, e0, e1);\n"
      << "    times.push_back(1e-3 * ms);\n  }\n"
      << "  f2s_cuda_check(cudaGetLastError(), \"running the variant\");\n"
      << "  std::sort(times.begin(), times.end());\n"
      << "  double median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + "
         "times[reps / 2]);\n"
      << "  printf(\"F2S-RESULT {\\\"verified\\\": true, \\\"max_rel_err\\\": \");\n"
      << "  f2s_print_error(f2s__err);\n"
      << "  printf(\", \\\"median_s\\\": %.9e, \\\"min_s\\\": %.9e, \\\"reps\\\": %d, "
         "\\\"h2d_s\\\": %.9e, \\\"d2h_s\\\": %.9e}\\n\", median, times[0], reps, h2d, d2h);\n"
      << "  return 0;\n}\n";
  src.cuda_main = out.str();
  return src;
}

} // namespace f2s
