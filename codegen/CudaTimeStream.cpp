#include "codegen/CudaTimeStream.h"

#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"
#include "codegen/CStmt.h"
#include "codegen/TimeStreamPlan.h"

#include <algorithm>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

/// Rings are handed out in pieces aligned to this, the largest element.
constexpr int64_t kAlign = 16;

using Version = TimeStreamVersion;
using Instance = TimeStreamInstance;

/// Everything the printers share: the pipeline, and the block's columns.
struct Stream : TimeStreamPlan {
  Stream(const TimeLoop &t, const TimeTilePlan &plan, const CudaTimeTileParams &p)
      : TimeStreamPlan(plan_time_stream(t, plan, p.steps, 1, true)), t(t), plan(plan), p(p) {
    // One barrier a plane (gap 1): a version's ring holds the planes its
    // readers reach (from..to back from its newest) and the one its maker
    // stores in the same pass (from - 1 back), a power of two deep so a
    // plane's slot is a mask.
    for (TimeStreamVersion &v : versions)
      if (v.ring) {
        int64_t depth = 1;
        while (depth < v.to - v.from + 2)
          depth *= 2;
        v.ring = depth;
      }
  }
  const TimeLoop &t;
  const TimeTilePlan &plan;
  const CudaTimeTileParams &p;
  std::vector<const Kernel *> sweeps; ///< the sweep of each stage
  int64_t columns = 1;                ///< the most columns (points of a plane) a block holds
  int M = 1;                          ///< columns a thread holds
  /// Stage instances compute wherever their sweep's loop runs (its domain),
  /// not only in the box of it the tile needs (f2s_comp, that box met with
  /// the domain): a point of the domain outside that box is outside the box
  /// the later stages and the output need of the grid it writes, so what it
  /// computes is never read where it matters, and its reads of read-only
  /// grids are the loop's own. A column then tests one bit a stage of a step,
  /// not one a stage instance (2D heat at T = 8: 100 registers to 80 in
  /// the steady passes), and the bounds are the call's, not the tile's.
  /// Only where every state grid is floating point: an integer division by
  /// what such a point computes could trap, where a floating one cannot.
  bool computes_domain = false;
  /// Elements of padding before the first ring and after the last, for
  /// the reads of those points at neighbours' columns beyond the block's
  /// (print_rings).
  int64_t pad = 0;
};

/// The block's columns and a thread's share of them.
void plan_columns(Stream &x) {
  int64_t stride = 1;
  for (int d = 0; d < x.Z; ++d) {
    int64_t span = x.p.tile[d] + x.p.steps * (x.plan.reach_lo[d] + x.plan.reach_hi[d]);
    x.columns *= span;
    // A stage reads no further than a step reaches; a row of the block's
    // columns is at most `span` long.
    x.pad += std::max(x.plan.reach_lo[d], x.plan.reach_hi[d]) * stride;
    stride *= span;
  }
  x.M = static_cast<int>((x.columns + x.p.threads - 1) / x.p.threads);
  x.computes_domain = std::all_of(x.state.begin(), x.state.end(),
                                  [](const Variable *g) { return is_float(g->type); });
}

std::string str(int64_t n) {
  return std::to_string(n);
}

/// The padding before the first ring (and after the last): reads at a
/// neighbour's column beyond the block's columns (Stream::computes_domain)
/// stay inside the block's shared memory.
int64_t pad_bytes(const Stream &x) {
  if (!x.computes_domain)
    return 0;
  int64_t widest = 0;
  for (const Variable *g : x.state)
    widest = std::max<int64_t>(widest, type_bytes(g->type));
  return (x.pad * widest + kAlign - 1) / kAlign * kAlign;
}

/// Where version v's ring starts in the block's dynamic shared memory
/// (bytes): the rings in version order, each `ring` planes of the most
/// columns a block holds, aligned to kAlign. Constants of the tile, not of
/// the call's size, so the kernel addresses every ring at a constant
/// offset and a plane at a constant stride instead of holding a pointer a
/// version in a register (2D heat at T = 8: 9 of them).
int64_t ring_offset(const Stream &x, size_t v) {
  int64_t at = pad_bytes(x);
  for (size_t u = 0; u < v; ++u)
    if (const Version &ver = x.versions[u]; ver.ring) {
      at += type_bytes(x.state[ver.grid]->type) * ver.ring * x.columns;
      at = (at + kAlign - 1) / kAlign * kAlign;
    }
  return at;
}

int64_t shared_bytes(const Stream &x) {
  return ring_offset(x, x.versions.size()) + pad_bytes(x);
}

std::string print_rings(const Stream &x) {
  std::ostringstream out;
  std::string fn = "f2s_" + x.p.symbol + "_rings";
  out << "/* The rings of " << x.p.symbol
      << " in dynamic shared memory: per version of a state grid (as loaded, then\n"
         " * as each stage of a chunk of "
      << x.p.steps
      << " steps leaves it) that a point reads at a neighbour's column,\n"
         " * its planes over the most columns a block holds ("
      << x.columns << "), whatever the grids' size. */\n"
      << "static F2S_HD long " << fn << "(const long *ext, long *offset) {\n"
      << "  (void)ext;\n";
  for (size_t v = 0; v < x.versions.size(); ++v) {
    const Version &ver = x.versions[v];
    out << "  offset[" << v << "] = " << ring_offset(x, v) << "L; /* " << x.state[ver.grid]->name
        << ", "
        << (ver.producer < 0
                ? std::string("as loaded")
                : "step " + str(ver.producer / x.S) + " stage " + str(ver.producer % x.S))
        << ": lag " << ver.lag << ", " << ver.regs << " registers, " << ver.ring
        << " planes shared */\n";
  }
  out << "  return " << shared_bytes(x) << "L;\n}\n\n";
  return out.str();
}

/// The register holding version v's plane `rel` behind its newest, at the
/// column at hand.
std::string reg(int v, int64_t rel) {
  return "f2s_c" + str(v) + "_" + str(rel) + "[f2s_m]";
}

/// The slot of version v's ring that holds plane `z`: planes count from
/// f2s_zr, which each pass sets to a plane whose slots are 0 (the depth is
/// a power of two). Outside the steady planes that is the grids' lowest
/// plane f2s_zb; in them a plane the pass knows from its phase (print_body),
/// so that z - f2s_zr, and the slot, is a constant once the passes are
/// unrolled.
std::string slot(const Stream &x, int v, const std::string &z) {
  return "(int)((unsigned)((" + z + ") - f2s_zr) & " + str(x.versions[v].ring - 1) + "u)";
}

/// Version v's shared plane `z` at the column `off` (x, y, ...) from the
/// column at hand: its place f2s_q among the block's columns plus the
/// offsets, so the neighbours' addresses are the column's and constants
/// (the strides hs<d> are the block's), not computed from coordinates.
std::string shared_element(const Stream &x, int v, const std::string &z,
                           const std::vector<int64_t> &off) {
  std::string at = slot(x, v, z) + " * " + str(x.columns) + " + f2s_q";
  for (int d = 0; d < x.Z; ++d)
    if (off[d])
      at += " + " + (d == 0 ? "" : "f2s_hs" + str(d) + " * ") + "(" + str(off[d]) + ")";
  return "f2s_s" + str(v) + "[" + at + "]";
}

/// Grid g's need box along z: its first (end 0) or last plane, read from
/// the block's shared boxes where a pass tests it. Only the planes outside
/// the steady ones test z (print_body), so a shared load there costs less
/// than the register that holding each box's bounds takes from every pass
/// (two a stage instance: at T = 8 a 2D heat tile spilled).
std::string need_z(const Stream &x, int g, int end) {
  return "(int)f2s_need[" + str(g * 2 * x.R + 2 * x.Z + end) + "]";
}
/// The other bounds along z a pass tests, also read from shared memory
/// there (f2s_zs, print_body): stage s's domain, grid g's output box and
/// the domain of its first writer (kept_outside). Held in registers, they
/// would be live across the steady planes, which do not test them (2D
/// heat at T = 8: 110 registers to 88; in dynamic shared memory, after a
/// pointer to it, 118).
std::string dom_z(const Stream &x, int s, int end) {
  (void)x;
  return "f2s_zs[" + str(2 * s + end) + "]";
}
std::string out_z(const Stream &x, int g, int end) {
  return "f2s_zs[" + str(2 * x.S + 2 * g + end) + "]";
}
std::string kept_z(const Stream &x, int g, int end) {
  return "f2s_zs[" + str(2 * x.S + 2 * x.G + 2 * g + end) + "]";
}
/// The same for the box stage instance j computes (Stream::computes_domain:
/// its sweep's domain, the call's).
std::string comp_z(const Stream &x, int j, int end) {
  if (x.computes_domain)
    return dom_z(x, x.instances[j].stage, end);
  return "(int)f2s_comp[" + str(j * 2 * x.R + 2 * x.Z + end) + "]";
}

/// The bits of a column's x-y tests (print_body finds them once a tile):
/// per stage instance j, where it computes (bit j; with
/// Stream::computes_domain, per stage s of a step, its sweep's domain, bit
/// s); then, C being that count, per state grid g, its need box (bit C + g)
/// and its output box (bit C + G + g).
int comp_bits(const Stream &x) {
  return x.computes_domain ? x.S : static_cast<int>(x.instances.size());
}
int comp_bit(const Stream &x, int j) {
  return x.computes_domain ? x.instances[j].stage : j;
}
int need_bit(const Stream &x, int g) {
  return comp_bits(x) + g;
}
int out_bit(const Stream &x, int g) {
  return comp_bits(x) + x.G + g;
}
/// Per state grid g, the domain of the stage that writes it first in a
/// chunk (bit C + 2G + g; see kept_outside).
int dom_bit(const Stream &x, int g) {
  return comp_bits(x) + 2 * x.G + g;
}
int xy_words(const Stream &x) {
  return (dom_bit(x, x.G - 1) + 64) / 64;
}

/// The instance that writes grid g first in a chunk, where the chunk reads
/// g as loaded only outside that instance's box (b of a ping-pong, unew of
/// a copy back: no stage reads it before, and its first writer does not
/// read it at the point), so g is loaded only where it does not compute;
/// -1 otherwise.
int first_writer(const Stream &x, int g) {
  if (x.versions[g].read)
    return -1;
  for (size_t j = 0; j < x.instances.size(); ++j)
    if (x.instances[j].prev[g] == g && !x.instances[j].reads_itself)
      return static_cast<int>(j);
  return -1;
}

/// first_writer, where that instance loops over every dimension. The next
/// chunk then loads g only outside its domain, so a chunk but the call's
/// last need write g only there: a ping-pong's chunk moves one grid, not
/// two. A first writer at a constant plane (FDTD's source edge) writes too
/// little of g to gain, and cuda_time_stream_moved would call a grid moved
/// nearly whole unmoved.
int kept_outside(const Stream &x, int g) {
  int j = first_writer(x, g);
  if (j < 0)
    return -1;
  const std::vector<std::string> &vars = x.plan.stages[x.instances[j].stage].vars;
  return std::none_of(vars.begin(), vars.end(), [](const std::string &v) { return v.empty(); })
             ? j
             : -1;
}

/// The column at hand, at plane `z`, lies in the box whose x-y test is
/// `bit` and whose extent along z is [z0, z1]: the x-y part, the same at
/// every plane, was found once per tile; the z part is the block's, left
/// out in the steady planes (print_body), where it holds.
std::string inside(int bit, const std::string &z0, const std::string &z1, const std::string &z,
                   bool steady = false) {
  std::string xy = "(f2s_xy" + str(bit / 64) + "[f2s_m] >> " + str(bit % 64) + " & 1ULL)";
  return steady ? xy : xy + " && " + z0 + " <= " + z + " && " + z + " <= " + z1;
}
/// The same for stage instance j's box, grid g's need box and output box.
std::string inside_comp(const Stream &x, int j, const std::string &z, bool steady = false) {
  return inside(comp_bit(x, j), comp_z(x, j, 0), comp_z(x, j, 1), z, steady);
}
std::string inside_need(const Stream &x, int g, const std::string &z, bool steady = false) {
  return inside(need_bit(x, g), need_z(x, g, 0), need_z(x, g, 1), z, steady);
}
std::string inside_out(const Stream &x, int g, const std::string &z, bool steady = false) {
  return inside(out_bit(x, g), out_z(x, g, 0), out_z(x, g, 1), z, steady);
}

/// Stage instance j loops over the streamed dimension (not a stage at a
/// constant plane of it, such as a surface sweep): its z tests hold in the
/// steady planes.
bool streams(const Stream &x, int j) {
  return !x.plan.stages[x.instances[j].stage].vars[x.Z].empty();
}

/// Grid k's element in memory at the column at hand and plane z: the
/// column's part of the offset was found once per tile (f2s_at<k>).
std::string memory_element(const Stream &x, int k, const std::string &base, const std::string &z) {
  return base + "[f2s_at" + str(k) + "[f2s_m] + f2s_x" + str(k) + "_s" + str(x.Z) + " * (long)(" +
         z + ")]";
}

/// Whether the steady passes run every thread's columns, also those beyond
/// the tile's (f2s_q >= f2s_hpl: the last tile of a dimension, a chunk
/// shorter than the time tile), rather than test each at each stage: where
/// every such column has its place in the rings (the threads hold exactly
/// the block's columns) and the rings have their padding
/// (Stream::computes_domain). Such a column lies beyond every need box, so
/// it loads nothing, stores nothing, and what it computes or leaves in its
/// ring place is read by no point a later stage needs, as at the columns
/// inside the block but outside a stage's box. The tests were a branch
/// around every stage of every pass (2D heat at T = 8: 8 a pass).
bool steady_untested(const Stream &x) {
  return x.computes_domain && x.p.threads * x.M == x.columns;
}

/// `for each column the thread holds` (unrolled: the registers' indices
/// are constants), with f2s_x<d> its coordinates (where `coordinates`)
/// and f2s_q its place among the block's columns; in a steady pass, those
/// beyond the tile's too where steady_untested.
void print_columns(const Stream &x, const std::string &pad, std::ostringstream &out,
                   bool coordinates = true, bool steady = false) {
  out << pad << "#pragma unroll\n"
      << pad << "for (int f2s_m = 0; f2s_m < " << x.M << "; ++f2s_m) {\n"
      << pad << "  const int f2s_q = (int)threadIdx.x + f2s_m * " << x.p.threads << ";\n";
  if (steady && steady_untested(x))
    out << pad
        << "  (void)f2s_q; /* the loads and a renamed copy back's stores do not read it */\n";
  else
    out << pad << "  if (f2s_q >= f2s_hpl)\n" << pad << "    continue;\n";
  for (int d = 0; d < x.Z && coordinates; ++d)
    out << pad << "  const int f2s_x" << d << " = f2s_col" << d << "[f2s_m];\n"
        << pad << "  (void)f2s_x" << d << "; /* a stage at a constant plane may not need it */\n";
}

/// The registers of version v move one plane back.
void print_shift(const Stream &x, int v, const std::string &pad, std::ostringstream &out) {
  for (int64_t r = x.versions[v].regs - 1; r >= 1; --r)
    out << pad << reg(v, r) << " = " << reg(v, r - 1) << ";\n";
}

/// Version v's plane that neighbours read first in the next plane's pass,
/// from its register to its ring, where that plane is one of grid g's need
/// box. Nobody reads it in this pass (their planes are at least `from`
/// back), so the barrier at the end of the pass is the only one it needs.
void print_to_ring(const Stream &x, int v, const std::string &newest, const std::string &pad,
                   std::ostringstream &out, bool steady = false) {
  const Version &ver = x.versions[v];
  if (!ver.ring)
    return;
  std::string z = "(" + newest + ") - " + str(ver.from - 1);
  if (!steady)
    out << pad << "if (" << need_z(x, ver.grid, 0) << " <= " << z << " && " << z
        << " <= " << need_z(x, ver.grid, 1) << ")\n";
  out << pad << "  f2s_s" << v << "[" << slot(x, v, z) << " * " << x.columns
      << " + f2s_q] = " << reg(v, ver.from - 1) << ";\n";
}

/// Where stage instance j writes grid g last in a chunk of its step's
/// length: g's plane f2s_z from the version j makes to the other version in
/// memory, over the output box.
void print_done(const Stream &x, int j, int g, const std::string &pad, std::ostringstream &out,
                bool steady) {
  const Instance &in = x.instances[j];
  if (x.last[in.step][g] != j)
    return;
  std::string n = c_name(x.state[g]->name);
  std::string keep;
  if (kept_outside(x, g) >= 0)
    keep = " && (a.f2s_last || !(" +
           inside(dom_bit(x, g), kept_z(x, g, 0), kept_z(x, g, 1), "f2s_z", steady) + "))";
  out << pad << "if (f2s_nsteps == " << in.step + 1 << " && " << inside_out(x, g, "f2s_z", steady)
      << keep << ") /* " << x.state[g]->name << " done: to the other version */\n"
      << pad << "  " << memory_element(x, g, "a.f2s_dst_" + n, "f2s_z") << " = "
      << reg(in.writes[g], 0) << ";\n";
}

/// A renamed copy back (TimeStreamInstance::renamed): nothing to compute,
/// and where its step is a chunk's last, the grid it writes from the
/// version it reads.
void print_renamed(const Stream &x, int j, std::ostringstream &out, bool steady) {
  const Instance &in = x.instances[j];
  const int g = x.state_index(x.plan.stages[in.stage].writes[0]);
  if (x.last[in.step][g] != j)
    return;
  std::string pad = "      ";
  out << pad << "if (" << in.step << " < f2s_nsteps) { /* step " << in.step << ", stage "
      << in.stage << ": the copy back " << x.state[g]->name << " = "
      << x.plan.stages[in.stage].copy_of << ", renamed */\n"
      << pad << "  const int f2s_z = f2s_wz - " << in.lag << "; /* its plane */\n";
  print_columns(x, pad + "  ", out, false, steady);
  print_done(x, j, g, pad + "    ", out, steady && streams(x, j));
  out << pad << "  }\n" << pad << "}\n";
}

/// Stage instance of `sweep` computes at every column the thread holds and
/// keeps, by a select, the version it continues where it is outside its
/// domain, instead of branching around its statements: where a stage's
/// statements are a branch, the registers of every version it touches meet
/// at the branch's end and the compiler moves them there, which unrolling
/// the steady passes no longer renames (2D heat at T = 8: 180 PTX
/// instructions a steady pass against 103 for the hand-written form in
/// bench/gpu/probe_time_stream.cu, which selects). Only where what the
/// stage computes outside its domain is harmless: floating-point state
/// grids (Stream::computes_domain, whose padding keeps a border column's
/// reads of its neighbours inside shared memory) and no read-only grid,
/// which would be read outside the loop's bounds, perhaps outside the
/// array.
bool computes_everywhere(const Stream &x, const Kernel &sweep) {
  if (!x.computes_domain)
    return false;
  for (const Variable &v : x.t.signature.args)
    if (v.is_grid() && x.state_index(v.name) < 0 && sweep.find_arg(v.name))
      return false;
  return true;
}

/// One stage instance at the plane of the wavefront it computes.
void print_instance(const Stream &x, int j, std::ostringstream &out, bool steady) {
  steady = steady && streams(x, j);
  const Instance &in = x.instances[j];
  const TileStage &st = x.plan.stages[in.stage];
  const Kernel &sweep = *x.sweeps[in.stage];
  const Kernel &k = x.t.signature;
  std::string pad = "      ";
  if (in.renamed) {
    print_renamed(x, j, out, steady);
    return;
  }
  out << pad << "if (" << in.step << " < f2s_nsteps) { /* step " << in.step << ", stage "
      << in.stage << ": sweep " << st.sweep << " */\n";
  std::string p1 = pad + "  ";
  out << p1 << "const int f2s_z = f2s_wz - " << in.lag << "; /* its plane */\n";
  bool reads_time = sweep.find_arg(x.t.var) != nullptr;
  if (const Variable *tv = k.find_arg(x.t.var); tv && reads_time)
    out << p1 << "const " << c_type(tv->type) << " " << c_name(x.t.var) << " = ("
        << c_type(tv->type) << ")((long)a.f2s_tlo + (a.f2s_first + " << in.step
        << ") * (long)a.f2s_tstep); /* this step's */\n";
  // Grids only read: where they are, addressed as the sweep addresses them
  // (their layout may depend on the time variable).
  for (const Variable &v : k.args) {
    if (!v.is_grid() || x.state_index(v.name) >= 0 || !sweep.find_arg(v.name))
      continue;
    std::string n = c_name(v.name);
    out << p1 << "const " << c_type(v.type) << " *__restrict__ " << n << " = a." << n << ";\n"
        << print_c_grid_layout(k, v, p1);
  }
  print_columns(x, p1, out, true, steady);
  std::string p2 = p1 + "  ";
  for (int g = 0; g < x.G; ++g)
    if (in.writes[g] >= 0)
      print_shift(x, in.writes[g], p2, out);
  // Where it does not compute, each grid it writes is the version it
  // continues (and where it reads that grid itself, before it computes).
  auto continues = [&](int g) { return reg(in.prev[g], in.lag - x.versions[in.prev[g]].lag); };
  auto continued = [&](const std::string &pad3) {
    for (int g = 0; g < x.G; ++g)
      if (in.writes[g] >= 0)
        out << pad3 << reg(in.writes[g], 0) << " = " << continues(g) << ";\n";
  };
  // Stages that select (computes_everywhere) keep the version they continue
  // in a constant, compute, and take it back outside their domain.
  const bool everywhere = computes_everywhere(x, sweep);
  if (everywhere) {
    out << p2 << "{\n";
    for (int g = 0; g < x.G; ++g)
      if (in.writes[g] >= 0)
        out << p2 << "  const " << c_type(x.state[g]->type) << " f2s_k" << g << " = "
            << continues(g) << ";\n"
            << p2 << "  " << reg(in.writes[g], 0) << " = f2s_k" << g << ";\n";
  } else {
    out << p2 << "if (" << inside_comp(x, j, "f2s_z", steady) << ") {\n";
  }
  std::string p3 = p2 + "  ";
  if (in.reads_itself && !everywhere)
    continued(p3);
  // The loop variables; a sweep whose neighbours all come from registers
  // and rings (addressed from the column) may use none of them.
  for (int d = 0; d < x.R; ++d)
    if (!st.vars[d].empty())
      out << p3 << "const int " << c_name(st.vars[d]) << " = "
          << (d == x.Z ? std::string("f2s_z") : "f2s_x" + str(d)) << "; /* a Fortran INTEGER */\n"
          << p3 << "(void)" << c_name(st.vars[d]) << ";\n";
  for (const Variable &tmp : sweep.temps)
    out << p3 << c_type(tmp.type) << " " << c_name(tmp.name) << ";\n";
  std::vector<const For *> loops = perfect_nest(sweep.body);
  std::ostringstream point;
  CStmtPrinter printer(sweep, point);
  // State grids: a grid the stage writes in the newest register of the
  // version it makes; any other in the version it reads, the point's own
  // column in registers, a neighbour's in the version's ring.
  printer.set_element_hook([&x, &in,
                            &st](const std::string &grid,
                                 const std::vector<Index> &ix) -> std::optional<std::string> {
    int g = x.state_index(grid);
    if (g < 0)
      return std::nullopt;
    std::vector<int64_t> off(x.R);
    for (int d = 0; d < x.R; ++d)
      off[d] = st.vars[d].empty() ? ix[d].offset - st.constant[d] : ix[d].offset;
    if (in.writes[g] >= 0 && std::all_of(off.begin(), off.end(), [](int64_t o) { return o == 0; }))
      return reg(in.writes[g], 0);
    int v = in.reads[g];
    if (v < 0)
      throw std::logic_error("time stream: '" + grid + "' is neither read nor written");
    if (x.centre(off))
      return reg(v, in.lag - off[x.Z] - x.versions[v].lag);
    // Offsets are from the point computed, which is at the column at hand
    // (a stage at a constant plane of d computes only where the column is
    // there).
    return shared_element(x, v, CExprPrinter::subscript(ix[x.Z]), off);
  });
  printer.print(loops.back()->body, static_cast<int>(p3.size() / 2));
  out << point.str();
  if (everywhere) {
    out << p3 << "const bool f2s_in = " << inside_comp(x, j, "f2s_z", steady) << ";\n";
    for (int g = 0; g < x.G; ++g)
      if (in.writes[g] >= 0)
        out << p3 << reg(in.writes[g], 0) << " = f2s_in ? " << reg(in.writes[g], 0) << " : f2s_k"
            << g << ";\n";
  } else {
    out << p2 << "} else {\n";
    continued(p3);
  }
  out << p2 << "}\n";
  for (int g = 0; g < x.G; ++g) {
    if (in.writes[g] < 0)
      continue;
    print_to_ring(x, in.writes[g], "f2s_z", p2, out, steady);
    print_done(x, j, g, p2, out, steady);
  }
  out << p1 << "}\n" << pad << "}\n";
}

/// The 32-bit registers the columns' planes take in one thread (every
/// version's, times the columns a thread holds).
int64_t column_registers(const Stream &x) {
  int64_t words = 0;
  for (const Version &v : x.versions)
    words += v.regs * ((type_bytes(x.state[v.grid]->type) + 3) / 4);
  return words * x.M;
}

/// The steady passes go in groups with constant ring slots (print_body)
/// where the columns' registers take less than 3/8 of those a thread may have
/// in a block of p.threads. With constant slots ptxas (CUDA 13.0, sm_90)
/// needs fewer registers where they leave room, more spill where they do
/// not (registers/spilled bytes, the untuned tiles, constant slots against
/// slots computed from the plane; the share in parentheses):
///   2D heat T = 8 (54 of 255: 0.21)     88/0 against 111/0
///   2D heat T = 12 (78 of 255: 0.31)    128/28 against 163/0 (two blocks an SM, not one)
///   2D 9-point T = 4 (86 of 255: 0.34)  178/0 against 204/0
///   2D FDTD T = 4 (92 of 255: 0.36)     185/0 against 214/0
///   3D 7-point T = 2 (30 of 128: 0.23)  103/0 against 108/0
///   3D 7-point T = 3 (42 of 112: 0.38)  96/156 against 96/32
///   3D 27-point T = 3 (66 of 152: 0.43) 128/48 against 128/0
///   2D FDTD T = 8 (180 of 255: 0.71)    255/768 against 255/276
bool constant_slots(const Stream &x) {
  int64_t warps = (x.p.threads + 31) / 32;
  int64_t most = std::min<int64_t>(255, kMultiprocessorRegisters / (warps * 32) / 8 * 8);
  return 8 * column_registers(x) < 3 * most;
}

std::string print_body(const Stream &x) {
  std::ostringstream out;
  const int R = x.R, Z = x.Z, G = x.G;
  std::string pad = "    ";
  out << pad << "/* Streaming along dimension " << Z + 1
      << ": the block's columns, the hull of the need boxes but z. */\n"
      << pad << "long f2s_hull[" << 2 * R << "];\n"
      << pad << "f2s_box_set_empty(f2s_hull, " << R << ");\n"
      << pad << "for (int f2s_g = 0; f2s_g < " << G << "; ++f2s_g)\n"
      << pad << "  f2s_box_hull(f2s_hull, f2s_need + f2s_g * " << 2 * R << ", " << R << ");\n";
  for (int d = 0; d < Z; ++d)
    out << pad << "const int f2s_hlo" << d << " = (int)f2s_hull[" << 2 * d << "], f2s_he" << d
        << " = (int)f2s_max_long(f2s_hull[" << 2 * d + 1 << "] - f2s_hull[" << 2 * d
        << "] + 1, 0L);\n";
  for (int d = 1; d < Z; ++d)
    out << pad << "const int f2s_hs" << d << " = " << (d == 1 ? "" : "f2s_hs" + str(d - 1) + " * ")
        << "f2s_he" << d - 1 << ";\n";
  out << pad << "const int f2s_hpl = 1";
  for (int d = 0; d < Z; ++d)
    out << " * f2s_he" << d;
  out << "; /* at most " << x.columns << " */\n";
  out << pad << "/* The columns this thread holds. */\n";
  for (int d = 0; d < Z; ++d)
    out << pad << "int f2s_col" << d << "[" << x.M << "];\n";
  out << pad << "for (int f2s_m = 0; f2s_m < " << x.M << "; ++f2s_m) {\n"
      << pad << "  int f2s_rest = (int)threadIdx.x + f2s_m * " << x.p.threads << ";\n";
  for (int d = 0; d < Z; ++d) {
    out << pad << "  f2s_col" << d << "[f2s_m] = f2s_hlo" << d << " + "
        << (d + 1 < Z ? "f2s_rest % (f2s_he" + str(d) + " > 0 ? f2s_he" + str(d) + " : 1)"
                      : "f2s_rest")
        << ";\n";
    if (d + 1 < Z)
      out << pad << "  f2s_rest /= f2s_he" << d << " > 0 ? f2s_he" << d << " : 1;\n";
  }
  out << pad << "}\n";
  out << pad << "/* Each version's registers and ring. */\n";
  for (size_t v = 0; v < x.versions.size(); ++v) {
    const Version &ver = x.versions[v];
    std::string t = c_type(x.state[ver.grid]->type);
    out << pad << t;
    for (int64_t r = 0; r < ver.regs; ++r)
      out << (r ? ", " : " ") << "f2s_c" << v << "_" << r << "[" << x.M << "] = {0}";
    out << ";\n";
    if (ver.ring)
      out << pad << t << " *const f2s_s" << v << " = (" << t << " *)(f2s_smem + "
          << ring_offset(x, v) << ");\n";
  }
  // What each column holds does not change along z: its x-y tests (a bit
  // per box, comp_bit and the others) and its offset in each grid are found once a
  // tile, so the planes test only z, against the block's bounds.
  for (int g = 0; g < G; ++g)
    if (int j = kept_outside(x, g); j >= 0) {
      int64_t at = int64_t(x.instances[j].stage) * 2 * R + 2 * Z;
      out << pad << "/* Along z, the domain of " << x.state[g]->name
          << "'s first writer: the next chunk loads it only outside. */\n"
          << pad << "const int f2s_d" << g << "_z0 = (int)f2s_dom[" << at << "], f2s_d" << g
          << "_z1 = (int)f2s_dom[" << at + 1 << "];\n";
    }
  for (int g = 0; g < G; ++g) {
    std::string K = str(g);
    out << pad << "/* " << x.state[g]->name << "'s output box along z */\n"
        << pad << "const int f2s_w" << K << "_z0 = (int)f2s_max_long(f2s_out[" << 2 * Z
        << "], f2s_x" << K << "_lo" << Z << "), f2s_w" << K << "_z1 = (int)f2s_min_long(f2s_out["
        << 2 * Z + 1 << "], f2s_x" << K << "_hi" << Z << ");\n"
        << pad << "long f2s_at" << K << "[" << x.M << "]; /* the column's offset in "
        << x.state[g]->name << ", but z's */\n";
  }
  out << pad << "/* The bounds along z the tested passes read (dom_z and the others). */\n"
      << pad << "__shared__ int f2s_zs[" << cuda_time_stream_static_bytes(*x.tiles) / 4 << "];\n"
      << pad << "if (threadIdx.x == 0) {\n";
  for (int st = 0; st < x.S; ++st)
    for (int end = 0; end < 2; ++end)
      out << pad << "  " << dom_z(x, st, end) << " = (int)f2s_dom[" << st * 2 * R + 2 * Z + end
          << "];\n";
  for (int g = 0; g < G; ++g) {
    out << pad << "  " << out_z(x, g, 0) << " = f2s_w" << g << "_z0;\n"
        << pad << "  " << out_z(x, g, 1) << " = f2s_w" << g << "_z1;\n";
    if (kept_outside(x, g) >= 0)
      out << pad << "  " << kept_z(x, g, 0) << " = f2s_d" << g << "_z0;\n"
          << pad << "  " << kept_z(x, g, 1) << " = f2s_d" << g << "_z1;\n";
  }
  out << pad << "}\n" << pad << "__syncthreads();\n";
  const int words = xy_words(x);
  for (int w = 0; w < words; ++w)
    out << pad << "unsigned long long f2s_xy" << w << "[" << x.M << "];\n";
  out << pad << "for (int f2s_m = 0; f2s_m < " << x.M << "; ++f2s_m) {\n";
  std::string cp = pad + "  ";
  for (int d = 0; d < Z; ++d)
    out << cp << "const long f2s_x" << d << " = f2s_col" << d << "[f2s_m];\n";
  for (int w = 0; w < words; ++w)
    out << cp << "f2s_xy" << w << "[f2s_m] = 0;\n";
  // x-y of a flat box `box` (an expression indexing [lo0, hi0, ...]).
  auto xy_test = [&](const std::string &box, int bit) {
    out << cp << "f2s_xy" << bit / 64 << "[f2s_m] |= (unsigned long long)(";
    for (int d = 0; d < Z; ++d)
      out << (d ? " && " : "") << box << 2 * d << "] <= f2s_x" << d << " && f2s_x" << d
          << " <= " << box << 2 * d + 1 << "]";
    out << ") << " << bit % 64 << ";\n";
  };
  for (int j = 0; j < comp_bits(x); ++j)
    xy_test(x.computes_domain ? "f2s_dom[" + str(j * 2 * R) + " + "
                              : "f2s_comp[" + str(j * 2 * R) + " + ",
            j);
  for (int g = 0; g < G; ++g)
    xy_test("f2s_need[" + str(g * 2 * R) + " + ", need_bit(x, g));
  for (int g = 0; g < G; ++g)
    if (int j = kept_outside(x, g); j >= 0)
      xy_test("f2s_dom[" + str(int64_t(x.instances[j].stage) * 2 * R) + " + ", dom_bit(x, g));
  for (int g = 0; g < G; ++g) {
    std::string K = str(g);
    out << cp << "f2s_xy" << out_bit(x, g) / 64 << "[f2s_m] |= (unsigned long long)(";
    for (int d = 0; d < Z; ++d)
      out << (d ? " && " : "") << "f2s_max_long(f2s_out[" << 2 * d << "], f2s_x" << K << "_lo" << d
          << ") <= f2s_x" << d << " && f2s_x" << d << " <= f2s_min_long(f2s_out[" << 2 * d + 1
          << "], f2s_x" << K << "_hi" << d << ")";
    out << ") << " << out_bit(x, g) % 64 << ";\n";
    out << cp << "f2s_at" << K << "[f2s_m] = ";
    for (int d = 0; d < Z; ++d)
      out << (d ? " + f2s_x" + K + "_s" + str(d) + " * " : "") << "(f2s_x" << d << " - f2s_x" << K
          << "_lo" << d << ")";
    out << " - f2s_x" << K << "_s" << Z << " * f2s_x" << K << "_lo" << Z << ";\n";
  }
  out << pad << "}\n";
  // The wavefront: from the first plane any grid needs to the last plus the
  // chunk's largest lag.
  std::string zlo = "f2s_need[" + str(2 * Z) + "]", zhi = "f2s_need[" + str(2 * Z + 1) + "]";
  for (int g = 1; g < G; ++g) {
    zlo = "f2s_min_long(" + zlo + ", f2s_need[" + str(g * 2 * R + 2 * Z) + "])";
    zhi = "f2s_max_long(" + zhi + ", f2s_need[" + str(g * 2 * R + 2 * Z + 1) + "])";
  }
  // The chunk's largest lag, by its length: a chain of conditionals, not
  // an array indexed at run time (which went to local memory).
  std::string lag = str(x.lag_max[x.p.steps]);
  for (int n = x.p.steps - 1; n >= 0; --n)
    lag = "(f2s_nsteps <= " + str(n) + " ? " + str(x.lag_max[n]) + " : " + lag + ")";
  out << pad << "/* Planes in rings are never below the grids' bounds: they count from there. */\n"
      << pad << "const int f2s_zb = (int)f2s_h_lo" << Z << ";\n"
      << pad << "const int f2s_z0 = (int)" << zlo << ", f2s_z1 = (int)" << zhi << " + " << lag
      << "; /* the chunk's largest lag */\n";
  // Where each grid's plane z is loaded. A grid no stage reads before
  // writing it (b of a ping-pong, unew of a copy back) is needed only where
  // its first writer does not compute.
  auto loaded = [&](int g, const std::string &z, bool steady) {
    int j = first_writer(x, g);
    std::string skip = j < 0 ? "" : " && !(" + inside_comp(x, j, z, steady && streams(x, j)) + ")";
    return inside_need(x, g, z, steady) + skip;
  };
  // The loads of plane z + 1 are issued before the stages compute plane z
  // (into f2s_ld<g>), so their latency hides behind the stages' work
  // instead of stalling the block at every plane.
  auto prefetch = [&](const std::string &z, const std::string &pad1, bool steady) {
    print_columns(x, pad1, out, false, steady);
    for (int g = 0; g < G; ++g)
      out << pad1 << "  if (" << loaded(g, z, steady) << ")\n"
          << pad1 << "    f2s_ld" << g << "[f2s_m] = __ldg(&"
          << memory_element(x, g, "a.f2s_src_" + c_name(x.state[g]->name), z) << ");\n";
    out << pad1 << "}\n";
  };
  for (int g = 0; g < G; ++g)
    out << pad << c_type(x.state[g]->type) << " f2s_ld" << g << "[" << x.M << "] = {0};\n";
  prefetch("f2s_z0", pad, false);
  // The steady planes [f2s_sa, f2s_sb]: those where every z test of a pass
  // holds (each load, its prefetch of the next plane and its ring within its
  // grid's need box; each running stage instance's plane within its box, its
  // rings' planes within their need boxes, its output plane within the
  // output box and its grid's first writer's domain), all but the chunk's
  // first and last few planes of a segment. There a pass tests only the
  // columns' x-y bits. A stage at a constant plane of z keeps its tests.
  out << pad << "/* The steady planes: every z test of a pass holds. */\n"
      << pad
      << "int f2s_sa = f2s_z0, f2s_sb = f2s_z1 - 1; /* the prefetch reads the next plane */\n";
  auto within = [&](const std::string &pad1, const std::string &lo, const std::string &hi,
                    int64_t shift) {
    out << pad1 << "f2s_sa = (int)f2s_max_long(f2s_sa, (long)(" << lo << ") + " << shift << ");\n"
        << pad1 << "f2s_sb = (int)f2s_min_long(f2s_sb, (long)(" << hi << ") + " << shift << ");\n";
  };
  for (int g = 0; g < G; ++g) {
    within(pad, need_z(x, g, 0), need_z(x, g, 1) + " - 1", 0);
    if (int j = first_writer(x, g); j >= 0 && streams(x, j)) {
      within(pad, comp_z(x, j, 0), comp_z(x, j, 1) + " - 1", 0);
    }
    if (x.versions[g].ring)
      within(pad, need_z(x, g, 0), need_z(x, g, 1), x.versions[g].from - 1);
  }
  for (size_t j = 0; j < x.instances.size(); ++j) {
    const Instance &in = x.instances[j];
    if (!streams(x, static_cast<int>(j)))
      continue;
    out << pad << "if (" << in.step << " < f2s_nsteps) {\n";
    std::string p1 = pad + "  ";
    within(p1, comp_z(x, static_cast<int>(j), 0), comp_z(x, static_cast<int>(j), 1), in.lag);
    for (int g = 0; g < G; ++g) {
      if (in.writes[g] < 0)
        continue;
      const Version &v = x.versions[in.writes[g]];
      if (v.ring && !in.renamed) // a renamed copy's ring is its maker's
        within(p1, need_z(x, g, 0), need_z(x, g, 1), in.lag + v.from - 1);
      if (x.last[in.step][g] != static_cast<int>(j))
        continue;
      within(p1, "f2s_w" + str(g) + "_z0", "f2s_w" + str(g) + "_z1", in.lag);
      if (kept_outside(x, g) >= 0)
        within(p1, "f2s_d" + str(g) + "_z0", "f2s_d" + str(g) + "_z1", in.lag);
    }
    out << pad << "}\n";
  }
  out << pad << "if (f2s_sa > f2s_sb) /* none */\n" << pad << "  f2s_sa = f2s_z1 + 1;\n";
  if (constant_slots(x)) {
    int64_t depth = 1;
    for (const Version &v : x.versions)
      depth = std::max(depth, v.ring);
    out << pad << "/* Groups of passes start where every ring's slot is 0. */\n"
        << pad << "f2s_sa += (int)((unsigned)(f2s_zb - f2s_sa) & " << depth - 1 << "u);\n";
  }
  // One pass: each grid's plane f2s_wz in, the next plane's loads issued,
  // every stage instance at its plane, one barrier.
  auto pass = [&](bool steady, const std::string &in) {
    out << in << "/* Each grid's plane f2s_wz, loaded the plane before. */\n";
    print_columns(x, in, out, false, steady);
    for (int g = 0; g < G; ++g) {
      print_shift(x, g, in + "  ", out);
      out << in << "  if (" << loaded(g, "f2s_wz", steady) << ")\n"
          << in << "    " << reg(g, 0) << " = f2s_ld" << g << "[f2s_m];\n";
      print_to_ring(x, g, "f2s_wz", in + "  ", out, steady);
    }
    out << in << "}\n";
    if (steady) {
      prefetch("f2s_wz + 1", in, true);
    } else {
      out << in << "if (f2s_wz < f2s_z1) {\n";
      prefetch("f2s_wz + 1", in + "  ", false);
      out << in << "}\n";
    }
    for (size_t j = 0; j < x.instances.size(); ++j)
      print_instance(x, static_cast<int>(j), out, steady);
    out << in << "__syncthreads(); /* the pass's planes to the rings, for the next pass */\n";
  };
  // The steady planes' loop is unrolled P passes deep, P as deep as every
  // register ring and every shared ring divides, so that the compiler
  // renames the registers instead of moving every value one plane back at
  // every plane (3D ping-pong at T = 1: 25% faster, H200). Where the
  // registers leave room (constant_slots), the passes also go in groups
  // of P starting at a plane whose ring slots are all 0 (f2s_sa is moved up
  // to one), so that every slot is a constant of the pass's phase f2s_ph;
  // the last steady planes that make no whole group take the tested pass.
  // Either way the pass is printed once: printing P passes with their
  // constants made the emulated tests' compiles 30 times longer
  // (bench/RESULTS.md).
  int64_t group = 1;
  for (const Version &v : x.versions)
    for (int64_t d : {v.regs, v.ring})
      if (d > 1)
        group = std::lcm(group, d);
  std::string in = pad + "  ";
  out << pad << "for (int f2s_wz = f2s_z0; f2s_wz <= f2s_z1; ++f2s_wz) {\n"
      << in << "if (f2s_wz == f2s_sa) {\n";
  if (constant_slots(x)) {
    out << in << "  while (f2s_wz + " << group - 1 << " <= f2s_sb) {\n"
        << in << "    #pragma unroll\n"
        << in << "    for (int f2s_ph = 0; f2s_ph < " << group << "; ++f2s_ph, ++f2s_wz) {\n"
        << in << "      const int f2s_zr = f2s_wz - f2s_ph; /* its slots are 0 */\n";
    pass(true, in + "      ");
    out << in << "    }\n" << in << "  }\n";
  } else {
    if (group > 1)
      out << in << "  #pragma unroll " << group << "\n";
    out << in << "  for (; f2s_wz <= f2s_sb; ++f2s_wz) {\n"
        << in << "    const int f2s_zr = f2s_zb;\n";
    pass(true, in + "    ");
    out << in << "  }\n" << in << "  if (f2s_wz > f2s_z1)\n" << in << "    break;\n";
  }
  out << in << "}\n" << in << "const int f2s_zr = f2s_zb;\n";
  pass(false, in);
  out << pad << "}\n" << pad << "__syncthreads(); /* the next tile's boxes replace this one's */\n";
  return out.str();
}

/// The versions of a chunk of `p.steps` steps of `plan`, without the sweeps.
Stream make_stream(const TimeLoop &t, const TimeTilePlan &plan, const CudaTimeTileParams &p) {
  if (plan.rank < 2)
    throw std::invalid_argument("time stream: the grids need two dimensions or more, one to "
                                "stream along");
  if (p.steps < 1 || static_cast<int>(p.tile.size()) != plan.rank)
    throw std::invalid_argument("time stream: T or the tile's rank is out of range");
  Stream x(t, plan, p);
  plan_columns(x);
  return x;
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
  const int64_t regs = (column_registers(x) + kStreamKernelRegisters + 7) / 8 * 8;
  const int64_t block = regs * x.p.threads;
  out.min_blocks =
      2 * block <= kMultiprocessorRegisters && 30 * block > 11 * kMultiprocessorRegisters ? 2 : 1;
  return out;
}

int64_t cuda_time_stream_shared_bytes(const TimeLoop &t, const TimeTilePlan &plan,
                                      const CudaTimeTileParams &p) {
  return shared_bytes(make_stream(t, plan, p));
}

int64_t cuda_time_stream_registers(const TimeLoop &t, const TimeTilePlan &plan,
                                   const CudaTimeTileParams &p) {
  return column_registers(make_stream(t, plan, p));
}

int64_t cuda_time_stream_static_bytes(const TimeTilePlan &plan) {
  return 4 * (2 * int64_t(plan.stages.size()) + 4 * int64_t(plan.state.size()));
}

std::vector<bool> cuda_time_stream_moved(const TimeLoop &t, const TimeTilePlan &plan,
                                         const CudaTimeTileParams &p) {
  Stream x = make_stream(t, plan, p);
  std::vector<bool> moved(x.G);
  for (int g = 0; g < x.G; ++g)
    moved[g] = kept_outside(x, g) < 0;
  return moved;
}

int64_t cuda_time_stream_columns(const TimeTilePlan &plan, const CudaTimeTileParams &p) {
  int64_t n = 1;
  for (int d = 0; d + 1 < plan.rank; ++d)
    n *= p.tile[d] + p.steps * (plan.reach_lo[d] + plan.reach_hi[d]);
  return n;
}

} // namespace f2s
