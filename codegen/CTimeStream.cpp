#include "codegen/CTimeStream.h"

#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"
#include "codegen/CStmt.h"
#include "codegen/CTimeTile.h"
#include "codegen/TimeStreamPlan.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

std::string str(int64_t n) {
  return std::to_string(n);
}

const Kernel &find_sweep(const std::vector<const Kernel *> &sweeps, const std::string &name) {
  for (const Kernel *k : sweeps)
    if (k->name == name)
      return *k;
  throw std::logic_error("time stream: no sweep '" + name + "'");
}

/// Everything the printers share.
struct Printer {
  const TimeLoop &t;
  const TimeTilePlan &p;
  const TimeStreamPlan &x;
  int R, Z;
  std::string r2, rs;

  /// Version v is a grid as loaded that stages read: they read it where it
  /// is, in the current version in memory (its rows are read once a chunk
  /// either way; a copy in a ring would cost a write and a read more).
  bool in_place(int v) const { return v < x.G && x.versions[v].read; }
  /// Version v's plane z: a pointer to its first point (the ring's plane
  /// over the tile's hull, or the grid's plane in memory).
  std::string plane(int v, const std::string &z) const {
    const int g = x.versions[v].grid;
    std::string cast = std::string("(") + c_type(x.state[g]->type) + " *)";
    if (in_place(v))
      return cast + "f2s_x->src[" + str(g) + "] + ((" + z + ") - f2s_e" + str(g) + "_lo" + str(Z) +
             ") * f2s_e" + str(g) + "_s" + str(Z);
    return cast + "f2s_ring[" + str(v) + "] + f2s_slot(" + z + ", " + str(x.versions[v].depth()) +
           ") * f2s_hpl";
  }
  /// The element of version v's plane at the subscripts `q` (every
  /// dimension but z).
  std::string at(int v, const std::vector<std::string> &q) const {
    std::string s;
    const std::string g = str(x.versions[v].grid);
    for (int d = 0; d < Z; ++d) {
      std::string term = in_place(v) ? "(" + q[d] + " - f2s_e" + g + "_lo" + str(d) + ")"
                                     : "(" + q[d] + " - f2s_hlo" + str(d) + ")";
      std::string stride = in_place(v) ? "f2s_e" + g + "_s" + str(d) : "f2s_hs" + str(d);
      s += d == 0 ? term : " + " + stride + " * " + term;
    }
    return s;
  }
};

/// A plane's name for version v at offset dz in z: f2s_v3_m1, f2s_v3_0, f2s_v3_p1.
std::string plane_name(int v, int64_t dz) {
  return "f2s_v" + str(v) + "_" + (dz < 0 ? "m" + str(-dz) : dz > 0 ? "p" + str(dz) : "0");
}

/// `long NAME[2R]`: the tile's plane at z over the hull but z.
std::string plane_box(const Printer &pr, const std::string &name, const std::string &z,
                      const std::string &pad) {
  std::string s = pad + "long " + name + "[" + pr.r2 + "];\n";
  s += pad + "memcpy(" + name + ", f2s_hull, sizeof f2s_hull);\n";
  s += pad + name + "[" + str(2 * pr.Z) + "] = " + name + "[" + str(2 * pr.Z + 1) + "] = " + z +
       ";\n";
  return s;
}

/// For a grid no stage reads before writing it (as loaded, only continued
/// where its first writer does not compute): the stage of that writer, which
/// computes every point of its domain that the tile needs; else -1.
int first_writer(const TimeStreamPlan &x, int g) {
  if (x.versions[g].read)
    return -1;
  for (const TimeStreamInstance &in : x.instances)
    if (in.prev[g] == g)
      return in.reads_itself ? -1 : in.stage;
  return -1;
}

/// Stage instance j at plane f2s_wz - lag.
void print_instance(const Printer &pr, const std::vector<const Kernel *> &sweeps, int j,
                    std::ostringstream &out) {
  const TimeStreamPlan &x = pr.x;
  const TimeStreamInstance &in = x.instances[j];
  const TileStage &st = pr.p.stages[in.stage];
  const Kernel &sweep = find_sweep(sweeps, st.sweep);
  const int R = pr.R, Z = pr.Z;
  std::string pad = "      ";
  out << pad << "if (" << in.step << " < f2s_nsteps) { /* step " << in.step << ", stage "
      << in.stage << ": sweep " << st.sweep << " */\n";
  std::string p1 = pad + "  ";
  out << p1 << "const long f2s_z = f2s_wz - " << in.lag << "; /* its plane */\n"
      << p1 << "if (f2s_z0 <= f2s_z && f2s_z <= f2s_z1) {\n";
  std::string p2 = p1 + "  ";
  out << p2 << "const long *f2s_c = f2s_comp + " << j * 2 * R << "; /* the box it computes */\n"
      << p2 << "const int f2s_on = f2s_c[" << 2 * Z << "] <= f2s_z && f2s_z <= f2s_c[" << 2 * Z + 1
      << "] && !f2s_box_empty(f2s_c, " << R << ");\n"
      << plane_box(pr, "f2s_pl", "f2s_z", p2);
  // Outside its sweep's domain, the version it makes is the one it
  // continues (a boundary the sweep does not write). Inside, it computes
  // every point a later stage needs (its box is the domain meet what they
  // need), and the others are never read: they are left as they are. Where
  // it reads the grid at the point itself, the point holds the continued
  // value before it computes.
  for (int g = 0; g < x.G; ++g) {
    if (in.writes[g] < 0)
      continue;
    std::string except = in.reads_itself ? "NULL" : "f2s_x->dom + " + str(in.stage * 2 * R);
    if (pr.in_place(in.prev[g])) { // from the grid in memory, within its bounds
      out << p2 << "{\n"
          << p2 << "  long f2s_pe[" << 2 * R << "];\n"
          << p2 << "  memcpy(f2s_pe, f2s_pl, sizeof f2s_pe);\n"
          << p2 << "  f2s_box_meet(f2s_pe, f2s_x->ext + " << g * 2 * R << ", " << R << ");\n"
          << p2 << "  f2s_box_copy_except(" << pr.plane(in.writes[g], "f2s_z")
          << ", f2s_pl, f2s_x->src[" << g << "], f2s_x->ext + " << g * 2 * R << ", f2s_pe, "
          << except << ", " << R << ", f2s_size[" << g << "]); /* " << x.state[g]->name
          << " continued */\n"
          << p2 << "}\n";
      continue;
    }
    out << p2 << "f2s_box_copy_except(" << pr.plane(in.writes[g], "f2s_z") << ", f2s_pl, "
        << pr.plane(in.prev[g], "f2s_z") << ", f2s_pl, f2s_pl, " << except << ", " << R
        << ", f2s_size[" << g << "]); /* " << x.state[g]->name << " continued */\n";
  }
  out << p2 << "if (f2s_on) {\n";
  std::string p3 = p2 + "  ";
  std::ostringstream body;
  body << print_c_tile_step_scalars(pr.t, pr.p, sweep, str(in.step), p3);
  for (int d = 0; d < Z; ++d)
    body << p3 << "const long " << c_name("f2s_tlo" + str(d)) << " = f2s_c[" << 2 * d << "], "
         << c_name("f2s_thi" + str(d)) << " = f2s_c[" << 2 * d + 1 << "];\n";
  if (!st.vars[Z].empty())
    body << p3 << "const long " << c_name(st.vars[Z]) << " = f2s_z;\n";
  for (const Variable &v : sweep.temps)
    body << p3 << c_type(v.type) << " " << c_name(v.name) << ";\n";
  // State grids: a grid the stage writes, at the point itself, in the plane
  // of the version it makes; any other in the version it reads, at its plane.
  std::map<std::pair<int, int64_t>, bool> planes; // (version, dz) -> written
  std::ostringstream point;
  CStmtPrinter printer(sweep, point);
  printer.set_element_hook(
      [&](const std::string &grid, const std::vector<Index> &ix) -> std::optional<std::string> {
        int g = x.state_index(grid);
        if (g < 0)
          return std::nullopt;
        std::vector<int64_t> off(R);
        for (int d = 0; d < R; ++d)
          off[d] = st.vars[d].empty() ? ix[d].offset - st.constant[d] : ix[d].offset;
        std::vector<std::string> q;
        for (int d = 0; d < Z; ++d)
          q.push_back(CExprPrinter::subscript(ix[d]));
        if (in.writes[g] >= 0 &&
            std::all_of(off.begin(), off.end(), [](int64_t o) { return o == 0; })) {
          planes[{in.writes[g], 0}] = true;
          return plane_name(in.writes[g], 0) + "[" + pr.at(in.writes[g], q) + "]";
        }
        int v = in.reads[g];
        if (v < 0)
          throw std::logic_error("time stream: '" + grid + "' is neither read nor written");
        planes.emplace(std::make_pair(v, off[Z]), false);
        return plane_name(v, off[Z]) + "[" + pr.at(v, q) + "]";
      });
  printer.print(c_tile_stage_nest(sweep, st, Z), static_cast<int>(p3.size() / 2));
  for (const auto &[key, written] : planes) {
    const auto &[v, dz] = key;
    std::string type = c_type(x.state[x.versions[v].grid]->type);
    std::string z = dz ? "f2s_z " + std::string(dz < 0 ? "- " : "+ ") + str(std::abs(dz)) : "f2s_z";
    body << p3 << (written ? "" : "const ") << type << " *restrict " << plane_name(v, dz) << " = "
         << pr.plane(v, z) << ";\n";
  }
  out << body.str() << point.str();
  for (const Variable &v : sweep.temps)
    out << p3 << "(void)" << c_name(v.name) << ";\n";
  out << p2 << "}\n";
  // The chunk's last version of a grid, to the other version: where the
  // next chunk reads it. A grid no stage reads before writing it is read
  // only outside its first writer's domain (its boundaries), so in every
  // chunk but the call's last, its points in that domain stay in the
  // pipeline (a ping-pong chunk writes one grid whole, not two).
  for (int g = 0; g < x.G; ++g) {
    if (x.last[in.step][g] != j)
      continue;
    std::string except = "NULL";
    if (int s0 = first_writer(x, g); s0 >= 0)
      except = "f2s_x->last ? NULL : f2s_x->dom + " + str(s0 * 2 * R);
    out << p2 << "if (f2s_nsteps == " << in.step + 1 << ") { /* " << x.state[g]->name
        << " done: its output box to the other version */\n"
        << p2 << "  long f2s_o[" << 2 * R << "];\n"
        << p2 << "  memcpy(f2s_o, f2s_out, sizeof f2s_o);\n"
        << p2 << "  f2s_box_meet(f2s_o, f2s_x->ext + " << g * 2 * R << ", " << R << ");\n"
        << p2 << "  if (f2s_o[" << 2 * Z << "] <= f2s_z && f2s_z <= f2s_o[" << 2 * Z + 1
        << "] && !f2s_box_empty(f2s_o, " << R << ")) {\n"
        << p2 << "    f2s_o[" << 2 * Z << "] = f2s_o[" << 2 * Z + 1 << "] = f2s_z;\n"
        << p2 << "    f2s_box_copy_except(f2s_x->dst[" << g << "], f2s_x->ext + " << g * 2 * R
        << ", " << pr.plane(in.writes[g], "f2s_z") << ", f2s_pl, f2s_o, " << except << ", " << R
        << ", f2s_size[" << g << "]);\n"
        << p2 << "  }\n"
        << p2 << "}\n";
  }
  out << p1 << "}\n" << pad << "}\n";
}

} // namespace

std::string print_c_time_stream_helpers() {
  return R"(#ifndef F2S_TIME_STREAM_HELPERS
#define F2S_TIME_STREAM_HELPERS
/* The ring slot of plane z, planes counted from z0 (the streaming form). */
#define f2s_slot(z, depth) ((((z) - f2s_z0) % (depth) + (depth)) % (depth))
/* f2s_box_copy for the pipeline's short pieces (a plane's boundary, one
   element a row): the rows of consecutive dimensions that `box` covers whole
   in both layouts in one piece; pieces of a few elements copied in place
   rather than by a call. */
static inline void f2s_stream_copy(void *dst, const long *dst_box, const void *src,
                                   const long *src_box, const long *box, int r, size_t size) {
  long at[16], ds[16], ss[16], dn = 1, sn = 1;
  for (int d = 0; d < r; ++d) {
    at[d] = box[2 * d];
    ds[d] = dn;
    ss[d] = sn;
    dn *= dst_box[2 * d + 1] - dst_box[2 * d] + 1;
    sn *= src_box[2 * d + 1] - src_box[2 * d] + 1;
  }
  long run = box[1] - box[0] + 1;
  int d0 = 1;
  while (d0 < r && box[2 * d0 - 2] == dst_box[2 * d0 - 2] && box[2 * d0 - 1] == dst_box[2 * d0 - 1] &&
         box[2 * d0 - 2] == src_box[2 * d0 - 2] && box[2 * d0 - 1] == src_box[2 * d0 - 1]) {
    run *= box[2 * d0 + 1] - box[2 * d0] + 1;
    ++d0;
  }
  for (;;) {
    long di = 0, si = 0;
    for (int d = 0; d < r; ++d) {
      di += (at[d] - dst_box[2 * d]) * ds[d];
      si += (at[d] - src_box[2 * d]) * ss[d];
    }
    char *to = (char *)dst + (size_t)di * size;
    const char *from = (const char *)src + (size_t)si * size;
    if (run <= 8 && size == 8)
      for (long k = 0; k < run; ++k)
        memcpy(to + 8 * k, from + 8 * k, 8);
    else if (run <= 8 && size == 4)
      for (long k = 0; k < run; ++k)
        memcpy(to + 4 * k, from + 4 * k, 4);
    else
      memcpy(to, from, (size_t)run * size);
    int d = d0;
    for (; d < r; ++d) {
      if (++at[d] <= box[2 * d + 1])
        break;
      at[d] = box[2 * d];
    }
    if (d >= r)
      return;
  }
}
/* f2s_stream_copy of `box` less `except` (NULL: nothing less): the slabs of
   box below and above except in each dimension, within except in those
   before it. */
static inline void f2s_box_copy_except(void *dst, const long *dst_box, const void *src,
                                       const long *src_box, const long *box,
                                       const long *except, int r, size_t size) {
  long rest[32], e[32], slab[32];
  for (int d = 0; d < 2 * r; ++d)
    rest[d] = box[d];
  if (f2s_box_empty(rest, r))
    return;
  if (except) {
    for (int d = 0; d < 2 * r; ++d)
      e[d] = except[d];
    f2s_box_meet(e, box, r);
  }
  if (!except || f2s_box_empty(e, r)) {
    f2s_stream_copy(dst, dst_box, src, src_box, box, r, size);
    return;
  }
  for (int d = 0; d < r; ++d) {
    if (rest[2 * d] < e[2 * d]) {
      for (int k = 0; k < 2 * r; ++k)
        slab[k] = rest[k];
      slab[2 * d + 1] = e[2 * d] - 1;
      f2s_stream_copy(dst, dst_box, src, src_box, slab, r, size);
    }
    if (rest[2 * d + 1] > e[2 * d + 1]) {
      for (int k = 0; k < 2 * r; ++k)
        slab[k] = rest[k];
      slab[2 * d] = e[2 * d + 1] + 1;
      f2s_stream_copy(dst, dst_box, src, src_box, slab, r, size);
    }
    rest[2 * d] = e[2 * d];
    rest[2 * d + 1] = e[2 * d + 1];
  }
}
#endif
)";
}

int64_t c_time_stream_bytes_per_column(const TimeLoop &t, const TimeTilePlan &p, int steps) {
  TimeStreamPlan x = plan_time_stream(t, p, steps);
  int64_t bytes = 0;
  for (size_t v = 0; v < x.versions.size(); ++v)
    if (v >= static_cast<size_t>(x.G) || !x.versions[v].read) // not read in place
      bytes += x.versions[v].depth() * type_bytes(x.state[x.versions[v].grid]->type);
  return bytes;
}

std::string print_c_time_stream_tiles(const TimeLoop &t, const TimeTilePlan &p,
                                      const std::vector<const Kernel *> &sweeps,
                                      const std::string &fn, const std::string &ctx, int steps) {
  const TimeStreamPlan x = plan_time_stream(t, p, steps);
  const Kernel &k = t.signature;
  const int R = p.rank, Z = R - 1, G = x.G, S = x.S;
  const size_t V = x.versions.size();
  Printer pr{t, p, x, R, Z, str(2 * R), str(R)};
  std::ostringstream out;
  out << "/* One thread's tiles of every dimension but " << Z + 1
      << ", each walked along it plane by plane, a chunk's\n"
         "   stage instances in flight at once (codegen/CTimeStream.h). */\n"
      << "static void " << fn << "_tiles(int f2s_tid, int f2s_nthreads, void *f2s_arg) {\n"
      << "  const struct " << ctx << " *f2s_x = (const struct " << ctx << " *)f2s_arg;\n"
      << "  const struct f2s_" << k.name << "_args *a = f2s_x->a;\n"
      << print_c_prologue(k, false, true) << "  const int f2s_nsteps = f2s_x->nsteps;\n"
      << "  long *f2s_comp = (long *)malloc(sizeof(long) * (size_t)f2s_nsteps * " << S * 2 * R
      << ");\n"
      << "  long f2s_need[" << G * 2 * R << "];\n"
      << "  /* The state grids' layouts in memory (their declared extents). */\n";
  for (int g = 0; g < G; ++g) {
    for (int d = 0; d < R; ++d)
      out << "  const long f2s_e" << g << "_lo" << d << " = f2s_x->ext[" << g * 2 * R + 2 * d
          << "];\n";
    out << "  const long f2s_e" << g << "_s0 = 1;\n";
    for (int d = 1; d < R; ++d)
      out << "  const long f2s_e" << g << "_s" << d << " = f2s_e" << g << "_s" << d - 1
          << " * (f2s_x->ext[" << g * 2 * R + 2 * d - 1 << "] - f2s_x->ext["
          << g * 2 * R + 2 * d - 2 << "] + 1);\n";
    for (int d = 0; d < R; ++d)
      out << "  (void)f2s_e" << g << "_lo" << d << ";\n";
    for (int d = 0; d < R; ++d)
      out << "  (void)f2s_e" << g << "_s" << d << ";\n";
  }
  out << "  static const size_t f2s_size[" << G << "] = {";
  for (int g = 0; g < G; ++g)
    out << (g ? ", " : "") << "sizeof(" << c_type(x.state[g]->type) << ")";
  out << "};\n"
      << "  /* Per version of a state grid (as loaded, then as each stage instance leaves it):\n"
         "     its grid and the planes its ring keeps. */\n"
      << "  static const int f2s_vgrid[" << V << "] = {";
  for (size_t v = 0; v < V; ++v)
    out << (v ? ", " : "") << x.versions[v].grid;
  out << "};\n  static const long f2s_depth[" << V << "] = {";
  for (size_t v = 0; v < V; ++v) // a grid read in place: no ring (a plane, never used)
    out << (v ? ", " : "") << (pr.in_place(static_cast<int>(v)) ? 1 : x.versions[v].depth());
  out << "};\n  static const long f2s_lag_max[" << steps + 1 << "] = {";
  for (int n = 0; n <= steps; ++n)
    out << (n ? ", " : "") << x.lag_max[n];
  out << "}; /* per chunk length */\n"
      << "  void *f2s_ring[" << V << "] = {0};\n"
      << "  long f2s_cap = 0; /* the points of a plane the rings hold */\n"
      << "  if (!f2s_comp)\n    abort();\n"
      << print_c_tile_loop_head(t, R)
      << "    /* The tile's plane: the hull of the need boxes but z; its planes, those of z. */\n"
      << "    long f2s_hull[" << 2 * R << "];\n"
      << "    f2s_box_set_empty(f2s_hull, " << R << ");\n"
      << "    for (int g = 0; g < " << G << "; ++g)\n"
      << "      f2s_box_hull(f2s_hull, f2s_need + g * " << 2 * R << ", " << R << ");\n"
      << "    if (f2s_box_empty(f2s_hull, " << R << "))\n"
      << "      continue;\n";
  for (int d = 0; d < Z; ++d)
    out << "    const long f2s_hlo" << d << " = f2s_hull[" << 2 * d << "], f2s_he" << d
        << " = f2s_hull[" << 2 * d + 1 << "] - f2s_hull[" << 2 * d << "] + 1;\n";
  for (int d = 1; d < Z; ++d)
    out << "    const long f2s_hs" << d << " = " << (d == 1 ? "" : "f2s_hs" + str(d - 1) + " * ")
        << "f2s_he" << d - 1 << ";\n";
  out << "    const long f2s_hpl = 1";
  for (int d = 0; d < Z; ++d)
    out << " * f2s_he" << d;
  out << ";\n"
      << "    const long f2s_z0 = f2s_hull[" << 2 * Z << "], f2s_z1 = f2s_hull[" << 2 * Z + 1
      << "];\n"
      << "    if (f2s_hpl > f2s_cap) {\n"
      << "      for (int v = 0; v < " << V << "; ++v) {\n"
      << "        free(f2s_ring[v]);\n"
      << "        f2s_ring[v] = calloc((size_t)(f2s_depth[v] * f2s_hpl), f2s_size[f2s_vgrid[v]]);\n"
      << "        if (!f2s_ring[v])\n          abort();\n"
      << "      }\n"
      << "      f2s_cap = f2s_hpl;\n"
      << "    }\n"
      << "    for (long f2s_wz = f2s_z0; f2s_wz <= f2s_z1 + f2s_lag_max[f2s_nsteps]; ++f2s_wz) {\n"
      << "      if (f2s_wz <= f2s_z1) { /* each grid's plane f2s_wz, from the current version */\n"
      << plane_box(pr, "f2s_pl", "f2s_wz", "        ");
  for (int g = 0; g < G; ++g) {
    if (pr.in_place(g))
      continue;
    // A grid no stage reads before writing it (b of a ping-pong, unew of a
    // copy back) is needed only outside its first writer's domain.
    std::string except = "NULL";
    if (int s0 = first_writer(x, g); s0 >= 0)
      except = "f2s_x->dom + " + str(s0 * 2 * R);
    std::string need = "f2s_need + " + str(g * 2 * R);
    out << "        if ((" << need << ")[" << 2 * Z << "] <= f2s_wz && f2s_wz <= (" << need << ")["
        << 2 * Z + 1 << "]) { /* " << x.state[g]->name << " */\n"
        << "          long f2s_n[" << 2 * R << "];\n"
        << "          memcpy(f2s_n, " << need << ", sizeof f2s_n);\n"
        << "          f2s_n[" << 2 * Z << "] = f2s_n[" << 2 * Z + 1 << "] = f2s_wz;\n"
        << "          f2s_box_copy_except(" << pr.plane(g, "f2s_wz") << ", f2s_pl, f2s_x->src[" << g
        << "], f2s_x->ext + " << g * 2 * R << ", f2s_n, " << except << ", " << R << ", f2s_size["
        << g << "]);\n"
        << "        }\n";
  }
  out << "      }\n";
  for (size_t j = 0; j < x.instances.size(); ++j)
    print_instance(pr, sweeps, static_cast<int>(j), out);
  out << "    }\n"
      << "  }\n"
      << "  for (int v = 0; v < " << V << "; ++v)\n    free(f2s_ring[v]);\n"
      << "  free(f2s_comp);\n"
      << print_c_tile_unused(k) << "}\n\n";
  return out.str();
}

} // namespace f2s
