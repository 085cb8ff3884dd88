// Internal to codegen/: printing the statements of one variant as C.
// Loops that run in parallel are printed by CParallelLoops.cpp; everything
// else here.
#pragma once

#include "codegen/CExpr.h"

#include <sstream>

namespace f2s {

class CStmtPrinter {
public:
  CStmtPrinter(const Kernel &k, std::ostringstream &out) : kernel_(k), exprs_(k), out_(out) {}

  /// Prints `s` at `indent` (two spaces a level). Inside a parallel task the
  /// variables f2s_tid and f2s_nthreads name the thread and the team size.
  void print(const Stmt &s, int indent);

private:
  void print_for(const For *f, int indent);
  /// A loop whose iterations are divided among the threads (CParallelLoops.cpp).
  void print_parallel_for(const For *f, int indent);

  const Kernel &kernel_;
  CExprPrinter exprs_;
  std::ostringstream &out_;
};

} // namespace f2s
