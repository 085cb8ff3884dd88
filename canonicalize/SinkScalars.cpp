#include "canonicalize/SinkScalars.h"

#include "ast/IRVisitor.h"
#include "canonicalize/FoldConstants.h"
#include "canonicalize/LoopBodies.h"

#include <algorithm>
#include <optional>

#include <map>
#include <set>

namespace f2s {
namespace {

const char *const kRegion = "'!$f2s stencil' region";

/// What a statement between two loops (in the body of loop `level`, before
/// the loop at `level + 1`) assigns or tests, in source order: a scalar
/// assignment (`var` and its value), or the condition of an IF around such
/// assignments (`var` empty).
struct Between {
  std::string var;
  Expr value;
  SourceLoc loc;
  size_t level;
};

/// The scalars a statement assigns, with the first place each is assigned.
struct Assigned : IRVisitor {
  std::map<std::string, SourceLoc> at;
  void visit_assign(const Assign *a) override {
    at.try_emplace(a->var, a->loc);
    IRVisitor::visit_assign(a);
  }
};

/// What an expression reads.
struct Reads : IRVisitor {
  std::vector<const Var *> vars;
  std::vector<const GridRef *> grids;
  void visit_var(const Var *v) override { vars.push_back(v); }
  void visit_grid_ref(const GridRef *g) override { grids.push_back(g); }
};

/// The arrays a statement stores into.
struct Stored : IRVisitor {
  std::set<std::string> grids;
  void visit_store(const Store *s) override {
    grids.insert(s->grid);
    IRVisitor::visit_store(s);
  }
};

std::string line_of(const SourceLoc &l) {
  return l.known() ? " (line " + std::to_string(l.line) + ")" : "";
}

[[noreturn]] void refuse_between(const SourceLoc &loc) {
  throw UserError(loc, std::string("Only assignments to scalars may come between the DO loops of "
                                   "a ") +
                           kRegion +
                           " whose point is a column, before the inner DO loop; move the "
                           "statement into the column");
}

/// Adds the assignments and conditions of `s`, a statement between the loops
/// at `level`, to `between`; false if `s` is anything but scalar assignments,
/// under IFs or not.
bool add_between(const Stmt &s, size_t level, std::vector<Between> &between) {
  if (const Assign *a = as<Assign>(s)) {
    between.push_back({a->var, a->value, a->loc, level});
    return true;
  }
  if (const Block *b = as<Block>(s)) {
    for (const Stmt &t : b->stmts)
      if (!add_between(t, level, between))
        return false;
    return true;
  }
  if (const IfThenElse *i = as<IfThenElse>(s)) {
    between.push_back({"", i->cond, i->loc, level});
    return add_between(i->then_case, level, between) &&
           (!i->else_case || add_between(i->else_case, level, between));
  }
  return false;
}

/// Why an outer level's statement moves into the point as it does (the
/// IR's choice, issue 38): the targets take a perfect nest only, every one
/// of them (blocks, chunks, register blocks and CUDA threads are all cut
/// from the nest's loops, perfect_nest()), so a statement that the source
/// runs once per iteration of the outer loops becomes a statement of the
/// point that holds at exactly one point of the inner loops. At the first
/// point (before the inner loop) or the last (after it), each runs in the
/// source's order with the inner loop's statements of the same outer
/// iteration, also on a serial schedule, and its domain is the outer loops'
/// iterations, which is what ast/LoopDependences sees through the guard
/// (an affine condition on loop variables, modelled exactly): a statement
/// that reads what another point wrote (`b(nx, j) = b(2, j)`) is a
/// dependence carried by the inner loop, which the analysis orders or
/// refuses like any other. An inner loop that may run no trip would leave
/// no point to hold the statement, so it runs at least one. (Statements kept
/// at their level in the IR would need every target to run code between
/// loops it spreads over threads: a CPU chunk of the loop over i, or a CUDA
/// thread, would have to ask whether it holds the row's first point, which
/// is this guard, printed once instead of by each target.)
class OuterLevels {
public:
  OuterLevels(const std::vector<const For *> &loops, const std::vector<int> &guarded_levels)
      : loops_(loops) {
    int lowest = static_cast<int>(loops.size());
    for (int l : guarded_levels)
      lowest = std::min(lowest, l);
    for (size_t e = 0; e < loops.size(); ++e) {
      const For *f = loops[e];
      Expr hi = f->hi;
      bool widen = static_cast<int>(e) > lowest && !surely_runs(f);
      if (widen)
        hi = Call::make(Intrinsic::Max, {f->hi, f->lo}, f->loc);
      widened_.push_back(widen);
      hi_.push_back(hi);
    }
  }

  /// Whether the statements of `level` hold at this point: each widened
  /// loop at or above it is at one of its own trips.
  Expr real(size_t level) const {
    Expr cond;
    for (size_t e = 0; e <= level && e < loops_.size(); ++e)
      if (widened_[e])
        cond = both(cond, Binary::make(BinaryOp::Le, var(e), loops_[e]->hi, loops_[e]->loc));
    return cond;
  }

  /// real(level), and every loop below `level` at its first trip (or last).
  Expr once(size_t level, bool last) const {
    Expr cond = real(level);
    for (size_t e = level + 1; e < loops_.size(); ++e) {
      const For *f = loops_[e];
      Expr at = last != f->reverse ? hi_[e] : f->lo;
      cond = both(cond, Binary::make(BinaryOp::Eq, var(e), at, f->loc));
    }
    return cond;
  }

  /// Loop `e` with its upper bound widened (if it is) around `body`.
  Stmt loop(size_t e, Stmt body) const {
    const For *f = loops_[e];
    return For::reversed(std::make_shared<const For>(f->var, f->lo, hi_[e], f->step, f->exec,
                                                     std::move(body), f->loc, f->dist),
                         f->reverse);
  }

  static Stmt under(const Expr &cond, const Stmt &s) {
    return cond ? IfThenElse::make(cond, s, nullptr, s->loc) : s;
  }

private:
  /// Whether the loop runs at least one trip whatever the call: constant
  /// bounds, or hi - lo a constant that is not negative.
  static bool surely_runs(const For *f) {
    Expr span = fold_constants(Binary::make(BinaryOp::Sub, f->hi, f->lo, f->loc));
    const IntImm *c = as<IntImm>(span);
    return c && c->value >= 0;
  }
  Expr var(size_t e) const { return Var::make(loops_[e]->var, Type::Int32, loops_[e]->loc); }
  static Expr both(const Expr &a, const Expr &b) {
    return a ? Binary::make(BinaryOp::And, a, b, b->loc) : b;
  }

  const std::vector<const For *> &loops_;
  std::vector<bool> widened_;
  std::vector<Expr> hi_;
};

/// A loop variable of a level below `level` that statement `s` of that
/// level reads, where it has no value of its loop's.
std::optional<std::pair<std::string, SourceLoc>>
inner_var_read(const Stmt &s, const std::vector<const For *> &loops, size_t level) {
  std::set<std::string> inner;
  for (size_t l = level + 1; l < loops.size(); ++l)
    inner.insert(loops[l]->var);
  struct Reads : IRVisitor {
    const std::set<std::string> *inner;
    std::optional<std::pair<std::string, SourceLoc>> found;
    void visit_var(const Var *v) override {
      if (!found && inner->count(v->name))
        found = {{v->name, v->loc}};
    }
    void indices(const std::vector<Index> &ix, const SourceLoc &loc) {
      for (const Index &i : ix)
        if (!found && inner->count(i.var))
          found = {{i.var, loc}};
    }
    void visit_grid_ref(const GridRef *g) override {
      indices(g->index, g->loc);
      IRVisitor::visit_grid_ref(g);
    }
    void visit_store(const Store *st) override {
      indices(st->index, st->loc);
      IRVisitor::visit_store(st);
    }
  } reads;
  reads.inner = &inner;
  reads.visit(s);
  return reads.found;
}

} // namespace

Stmt sink_scalars(const Stmt &nest, const Stmt &hidden, const std::vector<std::string> &buffers,
                  const std::set<std::string> &inner_loops, std::vector<OuterStatement> *outer) {
  auto holds_inner_loop = [&](const Stmt &body) {
    for (const Stmt &s : statements(body))
      if (const For *f = as<For>(s); f && inner_loops.count(f->var))
        return true;
    return false;
  };
  // Down the nest: the loops, and the statements before and after each
  // inner loop. A statement before it that assigns scalars only is the
  // same at every point and runs at each (`between`); any other runs once
  // per iteration of its level (`Moved::once`).
  struct Moved {
    Stmt stmt;
    size_t level;
    bool once = false, after = false;
  };
  std::vector<const For *> loops;
  std::vector<Between> between;
  std::vector<Moved> moved;
  for (const For *f = as<For>(nest); f;) {
    loops.push_back(f);
    if (!contains_for(f->body) || holds_inner_loop(f->body))
      break;
    size_t level = loops.size() - 1;
    // A loop only inside an IF is no loop of the nest: this body is the point.
    std::vector<Stmt> stmts = statements(f->body);
    auto first_loop = std::find_if(stmts.begin(), stmts.end(),
                                   [](const Stmt &s) { return as<For>(s) != nullptr; });
    if (first_loop == stmts.end())
      break;
    const For *inner = nullptr;
    std::vector<Moved> here;
    for (const Stmt &s : stmts) {
      if (const For *g = as<For>(s); g && !inner) {
        inner = g;
        continue;
      }
      if (inner && contains_for(s))
        throw UserError(s->loc, std::string("A second DO loop after the inner DO loop of a ") +
                                    kRegion +
                                    " is accepted only as a line buffer filled, then read, by "
                                    "the last loop; annotate each loop with a '!$f2s stencil' of "
                                    "its own");
      std::vector<Between> scalars;
      bool scalar = !inner && add_between(s, level, scalars);
      if (!scalar && !outer)
        refuse_between(s->loc);
      if (scalar)
        between.insert(between.end(), scalars.begin(), scalars.end());
      here.push_back({s, level, !scalar, inner != nullptr});
    }
    moved.insert(moved.end(), here.begin(), here.end());
    f = inner;
  }
  if (moved.empty())
    return nest;

  const For *innermost = loops.back();
  Assigned in_point, once_assigned;
  in_point.visit(innermost->body);
  for (const Moved &m : moved)
    if (m.once)
      once_assigned.visit(m.stmt);
  Stored written;
  written.visit(nest);
  if (hidden) {
    in_point.visit(hidden);
    written.visit(hidden);
  }
  written.grids.insert(buffers.begin(), buffers.end());
  for (size_t n = 0; n < between.size(); ++n) {
    const Between &a = between[n];
    // What an IF between the loops tests is read there like a value.
    std::string what = "'" + a.var + "' is assigned between the DO loops of the " + kRegion;
    std::string from =
        a.var.empty() ? "The IF between the DO loops of the " + std::string(kRegion) + " tests "
                      : what + " from ";
    // Assigned once for the whole nest: then every point sees this value.
    if (auto again = a.var.empty() ? in_point.at.end() : in_point.at.find(a.var);
        again != in_point.at.end())
      throw UserError(a.loc, what + " and again inside the innermost loop" +
                                 line_of(again->second) +
                                 "; assign it in one place, inside the innermost loop");
    // Assigned again between the same two loops (`damp = 0`, then `IF (z >
    // zs) damp = ...`), it moves with the others in source order; between
    // other loops, it changes from row to row.
    for (size_t m = 0; m < between.size(); ++m)
      if (m != n && !a.var.empty() && between[m].var == a.var && between[m].level != a.level)
        throw UserError(between[std::max(m, n)].loc,
                        "'" + a.var + "' is assigned twice between the DO loops of the " + kRegion +
                            "; assign it in one place, inside the innermost loop");
    std::string move = a.var.empty() ? "the IF" : "the assignment";
    auto inner_var = [&](const std::string &name) {
      for (size_t l = a.level + 1; l < loops.size(); ++l)
        if (loops[l]->var == name)
          return true;
      return false;
    };
    Reads reads;
    reads.visit(a.value);
    // An array the nest does not write has one value per element for the
    // whole nest (`rdx = 1/dx(i)` between the loops over `i` and `k`).
    for (const GridRef *g : reads.grids) {
      if (written.grids.count(g->grid))
        throw UserError(g->loc, from + "array '" + g->grid +
                                    "', which the nest writes; only outer loop variables, scalars "
                                    "and arrays the nest does not write may be read there, so "
                                    "move " +
                                    move + " into the innermost loop");
      for (const Index &ix : g->index)
        if (inner_var(ix.var))
          throw UserError(g->loc, from + "'" + g->grid + "' at loop variable '" + ix.var +
                                      "' of an inner loop, which has no value there; move " + move +
                                      " into the innermost loop");
    }
    for (const Var *v : reads.vars) {
      if (inner_var(v->name))
        throw UserError(v->loc, from + "loop variable '" + v->name +
                                    "' of an inner loop, which has no value there; move " + move +
                                    " into the innermost loop");
      // A scalar the nest changes after this assignment, or in the point,
      // would give this one another value at some points.
      bool set_before = false,
           set_elsewhere = in_point.at.count(v->name) > 0 || once_assigned.at.count(v->name) > 0;
      for (size_t m = 0; m < between.size(); ++m)
        if (between[m].var == v->name)
          (m < n ? set_before : set_elsewhere) = true;
      if (set_elsewhere && !set_before)
        throw UserError(v->loc, from + "'" + v->name + "', which the nest assigns after it; move " +
                                    move + " into the innermost loop");
    }
  }

  // The statements that run once per iteration of their level.
  std::vector<int> once_levels;
  for (const Moved &m : moved) {
    if (!m.once)
      continue;
    once_levels.push_back(static_cast<int>(m.level));
    if (auto v = inner_var_read(m.stmt, loops, m.level))
      throw UserError(v->second, "Loop variable '" + v->first + "' is read " +
                                     (m.after ? "after" : "before") + " its DO loop, between " +
                                     "the DO loops of the " + kRegion +
                                     ", where it has no value of the loop's; write the element "
                                     "with the bound of the loop instead");
    struct Stores : IRVisitor {
      std::vector<OuterStatement> *out;
      int depth;
      void visit_store(const Store *st) override {
        out->push_back({st->loc, depth});
        IRVisitor::visit_store(st);
      }
      void visit_assign(const Assign *a) override {
        out->push_back({a->loc, depth});
        IRVisitor::visit_assign(a);
      }
    } stores;
    stores.out = outer;
    stores.depth = static_cast<int>(m.level) + 1;
    stores.visit(m.stmt);
  }
  OuterLevels levels(loops, once_levels);

  // Up the nest: the statements before the inner loops first in the point,
  // in source order, then the innermost body, then the statements after the
  // inner loops, the innermost level's first.
  std::vector<Stmt> point;
  for (const Moved &m : moved)
    if (!m.after)
      point.push_back(
          OuterLevels::under(m.once ? levels.once(m.level, false) : levels.real(m.level), m.stmt));
  std::vector<Stmt> body = statements(innermost->body);
  if (Expr real = levels.real(loops.size() - 1))
    point.push_back(IfThenElse::make(real, Block::make(body, innermost->body->loc), nullptr,
                                     innermost->body->loc));
  else
    point.insert(point.end(), body.begin(), body.end());
  // After the inner loops: by level, innermost first, each level's in
  // source order.
  for (size_t l = loops.size(); l-- > 0;)
    for (const Moved &m : moved)
      if (m.after && m.level == l)
        point.push_back(OuterLevels::under(levels.once(m.level, true), m.stmt));
  Stmt out = levels.loop(loops.size() - 1, Block::make(std::move(point), innermost->body->loc));
  for (size_t l = loops.size() - 1; l-- > 0;)
    out = levels.loop(l, out);
  return out;
}

} // namespace f2s
