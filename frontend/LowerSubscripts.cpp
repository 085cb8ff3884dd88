// Lowering array elements: each subscript read as an integer multiple of a
// loop variable plus a constant and a multiple of a loop-invariant INTEGER
// scalar (a plane, or an offset that stays in the subscript or moves into
// the array's bounds: place_variable_offsets), and the declared bounds of the
// arrays the region uses, which become the kernel's.
#include "ast/IRVisitor.h"
#include "frontend/RegionLowering.h"

#include <cstdlib>

namespace f2s::fe::lowering {

Expr RegionLowering::lower_grid_ref(const Decl &decl, const fp::Name &name,
                                    const std::vector<const fp::Expr *> &subs) {
  SourceLoc loc = at(name.source);
  if (bound_of_ && !in_dims_ && in_column_ && *bound_of_ == column_var_)
    fail(loc, column_bound_refusal("Array element of '" + decl.name + "'"));
  if (bound_of_ || in_dims_)
    fail(loc, "Array element of '" + decl.name + "' cannot be used " + nest_bound_place() +
                  " of a " + kRegion +
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
    size_t dim = out.size();
    // In a column, a subscript may be a loop-invariant INTEGER scalar plus a
    // constant (`t(i,j,nz) = dp(nz)`, the bottom of a column): a variable of
    // the subscript like a loop's, which ast/LoopDependences models.
    if (in_column_ && a && a->coeff == 0 && a->sym == column_var_)
      fail(at(s->source), column_var_outside());
    if (a && a->inner_coeff != 0 && a->sym_coeff != 0)
      fail(at(s->source), "Subscript '" + text_of(s->source) + "' of '" + grid +
                              "' adds variable '" + a->sym + "' to the variable '" + a->inner +
                              "' of a DO loop inside the point; only loop variables and "
                              "constants may be added to it");
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
    // Any other subscript with a scalar, `r(2*j - d)` or `u(i, j + joff)`:
    // an offset at a run-time position, lowered as written (Index::sym);
    // place_variable_offsets then moves it into the array's bounds where
    // that renumbers the elements of an array the region only reads.
    SymShift here{plane || !a ? std::string() : a->sym,
                  plane || !a ? 0 : a->sym_coeff,
                  at(s->source),
                  text_of(s->source),
                  constant_fix(*s),
                  plane};
    auto [seen, first] = sym_shifts_.try_emplace({grid, dim}, SymShifts{here, std::nullopt});
    if (a && !first && !seen->second.other && !seen->second.first.same(here))
      seen->second.other = here;
    if (a && a->sym_coeff != 0)
      use_free(*lookup(a->sym), here.loc);
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
    if (a->sym_coeff != 0) {
      ix.sym = a->sym;
      ix.sym_coeff = a->sym_coeff;
    }
    if (a->inner_coeff != 0) {
      ix.inner = a->inner;
      ix.inner_coeff = a->inner_coeff;
    }
    out.push_back(ix);
  }
  return out;
}

namespace {

/// The grids a lowered region stores to.
std::set<std::string> stored_grids(const Stmt &body) {
  struct Stores : IRVisitor {
    std::set<std::string> grids;
    void visit_store(const Store *s) override {
      grids.insert(s->grid);
      IRVisitor::visit_store(s);
    }
  } stores;
  stores.visit(body);
  return stores.grids;
}

/// Drops the scalar (Index::sym) from the subscripts of the given array
/// dimensions, whose declared bounds take it instead.
class DropOffsets : public IRMutator {
public:
  explicit DropOffsets(const std::set<std::pair<std::string, size_t>> &dims) : dims_(dims) {}

protected:
  Expr visit_grid_ref(const GridRef *g, const Expr &self) override {
    std::vector<Index> index = dropped(g->grid, g->index);
    return index == g->index ? self : GridRef::make(g->grid, std::move(index), g->type, g->loc);
  }
  Stmt visit_store(const Store *s, const Stmt &self) override {
    Expr value = mutate(s->value);
    std::vector<Index> index = dropped(s->grid, s->index);
    if (index == s->index && value == s->value)
      return self;
    return Store::make(s->grid, std::move(index), value, s->loc);
  }

private:
  std::vector<Index> dropped(const std::string &grid, std::vector<Index> index) const {
    for (size_t d = 0; d < index.size(); ++d)
      if (dims_.count({grid, d})) {
        index[d].sym.clear();
        index[d].sym_coeff = 1;
      }
    return index;
  }
  const std::set<std::pair<std::string, size_t>> &dims_;
};

} // namespace

/// Where an array dimension's subscripts add a scalar `d` (`r(2*j - d)`),
/// either the offset moves into the array's bounds or it stays in the
/// subscripts. It moves where the array is only read (or is a line buffer,
/// which the substitution takes away) and every access adds the same
/// multiple of the same scalar: to the kernel, an array whose bounds in that
/// dimension are d higher, read at `2*j`, the same elements at constant
/// offsets, so that every target's blocks, staging and halos apply as to
/// any stencil. Elsewhere it stays (Index::sym), and the scalar is a
/// parameter of the dependence analysis: an array the region writes keeps
/// its own numbering, so that a dependence is named at the subscripts as
/// written and aliased arguments are compared element for element
/// (ast/Aliasing); and offsets that differ (`a(i) = a(i + d)`) are isl's to
/// decide, for every value of the scalars (ast/LoopDependences).
Stmt RegionLowering::place_variable_offsets(const Stmt &lowered) {
  std::set<std::string> written = stored_grids(lowered);
  for (const auto &[at_dim, shifts] : sym_shifts_) {
    const auto &[grid, dim] = at_dim;
    const SymShift &var = shifts.first.factor != 0 || !shifts.other ? shifts.first : *shifts.other;
    if (var.factor == 0)
      continue; // constant offsets and planes only
    bool buffer = buffer_stores_.count(grid) > 0;
    // The last dimension of an assumed-size array keeps its offset too: its
    // upper bound is the region's reach (frontend/AssumedSize), which the
    // offset is part of.
    const Decl *decl = lookup(grid);
    auto assumed = decl && decl->shape ? assumed_size_dims(*decl->shape) : std::nullopt;
    bool assumed_last = assumed && dim == assumed->leading->size();
    if (!shifts.other && !assumed_last && (buffer || !written.count(grid))) {
      shifted_.insert(at_dim);
      continue;
    }
    // A line buffer is substituted by the values its fill computes, which
    // needs to know which element each read takes (ForwardLineBuffers).
    if (buffer && shifts.other) {
      const SymShift &other = &var == &shifts.first ? *shifts.other : shifts.first;
      fail(var.loc, "Subscript '" + var.text + "' of line buffer '" + grid +
                        "' is offset by variable '" + var.sym + "', but another subscript of '" +
                        grid + "', '" + other.text + "', is " +
                        (other.factor != 0 ? "offset by variable '" + other.sym + "'"
                         : other.plane     ? std::string("a plane at a run-time position")
                                           : std::string("offset by constants only")) +
                        "; every access to a line buffer must have the same offset, so that it "
                        "can be replaced by the values it holds" +
                        var.fix);
    }
  }
  if (shifted_.empty())
    return lowered;
  return DropOffsets(shifted_).mutate(lowered);
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
          if (inner_loops_.count(n))
            return Affine{"", 0, 0, "", 0, n, 1};
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
            a->inner_coeff = -a->inner_coeff;
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
          if (a->inner_coeff != 0 && b->inner_coeff != 0 && a->inner != b->inner)
            return std::nullopt;
          Affine r{a->coeff != 0 ? a->var : b->var,       a->coeff + sign * b->coeff,
                   a->offset + sign * b->offset,          a->sym_coeff != 0 ? a->sym : b->sym,
                   a->sym_coeff + sign * b->sym_coeff,    a->inner_coeff != 0 ? a->inner : b->inner,
                   a->inner_coeff + sign * b->inner_coeff};
          if (r.coeff == 0)
            r.var.clear();
          if (r.sym_coeff == 0)
            r.sym.clear();
          if (r.inner_coeff == 0)
            r.inner.clear();
          return r;
        } else if constexpr (std::is_same_v<T, fp::Expr::Multiply>) {
          R a = affine(std::get<0>(x.t).value());
          R b = affine(std::get<1>(x.t).value());
          auto constant = [](const Affine &x) {
            return x.coeff == 0 && x.sym_coeff == 0 && x.inner_coeff == 0;
          };
          if (!a || !b || (!constant(*a) && !constant(*b)))
            return std::nullopt;
          if (constant(*a))
            std::swap(a, b);
          return Affine{a->var,
                        a->coeff * b->offset,
                        a->offset * b->offset,
                        a->sym,
                        a->sym_coeff * b->offset,
                        a->inner,
                        a->inner_coeff * b->offset};
        } else {
          return std::nullopt;
        }
      },
      e.u);
}

/// The rank of an array the region may use: explicit-shape, assumed-shape
/// (`u(0:, :)`), allocatable and pointer arrays (`u(:, :)`), or assumed-size
/// (`u(n, *)`, whose use it records for size_assumed_arrays).
size_t RegionLowering::array_rank(const Decl &d, const SourceLoc &use) const {
  const auto &u = d.shape->u;
  if (const auto *explicit_shape = std::get_if<std::list<fp::ExplicitShapeSpec>>(&u))
    return explicit_shape->size();
  if (const auto *assumed = std::get_if<std::list<fp::AssumedShapeSpec>>(&u))
    return assumed->size();
  if (const auto *deferred = std::get_if<fp::DeferredShapeSpecList>(&u))
    return static_cast<size_t>(deferred->v);
  // An assumed-size array's last upper bound is the region's reach into
  // it, which finish() sets once the loops are known (frontend/AssumedSize).
  if (auto assumed_size = assumed_size_dims(*d.shape)) {
    assumed_size_uses_.emplace(d.name, use);
    return assumed_size->leading->size() + 1;
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
  } else if (auto assumed_size = assumed_size_dims(*d.shape)) {
    // `v(5, ldx, 0:*)`: the declared bounds, and the last upper bound as a
    // bound argument's name until finish() puts the region's reach there.
    array_rank(d, d.loc);
    for (const fp::ExplicitShapeSpec &s : *assumed_size->leading) {
      const auto &lo = std::get<std::optional<fp::SpecificationExpr>>(s.t);
      const fp::Expr &hi = std::get<fp::SpecificationExpr>(s.t).v.thing.thing.value();
      integer(
          Dim{lo ? lower_expr(lo->v.thing.thing.value()) : IntImm::make(1, d.loc), lower_expr(hi)});
    }
    const auto &last = assumed_size->last->v;
    integer(Dim{last ? lower_expr(last->v.thing.thing.value()) : IntImm::make(1, d.loc),
                bound(static_cast<int>(dims.size()) + 1, true)});
  } else {
    for (int n = 1; n <= static_cast<int>(array_rank(d, d.loc)); ++n)
      integer(Dim{d.allocatable ? bound(n, false) : IntImm::make(1, d.loc), bound(n, true)});
  }
  in_dims_ = saved;
  return dims;
}

std::optional<AssumedSizeDims> assumed_size_dims(const fp::ArraySpec &spec) {
  static const std::list<fp::ExplicitShapeSpec> none;
  if (const auto *a = std::get_if<fp::AssumedSizeSpec>(&spec.u))
    return AssumedSizeDims{&std::get<std::list<fp::ExplicitShapeSpec>>(a->t),
                           &std::get<fp::AssumedImpliedSpec>(a->t)};
  if (const auto *i = std::get_if<fp::ImpliedShapeSpec>(&spec.u); i && i->v.size() == 1)
    return AssumedSizeDims{&none, &i->v.front()};
  return std::nullopt;
}

} // namespace f2s::fe::lowering
