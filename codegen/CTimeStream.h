// The streaming form of a time loop tiled in time on the CPU (the thread
// pool's), after AN5D's plane pipeline (codegen/TimeStreamPlan.h, which
// the GPU's codegen/CudaTimeStream.h prints too).
//
// The overlapped form (codegen/CTimeTile.h) cuts the grids into tiles of
// every dimension and redoes the halo of T steps in each: in 3D a 7-point
// ping-pong tile of T = 4 computes 2-5 times its points. The streaming form
// takes a tile of every dimension but the slowest (z) and walks z plane by
// plane, the whole chunk of T steps in flight at once, so nothing is redone
// along z:
//
// - The tile computes what an overlapped tile whose output box is its x-y
//   tile times its segment of z (all of z by default) would, from the same
//   regions (print_c_tile_regions): the box each stage instance computes and
//   each grid's need box.
// - A grid as loaded that stages read is read where it is, in the current
//   version in memory. Each other version of each state grid (as each stage
//   instance of the chunk leaves it; as loaded, a grid only continued) is a
//   ring of the planes its readers still reach
//   (TimeStreamVersion::depth), each plane the hull of the need boxes in x
//   and y, contiguous in x so that a stage's inner loop is the sweep's own,
//   vectorised. The rings live in the thread's memory, sized to its cache by
//   the tuner (strategy/TimeTileSpace.h).
// - When plane z is loaded, stage instance q makes plane `z - lag_q` of its
//   version: the previous version's plane outside its sweep's domain (the
//   boundaries it does not write), its sweep's statements over its box. The
//   chunk's last version of each grid goes to the other version in memory,
//   over the tile's output box, as its planes complete.
//
// At every point a later stage or the output needs, each version's plane
// holds what the overlapped tile's buffer holds after the stage (points of
// the domain outside the stage's box are needed by no one, and left as they
// are), so the results are bitwise the steps', for every size and trip
// count.
#pragma once

#include "ast/TimeTiling.h"

#include <string>
#include <vector>

namespace f2s {

/// The chunks of the most steps a streaming variant prints its pipeline for
/// when tuning (T from 2 to 8 measured with one build).
constexpr int kCTimeStreamSteps = 8;

/// The streaming form's helper (guarded, once per file): a box minus a box,
/// copied.
std::string print_c_time_stream_helpers();

/// `static void <fn>_tiles(int f2s_tid, int f2s_nthreads, void *f2s_arg)`,
/// the thread pool's task of codegen/CTimeTile's variant `fn` (its context
/// struct `ctx`: the state grids' versions, the tile space, the chunk's
/// steps) in the streaming form: the thread's tiles of every dimension but
/// the slowest, each walked along it, for chunks of at most `steps` steps.
/// Needs a plan of rank 2 or more (std::invalid_argument otherwise), the box
/// helpers, print_c_time_stream_helpers and the regions function.
std::string print_c_time_stream_tiles(const TimeLoop &t, const TimeTilePlan &p,
                                      const std::vector<const Kernel *> &sweeps,
                                      const std::string &fn, const std::string &ctx, int steps);

/// The bytes a thread's rings take per point of the tile's plane (the hull
/// of its need boxes but z): over every version of a chunk of `steps` steps,
/// its planes times its element's bytes. The tuner sizes tiles with it.
int64_t c_time_stream_bytes_per_column(const TimeLoop &t, const TimeTilePlan &p, int steps);

} // namespace f2s
