// Lowering one annotated DO construct to a kernel: the loop nest, the
// statements of its body, and the expressions in them. The parse tree is
// pre-semantic, so every name is resolved here against the declarations that
// Frontend.cpp collected.
#include "ast/IRPrinter.h"
#include "ast/Reductions.h"
#include "canonicalize/Canonicalize.h"
#include "canonicalize/ColumnNest.h"
#include "canonicalize/FoldConstants.h"
#include "frontend/OffsetLoops.h"
#include "frontend/ParseTree.h"

#include "ast/IRVisitor.h"

#include "flang/Parser/parse-tree-visitor.h"
#include "flang/Parser/tools.h"

#include <algorithm>
#include <cerrno>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <set>
#include <tuple>

namespace f2s::fe {
namespace {

/// The variable each designator of a parse-tree expression starts with
/// (`u` of `u`, `u(i)`, `u(1:n)`), in source order.
struct DesignatorNames {
  std::vector<const fp::Name *> names;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::Designator &d) {
    if (const auto *ref = std::get_if<fp::DataRef>(&d.u)) {
      const fp::Name *n = std::get_if<fp::Name>(&ref->u);
      if (const auto *e = std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u))
        n = std::get_if<fp::Name>(&e->value().base.u);
      if (n)
        names.push_back(n);
    }
    return false;
  }
};

/// An affine subscript as it is being read: coeff*var + offset.
struct Affine {
  std::string var;
  int64_t coeff = 0;
  int64_t offset = 0;
  /// A loop-invariant INTEGER scalar in the subscript, sym_coeff*sym
  /// (`r(2*j - d)`): only while lowering the subscripts of a read.
  std::string sym;
  int64_t sym_coeff = 0;
};

// ---------------------------------------------------------- region lowering

/// Lowers one annotated DO construct to a kernel.
class RegionLowering : OffsetLoopLowering {
public:
  RegionLowering(const SourceMap &map, const std::vector<Scope> &scopes,
                 const StencilDirective &directive)
      : map_(map), scopes_(scopes), directive_(directive) {}

  Kernel lower(const fp::DoConstruct &outer, const std::string &name);
  ScalarExpr lower_scalar(const fp::Expr &e, bool logical_value);
  Kernel lower_array_copy(const fp::AssignmentStmt &a, const SourceLoc &loc,
                          const std::string &name);

private:
  // Loops inside the point (frontend/OffsetLoops) -------------------------
  std::optional<int64_t> constant_name(const std::string &name) const override;
  SourceLoc position(fp::CharBlock b) const override { return at(b); }
  bool is_declared(const std::string &name) const override { return declared(name); }
  std::string fix_for_constant(const fp::Expr &e) const override { return constant_fix(e); }
  void check_offset_var(const std::string &var, const SourceLoc &loc) override;
  Stmt lower_copy(const fp::Block &body, const std::string &var, int64_t value,
                  const SourceLoc &loc) override {
    offsets_[var] = value;
    unrolling_.insert(var);
    struct Done {
      std::set<std::string> &unrolling;
      const std::string &var;
      ~Done() { unrolling.erase(var); }
    } done{unrolling_, var};
    return lower_block(body, loc, true);
  }
  void end_offset_loop(const std::string &var, int64_t value) override { offsets_[var] = value; }

  // Where is this? ------------------------------------------------------
  SourceLoc at(fp::CharBlock b) const;
  template <typename T> SourceLoc at_node(const T &x) const {
    if (auto b = fp::GetSource(x))
      return at(*b);
    return SourceLoc{};
  }
  [[noreturn]] void fail(SourceLoc loc, std::string message) const {
    throw UserError(std::move(loc), std::move(message));
  }

  // Names ----------------------------------------------------------------
  /// The declaration of `name`, or for a name nothing declares, the one the
  /// IMPLICIT rules give it (first used at `use`); null under IMPLICIT NONE.
  const Decl *lookup(const std::string &name, const SourceLoc &use = {}) const {
    const std::vector<AssociateName> &associates = scopes_.back().associates;
    for (auto a = associates.rbegin(); a != associates.rend(); ++a)
      if (a->name == name)
        fail(use.known() ? use : a->loc,
             "'" + name + "' is an associate name of the ASSOCIATE construct at line " +
                 std::to_string(a->loc.line) + ", which a " + kRegion +
                 " cannot take as an argument; annotate the nest in a procedure that takes '" +
                 a->selector + "' as an argument (CALL it with '" + a->selector + "')");
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto d = it->decls.find(name); d != it->decls.end())
        return &d->second;
    if (auto d = implicit_.find(name); d != implicit_.end())
      return &d->second;
    refuse_unknown_module(name, use);
    const ImplicitRules::Rule &rule = scopes_.back().implicit.of(name);
    if (!rule.typed)
      return nullptr;
    Decl &d = implicit_[name];
    d.name = name;
    d.type = rule.type;
    d.typed = true;
    d.loc = use;
    d.order = kImplicitOrder + static_cast<int>(implicit_.size());
    return &d;
  }
  /// A name no declaration gives may come from a module that none of the
  /// files defines: its type and value would be guesses.
  void refuse_unknown_module(const std::string &name, const SourceLoc &use) const {
    if (is_loop_var(name))
      return;
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      for (const UnknownUse &u : it->unknown_uses)
        if (!u.only || u.names.count(name))
          fail(u.loc, "Module '" + u.module + "' is defined in none of the files given, so the " +
                          kRegion + " cannot know '" + name + "'" +
                          (use.known() ? " (line " + std::to_string(use.line) + ", column " +
                                             std::to_string(use.column) + ")"
                                       : "") +
                          "; pass the file that defines '" + u.module + "' to f2stencil too");
  }
  /// Why `name` has no type: nothing declares it and IMPLICIT NONE gives it
  /// none.
  static std::string not_declared(const std::string &name) {
    return "'" + name + "' is not declared and IMPLICIT NONE is in force; declare it";
  }
  /// A scalar INTEGER variable of `e` that, as a named constant, would make
  /// `e` a constant: the fix where a constant is needed.
  std::optional<std::string> variable_to_fix(const fp::Expr &e) const;
  /// "; make 'n' a named constant (PARAMETER)" where that fixes `e`.
  /// Why subscript `e` has no known value as a multiple of a loop variable
  /// plus a constant, with the fix: an INTEGER temporary of the region in
  /// it whose value is unknown here, or a variable that a named constant
  /// could replace.
  std::string why_not_affine(const fp::Expr &e) const;
  std::string constant_fix(const fp::Expr &e) const {
    auto name = variable_to_fix(e);
    return name ? "; make '" + *name + "' a named constant (PARAMETER)" : "";
  }
  bool declared(const std::string &name) const {
    return std::any_of(scopes_.begin(), scopes_.end(),
                       [&](const Scope &s) { return s.decls.count(name) > 0; });
  }
  /// The argument that holds a bound of an assumed-shape or allocatable
  /// array: `<array>_ub<dim>`, or `<array>_lb<dim>`. Fortran names have at
  /// most 63 characters, so a long array's name is cut to make room for the
  /// suffix (and numbered, `_2`, ..., where two cut names would meet).
  std::string bound_arg_name(const std::string &array, int dim, bool upper) const {
    auto key = std::make_tuple(array, dim, upper);
    if (auto it = bound_names_.find(key); it != bound_names_.end())
      return it->second;
    const size_t limit = 63;
    std::string suffix = (upper ? "_ub" : "_lb") + std::to_string(dim), name = array + suffix;
    if (name.size() > limit) {
      name = array.substr(0, limit - suffix.size()) + suffix;
      for (int n = 2; declared(name) || taken_bound_names_.count(name); ++n) {
        std::string tag = suffix + "_" + std::to_string(n);
        name = array.substr(0, limit - tag.size()) + tag;
      }
    }
    taken_bound_names_.insert(name);
    return bound_names_[key] = name;
  }
  bool is_loop_var(const std::string &name) const {
    return std::find(loop_vars_.begin(), loop_vars_.end(), name) != loop_vars_.end();
  }
  Type usable_type(const Decl &d, const SourceLoc &use) const {
    // A kind such as `real(wp)` may be a constant of a module no file defines.
    for (auto it = scopes_.rbegin(); !d.type && it != scopes_.rend(); ++it)
      for (const UnknownUse &u : it->unknown_uses)
        fail(u.loc, "Module '" + u.module + "' is defined in none of the files given, so the " +
                        "type of '" + d.name + "' may be unknown; pass the file that defines '" +
                        u.module + "' to f2stencil too");
    if (!d.type)
      fail(use, "The type of '" + d.name + "' cannot be used inside a " + kRegion +
                    "; use INTEGER, REAL(4), REAL(8) or default LOGICAL");
    return *d.type;
  }
  void use_free(const Decl &d, const SourceLoc &use) {
    if (!free_.count(d.name))
      free_[d.name] = &d;
  }

  /// The kernel's tuning sizes and arguments, from the variables its body
  /// used (free_), once the body of a nest of `depth` loops is lowered.
  void finish(Kernel &k, size_t depth);

  // The nest ---------------------------------------------------------------
  const fp::LoopControl::Bounds &loop_bounds(const fp::DoConstruct &d) const;
  const fp::DoConstruct *only_do(const fp::Block &b) const;
  std::vector<std::string> column_work(const std::vector<const fp::DoConstruct *> &dos) const;
  Stmt lower_column_loop(const fp::DoConstruct &d);
  /// Why the variable of a column's DO loops cannot be read outside them.
  std::string column_var_outside() const {
    return "Loop variable '" + column_var_ +
           "' is read in the column outside its DO loops, where it holds what the last loop "
           "left (or the column before); use a scalar of its own there";
  }
  /// Why `what` cannot bound a DO loop of a column, and the rewrite.
  std::string column_bound_refusal(const std::string &what) const {
    return what + " cannot be a bound of the DO loop over '" + column_var_ +
           "' of a column, because f2stencil proves from those bounds that each column writes "
           "the elements of its work arrays before it reads them; run the loop over every "
           "level and mask the levels below the column's own with IF in its body";
  }
  void check_siblings(const std::vector<const fp::DoConstruct *> &nest);
  bool is_local_1d(const Decl &d) const;
  Stmt lower_nest(const std::vector<const fp::DoConstruct *> &nest, size_t level);
  /// The start of the red-black form and the loop's first index: `lo +
  /// MOD(e, 2)` starts at lo; none when `lower` is not of that form.
  struct ColourStart {
    Expr start, lo;
  };
  std::optional<ColourStart> lower_colour_start(const fp::Expr &lower, const std::string &loop_var);
  std::optional<ColourStart> lower_colour_scalar(const fp::Expr &lower,
                                                 const std::string &loop_var);
  Expr lower_bound(const fp::Expr &e, const std::string &loop_var);

  // Statements ---------------------------------------------------------------
  Stmt lower_statement(const fp::ExecutionPartConstruct &c);
  Stmt lower_block(const fp::Block &b, const SourceLoc &loc, bool loop_body = false);
  Stmt lower_range(fp::Block::const_iterator first, fp::Block::const_iterator last,
                   const SourceLoc &loc, bool loop_body);
  Stmt lower_action(const fp::ActionStmt &a, const SourceLoc &loc,
                    const fp::ExecutableConstruct *construct);
  Stmt lower_if_construct(const fp::IfConstruct &c);
  Expr lower_condition(const fp::ScalarLogicalExpr &e);
  Stmt lower_assignment(const fp::AssignmentStmt &a, const SourceLoc &loc);
  Stmt lower_store(const fp::Name &name, const std::vector<const fp::Expr *> &subs,
                   const fp::Expr &rhs, const SourceLoc &loc, fp::CharBlock lhs_text);
  [[noreturn]] void reject(const fp::ExecutableConstruct &c, const SourceLoc &loc) const;

  // Expressions --------------------------------------------------------------
  Expr lower_expr(const fp::Expr &e);
  /// lower_expr, for an operand that must be a number (or LOGICAL).
  Expr numeric(const fp::Expr &e);
  Expr logical(const fp::Expr &e);
  Expr lower_literal(const fp::LiteralConstant &c, const SourceLoc &loc) const;
  Expr lower_name(const fp::Name &n);
  Expr lower_designator(const fp::Designator &d, fp::CharBlock source);
  Expr lower_function_reference(const fp::FunctionReference &f);
  Expr lower_temp(const std::string &name, const SourceLoc &loc);
  Expr lower_intrinsic(const std::string &fn, const std::vector<const fp::Expr *> &args,
                       const fp::Expr *kind_keyword, const SourceLoc &loc);
  Expr lower_grid_ref(const Decl &decl, const fp::Name &name,
                      const std::vector<const fp::Expr *> &subs);
  Expr lower_parameter(const Decl &d, const SourceLoc &loc);
  std::optional<Affine> affine(const fp::Expr &e) const;
  std::vector<Index> lower_subscripts(const std::string &grid,
                                      const std::vector<const fp::Expr *> &subs);
  std::vector<Dim> lower_dims(const Decl &d);
  Expr lower_bound_inquiry(const std::string &fn, const fp::Call &call, const SourceLoc &loc);
  size_t array_rank(const Decl &d, const SourceLoc &use) const;

  const SourceMap &map_;
  const std::vector<Scope> &scopes_;
  const StencilDirective &directive_;

  std::vector<std::string> loop_vars_; ///< outermost first
  /// A loop `do i = lo, hi, s` with s > 1 becomes a loop over the trip
  /// counter t = 0, 1, ... (kept under the name `i`), and the source's `i`
  /// reads as s*t + lo: back ends see unit steps only, and subscripts stay
  /// affine with constant offsets because lo is a constant.
  struct Stride {
    int64_t step = 1;
    int64_t lo = 0;
  };
  std::map<std::string, Stride> strides_;
  /// Set while lowering loop bounds and array bounds: the expression is
  /// evaluated once, before the nest, so it may not depend on the loops.
  std::optional<std::string> bound_of_;
  bool in_dims_ = false;
  std::map<std::string, const Decl *> free_;
  mutable std::map<std::tuple<std::string, int, bool>, std::string> bound_names_;
  mutable std::set<std::string> taken_bound_names_;
  /// Names declared by use alone, with their implicit types; after every
  /// declared name in argument order.
  mutable std::map<std::string, Decl> implicit_;
  static constexpr int kImplicitOrder = 1 << 24;
  /// The largest factor of a loop variable in a subscript, `8*i + o`.
  static constexpr int64_t kMaxFactor = 8;
  std::vector<Variable> temps_;
  /// Scalars assigned anywhere in the region: temporaries private to a
  /// point, whatever the order of their reads and writes (whether each read
  /// follows an assignment is for ast/Dependence to decide).
  std::set<std::string> assigned_;
  /// The problems of the statements lowered so far: each statement is
  /// lowered on its own, so that one run reports all of a region's.
  Problems problems_;
  /// Scalars assigned between the loops (before an inner DO), with the value
  /// last assigned: canonicalize/SinkScalars moves them into the point, and a
  /// red-black start may read them (`do i = 2 + joff, n, 2`).
  std::map<std::string, Expr> between_;
  /// The scalars set under an IF between the loops: no one value there.
  std::set<std::string> between_under_if_;
  /// Set while lowering a red-black start: names in between_ read as their
  /// values, so that the colour test is in the loop variables.
  bool colour_scalars_ = false;
  bool read_between_ = false;
  /// INTEGER scalars whose last assignment, outside any IF, was an affine
  /// expression of one loop variable and possibly a fixed scalar
  /// (`ic = 2*j - 1`, `i1 = 2*j1 - d1`): a subscript after the assignment
  /// reads the expression (`r(ic, jc)` is `r(2*j - 1, ...)`), so the point
  /// still writes and reads known elements. A loop body forgets those it
  /// assigns (lower_block).
  std::map<std::string, Affine> integer_defs_;
  /// Why an INTEGER temporary of the region has no such value where it is
  /// read (assigned under an IF, read before its assignment in the body,
  /// ...), with the rewrite where there is one: said where a subscript
  /// reads it.
  std::map<std::string, std::string> integer_unknown_;
  /// Assumed-size arrays already refused, each once per region.
  mutable std::set<std::string> assumed_size_reported_;
  int in_if_ = 0; ///< IF constructs and statements around the statement being lowered
  /// The nest's loops found so far, outermost first, while lower() looks
  /// for them (a column needs one).
  const std::vector<const fp::DoConstruct *> *outer_ = nullptr;
  /// Inner DO loops side by side, in source order, under the last of them.
  mutable std::map<const fp::DoConstruct *, std::vector<const fp::DoConstruct *>> siblings_;
  /// Set while lowering an inner loop beside the last one.
  bool filling_ = false;
  /// The column form (Kernel::column): the DO loops over one variable in the
  /// innermost block of the nest that fill and read local work arrays, the
  /// arrays, and the variable; set by only_do().
  mutable std::set<const fp::DoConstruct *> column_dos_;
  mutable std::vector<std::string> column_work_;
  mutable std::string column_var_;
  mutable SourceLoc column_loc_;
  /// Set while lowering the statements of a column.
  bool in_column_ = false;
  /// Set while lower() looks for the nest's loops (where a column may end it).
  mutable bool finding_nest_ = false;
  /// Set while lowering subscripts (affine() may read a loop-invariant
  /// INTEGER scalar) and a store's target (where it may not).
  mutable bool symbolic_ = false;
  bool storing_ = false;
  /// The variable part of each array dimension's subscripts, (name, factor):
  /// one for every access (name empty for constant offsets).
  struct SymShift {
    std::string sym;    ///< empty for constant offsets
    int64_t factor = 0; ///< of sym
    SourceLoc loc;      ///< the first such access, for messages
    std::string text, fix;
    bool plane = false; ///< a plane at a run-time position (Index::sym)
  };
  std::map<std::pair<std::string, size_t>, SymShift> sym_shifts_;
  /// Local 1D arrays stored in such loops: line buffers, if
  /// canonicalize/ForwardLineBuffers can substitute them.
  std::set<std::string> buffer_stores_;
  /// The variables of the DO loops inside the point (frontend/OffsetLoops)
  /// met so far, each with the value it reads as: the copy's being lowered,
  /// or after the loop, the value the loop left.
  std::map<std::string, int64_t> offsets_;
  std::set<std::string> unrolling_; ///< the offset loops being unrolled
  /// While a statement function's expression is lowered: its dummy
  /// arguments, each the value of the actual argument.
  std::map<std::string, Expr> stmt_function_args_;
  Expr inline_stmt_function(const Decl &f, const std::vector<const fp::Expr *> &args,
                            const SourceLoc &loc);
};

/// Collects the scalar names on the left of assignments, in every branch.
struct AssignedScalars {
  std::set<std::string> names;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::AssignmentStmt &a) {
    const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&std::get<fp::Variable>(a.t).u);
    const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
    if (const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr) {
      names.insert(text_of(name->source));
    }
    return false;
  }
};

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

// ------------------------------------------------------------- the loop nest

SourceLoc RegionLowering::at(fp::CharBlock b) const {
  return map_.at(b);
}

const fp::LoopControl::Bounds &RegionLowering::loop_bounds(const fp::DoConstruct &d) const {
  const auto &stmt = std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t);
  SourceLoc loc = at(stmt.source);
  const auto &control = std::get<std::optional<fp::LoopControl>>(stmt.statement.t);
  if (!control)
    fail(loc, std::string("A DO loop without a loop control cannot be part of a ") + kRegion);
  if (std::holds_alternative<fp::ScalarLogicalExpr>(control->u))
    fail(loc, std::string("A DO WHILE loop cannot be part of a ") + kRegion);
  if (std::holds_alternative<fp::LoopControl::Concurrent>(control->u))
    fail(loc, std::string("A DO CONCURRENT loop cannot be part of a ") + kRegion +
                  "; write it as nested DO loops");
  return std::get<fp::LoopControl::Bounds>(control->u);
}

std::string component_refusal(std::string text, bool element);

/// The refusal of a derived-type component (`g%ny`, `g%u(i,j)`), with the
/// rewrite, or empty when `ref` is none: the library takes arrays and scalars
/// as arguments, not a derived type.
std::string component_refusal(const fp::DataRef &ref, std::string text) {
  const fp::DataRef *base = &ref;
  if (const auto *e = std::get_if<fc::Indirection<fp::ArrayElement>>(&ref.u))
    base = &e->value().base;
  if (!std::holds_alternative<fc::Indirection<fp::StructureComponent>>(base->u))
    return "";
  return component_refusal(text, base != &ref);
}

/// The same for `g%u(i,j)`, which the parser takes for a call of a procedure
/// component.
std::string component_refusal(const fp::Call &call, const std::string &text) {
  if (!std::holds_alternative<fp::ProcComponentRef>(std::get<fp::ProcedureDesignator>(call.t).u))
    return "";
  return component_refusal(text, true);
}

std::string component_refusal(std::string text, bool element) {
  if (element)
    text = text.substr(0, text.find('('));
  return "Component '" + text + "' of a derived type cannot be used in a " + std::string(kRegion) +
         (element ? ", as the library takes arrays, not derived types; annotate the nest in a "
                    "procedure that takes '" +
                        text + "' as an array argument (CALL it with '" + text + "')"
                  : ", as the library takes scalars, not derived types; assign '" + text +
                        "' to a scalar variable before the region and use that");
}

/// CONTINUE does nothing; it ends label DO loops (`10 CONTINUE`), which
/// stays in the body of the innermost loop the label ends and follows the
/// inner loop in an outer loop's body. Nor do other compilers' directives
/// (`!DIR$ IVDEP`, `!DEC$ VECTOR ALWAYS`, `!GCC$ unroll 4`) before a loop
/// or a statement: hints to them, comments to f2stencil as OpenMP's are (a
/// '!$f2s' line inside a region is refused by the front end on its own).
bool is_continue(const fp::ExecutionPartConstruct &c) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  if (exec && std::holds_alternative<fc::Indirection<fp::CompilerDirective>>(exec->u))
    return true;
  const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
  return action && std::holds_alternative<fp::ContinueStmt>(action->statement.u);
}

/// The scalars a lowered statement assigns.
std::set<std::string> scalars_assigned(const Stmt &s) {
  struct Assigned : IRVisitor {
    std::set<std::string> names;
    void visit_assign(const Assign *a) override {
      names.insert(a->var);
      IRVisitor::visit_assign(a);
    }
  } assigned;
  assigned.visit(s);
  return assigned.names;
}

/// Whether `a` assigns a scalar, alone or (`with_ifs`) as the action of a
/// one-line IF.
bool is_scalar_action(const fp::ActionStmt &a, bool with_ifs) {
  if (const auto *i = std::get_if<fc::Indirection<fp::IfStmt>>(&a.u))
    return with_ifs &&
           is_scalar_action(
               std::get<fp::UnlabeledStatement<fp::ActionStmt>>(i->value().t).statement, false);
  const auto *as = std::get_if<fc::Indirection<fp::AssignmentStmt>>(&a.u);
  if (!as)
    return false;
  const auto *d =
      std::get_if<fc::Indirection<fp::Designator>>(&std::get<fp::Variable>(as->value().t).u);
  const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
  return ref && std::holds_alternative<fp::Name>(ref->u);
}

/// Whether `c` assigns scalars only: `joff = mod(j + k, 2)` may come between
/// the loops (canonicalize/SinkScalars moves it into the point), and before
/// a single inner loop (`with_ifs`), also the damping factor of a level set
/// under IF (`if (z > zs) damp = ...`, or an IF construct of such
/// assignments).
bool is_scalar_assignment(const fp::ExecutionPartConstruct &c, bool with_ifs = false) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  if (!exec)
    return false;
  if (const auto *i = std::get_if<fc::Indirection<fp::IfConstruct>>(&exec->u)) {
    if (!with_ifs)
      return false;
    auto only_scalars = [](const fp::Block &b) {
      return std::all_of(b.begin(), b.end(), [](const fp::ExecutionPartConstruct &s) {
        return is_continue(s) || is_scalar_assignment(s, true);
      });
    };
    const fp::IfConstruct &ic = i->value();
    if (!only_scalars(std::get<fp::Block>(ic.t)))
      return false;
    for (const fp::IfConstruct::ElseIfBlock &e :
         std::get<std::list<fp::IfConstruct::ElseIfBlock>>(ic.t))
      if (!only_scalars(std::get<fp::Block>(e.t)))
        return false;
    const auto &e = std::get<std::optional<fp::IfConstruct::ElseBlock>>(ic.t);
    return !e || only_scalars(std::get<fp::Block>(e->t));
  }
  const auto *action = std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u);
  return action && is_scalar_action(action->statement, with_ifs);
}

/// The DO construct that is the whole of `b` (CONTINUE and scalar assignments
/// before it aside), if any; a DO construct next to other statements makes
/// the nest imperfect. Several DO constructs side by side are line buffers
/// filled and then read (canonicalize/ForwardLineBuffers): the last is the
/// one the nest goes on with, and siblings_ keeps them all.
const fp::DoConstruct *RegionLowering::only_do(const fp::Block &b) const {
  // A loop over offsets belongs to the point: it is unrolled there, and
  // beside the nest's loops it is a statement between them.
  auto nest_do = [&](const fp::ExecutionPartConstruct &c) -> const fp::DoConstruct * {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
    const auto *d = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
    return d && !is_offset_loop(d->value(), b, *this) ? &d->value() : nullptr;
  };
  std::vector<const fp::DoConstruct *> dos;
  for (const fp::ExecutionPartConstruct &c : b)
    if (const fp::DoConstruct *d = nest_do(c))
      dos.push_back(d);
  if (dos.empty())
    return nullptr;
  // A tridiagonal solve per column: the nest ends here, and this block is
  // the point, its DO loops run in order inside it.
  if (dos.size() > 1 && finding_nest_ && column_dos_.empty()) {
    std::vector<std::string> work = column_work(dos);
    if (!work.empty()) {
      column_work_ = work;
      column_var_ = text_of(loop_bounds(*dos.front()).name.thing.source);
      column_loc_ = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(dos.front()->t).source);
      column_dos_.insert(dos.begin(), dos.end());
      return nullptr;
    }
  }
  bool before = true;
  for (const fp::ExecutionPartConstruct &c : b) {
    const fp::DoConstruct *d = nest_do(c);
    if (d)
      before = false;
    else if (!is_continue(c) && !(before && is_scalar_assignment(c)) && dos.size() > 1)
      fail(at_node(c), std::string("The DO loops of a ") + kRegion +
                           " must be perfectly nested; inner DO loops side by side (line buffers "
                           "filled, then read) may have only assignments to scalars before them");
    else if (!is_continue(c) && !(before && is_scalar_assignment(c, true)))
      fail(at_node(c),
           std::string("The DO loops of a ") + kRegion +
               " must be perfectly nested; only assignments to scalars may come between them, "
               "before the inner DO loop; annotate the inner nest at line " +
               std::to_string(
                   at(std::get<fp::Statement<fp::NonLabelDoStmt>>(dos.front()->t).source).line) +
               " instead");
  }
  if (dos.size() > 1)
    siblings_[dos.back()] = dos;
  return dos.back();
}

/// The arrays a block assigns at the subscript `var` alone (`cp(k) = ...`),
/// in source order.
struct StoresAtVar {
  std::string var;
  std::vector<std::string> arrays;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::AssignmentStmt &a) {
    const fp::Variable &lhs = std::get<fp::Variable>(a.t);
    const fp::Name *name = nullptr;
    std::vector<const fp::Expr *> subs;
    // `cp(k) = ...` is a function reference to the parser, or an element.
    if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&lhs.u)) {
      const fp::Call &call = f->value().v;
      name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
      for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(call.t))
        if (const auto *e =
                std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(arg.t).u))
          subs.push_back(&e->value());
    } else if (const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&lhs.u)) {
      const auto *ref = std::get_if<fp::DataRef>(&d->value().u);
      const auto *element = ref ? std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u) : nullptr;
      if (element) {
        name = std::get_if<fp::Name>(&element->value().base.u);
        for (const fp::SectionSubscript &sub : element->value().subscripts)
          if (const auto *i = std::get_if<fp::IntExpr>(&sub.u))
            subs.push_back(&i->thing.value());
      }
    }
    if (name && subs.size() == 1 && text_of(subs.front()->source) == var)
      arrays.push_back(text_of(name->source));
    return false;
  }
};

/// Every name a block reads: all but the variables assigned.
struct NamesRead {
  std::set<std::string> names;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::Name &n) {
    names.insert(text_of(n.source));
    return true;
  }
  bool Pre(const fp::AssignmentStmt &a) {
    fp::Walk(std::get<fp::Expr>(a.t), *this);
    return false;
  }
};

/// The work arrays of inner DO loops side by side that solve a system per
/// column (a tridiagonal solve), which are no line buffers: one loop fills
/// local 1D work arrays at its variable from their previous elements (`cp(k)
/// = ... cp(k-1)`, a recurrence no line buffer has) and a later one over the
/// same variable in the other direction reads them. Column physics codes
/// write it so; the block is then a column (Kernel::column). None for other
/// shapes.
std::vector<std::string>
RegionLowering::column_work(const std::vector<const fp::DoConstruct *> &dos) const {
  std::string var = text_of(loop_bounds(*dos.front()).name.thing.source);
  auto backward = [&](const fp::DoConstruct *d) {
    const auto &step = loop_bounds(*d).step;
    auto a = step ? affine(step->thing.value()) : std::nullopt;
    return a && a->coeff == 0 && a->sym_coeff == 0 && a->offset < 0;
  };
  auto local_1d = [&](const std::string &name) {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto d = it->decls.find(name); d != it->decls.end())
        return is_local_1d(d->second);
    return false;
  };
  std::vector<std::string> work;
  for (size_t n = 0; n < dos.size(); ++n) {
    if (text_of(loop_bounds(*dos[n]).name.thing.source) != var)
      return {};
    StoresAtVar stores{var, {}};
    fp::Walk(std::get<fp::Block>(dos[n]->t), stores);
    NamesRead own;
    fp::Walk(std::get<fp::Block>(dos[n]->t), own);
    for (const std::string &a : stores.arrays) {
      if (std::find(work.begin(), work.end(), a) != work.end() || !local_1d(a) ||
          !own.names.count(a))
        continue;
      for (size_t m = n + 1; m < dos.size(); ++m) {
        NamesRead later;
        fp::Walk(std::get<fp::Block>(dos[m]->t), later);
        if (backward(dos[m]) != backward(dos[n]) && later.names.count(a)) {
          work.push_back(a);
          break;
        }
      }
    }
  }
  return work;
}

/// Inner DO loops side by side must be the innermost loops, over one
/// variable with a unit step: the loop the nest goes on with gives the
/// variable its meaning in every one of them.
void RegionLowering::check_siblings(const std::vector<const fp::DoConstruct *> &nest) {
  for (const auto &[last, dos] : siblings_) {
    const auto &last_bounds = loop_bounds(*last);
    std::string var = text_of(last_bounds.name.thing.source);
    for (const fp::DoConstruct *d : dos) {
      SourceLoc loc = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d->t).source);
      if (last != nest.back() || only_do(std::get<fp::Block>(d->t)))
        fail(loc, std::string("The DO loops of a ") + kRegion +
                      " must be perfectly nested; inner DO loops side by side (line buffers "
                      "filled, then read) are accepted only as the innermost loops");
      const auto &bounds = loop_bounds(*d);
      std::string v = text_of(bounds.name.thing.source);
      if (v != var)
        fail(at(bounds.name.thing.source),
             "The DO loop over '" + v + "' beside the DO loop over '" + var + "' at line " +
                 std::to_string(
                     at(std::get<fp::Statement<fp::NonLabelDoStmt>>(last->t).source).line) +
                 " must run over '" + var +
                 "' too: line buffers are filled and read by loops over one variable");
      if (bounds.step) {
        Expr step = fold_constants(lower_bound(bounds.step->thing.value(), v));
        if (!as<IntImm>(step) || as<IntImm>(step)->value != 1) {
          // Line buffers are filled whole before they are read, so a
          // backward loop runs as well forward unless its points depend on
          // each other (which the dependence analysis then says).
          bool backward = as<IntImm>(step) && as<IntImm>(step)->value < 0;
          fail(at(bounds.step->thing.value().source),
               "The DO loops over '" + v +
                   "' side by side (line buffers filled, then read) must have a step of 1" +
                   (backward ? "; swap the bounds of this one and make its step 1 if its points "
                               "may run in any order"
                             : ""));
        }
      }
    }
  }
}

/// Whether `d` is a 1D array of the procedure itself, which nothing outside
/// the procedure sees: a line buffer, if the nest fills it beside the loop
/// that reads it.
bool RegionLowering::is_local_1d(const Decl &d) const {
  const Scope &proc = *std::find_if(scopes_.rbegin(), scopes_.rend(),
                                    [](const Scope &s) { return s.is_procedure; });
  auto own = proc.decls.find(d.name);
  return d.shape && own != proc.decls.end() && &own->second == &d && !d.common &&
         d.module.empty() && d.name != proc.result &&
         std::find(proc.dummies.begin(), proc.dummies.end(), d.name) == proc.dummies.end() &&
         array_rank(d, d.loc) == 1;
}

Kernel RegionLowering::lower(const fp::DoConstruct &outer, const std::string &name) {
  std::vector<const fp::DoConstruct *> nest{&outer};
  outer_ = &nest;
  finding_nest_ = true;
  while (const fp::DoConstruct *inner = only_do(std::get<fp::Block>(nest.back()->t))) {
    // Inside three loops, a loop with constant bounds is unrolled in the point.
    if (nest.size() == 3 && has_constant_bounds(*inner, *this))
      break;
    nest.push_back(inner);
  }
  finding_nest_ = false;
  if (nest.size() > 3) {
    auto do_stmt = [](const fp::DoConstruct *d) {
      return std::get<fp::Statement<fp::NonLabelDoStmt>>(d->t).source;
    };
    fail(at(do_stmt(nest[3])),
         std::string("A ") + kRegion + " must be a nest of 1, 2 or 3 DO loops, not " +
             std::to_string(nest.size()) + "; annotate the inner nest at line " +
             std::to_string(at(do_stmt(nest[nest.size() - 3])).line) + " instead");
  }
  check_siblings(nest);
  for (const fp::DoConstruct *d : nest) {
    const auto &bounds = loop_bounds(*d);
    std::string var = text_of(bounds.name.thing.source);
    if (is_loop_var(var))
      fail(at(bounds.name.thing.source), "Loop variable '" + var +
                                             "' is used by two loops of the " + kRegion +
                                             "; give the inner DO loop another variable");
    // A loop variable first: its value is the loop's, whatever a module says.
    loop_vars_.push_back(var);
    const Decl *decl = lookup(var, at(bounds.name.thing.source));
    // INTEGER(8) is an INTEGER but not one the IR holds.
    if (decl && !decl->shape && !decl->type)
      usable_type(*decl, at(bounds.name.thing.source));
    if (decl && (decl->shape || decl->type != Type::Int32))
      problems_.add({at(bounds.name.thing.source),
                     "Loop variable '" + var + "' must be an INTEGER scalar; declare it INTEGER"});
  }
  AssignedScalars assigned;
  fp::Walk(std::get<fp::Block>(nest.front()->t), assigned);
  for (const std::string &n : assigned.names)
    if (!is_loop_var(n))
      assigned_.insert(n);

  Kernel k;
  k.name = name;
  const Scope &proc = *std::find_if(scopes_.rbegin(), scopes_.rend(),
                                    [](const Scope &s) { return s.is_procedure; });
  k.procedure = proc.name;
  k.loc = directive_.loc;
  Stmt lowered = lower_nest(nest, 0);
  // A nest with a statement refused lacks that statement: canonicalizing it
  // would refuse what the source does not say (a reading loop that reads
  // nothing), in place of the statement's own problem.
  problems_.throw_if_any();
  if (!column_dos_.empty()) {
    // The point is a column; its work arrays are the column's own, not
    // arguments (ast/Dependence checks, with ast/LoopDependences, that each
    // column fills them before it reads them).
    k.body = canonicalize_column(lowered, column_var_);
    ColumnSolve column{column_var_, {}, column_loc_};
    for (const std::string &w : column_work_) {
      const Decl *d = lookup(w);
      Variable v{w, usable_type(*d, d->loc), lower_dims(*d), d->loc};
      free_.erase(w);
      column.work.push_back(v);
    }
    k.column = column;
  }
  Canonical canonical = k.column ? Canonical{k.body, {}} : canonicalize(lowered, buffer_stores_);
  k.body = canonical.nest;
  // A line buffer substituted away is not passed: the library never reads
  // or fills it (frontend/PrivateTemps checks that nothing else reads it).
  for (const std::string &b : canonical.line_buffers)
    free_.erase(b);
  k.line_buffers = canonical.line_buffers;
  // Names that EQUIVALENCE gives one storage become separate arguments: the
  // library would compute the nest as if they were apart, wrong as soon as
  // one of them is written.
  struct Stores : IRVisitor {
    std::set<std::string> grids;
    void visit_store(const Store *s) override {
      grids.insert(s->grid);
      IRVisitor::visit_store(s);
    }
  } stores;
  stores.visit(k.body);
  for (const std::string &w : stores.grids) {
    auto written = free_.find(w);
    if (written == free_.end() || !written->second->equivalence)
      continue;
    for (const std::string &other : *written->second->equivalence)
      if (other != w && free_.count(other)) {
        problems_.add({written->second->equivalence_loc,
                       "'" + w + "' and '" + other +
                           "' share storage through EQUIVALENCE, and the " + kRegion + " at line " +
                           std::to_string(directive_.loc.line) + " writes '" + w + "' and uses '" +
                           other +
                           "', which the library would take as two arrays; use one of the names "
                           "for both in the region"});
        break;
      }
  }
  for (const std::string &v : loop_vars_)
    if (auto st = strides_.find(v); st != strides_.end())
      k.strides.push_back(SourceStride{v, st->second.step, st->second.lo});
  k.temps = temps_;
  // A scalar reduced over the nest is not private to a point: its value
  // before the nest is the starting value and its value after is the result,
  // so it becomes an argument (passed by reference) like the region's other
  // free variables.
  k.reductions = find_reductions(k);
  for (const Reduction &r : k.reductions) {
    k.temps.erase(std::find_if(k.temps.begin(), k.temps.end(),
                               [&](const Variable &t) { return t.name == r.var; }));
    use_free(*lookup(r.var), r.loc);
  }

  finish(k, nest.size());
  return k;
}

/// Fits a default tuning size to the arrays of constant bounds: an F77 code's
/// `R(IMAX, JMAX)` with `IMAX = 160` holds no 1024 trips of the loop over its
/// first subscript, and tuning there would be refused as outside the array.
/// Each loop's trips are capped by every access at its variable to such an
/// array dimension, from the loop's lower bound where that is a constant,
/// else by the dimension's extent less the accesses' spread.
void fit_default_tune_size(Kernel &k) {
  std::vector<const For *> loops = perfect_nest(k.body);
  if (loops.size() != k.tune_size.size())
    return;
  struct Accesses : IRVisitor {
    std::vector<std::pair<std::string, std::vector<Index>>> refs;
    void visit_grid_ref(const GridRef *g) override { refs.push_back({g->grid, g->index}); }
    void visit_store(const Store *s) override {
      IRVisitor::visit_store(s);
      refs.push_back({s->grid, s->index});
    }
  } accesses;
  accesses.visit(k.body);
  auto floor_div = [](int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0 ? 1 : 0); };
  // Per loop, array dimension and factor: the smallest and largest offset.
  std::map<std::tuple<size_t, std::string, size_t, int64_t>, std::pair<int64_t, int64_t>> spread;
  for (const auto &[grid, index] : accesses.refs)
    for (size_t d = 0; d < index.size(); ++d) {
      const Index &ix = index[d];
      auto loop =
          std::find_if(loops.begin(), loops.end(), [&](const For *f) { return f->var == ix.var; });
      if (ix.var.empty() || ix.coeff == 0 || loop == loops.end())
        continue;
      auto key = std::make_tuple(static_cast<size_t>(loop - loops.begin()), grid, d, ix.coeff);
      auto [it, fresh] = spread.try_emplace(key, ix.offset, ix.offset);
      it->second = {std::min(it->second.first, ix.offset), std::max(it->second.second, ix.offset)};
    }
  for (const auto &[key, offsets] : spread) {
    const auto &[at, grid, d, coeff] = key;
    const Variable *v = k.find_arg(grid);
    if (!v || static_cast<size_t>(v->rank()) <= d)
      continue;
    // The folded expressions own the nodes `as` points into.
    Expr lo_e = fold_constants(v->dims[d].lo), hi_e = fold_constants(v->dims[d].hi);
    const IntImm *lo = as<IntImm>(lo_e);
    const IntImm *hi = as<IntImm>(hi_e);
    if (!lo || !hi)
      continue;
    const auto [omin, omax] = offsets;
    int64_t c = coeff > 0 ? coeff : -coeff;
    int64_t cap = floor_div(hi->value - lo->value - (omax - omin), c) + 1;
    Expr first_e = fold_constants(loops[at]->lo);
    if (const IntImm *first = as<IntImm>(first_e))
      cap = std::min(cap,
                     (coeff > 0 ? floor_div(hi->value - omax, c) : floor_div(omin - lo->value, c)) -
                         first->value + 1);
    int64_t &trips = k.tune_size[loops.size() - 1 - at];
    if (cap >= 1 && cap < trips)
      trips = cap;
  }
}

void RegionLowering::finish(Kernel &k, size_t depth) {
  const Scope &proc = *std::find_if(scopes_.rbegin(), scopes_.rend(),
                                    [](const Scope &s) { return s.is_procedure; });
  bool fit_tune_size = false;
  if (directive_.tune_size_of_time_loop && directive_.tune_size.size() > depth) {
    // A boundary sweep of a time loop: its loops most often run over the
    // outer dimensions of the loop's grids, whose sizes come last.
    k.tune_size.assign(directive_.tune_size.end() - static_cast<long>(depth),
                       directive_.tune_size.end());
  } else if (directive_.tune_size.empty() ||
             (directive_.tune_size_of_time_loop && directive_.tune_size.size() < depth)) {
    // About 16 M points in 3D and 1 M in 2D and 1D: well beyond the caches.
    // A column has tens of levels (harness/ProblemSize): fewer columns.
    if (k.column)
      k.tune_size.assign(depth, depth == 1 ? 1 << 16 : depth == 2 ? 256 : 64);
    else
      k.tune_size.assign(depth, depth == 3 ? 256 : depth == 2 ? 1024 : 1 << 20);
    fit_tune_size = true;
  } else if (directive_.tune_size.size() != depth) {
    problems_.add(
        {directive_.tune_size_loc,
         "TUNE_SIZE needs one size per loop of the nest, " + std::to_string(depth) + ", not " +
             std::to_string(directive_.tune_size.size()) +
             (directive_.timesteps ? " (it applies to each sweep of the time loop)" : "")});
  } else {
    k.tune_size = directive_.tune_size;
    if (directive_.tune_sizes.size() > 1)
      k.tune_sizes = directive_.tune_sizes;
  }
  // The arguments come from a body that lowered whole.
  problems_.throw_if_any();

  // Arrays bring the scalars of their declared bounds along; lowering the
  // bounds adds those to free_ while we iterate over a snapshot.
  std::map<std::string, std::vector<Dim>> dims;
  for (auto [n, decl] : std::map<std::string, const Decl *>(free_))
    if (decl->shape)
      dims[n] = lower_dims(*decl);
  // An array read at `2*j - d` is, to the kernel, one whose bounds in that
  // dimension are d higher, read at `2*j`: the same elements, a constant
  // offset in the subscript, and a halo that its declared bounds give.
  for (const auto &[at_dim, shift] : sym_shifts_) {
    const auto &[grid, dim] = at_dim;
    if (shift.factor == 0 || !dims.count(grid))
      continue;
    Dim &d = dims[grid][dim];
    if (std::find(k.subscript_offsets.begin(), k.subscript_offsets.end(), shift.sym) ==
        k.subscript_offsets.end())
      k.subscript_offsets.push_back(shift.sym);
    int64_t factor = shift.factor;
    Expr by = Var::make(shift.sym, Type::Int32, d.lo->loc);
    if (factor != 1 && factor != -1)
      by = Binary::make(BinaryOp::Mul, IntImm::make(factor > 0 ? factor : -factor, d.lo->loc), by,
                        d.lo->loc);
    BinaryOp op = factor > 0 ? BinaryOp::Sub : BinaryOp::Add;
    d.lo = Binary::make(op, d.lo, by, d.lo->loc);
    d.hi = Binary::make(op, d.hi, by, d.hi->loc);
  }

  std::vector<const Decl *> args;
  for (const auto &[n, decl] : free_)
    args.push_back(decl);
  auto rank = [&](const Decl *d) {
    auto it = std::find(proc.dummies.begin(), proc.dummies.end(), d->name);
    bool dummy =
        it != proc.dummies.end() && proc.decls.count(d->name) && &proc.decls.at(d->name) == d;
    return dummy ? std::pair<int, int>(0, static_cast<int>(it - proc.dummies.begin()))
                 : std::pair<int, int>(1, d->order);
  };
  std::sort(args.begin(), args.end(),
            [&](const Decl *a, const Decl *b) { return rank(a) < rank(b); });
  std::vector<Variable> bounds;
  for (const Decl *d : args) {
    Variable v{d->name, *d->type, dims[d->name], d->loc};
    if (d->shape && !std::holds_alternative<std::list<fp::ExplicitShapeSpec>>(d->shape->u))
      v.decl = d->pointer       ? ArrayDecl::Pointer
               : d->allocatable ? ArrayDecl::Allocatable
                                : ArrayDecl::AssumedShape;
    // The bounds the procedure does not spell, which lower_dims made Vars.
    for (int dim = 1; v.decl != ArrayDecl::Explicit && dim <= v.rank(); ++dim)
      for (bool upper : {false, true}) {
        if (!upper && v.decl == ArrayDecl::AssumedShape)
          continue;
        std::string name = bound_arg_name(d->name, dim, upper);
        if (declared(name))
          problems_.add({d->loc, "Array '" + d->name + "' needs an argument '" + name +
                                     "' for a bound, but the procedure has a variable of that "
                                     "name; rename that variable"});
        Variable b{name, Type::Int32, {}, d->loc};
        b.bound_of = BoundArg{d->name, dim, upper};
        bounds.push_back(b);
      }
    k.args.push_back(v);
  }
  problems_.throw_if_any();
  k.args.insert(k.args.end(), bounds.begin(), bounds.end());
  if (fit_tune_size)
    fit_default_tune_size(k);
  std::vector<Reduction> in_arg_order;
  for (const Variable &v : k.args)
    if (const Reduction *r = k.find_reduction(v.name))
      in_arg_order.push_back(*r);
  k.reductions = std::move(in_arg_order);
}

ScalarExpr RegionLowering::lower_scalar(const fp::Expr &e, bool logical_value) {
  Expr x = logical_value ? logical(e) : numeric(e);
  problems_.throw_if_any();
  ScalarExpr out{x, {}};
  for (const auto &[n, d] : free_) {
    if (d->shape)
      fail(at(e.source), "'" + n +
                             "' is an array, and the bounds of a time loop, the scalars it "
                             "assigns between sweeps and its IF (...) EXIT conditions may use "
                             "scalars only; compute the value in a sweep");
    out.uses.push_back(Variable{n, usable_type(*d, at(e.source)), {}, d->loc});
  }
  return out;
}

Kernel RegionLowering::lower_array_copy(const fp::AssignmentStmt &a, const SourceLoc &loc,
                                        const std::string &name) {
  // One side: an array, whole or as a section of triplets without strides.
  struct Side {
    const Decl *decl = nullptr;
    std::vector<Dim> bounds; ///< per dimension, the section's (the declared where omitted)
    std::string text;
  };
  auto side = [&](const fp::Designator &d) {
    Side out;
    out.text = text_of(d.source);
    const auto *ref = std::get_if<fp::DataRef>(&d.u);
    const fp::Name *array = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
    const fp::ArrayElement *section = nullptr;
    if (const auto *e = ref ? std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u) : nullptr) {
      section = &e->value();
      array = std::get_if<fp::Name>(&section->base.u);
    }
    if (!array)
      fail(at(d.source), "'" + out.text +
                             "' is not an array or an array section, which an array "
                             "assignment f2stencil runs copies; write the copy as a DO nest");
    std::string n = text_of(array->source);
    out.decl = lookup(n, at(array->source));
    if (!out.decl)
      fail(at(array->source), not_declared(n));
    if (!out.decl->shape)
      fail(at(array->source), "'" + n + "' is not an array");
    usable_type(*out.decl, at(array->source));
    use_free(*out.decl, at(array->source));
    std::vector<Dim> declared = lower_dims(*out.decl);
    out.bounds = declared;
    if (!section)
      return out;
    if (section->subscripts.size() != declared.size())
      fail(at(d.source), "'" + out.text + "' has " + std::to_string(section->subscripts.size()) +
                             " subscripts but '" + n + "' has rank " +
                             std::to_string(declared.size()));
    size_t dim = 0;
    for (const fp::SectionSubscript &sub : section->subscripts) {
      // A subscript (`u(0, :)`, a face) is the range of that one element:
      // the same elements, in the same order, as the rank-reduced section.
      if (const auto *one = std::get_if<fp::IntExpr>(&sub.u)) {
        const fp::Expr &e = one->thing.value();
        Expr x = numeric(e);
        if (x->type != Type::Int32)
          fail(at(e.source), "The subscripts of section '" + out.text + "' must be INTEGER");
        out.bounds[dim++] = Dim{x, x};
        continue;
      }
      const auto *t = std::get_if<fp::SubscriptTriplet>(&sub.u);
      if (!t || std::get<2>(t->t))
        fail(at(d.source), "Section '" + out.text +
                               "' copied by f2stencil must have a range 'lo:hi' (or ':') "
                               "without a stride in every dimension; write the copy as a DO "
                               "nest");
      auto bound = [&](const std::optional<fp::Subscript> &b, const Expr &dflt) {
        if (!b)
          return dflt;
        const fp::Expr &e = b->thing.thing.value();
        Expr x = numeric(e);
        if (x->type != Type::Int32)
          fail(at(e.source), "The bounds of section '" + out.text + "' must be INTEGER");
        return x;
      };
      out.bounds[dim] = Dim{bound(std::get<0>(t->t), declared[dim].lo),
                            bound(std::get<1>(t->t), declared[dim].hi)};
      ++dim;
    }
    return out;
  };
  // The kernel: a nest over the left side's section, every loop free.
  auto nest = [&](const Side &dst, const std::vector<std::string> &vars, Stmt body) {
    for (size_t d = 0; d < dst.bounds.size(); ++d)
      body = For::make(vars[d], dst.bounds[d].lo, dst.bounds[d].hi, IntImm::make(1, loc),
                       LoopExec::Serial, body, loc);
    Kernel k;
    k.name = name;
    k.procedure = std::find_if(scopes_.rbegin(), scopes_.rend(), [](const Scope &s) {
                    return s.is_procedure;
                  })->name;
    k.loc = loc;
    k.body = body;
    finish(k, dst.bounds.size());
    return k;
  };
  const auto *lhs = std::get_if<fc::Indirection<fp::Designator>>(&std::get<fp::Variable>(a.t).u);
  const fp::Expr &rhs_expr = std::get<fp::Expr>(a.t);
  const auto *rhs = std::get_if<fc::Indirection<fp::Designator>>(&rhs_expr.u);
  const std::string not_a_copy =
      "An array assignment f2stencil runs must copy one array (or section) to another, as 'u = "
      "unew' does, or set it to one scalar value, as 'u = 0' does; write any other update as a "
      "DO nest";
  // Flang parses `u(1, 1)` on the left as a function reference until
  // semantics: an element, which is no array assignment.
  if (!lhs)
    fail(loc, "An assignment to one array element runs in the library only inside a DO nest; "
              "write the update as a DO nest");
  // A broadcast, `u = 0` or `u(1:n, 0) = c`: the right side a scalar
  // expression (constants, scalars the region does not change), its value
  // converted on assignment as Fortran converts it.
  const fp::Name *rhs_name = nullptr;
  if (rhs)
    if (const auto *ref = std::get_if<fp::DataRef>(&rhs->value().u))
      rhs_name = std::get_if<fp::Name>(&ref->u);
  const Decl *rhs_decl =
      rhs_name ? lookup(text_of(rhs_name->source), at(rhs_name->source)) : nullptr;
  if (!rhs || (rhs_decl && !rhs_decl->shape)) {
    Side dst = side(lhs->value());
    if (dst.bounds.size() > 3)
      fail(loc, "An array assignment f2stencil runs is to an array of rank 1, 2 or 3, not " +
                    std::to_string(dst.bounds.size()));
    // An array on the right (`u = 2*u`, `u = v + w`) makes it an update of
    // arrays, not a broadcast.
    DesignatorNames named;
    fp::Walk(rhs_expr, named);
    for (const fp::Name *n : named.names)
      if (const Decl *decl = lookup(text_of(n->source), at(n->source)); decl && decl->shape)
        fail(at(rhs_expr.source), not_a_copy);
    Expr value = dst.decl->type == Type::Bool ? logical(rhs_expr) : numeric(rhs_expr);
    std::vector<std::string> vars;
    std::vector<Index> di;
    for (size_t d = 0; d < dst.bounds.size(); ++d) {
      vars.push_back("f2s_c" + std::to_string(d + 1));
      di.push_back(Index{vars.back(), 1, 0});
    }
    return nest(dst, vars, Store::make(dst.decl->name, di, value, loc));
  }
  Side dst = side(lhs->value()), src = side(rhs->value());
  if (dst.decl->type != src.decl->type)
    fail(loc, "'" + dst.text + " = " + src.text +
                  "' converts between types, which a copy f2stencil runs does not; give both "
                  "arrays one type or write the copy as a DO nest");
  if (dst.bounds.size() != src.bounds.size())
    fail(loc, "'" + dst.text + "' and '" + src.text + "' have different ranks");
  if (dst.bounds.size() > 3)
    fail(loc, "A copy f2stencil runs is of an array of rank 1, 2 or 3, not " +
                  std::to_string(dst.bounds.size()));
  // Element c of the left side is element c + offset of the right: the
  // offset must be a constant the IR can hold in a subscript.
  auto offset_of = [&](const Expr &from, const Expr &to) -> std::optional<int64_t> {
    if (print_expr(from) == print_expr(to))
      return 0;
    const auto *f = as<IntImm>(from);
    const auto *t = as<IntImm>(to);
    if (f && t)
      return t->value - f->value;
    return std::nullopt;
  };
  std::vector<Index> di, si;
  std::vector<std::string> vars;
  // Where the first elements are apart by an expression (allocatable or
  // assumed-shape arrays, whose bounds are arguments), the right side is
  // declared to the copy shifted by it, so that both read at one index.
  std::vector<Expr> shift(dst.bounds.size());
  for (size_t d = 0; d < dst.bounds.size(); ++d) {
    std::string v = "f2s_c" + std::to_string(d + 1);
    vars.push_back(v);
    auto lo = offset_of(dst.bounds[d].lo, src.bounds[d].lo);
    auto hi = offset_of(dst.bounds[d].hi, src.bounds[d].hi);
    bool constant_bounds = as<IntImm>(dst.bounds[d].lo) && as<IntImm>(dst.bounds[d].hi) &&
                           as<IntImm>(src.bounds[d].lo) && as<IntImm>(src.bounds[d].hi);
    if (constant_bounds && (!lo || !hi || *lo != *hi))
      fail(loc, "The copy '" + dst.text + " = " + src.text + "' has " +
                    std::to_string(as<IntImm>(dst.bounds[d].hi)->value -
                                   as<IntImm>(dst.bounds[d].lo)->value + 1) +
                    " elements in dimension " + std::to_string(d + 1) + " on the left and " +
                    std::to_string(as<IntImm>(src.bounds[d].hi)->value -
                                   as<IntImm>(src.bounds[d].lo)->value + 1) +
                    " on the right; give both sides one shape");
    if (lo && hi && *lo != *hi)
      fail(loc, "The copy '" + dst.text + " = " + src.text + "' has " +
                    std::to_string(std::abs(*hi - *lo)) + (*hi > *lo ? " more" : " fewer") +
                    " elements in dimension " + std::to_string(d + 1) +
                    " on the right than on the left; give both sides one shape");
    // Fortran reads the whole right side before it assigns: a copy within
    // one array between elements apart is a loop only where the ranges
    // cannot meet, which a subscript offset (constant, in the IR) cannot say
    // for a shift by an expression, nor a loop's order for a constant one.
    if (src.decl == dst.decl && (!lo || *lo != 0))
      fail(loc, "The copy '" + dst.text + " = " + src.text +
                    "' moves elements within one array, which f2stencil cannot run as Fortran "
                    "does (the whole right side read first); write it as a DO nest over the "
                    "elements it copies");
    di.push_back(Index{v, 1, 0});
    if (lo && hi && *lo == *hi) {
      si.push_back(Index{v, 1, *lo});
      continue;
    }
    si.push_back(Index{v, 1, 0});
    shift[d] = Binary::make(BinaryOp::Sub, src.bounds[d].lo, dst.bounds[d].lo, loc);
  }
  Kernel k = nest(dst, vars,
                  Store::make(dst.decl->name, di,
                              GridRef::make(src.decl->name, si, *src.decl->type, loc), loc));
  for (Variable &v : k.args)
    if (v.name == src.decl->name && src.decl != dst.decl)
      for (size_t d = 0; d < shift.size(); ++d)
        if (shift[d])
          v.dims[d] = Dim{Binary::make(BinaryOp::Sub, v.dims[d].lo, shift[d], loc),
                          Binary::make(BinaryOp::Sub, v.dims[d].hi, shift[d], loc)};
  return k;
}

Expr RegionLowering::lower_bound(const fp::Expr &e, const std::string &loop_var) {
  bound_of_ = loop_var;
  Expr x = lower_expr(e);
  bound_of_.reset();
  if (x->type != Type::Int32)
    fail(at(e.source),
         "The bounds of the DO loop over '" + loop_var + "' must be INTEGER expressions");
  return x;
}

Stmt RegionLowering::lower_nest(const std::vector<const fp::DoConstruct *> &nest, size_t level) {
  const fp::DoConstruct &d = *nest[level];
  const auto &bounds = loop_bounds(d);
  SourceLoc loc = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source);
  const std::string var = loop_vars_[level]; // a copy: a column pushes its loop variable
  bool innermost = level + 1 == nest.size();
  int64_t step = 1;
  // `do k = hi, lo, -1` (a back substitution) visits lo..hi from the top:
  // the IR's loop runs over lo..hi with its order reversed.
  bool backward = false;
  if (bounds.step) {
    const fp::Expr &step_expr = bounds.step->thing.value();
    Expr s = fold_constants(lower_bound(step_expr, var));
    backward = as<IntImm>(s) && as<IntImm>(s)->value == -1;
    // Another negative step: the loop counting up visits the same points,
    // which is the same loop when they may run in any order.
    std::string fix = as<IntImm>(s) && as<IntImm>(s)->value < 0
                          ? "; swap its bounds and make the step positive if the points may run "
                            "in any order"
                          : constant_fix(step_expr);
    if (!as<IntImm>(s) || (as<IntImm>(s)->value < 1 && !backward))
      fail(at(step_expr.source), "The step of the DO loop over '" + var +
                                     "' must be a positive INTEGER constant or -1 in a " + kRegion +
                                     fix);
    step = backward ? 1 : as<IntImm>(s)->value;
    // The red-black form of the innermost loop, `do i = lo + mod(e, 2), hi, 2`,
    // is the colour test `mod(i - (lo + mod(e, 2)), 2) == 0` on every i from
    // lo to hi: the same points whenever MOD(e, 2) is not negative (for a
    // negative odd e, Fortran's loop would also visit lo - 1).
    if (step == 2) {
      auto colour = lower_colour_start(bounds.lower.thing.value(), var);
      if (!colour)
        colour = lower_colour_scalar(bounds.lower.thing.value(), var);
      if (colour) {
        if (!innermost)
          fail(at(step_expr.source), "The red-black form 'DO " + var +
                                         " = lo + MOD(e, 2), hi, 2' is allowed only on the "
                                         "innermost loop of a " +
                                         kRegion);
        Expr start = colour->start, lo = colour->lo;
        Expr hi = lower_bound(bounds.upper.thing.value(), var);
        Expr i = Var::make(var, Type::Int32, loc);
        Expr even = Binary::make(
            BinaryOp::Eq,
            Call::make(Intrinsic::Mod,
                       {Binary::make(BinaryOp::Sub, i, start, loc), IntImm::make(2, loc)}, loc),
            IntImm::make(0, loc), loc);
        Stmt body =
            IfThenElse::make(even, lower_block(std::get<fp::Block>(d.t), loc, true), nullptr, loc);
        return For::make(var, lo, hi, IntImm::make(1, loc), LoopExec::Serial, body, loc);
      }
    }
  }
  Expr lo = lower_bound(bounds.lower.thing.value(), var);
  Expr hi = lower_bound(bounds.upper.thing.value(), var);
  if (backward)
    std::swap(lo, hi);
  if (step != 1) {
    // `do i = lo, hi, s` runs max((hi - lo + s)/s, 0) times (Fortran's trip
    // count); the counter t = 0 .. (hi - lo + s)/s - 1 runs as often, also
    // when hi < lo, as the division truncates toward zero in C, CUDA and
    // Fortran alike. The source's i is s*t + lo, which stays a subscript
    // with a constant offset only for a constant lo.
    const fp::Expr &lower = bounds.lower.thing.value();
    Expr first = fold_constants(lo);
    if (!as<IntImm>(first))
      fail(at(lower.source), "The DO loop over '" + var + "' has a step of " +
                                 std::to_string(step) + ", so its lower bound '" +
                                 text_of(lower.source) + "' must be an INTEGER constant in a " +
                                 kRegion + constant_fix(lower));
    int64_t start = as<IntImm>(first)->value, shift = step - start;
    Expr span = shift == 0 ? hi
                           : Binary::make(shift > 0 ? BinaryOp::Add : BinaryOp::Sub, hi,
                                          IntImm::make(shift > 0 ? shift : -shift, loc), loc);
    hi =
        Binary::make(BinaryOp::Sub, Binary::make(BinaryOp::Div, span, IntImm::make(step, loc), loc),
                     IntImm::make(1, loc), loc);
    lo = IntImm::make(0, loc);
    strides_[var] = Stride{step, start};
  }
  Stmt body;
  if (!innermost) {
    // Scalar assignments before the inner loop stay there, as written.
    std::vector<Stmt> stmts;
    const fp::DoConstruct *inner = nest[level + 1];
    for (const fp::ExecutionPartConstruct &c : std::get<fp::Block>(d.t)) {
      const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
      const auto *dc = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
      if (dc && &dc->value() == inner)
        break;
      if (is_continue(c))
        continue;
      if (dc) {
        // An inner loop beside the last one: line buffers filled, or read
        // before the last loop reads them too.
        std::vector<const fp::DoConstruct *> beside = nest;
        beside[level + 1] = &dc->value();
        filling_ = true;
        stmts.push_back(lower_nest(beside, level + 1));
        filling_ = false;
        continue;
      }
      Stmt s = lower_statement(c);
      // A scalar set under an IF has no one value to start a red-black
      // loop from.
      if (const Assign *a = as<Assign>(s))
        between_[a->var] = a->value;
      else
        for (const std::string &v : scalars_assigned(s)) {
          between_.erase(v);
          between_under_if_.insert(v);
        }
      stmts.push_back(s);
    }
    body = lower_nest(nest, level + 1);
    if (!stmts.empty()) {
      stmts.push_back(body);
      body = Block::make(std::move(stmts), loc);
    }
  } else {
    in_column_ = !column_dos_.empty();
    body = lower_block(std::get<fp::Block>(d.t), loc, true);
    in_column_ = false;
  }
  return For::reversed(For::make(var, lo, hi, IntImm::make(1, loc), LoopExec::Serial, body, loc),
                       backward);
}

/// A DO loop of a column (Kernel::column): serial inside the point, in the
/// source's direction, its variable a subscript like the nest's.
Stmt RegionLowering::lower_column_loop(const fp::DoConstruct &d) {
  const auto &bounds = loop_bounds(d);
  SourceLoc loc = at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t).source);
  std::string var = text_of(bounds.name.thing.source);
  check_offset_var(var, at(bounds.name.thing.source));
  bool backward = false;
  if (bounds.step) {
    const fp::Expr &step_expr = bounds.step->thing.value();
    Expr st = fold_constants(lower_bound(step_expr, var));
    const IntImm *c = as<IntImm>(st);
    if (!c || (c->value != 1 && c->value != -1))
      fail(at(step_expr.source), "The step of the DO loop over '" + var + "' in a column of a " +
                                     kRegion + " must be 1 or -1" + constant_fix(step_expr));
    backward = c->value == -1;
  }
  Expr lo = lower_bound(bounds.lower.thing.value(), var);
  Expr hi = lower_bound(bounds.upper.thing.value(), var);
  if (backward)
    std::swap(lo, hi);
  loop_vars_.push_back(var);
  Stmt body;
  try {
    body = lower_block(std::get<fp::Block>(d.t), loc, true);
  } catch (...) {
    loop_vars_.pop_back();
    throw;
  }
  loop_vars_.pop_back();
  return For::reversed(For::make(var, lo, hi, IntImm::make(1, loc), LoopExec::Serial, body, loc),
                       backward);
}

/// `lo + mod(e, 2)` (or `mod(e, 2) + lo`) as the start of a stride-2 loop,
/// with lo free of the loops and e an INTEGER expression of the outer loop
/// variables and the region's scalars.
std::optional<RegionLowering::ColourStart>
RegionLowering::lower_colour_start(const fp::Expr &lower, const std::string &loop_var) {
  const auto *add = std::get_if<fp::Expr::Add>(&lower.u);
  if (!add)
    return std::nullopt;
  auto as_mod = [&](const fp::Expr &x) -> const fp::Expr * {
    const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&x.u);
    if (!f)
      return nullptr;
    const fp::Call &call = f->value().v;
    const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
    const auto &args = std::get<std::list<fp::ActualArgSpec>>(call.t);
    if (!name || text_of(name->source) != "mod" || args.size() != 2 || declared("mod"))
      return nullptr;
    const auto *e =
        std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(args.front().t).u);
    const auto *m =
        std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(args.back().t).u);
    if (!e || !m)
      return nullptr;
    Expr modulus = lower_bound(m->value(), loop_var);
    const auto *two = as<IntImm>(modulus);
    return two && two->value == 2 ? &e->value() : nullptr;
  };
  const fp::Expr &left = std::get<0>(add->t).value(), &right = std::get<1>(add->t).value();
  const fp::Expr *e = as_mod(right);
  const fp::Expr *base = &left;
  if (!e) {
    e = as_mod(left);
    base = &right;
  }
  if (!e)
    return std::nullopt;
  Expr lo = lower_bound(*base, loop_var);
  Expr parity = lower_expr(*e);
  struct Check : IRVisitor {
    const std::string &loop_var;
    const std::set<std::string> &assigned;
    bool ok = true;
    Check(const std::string &v, const std::set<std::string> &a) : loop_var(v), assigned(a) {}
    void visit_grid_ref(const GridRef *) override { ok = false; }
    void visit_var(const Var *v) override {
      ok = ok && v->name != loop_var && !assigned.count(v->name);
    }
  } check(loop_var, assigned_);
  check.visit(parity);
  if (!check.ok || parity->type != Type::Int32)
    fail(at(e->source), "'" + text_of(e->source) +
                            "' must be an INTEGER expression of the outer "
                            "loop variables and scalar arguments to choose the colour of the DO "
                            "loop over '" +
                            loop_var + "'");
  return ColourStart{
      Binary::make(BinaryOp::Add, lo,
                   Call::make(Intrinsic::Mod, {parity, IntImm::make(2, lo->loc)}, lo->loc),
                   lo->loc),
      lo};
}

/// A start `base + MOD(e, 2)` or `base - MOD(e, 2)` in IR, with base and e
/// apart; sign is +1 or -1 and base null for none.
struct ModSplit {
  Expr base;
  int sign = 1;
  const Call *mod = nullptr;
};

bool is_mod2(const Expr &e) {
  const auto *c = as<Call>(e);
  const auto *two = c && c->fn == Intrinsic::Mod ? as<IntImm>(c->args[1]) : nullptr;
  return two && two->value == 2;
}

bool has_mod2(const Expr &e) {
  struct Find : IRVisitor {
    bool found = false;
    void visit_call(const Call *c) override {
      found = found || (c->fn == Intrinsic::Mod && c->args.size() == 2 && as<IntImm>(c->args[1]) &&
                        as<IntImm>(c->args[1])->value == 2);
      IRVisitor::visit_call(c);
    }
  } find;
  find.visit(e);
  return find.found;
}

std::optional<ModSplit> split_mod2(const Expr &e) {
  if (is_mod2(e))
    return ModSplit{nullptr, 1, as<Call>(e)};
  if (const auto *u = as<Unary>(e); u && u->op == UnaryOp::Neg) {
    auto s = split_mod2(u->a);
    if (s) {
      s->base = s->base ? Unary::make(UnaryOp::Neg, s->base, e->loc) : nullptr;
      s->sign = -s->sign;
    }
    return s;
  }
  const auto *b = as<Binary>(e);
  if (!b || (b->op != BinaryOp::Add && b->op != BinaryOp::Sub))
    return std::nullopt;
  if (!has_mod2(b->b)) {
    auto s = split_mod2(b->a);
    if (s)
      s->base = s->base                  ? Binary::make(b->op, s->base, b->b, e->loc)
                : b->op == BinaryOp::Add ? b->b
                                         : Unary::make(UnaryOp::Neg, b->b, e->loc);
    return s;
  }
  if (has_mod2(b->a))
    return std::nullopt;
  auto s = split_mod2(b->b);
  if (s) {
    s->base = s->base ? Binary::make(b->op, b->a, s->base, e->loc) : b->a;
    if (b->op == BinaryOp::Sub)
      s->sign = -s->sign;
  }
  return s;
}

/// A red-black start that reads scalars assigned between the loops: `do i =
/// 2 + joff, n - 1, 2` after `joff = mod(j + k, 2)`, and for the other colour
/// `3 - joff` or `2 + (1 - joff)`. With each such scalar read as its value,
/// the start is base + MOD(e, 2), which starts the loop at base, or
/// base - MOD(e, 2), which starts it at base - 1; the colour test then reads
/// the loop variables, as ast/Dependence needs to prove the sweep safe.
std::optional<RegionLowering::ColourStart>
RegionLowering::lower_colour_scalar(const fp::Expr &lower, const std::string &loop_var) {
  colour_scalars_ = true;
  read_between_ = false;
  Expr start;
  try {
    start = lower_bound(lower, loop_var);
  } catch (...) {
    colour_scalars_ = false;
    throw;
  }
  colour_scalars_ = false;
  if (!read_between_ || !has_mod2(start))
    return std::nullopt;
  auto split = split_mod2(start);
  // base may read neither loop variables nor what the region assigns; e no
  // inner loop variable.
  auto free_of = [&](const Expr &x, bool outer_loops) {
    struct Check : IRVisitor {
      std::function<bool(const std::string &)> bad;
      bool ok = true;
      void visit_grid_ref(const GridRef *) override { ok = false; }
      void visit_var(const Var *v) override { ok = ok && !bad(v->name); }
    } check;
    check.bad = [&](const std::string &n) {
      return n == loop_var || assigned_.count(n) > 0 || (!outer_loops && is_loop_var(n));
    };
    if (x)
      check.visit(x);
    return check.ok;
  };
  if (!split || !free_of(split->base, false) || !free_of(split->mod->args[0], true) ||
      split->mod->args[0]->type != Type::Int32)
    fail(at(lower.source), "The start '" + text_of(lower.source) + "' of the DO loop over '" +
                               loop_var +
                               "' must be lo + MOD(e, 2) or lo - MOD(e, 2) to choose a colour, "
                               "with lo free of the loops and e an INTEGER expression of the outer "
                               "loop variables and scalar arguments");
  Expr base = split->base ? split->base : IntImm::make(0, start->loc);
  Expr lo = split->sign > 0
                ? base
                : Binary::make(BinaryOp::Sub, base, IntImm::make(1, start->loc), start->loc);
  return ColourStart{start, fold_constants(lo)};
}

// ---------------------------------------------------------------- statements

/// `IF (c) CYCLE` and `IF (c) GO TO l`: the one-line IF of a forward jump,
/// as legacy codes skip land or boundary points. Null for any other statement.
const fp::IfStmt *jump_if(const fp::ExecutionPartConstruct &c) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
  const auto *i = action ? std::get_if<fc::Indirection<fp::IfStmt>>(&action->statement.u) : nullptr;
  if (!i)
    return nullptr;
  const auto &u = std::get<fp::UnlabeledStatement<fp::ActionStmt>>(i->value().t).statement.u;
  const auto *cycle = std::get_if<fc::Indirection<fp::CycleStmt>>(&u);
  if ((cycle && !cycle->value().v) || std::holds_alternative<fc::Indirection<fp::GotoStmt>>(u))
    return &i->value();
  return nullptr;
}

/// The statement of `first .. last` labelled `label`, or `last`.
fp::Block::const_iterator find_label(fp::Block::const_iterator first,
                                     fp::Block::const_iterator last, fp::Label label) {
  for (; first != last; ++first) {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&first->u);
    const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
    if (action && action->label == label)
      return first;
  }
  return last;
}

Stmt RegionLowering::lower_block(const fp::Block &b, const SourceLoc &loc, bool loop_body) {
  if (!loop_body)
    return lower_range(b.begin(), b.end(), loc, false);
  // A temporary the body assigns holds, where the body starts, what the
  // previous trip (or the code before the loop) left, and after the loop
  // what the last trip left: its value as a subscript is known only after
  // its assignment in the body.
  AssignedScalars inside;
  fp::Walk(b, inside);
  for (const std::string &n : inside.names) {
    integer_defs_.erase(n);
    integer_unknown_[n] = "'" + n +
                          "' is read before its assignment in the loop body, where it holds "
                          "what the previous point left; assign it before this statement";
  }
  Stmt s = lower_range(b.begin(), b.end(), loc, true);
  for (const std::string &n : inside.names) {
    integer_defs_.erase(n);
    integer_unknown_[n] = "'" + n + "' holds what the last trip of the DO loop at line " +
                          std::to_string(loc.line) + " left; assign it again before this statement";
  }
  return s;
}

/// The statements `first .. last` of a block; `loop_body` when they end the
/// body of a DO loop, so that CYCLE skips them. A forward jump skips the
/// statements up to its target: they run under the negated condition, which
/// is what the jump means (`IF (kmt(i,j) < k) GO TO 100` ... `100 CONTINUE`).
Stmt RegionLowering::lower_range(fp::Block::const_iterator first, fp::Block::const_iterator last,
                                 const SourceLoc &loc, bool loop_body) {
  std::vector<Stmt> stmts;
  for (auto it = first; it != last; ++it) {
    const fp::ExecutionPartConstruct &c = *it;
    if (is_continue(c))
      continue;
    if (const fp::IfStmt *jump = jump_if(c)) {
      const auto &action = std::get<fp::UnlabeledStatement<fp::ActionStmt>>(jump->t);
      const auto *go_to = std::get_if<fc::Indirection<fp::GotoStmt>>(&action.statement.u);
      auto target = last;
      if (go_to) {
        target = find_label(std::next(it), last, go_to->value().v);
        if (target == last)
          fail(at(action.source),
               "GO TO " + std::to_string(go_to->value().v) + " inside a " + kRegion +
                   " must jump forward to a statement of the same block, such as the "
                   "CONTINUE that ends the DO loop; put the statements it skips in an IF "
                   "construct instead");
      } else if (!loop_body) {
        fail(at(action.source), std::string("CYCLE inside an IF construct of a ") + kRegion +
                                    " skips the rest of the loop body; write it as IF (...) "
                                    "CYCLE directly in the body of the DO loop");
      }
      SourceLoc if_loc = at_node(c);
      Expr cond = lower_condition(std::get<fp::ScalarLogicalExpr>(jump->t));
      ++in_if_;
      Stmt rest = lower_range(std::next(it), target, if_loc, loop_body && !go_to);
      --in_if_;
      stmts.push_back(
          IfThenElse::make(Unary::make(UnaryOp::Not, cond, if_loc), rest, nullptr, if_loc));
      if (target == last)
        break;
      it = std::prev(target);
      continue;
    }
    // A statement refused halfway through a named constant's value or an
    // array's bounds must not leave the next one lowered as a bound.
    auto bound_of = bound_of_;
    bool in_dims = in_dims_;
    if (!problems_.attempt([&] {
          // An unrolled loop's copies (frontend/OffsetLoops) join the statements around it.
          Stmt s = lower_statement(c);
          if (const Block *copies = as<Block>(s))
            stmts.insert(stmts.end(), copies->stmts.begin(), copies->stmts.end());
          else
            stmts.push_back(s);
        })) {
      bound_of_ = bound_of;
      in_dims_ = in_dims;
    }
  }
  return Block::make(std::move(stmts), loc);
}

Stmt RegionLowering::lower_statement(const fp::ExecutionPartConstruct &c) {
  SourceLoc loc = at_node(c);
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  if (!exec)
    fail(loc, std::string("This statement is not allowed inside a ") + kRegion);
  if (const auto *i = std::get_if<fc::Indirection<fp::IfConstruct>>(&exec->u))
    return lower_if_construct(i->value());
  if (const auto *d = std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u))
    return column_dos_.count(&d->value()) ? lower_column_loop(d->value())
                                          : unroll_offset_loop(d->value(), *this);
  const auto *action = std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u);
  if (!action)
    reject(*exec, loc);
  return lower_action(action->statement, at(action->source), exec);
}

/// An assignment, or a one-line IF around one. `construct` is the statement
/// to name in an error; null for the action of an IF statement.
Stmt RegionLowering::lower_action(const fp::ActionStmt &a, const SourceLoc &loc,
                                  const fp::ExecutableConstruct *construct) {
  if (const auto *as = std::get_if<fc::Indirection<fp::AssignmentStmt>>(&a.u))
    return lower_assignment(as->value(), loc);
  if (const auto *i = std::get_if<fc::Indirection<fp::IfStmt>>(&a.u)) {
    const fp::IfStmt &stmt = i->value();
    Expr cond = lower_condition(std::get<fp::ScalarLogicalExpr>(stmt.t));
    const auto &action = std::get<fp::UnlabeledStatement<fp::ActionStmt>>(stmt.t);
    ++in_if_;
    Stmt then_case = lower_action(action.statement, at(action.source), nullptr);
    --in_if_;
    return IfThenElse::make(cond, then_case, nullptr, loc);
  }
  if (construct)
    reject(*construct, loc);
  fail(loc, std::string("Only an assignment may follow IF (...) inside a ") + kRegion);
}

/// IF ... ELSE IF ... ELSE ... END IF: each ELSE IF is an IF in the else case
/// of the one before.
Stmt RegionLowering::lower_if_construct(const fp::IfConstruct &c) {
  const auto &if_then = std::get<fp::Statement<fp::IfThenStmt>>(c.t);
  SourceLoc loc = at(if_then.source);
  Expr cond = lower_condition(std::get<fp::ScalarLogicalExpr>(if_then.statement.t));
  struct InIf {
    int &depth;
    explicit InIf(int &d) : depth(++d) {}
    ~InIf() { --depth; }
  } in_if(in_if_);
  Stmt then_case = lower_block(std::get<fp::Block>(c.t), loc);
  struct Arm {
    Expr cond;
    Stmt body;
    SourceLoc loc;
  };
  std::vector<Arm> arms;
  for (const fp::IfConstruct::ElseIfBlock &e :
       std::get<std::list<fp::IfConstruct::ElseIfBlock>>(c.t)) {
    const auto &stmt = std::get<fp::Statement<fp::ElseIfStmt>>(e.t);
    SourceLoc arm_loc = at(stmt.source);
    Expr arm_cond = lower_condition(std::get<fp::ScalarLogicalExpr>(stmt.statement.t));
    arms.push_back({arm_cond, lower_block(std::get<fp::Block>(e.t), arm_loc), arm_loc});
  }
  Stmt else_case;
  if (const auto &e = std::get<std::optional<fp::IfConstruct::ElseBlock>>(c.t))
    else_case = lower_block(std::get<fp::Block>(e->t),
                            at(std::get<fp::Statement<fp::ElseStmt>>(e->t).source));
  for (auto arm = arms.rbegin(); arm != arms.rend(); ++arm)
    else_case = IfThenElse::make(arm->cond, arm->body, else_case, arm->loc);
  return IfThenElse::make(cond, then_case, else_case, loc);
}

Expr RegionLowering::lower_condition(const fp::ScalarLogicalExpr &e) {
  const fp::Expr &x = e.thing.thing.value();
  Expr cond = lower_expr(x);
  if (cond->type != Type::Bool)
    fail(at(x.source), "The condition '" + text_of(x.source) + "' must be LOGICAL");
  return cond;
}

void RegionLowering::reject(const fp::ExecutableConstruct &c, const SourceLoc &loc) const {
  // The statements with a rewrite the region accepts.
  std::string fix;
  if (const auto *action = std::get_if<fp::Statement<fp::ActionStmt>>(&c.u)) {
    const auto &stmt = action->statement.u;
    if (std::holds_alternative<fc::Indirection<fp::CallStmt>>(stmt))
      fix = "; write the subroutine's computation inline";
    else if (std::holds_alternative<fc::Indirection<fp::CycleStmt>>(stmt))
      fix = "; put the rest of the loop body in an IF construct instead";
    else if (std::holds_alternative<fc::Indirection<fp::GotoStmt>>(stmt))
      fix = "; skip statements with IF (...) GO TO directly in the body of the DO loop, "
            "jumping forward to a label of that body, or with an IF construct";
  } else if (std::holds_alternative<fc::Indirection<fp::CaseConstruct>>(c.u)) {
    fix = "; use an IF construct instead";
  }
  std::string what = std::visit(
      [](const auto &x) -> std::string {
        using T = std::decay_t<decltype(x)>;
        using fc::Indirection;
        if constexpr (std::is_same_v<T, fp::Statement<fp::ActionStmt>>) {
          return std::visit(
              [](const auto &s) -> std::string {
                using S = std::decay_t<decltype(s)>;
                if constexpr (std::is_same_v<S, Indirection<fp::CallStmt>>)
                  return "A CALL statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::IfStmt>>)
                  return "An IF statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::CycleStmt>>)
                  return "A CYCLE statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::ExitStmt>>)
                  return "An EXIT statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::GotoStmt>>)
                  return "A GO TO statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::PrintStmt>>)
                  return "A PRINT statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::WriteStmt>>)
                  return "A WRITE statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::ReadStmt>>)
                  return "A READ statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::ReturnStmt>>)
                  return "A RETURN statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::StopStmt>>)
                  return "A STOP statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::PointerAssignmentStmt>>)
                  return "A pointer assignment";
                else if constexpr (std::is_same_v<S, Indirection<fp::WhereStmt>>)
                  return "A WHERE statement";
                else if constexpr (std::is_same_v<S, Indirection<fp::ForallStmt>>)
                  return "A FORALL statement";
                else
                  return "This statement";
              },
              x.statement.u);
        } else if constexpr (std::is_same_v<T, Indirection<fp::IfConstruct>>) {
          return "An IF construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::CaseConstruct>>) {
          return "A SELECT CASE construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::DoConstruct>>) {
          return "A DO construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::WhereConstruct>>) {
          return "A WHERE construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::ForallConstruct>>) {
          return "A FORALL construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::BlockConstruct>>) {
          return "A BLOCK construct";
        } else if constexpr (std::is_same_v<T, Indirection<fp::AssociateConstruct>>) {
          return "An ASSOCIATE construct";
        } else if constexpr (std::is_same_v<T, fp::Statement<Indirection<fp::LabelDoStmt>>>) {
          return "A label DO loop";
        } else if constexpr (std::is_same_v<T, Indirection<fp::CompilerDirective>>) {
          return "A compiler directive";
        } else if constexpr (std::is_same_v<T, Indirection<fp::OpenMPConstruct>>) {
          return "An OpenMP directive";
        } else if constexpr (std::is_same_v<T, Indirection<fp::OpenACCConstruct>>) {
          return "An OpenACC directive";
        } else {
          return "This construct";
        }
      },
      c.u);
  fail(loc, what + " is not allowed inside a " + kRegion + fix);
}

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
  // Each loop variable in one subscript, scaled by a nonzero factor, and
  // constants in the other subscripts (`coef(i,j,k,3)`): then distinct points
  // write distinct elements (whether two stores, or a store and a read, meet
  // across points is ast/Dependence's question). A loop variable missing
  // from the subscripts makes every point along its loop write one element.
  // A local 1D array filled in a loop beside the last inner loop is a line
  // buffer (canonicalize/ForwardLineBuffers checks the rest).
  if (filling_ && is_local_1d(*decl)) {
    buffer_stores_.insert(grid);
    return Store::make(grid, index, numeric(rhs), loc);
  }
  if (filling_ && index.size() == 1 && index.front().var == loop_vars_.back())
    fail(name_loc, "'" + grid +
                       "' is filled like a line buffer, beside the inner DO loop that reads it, "
                       "but its values are seen outside the procedure (a dummy argument, or in "
                       "COMMON or a module); only a local array can be a line buffer, so fill "
                       "a local array instead");
  // A column's work array is the column's own (ast/Dependence checks how
  // the column fills and reads it).
  if (in_column_ && std::find(column_work_.begin(), column_work_.end(), grid) != column_work_.end())
    return Store::make(grid, index, numeric(rhs), loc);
  std::set<std::string> seen;
  for (size_t d = 0; d < index.size(); ++d)
    if (!index[d].var.empty() && !seen.insert(index[d].var).second)
      fail(name_loc, "Assignment to '" + text_of(lhs_text) + "' uses loop variable '" +
                         index[d].var +
                         "' in two subscripts, so points of the nest could write "
                         "one element; subscript each dimension by its own loop "
                         "variable or a constant");
  for (size_t n = loop_vars_.size(); n-- > 0;)
    if (!seen.count(loop_vars_[n]) && !(in_column_ && loop_vars_[n] == column_var_))
      fail(name_loc, "Assignment to '" + text_of(lhs_text) +
                         "' has no subscript in loop variable '" + loop_vars_[n] +
                         "', so every point of the DO loop over '" + loop_vars_[n] +
                         "' writes the same element; subscript '" + grid + "' with '" +
                         loop_vars_[n] + "' too");
  Expr value = numeric(rhs);
  return Store::make(grid, index, value, loc);
}

// --------------------------------------------------------------- expressions

Expr RegionLowering::lower_expr(const fp::Expr &e) {
  SourceLoc loc = at(e.source);
  return std::visit(
      [&](const auto &x) -> Expr {
        using T = std::decay_t<decltype(x)>;
        using fc::Indirection;
        if constexpr (std::is_same_v<T, fp::LiteralConstant>) {
          return lower_literal(x, loc);
        } else if constexpr (std::is_same_v<T, Indirection<fp::Designator>>) {
          return lower_designator(x.value(), e.source);
        } else if constexpr (std::is_same_v<T, Indirection<fp::FunctionReference>>) {
          return lower_function_reference(x.value());
        } else if constexpr (std::is_same_v<T, fp::Expr::Parentheses> ||
                             std::is_same_v<T, fp::Expr::UnaryPlus>) {
          return lower_expr(x.v.value());
        } else if constexpr (std::is_same_v<T, fp::Expr::Negate>) {
          return Unary::make(UnaryOp::Neg, numeric(x.v.value()), loc);
        } else if constexpr (std::is_same_v<T, fp::Expr::NOT>) {
          return Unary::make(UnaryOp::Not, logical(x.v.value()), loc);
        } else if constexpr (std::is_same_v<T, fp::Expr::LT> || std::is_same_v<T, fp::Expr::LE> ||
                             std::is_same_v<T, fp::Expr::GT> || std::is_same_v<T, fp::Expr::GE> ||
                             std::is_same_v<T, fp::Expr::EQ> || std::is_same_v<T, fp::Expr::NE>) {
          BinaryOp op = std::is_same_v<T, fp::Expr::LT>   ? BinaryOp::Lt
                        : std::is_same_v<T, fp::Expr::LE> ? BinaryOp::Le
                        : std::is_same_v<T, fp::Expr::GT> ? BinaryOp::Gt
                        : std::is_same_v<T, fp::Expr::GE> ? BinaryOp::Ge
                        : std::is_same_v<T, fp::Expr::EQ> ? BinaryOp::Eq
                                                          : BinaryOp::Ne;
          Expr a = numeric(std::get<0>(x.t).value());
          Expr b = numeric(std::get<1>(x.t).value());
          return Binary::make(op, a, b, loc);
        } else if constexpr (std::is_same_v<T, fp::Expr::AND> || std::is_same_v<T, fp::Expr::OR> ||
                             std::is_same_v<T, fp::Expr::EQV> ||
                             std::is_same_v<T, fp::Expr::NEQV>) {
          // `.eqv.` and `.neqv.` are Eq and Ne on two Bools.
          BinaryOp op = std::is_same_v<T, fp::Expr::AND>   ? BinaryOp::And
                        : std::is_same_v<T, fp::Expr::OR>  ? BinaryOp::Or
                        : std::is_same_v<T, fp::Expr::EQV> ? BinaryOp::Eq
                                                           : BinaryOp::Ne;
          Expr a = logical(std::get<0>(x.t).value());
          Expr b = logical(std::get<1>(x.t).value());
          return Binary::make(op, a, b, loc);
        } else if constexpr (std::is_same_v<T, fp::Expr::Add> ||
                             std::is_same_v<T, fp::Expr::Subtract> ||
                             std::is_same_v<T, fp::Expr::Multiply> ||
                             std::is_same_v<T, fp::Expr::Divide> ||
                             std::is_same_v<T, fp::Expr::Power>) {
          BinaryOp op = std::is_same_v<T, fp::Expr::Add>        ? BinaryOp::Add
                        : std::is_same_v<T, fp::Expr::Subtract> ? BinaryOp::Sub
                        : std::is_same_v<T, fp::Expr::Multiply> ? BinaryOp::Mul
                        : std::is_same_v<T, fp::Expr::Divide>   ? BinaryOp::Div
                                                                : BinaryOp::Pow;
          const fp::Expr &left = std::get<0>(x.t).value();
          const fp::Expr &right = std::get<1>(x.t).value();
          Expr a = numeric(left);
          Expr b = numeric(right);
          return Binary::make(op, a, b, a->loc);
        } else {
          fail(loc, "Expression '" + text_of(e.source) + "' is not allowed inside a " + kRegion);
        }
      },
      e.u);
}

Expr RegionLowering::numeric(const fp::Expr &e) {
  Expr x = lower_expr(e);
  if (x->type == Type::Bool)
    fail(at(e.source), "'" + text_of(e.source) + "' is LOGICAL where a number is needed");
  return x;
}

Expr RegionLowering::logical(const fp::Expr &e) {
  Expr x = lower_expr(e);
  if (x->type != Type::Bool)
    fail(at(e.source), "'" + text_of(e.source) + "' is not LOGICAL");
  return x;
}

Expr RegionLowering::lower_literal(const fp::LiteralConstant &c, const SourceLoc &loc) const {
  auto kind_of = [&](const std::optional<fp::KindParam> &k) -> std::optional<int64_t> {
    if (!k)
      return std::nullopt;
    if (const auto *n = std::get_if<std::uint64_t>(&k->u))
      return static_cast<int64_t>(*n);
    // A named kind such as `1.0_dp`.
    const fp::Name &name =
        std::get<fp::Scalar<fp::Integer<fp::Constant<fp::Name>>>>(k->u).thing.thing.thing;
    const Decl *d = lookup(text_of(name.source));
    if (d && d->int_value)
      return *d->int_value;
    if (d && d->parameter)
      if (auto v = int_constant(*d->parameter, scopes_))
        return *v;
    fail(at(name.source), "Kind '" + text_of(name.source) + "' is not a known INTEGER constant");
  };
  if (const auto *i = std::get_if<fp::IntLiteralConstant>(&c.u)) {
    auto kind = kind_of(std::get<std::optional<fp::KindParam>>(i->t));
    if (kind && *kind != 4)
      fail(loc, "INTEGER(" + std::to_string(*kind) + ") constants are not supported inside a " +
                    kRegion);
    std::string digits = std::get<fp::CharBlock>(i->t).ToString();
    errno = 0;
    long long v = std::strtoll(digits.c_str(), nullptr, 10);
    if (errno == ERANGE || v > INT32_MAX)
      fail(loc, "Integer constant '" + digits + "' is too large for INTEGER(4)");
    return IntImm::make(v, loc);
  }
  if (const auto *r = std::get_if<fp::RealLiteralConstant>(&c.u)) {
    std::string text = to_lower(r->real.source.ToString());
    // Without a kind, `0.5` is default REAL and `0.5d0` DOUBLE PRECISION,
    // whose kinds the compiler's options may change.
    int64_t kind = scopes_.back().implicit.real_kind;
    for (char &ch : text) {
      if (ch == 'd') {
        ch = 'e';
        kind = scopes_.back().implicit.double_kind;
      } else if (ch == 'q') {
        kind = 16;
      }
    }
    if (auto explicit_kind = kind_of(r->kind))
      kind = *explicit_kind;
    if (!real_type(kind))
      fail(loc,
           "REAL(" + std::to_string(kind) + ") constants are not supported inside a " + kRegion);
    Type type = *real_type(kind);
    double value = type == Type::Float64 ? std::strtod(text.c_str(), nullptr)
                                         : static_cast<double>(std::strtof(text.c_str(), nullptr));
    return FloatImm::make(value, type, loc);
  }
  if (const auto *b = std::get_if<fp::LogicalLiteralConstant>(&c.u)) {
    if (auto kind = kind_of(std::get<std::optional<fp::KindParam>>(b->t)); kind && *kind != 4)
      fail(loc, "LOGICAL(" + std::to_string(*kind) + ") constants are not supported inside a " +
                    kRegion);
    return IntImm::make_bool(std::get<bool>(b->t), loc);
  }
  fail(loc,
       std::string("Only INTEGER, REAL and LOGICAL constants are allowed inside a ") + kRegion);
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
  if (is_loop_var(name)) {
    // An inner loop's bounds may use the outer loops' variables (a triangle,
    // a wedge): frontend/BoundingBox makes the nest rectangular.
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
  if (auto b = between_.find(name); colour_scalars_ && b != between_.end()) {
    read_between_ = true;
    return b->second;
  }
  if (assigned_.count(name)) {
    if (bound_of_ && !in_dims_ && in_column_ && *bound_of_ == column_var_)
      fail(loc, column_bound_refusal("'" + name + "', assigned in the " + kRegion + ","));
    if (bound_of_ || in_dims_)
      fail(loc, "'" + name + "' is assigned inside the " + kRegion +
                    ", so it cannot be used in the bounds of its loops or arrays" +
                    (bound_of_ && between_under_if_.count(name)
                         ? "; assign it once between the loops, outside any IF (a red-black "
                           "colour as 'MOD(e, 2)' of the outer loop variables and scalars, "
                           "e.g. 'MOD(j + ipass - 1, 2)' for a colour flipped when 'ipass' is 2)"
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

/// A reference to statement function `f`: its expression, each dummy
/// argument reading as the actual argument's value (lowered where the
/// reference is), converted to the function's type as Fortran converts it.
Expr RegionLowering::inline_stmt_function(const Decl &f, const std::vector<const fp::Expr *> &args,
                                          const SourceLoc &loc) {
  const auto &dummies = std::get<std::list<fp::Name>>(f.stmt_function->t);
  const auto &body = std::get<fp::Scalar<fp::Expr>>(f.stmt_function->t);
  if (args.size() != dummies.size())
    fail(loc, "Statement function '" + f.name + "' has " + std::to_string(dummies.size()) +
                  " arguments but is referenced with " + std::to_string(args.size()));
  std::map<std::string, Expr> bound;
  size_t n = 0;
  for (const fp::Name &dummy : dummies) {
    const fp::Expr &actual = *args[n++];
    std::string name = text_of(dummy.source);
    const Decl *d = lookup(name, at(dummy.source));
    if (!d)
      fail(at(dummy.source), not_declared(name));
    Type type = usable_type(*d, at(dummy.source));
    Expr value = type == Type::Bool ? logical(actual) : numeric(actual);
    if (value->type != type)
      fail(at(actual.source), "Argument '" + text_of(actual.source) + "' of statement function '" +
                                  f.name + "' has another type than its dummy argument '" + name +
                                  "'; convert it, as Fortran requires the types to agree");
    bound[name] = value;
  }
  // The function's expression sees its dummies and the procedure's
  // variables, not the dummies of a statement function that references it.
  std::swap(stmt_function_args_, bound);
  Expr value;
  Type type = usable_type(f, loc);
  try {
    const fp::Expr &e = body.thing;
    value = type == Type::Bool ? logical(e) : numeric(e);
  } catch (...) {
    std::swap(stmt_function_args_, bound);
    throw;
  }
  std::swap(stmt_function_args_, bound);
  if (value->type != type)
    fail(loc, "Statement function '" + f.name +
                  "' has another type than its expression; convert the expression to "
                  "its type in the statement function");
  return value;
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

Expr RegionLowering::lower_designator(const fp::Designator &d, fp::CharBlock source) {
  if (const auto *ref = std::get_if<fp::DataRef>(&d.u)) {
    if (const auto *name = std::get_if<fp::Name>(&ref->u))
      return lower_name(*name);
    if (const auto *element = std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u)) {
      const fp::ArrayElement &e = element->value();
      std::vector<const fp::Expr *> subs;
      bool section = false;
      for (const fp::SectionSubscript &s : e.subscripts) {
        if (const auto *i = std::get_if<fp::IntExpr>(&s.u))
          subs.push_back(&i->thing.value());
        else
          section = true;
      }
      const auto *name = std::get_if<fp::Name>(&e.base.u);
      if (std::string c = component_refusal(*ref, text_of(source)); !c.empty())
        fail(at(source), c);
      if (section || !name)
        fail(at(source), std::string("An array section is not allowed inside a ") + kRegion);
      const Decl *decl = lookup(text_of(name->source), at(name->source));
      if (!decl)
        fail(at(name->source), not_declared(text_of(name->source)));
      return lower_grid_ref(*decl, *name, subs);
    }
  }
  if (const auto *ref = std::get_if<fp::DataRef>(&d.u))
    if (std::string c = component_refusal(*ref, text_of(source)); !c.empty())
      fail(at(source), c);
  fail(at(source), "'" + text_of(source) + "' is not allowed inside a " + kRegion);
}

Expr RegionLowering::lower_function_reference(const fp::FunctionReference &f) {
  const fp::Call &call = f.v;
  const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
  if (std::string c = component_refusal(call, text_of(f.source)); !c.empty())
    fail(at(f.source), c);
  if (!name)
    fail(at(f.source), "'" + text_of(f.source) + "' is not allowed inside a " + kRegion);
  std::string fn = text_of(name->source);
  SourceLoc loc = at(name->source);
  if ((fn == "lbound" || fn == "ubound" || fn == "size") && !declared(fn))
    return lower_bound_inquiry(fn, call, loc);
  std::vector<const fp::Expr *> args;
  // The KIND= of a conversion (`real(x, kind=dp)`), the one keyword taken.
  const fp::Expr *kind_keyword = nullptr;
  for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(call.t)) {
    const auto *e = std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(arg.t).u);
    const auto &keyword = std::get<std::optional<fp::Keyword>>(arg.t);
    if (e && keyword && text_of(keyword->v.source) == "kind" && !declared(fn) && !kind_keyword) {
      kind_keyword = &e->value();
      continue;
    }
    if (!e || keyword || kind_keyword)
      fail(at(f.source), "Keyword and alternate arguments are not allowed inside a " +
                             std::string(kRegion) + "; pass the arguments by position");
    args.push_back(&e->value());
  }
  if (const Decl *decl = declared(fn) ? lookup(fn) : nullptr) {
    if (decl->stmt_function)
      return inline_stmt_function(*decl, args, loc);
    if (!decl->shape)
      fail(loc, "'" + fn + "' is not an array");
    return lower_grid_ref(*decl, *name, args);
  }
  if (is_loop_var(fn))
    fail(loc, "'" + fn + "' is not an array");
  if (fn == "merge") {
    if (args.size() != 3)
      fail(loc, "Intrinsic 'merge' needs exactly three arguments");
    Expr a = numeric(*args[0]), b = numeric(*args[1]);
    return Select::make(logical(*args[2]), a, b, loc);
  }
  return lower_intrinsic(fn, args, kind_keyword, loc);
}

namespace {

/// The specific names of FORTRAN 77 (and the common extensions) that are
/// their generic intrinsic applied to the types they require; gfortran
/// checks those types, so the generic's rules give the same result.
const std::map<std::string, std::string> &specific_intrinsics() {
  static const std::map<std::string, std::string> table = {
      {"dsqrt", "sqrt"}, {"dabs", "abs"},    {"iabs", "abs"},     {"dexp", "exp"},
      {"alog", "log"},   {"dlog", "log"},    {"alog10", "log10"}, {"dlog10", "log10"},
      {"dsin", "sin"},   {"dcos", "cos"},    {"dtan", "tan"},     {"dasin", "asin"},
      {"dacos", "acos"}, {"datan", "atan"},  {"datan2", "atan2"}, {"dsinh", "sinh"},
      {"dcosh", "cosh"}, {"dtanh", "tanh"},  {"dsign", "sign"},   {"isign", "sign"},
      {"dmod", "mod"},   {"amod", "mod"},    {"dmax1", "max"},    {"dmin1", "min"},
      {"amax1", "max"},  {"amin1", "min"},   {"max0", "max"},     {"min0", "min"},
      {"dint", "aint"},  {"dnint", "anint"}, {"idint", "int"},    {"ifix", "int"},
      {"idnint", "nint"}};
  return table;
}

} // namespace

Expr RegionLowering::lower_intrinsic(const std::string &fn,
                                     const std::vector<const fp::Expr *> &args,
                                     const fp::Expr *kind_keyword, const SourceLoc &loc) {
  auto specific = specific_intrinsics().find(fn);
  std::string generic = specific != specific_intrinsics().end() ? specific->second : fn;
  // The conversions that name their kind: DBLE and DFLOAT make DOUBLE
  // PRECISION, FLOAT and SNGL default REAL and REAL(4), under the kinds the
  // compiler's options give them.
  std::optional<Type> fixed;
  if (fn == "dble" || fn == "dfloat")
    fixed = real_type(scopes_.back().implicit.double_kind);
  else if (fn == "float")
    fixed = real_type(scopes_.back().implicit.real_kind);
  else if (fn == "sngl")
    fixed = Type::Float32;
  if (fn == "dble" || fn == "dfloat" || fn == "float" || fn == "sngl") {
    if (!fixed)
      fail(loc,
           "Intrinsic '" + fn + "' makes a REAL kind that is not supported inside a " + kRegion);
    generic = "real";
  }
  if (generic == "atan" && args.size() == 2)
    generic = "atan2"; // ATAN(Y, X), Fortran 2008
  auto intrinsic = intrinsic_by_name(generic);
  if (!intrinsic)
    fail(loc, "'" + fn +
                  "' is an unknown function, so what it reads and writes cannot be known; "
                  "inside a " +
                  kRegion +
                  " only the elementary intrinsics (SQRT, EXP, LOG, LOG10, SIN, COS, TAN, "
                  "ASIN, ACOS, ATAN, ATAN2, SINH, COSH, TANH), ABS, SIGN, MIN, MAX, MOD, "
                  "MERGE, the conversions (REAL, DBLE, FLOAT, INT, NINT, FLOOR, CEILING, AINT, "
                  "ANINT) and their specific names (DSQRT, AMAX1, ...) are allowed; declare '" +
                  fn + "' if it is an array, or write the function's computation inline");
  Intrinsic f = *intrinsic;
  bool min_max = f == Intrinsic::Min || f == Intrinsic::Max;
  bool two = f == Intrinsic::Mod || f == Intrinsic::Sign || f == Intrinsic::Atan2;
  // REAL, INT, NINT, FLOOR and CEILING take a kind as their second argument.
  bool takes_kind = is_conversion(f) && !fixed;
  const fp::Expr *kind = kind_keyword;
  if (kind && !takes_kind)
    fail(loc, "Intrinsic '" + fn + "' takes no KIND argument");
  if (takes_kind && !kind && args.size() == 2)
    kind = args[1];
  size_t given = args.size() - (takes_kind && args.size() == 2 && !kind_keyword ? 1 : 0);
  if (min_max && given < 2)
    fail(loc, "Intrinsic '" + fn + "' needs at least two arguments");
  if (two && given != 2)
    fail(loc, "Intrinsic '" + fn + "' needs exactly two arguments");
  if (!min_max && !two && given != 1)
    fail(loc, "Intrinsic '" + fn + "' needs exactly one argument" +
                  (takes_kind ? std::string(" and may take a kind") : std::string()));
  std::vector<Expr> lowered;
  for (size_t i = 0; i < given; ++i)
    lowered.push_back(numeric(*args[i]));
  if (!is_conversion(f)) {
    if ((f == Intrinsic::Aint || f == Intrinsic::Anint) && !is_float(lowered[0]->type))
      fail(loc, "Intrinsic '" + fn + "' needs a REAL argument");
    return Call::make(f, std::move(lowered), loc);
  }
  // The kind of the result: the argument's own, the default, or the one given.
  std::optional<int64_t> k;
  if (kind) {
    k = int_constant(*kind, scopes_);
    if (!k)
      fail(at(kind->source),
           "The kind '" + text_of(kind->source) + "' of '" + fn + "' must be an INTEGER constant");
  }
  Type type = Type::Int32;
  if (f == Intrinsic::Real) {
    if (fixed)
      type = *fixed;
    else if (k)
      type = real_type(*k).value_or(Type::Bool);
    else
      type = *real_type(scopes_.back().implicit.real_kind);
    if (type == Type::Bool)
      fail(at(kind->source), "REAL(" + std::to_string(*k) + ") is not supported inside a " +
                                 kRegion + "; only kinds 4 and 8 are");
  } else {
    if (k && *k != 4)
      fail(at(kind->source), "INTEGER(" + std::to_string(*k) + ") is not supported inside a " +
                                 kRegion + "; only kind 4 is");
    if (f != Intrinsic::Int && !is_float(lowered[0]->type))
      fail(loc, "Intrinsic '" + fn + "' needs a REAL argument");
  }
  if (lowered[0]->type == type && f != Intrinsic::Nint && f != Intrinsic::Floor &&
      f != Intrinsic::Ceiling)
    return lowered[0]; // REAL(x) of a REAL of that kind, INT(i) of an INTEGER
  return Call::convert(f, lowered[0], type, loc);
}

Expr RegionLowering::lower_grid_ref(const Decl &decl, const fp::Name &name,
                                    const std::vector<const fp::Expr *> &subs) {
  SourceLoc loc = at(name.source);
  if (bound_of_ && !in_dims_ && in_column_ && *bound_of_ == column_var_)
    fail(loc, column_bound_refusal("Array element of '" + decl.name + "'"));
  if (bound_of_ || in_dims_)
    fail(loc, "Array element of '" + decl.name +
                  "' cannot be used in the bounds of a loop or "
                  "an array of a " +
                  kRegion +
                  (bound_of_ && !bound_of_->empty() && !in_dims_
                       ? "; assign it to a scalar before the region and use the scalar"
                       : ""));
  Type type = usable_type(decl, loc);
  size_t rank = array_rank(decl, loc);
  if (subs.size() != rank)
    fail(loc, "Array '" + decl.name + "' has rank " + std::to_string(rank) + " but " +
                  std::to_string(subs.size()) + " subscripts");
  std::vector<Index> index = lower_subscripts(decl.name, subs);
  use_free(decl, loc);
  return GridRef::make(decl.name, std::move(index), type, loc);
}

std::vector<Index> RegionLowering::lower_subscripts(const std::string &grid,
                                                    const std::vector<const fp::Expr *> &subs) {
  std::vector<Index> out;
  for (const fp::Expr *s : subs) {
    std::optional<Affine> a;
    symbolic_ = true;
    try {
      a = affine(*s);
    } catch (...) {
      symbolic_ = false;
      throw;
    }
    symbolic_ = false;
    // `r(2*j - d)` with d fixed in the nest: every access to r in this
    // dimension must have the same -d, which then moves into r's declared
    // bounds (lower()), so that the subscript keeps a constant offset.
    size_t dim = out.size();
    // In a column, a subscript may be a loop-invariant INTEGER scalar plus a
    // constant (`t(i,j,nz) = dp(nz)`, the bottom of a column): a variable of
    // the subscript like a loop's, which ast/LoopDependences models.
    if (in_column_ && a && a->coeff == 0 && a->sym == column_var_)
      fail(at(s->source), column_var_outside());
    if (in_column_ && a && a->coeff == 0 && a->sym_coeff != 0) {
      use_free(*lookup(a->sym), at(s->source));
      out.push_back(Index{a->sym, a->sym_coeff, a->offset});
      continue;
    }
    // A subscript without a loop variable, `n1 - 1`: a plane of the array
    // at a position the call gives, in any array but a line buffer (whose
    // elements the substitution renumbers). ast/Planes decides whether the
    // nest may run in parallel, as the plane may be any of the array's.
    const Decl *buffer = filling_ ? lookup(grid) : nullptr;
    bool plane = a && a->coeff == 0 && a->sym_coeff == 1 && !(buffer && is_local_1d(*buffer)) &&
                 !directive_.sweep_of_time_loop;
    SymShift here{plane || !a ? std::string() : a->sym,
                  plane || !a ? 0 : a->sym_coeff,
                  at(s->source),
                  text_of(s->source),
                  constant_fix(*s),
                  plane};
    auto [seen, first] = sym_shifts_.try_emplace({grid, dim}, here);
    if (plane) {
      use_free(*lookup(a->sym), here.loc);
    } else if (a && a->sym_coeff != 0) {
      // A line buffer (a local 1D array filled beside the loop that reads
      // it) is substituted away: an offset shared by all its accesses
      // (checked below) only renumbers its elements.
      if (storing_ && !(buffer && is_local_1d(*buffer)))
        fail(here.loc, "Subscript '" + here.text + "' of '" + grid + "' is offset by variable '" +
                           a->sym + "'; such an offset is accepted only in arrays the " + kRegion +
                           " does not write" + here.fix);
      use_free(*lookup(a->sym), here.loc);
    }
    if (a && !first && (seen->second.sym != here.sym || seen->second.factor != here.factor)) {
      // Said at the access with the variable offset, naming the other.
      const SymShift &var = here.factor != 0 ? here : seen->second;
      const SymShift &other = here.factor != 0 ? seen->second : here;
      fail(var.loc, "Subscript '" + var.text + "' of '" + grid + "' is offset by variable '" +
                        var.sym + "', but another subscript of '" + grid +
                        "' in this dimension, '" + other.text + "', is " +
                        (other.factor != 0 ? "offset by variable '" + other.sym + "'"
                         : other.plane     ? std::string("a plane at a run-time position")
                                           : std::string("offset by constants only")) +
                        "; a variable offset must be the same in every access to an array" +
                        var.fix);
    }
    // A 1D array in a nest of several loops is most often a grid whose
    // index the code linearises by hand (`u(i + (j-1)*nx)`).
    std::string linearised =
        subs.size() == 1 && outer_ && outer_->size() > 1
            ? "; if it linearises the index by hand, declare '" + grid +
                  "' with one dimension per loop and subscript it by the loop variables (a "
                  "caller may still pass a 1D array)"
            : "";
    if (!a)
      fail(at(s->source), "Subscript '" + text_of(s->source) + "' of '" + grid +
                              "' is not an integer multiple of a loop variable plus a constant" +
                              why_not_affine(*s) + linearised);
    // Multigrid transfers scale by 2; a larger factor is more likely a
    // mistake than a stencil, and keeps index arithmetic far from overflow.
    auto stride = strides_.find(a->var);
    int64_t factor = a->coeff / (stride == strides_.end() ? 1 : stride->second.step);
    if (factor < -kMaxFactor || factor > kMaxFactor)
      fail(at(s->source), "Subscript '" + text_of(s->source) + "' of '" + grid +
                              "' multiplies loop variable '" + a->var + "' by " +
                              std::to_string(factor) + "; the factor must be from -" +
                              std::to_string(kMaxFactor) + " to " + std::to_string(kMaxFactor));
    Index ix;
    if (a->coeff != 0) {
      ix.var = a->var;
      ix.coeff = a->coeff;
    }
    ix.offset = a->offset;
    if (plane)
      ix.sym = a->sym;
    out.push_back(ix);
  }
  return out;
}

/// Reads a subscript as coeff*loop_var + offset. Named constants count as
/// their values; anything else (other variables, array elements, function
/// references, products of loop variables) is not affine.
std::optional<Affine> RegionLowering::affine(const fp::Expr &e) const {
  using R = std::optional<Affine>;
  return std::visit(
      [&](const auto &x) -> R {
        using T = std::decay_t<decltype(x)>;
        using fc::Indirection;
        if constexpr (std::is_same_v<T, fp::LiteralConstant>) {
          const auto *i = std::get_if<fp::IntLiteralConstant>(&x.u);
          if (!i)
            return std::nullopt;
          return Affine{
              "", 0, std::strtoll(std::get<fp::CharBlock>(i->t).ToString().c_str(), nullptr, 10)};
        } else if constexpr (std::is_same_v<T, Indirection<fp::Designator>>) {
          const auto *ref = std::get_if<fp::DataRef>(&x.value().u);
          const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
          if (!name)
            return std::nullopt;
          std::string n = text_of(name->source);
          if (auto offset = offsets_.find(n); offset != offsets_.end())
            return Affine{"", 0, offset->second};
          if (auto def = integer_defs_.find(n); def != integer_defs_.end())
            return symbolic_ || def->second.sym_coeff == 0 ? R(def->second) : std::nullopt;
          if (is_loop_var(n)) {
            auto stride = strides_.find(n);
            if (stride == strides_.end())
              return Affine{n, 1, 0};
            return Affine{n, stride->second.step, stride->second.lo};
          }
          const Decl *d = lookup(n);
          if (symbolic_ && d && !d->parameter && !d->shape && d->type == Type::Int32 &&
              !assigned_.count(n))
            return Affine{"", 0, 0, n, 1};
          if (!d || !d->parameter || d->type != Type::Int32)
            return std::nullopt;
          Expr v = const_cast<RegionLowering *>(this)->lower_parameter(*d, SourceLoc{});
          return Affine{"", 0, as<IntImm>(v)->value};
        } else if constexpr (std::is_same_v<T, fp::Expr::Parentheses> ||
                             std::is_same_v<T, fp::Expr::UnaryPlus>) {
          return affine(x.v.value());
        } else if constexpr (std::is_same_v<T, fp::Expr::Negate>) {
          R a = affine(x.v.value());
          if (a) {
            a->coeff = -a->coeff;
            a->offset = -a->offset;
            a->sym_coeff = -a->sym_coeff;
          }
          return a;
        } else if constexpr (std::is_same_v<T, fp::Expr::Add> ||
                             std::is_same_v<T, fp::Expr::Subtract>) {
          R a = affine(std::get<0>(x.t).value());
          R b = affine(std::get<1>(x.t).value());
          if (!a || !b)
            return std::nullopt;
          int64_t sign = std::is_same_v<T, fp::Expr::Add> ? 1 : -1;
          if (a->coeff != 0 && b->coeff != 0 && a->var != b->var)
            return std::nullopt;
          if (a->sym_coeff != 0 && b->sym_coeff != 0 && a->sym != b->sym)
            return std::nullopt;
          Affine r{a->coeff != 0 ? a->var : b->var, a->coeff + sign * b->coeff,
                   a->offset + sign * b->offset, a->sym_coeff != 0 ? a->sym : b->sym,
                   a->sym_coeff + sign * b->sym_coeff};
          if (r.coeff == 0)
            r.var.clear();
          if (r.sym_coeff == 0)
            r.sym.clear();
          return r;
        } else if constexpr (std::is_same_v<T, fp::Expr::Multiply>) {
          R a = affine(std::get<0>(x.t).value());
          R b = affine(std::get<1>(x.t).value());
          auto constant = [](const Affine &x) { return x.coeff == 0 && x.sym_coeff == 0; };
          if (!a || !b || (!constant(*a) && !constant(*b)))
            return std::nullopt;
          if (constant(*a))
            std::swap(a, b);
          return Affine{a->var, a->coeff * b->offset, a->offset * b->offset, a->sym,
                        a->sym_coeff * b->offset};
        } else {
          return std::nullopt;
        }
      },
      e.u);
}

/// The rank of an array the region may use: explicit-shape, assumed-shape
/// (`u(0:, :)`), or allocatable and pointer arrays (`u(:, :)`).
size_t RegionLowering::array_rank(const Decl &d, const SourceLoc &use) const {
  const auto &u = d.shape->u;
  if (const auto *explicit_shape = std::get_if<std::list<fp::ExplicitShapeSpec>>(&u))
    return explicit_shape->size();
  if (const auto *assumed = std::get_if<std::list<fp::AssumedShapeSpec>>(&u))
    return assumed->size();
  if (const auto *deferred = std::get_if<fp::DeferredShapeSpecList>(&u))
    return static_cast<size_t>(deferred->v);
  // Every assumed-size array of a statement is reported, once each: the
  // statement goes on lowering with the rank the declaration gives.
  if (const auto *assumed_size = std::get_if<fp::AssumedSizeSpec>(&u)) {
    if (assumed_size_reported_.insert(d.name).second)
      const_cast<RegionLowering *>(this)->problems_.add(
          {use, "Assumed-size array '" + d.name + "' cannot be used in a " + kRegion +
                    "; declare its last upper bound"});
    return std::get<std::list<fp::ExplicitShapeSpec>>(assumed_size->t).size() + 1;
  }
  fail(use, "Array '" + d.name +
                "' must have an explicit, assumed or deferred shape to be used "
                "in a " +
                kRegion);
}

std::vector<Dim> RegionLowering::lower_dims(const Decl &d) {
  std::vector<Dim> dims;
  bool saved = in_dims_;
  in_dims_ = true;
  auto integer = [&](const Dim &dim) {
    if (dim.lo->type != Type::Int32 || dim.hi->type != Type::Int32)
      fail(d.loc, "The bounds of array '" + d.name + "' must be INTEGER expressions");
    dims.push_back(dim);
  };
  auto bound = [&](int dim, bool upper) {
    return Var::make(bound_arg_name(d.name, dim, upper), Type::Int32, d.loc);
  };
  if (const auto *specs = std::get_if<std::list<fp::ExplicitShapeSpec>>(&d.shape->u)) {
    for (const fp::ExplicitShapeSpec &s : *specs) {
      const auto &lo = std::get<std::optional<fp::SpecificationExpr>>(s.t);
      const fp::Expr &hi = std::get<fp::SpecificationExpr>(s.t).v.thing.thing.value();
      integer(
          Dim{lo ? lower_expr(lo->v.thing.thing.value()) : IntImm::make(1, d.loc), lower_expr(hi)});
    }
  } else if (const auto *assumed = std::get_if<std::list<fp::AssumedShapeSpec>>(&d.shape->u);
             assumed && !d.allocatable) {
    // An assumed-shape dummy has its declared lower bounds (1 by default).
    int n = 0;
    for (const fp::AssumedShapeSpec &s : *assumed) {
      ++n;
      integer(Dim{s.v ? lower_expr(s.v->v.thing.thing.value()) : IntImm::make(1, d.loc),
                  bound(n, true)});
    }
  } else {
    for (int n = 1; n <= static_cast<int>(array_rank(d, d.loc)); ++n)
      integer(Dim{d.allocatable ? bound(n, false) : IntImm::make(1, d.loc), bound(n, true)});
  }
  in_dims_ = saved;
  return dims;
}

/// LBOUND(a, dim), UBOUND(a, dim) and SIZE(a, dim) with a constant DIM: the
/// declared bounds of `a`, or its bound arguments. `a` becomes an argument.
Expr RegionLowering::lower_bound_inquiry(const std::string &fn, const fp::Call &call,
                                         const SourceLoc &loc) {
  const fp::Expr *array = nullptr, *dim = nullptr;
  for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(call.t)) {
    const auto *e = std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(arg.t).u);
    const auto &keyword = std::get<std::optional<fp::Keyword>>(arg.t);
    std::string key = keyword ? text_of(keyword->v.source) : !array ? "array" : "dim";
    if (e && key == "array" && !array)
      array = &e->value();
    else if (e && key == "dim" && !dim)
      dim = &e->value();
    else
      fail(loc, "Intrinsic '" + fn + "' takes an array and a DIM argument inside a " + kRegion);
  }
  const fp::Name *name = nullptr;
  if (const auto *d = array ? std::get_if<fc::Indirection<fp::Designator>>(&array->u) : nullptr)
    if (const auto *ref = std::get_if<fp::DataRef>(&d->value().u))
      name = std::get_if<fp::Name>(&ref->u);
  const Decl *decl = name ? lookup(text_of(name->source)) : nullptr;
  if (!decl || !decl->shape)
    fail(loc, "The first argument of '" + fn + "' must be an array inside a " + kRegion);
  auto a = dim ? affine(*dim) : std::nullopt;
  size_t rank = array_rank(*decl, loc);
  if (!a || a->coeff != 0 || a->offset < 1 || a->offset > static_cast<int64_t>(rank))
    fail(loc, "Intrinsic '" + fn + "' needs a constant DIM argument from 1 to " +
                  std::to_string(rank) + " inside a " + kRegion);
  usable_type(*decl, loc);
  use_free(*decl, loc);
  Dim bounds = lower_dims(*decl)[a->offset - 1];
  if (fn == "lbound")
    return bounds.lo;
  if (fn == "ubound")
    return bounds.hi;
  // hi - lo + 1, as simple as the lower bound allows.
  if (const auto *lo = as<IntImm>(bounds.lo)) {
    int64_t shift = 1 - lo->value;
    if (shift == 0)
      return bounds.hi;
    return Binary::make(shift > 0 ? BinaryOp::Add : BinaryOp::Sub, bounds.hi,
                        IntImm::make(shift > 0 ? shift : -shift, loc), loc);
  }
  return Binary::make(BinaryOp::Add, Binary::make(BinaryOp::Sub, bounds.hi, bounds.lo, loc),
                      IntImm::make(1, loc), loc);
}
} // namespace

Kernel lower_region(const SourceMap &map, const std::vector<Scope> &scopes,
                    const StencilDirective &dir, const fp::DoConstruct &d,
                    const std::string &name) {
  return RegionLowering(map, scopes, dir).lower(d, name);
}

ScalarExpr lower_scalar_expr(const SourceMap &map, const std::vector<Scope> &scopes,
                             const StencilDirective &dir, const fp::Expr &e, bool logical) {
  return RegionLowering(map, scopes, dir).lower_scalar(e, logical);
}

Kernel lower_array_copy(const SourceMap &map, const std::vector<Scope> &scopes,
                        const StencilDirective &dir, const fp::AssignmentStmt &a,
                        const SourceLoc &loc, const std::string &name) {
  return RegionLowering(map, scopes, dir).lower_array_copy(a, loc, name);
}

} // namespace f2s::fe
