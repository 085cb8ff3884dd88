// Aliased arguments: legacy codes pass one array as two dummies
// (`call resid(u, r, r)`, `call step(f, f)`). The library's entry points
// find such calls at run time (codegen's aliasing check); this analysis
// says, for each way of passing some grids as one array, whether the nest
// with those grids identified is still free of dependences, and so whether
// a variant without `restrict` computes what the loops do.
#pragma once

#include "ast/IR.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

struct Aliasing {
  /// The grid arguments, in argument order, and whether the nest writes each.
  std::vector<std::string> grids;
  std::vector<bool> written;
  /// Grids that may be one array only if they have one element type and
  /// rank: the class of each grid's (type, rank).
  std::vector<int> shape_class;
  /// The aliasings under which the nest is still free of dependences. Each
  /// is a labelling of `grids`: entry i is the index of the first grid of
  /// i's class (grids passed as one array), i itself when i is passed alone.
  /// A class holds a written grid (read-only grids may alias freely). The
  /// identity (no aliasing) is not listed.
  std::vector<std::vector<int>> safe;
  /// The first aliasings (fewest identifications first) are examined, at most
  /// kMaxExamined; an aliasing not examined counts as unsafe.
  static constexpr size_t kMaxExamined = 256;
};

/// The aliasing facts of a kernel whose nest find_dependence accepts. A
/// kernel with fewer than two grids or none written has nothing to check
/// (`grids` is still filled, `safe` empty).
Aliasing analyze_aliasing(const Kernel &k);

/// Names that EQUIVALENCE gives one storage are separate arguments of the
/// library, which computes the nest as if they were apart: wrong as soon as
/// the region writes one of them and uses another. The first such pair (a
/// written grid of Kernel::shared_storage, in source order of the stores'
/// grids, sorted, and the first other name of its storage the kernel takes),
/// as a refusal at the written name in the EQUIVALENCE statement.
std::optional<Diagnostic> find_shared_storage(const Kernel &k);

/// The kernel with each grid `g` of `same_as` renamed to `same_as[g]` in its
/// body: the nest as it runs when those grids are one array with the same
/// bounds.
Kernel identify_grids(const Kernel &k, const std::map<std::string, std::string> &same_as);

} // namespace f2s
