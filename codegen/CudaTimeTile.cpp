#include "codegen/CudaTimeTile.h"

#include "ast/IRPrinter.h"

#include "codegen/CTimeLoop.h"

#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"
#include "codegen/CStmt.h"
#include "codegen/CTimeTile.h"
#include "codegen/CudaTimeStream.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

/// Shared memory is handed out per state grid in pieces aligned to this,
/// the largest element a grid holds.
constexpr int64_t kAlign = 16;

int64_t align_up(int64_t n) {
  return (n + kAlign - 1) / kAlign * kAlign;
}

/// Everything the printers of one procedure share.
struct Tiled {
  const TimeLoop &t;
  const TimeTilePlan &plan;
  const CudaTimeTileParams &p;
  std::vector<const Variable *> state; ///< plan.state's variables, in order
  std::vector<const Kernel *> stages;  ///< the sweep of each stage
  int rank = 0, nstages = 0, nstate = 0;
  std::string base; ///< f2s_<symbol>
  /// Streaming: the form's rings and kernel body (codegen/CudaTimeStream.h).
  std::optional<CudaTimeStream> stream;
  /// Overlapped, a copy back renamed (renamed_copy_back): the state indices
  /// of the grid the step's sweep writes (X) and of the grid the copy writes
  /// from it (Y).
  std::optional<std::pair<int, int>> renamed;

  int state_index(const std::string &g) const {
    for (int k = 0; k < nstate; ++k)
      if (state[k]->name == g)
        return k;
    throw std::logic_error("time tile: '" + g + "' is no state grid");
  }
  /// A step's reach along d, below plus above: how much a tile's buffers
  /// grow per step of the chunk.
  int64_t reach(int d) const { return plan.reach_lo[d] + plan.reach_hi[d]; }
  /// The most elements of one state grid a buffer holds along d.
  int64_t span(int d) const { return p.tile[d] + p.steps * reach(d); }
};

/// `n` as a C long literal.
std::string lit(int64_t n) {
  return std::to_string(n) + "L";
}

/// The bytes of the boxes in static shared memory: each stage's box per
/// step of a chunk, and each state grid's need box.
int64_t box_bytes(const Tiled &x) {
  return 8 * 2 * x.rank * (int64_t(x.p.steps) * x.nstages + x.nstate) +
         (x.stream ? cuda_time_stream_static_bytes(x.plan) : 0);
}

/// The kernel's argument struct.
void print_args_struct(const Tiled &x, std::ostringstream &out) {
  const Kernel &k = x.t.signature;
  out << "struct " << x.base << "_tile_args {\n";
  for (const Variable &v : k.args)
    if (!v.is_grid() && !k.find_reduction(v.name))
      out << "  " << c_type(v.type) << " " << c_name(v.name) << ";\n";
  for (const Variable &v : k.args)
    if (v.is_grid() &&
        std::find(x.plan.state.begin(), x.plan.state.end(), v.name) == x.plan.state.end())
      out << "  const " << c_type(v.type) << " *" << c_name(v.name) << "; /* read only */\n";
  for (const Variable *v : x.state)
    out << "  const " << c_type(v->type) << " *f2s_src_" << c_name(v->name) << "; /* current */\n"
        << "  " << c_type(v->type) << " *f2s_dst_" << c_name(v->name)
        << "; /* written whole by the chunk */\n";
  out << "  long f2s_first;      /* the chunk's first step, from 0 */\n"
         "  int f2s_steps;       /* steps in the chunk, 1.."
      << x.p.steps
      << " */\n"
         "  int f2s_last;        /* 1: the call's last chunk (else a grid the next chunk\n"
         "                          loads only outside its first writer's domain may be\n"
         "                          written only there) */\n"
         "  int32_t f2s_tlo, f2s_tstep; /* step n has time variable f2s_tlo + n*f2s_tstep */\n"
         "  long f2s_offset["
      << x.nstate << "]; /* each state grid's buffer, bytes into dynamic shared memory */\n"
      << "};\n\n";
}

/// Per state grid k and dimension d: f2s_x<k>_lo<d>, _hi<d> (declared
/// bounds); then the hull of them, f2s_h_lo<d>, _hi<d>, and the tiles along
/// each dimension, f2s_tiles<d>, and their product f2s_ntiles. Scalars by
/// their C names.
void print_tile_space(const Tiled &x, const std::string &pad, std::ostringstream &out) {
  CExprPrinter exprs(x.t.signature);
  for (int k = 0; k < x.nstate; ++k)
    for (int d = 0; d < x.rank; ++d) {
      std::string n = "f2s_x" + std::to_string(k);
      out << pad << "const long " << n << "_lo" << d << " = (long)("
          << exprs.print(x.state[k]->dims[d].lo) << "), " << n << "_hi" << d << " = (long)("
          << exprs.print(x.state[k]->dims[d].hi) << ");\n";
    }
  out << pad << "/* The tile space: the hull of the state grids, in tiles of";
  for (int d = 0; d < x.rank; ++d)
    out << (d ? " x " : " ") << x.p.tile[d];
  out << " points. */\n";
  for (int d = 0; d < x.rank; ++d) {
    std::string lo = "f2s_x0_lo" + std::to_string(d), hi = "f2s_x0_hi" + std::to_string(d);
    for (int k = 1; k < x.nstate; ++k) {
      lo = "f2s_min_long(" + lo + ", f2s_x" + std::to_string(k) + "_lo" + std::to_string(d) + ")";
      hi = "f2s_max_long(" + hi + ", f2s_x" + std::to_string(k) + "_hi" + std::to_string(d) + ")";
    }
    std::string D = std::to_string(d);
    out << pad << "const long f2s_h_lo" << D << " = " << lo << ", f2s_h_hi" << D << " = " << hi
        << ";\n"
        << pad << "const long f2s_tiles" << D << " = f2s_h_hi" << D << " < f2s_h_lo" << D
        << " ? 0 : (f2s_h_hi" << D << " - f2s_h_lo" << D << ") / " << lit(x.p.tile[d]) << " + 1;\n";
  }
  out << pad << "const long f2s_ntiles = f2s_tiles0";
  for (int d = 1; d < x.rank; ++d)
    out << " * f2s_tiles" << d;
  out << ";\n";
}

/// `for each point of box` (a flat box, [lo0, hi0, lo1, hi1, ...], as
/// codegen/CTimeTile's regions function has them) among the block's
/// `threads` threads, which take the box's rows (dimension 0) in groups of
/// `width` consecutive threads, a warp where the block is made of warps, so
/// that neighbours along x go to neighbouring threads. The loop's body sees
/// f2s_p<d>, the point's offset from lo<d> (only where `used`, for d > 0),
/// and f2s_at, its place in the box column-major. Offsets are ints: a box
/// lies in a block's shared memory.
void print_box_loop(int rank, int threads, const std::string &box, const std::string &pad,
                    std::ostringstream &out, const std::vector<bool> &used = {}) {
  auto uses = [&](int d) { return used.empty() || used[d]; };
  // Groups of threads must not share a row: width divides threads.
  int width = rank > 1 && threads % 32 == 0 ? 32 : threads;
  for (int d = 0; d < rank; ++d)
    out << pad << "const int f2s_e" << d << " = (int)f2s_max_long(" << box << "[" << 2 * d + 1
        << "] - " << box << "[" << 2 * d << "] + 1, 0L);\n";
  out << pad << "const int f2s_rows = 1";
  for (int d = 1; d < rank; ++d)
    out << " * f2s_e" << d;
  out << ";\n"
      << pad << "for (int f2s_r = (int)threadIdx.x / " << width
      << "; f2s_r < f2s_rows; f2s_r += " << threads / width << ") {\n";
  std::string in = pad + "  ";
  if (rank > 1)
    out << in << "int f2s_rest = f2s_r;\n";
  for (int d = 1; d < rank; ++d) {
    std::string D = std::to_string(d);
    if (uses(d))
      out << in << "const int f2s_p" << D << " = "
          << (d + 1 < rank ? "f2s_rest % f2s_e" + D : "f2s_rest") << ";\n";
    if (d + 1 < rank)
      out << in << "f2s_rest /= f2s_e" << D << ";\n";
  }
  if (rank > 1)
    out << in << "(void)f2s_rest;\n";
  out << in << "for (int f2s_p0 = (int)threadIdx.x % " << width
      << "; f2s_p0 < f2s_e0; f2s_p0 += " << width << ") {\n"
      << in << "  const int f2s_at = f2s_p0 + f2s_e0 * f2s_r;\n"
      << in << "  (void)f2s_at;\n";
}

/// The end of print_box_loop's loops.
void print_box_loop_end(const std::string &pad, std::ostringstream &out) {
  out << pad << "  }\n" << pad << "}\n";
}

/// The element (box's lo<d> + f2s_p<d>) of state grid k: in memory (its
/// declared bounds) or in its buffer (its need box).
std::string memory_index(int k, int rank, const std::string &box) {
  std::string K = std::to_string(k), s;
  for (int d = 0; d < rank; ++d) {
    std::string D = std::to_string(d);
    std::string term = "(" + box + "[" + std::to_string(2 * d) + "] + f2s_p" + D + " - f2s_x" + K +
                       "_lo" + D + ")";
    s += d == 0 ? term : " + f2s_x" + K + "_s" + D + " * " + term;
  }
  return s;
}

/// The same in its buffer, whose layout is f2s_b<k>_lo<d> and _s<d> (or,
/// given `layout`, <layout>_lo<d> and _s<d>).
std::string buffer_index(int k, int rank, const std::string &box, std::string layout = "") {
  std::string s;
  if (layout.empty())
    layout = "f2s_b" + std::to_string(k);
  for (int d = 0; d < rank; ++d) {
    std::string D = std::to_string(d);
    std::string term = "(" + box + "[" + std::to_string(2 * d) + "] + f2s_p" + D + " - " + layout +
                       "_lo" + D + ")";
    s += d == 0 ? term : " + " + layout + "_s" + D + " * " + term;
  }
  return s;
}

/// A step that is one sweep writing X (and not reading it) and the copy
/// back `Y = X` (TileStage::copy_of; a heat loop's `u = unew`): the state
/// indices of X and Y. After a chunk's first step has copied,
/// X's and Y's buffers hold the same values wherever a later stage reads
/// either without writing it first: the copy writes every point of Y the
/// tile holds that the sweep does not compute (the boundary), and every
/// other point the next sweep reads is one the sweep computed. So from the
/// second step on the sweep reads the buffer it last wrote and writes the
/// other, and the copy is not done: the buffers trade roles instead, and a
/// chunk's last values of both grids are those of the buffer last written.
/// The stage's time saved is its loads, stores and barrier: a third of a
/// 2D heat step's instructions (bench/RESULTS.md).
std::optional<std::pair<int, int>> renamed_copy_back(const Tiled &x) {
  if (x.nstages != 2 || x.nstate != 2)
    return std::nullopt;
  const TileStage &sweep = x.plan.stages[0], &copy = x.plan.stages[1];
  if (sweep.writes.size() != 1 || copy.copy_of != sweep.writes[0])
    return std::nullopt;
  for (const TileRead &r : sweep.reads)
    if (r.grid == sweep.writes[0])
      return std::nullopt;
  return std::make_pair(x.state_index(sweep.writes[0]), x.state_index(copy.writes[0]));
}

/// The buffer that holds state grid k: its own, or where a copy back is
/// renamed and the two buffers have traded roles (`flipped`), the other's.
int buffer_of(const Tiled &x, int k, bool flipped) {
  if (!x.renamed || !flipped)
    return k;
  return k == x.renamed->first ? x.renamed->second : k == x.renamed->second ? x.renamed->first : k;
}

/// The same at run time, by f2s_flip.
std::string buffer_at_run_time(const Tiled &x, int k) {
  int own = buffer_of(x, k, false), other = buffer_of(x, k, true);
  return own == other ? std::to_string(own)
                      : "(f2s_flip ? " + std::to_string(other) + " : " + std::to_string(own) + ")";
}

/// One stage of one step: every point of its box, by its sweep's own
/// statements, with each state grid's name and layout shadowed by its
/// buffer's.
/// `flipped`: where a copy back is renamed, with the two buffers' roles
/// traded (each stage is printed for a fixed assignment of buffers, so that
/// its addressing is as plain as without renaming).
void print_stage(const Tiled &x, int s, std::ostringstream &out, bool flipped = false) {
  const TileStage &st = x.plan.stages[s];
  const Kernel &sweep = *x.stages[s];
  const int R = x.rank;
  std::string pad = "      ";
  out << pad << "{ /* stage " << s << ": sweep " << st.sweep
      << (flipped ? ", the buffers' roles traded" : "") << " */\n";
  std::string in = pad + "  ";
  out << in << "const long *const f2s_c = f2s_comp + (f2s_k * " << x.nstages << " + " << s << ") * "
      << 2 * R << "; /* the box it computes */\n";
  for (int k = 0; k < x.nstate; ++k) {
    const Variable &v = *x.state[k];
    if (!sweep.find_arg(v.name))
      continue; // a state grid this sweep does not touch
    std::string n = c_name(v.name), K = std::to_string(k);
    std::string B = std::to_string(buffer_of(x, k, flipped));
    out << in << c_type(v.type) << " *const " << n << " = (" << c_type(v.type)
        << " *)(f2s_smem + a.f2s_offset[" << B << "]);\n";
    // ints: a Fortran INTEGER's coordinates, strides of a box in shared
    // memory (32-bit address arithmetic is the GPU's fast kind).
    for (int d = 0; d < R; ++d)
      out << in << "const int f2s_" << n << "_lo" << d << " = (int)f2s_b" << B << "_lo" << d
          << ";\n";
    for (int d = 1; d < R; ++d)
      out << in << "const int f2s_" << n << "_s" << d << " = (int)f2s_b" << B << "_s" << d << ";\n";
  }
  std::vector<bool> used(R);
  for (int d = 0; d < R; ++d)
    used[d] = !st.vars[d].empty();
  print_box_loop(R, x.p.threads, "f2s_c", in, out, used);
  std::string body = in + "    ";
  for (int d = 0; d < R; ++d)
    if (!st.vars[d].empty())
      out << body << "const int " << c_name(st.vars[d]) << " = (int)f2s_c[" << 2 * d << "] + f2s_p"
          << d << "; /* a Fortran INTEGER */\n";
  for (const Variable &tmp : sweep.temps)
    out << body << c_type(tmp.type) << " " << c_name(tmp.name) << ";\n";
  std::vector<const For *> loops = perfect_nest(sweep.body);
  std::ostringstream point;
  CStmtPrinter(sweep, point).print(loops.back()->body, static_cast<int>(body.size() / 2));
  out << point.str();
  print_box_loop_end(in, out);
  out << pad << "}\n";
}

/// The grids only read: where they live, addressed as the sweeps address
/// them. Their layout may depend on the time variable (the front end
/// rebases a grid subscripted by a scalar, `fict(t)`, to lower bound 1 - t),
/// so it is declared where the step's time variable is.
void print_read_only_grids(const Tiled &x, const std::string &pad, std::ostringstream &out) {
  const Kernel &k = x.t.signature;
  CExprPrinter exprs(k);
  for (const Variable &v : k.args) {
    if (!v.is_grid() ||
        std::find(x.plan.state.begin(), x.plan.state.end(), v.name) != x.plan.state.end())
      continue;
    std::string n = c_name(v.name);
    out << pad << "const " << c_type(v.type) << " *__restrict__ " << n << " = a." << n << ";\n"
        << print_c_grid_layout(k, v, pad);
  }
}

void print_kernel(const Tiled &x, std::ostringstream &out) {
  const Kernel &k = x.t.signature;
  const int R = x.rank, G = x.nstate;
  std::string pad = "  ";
  CExprPrinter exprs(k);
  if (x.stream)
    out << "/* One block per tile of the dimensions but the slowest (grid-stride over the\n"
           " * tiles): the tile's regions, then its planes streamed through the chunk's\n"
           " * stages in rings of shared memory, each grid's last version written to the\n"
           " * other version plane by plane. */\n";
  else
    out << "/* One block per tile (grid-stride over the tiles): the tile's regions, its\n"
           " * state grids' need boxes loaded into shared memory, the chunk's stages in\n"
           " * order, and its output box of every state grid written to the other version. */\n";
  // The streaming form's stages test the chunk's length at every plane: a
  // constant there but in the call's last chunk (F2S_N 0), they fold away.
  if (x.stream)
    out << "template <int F2S_N>\n";
  out << "__global__ void __launch_bounds__(" << x.p.threads
      << (x.stream && x.stream->min_blocks > 1 ? ", " + std::to_string(x.stream->min_blocks) : "")
      << ") " << x.base << "_tile_kernel(const struct " << x.base << "_tile_args a) {\n"
      << "  extern __shared__ __align__(16) unsigned char f2s_smem[];\n";
  if (x.stream)
    out << "  const int f2s_nsteps = F2S_N > 0 ? F2S_N : a.f2s_steps; /* the chunk's steps */\n";
  // The scalars a sweep uses (in its points, its bounds or its grids'
  // bounds: every one of those is among its arguments).
  for (const Variable &v : k.args)
    if (!v.is_grid() && !k.find_reduction(v.name) &&
        std::any_of(x.stages.begin(), x.stages.end(),
                    [&](const Kernel *s) { return s->find_arg(v.name); }))
      out << pad << "const " << c_type(v.type) << " " << c_name(v.name) << " = a." << c_name(v.name)
          << ";\n";
  print_tile_space(x, pad, out);
  for (int kk = 0; kk < G; ++kk) {
    std::string K = std::to_string(kk);
    for (int d = 1; d < R; ++d)
      out << pad << "const long f2s_x" << K << "_s" << d << " = "
          << (d == 1 ? "" : "f2s_x" + K + "_s" + std::to_string(d - 1) + " * ") << "(f2s_x" << K
          << "_hi" << d - 1 << " - f2s_x" << K << "_lo" << d - 1 << " + 1);\n";
  }
  out << pad
      << "/* Each stage's domain (its sweep's loop bounds) and each state grid's bounds. */\n"
      << print_c_tile_domains(x.t, x.plan);
  out << pad << "/* The boxes of the tile at hand (one thread computes them). */\n"
      << pad << "__shared__ long f2s_comp[" << x.p.steps * x.nstages * 2 * R << "], f2s_need["
      << G * 2 * R << "];\n";
  out << pad << "for (long f2s_t = blockIdx.x; f2s_t < f2s_ntiles; f2s_t += gridDim.x) {\n";
  std::string in = pad + "  ";
  out << in << "long f2s_out[" << 2 * R << "]; /* the output box */\n"
      << in << "{\n"
      << in << "  long f2s_rest = f2s_t;\n";
  for (int d = 0; d < R; ++d)
    out << in << "  f2s_out[" << 2 * d << "] = f2s_h_lo" << d << " + (f2s_rest % f2s_tiles" << d
        << ") * " << lit(x.p.tile[d]) << ";\n"
        << in << "  f2s_out[" << 2 * d + 1 << "] = f2s_min_long(f2s_out[" << 2 * d << "] + "
        << lit(x.p.tile[d] - 1) << ", f2s_h_hi" << d << ");\n"
        << in << "  f2s_rest /= f2s_tiles" << d << ";\n";
  out << in << "}\n"
      << in << "if (threadIdx.x == 0)\n"
      << in << "  " << c_tile_regions_name(x.t)
      << "(f2s_out, a.f2s_steps, f2s_dom, f2s_ext, f2s_comp, f2s_need);\n"
      << in << "__syncthreads();\n";
  if (x.stream) {
    out << x.stream->body << pad << "}\n}\n\n";
    return;
  }
  // Each buffer's layout: its need box, column-major.
  for (int kk = 0; kk < G; ++kk) {
    std::string K = std::to_string(kk);
    for (int d = 0; d < R; ++d)
      out << in << "const long f2s_b" << K << "_lo" << d << " = f2s_need[" << kk * 2 * R + 2 * d
          << "];\n";
    for (int d = 1; d < R; ++d)
      out << in << "const long f2s_b" << K << "_s" << d << " = "
          << (d == 1 ? "" : "f2s_b" + K + "_s" + std::to_string(d - 1) + " * ")
          << "f2s_max_long(f2s_need[" << kk * 2 * R + 2 * d - 1 << "] - f2s_need["
          << kk * 2 * R + 2 * d - 2 << "] + 1, 0L);\n";
  }
  // Load.
  for (int kk = 0; kk < G; ++kk) {
    const Variable &v = *x.state[kk];
    std::string n = c_name(v.name), t = c_type(v.type), K = std::to_string(kk);
    out << in << "{ /* load " << v.name << "'s need box */\n";
    out << in << "  " << t << " *const f2s_buf = (" << t << " *)(f2s_smem + a.f2s_offset[" << kk
        << "]);\n";
    std::string need = "(f2s_need + " + std::to_string(kk * 2 * R) + ")";
    print_box_loop(R, x.p.threads, need, in + "  ", out);
    out << in << "      f2s_buf[f2s_at] = a.f2s_src_" << n << "[" << memory_index(kk, R, need)
        << "];\n";
    print_box_loop_end(in + "  ", out);
    out << in << "}\n";
  }
  out << in << "__syncthreads();\n";
  // The stages.
  if (x.renamed)
    out << in << "int f2s_flip = 0; /* 1: " << x.state[x.renamed->first]->name << " and "
        << x.state[x.renamed->second]->name << " in each other's buffers */\n";
  out << in << "for (int f2s_k = 0; f2s_k < a.f2s_steps; ++f2s_k) {\n";
  // The time variable, where a sweep reads it (in a point, or in the bounds
  // of a grid subscripted by it).
  bool reads_time = std::any_of(x.stages.begin(), x.stages.end(),
                                [&](const Kernel *s) { return s->find_arg(x.t.var); });
  if (const Variable *tv = k.find_arg(x.t.var); tv && reads_time)
    out << in << "  const " << c_type(tv->type) << " " << c_name(x.t.var) << " = ("
        << c_type(tv->type)
        << ")((long)a.f2s_tlo + (a.f2s_first + f2s_k) * (long)a.f2s_tstep); /* this step's */\n";
  print_read_only_grids(x, in + "  ", out);
  for (int s = 0; s < x.nstages; ++s) {
    if (x.renamed && s == 0) { // the sweep, from whichever buffer holds Y
      out << in << "  if (!f2s_flip)\n";
      print_stage(x, s, out);
      out << in << "  else\n";
      print_stage(x, s, out, true);
    } else if (x.renamed && s == 1) { // the copy at the first step only
      out << in << "  if (f2s_k > 0) {\n"
          << in << "    f2s_flip = !f2s_flip; /* the copy back renamed */\n"
          << in << "    continue; /* no barrier: the next sweep writes the other buffer */\n"
          << in << "  }\n";
      print_stage(x, s, out);
    } else {
      print_stage(x, s, out);
    }
    out << in << "  __syncthreads();\n";
  }
  out << in << "}\n";
  // Write the output box.
  for (int kk = 0; kk < G; ++kk) {
    const Variable &v = *x.state[kk];
    std::string n = c_name(v.name), t = c_type(v.type), K = std::to_string(kk);
    // A renamed copy back leaves both grids' last values in the buffer
    // last written, which holds Y.
    const int from = x.renamed && kk == x.renamed->first ? x.renamed->second : kk;
    out << in << "{ /* " << v.name << " over the output box, to the other version */\n"
        << in << "  const " << t << " *const f2s_buf = (const " << t
        << " *)(f2s_smem + a.f2s_offset[" << buffer_at_run_time(x, from) << "]);\n";
    const bool pair = x.renamed && (kk == x.renamed->first || kk == x.renamed->second);
    const std::string own = "f2s_b" + std::to_string(buffer_of(x, from, false)),
                      other = "f2s_b" + std::to_string(buffer_of(x, from, true));
    for (int d = 0; d < R && pair; ++d)
      out << in << "  const long f2s_wb_lo" << d << " = f2s_flip ? " << other << "_lo" << d << " : "
          << own << "_lo" << d << ";\n";
    for (int d = 1; d < R && pair; ++d)
      out << in << "  const long f2s_wb_s" << d << " = f2s_flip ? " << other << "_s" << d << " : "
          << own << "_s" << d << ";\n";
    out << in << "  long f2s_w[" << 2 * R << "]; /* the output box within its bounds */\n";
    for (int d = 0; d < R; ++d)
      out << in << "  f2s_w[" << 2 * d << "] = f2s_max_long(f2s_out[" << 2 * d << "], f2s_x" << K
          << "_lo" << d << ");\n"
          << in << "  f2s_w[" << 2 * d + 1 << "] = f2s_min_long(f2s_out[" << 2 * d + 1 << "], f2s_x"
          << K << "_hi" << d << ");\n";
    print_box_loop(R, x.p.threads, "f2s_w", in + "  ", out);
    out << in << "      a.f2s_dst_" << n << "[" << memory_index(kk, R, "f2s_w") << "] = f2s_buf["
        << buffer_index(kk, R, "f2s_w", pair ? "f2s_wb" : "") << "];\n";
    print_box_loop_end(in + "  ", out);
    out << in << "}\n";
  }
  out << in << "__syncthreads(); /* the next tile reuses the buffers */\n" << pad << "}\n}\n\n";
}

void print_procedure(const Tiled &x, std::ostringstream &out) {
  const Kernel &k = x.t.signature;
  CExprPrinter exprs(k);
  const int R = x.rank, G = x.nstate;
  int64_t bound = cuda_time_tile_shared_bytes(x.t, x.plan, x.p);
  out << "/* The most shared memory one block of " << x.p.symbol
      << " takes, at any size (bytes). */\n"
      << "extern \"C\" long " << x.base << "_shared_bytes(void) {\n  return " << bound
      << "L;\n}\n\n";
  out << "/* The device's opt-in limit of shared memory per block (bytes). */\n"
      << "static long " << x.base << "_shared_limit(void) {\n"
      << "  int f2s_dev = 0, f2s_limit = 0;\n"
      << "  f2s_cuda_use_device();\n"
      << "  f2s_cuda_check(cudaGetDevice(&f2s_dev), \"finding the GPU\");\n"
      << "  f2s_cuda_check(cudaDeviceGetAttribute(&f2s_limit, "
         "cudaDevAttrMaxSharedMemoryPerBlockOptin, f2s_dev), \"reading the GPU's shared memory "
         "limit\");\n"
      << "  return f2s_limit;\n}\n\n";
  out << "/* 1 when a block of " << x.p.symbol
      << " fits this GPU's shared memory at every size. */\n"
      << "extern \"C\" int " << x.base << "_runnable(void) {\n  return " << x.base
      << "_shared_bytes() <= " << x.base << "_shared_limit();\n}\n\n";

  out << "/* " << (x.p.comment.empty() ? "Time loop '" + k.name + "' in time tiles" : x.p.comment)
      << ": chunks of " << x.p.steps << " steps, tiles of";
  for (int d = 0; d < (x.stream ? R - 1 : R); ++d)
    out << (d ? " x " : " ") << x.p.tile[d];
  if (x.stream)
    out << " streamed along dimension " << R;
  out << ", " << x.p.threads << " threads a block. */\n"
      << "extern \"C\" " << print_c_entry_prototype(k, x.p.symbol) << " {\n";
  for (const Reduction &r : k.reductions)
    out << "  " << c_type(r.type) << " *const f2s_ref_" << r.var << " = " << c_name(r.var) << ";\n";
  out << "  {\n";
  std::string in = "    ";
  for (const Reduction &r : k.reductions)
    out << in << c_type(r.type) << " " << c_name(r.var) << " = *f2s_ref_" << r.var << ";\n";
  out << in << "/* Fortran's DO: the trip count once, from the bounds on entry. */\n"
      << in << "const int32_t f2s_lo = " << exprs.print(x.t.lo)
      << ", f2s_hi = " << exprs.print(x.t.hi) << ", f2s_step = " << exprs.print(x.t.step) << ";\n"
      << in
      << "const long f2s_trips = ((long)f2s_hi - (long)f2s_lo + (long)f2s_step) / "
         "(long)f2s_step;\n";
  print_tile_space(x, in, out);
  out << in << "long f2s_offset[" << G << "];\n" << in << "long f2s_shared = 0;\n";
  if (x.stream) {
    out << in << "/* The rings of every version of the state grids. */\n"
        << in << "for (int f2s_g = 0; f2s_g < " << G << "; ++f2s_g)\n"
        << in << "  f2s_offset[f2s_g] = 0; /* unused: the kernel places the rings */\n"
        << in << "{\n"
        << in << "  const long f2s_ext[" << G * 2 * R << "] = {";
    for (int kk = 0; kk < G; ++kk)
      for (int d = 0; d < R; ++d)
        out << (kk || d ? ", " : "") << "f2s_x" << kk << "_lo" << d << ", f2s_x" << kk << "_hi"
            << d;
    out << "};\n"
        << in << "  long f2s_ring_offset[" << x.stream->versions << "];\n"
        << in << "  f2s_shared = " << x.base << "_rings(f2s_ext, f2s_ring_offset);\n"
        << in << "}\n";
  } else {
    out << in << "/* Each state grid's buffer holds at most its need box. */\n";
  }
  for (int kk = 0; kk < G && !x.stream; ++kk) {
    std::string K = std::to_string(kk);
    out << in << "f2s_offset[" << kk << "] = f2s_shared;\n"
        << in << "f2s_shared += (long)sizeof(" << c_type(x.state[kk]->type) << ")";
    for (int d = 0; d < R; ++d)
      out << " * f2s_min_long(" << lit(x.span(d)) << ", f2s_max_long(f2s_x" << K << "_hi" << d
          << " - f2s_x" << K << "_lo" << d << " + 1, 0L))";
    out << ";\n"
        << in << "f2s_shared = (f2s_shared + " << kAlign - 1 << ") / " << kAlign << " * " << kAlign
        << ";\n";
  }
  int64_t boxes = box_bytes(x);
  out << in << "if (f2s_trips > 0 && f2s_ntiles > 0) {\n";
  std::string in2 = in + "  ";
  // The CPU, or a GPU whose shared memory is too small at this size.
  {
    // No GPU, or F2S_TARGET a CPU one.
    out << in2 << "const int f2s_cpu = !f2s_cuda_on();\n"
        << in2 << "const int f2s_fits = f2s_cpu || f2s_shared + " << boxes << "L <= " << x.base
        << "_shared_limit(); /* + the boxes */\n";
    if (!x.p.fallback.empty()) {
      out << in2 << "if (f2s_cpu || !f2s_fits) {\n" << in2 << "  " << x.p.fallback << "(";
      for (size_t i = 0; i < k.args.size(); ++i)
        out << (i ? ", " : "")
            << (k.find_reduction(k.args[i].name) ? "f2s_ref_" + k.args[i].name
                                                 : c_name(k.args[i].name));
      out << ");\n" << in2 << "  return;\n" << in2 << "}\n";
    } else {
      out << in2 << "if (!f2s_fits) {\n"
          << in2 << "  fprintf(stderr, \"f2stencil runtime: " << x.p.symbol
          << " needs %ld bytes of shared memory a block, more than this GPU allows; choose a "
             "smaller time tile\\n\", f2s_shared + "
          << boxes << "L);\n"
          << in2 << "  exit(EXIT_FAILURE);\n"
          << in2 << "}\n"
          << in2 << "(void)f2s_cpu; /* no CPU procedure: the GPU whatever F2S_TARGET says */\n";
    }
  }
  // The kernel, or for the streaming form its two: a full chunk's, its
  // length a constant, and the call's last chunk's when shorter.
  const std::string kernel = x.base + "_tile_kernel";
  const std::vector<std::string> kernels =
      x.stream
          ? std::vector<std::string>{kernel + "<" + std::to_string(x.p.steps) + ">", kernel + "<0>"}
          : std::vector<std::string>{kernel};
  // Residency: every grid on the device for the whole call.
  std::vector<const Variable *> grids;
  for (const Variable &v : k.args)
    if (v.is_grid())
      grids.push_back(&v);
  size_t n = grids.size();
  auto grid_at = [&](const Variable *v) {
    return std::find(grids.begin(), grids.end(), v) - grids.begin();
  };
  out << in2 << "/* Every grid on the GPU for the whole loop (a data region may hold it). */\n"
      << in2 << "const void *f2s_host[" << n << "] = {";
  for (size_t i = 0; i < n; ++i)
    out << (i ? ", " : "") << c_name(grids[i]->name);
  out << "};\n" << in2 << "const size_t f2s_bytes[" << n << "] = {";
  for (size_t i = 0; i < n; ++i)
    out << (i ? ",\n" + in2 + "                                 " : "")
        << print_c_grid_bytes(k, *grids[i]);
  out << "};\n";
  // No room on the device for them all: the procedure's CPU code.
  out << in2 << "if (!f2s_cuda_enter_all(" << n << ", f2s_host, f2s_bytes)) {\n";
  if (!x.p.fallback.empty()) {
    out << in2 << "  " << x.p.fallback << "(";
    for (size_t i = 0; i < k.args.size(); ++i)
      out << (i ? ", " : "")
          << (k.find_reduction(k.args[i].name) ? "f2s_ref_" + k.args[i].name
                                               : c_name(k.args[i].name));
    out << ");\n" << in2 << "  return;\n";
  } else {
    out << in2 << "  fprintf(stderr, \"f2stencil runtime: " << x.p.symbol
        << " has no CPU procedure and the GPU has no room for its grids\\n\");\n"
        << in2 << "  exit(EXIT_FAILURE);\n";
  }
  out << in2 << "}\n";
  out << in2 << "struct " << x.base << "_tile_args f2s_args;\n";
  for (const Variable &v : k.args)
    if (!v.is_grid() && !k.find_reduction(v.name))
      out << in2 << "f2s_args." << c_name(v.name) << " = " << c_name(v.name) << ";\n";
  std::vector<std::string> dev(n);
  for (size_t i = 0; i < n; ++i) {
    std::string nm = c_name(grids[i]->name), t = c_type(grids[i]->type);
    dev[i] = "f2s_dev_" + nm;
    out << in2 << t << " *const " << dev[i] << " = (" << t << " *)f2s_present_device(" << nm
        << ");\n";
    if (std::find(x.plan.state.begin(), x.plan.state.end(), grids[i]->name) == x.plan.state.end())
      out << in2 << "f2s_args." << nm << " = " << dev[i] << ";\n";
  }
  // The other version of each state grid. No room for one (said once
  // under F2S_VERBOSE): what was allocated is freed, the grids leave the
  // device as they came (nothing ran: the host's copies, or a data
  // region's, are current) and the procedure's untiled steps run.
  out << in2 << "/* The other version of each state grid. */\n";
  for (int kk = 0; kk < G; ++kk) {
    std::string nm = c_name(x.state[kk]->name), t = c_type(x.state[kk]->type);
    out << in2 << t << " *const f2s_scratch_" << nm << " = ";
    if (kk)
      out << "!f2s_scratch_" << c_name(x.state[kk - 1]->name) << " ? NULL : ";
    out << "(" << t << " *)f2s_cuda_alloc(f2s_bytes[" << grid_at(x.state[kk])
        << "] + 1, \"the second version of '" << x.state[kk]->name << "'\");\n";
  }
  if (G > 0) {
    out << in2 << "if (!f2s_scratch_" << c_name(x.state[G - 1]->name) << ") {\n";
    for (int kk = 0; kk + 1 < G; ++kk) {
      std::string nm = c_name(x.state[kk]->name);
      out << in2 << "  if (f2s_scratch_" << nm << ")\n"
          << in2 << "    f2s_cuda_check(cudaFree(f2s_scratch_" << nm
          << "), \"freeing a second version\");\n";
    }
    out << in2 << "  for (int f2s_g = 0; f2s_g < " << n << "; ++f2s_g)\n"
        << in2 << "    f2s_cuda_exit(f2s_host[f2s_g], f2s_bytes[f2s_g], 0);\n";
    if (!x.p.fallback.empty()) {
      out << in2 << "  static int f2s_said_scratch = 0;\n"
          << in2 << "  f2s_note_once(&f2s_said_scratch, \"'" << x.p.symbol
          << "' runs its steps untiled: the GPU has no room for the second versions of its "
             "grids\");\n"
          << in2 << "  " << x.p.fallback << "(";
      for (size_t i = 0; i < k.args.size(); ++i)
        out << (i ? ", " : "")
            << (k.find_reduction(k.args[i].name) ? "f2s_ref_" + k.args[i].name
                                                 : c_name(k.args[i].name));
      out << ");\n" << in2 << "  return;\n";
    } else {
      out << in2 << "  fprintf(stderr, \"f2stencil runtime: " << x.p.symbol
          << " has no CPU procedure and the GPU has no room for the second versions of its "
             "grids\\n\");\n"
          << in2 << "  exit(EXIT_FAILURE);\n";
    }
    out << in2 << "}\n";
  }
  out << in2 << "for (int f2s_g = 0; f2s_g < " << G << "; ++f2s_g)\n"
      << in2 << "  f2s_args.f2s_offset[f2s_g] = f2s_offset[f2s_g];\n"
      << in2 << "f2s_args.f2s_tlo = f2s_lo;\n"
      << in2 << "f2s_args.f2s_tstep = f2s_step;\n"
      << in2
      << "/* Dynamic and static shared memory beyond the default 48 KiB: opt in (sm_70 on). */\n"
      << in2 << "if (f2s_shared + " << boxes << "L > 48 * 1024) {\n";
  for (const std::string &kernel : kernels)
    out << in2 << "  f2s_cuda_check(cudaFuncSetAttribute(" << kernel
        << ", cudaFuncAttributeMaxDynamicSharedMemorySize, (int)f2s_shared), "
           "\"opting in to large shared memory\");\n";
  out << in2 << "}\n"
      << in2 << "const dim3 f2s_grid((unsigned)f2s_min_long(f2s_ntiles, 2147483647L)), f2s_block("
      << x.p.threads << ");\n"
      << in2 << "int f2s_scratch_current = 0; /* 0: the caller's arrays hold the current steps */\n"
      << in2 << "for (long f2s_done = 0; f2s_done < f2s_trips;) {\n"
      << in2 << "  const int f2s_n = (int)f2s_min_long(f2s_trips - f2s_done, " << x.p.steps
      << "L);\n";
  for (int kk = 0; kk < G; ++kk) {
    std::string nm = c_name(x.state[kk]->name);
    out << in2 << "  f2s_args.f2s_src_" << nm << " = f2s_scratch_current ? f2s_scratch_" << nm
        << " : f2s_dev_" << nm << ";\n"
        << in2 << "  f2s_args.f2s_dst_" << nm << " = f2s_scratch_current ? f2s_dev_" << nm
        << " : f2s_scratch_" << nm << ";\n";
  }
  out << in2 << "  f2s_args.f2s_first = f2s_done;\n"
      << in2 << "  f2s_args.f2s_steps = f2s_n;\n"
      << in2 << "  f2s_args.f2s_last = f2s_done + f2s_n >= f2s_trips;\n"
      << in2 << "  "
      << (x.stream ? "if (f2s_n == " + std::to_string(x.p.steps) + ")\n" + in2 + "    " : "")
      << kernels[0] << "<<<f2s_grid, f2s_block, (size_t)f2s_shared, 0>>>(f2s_args);\n";
  if (x.stream)
    out << in2 << "  else\n"
        << in2 << "    " << kernels[1]
        << "<<<f2s_grid, f2s_block, (size_t)f2s_shared, 0>>>(f2s_args);\n";
  out << in2 << "  f2s_cuda_check(cudaGetLastError(), \"launching the time tiles of " << x.p.symbol
      << "\");\n"
      << in2 << "  f2s_done += f2s_n;\n"
      << in2 << "  f2s_scratch_current = !f2s_scratch_current;\n"
      << in2 << "}\n"
      << in2 << "if (f2s_scratch_current) { /* the last chunk wrote the second version */\n";
  for (int kk = 0; kk < G; ++kk) {
    std::string nm = c_name(x.state[kk]->name);
    out << in2 << "  f2s_cuda_check(cudaMemcpy(f2s_dev_" << nm << ", f2s_scratch_" << nm
        << ", f2s_bytes[" << grid_at(x.state[kk]) << "], cudaMemcpyDeviceToDevice), \"copying '"
        << x.state[kk]->name << "' back from its second version\");\n";
  }
  out << in2 << "}\n"
      << in2 << "f2s_cuda_check(cudaDeviceSynchronize(), \"running the time tiles of " << x.p.symbol
      << "\");\n";
  for (int kk = 0; kk < G; ++kk)
    out << in2 << "f2s_cuda_check(cudaFree(f2s_scratch_" << c_name(x.state[kk]->name)
        << "), \"freeing a second version\");\n";
  out << in2 << "/* The grids leave the device, the state copied back. */\n"
      << in2 << "const int f2s_written[" << n << "] = {";
  for (size_t i = 0; i < n; ++i)
    out << (i ? ", " : "")
        << (std::find(x.plan.state.begin(), x.plan.state.end(), grids[i]->name) !=
                    x.plan.state.end()
                ? 1
                : 0);
  out << "};\n"
      << in2 << "for (int f2s_g = 0; f2s_g < " << n << "; ++f2s_g)\n"
      << in2 << "  f2s_cuda_exit(f2s_host[f2s_g], f2s_bytes[f2s_g], f2s_written[f2s_g]);\n"
      << in << "}\n";
  // The scalars: the time variable and those assigned between sweeps (which
  // no sweep reads), step by step as the loop runs them.
  std::string v = c_name(x.t.var);
  out << in << "/* The scalars, step by step (no sweep reads those assigned). */\n"
      << in << v << " = f2s_lo;\n"
      << in << "for (long f2s_n = 0; f2s_n < f2s_trips; ++f2s_n, " << v << " += f2s_step) {\n";
  for (const TimeStmt &s : x.t.body)
    if (s.kind == TimeStmtKind::Assign)
      out << in << "  " << c_name(s.var) << " = " << exprs.print(s.value) << ";\n";
  out << in << "}\n";
  for (const Reduction &r : k.reductions)
    out << in << "*f2s_ref_" << r.var << " = " << c_name(r.var) << ";\n";
  out << "  }\n}\n\n";
}

Tiled make_tiled(const TimeLoop &t, const TimeTilePlan &plan,
                 const std::vector<const Kernel *> &sweeps, const CudaTimeTileParams &p) {
  Tiled x{t,
          plan,
          p,
          {},
          {},
          plan.rank,
          static_cast<int>(plan.stages.size()),
          static_cast<int>(plan.state.size()),
          "f2s_" + p.symbol,
          std::nullopt,
          std::nullopt};
  if (p.steps < 1)
    throw std::invalid_argument("time tile: T must be at least 1");
  if (static_cast<int>(p.tile.size()) != plan.rank)
    throw std::invalid_argument("time tile: the tile has " + std::to_string(p.tile.size()) +
                                " extents for grids of rank " + std::to_string(plan.rank));
  for (int64_t e : p.tile)
    if (e < 1)
      throw std::invalid_argument("time tile: a tile extent is below 1");
  if (p.threads < 1 || p.threads > 1024)
    throw std::invalid_argument("time tile: threads per block must be 1 to 1024");
  for (const std::string &g : plan.state) {
    const Variable *v = t.signature.find_arg(g);
    if (!v)
      throw std::logic_error("time tile: no argument '" + g + "'");
    x.state.push_back(v);
  }
  for (const TileStage &st : plan.stages) {
    const Kernel *found = nullptr;
    for (const Kernel *k : sweeps)
      if (k->name == st.sweep)
        found = k;
    if (!found)
      throw std::logic_error("time tile: no sweep '" + st.sweep + "'");
    x.stages.push_back(found);
  }
  return x;
}

} // namespace

const char *cuda_time_tile_form_name(CudaTimeTileForm f) {
  return f == CudaTimeTileForm::Streaming ? "streaming" : "overlapped";
}

CudaTimeTileForm cuda_time_tile_form(const std::string &name, const TimeTilePlan &plan) {
  return name == "streaming" && plan.rank >= 2 ? CudaTimeTileForm::Streaming
                                               : CudaTimeTileForm::Overlapped;
}

int64_t cuda_time_tile_shared_bytes(const TimeLoop &t, const TimeTilePlan &plan,
                                    const CudaTimeTileParams &p) {
  const int64_t boxes =
      8 * 2 * plan.rank * (int64_t(p.steps) * plan.stages.size() + plan.state.size());
  if (p.form == CudaTimeTileForm::Streaming)
    return cuda_time_stream_shared_bytes(t, plan, p) + cuda_time_stream_static_bytes(plan) + boxes;
  int64_t bytes = 0;
  for (const std::string &g : plan.state) {
    const Variable *v = t.signature.find_arg(g);
    int64_t n = v ? type_bytes(v->type) : 8;
    for (int d = 0; d < plan.rank; ++d)
      n *= p.tile[d] + p.steps * (plan.reach_lo[d] + plan.reach_hi[d]);
    bytes += align_up(n);
  }
  return bytes + boxes;
}

std::string print_cuda_time_tiled_loop(const TimeLoop &t, const TimeTilePlan &plan,
                                       const std::vector<const Kernel *> &sweeps,
                                       const CudaTimeTileParams &p) {
  const bool streaming = p.form == CudaTimeTileForm::Streaming;
  // Streaming: an extent of 0 along the slowest dimension is one tile,
  // whatever the grid's extent (2^40 points, more than any grid holds).
  CudaTimeTileParams whole = p;
  if (streaming && !whole.tile.empty() && whole.tile.back() <= 0)
    whole.tile.back() = int64_t(1) << 40;
  Tiled x = make_tiled(t, plan, sweeps, whole);
  if (streaming)
    x.stream = print_cuda_time_stream(t, plan, sweeps, p);
  else
    x.renamed = renamed_copy_back(x);
  std::ostringstream out;
  out << "/* Time loop '" << t.signature.name << "' in " << cuda_time_tile_form_name(p.form)
      << " time tiles (" << p.symbol << "):\n";
  std::string ir = print_time_tile_plan(plan);
  for (size_t pos = 0; pos < ir.size();) {
    size_t nl = ir.find('\n', pos);
    out << " *   " << ir.substr(pos, nl - pos) << "\n";
    pos = nl == std::string::npos ? ir.size() : nl + 1;
  }
  out << " */\n";
  if (!p.fallback.empty())
    out << "extern \"C\" " << print_c_entry_prototype(t.signature, p.fallback) << ";\n\n";
  print_args_struct(x, out);
  // The region computation of codegen/CTimeTile, on the device: once per
  // loop in a file that holds several of its procedures.
  std::string guard = "F2S_TILE_REGIONS_" + t.signature.name;
  out << print_c_tile_box_helpers() << "#ifndef " << guard << "\n#define " << guard << "\n"
      << print_c_tile_regions(t, plan) << "#endif\n\n";
  if (x.stream)
    out << x.stream->rings;
  print_kernel(x, out);
  print_procedure(x, out);
  return out.str();
}

} // namespace f2s
