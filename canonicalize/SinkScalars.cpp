#include "canonicalize/SinkScalars.h"

#include "ast/IRVisitor.h"
#include "canonicalize/LoopBodies.h"

#include <map>
#include <set>

namespace f2s {
namespace {

const char *const kRegion = "'!$f2s stencil' region";

/// A scalar assignment between two loops: in the body of loop `level`, before
/// the loop at `level + 1`.
struct Between {
  const Assign *assign;
  Stmt stmt;
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
  const GridRef *grid = nullptr;
  void visit_var(const Var *v) override { vars.push_back(v); }
  void visit_grid_ref(const GridRef *g) override {
    if (!grid)
      grid = g;
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

} // namespace

Stmt sink_scalars(const Stmt &nest) {
  // Down the nest: the loops, and the assignments before each inner loop.
  std::vector<const For *> loops;
  std::vector<Between> between;
  for (const For *f = as<For>(nest); f;) {
    loops.push_back(f);
    if (!contains_for(f->body))
      break;
    const For *inner = nullptr;
    for (const Stmt &s : statements(f->body)) {
      if (inner)
        refuse_between(s->loc);
      if ((inner = as<For>(s)))
        continue;
      const Assign *a = as<Assign>(s);
      if (!a)
        refuse_between(s->loc);
      between.push_back({a, s, loops.size() - 1});
    }
    f = inner;
  }
  if (between.empty())
    return nest;

  const For *innermost = loops.back();
  Assigned in_point;
  in_point.visit(innermost->body);
  for (size_t n = 0; n < between.size(); ++n) {
    const Assign *a = between[n].assign;
    // Assigned once for the whole nest: then every point sees this value.
    if (auto again = in_point.at.find(a->var); again != in_point.at.end())
      throw UserError(a->loc, "'" + a->var + "' is assigned between the DO loops of the " +
                                  kRegion + " and again inside the innermost loop" +
                                  line_of(again->second) +
                                  "; assign it in one place, inside the innermost loop");
    for (size_t m = 0; m < between.size(); ++m)
      if (m != n && between[m].assign->var == a->var)
        throw UserError(between[std::max(m, n)].assign->loc,
                        "'" + a->var + "' is assigned twice between the DO loops of the " +
                            kRegion + "; assign it in one place, inside the innermost loop");
    Reads reads;
    reads.visit(a->value);
    if (reads.grid)
      throw UserError(reads.grid->loc, "'" + a->var + "' is assigned between the DO loops of the " +
                                           kRegion + " from array '" + reads.grid->grid +
                                           "'; only outer loop variables and scalars may be read "
                                           "there, so move the assignment into the innermost loop");
    for (const Var *v : reads.vars) {
      for (size_t l = between[n].level + 1; l < loops.size(); ++l)
        if (loops[l]->var == v->name)
          throw UserError(v->loc, "'" + a->var + "' is assigned between the DO loops of the " +
                                      kRegion + " from loop variable '" + v->name +
                                      "' of an inner loop, which has no value there; move the "
                                      "assignment into the innermost loop");
      // A scalar the nest changes after this assignment, or in the point,
      // would give this one another value at some points.
      bool set_before = false, set_elsewhere = in_point.at.count(v->name) > 0;
      for (size_t m = 0; m < between.size(); ++m)
        if (between[m].assign->var == v->name)
          (m < n ? set_before : set_elsewhere) = true;
      if (set_elsewhere && !set_before)
        throw UserError(v->loc, "'" + a->var + "' is assigned between the DO loops of the " +
                                    kRegion + " from '" + v->name +
                                    "', which the nest assigns after it; move the assignment "
                                    "into the innermost loop");
    }
  }

  // Up the nest: the assignments first in the point, in source order, then
  // each outer loop around the one inside it alone.
  std::vector<Stmt> point;
  for (const Between &b : between)
    point.push_back(b.stmt);
  for (const Stmt &s : statements(innermost->body))
    point.push_back(s);
  Stmt body = with_body(innermost, Block::make(std::move(point), innermost->body->loc));
  for (size_t l = loops.size() - 1; l-- > 0;)
    body = with_body(loops[l], body);
  return body;
}

} // namespace f2s
