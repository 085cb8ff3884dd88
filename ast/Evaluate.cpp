#include "ast/Evaluate.h"

#include <algorithm>
#include <cstdlib>

namespace f2s {

namespace {

/// A LOGICAL expression of INTEGER ones and LOGICAL scalars (a nonzero value
/// is .TRUE.), as loop bounds computed under an IF hold (MERGE's condition).
std::optional<bool> eval_bool(const Expr &e, const std::map<std::string, int64_t> &values) {
  if (e->type != Type::Bool)
    return std::nullopt;
  if (const IntImm *i = as<IntImm>(e))
    return i->value != 0;
  if (const Var *v = as<Var>(e)) {
    auto it = values.find(v->name);
    return it == values.end() ? std::nullopt : std::optional<bool>(it->second != 0);
  }
  if (const Unary *u = as<Unary>(e); u && u->op == UnaryOp::Not) {
    auto a = eval_bool(u->a, values);
    return a ? std::optional<bool>(!*a) : std::nullopt;
  }
  const Binary *b = as<Binary>(e);
  if (!b)
    return std::nullopt;
  if (b->op == BinaryOp::And || b->op == BinaryOp::Or) {
    auto x = eval_bool(b->a, values), y = eval_bool(b->b, values);
    if (!x || !y)
      return std::nullopt;
    return b->op == BinaryOp::And ? (*x && *y) : (*x || *y);
  }
  if (b->a->type == Type::Bool) {
    auto x = eval_bool(b->a, values), y = eval_bool(b->b, values);
    if (!x || !y || (b->op != BinaryOp::Eq && b->op != BinaryOp::Ne))
      return std::nullopt;
    return b->op == BinaryOp::Eq ? *x == *y : *x != *y;
  }
  auto x = eval_int(b->a, values), y = eval_int(b->b, values);
  if (!x || !y)
    return std::nullopt;
  switch (b->op) {
  case BinaryOp::Lt:
    return *x < *y;
  case BinaryOp::Le:
    return *x <= *y;
  case BinaryOp::Gt:
    return *x > *y;
  case BinaryOp::Ge:
    return *x >= *y;
  case BinaryOp::Eq:
    return *x == *y;
  case BinaryOp::Ne:
    return *x != *y;
  default:
    return std::nullopt;
  }
}

} // namespace

std::optional<int64_t> eval_int(const Expr &e, const std::map<std::string, int64_t> &values) {
  if (e->type != Type::Int32)
    return std::nullopt;
  if (const Select *s = as<Select>(e)) {
    auto c = eval_bool(s->cond, values);
    if (!c)
      return std::nullopt;
    return eval_int(*c ? s->a : s->b, values);
  }
  if (const IntImm *i = as<IntImm>(e))
    return i->value;
  if (const Var *v = as<Var>(e)) {
    auto it = values.find(v->name);
    return it == values.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  if (const Unary *u = as<Unary>(e)) {
    auto a = eval_int(u->a, values);
    return a ? std::optional<int64_t>(-*a) : std::nullopt;
  }
  if (const Binary *b = as<Binary>(e)) {
    auto x = eval_int(b->a, values), y = eval_int(b->b, values);
    if (!x || !y)
      return std::nullopt;
    switch (b->op) {
    case BinaryOp::Add:
      return *x + *y;
    case BinaryOp::Sub:
      return *x - *y;
    case BinaryOp::Mul:
      return *x * *y;
    case BinaryOp::Div:
      return *y == 0 ? std::nullopt : std::optional<int64_t>(*x / *y);
    case BinaryOp::Pow: {
      if (*y < 0)
        return std::nullopt;
      int64_t r = 1;
      for (int64_t n = 0; n < *y; ++n)
        r *= *x;
      return r;
    }
    default:
      return std::nullopt;
    }
  }
  if (const Call *c = as<Call>(e)) {
    std::vector<int64_t> args;
    for (const Expr &a : c->args) {
      auto v = eval_int(a, values);
      if (!v)
        return std::nullopt;
      args.push_back(*v);
    }
    switch (c->fn) {
    case Intrinsic::Min:
      return *std::min_element(args.begin(), args.end());
    case Intrinsic::Max:
      return *std::max_element(args.begin(), args.end());
    case Intrinsic::Abs:
      return args[0] < 0 ? -args[0] : args[0];
    case Intrinsic::Mod:
      // C++'s % truncates toward zero like Fortran's MOD.
      return args[1] == 0 ? std::nullopt : std::optional<int64_t>(args[0] % args[1]);
    case Intrinsic::Sign:
      return args[1] >= 0 ? std::abs(args[0]) : -std::abs(args[0]);
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

} // namespace f2s
