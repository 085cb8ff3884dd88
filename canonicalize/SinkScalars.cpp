#include "canonicalize/SinkScalars.h"

#include "ast/IRVisitor.h"
#include "canonicalize/LoopBodies.h"

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
  throw UserError(loc, std::string("The DO loops of a ") + kRegion +
                           " must be perfectly nested; only assignments to scalars may come "
                           "between them, before the inner DO loop");
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

} // namespace

Stmt sink_scalars(const Stmt &nest, const Stmt &hidden, const std::vector<std::string> &buffers,
                  const std::set<std::string> &inner_loops) {
  auto holds_inner_loop = [&](const Stmt &body) {
    for (const Stmt &s : statements(body))
      if (const For *f = as<For>(s); f && inner_loops.count(f->var))
        return true;
    return false;
  };
  // Down the nest: the loops, and the assignments before each inner loop.
  std::vector<const For *> loops;
  std::vector<Between> between;
  std::vector<Stmt> moved;
  for (const For *f = as<For>(nest); f;) {
    loops.push_back(f);
    if (!contains_for(f->body) || holds_inner_loop(f->body))
      break;
    const For *inner = nullptr;
    for (const Stmt &s : statements(f->body)) {
      if (inner)
        refuse_between(s->loc);
      if ((inner = as<For>(s)))
        continue;
      if (!add_between(s, loops.size() - 1, between))
        refuse_between(s->loc);
      moved.push_back(s);
    }
    f = inner;
  }
  if (moved.empty())
    return nest;

  const For *innermost = loops.back();
  Assigned in_point;
  in_point.visit(innermost->body);
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
      bool set_before = false, set_elsewhere = in_point.at.count(v->name) > 0;
      for (size_t m = 0; m < between.size(); ++m)
        if (between[m].var == v->name)
          (m < n ? set_before : set_elsewhere) = true;
      if (set_elsewhere && !set_before)
        throw UserError(v->loc, from + "'" + v->name + "', which the nest assigns after it; move " +
                                    move + " into the innermost loop");
    }
  }

  // Up the nest: the statements first in the point, in source order, then
  // each outer loop around the one inside it alone.
  std::vector<Stmt> point = moved;
  for (const Stmt &s : statements(innermost->body))
    point.push_back(s);
  Stmt body = with_body(innermost, Block::make(std::move(point), innermost->body->loc));
  for (size_t l = loops.size() - 1; l-- > 0;)
    body = with_body(loops[l], body);
  return body;
}

} // namespace f2s
