// Internal to codegen/: printing the statements of one variant as C.
// Loops that run in parallel are printed by CParallelLoops.cpp; everything
// else here.
#pragma once

#include "codegen/CExpr.h"

#include <map>
#include <sstream>

namespace f2s {

class CStmtPrinter {
public:
  CStmtPrinter(const Kernel &k, std::ostringstream &out) : kernel_(k), exprs_(k), out_(out) {}

  /// Prints `s` at `indent` (two spaces a level). Inside a parallel task the
  /// variables f2s_tid and f2s_nthreads name the thread and the team size.
  void print(const Stmt &s, int indent);

  /// Elements the caller holds elsewhere (CExprPrinter::set_element_hook):
  /// the GPU's streamed time tiles keep state grids in rings of planes.
  void set_element_hook(CExprPrinter::ElementHook hook) {
    exprs_.set_element_hook(std::move(hook));
  }

private:
  void print_for(const For *f, int indent);
  /// A loop with no loop inside: row pointers, prefetches and streamed rows
  /// as the kernel's attributes ask (Kernel::indexing, prefetch_distance,
  /// streamed), and `#pragma GCC ivdep`: the points of every nest the front
  /// end accepts are independent, so gcc may vectorise without checks.
  void print_innermost(const For *f, int indent);
  void print_loop_header(const For *f, const std::string &pad);
  /// A loop whose iterations are divided among the threads (CParallelLoops.cpp).
  void print_parallel_for(const For *f, int indent);

  const Kernel &kernel_;
  CExprPrinter exprs_;
  std::ostringstream &out_;
  /// While an innermost loop is printed: the row buffer of each streamed
  /// row (CExprPrinter::row_key -> buffer name).
  std::map<std::string, std::string> streams_;
  std::string stream_var_; ///< the x variable of those rows
};

/// The per-thread row buffers of the streamed grids (Kernel::streamed),
/// allocated at the top of a variant's (or parallel task's) body, after the
/// prologue; and their release with the store fence at its end. Empty when
/// the kernel streams nothing.
/// The work arrays of a column nest (Kernel::column), declared where a
/// thread (or CUDA thread) starts, so that each has its own: `double cp[200]`
/// for bounds that are constants, a variable-length array otherwise (C
/// only), with the lower bound `f2s_<name>_lo0` that grid elements use.
/// `constant_bounds` (CUDA, which has no variable-length arrays): a work
/// array with other bounds is refused.
std::string c_work_arrays(const Kernel &k, const std::string &pad, bool constant_bounds = false);
std::string c_row_buffers_begin(const Kernel &k);
std::string c_row_buffers_end(const Kernel &k);
/// The call c_row_buffers_end ends every row-streaming nest with: what
/// c_code_streams_rows (codegen/CPrinter.h) looks for.
inline constexpr const char *kStreamFenceCall = "f2s_stream_fence()";

} // namespace f2s
