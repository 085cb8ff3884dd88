// What a name reads as inside the region: a loop variable (scaled for a
// stride loop), an offset loop's value, a named constant's value, a
// temporary, or an argument of the kernel; the hooks that frontend/OffsetLoops
// calls to unroll loops over offsets; and the fixes that a refusal suggests
// where a name holds no known value.
#include "canonicalize/FoldConstants.h"
#include "frontend/RegionLowering.h"

#include "frontend/Names.h"

#include "flang/Parser/parse-tree-visitor.h"

namespace f2s::fe::lowering {

namespace {

/// The names of whole variables in an expression, in source order.
struct WholeNames {
  std::vector<std::string> names;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::Designator &d) {
    const auto *ref = std::get_if<fp::DataRef>(&d.u);
    if (const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr)
      names.push_back(text_of(name->source));
    return true;
  }
};

/// Whether a node reads one of `names`.
template <typename T> bool reads_any(const T &node, const std::set<std::string> &names) {
  for (const std::string &n : names_in(node))
    if (names.count(n))
      return true;
  return false;
}

/// Whether an expression reads an array element whose subscripts read one
/// of `varying` (`kmt(i, j)`, not `m(2)`).
struct ReadsVaryingElement {
  const std::vector<Scope> &scopes;
  const std::set<std::string> &varying;
  bool found = false;
  bool is_array(const std::string &n) const {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
      if (auto d = it->decls.find(n); d != it->decls.end())
        return d->second.shape != nullptr;
    return false;
  }
  template <typename T> bool Pre(const T &) { return !found; }
  template <typename T> void Post(const T &) {}
  template <typename T> bool subscripts_vary(const T &subscripts) {
    return reads_any(subscripts, varying);
  }
  // Before semantics, `kmt(i, j)` in an expression reads as a call.
  bool Pre(const fp::FunctionReference &f) {
    const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(f.v.t).u);
    if (!name || !is_array(text_of(name->source)))
      return true;
    found |= subscripts_vary(std::get<std::list<fp::ActualArgSpec>>(f.v.t));
    return false;
  }
  bool Pre(const fp::ArrayElement &a) {
    found |= subscripts_vary(a.subscripts);
    return false;
  }
};

/// The variables of a region's DO loops, and the right-hand side of every
/// assignment to a scalar, by the scalar's name.
struct RegionScalars {
  std::set<std::string> do_vars;
  std::map<std::string, std::vector<const fp::Expr *>> values;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::LoopControl::Bounds &b) {
    do_vars.insert(text_of(b.name.thing.source));
    return true;
  }
  bool Pre(const fp::AssignmentStmt &a) {
    const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&std::get<fp::Variable>(a.t).u);
    const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
    if (const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr)
      values[text_of(name->source)].push_back(&std::get<fp::Expr>(a.t));
    return false;
  }
};

} // namespace

bool RegionLowering::reads_point_values(const fp::Expr &e) const {
  if (!outer_ || outer_->empty())
    return false;
  if (!point_scalars_) {
    // The scalars that some assignment of the region sets from an array
    // element at subscripts that vary, or from another such scalar.
    RegionScalars region;
    fp::Walk(std::get<fp::Block>(outer_->front()->t), region);
    point_scalars_.emplace();
    varying_ = region.do_vars;
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto &[name, values] : region.values) {
        if (point_scalars_->count(name) || region.do_vars.count(name))
          continue;
        for (const fp::Expr *v : values)
          if (reads_point_values(*v)) {
            point_scalars_->insert(name);
            varying_.insert(name);
            grew = true;
            break;
          }
      }
    }
  }
  ReadsVaryingElement elements{scopes_, varying_};
  fp::Walk(e, elements);
  return reads_any(e, *point_scalars_) || elements.found;
}

std::string RegionLowering::why_not_affine(const fp::Expr &e) const {
  WholeNames whole;
  fp::Walk(e, whole);
  for (const std::string &n : whole.names)
    if (auto why = integer_unknown_.find(n);
        why != integer_unknown_.end() && !integer_defs_.count(n))
      return ", as " + why->second;
  return constant_fix(e);
}

std::optional<std::string> RegionLowering::variable_to_fix(const fp::Expr &e) const {
  WholeNames whole;
  fp::Walk(e, whole);
  for (const std::string &n : whole.names) {
    if (is_loop_var(n) || assigned_.count(n) || offsets_.count(n))
      continue;
    const Decl *d = nullptr;
    for (auto it = scopes_.rbegin(); !d && it != scopes_.rend(); ++it)
      if (auto found = it->decls.find(n); found != it->decls.end())
        d = &found->second;
    if (d && !d->shape && !d->parameter && !d->int_value && d->type == Type::Int32)
      return n;
    if (!d && scopes_.back().implicit.of(n).type == Type::Int32)
      return n;
  }
  return std::nullopt;
}

std::optional<int64_t> RegionLowering::constant_name(const std::string &name) const {
  if (auto offset = offsets_.find(name); offset != offsets_.end())
    return offset->second;
  if (is_loop_var(name) || assigned_.count(name))
    return std::nullopt;
  // The declaration alone: a constant needs one (no IMPLICIT typing here).
  const Decl *d = nullptr;
  for (auto it = scopes_.rbegin(); !d && it != scopes_.rend(); ++it)
    if (auto found = it->decls.find(name); found != it->decls.end())
      d = &found->second;
  if (!d || d->shape || d->type != Type::Int32)
    return std::nullopt;
  if (d->int_value)
    return d->int_value;
  if (!d->parameter)
    return std::nullopt;
  // A value that does not lower is no constant here; its refusal, if any,
  // comes where the name is used.
  auto *self = const_cast<RegionLowering *>(this);
  auto bound_of = bound_of_;
  try {
    Expr v = self->lower_parameter(*d, SourceLoc{});
    return as<IntImm>(v)->value;
  } catch (const UserError &) {
    self->bound_of_ = bound_of;
    return std::nullopt;
  }
}

void RegionLowering::check_offset_var(const std::string &var, const SourceLoc &loc) {
  if (is_loop_var(var) || unrolling_.count(var))
    fail(loc, "Loop variable '" + var + "' is used by two loops of the " + kRegion +
                  "; give the inner DO loop another variable");
  const Decl *decl = lookup(var, loc);
  if (!decl)
    fail(loc, not_declared(var));
  if (!decl->shape && !decl->type)
    usable_type(*decl, loc);
  if (decl->shape || decl->parameter || decl->type != Type::Int32)
    fail(loc, "Loop variable '" + var + "' must be an INTEGER scalar; declare it INTEGER");
  if (assigned_.count(var))
    fail(loc, "Loop variable '" + var + "' of a DO loop inside the point is assigned in the " +
                  kRegion + ", so the loop cannot be unrolled; assign another variable");
  if (free_.count(var) && !offsets_.count(var))
    fail(loc, "Loop variable '" + var +
                  "' is read in the point before its DO loop, where it would hold the value the "
                  "loop left at the point before; use another variable there");
}

Expr RegionLowering::lower_parameter(const Decl &d, const SourceLoc &loc) {
  // A named constant is folded into its value; its value may not depend on
  // the loops, so it is lowered like a bound.
  auto saved = bound_of_;
  bound_of_ = bound_of_ ? bound_of_ : std::optional<std::string>("");
  Expr v = fold_constants(lower_expr(*d.parameter));
  bound_of_ = saved;
  const auto *i = as<IntImm>(v);
  const auto *f = as<FloatImm>(v);
  if (!i && !f)
    fail(loc, "Named constant '" + d.name + "' must have a literal value to be used inside a " +
                  kRegion);
  usable_type(d, loc);
  if ((*d.type == Type::Bool) != (v->type == Type::Bool))
    fail(loc, "Named constant '" + d.name + "' has a value of another type than its own");
  if (*d.type == Type::Bool)
    return IntImm::make_bool(i->value != 0, loc);
  if (*d.type == Type::Int32)
    return IntImm::make(i ? i->value : static_cast<int64_t>(f->value), loc);
  double value = i ? static_cast<double>(i->value) : f->value;
  if (*d.type == Type::Float32)
    value = static_cast<double>(static_cast<float>(value));
  return FloatImm::make(value, *d.type, loc);
}

Expr RegionLowering::lower_name(const fp::Name &n) {
  std::string name = text_of(n.source);
  SourceLoc loc = at(n.source);
  if (auto arg = stmt_function_args_.find(name); arg != stmt_function_args_.end())
    return arg->second;
  if (auto offset = offsets_.find(name); offset != offsets_.end())
    return IntImm::make(offset->second, loc);
  if (inner_ended_.count(name) && !is_loop_var(name))
    fail(loc, "Loop variable '" + name +
                  "' is read after its DO loop inside the point, whose trip count is known only "
                  "at run time; use another variable there");
  if (is_loop_var(name)) {
    // An inner loop's bounds may use the outer loops' variables (a triangle,
    // a wedge): canonicalize/BoundingBox makes the nest rectangular.
    auto level = [&](const std::string &v) {
      return std::find(loop_vars_.begin(), loop_vars_.end(), v) - loop_vars_.begin();
    };
    bool outer = bound_of_ && !in_dims_ && !bound_of_->empty() && is_loop_var(*bound_of_) &&
                 level(name) < level(*bound_of_);
    if ((bound_of_ || in_dims_) && !outer)
      fail(loc, bound_of_ && !bound_of_->empty()
                    ? "The bounds of the DO loop over '" + *bound_of_ +
                          "' depend on loop variable '" + name + "'"
                    : "'" + name + "' is a loop variable and cannot be used here");
    Expr v = Var::make(name, Type::Int32, loc);
    auto stride = strides_.find(name);
    if (stride == strides_.end())
      return v;
    Expr scaled = Binary::make(BinaryOp::Mul, IntImm::make(stride->second.step, loc), v, loc);
    int64_t lo = stride->second.lo;
    if (lo == 0)
      return scaled;
    return Binary::make(lo > 0 ? BinaryOp::Add : BinaryOp::Sub, scaled,
                        IntImm::make(lo > 0 ? lo : -lo, loc), loc);
  }
  if (in_column_ && name == column_var_)
    fail(loc, column_var_outside());
  if (auto b = between_.find(name); colour_scalars_ && b != between_.end())
    return b->second;
  if (assigned_.count(name)) {
    if (bound_of_ && !in_dims_ && in_column_ && *bound_of_ == column_var_)
      fail(loc, column_bound_refusal("'" + name + "', assigned in the " + kRegion + ","));
    // A bound computed between the loops reads as its value there.
    if (!in_dims_ && !colour_scalars_)
      if (auto value = between_value(name))
        return *value;
    if (bound_of_ || in_dims_)
      fail(loc, "'" + name + "' is assigned inside the " + kRegion + ", so it cannot be used " +
                    nest_bound_place() +
                    (bound_of_ && between_under_if_.count(name)
                         ? "; set it between the loops by assignments and IFs whose branches "
                           "assign it at most once each, from what the scalars held before the IF"
                         : ""));
    return lower_temp(name, loc);
  }
  const Decl *d = lookup(name, loc);
  if (!d)
    fail(loc, not_declared(name));
  if (d->int_value)
    return IntImm::make(*d->int_value, loc);
  if (d->parameter)
    return lower_parameter(*d, loc);
  if (d->shape)
    fail(loc, "Whole array '" + name + "' cannot be used inside a " + kRegion);
  Type type = usable_type(*d, loc);
  use_free(*d, loc);
  return Var::make(name, type, loc);
}

} // namespace f2s::fe::lowering
