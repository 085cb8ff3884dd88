#include "ast/IRVisitor.h"

#include <cassert>

namespace f2s {

void IRVisitor::visit(const Expr &e) {
  assert(e && "visiting a null expression");
  switch (e->kind) {
  case ExprKind::IntImm:
    return visit_int(as<IntImm>(e));
  case ExprKind::FloatImm:
    return visit_float(as<FloatImm>(e));
  case ExprKind::Var:
    return visit_var(as<Var>(e));
  case ExprKind::GridRef:
    return visit_grid_ref(as<GridRef>(e));
  case ExprKind::Unary:
    return visit_unary(as<Unary>(e));
  case ExprKind::Binary:
    return visit_binary(as<Binary>(e));
  case ExprKind::Call:
    return visit_call(as<Call>(e));
  case ExprKind::Select:
    return visit_select(as<Select>(e));
  }
}

void IRVisitor::visit(const Stmt &s) {
  assert(s && "visiting a null statement");
  switch (s->kind) {
  case StmtKind::Block:
    return visit_block(as<Block>(s));
  case StmtKind::For:
    return visit_for(as<For>(s));
  case StmtKind::Store:
    return visit_store(as<Store>(s));
  case StmtKind::Assign:
    return visit_assign(as<Assign>(s));
  case StmtKind::IfThenElse:
    return visit_if(as<IfThenElse>(s));
  }
}

void IRVisitor::visit_unary(const Unary *op) {
  visit(op->a);
}
void IRVisitor::visit_binary(const Binary *op) {
  visit(op->a);
  visit(op->b);
}
void IRVisitor::visit_call(const Call *op) {
  for (const Expr &a : op->args)
    visit(a);
}
void IRVisitor::visit_select(const Select *op) {
  visit(op->cond);
  visit(op->a);
  visit(op->b);
}
void IRVisitor::visit_block(const Block *op) {
  for (const Stmt &s : op->stmts)
    visit(s);
}
void IRVisitor::visit_for(const For *op) {
  visit(op->lo);
  visit(op->hi);
  visit(op->step);
  if (op->dist.chunk)
    visit(op->dist.chunk);
  if (op->dist.group)
    visit(op->dist.group);
  visit(op->body);
}
void IRVisitor::visit_store(const Store *op) {
  visit(op->value);
}
void IRVisitor::visit_assign(const Assign *op) {
  visit(op->value);
}
void IRVisitor::visit_if(const IfThenElse *op) {
  visit(op->cond);
  visit(op->then_case);
  if (op->else_case)
    visit(op->else_case);
}

Expr IRMutator::mutate(const Expr &e) {
  assert(e && "mutating a null expression");
  switch (e->kind) {
  case ExprKind::IntImm:
    return visit_int(as<IntImm>(e), e);
  case ExprKind::FloatImm:
    return visit_float(as<FloatImm>(e), e);
  case ExprKind::Var:
    return visit_var(as<Var>(e), e);
  case ExprKind::GridRef:
    return visit_grid_ref(as<GridRef>(e), e);
  case ExprKind::Unary:
    return visit_unary(as<Unary>(e), e);
  case ExprKind::Binary:
    return visit_binary(as<Binary>(e), e);
  case ExprKind::Call:
    return visit_call(as<Call>(e), e);
  case ExprKind::Select:
    return visit_select(as<Select>(e), e);
  }
  return e;
}

Stmt IRMutator::mutate(const Stmt &s) {
  assert(s && "mutating a null statement");
  switch (s->kind) {
  case StmtKind::Block:
    return visit_block(as<Block>(s), s);
  case StmtKind::For:
    return visit_for(as<For>(s), s);
  case StmtKind::Store:
    return visit_store(as<Store>(s), s);
  case StmtKind::Assign:
    return visit_assign(as<Assign>(s), s);
  case StmtKind::IfThenElse:
    return visit_if(as<IfThenElse>(s), s);
  }
  return s;
}

Expr IRMutator::visit_unary(const Unary *op, const Expr &self) {
  Expr a = mutate(op->a);
  return a == op->a ? self : Unary::make(op->op, a, op->loc);
}

Expr IRMutator::visit_binary(const Binary *op, const Expr &self) {
  Expr a = mutate(op->a), b = mutate(op->b);
  return a == op->a && b == op->b ? self : Binary::make(op->op, a, b, op->loc);
}

Expr IRMutator::visit_call(const Call *op, const Expr &self) {
  std::vector<Expr> args;
  bool changed = false;
  for (const Expr &a : op->args) {
    args.push_back(mutate(a));
    changed |= args.back() != a;
  }
  if (!changed)
    return self;
  // A conversion's type is its kind, not its argument's (SNGL of a REAL(8)
  // is REAL(4)): rebuilt with Call::make, a shifted copy lost it (seed 140250).
  if (is_conversion(op->fn))
    return Call::convert(op->fn, std::move(args.front()), op->type, op->loc);
  return Call::make(op->fn, std::move(args), op->loc);
}

Expr IRMutator::visit_select(const Select *op, const Expr &self) {
  Expr c = mutate(op->cond), a = mutate(op->a), b = mutate(op->b);
  return c == op->cond && a == op->a && b == op->b ? self : Select::make(c, a, b, op->loc);
}

Stmt IRMutator::visit_block(const Block *op, const Stmt &self) {
  std::vector<Stmt> stmts;
  bool changed = false;
  for (const Stmt &s : op->stmts) {
    stmts.push_back(mutate(s));
    changed |= stmts.back() != s;
  }
  return changed ? Block::make(std::move(stmts), op->loc) : self;
}

Stmt IRMutator::visit_for(const For *op, const Stmt &self) {
  Expr lo = mutate(op->lo), hi = mutate(op->hi), step = mutate(op->step);
  Stmt body = mutate(op->body);
  if (lo == op->lo && hi == op->hi && step == op->step && body == op->body)
    return self;
  return For::make(op->var, lo, hi, step, op->exec, op->dist, body, op->loc);
}

Stmt IRMutator::visit_store(const Store *op, const Stmt &self) {
  Expr v = mutate(op->value);
  return v == op->value ? self : Store::make(op->grid, op->index, v, op->loc);
}

Stmt IRMutator::visit_assign(const Assign *op, const Stmt &self) {
  Expr v = mutate(op->value);
  return v == op->value ? self : Assign::make(op->var, v, op->loc);
}

Stmt IRMutator::visit_if(const IfThenElse *op, const Stmt &self) {
  Expr c = mutate(op->cond);
  Stmt t = mutate(op->then_case);
  Stmt e = op->else_case ? mutate(op->else_case) : nullptr;
  if (c == op->cond && t == op->then_case && e == op->else_case)
    return self;
  return IfThenElse::make(c, t, e, op->loc);
}

} // namespace f2s
