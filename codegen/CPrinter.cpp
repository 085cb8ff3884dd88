#include "codegen/CPrinter.h"

#include "ast/Aliasing.h"
#include "ast/Analysis.h"
#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "codegen/CStmt.h"
#include "runtime/RuntimeText.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <set>
#include <sstream>

namespace f2s {

namespace {

bool has_parallel_loop(const Stmt &s) {
  if (const For *f = as<For>(s))
    return is_cpu_parallel(f->exec) || has_parallel_loop(f->body);
  if (const Block *b = as<Block>(s))
    for (const Stmt &c : b->stmts)
      if (has_parallel_loop(c))
        return true;
  return false;
}

bool is_written(const Kernel &k, const std::string &grid) {
  KernelFacts facts = analyze(k);
  for (const std::string &w : facts.write_set)
    if (w == grid)
      return true;
  return false;
}

/// The loops the threads share at the top of a body, outside every other
/// loop, in order.
void top_distributed_loops(const Stmt &s, std::vector<const For *> &out) {
  if (const For *f = as<For>(s)) {
    if (is_cpu_parallel(f->exec) && f->exec != LoopExec::Members)
      out.push_back(f);
    return;
  }
  if (const Block *b = as<Block>(s))
    for (const Stmt &c : b->stmts)
      top_distributed_loops(c, out);
}

/// Whether `e` reads only the kernel's scalar arguments and tuning
/// parameters, so that it can be evaluated before any loop.
bool prologue_computable(const Kernel &k, const Expr &e) {
  struct Reader : IRVisitor {
    const Kernel &k;
    bool ok = true;
    explicit Reader(const Kernel &kk) : k(kk) {}
    void visit_var(const Var *v) override {
      bool known = false;
      for (const Variable &a : k.args)
        known = known || (a.name == v->name && !a.is_grid());
      for (const Variable &t : k.tuning)
        known = known || t.name == v->name;
      ok = ok && known;
    }
    void visit_grid_ref(const GridRef *) override { ok = false; }
  } reader(k);
  reader.visit(e);
  return reader.ok;
}

/// A tuning parameter that is the block size of the loop the threads share,
/// with that loop: the prologue trims it to the call's size
/// (f2s_balanced_block). Null when the kernel has no such loop, or more than
/// one loop the threads share, or bounds that depend on an enclosing loop.
const For *balanced_block_loop(const Kernel &k) {
  std::vector<const For *> loops;
  top_distributed_loops(k.body, loops);
  if (loops.size() != 1)
    return nullptr;
  const For *f = loops[0];
  const Var *step = as<Var>(f->step);
  if (!step || std::none_of(k.tuning.begin(), k.tuning.end(),
                            [&](const Variable &t) { return t.name == step->name; }))
    return nullptr;
  const For *l = f;
  for (int c = 0; c < (f->exec == LoopExec::Groups ? f->dist.collapse : 1); ++c) {
    if (!l || !prologue_computable(k, l->lo) || !prologue_computable(k, l->hi) ||
        !prologue_computable(k, l->step))
      return nullptr;
    l = as<For>(l->body);
  }
  if (f->dist.chunk && !prologue_computable(k, f->dist.chunk))
    return nullptr;
  if (f->dist.group && !prologue_computable(k, f->dist.group))
    return nullptr;
  return f;
}

/// `const long <block size> = f2s_balanced_block(...)`, after every other
/// tuning parameter: the tuned size, the loop's points, the blocks of the
/// loops numbered with it, the run and the workers the printer's dealing
/// (print_parallel_for) uses.
void print_balanced_block(const Kernel &k, const For *f, std::ostringstream &out) {
  CExprPrinter exprs(k);
  const Var *step = as<Var>(f->step);
  size_t t = 0;
  while (k.tuning[t].name != step->name)
    ++t;
  std::string lo = exprs.print(f->lo), hi = exprs.print(f->hi);
  std::string others = "1";
  const For *l = f;
  for (int c = 1; f->exec == LoopExec::Groups && c < f->dist.collapse; ++c) {
    l = as<For>(l->body);
    std::string llo = exprs.print(l->lo), lhi = exprs.print(l->hi), ls = exprs.print(l->step);
    others += " * ((" + lhi + ") >= (" + llo + ") ? ((" + lhi + ") - (" + llo + ")) / (" + ls +
              ") + 1 : 0)";
  }
  std::string run = "1", workers = "f2s_nthreads";
  if (f->exec == LoopExec::Groups) {
    if (f->dist.chunk)
      run = exprs.print(f->dist.chunk);
    std::string group = f->dist.group ? exprs.print(f->dist.group) : "1";
    workers = "(f2s_nthreads + (" + group + " < 1 ? 1 : " + group + ") - 1) / (" + group +
              " < 1 ? 1 : " + group + ")";
  }
  out << "  /* '" << f->var << "', the loop the threads share, in blocks of " << step->name
      << ", trimmed where the tuned size would leave threads idle at this call's size. */\n";
  out << "  const long " << c_name(step->name) << " = f2s_balanced_block(tune[" << t
      << "] > 0 ? tune[" << t << "] : 1, (long)(" << hi << ") - (long)(" << lo << ") + 1, "
      << others << ", " << run << ", " << workers << ");\n";
}

std::string grid_pointer_type(const Kernel &k, const Variable &v) {
  return std::string(is_written(k, v.name) ? "" : "const ") + c_type(v.type) + " *";
}

/// Local copies of the arguments, the layout of every grid, the tuning
/// parameters and the temporaries, at the top of a variant's body. A
/// reduction's accumulator starts at the argument's value in a serial body
/// and at the operator's identity in a thread's share of a parallel one.
/// Grids are `restrict` unless the variant is the one for aliased calls.
void print_prologue(const Kernel &k, std::ostringstream &out, bool parallel, bool restrict_grids) {
  CExprPrinter exprs(k);
  for (const Variable &v : k.args) {
    std::string n = c_name(v.name);
    if (const Reduction *r = k.find_reduction(v.name)) {
      out << "  " << c_type(v.type) << " " << n << " = "
          << (parallel ? reduction_identity(*r) + "; /* this thread's partial */"
                       : "*a->" + n + ";")
          << "\n";
      continue;
    }
    if (!v.is_grid()) {
      out << "  const " << c_type(v.type) << " " << n << " = a->" << n << ";\n";
      continue;
    }
    out << "  " << grid_pointer_type(k, v) << (restrict_grids ? "restrict " : "") << n << " = a->"
        << n << ";\n";
  }
  for (const Variable &v : k.args) {
    if (!v.is_grid())
      continue;
    std::string n = "f2s_" + c_name(v.name);
    out << "  /* " << v.name << ": column-major, declared (";
    for (int d = 0; d < v.rank(); ++d)
      out << (d ? ", " : "") << print_expr(v.dims[d].lo) << ":" << print_expr(v.dims[d].hi);
    out << ") */\n";
    out << print_c_grid_layout(k, v, "  ");
  }
  const For *balanced = parallel ? balanced_block_loop(k) : nullptr;
  for (size_t t = 0; t < k.tuning.size(); ++t) {
    if (balanced && k.tuning[t].name == as<Var>(balanced->step)->name)
      continue;
    std::string n = c_name(k.tuning[t].name);
    // A block size of 0 would never advance; a prefetch distance of 0 means none.
    const char *fallback = k.tuning[t].name == k.prefetch_distance ? "0" : "1";
    out << "  const long " << n << " = tune[" << t << "] > 0 ? tune[" << t << "] : " << fallback
        << ";\n";
  }
  if (balanced)
    print_balanced_block(k, balanced, out);
  for (const Variable &v : k.temps)
    out << "  " << c_type(v.type) << " " << c_name(v.name) << ";\n";
  out << c_work_arrays(k, "  ");
  out << c_row_buffers_begin(k);
}

/// Cache bypass (transforms/CacheBypass): row buffers and the copy of a
/// row to memory with non-temporal stores, using the widest streaming store
/// the compiler targets; plain stores for the head (until the destination is
/// aligned) and the tail.
const char *const stream_helpers = R"(#if defined(__SSE2__)
#include <immintrin.h>
#endif
/* A row buffer: 64-byte aligned, n elements of `size` bytes. A row is a few
   kilobytes; running out of memory for it leaves nothing sensible to do. */
static inline void *f2s_alloc_row(size_t size, long n) {
  size_t bytes = ((size_t)(n > 0 ? n : 1) * size + 63) / 64 * 64;
  void *p = aligned_alloc(64, bytes);
  if (!p)
    abort();
  return p;
}
#if defined(__AVX512F__)
#define F2S_STREAM_BYTES 64
#elif defined(__AVX__)
#define F2S_STREAM_BYTES 32
#else
#define F2S_STREAM_BYTES 16
#endif
static inline void f2s_stream_double(double *restrict dst, const double *restrict src, long n) {
  long i = 0;
  for (; i < n && ((uintptr_t)(dst + i) % F2S_STREAM_BYTES) != 0; ++i)
    dst[i] = src[i];
#if defined(__AVX512F__)
  for (; i + 8 <= n; i += 8)
    _mm512_stream_pd(dst + i, _mm512_loadu_pd(src + i));
#elif defined(__AVX__)
  for (; i + 4 <= n; i += 4)
    _mm256_stream_pd(dst + i, _mm256_loadu_pd(src + i));
#elif defined(__SSE2__)
  for (; i + 2 <= n; i += 2)
    _mm_stream_pd(dst + i, _mm_loadu_pd(src + i));
#endif
  for (; i < n; ++i)
    dst[i] = src[i];
}
static inline void f2s_stream_float(float *restrict dst, const float *restrict src, long n) {
  long i = 0;
  for (; i < n && ((uintptr_t)(dst + i) % F2S_STREAM_BYTES) != 0; ++i)
    dst[i] = src[i];
#if defined(__AVX512F__)
  for (; i + 16 <= n; i += 16)
    _mm512_stream_ps(dst + i, _mm512_loadu_ps(src + i));
#elif defined(__AVX__)
  for (; i + 8 <= n; i += 8)
    _mm256_stream_ps(dst + i, _mm256_loadu_ps(src + i));
#elif defined(__SSE2__)
  for (; i + 4 <= n; i += 4)
    _mm_stream_ps(dst + i, _mm_loadu_ps(src + i));
#endif
  for (; i < n; ++i)
    dst[i] = src[i];
}
static inline void f2s_stream_int32_t(int32_t *restrict dst, const int32_t *restrict src, long n) {
  long i = 0;
  for (; i < n && ((uintptr_t)(dst + i) % F2S_STREAM_BYTES) != 0; ++i)
    dst[i] = src[i];
#if defined(__AVX512F__)
  for (; i + 16 <= n; i += 16)
    _mm512_stream_si512((void *)(dst + i), _mm512_loadu_si512((const void *)(src + i)));
#elif defined(__AVX__)
  for (; i + 8 <= n; i += 8)
    _mm256_stream_si256((__m256i *)(dst + i), _mm256_loadu_si256((const __m256i *)(src + i)));
#elif defined(__SSE2__)
  for (; i + 4 <= n; i += 4)
    _mm_stream_si128((__m128i *)(dst + i), _mm_loadu_si128((const __m128i *)(src + i)));
#endif
  for (; i < n; ++i)
    dst[i] = src[i];
}
/* Streaming stores are weakly ordered: fenced before the threads report done. */
static inline void f2s_stream_fence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
)";

/// Aliased arguments (ast/Aliasing): the run-time half, once per file. The
/// per-kernel check (print_c_aliasing_check) fills the tables.
const char *const aliasing_helper = R"(#include <stdio.h>
#include <string.h>
/* The bytes a grid spans: its element size times its extents, 0 if empty. */
static inline size_t f2s_grid_bytes(size_t size, int rank, const long *bounds) {
  for (int d = 0; d < rank; ++d) {
    long extent = bounds[2 * d + 1] - bounds[2 * d] + 1;
    if (extent <= 0)
      return 0;
    size *= (size_t)extent;
  }
  return size;
}
static inline const char *f2s_written_text(const int *written, int i, int j, const char *const *names,
                                           char *buf, size_t n) {
  if (written[i] && written[j])
    snprintf(buf, n, "both are");
  else
    snprintf(buf, n, "'%s' is", names[written[i] ? i : j]);
  return buf;
}
/* Which array arguments of a call share memory, where one of them is
   written. 0: none do. 1 + s: those that do are each the same array with
   the same bounds, grouped as labelling s of the `nsafe` in `safe` (entry
   i: the first argument of i's group), under which the nest is still free
   of dependences, so the variant without restrict computes what the loops
   do (and the GPU code has the nest with them identified). Any other
   overlap (part of an array, other bounds, an aliasing that creates a
   dependence) stops the program with a message naming two of the
   arguments: no code of the library computes what the loops do then, and
   a silent wrong result is worse than a stop. */
static inline int f2s_check_aliasing(const char *kernel, int n, int maxrank, const char *const *names,
                                     const int *written, const int *shape, const int *rank,
                                     const uintptr_t *p, const long *bounds, const size_t *size,
                                     int nsafe, const int *safe, int *label) {
  char w[160];
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) {
      if (!written[i] && !written[j])
        continue;
      size_t bi = f2s_grid_bytes(size[i], rank[i], bounds + 2 * maxrank * i);
      size_t bj = f2s_grid_bytes(size[j], rank[j], bounds + 2 * maxrank * j);
      if (!bi || !bj || p[i] >= p[j] + bj || p[j] >= p[i] + bi)
        continue;
      if (p[i] == p[j] && shape[i] == shape[j] &&
          memcmp(bounds + 2 * maxrank * i, bounds + 2 * maxrank * j,
                 sizeof(long) * 2 * (size_t)rank[i]) == 0)
        continue;
      fprintf(stderr,
              "f2stencil: kernel '%s': arguments '%s' and '%s' overlap in memory and %s written, "
              "but they are not the same array with the same bounds; call the original loops "
              "for this call\n",
              kernel, names[j], names[i], f2s_written_text(written, i, j, names, w, sizeof w));
      exit(EXIT_FAILURE);
    }
  /* Groups: one array with the same bounds, holding a written argument. */
  int aliased = 0;
  for (int i = 0; i < n; ++i) {
    label[i] = i;
    if (!f2s_grid_bytes(size[i], rank[i], bounds + 2 * maxrank * i))
      continue;
    for (int j = 0; j < i; ++j)
      if (p[i] == p[j] && shape[i] == shape[j] &&
          memcmp(bounds + 2 * maxrank * i, bounds + 2 * maxrank * j,
                 sizeof(long) * 2 * (size_t)rank[i]) == 0) {
        label[i] = label[j];
        break;
      }
  }
  for (int i = 0; i < n; ++i) {
    int any = 0;
    for (int j = i; j < n; ++j)
      any |= label[j] == i && written[j];
    for (int j = i + 1; j < n; ++j)
      if (label[j] == i && !any)
        label[j] = j;
  }
  for (int i = 0; i < n; ++i)
    aliased |= label[i] != i;
  if (!aliased)
    return 0;
  for (int s = 0; s < nsafe; ++s)
    if (memcmp(safe + (size_t)s * (size_t)n, label, sizeof(int) * (size_t)n) == 0)
      return 1 + s;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i; ++j) {
      if (label[i] != label[j] || (!written[i] && !written[j]))
        continue;
      fprintf(stderr,
              "f2stencil: kernel '%s': arguments '%s' and '%s' are the same array and %s "
              "written; the loop nest is not correct with them aliased, so call the original "
              "loops for this call\n",
              kernel, names[j], names[i], f2s_written_text(written, i, j, names, w, sizeof w));
      exit(EXIT_FAILURE);
    }
  return 0; /* not reached: an aliased group holds a written argument */
}
)";

} // namespace

/// The identity of a reduction's operator in C: where a partial starts.
std::string reduction_identity(const Reduction &r) {
  bool real = is_float(r.type);
  switch (r.op) {
  case ReduceOp::Sum:
    return "0";
  case ReduceOp::Max:
    return real ? "-INFINITY" : "INT32_MIN";
  case ReduceOp::Min:
    return real ? "INFINITY" : "INT32_MAX";
  }
  return "0";
}

/// `acc = acc (op) part;` in C, for combining partials: the same operation
/// the updates apply (MAX and MIN are exact, so only the sum's order matters).
std::string reduction_combine(const Reduction &r, const std::string &acc, const std::string &part) {
  switch (r.op) {
  case ReduceOp::Sum:
    return acc + " = " + acc + " + " + part + ";";
  case ReduceOp::Max:
    return acc + " = " + part + " > " + acc + " ? " + part + " : " + acc + ";";
  case ReduceOp::Min:
    return acc + " = " + part + " < " + acc + " ? " + part + " : " + acc + ";";
  }
  return "";
}

bool c_code_streams_rows(const std::string &code) {
  return code.find(kStreamFenceCall) != std::string::npos;
}

std::string print_c_prelude(bool stream_rows) {
  std::ostringstream out;
  // _GNU_SOURCE before the first header: the runtime pins threads with
  // glibc's CPU sets.
  out << "/* Generated by f2stencil: do not edit. */\n"
         "#ifndef _GNU_SOURCE\n#define _GNU_SOURCE\n#endif\n"
         "#include <math.h>\n#include <stdint.h>\n#include <stdlib.h>\n\n";
  out << runtime_c_text() << "\n";
  for (const char *t : {"long", "float", "double"}) {
    out << "static inline " << t << " f2s_min_" << t << "(" << t << " x, " << t
        << " y) { return y < x ? y : x; }\n";
    out << "static inline " << t << " f2s_max_" << t << "(" << t << " x, " << t
        << " y) { return y > x ? y : x; }\n";
  }
  if (stream_rows)
    out << stream_helpers;
  out << aliasing_helper;
  out << "static inline long f2s_ipow(long b, long e) {\n"
         "  long r = 1;\n"
         "  if (e < 0) /* Fortran: integer division 1/b**|e| */\n"
         "    return b == 1 ? 1 : b == -1 ? (e % 2 ? -1 : 1) : 0;\n"
         "  for (; e > 0; e >>= 1, b *= b)\n"
         "    if (e & 1)\n"
         "      r *= b;\n"
         "  return r;\n"
         "}\n\n";
  return out.str();
}

std::string print_c_args_struct(const Kernel &k) {
  std::ostringstream out;
  out << "/* The arguments of kernel '" << k.name
      << "', in the order of its Fortran interface. */\n";
  out << "struct f2s_" << k.name << "_args {\n";
  for (const Variable &v : k.args) {
    if (v.is_grid())
      out << "  " << grid_pointer_type(k, v) << c_name(v.name) << ";\n";
    else if (k.find_reduction(v.name))
      out << "  " << c_type(v.type) << " *" << c_name(v.name) << "; /* reduced: in and out */\n";
    else
      out << "  " << c_type(v.type) << " " << c_name(v.name) << ";\n";
  }
  out << "};\n\n";
  return out.str();
}

std::string print_c_expr(const Kernel &k, const Expr &e) {
  return CExprPrinter(k).print(e);
}

std::string c_variant_name(const Kernel &k, const std::string &variant) {
  return "f2s_" + k.name + "_" + variant;
}

std::string print_c_variant(const Kernel &k, const std::string &variant, bool restrict_grids) {
  std::ostringstream out;
  std::string fn = c_variant_name(k, variant);
  std::string args = "const struct f2s_" + k.name + "_args *a";
  out << "/* Kernel '" << k.name << "', variant '" << variant << "':\n";
  std::string ir = print_kernel(k);
  for (size_t pos = 0; pos < ir.size();) {
    size_t nl = ir.find('\n', pos);
    out << " *   " << ir.substr(pos, nl - pos) << "\n";
    pos = nl == std::string::npos ? ir.size() : nl + 1;
  }
  out << " */\n";

  const bool parallel = has_parallel_loop(k.body);
  std::ostringstream body;
  print_prologue(k, body, parallel, restrict_grids);
  CStmtPrinter(k, body).print(k.body, 1);
  body << c_row_buffers_end(k);
  for (const Reduction &r : k.reductions) {
    std::string n = c_name(r.var);
    body << (parallel ? "  f2s_shared->" + n + "_part[f2s_tid] = " + n + ";\n"
                      : "  *a->" + n + " = " + n + ";\n");
  }

  if (!parallel) {
    out << "static void " << fn << "(" << args << ", const long *tune, int nthreads) {\n"
        << "  (void)tune;\n  (void)nthreads;\n"
        << body.str() << "}\n\n";
    return out.str();
  }
  out << "struct " << fn << "_shared {\n  " << args << ";\n  const long *tune;\n";
  for (const Reduction &r : k.reductions)
    out << "  " << c_type(r.type) << " *" << c_name(r.var) << "_part; /* one per thread */\n";
  out << "};\n\n";
  out << "static void " << fn << "_task(int f2s_tid, int f2s_nthreads, void *f2s_arg) {\n"
      << "  const struct " << fn << "_shared *f2s_shared = f2s_arg;\n"
      << "  " << args << " = f2s_shared->a;\n"
      << "  const long *tune = f2s_shared->tune;\n"
      << "  (void)tune;\n"
      << body.str() << "}\n\n";
  out << "static void " << fn << "(" << args << ", const long *tune, int nthreads) {\n";
  if (!k.reductions.empty()) {
    // Thread t's share of the nest is fixed by t and the thread count, and
    // the partials are combined in thread order after the join, so one thread
    // count gives the same result on every run; another thread count adds
    // the same terms in another order (equal to rounding). A pool that runs
    // the job on fewer threads (nested, or nthreads <= 1) leaves the other
    // partials at the identity.
    out << "  /* Reductions: one partial per thread, combined in thread order after the join. "
           "*/\n"
        << "  const int f2s_nparts = nthreads <= 1 ? 1 : nthreads > F2S_MAX_THREADS ? "
           "F2S_MAX_THREADS : nthreads;\n";
    for (const Reduction &r : k.reductions) {
      std::string n = c_name(r.var);
      out << "  " << c_type(r.type) << " *f2s_" << n << "_part = malloc(sizeof(" << c_type(r.type)
          << ") * (size_t)f2s_nparts);\n"
          << "  if (!f2s_" << n << "_part)\n    abort(); /* a few bytes per thread */\n"
          << "  for (int f2s_t = 0; f2s_t < f2s_nparts; ++f2s_t)\n"
          << "    f2s_" << n << "_part[f2s_t] = " << reduction_identity(r) << ";\n";
    }
  }
  out << "  struct " << fn << "_shared f2s_shared = {a, tune";
  for (const Reduction &r : k.reductions)
    out << ", f2s_" << c_name(r.var) << "_part";
  out << "};\n"
      << "  f2s_parallel_run(nthreads, " << fn << "_task, &f2s_shared);\n";
  for (const Reduction &r : k.reductions) {
    std::string n = c_name(r.var), acc = "f2s_" + n;
    out << "  " << c_type(r.type) << " " << acc << " = *a->" << n << ";\n"
        << "  for (int f2s_t = 0; f2s_t < f2s_nparts; ++f2s_t)\n"
        << "    " << reduction_combine(r, acc, "f2s_" + n + "_part[f2s_t]") << "\n"
        << "  *a->" << n << " = " << acc << ";\n"
        << "  free(f2s_" << n << "_part);\n";
  }
  out << "}\n\n";
  return out.str();
}

std::string print_c_entry_prototype(const Kernel &k, const std::string &symbol) {
  std::string s = "void " + symbol + "(";
  for (size_t i = 0; i < k.args.size(); ++i) {
    const Variable &v = k.args[i];
    s += i ? ", " : "";
    s += v.is_grid()                ? grid_pointer_type(k, v) + c_name(v.name)
         : k.find_reduction(v.name) ? std::string(c_type(v.type)) + " *" + c_name(v.name)
                                    : std::string(c_type(v.type)) + " " + c_name(v.name);
  }
  return s + ")";
}

namespace {

/// Whether `e` reads only scalar arguments of `k`: a loop bound of the
/// kernel as the user wrote it, not of a transformed nest (a block loop's
/// `min(i_blk + cx - 1, nx)`, whose names exist only inside the variant).
bool reads_only_scalar_args(const Kernel &k, const Expr &e) {
  struct Check : IRVisitor {
    const Kernel &k;
    bool ok = true;
    explicit Check(const Kernel &kernel) : k(kernel) {}
    void visit_var(const Var *v) override {
      const Variable *a = k.find_arg(v->name);
      ok = ok && a && !a->is_grid();
    }
    void visit_grid_ref(const GridRef *) override { ok = false; }
  } check(k);
  check.visit(e);
  return check.ok;
}

} // namespace

std::string print_c_scalar_locals(const Kernel &k, const std::string &from,
                                  const std::string &pad) {
  std::string out;
  for (const Variable &v : k.args)
    if (!v.is_grid() && !k.find_reduction(v.name))
      out += pad + "const " + c_type(v.type) + " " + c_name(v.name) + " = " + from +
             c_name(v.name) + ";\n" + pad + "(void)" + c_name(v.name) + ";\n";
  return out;
}

std::string print_c_call_size(const Kernel &k, const std::string &from, const std::string &pad) {
  std::string out = pad + "struct f2s_call_size f2s_size = {0, {0}, 0};\n";
  std::vector<const For *> loops = perfect_nest(k.body);
  for (const For *f : loops)
    if (!reads_only_scalar_args(k, f->lo) || !reads_only_scalar_args(k, f->hi) ||
        !reads_only_scalar_args(k, f->step))
      loops.clear();
  if (loops.empty() || loops.size() > 4) // F2S_PROF_RANK
    return out + pad + "(void)f2s_size;\n";
  KernelFacts facts = analyze(k);
  std::string in = pad + "  ";
  std::ostringstream o;
  o << out << pad << "if (f2s_env()->profile) { /* the size of this call, for F2S_PROFILE */\n";
  if (!from.empty())
    o << print_c_scalar_locals(k, from, in);
  o << in << "f2s_size.rank = " << loops.size() << ";\n";
  for (size_t d = 0; d < loops.size(); ++d) {
    const For *f = loops[loops.size() - 1 - d];
    o << in << "f2s_size.trips[" << d << "] = f2s_trips_of((long)(" << print_c_expr(k, f->lo)
      << "), (long)(" << print_c_expr(k, f->hi) << "), (long)(" << print_c_expr(k, f->step)
      << "));\n";
  }
  o << in << "f2s_size.bytes_per_point = " << facts.read_bytes + facts.write_bytes << ".0;\n"
    << pad << "}\n";
  return o.str();
}

std::pair<std::string, std::string> c_variant_label(const std::string &variant) {
  size_t cut = variant.find('_');
  if (cut == std::string::npos) // the CPU's own nest ("parallel")
    return {"cpu", "cpu/" + variant};
  return {variant.substr(0, cut), variant.substr(0, cut) + "/" + variant.substr(cut + 1)};
}

std::string print_c_entry_head(const Kernel &k, const std::string &symbol, EntryForm form) {
  std::string args = "struct f2s_" + k.name + "_args";
  if (form == EntryForm::CpuPath)
    return "static void " + symbol + "(const " + args + " *f2s_call) {\n  const " + args +
           " a = *f2s_call;\n";
  std::string s = print_c_entry_prototype(k, symbol) + " {\n  const " + args + " a = {";
  for (size_t i = 0; i < k.args.size(); ++i)
    s += (i ? ", " : "") + c_name(k.args[i].name);
  return s + "};\n";
}

std::string print_c_call(const Kernel &k, const std::string &variant, const std::string &tune,
                         int threads, AliasedCalls aliased, const std::string &pad) {
  auto [target, label] = c_variant_label(variant);
  std::string in = pad + "  ";
  std::ostringstream out;
  // Said once per call site and target under F2S_VERBOSE (runtime/f2s_calls.c).
  auto run = [&](const std::string &v, const std::string &what) {
    out << in << "static int f2s_said = 0;\n"
        << in << "const int f2s_threads = f2s_num_threads(" << threads << ");\n"
        << in << c_variant_name(k, v) << "(&a, " << tune << ", f2s_threads);\n"
        << in << "f2s_call_end(&f2s_said, \"" << k.name << "\", \"" << target << "\", \"" << what
        << "\", f2s_threads, f2s_t0);\n"
        << print_c_call_size(k, "a.", in) << in << "f2s_prof_size(\"" << k.name << "\", \""
        << target << "\", &f2s_size);\n"
        << in << "return;\n";
  };
  if (aliased == AliasedCalls::RunAliasedVariant) {
    out << pad << "if (" << c_aliasing_check_name(k) << "(&a)) {\n"
        << in << "/* Arrays passed as one: the nest without restrict. */\n";
    run("aliased", target + "/aliased");
    out << pad << "}\n";
  } else if (aliased == AliasedCalls::Stop) {
    out << pad << "(void)" << c_aliasing_check_name(k) << "(&a); /* stops on aliased arrays */\n";
  }
  out << pad << "{\n";
  run(variant, label);
  out << pad << "}\n";
  return out.str();
}

std::string print_c_entry(const Kernel &k, const std::string &symbol, const std::string &variant,
                          const std::vector<long> &tune, int threads, const std::string &comment,
                          AliasedCalls aliased, EntryForm form) {
  std::ostringstream out;
  out << "/* " << comment << " */\n" << print_c_entry_head(k, symbol, form);
  if (tune.empty()) {
    out << "  static const long tune[1] = {0}; /* no tuning parameters */\n";
  } else {
    out << "  static const long tune[" << tune.size() << "] = {";
    for (size_t i = 0; i < tune.size(); ++i)
      out << (i ? ", " : "") << tune[i];
    out << "};\n";
  }
  out << "  const double f2s_t0 = f2s_call_begin();\n"
      << print_c_call(k, variant, "tune", threads, aliased, "  ") << "}\n\n";
  return out.str();
}

std::string print_c_grid_layout(const Kernel &k, const Variable &v, const std::string &pad) {
  CExprPrinter exprs(k);
  std::string n = "f2s_" + c_name(v.name), out;
  for (int d = 0; d < v.rank(); ++d)
    out += pad + "const long " + n + "_lo" + std::to_string(d) + " = " + exprs.print(v.dims[d].lo) +
           ";\n";
  for (int d = 1; d < v.rank(); ++d) {
    std::string extent = "((long)(" + exprs.print(v.dims[d - 1].hi) + ") - " + n + "_lo" +
                         std::to_string(d - 1) + " + 1)";
    out += pad + "const long " + n + "_s" + std::to_string(d) + " = " +
           (d == 1 ? extent : n + "_s" + std::to_string(d - 1) + " * " + extent) + ";\n";
  }
  return out;
}

std::string print_c_prologue(const Kernel &k, bool parallel, bool restrict_grids) {
  std::ostringstream out;
  print_prologue(k, out, parallel, restrict_grids);
  return out.str();
}

std::string c_aliasing_check_name(const Kernel &k) {
  return "f2s_" + k.name + "_aliasing";
}

bool needs_aliasing_check(const Aliasing &a) {
  return a.grids.size() >= 2 &&
         std::any_of(a.written.begin(), a.written.end(), [](bool w) { return w; });
}

std::string print_c_aliasing_check(const Kernel &k, const Aliasing &al) {
  CExprPrinter exprs(k);
  std::ostringstream out;
  const size_t n = al.grids.size();
  int maxrank = 1;
  for (const Variable &v : k.args)
    maxrank = std::max(maxrank, v.rank());
  auto ints = [&](auto &&value) {
    std::string s;
    for (size_t i = 0; i < n; ++i)
      s += (i ? ", " : "") + std::to_string(value(i));
    return s;
  };
  out << "/* Kernel '" << k.name << "': whether a call passes arrays that share memory, one of "
      << "them written (f2s_check_aliasing); " << al.safe.size()
      << " aliasing(s) keep the nest free of dependences. */\n";
  out << "static int " << c_aliasing_check_name(k) << "(const struct f2s_" << k.name
      << "_args *a) {\n";
  for (const Variable &v : k.args)
    if (!v.is_grid() && !k.find_reduction(v.name))
      out << "  const " << c_type(v.type) << " " << c_name(v.name) << " = a->" << c_name(v.name)
          << ";\n  (void)" << c_name(v.name) << ";\n";
  std::string names, pointers, bounds, sizes, ranks;
  for (const Variable &v : k.args) {
    if (!v.is_grid())
      continue;
    std::string sep = names.empty() ? "" : ", ";
    names += sep + "\"" + v.name + "\"";
    pointers += sep + "(uintptr_t)a->" + c_name(v.name);
    sizes += sep + "sizeof(" + c_type(v.type) + ")";
    ranks += sep + std::to_string(v.rank());
    bounds += sep + "{";
    for (int d = 0; d < v.rank(); ++d)
      bounds += (d ? ", (long)(" : "(long)(") + exprs.print(v.dims[d].lo) + "), (long)(" +
                exprs.print(v.dims[d].hi) + ")";
    bounds += "}";
  }
  out << "  static const char *const names[" << n << "] = {" << names << "};\n"
      << "  static const int written[" << n << "] = {"
      << ints([&](size_t i) { return al.written[i] ? 1 : 0; }) << "};\n"
      << "  static const int shape[" << n << "] = {"
      << ints([&](size_t i) { return al.shape_class[i]; }) << "}; /* element type and rank */\n"
      << "  static const int rank[" << n << "] = {" << ranks << "};\n"
      << "  const uintptr_t p[" << n << "] = {" << pointers << "};\n"
      << "  const long bounds[" << n << "][" << 2 * maxrank << "] = {" << bounds << "};\n"
      << "  static const size_t size[" << n << "] = {" << sizes << "};\n";
  out << "  static const int safe[" << std::max<size_t>(al.safe.size(), 1) << "][" << n << "] = {";
  for (size_t s = 0; s < al.safe.size(); ++s)
    out << (s ? ", " : "") << "{" << ints([&](size_t i) { return al.safe[s][i]; }) << "}";
  if (al.safe.empty())
    out << "{0}"; // not read: nsafe is 0
  out << "};\n  int label[" << n << "];\n";
  out << "  return f2s_check_aliasing(\"" << k.name << "\", " << n << ", " << maxrank
      << ", names, written, shape, rank, p, &bounds[0][0], size, " << al.safe.size()
      << ", &safe[0][0], label);\n}\n\n";
  return out.str();
}

} // namespace f2s
