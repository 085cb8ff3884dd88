// Lowering references to intrinsic functions: the elementary functions,
// ABS, SIGN, MIN, MAX, MOD, the conversions (with their kinds) and the
// specific names of FORTRAN 77 for them, and LBOUND, UBOUND and SIZE of an
// array the region uses. Anything else is an unknown function, whose reads
// and writes cannot be known.
#include "frontend/RegionLowering.h"

#include <map>

namespace f2s::fe::lowering {

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
  if (!a || a->coeff != 0 || a->inner_coeff != 0 || a->offset < 1 ||
      a->offset > static_cast<int64_t>(rank))
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

} // namespace f2s::fe::lowering
