#include "transforms/FirstTouch.h"

#include "ast/IRVisitor.h"
#include "transforms/Names.h"

#include <cassert>
#include <map>
#include <optional>

namespace f2s {

namespace {

/// For each grid, the loop variable each dimension is indexed by in every
/// access with one positive factor (c*v + o), or nothing when accesses
/// disagree or use a constant; and per dimension the factor and the smallest
/// offset.
class DimensionVars : public IRVisitor {
public:
  std::map<std::string, std::vector<std::optional<std::string>>> dims;
  std::map<std::string, std::vector<bool>> mixed;
  std::map<std::string, std::vector<int64_t>> factor, first_offset;

protected:
  void visit_grid_ref(const GridRef *op) override { record(op->grid, op->index); }
  void visit_store(const Store *op) override {
    record(op->grid, op->index);
    IRVisitor::visit_store(op);
  }

private:
  void record(const std::string &grid, const std::vector<Index> &index) {
    auto &d = dims[grid];
    auto &m = mixed[grid];
    auto &c = factor[grid];
    auto &o = first_offset[grid];
    if (d.empty()) {
      d.resize(index.size());
      m.assign(index.size(), false);
      c.assign(index.size(), 0);
      o.assign(index.size(), 0);
    }
    for (size_t i = 0; i < index.size() && i < d.size(); ++i) {
      const Index &ix = index[i];
      bool plain = !ix.var.empty() && ix.coeff > 0;
      if (!plain || (d[i] && (*d[i] != ix.var || c[i] != ix.coeff))) {
        m[i] = true;
        continue;
      }
      o[i] = d[i] ? std::min(o[i], ix.offset) : ix.offset;
      d[i] = ix.var;
      c[i] = ix.coeff;
    }
  }
};

Expr add(const Expr &a, const Expr &b) {
  return Binary::make(BinaryOp::Add, a, b);
}
Expr sub(const Expr &a, const Expr &b) {
  return Binary::make(BinaryOp::Sub, a, b);
}
Expr mul(const Expr &a, const Expr &b) {
  return Binary::make(BinaryOp::Mul, a, b);
}
Expr min(const Expr &a, const Expr &b) {
  return Call::make(Intrinsic::Min, {a, b});
}
Expr max(const Expr &a, const Expr &b) {
  return Call::make(Intrinsic::Max, {a, b});
}

} // namespace

Kernel first_touch_kernel(const Kernel &k) {
  std::vector<const For *> nest = perfect_nest(k.body);
  assert(!nest.empty() && "a kernel's body is its loop nest");
  std::map<std::string, const For *> loop_of;
  for (const For *f : nest)
    loop_of[f->var] = f;

  DimensionVars uses;
  uses.visit(k.body);
  std::set<std::string> used = names::in_use(k);

  std::vector<Stmt> touches;
  for (const Variable &g : k.args) {
    if (!g.is_grid())
      continue;
    // Which loop indexes which dimension; a loop indexing two dimensions keeps
    // the first.
    std::vector<const For *> by_dim(g.rank(), nullptr);
    std::set<std::string> indexing;
    auto found = uses.dims.find(g.name);
    for (int d = 0; found != uses.dims.end() && d < g.rank(); ++d) {
      const auto &v = found->second[d];
      if (!v || uses.mixed[g.name][d] || !loop_of.count(*v) || indexing.count(*v))
        continue;
      by_dim[d] = loop_of.at(*v);
      indexing.insert(*v);
    }

    std::vector<Index> element;
    std::vector<std::string> vars(g.rank());
    for (int d = 0; d < g.rank(); ++d) {
      vars[d] = names::fresh(used, g.name + "_d" + std::to_string(d + 1));
      element.push_back(Index{vars[d], 1, 0});
    }
    Expr zero = g.type == Type::Int32  ? IntImm::make(0)
                : g.type == Type::Bool ? IntImm::make_bool(false)
                                       : FloatImm::make(0.0, g.type);
    Stmt body = Store::make(g.name, element, zero, g.loc);
    // Dimension 0 varies fastest (column-major), so it is the innermost loop.
    for (int d = 0; d < g.rank(); ++d) {
      Expr glo = g.dims[d].lo, ghi = g.dims[d].hi;
      Expr lo = glo, hi = ghi;
      if (const For *f = by_dim[d]) {
        // [max(v, glo), min(v, ghi)], widened to glo at the loop's first point
        // and to ghi at its last: min(v - lo, 1) is 0 exactly at the first.
        // With subscripts c*v + o (multigrid, strided loops) point v owns the
        // c elements from c*v + o0 (o0 the smallest offset), which tile the
        // dimension from one point to the next.
        Expr v = Var::make(f->var, Type::Int32);
        Expr first = v, last = v;
        if (int64_t c = uses.factor[g.name][d]; c != 1) {
          int64_t o0 = uses.first_offset[g.name][d];
          auto at = [&](int64_t o) {
            Expr cv = mul(IntImm::make(c), v);
            return o < 0 ? sub(cv, IntImm::make(-o)) : o > 0 ? add(cv, IntImm::make(o)) : cv;
          };
          first = at(o0);
          last = at(o0 + c - 1);
        }
        lo = add(glo, mul(min(sub(v, f->lo), IntImm::make(1)), sub(max(first, glo), glo)));
        hi = sub(ghi, mul(min(sub(f->hi, v), IntImm::make(1)), sub(ghi, min(last, ghi))));
      }
      body = For::make(vars[d], lo, hi, IntImm::make(1), LoopExec::Serial, body, g.loc);
    }
    // Loops that index no dimension: only their first point touches.
    for (size_t l = nest.size(); l-- > 0;) {
      const For *f = nest[l];
      if (indexing.count(f->var))
        continue;
      std::string once = names::fresh(used, f->var + "_once");
      body = For::make(once, Var::make(f->var, Type::Int32), f->lo, IntImm::make(1),
                       LoopExec::Serial, body, g.loc);
    }
    touches.push_back(body);
  }

  // The nest itself, unchanged but for the point body; a Block even for one
  // grid, so the touch loops are never taken for part of the nest.
  Stmt body = Block::make(touches, k.loc);
  for (size_t l = nest.size(); l-- > 0;) {
    const For *f = nest[l];
    body = For::make(f->var, f->lo, f->hi, f->step, f->exec, f->dist, body, f->loc);
  }
  Kernel out = k;
  out.name = k.name + "_first_touch";
  out.body = body;
  return out;
}

} // namespace f2s
