// What each procedure of the files given to --rewrite may do to the arrays
// its callers can name, so that a caller's data region (rewrite/DataRegions.h)
// can hold the arrays of the library calls inside the procedures it calls:
// which arrays those library calls pass (transitively), and which arrays the
// procedures' other statements (host code) may read or define.
//
// An array is named, across units, by what it is: a dummy of the procedure
// (by position: the caller maps it to its actual argument), a module's
// variable, or a COMMON block's object (spelled alike, after the same
// objects). A unit's locals never reach its callers. A CALL of a procedure
// that no file given defines reaches every array it receives and every
// module or COMMON array (`reaches_all`), as today's per-unit rule says.
//
// The tree is pre-semantic (frontend/HostAccesses.h): names are resolved by
// spelling through the unit's declarations, its host (an internal
// procedure's), its module (a module procedure's) and USE statements
// (ONLY lists and renames followed), and a name two procedures share is
// nobody's (its calls are taken as unknown).
#pragma once

#include "frontend/HostAccesses.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace f2s {

struct RegionCall;

/// Intrinsic functions: a reference reads its arguments and nothing else.
const std::set<std::string> &intrinsic_functions();
/// Intrinsic subroutines: a CALL defines its arguments and nothing else.
const std::set<std::string> &intrinsic_subroutines();

/// An array as the procedures of a program see it: "#3" the fourth dummy,
/// "m:<module>:<name>" a module's variable, "c:<block>:<objects before>:<name>"
/// a COMMON block's object.
using ArrayId = std::string;

/// What calling one procedure may do, in its own ids.
struct ProcedureSummary {
  const HostUnit *unit = nullptr;
  std::string file; ///< where it is defined
  /// It runs calls of the library, itself or through the procedures it calls.
  bool library = false;
  /// The arrays those calls pass, and those among them a call may write.
  std::set<ArrayId> passes, passes_written;
  /// The arrays its other statements (and those of the procedures they
  /// call) may read, define, or allocate, deallocate or point at.
  std::set<ArrayId> reads, defines, allocates;
  /// It may call a procedure no file given defines: that one may touch any
  /// module or COMMON array.
  bool reaches_all = false;
  /// For each id of reads, defines and allocates: the first line of the
  /// procedure where its host code touches it (a CALL, for a callee's).
  std::map<ArrayId, int> host_lines;
  /// Its host code brings what it touches of the arrays its library calls
  /// pass to the host and back itself, by updates "if present" around each
  /// statement (rewrite/DataRegions.h), so that a caller's region may hold
  /// those arrays around its CALL: a procedure with no library call of its
  /// own, whose calls are all in the procedures it calls (a V-cycle between
  /// its kernels' procedures and its halo routines), and whose statements
  /// --rewrite can put updates around (no jump it cannot follow, one
  /// statement a line, ...).
  bool updates_itself = false;
  /// Then: the arrays it brings (array dummies and module or COMMON arrays
  /// it names, contiguous, that its library calls pass and its host code
  /// touches), and the others its host code touches.
  std::set<ArrayId> brought, not_brought;
};

/// Every procedure of the files given, summarized.
class CallSummaries {
public:
  /// `units`: each file's program units; `calls`: each file's library calls
  /// (the nests that became calls); `module`: the library's module, whose
  /// data procedures are no host code.
  CallSummaries(const std::map<std::string, HostUnits> &units,
                const std::map<std::string, std::vector<const RegionCall *>> &calls,
                const std::string &module);

  /// The summary of the procedure `name` called from `caller`, or null: no
  /// file defines it, or more than one procedure has that name.
  const ProcedureSummary *find(const std::string &name) const;

  /// What `name` stands for in unit `u`: a dummy "#i", a module or COMMON
  /// array, "" otherwise (a local, a scalar, a name not seen).
  ArrayId resolve(const HostUnit &u, const std::string &name) const;
  /// The name under which unit `u` sees the module or COMMON array `id`, or
  /// "" where it does not.
  std::string name_in(const HostUnit &u, const ArrayId &id) const;
  /// How unit `u` declares the array it calls `name` (itself, or its host's
  /// or a module's declaration), or null.
  const HostArray *declaration(const HostUnit &u, const std::string &name) const;
  /// The library calls of unit `u`.
  const std::vector<const RegionCall *> &calls_of(const HostUnit &u) const;
  /// Every file's units.
  const std::map<std::string, HostUnits> &units() const { return units_; }

  /// `u` does not bring its arrays itself after all (its updates cannot be
  /// written: settle_self_updates in rewrite/Rewrite.h); the procedures
  /// that counted on it are summarized again.
  void forbid_updating_itself(const HostUnit &u);

  /// The index of the dummy of `callee` that argument `i` of `call` goes to
  /// (a keyword's, else its position), or -1.
  static int dummy_of(const HostUnit &callee, const HostStmt::Call &call, size_t i);

private:
  ArrayId in_module(const std::string &module, const std::string &name, int depth) const;
  ArrayId through_uses(const HostUnit &u, const std::string &name, int depth) const;
  const HostUnit *host_of(const HostUnit &u) const;
  void summarize_statement(const HostUnit &u, const HostStmt &s, ProcedureSummary &into) const;
  /// Whether `q` can bring its arrays itself (ProcedureSummary::updates_itself),
  /// and which: sets q's brought and not_brought.
  bool can_update_itself(ProcedureSummary &q) const;
  void settle_updates_itself();

  const std::map<std::string, HostUnits> &units_;
  std::string module_;
  std::map<std::string, const HostUnit *> modules_;
  std::map<std::string, ProcedureSummary> procedures_;
  std::set<std::string> ambiguous_;
  std::map<const HostUnit *, std::vector<const RegionCall *>> calls_;
  std::map<const HostUnit *, std::set<int>> nest_lines_;
  std::map<const HostUnit *, std::set<std::string>> library_names_;
  std::map<const HostUnit *, const HostUnit *> hosts_;
  std::set<const HostUnit *> forbidden_;
};

} // namespace f2s
