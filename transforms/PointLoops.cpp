#include "transforms/PointLoops.h"

#include "ast/IRVisitor.h"

#include <cctype>

namespace f2s {

namespace {

class LoopFinder : public IRVisitor {
public:
  bool found = false;

protected:
  void visit_for(const For *) override { found = true; }
};

class VarFinder : public IRVisitor {
public:
  explicit VarFinder(const std::string &n) : name(n) {}
  const std::string &name;
  bool found = false;

protected:
  void visit_var(const Var *op) override { found |= op->name == name; }
  void visit_grid_ref(const GridRef *op) override {
    for (const Index &ix : op->index)
      found |= ix.var == name || ix.sym == name || // a plane's scalar too
               ix.inner == name;
  }
};

class LoopVarCollector : public IRVisitor {
public:
  std::set<std::string> *names = nullptr;

protected:
  void visit_for(const For *op) override {
    names->insert(op->var);
    IRVisitor::visit_for(op);
  }
};

} // namespace

bool contains_loop(const Stmt &s) {
  LoopFinder f;
  f.visit(s);
  return f.found;
}

bool is_point_nest(const Stmt &s) {
  std::vector<const For *> loops = perfect_nest(s);
  if (loops.empty() || contains_loop(loops.back()->body))
    return false;
  for (const For *f : loops) {
    const IntImm *step = as<IntImm>(f->step);
    if (!step || step->value != 1)
      return false;
    // Loops dealt by a Distribution (groups, members) or mapped to a device
    // keep their shape; the point loops are below them.
    if (f->exec != LoopExec::Serial && f->exec != LoopExec::Parallel)
      return false;
  }
  return true;
}

bool uses_var(const Expr &e, const std::string &name) {
  VarFinder f(name);
  f.visit(e);
  return f.found;
}

} // namespace f2s
