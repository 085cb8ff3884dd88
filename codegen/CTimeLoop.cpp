#include "codegen/CTimeLoop.h"

#include "ast/Analysis.h"
#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

/// The bytes of grid `v`, in C, from the signature's scalars.
std::string grid_bytes(const Kernel &k, const Variable &v) {
  CExprPrinter exprs(k);
  std::string n = "sizeof(" + std::string(c_type(v.type)) + ")";
  for (const Dim &d : v.dims) {
    std::string ext = "((long)(" + exprs.print(d.hi) + ") - (long)(" + exprs.print(d.lo) + ") + 1)";
    n += " * (size_t)(" + ext + " > 0 ? " + ext + " : 0)";
  }
  return n;
}

const Kernel &find_sweep(const std::vector<const Kernel *> &sweeps, const std::string &name) {
  for (const Kernel *k : sweeps)
    if (k->name == name)
      return *k;
  throw std::logic_error("time loop: no sweep '" + name + "'");
}

} // namespace

std::string print_c_time_loop_residency(const std::string &resident) {
  return "int " + resident +
         "_begin(int n, const void *const *host, const size_t *bytes);\n"
         "void " +
         resident +
         "_end(int n, const void *const *host, const size_t *bytes, const int *written);\n\n";
}

std::string print_c_time_loop(const TimeLoop &t, const std::vector<const Kernel *> &sweeps,
                              const TimeLoopProcedure &p) {
  const Kernel &k = t.signature;
  CExprPrinter exprs(k);
  std::ostringstream out;
  out << "/* " << p.comment << " */\n" << print_c_entry_prototype(k, p.symbol) << " {\n";
  // The scalars the loop writes are values inside it (the names its
  // expressions use), stored back through their pointers at the end.
  for (const Reduction &r : k.reductions)
    out << "  " << c_type(r.type) << " *const f2s_ref_" << r.var << " = " << c_name(r.var) << ";\n";
  out << "  {\n";
  std::ostringstream in; // the inner block, indented below
  for (const Reduction &r : k.reductions)
    in << "  " << c_type(r.type) << " " << c_name(r.var) << " = *f2s_ref_" << r.var << ";\n";
  // Fortran's DO: the trip count once, from the bounds on entry.
  in << "  const int32_t f2s_lo = " << exprs.print(t.lo) << ", f2s_hi = " << exprs.print(t.hi)
     << ", f2s_step = " << exprs.print(t.step) << ";\n"
     << "  const long f2s_trips = ((long)f2s_hi - (long)f2s_lo + (long)f2s_step) / "
        "(long)f2s_step;\n";
  std::vector<const Variable *> grids;
  for (const Variable &v : k.args)
    if (v.is_grid())
      grids.push_back(&v);
  bool resident = !p.resident.empty() && !grids.empty();
  if (resident) {
    KernelFacts facts = analyze(k);
    size_t n = grids.size();
    in << "  const void *f2s_host[" << n << "] = {";
    for (size_t i = 0; i < n; ++i)
      in << (i ? ", " : "") << c_name(grids[i]->name);
    in << "};\n  const size_t f2s_bytes[" << n << "] = {";
    for (size_t i = 0; i < n; ++i)
      in << (i ? ",\n                                   " : "") << grid_bytes(k, *grids[i]);
    in << "};\n  const int f2s_written[" << n << "] = {";
    for (size_t i = 0; i < n; ++i)
      in << (i ? ", " : "")
         << (std::count(facts.write_set.begin(), facts.write_set.end(), grids[i]->name) ? 1 : 0);
    in << "};\n"
       << "  /* Every grid on the GPU for the whole loop (0: the sweeps run on the CPU). */\n"
       << "  const int f2s_resident = f2s_trips > 0 && " << p.resident << "_begin(" << n
       << ", f2s_host, f2s_bytes);\n";
  }
  std::string v = c_name(t.var);
  in << "  " << v << " = f2s_lo;\n"
     << "  for (long f2s_n = 0; f2s_n < f2s_trips; ++f2s_n, " << v << " += f2s_step) {\n";
  for (const TimeStmt &s : t.body) {
    switch (s.kind) {
    case TimeStmtKind::Sweep: {
      const Kernel &sweep = find_sweep(sweeps, s.sweep);
      in << "    " << p.sweep_prefix << sweep.name << p.sweep_suffix << "(";
      for (size_t i = 0; i < sweep.args.size(); ++i) {
        const Variable &a = sweep.args[i];
        in << (i ? ", " : "") << (sweep.find_reduction(a.name) ? "&" : "") << c_name(a.name);
      }
      in << ");\n";
      break;
    }
    case TimeStmtKind::Assign:
      in << "    " << c_name(s.var) << " = " << exprs.print(s.value) << ";\n";
      break;
    case TimeStmtKind::ExitIf:
      in << "    if (" << exprs.print(s.value) << ")\n      break;\n";
      break;
    }
  }
  in << "  }\n";
  if (resident)
    in << "  if (f2s_resident)\n    " << p.resident << "_end(" << grids.size()
       << ", f2s_host, f2s_bytes, f2s_written);\n";
  for (const Reduction &r : k.reductions)
    in << "  *f2s_ref_" << r.var << " = " << c_name(r.var) << ";\n";
  std::istringstream lines(in.str());
  for (std::string line; std::getline(lines, line);)
    out << (line.empty() ? "" : "  ") << line << "\n";
  out << "  }\n}\n\n";
  return out.str();
}

} // namespace f2s
