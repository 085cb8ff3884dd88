// Time tiling (temporal blocking) of a time loop (ast/TimeLoop.h): whether a
// loop can compute several steps per trip to memory, and the facts the
// targets' time-tiled procedures are printed from.
//
// The scheme every target prints (codegen/CTimeTile.cpp for threads,
// codegen/CudaTimeTile.cpp for the GPU) is overlapped tiling (seed 004,
// Algorithms 1-5), exact for any boundary the sweeps themselves update:
//
// - The grids the sweeps write (the state) have two versions in memory: the
//   caller's arrays and a scratch copy. The steps run in chunks of at most T.
//   A chunk reads the current version and writes the other one whole.
// - The tile space is the hull of the state grids' declared extents, cut into
//   tiles (the tile's output box O). For a chunk of n steps, a tile computes,
//   backwards over the n*S stages (S stages a step), the box each stage must
//   compute and the box of each state grid it must hold (tile_regions below):
//   every state grid needs O at the end; stage q computes
//       C_q = D_q ∩ hull(need[w] for each grid w it writes)
//   (D_q its sweep's domain), and then needs every grid it writes over C_q,
//   and every grid b it reads over C_q widened by its read offsets of b, each
//   clipped to b's extents. Hulls over-approximate: the extra points computed
//   are never read by a point that is needed, and lie inside the buffers.
// - The tile loads each state grid's final need box from the current
//   version into a buffer of its own (thread-local memory, shared memory),
//   runs the stages in order over their C_q with the sweep's own point code
//   (grids read only are read where they are; the time variable, which a
//   point may read, holds its value of the stage's step), and writes O of every state
//   grid to the other version. Every point of every state grid is written
//   each chunk, so the other version is whole; after the last chunk the
//   scratch version, when current, is copied to the caller's arrays.
// Each point is computed by the sweep's statements from the same values, so
// the results are bitwise those of the loop run step by step.
#pragma once

#include "ast/TimeLoop.h"

#include <optional>
#include <string>
#include <vector>

namespace f2s {

/// The offsets at which a stage reads one state grid, per dimension.
struct TileRead {
  std::string grid;
  std::vector<int64_t> lo, hi; ///< the smallest and largest offset per dimension
  /// Every distinct offset it reads at, in the order first read (the GPU's
  /// streaming form keeps a point's own column apart from its neighbours').
  std::vector<std::vector<int64_t>> offsets;
};

/// One sweep of a step, as a box of points over the state grids' dimensions.
struct TileStage {
  std::string sweep; ///< the kernel's name
  /// Per dimension of the state grids: the loop variable that subscripts it
  /// (coefficient 1), or empty where the sweep stores at a constant
  /// (`constant[d]`; a boundary sweep with fewer loops than the grids).
  std::vector<std::string> vars;
  std::vector<int64_t> constant;
  /// The sweep's points per dimension, inclusive: its loop's bounds (over the
  /// signature's scalars) or the constant.
  std::vector<Expr> lo, hi;
  std::vector<std::string> writes; ///< the state grids it stores to, at the point itself
  /// The state grids it reads, with their offsets from the point (in a
  /// constant dimension, from the constant).
  std::vector<TileRead> reads;
  /// Where the sweep is a copy back, `w = copy_of` at every point of the
  /// grid w it writes (its only statement, over w's declared bounds, the two
  /// grids declared alike: a heat loop's `u = unew`), the grid it copies;
  /// empty otherwise. The time-tiled forms rename it instead of copying.
  std::string copy_of;
};

/// What a time-tiled procedure is printed from.
struct TimeTilePlan {
  int rank = 0;
  std::vector<std::string> state; ///< the grids the sweeps write, in the signature's order
  std::vector<TileStage> stages;  ///< one step's sweeps, in order
  /// Per dimension: how far a step's results reach back, below and above
  /// (the sum over the stages of their largest read offsets). A tile of T
  /// steps loads T times as much halo.
  std::vector<int64_t> reach_lo, reach_hi;
};

/// The plan, or why the loop cannot be time-tiled (`reason`, one sentence
/// in the style of a diagnostic, at `loc`); the loop then runs step by step.
struct TimeTiling {
  std::optional<TimeTilePlan> plan;
  std::string reason;
  SourceLoc loc;
};

/// Whether the loop's steps can be tiled, and how. `sweeps`: its sweep
/// kernels, as the front end lowered them.
TimeTiling plan_time_tiling(const TimeLoop &t, const std::vector<const Kernel *> &sweeps);

/// The plan in the IR printer's notation, for --emit=ir and the record:
///
///   time_tiling rank 2, state u unew, reach -1..1 -1..1
///     stage heat_steps_1: unew at (i, j) over 1..nx, 1..ny; reads u -1..1 -1..1
std::string print_time_tile_plan(const TimeTilePlan &p);

} // namespace f2s
