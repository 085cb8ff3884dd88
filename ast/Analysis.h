// Facts about a kernel that the strategy, the harness and the reports need:
// which grid points are touched, how wide the halos are, how much work and
// compulsory memory traffic one point costs. Whether the nest may run in
// parallel at all is ast/Dependence.h's question.
#pragma once

#include "ast/IR.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace f2s {

/// Offsets from the loop point, one per grid dimension.
using Offset = std::vector<int64_t>;

struct GridFootprint {
  std::set<Offset> reads;
  std::set<Offset> writes;
};

struct KernelFacts {
  /// The nest's loop variables, innermost (unit stride, "x") first.
  std::vector<std::string> loop_vars;
  /// Per grid, the offsets it is read and written at. Subscripts that are
  /// constants (a fixed plane) count as offset 0 in that dimension.
  std::map<std::string, GridFootprint> footprint;
  /// Per loop dimension (x first): the largest |offset| any grid is read at.
  /// A dimension subscripted c*i + o with |c| > 1 counts the points of
  /// neighbours whose elements the reads reach (restriction's 2*i - 1 ..
  /// 2*i + 1: 1), not the offset.
  std::vector<int64_t> halo;
  /// Per grid: the largest |offset| it is read at, per grid dimension (for
  /// scaled subscripts, as for `halo`).
  std::map<std::string, std::vector<int64_t>> grid_halo;
  /// Floating-point operations per point: + - * / as written, x**n as n-1
  /// multiplications, one per intrinsic (min/max: one per comparison).
  /// Every branch of an IF counts, as if each were taken (an upper bound);
  /// comparisons, logical operators and MERGE's choice are not counted.
  int64_t flops = 0;
  /// Compulsory traffic per point, in bytes: each grid read once, each grid
  /// written once, and the write-allocate read of every grid that is written
  /// without being read (a cache line must be fetched before it is written).
  /// A grid read or written only inside an IF counts in full: its cache lines
  /// are fetched whenever some points of them take the branch. A grid
  /// accessed at scaled subscripts (`r(2*i - 1, 2*j, 2*k)`) counts as many
  /// elements per point as its accesses span (8 for a 3D restriction).
  int64_t read_bytes = 0;
  int64_t write_bytes = 0;
  int64_t write_allocate_bytes = 0;
  /// Grids read and written, in argument order.
  std::vector<std::string> read_set;
  std::vector<std::string> write_set;
  /// Grids of write_set that some points may leave unwritten: every store
  /// of them is inside an IF.
  std::vector<std::string> conditional_write_set;
  /// Grids of read_set that no access subscripts with every loop variable
  /// (profiles `dz(k)`, map factors `msfx(i,j)` in a 3D nest, constants
  /// `w(1)`): reused along the loops they lack, they cost no traffic per
  /// point and no plane in a block's working set.
  std::set<std::string> reused;

  int64_t bytes(bool with_write_allocate) const {
    return read_bytes + write_bytes + (with_write_allocate ? write_allocate_bytes : 0);
  }
  /// Flops per compulsory byte.
  double intensity(bool with_write_allocate) const {
    return static_cast<double>(flops) / static_cast<double>(bytes(with_write_allocate));
  }
};

/// Computes the facts of a kernel as the front end produced it (an
/// untransformed nest: loops around a block of stores and assignments).
KernelFacts analyze(const Kernel &k);

} // namespace f2s
