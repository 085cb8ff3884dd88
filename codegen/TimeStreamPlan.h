// The plane pipeline of a time loop's streaming form (AN5D's), shared by the
// targets that print it (codegen/CudaTimeStream.h for the GPU,
// codegen/CTimeStream.h for threads): a tile of every dimension but the
// slowest (z) walks z, the chunk's T steps all in flight at once.
//
// The state grids (ast/TimeTiling.h) are kept as *versions*: each grid as
// loaded, and as each stage instance of the chunk leaves it. When plane z
// is loaded, stage instance q computes the plane `z - lag_q`; its lag is
// the least that has every plane it reads written already (the largest
// over the versions it reads of their lag plus the furthest plane ahead it
// reads, and the lag of each version it continues). A version must keep
// its planes as far back as its readers reach: the point's own column
// (`regs` planes: the continued value and reads at offset 0 but in z) and
// its neighbours' (`from`..`to` planes back). The targets keep them where
// they like (registers and shared rings on the GPU, rings of planes on the
// CPU); the plan is the same.
#pragma once

#include "ast/TimeTiling.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace f2s {

/// One version of a state grid in a chunk of the most steps: as loaded
/// (producer -1) or as stage instance `producer` (step * S + stage) leaves
/// it. Its planes are numbered back from its newest: 0 the newest, 1 the
/// one before. The GPU keeps `regs` of them in each thread's registers and
/// planes `from`..`to` (read at a neighbour's column) in a ring of shared
/// memory `ring` planes deep.
struct TimeStreamVersion {
  int grid = 0;
  int producer = -1;
  int64_t lag = 0; ///< its newest plane trails the loaded plane by this much
  /// The planes back read at the point's own column (and continued), plus
  /// one; at least 1, and after planning at least from + 1.
  int64_t regs = 1;
  int64_t from = -1, to = -1; ///< the planes neighbours read, numbered back from the newest
  int64_t ring = 0;           ///< to - from + 1; 0: no neighbour reads it
  /// As loaded: read by a stage (else only continued where its first
  /// writer does not compute, and loaded only there).
  bool read = false;

  /// The planes back any reader reaches, plus one: how deep a ring that
  /// holds all of them must be.
  int64_t depth() const { return std::max(regs, to + 1); }
};

/// What one stage instance of the chunk reads and writes.
struct TimeStreamInstance {
  int step = 0, stage = 0;
  int64_t lag = 0;
  std::vector<int> reads;  ///< per state grid: the version it reads (-1: none)
  std::vector<int> writes; ///< per state grid: the version it makes (-1: none)
  std::vector<int> prev;   ///< per state grid it writes: the version it continues
  /// It reads a grid it writes at the point itself (that read sees the
  /// version it makes, holding the continued value until the point stores).
  bool reads_itself = false;
  /// A copy back `Y = X` (TileStage::copy_of) renamed: the version of Y it
  /// makes is the version of X it reads (writes[Y] == reads[X]), so it
  /// has no registers, ring or work of its own; where a chunk's last values
  /// of Y are due, they are stored from X's version. Y's values then differ
  /// from the copy's only outside the box the copy computes, which no later
  /// stage reads: the copy computes all of Y the block holds.
  bool renamed = false;
};

/// The pipeline of a chunk of `steps` steps of a plan. A chunk of fewer
/// steps uses the first instances and versions: lags only grow with the
/// stages before.
struct TimeStreamPlan {
  const TimeTilePlan *tiles = nullptr;
  std::vector<const Variable *> state; ///< the state grids, in tiles->state's order
  int R = 0;                           ///< the grids' rank
  int Z = 0;                           ///< the dimension walked: the slowest, R - 1
  int G = 0;                           ///< state grids
  int S = 0;                           ///< stages a step
  int steps = 0;                       ///< T
  /// A stage reads a neighbour's column of a version at least this many
  /// planes behind the version's newest (`from` >= gap): with 1 the GPU
  /// needs one barrier a plane, not one a stage, as no stage reads at
  /// another thread's column what the same plane's pass made (0: the
  /// least lags, the CPU's).
  int64_t gap = 0;
  bool rename = false;                       ///< copy backs renamed (TimeStreamInstance::renamed)
  std::vector<TimeStreamVersion> versions;   ///< the G loaded first, then in instance order
  std::vector<TimeStreamInstance> instances; ///< T * S of them
  std::vector<int64_t> lag_max;              ///< per chunk length n (0..T): its stages' largest lag
  std::vector<std::vector<int>> last; ///< per step: per state grid, the instance writing it last

  /// The index of state grid `g`, or -1.
  int state_index(const std::string &g) const;
  /// Stage s writes grid g.
  bool writes(int s, const std::string &g) const;
  /// A read at `off` reads the point's own column (every offset but z is 0).
  bool centre(const std::vector<int64_t> &off) const;
};

/// The pipeline of loop `t`'s plan for chunks of at most `steps` steps,
/// neighbours' columns read at least `gap` planes behind (TimeStreamPlan::gap).
/// With `rename`, copy backs are renamed (TimeStreamInstance::renamed).
/// Needs a plan of rank 2 or more and steps >= 1; throws
/// std::invalid_argument otherwise.
TimeStreamPlan plan_time_stream(const TimeLoop &t, const TimeTilePlan &plan, int steps,
                                int64_t gap = 0, bool rename = false);

} // namespace f2s
