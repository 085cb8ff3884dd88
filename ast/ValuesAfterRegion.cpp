#include "ast/ValuesAfterRegion.h"

#include "ast/Dependence.h"
#include "ast/IRVisitor.h"

#include <map>
#include <string>

namespace f2s {
namespace {

const char *const kRegion = "'!$f2s stencil' region";

/// The position of the first assignment to each temporary of a kernel.
struct FirstAssignments : IRVisitor {
  std::map<std::string, SourceLoc> at;
  void visit_assign(const Assign *a) override {
    at.try_emplace(a->var, a->loc);
    IRVisitor::visit_assign(a);
  }
};

/// `use` as a message names it beside a problem at `at`: "line L, column C"
/// in the same file, the whole position in another.
std::string position(const SourceLoc &use, const SourceLoc &at) {
  if (use.file != at.file)
    return use.str();
  return "line " + std::to_string(use.line) + ", column " + std::to_string(use.column);
}

/// A line buffer or a column's work array used outside its regions.
void check_unfilled(const Kernel &k, const std::string &name, bool column_work,
                    std::vector<Diagnostic> &out) {
  const OutsideUse *u = k.find_outside_use(name);
  if (!u || !u->used)
    return;
  if (column_work) {
    out.push_back({k.loc, "Work array '" + name + "' of the columns of the " + kRegion +
                              " is also used at " + position(*u->used, k.loc) +
                              ", but the library gives each column a copy of its own and never "
                              "fills it; give the region a work array of its own"});
    return;
  }
  out.push_back({k.loc, "Line buffer '" + name + "' of the " + kRegion + " is also used at " +
                            position(*u->used, k.loc) +
                            ", but the library computes its values where the region reads them "
                            "and never fills it; give the region a buffer of its own"});
}

/// A scalar temporary or a work array of the point (`what`), first assigned
/// at `at`, whose value after the region the caller or the procedure may see.
void check_private(const Kernel &k, const std::string &name, const std::string &what,
                   const SourceLoc &at, std::vector<Diagnostic> &out) {
  const OutsideUse *u = k.find_outside_use(name);
  if (!u)
    return;
  std::string head = what + " is assigned in the " + kRegion + " and ";
  std::string tail = ", but the library keeps it private to each point";
  if (!u->visible.empty()) {
    out.push_back({at, head + "is " + u->visible + ", so its value after the region can be read" +
                           tail +
                           "; use a local variable for it if nothing after the region needs its "
                           "value"});
    return;
  }
  if (!u->read_after)
    return;
  out.push_back(
      {at, head +
               (u->in_next_call ? "read in the next call, as it is SAVEd (" : "read after it (") +
               position(*u->read_after, at) + ")" + tail});
}

} // namespace

std::vector<Diagnostic> find_values_after_region(const Kernel &k) {
  std::vector<Diagnostic> out;
  if (k.outside_uses.empty() || find_ordering(k).refusal)
    return out;
  for (const std::string &b : k.line_buffers)
    check_unfilled(k, b, false, out);
  if (k.column)
    for (const Variable &w : k.column->work)
      check_unfilled(k, w.name, true, out);
  FirstAssignments first;
  first.visit(k.body);
  for (const Variable &t : k.temps) {
    auto at = first.at.find(t.name);
    check_private(k, t.name, "'" + t.name + "'", at == first.at.end() ? k.loc : at->second, out);
  }
  for (const PointArray &a : k.point_arrays)
    check_private(k, a.name, "Work array '" + a.name + "' of the point", a.loc, out);
  return out;
}

} // namespace f2s
