// Lowering an array assignment, a copy (`u = unew`, or of sections) or a
// broadcast (`u = 0`), to a kernel of its own: a nest over the left side's
// elements. Such an assignment is annotated, or between the regions of a
// procedure (frontend/Frontend), or in the body of a time loop
// (frontend/LowerTimeLoop).
#include "ast/IRPrinter.h"
#include "frontend/RegionLowering.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <cstdlib>

namespace f2s::fe::lowering {

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

} // namespace

Kernel RegionLowering::lower_array_copy(const fp::AssignmentStmt &a, const SourceLoc &loc,
                                        const std::string &name) {
  copying_ = true;
  // One side: an array, whole or as a section of triplets without strides.
  struct Side {
    const Decl *decl = nullptr;
    std::vector<Dim> bounds; ///< per dimension, the section's (the declared where omitted)
    /// per dimension, the subscript where the section takes one element (`u(0, :)`)
    std::vector<const fp::Expr *> single;
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
    out.single.assign(declared.size(), nullptr);
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
        out.single[dim] = &e;
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
  // The kernel: a nest over the left side's section, every loop free; no
  // loop for the dimensions `vars` leaves empty (planes).
  auto nest = [&](const Side &dst, const std::vector<std::string> &vars, Stmt body) {
    size_t depth = 0;
    for (size_t d = 0; d < dst.bounds.size(); ++d) {
      if (vars[d].empty())
        continue;
      body = For::make(vars[d], dst.bounds[d].lo, dst.bounds[d].hi, IntImm::make(1, loc),
                       LoopExec::Serial, body, loc);
      ++depth;
    }
    Kernel k;
    k.name = name;
    k.procedure = std::find_if(scopes_.rbegin(), scopes_.rend(), [](const Scope &s) {
                    return s.is_procedure;
                  })->name;
    k.loc = loc;
    k.body = body;
    finish(k, depth);
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
  // A face copy within one array, `u(1, :, :) = u(n1-1, :, :)`: where both
  // sides take one element of a dimension, that dimension is a plane (at a
  // run-time position where the subscript is a scalar argument plus a
  // constant), not a loop, so each point copies its own element and, as for
  // the same copy written as a DO nest, ast/Planes decides whether the points
  // may run at once. Not in a time loop's sweeps, which take no planes.
  auto plane_at = [&](const fp::Expr &e) -> std::optional<Index> {
    std::optional<Affine> a;
    symbolic_ = true;
    try {
      a = affine(e);
    } catch (...) {
      symbolic_ = false;
      throw;
    }
    symbolic_ = false;
    if (!a || a->coeff != 0 || (a->sym_coeff != 0 && a->sym_coeff != 1))
      return std::nullopt;
    if (a->sym_coeff != 0)
      use_free(*lookup(a->sym), at(e.source));
    return Index{"", 1, a->offset, a->sym_coeff != 0 ? a->sym : ""};
  };
  std::vector<std::optional<Index>> dst_plane(dst.bounds.size()), src_plane(dst.bounds.size());
  if (src.decl == dst.decl && !directive_.sweep_of_time_loop)
    for (size_t d = 0; d < dst.bounds.size(); ++d)
      if (dst.single[d] && src.single[d]) {
        dst_plane[d] = plane_at(*dst.single[d]);
        src_plane[d] = plane_at(*src.single[d]);
        if (!dst_plane[d] || !src_plane[d])
          dst_plane[d] = src_plane[d] = std::nullopt;
      }
  std::vector<Index> di, si;
  std::vector<std::string> vars;
  // Where the first elements are apart by an expression (allocatable or
  // assumed-shape arrays, whose bounds are arguments), the right side is
  // declared to the copy shifted by it, so that both read at one index.
  std::vector<Expr> shift(dst.bounds.size());
  std::optional<ArrayAssignment> moved;
  for (size_t d = 0; d < dst.bounds.size(); ++d) {
    if (dst_plane[d]) {
      vars.emplace_back();
      di.push_back(*dst_plane[d]);
      si.push_back(*src_plane[d]);
      continue;
    }
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
    // one array between elements apart is a loop only where no element one
    // point writes is read by another, which ast/LoopDependences decides. A
    // shift by an expression is no subscript offset the IR holds: the copy
    // records that its shift is unknown.
    if (src.decl == dst.decl && (!lo || *lo != 0)) {
      if (!moved)
        moved = ArrayAssignment{dst.text + " = " + src.text, loc, true};
      if (!lo) {
        moved->constant_shift = false;
        lo = 0;
      }
      // Element c of the left side is element c + lo of the right.
      hi = lo;
    }
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
  k.array_assignment = moved;
  for (Variable &v : k.args)
    if (v.name == src.decl->name && src.decl != dst.decl)
      for (size_t d = 0; d < shift.size(); ++d)
        if (shift[d])
          v.dims[d] = Dim{Binary::make(BinaryOp::Sub, v.dims[d].lo, shift[d], loc),
                          Binary::make(BinaryOp::Sub, v.dims[d].hi, shift[d], loc)};
  return k;
}

} // namespace f2s::fe::lowering
