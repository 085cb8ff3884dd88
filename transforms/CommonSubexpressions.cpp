#include "transforms/CommonSubexpressions.h"

#include "transforms/Names.h"

#include "ast/IRVisitor.h"
#include "transforms/PointLoops.h"

#include <cstring>
#include <map>

namespace f2s {

namespace {

bool is_trivial(const Expr &e) {
  return e->kind == ExprKind::IntImm || e->kind == ExprKind::FloatImm || e->kind == ExprKind::Var ||
         e->kind == ExprKind::GridRef;
}

/// The structural key of an expression in the state of one statement:
/// every variable and grid carries the number of times it has been assigned
/// so far in the run, so equal keys mean equal values.
class Keys {
public:
  void assigned(const std::string &name) { ++version_[name]; }

  std::string key(const Expr &e) const {
    std::string t = type_name(e->type);
    switch (e->kind) {
    case ExprKind::IntImm:
      return "i" + std::to_string(as<IntImm>(e)->value);
    case ExprKind::FloatImm: {
      double v = as<FloatImm>(e)->value;
      uint64_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      return "f" + t + ":" + std::to_string(bits);
    }
    case ExprKind::Var:
      return "v" + t + ":" + versioned(as<Var>(e)->name);
    case ExprKind::GridRef: {
      const GridRef *g = as<GridRef>(e);
      std::string s = "g" + t + ":" + versioned(g->grid) + "(";
      for (const Index &ix : g->index)
        s += versioned(ix.var) + "*" + std::to_string(ix.coeff) + "+" +
             std::to_string(ix.sym_coeff) + "*" + ix.sym + "+" + std::to_string(ix.inner_coeff) +
             "*" + versioned(ix.inner) + "+" + std::to_string(ix.offset) + ",";
      return s + ")";
    }
    case ExprKind::Unary:
      return "u" + t + "(" + key(as<Unary>(e)->a) + ")";
    case ExprKind::Binary: {
      const Binary *b = as<Binary>(e);
      return "b" + std::to_string(static_cast<int>(b->op)) + t + "(" + key(b->a) + "," + key(b->b) +
             ")";
    }
    case ExprKind::Call: {
      const Call *c = as<Call>(e);
      std::string s = "c" + std::to_string(static_cast<int>(c->fn)) + t + "(";
      for (const Expr &a : c->args)
        s += key(a) + ",";
      return s + ")";
    }
    case ExprKind::Select: {
      const Select *m = as<Select>(e);
      return "m" + t + "(" + key(m->cond) + "," + key(m->a) + "," + key(m->b) + ")";
    }
    }
    return "?";
  }

private:
  std::string versioned(const std::string &name) const {
    auto it = version_.find(name);
    return it == version_.end() || it->second == 0 ? name : name + "@" + std::to_string(it->second);
  }
  std::map<std::string, int> version_;
};

int node_count(const Expr &e) {
  switch (e->kind) {
  case ExprKind::Unary:
    return 1 + node_count(as<Unary>(e)->a);
  case ExprKind::Binary:
    return 1 + node_count(as<Binary>(e)->a) + node_count(as<Binary>(e)->b);
  case ExprKind::Call: {
    int n = 1;
    for (const Expr &a : as<Call>(e)->args)
      n += node_count(a);
    return n;
  }
  case ExprKind::Select:
    return 1 + node_count(as<Select>(e)->cond) + node_count(as<Select>(e)->a) +
           node_count(as<Select>(e)->b);
  default:
    return 1;
  }
}

const Expr &value_of(const Stmt &s) {
  if (const Store *st = as<Store>(s))
    return st->value;
  return as<Assign>(s)->value;
}

Stmt with_value(const Stmt &s, const Expr &v) {
  if (v == value_of(s))
    return s;
  if (const Store *st = as<Store>(s))
    return Store::make(st->grid, st->index, v, st->loc);
  const Assign *a = as<Assign>(s);
  return Assign::make(a->var, v, a->loc);
}

void assigned_by(const Stmt &s, Keys &keys) {
  if (const Store *st = as<Store>(s))
    keys.assigned(st->grid);
  else
    keys.assigned(as<Assign>(s)->var);
}

/// Occurrences of every candidate subexpression in a run of statements.
struct Occurrence {
  int count = 0;
  int size = 0;
  size_t first_stmt = 0;
  Expr expr;
};

void count_in(const Expr &e, const Keys &keys, size_t stmt,
              std::map<std::string, Occurrence> &occ) {
  if (is_trivial(e))
    return;
  if (is_float(e->type)) {
    Occurrence &o = occ[keys.key(e)];
    if (o.count++ == 0) {
      o.size = node_count(e);
      o.first_stmt = stmt;
      o.expr = e;
    }
  }
  if (const Unary *u = as<Unary>(e))
    count_in(u->a, keys, stmt, occ);
  else if (const Binary *b = as<Binary>(e)) {
    count_in(b->a, keys, stmt, occ);
    count_in(b->b, keys, stmt, occ);
  } else if (const Call *c = as<Call>(e)) {
    for (const Expr &a : c->args)
      count_in(a, keys, stmt, occ);
  } else if (const Select *m = as<Select>(e)) {
    count_in(m->cond, keys, stmt, occ);
    count_in(m->a, keys, stmt, occ);
    count_in(m->b, keys, stmt, occ);
  }
}

/// Replaces every occurrence of the subexpression with key `key` (in the
/// statement's state) by `temp`.
class Replace : public IRMutator {
public:
  Replace(const Keys &keys, const std::string &key, Expr temp)
      : keys_(keys), key_(key), temp_(std::move(temp)) {}

  Expr mutate_expr(const Expr &e) { return mutate(e); }

protected:
  Expr visit_unary(const Unary *op, const Expr &self) override {
    return matches(self) ? temp_ : IRMutator::visit_unary(op, self);
  }
  Expr visit_binary(const Binary *op, const Expr &self) override {
    return matches(self) ? temp_ : IRMutator::visit_binary(op, self);
  }
  Expr visit_call(const Call *op, const Expr &self) override {
    return matches(self) ? temp_ : IRMutator::visit_call(op, self);
  }
  Expr visit_select(const Select *op, const Expr &self) override {
    return matches(self) ? temp_ : IRMutator::visit_select(op, self);
  }

private:
  bool matches(const Expr &e) const { return e->type == temp_->type && keys_.key(e) == key_; }
  const Keys &keys_;
  const std::string &key_;
  Expr temp_;
};

class Eliminator : public IRMutator {
public:
  explicit Eliminator(Kernel &k) : kernel_(k), used_(names::in_use(k)) {}

protected:
  Stmt visit_block(const Block *op, const Stmt &self) override {
    std::vector<Stmt> out, run;
    bool changed = false;
    auto flush = [&] {
      std::vector<Stmt> done = eliminate(run);
      changed |= done != run;
      out.insert(out.end(), done.begin(), done.end());
      run.clear();
    };
    // A run ends at an IF: a subexpression of a branch is shared only within
    // that branch, so nothing is computed that the branch taken would not.
    for (const Stmt &s : op->stmts) {
      if (s->kind == StmtKind::Store || s->kind == StmtKind::Assign) {
        run.push_back(s);
        continue;
      }
      flush();
      out.push_back(mutate(s));
      changed |= out.back() != s;
    }
    flush();
    return changed ? Block::make(std::move(out), op->loc) : self;
  }

  Stmt visit_for(const For *op, const Stmt &self) override {
    if (op->body->kind != StmtKind::Store && op->body->kind != StmtKind::Assign)
      return IRMutator::visit_for(op, self);
    std::vector<Stmt> done = eliminate({op->body});
    if (done.size() == 1)
      return self;
    return For::make(op->var, op->lo, op->hi, op->step, op->exec, Block::make(done, op->body->loc),
                     op->loc);
  }

private:
  /// Shares the largest repeated subexpression, then the next, until none
  /// is repeated.
  std::vector<Stmt> eliminate(std::vector<Stmt> run) {
    for (;;) {
      std::map<std::string, Occurrence> occ;
      Keys keys;
      for (size_t i = 0; i < run.size(); ++i) {
        count_in(value_of(run[i]), keys, i, occ);
        assigned_by(run[i], keys);
      }
      const Occurrence *best = nullptr;
      std::string best_key;
      for (const auto &[key, o] : occ)
        if (o.count > 1 && (!best || o.size > best->size ||
                            (o.size == best->size && o.first_stmt < best->first_stmt))) {
          best = &o;
          best_key = key;
        }
      if (!best)
        return run;
      std::string name = names::fresh(used_, "cse" + std::to_string(next_++));
      kernel_.temps.push_back(Variable{name, best->expr->type, {}, best->expr->loc});
      Expr temp = Var::make(name, best->expr->type, best->expr->loc);
      std::vector<Stmt> next;
      Keys replay;
      for (size_t i = 0; i < run.size(); ++i) {
        if (i == best->first_stmt)
          next.push_back(Assign::make(name, best->expr, best->expr->loc));
        Replace replace(replay, best_key, temp);
        next.push_back(with_value(run[i], replace.mutate_expr(value_of(run[i]))));
        assigned_by(run[i], replay);
      }
      run = std::move(next);
    }
  }

  Kernel &kernel_;
  std::set<std::string> used_;
  int next_ = 0;
};

} // namespace

Kernel eliminate_common_subexpressions(const Kernel &k, const CommonSubexpressionOptions &options) {
  if (!options.enabled)
    return k;
  Kernel out = k;
  out.body = Eliminator(out).mutate(k.body);
  return out;
}

} // namespace f2s
