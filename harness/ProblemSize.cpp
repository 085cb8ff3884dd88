#include "harness/ProblemSize.h"

#include "ast/Evaluate.h"
#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "ast/InnerLoops.h"
#include "codegen/HarnessPrinter.h"

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <optional>
#include <set>

namespace f2s {

namespace {

class VarCollector : public IRVisitor {
public:
  std::vector<std::string> names;

protected:
  void visit_var(const Var *op) override {
    for (const std::string &n : names)
      if (n == op->name)
        return;
    names.push_back(op->name);
  }
};

std::vector<std::string> vars_of(const Expr &e) {
  VarCollector c;
  c.visit(e);
  return c.names;
}

/// Checks every grid access against the declared bounds, given each loop
/// variable's range.
/// The range of each DO loop of a column (Kernel::column), whose variable
/// has that range inside it alone.
using LoopRanges = std::map<const For *, std::pair<int64_t, int64_t>>;

/// Visits a column loop with its variable's range set to the loop's own.
template <typename Visit>
void visit_with_loop_range(const For *op, const LoopRanges &loops,
                           std::map<std::string, std::pair<int64_t, int64_t>> &ranges,
                           const Visit &visit) {
  auto own = loops.find(op);
  if (own == loops.end())
    return visit();
  auto saved = ranges.find(op->var) != ranges.end()
                   ? std::optional<std::pair<int64_t, int64_t>>(ranges[op->var])
                   : std::nullopt;
  ranges[op->var] = own->second;
  visit();
  if (saved)
    ranges[op->var] = *saved;
  else
    ranges.erase(op->var);
}

/// Adds the range of a loop inside the point (Index::inner) to an access's.
void widen_by_inner(const Index &ix,
                    const std::map<std::string, std::pair<int64_t, int64_t>> &ranges,
                    int64_t &first, int64_t &last) {
  if (!ix.in_inner_loop())
    return;
  auto [lo, hi] = ranges.at(ix.inner);
  first += std::min(ix.inner_coeff * lo, ix.inner_coeff * hi);
  last += std::max(ix.inner_coeff * lo, ix.inner_coeff * hi);
}

class BoundsChecker : public IRVisitor {
public:
  BoundsChecker(const Kernel &k, const std::map<std::string, int64_t> &ints,
                const std::map<std::string, std::pair<int64_t, int64_t>> &ranges,
                const LoopRanges &loops = {})
      : kernel_(k), ints_(ints), ranges_(ranges), loops_(loops) {}
  void visit_for(const For *op) override {
    visit_with_loop_range(op, loops_, ranges_, [&] { IRVisitor::visit_for(op); });
  }

protected:
  void visit_grid_ref(const GridRef *op) override { check(op->grid, op->index, op->loc); }
  void visit_store(const Store *op) override {
    IRVisitor::visit_store(op);
    check(op->grid, op->index, op->loc);
  }

private:
  void check(const std::string &grid, const std::vector<Index> &index, const SourceLoc &loc) {
    const Variable *v = kernel_.find_arg(grid);
    if (!v)
      v = kernel_.find_work(grid); // a column's work array, in the library's own memory
    assert(v && v->rank() == static_cast<int>(index.size()) && "front end checked the grid");
    for (size_t d = 0; d < index.size(); ++d) {
      const Index &ix = index[d];
      auto lo = eval_int(v->dims[d].lo, ints_), hi = eval_int(v->dims[d].hi, ints_);
      if (!lo || !hi)
        throw UserError(v->loc, "The bounds of '" + grid +
                                    "' cannot be evaluated from the loop "
                                    "bounds at the tuning size");
      int64_t first = ix.offset, last = ix.offset;
      if (ix.at_runtime()) {
        assert(ints_.count(ix.sym) && "every plane's scalar has a value");
        first = last = ix.offset + ix.sym_coeff * ints_.at(ix.sym);
      }
      if (!ix.var.empty()) {
        auto [rlo, rhi] = ranges_.at(ix.var);
        first += std::min(ix.coeff * rlo, ix.coeff * rhi);
        last += std::max(ix.coeff * rlo, ix.coeff * rhi);
      }
      widen_by_inner(ix, ranges_, first, last);
      if (first < *lo || last > *hi)
        throw UserError(loc, "'" + grid + "' is accessed at " + print_index(ix) + " from " +
                                 std::to_string(first) + " to " + std::to_string(last) +
                                 " in dimension " + std::to_string(d + 1) +
                                 ", outside its declared bounds " + std::to_string(*lo) + ":" +
                                 std::to_string(*hi) + " at the tuning size");
    }
  }

  const Kernel &kernel_;
  const std::map<std::string, int64_t> &ints_;
  std::map<std::string, std::pair<int64_t, int64_t>> ranges_;
  const LoopRanges &loops_;
};

/// The smallest and largest index each grid is accessed at, per dimension,
/// given each loop variable's range.
class AccessRanges : public IRVisitor {
public:
  /// `ints`: the scalars of planes at run-time positions (Index::sym)
  /// known so far; a plane whose scalar has no value yet is left out.
  explicit AccessRanges(const std::map<std::string, std::pair<int64_t, int64_t>> &ranges,
                        const LoopRanges &loops = {},
                        const std::map<std::string, int64_t> *ints = nullptr)
      : ranges_(ranges), loops_(loops), ints_(ints) {}
  void visit_for(const For *op) override {
    visit_with_loop_range(op, loops_, ranges_, [&] { IRVisitor::visit_for(op); });
  }
  std::map<std::pair<std::string, size_t>, std::pair<int64_t, int64_t>> extent;

protected:
  void visit_grid_ref(const GridRef *op) override { add(op->grid, op->index); }
  void visit_store(const Store *op) override {
    IRVisitor::visit_store(op);
    add(op->grid, op->index);
  }

private:
  void add(const std::string &grid, const std::vector<Index> &index) {
    for (size_t d = 0; d < index.size(); ++d) {
      const Index &ix = index[d];
      int64_t first = ix.offset, last = ix.offset;
      if (ix.at_runtime()) {
        auto value = ints_ ? ints_->find(ix.sym) : std::map<std::string, int64_t>::const_iterator{};
        if (!ints_ || value == ints_->end())
          continue;
        first = last = ix.offset + ix.sym_coeff * value->second;
      }
      if (!ix.var.empty()) {
        auto [lo, hi] = ranges_.at(ix.var);
        first += std::min(ix.coeff * lo, ix.coeff * hi);
        last += std::max(ix.coeff * lo, ix.coeff * hi);
      }
      widen_by_inner(ix, ranges_, first, last);
      auto [it, fresh] = extent.try_emplace({grid, d}, first, last);
      if (!fresh)
        it->second = {std::min(it->second.first, first), std::max(it->second.second, last)};
    }
  }
  std::map<std::string, std::pair<int64_t, int64_t>> ranges_;
  const LoopRanges &loops_;
  const std::map<std::string, int64_t> *ints_;
};

/// The scalars of planes and offsets at run-time positions (Index::sym),
/// each with the accesses that add it: (grid, dimension, the subscript).
struct PlaneUse {
  std::string grid;
  size_t dim;
  Index index;
};
std::map<std::string, std::vector<PlaneUse>> plane_uses(const Stmt &body) {
  struct Scan : IRVisitor {
    std::map<std::string, std::vector<PlaneUse>> uses;
    void note(const std::string &g, const std::vector<Index> &index) {
      for (size_t d = 0; d < index.size(); ++d)
        if (index[d].at_runtime())
          uses[index[d].sym].push_back({g, d, index[d]});
    }
    void visit_grid_ref(const GridRef *op) override { note(op->grid, op->index); }
    void visit_store(const Store *op) override {
      IRVisitor::visit_store(op);
      note(op->grid, op->index);
    }
  } scan;
  scan.visit(body);
  return scan.uses;
}

/// The smallest x >= from for which `holds` is true, when `holds` is false
/// up to some value and true from there on (a bound that grows with x);
/// nullopt when it does not hold even at 2^30.
template <typename Predicate>
std::optional<int64_t> smallest_reaching(const Predicate &holds, int64_t from) {
  int64_t hi = from + 1;
  while (!holds(hi)) {
    if (hi > (int64_t{1} << 30))
      return std::nullopt;
    hi = from + 2 * (hi - from);
  }
  if (holds(from))
    return from;
  int64_t lo = from; // holds(lo) is false, holds(hi) is true
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    (holds(mid) ? hi : lo) = mid;
  }
  return hi;
}

/// A column nest's levels (Kernel::column): the scalars its column loops
/// and subscripts use that the nest's loops do not set (`nz`) get the
/// number of levels, as many as the work arrays hold up to kColumnLevels;
/// the column's loop variable and those scalars get their ranges.
void column_levels(const Kernel &k, ProblemSize &size,
                   std::map<std::string, std::pair<int64_t, int64_t>> &ranges, LoopRanges &loops) {
  constexpr int64_t kColumnLevels = 60;
  int64_t levels = kColumnLevels;
  for (const Variable &w : k.column->work) {
    auto lo = eval_int(w.dims[0].lo, {}), hi = eval_int(w.dims[0].hi, {});
    if (lo && hi)
      levels = std::max<int64_t>(std::min(levels, *hi - *lo + 1), 1);
  }
  struct Uses : IRVisitor {
    const Kernel &k;
    std::vector<const For *> loops;
    std::set<std::string> scalars;
    explicit Uses(const Kernel &kk) : k(kk) {}
    void note(const std::vector<Index> &index) {
      for (const Index &ix : index)
        if (const Variable *v = k.find_arg(ix.var); v && !v->is_grid())
          scalars.insert(ix.var);
    }
    void visit_grid_ref(const GridRef *op) override { note(op->index); }
    void visit_store(const Store *op) override {
      IRVisitor::visit_store(op);
      note(op->index);
    }
    void visit_for(const For *op) override {
      if (op->var == k.column->var) {
        loops.push_back(op);
        for (const Expr &b : {op->lo, op->hi})
          for (const std::string &n : vars_of(b))
            if (const Variable *v = k.find_arg(n); v && !v->is_grid())
              scalars.insert(n);
      }
      IRVisitor::visit_for(op);
    }
  } uses(k);
  uses.visit(k.body);
  for (const std::string &n : uses.scalars)
    size.ints.try_emplace(n, levels);
  for (const std::string &n : uses.scalars)
    ranges[n] = {size.ints.at(n), size.ints.at(n)};
  for (const For *f : uses.loops) {
    auto lo = eval_int(f->lo, size.ints), hi = eval_int(f->hi, size.ints);
    if (!lo || !hi)
      throw UserError(f->loc, "The bounds of the '" + f->var +
                                  "' loop of the column cannot be evaluated at a tuning size");
    loops[f] = {*lo, *hi};
  }
}

using Range = std::pair<int64_t, int64_t>;

/// The values an INTEGER expression of the point may take in the tuning
/// harness: an interval, from the loops' ranges, the arguments' values, the
/// harness's data for array elements (`do k = 1, kmt(i, j)`) and, for a
/// temporary of the point (`nk = kmt(i, j)` before `do k = 1, nk`), every
/// value the point assigns it. nullopt where the interval is not known.
class PointRanges {
public:
  /// An INTEGER argument that nothing set yet takes `radius` (in `ints`).
  PointRanges(const Kernel &k, std::map<std::string, int64_t> &ints,
              std::map<std::string, Range> scope, int64_t radius)
      : k_(k), ints_(ints), scope_(std::move(scope)), radius_(radius) {}

  std::optional<Range> of(const Expr &e) {
    if (const IntImm *i = as<IntImm>(e))
      return Range{i->value, i->value};
    if (const Var *v = as<Var>(e))
      return of_var(v->name);
    if (const GridRef *g = as<GridRef>(e)) {
      const Variable *grid = k_.find_arg(g->grid);
      if (!grid || (grid->type != Type::Int32 && grid->type != Type::Bool))
        return std::nullopt;
      return grid->type == Type::Int32 ? kHarnessIntegerData : kHarnessLogicalData;
    }
    if (const Unary *u = as<Unary>(e); u && u->op == UnaryOp::Neg) {
      auto a = of(u->a);
      return a ? std::optional<Range>(Range{-a->second, -a->first}) : std::nullopt;
    }
    if (const Binary *b = as<Binary>(e))
      return of_binary(*b);
    if (const Call *c = as<Call>(e); c && (c->fn == Intrinsic::Min || c->fn == Intrinsic::Max)) {
      std::optional<Range> out;
      for (const Expr &a : c->args) {
        auto r = of(a);
        if (!r)
          return std::nullopt;
        out = !out ? *r
              : c->fn == Intrinsic::Min
                  ? Range{std::min(out->first, r->first), std::min(out->second, r->second)}
                  : Range{std::max(out->first, r->first), std::max(out->second, r->second)};
      }
      return out;
    }
    if (const Select *s = as<Select>(e)) {
      auto a = of(s->a), b = of(s->b);
      if (!a || !b)
        return std::nullopt;
      return Range{std::min(a->first, b->first), std::max(a->second, b->second)};
    }
    return std::nullopt;
  }

  void enter(const std::string &var, Range r) { scope_[var] = r; }
  void leave(const std::string &var, std::optional<Range> before) {
    if (before)
      scope_[var] = *before;
    else
      scope_.erase(var);
  }
  std::optional<Range> in_scope(const std::string &var) const {
    auto r = scope_.find(var);
    return r == scope_.end() ? std::nullopt : std::optional<Range>(r->second);
  }

private:
  std::optional<Range> of_var(const std::string &name) {
    if (auto r = scope_.find(name); r != scope_.end())
      return r->second;
    if (auto v = ints_.find(name); v != ints_.end())
      return Range{v->second, v->second};
    if (const Variable *arg = k_.find_arg(name); arg && !arg->is_grid()) {
      if (arg->type != Type::Int32)
        return std::nullopt;
      ints_[name] = radius_;
      return Range{radius_, radius_};
    }
    if (!k_.find_temp(name) || evaluating_.count(name))
      return std::nullopt; // a temporary that feeds its own value has no interval here
    struct Assigned : IRVisitor {
      const std::string &name;
      std::vector<Expr> values;
      explicit Assigned(const std::string &n) : name(n) {}
      void visit_assign(const Assign *op) override {
        if (op->var == name)
          values.push_back(op->value);
        IRVisitor::visit_assign(op);
      }
    } assigned(name);
    assigned.visit(k_.body);
    evaluating_.insert(name);
    std::optional<Range> out;
    for (const Expr &value : assigned.values) {
      auto r = of(value);
      if (!r) {
        out.reset();
        break;
      }
      out = out ? Range{std::min(out->first, r->first), std::max(out->second, r->second)} : *r;
    }
    evaluating_.erase(name);
    return out;
  }

  std::optional<Range> of_binary(const Binary &b) {
    auto x = of(b.a), y = of(b.b);
    if (!x || !y)
      return std::nullopt;
    auto corners = [&](auto op) -> std::optional<Range> {
      int64_t c[4] = {op(x->first, y->first), op(x->first, y->second), op(x->second, y->first),
                      op(x->second, y->second)};
      return Range{*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
    };
    switch (b.op) {
    case BinaryOp::Add:
      return Range{x->first + y->first, x->second + y->second};
    case BinaryOp::Sub:
      return Range{x->first - y->second, x->second - y->first};
    case BinaryOp::Mul:
      return corners([](int64_t p, int64_t q) { return p * q; });
    case BinaryOp::Div:
      // Truncation is monotone in each operand while the divisor keeps its sign.
      if (y->first <= 0 && y->second >= 0)
        return std::nullopt;
      return corners([](int64_t p, int64_t q) { return p / q; });
    default:
      return std::nullopt;
    }
  }

  const Kernel &k_;
  std::map<std::string, int64_t> &ints_;
  std::map<std::string, Range> scope_;
  int64_t radius_;
  std::set<std::string> evaluating_;
};

/// The loops inside the point with run-time trip counts (ast/InnerLoops):
/// the INTEGER arguments their bounds read that nothing set yet (`r` of `do
/// jj = -r, r`) take a small radius, which decides the window the grids
/// must hold; each loop gets its range, the interval of its bounds over
/// every point (`do k = 1, kmt(i, j)` runs to the largest value the
/// harness's data holds), so that ProblemSize sizes the grids for it.
void inner_loop_ranges(const Kernel &k, ProblemSize &size,
                       const std::map<std::string, Range> &nest_ranges, LoopRanges &loops) {
  // A radius small enough to keep the window's halo small; where loops
  // reach as deep as the harness's INTEGER data says (`do k = 1, kmt(i,
  // j)`), the loops to an argument (`do k = 1, km`) reach as deep, as a
  // column's depth and its number of levels do in the program.
  constexpr int64_t kInnerRadius = 2;
  const int64_t radius = has_point_bounds(k) ? kHarnessIntegerData.second : kInnerRadius;
  struct Inner : IRVisitor {
    const Kernel &k;
    LoopRanges &loops;
    PointRanges ranges;
    std::vector<const For *> nest;
    Inner(const Kernel &kk, ProblemSize &s, const std::map<std::string, Range> &nest_ranges,
          LoopRanges &l, int64_t radius)
        : k(kk), loops(l), ranges(kk, s.ints, nest_ranges, radius), nest(perfect_nest(kk.body)) {}
    void visit_for(const For *op) override {
      bool inner = std::find(nest.begin(), nest.end(), op) == nest.end() &&
                   !(k.column && op->var == k.column->var);
      if (!inner)
        return IRVisitor::visit_for(op);
      auto lo = ranges.of(op->lo), hi = ranges.of(op->hi);
      if (!lo || !hi)
        throw UserError(op->loc, "The bounds of the DO loop over '" + op->var +
                                     "' inside the point cannot be evaluated at a tuning size");
      // The variable runs from the smallest start to the largest end; a
      // point whose bounds cross runs no trip, which the range holds too.
      Range r{std::min(lo->first, hi->first), std::max(lo->second, hi->second)};
      loops[op] = r;
      auto before = ranges.in_scope(op->var);
      ranges.enter(op->var, r);
      IRVisitor::visit_for(op);
      ranges.leave(op->var, before);
    }
  } inner(k, size, nest_ranges, loops, radius);
  inner.visit(k.body);
}

} // namespace

int64_t ProblemSize::points() const {
  int64_t p = 1;
  for (int64_t e : extents)
    p *= e;
  return p;
}

ProblemSize problem_size_for(const Kernel &k, const std::vector<int64_t> &extents) {
  std::vector<const For *> loops = perfect_nest(k.body);
  assert(loops.size() == extents.size() && "one extent per loop");

  ProblemSize size;
  std::map<std::string, std::pair<int64_t, int64_t>> ranges;
  std::set<std::string> sizes_grids;
  for (const Variable &v : k.args)
    for (const Dim &d : v.dims)
      for (const Expr &e : {d.lo, d.hi})
        for (const std::string &n : vars_of(e))
          sizes_grids.insert(n);
  for (size_t d = 0; d < loops.size(); ++d) {
    const For *f = loops[d];
    int64_t extent = extents[loops.size() - 1 - d];
    auto hi_vars = vars_of(f->hi);
    auto in_hi = [&](const std::string &v) {
      return std::find(hi_vars.begin(), hi_vars.end(), v) != hi_vars.end();
    };
    // A lower bound's variables take 1, but for the one that sizes the grids
    // and that the upper bound reads too (`do i = nx/4 + 1, nx - nx/4`): the
    // extent sets it.
    std::vector<std::string> unknown;
    for (const std::string &v : vars_of(f->lo))
      if (!size.ints.count(v) && sizes_grids.count(v) && in_hi(v))
        unknown.push_back(v);
      else
        size.ints.emplace(v, 1);
    for (const std::string &v : hi_vars)
      if (!size.ints.count(v) && std::find(unknown.begin(), unknown.end(), v) == unknown.end())
        unknown.push_back(v);
    // `nx - merge(0, b_dist, periodic)`: the one that sizes the grids sets
    // the extent; the others take 1, as a lower bound's variables do.
    if (unknown.size() > 1 &&
        std::count_if(unknown.begin(), unknown.end(),
                      [&](const std::string &v) { return sizes_grids.count(v) > 0; }) == 1) {
      for (const std::string &v : unknown)
        if (!sizes_grids.count(v))
          size.ints.emplace(v, 1);
      std::erase_if(unknown, [&](const std::string &v) { return !sizes_grids.count(v); });
    }
    if (unknown.size() > 1)
      throw UserError(f->loc, "The upper bound of the '" + f->var +
                                  "' loop depends on several unknown variables, so the tuning "
                                  "size cannot be set; give each loop bound one variable");
    if (unknown.size() == 1) {
      // The trip count, most often affine in the unknown: n(v) = n(0) + slope*v.
      auto at = [&](int64_t x) -> std::optional<int64_t> {
        auto values = size.ints;
        values[unknown[0]] = x;
        auto l = eval_int(f->lo, values), h = eval_int(f->hi, values);
        if (!l || !h)
          return std::nullopt;
        return *h - *l + 1;
      };
      auto n0 = at(0), n1 = at(1);
      std::optional<int64_t> value;
      if (n0 && n1 && *n1 != *n0 && (extent - *n0) % (*n1 - *n0) == 0)
        value = (extent - *n0) / (*n1 - *n0);
      // A strided loop's counter runs to (hi - lo + s)/s - 1, which is not
      // affine in hi's variable, nor is `nx - nx/4`: take the smallest value
      // that reaches the extent, if the count grows with it.
      if (!value || at(*value) != extent)
        value = smallest_reaching(
            [&](int64_t x) {
              auto n = at(x);
              return n && *n >= extent;
            },
            0);
      if (!value || at(*value) != extent)
        throw UserError(f->loc, "Cannot choose '" + unknown[0] + "' so that the '" + f->var +
                                    "' loop runs " + std::to_string(extent) + " times");
      size.ints[unknown[0]] = *value;
    }
    auto lo = eval_int(f->lo, size.ints);
    if (!lo)
      throw UserError(f->loc, "The lower bound of the '" + f->var + "' loop cannot be evaluated");
    auto hi = eval_int(f->hi, size.ints);
    assert(hi && "the upper bound has no unknowns left");
    ranges[f->var] = {*lo, *hi};
  }
  for (size_t d = 0; d < loops.size(); ++d) {
    auto [lo, hi] = ranges[loops[d]->var];
    size.extents.insert(size.extents.begin(), std::max<int64_t>(hi - lo + 1, 0));
  }

  LoopRanges column_loops;
  if (k.column)
    column_levels(k, size, ranges, column_loops);
  inner_loop_ranges(k, size, ranges, column_loops);

  std::set<std::string> in_bounds;
  for (const Variable &v : k.args)
    for (const Dim &d : v.dims)
      for (const Expr &e : {d.lo, d.hi})
        for (const std::string &n : vars_of(e))
          in_bounds.insert(n);
  // A plane at a run-time position (`f(m + 1, j)`) whose scalar no bound
  // mentions: a few elements in from the lowest that the grid's declared
  // lower bounds allow, so that the planes of one face copy are distinct
  // (a value that sizes the grid is chosen with its bounds, below). An
  // offset at a run-time position (`u(i, j + joff)`), whose loop already
  // spans the grid: the smallest value from 0 up that keeps every access
  // at or above the lower bounds (0 where the loops alone stay inside).
  constexpr int64_t kPlaneInset = 4;
  std::map<std::string, std::vector<PlaneUse>> planes = plane_uses(k.body);
  for (const auto &[sym, uses] : planes) {
    if (size.ints.count(sym) || in_bounds.count(sym))
      continue;
    bool offset = std::any_of(uses.begin(), uses.end(),
                              [](const PlaneUse &u) { return !u.index.var.empty(); });
    int64_t value = offset ? 0 : 1;
    for (const PlaneUse &u : uses) {
      const Variable *g = k.find_arg(u.grid);
      auto lo = g ? eval_int(g->dims[u.dim].lo, size.ints) : std::nullopt;
      int64_t first = u.index.offset, c = u.index.sym_coeff;
      if (auto r = ranges.find(u.index.var); !u.index.var.empty() && r != ranges.end())
        first += std::min(u.index.coeff * r->second.first, u.index.coeff * r->second.second);
      // lo <= first + c*value: a lower limit on value where c > 0; where
      // c < 0 an upper one, which 0 or the other accesses' limits meet.
      int64_t room = (lo ? *lo : 1) - first;
      if (c > 0)
        value = std::max(value, room >= 0 ? (room + c - 1) / c : -(-room / c));
    }
    size.ints[sym] = value + (offset ? 0 : kPlaneInset);
  }

  // The bounds of an assumed-shape or allocatable grid that the loops do
  // not set: the grid is made just large enough for the accesses.
  AccessRanges access(ranges, column_loops, &size.ints);
  access.visit(k.body);
  for (const Variable &v : k.args) {
    if (!v.bound_of || size.ints.count(v.name))
      continue;
    auto e = access.extent.find({v.bound_of->grid, static_cast<size_t>(v.bound_of->dim - 1)});
    if (e != access.extent.end())
      size.ints[v.name] = v.bound_of->upper ? e->second.second : e->second.first;
  }
  // An offset moved into a read-only grid's bounds (`r(2*j - d)`) selects
  // which elements are read, not how many: 1, the offset of an even fine
  // grid in a multigrid restriction.
  for (const std::string &n : k.subscript_offsets)
    size.ints.try_emplace(n, 1);
  // Integers that only the point computation reads (a colour, a switch)
  // change what is computed, not how much: any fixed value times the same
  // work, and 1 takes the branches a colour test takes on odd sweeps.
  for (const Variable &v : k.args)
    if (!v.is_grid() && v.type == Type::Int32 && !size.ints.count(v.name) &&
        !in_bounds.count(v.name))
      size.ints[v.name] = 1;
  // Other integers appear only in array bounds, such as the fine grid's
  // size of a multigrid restriction (`r(0:nf+1)` read at 2*i + 1 for i up to
  // nc) or a weather model's memory bounds (`w(ims:ime, kms:kme, jms:jme)`
  // around the tile the loops run over): each is the value that makes every
  // grid it bounds hold the elements the loops access, and no more. A lower
  // bound and an upper bound are set apart (each is checked against its own
  // side), so `ims` does not wait for `ime`; a bound with another unknown
  // waits for it.
  std::vector<const Variable *> unset;
  for (const Variable &v : k.args)
    if (!v.is_grid() && v.type == Type::Int32 && !size.ints.count(v.name))
      unset.push_back(&v);
  auto mentions = [](const Expr &e, const std::string &name) {
    auto names = vars_of(e);
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  // f(bound, upper, (first, last) accessed) for every declared bound that
  // mentions `name` of a dimension the kernel accesses.
  // The extents with `name` = x, where planes at run-time positions add it.
  auto extent_at = [&](const std::string &name, int64_t x) {
    if (!planes.count(name))
      return access.extent;
    auto values = size.ints;
    values[name] = x;
    AccessRanges at(ranges, column_loops, &values);
    at.visit(k.body);
    return at.extent;
  };
  auto each_bound = [&](const std::string &name, const auto &extent, auto &&f) {
    for (const Variable &g : k.args)
      for (size_t d = 0; d < g.dims.size(); ++d) {
        auto e = extent.find({g.name, d});
        if (e == extent.end())
          continue;
        for (bool upper : {false, true}) {
          const Expr &b = upper ? g.dims[d].hi : g.dims[d].lo;
          if (b && mentions(b, name))
            f(b, upper, e->second);
        }
      }
  };
  while (!unset.empty()) {
    bool progress = false;
    for (auto it = unset.begin(); it != unset.end();) {
      const Variable &v = **it;
      // holds(x): every bound that mentions v, with v = x, takes in the
      // accesses on its side; it waits while some such bound has another
      // unknown. `lower`: v appears only in lower bounds, where holding
      // grows as x falls.
      bool waits = false, bounds_a_grid = false, lower = true;
      each_bound(v.name, extent_at(v.name, 0), [&](const Expr &b, bool upper, const auto &) {
        auto values = size.ints;
        values[v.name] = 0;
        waits = waits || !eval_int(b, values);
        bounds_a_grid = true;
        lower = lower && !upper;
      });
      if (waits) {
        ++it;
        continue;
      }
      auto holds = [&](int64_t x) {
        auto values = size.ints;
        values[v.name] = x;
        bool all = true;
        each_bound(v.name, extent_at(v.name, x), [&](const Expr &b, bool upper, const auto &range) {
          auto at = eval_int(b, values);
          all = all && at && (upper ? *at >= range.second : *at <= range.first);
        });
        return all;
      };
      std::optional<int64_t> value;
      if (bounds_a_grid && lower) {
        // The largest value that holds: search upward over -x from far
        // below every access.
        int64_t below = 0;
        for (const auto &[key, range] : access.extent)
          below = std::min(below, range.first);
        auto neg =
            smallest_reaching([&](int64_t y) { return holds(-y); }, -(int64_t{1} << 29) - below);
        if (neg)
          value = -*neg;
      } else if (bounds_a_grid) {
        value = smallest_reaching(holds, 0);
      }
      if (!value)
        throw UserError(v.loc, "Cannot derive a value for '" + v.name +
                                   "' from the loop bounds, so the kernel cannot be tuned; use "
                                   "--no-tune");
      // The smallest grid that holds the planes at `v` may make them one
      // (`u(n1)` and `u(n1 - 1)` copied from `u(2)` and to `u(1)` with
      // n1 = 2): a few more elements keep a face copy's planes apart.
      if (planes.count(v.name) && holds(*value + (lower ? -kPlaneInset : kPlaneInset)))
        *value += lower ? -kPlaneInset : kPlaneInset;
      size.ints[v.name] = *value;
      it = unset.erase(it);
      progress = true;
    }
    if (!progress)
      throw UserError(unset.front()->loc,
                      "Cannot derive a value for '" + unset.front()->name +
                          "' from the loop bounds, so the kernel cannot be tuned; use --no-tune");
  }
  BoundsChecker(k, size.ints, ranges, column_loops).visit(k.body);

  int real_index = 0;
  for (const Variable &v : k.args) {
    if (v.is_grid())
      continue;
    if (v.type == Type::Int32) {
      size.scalar_values.push_back(std::to_string(size.ints.at(v.name)));
      continue;
    }
    // A LOGICAL switch: .TRUE. (the harness reads every scalar as a number).
    if (v.type == Type::Bool) {
      size.scalar_values.push_back("1");
      continue;
    }
    // Fixed, distinct, exactly representable values.
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", 0.5 + 0.125 * (1 + (real_index++ % 7)));
    size.scalar_values.push_back(buf);
  }
  return size;
}

} // namespace f2s
