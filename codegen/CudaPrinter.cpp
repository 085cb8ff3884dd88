#include "codegen/CudaPrinter.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"
#include "codegen/CStmt.h"
#include "codegen/Interfaces.h"
#include "runtime/CudaRuntimeText.h"

#include <algorithm>
#include <cassert>
#include <map>
#include <set>
#include <sstream>

namespace f2s {

namespace {

/// Grids the nest reads and writes, in argument order.
struct Access {
  std::set<std::string> read, written;
};

/// Every grid reference, conditional ones included.
class AccessCollector : public IRVisitor {
public:
  explicit AccessCollector(Access &acc) : acc_(acc) {}

protected:
  void visit_grid_ref(const GridRef *op) override { acc_.read.insert(op->grid); }
  void visit_store(const Store *op) override {
    acc_.written.insert(op->grid);
    IRVisitor::visit_store(op);
  }
  // A loop inside the point may be bounded by an array element (`do k = 1,
  // kmt(i, j)`): its bounds read the grid.
  void visit_for(const For *op) override {
    visit(op->lo);
    visit(op->hi);
    visit(op->body);
  }

private:
  Access &acc_;
};

void collect(const Stmt &s, Access &acc) {
  AccessCollector(acc).visit(s);
}

/// The mapped loops of the nest: block loops per axis and the block shape.
struct Launch {
  const For *block[3] = {nullptr, nullptr, nullptr}; // x, y, z
  int threads[2] = {1, 1};                           // x, y
};

Launch find_launch(const Stmt &body) {
  Launch l;
  for (const For *f : perfect_nest(body)) {
    switch (f->exec) {
    case LoopExec::CudaBlockX:
      l.block[0] = f;
      break;
    case LoopExec::CudaBlockY:
      l.block[1] = f;
      break;
    case LoopExec::CudaBlockZ:
      l.block[2] = f;
      break;
    case LoopExec::CudaThreadX:
    case LoopExec::CudaThreadY: {
      const IntImm *lo = as<IntImm>(f->lo), *hi = as<IntImm>(f->hi);
      assert(lo && hi && lo->value == 0 && "a CUDA thread loop runs from 0 to a constant");
      (void)lo;
      l.threads[f->exec == LoopExec::CudaThreadX ? 0 : 1] = static_cast<int>(hi->value + 1);
      break;
    }
    default:
      break;
    }
  }
  assert(l.block[0] && "a CUDA variant maps its x loop to blocks");
  return l;
}

/// The C name of the shared-memory array holding grid `g`'s planes.
std::string shared_name(const std::string &g) {
  return "f2s_sh_" + g;
}

/// Per staged grid: planes kept at once plus one, rows and columns of a
/// plane (the tile widened by the halo).
struct SharedShape {
  int64_t slots, rows, cols;
};

SharedShape shared_shape(const SharedPlanes &p, const Launch &l) {
  int64_t tile[2];
  for (int a = 0; a < 2; ++a)
    tile[a] = as<IntImm>(l.block[a]->step)->value;
  return {p.hi[2] - p.lo[2] + 2, tile[1] + p.hi[1] - p.lo[1], tile[0] + p.hi[0] - p.lo[0]};
}

class CudaStmtPrinter {
public:
  CudaStmtPrinter(const Kernel &k, const Launch &l, std::ostringstream &out)
      : kernel_(k), launch_(l), exprs_(k), out_(out) {
    exprs_.set_element_hook([this](const std::string &grid, const std::vector<Index> &ix) {
      return element(grid, ix);
    });
  }

  void print(const Stmt &s, int indent) {
    std::string pad(2 * indent, ' ');
    if (const Block *b = as<Block>(s)) {
      for (const Stmt &c : b->stmts)
        print(c, indent);
    } else if (const For *f = as<For>(s)) {
      print_for(f, indent);
    } else if (const Store *st = as<Store>(s)) {
      std::string ir = print_stmt(s);
      out_ << pad << "/* " << ir.substr(0, ir.size() - 1) << " */\n";
      out_ << pad << exprs_.grid_element(st->grid, st->index) << " = " << exprs_.print(st->value)
           << ";\n";
    } else if (const Assign *a = as<Assign>(s)) {
      out_ << pad << c_name(a->var) << " = " << exprs_.print(a->value) << ";\n";
    } else if (const IfThenElse *c = as<IfThenElse>(s)) {
      out_ << pad << "if (" << exprs_.print(c->cond) << ") {\n";
      print(c->then_case, indent + 1);
      if (c->else_case) {
        out_ << pad << "} else {\n";
        print(c->else_case, indent + 1);
      }
      out_ << pad << "}\n";
    }
  }

private:
  void print_for(const For *f, int indent) {
    std::string pad(2 * indent, ' ');
    std::string v = c_name(f->var);
    std::string lo = exprs_.print(f->lo), hi = exprs_.print(f->hi), step = exprs_.print(f->step);
    auto axis = [](LoopExec e) {
      return e == LoopExec::CudaBlockX || e == LoopExec::CudaThreadX   ? "x"
             : e == LoopExec::CudaBlockY || e == LoopExec::CudaThreadY ? "y"
                                                                       : "z";
    };
    switch (f->exec) {
    case LoopExec::CudaBlockX:
    case LoopExec::CudaBlockY:
    case LoopExec::CudaBlockZ: {
      // Grid-stride: the grid is capped at CUDA's limits, so a block may
      // take several tiles of a very long axis. When the launcher found the
      // grid covers every axis (Cover), the loop ends after one tile: the
      // compiler then drops the loop, which measured 6% of a 7-point
      // kernel's time on an H100.
      const char *a = axis(f->exec);
      out_ << pad << "/* " << loop_exec_name(f->exec) << " */\n"
           << pad << "for (I " << v << " = " << lo << " + (I)blockIdx." << a << " * (" << step
           << "); " << v << " <= " << hi << "; " << v << " += (I)gridDim." << a << " * (" << step
           << ")) {\n";
      print(f->body, indent + 1);
      out_ << pad << "  if (Cover)\n" << pad << "    break;\n";
      out_ << pad << "}\n";
      return;
    }
    case LoopExec::CudaThreadX:
    case LoopExec::CudaThreadY:
      if (f->exec == LoopExec::CudaThreadX &&
          (!kernel_.shared_planes.empty() || !kernel_.register_columns.empty()) &&
          as<For>(f->body)) {
        out_ << pad << "{\n"
             << pad << "  const I " << v << " = threadIdx.x; /* " << loop_exec_name(f->exec)
             << " */\n";
        print_stream(as<For>(f->body), indent + 1);
        out_ << pad << "}\n";
        return;
      }
      out_ << pad << "{\n"
           << pad << "  const I " << v << " = threadIdx." << axis(f->exec) << "; /* "
           << loop_exec_name(f->exec) << " */\n";
      print(f->body, indent + 1);
      out_ << pad << "}\n";
      return;
    case LoopExec::Unrolled:
      // One point per thread along this axis (hi is min(lo, last)): an if,
      // as a hand-written kernel has, not a loop the compiler must keep.
      if (const Call *c = as<Call>(f->hi);
          c && c->fn == Intrinsic::Min && c->args.size() == 2 && exprs_.print(c->args[0]) == lo) {
        out_ << pad << "{\n"
             << pad << "  const I " << v << " = " << lo << ";\n"
             << pad << "  if (" << v << " <= " << exprs_.print(c->args[1]) << ") {\n";
        print_point_body(f->body, indent + 2);
        out_ << pad << "  }\n" << pad << "}\n";
        return;
      }
      out_ << pad << "#pragma unroll\n";
      break;
    default:
      break;
    }
    const IntImm *unit = as<IntImm>(f->step);
    bool unit_step = unit && unit->value == 1;
    if (f->reverse) {
      assert(unit_step && "a reversed loop has a unit step");
      out_ << pad << "for (I " << v << " = " << hi << "; " << v << " >= " << lo << "; --" << v
           << ") {\n";
    } else {
      out_ << pad << "for (I " << v << " = " << lo << "; " << v << " <= " << hi << "; "
           << (unit_step ? "++" + v : v + " += " + step) << ") {\n";
    }
    print_point_body(f->body, indent + 1);
    out_ << pad << "}\n";
  }

  /// The body of a loop; at a point (no loop inside), each grid addressed
  /// there at the point plus constants first gets a pointer to its element
  /// at the point, and its elements are read at constant offsets from it:
  /// the linear index is computed once per point, not once per access.
  void print_point_body(const Stmt &body, int indent) {
    // Not yet a point while loops remain inside (plane sums run a plane loop
    // inside the point loops; transforms/CudaPlaneSums).
    if (contains_for(body)) {
      print(body, indent);
      return;
    }
    std::string pad(2 * indent, ' ');
    PointRefs refs;
    refs.visit(body);
    for (const Variable &v : kernel_.args) {
      auto it = refs.at.find(v.name);
      if (!v.is_grid() || it == refs.at.end() || !it->second || staged(v.name))
        continue;
      std::string name = "f2s_at_" + c_name(v.name);
      std::vector<Index> point = *it->second;
      for (Index &i : point)
        i.offset = 0;
      out_ << pad << (refs.written.count(v.name) ? "" : "const ") << c_type(v.type)
           << " *__restrict__ " << name << " = &"
           << exprs_.element_at(v.name, point, c_name(point[0].var)) << ";\n";
      bases_[v.name] = {point, name};
    }
    print(body, indent);
    bases_.clear();
  }

  /// Per grid, the loop variables (one per dimension, unit coefficients) of
  /// all its references in a point's statements; nullopt when they differ.
  struct PointRefs : IRVisitor {
    std::map<std::string, std::optional<std::vector<Index>>> at;
    std::set<std::string> written;
    void note(const std::string &g, const std::vector<Index> &ix) {
      bool point = true;
      // A subscript that moves with a loop inside the point (Index::inner)
      // is no constant offset from the point.
      for (const Index &i : ix)
        point = point && !i.var.empty() && i.coeff == 1 && !i.in_inner_loop();
      auto [it, fresh] = at.emplace(g, point ? std::optional(ix) : std::nullopt);
      // Accesses at different scalars (`v(i + d1)`, `v(i + d2)`, Index::sym)
      // are no constant offset from one another either.
      if (!fresh && it->second) {
        for (size_t d = 0; d < ix.size() && it->second; ++d)
          if (!point || ix[d].var != (*it->second)[d].var || ix[d].sym != (*it->second)[d].sym ||
              ix[d].sym_coeff != (*it->second)[d].sym_coeff)
            it->second = std::nullopt;
      }
    }
    void visit_grid_ref(const GridRef *g) override { note(g->grid, g->index); }
    void visit_store(const Store *st) override {
      note(st->grid, st->index);
      written.insert(st->grid);
      IRVisitor::visit_store(st);
    }
  };

  /// How an element is read or written when it is not in the grid's own
  /// memory at a computed index: from a staged plane, or at a constant
  /// offset from the point's pointer.
  std::optional<std::string> element(const std::string &grid, const std::vector<Index> &ix) const {
    if (const SharedPlanes *p = staged(grid); p && !slots_.empty()) {
      auto local = [](const Index &i, const std::string &origin, int64_t shift) {
        return c_name(i.var) + " - " + origin + " + " + std::to_string(i.offset + shift);
      };
      std::string xb = c_name(launch_.block[0]->var), yb = c_name(launch_.block[1]->var);
      return shared_name(grid) + "[" + slots_.at(grid + "|" + std::to_string(ix[2].offset)) + "][" +
             local(ix[1], yb, -p->lo[1]) + "][" + local(ix[0], xb, -p->lo[0]) + "]";
    }
    if (in_stream_ && ix.size() == 3 && ix[0].offset == 0 && ix[1].offset == 0)
      for (const RegisterColumn &c : kernel_.register_columns)
        if (c.grid == grid)
          return column_register(c, ix[2].offset);
    auto base = bases_.find(grid);
    if (base == bases_.end())
      return std::nullopt;
    std::string offset;
    std::string g = "f2s_" + c_name(grid);
    for (size_t d = 0; d < ix.size(); ++d) {
      if (ix[d].var != base->second.point[d].var || ix[d].coeff != 1 ||
          ix[d].sym != base->second.point[d].sym ||
          ix[d].sym_coeff != base->second.point[d].sym_coeff)
        return std::nullopt;
      int64_t o = ix[d].offset;
      if (!o)
        continue;
      std::string term = d == 0 ? std::to_string(std::abs(o))
                                : (std::abs(o) == 1 ? "" : std::to_string(std::abs(o)) + "*") + g +
                                      "_s" + std::to_string(d);
      offset += (offset.empty() ? (o < 0 ? "-" : "") : (o < 0 ? " - " : " + ")) + term;
    }
    return base->second.name + "[" + (offset.empty() ? "0" : offset) + "]";
  }

  /// The z stream of a block whose grids are staged in shared memory (seed
  /// 000's 2.5D blocking) or kept in registers along the column. Every thread
  /// of the block runs it, whether or not it has points in the tile: all
  /// load, and all meet at the barriers.
  ///
  ///   per tile: which elements of a plane this thread loads (computed once)
  ///   prologue: the planes of the first step; barrier
  ///   for z:    load the next step's new plane into registers;
  ///             load the new plane of each register column;
  ///             compute the points from the planes in shared memory
  ///             and the columns in registers;
  ///             store the registers into their slot; shift the columns;
  ///             barrier
  ///
  /// The next plane's loads are in flight while the step computes. With one
  /// slot more than the planes read at once, the slot being stored to is one
  /// that no thread can still be reading: the barrier of the previous step
  /// holds back every thread that has not finished it.
  void print_stream(const For *stream, int indent) {
    std::string pad(2 * indent, ' ');
    std::string z = c_name(stream->var), z0 = exprs_.print(stream->lo),
                zend = exprs_.print(stream->hi);
    if (!kernel_.shared_planes.empty())
      out_ << pad << "/* planes of " << kernel_.shared_planes.size()
           << " grid(s) staged in shared memory */\n";
    for (const SharedPlanes &p : kernel_.shared_planes)
      print_load_plan(p, indent);
    for (const SharedPlanes &p : kernel_.shared_planes)
      for (int64_t dz = p.lo[2]; dz <= p.hi[2]; ++dz) {
        print_plane_fetch(p, "(" + z0 + ") + " + std::to_string(dz), indent);
        print_plane_store(p, std::to_string(dz - p.lo[2]), indent);
      }
    if (!kernel_.shared_planes.empty())
      out_ << pad << "__syncthreads();\n";
    print_column_prologue(stream, z0, indent);
    out_ << pad << "for (I " << z << " = " << z0 << "; " << z << " <= " << zend << "; ++" << z
         << ") {\n";
    std::string step = "f2s_step";
    if (!kernel_.shared_planes.empty()) {
      out_ << pad << "  const int " << step << " = (int)(" << z << " - (" << z0 << "));\n"
           << pad << "  const bool f2s_more = " << z << " < " << zend << ";\n"
           << pad << "  if (f2s_more) {\n";
      for (const SharedPlanes &p : kernel_.shared_planes)
        print_plane_fetch(p, z + " + " + std::to_string(p.hi[2] + 1), indent + 2);
      out_ << pad << "  }\n";
    }
    for (const RegisterColumn &c : kernel_.register_columns)
      out_ << pad << "  if (f2s_col)\n"
           << pad << "    " << column_register(c, c.hi) << " = "
           << column_element(c, z + " + " + std::to_string(c.hi)) << ";\n";
    std::map<std::string, std::string> slots;
    for (const SharedPlanes &p : kernel_.shared_planes) {
      SharedShape sh = shared_shape(p, launch_);
      for (int64_t dz = p.lo[2]; dz <= p.hi[2]; ++dz) {
        std::string name =
            shared_name(p.grid) + "_z" + (dz < 0 ? "m" : "") + std::to_string(dz < 0 ? -dz : dz);
        out_ << pad << "  const int " << name << " = (" << step << " + " << dz - p.lo[2] << ") % "
             << sh.slots << ";\n";
        slots[p.grid + "|" + std::to_string(dz)] = name;
      }
    }
    // Reads of staged grids come from their planes (see element()).
    slots_ = slots;
    in_stream_ = true;
    print(stream->body, indent + 1);
    in_stream_ = false;
    slots_.clear();
    for (const RegisterColumn &c : kernel_.register_columns)
      for (int64_t dz = c.lo; dz < c.hi; ++dz)
        out_ << pad << "  " << column_register(c, dz) << " = " << column_register(c, dz + 1)
             << ";\n";
    if (!kernel_.shared_planes.empty()) {
      out_ << pad << "  if (f2s_more) {\n";
      for (const SharedPlanes &p : kernel_.shared_planes) {
        SharedShape sh = shared_shape(p, launch_);
        print_plane_store(p,
                          "(" + step + " + " + std::to_string(p.hi[2] - p.lo[2] + 1) + ") % " +
                              std::to_string(sh.slots),
                          indent + 2);
      }
      out_ << pad << "  }\n" << pad << "  __syncthreads();\n";
    }
    out_ << pad << "}\n";
  }

  /// The register columns' first planes, for the thread's own point (its
  /// column), if it has one: with one point per thread, the point loops
  /// inside the stream are single points (hi is min(first, bound)).
  void print_column_prologue(const For *stream, const std::string &z0, int indent) {
    if (kernel_.register_columns.empty())
      return;
    std::string pad(2 * indent, ' ');
    std::vector<const For *> points = perfect_nest(stream->body);
    assert(points.size() == 2 && "a register column needs the y and x point loops");
    std::string col[2], bound[2];
    for (int a = 0; a < 2; ++a) {
      const For *f = points[1 - a];
      const Call *hi = as<Call>(f->hi);
      assert(hi && hi->args.size() == 2 && "one point per thread: hi is min(first, bound)");
      col[a] = exprs_.print(f->lo);
      bound[a] = exprs_.print(hi->args[1]);
    }
    out_ << pad << "/* columns kept in registers along the stream */\n"
         << pad << "const I f2s_cx = " << col[0] << ", f2s_cy = " << col[1] << ";\n"
         << pad << "const bool f2s_col = f2s_cx <= " << bound[0] << " && f2s_cy <= " << bound[1]
         << ";\n";
    for (const RegisterColumn &c : kernel_.register_columns) {
      std::string t = c_type(kernel_.find_arg(c.grid)->type);
      for (int64_t dz = c.lo; dz <= c.hi; ++dz)
        out_ << pad << t << " " << column_register(c, dz) << " = 0;\n";
      out_ << pad << "if (f2s_col) {\n";
      for (int64_t dz = c.lo; dz < c.hi; ++dz)
        out_ << pad << "  " << column_register(c, dz) << " = "
             << column_element(c, "(" + z0 + ") + " + std::to_string(dz)) << ";\n";
      out_ << pad << "}\n";
    }
  }

  std::string column_register(const RegisterColumn &c, int64_t dz) const {
    return "f2s_rc_" + c_name(c.grid) + "_" + (dz < 0 ? "m" : "") +
           std::to_string(dz < 0 ? -dz : dz);
  }

  /// The element of a register column's grid at the thread's column, plane `z`.
  std::string column_element(const RegisterColumn &c, const std::string &z) const {
    std::string g = "f2s_" + c_name(c.grid);
    return c_name(c.grid) + "[(f2s_cx - " + g + "_lo0) + " + g + "_s1*(f2s_cy - " + g + "_lo1) + " +
           g + "_s2*((" + z + ") - " + g + "_lo2)]";
  }

  /// Elements of a staged plane each thread loads: consecutive threads take
  /// consecutive elements of a row (coalesced), the halo included; the
  /// index of each in the plane and its offset in the grid, or -1 for none
  /// (past the grid's last read point, or a corner no read needs).
  void print_load_plan(const SharedPlanes &p, int indent) {
    std::string pad(2 * indent, ' ');
    SharedShape sh = shared_shape(p, launch_);
    int threads = launch_.threads[0] * launch_.threads[1];
    int64_t per_thread = (sh.rows * sh.cols + threads - 1) / threads;
    std::string n = shared_name(p.grid), g = "f2s_" + c_name(p.grid);
    const For *bx = launch_.block[0], *by = launch_.block[1];
    out_ << pad << "int " << n << "_at[" << per_thread << "];\n"
         << pad << "I " << n << "_off[" << per_thread << "];\n"
         << pad << c_type(kernel_.find_arg(p.grid)->type) << " " << n << "_next[" << per_thread
         << "];\n"
         << pad << "#pragma unroll\n"
         << pad << "for (int f2s_q = 0; f2s_q < " << per_thread << "; ++f2s_q) {\n"
         << pad << "  const int f2s_e = (int)(threadIdx.y * " << launch_.threads[0]
         << " + threadIdx.x) + f2s_q * " << threads << ";\n"
         << pad << "  const int f2s_ly = f2s_e / " << sh.cols << ", f2s_lx = f2s_e - f2s_ly * "
         << sh.cols << ";\n"
         << pad << "  const I f2s_gy = " << c_name(by->var) << " + f2s_ly + " << p.lo[1]
         << ", f2s_gx = " << c_name(bx->var) << " + f2s_lx + " << p.lo[0] << ";\n"
         << pad << "  bool f2s_load = f2s_e < " << sh.rows * sh.cols << " && f2s_gy <= (I)("
         << exprs_.print(by->hi) << ") + " << p.hi[1] << " && f2s_gx <= (I)("
         << exprs_.print(bx->hi) << ") + " << p.hi[0] << ";\n";
    if (!p.corners && (p.lo[0] || p.hi[0]) && (p.lo[1] || p.hi[1])) {
      int64_t tile_x = sh.cols - (p.hi[0] - p.lo[0]), tile_y = sh.rows - (p.hi[1] - p.lo[1]);
      out_ << pad << "  /* a corner: no read needs it */\n"
           << pad << "  f2s_load = f2s_load && !((f2s_lx < " << -p.lo[0]
           << " || f2s_lx >= " << tile_x - p.lo[0] << ") && (f2s_ly < " << -p.lo[1]
           << " || f2s_ly >= " << tile_y - p.lo[1] << "));\n";
    }
    out_ << pad << "  " << n << "_at[f2s_q] = f2s_load ? f2s_e : -1;\n"
         << pad << "  " << n << "_off[f2s_q] = (f2s_gx - " << g << "_lo0) + " << g
         << "_s1*(f2s_gy - " << g << "_lo1);\n"
         << pad << "}\n";
  }

  /// This thread's elements of plane `z` of a staged grid, into registers.
  void print_plane_fetch(const SharedPlanes &p, const std::string &z, int indent) {
    std::string pad(2 * indent, ' ');
    std::string n = shared_name(p.grid), g = "f2s_" + c_name(p.grid);
    out_ << pad << "{ /* fetch a plane of '" << p.grid << "' */\n"
         << pad << "  const I f2s_plane = " << g << "_s2*((" << z << ") - " << g << "_lo2);\n"
         << pad << "  #pragma unroll\n"
         << pad << "  for (int f2s_q = 0; f2s_q < (int)(sizeof(" << n << "_at) / sizeof(int)); "
         << "++f2s_q)\n"
         << pad << "    if (" << n << "_at[f2s_q] >= 0)\n"
         << pad << "      " << n << "_next[f2s_q] = " << c_name(p.grid) << "[f2s_plane + " << n
         << "_off[f2s_q]];\n"
         << pad << "}\n";
  }

  /// The fetched registers into shared-memory slot `slot`.
  void print_plane_store(const SharedPlanes &p, const std::string &slot, int indent) {
    std::string pad(2 * indent, ' ');
    std::string n = shared_name(p.grid);
    out_ << pad << "#pragma unroll\n"
         << pad << "for (int f2s_q = 0; f2s_q < (int)(sizeof(" << n << "_at) / sizeof(int)); "
         << "++f2s_q)\n"
         << pad << "  if (" << n << "_at[f2s_q] >= 0)\n"
         << pad << "    (&" << n << "[" << slot << "][0][0])[" << n << "_at[f2s_q]] = " << n
         << "_next[f2s_q];\n";
  }

  const SharedPlanes *staged(const std::string &grid) const {
    for (const SharedPlanes &p : kernel_.shared_planes)
      if (p.grid == grid)
        return &p;
    return nullptr;
  }

  struct Base {
    std::vector<Index> point;
    std::string name;
  };

  const Kernel &kernel_;
  const Launch &launch_;
  CExprPrinter exprs_;
  std::ostringstream &out_;
  std::map<std::string, std::string> slots_; ///< "grid|dz" -> slot variable, in a staged stream
  std::map<std::string, Base> bases_;        ///< grid -> its pointer at the point, in a point body
  bool in_stream_ = false;                   ///< printing the body of a z stream
};

/// Local copies of the scalars (from `src`, "a." or "a->") and, when
/// `layout`, the lower bounds and strides of every grid. Each scalar is said
/// to be possibly unused: without `layout` (the host's launcher and run
/// function, which size the launch and the copies) one that only the nest
/// reads (a coefficient, a box's bounds) is, and in the kernel one that only
/// bounds a grid's last dimension (`fict(1 - t:tmax - t)`: no stride needs
/// it) is too, which nvcc would warn of (#177).
void print_locals(const Kernel &k, const std::string &src, bool layout, std::ostringstream &out,
                  const std::string &index = "long") {
  CExprPrinter exprs(k);
  // A reduction's field is the address of its result (on the host), or in
  // the kernel the device array of the blocks' partials: no local copy.
  out << print_c_scalar_locals(k, src, "  ");
  if (!layout)
    return;
  for (const Variable &v : k.args) {
    if (!v.is_grid())
      continue;
    std::string n = "f2s_" + c_name(v.name);
    for (int d = 0; d < v.rank(); ++d)
      out << "  const " << index << " " << n << "_lo" << d << " = " << exprs.print(v.dims[d].lo)
          << ";\n";
    for (int d = 1; d < v.rank(); ++d) {
      std::string extent = "((" + index + ")(" + exprs.print(v.dims[d - 1].hi) + ") - " + n +
                           "_lo" + std::to_string(d - 1) + " + 1)";
      out << "  const " << index << " " << n << "_s" << d << " = "
          << (d == 1 ? extent : n + "_s" + std::to_string(d - 1) + " * " + extent) << ";\n";
    }
  }
}

/// The number of elements of grid `v`, as a C expression (0 when empty).
std::string element_count(const Kernel &k, const Variable &v) {
  CExprPrinter exprs(k);
  std::string n = "(size_t)1";
  for (const Dim &d : v.dims) {
    std::string ext = "((long)(" + exprs.print(d.hi) + ") - (long)(" + exprs.print(d.lo) + ") + 1)";
    n += " * (size_t)(" + ext + " > 0 ? " + ext + " : 0)";
  }
  return n;
}

/// At the end of the kernel, every thread of the block (none returns early:
/// the grid-stride loops and the point guards let all of them reach it)
/// puts its partial in shared memory, and a tree of fixed shape combines
/// them: at each step thread t < n/2 takes in thread t + ceil(n/2), so the
/// order of the operations depends only on the block's size. Thread 0 writes
/// the block's partial to the device array, at the block's linear index.
void print_block_reductions(const Kernel &k, int threads, std::ostringstream &out) {
  if (k.reductions.empty())
    return;
  out << "  /* Reductions: this block's partial, by a fixed tree over its threads. */\n"
      << "  const int f2s_t = (int)(threadIdx.x + blockDim.x * threadIdx.y);\n";
  for (const Reduction &r : k.reductions) {
    std::string n = c_name(r.var), sh = "f2s_red_" + n;
    out << "  {\n"
        << "    __shared__ " << c_type(r.type) << " " << sh << "[" << threads << "];\n"
        << "    " << sh << "[f2s_t] = " << n << ";\n"
        << "    __syncthreads();\n"
        << "    for (int f2s_n = " << threads << "; f2s_n > 1; f2s_n = (f2s_n + 1) / 2) {\n"
        << "      if (f2s_t < f2s_n / 2)\n"
        << "        " << reduction_combine(r, sh + "[f2s_t]", sh + "[f2s_t + (f2s_n + 1) / 2]")
        << "\n"
        << "      __syncthreads();\n"
        << "    }\n"
        << "    if (f2s_t == 0)\n"
        << "      a." << n
        << "[blockIdx.x + gridDim.x * (blockIdx.y + (size_t)gridDim.y * "
           "blockIdx.z)] = "
        << sh << "[0];\n"
        << "  }\n";
  }
}

} // namespace

std::string cuda_launch_name(const Kernel &k, const std::string &variant) {
  return "f2s_" + k.name + "_" + variant + "_launch";
}

std::string print_cuda_prelude() {
  std::ostringstream out;
  out << "/* Generated by f2stencil: do not edit. CUDA part of the library. */\n"
         "#include <cuda_runtime.h>\n#include <math.h>\n#include <stdint.h>\n"
         "#include <stdio.h>\n#include <stdlib.h>\n\n";
  // The helpers the expression printer calls, for host and device.
  // Integer min/max in the kernel's index type (int or long, see below).
  out << "template <class A, class B> static __host__ __device__ inline auto f2s_min_long(A x, "
         "B y) -> decltype(x + y) { return y < x ? y : x; }\n"
         "template <class A, class B> static __host__ __device__ inline auto f2s_max_long(A x, "
         "B y) -> decltype(x + y) { return y > x ? y : x; }\n";
  // A kernel calls only some of them; nvcc warns about a static function
  // that none calls, unless it is marked unused.
  for (const char *t : {"float", "double"}) {
    out << "static __host__ __device__ inline __attribute__((unused)) " << t << " f2s_min_" << t
        << "(" << t << " x, " << t << " y) { return y < x ? y : x; }\n";
    out << "static __host__ __device__ inline __attribute__((unused)) " << t << " f2s_max_" << t
        << "(" << t << " x, " << t << " y) { return y > x ? y : x; }\n";
  }
  out << "static __host__ __device__ inline __attribute__((unused)) long f2s_ipow(long b, long e) "
         "{\n"
         "  long r = 1;\n"
         "  if (e < 0) /* Fortran: integer division 1/b**|e| */\n"
         "    return b == 1 ? 1 : b == -1 ? (e % 2 ? -1 : 1) : 0;\n"
         "  for (; e > 0; e >>= 1, b *= b)\n"
         "    if (e & 1)\n"
         "      r *= b;\n"
         "  return r;\n"
         "}\n"
         "/* x**n for a variable n by repeated squaring, as libgcc's __powidf2 that gfortran "
         "calls. */\n"
         "template <class T> static __host__ __device__ inline T f2s_powi(T b, int e) {\n"
         "  if (e < 0)\n"
         "    return T(1) / f2s_powi(b, -e);\n"
         "  T r = T(1);\n"
         "  bool first = true;\n"
         "  for (; e > 0; e >>= 1, b *= b)\n"
         "    if (e & 1) {\n"
         "      r = first ? b : r * b;\n"
         "      first = false;\n"
         "    }\n"
         "  return r;\n"
         "}\n"
         "#define __builtin_powi(b, e) f2s_powi<double>((b), (e))\n"
         "#define __builtin_powif(b, e) f2s_powi<float>((b), (e))\n\n";
  out << cuda_runtime_text() << "\n";
  return out.str();
}

std::string print_cuda_variant(const Kernel &k, const std::string &variant, bool run_function,
                               const std::vector<std::string> &aliased_variants) {
  Launch launch = find_launch(k.body);
  Access access;
  collect(k.body, access);
  std::string base = "f2s_" + k.name + "_" + variant;
  std::string args = "struct f2s_" + k.name + "_args";
  int threads = launch.threads[0] * launch.threads[1];

  std::ostringstream out;
  out << "/* Kernel '" << k.name << "', CUDA variant '" << variant << "':\n";
  std::string ir = print_kernel(k);
  for (size_t pos = 0; pos < ir.size();) {
    size_t nl = ir.find('\n', pos);
    out << " *   " << ir.substr(pos, nl - pos) << "\n";
    pos = nl == std::string::npos ? ir.size() : nl + 1;
  }
  out << " */\n";

  // The kernel: grids through restrict pointers, so loads of grids that are
  // only read may use the read-only data path.
  // I is the index type: int when every grid has fewer than 2^30 elements
  // (cheaper address arithmetic; loop variables stay far from overflow),
  // long otherwise. Cover: the grid has a block for every tile (no axis
  // capped at CUDA's limits). The launcher picks both.
  out << "template <class I, bool Cover>\n__global__ void __launch_bounds__(" << threads << ") "
      << base << "_kernel(const " << args << " a) {\n";
  // The nest of an aliasing (harness/CudaVariants) writes through an
  // argument the interface declares read-only: the pointer is cast.
  for (const Variable &v : k.args)
    if (v.is_grid()) {
      std::string type =
          (access.written.count(v.name) ? "" : "const ") + std::string(c_type(v.type));
      out << "  " << type << " *__restrict__ " << c_name(v.name) << " = (" << type << " *)a."
          << c_name(v.name) << ";\n";
    }
  print_locals(k, "a.", true, out, "I");
  for (const Variable &v : k.temps)
    out << "  " << c_type(v.type) << " " << c_name(v.name) << ";\n";
  out << c_work_arrays(k, "  ", true);
  for (const SharedPlanes &p : k.shared_planes) {
    SharedShape sh = shared_shape(p, launch);
    out << "  __shared__ " << c_type(k.find_arg(p.grid)->type) << " " << shared_name(p.grid) << "["
        << sh.slots << "][" << sh.rows << "][" << sh.cols << "];\n";
  }
  for (const Reduction &r : k.reductions)
    out << "  " << c_type(r.type) << " " << c_name(r.var) << " = " << reduction_identity(r)
        << "; /* this thread's partial */\n";
  CudaStmtPrinter(k, launch, out).print(k.body, 1);
  print_block_reductions(k, threads, out);
  out << "}\n\n";

  // Each reduction's combination of the blocks' partials, in block order,
  // onto the value its result had: the same launch shape gives the same
  // result on every run, whether the launch waits for the partials or defers
  // them (f2s_cuda_defer).
  for (const Reduction &r : k.reductions) {
    std::string t = c_type(r.type);
    out << "static void " << base << "_combine_" << c_name(r.var)
        << "(void *f2s_result, const void *f2s_partials, size_t f2s_n) {\n"
        << "  const " << t << " *const f2s_p = (const " << t << " *)f2s_partials;\n"
        << "  " << t << " f2s_acc = *(" << t << " *)f2s_result;\n"
        << "  for (size_t f2s_b = 0; f2s_b < f2s_n; ++f2s_b)\n"
        << "    " << reduction_combine(r, "f2s_acc", "f2s_p[f2s_b]") << "\n"
        << "  *(" << t << " *)f2s_result = f2s_acc;\n}\n\n";
  }

  // The launcher: one block per tile, capped at CUDA's grid limits.
  CExprPrinter exprs(k);
  out << "static void " << base << "_launch(const " << args << " *d, cudaStream_t s) {\n";
  print_locals(k, "d->", false, out);
  static const char *const axis = "xyz";
  static const char *const cap[] = {"2147483647L", "65535L", "65535L"};
  std::string cover = "true";
  for (int a = 0; a < 3; ++a) {
    const For *f = launch.block[a];
    std::string g = std::string("f2s_grid_") + axis[a];
    if (!f) {
      out << "  const long " << g << " = 1;\n";
      continue;
    }
    std::string lo = "(long)(" + exprs.print(f->lo) + ")",
                hi = "(long)(" + exprs.print(f->hi) + ")",
                step = "(long)(" + exprs.print(f->step) + ")";
    std::string t = std::string("f2s_tiles_") + axis[a];
    out << "  const long " << t << " = " << hi << " < " << lo << " ? 0 : (" << hi << " - " << lo
        << ") / " << step << " + 1;\n"
        << "  const long " << g << " = f2s_min_long(" << t << ", " << cap[a] << ");\n";
    cover += " && " + g + " == " + t;
  }
  out << "  if (f2s_grid_x == 0 || f2s_grid_y == 0 || f2s_grid_z == 0)\n    return;\n";
  out << "  const bool f2s_cover = " << cover << ";\n";
  out << "  const bool f2s_small = true";
  for (const Variable &v : k.args)
    if (v.is_grid())
      out << "\n      && " << element_count(k, v) << " < ((size_t)1 << 30)";
  out << ";\n";
  out << "  const dim3 f2s_grid((unsigned)f2s_grid_x, (unsigned)f2s_grid_y, (unsigned)f2s_grid_z), "
         "f2s_block("
      << launch.threads[0] << ", " << launch.threads[1] << ", 1);\n";
  // Small grids beyond the grid limits (a very long 1D or 2D axis) take the
  // long, grid-stride form: rare enough not to need a fourth kernel.
  // A reduction's field becomes the device array of the blocks' partials
  // (one per block, written by the block's thread 0).
  out << "  " << args << " f2s_args = *d;\n";
  if (!k.reductions.empty())
    out << "  const size_t f2s_nblocks = (size_t)f2s_grid_x * (size_t)f2s_grid_y * "
           "(size_t)f2s_grid_z;\n";
  // The device array is kept from call to call (per calling thread), grown
  // when a launch has more blocks: an iteration calling the kernel again
  // allocates nothing (cudaFree would also wait for the whole device).
  for (const Reduction &r : k.reductions) {
    std::string n = c_name(r.var), t = c_type(r.type), part = "f2s_" + n + "_part";
    out << "  static thread_local " << t << " *" << part << " = NULL;\n"
        << "  static thread_local size_t " << part << "_size = 0;\n"
        << "  if (" << part << "_size < f2s_nblocks) {\n"
        << "    if (" << part << ")\n"
        << "      f2s_cuda_check(cudaFree(" << part << "), \"freeing the partials of '" << r.var
        << "'\");\n"
        << "    " << part << " = NULL;\n"
        << "    f2s_cuda_check(cudaMalloc((void **)&" << part << ", f2s_nblocks * sizeof(" << t
        << ")), \"allocating the partials of '" << r.var << "'\");\n"
        << "    " << part << "_size = f2s_nblocks;\n"
        << "  }\n"
        << "  f2s_args." << n << " = " << part << ";\n";
  }
  out << "  if (f2s_small && f2s_cover)\n    " << base
      << "_kernel<int, true><<<f2s_grid, f2s_block, 0, s>>>(f2s_args);\n"
      << "  else if (f2s_cover)\n    " << base
      << "_kernel<long, true><<<f2s_grid, f2s_block, 0, s>>>(f2s_args);\n"
      << "  else\n    " << base
      << "_kernel<long, false><<<f2s_grid, f2s_block, 0, s>>>(f2s_args);\n";
  // The partials come back and are combined on the host; a box call of an
  // overlapped MPI procedure defers that to the end of the procedure
  // (f2s_cuda_deferring), so that its launch does not wait.
  for (const Reduction &r : k.reductions) {
    std::string n = c_name(r.var), t = c_type(r.type), part = "f2s_" + n + "_host",
                combine = base + "_combine_" + n;
    out << "  if (f2s_cuda_deferring) {\n"
        << "    void *" << part << " = f2s_cuda_defer(s, " << combine << ", d->" << n
        << ", f2s_nblocks, sizeof(" << t << "));\n"
        << "    f2s_cuda_check(cudaMemcpyAsync(" << part << ", f2s_" << n
        << "_part, f2s_nblocks * sizeof(" << t
        << "), cudaMemcpyDeviceToHost, s), \"copying the partials of '" << r.var << "'\");\n"
        << "  } else {\n"
        << "    " << t << " *" << part << " = (" << t << " *)malloc(f2s_nblocks * sizeof(" << t
        << "));\n"
        << "    if (!" << part << ")\n      abort(); /* a few bytes per block */\n"
        << "    f2s_cuda_check(cudaMemcpy(" << part << ", f2s_" << n
        << "_part, f2s_nblocks * sizeof(" << t
        << "), cudaMemcpyDeviceToHost), \"copying the partials of '" << r.var << "'\");\n"
        << "    " << combine << "(d->" << n << ", " << part << ", f2s_nblocks);\n"
        << "    free(" << part << ");\n  }\n";
  }
  out << "}\n\n";
  if (!run_function)
    return out.str();

  // The library's run function: device residency per grid.
  std::vector<const Variable *> grids;
  for (const Variable &v : k.args)
    if (v.is_grid())
      grids.push_back(&v);
  const size_t n = grids.size(), slots = std::max<size_t>(n, 1);
  out << "extern \"C\" void " << base << "_run(const " << args
      << " *a, int f2s_alias, void (*f2s_cpu)(const " << args
      << " *), const struct f2s_call_size *f2s_size) {\n";
  out << "  const double f2s_t0 = f2s_call_begin();\n";
  print_locals(k, "a->", false, out);
  out << "  const void *f2s_host[" << slots << "] = {";
  for (size_t i = 0; i < n; ++i)
    out << (i ? ", " : "") << "a->" << c_name(grids[i]->name);
  out << "};\n  const size_t f2s_bytes[" << slots << "] = {";
  for (size_t i = 0; i < n; ++i)
    out << (i ? ",\n                                 " : "") << element_count(k, *grids[i])
        << " * sizeof(" << c_type(grids[i]->type) << ")";
  out << (n ? "" : "0") << "};\n  static const int f2s_written[" << slots << "] = {";
  for (size_t i = 0; i < n; ++i)
    out << (i ? ", " : "") << (access.written.count(grids[i]->name) ? 1 : 0);
  out << (n ? "" : "0") << "};\n";
  out << "  (void)f2s_bytes;\n  (void)f2s_written;\n";
  // Arrays passed as one (f2s_alias: 1 + the index of the labelling in
  // f2s_K_aliasing's list) run the nest with those arrays identified, where
  // this variant has it.
  std::string gpu_takes = "f2s_alias == 0";
  for (size_t s = 0; s < aliased_variants.size(); ++s)
    if (!aliased_variants[s].empty())
      gpu_takes += " || f2s_alias == " + std::to_string(s + 1);
  out << "  static int f2s_said_alias = 0;\n"
      << "  const int f2s_gpu_takes = " << gpu_takes << ";\n"
      << "  if (!f2s_gpu_takes && f2s_cuda_on())\n"
      << "    f2s_note_once(&f2s_said_alias, \"'" << k.name
      << "' takes arrays passed as one on the CPU: its GPU code has no form for that "
         "aliasing\");\n";
  // The CPU code, with the device copies of present grids made current
  // around it: the GPU is not to be used, or has no room for the call.
  out << "  if (!f2s_gpu_takes || !f2s_cuda_wanted(" << n << ", f2s_host)) {\n"
      << "    f2s_cuda_sync_present(" << n << ", f2s_host, f2s_bytes, f2s_written, 0);\n"
      << "    f2s_cpu(a);\n"
      << "    f2s_cuda_sync_present(" << n << ", f2s_host, f2s_bytes, f2s_written, 1);\n"
      << "    return;\n  }\n";
  out << "  f2s_cuda_use_device();\n";
  out << "  struct f2s_prof *const f2s_row = f2s_env()->profile ? f2s_prof_row(\"" << k.name
      << "\", \"cuda\") : NULL;\n"
      << "  f2s_cuda_prof_kernel = f2s_row;\n";
  out << "  " << args << " d = *a;\n";
  out << "  struct f2s_cuda_arg f2s_m[" << slots << "];\n  int f2s_mapped = 0;\n";
  for (size_t i = 0; i < n; ++i) {
    const Variable *v = grids[i];
    std::string nm = c_name(v->name);
    bool read = access.read.count(v->name), written = access.written.count(v->name);
    // A written grid is copied in too: the points the kernel skips keep their values.
    out << "  if (f2s_mapped == " << i << " && (d." << nm << " = (" << (written ? "" : "const ")
        << c_type(v->type) << " *)f2s_cuda_map_arg(f2s_m, " << i << ", a->" << nm << ", f2s_bytes["
        << i << "], " << (read || written ? 1 : 0) << ", " << (written ? 1 : 0)
        << ")))\n    ++f2s_mapped;\n";
  }
  // No room on the device for one of them: the CPU code, as above.
  out << "  if (f2s_mapped < " << n << ") {\n"
      << "    f2s_cuda_unmap_args(f2s_m, f2s_mapped, 0);\n"
      << "    f2s_cuda_prof_kernel = NULL;\n"
      << "    f2s_cuda_sync_present(" << n << ", f2s_host, f2s_bytes, f2s_written, 0);\n"
      << "    f2s_cpu(a);\n"
      << "    f2s_cuda_sync_present(" << n << ", f2s_host, f2s_bytes, f2s_written, 1);\n"
      << "    return;\n  }\n";
  out << "  switch (f2s_alias) {\n";
  for (size_t s = 0; s < aliased_variants.size(); ++s)
    if (!aliased_variants[s].empty())
      out << "  case " << s + 1 << ": /* arrays passed as one: the nest with them identified */\n"
          << "    " << cuda_launch_name(k, aliased_variants[s]) << "(&d, 0);\n    break;\n";
  out << "  default:\n    " << base << "_launch(&d, 0);\n  }\n";
  out << "  f2s_cuda_check(cudaGetLastError(), \"launching kernel '" << k.name << "' (" << variant
      << ")\");\n";
  // The launch is not waited for: whatever reads what it wrote waits in the
  // stream's order (a copy to the host: an update, a data exit, this call's
  // own buffers copied back below, a reduction's partials, the CPU code of a
  // later call after its grids are made current), and back-to-back calls of
  // a time step then cost a launch each, not a launch and a round trip.
  // F2S_PROFILE waits, to time the kernel; a fault inside it is then reported
  // by the call that made it (as is every fault under CUDA_LAUNCH_BLOCKING=1).
  out << "  if (f2s_env()->profile && !f2s_cuda_in_steps)\n"
      << "    f2s_cuda_check(cudaDeviceSynchronize(), \"running kernel '" << k.name << "' ("
      << variant << ")\");\n";
  out << "  f2s_cuda_unmap_args(f2s_m, " << n << ", 1);\n"
      << "  f2s_cuda_prof_kernel = NULL;\n"
      << "  static int f2s_said = 0;\n"
      << "  f2s_call_end(&f2s_said, \"" << k.name << "\", \"cuda\", \"cuda/"
      << variant.substr(variant.find('_') + 1) << "\", 0, f2s_t0);\n"
      << "  f2s_prof_size(\"" << k.name << "\", \"cuda\", f2s_size);\n"
      << "}\n\n";
  return out.str();
}

std::string print_cuda_run_prototype(const Kernel &k, const std::string &variant) {
  std::string args = "const struct f2s_" + k.name + "_args";
  return "/* Defined in the library's CUDA source: runs the call on the GPU (counting `size` in\n"
         " * the profile), or calls f2s_cpu. */\n"
         "void f2s_" +
         k.name + "_" + variant + "_run(" + args + " *a, int f2s_alias, void (*f2s_cpu)(" + args +
         " *), const struct f2s_call_size *size);\n\n";
}

namespace {

/// The device side of the halo exchange, once per CUDA file; `@LIB@` is the
/// library's name.
const char *kHaloExports =
    R"F2S(/* The device side of the MPI halo exchange (codegen/CMpiPrinter calls it):
 * subarrays of present grids packed into contiguous device buffers and
 * unpacked from them by kernels, on a stream of the calling host thread. */
struct f2s_halo_block {
  char *grid, *buffer;
  int elem, rank, unpack;
  long sizes[7], start[7], size[7];
  long count;
};

/* Element n of the block is the grid's cell at start + (n's digits in the
 * block's extents, first dimension fastest), as Fortran orders it. */
__global__ void f2s_halo_pack_kernel(const struct f2s_halo_block b) {
  for (long n = (long)blockIdx.x * blockDim.x + threadIdx.x; n < b.count;
       n += (long)gridDim.x * blockDim.x) {
    long rest = n, at = 0, stride = 1;
    for (int d = 0; d < b.rank; ++d) {
      at += (b.start[d] + rest % b.size[d]) * stride;
      rest /= b.size[d];
      stride *= b.sizes[d];
    }
    char *g = b.grid + at * b.elem, *q = b.buffer + n * b.elem;
    char *to = b.unpack ? g : q;
    const char *from = b.unpack ? q : g;
    if (b.elem == 8)
      *(unsigned long long *)to = *(const unsigned long long *)from;
    else if (b.elem == 4)
      *(unsigned *)to = *(const unsigned *)from;
    else
      for (int i = 0; i < b.elem; ++i)
        to[i] = from[i];
  }
}

/* Per host thread (CUDA's current device is one), made on first use:
 * stream 0 computes, stream 1 packs, copies and unpacks. Both synchronise
 * with the legacy default stream that the library's other calls use. */
static __thread cudaStream_t f2s_halo_streams[2];
static __thread int f2s_halo_have_streams = 0;
static cudaStream_t f2s_halo_stream(int which) {
  if (!f2s_halo_have_streams) {
    f2s_cuda_use_device();
    // The exchange's packing and unpacking kernels go ahead of the interior's
    // blocks still waiting for a multiprocessor: the halo is unpacked as
    // soon as it arrived, not after the interior.
    int least = 0, greatest = 0;
    f2s_cuda_check(cudaDeviceGetStreamPriorityRange(&least, &greatest),
                   "reading the streams' priorities");
    for (int i = 0; i < 2; ++i)
      f2s_cuda_check(cudaStreamCreateWithPriority(&f2s_halo_streams[i], cudaStreamDefault,
                                                  i == 1 ? greatest : least),
                     "creating the halo exchange's streams");
    f2s_halo_have_streams = 1;
  }
  return f2s_halo_streams[which];
}

/* Buffers per host thread, kept for the next exchange. */
static __thread void *f2s_halo_buffers[4];
static __thread size_t f2s_halo_capacity[4];

extern "C" int @LIB@_f2s_halo_on_gpu(int n, const void *const *host) {
  if (n == 0 || !f2s_cuda_wanted(n, host))
    return 0;
  for (int i = 0; i < n; ++i)
    if (!f2s_present_device(host[i]))
      return 0;
  f2s_cuda_use_device();
  return 1;
}

extern "C" void *@LIB@_f2s_halo_device(const void *host) {
  return f2s_present_device(host);
}

/* 0 and 1: the device's send and receive buffers; 2 and 3: their pinned
 * host stages. Buffer 1's handle may have gone to other processes (CUDA
 * IPC), which write into it: it is never freed (CUDA forbids freeing memory
 * another process has open), and grows at least twofold so that what is
 * kept stays within the largest buffer's size. */
extern "C" void *@LIB@_f2s_halo_buffer(int which, size_t bytes) {
  if (bytes > f2s_halo_capacity[which]) {
    if (which == 1 && bytes < 2 * f2s_halo_capacity[which])
      bytes = 2 * f2s_halo_capacity[which];
    if (f2s_halo_buffers[which] && which != 1)
      f2s_cuda_check(which < 2 ? cudaFree(f2s_halo_buffers[which])
                               : cudaFreeHost(f2s_halo_buffers[which]),
                     "freeing a halo buffer");
    f2s_halo_buffers[which] = NULL;
    f2s_cuda_check(which < 2 ? cudaMalloc(&f2s_halo_buffers[which], bytes)
                             : cudaMallocHost(&f2s_halo_buffers[which], bytes),
                   which < 2 ? "allocating a halo buffer on the device"
                             : "allocating a pinned halo buffer on the host");
    f2s_halo_capacity[which] = bytes;
  }
  return f2s_halo_buffers[which];
}

extern "C" void @LIB@_f2s_halo_pack(int unpack, void *grid, int elem, int rank, const int *sizes,
                                   const int *start, const int *size, void *buffer) {
  struct f2s_halo_block b;
  b.grid = (char *)grid;
  b.buffer = (char *)buffer;
  b.elem = elem;
  b.rank = rank;
  b.unpack = unpack;
  b.count = 1;
  for (int d = 0; d < rank; ++d) {
    b.sizes[d] = sizes[d];
    b.start[d] = start[d];
    b.size[d] = size[d];
    b.count *= size[d];
  }
  if (b.count == 0)
    return;
  const long blocks = f2s_min_long((b.count + 127) / 128, 4096L);
  cudaStream_t s = f2s_halo_stream(1);
  f2s_halo_pack_kernel<<<dim3((unsigned)blocks), dim3(128), 0, s>>>(b);
  f2s_cuda_check(cudaGetLastError(), unpack ? "launching a halo unpacking kernel"
                                            : "launching a halo packing kernel");
}

/* to_host: 1 device to host, 0 host to device, 2 device to device (this
 * GPU's buffer into another's, mapped by f2s_halo_ipc_open). */
extern "C" void @LIB@_f2s_halo_copy(void *dst, const void *src, size_t bytes, int to_host) {
  f2s_cuda_check(cudaMemcpyAsync(dst, src, bytes,
                                 to_host == 2 ? cudaMemcpyDefault
                                 : to_host    ? cudaMemcpyDeviceToHost
                                              : cudaMemcpyHostToDevice,
                                 f2s_halo_stream(1)),
                 to_host == 2 ? "copying a halo into another GPU's buffer"
                 : to_host    ? "staging a halo to the host"
                              : "staging a halo to the device");
}

/* CUDA IPC between the ranks of one host (codegen/CMpiPrinter): the handle
 * (64 bytes) of device memory of this process, 0 where it has none; another
 * process's memory mapped here by its handle, NULL where it cannot be (the
 * block then goes through MPI); and the mapping closed. */
static_assert(sizeof(cudaIpcMemHandle_t) == 64, "the MPI part sends a handle as 64 bytes");
static __thread void *f2s_halo_handle_of = NULL;
static __thread cudaIpcMemHandle_t f2s_halo_handle;
extern "C" int @LIB@_f2s_halo_ipc_handle(const void *dev, void *handle) {
  if (dev != f2s_halo_handle_of) {
    if (cudaIpcGetMemHandle(&f2s_halo_handle, (void *)dev) != cudaSuccess) {
      (void)cudaGetLastError();
      return 0;
    }
    f2s_halo_handle_of = (void *)dev;
  }
  memcpy(handle, &f2s_halo_handle, sizeof f2s_halo_handle);
  return 1;
}

extern "C" void *@LIB@_f2s_halo_ipc_open(const void *handle) {
  cudaIpcMemHandle_t h;
  void *at = NULL;
  memcpy(&h, handle, sizeof h);
  if (cudaIpcOpenMemHandle(&at, h, cudaIpcMemLazyEnablePeerAccess) != cudaSuccess) {
    (void)cudaGetLastError();
    return NULL;
  }
  return at;
}

extern "C" void @LIB@_f2s_halo_ipc_close(void *peer) {
  if (cudaIpcCloseMemHandle(peer) != cudaSuccess)
    (void)cudaGetLastError();
}

extern "C" void @LIB@_f2s_halo_sync(int which) {
  f2s_cuda_check(cudaStreamSynchronize(f2s_halo_stream(which)),
                 which ? "exchanging a halo on the device" : "computing with a halo exchange");
  if (which == 0) /* the box calls' reductions, deferred */
    f2s_cuda_finish_deferred();
}

)F2S";

} // namespace

std::string print_cuda_halo_exports(const std::string &lib) {
  std::string s = kHaloExports;
  for (size_t at = s.find("@LIB@"); at != std::string::npos; at = s.find("@LIB@", at))
    s.replace(at, 5, lib);
  return s;
}

std::string print_cuda_box_entry(const Kernel &box, const std::vector<std::string> &variants,
                                 const std::string &symbol, const std::string &selector) {
  assert(!variants.empty() && "a box has a variant at each tuned size");
  std::string proto = print_c_entry_prototype(box, symbol);
  proto.replace(0, 5 + symbol.size() + 1, "int " + symbol + "(int f2s_stream, ");
  std::ostringstream out;
  out << "/* '" << box.name << "' on the device copies of its grids, on a halo stream. */\n";
  out << "extern \"C\" " << proto << " {\n";
  out << "  struct f2s_" << box.name << "_args d = {";
  for (size_t i = 0; i < box.args.size(); ++i)
    out << (i ? ", " : "") << c_name(box.args[i].name);
  out << "};\n";
  for (const Variable &v : box.args)
    if (v.is_grid())
      out << "  if (!(d." << c_name(v.name) << " = (decltype(d." << c_name(v.name)
          << "))f2s_present_device(" << c_name(v.name) << ")))\n    return 0;\n";
  auto launch = [&](const std::string &variant, const std::string &pad) {
    // Its reductions are combined at the procedure's end (halo_sync(0)).
    out << pad << "f2s_cuda_deferring = 1;\n"
        << pad << cuda_launch_name(box, variant) << "(&d, f2s_halo_stream(f2s_stream));\n"
        << pad << "f2s_cuda_deferring = 0;\n"
        << pad << "f2s_cuda_check(cudaGetLastError(), \"launching kernel '" << box.name << "' ("
        << variant << ")\");\n";
  };
  // The distinct variants, in order of their first size.
  std::vector<std::string> distinct;
  for (const std::string &v : variants)
    if (std::find(distinct.begin(), distinct.end(), v) == distinct.end())
      distinct.push_back(v);
  if (distinct.size() == 1) {
    launch(distinct[0], "  ");
    out << "  return 1;\n}\n\n";
    return out.str();
  }
  assert(!selector.empty() && "variants that differ by size need the size selector");
  out << "  switch (" << selector
      << "(&d)) { /* the variant tuned at the size nearest the call's */\n";
  for (size_t c = 0; c < distinct.size(); ++c) {
    std::string labels;
    for (size_t i = 0; i < variants.size(); ++i)
      if (variants[i] == distinct[c] && c + 1 < distinct.size())
        labels += (labels.empty() ? "  " : " ") + ("case " + std::to_string(i)) + ":";
    out << (c + 1 < distinct.size() ? labels : "  default:") << "\n";
    launch(distinct[c], "    ");
    out << "    break;\n";
  }
  out << "  }\n  return 1;\n}\n\n";
  return out.str();
}

std::string print_cuda_data_exports(const std::string &lib) {
  std::ostringstream out;
  out << "/* Data regions (OpenACC's enter data copyin, update host/device, exit data\n"
         " * copyout) on arrays given by their first element and size in bytes. */\n";
  out << "extern \"C\" void " << lib
      << "_data_enter(const void *p, size_t bytes) { f2s_cuda_enter(p, bytes); }\n";
  out << "extern \"C\" void " << lib
      << "_data_update_host(void *p, size_t bytes) { f2s_cuda_update_host(p, bytes); }\n";
  out << "extern \"C\" void " << lib
      << "_data_update_device(const void *p, size_t bytes) { f2s_cuda_update_device(p, bytes); "
         "}\n";
  out << "extern \"C\" void " << lib
      << "_data_exit(void *p, size_t bytes) { f2s_cuda_exit(p, bytes, 1); }\n";
  out << "extern \"C\" void " << lib
      << "_data_delete(const void *p, size_t bytes) { f2s_cuda_exit(p, bytes, 0); }\n";
  out << "extern \"C\" void " << lib
      << "_data_update_host_if_present(void *p) { f2s_cuda_update_if_present(p, 0); }\n";
  out << "extern \"C\" void " << lib
      << "_data_update_device_if_present(const void *p) { f2s_cuda_update_if_present(p, 1); }\n";
  out << "extern \"C\" long long " << lib
      << "_data_transfers(void) { return f2s_cuda_transfer_count; }\n";
  // For the library's time loops (codegen/CTimeLoop), not its users.
  out << "extern \"C\" int " << lib
      << "_f2s_steps_begin(int n, const void *const *host, const size_t *bytes) {\n"
         "  return f2s_cuda_steps_begin(n, host, bytes);\n}\n";
  out << "extern \"C\" void " << lib
      << "_f2s_steps_end(int n, const void *const *host, const size_t *bytes, const int "
         "*written) {\n"
         "  f2s_cuda_steps_end(n, host, bytes, written);\n}\n\n";
  return out.str();
}

std::string print_cuda_data_c_prototypes(const std::string &lib) {
  std::ostringstream out;
  out << "/* CUDA data regions: keep arrays on the GPU across kernel calls. */\n"
      << "void " << lib << "_data_enter(const void *p, size_t bytes);\n"
      << "void " << lib << "_data_update_host(void *p, size_t bytes);\n"
      << "void " << lib << "_data_update_device(const void *p, size_t bytes);\n"
      << "void " << lib << "_data_exit(void *p, size_t bytes);\n"
      << "void " << lib << "_data_delete(const void *p, size_t bytes);\n"
      << "void " << lib << "_data_update_host_if_present(void *p);\n"
      << "void " << lib << "_data_update_device_if_present(const void *p);\n"
      << "long long " << lib << "_data_transfers(void);\n";
  return out.str();
}

std::string print_cuda_data_fortran_interfaces(const std::string &lib) {
  std::ostringstream out;
  out << "    ! CUDA data regions: call NAME(a, c_sizeof(a)) with the whole array.\n";
  for (const char *what : {"enter", "update_host", "update_device", "exit", "delete"}) {
    std::string n = lib + "_data_" + what;
    out << "    subroutine " << n << "(a, nbytes) bind(C, name='" << n << "')\n"
        << "      use, intrinsic :: iso_c_binding, only: c_size_t\n"
        << "      type(*), dimension(*) :: a\n"
        << "      integer(c_size_t), value :: nbytes\n"
        << "    end subroutine " << n << "\n";
  }
  // From the element given to the end of the present array that holds it;
  // nothing where none does.
  for (const char *what : {"update_host_if_present", "update_device_if_present"}) {
    std::string n = lib + "_data_" + what;
    out << "    subroutine " << n << "(a) bind(C, name='" << n << "')\n"
        << "      type(*), dimension(*) :: a\n"
        << "    end subroutine " << n << "\n";
  }
  std::string n = lib + "_data_transfers";
  out << "    ! Host-device copies made by the library so far.\n"
      << "    integer(c_long_long) function " << n << "() bind(C, name='" << n << "')\n"
      << "      use, intrinsic :: iso_c_binding, only: c_long_long\n"
      << "    end function " << n << "\n";
  // A long library name makes these lines longer than free form allows.
  return wrap_fortran_lines(out.str());
}

} // namespace f2s
