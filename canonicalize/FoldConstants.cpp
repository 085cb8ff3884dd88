#include "canonicalize/FoldConstants.h"

#include "ast/IRVisitor.h"

#include <mpfr.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <optional>
#include <vector>

namespace f2s {

namespace {

/// A folded value: an INTEGER, or a REAL held as the double that is exactly
/// its value (a REAL(4) value is exact in a double too).
struct Constant {
  Type type;
  int64_t i = 0;
  double f = 0;
};

std::optional<Constant> constant_of(const Expr &e) {
  if (const auto *i = as<IntImm>(e); i && e->type == Type::Int32)
    return Constant{Type::Int32, i->value, 0};
  if (const auto *f = as<FloatImm>(e))
    return Constant{e->type, 0, f->value};
  return std::nullopt;
}

Expr make_constant(const Constant &c, const SourceLoc &loc) {
  return c.type == Type::Int32 ? IntImm::make(c.i, loc) : FloatImm::make(c.f, c.type, loc);
}

std::optional<Constant> integer(int64_t v) {
  if (v < INT32_MIN || v > INT32_MAX)
    return std::nullopt;
  return Constant{Type::Int32, v, 0};
}

/// An MPFR number with the precision of a REAL kind: 24 bits for REAL(4), 53
/// for REAL(8), as gfortran sets its model for the kind.
class Real {
public:
  explicit Real(Type t) { mpfr_init2(v_, t == Type::Float32 ? 24 : 53); }
  /// `c` converted to the kind, rounded to nearest (an INTEGER may round;
  /// a REAL(4) widening to REAL(8) is exact).
  Real(Type t, const Constant &c) : Real(t) {
    if (c.type == Type::Int32)
      mpfr_set_si(v_, static_cast<long>(c.i), MPFR_RNDN);
    else
      mpfr_set_d(v_, c.f, MPFR_RNDN);
  }
  ~Real() { mpfr_clear(v_); }
  Real(const Real &) = delete;
  Real &operator=(const Real &) = delete;
  mpfr_ptr get() { return v_; }

  /// The value as a constant of kind `t`, or nothing when it is not zero or
  /// a finite normal number of the kind (MPFR's exponent range is wider than
  /// IEEE's, so subnormal and overflowing results are refused here rather
  /// than rounded as the hardware would).
  std::optional<Constant> value(Type t) const {
    double d = mpfr_get_d(v_, MPFR_RNDN);
    double smallest = t == Type::Float32 ? FLT_MIN : DBL_MIN;
    double largest = t == Type::Float32 ? FLT_MAX : DBL_MAX;
    if (std::isnan(d) || (d != 0 && !(std::fabs(d) >= smallest && std::fabs(d) <= largest)))
      return std::nullopt;
    return Constant{t, 0, d};
  }

private:
  mpfr_t v_;
};

/// b**n for INTEGER b and n, as Fortran defines it (1/b**|n| in integer
/// division for n < 0).
std::optional<Constant> integer_power(int64_t b, int64_t n) {
  if (n < 0) {
    if (b == 0)
      return std::nullopt;
    return integer(b == 1 ? 1 : b == -1 ? (n % 2 ? -1 : 1) : 0);
  }
  int64_t r = 1;
  for (int64_t k = 0; k < n; ++k) {
    r *= b;
    if (r > INT32_MAX || r < INT32_MIN)
      return std::nullopt;
  }
  return integer(r);
}

std::optional<Constant> fold_binary(BinaryOp op, Type t, const Constant &x, const Constant &y) {
  if (op == BinaryOp::Pow && y.type != Type::Int32) {
    // A REAL exponent: both operands in the result's kind, then MPFR's
    // correctly rounded power, as gfortran folds it (NaN for a negative base
    // and infinity for zero to a negative power are not folded).
    Real r(t), base(t, x), exponent(t, y);
    mpfr_pow(r.get(), base.get(), exponent.get(), MPFR_RNDN);
    return r.value(t);
  }
  if (op == BinaryOp::Pow) {
    if (t == Type::Int32)
      return integer_power(x.i, y.i);
    // MPFR's mpfr_pow_si is the exact power rounded once, as gfortran folds
    // a REAL to an INTEGER power (mpfr_pow_z).
    Real r(t), base(t, x);
    mpfr_pow_si(r.get(), base.get(), static_cast<long>(y.i), MPFR_RNDN);
    return r.value(t);
  }
  if (t == Type::Int32) {
    switch (op) {
    case BinaryOp::Add:
      return integer(x.i + y.i);
    case BinaryOp::Sub:
      return integer(x.i - y.i);
    case BinaryOp::Mul:
      return integer(x.i * y.i);
    case BinaryOp::Div: // truncated toward zero, in C++ as in Fortran
      return y.i == 0 ? std::nullopt : integer(x.i / y.i);
    default:
      return std::nullopt;
    }
  }
  Real r(t), a(t, x), b(t, y);
  switch (op) {
  case BinaryOp::Add:
    mpfr_add(r.get(), a.get(), b.get(), MPFR_RNDN);
    break;
  case BinaryOp::Sub:
    mpfr_sub(r.get(), a.get(), b.get(), MPFR_RNDN);
    break;
  case BinaryOp::Mul:
    mpfr_mul(r.get(), a.get(), b.get(), MPFR_RNDN);
    break;
  case BinaryOp::Div:
    if (mpfr_zero_p(b.get()))
      return std::nullopt;
    mpfr_div(r.get(), a.get(), b.get(), MPFR_RNDN);
    break;
  default:
    return std::nullopt;
  }
  return r.value(t);
}

/// The conversions, and AINT and ANINT: exact operations on the value.
std::optional<Constant> fold_conversion(Intrinsic fn, Type t, const Constant &x) {
  double f = x.type == Type::Int32 ? static_cast<double>(x.i) : x.f;
  auto to_integer = [&](double v) -> std::optional<Constant> {
    return std::fabs(v) < 2147483648.0 ? integer(static_cast<int64_t>(v)) : std::nullopt;
  };
  switch (fn) {
  case Intrinsic::Real: {
    Real r(t, x);
    return r.value(t);
  }
  case Intrinsic::Int:
    return x.type == Type::Int32 ? std::optional<Constant>(x) : to_integer(std::trunc(f));
  case Intrinsic::Nint:
    return to_integer(std::round(f)); // half away from zero
  case Intrinsic::Floor:
    return to_integer(std::floor(f));
  case Intrinsic::Ceiling:
    return to_integer(std::ceil(f));
  case Intrinsic::Aint:
    return x.type == Type::Int32 ? std::nullopt : std::optional<Constant>({t, 0, std::trunc(f)});
  case Intrinsic::Anint:
    return x.type == Type::Int32 ? std::nullopt : std::optional<Constant>({t, 0, std::round(f)});
  default:
    return std::nullopt;
  }
}

std::optional<Constant> fold_call(Intrinsic fn, Type t, const std::vector<Constant> &args) {
  if (is_conversion(fn) || fn == Intrinsic::Aint || fn == Intrinsic::Anint)
    return args.size() == 1 ? fold_conversion(fn, t, args[0]) : std::nullopt;
  if (t == Type::Int32) {
    int64_t a = args[0].i;
    switch (fn) {
    case Intrinsic::Abs:
      return integer(a < 0 ? -a : a);
    case Intrinsic::Min:
    case Intrinsic::Max: {
      for (const Constant &c : args)
        a = fn == Intrinsic::Min ? std::min(a, c.i) : std::max(a, c.i);
      return integer(a);
    }
    case Intrinsic::Sign:
      return args.size() == 2 ? integer(args[1].i >= 0 ? (a < 0 ? -a : a) : (a < 0 ? a : -a))
                              : std::nullopt;
    case Intrinsic::Mod: // the remainder truncated toward zero, as C++'s %
      return args.size() == 2 && args[1].i != 0 ? integer(a % args[1].i) : std::nullopt;
    default:
      return std::nullopt;
    }
  }
  Real r(t), a(t, args[0]);
  switch (fn) {
  case Intrinsic::Sqrt:
    mpfr_sqrt(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Exp:
    mpfr_exp(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Log:
    if (mpfr_sgn(a.get()) <= 0)
      return std::nullopt;
    mpfr_log(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Sin:
    mpfr_sin(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Cos:
    mpfr_cos(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Abs:
    mpfr_abs(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Min:
  case Intrinsic::Max: {
    mpfr_set(r.get(), a.get(), MPFR_RNDN);
    for (size_t k = 1; k < args.size(); ++k) {
      Real b(t, args[k]);
      // Which zero MIN(0.0, -0.0) gives is the processor's choice: leave
      // it to the run time, as the original does not fold it differently.
      if (mpfr_zero_p(b.get()) && mpfr_zero_p(r.get()))
        return std::nullopt;
      if (fn == Intrinsic::Min)
        mpfr_min(r.get(), r.get(), b.get(), MPFR_RNDN);
      else
        mpfr_max(r.get(), r.get(), b.get(), MPFR_RNDN);
    }
    break;
  }
  case Intrinsic::Sign: {
    if (args.size() != 2)
      return std::nullopt;
    Real b(t, args[1]);
    // SIGN(a, -0.0) depends on -fno-sign-zero: not folded.
    if (mpfr_zero_p(b.get()))
      return std::nullopt;
    mpfr_abs(r.get(), a.get(), MPFR_RNDN);
    if (mpfr_sgn(b.get()) < 0)
      mpfr_neg(r.get(), r.get(), MPFR_RNDN);
    break;
  }
  case Intrinsic::Mod: {
    if (args.size() != 2)
      return std::nullopt;
    Real b(t, args[1]);
    if (mpfr_zero_p(b.get()))
      return std::nullopt;
    mpfr_fmod(r.get(), a.get(), b.get(), MPFR_RNDN); // exact, truncated quotient
    break;
  }
  case Intrinsic::Tan:
    mpfr_tan(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Asin:
    mpfr_asin(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Acos:
    mpfr_acos(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Atan:
    mpfr_atan(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Atan2: {
    if (args.size() != 2)
      return std::nullopt;
    Real x(t, args[1]);
    if (mpfr_zero_p(a.get()) && mpfr_zero_p(x.get()))
      return std::nullopt; // gfortran refuses ATAN2(0, 0)
    mpfr_atan2(r.get(), a.get(), x.get(), MPFR_RNDN);
    break;
  }
  case Intrinsic::Sinh:
    mpfr_sinh(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Cosh:
    mpfr_cosh(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Tanh:
    mpfr_tanh(r.get(), a.get(), MPFR_RNDN);
    break;
  case Intrinsic::Log10:
    if (mpfr_sgn(a.get()) <= 0)
      return std::nullopt;
    mpfr_log10(r.get(), a.get(), MPFR_RNDN);
    break;
  default:
    return std::nullopt;
  }
  return r.value(t);
}

} // namespace

Expr fold_constants(const Expr &e) {
  if (const auto *u = as<Unary>(e)) {
    Expr a = fold_constants(u->a);
    if (auto c = constant_of(a); c && u->op == UnaryOp::Neg) {
      if (c->type == Type::Int32) {
        if (auto v = integer(-c->i))
          return make_constant(*v, e->loc);
      } else {
        return FloatImm::make(-c->f, c->type, e->loc);
      }
    }
    return a == u->a ? e : std::make_shared<Unary>(u->op, a, e->loc);
  }
  if (const auto *b = as<Binary>(e)) {
    Expr x = fold_constants(b->a), y = fold_constants(b->b);
    if (!is_comparison(b->op) && !is_logical(b->op) &&
        (e->type == Type::Int32 || is_float(e->type)))
      if (auto cx = constant_of(x), cy = constant_of(y); cx && cy)
        if (auto v = fold_binary(b->op, e->type, *cx, *cy))
          return make_constant(*v, e->loc);
    return x == b->a && y == b->b ? e : std::make_shared<Binary>(b->op, x, y, e->type, e->loc);
  }
  if (const auto *c = as<Call>(e)) {
    std::vector<Expr> args;
    std::vector<Constant> values;
    bool changed = false;
    for (const Expr &a : c->args) {
      args.push_back(fold_constants(a));
      changed = changed || args.back() != a;
      if (auto v = constant_of(args.back()))
        values.push_back(*v);
    }
    if (values.size() == args.size() && (e->type == Type::Int32 || is_float(e->type)))
      if (auto v = fold_call(c->fn, e->type, values))
        return make_constant(*v, e->loc);
    return changed ? std::make_shared<Call>(c->fn, std::move(args), e->type, e->loc) : e;
  }
  if (const auto *s = as<Select>(e)) {
    Expr cond = fold_constants(s->cond), a = fold_constants(s->a), b = fold_constants(s->b);
    return cond == s->cond && a == s->a && b == s->b
               ? e
               : std::make_shared<Select>(cond, a, b, e->type, e->loc);
  }
  return e;
}

namespace {

class StmtFolder : public IRMutator {
protected:
  Expr visit_unary(const Unary *, const Expr &self) override { return fold_constants(self); }
  Expr visit_binary(const Binary *, const Expr &self) override { return fold_constants(self); }
  Expr visit_call(const Call *, const Expr &self) override { return fold_constants(self); }
  Expr visit_select(const Select *, const Expr &self) override { return fold_constants(self); }
};

} // namespace

Stmt fold_constants(const Stmt &s) {
  return StmtFolder().mutate(s);
}

} // namespace f2s
