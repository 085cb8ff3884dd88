#include "frontend/OffsetLoops.h"

#include "flang/Parser/parse-tree-visitor.h"

#include <algorithm>
#include <climits>

namespace f2s::fe {
namespace {

const fp::LoopControl::Bounds *bounds_of(const fp::DoConstruct &d) {
  const auto &stmt = std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t);
  const auto &control = std::get<std::optional<fp::LoopControl>>(stmt.statement.t);
  return control ? std::get_if<fp::LoopControl::Bounds>(&control->u) : nullptr;
}

/// The value of an INTEGER constant expression, or none: literals, the names
/// the lowering gives values, + - * / (truncating, as Fortran divides), **
/// with an exponent that is not negative, and the intrinsics ABS, MIN, MAX
/// and MOD (diamonds: `do ii = -(rad - abs(jj)), rad - abs(jj)`); none where
/// a value leaves INTEGER(4).
std::optional<int64_t> constant_value(const fp::Expr &e, const OffsetLoopLowering &lowering) {
  using R = std::optional<int64_t>;
  auto in_range = [](int64_t v) -> R {
    return v >= INT32_MIN && v <= INT32_MAX ? R(v) : std::nullopt;
  };
  return std::visit(
      [&](const auto &x) -> R {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, fp::LiteralConstant>) {
          const auto *i = std::get_if<fp::IntLiteralConstant>(&x.u);
          if (!i || std::get<std::optional<fp::KindParam>>(i->t))
            return std::nullopt;
          std::string digits = std::get<fp::CharBlock>(i->t).ToString();
          return digits.size() > 10 ? std::nullopt
                                    : in_range(std::strtoll(digits.c_str(), nullptr, 10));
        } else if constexpr (std::is_same_v<T, fc::Indirection<fp::Designator>>) {
          const auto *ref = std::get_if<fp::DataRef>(&x.value().u);
          const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
          return name ? lowering.constant_name(text_of(name->source)) : std::nullopt;
        } else if constexpr (std::is_same_v<T, fc::Indirection<fp::FunctionReference>>) {
          const fp::Call &call = x.value().v;
          const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(call.t).u);
          std::string fn = name ? text_of(name->source) : "";
          if (fn.empty() || lowering.is_declared(fn))
            return std::nullopt;
          std::vector<int64_t> args;
          for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(call.t)) {
            const auto *e =
                std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(arg.t).u);
            R v = e && !std::get<std::optional<fp::Keyword>>(arg.t)
                      ? constant_value(e->value(), lowering)
                      : std::nullopt;
            if (!v)
              return std::nullopt;
            args.push_back(*v);
          }
          if (fn == "abs" && args.size() == 1)
            return in_range(args[0] < 0 ? -args[0] : args[0]);
          if ((fn == "min" || fn == "max") && args.size() >= 2)
            return fn == "min" ? *std::min_element(args.begin(), args.end())
                               : *std::max_element(args.begin(), args.end());
          // Fortran's MOD keeps the sign of the first argument, as C's %.
          if (fn == "mod" && args.size() == 2 && args[1] != 0)
            return args[0] % args[1];
          return std::nullopt;
        } else if constexpr (std::is_same_v<T, fp::Expr::Parentheses> ||
                             std::is_same_v<T, fp::Expr::UnaryPlus>) {
          return constant_value(x.v.value(), lowering);
        } else if constexpr (std::is_same_v<T, fp::Expr::Negate>) {
          R a = constant_value(x.v.value(), lowering);
          return a ? in_range(-*a) : std::nullopt;
        } else if constexpr (std::is_same_v<T, fp::Expr::Add> ||
                             std::is_same_v<T, fp::Expr::Subtract> ||
                             std::is_same_v<T, fp::Expr::Multiply> ||
                             std::is_same_v<T, fp::Expr::Divide> ||
                             std::is_same_v<T, fp::Expr::Power>) {
          R a = constant_value(std::get<0>(x.t).value(), lowering);
          R b = constant_value(std::get<1>(x.t).value(), lowering);
          if (!a || !b)
            return std::nullopt;
          if constexpr (std::is_same_v<T, fp::Expr::Add>)
            return in_range(*a + *b);
          else if constexpr (std::is_same_v<T, fp::Expr::Subtract>)
            return in_range(*a - *b);
          else if constexpr (std::is_same_v<T, fp::Expr::Multiply>)
            return in_range(*a * *b);
          else if constexpr (std::is_same_v<T, fp::Expr::Divide>)
            return *b == 0 ? std::nullopt : in_range(*a / *b);
          else {
            if (*b < 0)
              return std::nullopt;
            int64_t r = 1;
            for (int64_t n = 0; n < *b; ++n)
              if (!in_range(r *= *a))
                return std::nullopt;
            return r;
          }
        } else {
          return std::nullopt;
        }
      },
      e.u);
}

/// The names of whole variables in an expression.
struct Names {
  std::set<std::string> names;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::Name &n) {
    names.insert(text_of(n.source));
    return false;
  }
  // The name of an array or function is not a variable of its subscripts.
  bool Pre(const fp::FunctionReference &f) {
    for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(f.v.t))
      fp::Walk(arg, *this);
    return false;
  }
  bool Pre(const fp::ArrayElement &e) {
    fp::Walk(e.subscripts, *this);
    return false;
  }
};

/// The variables of the DO loops in a block, and the names their bounds read.
struct LoopVars {
  std::set<std::string> names;
  std::set<std::string> in_bounds;
  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::LoopControl::Bounds &b) {
    names.insert(text_of(b.name.thing.source));
    Names n;
    fp::Walk(b.lower, n);
    fp::Walk(b.upper, n);
    if (b.step)
      fp::Walk(*b.step, n);
    in_bounds.insert(n.names.begin(), n.names.end());
    return true;
  }
  /// Whether the bounds of the loops read only constants and the variables
  /// of these loops and `var`'s: what unrolling them needs.
  bool constant_inside(const std::string &var, const OffsetLoopLowering &lowering) const {
    for (const std::string &n : in_bounds)
      if (n != var && !names.count(n) && !lowering.constant_name(n))
        return false;
    return true;
  }
};

/// Calls `f` on each subscript of an element of a declared array: `a(i, j)`
/// parses as a function reference, whose arguments are subscripts only when
/// `a` is declared (the arguments of an intrinsic, `mod(a(i, j), 3.0)`, are
/// none), or as an ArrayElement.
template <typename F>
void element_subscripts(const fp::FunctionReference &r, const OffsetLoopLowering &lowering, F f) {
  const auto *name = std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(r.v.t).u);
  if (!name || !lowering.is_declared(text_of(name->source)))
    return;
  for (const fp::ActualArgSpec &arg : std::get<std::list<fp::ActualArgSpec>>(r.v.t))
    if (const auto *e = std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(arg.t).u))
      f(e->value());
}

template <typename F> void element_subscripts(const fp::ArrayElement &a, F f) {
  for (const fp::SectionSubscript &s : a.subscripts)
    if (const auto *i = std::get_if<fp::IntExpr>(&s.u))
      f(i->thing.value());
}

/// Whether an expression reads an array element or calls a function.
struct References {
  bool found = false;
  template <typename T> bool Pre(const T &) { return !found; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::FunctionReference &) { return !(found = true); }
  bool Pre(const fp::ArrayElement &) { return !(found = true); }
};

/// How the variable `var` of a DO loop is used in the subscripts of its body.
struct SubscriptUse {
  const std::string &var;
  const OffsetLoopLowering &lowering;
  /// The variables of the loops inside the loop over `var`.
  std::set<std::string> inner;
  /// `var` added to a variable of the loops around in one subscript:
  /// `in(i+ii, j)`.
  bool beside_variable = false;
  /// The same, with a variable of the nest's loops found so far.
  bool beside_nest_var = false;
  /// An array assignment none of whose subscripts reads `var`.
  bool store_without = false;
  /// An assignment to a local array whose subscripts read nothing but
  /// `var`, the variables of the loops inside and named constants (`tv(m) =
  /// ...`, `tmat(m, n) = ...`): unrolled, it writes one element whatever the
  /// point.
  bool store_in_point = false;

  /// The name of the array an assignment's left side stores.
  static std::string stored_array(const fp::Variable &lhs) {
    if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&lhs.u)) {
      const auto *name =
          std::get_if<fp::Name>(&std::get<fp::ProcedureDesignator>(f->value().v.t).u);
      return name ? text_of(name->source) : "";
    }
    const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&lhs.u);
    const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
    const auto *e = ref ? std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u) : nullptr;
    const auto *name = e ? std::get_if<fp::Name>(&e->value().base.u) : nullptr;
    return name ? text_of(name->source) : "";
  }

  template <typename T> bool Pre(const T &) { return true; }
  template <typename T> void Post(const T &) {}

  void subscript(const fp::Expr &e) {
    Names n;
    fp::Walk(e, n);
    if (!n.names.count(var))
      return;
    // The argument of a statement function (`div(cx(i, j), ...)`) reads
    // elements; it is no subscript that adds two variables.
    References refs;
    fp::Walk(e, refs);
    for (const std::string &other : n.names)
      if (other != var && !inner.count(other) && !lowering.constant_name(other)) {
        beside_variable = true;
        beside_nest_var = beside_nest_var || (!refs.found && lowering.is_nest_var(other));
      }
  }
  bool Pre(const fp::FunctionReference &f) {
    element_subscripts(f, lowering, [&](const fp::Expr &e) { subscript(e); });
    return true;
  }
  bool Pre(const fp::ArrayElement &a) {
    element_subscripts(a, [&](const fp::Expr &e) { subscript(e); });
    return true;
  }
  bool Pre(const fp::AssignmentStmt &a) {
    // `u(i,j) = ...` is a function reference to the parser; a scalar's
    // assignment is a Name.
    const fp::Variable &lhs = std::get<fp::Variable>(a.t);
    bool element = std::holds_alternative<fc::Indirection<fp::FunctionReference>>(lhs.u);
    if (const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&lhs.u))
      if (const auto *ref = std::get_if<fp::DataRef>(&d->value().u))
        element = std::holds_alternative<fc::Indirection<fp::ArrayElement>>(ref->u);
    if (element) {
      Names n;
      fp::Walk(lhs, n);
      store_without = store_without || !n.names.count(var);
      store_in_point =
          store_in_point || (lowering.is_local_array(stored_array(lhs)) &&
                             std::all_of(n.names.begin(), n.names.end(), [&](const std::string &x) {
                               return x == var || inner.count(x) || lowering.constant_name(x);
                             }));
    }
    return true;
  }
};

/// Whether `c` is CONTINUE or assigns a scalar: what may share a block with
/// the next loop of a nest (before it, for an assignment).
bool is_continue(const fp::ExecutionPartConstruct &c) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
  return action && std::holds_alternative<fp::ContinueStmt>(action->statement.u);
}

bool assigns_scalar(const fp::ExecutionPartConstruct &c) {
  const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
  const auto *action = exec ? std::get_if<fp::Statement<fp::ActionStmt>>(&exec->u) : nullptr;
  const auto *a =
      action ? std::get_if<fc::Indirection<fp::AssignmentStmt>>(&action->statement.u) : nullptr;
  const auto *d =
      a ? std::get_if<fc::Indirection<fp::Designator>>(&std::get<fp::Variable>(a->value().t).u)
        : nullptr;
  const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
  return ref && std::holds_alternative<fp::Name>(ref->u);
}

/// Whether `body` holds, besides `d`, statements that a perfect nest cannot:
/// anything after `d`, or before it anything but scalar assignments.
bool shares_block(const fp::DoConstruct &d, const fp::Block &body) {
  bool before = true;
  for (const fp::ExecutionPartConstruct &c : body) {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
    const auto *loop = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
    if (loop && &loop->value() == &d)
      before = false;
    else if (!is_continue(c) && !(before && assigns_scalar(c)))
      return true;
  }
  return false;
}

/// Finds an assignment to `b(var)`: a rank-1 array at the variable alone.
struct BufferStore {
  const std::string &var;
  bool found = false;
  template <typename T> bool Pre(const T &) { return !found; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::AssignmentStmt &a) {
    const fp::Variable &lhs = std::get<fp::Variable>(a.t);
    // `u1(i1) = ...` is a function reference to the parser.
    if (const auto *f = std::get_if<fc::Indirection<fp::FunctionReference>>(&lhs.u)) {
      const auto &args = std::get<std::list<fp::ActualArgSpec>>(f->value().v.t);
      if (args.size() == 1)
        if (const auto *e =
                std::get_if<fc::Indirection<fp::Expr>>(&std::get<fp::ActualArg>(args.front().t).u))
          found = found || text_of(e->value().source) == var;
    } else if (const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&lhs.u)) {
      const auto *ref = std::get_if<fp::DataRef>(&d->value().u);
      const auto *el = ref ? std::get_if<fc::Indirection<fp::ArrayElement>>(&ref->u) : nullptr;
      if (el && el->value().subscripts.size() == 1)
        if (const auto *i = std::get_if<fp::IntExpr>(&el->value().subscripts.front().u))
          found = found || text_of(i->thing.value().source) == var;
    }
    return false;
  }
};

/// The trip count of `d` when its bounds and step are INTEGER constants.
std::optional<int64_t> constant_trips(const fp::DoConstruct &d,
                                      const OffsetLoopLowering &lowering) {
  const fp::LoopControl::Bounds *b = bounds_of(d);
  if (!b)
    return std::nullopt;
  auto lo = constant_value(b->lower.thing.value(), lowering);
  auto hi = constant_value(b->upper.thing.value(), lowering);
  auto step =
      b->step ? constant_value(b->step->thing.value(), lowering) : std::optional<int64_t>(1);
  if (!lo || !hi || !step || *step == 0)
    return std::nullopt;
  return std::max<int64_t>((*hi - *lo + *step) / *step, 0);
}

/// Whether `var` is the whole of every subscript it appears in: `tv(m)`,
/// `a(m, n, i, j)`, but not `u1(i1 - 1)` or `u(i1 + 1, j)`, which reach a
/// neighbouring element along `var` as a stencil does.
struct WholeSubscripts {
  const std::string &var;
  const OffsetLoopLowering &lowering;
  bool whole = true;

  template <typename T> bool Pre(const T &) { return whole; }
  template <typename T> void Post(const T &) {}

  void subscript(const fp::Expr &e) {
    Names n;
    fp::Walk(e, n);
    const auto *d = std::get_if<fc::Indirection<fp::Designator>>(&e.u);
    const auto *ref = d ? std::get_if<fp::DataRef>(&d->value().u) : nullptr;
    const auto *name = ref ? std::get_if<fp::Name>(&ref->u) : nullptr;
    if (n.names.count(var) && !(name && text_of(name->source) == var))
      whole = false;
  }
  bool Pre(const fp::FunctionReference &f) {
    element_subscripts(f, lowering, [&](const fp::Expr &e) { subscript(e); });
    return whole;
  }
  bool Pre(const fp::ArrayElement &a) {
    element_subscripts(a, [&](const fp::Expr &e) { subscript(e); });
    return whole;
  }
};

/// The DO loops over `var` directly in `body`.
std::vector<const fp::DoConstruct *> loops_over(const fp::Block &body, const std::string &var) {
  std::vector<const fp::DoConstruct *> out;
  for (const fp::ExecutionPartConstruct &c : body) {
    const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
    const auto *loop = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
    const fp::LoopControl::Bounds *b = loop ? bounds_of(loop->value()) : nullptr;
    if (b && text_of(b->name.thing.source) == var)
      out.push_back(&loop->value());
  }
  return out;
}

/// Whether `d`, a DO loop in `body`, fills a work array of the point, as
/// block-tridiagonal and ADI codes fill small local arrays per point:
///
///   do m = 1, 5
///     tv(m) = rhs(m,i,j) + 0.25d0*(uold(m,i-1,j) + uold(m,i,j-1))
///   end do
///
/// Its bounds are constants (at most kMaxWorkArrayTrips trips), it assigns
/// an element of a local array whose subscripts read no variable of the
/// loops around (so every point writes the same elements: a work array of
/// the point), and no loop over its variable in `body` reaches a
/// neighbouring element along it. That last fact tells such a loop from the first loop
/// of a line buffer over a grid sized by PARAMETERs (`u1(i1) = ...`, read at
/// `u1(i1 - 1)` beside it), whose variable is a dimension of the grid.
bool fills_work_array(const fp::DoConstruct &d, const fp::Block &body,
                      const OffsetLoopLowering &lowering) {
  const fp::LoopControl::Bounds *b = bounds_of(d);
  std::optional<int64_t> trips = constant_trips(d, lowering);
  if (!b || !trips || *trips > kMaxWorkArrayTrips)
    return false;
  std::string var = text_of(b->name.thing.source);
  LoopVars inner;
  fp::Walk(std::get<fp::Block>(d.t), inner);
  if (!inner.constant_inside(var, lowering))
    return false;
  SubscriptUse use{var, lowering, inner.names};
  fp::Walk(std::get<fp::Block>(d.t), use);
  if (!use.store_in_point)
    return false;
  for (const fp::DoConstruct *sibling : loops_over(body, var)) {
    WholeSubscripts whole{var, lowering};
    fp::Walk(std::get<fp::Block>(sibling->t), whole);
    if (!whole.whole)
      return false;
  }
  return true;
}

/// Whether `body` holds a DO loop over `var` that fills a line buffer: an
/// assignment to `b(var)`, a rank-1 array at the loop variable alone
/// (`u1(i1) = u(i1,i2-1,i3) + ...`), in a loop that fills no work array of
/// the point. Its siblings over `var` then are the innermost loops of the
/// nest side by side (canonicalize/ForwardLineBuffers makes one loop of
/// them), not loops over offsets inside the point, even when their bounds
/// are named constants (`do i1 = 1, nx` with PARAMETER nx, as FORTRAN 77
/// codes size their grids).
bool fills_line_buffer(const fp::Block &body, const std::string &var,
                       const OffsetLoopLowering &lowering) {
  for (const fp::DoConstruct *loop : loops_over(body, var)) {
    BufferStore store{var};
    fp::Walk(std::get<fp::Block>(loop->t), store);
    if (store.found && !fills_work_array(*loop, body, lowering))
      return true;
  }
  return false;
}

/// Finds a DO loop that fills a line buffer (see fills_line_buffer), at any
/// depth: then the loops around it are loops of the nest, whose stores to
/// the buffer do not subscript with their variables. Each block is searched
/// with its loops side by side, which tell a buffer from a work array.
struct BufferFills {
  const OffsetLoopLowering &lowering;
  bool found = false;
  void block(const fp::Block &b) {
    for (const fp::ExecutionPartConstruct &c : b) {
      const auto *exec = std::get_if<fp::ExecutableConstruct>(&c.u);
      const auto *loop = exec ? std::get_if<fc::Indirection<fp::DoConstruct>>(&exec->u) : nullptr;
      const fp::LoopControl::Bounds *bounds = loop ? bounds_of(loop->value()) : nullptr;
      found =
          found || (bounds && fills_line_buffer(b, text_of(bounds->name.thing.source), lowering));
    }
  }
  template <typename T> bool Pre(const T &) { return !found; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::DoConstruct &d) {
    block(std::get<fp::Block>(d.t));
    return !found;
  }
  bool Pre(const fp::IfConstruct &i) {
    block(std::get<fp::Block>(i.t));
    for (const fp::IfConstruct::ElseIfBlock &e :
         std::get<std::list<fp::IfConstruct::ElseIfBlock>>(i.t))
      block(std::get<fp::Block>(e.t));
    if (const auto &e = std::get<std::optional<fp::IfConstruct::ElseBlock>>(i.t))
      block(std::get<fp::Block>(e->t));
    return !found;
  }
  bool Pre(const fp::CaseConstruct::Case &c) {
    block(std::get<fp::Block>(c.t));
    return !found;
  }
};

bool fills_line_buffer_inside(const fp::Block &block, const OffsetLoopLowering &lowering) {
  BufferFills fills{lowering};
  fills.block(block);
  if (!fills.found)
    fp::Walk(block, fills);
  return fills.found;
}

/// Whether a loop reads or assigns a local array (a column's work array, a
/// line buffer).
struct UsesLocalArray {
  const OffsetLoopLowering &lowering;
  bool found = false;
  template <typename T> bool Pre(const T &) { return !found; }
  template <typename T> void Post(const T &) {}
  bool Pre(const fp::Name &n) {
    found |= lowering.is_local_array(text_of(n.source));
    return false;
  }
};

bool uses_local_array(const fp::DoConstruct &d, const OffsetLoopLowering &lowering) {
  UsesLocalArray uses{lowering};
  fp::Walk(std::get<fp::Block>(d.t), uses);
  return uses.found;
}

} // namespace

bool has_constant_bounds(const fp::DoConstruct &d, const OffsetLoopLowering &lowering) {
  const fp::LoopControl::Bounds *b = bounds_of(d);
  return b && constant_value(b->lower.thing.value(), lowering) &&
         constant_value(b->upper.thing.value(), lowering) &&
         (!b->step || constant_value(b->step->thing.value(), lowering));
}

bool is_offset_loop(const fp::DoConstruct &d, const fp::Block &body,
                    const OffsetLoopLowering &lowering) {
  const fp::LoopControl::Bounds *b = bounds_of(d);
  if (!b)
    return false;
  // Bounds that differ from point to point (`do k = 1, kmt(i, j)`, `do k =
  // 1, nk` after `nk = ...`): the point's loop, whatever it subscripts; but
  // for the loops of a column that fill and read its work arrays, whose
  // bounds the column form refuses with the rewrite.
  if ((lowering.reads_point_values(b->lower.thing.value()) ||
       lowering.reads_point_values(b->upper.thing.value())) &&
      !uses_local_array(d, lowering))
    return true;
  std::string var = text_of(b->name.thing.source);
  LoopVars inner;
  fp::Walk(std::get<fp::Block>(d.t), inner);
  SubscriptUse use{var, lowering, inner.names};
  fp::Walk(std::get<fp::Block>(d.t), use);
  // An array assignment without the loop's variable, and the variable beside
  // another one in a subscript: no loop of a nest, whatever its bounds; the
  // unrolling refuses bounds that are not constants, with the fix.
  if (use.store_without && use.beside_variable)
    return true;
  // Beside a variable of the nest's loops, whatever its bounds: a window
  // whose radius is an argument (`do jj = -r, r` around `u(i + jj, j)`) is a
  // loop inside the point, kept as a loop; a constant loop around one (`do
  // jj = -1, 1` around `do ii = -r, r`) is unrolled, the window in each copy.
  if (use.beside_nest_var)
    return true;
  if (fills_work_array(d, body, lowering))
    return true;
  if (!use.beside_variable && (fills_line_buffer(body, var, lowering) ||
                               fills_line_buffer_inside(std::get<fp::Block>(d.t), lowering)))
    return false;
  // A loop over the grid inside makes it an outer loop of a nest.
  return has_constant_bounds(d, lowering) && inner.constant_inside(var, lowering) &&
         (use.beside_variable || use.store_without || shares_block(d, body));
}

Stmt unroll_offset_loop(const fp::DoConstruct &d, OffsetLoopLowering &lowering) {
  const auto &stmt = std::get<fp::Statement<fp::NonLabelDoStmt>>(d.t);
  SourceLoc loc = lowering.position(stmt.source);
  const fp::LoopControl::Bounds *b = bounds_of(d);
  if (!b)
    throw UserError(loc,
                    std::string("A DO loop without a loop variable (DO WHILE, DO CONCURRENT, ") +
                        "DO alone) cannot be inside the point of a " + kRegion +
                        ", where loops are unrolled");
  std::string var = text_of(b->name.thing.source);
  lowering.check_offset_var(var, lowering.position(b->name.thing.source));
  // Bounds known only at run time: the loop stays a loop of the point.
  if (!has_constant_bounds(d, lowering))
    return lowering.lower_inner_loop(d);
  auto constant = [&](const fp::Expr &e, const char *what) {
    auto v = constant_value(e, lowering);
    if (!v)
      throw UserError(lowering.position(e.source),
                      std::string("The ") + what + " '" + text_of(e.source) +
                          "' of the DO loop over '" + var + "' must be an INTEGER constant, as " +
                          "f2stencil unrolls the loops inside the point of a " + kRegion +
                          lowering.fix_for_constant(e));
    return *v;
  };
  int64_t lo = constant(b->lower.thing.value(), "lower bound");
  int64_t hi = constant(b->upper.thing.value(), "upper bound");
  int64_t step = b->step ? constant(b->step->thing.value(), "step") : 1;
  if (step == 0)
    throw UserError(lowering.position(b->step->thing.value().source),
                    "The step of the DO loop over '" + var + "' must not be zero");
  // Fortran's trip count.
  int64_t trips = std::max<int64_t>((hi - lo + step) / step, 0);
  int64_t around = lowering.copies;
  if (around * trips > kMaxOffsetCopies)
    throw UserError(loc, "The DO loop over '" + var + "' inside the point would make " +
                             std::to_string(around * trips) +
                             " copies of its body with the loops around it, more than the " +
                             std::to_string(kMaxOffsetCopies) + " that f2stencil unrolls");
  std::vector<Stmt> stmts;
  lowering.copies = around * trips;
  try {
    for (int64_t t = 0; t < trips; ++t) {
      Stmt copy = lowering.lower_copy(std::get<fp::Block>(d.t), var, lo + t * step, loc);
      const auto &copied = as<Block>(copy)->stmts;
      stmts.insert(stmts.end(), copied.begin(), copied.end());
    }
  } catch (...) {
    lowering.copies = around;
    throw;
  }
  lowering.copies = around;
  lowering.end_offset_loop(var, lo + trips * step);
  return Block::make(std::move(stmts), loc);
}

} // namespace f2s::fe
