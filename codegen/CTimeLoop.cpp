#include "codegen/CTimeLoop.h"

#include "ast/Analysis.h"
#include "codegen/CExpr.h"
#include "codegen/CPrinter.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace f2s {

namespace {

/// The arguments a pointer swap exchanges: the grids its Swap statements
/// name and their bound arguments (a POINTER takes its target's bounds).
std::vector<const Variable *> swapped_args(const TimeLoop &t) {
  const Kernel &k = t.signature;
  std::vector<const Variable *> out;
  for (const Variable &v : k.args) {
    const std::string &grid = v.bound_of ? v.bound_of->grid : v.name;
    if ((v.is_grid() || v.bound_of) &&
        std::any_of(t.body.begin(), t.body.end(), [&](const TimeStmt &s) {
          return s.kind == TimeStmtKind::Swap && (s.var == grid || s.other == grid);
        }))
      out.push_back(&v);
  }
  return out;
}

/// A grid's C pointer type in the procedure, as its prototype has it.
std::string pointer_type(const Kernel &k, const Variable &v) {
  KernelFacts facts = analyze(k);
  bool written = std::count(facts.write_set.begin(), facts.write_set.end(), v.name) > 0;
  return std::string(written ? "" : "const ") + c_type(v.type) + " *";
}

/// The bound argument of grid `to` that matches `from`'s (dimension, side).
const Variable &matching_bound(const Kernel &k, const Variable &from, const std::string &to) {
  for (const Variable &v : k.args)
    if (v.bound_of && v.bound_of->grid == to && v.bound_of->dim == from.bound_of->dim &&
        v.bound_of->upper == from.bound_of->upper)
      return v;
  throw std::logic_error("time loop: no bound of '" + to + "' to swap with '" + from.name + "'");
}

const Kernel &find_sweep(const std::vector<const Kernel *> &sweeps, const std::string &name) {
  for (const Kernel *k : sweeps)
    if (k->name == name)
      return *k;
  throw std::logic_error("time loop: no sweep '" + name + "'");
}

} // namespace

std::string print_c_grid_bytes(const Kernel &k, const Variable &v) {
  CExprPrinter exprs(k);
  std::string n = "sizeof(" + std::string(c_type(v.type)) + ")";
  for (const Dim &d : v.dims) {
    std::string ext = "((long)(" + exprs.print(d.hi) + ") - (long)(" + exprs.print(d.lo) + ") + 1)";
    n += " * (size_t)(" + ext + " > 0 ? " + ext + " : 0)";
  }
  return n;
}

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
  // A pointer swap exchanges the grids' addresses and bounds inside the
  // procedure (the caller's pointers are the Fortran wrapper's to swap):
  // each step's sweeps take the current ones.
  std::vector<const Variable *> swapped = swapped_args(t);
  for (const Variable *v : swapped)
    out << "  "
        << (v->is_grid() ? pointer_type(k, *v) : "const " + std::string(c_type(v->type)) + " ")
        << (v->is_grid() ? "const " : "") << "f2s_arg_" << v->name << " = " << c_name(v->name)
        << ";\n";
  out << "  {\n";
  std::ostringstream in; // the inner block, indented below
  for (const Reduction &r : k.reductions) {
    const Variable *v = k.find_arg(r.var);
    // A swap counter counts this call's swaps, from 0.
    in << "  " << c_type(r.type) << " " << c_name(r.var) << " = "
       << (v && v->swaps_of ? "0" : "*f2s_ref_" + r.var) << ";\n";
  }
  for (const Variable *v : swapped)
    in << "  " << (v->is_grid() ? pointer_type(k, *v) : std::string(c_type(v->type)) + " ")
       << c_name(v->name) << " = f2s_arg_" << v->name << ";\n";
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
      in << (i ? ",\n                                   " : "") << print_c_grid_bytes(k, *grids[i]);
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
    case TimeStmtKind::Swap: {
      // On the GPU a sweep finds each grid's device copy by its host address
      // (the runtime's table of present arrays), so a swapped pointer finds
      // the other's copy; f2s_host, set before the first step, names both
      // for the copy back.
      in << "    /* " << s.var << " and " << s.other << " exchange targets and bounds */\n";
      const Variable &a = *k.find_arg(s.var);
      in << "    {\n      " << pointer_type(k, a) << "const f2s_p = " << c_name(s.var) << ";\n"
         << "      " << c_name(s.var) << " = " << c_name(s.other) << ";\n"
         << "      " << c_name(s.other) << " = f2s_p;\n";
      for (const Variable &b : k.args)
        if (b.bound_of && b.bound_of->grid == s.var) {
          const Variable &o = matching_bound(k, b, s.other);
          in << "      const " << c_type(b.type) << " f2s_" << b.name << " = " << c_name(b.name)
             << ";\n      " << c_name(b.name) << " = " << c_name(o.name) << ";\n      "
             << c_name(o.name) << " = f2s_" << b.name << ";\n";
        }
      in << "    }\n    ++" << c_name(s.counter) << ";\n";
      break;
    }
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
