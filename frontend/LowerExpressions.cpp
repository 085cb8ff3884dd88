// Lowering expressions: operators, literal constants, designators, and
// function references (array elements, statement functions inlined where
// they are referenced, intrinsics in LowerIntrinsics.cpp); and the refusal
// of derived-type components, which the library cannot take.
#include "frontend/RegionLowering.h"

#include <cerrno>
#include <cstdint>
#include <cstdlib>

namespace f2s::fe::lowering {

namespace {

/// The refusal of component `text`, an array element's or a scalar's.
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

} // namespace

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

} // namespace f2s::fe::lowering
