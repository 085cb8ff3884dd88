// Staging planes of read-only grids in shared memory for a streamed CUDA
// mapping (seed 000, Zhang and Mueller: 2.5D blocking with shared-memory
// planes; seed 002, Meng et al.: choosing per grid where it is buffered,
// greedily, from a model).
#pragma once

#include "ast/IR.h"

#include <string>
#include <vector>

namespace f2s {

/// Statically declared shared memory of a block is limited to 48 KiB.
constexpr int64_t kStaticSharedBytes = 48 * 1024;

/// The shared memory, in bytes, that staging `grids` of the mapped kernel
/// `k` needs: per grid, one plane more than the planes it reads at once (so
/// one barrier per plane suffices), each the tile widened by the grid's halo.
int64_t shared_bytes(const Kernel &k, const std::vector<std::string> &grids);

/// The shared memory, in bytes, of the mapped kernel's reduction trees (one
/// element per thread of the block per reduction; codegen/CudaPrinter).
int64_t reduction_shared_bytes(const Kernel &k);

/// The grids of `k` (mapped by map_cuda with stream_z > 0) worth staging,
/// chosen greedily: read-only grids read at three or more positions of a
/// plane (their neighbours would otherwise be loaded again through L1/L2 by
/// every point), the most such reads first, while the total fits in
/// `budget_bytes` less what the kernel's reduction trees take. Empty when the mapping does not
/// stream or nothing pays.
std::vector<std::string> choose_shared_grids(const Kernel &k, int64_t budget_bytes);

/// Records that the planes of `grids` are staged in shared memory
/// (Kernel::shared_planes) with the halo each one's reads need; the CUDA
/// printer emits the loads, the barrier and the shared-memory reads. The
/// kernel must be mapped by map_cuda with stream_z > 0 and unit steps, and
/// each grid must be read only, at its loop point plus constants.
Kernel stage_planes(const Kernel &k, const std::vector<std::string> &grids);

/// Records (Kernel::register_columns) the grids of `k` that the z stream
/// keeps in registers: read-only grids not staged in shared memory, read on
/// the point's own column at two or more planes. Those reads come from
/// registers; reads beside the column stay loads. Only mappings with a z
/// stream and one point per thread have columns to keep; for others the
/// kernel is returned unchanged. Seed 000's register pipeline: each step
/// loads one new plane of the column.
Kernel pipeline_columns(const Kernel &k);

} // namespace f2s
