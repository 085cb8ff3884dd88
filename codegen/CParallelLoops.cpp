#include "codegen/CStmt.h"

namespace f2s {

void CStmtPrinter::print_parallel_for(const For *f, int indent) {
  std::string pad(2 * indent, ' ');
  std::string v = c_name(f->var);
  std::string lo = exprs_.print(f->lo), hi = exprs_.print(f->hi), step = exprs_.print(f->step);
  // Thread f2s_tid of f2s_nthreads takes a contiguous range of the trips.
  std::string p = "f2s_" + v + "_";
  out_ << pad << "{\n";
  out_ << pad << "  const long " << p << "lo = " << lo << ", " << p << "hi = " << hi << ", " << p
       << "step = " << step << ";\n";
  out_ << pad << "  const long " << p << "trips = " << p << "hi >= " << p << "lo ? (" << p
       << "hi - " << p << "lo) / " << p << "step + 1 : 0;\n";
  out_ << pad << "  const long " << p << "first = " << p << "trips * f2s_tid / f2s_nthreads, " << p
       << "end = " << p << "trips * (f2s_tid + 1) / f2s_nthreads;\n";
  out_ << pad << "  for (long " << p << "t = " << p << "first; " << p << "t < " << p << "end; ++"
       << p << "t) {\n";
  out_ << pad << "    const long " << v << " = " << p << "lo + " << p << "t * " << p << "step;\n";
  print(f->body, indent + 2);
  out_ << pad << "  }\n" << pad << "}\n";
}

} // namespace f2s
