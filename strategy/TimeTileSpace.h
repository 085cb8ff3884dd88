// The CPU engine's candidates for a time loop tiled in time (ast/TimeTiling.h):
// steps per chunk T and tile extents whose buffers fit the cache a thread has,
// with the traffic each is expected to move per step.
#pragma once

#include "ast/TimeTiling.h"

#include <cstdint>
#include <string>
#include <vector>

namespace f2s {

struct CpuModel;

/// One candidate: T, then the tile's extent per dimension (x first), as
/// codegen/CTimeTile.h's variant takes them.
struct TimeTileCandidate {
  std::vector<long> tune;
  /// The streaming form (codegen/CTimeStream.h): the tile's last extent is
  /// the segment of the slowest dimension it walks, 0 for all of it.
  bool streaming = false;
  /// The model: bytes one thread's buffers hold, and the bytes moved from
  /// and to memory per step per point of the domain (each chunk loads every
  /// tile with its halo and stores it once, over T steps).
  int64_t buffer_bytes = 0;
  double bytes_per_point_step = 0;
  /// Points computed per point of the domain and step (the halo's redone
  /// points make it more than 1).
  double redundancy = 1;
  std::string describe() const; ///< "T=4 tile 128x32", "streaming T=4 tile 512x16x0"
};

/// The bytes one element of each state grid takes (plan.state's order), and
/// the domain's extents per dimension (the tuning size).
struct TimeTileSpaceInput {
  std::vector<int> element_bytes;
  std::vector<int64_t> extents;
  /// The streaming form, per T (indexed by T; empty: not streamable): the
  /// bytes a thread's rings take per point of its plane
  /// (codegen/CTimeStream.h's c_time_stream_bytes_per_column).
  std::vector<int64_t> stream_bytes_per_column;
};

/// The candidates, most promising (least traffic per step) first: T in 2..8,
/// tiles whose buffers fit half the cache level a thread has beyond L1 (L2
/// per core) and that compute at most max(2, T/1.5) times the points they
/// keep (the halo's points are redone by the tiles beside).
/// Empty when none fits.
std::vector<TimeTileCandidate>
time_tile_candidates(const TimeTilePlan &p, const TimeTileSpaceInput &in, const CpuModel &machine);

/// The streaming form's candidates, most promising first (each T's best with
/// x whole, the smallest T first in 3D, then the model's order): T in 2..8 (those
/// in.stream_bytes_per_column has), tiles of every dimension but the
/// slowest (x whole or long, the others short) whose rings fit the larger of
/// a core's L2 and three quarters of its share of the last level, at least
/// a tile a core where the domain allows, each walking all of the slowest
/// dimension. Nothing is redone along it, so the model's
/// traffic and redundancy count the halo of the other dimensions only.
/// Empty when none fits or the grids have rank 1.
std::vector<TimeTileCandidate> time_stream_candidates(const TimeTilePlan &p,
                                                      const TimeTileSpaceInput &in,
                                                      const CpuModel &machine);

/// The bytes per point and step the loop run step by step moves: each
/// stage reads and writes its state grids once (the compulsory traffic of
/// ast/Analysis, state grids only).
double steps_bytes_per_point_step(const TimeTilePlan &p, const TimeTileSpaceInput &in);

} // namespace f2s
