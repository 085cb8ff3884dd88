#include "canonicalize/ForwardLineBuffers.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "canonicalize/LoopBodies.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace f2s {
namespace {

const char *const kRegion = "'!$f2s stencil' region";

std::string at_line(const SourceLoc &l) {
  return l.known() ? "at line " + std::to_string(l.line) : "beside it";
}

const char *fortran_type(Type t) {
  switch (t) {
  case Type::Int32:
    return "INTEGER";
  case Type::Float32:
    return "REAL(4)";
  case Type::Float64:
    return "REAL(8)";
  case Type::Bool:
    return "LOGICAL";
  }
  return "?";
}

/// A loop bound as `base + c`: bounds that differ by a constant (`n - 1`
/// and `n + 1`) share the base.
struct Split {
  std::string base;
  int64_t c = 0;
};
Split split(const Expr &e) {
  if (const IntImm *i = as<IntImm>(e))
    return {"", i->value};
  if (const Binary *b = as<Binary>(e)) {
    if (b->op == BinaryOp::Add || b->op == BinaryOp::Sub)
      if (const IntImm *i = as<IntImm>(b->b)) {
        Split s = split(b->a);
        s.c += b->op == BinaryOp::Add ? i->value : -i->value;
        return s;
      }
    if (b->op == BinaryOp::Add)
      if (const IntImm *i = as<IntImm>(b->a)) {
        Split s = split(b->b);
        s.c += i->value;
        return s;
      }
  }
  return {print_expr(e), 0};
}

/// Whether `lo <= e` for every value of the bases (same base, smaller
/// constant): false when it cannot tell.
bool at_most(const Expr &lo, const Expr &e, int64_t shift) {
  Split a = split(lo), b = split(e);
  return a.base == b.base && a.c <= b.c + shift;
}

/// One buffer: its value at the filling loop's index, that loop, and the
/// subscript it is filled at (`b(i)`, or `x1(2*j - 1)` at a fine-grid index).
struct Definition {
  Expr value;
  const For *loop;
  SourceLoc loc;
  Index at;
};

/// `e` with the loop variable `var` read as `var + c`.
class Shift : public IRMutator {
public:
  Shift(std::string var, int64_t c) : var_(std::move(var)), c_(c) {}
  using IRMutator::mutate;

protected:
  Expr visit_var(const Var *v, const Expr &self) override {
    if (v->name != var_ || c_ == 0)
      return self;
    return Binary::make(c_ > 0 ? BinaryOp::Add : BinaryOp::Sub, self,
                        IntImm::make(c_ > 0 ? c_ : -c_, v->loc), v->loc);
  }
  Expr visit_grid_ref(const GridRef *g, const Expr &self) override {
    std::vector<Index> index = g->index;
    bool changed = false;
    for (Index &ix : index)
      if (ix.var == var_ && c_ != 0) {
        ix.offset += ix.coeff * c_;
        changed = true;
      }
    return changed ? GridRef::make(g->grid, std::move(index), g->type, g->loc) : self;
  }

private:
  std::string var_;
  int64_t c_;
};

/// Replaces each read `b(var + c)` of a defined buffer in a loop's body by
/// the buffer's value at var + c, after checking that the filling loop
/// covered that element.
class Substitute : public IRMutator {
public:
  Substitute(const std::map<std::string, Definition> &defs, const For *reader)
      : defs_(defs), reader_(reader) {}
  using IRMutator::mutate;

protected:
  Expr visit_grid_ref(const GridRef *g, const Expr &self) override {
    auto def = defs_.find(g->grid);
    if (def == defs_.end())
      return self;
    const Index &ix = g->index.front();
    const Index &at = def->second.at;
    // Read at the element the filler's point at var + c filled.
    if (g->index.size() != 1 || ix.var != reader_->var || ix.coeff != at.coeff ||
        (ix.offset - at.offset) % at.coeff != 0)
      throw UserError(
          g->loc,
          "Line buffer '" + g->grid + "' is read at '" + print_expr(self) + "'; a " + kRegion +
              " reads line buffers at the subscript "
              "they are filled at, '" +
              print_expr(
                  Shift(reader_->var, 0).mutate(GridRef::make(g->grid, {at}, g->type, g->loc))) +
              "', plus a multiple of " + std::to_string(at.coeff) + " only");
    const For *filler = def->second.loop;
    int64_t c = (ix.offset - at.offset) / at.coeff;
    if (filler == reader_ && c != 0)
      throw UserError(g->loc, "Line buffer '" + g->grid + "' is read at '" + print_expr(self) +
                                  "' in the DO loop that fills it, where only the element "
                                  "just filled, '" +
                                  print_expr(GridRef::make(g->grid, {at}, g->type, g->loc)) +
                                  "', has its new value");
    if (!at_most(filler->lo, reader_->lo, c) || !at_most(reader_->hi, filler->hi, -c))
      throw UserError(g->loc, "Line buffer '" + g->grid + "' is read at '" + print_expr(self) +
                                  "', which the DO loop " + at_line(filler->loc) +
                                  " may not fill (it runs from " + print_expr(filler->lo) + " to " +
                                  print_expr(filler->hi) +
                                  "); fill the buffer over a range that covers every read, as "
                                  "bounds that differ by constants");
    if (def->second.value->type != g->type)
      throw UserError(def->second.loc,
                      "Line buffer '" + g->grid + "' is " + fortran_type(g->type) +
                          " but is filled with a " + fortran_type(def->second.value->type) +
                          " value; declare it " + fortran_type(def->second.value->type));
    return Shift(reader_->var, c).mutate(def->second.value);
  }

private:
  const std::map<std::string, Definition> &defs_;
  const For *reader_;
};

/// What a statement stores and assigns, and every access to a grid.
struct Accesses : IRVisitor {
  struct Access {
    std::string grid;
    std::vector<Index> index;
    SourceLoc loc;
    bool store = false;
  };
  std::vector<Access> all;
  std::map<std::string, SourceLoc> stored;
  std::map<std::string, SourceLoc> assigned;
  std::map<std::string, SourceLoc> scalars; ///< assigned or read
  void visit_grid_ref(const GridRef *g) override { all.push_back({g->grid, g->index, g->loc}); }
  void visit_var(const Var *v) override { scalars.try_emplace(v->name, v->loc); }
  void visit_store(const Store *s) override {
    stored.try_emplace(s->grid, s->loc);
    all.push_back({s->grid, s->index, s->loc, true});
    IRVisitor::visit_store(s);
  }
  void visit_assign(const Assign *a) override {
    assigned.try_emplace(a->var, a->loc);
    scalars.try_emplace(a->var, a->loc);
    IRVisitor::visit_assign(a);
  }
};

/// The scalars a loop body assigns unconditionally (a statement of the body
/// itself, not under an IF) and those it reads before such an assignment:
/// a scalar in `defined` and not in `exposed` takes no value into the body.
struct FirstAssigned : IRVisitor {
  std::set<std::string> defined, exposed;
  int conditional = 0;
  void visit_var(const Var *v) override {
    if (!defined.count(v->name))
      exposed.insert(v->name);
  }
  void visit_assign(const Assign *a) override {
    visit(a->value);
    if (!conditional)
      defined.insert(a->var);
  }
  void visit_if(const IfThenElse *c) override {
    ++conditional;
    IRVisitor::visit_if(c);
    --conditional;
  }
  void visit_for(const For *f) override {
    ++conditional;
    IRVisitor::visit_for(f);
    --conditional;
  }
};

/// Whether loop `f` only fills buffers: each statement `b(c*var + o) = e`
/// with b a candidate, or an INTEGER temporary's assignment (the fine index
/// `i1 = 2*j1 - d1` that the subscripts already read as its value).
bool fills_buffers(const For *f, const std::set<std::string> &candidates) {
  for (const Stmt &s : statements(f->body)) {
    if (const Assign *a = as<Assign>(s); a && a->value->type == Type::Int32)
      continue;
    const Store *st = as<Store>(s);
    if (!st || !candidates.count(st->grid) || st->index.size() != 1 ||
        st->index.front().var != f->var)
      return false;
  }
  return true;
}

/// Whether subscripts `x` and `y` of one array, taken in loops over `var`
/// fused into one, can never name the same element: in some dimension two
/// different constants, the same outer loop variable with one factor and
/// different offsets, or `var` itself where the GCD of the factors does not
/// divide the difference of the offsets (`2*i - 1` and `2*i`). False when it
/// cannot tell.
bool never_meet(const std::vector<Index> &x, const std::vector<Index> &y, const std::string &var) {
  for (size_t d = 0; d < x.size() && d < y.size(); ++d) {
    const Index &a = x[d], &b = y[d];
    if (a.var != b.var)
      continue;
    if (a.var.empty() || a.var != var) {
      if ((a.var.empty() || a.coeff == b.coeff) && a.offset != b.offset)
        return true;
      continue;
    }
    if ((b.offset - a.offset) % std::gcd(a.coeff, b.coeff) != 0)
      return true;
  }
  return false;
}

/// Whether a subscript of `index` is a multiple of `var`: the same index in
/// two fused loops is then the same element at the same point only.
bool of_var(const std::vector<Index> &index, const std::string &var) {
  return std::any_of(index.begin(), index.end(), [&](const Index &x) { return x.var == var; });
}

/// Refuses to fuse consumer loops `a` and `b` (a first) when an element one
/// writes may be accessed by the other at another point, or a scalar one
/// assigns appears in the other: as one loop, a point would see the other
/// loop's values of a different moment. Accesses at the point's own element,
/// and those that never meet (the stores of a prolongation at `2*i - 1` and
/// `2*i` of other parities in j), keep their order.
void check_fusable(const For *a, const For *b) {
  Accesses ia, ib;
  ia.visit(a->body);
  ib.visit(b->body);
  auto refuse = [&](const SourceLoc &loc, const std::string &why) {
    throw UserError(loc, "The DO loops " + at_line(a->loc) + " and " + at_line(b->loc) +
                             " that read line buffers cannot run as one loop: " + why);
  };
  for (const Accesses::Access &x : ia.all)
    for (const Accesses::Access &y : ib.all)
      if (x.grid == y.grid && (x.store || y.store) &&
          (x.index != y.index || !of_var(x.index, a->var)) && !never_meet(x.index, y.index, a->var))
        refuse(y.loc, "'" + x.grid + "' is written by one and accessed at other elements by " +
                          "the other");
  // A scalar each loop assigns before any use (the fine index `i1 = 2*j1 - 2`
  // that F77 codes compute afresh in every loop) is each loop's own: fused,
  // the second loop's statements still read the second loop's assignment.
  FirstAssigned fa, fb;
  fa.visit(a->body);
  fb.visit(b->body);
  auto own_in_each = [&](const std::string &name) {
    return fa.defined.count(name) && fb.defined.count(name) && !fa.exposed.count(name) &&
           !fb.exposed.count(name);
  };
  for (const Accesses *side : {&ia, &ib}) {
    const Accesses &other = side == &ia ? ib : ia;
    for (const auto &[name, loc] : side->assigned)
      if (other.scalars.count(name) && !own_in_each(name))
        refuse(other.scalars.at(name), "'" + name +
                                           "' is assigned in one and used in the other; use a "
                                           "name of its own in each");
  }
}

} // namespace

namespace {

/// The source's facts of the lowered loop `f`, if the front end gave them.
const SourceLoop *source_of(const For *f, const std::vector<SourceLoop> &source) {
  for (const SourceLoop &l : source)
    if (l.loc.file == f->loc.file && l.loc.line == f->loc.line && l.loc.column == f->loc.column)
      return &l;
  return nullptr;
}

/// Loops side by side run over the last one's variable (which gives it its
/// meaning in every one of them), with a unit step as the source writes it.
void check_siblings(const std::vector<const For *> &siblings,
                    const std::vector<SourceLoop> &source) {
  const For *last = siblings.back();
  for (const For *f : siblings) {
    const SourceLoop *src = source_of(f, source);
    if (f->var != last->var)
      throw UserError(src ? src->var_loc : f->loc,
                      "The DO loop over '" + f->var + "' beside the DO loop over '" + last->var +
                          "' " + at_line(last->loc) + " must run over '" + last->var +
                          "' too: line buffers are filled and read by loops over one variable");
    const IntImm *step = as<IntImm>(f->step);
    int64_t written = src && src->step ? *src->step : f->reverse ? -1 : step ? step->value : 0;
    if (written != 1) {
      // Line buffers are filled whole before they are read, so a backward
      // loop runs as well forward unless its points depend on each other
      // (which the dependence analysis then says).
      throw UserError(src && src->step_loc.known() ? src->step_loc : f->loc,
                      "The DO loops over '" + f->var +
                          "' side by side (line buffers filled, then read) must have a step of 1" +
                          (written < 0 ? "; swap the bounds of this one and make its step 1 if "
                                         "its points may run in any order"
                                       : ""));
    }
  }
}

} // namespace

ForwardedBuffers forward_line_buffers(const Stmt &nest, const std::set<std::string> &candidates,
                                      const std::vector<SourceLoop> &source,
                                      const std::set<std::string> &inner_loops) {
  // Down the nest to the loop whose body holds several loops.
  std::vector<const For *> loops;
  const For *level = nullptr;
  for (const For *f = as<For>(nest); f && !level;) {
    loops.push_back(f);
    const For *inner = nullptr;
    int count = 0;
    for (const Stmt &s : statements(f->body))
      if (const For *g = as<For>(s); g && !inner_loops.count(g->var)) {
        inner = g;
        ++count;
      }
    if (count > 1)
      level = f;
    f = inner;
  }
  if (!level)
    return {nest, {}};

  std::vector<Stmt> before;
  std::vector<const For *> siblings;
  for (const Stmt &s : statements(level->body)) {
    if (const For *f = as<For>(s)) {
      siblings.push_back(f);
      if (contains_for(f->body))
        throw UserError(f->loc, std::string("Inner DO loops side by side in a ") + kRegion +
                                    " are accepted only as the innermost loops");
    } else if (!siblings.empty()) {
      throw UserError(s->loc, std::string("Only DO loops may follow the inner DO loop that "
                                          "fills line buffers in a ") +
                                  kRegion);
    } else {
      before.push_back(s);
    }
  }

  check_siblings(siblings, source);
  // A 1D array filled at the loop variable beside the last loop, as a line
  // buffer is, but not one of the candidates: its values are seen outside
  // the procedure, which never sees a buffer's.
  for (size_t n = 0; n + 1 < siblings.size(); ++n)
    for (const Stmt &s : statements(siblings[n]->body))
      if (const Store *st = as<Store>(s); st && st->index.size() == 1 &&
                                          st->index.front().var == siblings[n]->var &&
                                          !candidates.count(st->grid))
        throw UserError(st->loc,
                        "'" + st->grid +
                            "' is filled like a line buffer, beside the inner DO loop that reads "
                            "it, but its values are seen outside the procedure (a dummy argument, "
                            "or in COMMON or a module); only a local array can be a line buffer, "
                            "so fill a local array instead");

  // The leading loops that only fill buffers, and the loops that read them.
  size_t fillers = 0;
  while (fillers < siblings.size() && fills_buffers(siblings[fillers], candidates))
    ++fillers;
  const For *first = siblings.front();
  if (fillers == 0)
    throw UserError(siblings[1]->loc,
                    std::string("Inner DO loops side by side in a ") + kRegion +
                        " are accepted only when the first ones fill line buffers (local 1D arrays "
                        "subscripted by the loop variable alone) that the later ones read, "
                        "and the DO loop " +
                        at_line(first->loc) + " fills none");
  if (fillers == siblings.size())
    throw UserError(siblings.back()->loc,
                    "The DO loop " + at_line(siblings.back()->loc) +
                        " only fills line buffers, and no DO loop after it reads them");

  // The consumers' stores and assignments: a buffer filled from what they
  // change would give its reads other values once substituted.
  Accesses written;
  for (size_t n = fillers; n < siblings.size(); ++n)
    written.visit(siblings[n]->body);
  std::map<std::string, Definition> defs;
  std::vector<std::string> buffers;
  std::map<std::string, SourceLoc> filler_temps;
  for (size_t n = 0; n < fillers; ++n) {
    const For *f = siblings[n];
    std::map<std::string, Definition> in_this_loop;
    for (const Stmt &s : statements(f->body)) {
      if (const Assign *a = as<Assign>(s)) {
        // Gone with the loop: refused where a value still reads it.
        filler_temps.try_emplace(a->var, a->loc);
        continue;
      }
      const Store *st = as<Store>(s);
      if (defs.count(st->grid) || in_this_loop.count(st->grid))
        throw UserError(st->loc, "Line buffer '" + st->grid + "' is filled twice in the " +
                                     kRegion + "; fill each buffer in one place");
      Accesses reads;
      reads.visit(st->value);
      for (const Accesses::Access &x : reads.all) {
        if (written.stored.count(x.grid))
          throw UserError(x.loc, "Line buffer '" + st->grid + "' is filled from '" + x.grid +
                                     "', which the " + kRegion +
                                     " writes; a buffer may be filled only from arrays the "
                                     "nest does not write");
      }
      for (const auto &[name, loc] : reads.scalars)
        if (filler_temps.count(name))
          throw UserError(loc, "Line buffer '" + st->grid + "' is filled from '" + name +
                                   "', which its DO loop assigns; fill the buffer from "
                                   "the expression of '" +
                                   name + "' instead");
        else if (written.assigned.count(name))
          throw UserError(loc, "Line buffer '" + st->grid + "' is filled from '" + name +
                                   "', which the DO loop that reads the buffer assigns; a "
                                   "buffer may be filled only from values that stay fixed in "
                                   "the row");
      // Buffers filled earlier, in this loop (at this element) or before.
      std::map<std::string, Definition> visible = defs;
      for (const auto &[name, d] : in_this_loop)
        visible[name] = d;
      Expr value = Substitute(visible, f).mutate(st->value);
      in_this_loop[st->grid] = Definition{value, f, st->loc, st->index.front()};
      buffers.push_back(st->grid);
    }
    for (auto &[name, d] : in_this_loop)
      defs[name] = d;
  }

  // Each consumer with the buffers substituted, then one loop of them all.
  std::vector<Stmt> point;
  for (size_t n = fillers; n < siblings.size(); ++n) {
    const For *c = siblings[n];
    Accesses own;
    own.visit(c->body);
    for (const auto &[grid, loc] : own.stored)
      if (candidates.count(grid))
        throw UserError(loc, "'" + grid + "' is assigned in the DO loop " + at_line(c->loc) +
                                 ", which reads the line buffers; fill line buffers in DO loops "
                                 "of their own, before the loops that read them");
    if (n > fillers) {
      const For *c0 = siblings[fillers];
      if (print_expr(c->lo) != print_expr(c0->lo) || print_expr(c->hi) != print_expr(c0->hi))
        throw UserError(c->loc, "The DO loops " + at_line(c0->loc) + " and " + at_line(c->loc) +
                                    " read line buffers over different ranges; loops that read "
                                    "them must have the same bounds");
      for (size_t m = fillers; m < n; ++m)
        check_fusable(siblings[m], c);
    }
    for (const Stmt &s : statements(Substitute(defs, c).mutate(c->body)))
      point.push_back(s);
  }
  // A temporary that only a filling loop assigned, which the reading loops
  // use before assigning it themselves, would read what that loop left.
  std::set<std::string> assigned_here;
  for (const Stmt &s : point) {
    Accesses used;
    if (const Assign *a = as<Assign>(s))
      used.visit(a->value);
    else
      used.visit(s);
    for (const auto &[name, loc] : used.scalars)
      if (filler_temps.count(name) && !assigned_here.count(name))
        throw UserError(loc, "'" + name + "' is assigned " + at_line(filler_temps.at(name)) +
                                 " in a DO loop that only fills line buffers, and used in the "
                                 "DO loop that reads them before that loop assigns it; assign "
                                 "it there first");
    if (const Assign *a = as<Assign>(s))
      assigned_here.insert(a->var);
  }
  const For *c0 = siblings[fillers];
  Accesses left;
  left.visit(Block::make(point));
  for (const Accesses::Access &x : left.all)
    if (defs.count(x.grid))
      throw UserError(x.loc, "Line buffer '" + x.grid +
                                 "' is read before the DO loop that "
                                 "fills it");
  before.push_back(For::make(c0->var, c0->lo, c0->hi, c0->step, c0->exec,
                             Block::make(std::move(point), c0->body->loc), c0->loc));

  // Up the nest: the level with one inner loop, and each loop around it.
  // A lone loop is the body itself, as in a nest that was perfect.
  Stmt body =
      with_body(level, before.size() == 1 ? before.front()
                                          : Block::make(std::move(before), level->body->loc));
  for (size_t l = loops.size() - 1; l-- > 0;)
    body = with_body(loops[l], body);
  return {body, buffers};
}

} // namespace f2s
