// Short builders of IR nodes for the canonicalization passes' before/after
// tests, which write their input nests by hand.
#pragma once

#include "ast/IR.h"

#include <string>
#include <utility>
#include <vector>

namespace f2s::irb {

inline Expr i32(int64_t v) {
  return IntImm::make(v);
}
inline Expr r4(double v) {
  return FloatImm::make(v, Type::Float32);
}
inline Expr r8(double v) {
  return FloatImm::make(v, Type::Float64);
}
inline Expr var(const std::string &n, Type t = Type::Int32) {
  return Var::make(n, t);
}
inline Expr bin(BinaryOp op, Expr a, Expr b) {
  return Binary::make(op, std::move(a), std::move(b));
}
inline Expr add(Expr a, Expr b) {
  return bin(BinaryOp::Add, std::move(a), std::move(b));
}
inline Expr mul(Expr a, Expr b) {
  return bin(BinaryOp::Mul, std::move(a), std::move(b));
}
inline Expr call(Intrinsic f, std::vector<Expr> args) {
  return Call::make(f, std::move(args));
}

} // namespace f2s::irb
