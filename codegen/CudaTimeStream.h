// The streaming form of a time-tiled GPU procedure (codegen/CudaTimeTile.h,
// CudaTimeTileForm::Streaming), in the style of AN5D and EBISU: a block
// takes a tile of every dimension but the slowest (z) and walks it along z
// (all of z, or a segment of it), the whole chunk of T steps in flight at
// once.
//
// The block computes what an overlapped tile (ast/TimeTiling.h) whose
// output box is the tile times its segment of z would, with the same region
// function (codegen/CTimeTile's print_c_tile_regions): the box C_q each stage
// q of the chunk computes and each state grid's need box. Instead of holding
// the need boxes whole, it keeps each *version* of a state grid (as loaded,
// and as each stage of the chunk leaves it) a few planes deep:
//
// - A stage q computes the plane `z - lag_q` when the block loads plane z.
//   Its lag is the least that has every plane it reads written already:
//   the largest over the versions it reads of their lag plus the furthest
//   plane ahead it reads (and the version of each grid it writes, which it
//   continues, at its own plane).
// - Each thread holds fixed columns (points of the x-y plane of the block,
//   the hull of the need boxes) and keeps, per version, the newest planes of
//   its columns in registers, as many as the reads at the column itself
//   reach back (AN5D's register pipeline); the planes read at a neighbour's
//   column also go to a ring in shared memory (for a 7-point star, one plane
//   a version).
// - Stage q's version of a grid w it writes is the previous version of w
//   outside C_q (the boundaries the sweeps do not write, the halo the stage
//   need not compute) and the sweep's own statements inside C_q (starting
//   from the previous value where the sweep reads w at the point itself, as
//   the overlapped buffer holds it). So each version holds, plane for plane,
//   what the overlapped tile's buffer of w holds after stage q: the results
//   are bitwise the loop's, for every size and trip count.
// - The last version of each state grid in the chunk goes to the other
//   version in memory over the tile's output box as its planes complete.
// - One barrier a plane, not one a stage: the lags keep every read of a
//   neighbour's column at least a plane behind its version's newest
//   (TimeStreamPlan::gap), and each ring is one plane deeper than its
//   readers reach, so the plane a stage stores in a pass is read only in
//   the next, after the barrier that ends the pass.
//
// - A copy back of a whole array (TileStage::copy_of) is renamed, not
//   computed: the version it would make is the one it reads.
//
// A chunk of T steps then reads and writes each grid once, as the overlapped
// form does, but redoes only the halo in x and y, never in z.
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
  /// barrier passed), with `a`, `f2s_nsteps` (the chunk's steps), `f2s_smem`, `f2s_ext`, the
  /// scalars and each state grid's `f2s_x<k>_lo<d>`, `_hi<d>`, `_s<d>` in scope. It leaves the
  /// rings free for the next tile.
  std::string body;
  /// The most dynamic shared memory one block takes, at any size (bytes).
  int64_t shared_bytes = 0;
  /// The blocks a multiprocessor is to hold at once, as the kernel's launch
  /// bounds ask of ptxas: 2 where the register model (the columns' planes
  /// plus kStreamKernelRegisters a thread) has room for two blocks and is
  /// more than a tenth beyond room for three, else 1 (no request). Left to
  /// itself, ptxas gave the 2D heat kernel at T = 12 163 registers (one
  /// block) and at T = 8 104; asked for two blocks, 128 and 124, and they
  /// ran 1.39x and 1.12x faster (H200; 1.10x at T = 8 on an H100). Where
  /// ptxas keeps three blocks or more itself, asking for two lets it take
  /// more registers and lose a block: T = 4 (64 registers, four blocks; 90
  /// asked for two) 1.57x slower on the H200, T = 6 (80, three; 108) 1.25x
  /// slower on an H100. The model is within a tenth of what ptxas takes
  /// there (T = 6: 88 against 80; T = 8: 96 against 104), hence the margin
  /// (bench/RESULTS.md, "The 2D target on an H100").
  int min_blocks = 1;
  int versions = 0; ///< rings: offsets `rings` fills
};

/// The streaming form of the procedure of `p` (p.form is Streaming; a
/// block walks the segment of the slowest dimension p.tile's last extent
/// gives, with the halo its T steps need at both ends, or all of it for
/// 0). Needs a plan of rank 2 or more; throws std::invalid_argument
/// otherwise.
CudaTimeStream print_cuda_time_stream(const TimeLoop &t, const TimeTilePlan &plan,
                                      const std::vector<const Kernel *> &sweeps,
                                      const CudaTimeTileParams &p);

/// print_cuda_time_stream's shared_bytes, without printing.
int64_t cuda_time_stream_shared_bytes(const TimeLoop &t, const TimeTilePlan &plan,
                                      const CudaTimeTileParams &p);

/// Registers a streaming kernel takes beside its columns' planes (its boxes,
/// bounds, offsets and counters), about: the model by which tiles are
/// chosen (harness/TimeTileTuner) and the launch bounds asked for.
inline constexpr int64_t kStreamKernelRegisters = 40;

/// The 32-bit registers of a multiprocessor, the most one block may take
/// (sm_70 and later).
inline constexpr int64_t kMultiprocessorRegisters = 65536;

/// The 32-bit registers one thread keeps its columns' planes in (every
/// version's registers, times the columns a thread holds), beside the
/// kernel's own: a block of p.threads threads fits the GPU's 64 Ki
/// registers only when threads times (this plus the kernel's) does.
int64_t cuda_time_stream_registers(const TimeLoop &t, const TimeTilePlan &plan,
                                   const CudaTimeTileParams &p);

/// Per state grid (plan.state's order): whether a chunk but the call's last
/// moves it whole (loads its need box, stores its output box). A grid the
/// chunk reads only where its first writer does not compute (b of a
/// ping-pong) is loaded and stored only outside that writer's domain.
std::vector<bool> cuda_time_stream_moved(const TimeLoop &t, const TimeTilePlan &plan,
                                         const CudaTimeTileParams &p);

/// The static shared memory the streaming kernel's body declares beside
/// the boxes (bytes): the bounds along z its tested passes read, two a stage
/// of a step and four a state grid, as ints.
int64_t cuda_time_stream_static_bytes(const TimeTilePlan &plan);

/// The points of a plane one block holds at most: the product over the
/// dimensions but the slowest of tile + T*(reach below + reach above).
int64_t cuda_time_stream_columns(const TimeTilePlan &plan, const CudaTimeTileParams &p);

} // namespace f2s
