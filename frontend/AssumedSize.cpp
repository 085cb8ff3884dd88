#include "frontend/AssumedSize.h"

#include "ast/IRPrinter.h"
#include "ast/IRVisitor.h"

#include <map>
#include <set>

namespace f2s {

namespace {

/// `e + c`, with a constant e or a trailing constant of e folded in, so that
/// `nz - 1` reached at offset +1 reads `nz`, as the user would write it.
Expr plus(const Expr &e, int64_t c) {
  if (c == 0)
    return e;
  if (const IntImm *i = as<IntImm>(e))
    return IntImm::make(i->value + c, e->loc);
  if (const Binary *b = as<Binary>(e); b && (b->op == BinaryOp::Add || b->op == BinaryOp::Sub))
    if (const IntImm *i = as<IntImm>(b->b)) {
      int64_t sum = (b->op == BinaryOp::Add ? i->value : -i->value) + c;
      if (sum == 0)
        return b->a;
      return Binary::make(sum > 0 ? BinaryOp::Add : BinaryOp::Sub, b->a,
                          IntImm::make(sum > 0 ? sum : -sum, e->loc), e->loc);
    }
  return Binary::make(c > 0 ? BinaryOp::Add : BinaryOp::Sub, e,
                      IntImm::make(c > 0 ? c : -c, e->loc), e->loc);
}

/// The reach of each access, split as base + constant so that the accesses
/// of one base keep only their largest constant.
class Reach : public IRVisitor {
public:
  Reach(std::string grid, size_t dim) : grid_(std::move(grid)), dim_(dim) {}

  bool known = true;
  bool seen = false;
  /// Per base (printed), the base and the largest constant added to it.
  std::map<std::string, std::pair<Expr, int64_t>> terms;

protected:
  void visit_for(const For *op) override {
    loops_[op->var] = op;
    IRVisitor::visit_for(op);
    loops_.erase(op->var);
  }
  void visit_grid_ref(const GridRef *op) override { add(op->grid, op->index, op->loc); }
  void visit_store(const Store *op) override {
    add(op->grid, op->index, op->loc);
    IRVisitor::visit_store(op);
  }

private:
  void add(const std::string &grid, const std::vector<Index> &index, const SourceLoc &loc) {
    if (grid != grid_ || index.size() <= dim_)
      return;
    seen = true;
    const Index &ix = index[dim_];
    Expr base;
    int64_t constant = ix.offset;
    if (!ix.var.empty()) {
      auto loop = loops_.find(ix.var);
      if (loop == loops_.end() || mentions_a_loop(loop->second->lo) ||
          mentions_a_loop(loop->second->hi)) {
        known = false;
        return;
      }
      // A loop runs from lo to hi in steps of 1 (strided loops are counters).
      base = ix.coeff > 0 ? loop->second->hi : loop->second->lo;
      if (const IntImm *end = as<IntImm>(base))
        base = IntImm::make(ix.coeff * end->value, loc);
      else if (ix.coeff != 1)
        base = Binary::make(BinaryOp::Mul, IntImm::make(ix.coeff, loc), base, loc);
    }
    if (!ix.sym.empty()) {
      Expr sym = Var::make(ix.sym, Type::Int32, loc);
      if (ix.sym_coeff != 1)
        sym = Binary::make(BinaryOp::Mul, IntImm::make(ix.sym_coeff, loc), sym, loc);
      base = base ? Binary::make(BinaryOp::Add, base, sym, loc) : sym;
    }
    if (!base) {
      base = IntImm::make(constant, loc);
      constant = 0;
    } else if (const Binary *b = as<Binary>(base);
               b && (b->op == BinaryOp::Add || b->op == BinaryOp::Sub) && as<IntImm>(b->b)) {
      // `nz - 1` at +1 and `nz` at 0 are one base.
      int64_t c = as<IntImm>(b->b)->value;
      constant += b->op == BinaryOp::Add ? c : -c;
      base = b->a;
    }
    std::string key = print_expr(base);
    auto [it, fresh] = terms.emplace(key, std::make_pair(base, constant));
    if (!fresh)
      it->second.second = std::max(it->second.second, constant);
  }

  bool mentions_a_loop(const Expr &e) const {
    struct Vars : IRVisitor {
      std::set<std::string> names;
      void visit_var(const Var *v) override { names.insert(v->name); }
    } vars;
    vars.visit(e);
    for (const std::string &n : vars.names)
      if (loops_.count(n))
        return true;
    return false;
  }

  std::string grid_;
  size_t dim_;
  std::map<std::string, const For *> loops_;
};

} // namespace

std::optional<Expr> largest_subscript(const Stmt &body, const std::string &grid, size_t dim) {
  Reach reach(grid, dim);
  reach.visit(body);
  if (!reach.known || !reach.seen)
    return std::nullopt;
  std::vector<Expr> candidates;
  int64_t largest_constant = INT64_MIN;
  for (const auto &[key, term] : reach.terms) {
    if (const IntImm *i = as<IntImm>(term.first)) {
      largest_constant = std::max(largest_constant, i->value + term.second);
      continue;
    }
    candidates.push_back(plus(term.first, term.second));
  }
  if (largest_constant != INT64_MIN)
    candidates.push_back(IntImm::make(largest_constant, body->loc));
  if (candidates.size() == 1)
    return candidates.front();
  return Call::make(Intrinsic::Max, candidates, body->loc);
}

} // namespace f2s
