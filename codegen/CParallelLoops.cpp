#include "codegen/CPrinter.h"
#include "codegen/CStmt.h"

#include <cassert>
#include <sstream>
#include <vector>

namespace f2s {

// Inside a parallel task, f2s_tid and f2s_nthreads name the thread and the
// team size. A Parallel loop gives each thread a contiguous range of trips. A
// Groups loop (transforms/Chunking) numbers the iterations of the loops it
// collapses as one sequence and deals runs of `chunk` of them round robin to
// thread groups; a Members loop (transforms/ThreadBlocking) deals its
// iterations the same way to the members of the running thread's group, whose
// numbers the enclosing Groups loop declares. Every trip count and run is
// computed from the bounds at run time, so remainders of any size are right.
void CStmtPrinter::print_parallel_for(const For *f, int indent) {
  std::string pad(2 * indent, ' ');
  std::string v = c_name(f->var);
  std::string p = "f2s_" + v + "_";
  if (f->exec == LoopExec::Parallel) {
    std::string lo = exprs_.print(f->lo), hi = exprs_.print(f->hi), step = exprs_.print(f->step);
    // Thread f2s_tid of f2s_nthreads takes a contiguous range of the trips.
    out_ << pad << "{\n";
    out_ << pad << "  const long " << p << "lo = " << lo << ", " << p << "hi = " << hi << ", " << p
         << "step = " << step << ";\n";
    out_ << pad << "  const long " << p << "trips = " << p << "hi >= " << p << "lo ? (" << p
         << "hi - " << p << "lo) / " << p << "step + 1 : 0;\n";
    out_ << pad << "  const long " << p << "first = " << p << "trips * f2s_tid / f2s_nthreads, "
         << p << "end = " << p << "trips * (f2s_tid + 1) / f2s_nthreads;\n";
    out_ << pad << "  for (long " << p << "t = " << p << "first; " << p << "t < " << p << "end; ++"
         << p << "t) {\n";
    out_ << pad << "    const long " << v << " = " << p << "lo + " << p << "t * " << p << "step;\n";
    print(f->body, indent + 2);
    out_ << pad << "  }\n" << pad << "}\n";
    return;
  }

  assert((f->exec == LoopExec::Groups || f->exec == LoopExec::Members) &&
         "print_parallel_for is called for loops that run on CPU threads");
  // The collapsed loops, outermost first; the passes made their bounds
  // independent of each other.
  std::vector<const For *> loops{f};
  for (int c = 1; c < f->dist.collapse; ++c) {
    const For *inner = as<For>(loops.back()->body);
    assert(inner && "a distribution collapses a perfect nest");
    loops.push_back(inner);
  }
  std::string pad1 = pad + "  ";
  out_ << pad << "{\n";
  out_ << pad1 << "/* " << (f->exec == LoopExec::Groups ? "groups" : "members") << ": ";
  for (size_t c = 0; c < loops.size(); ++c)
    out_ << (c ? ", " : "") << loops[c]->var;
  out_ << " numbered together, runs dealt round robin */\n";
  for (const For *l : loops) {
    std::string q = "f2s_" + c_name(l->var) + "_";
    out_ << pad1 << "const long " << q << "lo = " << exprs_.print(l->lo) << ", " << q
         << "hi = " << exprs_.print(l->hi) << ", " << q << "step = " << exprs_.print(l->step)
         << ";\n";
    out_ << pad1 << "const long " << q << "trips = " << q << "hi >= " << q << "lo ? (" << q
         << "hi - " << q << "lo) / " << q << "step + 1 : 0;\n";
  }
  // Iterations of the sequence per trip of each loop: the product of the
  // trip counts inside it.
  out_ << pad1 << "const long " << p << "n = ";
  for (size_t c = 0; c < loops.size(); ++c)
    out_ << (c ? " * " : "") << "f2s_" << c_name(loops[c]->var) << "_trips";
  out_ << ";\n";
  std::string chunk = f->dist.chunk ? exprs_.print(f->dist.chunk) : "1";
  out_ << pad1 << "const long " << p << "run = " << chunk << " > 0 ? " << chunk << " : 1;\n";
  std::string worker = "f2s_member", workers = "f2s_nmembers";
  if (f->exec == LoopExec::Groups) {
    // Thread t is member t / G of group t mod G, so a group's threads are
    // spread over the placement like the groups themselves.
    std::string group = f->dist.group ? exprs_.print(f->dist.group) : "1";
    out_ << pad1 << "const int f2s_group_size = " << group << " < 1 ? 1 : " << group
         << " > f2s_nthreads ? f2s_nthreads : (int)(" << group << ");\n";
    out_ << pad1
         << "const int f2s_ngroups = (f2s_nthreads + f2s_group_size - 1) / f2s_group_size;\n";
    out_ << pad1
         << "const int f2s_group = f2s_tid % f2s_ngroups, f2s_member = f2s_tid / "
            "f2s_ngroups;\n";
    out_ << pad1
         << "const int f2s_nmembers = (f2s_nthreads - f2s_group + f2s_ngroups - 1) / "
            "f2s_ngroups;\n";
    out_ << pad1 << "(void)f2s_member;\n" << pad1 << "(void)f2s_nmembers;\n";
    worker = "f2s_group";
    workers = "f2s_ngroups";
  }
  out_ << pad1 << "for (long " << p << "r = " << worker << " * " << p << "run; " << p << "r < " << p
       << "n; " << p << "r += " << workers << " * " << p << "run) {\n";
  out_ << pad1 << "  const long " << p << "end = " << p << "r + " << p << "run < " << p << "n ? "
       << p << "r + " << p << "run : " << p << "n;\n";
  out_ << pad1 << "  for (long " << p << "t = " << p << "r; " << p << "t < " << p << "end; ++" << p
       << "t) {\n";
  // Loop c's trip is t / (trips of the loops inside it) mod its own trips.
  for (size_t c = 0; c < loops.size(); ++c) {
    std::string q = "f2s_" + c_name(loops[c]->var) + "_";
    std::string trip = p + "t";
    if (c + 1 < loops.size()) {
      trip += " / (";
      for (size_t d = c + 1; d < loops.size(); ++d)
        trip += (d > c + 1 ? " * " : "") + ("f2s_" + c_name(loops[d]->var) + "_trips");
      trip += ")";
    }
    if (c > 0)
      trip = "(" + trip + ") % " + q + "trips";
    out_ << pad1 << "    const long " << c_name(loops[c]->var) << " = " << q << "lo + " << trip
         << " * " << q << "step;\n";
  }
  print(loops.back()->body, indent + 3);
  out_ << pad1 << "  }\n" << pad1 << "}\n" << pad << "}\n";
}

} // namespace f2s

namespace f2s {

std::string print_c_placement(const std::vector<int> &cpus, const std::string &comment) {
  if (cpus.empty())
    return "";
  std::ostringstream out;
  out << "/* Thread t of every parallel run is pinned to CPU f2s_placement[t] (" << comment
      << "). */\n";
  out << "static const int f2s_placement[" << cpus.size() << "] = {";
  for (size_t i = 0; i < cpus.size(); ++i)
    out << (i ? ", " : "") << cpus[i];
  out << "};\n";
  out << "__attribute__((constructor)) static void f2s_use_placement(void) {\n"
      << "  f2s_set_placement(f2s_placement, " << cpus.size() << ");\n}\n\n";
  return out.str();
}

} // namespace f2s
