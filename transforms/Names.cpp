#include "transforms/Names.h"

#include <cctype>

#include "ast/IRVisitor.h"

namespace f2s::names {

namespace {

class LoopVars : public IRVisitor {
public:
  explicit LoopVars(std::set<std::string> &names) : names_(names) {}

protected:
  void visit_for(const For *op) override {
    names_.insert(op->var);
    IRVisitor::visit_for(op);
  }

private:
  std::set<std::string> &names_;
};

class VarUses : public IRVisitor {
public:
  explicit VarUses(const std::set<std::string> &vars) : vars_(vars) {}
  bool found = false;

protected:
  void visit_var(const Var *op) override { found |= vars_.count(op->name) > 0; }
  void visit_grid_ref(const GridRef *op) override {
    for (const Index &ix : op->index)
      found |= vars_.count(ix.var) > 0 || vars_.count(ix.sym) > 0 || // a plane's scalar too
               vars_.count(ix.inner) > 0;
  }

private:
  const std::set<std::string> &vars_;
};

} // namespace

bool uses_any(const Expr &e, const std::set<std::string> &vars) {
  VarUses uses(vars);
  uses.visit(e);
  return uses.found;
}

std::set<std::string> in_use(const Kernel &k) {
  std::set<std::string> names;
  for (const auto *list : {&k.args, &k.temps, &k.tuning})
    for (const Variable &v : *list)
      names.insert(v.name);
  LoopVars(names).visit(k.body);
  return names;
}

std::string fresh(std::set<std::string> &used, const std::string &base) {
  // t_0 becomes t_0_2, never t_02, which would read as another number.
  std::string sep =
      !base.empty() && std::isdigit(static_cast<unsigned char>(base.back())) ? "_" : "";
  std::string name = base;
  for (int n = 2; used.count(name); ++n)
    name = base + sep + std::to_string(n);
  used.insert(name);
  return name;
}

std::string axis(size_t d, size_t depth) {
  size_t a = depth - 1 - d;
  static const char *const axis = "xyz";
  return a < 3 ? std::string(1, axis[a]) : std::to_string(a);
}

} // namespace f2s::names
