#include "transforms/CudaPlaneSums.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"
#include "transforms/Names.h"

#include <map>
#include <optional>
#include <set>

namespace f2s {

namespace {

/// One term `weight * g(x+dx, y+dy, z+dz)` of the stored value; a null
/// weight is 1.
struct Term {
  int64_t off[3] = {0, 0, 0}; // dx, dy, dz
  Expr weight;
};

/// The stored value as terms of the summed grid plus `rest` (null: none), an
/// expression that does not read that grid.
struct Linear {
  std::vector<Term> terms;
  Expr rest;
};

bool reads_grid(const Expr &e, const std::string *grid) {
  struct Finder : IRVisitor {
    const std::string *grid;
    bool found = false;
    void visit_grid_ref(const GridRef *g) override { found = found || !grid || g->grid == *grid; }
  } f;
  f.grid = grid;
  f.visit(e);
  return f.found;
}

/// Replaces scalar temporaries by the expressions last assigned to them.
class Inline : public IRMutator {
public:
  std::map<std::string, Expr> defs;

protected:
  Expr visit_var(const Var *v, const Expr &self) override {
    auto it = defs.find(v->name);
    return it == defs.end() ? self : it->second;
  }
};

/// Moves an expression of the point (x, y, z) to the point (x, y, p + dz):
/// the z loop variable becomes `plane + dz`, in subscripts and as a value.
class ToPlane : public IRMutator {
public:
  ToPlane(std::string z, std::string plane, int64_t dz)
      : z_(std::move(z)), plane_(std::move(plane)), dz_(dz) {}

protected:
  Expr visit_var(const Var *v, const Expr &self) override {
    if (v->name != z_)
      return self;
    Expr p = Var::make(plane_, v->type, v->loc);
    return dz_ ? Binary::make(BinaryOp::Add, p, IntImm::make(dz_, v->loc), v->loc) : p;
  }
  Expr visit_grid_ref(const GridRef *g, const Expr &self) override {
    std::vector<Index> ix = g->index;
    bool changed = false;
    for (Index &i : ix)
      if (i.var == z_) {
        i.var = plane_;
        i.offset += i.coeff * dz_;
        changed = true;
      }
    return changed ? GridRef::make(g->grid, ix, g->type, g->loc) : self;
  }

private:
  std::string z_, plane_;
  int64_t dz_;
};

/// What the analysis found at the point of a nest.
struct Form {
  std::string var[3]; ///< x, y, z loop variables
  std::string grid;   ///< the summed grid
  const Store *store = nullptr;
  Linear value;
};

class LinearReader {
public:
  LinearReader(const std::string &grid, const std::string (&var)[3]) : grid_(grid), var_(var) {}

  std::optional<Linear> read(const Expr &e) const {
    if (!reads_grid(e, &grid_))
      return Linear{{}, e};
    if (const GridRef *g = as<GridRef>(e)) {
      Term t;
      for (int a = 0; a < 3; ++a) {
        if (g->index[a].var != var_[a] || g->index[a].coeff != 1)
          return std::nullopt;
        t.off[a] = g->index[a].offset;
      }
      return Linear{{t}, nullptr};
    }
    if (const Unary *u = as<Unary>(e); u && u->op == UnaryOp::Neg) {
      auto a = read(u->a);
      if (!a)
        return std::nullopt;
      for (Term &t : a->terms)
        t.weight = negated(t.weight, e);
      if (a->rest)
        a->rest = Unary::make(UnaryOp::Neg, a->rest, e->loc);
      return a;
    }
    const Binary *b = as<Binary>(e);
    if (!b)
      return std::nullopt;
    if (b->op == BinaryOp::Add || b->op == BinaryOp::Sub) {
      auto x = read(b->a), y = read(b->b);
      if (!x || !y)
        return std::nullopt;
      bool sub = b->op == BinaryOp::Sub;
      for (Term t : y->terms) {
        if (sub)
          t.weight = negated(t.weight, e);
        x->terms.push_back(t);
      }
      if (y->rest)
        x->rest = !x->rest ? (sub ? Unary::make(UnaryOp::Neg, y->rest, e->loc) : y->rest)
                           : Binary::make(b->op, x->rest, y->rest, e->loc);
      return x;
    }
    // A weight times (or a sum over) a weight: the weight reads no grid, so
    // that every output of a plane can scale the plane's values by it.
    if (b->op == BinaryOp::Mul || b->op == BinaryOp::Div) {
      bool left = b->op == BinaryOp::Mul && !reads_grid(b->a, nullptr);
      Expr w = left ? b->a : b->b;
      if (reads_grid(w, nullptr))
        return std::nullopt;
      auto x = read(left ? b->b : b->a);
      if (!x)
        return std::nullopt;
      for (Term &t : x->terms) {
        if (b->op == BinaryOp::Mul)
          t.weight = t.weight ? Binary::make(BinaryOp::Mul, w, t.weight, e->loc) : w;
        else
          t.weight = Binary::make(
              BinaryOp::Div, t.weight ? t.weight : FloatImm::make(1.0, e->type, e->loc), w, e->loc);
      }
      if (x->rest)
        x->rest = left ? Binary::make(BinaryOp::Mul, w, x->rest, e->loc)
                       : Binary::make(b->op, x->rest, w, e->loc);
      return x;
    }
    return std::nullopt;
  }

private:
  /// -weight (a null weight is 1), typed and placed as `at`.
  static Expr negated(const Expr &weight, const Expr &at) {
    return weight ? Unary::make(UnaryOp::Neg, weight, at->loc)
                  : FloatImm::make(-1.0, at->type, at->loc);
  }

  const std::string &grid_;
  const std::string (&var_)[3];
};

/// The point statements of a 3-deep nest (front end's or mapped: the three
/// innermost loops are x, y and the stream or z loop).
std::optional<Form> analyse(const Kernel &k) {
  if (!k.reductions.empty())
    return std::nullopt;
  std::vector<const For *> nest = perfect_nest(k.body);
  if (nest.size() < 3)
    return std::nullopt;
  Form f;
  for (int a = 0; a < 3; ++a)
    f.var[a] = nest[nest.size() - 1 - a]->var;
  const Block *body = as<Block>(nest.back()->body);
  std::vector<Stmt> stmts = body ? body->stmts : std::vector<Stmt>{nest.back()->body};
  Inline inl;
  Expr value;
  for (size_t i = 0; i < stmts.size(); ++i) {
    if (const Assign *a = as<Assign>(stmts[i])) {
      inl.defs[a->var] = inl.mutate(a->value);
    } else if (const Store *s = as<Store>(stmts[i]); s && i + 1 == stmts.size()) {
      for (int a = 0; a < 3; ++a)
        if (s->index.size() != 3 || s->index[a].var != f.var[a] || s->index[a].coeff != 1 ||
            s->index[a].offset != 0)
          return std::nullopt;
      f.store = s;
      value = inl.mutate(s->value);
    } else {
      return std::nullopt;
    }
  }
  if (!f.store || !is_float(f.store->value->type))
    return std::nullopt;
  // The summed grid: the read-only floating-point grid read most often.
  struct Reads : IRVisitor {
    std::map<std::string, int> count;
    void visit_grid_ref(const GridRef *g) override { ++count[g->grid]; }
  } reads;
  reads.visit(value);
  int best = 0;
  for (const Variable &v : k.args) {
    auto it = reads.count.find(v.name);
    if (v.is_grid() && v.rank() == 3 && is_float(v.type) && v.name != f.store->grid &&
        it != reads.count.end() && it->second > best) {
      best = it->second;
      f.grid = v.name;
    }
  }
  if (f.grid.empty())
    return std::nullopt;
  auto linear = LinearReader(f.grid, f.var).read(value);
  if (!linear)
    return std::nullopt;
  f.value = std::move(*linear);
  return f;
}

} // namespace

bool plane_sums_pay(const Kernel &k) {
  auto f = analyse(k);
  if (!f)
    return false;
  std::set<std::vector<int64_t>> in_plane, all;
  std::set<int64_t> column;
  for (const Term &t : f->value.terms) {
    in_plane.insert({t.off[0], t.off[1]});
    all.insert({t.off[0], t.off[1], t.off[2]});
    if (!t.off[0] && !t.off[1])
      column.insert(t.off[2]);
  }
  // A register pipeline along z loads every term but the column's planes,
  // of which one new a step.
  size_t piped = all.size() - column.size() + (column.empty() ? 0 : 1);
  return in_plane.size() < piped;
}

Kernel sum_planes(const Kernel &k) {
  if (!plane_sums_pay(k))
    return k;
  auto f = analyse(k);
  // The mapped shape: thread x, then the z stream, then the y and x point
  // loops, each running once (hi = min(first, bound)).
  std::vector<const For *> nest = perfect_nest(k.body);
  size_t n = nest.size();
  if (n < 4 || nest[n - 4]->exec != LoopExec::CudaThreadX || nest[n - 3]->exec != LoopExec::Serial)
    return k;
  const For *stream = nest[n - 3], *ly = nest[n - 2], *lx = nest[n - 1];
  for (const For *p : {ly, lx}) {
    const Call *hi = as<Call>(p->hi);
    if (p->exec != LoopExec::Unrolled || !hi || hi->fn != Intrinsic::Min ||
        print_expr(hi->args[0]) != print_expr(p->lo))
      return k;
  }
  if (const IntImm *step = as<IntImm>(stream->step); !step || step->value != 1)
    return k;

  int64_t dz_lo = f->value.terms.front().off[2], dz_hi = dz_lo;
  for (const Term &t : f->value.terms) {
    dz_lo = std::min(dz_lo, t.off[2]);
    dz_hi = std::max(dz_hi, t.off[2]);
  }
  std::set<std::string> used = names::in_use(k);
  std::string plane = names::fresh(used, "f2s_plane");
  // The sums keep the type the source computes the value in (REAL(8) terms
  // stored into a REAL(4) grid are summed in REAL(8)); the store converts.
  Type type = f->store->value->type;
  std::vector<std::string> sums;
  Kernel out = k;
  for (int64_t dz = dz_lo; dz <= dz_hi; ++dz) {
    sums.push_back(names::fresh(used, "f2s_sum"));
    out.temps.push_back({sums.back(), type, {}, f->store->loc});
  }
  SourceLoc loc = f->store->loc;
  auto var = [&](const std::string &v, Type t) { return Var::make(v, t, loc); };
  auto plus = [&](const Expr &a, int64_t c) {
    if (!c)
      return a;
    return Binary::make(c < 0 ? BinaryOp::Sub : BinaryOp::Add, a, IntImm::make(c < 0 ? -c : c, loc),
                        loc);
  };
  Expr zero = FloatImm::make(0.0, type, loc);

  std::vector<Stmt> step;
  // s_j collects the output of plane p - dz_hi + j, which reads plane p at
  // dz = dz_hi - j. Terms of one weight are summed first, then scaled once.
  for (size_t j = 0; j < sums.size(); ++j) {
    int64_t dz = dz_hi - static_cast<int64_t>(j);
    ToPlane here(f->var[2], plane, -dz);
    std::vector<std::string> order;
    std::map<std::string, std::pair<Expr, Expr>> groups; // weight text -> (weight, sum)
    for (const Term &t : f->value.terms) {
      if (t.off[2] != dz)
        continue;
      std::vector<Index> ix = {{f->var[0], 1, t.off[0]}, {f->var[1], 1, t.off[1]}, {plane, 1, 0}};
      Expr g = GridRef::make(f->grid, ix, k.find_arg(f->grid)->type, loc);
      std::string key = t.weight ? print_expr(t.weight) : "";
      auto [it, fresh] = groups.emplace(key, std::pair<Expr, Expr>{t.weight, g});
      if (fresh)
        order.push_back(key);
      else
        it->second.second = Binary::make(BinaryOp::Add, it->second.second, g, loc);
    }
    Expr partial;
    for (const std::string &key : order) {
      auto [w, sum] = groups.at(key);
      Expr term = w ? Binary::make(BinaryOp::Mul, here.mutate(w), sum, loc) : sum;
      partial = partial ? Binary::make(BinaryOp::Add, partial, term, loc) : term;
    }
    if (partial)
      step.push_back(Assign::make(
          sums[j], Binary::make(BinaryOp::Add, var(sums[j], type), partial, loc), loc));
  }
  // The output of plane p - dz_hi is complete.
  Expr value = var(sums[0], type);
  if (f->value.rest)
    value = Binary::make(BinaryOp::Add, value,
                         ToPlane(f->var[2], plane, -dz_hi).mutate(f->value.rest), loc);
  std::vector<Index> at = f->store->index;
  at[2] = {plane, 1, -dz_hi};
  Expr first_out = plus(stream->lo, dz_hi);
  step.push_back(
      IfThenElse::make(Binary::make(BinaryOp::Ge, var(plane, Type::Int32), first_out, loc),
                       Store::make(f->store->grid, at, value, loc), nullptr, loc));
  for (size_t j = 0; j + 1 < sums.size(); ++j)
    step.push_back(Assign::make(sums[j], var(sums[j + 1], type), loc));
  step.push_back(Assign::make(sums.back(), zero, loc));

  std::vector<Stmt> column;
  for (const std::string &s : sums)
    column.push_back(Assign::make(s, zero, loc));
  column.push_back(For::make(plane, plus(stream->lo, dz_lo), plus(stream->hi, dz_hi),
                             IntImm::make(1, loc), LoopExec::Serial, Block::make(step, loc),
                             stream->loc));
  Stmt x =
      For::make(lx->var, lx->lo, lx->hi, lx->step, lx->exec, Block::make(column, loc), lx->loc);
  Stmt y = For::make(ly->var, ly->lo, ly->hi, ly->step, ly->exec, x, ly->loc);

  // Rebuild the loops outside the stream around the new column.
  struct Replace : IRMutator {
    const For *target;
    Stmt with;
    Stmt visit_for(const For *op, const Stmt &self) override {
      if (op == target)
        return with;
      return IRMutator::visit_for(op, self);
    }
  } replace;
  replace.target = stream;
  replace.with = y;
  out.body = replace.mutate(k.body);
  return out;
}

} // namespace f2s
