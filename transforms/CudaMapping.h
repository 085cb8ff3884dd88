// Mapping a kernel's loop nest onto CUDA thread blocks (seed 000, Zhang and
// Mueller: the 2.5D column decomposition; seed 001: thread blocks iterating a
// tile over a core block).
#pragma once

#include "ast/IR.h"

namespace f2s {

struct CudaMappingOptions {
  int block_x = 32; ///< threads per block along x (BlockDim.x)
  int block_y = 4;  ///< threads per block along y (BlockDim.y)
  /// Points per thread along x and y: a block covers a tile of
  /// block_x*points_x by block_y*points_y points (BlockSize), each thread
  /// visiting points block_x apart so that a warp's accesses stay coalesced.
  int points_x = 1, points_y = 1;
  /// 0: one thread per point, z mapped to the grid of blocks (the plain
  /// mapping). >0: each thread streams along the slowest loop (z) through
  /// this many planes, so consecutive planes are reused from registers and
  /// cache instead of being fetched by different blocks.
  int stream_z = 0;
};

/// Rewrites the perfect nest of `k` (1 to 3 loops; x is the innermost) into
///
///   cuda.block.z  for z_b = zlo, zhi, zstep*stream_z   (or z itself when stream_z is 0)
///   cuda.block.y  for y_b = ylo, yhi, ystep*block_y*points_y
///   cuda.block.x  for x_b = xlo, xhi, xstep*block_x*points_x
///   cuda.thread.y for y_t = 0, block_y-1
///   cuda.thread.x for x_t = 0, block_x-1
///                 for z = z_b, min(z_b + (stream_z-1)*zstep, zhi), zstep
///   unrolled      for y = y_b + y_t*ystep, min(y_b + (tile_y-1)*ystep, yhi), block_y*ystep
///   unrolled      for x = x_b + x_t*xstep, min(x_b + (tile_x-1)*xstep, xhi), block_x*xstep
///                   body
///
/// (with one point per thread along an axis, its loop's hi is min(first, hi):
/// it runs at most once), which visits every point of the original nest exactly once, for every
/// problem size. In a nest with an ordered loop (Kernel::ordered), the other
/// loops are mapped as above (one thread per column, or per `points` columns)
/// and the ordered loop is a serial loop around the point loops inside the
/// thread, so each column runs it in order; such a nest is not streamed.
/// Loops whose bounds depend on another loop's variable, and
/// nests deeper than 3, are a user error (at the loop).
Kernel map_cuda(const Kernel &k, const CudaMappingOptions &options);

} // namespace f2s
