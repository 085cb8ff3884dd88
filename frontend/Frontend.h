// Reading Fortran: the only interface of the front end. Nothing outside
// frontend/ sees Flang; this header exposes f2stencil's own IR only.
#pragma once

#include "ast/IR.h"

#include <string>
#include <vector>

namespace f2s {

struct FrontendOptions {
  /// Directories searched by INCLUDE lines, in order.
  std::vector<std::string> include_dirs;
};

/// Reads one free-form Fortran file with Flang's parser and lowers every
/// `!$f2s stencil` region in it to a kernel, in source order.
///
/// Throws UserError, naming file:line:column, for the first problem: Flang's
/// own parse errors, a directive that is not followed by a DO construct, an
/// unknown clause, a construct the IR cannot express (CALL, IF, a non-affine
/// subscript, an unknown variable, a non-perfect nest, ...), or a file with no
/// annotated region at all.
std::vector<Kernel> lower_file(const std::string &path, const FrontendOptions &options = {});

} // namespace f2s
