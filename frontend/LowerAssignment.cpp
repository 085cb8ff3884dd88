// Lowering assignments: to an array element (a store, whose subscripts
// must give each point of the nest elements of its own) and to a scalar
// (a temporary private to each point, whose value as a subscript is
// followed while the statements are lowered).
#include "frontend/RegionLowering.h"

namespace f2s::fe::lowering {

Stmt RegionLowering::lower_assignment(const fp::AssignmentStmt &a, const SourceLoc &loc) {
  const fp::Variable &lhs = std::get<fp::Variable>(a.t);
  const fp::Expr &rhs = std::get<fp::Expr>(a.t);
  // `u(i,j) = ...` is a function reference to the parser.
  if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&lhs.u)) {
    const fp::Call &call = f->value().v;
    const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
    if (std::string c = component_refusal(call, text_of(f->value().source)); !c.empty())
      fail(at(f->value().source), c);
    if (!name)
      fail(loc, std::string("This assignment is not allowed inside a ") + kRegion);
    std::vector<const fp::Expr *> subs;
    for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(call.t)) {
      const auto *e = std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(arg.t).u);
      if (!e || std::get<std::optional<fp::Keyword>>(arg.t))
        fail(at_node(arg), "Subscript of '" + text_of(name->source) + "' is not allowed");
      subs.push_back(&e->value());
    }
    return lower_store(*name, subs, rhs, loc, f->value().source);
  }
  const fp::Designator &d = std::get<fc::Indirection<fp::Designator>>(lhs.u).value();
  const auto *ref = std::get_if<fp::DataRef>(&d.u);
  if (ref) {
    if (std::string c = component_refusal(*ref, text_of(d.source)); !c.empty())
      fail(at(d.source), c);
    if (const auto *element = std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u)) {
      const fp::ArrayElement &e = element->value();
      const auto *name = std::get_if<fp::Name>(&e.base.u);
      std::vector<const fp::Expr *> subs;
      for (const fp::SectionSubscript &s : e.subscripts) {
        const auto *i = std::get_if<fp::IntExpr>(&s.u);
        if (!i)
          fail(at(d.source), std::string("An array section is not allowed inside a ") + kRegion);
        subs.push_back(&i->thing.value());
      }
      if (name)
        return lower_store(*name, subs, rhs, loc, d.source);
    }
    if (const auto *name = std::get_if<fp::Name>(&ref->u)) {
      // A scalar temporary.
      std::string var = text_of(name->source);
      SourceLoc var_loc = at(name->source);
      if (is_loop_var(var) || unrolling_.count(var))
        fail(var_loc, "Loop variable '" + var + "' cannot be assigned inside a " + kRegion);
      const Decl *decl = lookup(var, var_loc);
      if (!decl)
        fail(var_loc, not_declared(var));
      if (decl->shape)
        fail(var_loc, "Whole array '" + var + "' cannot be assigned inside a " + kRegion);
      if (decl->parameter)
        fail(var_loc, "Named constant '" + var + "' cannot be assigned");
      // A LOGICAL temporary takes a condition; any other a number.
      Type type = usable_type(*decl, var_loc);
      Expr value = type == Type::Bool ? logical(rhs) : numeric(rhs);
      lower_temp(var, var_loc);
      // The value an INTEGER temporary holds from here on, for subscripts
      // (`ic = 2*i - 1`, `i1 = 2*j1 - d1`); unknown after an assignment under
      // an IF or of another expression.
      std::optional<Affine> a;
      if (type == Type::Int32 && in_if_ == 0) {
        symbolic_ = true;
        try {
          a = affine(rhs);
        } catch (...) {
          symbolic_ = false;
          throw;
        }
        symbolic_ = false;
      }
      if (a)
        integer_defs_[var] = *a;
      else
        integer_defs_.erase(var);
      if (type == Type::Int32 && in_if_ > 0)
        integer_unknown_[var] = "'" + var + "' is assigned under an IF at line " +
                                std::to_string(loc.line) +
                                "; assign it outside any IF, or write the access in each branch "
                                "with its subscript in the loop variables";
      else if (type == Type::Int32 && !a)
        integer_unknown_[var] = "'" + var + "' is assigned '" + text_of(rhs.source) + "' at line " +
                                std::to_string(loc.line) + ", which is not one either";
      return Assign::make(var, value, loc);
    }
  }
  fail(at(d.source), std::string("This assignment is not allowed inside a ") + kRegion);
}

Stmt RegionLowering::lower_store(const fp::Name &name, const std::vector<const fp::Expr *> &subs,
                                 const fp::Expr &rhs, const SourceLoc &loc,
                                 fp::CharBlock lhs_text) {
  std::string grid = text_of(name.source);
  SourceLoc name_loc = at(name.source);
  const Decl *decl = lookup(grid, name_loc);
  if (!decl)
    fail(name_loc, not_declared(grid));
  if (!decl->shape)
    fail(name_loc, "'" + grid + "' is not an array");
  // A mask is read where the C side sees 0 or 1; what a store would leave in
  // a LOGICAL array is the compiler's business.
  if (decl->type == Type::Bool)
    fail(name_loc, "LOGICAL array '" + grid + "' cannot be assigned inside a " + kRegion +
                       "; LOGICAL arrays (masks) may only be read");
  storing_ = true;
  Expr target;
  try {
    target = lower_grid_ref(*decl, name, subs);
  } catch (...) {
    storing_ = false;
    throw;
  }
  storing_ = false;
  const auto &index = as<GridRef>(target)->index;
  // A local 1D array filled in a loop beside the last inner loop is a line
  // buffer (canonicalize/ForwardLineBuffers checks the rest, and refuses
  // other arrays filled so).
  if (filling_ && is_local_1d(*decl)) {
    buffer_stores_.insert(grid);
    return Store::make(grid, index, numeric(rhs), loc);
  }
  // A local array at constant subscripts (`tv(3)`, or `tv(m)` in a DO loop
  // over m unrolled in the point) is a work array of the point: each point
  // fills it before reading it (canonicalize/PointArrays makes scalars of its
  // elements, and refuses it otherwise). A column's point keeps the form it
  // has, and storage that EQUIVALENCE shares is no element of one array.
  bool constant = std::all_of(index.begin(), index.end(), [](const Index &ix) {
    return ix.var.empty() && !ix.at_runtime() && !ix.in_inner_loop();
  });
  if (constant && column_dos_.empty() && !decl->equivalence && is_local_array(*decl)) {
    point_stores_.emplace(grid, usable_type(*decl, name_loc));
    return Store::make(grid, index, numeric(rhs), loc);
  }
  // A column's work array is the column's own (ast/Dependence checks how
  // the column fills and reads it).
  if (in_column_ && std::find(column_work_.begin(), column_work_.end(), grid) != column_work_.end())
    return Store::make(grid, index, numeric(rhs), loc);
  // Whether points of the nest write one element (a loop variable missing
  // from the subscripts, or in two of them) is ast/Dependence's
  // find_store_overlap, which names the store as written.
  Expr value = numeric(rhs);
  store_sources_.push_back(StoreSource{loc, name_loc, text_of(lhs_text)});
  return Store::make(grid, index, value, loc);
}

/// A scalar assigned in the region, as a temporary private to each point.
Expr RegionLowering::lower_temp(const std::string &name, const SourceLoc &loc) {
  for (const Variable &t : temps_)
    if (t.name == name)
      return Var::make(name, t.type, loc);
  const Decl *decl = lookup(name, loc);
  if (!decl)
    fail(loc, not_declared(name));
  if (decl->shape)
    fail(loc, "Whole array '" + name + "' cannot be assigned inside a " + kRegion);
  if (decl->parameter)
    fail(loc, "Named constant '" + name + "' cannot be assigned");
  Type type = usable_type(*decl, loc);
  temps_.push_back(Variable{name, type, {}, decl->loc});
  return Var::make(name, type, loc);
}

} // namespace f2s::fe::lowering
