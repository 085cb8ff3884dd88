// Exact dependence analysis of a kernel's loops with isl, the integer set
// library behind GCC's Graphite, Polly and PPCG.
//
// The region is data: each statement instance's domain (the loops around it,
// their bounds as affine expressions of the kernel's INTEGER scalars, the IF
// conditions on loop variables) and each of its accesses (an affine map from
// the instance to the element) are isl sets and maps, built once. Flow
// dependences into private arrays (scalar temporaries, a column's work
// arrays) come from isl's dataflow (isl_union_access_info_compute_flow),
// value-based: a later must-write kills an earlier write, which is what makes
// a temporary private. Every other dependence is memory-based: each pair of
// instances that touch one element, the first scheduled before the second
// (for a shared array the loops that carry something are the same either
// way, and the dataflow would only cost time). What the IR says that isl cannot model
// is over-approximated, never guessed: a bound or condition that is not
// affine is dropped (more instances), a subscript that is not affine reaches
// the whole dimension, and a write under either may happen (kills nothing).
//
// The result holds no isl object: every relation is kept as the text isl
// prints, and the questions below (is this loop free? which loops carry this
// dependence? at what distance?) were answered by set operations while the
// sets existed.
#pragma once

#include "ast/IR.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace f2s {

/// A loop of the region, in the order a walk of the body meets them.
struct LoopInfo {
  std::string var;
  int depth = 0;        ///< 0 for the outermost
  bool in_nest = false; ///< one of the kernel's perfect nest (perfect_nest(k.body))
  bool reverse = false; ///< runs from hi down to lo
};

/// A statement of the region: an assignment to a grid element or a scalar,
/// or the condition of an IF (which reads).
struct StatementInfo {
  std::string name; ///< S0, S1, ... in source order
  SourceLoc loc;
  std::vector<int> loops; ///< indices into LoopDependences::loops, outermost first
  std::string domain;     ///< its instances, as isl prints the set
  bool exact = true;      ///< false when a bound or condition was dropped
};

/// How the region's targets may store an array.
enum class Storage : uint8_t {
  Shared,    ///< a grid or scalar argument: one copy for every point
  Private,   ///< a scalar temporary or a column's work array: one copy per point of the nest
  Reduction, ///< a reduction variable (Kernel::reductions): per-thread partials
};

enum class DepKind : uint8_t {
  Flow,   ///< read after write (for a private array: the value the sink reads)
  Anti,   ///< write after read
  Output, ///< write after write
};
const char *dep_kind_name(DepKind k); ///< "flow", "anti", "output"

/// One access of a statement.
struct AccessInfo {
  int stmt = 0;
  std::string array;
  Storage storage = Storage::Shared;
  bool write = false;
  bool must = true;      ///< a write that surely happens at every instance, at exactly that element
  std::string subscript; ///< "(i,j,k-1)" as the source writes it; "" for a scalar
  SourceLoc loc;
  std::string relation; ///< instance -> element, as isl prints the map
  /// The write that every path through an IF whose condition is not affine
  /// makes (both branches write the element): one must-write at the end of
  /// the IF (statement `stmt` is the IF's condition), which later reads of
  /// the point take their value from. Only for private arrays.
  bool end_of_if = false;
  /// The innermost IF around the access whose condition, modelled exactly,
  /// tests a parity (`mod(i + j + k, 2) == 0`, a colour of red-black), by
  /// the IF's number in the walk; -1 when there is none.
  int parity_test = -1;
};

/// Instances of two accesses that touch one element in an order that
/// matters, for one pair of accesses.
struct Dependence {
  DepKind kind = DepKind::Flow;
  int source = 0, sink = 0; ///< indices into LoopDependences::accesses
  std::string array;
  Storage storage = Storage::Shared;
  /// The loops around both statements, outermost first (indices into
  /// LoopDependences::loops); the two following vectors are indexed alike.
  std::vector<int> common;
  /// Whether a dependent pair of instances may have different values of the
  /// loop's variable.
  std::vector<bool> carried;
  /// sink's value minus source's, where it is the same for every pair (in
  /// the loop variable's terms: -1 along a loop that runs backward to the
  /// next trip).
  std::vector<std::optional<int64_t>> distance;
  /// Whether some pair of instances has the same value of every common
  /// loop's variable (a dependence within one iteration of them all).
  bool same_iteration = false;
  /// source instance -> sink instance, as isl prints the map, tuples named
  /// by their statements.
  std::string relation;
};

struct LoopDependences {
  std::vector<LoopInfo> loops;
  std::vector<StatementInfo> statements;
  std::vector<AccessInfo> accesses;
  /// Flow dependences, then anti, then output; each kind ordered by sink
  /// access, then source access (source order).
  std::vector<Dependence> dependences;
  /// Reads of a private array that some instance makes before any write of
  /// the same point gives it a value (indices into accesses), with the
  /// instances, as isl prints the set.
  std::vector<std::pair<int, std::string>> reads_without_source;
  /// The parameters under which every access stays within its array's
  /// declared bounds, as isl prints the set: the dependences hold under them.
  std::string assumed;
  /// What was over-approximated, one sentence each ("the subscript 'm' of
  /// 'f' is not affine: the whole dimension").
  std::vector<std::string> approximations;
  /// Where the kernel runs loops inside the point that the source writes
  /// around loops of the nest (Kernel::source_order): the dependences of
  /// the source's order between instances under those loops that the
  /// kernel's order runs the other way round (on a shared array, a pair of
  /// instances that touch one element, one a write; on a private one, a
  /// value the source carries from another iteration of those loops). Each
  /// with `source` and `sink` as the source orders them, `common` the
  /// loops of Kernel::source_order in the source's order, then the loops
  /// inside them; `relation` relates the instances by the kernel's loops.
  /// Empty where the kernel keeps every dependence of the source's order.
  std::vector<Dependence> reversed;
};

/// Builds the domains and accesses of every statement of `k.body` and
/// computes the flow, anti and output dependences between them.
LoopDependences analyze_dependences(const Kernel &k);

/// The pairs of grids (by name, the smaller first) that would depend on
/// each other if each grid `g` of `same_as` were one array with
/// `same_as[g]`, as identify_grids (ast/Aliasing.h) makes them: an access of
/// one and an access of the other, one of them a write, touch one element
/// from different points of the kernel's nest, a dependence that a loop of
/// the nest carries. What analyze_dependences of the identified kernel
/// would find between them, at a fraction of its cost.
std::set<std::pair<std::string, std::string>>
aliasing_conflicts(const Kernel &k, const std::map<std::string, std::string> &same_as);

/// The loop over `var` (first such loop of the region), if any.
std::optional<int> find_loop(const LoopDependences &d, const std::string &var);

/// Whether `d` is carried by loop `loop`: some pair of its instances has
/// different values of the loop's variable.
bool carries(const Dependence &d, int loop);

/// The loops that carry `d`, outermost first, by variable.
std::vector<std::string> loops_carrying(const LoopDependences &ld, const Dependence &d);

/// The constant distance of `d` along loop `loop`, if it is one.
std::optional<int64_t> distance(const Dependence &d, int loop);

/// Whether a dependence constrains the order of the points of the nest
/// around it: on a shared array any dependence, on a private one a flow
/// dependence between different points (a value carried from one point to
/// another). Reductions never: their partials are combined at the end.
bool constrains_points(const LoopDependences &ld, const Dependence &d);

/// Whether the iterations of loop `loop` may run in any order and in
/// parallel: it carries no dependence but those of reductions and, for a
/// loop of the nest, the anti and output dependences of private arrays
/// (each point has its own copy).
bool loop_is_free(const LoopDependences &ld, int loop);

/// The dependences that constrain the points and are carried by a loop of
/// the kernel's perfect nest, in the order of LoopDependences::dependences.
std::vector<const Dependence *> nest_carried(const LoopDependences &ld);

/// An array assignment within one array (Kernel::array_assignment) runs as
/// Fortran runs it, the whole right side read before any element is
/// assigned, only where no point of its nest touches an element that
/// another point writes. The first such dependence as a refusal at the
/// statement, with its kind and its distance per dimension; a copy whose
/// shift is no constant is refused as well, its dependence assumed. None for
/// other kernels.
std::optional<Diagnostic> array_assignment_dependence(const Kernel &k, const LoopDependences &ld);

/// Every dependence, one per line: "flow S0 -> S1 on 'u' (i,j,k) -> (i,j,k-1)
/// carried by k distance (1,0,0): <relation>". For tests and --emit.
std::string print_dependences(const LoopDependences &ld);

} // namespace f2s
