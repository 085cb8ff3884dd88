#include "transforms/RegisterBlocking.h"

#include "transforms/Names.h"

#include "ast/IRVisitor.h"
#include "transforms/PointLoops.h"

#include <map>
#include <stdexcept>

namespace f2s {

namespace {

/// `e + c`, folded when `e` is a constant.
Expr add_const(const Expr &e, int64_t c) {
  if (c == 0)
    return e;
  if (const IntImm *i = as<IntImm>(e))
    return IntImm::make(i->value + c, e->loc);
  return c > 0 ? Binary::make(BinaryOp::Add, e, IntImm::make(c))
               : Binary::make(BinaryOp::Sub, e, IntImm::make(-c));
}

/// The trip count hi - lo + 1 of a unit-step loop (negative when empty).
Expr extent(const Expr &lo, const Expr &hi) {
  if (const IntImm *l = as<IntImm>(lo))
    return add_const(hi, 1 - l->value);
  return add_const(Binary::make(BinaryOp::Sub, hi, lo), 1);
}

/// One jammed point: loop variables shifted by the point's offsets, and
/// temporaries renamed to the point's own copies.
class PointCopy : public IRMutator {
public:
  PointCopy(const std::map<std::string, int64_t> &offsets,
            const std::map<std::string, std::string> &renames)
      : offsets_(offsets), renames_(renames) {}

protected:
  Expr visit_var(const Var *op, const Expr &self) override {
    if (auto r = renames_.find(op->name); r != renames_.end())
      return Var::make(r->second, op->type, op->loc);
    auto o = offsets_.find(op->name);
    if (o == offsets_.end() || o->second == 0)
      return self;
    return Binary::make(BinaryOp::Add, self, IntImm::make(o->second), op->loc);
  }
  Expr visit_grid_ref(const GridRef *op, const Expr &self) override {
    std::vector<Index> index = shift(op->index);
    return index == op->index ? self : GridRef::make(op->grid, index, op->type, op->loc);
  }
  Stmt visit_store(const Store *op, const Stmt &self) override {
    std::vector<Index> index = shift(op->index);
    Expr value = mutate(op->value);
    if (index == op->index && value == op->value)
      return self;
    return Store::make(op->grid, index, value, op->loc);
  }
  Stmt visit_assign(const Assign *op, const Stmt &self) override {
    Expr value = mutate(op->value);
    auto r = renames_.find(op->var);
    if (r == renames_.end() && value == op->value)
      return self;
    return Assign::make(r == renames_.end() ? op->var : r->second, value, op->loc);
  }

private:
  std::vector<Index> shift(std::vector<Index> index) const {
    for (Index &ix : index)
      if (auto o = offsets_.find(ix.var); o != offsets_.end())
        ix.offset += ix.coeff * o->second;
    return index;
  }
  const std::map<std::string, int64_t> &offsets_;
  const std::map<std::string, std::string> &renames_;
};

/// The per-point copies of the temporaries, shared by every point nest of
/// the kernel so that point p has the same names everywhere.
class TempCopies {
public:
  explicit TempCopies(Kernel &k) : kernel_(k), used_(names::in_use(k)), original_(k.temps) {}

  const std::vector<Variable> &original() const { return original_; }

  std::string copy(const Variable &t, int p) {
    auto key = std::make_pair(t.name, p);
    if (auto it = copies_.find(key); it != copies_.end())
      return it->second;
    std::string name = names::fresh(used_, t.name + "_" + std::to_string(p));
    Variable copy = t;
    copy.name = name;
    kernel_.temps.push_back(copy);
    return copies_[key] = name;
  }

private:
  Kernel &kernel_;
  std::set<std::string> used_;
  std::vector<Variable> original_;
  std::map<std::pair<std::string, int>, std::string> copies_;
};

class Jammer {
public:
  Jammer(TempCopies &temps, std::vector<const For *> loops, std::vector<int> factors)
      : temps_(temps), loops_(std::move(loops)), factors_(std::move(factors)) {}

  Stmt jam() { return level(0, {}); }

private:
  /// Loops from `d` inward; `sets` holds the offsets each outer loop's
  /// iteration stands for.
  Stmt level(size_t d, std::vector<int> sets) {
    if (d == loops_.size())
      return points(sets);
    const For *f = loops_[d];
    int r = factors_[d];
    if (r == 1) {
      sets.push_back(1);
      return For::make(f->var, f->lo, f->hi, f->step, f->exec, level(d + 1, sets), f->loc);
    }
    std::vector<int> main_sets = sets, rest_sets = sets;
    main_sets.push_back(r);
    rest_sets.push_back(1);
    // The main loop runs while a whole group of r points fits; the remainder
    // starts where it stopped (C's truncating division keeps an empty loop
    // empty: the start is then past hi).
    Stmt main_loop = For::make(f->var, f->lo, add_const(f->hi, -(r - 1)), IntImm::make(r), f->exec,
                               level(d + 1, main_sets), f->loc);
    Expr whole = Binary::make(BinaryOp::Mul,
                              Binary::make(BinaryOp::Div, extent(f->lo, f->hi), IntImm::make(r)),
                              IntImm::make(r));
    Expr rest_lo = Binary::make(BinaryOp::Add, f->lo, whole);
    Stmt rest_loop =
        For::make(f->var, rest_lo, f->hi, f->step, f->exec, level(d + 1, rest_sets), f->loc);
    return Block::make({main_loop, rest_loop}, f->loc);
  }

  /// The innermost body once per point of the product of `sets`, the last
  /// loop (x) varying fastest.
  Stmt points(const std::vector<int> &sets) {
    int total = 1;
    for (int s : sets)
      total *= s;
    std::vector<Stmt> body;
    for (int p = 0; p < total; ++p) {
      std::map<std::string, int64_t> offsets;
      for (int d = static_cast<int>(sets.size()) - 1, rest = p; d >= 0; rest /= sets[d], --d)
        offsets[loops_[d]->var] = rest % sets[d];
      std::map<std::string, std::string> renames;
      if (total > 1)
        for (const Variable &t : temps_.original())
          renames[t.name] = temps_.copy(t, p);
      Stmt copy = PointCopy(offsets, renames).mutate(loops_.back()->body);
      if (const Block *b = as<Block>(copy))
        body.insert(body.end(), b->stmts.begin(), b->stmts.end());
      else
        body.push_back(copy);
    }
    return body.size() == 1 ? body.front() : Block::make(body, loops_.back()->body->loc);
  }

  TempCopies &temps_;
  std::vector<const For *> loops_;
  std::vector<int> factors_;
};

class RegisterBlocker : public IRMutator {
public:
  RegisterBlocker(Kernel &k, const RegisterBlockingOptions &o) : temps_(k), options_(o) {}

protected:
  Stmt visit_for(const For *op, const Stmt &self) override {
    if (!is_point_nest(self))
      return IRMutator::visit_for(op, self);
    std::vector<const For *> loops = perfect_nest(self);
    // Factors by axis: x is the innermost loop.
    std::vector<int> factors(loops.size(), 1);
    const int by_axis[3] = {options_.rx, options_.ry, options_.rz};
    for (size_t a = 0; a < 3 && a < loops.size(); ++a)
      factors[loops.size() - 1 - a] = by_axis[a];
    // A loop whose iterations an inner loop's bounds depend on cannot be
    // jammed (the front end makes only rectangular nests; this keeps the
    // pass right on any IR).
    for (size_t d = 0; d < loops.size(); ++d)
      for (size_t e = d + 1; e < loops.size(); ++e)
        if (uses_var(loops[e]->lo, loops[d]->var) || uses_var(loops[e]->hi, loops[d]->var))
          factors[d] = 1;
    bool any = false;
    for (int f : factors)
      any |= f > 1;
    if (!any)
      return self;
    return Jammer(temps_, loops, factors).jam();
  }

private:
  TempCopies temps_;
  const RegisterBlockingOptions &options_;
};

void check_factor(const char *name, int value, int max) {
  if (value < 1 || value > max)
    throw std::invalid_argument(std::string("register blocking factor ") + name + " = " +
                                std::to_string(value) + " is outside 1.." + std::to_string(max));
}

} // namespace

Kernel register_block(const Kernel &k, const RegisterBlockingOptions &options) {
  check_factor("rx", options.rx, 8);
  check_factor("ry", options.ry, 2);
  check_factor("rz", options.rz, 2);
  Kernel out = k;
  out.body = RegisterBlocker(out, options).mutate(k.body);
  return out;
}

} // namespace f2s
