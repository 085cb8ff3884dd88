#include "codegen/CStmt.h"

#include "ast/IRPrinter.h"

namespace f2s {

void CStmtPrinter::print(const Stmt &s, int indent) {
  std::string pad(2 * indent, ' ');
  if (const Block *b = as<Block>(s)) {
    for (const Stmt &c : b->stmts)
      print(c, indent);
  } else if (const For *f = as<For>(s)) {
    if (is_cpu_parallel(f->exec))
      print_parallel_for(f, indent);
    else
      print_for(f, indent);
  } else if (const Store *st = as<Store>(s)) {
    // The statement as the IR has it, for a reader of the generated code.
    std::string ir = print_stmt(s);
    out_ << pad << "/* " << ir.substr(0, ir.size() - 1) << " */\n";
    out_ << pad << exprs_.grid_element(st->grid, st->index) << " = " << exprs_.print(st->value)
         << ";\n";
  } else if (const Assign *a = as<Assign>(s)) {
    out_ << pad << c_name(a->var) << " = " << exprs_.print(a->value) << ";\n";
  }
}

void CStmtPrinter::print_for(const For *f, int indent) {
  std::string pad(2 * indent, ' ');
  std::string v = c_name(f->var);
  std::string lo = exprs_.print(f->lo), hi = exprs_.print(f->hi), step = exprs_.print(f->step);
  const IntImm *unit = as<IntImm>(f->step);
  bool unit_step = unit && unit->value == 1;
  out_ << pad << "for (long " << v << " = " << lo << "; " << v << " <= " << hi << "; "
       << (unit_step ? "++" + v : v + " += " + step) << ") {\n";
  print(f->body, indent + 1);
  out_ << pad << "}\n";
}

} // namespace f2s
