// Array indexing: how the generated code addresses grid elements in the
// innermost loops (Kamil et al.: precomputed strides and pointer bumping
// versus full index expressions).
#pragma once

#include "ast/IR.h"

namespace f2s {

struct ArrayIndexingOptions {
  /// Option "indexing": 0 full index expressions, 1 row pointers.
  int indexing = 1;
};

/// Sets Kernel::indexing. With row pointers, the C printer computes, before
/// each innermost loop, one pointer per distinct row that the loop accesses
/// (a grid and its subscripts in every dimension but x), and the loop indexes
/// that pointer with x alone:
///
///   const double *restrict f2s_u_r0 = u + f2s_u_s1*(j - 1 - f2s_u_lo1) + ... - f2s_u_lo0;
///   for (long i = ...) ... f2s_u_r0[i + 1] ...
///
/// Accesses whose x subscript is not the innermost loop's variable keep the
/// full index. Values other than 0 and 1 throw std::invalid_argument.
Kernel choose_array_indexing(const Kernel &k, const ArrayIndexingOptions &options);

} // namespace f2s
