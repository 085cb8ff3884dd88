#include "codegen/CTimeTile.h"

#include "ast/IRVisitor.h"
#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"
#include "codegen/CStmt.h"
#include "codegen/CTimeLoop.h"
#include "codegen/CTimeStream.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

const Kernel &find_sweep(const std::vector<const Kernel *> &sweeps, const std::string &name) {
  for (const Kernel *k : sweeps)
    if (k->name == name)
      return *k;
  throw std::logic_error("time tiling: no sweep '" + name + "'");
}

size_t state_index(const TimeTilePlan &p, const std::string &grid) {
  for (size_t g = 0; g < p.state.size(); ++g)
    if (p.state[g] == grid)
      return g;
  throw std::logic_error("time tiling: '" + grid + "' is not a state grid");
}

std::string longs(const std::vector<int64_t> &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

/// `(void)` of grid `g`'s layout variables (print_c_grid_layout), which a
/// tile's code may not read, at indentation `pad`.
std::string layout_voids(const Variable &g, const std::string &pad) {
  std::string n = "f2s_" + c_name(g.name), out;
  for (int d = 0; d < g.rank(); ++d)
    out += pad + "(void)" + n + "_lo" + std::to_string(d) + ";\n";
  for (int d = 1; d < g.rank(); ++d)
    out += pad + "(void)" + n + "_s" + std::to_string(d) + ";\n";
  return out;
}

/// The same for every grid of the prologue (print_c_prologue).
std::string unused_layouts(const Kernel &k) {
  std::string out;
  for (const Variable &v : k.args)
    out += layout_voids(v, "  ");
  return out;
}

bool is_state(const TimeTilePlan &p, const std::string &grid) {
  return std::find(p.state.begin(), p.state.end(), grid) != p.state.end();
}

class ReadsVar : public IRVisitor {
public:
  explicit ReadsVar(std::string v) : var(std::move(v)) {}
  std::string var;
  bool found = false;

protected:
  void visit_var(const Var *v) override { found = found || v->name == var; }
};

/// Whether grid `g`'s declared bounds read scalar `var`.
bool reads_var(const Variable &g, const std::string &var) {
  ReadsVar r(var);
  for (const Dim &d : g.dims) {
    r.visit(d.lo);
    r.visit(d.hi);
  }
  return r.found;
}

} // namespace

const char *c_time_tile_form_name(CTimeTileForm f) {
  return f == CTimeTileForm::Streaming ? "streaming" : "overlapped";
}

CTimeTileForm c_time_tile_form(const std::string &name, const TimeTilePlan &plan) {
  return name == "streaming" && plan.rank >= 2 ? CTimeTileForm::Streaming
                                               : CTimeTileForm::Overlapped;
}

std::string print_c_tile_step_scalars(const TimeLoop &t, const TimeTilePlan &p, const Kernel &sweep,
                                      const std::string &step, const std::string &pad) {
  const Kernel &k = t.signature;
  const Variable *time_var = k.find_arg(t.var);
  if (!time_var)
    return "";
  std::string out = pad + "const " + c_type(time_var->type) + " " + c_name(t.var) + " = (" +
                    c_type(time_var->type) + ")(f2s_x->t0 + (long)" + step + " * f2s_x->step);\n" +
                    pad + "(void)" + c_name(t.var) + ";\n";
  // A grid whose bounds hold the time variable (a subscript offset the
  // front end moved there, `fict(t)`): its layout at this step.
  for (const Variable &g : sweep.args)
    if (g.is_grid() && !is_state(p, g.name) && reads_var(g, t.var))
      out += print_c_grid_layout(k, g, pad) + layout_voids(g, pad);
  return out;
}

std::string print_c_tile_unused(const Kernel &k) {
  std::string out;
  for (const Variable &v : k.args)
    out += "  (void)" + c_name(v.name) + ";\n";
  return out + unused_layouts(k);
}

std::string print_c_tile_box_helpers() {
  return R"(#ifndef F2S_TILE_BOX_HELPERS
#define F2S_TILE_BOX_HELPERS
#ifdef __CUDACC__
#define F2S_HD __host__ __device__
#else
#define F2S_HD
#endif
/* A file uses some of these helpers: nvcc warns of the others (#177). */
#define F2S_MAYBE_UNUSED __attribute__((unused))
/* Boxes of r dimensions, [lo0, hi0, lo1, hi1, ...] inclusive; empty when
   some lo > hi. The time tiles' regions (ast/TimeTiling.h). */
static F2S_HD inline F2S_MAYBE_UNUSED int f2s_box_empty(const long *b, int r) {
  for (int d = 0; d < r; ++d)
    if (b[2 * d] > b[2 * d + 1])
      return 1;
  return 0;
}
static F2S_HD inline F2S_MAYBE_UNUSED void f2s_box_set_empty(long *b, int r) {
  for (int d = 0; d < r; ++d) {
    b[2 * d] = 1;
    b[2 * d + 1] = 0;
  }
}
/* a = the hull of a and b. */
static F2S_HD inline F2S_MAYBE_UNUSED void f2s_box_hull(long *a, const long *b, int r) {
  if (f2s_box_empty(b, r))
    return;
  int e = f2s_box_empty(a, r);
  for (int d = 0; d < r; ++d) {
    a[2 * d] = e || b[2 * d] < a[2 * d] ? b[2 * d] : a[2 * d];
    a[2 * d + 1] = e || b[2 * d + 1] > a[2 * d + 1] ? b[2 * d + 1] : a[2 * d + 1];
  }
}
/* a = a meet b. */
static F2S_HD inline F2S_MAYBE_UNUSED void f2s_box_meet(long *a, const long *b, int r) {
  for (int d = 0; d < r; ++d) {
    if (b[2 * d] > a[2 * d])
      a[2 * d] = b[2 * d];
    if (b[2 * d + 1] < a[2 * d + 1])
      a[2 * d + 1] = b[2 * d + 1];
  }
}
/* a = the hull of a and (b widened by offsets lo..hi) meet c. */
static F2S_HD inline F2S_MAYBE_UNUSED void f2s_box_hull_reads(long *a, const long *b, const long *lo,
                                             const long *hi, const long *c, int r) {
  long w[32];
  for (int d = 0; d < r; ++d) {
    w[2 * d] = b[2 * d] + lo[d];
    w[2 * d + 1] = b[2 * d + 1] + hi[d];
  }
  f2s_box_meet(w, c, r);
  f2s_box_hull(a, w, r);
}
/* The points of a box. */
static F2S_HD inline F2S_MAYBE_UNUSED long f2s_box_points(const long *b, int r) {
  long n = 1;
  for (int d = 0; d < r; ++d)
    n *= b[2 * d + 1] >= b[2 * d] ? b[2 * d + 1] - b[2 * d] + 1 : 0;
  return n;
}
/* Copies the elements in `box` from src, laid out column-major over src_box,
   to dst, laid out over dst_box (both boxes hold `box`); size: an element's bytes. */
static inline F2S_MAYBE_UNUSED void f2s_box_copy(void *dst, const long *dst_box, const void *src,
                                const long *src_box, const long *box, int r, size_t size) {
  long at[16];
  for (int d = 0; d < r; ++d)
    at[d] = box[2 * d];
  const size_t row = (size_t)(box[1] - box[0] + 1) * size;
  for (;;) {
    long di = 0, si = 0, ds = 1, ss = 1;
    for (int d = 0; d < r; ++d) {
      di += (at[d] - dst_box[2 * d]) * ds;
      si += (at[d] - src_box[2 * d]) * ss;
      ds *= dst_box[2 * d + 1] - dst_box[2 * d] + 1;
      ss *= src_box[2 * d + 1] - src_box[2 * d] + 1;
    }
    memcpy((char *)dst + (size_t)di * size, (const char *)src + (size_t)si * size, row);
    int d = 1;
    for (; d < r; ++d) {
      if (++at[d] <= box[2 * d + 1])
        break;
      at[d] = box[2 * d];
    }
    if (d >= r)
      return;
  }
}
#endif
)";
}

std::string c_tile_regions_name(const TimeLoop &t) {
  return "f2s_" + t.signature.name + "_regions";
}

std::string print_c_tile_loop_head(const TimeLoop &t, int rank) {
  std::ostringstream out;
  out << "  for (long f2s_t = f2s_tid; f2s_t < f2s_x->total; f2s_t += f2s_nthreads) {\n"
      << "    long f2s_out[" << 2 * rank << "], f2s_rest = f2s_t;\n"
      << "    for (int d = 0; d < " << rank << "; ++d) {\n"
      << "      long n = f2s_rest % f2s_x->ntiles[d];\n"
      << "      f2s_rest /= f2s_x->ntiles[d];\n"
      << "      f2s_out[2 * d] = f2s_x->space[2 * d] + n * f2s_x->tile[d];\n"
      << "      f2s_out[2 * d + 1] = f2s_out[2 * d] + f2s_x->tile[d] - 1 < f2s_x->space[2 * d + "
         "1]\n"
      << "                               ? f2s_out[2 * d] + f2s_x->tile[d] - 1\n"
      << "                               : f2s_x->space[2 * d + 1];\n"
      << "    }\n"
      << "    " << c_tile_regions_name(t)
      << "(f2s_out, f2s_nsteps, f2s_x->dom, f2s_x->ext, f2s_comp, f2s_need);\n";
  return out.str();
}

Stmt c_tile_stage_nest(const Kernel &sweep, const TileStage &s, int skip) {
  std::vector<const For *> loops = perfect_nest(sweep.body);
  Stmt body = loops.back()->body;
  for (size_t l = loops.size(); l-- > 0;) {
    const For *f = loops[l];
    size_t d = 0;
    while (d < s.vars.size() && s.vars[d] != f->var)
      ++d;
    if (static_cast<int>(d) == skip)
      continue;
    body = For::make(f->var, Var::make("f2s_tlo" + std::to_string(d), Type::Int32),
                     Var::make("f2s_thi" + std::to_string(d), Type::Int32), IntImm::make(1),
                     LoopExec::Serial, body, f->loc);
  }
  return body;
}

std::string print_c_tile_regions(const TimeLoop &t, const TimeTilePlan &p) {
  const int R = p.rank;
  const size_t S = p.stages.size(), G = p.state.size();
  std::string r2 = std::to_string(2 * R), rs = std::to_string(R);
  std::ostringstream out;
  out << "/* Time loop '" << t.signature.name
      << "', one tile of a chunk of nsteps steps: backwards over the stages, the box\n"
         "   each computes (comp) and the box of each state grid the tile holds (need). */\n"
      << "static F2S_HD void " << c_tile_regions_name(t)
      << "(const long *out, int nsteps, const long *dom, const long *ext, long *comp,\n"
         "                            long *need) {\n"
      << "  for (int g = 0; g < " << G << "; ++g) {\n"
      << "    for (int d = 0; d < " << r2 << "; ++d)\n"
      << "      need[g * " << r2 << " + d] = out[d];\n"
      << "    f2s_box_meet(need + g * " << r2 << ", ext + g * " << r2 << ", " << rs << ");\n"
      << "  }\n"
      << "  for (int q = nsteps * " << S << " - 1; q >= 0; --q) {\n"
      << "    long *c = comp + (long)q * " << r2 << ";\n"
      << "    f2s_box_set_empty(c, " << rs << ");\n"
      << "    switch (q % " << S << ") {\n";
  for (size_t s = 0; s < S; ++s) {
    const TileStage &st = p.stages[s];
    out << "    case " << s << ": /* " << st.sweep << " */\n";
    for (const std::string &w : st.writes)
      out << "      f2s_box_hull(c, need + " << state_index(p, w) * 2 * R << ", " << rs << ");\n";
    out << "      f2s_box_meet(c, dom + " << s * 2 * R << ", " << rs << ");\n"
        << "      if (!f2s_box_empty(c, " << rs << ")) {\n";
    for (const std::string &w : st.writes)
      out << "        f2s_box_hull(need + " << state_index(p, w) * 2 * R << ", c, " << rs << ");\n";
    for (const TileRead &rd : st.reads) {
      size_t b = state_index(p, rd.grid);
      out << "        {\n"
          << "          const long lo[" << R << "] = {" << longs(rd.lo) << "}, hi[" << R << "] = {"
          << longs(rd.hi) << "}; /* " << rd.grid << " */\n"
          << "          f2s_box_hull_reads(need + " << b * 2 * R << ", c, lo, hi, ext + "
          << b * 2 * R << ", " << rs << ");\n"
          << "        }\n";
    }
    out << "      }\n      break;\n";
  }
  out << "    }\n  }\n}\n\n";
  return out.str();
}

std::string print_c_tile_domains(const TimeLoop &t, const TimeTilePlan &p) {
  CExprPrinter exprs(t.signature);
  std::ostringstream out;
  out << "  const long f2s_dom[" << p.stages.size() * 2 * p.rank << "] = {";
  for (size_t s = 0; s < p.stages.size(); ++s)
    for (int d = 0; d < p.rank; ++d)
      out << (s || d ? ", " : "") << "(long)(" << exprs.print(p.stages[s].lo[d]) << "), (long)("
          << exprs.print(p.stages[s].hi[d]) << ")";
  out << "};\n";
  out << "  const long f2s_ext[" << p.state.size() * 2 * p.rank << "] = {";
  for (size_t g = 0; g < p.state.size(); ++g) {
    const Variable *v = t.signature.find_arg(p.state[g]);
    for (int d = 0; d < p.rank; ++d)
      out << (g || d ? ", " : "") << "(long)(" << exprs.print(v->dims[d].lo) << "), (long)("
          << exprs.print(v->dims[d].hi) << ")";
  }
  out << "};\n";
  return out.str();
}

namespace {

/// One thread's tiles of the overlapped form: `static void <fn>_tiles(int
/// f2s_tid, int f2s_nthreads, void *f2s_arg)`, each tile in buffers of its
/// own.
std::string print_c_tiles(const TimeLoop &t, const TimeTilePlan &p,
                          const std::vector<const Kernel *> &sweeps, const std::string &fn,
                          const std::string &ctx) {
  const Kernel &k = t.signature;
  const int R = p.rank;
  const size_t S = p.stages.size(), G = p.state.size();
  const std::string r2 = std::to_string(2 * R), rs = std::to_string(R);
  std::ostringstream out;
  out << "static void " << fn << "_tiles(int f2s_tid, int f2s_nthreads, void *f2s_arg) {\n"
      << "  const struct " << ctx << " *f2s_x = (const struct " << ctx << " *)f2s_arg;\n"
      << "  const struct f2s_" << k.name << "_args *a = f2s_x->a;\n"
      << print_c_prologue(k, false, true) << "  const int f2s_nsteps = f2s_x->nsteps;\n"
      << "  long *f2s_comp = (long *)malloc(sizeof(long) * (size_t)f2s_nsteps * " << S * 2 * R
      << ");\n"
      << "  long f2s_need[" << G * 2 * R << "];\n"
      << "  void *f2s_buf[" << G << "] = {0};\n"
      << "  long f2s_cap[" << G << "] = {0};\n"
      << "  static const size_t f2s_size[" << G << "] = {";
  for (size_t g = 0; g < G; ++g)
    out << (g ? ", " : "") << "sizeof(" << c_type(k.find_arg(p.state[g])->type) << ")";
  out << "};\n"
      << "  if (!f2s_comp)\n    abort();\n"
      << print_c_tile_loop_head(t, R)
      << "    /* Each state grid's box, from the current version. */\n"
      << "    for (int g = 0; g < " << G << "; ++g) {\n"
      << "      long n = f2s_box_points(f2s_need + g * " << r2 << ", " << rs << ");\n"
      << "      if (n > f2s_cap[g]) {\n"
      << "        free(f2s_buf[g]);\n"
      << "        f2s_buf[g] = malloc((size_t)n * f2s_size[g]);\n"
      << "        if (!f2s_buf[g])\n          abort();\n"
      << "        f2s_cap[g] = n;\n"
      << "      }\n"
      << "      if (n)\n"
      << "        f2s_box_copy(f2s_buf[g], f2s_need + g * " << r2
      << ", f2s_x->src[g], f2s_x->ext + g * " << r2 << ", f2s_need + g * " << r2 << ", " << rs
      << ", f2s_size[g]);\n"
      << "    }\n"
      << "    for (int f2s_k = 0; f2s_k < f2s_nsteps; ++f2s_k) {\n";

  // The stages, each over its box, with the state grids in the tile's buffers.
  for (size_t s = 0; s < S; ++s) {
    const TileStage &st = p.stages[s];
    const Kernel &sweep = find_sweep(sweeps, st.sweep);
    std::ostringstream body;
    body << "{ /* " << st.sweep << " */\n"
         << "  const long *f2s_c = f2s_comp + (long)(f2s_k * " << S << " + " << s << ") * " << r2
         << ";\n"
         << "  if (!f2s_box_empty(f2s_c, " << rs << ")) {\n";
    body << print_c_tile_step_scalars(t, p, sweep, "f2s_k", "    ");
    for (int d = 0; d < R; ++d)
      body << "    const long " << c_name("f2s_tlo" + std::to_string(d)) << " = f2s_c[" << 2 * d
           << "], " << c_name("f2s_thi" + std::to_string(d)) << " = f2s_c[" << 2 * d + 1 << "];\n";
    for (size_t g = 0; g < G; ++g) {
      const Variable *v = k.find_arg(p.state[g]);
      bool touched = std::find(st.writes.begin(), st.writes.end(), v->name) != st.writes.end() ||
                     std::any_of(st.reads.begin(), st.reads.end(),
                                 [&](const TileRead &r) { return r.grid == v->name; });
      if (!touched)
        continue;
      std::string n = c_name(v->name), lay = "f2s_" + n;
      body << "    " << c_type(v->type) << " *restrict " << n << " = (" << c_type(v->type)
           << " *)f2s_buf[" << g << "];\n";
      for (int d = 0; d < R; ++d)
        body << "    const long " << lay << "_lo" << d << " = f2s_need[" << g * 2 * R + 2 * d
             << "];\n";
      for (int d = 1; d < R; ++d) {
        std::string ext = "(f2s_need[" + std::to_string(g * 2 * R + 2 * (d - 1) + 1) +
                          "] - f2s_need[" + std::to_string(g * 2 * R + 2 * (d - 1)) + "] + 1)";
        body << "    const long " << lay << "_s" << d << " = "
             << (d == 1 ? ext : lay + "_s" + std::to_string(d - 1) + " * " + ext) << ";\n";
      }
    }
    for (const Variable &v : sweep.temps)
      body << "    " << c_type(v.type) << " " << c_name(v.name) << ";\n";
    std::ostringstream nest;
    CStmtPrinter(sweep, nest).print(c_tile_stage_nest(sweep, st), 2);
    body << nest.str() << "  }\n}\n";
    std::istringstream lines(body.str());
    for (std::string line; std::getline(lines, line);)
      out << (line.empty() ? "" : "      ") << line << "\n";
  }
  out << "    }\n"
      << "    /* The tile's own points of each state grid, to the other version. */\n"
      << "    for (int g = 0; g < " << G << "; ++g) {\n"
      << "      long f2s_o[" << 2 * R << "];\n"
      << "      for (int d = 0; d < " << 2 * R << "; ++d)\n"
      << "        f2s_o[d] = f2s_out[d];\n"
      << "      f2s_box_meet(f2s_o, f2s_x->ext + g * " << r2 << ", " << rs << ");\n"
      << "      if (!f2s_box_empty(f2s_o, " << rs << "))\n"
      << "        f2s_box_copy(f2s_x->dst[g], f2s_x->ext + g * " << r2
      << ", f2s_buf[g], f2s_need + g * " << r2 << ", f2s_o, " << rs << ", f2s_size[g]);\n"
      << "    }\n"
      << "  }\n"
      << "  for (int g = 0; g < " << G << "; ++g)\n    free(f2s_buf[g]);\n"
      << "  free(f2s_comp);\n";
  // The prologue's locals the tiles do not read.
  for (const Variable &v : k.args)
    out << "  (void)" << c_name(v.name) << ";\n";
  out << unused_layouts(k);
  out << "}\n\n";
  return out.str();
}

} // namespace

std::string print_c_time_tiled(const TimeLoop &t, const TimeTilePlan &p,
                               const std::vector<const Kernel *> &sweeps,
                               const std::string &variant, CTimeTileForm form, int stream_steps) {
  const Kernel &k = t.signature;
  const int R = p.rank;
  const size_t S = p.stages.size(), G = p.state.size();
  const std::string fn = c_variant_name(k, variant), ctx = fn + "_ctx";
  const std::string r2 = std::to_string(2 * R), rs = std::to_string(R);
  CExprPrinter exprs(k);
  std::ostringstream out;

  out << "/* Time loop '" << k.name << "' tiled in time: what every thread's tiles share. */\n"
      << "struct " << ctx << " {\n"
      << "  const struct f2s_" << k.name << "_args *a;\n"
      << "  void *src[" << G << "], *dst[" << G << "]; /* the state grids' versions */\n"
      << "  long dom[" << S * 2 * R << "], ext[" << G * 2 * R << "], space[" << 2 * R << "], tile["
      << R << "], ntiles[" << R << "], total;\n"
      << "  int nsteps, last; /* the chunk's steps; whether it is the call's last */\n"
      << "  long t0, step; /* the time variable at the chunk's first step, and its step */\n"
      << "};\n\n";

  const bool streaming = form == CTimeTileForm::Streaming;
  if (streaming)
    out << print_c_time_stream_helpers()
        << print_c_time_stream_tiles(t, p, sweeps, fn, ctx, stream_steps);
  else
    out << print_c_tiles(t, p, sweeps, fn, ctx);

  // The copy of the scratch version back to the caller's arrays.
  out << "struct " << fn << "_copy {\n  void *dst[" << G << "];\n  const void *src[" << G
      << "];\n  size_t bytes[" << G << "];\n};\n"
      << "static void " << fn << "_copy_back(int f2s_tid, int f2s_nthreads, void *f2s_arg) {\n"
      << "  const struct " << fn << "_copy *c = (const struct " << fn << "_copy *)f2s_arg;\n"
      << "  for (int g = 0; g < " << G << "; ++g) {\n"
      << "    size_t share = (c->bytes[g] + (size_t)f2s_nthreads - 1) / (size_t)f2s_nthreads;\n"
      << "    size_t from = share * (size_t)f2s_tid;\n"
      << "    if (from < c->bytes[g])\n"
      << "      memcpy((char *)c->dst[g] + from, (const char *)c->src[g] + from,\n"
      << "             c->bytes[g] - from < share ? c->bytes[g] - from : share);\n"
      << "  }\n}\n\n";

  // The variant: chunks of steps.
  out << "/* Time loop '" << k.name
      << "' in chunks of tune[0] steps, tiles of tune[1..] points. */\n"
      << "static void " << fn << "(const struct f2s_" << k.name
      << "_args *a, const long *tune, int nthreads) {\n"
      << print_c_prologue(k, false, true) << "  const int32_t f2s_lo = " << exprs.print(t.lo)
      << ", f2s_hi = " << exprs.print(t.hi) << ", f2s_step = " << exprs.print(t.step) << ";\n"
      << "  const long f2s_trips = ((long)f2s_hi - (long)f2s_lo + (long)f2s_step) / "
         "(long)f2s_step;\n"
      << print_c_tile_domains(t, p) << "  struct " << ctx << " f2s_x;\n"
      << "  f2s_x.a = a;\n"
      << "  memcpy(f2s_x.dom, f2s_dom, sizeof f2s_dom);\n"
      << "  memcpy(f2s_x.ext, f2s_ext, sizeof f2s_ext);\n"
      << "  /* The tile space: the hull of the state grids. */\n"
      << "  f2s_box_set_empty(f2s_x.space, " << rs << ");\n"
      << "  for (int g = 0; g < " << G << "; ++g)\n"
      << "    f2s_box_hull(f2s_x.space, f2s_ext + g * " << r2 << ", " << rs << ");\n"
      << "  f2s_x.total = f2s_box_empty(f2s_x.space, " << rs << ") ? 0 : 1;\n"
      << "  for (int d = 0; d < " << R << "; ++d) {\n"
      << (streaming
              ? "    /* An extent of 0: all of the dimension, but the one before the slowest:\n"
                "       even shares of it among the threads (a tile walks the slowest). */\n"
                "    const long f2s_all = f2s_x.space[2 * d + 1] - f2s_x.space[2 * d] + 1;\n"
                "    f2s_x.tile[d] = tune[1 + d] > 0 ? tune[1 + d]\n"
                "                    : d == " +
                    std::to_string(R - 2) +
                    " ? (f2s_all + (nthreads > 1 ? nthreads : 1) - 1) / (nthreads > 1 ? "
                    "nthreads : 1)\n"
                    "                    : f2s_all;\n"
                    "    if (f2s_x.tile[d] < 1)\n"
                    "      f2s_x.tile[d] = 1;\n"
              : std::string("    f2s_x.tile[d] = tune[1 + d] > 0 ? tune[1 + d] : 1;\n"))
      << "    f2s_x.ntiles[d] = (f2s_x.space[2 * d + 1] - f2s_x.space[2 * d] + f2s_x.tile[d]) / "
         "f2s_x.tile[d];\n"
      << "    f2s_x.total *= f2s_x.ntiles[d] > 0 ? f2s_x.ntiles[d] : 0;\n"
      << "  }\n"
      << (streaming ? "  /* At most the steps its pipeline holds. */\n"
                      "  const long f2s_T = tune[0] < 1 ? 1 : tune[0] > " +
                          std::to_string(stream_steps) + " ? " + std::to_string(stream_steps) +
                          " : tune[0];\n"
                    : std::string("  const long f2s_T = tune[0] > 0 ? tune[0] : 1;\n"))
      << "  void *f2s_user[" << G << "] = {";
  for (size_t g = 0; g < G; ++g)
    out << (g ? ", " : "") << "(void *)" << c_name(p.state[g]);
  out << "};\n"
      << "  void *f2s_scratch[" << G << "] = {0};\n"
      << "  size_t f2s_bytes[" << G << "];\n"
      << "  void *f2s_cur[" << G << "], *f2s_nxt[" << G << "];\n"
      << "  for (int g = 0; g < " << G << "; ++g) {\n"
      << "    const long *e = f2s_ext + g * " << r2 << ";\n"
      << "    f2s_bytes[g] = (size_t)f2s_box_points(e, " << rs << ") * (size_t)";
  // All state grids' element sizes, by index.
  out << "(";
  for (size_t g = 0; g < G; ++g)
    out << (g + 1 < G ? "g == " + std::to_string(g) + " ? " : "") << "sizeof("
        << c_type(k.find_arg(p.state[g])->type) << ")" << (g + 1 < G ? " : " : "");
  out << ");\n"
      << "    f2s_cur[g] = f2s_user[g];\n"
      << "    if (f2s_trips > 0 && f2s_x.total > 0) {\n"
      << "      f2s_scratch[g] = malloc(f2s_bytes[g] ? f2s_bytes[g] : 1);\n"
      << "      if (!f2s_scratch[g])\n        abort();\n"
      << "    }\n"
      << "    f2s_nxt[g] = f2s_scratch[g];\n"
      << "  }\n";
  std::string v = c_name(t.var);
  out << "  " << v << " = f2s_lo;\n"
      << "  /* Chunks of at most T steps, as even as can be, and an even number of them\n"
         "     where there are two steps or more: the last then writes the caller's arrays\n"
         "     (no copy back). */\n"
      << "  long f2s_chunks = (f2s_trips + f2s_T - 1) / f2s_T;\n"
      << "  if (f2s_chunks % 2 && f2s_chunks < f2s_trips)\n"
      << "    ++f2s_chunks;\n"
      << "  for (long f2s_done = 0, f2s_i = 0; f2s_done < f2s_trips; ++f2s_i) {\n"
      << "    const int f2s_n = (int)(f2s_trips / f2s_chunks + (f2s_i < f2s_trips % f2s_chunks));\n"
      << "    if (f2s_x.total > 0) {\n"
      << "      for (int g = 0; g < " << G << "; ++g) {\n"
      << "        f2s_x.src[g] = f2s_cur[g];\n"
      << "        f2s_x.dst[g] = f2s_nxt[g];\n"
      << "      }\n"
      << "      f2s_x.nsteps = f2s_n;\n"
      << "      f2s_x.last = f2s_done + f2s_n >= f2s_trips;\n"
      << "      f2s_x.t0 = " << v << ";\n"
      << "      f2s_x.step = f2s_step;\n"
      << "      f2s_parallel_run(nthreads, " << fn << "_tiles, &f2s_x);\n"
      << "      for (int g = 0; g < " << G << "; ++g) {\n"
      << "        void *f2s_v = f2s_cur[g];\n"
      << "        f2s_cur[g] = f2s_nxt[g];\n"
      << "        f2s_nxt[g] = f2s_v;\n"
      << "      }\n"
      << "    }\n"
      << "    /* The scalars each step assigns (no point reads them), step by step. */\n"
      << "    for (int f2s_k = 0; f2s_k < f2s_n; ++f2s_k) {\n";
  for (const TimeStmt &s : t.body)
    if (s.kind == TimeStmtKind::Assign)
      out << "      " << c_name(s.var) << " = " << exprs.print(s.value) << ";\n";
  out << "      " << v << " += f2s_step;\n"
      << "    }\n"
      << "    f2s_done += f2s_n;\n"
      << "  }\n"
      << "  if (f2s_cur[0] != f2s_user[0]) {\n"
      << "    struct " << fn << "_copy f2s_copy;\n"
      << "    for (int g = 0; g < " << G << "; ++g) {\n"
      << "      f2s_copy.dst[g] = f2s_user[g];\n"
      << "      f2s_copy.src[g] = f2s_cur[g];\n"
      << "      f2s_copy.bytes[g] = f2s_bytes[g];\n"
      << "    }\n"
      << "    f2s_parallel_run(nthreads, " << fn << "_copy_back, &f2s_copy);\n"
      << "  }\n"
      << "  for (int g = 0; g < " << G << "; ++g)\n    free(f2s_scratch[g]);\n";
  for (const Reduction &r : k.reductions)
    out << "  *a->" << c_name(r.var) << " = " << c_name(r.var) << ";\n";
  for (const Variable &a : k.args)
    if (!k.find_reduction(a.name))
      out << "  (void)" << c_name(a.name) << ";\n";
  out << unused_layouts(k) << "}\n\n";
  return out.str();
}

std::string print_c_time_loop_variant(const TimeLoop &t, const std::vector<const Kernel *> &sweeps,
                                      const std::vector<SweepCall> &calls,
                                      const std::string &variant) {
  const Kernel &k = t.signature;
  std::vector<std::string> names = t.sweeps();
  std::ostringstream out;
  std::string prefix = "f2s_" + variant + "_";
  for (size_t i = 0; i < names.size(); ++i) {
    const Kernel &sweep = find_sweep(sweeps, names[i]);
    out << print_c_entry(sweep, prefix + sweep.name, calls.at(i).variant, calls.at(i).tune,
                         calls.at(i).threads, "'" + sweep.name + "' for " + variant);
  }
  TimeLoopProcedure p;
  p.symbol = c_variant_name(k, variant) + "_loop";
  p.sweep_prefix = prefix;
  p.comment = "'" + k.name + "' step by step (" + variant + ")";
  out << print_c_time_loop(t, sweeps, p);
  out << "static void " << c_variant_name(k, variant) << "(const struct f2s_" << k.name
      << "_args *a, const long *tune, int nthreads) {\n"
      << "  (void)tune;\n  (void)nthreads;\n"
      << "  " << p.symbol << "(";
  for (size_t i = 0; i < k.args.size(); ++i)
    out << (i ? ", " : "") << "a->" << c_name(k.args[i].name);
  out << ");\n}\n\n";
  return out.str();
}

} // namespace f2s
