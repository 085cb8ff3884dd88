// Base walkers over the IR. A visitor reads; a mutator rebuilds, returning the
// very node it was given when none of its children changed, so a pass that
// touches one loop copies only the path to that loop.
#pragma once

#include "ast/IR.h"

namespace f2s {

class IRVisitor {
public:
  virtual ~IRVisitor() = default;
  void visit(const Expr &e);
  void visit(const Stmt &s);

protected:
  // Each default visits the children.
  virtual void visit_int(const IntImm *) {}
  virtual void visit_float(const FloatImm *) {}
  virtual void visit_var(const Var *) {}
  virtual void visit_grid_ref(const GridRef *) {}
  virtual void visit_unary(const Unary *op);
  virtual void visit_binary(const Binary *op);
  virtual void visit_call(const Call *op);
  virtual void visit_select(const Select *op);
  virtual void visit_block(const Block *op);
  virtual void visit_for(const For *op);
  virtual void visit_store(const Store *op);
  virtual void visit_assign(const Assign *op);
  virtual void visit_if(const IfThenElse *op);
};

class IRMutator {
public:
  virtual ~IRMutator() = default;
  Expr mutate(const Expr &e);
  Stmt mutate(const Stmt &s);

protected:
  // Each default mutates the children and rebuilds the node only if one
  // changed. `self` is the node being visited, returned when nothing changed.
  virtual Expr visit_int(const IntImm *, const Expr &self) { return self; }
  virtual Expr visit_float(const FloatImm *, const Expr &self) { return self; }
  virtual Expr visit_var(const Var *, const Expr &self) { return self; }
  virtual Expr visit_grid_ref(const GridRef *, const Expr &self) { return self; }
  virtual Expr visit_unary(const Unary *op, const Expr &self);
  virtual Expr visit_binary(const Binary *op, const Expr &self);
  virtual Expr visit_call(const Call *op, const Expr &self);
  virtual Expr visit_select(const Select *op, const Expr &self);
  virtual Stmt visit_block(const Block *op, const Stmt &self);
  virtual Stmt visit_for(const For *op, const Stmt &self);
  virtual Stmt visit_store(const Store *op, const Stmt &self);
  virtual Stmt visit_assign(const Assign *op, const Stmt &self);
  virtual Stmt visit_if(const IfThenElse *op, const Stmt &self);
};

} // namespace f2s
