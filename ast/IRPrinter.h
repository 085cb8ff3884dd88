// A readable, Fortran-flavoured text form of the IR. Tests pin down what the
// front end and each pass produced with it; `f2stencil --emit=ir` shows it.
//
//   kernel laplacian(nx: i32, ..., u: f64(0:nx + 1, 0:ny + 1, 0:nz + 1), ...)
//     tune_size(256, 256, 256)
//     for k = 1, nz {
//       for j = 1, ny {
//         for i = 1, nx {
//           unew(i, j, k) = alpha*u(i, j, k) + beta*(u(i + 1, j, k) + ...)
//
// Parentheses appear exactly where the tree needs them: floating-point
// addition is not associative, so `a + (b + c)` keeps its parentheses.
#pragma once

#include "ast/IR.h"

#include <string>

namespace f2s {

std::string print_expr(const Expr &e);
/// `i + 1`, `i`, `2*i - 1`, or a constant.
std::string print_index(const Index &ix);
/// An access of `k` as the source writes it, for messages: `(2*i-1,j)`,
/// also for a strided loop's variable, whose counter the IR subscripts,
/// and `(n1-1,i2,i3)` for a plane at a run-time position.
std::string print_access(const std::vector<Index> &index, const Kernel &k);
std::string print_stmt(const Stmt &s, int indent = 0);
std::string print_kernel(const Kernel &k);
/// The shortest text that reads back as the same value, in Fortran syntax for
/// the literal's kind (`0.1d0` for REAL(8), `0.1` for REAL(4)).
std::string print_float_literal(double v, Type t);

} // namespace f2s
