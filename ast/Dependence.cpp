#include "ast/Dependence.h"

#include "ast/ColumnLegality.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "ast/Planes.h"
#include "ast/Reductions.h"

#include <algorithm>
#include <map>
#include <set>

namespace f2s {

namespace {

const char *const kRegion = "'!$f2s stencil' region";

// ------------------------------------------------------------------ colours

/// A colour test `mod(e, 2) == x` seen modulo 2: the names whose coefficient
/// in e - x is odd and the parity of the rest. Points of one colour satisfy
/// sum(odd names) + parity = 0 (mod 2); the test holds on all of them or
/// (for `== 1` on negative sums, where MOD is -1) on some, never on a point
/// of the other colour.
struct Colour {
  std::set<std::string> odd; ///< loop variables and loop-invariant scalars
  int parity = 0;
  bool operator==(const Colour &) const = default;
};

/// An integer expression modulo 2, if it is affine in the kernel's scalars.
struct Mod2 {
  std::set<std::string> odd;
  int constant = 0;
  void add(const Mod2 &o) {
    for (const std::string &n : o.odd)
      if (!odd.erase(n))
        odd.insert(n);
    constant ^= o.constant;
  }
};

class ColourReader {
public:
  ColourReader(const std::vector<std::string> &loops, const Kernel &k) : loops_(loops), k_(k) {}

  /// The colour a condition restricts the point to, if it does: a colour
  /// test, or a conjunction with one.
  std::optional<Colour> colour_of(const Expr &cond) const {
    const Binary *b = as<Binary>(cond);
    if (!b)
      return std::nullopt;
    if (b->op == BinaryOp::And) {
      if (auto c = colour_of(b->a))
        return c;
      return colour_of(b->b);
    }
    if (b->op != BinaryOp::Eq && b->op != BinaryOp::Ne)
      return std::nullopt;
    const Call *m = as<Call>(b->a);
    Expr other = b->b;
    if (!is_mod2(m)) {
      m = as<Call>(b->b);
      other = b->a;
    }
    if (!is_mod2(m))
      return std::nullopt;
    auto form = mod2(m->args[0]);
    // MOD(e, 2) has e's parity, so MOD(e, 2) == x holds only where e - x is
    // even, whatever x is; MOD(e, 2) /= 0 holds exactly where e is odd.
    std::optional<Mod2> rhs;
    if (b->op == BinaryOp::Eq) {
      rhs = mod2(other);
    } else if (const IntImm *zero = as<IntImm>(other); zero && zero->value == 0) {
      rhs = Mod2{{}, 1};
    }
    if (!form || !rhs)
      return std::nullopt;
    form->add(*rhs);
    bool on_loops = std::any_of(loops_.begin(), loops_.end(),
                                [&](const std::string &l) { return form->odd.count(l) > 0; });
    if (!on_loops)
      return std::nullopt;
    return Colour{form->odd, form->constant};
  }

  /// Whether moving from the loop point by `offset` (one entry per loop
  /// variable) changes the colour.
  static bool flips(const Colour &c, const std::map<std::string, int64_t> &offset) {
    int64_t sum = 0;
    for (const auto &[var, off] : offset)
      if (c.odd.count(var))
        sum += off;
    return sum % 2 != 0;
  }

private:
  static bool is_mod2(const Call *m) {
    if (!m || m->fn != Intrinsic::Mod || m->args.size() != 2)
      return false;
    const IntImm *two = as<IntImm>(m->args[1]);
    return two && two->value == 2;
  }

  std::optional<Mod2> mod2(const Expr &e) const {
    if (const IntImm *i = as<IntImm>(e))
      return Mod2{{}, static_cast<int>(i->value & 1)};
    if (const Var *v = as<Var>(e)) {
      // A temporary changes from point to point; everything else is fixed
      // for the sweep.
      if (k_.find_temp(v->name))
        return std::nullopt;
      return Mod2{{v->name}, 0};
    }
    if (const Unary *u = as<Unary>(e); u && u->op == UnaryOp::Neg)
      return mod2(u->a);
    // MOD(x, 2) = x - 2*(x/2) has x's parity.
    if (const Call *m = as<Call>(e); m && is_mod2(m))
      return mod2(m->args[0]);
    const Binary *b = as<Binary>(e);
    if (!b)
      return std::nullopt;
    if (b->op == BinaryOp::Add || b->op == BinaryOp::Sub) {
      auto x = mod2(b->a), y = mod2(b->b);
      if (!x || !y)
        return std::nullopt;
      x->add(*y);
      return x;
    }
    if (b->op == BinaryOp::Mul) {
      const IntImm *c = as<IntImm>(b->a);
      Expr other = b->b;
      if (!c) {
        c = as<IntImm>(b->b);
        other = b->a;
      }
      if (!c)
        return std::nullopt;
      auto x = mod2(other);
      if (!x)
        return std::nullopt;
      return c->value % 2 == 0 ? Mod2{} : *x;
    }
    return std::nullopt;
  }

  const std::vector<std::string> &loops_;
  const Kernel &k_;
};

// ------------------------------------------------------------ grid accesses

struct Access {
  std::vector<Index> index;
  std::optional<Colour> colour; ///< the colour test the access is under
  SourceLoc loc;
};

/// Every grid read and write of the point, with the colour test (if any)
/// that guards it, in source order.
class AccessScan : public IRVisitor {
public:
  explicit AccessScan(const ColourReader &colours) : colours_(colours) {}
  std::map<std::string, std::vector<Access>> reads, writes;
  std::vector<std::string> read_order;

protected:
  void visit_grid_ref(const GridRef *op) override {
    reads[op->grid].push_back({op->index, colour_, op->loc});
    read_order.push_back(op->grid);
  }
  void visit_store(const Store *op) override {
    IRVisitor::visit_store(op);
    writes[op->grid].push_back({op->index, colour_, op->loc});
  }
  void visit_for(const For *op) override { visit(op->body); }
  void visit_if(const IfThenElse *op) override {
    visit(op->cond);
    auto outer = colour_;
    if (auto c = colours_.colour_of(op->cond))
      colour_ = c;
    visit(op->then_case);
    colour_ = outer;
    if (op->else_case)
      visit(op->else_case);
  }

private:
  const ColourReader &colours_;
  std::optional<Colour> colour_;
};

/// The offset, per loop variable, from the point that makes `write` to the
/// point that makes `other` when both touch one element, if the two use
/// the same variables with the same factors in the same dimensions (then the
/// offset is the same for every element they share).
std::optional<std::map<std::string, int64_t>> point_offset(const std::vector<Index> &write,
                                                           const std::vector<Index> &other) {
  std::map<std::string, int64_t> off;
  if (other.size() != write.size())
    return std::nullopt;
  for (size_t d = 0; d < other.size(); ++d) {
    const Index &w = write[d], &o = other[d];
    if (o.var != w.var || o.coeff != w.coeff || o.var.empty() || (w.offset - o.offset) % w.coeff)
      return std::nullopt;
    off[o.var] = (w.offset - o.offset) / w.coeff;
  }
  return off;
}

int64_t gcd(int64_t a, int64_t b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) {
    a %= b;
    std::swap(a, b);
  }
  return a;
}

/// Whether an element that a point writes through `write` may be touched
/// through `other` by another point. The test is the GCD test per
/// dimension: c1*x + o1 = c2*y + o2 has an integer solution exactly when
/// gcd(c1, c2) divides o2 - o1 (and c1*x + o1 = o2 when c1 divides o2 - o1),
/// and with no solution in some dimension the two never meet. When every
/// dimension has one, they meet at another point unless the accesses are the
/// same (the front end makes a write use each loop variable once with a
/// nonzero factor, so the same element then means the same point). Loop
/// bounds are not looked at: meetings outside them are counted too, which
/// errs on the safe side.
bool may_meet_elsewhere(const std::vector<Index> &write, const std::vector<Index> &other) {
  if (write == other)
    return false;
  for (size_t d = 0; d < write.size() && d < other.size(); ++d) {
    const Index &w = write[d], &o = other[d];
    // A constant subscript is a coefficient of 0: two constants meet only
    // when equal (`coef(i,j,1)` never touches `coef(i,j,2)`).
    int64_t g = gcd(w.var.empty() ? 0 : w.coeff, o.var.empty() ? 0 : o.coeff);
    if (g == 0 ? o.offset != w.offset : (o.offset - w.offset) % g != 0)
      return false;
  }
  return true;
}

/// Two accesses of one grid that different points may make to one element.
struct Conflict {
  SourceLoc loc;    ///< the later access: a read, or the second store
  std::string what; ///< "'p' is written at (i,k) and read at (i,k-1)..."
  /// The loops whose variables may differ between the two points: those
  /// where the two subscripts of the dimension the write indexes by the loop
  /// differ by a constant, or are not comparable.
  std::set<std::string> carriers;
};

/// The loops along which `write` and `other` may reach one element from
/// different points. A write uses each loop variable in one dimension; where
/// the other access has the same variable with the same factor there, the
/// two points' values of it differ by the offsets' difference over the
/// factor, else by anything.
std::set<std::string> carriers(const std::vector<Index> &write, const std::vector<Index> &other,
                               const std::vector<std::string> &loops) {
  std::set<std::string> out;
  for (const std::string &v : loops) {
    bool pinned = false;
    for (size_t d = 0; d < write.size() && d < other.size(); ++d)
      if (write[d].var == v && other[d].var == v && write[d].coeff == other[d].coeff &&
          write[d].offset == other[d].offset)
        pinned = true;
    if (!pinned)
      out.insert(v);
  }
  return out;
}

/// Every pair of accesses that may meet at another point, reads in source
/// order first (so the first reported is the first the user reads), then
/// pairs of stores.
std::vector<Conflict> grid_conflicts(const Kernel &k, const std::vector<std::string> &loops) {
  std::vector<Conflict> out;
  ColourReader colours(loops, k);
  AccessScan scan(colours);
  scan.visit(k.body);
  // Red-black: every write of a grid under one colour test; an access under
  // the same test at a point of the other colour meets only points that this
  // sweep never writes.
  auto colour_of_writes = [&](const std::string &g) {
    const std::vector<Access> &writes = scan.writes.at(g);
    std::optional<Colour> colour = writes.front().colour;
    for (const Access &a : writes)
      if (!a.colour || !colour || !(*a.colour == *colour))
        colour.reset();
    return colour;
  };
  // Whether `other` meets `write` at another point, and if so whether that
  // point has the same colour (for the message).
  struct Meeting {
    bool conflict = false;
    bool same_colour = false;
  };
  auto meet = [&](const std::string &g, const Access &write, const Access &other) {
    if (!may_meet_elsewhere(write.index, other.index))
      return Meeting{};
    std::optional<Colour> colour = colour_of_writes(g);
    auto off = point_offset(write.index, other.index);
    bool same_test = colour && other.colour && *other.colour == *colour && off;
    if (same_test && ColourReader::flips(*colour, *off))
      return Meeting{};
    return Meeting{true, same_test};
  };
  // A grid accessed at a run-time position is plane_conflict's
  // (ast/Planes): the equations below read such a subscript as a constant.
  std::set<std::string> planes = grids_at_planes(k);
  std::map<std::string, size_t> seen;
  for (const std::string &g : scan.read_order) {
    const Access &r = scan.reads[g][seen[g]++];
    auto w = scan.writes.find(g);
    if (w == scan.writes.end() || planes.count(g))
      continue;
    for (const Access &write : w->second) {
      Meeting m = meet(g, write, r);
      if (!m.conflict)
        continue;
      std::string what = m.same_colour ? ", a point of the same colour," : "";
      out.push_back({r.loc,
                     "'" + g + "' is written at " + print_access(write.index, k) + " and read at " +
                         print_access(r.index, k) + what + " in the same sweep",
                     carriers(write.index, r.index, loops)});
    }
  }
  // Two stores of one grid that different points may aim at one element.
  for (const auto &[g, writes] : scan.writes)
    for (size_t b = 1; b < writes.size() && !planes.count(g); ++b)
      for (size_t a = 0; a < b; ++a) {
        if (!meet(g, writes[a], writes[b]).conflict)
          continue;
        out.push_back({writes[b].loc,
                       "'" + g + "' is written at " + print_access(writes[a].index, k) +
                           " by one point and at " + print_access(writes[b].index, k) +
                           " by another",
                       carriers(writes[a].index, writes[b].index, loops)});
      }
  return out;
}

// ------------------------------------------------------------ scalar temps

/// Finds a temporary read before it is assigned on some path through the
/// point's statements: its value would come from the previous point.
class ScalarFlow {
public:
  explicit ScalarFlow(const Kernel &k) : k_(k) {}
  std::optional<Diagnostic> found;

  void run(const Stmt &s, std::set<std::string> &assigned) {
    if (found)
      return;
    if (const Block *b = as<Block>(s)) {
      for (const Stmt &c : b->stmts)
        run(c, assigned);
    } else if (const For *f = as<For>(s)) {
      // Each iteration starts with nothing assigned; in a column, a loop's
      // trips run in order after the statements before it, whose scalars
      // they may read, as they may read what an earlier trip assigned.
      std::set<std::string> fresh;
      if (k_.column && f->var == k_.column->var)
        fresh = assigned;
      run(f->body, fresh);
    } else if (const Store *st = as<Store>(s)) {
      check(st->value, assigned);
    } else if (const Assign *a = as<Assign>(s)) {
      check(a->value, assigned);
      assigned.insert(a->var);
      ever_.insert(a->var);
    } else if (const IfThenElse *c = as<IfThenElse>(s)) {
      check(c->cond, assigned);
      std::set<std::string> then_set = assigned, else_set = assigned;
      run(c->then_case, then_set);
      if (c->else_case)
        run(c->else_case, else_set);
      std::set<std::string> both;
      std::set_intersection(then_set.begin(), then_set.end(), else_set.begin(), else_set.end(),
                            std::inserter(both, both.end()));
      assigned = std::move(both);
    }
  }

private:
  void check(const Expr &e, const std::set<std::string> &assigned) {
    struct Reads : IRVisitor {
      std::vector<const Var *> vars;
      void visit_var(const Var *v) override { vars.push_back(v); }
    } reads;
    reads.visit(e);
    for (const Var *v : reads.vars) {
      if (found || !k_.find_temp(v->name) || assigned.count(v->name))
        continue;
      // A scalar updated like a reduction that the front end could not take
      // as one: say which use spoils it.
      if ((found = why_not_reduction(k_, v->name)))
        continue;
      std::string why = ever_.count(v->name)
                            ? "' may be read before it is assigned (only some branches of an IF "
                              "assign it) in the "
                            : "' is read before it is assigned in the ";
      found = Diagnostic{v->loc, "'" + v->name + why + kRegion +
                                     ", so its value is carried between iterations"};
    }
  }

  const Kernel &k_;
  std::set<std::string> ever_;
};

} // namespace

std::optional<Diagnostic> find_dependence(const Kernel &k) {
  Ordering o = find_ordering(k);
  if (o.refusal)
    return o.refusal;
  if (o.ordered)
    return Diagnostic{o.ordered->loc,
                      o.ordered->reason + ", so the result depends on the loop order"};
  return std::nullopt;
}

Ordering find_ordering(const Kernel &k) {
  std::vector<std::string> loops;
  for (const For *f : perfect_nest(k.body))
    loops.push_back(f->var);
  ScalarFlow flow(k);
  std::set<std::string> assigned;
  flow.run(k.body, assigned);
  if (flow.found)
    return {flow.found, std::nullopt};
  if (k.column)
    return {check_column(k), std::nullopt};
  if (auto planes = plane_conflict(k))
    return {planes, std::nullopt};
  std::vector<Conflict> conflicts = grid_conflicts(k, loops);
  if (conflicts.empty())
    return {};
  const Conflict &first = conflicts.front();
  std::set<std::string> carried;
  for (const Conflict &c : conflicts)
    carried.insert(c.carriers.begin(), c.carriers.end());
  if (carried.size() == 1 && loops.size() > 1)
    return {std::nullopt, OrderedLoop{*carried.begin(), first.what, first.loc}};
  // Name the loops in nest order, and the conflict that brings in a second one.
  std::string names;
  for (const std::string &v : loops)
    if (carried.count(v))
      names += std::string(names.empty() ? "" : ", ") + "'" + v + "'";
  const Conflict *culprit = &first;
  for (const Conflict &c : conflicts)
    if (c.carriers != first.carriers) {
      culprit = &c;
      break;
    }
  std::string why = carried.size() == loops.size()
                        ? (loops.size() == 1 ? "the only loop carries it"
                                             : "every loop of the nest carries a dependence (" +
                                                   names + "), so none can run in parallel")
                        : "more than one loop carries a dependence (" + names +
                              "), so no loop can run in order while the others run in parallel";
  return {
      Diagnostic{culprit->loc, culprit->what + ", so the result depends on the loop order; " + why},
      std::nullopt};
}

} // namespace f2s
