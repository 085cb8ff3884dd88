// The lowering of one annotated DO construct to a kernel, private to the
// files of frontend/ that implement it; the rest of the front end calls the
// entry points of ParseTree.h (lower_region, lower_scalar_expr,
// lower_array_copy). The parse tree is pre-semantic, so every name is
// resolved here against the declarations that Frontend.cpp collected.
//
// One class, split over files by what they lower: every part reads and sets
// the state that lowering a region builds up (the loop variables, the
// temporaries, the scalars assigned between the loops, the column, the
// problems found so far), which a class of its own per part would pass
// around whole. LowerRegion.cpp makes the kernel and its arguments;
// FindNest.cpp finds the nest's loops and LowerNest.cpp lowers them;
// LowerStatements.cpp and LowerAssignment.cpp the statements of the point;
// LowerExpressions.cpp, LowerNames.cpp, LowerIntrinsics.cpp and
// LowerSubscripts.cpp the expressions in them; LowerArrayCopy.cpp array
// assignments (copies and broadcasts) as kernels of their own.
#pragma once

#include "frontend/OffsetLoops.h"
#include "frontend/ParseTree.h"

#include "flang/Parser/tools.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace f2s::fe::lowering {

/// An affine subscript as it is being read: coeff*var + offset.
struct Affine {
  std::string var;
  int64_t coeff = 0;
  int64_t offset = 0;
  /// A loop-invariant INTEGER scalar in the subscript, sym_coeff*sym
  /// (`r(2*j - d)`): only while lowering the subscripts of a read.
  std::string sym;
  int64_t sym_coeff = 0;
  /// The variable of a loop inside the point with a run-time trip count,
  /// inner_coeff*inner (Index::inner).
  std::string inner;
  int64_t inner_coeff = 0;
};

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
  bool is_local_array(const std::string &name) const override {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it)
      if (auto d = it->decls.find(name); d != it->decls.end())
        return !d->second.equivalence && is_local_array(d->second);
    return false;
  }
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
  bool is_nest_var(const std::string &name) const override;
  bool reads_point_values(const fp::Expr &e) const override;
  Stmt lower_inner_loop(const fp::DoConstruct &d) override;

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
  /// Every name the region's scopes declare or give a type, and the
  /// region's loop variables and temporaries: what a new name must avoid.
  std::set<std::string> names_known() const {
    std::set<std::string> names(loop_vars_.begin(), loop_vars_.end());
    for (const Scope &s : scopes_)
      for (const auto &[n, d] : s.decls)
        names.insert(n);
    for (const auto &[n, d] : implicit_)
      names.insert(n);
    for (const Variable &t : temps_)
      names.insert(t.name);
    return names;
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
  void size_assumed_arrays(const Kernel &k, std::map<std::string, std::vector<Dim>> &dims);

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
  bool is_local_array(const Decl &d) const;
  bool is_local_1d(const Decl &d) const;
  Stmt lower_nest(const std::vector<const fp::DoConstruct *> &nest, size_t level);
  /// The kernel's three loops among the DO loops of a deeper nest (`chain`,
  /// outermost first), in source order (NestLoops.cpp).
  std::vector<const fp::DoConstruct *>
  choose_nest_loops(const std::vector<const fp::DoConstruct *> &chain) const;
  /// The DO loop the source nests directly in `d`, one of chain_, if any.
  const fp::DoConstruct *next_in_chain(const fp::DoConstruct *d) const;
  /// Refuses a statement of a loop of the nest that a moved loop
  /// (moved_) encloses in the source: it would run outside that loop.
  void refuse_inside_moved(const fp::DoConstruct &d, const fp::ExecutionPartConstruct &c) const;
  /// The innermost loop's body, inside the moved loops (moved_).
  Stmt lower_point(const fp::DoConstruct &innermost, const SourceLoc &loc);
  /// A DO loop that runs inside the point, by its header: its variable,
  /// bounds (known only at run time, or constants) and step.
  struct PointLoop {
    std::string var;
    Expr lo, hi;
    int64_t step = 1;
    bool reverse = false;
    SourceLoc loc;
  };
  /// `d`'s header as a loop inside the point; `where` says where the loop
  /// runs, for messages (" inside the point of a '!$f2s stencil' region"),
  /// and `moved` whether the source writes it around loops of the nest.
  PointLoop point_loop_header(const fp::DoConstruct &d, const std::string &where,
                              bool moved = false);
  Stmt end_point_loop(const PointLoop &h, const Stmt &body);
  void refuse_bound_changed_in_body(const PointLoop &h, const Stmt &body);
  /// Why a moved loop is inside the point: "which runs inside each point
  /// of the ... region, whose nest is the DO loops over 'k', 'j' and 'i'".
  std::string moved_where(const fp::DoConstruct &m) const;
  void refuse_outer_jump(const fp::ExecutionPartConstruct &c) const;
  /// The start of a stride loop that changes from row to row or from call
  /// to call, and the loop's first index, which no start falls below: `lo +
  /// MOD(e, 2)` starts at lo. `below` is set when some start may lie a whole
  /// step or more above lo, so that the guard must also test `i >= start`.
  struct ColourStart {
    Expr start, lo;
    bool below = false;
  };
  std::optional<ColourStart> lower_colour_start(const fp::Expr &lower, const std::string &loop_var);
  std::optional<ColourStart> lower_stride_start(const fp::Expr &lower, const std::string &loop_var,
                                                int64_t step);
  /// The guards of the stride loops around the level being lowered (the
  /// points `do i = start, hi, s` visits among lo..hi), outermost first:
  /// the innermost body, and the statements between the loops below such a
  /// loop, run under them.
  std::vector<Expr> stride_guards_;
  Stmt under_stride_guards(const Stmt &s) const;
  Expr lower_bound(const fp::Expr &e, const std::string &loop_var);
  /// A bound of the DO loop over `loop_var` inside the point: any INTEGER
  /// expression of the point (its loop variables, temporaries assigned
  /// before the loop, array elements), evaluated where the loop starts.
  Expr lower_point_bound(const fp::Expr &e, const std::string &loop_var);

  // Statements ---------------------------------------------------------------
  Stmt lower_statement(const fp::ExecutionPartConstruct &c);
  Stmt lower_block(const fp::Block &b, const SourceLoc &loc, bool loop_body = false);
  /// The statements that follow a range in the body of the innermost DO
  /// loop, in order: what runs after the range falls off its end, and what
  /// a CYCLE inside it skips.
  using Rest = std::vector<std::pair<fp::Block::const_iterator, fp::Block::const_iterator>>;
  Stmt lower_range(fp::Block::const_iterator first, fp::Block::const_iterator last,
                   const SourceLoc &loc, bool loop_body, const Rest &rest = {});
  Stmt lower_rest(const Rest &rest, const SourceLoc &loc);
  static Rest followed_by(fp::Block::const_iterator first, fp::Block::const_iterator last,
                          const Rest &rest);
  Stmt lower_action(const fp::ActionStmt &a, const SourceLoc &loc,
                    const fp::ExecutableConstruct *construct);
  Stmt lower_if_construct(const fp::IfConstruct &c, const Rest *rest = nullptr);
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
  /// (A loop inside the point reads its bounds as any expression of the
  /// point: lower_point_bound.)
  std::optional<std::string> bound_of_;
  /// Where a bound that must hold for the whole region is being lowered,
  /// for refusals: "in the bounds of the DO loop over 'i'" (one of the
  /// nest's loops, whose bounds make the library's sizes), "in the bounds of
  /// an array", or "in the bounds of its loops or arrays".
  std::string nest_bound_place() const {
    if (in_dims_)
      return "in the bounds of an array";
    if (bound_of_ && !bound_of_->empty())
      return "in the bounds of the DO loop over '" + *bound_of_ + "'";
    return "in the bounds of its loops or arrays";
  }
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
  /// they hold where the inner loop starts, in terms of what the region does
  /// not assign (record_between): canonicalize/SinkScalars moves the
  /// assignments into the point, a red-black start may read them (`do i = 2
  /// + joff, n, 2`), and so may any inner loop's bounds (`do i = i_lo, i_hi`).
  std::map<std::string, Expr> between_;
  /// The scalars set between the loops whose value there is not one
  /// expression (set in a DO loop, or under an IF that says it differently).
  std::set<std::string> between_under_if_;
  void record_between(const Stmt &s);
  std::optional<Expr> between_value(const std::string &name);
  /// Set while lowering the start of a stride loop: names in between_ read
  /// as their values, so that the guard is in the loop variables.
  bool colour_scalars_ = false;
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
  /// Assumed-size arrays the region uses, each at its first use: finish()
  /// gives each its last upper bound from the region's reach, or refuses it
  /// there.
  mutable std::map<std::string, SourceLoc> assumed_size_uses_;
  /// Set while lower_array_copy lowers an array assignment.
  bool copying_ = false;
  int in_if_ = 0; ///< IF constructs and statements around the statement being lowered
  /// The nest's loops found so far, outermost first, while lower() looks
  /// for them (a column needs one).
  const std::vector<const fp::DoConstruct *> *outer_ = nullptr;
  /// Every DO loop of a nest of more than three (outermost first), and
  /// those of them that are not the kernel's three but enclose one of them
  /// in the source: they run inside each point, an interchange that
  /// ast/LoopDependences checks against the source's order
  /// (Kernel::source_order). Empty for nests of up to three loops.
  std::vector<const fp::DoConstruct *> chain_, moved_;
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
  /// The scalars the region assigns from an array element at subscripts
  /// that vary, or from another such scalar, and those with the region's DO
  /// variables (reads_point_values, once per region).
  mutable std::optional<std::set<std::string>> point_scalars_;
  mutable std::set<std::string> varying_;
  /// Set while lowering the statements of a column.
  bool in_column_ = false;
  /// Set while lower() looks for the nest's loops (where a column may end it).
  mutable bool finding_nest_ = false;
  /// Set while lowering subscripts (affine() may read a loop-invariant
  /// INTEGER scalar) and a store's target (where it may not).
  mutable bool symbolic_ = false;
  bool storing_ = false;
  /// The variable part of one subscript, (name, factor) (name empty for
  /// constant offsets and planes).
  struct SymShift {
    std::string sym;    ///< empty for constant offsets
    int64_t factor = 0; ///< of sym
    SourceLoc loc;      ///< the access, for messages
    std::string text, fix;
    bool plane = false; ///< a plane at a run-time position (Index::sym)
    bool same(const SymShift &o) const { return sym == o.sym && factor == o.factor; }
  };
  /// Per array dimension: the variable part of its first access, and the
  /// first access whose variable part differs from it, if any.
  struct SymShifts {
    SymShift first;
    std::optional<SymShift> other;
  };
  std::map<std::pair<std::string, size_t>, SymShifts> sym_shifts_;
  /// The array dimensions whose variable offset moved into the bounds
  /// (place_variable_offsets).
  std::set<std::pair<std::string, size_t>> shifted_;
  Stmt place_variable_offsets(const Stmt &lowered);
  /// Local 1D arrays stored in such loops: line buffers, if
  /// canonicalize/ForwardLineBuffers can substitute them.
  std::set<std::string> buffer_stores_;
  /// Local arrays the point stores at constant subscripts (`tv(m)` in a DO
  /// loop over m unrolled there), with their element types: work arrays of
  /// the point, which canonicalize/PointArrays makes temporaries.
  std::map<std::string, Type> point_stores_;
  /// Every assignment to an array element, as written (Kernel::store_sources).
  std::vector<StoreSource> store_sources_;
  /// The variables of the DO loops inside the point (frontend/OffsetLoops)
  /// met so far, each with the value it reads as: the copy's being lowered,
  /// or after the loop, the value the loop left.
  std::map<std::string, int64_t> offsets_;
  std::set<std::string> unrolling_; ///< the offset loops being unrolled
  /// The variables of the loops inside the point that stay loops
  /// (lower_inner_loop) being lowered, and those whose loop has ended, which
  /// the point may not read after it (their value is the call's).
  std::set<std::string> inner_loops_, inner_ended_;
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

/// Whether `c` does nothing: CONTINUE, or another compiler's directive
/// (FindNest.cpp).
bool is_continue(const fp::ExecutionPartConstruct &c);

/// An assumed-size declaration: the dimensions before the last, and the
/// last's `lo:*`. Flang reads `a(*)` and `a(0:*)` as an implied shape of one
/// dimension, which for a variable (not a PARAMETER) is assumed-size.
struct AssumedSizeDims {
  const std::list<fp::ExplicitShapeSpec> *leading = nullptr;
  const fp::AssumedImpliedSpec *last = nullptr;
};
std::optional<AssumedSizeDims> assumed_size_dims(const fp::ArraySpec &spec);

/// The refusal of a derived-type component, with the rewrite, or empty
/// (LowerExpressions.cpp).
std::string component_refusal(const fp::DataRef &ref, std::string text);
std::string component_refusal(const fp::Call &call, const std::string &text);

} // namespace f2s::fe::lowering
