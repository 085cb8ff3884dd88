// Fresh names for the loop variables and tuning parameters that passes add,
// so that a new name never captures one the user's code already has. Every
// pass takes its new names from here.
#pragma once

#include "ast/IR.h"

#include <set>
#include <string>

namespace f2s::names {

/// Every name the kernel uses: arguments, temporaries, tuning parameters and
/// the variables of every loop anywhere in its body.
std::set<std::string> in_use(const Kernel &k);

/// `base`, or `base2`, `base3`... (`t_0_2` for a base ending in a digit),
/// whichever is not in `used`; adds it there.
std::string fresh(std::set<std::string> &used, const std::string &base);

/// The axis name of loop `d` (outermost first) of a nest of `depth` loops,
/// x being the innermost: "x", "y", "z", then "3", "4"...
std::string axis(size_t d, size_t depth);

/// Whether expression `e` reads any of the scalars `vars`.
bool uses_any(const Expr &e, const std::set<std::string> &vars);

} // namespace f2s::names
