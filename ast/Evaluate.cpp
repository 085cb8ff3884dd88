#include "ast/Evaluate.h"

#include <algorithm>
#include <cstdlib>

namespace f2s {

std::optional<int64_t> eval_int(const Expr &e, const std::map<std::string, int64_t> &values) {
  if (e->type != Type::Int32)
    return std::nullopt;
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
