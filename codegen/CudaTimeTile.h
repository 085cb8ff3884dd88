// Printing a time loop with overlapped time tiles for the GPU (the scheme of
// ast/TimeTiling.h): one CUDA procedure that runs the whole loop, a chunk of
// at most T steps per kernel launch, one block per tile computing its chunk
// in shared memory.
//
// The printed text goes into the library's CUDA source after
// print_cuda_prelude() (it calls the residency functions of
// runtime/f2s_cuda_runtime.h):
//
//   struct f2s_S_tile_args { ... };          the kernel's arguments
//   __global__ void f2s_S_tile_kernel(...)   one block per tile, per chunk
//   extern "C" long f2s_S_shared_bytes(void) the most shared memory a block takes
//   extern "C" int  f2s_S_runnable(void)     1 when that fits this GPU
//   extern "C" void S(<the loop's arguments>)  the time loop
//
// for S = params.symbol. S has the loop's C signature
// (print_c_entry_prototype(t.signature, S)): the scalars it writes by
// reference, the time variable left as Fortran's DO leaves it.
#pragma once

#include "ast/TimeTiling.h"

#include <cstdint>
#include <string>
#include <vector>

namespace f2s {

/// How a block of a time-tiled GPU procedure covers its grids.
enum class CudaTimeTileForm {
  /// A tile of every dimension, its whole need box in shared memory (seed
  /// 004's overlapped tiles).
  Overlapped,
  /// A tile of every dimension but the slowest, walked along the slowest
  /// with the chunk's stages in a pipeline of planes (AN5D's streaming;
  /// codegen/CudaTimeStream.h). Grids of rank 2 or more.
  Streaming,
};

/// "overlapped" or "streaming".
const char *cuda_time_tile_form_name(CudaTimeTileForm f);

/// The form named `name` ("streaming", anything else overlapped) where it
/// applies to `plan`: streaming needs grids of rank 2 or more.
CudaTimeTileForm cuda_time_tile_form(const std::string &name, const TimeTilePlan &plan);

/// How a time-tiled GPU procedure runs.
struct CudaTimeTileParams {
  std::string symbol; ///< the C symbol of the procedure
  /// A C function with the same signature that runs the loop on the CPU, or
  /// empty. Called with the procedure's arguments when F2S_TARGET keeps the
  /// library on the CPU or when a block's shared memory exceeds what this
  /// GPU allows at the call's size; without one, such a call stops the
  /// program with the reason.
  std::string fallback;
  int steps = 2; ///< T: steps per chunk (one kernel launch), at least 1
  /// The tile's output box, points per dimension of the state grids (the
  /// plan's rank of them), each at least 1. Streaming: along the slowest
  /// dimension, the segment a block walks (with the halo of T steps at its
  /// ends), or 0 for all of it.
  std::vector<int64_t> tile;
  CudaTimeTileForm form = CudaTimeTileForm::Overlapped;
  int threads = 256;   ///< threads per block, 1 to 1024
  std::string comment; ///< one line on what it runs, printed above the procedure
};

/// The bytes of shared memory one block of the procedure takes at most
/// (whatever the call's size): overlapped, per state grid, its element size
/// times the product over dimensions of tile + T*(reach below + reach
/// above); streaming, per version of a state grid, its ring's planes of that
/// product over the dimensions but the slowest. A
/// configuration above the GPU's opt-in limit per block (227 KiB on sm_90)
/// cannot run; the tuner can drop it before building.
int64_t cuda_time_tile_shared_bytes(const TimeLoop &t, const TimeTilePlan &plan,
                                    const CudaTimeTileParams &p);

/// The CUDA source of the procedure `p.symbol` running `t` by `plan`
/// (plan_time_tiling(t, sweeps)). `sweeps`: the loop's sweep kernels, as the
/// front end lowered them (their point statements are printed unchanged).
/// Throws std::invalid_argument on parameters out of range (T < 1, a tile
/// of the wrong rank or with an extent < 1, threads outside 1..1024).
std::string print_cuda_time_tiled_loop(const TimeLoop &t, const TimeTilePlan &plan,
                                       const std::vector<const Kernel *> &sweeps,
                                       const CudaTimeTileParams &p);

} // namespace f2s
