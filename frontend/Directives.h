// Finding `!$f2s` directives in the raw text of a source file.
//
// To Flang's prescanner `!$f2s` is an ordinary comment, so the directives
// never reach the parse tree: they are read here from the file's text, line
// by line, and attached to the next DO construct by the lowering.
#pragma once

#include "ast/IR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

/// One `!$f2s stencil [timesteps] [name(ident)]
/// [tune_size(n1,n2[,n3][; n1,n2[,n3]]...)]` line.
struct StencilDirective {
  SourceLoc loc;                   ///< the `!` of `!$f2s`
  std::optional<std::string> name; ///< lower case
  SourceLoc name_loc;
  std::vector<int64_t> tune_size; ///< the first size; empty when the clause is absent
  SourceLoc tune_size_loc;        ///< the clause's keyword
  /// Every size of the clause, in the order written (the first is
  /// tune_size), each positive and none twice; several sizes ask for a
  /// library that dispatches by the call's size (docs/per-size-variants.md).
  std::vector<std::vector<int64_t>> tune_sizes;
  std::vector<SourceLoc> tune_sizes_loc; ///< the first value of each size
  /// TIMESTEPS: the DO loop that follows is a loop over time whose body runs
  /// sweeps (ast/TimeLoop.h); its tune_size is each sweep's.
  bool timesteps = false;
  SourceLoc timesteps_loc; ///< the clause's keyword
  /// Set on the directive a sweep of a time loop is lowered with when its
  /// TUNE_SIZE is the loop's: a sweep with fewer loops than the clause has
  /// values (a boundary update) takes the last ones instead of being refused.
  bool tune_size_of_time_loop = false;
  /// Set on the directive every sweep of a time loop is lowered with: the
  /// time loop's printers and time tiling read a subscript as a loop
  /// variable plus a constant, so a sweep has no planes at run-time
  /// positions (ast/Planes); a read-only array's `fict(t)` is the array
  /// shifted by `t`, as before planes.
  bool sweep_of_time_loop = false;
};

/// Where a `!$f2s` sentinel starts: a 1-based line and a 0-based column.
struct Sentinel {
  int line = 0;
  size_t column = 0;
};

/// The `!$f2s` sentinels of `text`, in line order, without reading what
/// follows them. A directive is a comment line whose first non-blank
/// characters are `!$f2s` (case-insensitive); in fixed form
/// (`fixed_form`) the sentinel may also be spelled `c$f2s` or `*$f2s` in
/// column 1, as OpenMP's `c$omp` is.
std::vector<Sentinel> find_sentinels(const std::string &text, bool fixed_form = false);

/// The directive whose sentinel is `at` in `text` (the contents of `path`).
/// Throws UserError for a directive other than STENCIL, an unknown or
/// repeated clause, or a malformed clause.
StencilDirective read_directive(const std::string &text, const Sentinel &at,
                                const std::string &path);

/// Every `!$f2s` directive of `text`, in line order (find_sentinels, then
/// read_directive on each).
std::vector<StencilDirective> find_directives(const std::string &text, const std::string &path,
                                              bool fixed_form = false);

} // namespace f2s
