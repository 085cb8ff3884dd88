// Evaluating integer expressions (bounds, extents) for given argument values.
#pragma once

#include "ast/IR.h"

#include <map>
#include <optional>
#include <string>

namespace f2s {

/// The value of an integer expression when every Var in it has a value in
/// `values`; nullopt when one has none or the expression is not integer.
/// Division truncates toward zero, as Fortran's does.
std::optional<int64_t> eval_int(const Expr &e, const std::map<std::string, int64_t> &values);

} // namespace f2s
