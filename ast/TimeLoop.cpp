#include "ast/TimeLoop.h"

#include "ast/IRPrinter.h"

#include <algorithm>
#include <sstream>

namespace f2s {

std::vector<std::string> TimeLoop::sweeps() const {
  std::vector<std::string> names;
  for (const TimeStmt &s : body)
    if (s.kind == TimeStmtKind::Sweep &&
        std::find(names.begin(), names.end(), s.sweep) == names.end())
      names.push_back(s.sweep);
  return names;
}

bool TimeLoop::writes_scalar(const std::string &name) const {
  return signature.find_reduction(name) != nullptr;
}

std::string print_time_loop(const TimeLoop &t) {
  const Kernel &k = t.signature;
  std::ostringstream out;
  out << "time_loop " << k.name << "(";
  for (size_t i = 0; i < k.args.size(); ++i)
    out << (i ? ", " : "") << k.args[i].name;
  out << ")\n";
  for (const Reduction &r : k.reductions)
    out << "  writes " << r.var << "\n";
  out << "  for " << t.var << " = " << print_expr(t.lo) << " .. " << print_expr(t.hi) << " step "
      << print_expr(t.step) << "\n";
  for (const TimeStmt &s : t.body)
    switch (s.kind) {
    case TimeStmtKind::Sweep:
      out << "    sweep " << s.sweep << "\n";
      break;
    case TimeStmtKind::Assign:
      out << "    " << s.var << " = " << print_expr(s.value) << "\n";
      break;
    case TimeStmtKind::ExitIf:
      out << "    exit if " << print_expr(s.value) << "\n";
      break;
    case TimeStmtKind::Swap:
      out << "    swap " << s.var << ", " << s.other << " (counted in " << s.counter << ")\n";
      break;
    }
  return out.str();
}

} // namespace f2s
