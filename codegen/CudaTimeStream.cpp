#include "codegen/CudaTimeStream.h"

#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"
#include "codegen/CStmt.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

/// Rings are handed out in pieces aligned to this, the largest element.
constexpr int64_t kAlign = 16;

/// One version of a state grid in a chunk of the most steps: as loaded
/// (producer -1) or as stage instance `producer` (step * S + stage) leaves it.
struct Version {
  int grid = 0;
  int producer = -1;
  int64_t lag = 0;   ///< its plane trails the loaded plane by this much
  int64_t depth = 1; ///< planes its ring holds
};

/// What one stage instance of the chunk reads and writes.
struct Instance {
  int step = 0, stage = 0;
  int64_t lag = 0;
  std::vector<int> reads;  ///< per state grid: the version it reads (-1: none)
  std::vector<int> writes; ///< per state grid: the version it makes (-1: none)
  std::vector<int> prev;   ///< per state grid it writes: the version it continues
  bool reads_itself = false;
};

/// Everything the printers share.
struct Stream {
  const TimeLoop &t;
  const TimeTilePlan &plan;
  const CudaTimeTileParams &p;
  std::vector<const Variable *> state;
  std::vector<const Kernel *> sweeps; ///< the sweep of each stage
  int R = 0, Z = 0, G = 0, S = 0;
  std::vector<Version> versions;
  std::vector<Instance> instances;    ///< T * S of them
  std::vector<int64_t> lag_max;       ///< per chunk length n (0..T): the largest lag of its stages
  std::vector<std::vector<int>> last; ///< per step: per state grid, the instance writing it last

  int state_index(const std::string &g) const {
    for (int k = 0; k < G; ++k)
      if (state[k]->name == g)
        return k;
    return -1;
  }
};

/// The lags and ring depths of every version of a chunk of T steps. Both
/// only grow with the stages before, so a shorter chunk uses the first ones.
void plan_versions(Stream &x) {
  std::vector<int> current(x.G);
  for (int g = 0; g < x.G; ++g) {
    current[g] = g;
    x.versions.push_back({g, -1, 0, 1});
  }
  // The oldest plane a reader needs, as a lag: version -> max(lag - offset).
  std::vector<int64_t> oldest(x.G, 0);
  for (int step = 0; step < x.p.steps; ++step)
    for (int s = 0; s < x.S; ++s) {
      const TileStage &st = x.plan.stages[s];
      Instance in;
      in.step = step;
      in.stage = s;
      in.reads.assign(x.G, -1);
      in.writes.assign(x.G, -1);
      in.prev.assign(x.G, -1);
      int64_t lag = 0;
      for (const TileRead &r : st.reads) {
        int g = x.state_index(r.grid);
        in.reads[g] = current[g];
        lag = std::max(lag, x.versions[current[g]].lag + std::max<int64_t>(r.hi[x.Z], 0));
        if (std::find(st.writes.begin(), st.writes.end(), r.grid) != st.writes.end())
          in.reads_itself = true;
      }
      for (const std::string &w : st.writes) {
        int g = x.state_index(w);
        in.prev[g] = current[g];
        lag = std::max(lag, x.versions[current[g]].lag);
      }
      in.lag = lag;
      for (const TileRead &r : st.reads) {
        int v = current[x.state_index(r.grid)];
        oldest[v] = std::max(oldest[v], lag - std::min<int64_t>(r.lo[x.Z], 0));
      }
      for (const std::string &w : st.writes) {
        int v = current[x.state_index(w)];
        oldest[v] = std::max(oldest[v], lag);
      }
      int j = static_cast<int>(x.instances.size());
      for (const std::string &w : st.writes) {
        int g = x.state_index(w);
        in.writes[g] = static_cast<int>(x.versions.size());
        x.versions.push_back({g, j, lag, 1});
        oldest.push_back(lag);
        current[g] = in.writes[g];
      }
      x.instances.push_back(std::move(in));
    }
  for (size_t v = 0; v < x.versions.size(); ++v)
    x.versions[v].depth = std::max<int64_t>(1, oldest[v] - x.versions[v].lag + 1);
  x.lag_max.assign(x.p.steps + 1, 0);
  for (int n = 1; n <= x.p.steps; ++n) {
    x.lag_max[n] = x.lag_max[n - 1];
    for (int s = 0; s < x.S; ++s)
      x.lag_max[n] = std::max(x.lag_max[n], x.instances[(n - 1) * x.S + s].lag);
  }
  x.last.assign(x.p.steps, std::vector<int>(x.G, -1));
  for (size_t j = 0; j < x.instances.size(); ++j)
    for (int g = 0; g < x.G; ++g)
      if (x.instances[j].writes[g] >= 0)
        x.last[x.instances[j].step][g] = static_cast<int>(j);
}

std::string str(int64_t n) {
  return std::to_string(n);
}

/// The elements of one plane of state grid k's ring at most (span of its
/// need box in each dimension but z, never more than the grid), as C.
std::string plane_bound(const Stream &x, int k) {
  std::string s = "1L";
  for (int d = 0; d < x.Z; ++d) {
    std::string lo = "ext[" + str(k * 2 * x.R + 2 * d) + "]",
                hi = "ext[" + str(k * 2 * x.R + 2 * d + 1) + "]";
    int64_t span = x.p.tile[d] + x.p.steps * (x.plan.reach_lo[d] + x.plan.reach_hi[d]);
    s += " * f2s_min_long(" + str(span) + "L, f2s_max_long(" + hi + " - " + lo + " + 1, 0L))";
  }
  return s;
}

std::string print_rings(const Stream &x) {
  std::ostringstream out;
  std::string fn = "f2s_" + x.p.symbol + "_rings";
  out << "/* The rings of " << x.p.symbol
      << " in dynamic shared memory: per version of a state grid, its planes\n"
         " * (as loaded, then as each stage of a chunk of "
      << x.p.steps << " steps leaves it). */\n"
      << "static F2S_HD long " << fn << "(const long *ext, long *offset) {\n"
      << "  long at = 0;\n";
  for (size_t v = 0; v < x.versions.size(); ++v) {
    const Version &ver = x.versions[v];
    out << "  offset[" << v << "] = at; /* " << x.state[ver.grid]->name << ", "
        << (ver.producer < 0
                ? std::string("as loaded")
                : "step " + str(ver.producer / x.S) + " stage " + str(ver.producer % x.S))
        << ": " << ver.depth << " planes, lag " << ver.lag << " */\n"
        << "  at += (long)sizeof(" << c_type(x.state[ver.grid]->type) << ") * " << ver.depth
        << "L * " << plane_bound(x, ver.grid) << ";\n"
        << "  at = (at + " << kAlign - 1 << ") / " << kAlign << " * " << kAlign << ";\n";
  }
  out << "  return at;\n}\n\n";
  return out.str();
}

/// `for each point of the plane of box` (a flat box [lo0, hi0, ...] of
/// rank R; its dimensions below Z) among the block's threads, rows of x
/// to groups of consecutive threads (a warp where the block is made of
/// warps). The body sees f2s_q<d>, the point's coordinate, for d < Z.
void print_plane_loop(const Stream &x, const std::string &box, const std::string &pad,
                      std::ostringstream &out) {
  int threads = x.p.threads;
  int width = x.Z > 1 && threads % 32 == 0 ? 32 : threads;
  out << pad << "{\n";
  std::string in = pad + "  ";
  for (int d = 0; d < x.Z; ++d)
    out << in << "const int f2s_e" << d << " = (int)f2s_max_long(" << box << "[" << 2 * d + 1
        << "] - " << box << "[" << 2 * d << "] + 1, 0L);\n";
  out << in << "const int f2s_rows = 1";
  for (int d = 1; d < x.Z; ++d)
    out << " * f2s_e" << d;
  out << ";\n"
      << in << "for (int f2s_r = (int)threadIdx.x / " << width
      << "; f2s_r < f2s_rows; f2s_r += " << threads / width << ") {\n";
  std::string in2 = in + "  ";
  out << in2 << "int f2s_rest = f2s_r;\n";
  for (int d = 1; d < x.Z; ++d) {
    out << in2 << "const int f2s_q" << d << " = (int)" << box << "[" << 2 * d << "] + "
        << (d + 1 < x.Z ? "f2s_rest % f2s_e" + str(d) : "f2s_rest") << ";\n";
    if (d + 1 < x.Z)
      out << in2 << "f2s_rest /= f2s_e" << d << ";\n";
  }
  out << in2 << "(void)f2s_rest;\n"
      << in2 << "for (int f2s_p0 = (int)threadIdx.x % " << width
      << "; f2s_p0 < f2s_e0; f2s_p0 += " << width << ") {\n"
      << in2 << "  const int f2s_q0 = (int)" << box << "[0] + f2s_p0;\n";
}

void print_plane_loop_end(const std::string &pad, std::ostringstream &out) {
  out << pad << "    }\n" << pad << "  }\n" << pad << "}\n";
}

/// The element of state grid k's version v at plane `z` and the point
/// (q0, q1, ...) of the plane loop, or the subscripts given.
std::string ring_element(const Stream &x, int v, const std::string &z,
                         const std::vector<std::string> &q) {
  const Version &ver = x.versions[v];
  std::string K = str(ver.grid);
  std::string at = "((" + z + ") - f2s_zb) % " + str(ver.depth) + " * f2s_n" + K + "_pl";
  for (int d = 0; d < x.Z; ++d) {
    std::string term = "(" + q[d] + " - f2s_n" + K + "_lo" + str(d) + ")";
    at += " + " + (d == 0 ? term : "f2s_n" + K + "_s" + str(d) + " * " + term);
  }
  return "f2s_r" + str(v) + "[" + at + "]";
}

std::vector<std::string> plane_point(const Stream &x) {
  std::vector<std::string> q;
  for (int d = 0; d < x.Z; ++d)
    q.push_back("f2s_q" + str(d));
  return q;
}

/// `(q0, q1, ..., z)` lies in the flat box `box`.
std::string inside(const Stream &x, const std::string &box, const std::string &z) {
  std::string s;
  for (int d = 0; d < x.R; ++d) {
    std::string c = d == x.Z ? z : "f2s_q" + str(d);
    s += (d ? " && " : "") + box + "[" + str(2 * d) + "] <= " + c + " && " + c + " <= " + box +
         "[" + str(2 * d + 1) + "]";
  }
  return s;
}

/// The grid's element in memory at (q0, q1, ..., z): its declared bounds.
std::string memory_element(const Stream &x, int k, const std::string &base, const std::string &z) {
  std::string K = str(k), s;
  for (int d = 0; d < x.R; ++d) {
    std::string c = d == x.Z ? z : "f2s_q" + str(d);
    std::string term = "((long)" + c + " - f2s_x" + K + "_lo" + str(d) + ")";
    s += d == 0 ? term : " + f2s_x" + K + "_s" + str(d) + " * " + term;
  }
  return base + "[" + s + "]";
}

/// One stage instance at the plane of the wavefront it computes.
void print_instance(const Stream &x, int j, std::ostringstream &out) {
  const Instance &in = x.instances[j];
  const TileStage &st = x.plan.stages[in.stage];
  const Kernel &sweep = *x.sweeps[in.stage];
  const Kernel &k = x.t.signature;
  std::string pad = "      ";
  out << pad << "if (" << in.step << " < a.f2s_steps) { /* step " << in.step << ", stage "
      << in.stage << ": sweep " << st.sweep << " */\n";
  std::string p1 = pad + "  ";
  out << p1 << "const long *const f2s_c = f2s_comp + " << j * 2 * x.R
      << "; /* the box it computes */\n"
      << p1 << "const int f2s_z = f2s_wz - " << in.lag << "; /* its plane */\n";
  // Each grid it writes: the previous version where it does not compute
  // (or everywhere, where it reads that grid itself).
  for (int g = 0; g < x.G; ++g) {
    if (in.writes[g] < 0)
      continue;
    std::string K = str(g), need = "(f2s_need + " + str(g * 2 * x.R) + ")";
    out << p1 << "if (" << need << "[" << 2 * x.Z << "] <= f2s_z && f2s_z <= " << need << "["
        << 2 * x.Z + 1 << "]) { /* " << x.state[g]->name << " continued */\n";
    print_plane_loop(x, need, p1 + "  ", out);
    std::string body = p1 + "        ";
    if (!in.reads_itself)
      out << body << "if (!(" << inside(x, "f2s_c", "f2s_z") << "))\n" << body << "  ";
    else
      out << body;
    out << ring_element(x, in.writes[g], "f2s_z", plane_point(x)) << " = "
        << ring_element(x, in.prev[g], "f2s_z", plane_point(x)) << ";\n";
    print_plane_loop_end(p1 + "  ", out);
    out << p1 << "}\n";
  }
  if (in.reads_itself)
    out << p1 << "__syncthreads(); /* the stage reads what it continues */\n";
  // The computed points.
  out << p1 << "if (f2s_c[" << 2 * x.Z << "] <= f2s_z && f2s_z <= f2s_c[" << 2 * x.Z + 1
      << "]) {\n";
  std::string p2 = p1 + "  ";
  bool reads_time = sweep.find_arg(x.t.var) != nullptr;
  if (const Variable *tv = k.find_arg(x.t.var); tv && reads_time)
    out << p2 << "const " << c_type(tv->type) << " " << c_name(x.t.var) << " = ("
        << c_type(tv->type) << ")((long)a.f2s_tlo + (a.f2s_first + " << in.step
        << ") * (long)a.f2s_tstep); /* this step's */\n";
  // Grids only read: where they are, addressed as the sweep addresses them
  // (their layout may depend on the time variable).
  for (const Variable &v : k.args) {
    if (!v.is_grid() || x.state_index(v.name) >= 0 || !sweep.find_arg(v.name))
      continue;
    std::string n = c_name(v.name);
    out << p2 << "const " << c_type(v.type) << " *__restrict__ " << n << " = a." << n << ";\n"
        << print_c_grid_layout(k, v, p2);
  }
  print_plane_loop(x, "f2s_c", p2, out);
  std::string body = p2 + "    ";
  for (int d = 0; d < x.R; ++d)
    if (!st.vars[d].empty())
      out << body << "  const int " << c_name(st.vars[d]) << " = "
          << (d == x.Z ? std::string("f2s_z") : "f2s_q" + str(d)) << "; /* a Fortran INTEGER */\n";
  for (const Variable &tmp : sweep.temps)
    out << body << "  " << c_type(tmp.type) << " " << c_name(tmp.name) << ";\n";
  std::vector<const For *> loops = perfect_nest(sweep.body);
  std::ostringstream point;
  CStmtPrinter printer(sweep, point);
  // State grids live in their versions' rings: a grid the stage writes in
  // the version it makes (continued from the previous one before), any
  // other in the version it reads.
  printer.set_element_hook([&x, &in](const std::string &grid,
                                     const std::vector<Index> &ix) -> std::optional<std::string> {
    int g = x.state_index(grid);
    if (g < 0)
      return std::nullopt;
    int v = in.writes[g] >= 0 ? in.writes[g] : in.reads[g];
    if (v < 0)
      throw std::logic_error("time stream: '" + grid + "' is neither read nor written");
    std::vector<std::string> q;
    for (int d = 0; d < x.Z; ++d)
      q.push_back(CExprPrinter::subscript(ix[d]));
    return ring_element(x, v, CExprPrinter::subscript(ix[x.Z]), q);
  });
  printer.print(loops.back()->body, static_cast<int>(body.size() / 2) + 1);
  out << point.str();
  print_plane_loop_end(p2, out);
  out << p1 << "}\n" << p1 << "__syncthreads();\n";
  // The last version of a grid in the chunk: to memory over the output box.
  for (int g = 0; g < x.G; ++g) {
    if (x.last[in.step][g] != j)
      continue;
    std::string K = str(g), n = c_name(x.state[g]->name);
    out << p1 << "if (a.f2s_steps == " << in.step + 1 << " && f2s_w" << K << "[" << 2 * x.Z
        << "] <= f2s_z && f2s_z <= f2s_w" << K << "[" << 2 * x.Z + 1 << "]) { /* "
        << x.state[g]->name << " done: to the other version */\n";
    print_plane_loop(x, "f2s_w" + K, p1 + "  ", out);
    out << p1 << "        " << memory_element(x, g, "a.f2s_dst_" + n, "f2s_z") << " = "
        << ring_element(x, in.writes[g], "f2s_z", plane_point(x)) << ";\n";
    print_plane_loop_end(p1 + "  ", out);
    out << p1 << "}\n";
  }
  out << pad << "}\n";
}

std::string print_body(const Stream &x) {
  std::ostringstream out;
  const int R = x.R, Z = x.Z, G = x.G;
  std::string pad = "    ";
  out << pad << "/* Streaming along dimension " << Z + 1 << ": the rings of every version. */\n"
      << pad << "long f2s_off[" << x.versions.size() << "];\n"
      << pad << "(void)f2s_" << x.p.symbol << "_rings(f2s_ext, f2s_off);\n";
  for (size_t v = 0; v < x.versions.size(); ++v) {
    std::string t = c_type(x.state[x.versions[v].grid]->type);
    out << pad << t << " *const f2s_r" << v << " = (" << t << " *)(f2s_smem + f2s_off[" << v
        << "]);\n";
  }
  // Each grid's plane in its rings: its need box but z, column-major.
  for (int g = 0; g < G; ++g) {
    std::string K = str(g);
    for (int d = 0; d < Z; ++d)
      out << pad << "const int f2s_n" << K << "_lo" << d << " = (int)f2s_need[" << g * 2 * R + 2 * d
          << "];\n";
    for (int d = 1; d < Z; ++d)
      out << pad << "const int f2s_n" << K << "_s" << d << " = "
          << (d == 1 ? "" : "f2s_n" + K + "_s" + str(d - 1) + " * ")
          << "(int)f2s_max_long(f2s_need[" << g * 2 * R + 2 * d - 1 << "] - f2s_need["
          << g * 2 * R + 2 * d - 2 << "] + 1, 0L);\n";
    out << pad << "const int f2s_n" << K << "_pl = 1";
    for (int d = 0; d < Z; ++d)
      out << " * (int)f2s_max_long(f2s_need[" << g * 2 * R + 2 * d + 1 << "] - f2s_need["
          << g * 2 * R + 2 * d << "] + 1, 0L)";
    out << ";\n";
  }
  // The output box of each grid within its bounds.
  for (int g = 0; g < G; ++g) {
    std::string K = str(g);
    out << pad << "long f2s_w" << K << "[" << 2 * R << "]; /* " << x.state[g]->name
        << "'s output box */\n";
    for (int d = 0; d < R; ++d)
      out << pad << "f2s_w" << K << "[" << 2 * d << "] = f2s_max_long(f2s_out[" << 2 * d
          << "], f2s_x" << K << "_lo" << d << ");\n"
          << pad << "f2s_w" << K << "[" << 2 * d + 1 << "] = f2s_min_long(f2s_out[" << 2 * d + 1
          << "], f2s_x" << K << "_hi" << d << ");\n";
  }
  // The wavefront: from the first plane any grid needs to the last plus the
  // chunk's largest lag.
  std::string zlo = "f2s_need[" + str(2 * Z) + "]", zhi = "f2s_need[" + str(2 * Z + 1) + "]";
  for (int g = 1; g < G; ++g) {
    zlo = "f2s_min_long(" + zlo + ", f2s_need[" + str(g * 2 * R + 2 * Z) + "])";
    zhi = "f2s_max_long(" + zhi + ", f2s_need[" + str(g * 2 * R + 2 * Z + 1) + "])";
  }
  out << pad << "const int f2s_lag_max[" << x.p.steps + 1 << "] = {";
  for (int n = 0; n <= x.p.steps; ++n)
    out << (n ? ", " : "") << x.lag_max[n];
  out << "}; /* per chunk length */\n"
      << pad << "/* Planes are never below the grids' bounds: the rings index from there. */\n"
      << pad << "const int f2s_zb = (int)f2s_h_lo" << Z << ";\n"
      << pad << "const int f2s_z0 = (int)" << zlo << ", f2s_z1 = (int)" << zhi
      << " + f2s_lag_max[a.f2s_steps];\n"
      << pad << "for (int f2s_wz = f2s_z0; f2s_wz <= f2s_z1; ++f2s_wz) {\n";
  std::string in = pad + "  ";
  for (int g = 0; g < G; ++g) {
    std::string need = "(f2s_need + " + str(g * 2 * R) + ")";
    out << in << "if (" << need << "[" << 2 * Z << "] <= f2s_wz && f2s_wz <= " << need << "["
        << 2 * Z + 1 << "]) { /* load " << x.state[g]->name << "'s plane */\n";
    print_plane_loop(x, need, in + "  ", out);
    out << in << "        " << ring_element(x, g, "f2s_wz", plane_point(x)) << " = "
        << memory_element(x, g, "a.f2s_src_" + c_name(x.state[g]->name), "f2s_wz") << ";\n";
    print_plane_loop_end(in + "  ", out);
    out << in << "}\n";
  }
  out << in << "__syncthreads();\n";
  for (size_t j = 0; j < x.instances.size(); ++j)
    print_instance(x, static_cast<int>(j), out);
  out << pad << "}\n" << pad << "__syncthreads(); /* the next tile reuses the rings */\n";
  return out.str();
}

/// The versions of a chunk of `p.steps` steps of `plan`, without the sweeps.
Stream make_stream(const TimeLoop &t, const TimeTilePlan &plan, const CudaTimeTileParams &p) {
  if (plan.rank < 2)
    throw std::invalid_argument("time stream: the grids need two dimensions or more, one to "
                                "stream along");
  if (p.steps < 1 || static_cast<int>(p.tile.size()) != plan.rank)
    throw std::invalid_argument("time stream: T or the tile's rank is out of range");
  Stream x{t, plan, p, {}, {}, 0, 0, 0, 0, {}, {}, {}, {}};
  x.R = plan.rank;
  x.Z = plan.rank - 1;
  x.G = static_cast<int>(plan.state.size());
  x.S = static_cast<int>(plan.stages.size());
  for (const std::string &g : plan.state) {
    x.state.push_back(t.signature.find_arg(g));
    if (!x.state.back())
      throw std::logic_error("time stream: no argument '" + g + "'");
  }
  plan_versions(x);
  return x;
}

int64_t shared_bytes(const Stream &x) {
  int64_t bytes = 0;
  for (const Version &v : x.versions) {
    int64_t n = type_bytes(x.state[v.grid]->type) * v.depth;
    for (int d = 0; d < x.Z; ++d)
      n *= x.p.tile[d] + x.p.steps * (x.plan.reach_lo[d] + x.plan.reach_hi[d]);
    bytes += (n + kAlign - 1) / kAlign * kAlign;
  }
  return bytes;
}

} // namespace

CudaTimeStream print_cuda_time_stream(const TimeLoop &t, const TimeTilePlan &plan,
                                      const std::vector<const Kernel *> &sweeps,
                                      const CudaTimeTileParams &p) {
  Stream x = make_stream(t, plan, p);
  for (const TileStage &st : plan.stages) {
    const Kernel *found = nullptr;
    for (const Kernel *k : sweeps)
      if (k->name == st.sweep)
        found = k;
    if (!found)
      throw std::logic_error("time stream: no sweep '" + st.sweep + "'");
    x.sweeps.push_back(found);
  }
  CudaTimeStream out;
  out.rings = print_rings(x);
  out.body = print_body(x);
  out.shared_bytes = shared_bytes(x);
  out.versions = static_cast<int>(x.versions.size());
  return out;
}

int64_t cuda_time_stream_shared_bytes(const TimeLoop &t, const TimeTilePlan &plan,
                                      const CudaTimeTileParams &p) {
  return shared_bytes(make_stream(t, plan, p));
}

} // namespace f2s
