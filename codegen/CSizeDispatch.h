// Entry points of a kernel tuned at several sizes: a selector that finds the
// tuned size nearest a call's, and entries that run that size's variant.
#pragma once

#include "ast/IR.h"
#include "codegen/CPrinter.h"

#include <string>
#include <vector>

namespace f2s {

/// One tuned size of a kernel: its extents (x first) and the working set of a
/// call at those extents, in bytes (the compulsory bytes per point times the
/// points).
struct TunedSize {
  std::vector<int64_t> extents;
  double bytes = 0;
};

/// The working set of a call at `extents`: `bytes_per_point` times the points.
double working_set_bytes(const std::vector<int64_t> &extents, int64_t bytes_per_point);

/// The working sets up to which each size serves calls (the last: any), for
/// `sizes` sorted by working set: the geometric mean of each neighbouring pair,
/// so that a call goes to the size nearest its own on a log scale.
std::vector<double> dispatch_bounds(const std::vector<TunedSize> &sizes);

/// "64x64x64".
std::string size_name(const std::vector<int64_t> &extents);

/// `static int <selector>(const struct f2s_<args_of>_args *a)`: the index
/// into `sizes` (sorted by working set) of the tuned size nearest the call,
/// from the trips of `k`'s loops (k untransformed: its perfect nest) at the
/// call's arguments. `args_of` names a kernel with k's arguments (k itself or
/// its first touch).
std::string print_c_size_selector(const Kernel &k, const std::string &args_of,
                                  const std::string &selector, const std::vector<TunedSize> &sizes,
                                  int64_t bytes_per_point);

/// What an entry point runs for the calls of one or more tuned sizes.
struct SizedCall {
  std::vector<size_t> sizes; ///< indices of the tuned sizes it serves
  std::string variant;       ///< as print_c_entry's `variant`
  std::vector<long> tune;
  int threads = 1;
  std::string comment;
};

/// A public entry point like print_c_entry's that runs, for each call, the
/// SizedCall serving the size `selector` returns (print_c_size_selector's
/// function for `k`'s arguments must precede it, and the aliasing functions
/// as print_c_entry says).
std::string print_c_sized_entry(const Kernel &k, const std::string &symbol,
                                const std::string &selector, const std::vector<SizedCall> &calls,
                                const std::string &comment,
                                AliasedCalls aliased = AliasedCalls::Unchecked,
                                EntryForm form = EntryForm::Public);

/// `int <symbol>(args...)`: the index of the tuned size a call with these
/// arguments runs the variant of (calls no kernel): for tests, and for a user
/// who wants to know which variant a call takes.
std::string print_c_size_query(const Kernel &k, const std::string &symbol,
                               const std::string &selector, const std::vector<TunedSize> &sizes);

} // namespace f2s
