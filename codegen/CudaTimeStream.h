// The streaming form of a time-tiled GPU procedure (codegen/CudaTimeTile.h,
// CudaTimeTileForm::Streaming), in the style of AN5D and EBISU: a block
// takes a tile of every dimension but the slowest (z) and walks it along z,
// the whole chunk of T steps in flight at once.
//
// The block computes what an overlapped tile (ast/TimeTiling.h) whose
// output box is the tile times the whole of z would, with the same region
// function (codegen/CTimeTile's print_c_tile_regions): the box C_q each stage
// q of the chunk computes and each state grid's need box. Instead of holding
// the need boxes whole, it holds each *version* of a state grid (as loaded,
// and as each stage of the chunk leaves it) in a ring of planes in shared
// memory:
//
// - A stage q computes the plane `z - lag_q` when the block loads plane z.
//   Its lag is the least that has every plane it reads written already:
//   the largest over the versions it reads of their lag plus the furthest
//   plane ahead it reads (and the version of each grid it writes, which it
//   continues, at its own plane).
// - A version's ring holds as many planes as its readers still need: from
//   the one its producer writes down to the oldest any reader reads.
// - Stage q's version of a grid w it writes is the previous version of w
//   outside C_q (copied: the boundaries the sweeps do not write, the halo
//   the stage need not compute) and the sweep's own statements inside C_q
//   (everywhere copied first where the sweep reads w itself, as the
//   overlapped buffer holds it). So each version holds, plane for plane,
//   what the overlapped tile's buffer of w holds after stage q: the results
//   are bitwise the loop's, for every size and trip count.
// - The last version of each state grid in the chunk is written to the
//   other version in memory over the tile's output box as its planes are
//   completed. A barrier separates the stages at each plane.
//
// A chunk of T steps then reads and writes each grid once, as the overlapped
// form does, but redoes only the halo in x and y, never in z, and holds
// (2r+1) planes per stage instead of the whole need box.
#pragma once

#include "codegen/CudaTimeTile.h"

#include <cstdint>
#include <string>
#include <vector>

namespace f2s {

/// The parts of the streaming form that codegen/CudaTimeTile prints around.
struct CudaTimeStream {
  /// `static F2S_HD long f2s_<symbol>_rings(const long *ext, long *offset)`:
  /// from the state grids' extents (`f2s_ext`'s layout, print_c_tile_domains)
  /// the byte offset of each version's ring in dynamic shared memory, and the
  /// total it returns. The kernel and the procedure both call it.
  std::string rings;
  /// The kernel's statements for the tile at hand, after its output box
  /// `f2s_out` and its regions `f2s_comp`, `f2s_need` are computed (and a
  /// barrier passed), with `a`, `f2s_smem`, `f2s_ext`, the scalars and each
  /// state grid's `f2s_x<k>_lo<d>`, `_hi<d>`, `_s<d>` in scope. It leaves
  /// the rings free for the next tile.
  std::string body;
  /// The most dynamic shared memory one block takes, at any size (bytes).
  int64_t shared_bytes = 0;
  int versions = 0; ///< rings: offsets `rings` fills
};

/// The streaming form of the procedure of `p` (p.form is Streaming; p.tile's
/// extent along the slowest dimension is not used: the block walks the whole
/// of it). Needs a plan of rank 2 or more; throws std::invalid_argument
/// otherwise.
CudaTimeStream print_cuda_time_stream(const TimeLoop &t, const TimeTilePlan &plan,
                                      const std::vector<const Kernel *> &sweeps,
                                      const CudaTimeTileParams &p);

/// print_cuda_time_stream's shared_bytes, without printing.
int64_t cuda_time_stream_shared_bytes(const TimeLoop &t, const TimeTilePlan &plan,
                                      const CudaTimeTileParams &p);

} // namespace f2s
