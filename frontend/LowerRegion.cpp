// Lowering one annotated DO construct to a kernel: the nest found and
// lowered (FindNest.cpp, LowerNest.cpp), canonicalized, and the kernel's
// arguments, tuning sizes and reductions taken from what its body uses; and
// the entry points that the rest of the front end calls (ParseTree.h).
#include "ast/IRVisitor.h"
#include "ast/InnerLoops.h"
#include "ast/Reductions.h"
#include "canonicalize/BoundingBox.h"
#include "canonicalize/Canonicalize.h"
#include "canonicalize/ColumnNest.h"
#include "canonicalize/FoldConstants.h"
#include "frontend/AssumedSize.h"
#include "frontend/RegionLowering.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace f2s::fe::lowering {

SourceLoc RegionLowering::at(fp::CharBlock b) const {
  return map_.at(b);
}

Kernel RegionLowering::lower(const fp::DoConstruct &outer, const std::string &name) {
  std::vector<const fp::DoConstruct *> nest{&outer};
  outer_ = &nest;
  finding_nest_ = true;
  while (const fp::DoConstruct *inner = only_do(std::get<fp::Block>(nest.back()->t))) {
    // Inside three loops, a loop with constant bounds is unrolled in the point.
    if (nest.size() >= 3 && has_constant_bounds(*inner, *this))
      break;
    nest.push_back(inner);
  }
  finding_nest_ = false;
  if (nest.size() > 3) {
    // A component loop around the stencil's three (`do m = 1, nvar` around
    // `do k; do j; do i`) or inside them: the kernel keeps three loops, and
    // the others run inside each point, in the source's order among
    // themselves (NestLoops.cpp says which three).
    chain_ = nest;
    nest = choose_nest_loops(chain_);
    for (const fp::DoConstruct *d : chain_) {
      if (d == nest.back())
        break;
      if (std::find(nest.begin(), nest.end(), d) == nest.end())
        moved_.push_back(d);
    }
    auto do_stmt = [&](const fp::DoConstruct *d) {
      return at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d->t).source);
    };
    if (!moved_.empty() && !column_dos_.empty())
      fail(column_loc_, std::string("The DO loops of a column cannot be inside a DO loop that "
                                    "runs inside each point of a ") +
                            kRegion + " (the DO loop over '" +
                            text_of(loop_bounds(*moved_.front()).name.thing.source) + "' at line " +
                            std::to_string(do_stmt(moved_.front()).line) +
                            "); annotate the nest inside it instead");
    if (!moved_.empty() && !siblings_.empty())
      fail(do_stmt(siblings_.begin()->second.front()),
           std::string("Inner DO loops side by side (line buffers filled, then read) cannot be "
                       "inside a DO loop that runs inside each point of a ") +
               kRegion + " (the DO loop over '" +
               text_of(loop_bounds(*moved_.front()).name.thing.source) + "' at line " +
               std::to_string(do_stmt(moved_.front()).line) +
               "); annotate the nest inside it "
               "instead");
    outer_ = &nest;
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
  fp::Walk(std::get<fp::Block>(outer.t), assigned);
  for (const std::string &n : assigned.names)
    if (!is_loop_var(n))
      assigned_.insert(n);

  Kernel k;
  k.name = name;
  const Scope &proc = *std::find_if(scopes_.rbegin(), scopes_.rend(),
                                    [](const Scope &s) { return s.is_procedure; });
  k.procedure = proc.name;
  k.loc = directive_.loc;
  // The loops down to the kernel's innermost as the source nests them: the
  // order whose dependences the kernel's must keep (ast/LoopDependences).
  if (!moved_.empty())
    for (const fp::DoConstruct *d : chain_) {
      k.source_order.push_back(text_of(loop_bounds(*d).name.thing.source));
      if (d == nest.back())
        break;
    }
  Stmt lowered = lower_nest(nest, 0);
  // A nest with a statement refused lacks that statement: canonicalizing it
  // would refuse what the source does not say (a reading loop that reads
  // nothing), in place of the statement's own problem.
  problems_.throw_if_any();
  lowered = place_variable_offsets(lowered);
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
  // The loops side by side as the source writes them: their lowered form
  // no longer says where the variable and the step are, nor the step.
  std::vector<SourceLoop> source_loops;
  for (const auto &[last, dos] : siblings_)
    for (const fp::DoConstruct *d : dos) {
      const auto &bounds = loop_bounds(*d);
      SourceLoop l{at(std::get<fp::Statement<fp::NonLabelDoStmt>>(d->t).source),
                   at(bounds.name.thing.source),
                   1,
                   {}};
      if (bounds.step) {
        const fp::Expr &step = bounds.step->thing.value();
        Expr folded = fold_constants(lower_bound(step, text_of(bounds.name.thing.source)));
        l.step =
            as<IntImm>(folded) ? std::optional<int64_t>(as<IntImm>(folded)->value) : std::nullopt;
        l.step_loc = at(step.source);
      }
      source_loops.push_back(l);
    }
  Canonical canonical = k.column
                            ? Canonical{k.body, {}, {}, {}, {}}
                            : canonicalize(lowered, {buffer_stores_, point_stores_, names_known(),
                                                     source_loops, inner_ended_});
  k.body = canonical.nest;
  k.outer_statements = canonical.outer_statements;
  // A line buffer substituted away is not passed: the library never reads
  // or fills it (ast/ValuesAfterRegion checks that nothing else uses it);
  // nor is a work array of the point, whose elements are now temporaries
  // (ast/ValuesAfterRegion checks that nothing reads it after the region).
  for (const std::string &b : canonical.line_buffers)
    free_.erase(b);
  k.line_buffers = canonical.line_buffers;
  for (const PointArray &a : canonical.point_arrays)
    free_.erase(a.name);
  k.point_arrays = canonical.point_arrays;
  // Names that EQUIVALENCE gives one storage become separate arguments
  // (ast/Aliasing's find_shared_storage refuses a region that writes one and
  // uses another).
  for (const auto &[n, decl] : free_)
    if (decl->shape && decl->equivalence)
      k.shared_storage.push_back(SharedStorage{
          n, {decl->equivalence->begin(), decl->equivalence->end()}, decl->equivalence_loc});
  k.store_sources = store_sources_;
  for (const std::string &v : loop_vars_)
    if (auto st = strides_.find(v); st != strides_.end())
      k.strides.push_back(SourceStride{v, st->second.step, st->second.lo});
  k.temps = temps_;
  k.temps.insert(k.temps.end(), canonical.point_temps.begin(), canonical.point_temps.end());
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

namespace {

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

} // namespace

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
    // So has a loop inside the point that runs to a depth the point reads
    // (`do k = 1, kmt(i, j)`): the harness's data makes it a hundred.
    if (k.column || has_point_bounds(k))
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
  // offset in the subscript, and a halo that its declared bounds give
  // (place_variable_offsets says where).
  for (const auto &at_dim : shifted_) {
    const auto &[grid, dim] = at_dim;
    const SymShift &shift = sym_shifts_.at(at_dim).first;
    if (!dims.count(grid))
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
  size_assumed_arrays(k, dims);

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
    if (d->shape && assumed_size_dims(*d->shape))
      v.decl = ArrayDecl::AssumedSize;
    else if (d->shape && !std::holds_alternative<std::list<fp::ExplicitShapeSpec>>(d->shape->u))
      v.decl = d->pointer       ? ArrayDecl::Pointer
               : d->allocatable ? ArrayDecl::Allocatable
                                : ArrayDecl::AssumedShape;
    // The bounds the procedure does not spell, which lower_dims made Vars.
    for (int dim = 1;
         v.decl != ArrayDecl::Explicit && v.decl != ArrayDecl::AssumedSize && dim <= v.rank();
         ++dim)
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

/// The last upper bound of each assumed-size array the region uses: how far
/// the region reaches into it (frontend/AssumedSize). Refused, at the
/// array's first use, where that reach is no expression of the call's
/// scalars or one bound must serve several reaches.
void RegionLowering::size_assumed_arrays(const Kernel &k,
                                         std::map<std::string, std::vector<Dim>> &dims) {
  std::optional<Stmt> boxed;
  for (const auto &[name, use] : assumed_size_uses_) {
    auto d = dims.find(name);
    if (d == dims.end())
      continue;
    const size_t last = d->second.size() - 1;
    std::string why;
    if (directive_.timesteps || directive_.sweep_of_time_loop) {
      why = "a time loop, whose sweeps share the array";
    } else if (copying_) {
      why = "an array assignment";
    } else {
      if (!boxed)
        boxed = bound_box(k).body;
      if (auto reach = largest_subscript(*boxed, name, last))
        d->second[last].hi = *reach;
      else
        why = "a last subscript whose largest value the loops do not bound";
    }
    if (!why.empty())
      problems_.add({use, "Assumed-size array '" + name + "' cannot be used in a " + kRegion +
                              " with " + why + "; declare its last upper bound"});
  }
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

} // namespace f2s::fe::lowering

namespace f2s::fe {

Kernel lower_region(const SourceMap &map, const std::vector<Scope> &scopes,
                    const StencilDirective &dir, const fp::DoConstruct &d,
                    const std::string &name) {
  return lowering::RegionLowering(map, scopes, dir).lower(d, name);
}

ScalarExpr lower_scalar_expr(const SourceMap &map, const std::vector<Scope> &scopes,
                             const StencilDirective &dir, const fp::Expr &e, bool logical) {
  return lowering::RegionLowering(map, scopes, dir).lower_scalar(e, logical);
}

Kernel lower_array_copy(const SourceMap &map, const std::vector<Scope> &scopes,
                        const StencilDirective &dir, const fp::AssignmentStmt &a,
                        const SourceLoc &loc, const std::string &name) {
  return lowering::RegionLowering(map, scopes, dir).lower_array_copy(a, loc, name);
}

} // namespace f2s::fe
