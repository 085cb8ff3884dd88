#include "canonicalize/PointArrays.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <algorithm>

namespace f2s {

namespace {

const char *const kRegion = "'!$f2s stencil' region";

/// One element of a work array: the array and its constant subscripts.
using Element = std::pair<std::string, std::vector<int64_t>>;

/// The elements the statements walked so far assign: on every path
/// (`surely`), or on some (`maybe`, a superset).
struct Assigned {
  std::set<Element> surely, maybe;
};

/// Every name the nest uses, so that no temporary takes one.
struct Names : IRVisitor {
  std::set<std::string> &names;
  explicit Names(std::set<std::string> &n) : names(n) {}
  void visit_var(const Var *v) override { names.insert(v->name); }
  void visit_grid_ref(const GridRef *g) override { names.insert(g->grid); }
  void visit_store(const Store *s) override {
    names.insert(s->grid);
    IRVisitor::visit_store(s);
  }
  void visit_assign(const Assign *a) override {
    names.insert(a->var);
    IRVisitor::visit_assign(a);
  }
  void visit_for(const For *f) override {
    names.insert(f->var);
    IRVisitor::visit_for(f);
  }
};

/// Walks the nest in execution order: checks every access to a work array
/// and names each element at its first assignment.
class Check {
public:
  Check(const std::map<std::string, Type> &arrays, std::set<std::string> &taken)
      : arrays_(arrays), taken_(taken) {}

  void stmt(const Stmt &s, Assigned &in) {
    if (const Block *b = as<Block>(s)) {
      for (const Stmt &x : b->stmts)
        stmt(x, in);
    } else if (const For *f = as<For>(s)) {
      expr(f->lo, in);
      expr(f->hi, in);
      expr(f->step, in);
      // The body may run no trip: what it assigns is assigned maybe.
      Assigned body = in;
      stmt(f->body, body);
      in.maybe.insert(body.maybe.begin(), body.maybe.end());
    } else if (const IfThenElse *i = as<IfThenElse>(s)) {
      expr(i->cond, in);
      Assigned then_case = in, else_case = in;
      stmt(i->then_case, then_case);
      if (i->else_case)
        stmt(i->else_case, else_case);
      in.surely.clear();
      std::set_intersection(then_case.surely.begin(), then_case.surely.end(),
                            else_case.surely.begin(), else_case.surely.end(),
                            std::inserter(in.surely, in.surely.end()));
      in.maybe.insert(then_case.maybe.begin(), then_case.maybe.end());
      in.maybe.insert(else_case.maybe.begin(), else_case.maybe.end());
    } else if (const Assign *a = as<Assign>(s)) {
      expr(a->value, in);
    } else if (const Store *st = as<Store>(s)) {
      expr(st->value, in);
      auto array = arrays_.find(st->grid);
      if (array == arrays_.end())
        return;
      Element e = element(st->grid, st->index, st->loc, print_store_target(*st));
      in.surely.insert(e);
      in.maybe.insert(e);
      first_assigned.try_emplace(st->grid, st->loc);
      if (!names.count(e)) {
        names[e] = fresh(e);
        temps.push_back(Variable{names[e], array->second, {}, st->loc});
      }
    }
  }

  void expr(const Expr &e, const Assigned &in) {
    struct Reads : IRVisitor {
      Check &check;
      const Assigned &in;
      Reads(Check &c, const Assigned &i) : check(c), in(i) {}
      void visit_grid_ref(const GridRef *g) override { check.read(g, in); }
    } reads(*this, in);
    if (e)
      reads.visit(e);
  }

  std::map<Element, std::string> names;
  std::vector<Variable> temps;
  std::map<std::string, SourceLoc> first_assigned;

private:
  void read(const GridRef *g, const Assigned &in) {
    if (!arrays_.count(g->grid))
      return;
    std::string text = print_expr(GridRef::make(g->grid, g->index, g->type));
    Element e = element(g->grid, g->index, g->loc, text);
    if (in.surely.count(e))
      return;
    throw UserError(g->loc, "Element '" + text + "' of work array '" + g->grid + "' " +
                                (in.maybe.count(e) ? "may be read before the point assigns it "
                                                     "(only some branches of an IF assign it, or "
                                                     "a DO loop that may run no trip)"
                                                   : "is read before the point assigns it") +
                                ", so its value is carried between iterations of the " + kRegion +
                                "; f2stencil gives each point its own copy of a local array that "
                                "the point assigns at constant subscripts, so assign every element "
                                "in the point before reading it there");
  }

  /// The element an access reaches; refused unless its subscripts are
  /// constants.
  Element element(const std::string &array, const std::vector<Index> &index, const SourceLoc &loc,
                  const std::string &text) {
    Element e{array, {}};
    for (const Index &ix : index) {
      if (!ix.var.empty() || !ix.sym.empty())
        throw UserError(loc, "Work array '" + array + "' of the point is accessed at '" + text +
                                 "', with a subscript that is not a constant; the point assigns '" +
                                 array +
                                 "' at constant subscripts elsewhere, which makes each of its "
                                 "elements a scalar of the point's own, so subscript it only by "
                                 "constants or by the variables of DO loops with constant bounds "
                                 "inside the point");
      e.second.push_back(ix.offset);
    }
    return e;
  }

  static std::string print_store_target(const Store &s) {
    return print_expr(GridRef::make(s.grid, s.index, Type::Float64));
  }

  /// `tv_1`, `tmat_1_2`, `b_m1`, or with `_2`, `_3`, ... a name nothing
  /// else has.
  std::string fresh(const Element &e) {
    std::string base = e.first;
    for (int64_t s : e.second)
      base += "_" + (s < 0 ? "m" + std::to_string(-s) : std::to_string(s));
    std::string name = base;
    for (int n = 2; taken_.count(name); ++n)
      name = base + "_" + std::to_string(n);
    taken_.insert(name);
    return name;
  }

  const std::map<std::string, Type> &arrays_;
  std::set<std::string> &taken_;
};

struct Privatize : IRMutator {
  const std::map<std::string, Type> &arrays;
  const std::map<Element, std::string> &names;
  Privatize(const std::map<std::string, Type> &a, const std::map<Element, std::string> &n)
      : arrays(a), names(n) {}

  static Element element(const std::string &array, const std::vector<Index> &index) {
    Element e{array, {}};
    for (const Index &ix : index)
      e.second.push_back(ix.offset);
    return e;
  }
  Expr visit_grid_ref(const GridRef *g, const Expr &self) override {
    auto array = arrays.find(g->grid);
    if (array == arrays.end())
      return self;
    return Var::make(names.at(element(g->grid, g->index)), array->second, g->loc);
  }
  Stmt visit_store(const Store *s, const Stmt &self) override {
    if (!arrays.count(s->grid))
      return IRMutator::visit_store(s, self);
    return Assign::make(names.at(element(s->grid, s->index)), mutate(s->value), s->loc);
  }
};

} // namespace

PrivateArrays privatize_point_arrays(const Stmt &nest, const std::map<std::string, Type> &arrays,
                                     const std::set<std::string> &taken) {
  std::set<std::string> in_nest;
  Names names(in_nest);
  names.visit(nest);
  // Only the arrays the nest accesses.
  std::map<std::string, Type> present;
  for (const auto &[array, type] : arrays)
    if (in_nest.count(array))
      present.emplace(array, type);
  if (present.empty())
    return {nest, {}, {}};
  std::set<std::string> used = taken;
  used.insert(in_nest.begin(), in_nest.end());
  Check check(present, used);
  Assigned start;
  check.stmt(nest, start);
  PrivateArrays out{Privatize(present, check.names).mutate(nest), check.temps, {}};
  for (const auto &[array, type] : present)
    out.arrays.push_back({array, check.first_assigned[array]});
  return out;
}

} // namespace f2s
