#include "codegen/HarnessPrinter.h"

#include "ast/Analysis.h"
#include "codegen/CPrinter.h"

#include <set>
#include <sstream>

namespace f2s {

namespace {

// Fixed support code of every harness: random data, first touch, comparison
// and a clock. Only main() is printed from the kernel.
const char *harness_support = R"(#include <float.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Deterministic values in [0.5, 1.5): splitmix64 of (grid, element), so the
 * data never depends on how many threads wrote it. */
static double f2s_random(unsigned grid, long i) {
  uint64_t x = (uint64_t)i + 0x9E3779B97F4A7C15ull * (grid + 1);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  x ^= x >> 31;
  return 0.5 + (double)(x >> 11) * 0x1.0p-53;
}

/* One grid to fill: `plane` elements per slowest-dimension index, so each
 * thread touches the planes of the slowest dimension it will compute. */
struct f2s_fill {
  void *data;
  int type; /* 0: int32_t, 1: float, 2: double, 3: LOGICAL (int32_t 0 or 1) */
  unsigned grid;
  long n, plane;
};

static void f2s_fill_task(int tid, int nthreads, void *arg) {
  const struct f2s_fill *f = arg;
  long planes = (f->n + f->plane - 1) / f->plane;
  long first = planes * tid / nthreads * f->plane, end = planes * (tid + 1) / nthreads * f->plane;
  if (end > f->n)
    end = f->n;
  for (long i = first; i < end; ++i) {
    double v = f2s_random(f->grid, i);
    if (f->type == 2)
      ((double *)f->data)[i] = v;
    else if (f->type == 1)
      ((float *)f->data)[i] = (float)v;
    else if (f->type == 3)
      ((int32_t *)f->data)[i] = (int32_t)(v * 100) & 1;
    else /* kHarnessIntegerData (HarnessPrinter.h) says what this gives */
      ((int32_t *)f->data)[i] = (int32_t)(v * 100);
  }
}

static void *f2s_alloc_grid(long n, int type) {
  size_t elem = type == 2 ? 8 : 4;
  size_t bytes = ((size_t)(n > 0 ? n : 1) * elem + 63) / 64 * 64;
  void *p = aligned_alloc(64, bytes);
  if (!p) {
    fprintf(stderr, "f2s harness: cannot allocate %zu bytes\n", bytes);
    exit(2);
  }
  return p;
}

/* Without a first-touch function the fill itself is the first touch, by
 * planes of the slowest dimension; after one, pages stay where it put them. */
static void f2s_fill_grid(void *p, long n, int type, unsigned grid, long plane, int threads) {
  struct f2s_fill f = {p, type, grid, n, plane > 0 ? plane : 1};
  f2s_parallel_run(threads, f2s_fill_task, &f);
}

/* A program calls a kernel after its other kernels have swept their own
 * arrays, so the kernel's grids come from memory, not from the last-level
 * cache; a harness that calls it again and again on grids that fit there
 * would time it on warm caches (a copy-back measured 0.23 ms so and 0.49 ms
 * in its program, which had just swept 7 other arrays) and choose for
 * conditions the program never has. So between repetitions, when the grids
 * (`bytes`) are larger than the per-core L2 (where a program's small kernels
 * keep their data warm) and smaller than twice the last-level cache (beyond,
 * the sweep evicts itself), each thread writes and reads its share of a
 * buffer twice that cache's size. Not timed. */
struct f2s_evict {
  char *buffer;
  long bytes;
  volatile long sink;
};

static void f2s_evict_task(int tid, int nthreads, void *arg) {
  struct f2s_evict *e = arg;
  long first = e->bytes * tid / nthreads / 64 * 64, end = e->bytes * (tid + 1) / nthreads / 64 * 64;
  long sum = 0;
  for (long i = first; i < end; i += 64)
    sum += ++e->buffer[i];
  e->sink += sum;
}

static long f2s_cache_bytes(int name, long otherwise) {
  long v = sysconf(name);
  return v > 0 ? v : otherwise;
}

/* The last-level cache the candidate's threads can fill: F2S_LLC_BYTES, which
 * the tuner sets from hwloc's topology (the instances the threads span), or
 * sysconf's figure. That one is no guide on processors whose L3 is in
 * slices: an AMD EPYC reports its whole socket's 384 MiB where a thread
 * shares 32 MiB, and evicting twice that before every timed run cost 0.7 s
 * of page faults per harness run on a 2-core slice of one. */
static long f2s_llc_bytes(void) {
  const char *v = getenv("F2S_LLC_BYTES");
  const long n = v ? atol(v) : 0;
  return n > 0 ? n : f2s_cache_bytes(_SC_LEVEL3_CACHE_SIZE, 32l << 20);
}

static struct f2s_evict *f2s_evictor(double bytes) {
  const long llc = f2s_llc_bytes(), l2 = f2s_cache_bytes(_SC_LEVEL2_CACHE_SIZE, 1l << 20);
  if (bytes <= (double)l2 || bytes >= 2.0 * (double)llc)
    return NULL;
  struct f2s_evict *e = calloc(1, sizeof *e);
  if (!e)
    return NULL;
  e->bytes = 2 * llc;
  e->buffer = calloc((size_t)e->bytes, 1);
  if (!e->buffer) {
    free(e);
    return NULL;
  }
  return e;
}

static void f2s_evict_caches(struct f2s_evict *e, int threads) {
  if (e)
    f2s_parallel_run(threads, f2s_evict_task, e);
}

/* max |c - r| / max |r| over a grid; a NaN on one side only is an error. */
static double f2s_max_rel_err(const void *cv, const void *rv, long n, int type) {
  double max_diff = 0, max_ref = 0;
  for (long i = 0; i < n; ++i) {
    double c = type == 2 ? ((const double *)cv)[i]
               : type == 1 ? ((const float *)cv)[i] : ((const int32_t *)cv)[i];
    double r = type == 2 ? ((const double *)rv)[i]
               : type == 1 ? ((const float *)rv)[i] : ((const int32_t *)rv)[i];
    if (isnan(c) != isnan(r))
      return INFINITY;
    double d = fabs(c - r);
    if (d > max_diff)
      max_diff = d;
    if (fabs(r) > max_ref)
      max_ref = fabs(r);
  }
  return max_ref > 0 ? max_diff / max_ref : max_diff;
}

static double f2s_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int f2s_compare_doubles(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static void f2s_print_error(double e) {
  if (isfinite(e))
    printf("%.6e", e);
  else
    printf("1e308");
}

)";

int type_code(Type t) {
  return t == Type::Float64 ? 2 : t == Type::Float32 ? 1 : t == Type::Bool ? 3 : 0;
}

} // namespace

std::string harness_name(const Kernel &k, const std::string &var) {
  size_t i = 0;
  while (i < k.args.size() && k.args[i].name != var)
    ++i;
  return "f2s_" + std::to_string(i) + "_" + c_name(var);
}

std::string print_c_scalar_args(const Kernel &k, size_t first,
                                const std::vector<std::string> &structs) {
  std::ostringstream out;
  size_t argi = first;
  for (const Variable &v : k.args) {
    if (v.is_grid())
      continue;
    std::string n = c_name(v.name), h = harness_name(k, v.name),
                arg = "argv[" + std::to_string(argi++) + "]";
    std::string parse = v.type == Type::Int32
                            ? "(int32_t)strtol(" + arg + ", NULL, 10)"
                            : "(" + std::string(c_type(v.type)) + ")strtod(" + arg + ", NULL)";
    out << "  const " << c_type(v.type) << " " << n << " = " << parse << ";\n";
    if (k.find_reduction(v.name)) {
      // Each run reduces into its own copy, starting from the same value.
      for (const std::string &st : structs)
        out << "  " << c_type(v.type) << " " << h << "_" << st << " = " << n << ";\n  " << st << "."
            << n << " = &" << h << "_" << st << ";\n";
      continue;
    }
    out << "  ";
    for (const std::string &st : structs)
      out << st << "." << n << " = ";
    out << n << ";\n";
  }
  return out.str();
}

std::string print_c_point_count(const Kernel &k) {
  // The front end refuses bounds that depend on another loop's variable, so
  // the count is the product of the trip counts.
  std::string count = "1.0";
  for (const For *f : perfect_nest(k.body)) {
    std::string lo = "(double)(" + print_c_expr(k, f->lo) + ")",
                hi = "(double)(" + print_c_expr(k, f->hi) + ")";
    count += " * (" + hi + " >= " + lo + " ? " + hi + " - " + lo + " + 1 : 0)";
  }
  return count;
}

std::string print_c_reduction_check(const Kernel &k, const std::string &got,
                                    const std::string &want, const std::string &terms) {
  std::ostringstream out;
  for (const Reduction &r : k.reductions) {
    std::string h = harness_name(k, r.var), g = h + "_" + got, w = h + "_" + want;
    // A sum in another order differs by rounding: at most about one unit of
    // the last place per term, relative to the sum of the terms' magnitudes
    // (the sum itself when the terms have one sign). MAX and MIN are exact,
    // and so is an integer sum: they get the grids' tolerance.
    std::string eps = r.type == Type::Float64 ? "DBL_EPSILON" : "FLT_EPSILON";
    out << "  {\n    /* reduction '" << r.var << "' (" << reduce_op_name(r.op) << ") */\n";
    if (r.op == ReduceOp::Sum && is_float(r.type))
      out << "    const double tol = (double)" << terms << " * " << eps
          << " > f2s_tolerance ? (double)" << terms << " * " << eps << " : f2s_tolerance;\n";
    else
      out << "    const double tol = f2s_tolerance;\n";
    out << "    const double d = fabs((double)" << g << " - (double)" << w << "), m = fabs((double)"
        << w << ");\n"
        << "    double rel = m > 0 ? d / m : d;\n"
        << "    if (isnan((double)" << g << ") != isnan((double)" << w << "))\n"
        << "      rel = INFINITY;\n"
        << "    if (!(rel <= tol))\n      f2s_reduction_bad = 1;\n"
        << "    if (!(rel <= f2s_reduction_err))\n      f2s_reduction_err = rel;\n  }\n";
  }
  return out.str();
}

std::string print_c_harness(const Kernel &original, const std::string &variant_code,
                            const std::string &variant_fn, size_t n_tune,
                            const HarnessExtras &extras) {
  KernelFacts facts = analyze(original);
  std::set<std::string> written(facts.write_set.begin(), facts.write_set.end());
  std::string args_type = "struct f2s_" + original.name + "_args";
  std::string reference_fn = c_variant_name(original, "reference");

  std::ostringstream out;
  out << print_c_prelude(c_code_streams_rows(variant_code) ||
                         c_code_streams_rows(extras.reference_code) ||
                         c_code_streams_rows(extras.first_touch_code))
      << harness_support << print_c_placement(extras.cpus, "the placement the library uses")
      << print_c_args_struct(original)
      << (extras.reference_code.empty() ? print_c_variant(original, "reference")
                                        : extras.reference_code)
      << variant_code;
  const bool first_touch = extras.first_touch && !extras.first_touch_fn.empty();
  if (first_touch)
    out << print_c_args_struct(*extras.first_touch) << extras.first_touch_code;

  size_t n_scalars = 0;
  std::string usage;
  for (const Variable &v : original.args)
    if (!v.is_grid()) {
      ++n_scalars;
      usage += " " + v.name;
    }
  for (size_t t = 0; t < n_tune; ++t)
    usage += " TUNE" + std::to_string(t);

  out << "int main(int argc, char **argv) {\n";
  out << "  if (argc != " << 4 + n_scalars + n_tune << ") {\n"
      << "    fprintf(stderr, \"usage: %s THREADS REPS TOLERANCE" << usage << "\\n\", argv[0]);\n"
      << "    return 2;\n  }\n";
  out << "  /* THREADS 0: every processor, as an untuned library would use. */\n"
      << "  const int threads = atoi(argv[1]) > 0 ? atoi(argv[1]) : f2s_num_threads(0);\n"
      << "  const int reps = atoi(argv[2]) > 0 ? atoi(argv[2]) : 1;\n"
      << "  const double f2s_tolerance = strtod(argv[3], NULL);\n";
  out << "  " << args_type << " a, r;\n";
  out << "  long tune[" << (n_tune ? n_tune : 1) << "] = {0};\n";
  out << print_c_scalar_args(original, 4, {"a", "r"});
  size_t argi = 4 + n_scalars;
  for (size_t t = 0; t < n_tune; ++t)
    out << "  tune[" << t << "] = strtol(argv[" << argi++ << "], NULL, 10);\n";

  // Grids: extents from the declared bounds; all allocated, then first
  // touched, then filled (and copied for the reference).
  unsigned grid_id = 0;
  std::vector<std::pair<std::string, Type>> written_grids;
  for (const Variable &v : original.args) {
    if (!v.is_grid())
      continue;
    std::string n = c_name(v.name), h = harness_name(original, v.name), ext = h + "_n",
                plane = h + "_plane";
    out << "  long " << ext << " = 1, " << plane << " = 1;\n";
    for (int d = 0; d < v.rank(); ++d) {
      std::string extent = "((long)(" + print_c_expr(original, v.dims[d].hi) + ") - (long)(" +
                           print_c_expr(original, v.dims[d].lo) + ") + 1)";
      out << "  " << ext << " *= " << extent << " > 0 ? " << extent << " : 0;\n";
      // A plane of the slowest dimension: every dimension but the last.
      if (d + 1 < v.rank())
        out << "  " << plane << " = " << ext << ";\n";
    }
    out << "  " << c_type(v.type) << " *" << h << " = f2s_alloc_grid(" << ext << ", "
        << type_code(v.type) << ");\n";
  }
  if (first_touch) {
    std::string ft = "f2s_ft";
    out << "  /* First touch with the variant's threads and decomposition. */\n";
    out << "  struct f2s_" << extras.first_touch->name << "_args " << ft << ";\n";
    for (const Variable &v : original.args) {
      std::string n = c_name(v.name), h = harness_name(original, v.name);
      if (original.find_reduction(v.name)) {
        // First touch leaves a reduction's value as it was; it gets a copy.
        out << "  " << c_type(v.type) << " " << h << "_ft = " << n << ";\n"
            << "  " << ft << "." << n << " = &" << h << "_ft;\n";
        continue;
      }
      out << "  " << ft << "." << n << " = " << (v.is_grid() ? h : n) << ";\n";
    }
    out << "  " << extras.first_touch_fn << "(&" << ft << ", tune, threads);\n";
  }
  for (const Variable &v : original.args) {
    if (!v.is_grid())
      continue;
    std::string n = c_name(v.name), h = harness_name(original, v.name), ext = h + "_n",
                plane = h + "_plane";
    std::string ctype = c_type(v.type);
    int code = type_code(v.type);
    out << "  f2s_fill_grid(" << h << ", " << ext << ", " << code << ", " << grid_id++ << ", "
        << plane << ", threads);\n";
    out << "  a." << n << " = r." << n << " = " << h << ";\n";
    if (written.count(v.name)) {
      out << "  " << ctype << " *" << h << "_ref = f2s_alloc_grid(" << ext << ", " << code << ");\n"
          << "  memcpy(" << h << "_ref, " << h << ", (size_t)" << ext << " * sizeof(" << ctype
          << "));\n"
          << "  r." << n << " = " << h << "_ref;\n";
      written_grids.emplace_back(h, v.type);
    }
  }

  // The reductions' tolerance scales with the number of terms: the points
  // of the nest.
  out << "  const double f2s_terms = " << print_c_point_count(original) << ";\n"
      << "  (void)f2s_terms;\n";
  out << "  " << reference_fn << "(&r, tune, 1);\n";
  out << "  " << variant_fn << "(&a, tune, threads);\n";
  // f2s__: no grid's f2s_<name> starts so, as Fortran names begin with a letter.
  out << "  double f2s__err = 0, f2s__e;\n";
  for (const auto &[h, t] : written_grids)
    out << "  f2s__e = f2s_max_rel_err(" << h << ", " << h << "_ref, " << h << "_n, "
        << type_code(t) << ");\n"
        << "  if (!(f2s__e <= f2s__err))\n    f2s__err = f2s__e;\n";
  out << "  int f2s_reduction_bad = 0;\n  double f2s_reduction_err = 0;\n";
  out << print_c_reduction_check(original, "a", "r", "f2s_terms");
  // The grids must agree within the tolerance, the reductions within theirs;
  // the error reported is the largest of both.
  out << "  const int f2s_grids_bad = !(f2s__err <= f2s_tolerance);\n"
      << "  if (!(f2s_reduction_err <= f2s__err))\n    f2s__err = f2s_reduction_err;\n";
  out << "  if (f2s_grids_bad || f2s_reduction_bad) {\n"
      << "    printf(\"F2S-RESULT {\\\"verified\\\": false, \\\"max_rel_err\\\": \");\n"
      << "    f2s_print_error(f2s__err);\n    printf(\"}\\n\");\n    return 0;\n  }\n";
  out << "  " << variant_fn << "(&a, tune, threads); /* warm-up */\n";
  out << "  double f2s_grid_bytes = 0;\n";
  for (const Variable &v : original.args)
    if (v.is_grid()) {
      std::string h = harness_name(original, v.name);
      out << "  f2s_grid_bytes += (double)" << h << "_n * sizeof(*" << h << ");\n";
    }
  out << "  struct f2s_evict *f2s_evict = f2s_evictor(f2s_grid_bytes);\n";
  out << "  double *times = malloc(sizeof(double) * (size_t)reps);\n"
      << "  for (int rep = 0; rep < reps; ++rep) {\n"
      << "    f2s_evict_caches(f2s_evict, threads);\n"
      << "    double t0 = f2s_now();\n"
      << "    " << variant_fn << "(&a, tune, threads);\n"
      << "    times[rep] = f2s_now() - t0;\n  }\n"
      << "  qsort(times, (size_t)reps, sizeof(double), f2s_compare_doubles);\n"
      << "  double median = reps % 2 ? times[reps / 2] : 0.5 * (times[reps / 2 - 1] + times[reps / "
         "2]);\n"
      << "  printf(\"F2S-RESULT {\\\"verified\\\": true, \\\"max_rel_err\\\": \");\n"
      << "  f2s_print_error(f2s__err);\n"
      << "  printf(\", \\\"median_s\\\": %.9e, \\\"min_s\\\": %.9e, \\\"reps\\\": %d, "
         "\\\"cold_caches\\\": %s}\\n\", median, times[0], reps, f2s_evict ? \"true\" : "
         "\"false\");\n"
      << "  return 0;\n}\n";
  return out.str();
}

} // namespace f2s
