// Printing a time loop tiled in time (ast/TimeTiling.h's scheme) as C for
// the thread pool, and the per-tile region computation that the CUDA printer
// (codegen/CudaTimeTile.h) shares.
#pragma once

#include "ast/TimeTiling.h"

#include <string>
#include <vector>

namespace f2s {

/// The tuning values of a time-tiled variant, in order: the steps per chunk
/// T, then the tile's extent in each dimension of the state grids (x first).
inline size_t time_tile_tuning_count(const TimeTilePlan &p) {
  return 1 + static_cast<size_t>(p.rank);
}

/// Box helpers and `F2S_HD` (host and device under nvcc), once per file.
std::string print_c_tile_box_helpers();

/// `static F2S_HD void f2s_<loop>_regions(const long *out, int nsteps,
///  const long *dom, const long *ext, long *comp, long *need)`: for a tile
/// whose output box is `out` ([lo0, hi0, lo1, hi1, ...]) and a chunk of
/// `nsteps` steps, the box each stage computes (`comp`, nsteps*S boxes, stage
/// q = step*S + s) and the box of each state grid the tile must hold (`need`,
/// one per grid of plan.state), from the stages' domains `dom` (S boxes) and
/// the state grids' declared extents `ext`. An empty box has lo > hi in some
/// dimension. Needs print_c_tile_box_helpers.
std::string print_c_tile_regions(const TimeLoop &t, const TimeTilePlan &p);

/// The name of that function.
std::string c_tile_regions_name(const TimeLoop &t);

/// The lines of a time-tiled CPU variant (either form) that open the loop
/// over this thread's tiles (`f2s_t` from `f2s_tid` by `f2s_nthreads` up to
/// `f2s_x->total`) and find the tile's output box `f2s_out` (tiles of
/// `f2s_x->tile` over `f2s_x->space`) and its regions in `f2s_comp` and
/// `f2s_need` for a chunk of `f2s_nsteps`. The caller closes the loop.
std::string print_c_tile_loop_head(const TimeLoop &t, int rank);

/// The loops of stage `s` over its box (the C names F_f2s_tlo<d> and
/// F_f2s_thi<d> hold it), in its sweep's loop order, around its point;
/// the loop over dimension `skip` left out (the streaming form's z: the
/// plane at hand), none when -1.
Stmt c_tile_stage_nest(const Kernel &sweep, const TileStage &s, int skip = -1);

/// Lines that fill `long f2s_dom[S*2*rank]` and `long f2s_ext[G*2*rank]`
/// (declared by them) from the signature's scalars, which must be in scope
/// under their C names (print_c_prologue of t.signature).
std::string print_c_tile_domains(const TimeLoop &t, const TimeTilePlan &p);

/// How the thread pool's tiles cover the grids.
enum class CTimeTileForm {
  /// Tiles of every dimension, each with the halo of T steps in buffers of
  /// its own thread.
  Overlapped,
  /// Tiles of every dimension but the slowest, each walked along it with
  /// the chunk's steps in flight (codegen/CTimeStream.h): no halo redone
  /// along the slowest dimension. Grids of rank 2 or more.
  Streaming,
};

/// "overlapped" or "streaming".
const char *c_time_tile_form_name(CTimeTileForm f);

/// The form named `name` ("streaming" where the plan's grids have rank 2 or
/// more; anything else overlapped).
CTimeTileForm c_time_tile_form(const std::string &name, const TimeTilePlan &plan);

/// The variant `f2s_<loop>_<variant>(const struct f2s_<loop>_args *a,
/// const long *tune, int nthreads)` (the signature kernel's args struct,
/// print_c_args_struct) that runs the whole loop in chunks of tune[0] steps,
/// tiles of tune[1..rank] points divided among `nthreads` threads of the
/// pool, each tile in buffers of its own thread. Bitwise the step-by-step
/// loop's results for every size and trip count. Needs the box helpers and
/// the regions function before it; print_c_entry makes its entry point.
/// Streaming: chunks of at most `stream_steps` steps (tune[0] is cut to
/// it), the tile's extent along the slowest dimension the segment a tile
/// walks; an extent of 0 is all of its dimension, but in the dimension
/// before the slowest, where it is an even share among the threads.
std::string print_c_time_tiled(const TimeLoop &t, const TimeTilePlan &p,
                               const std::vector<const Kernel *> &sweeps,
                               const std::string &variant,
                               CTimeTileForm form = CTimeTileForm::Overlapped,
                               int stream_steps = 8);

/// Lines (at `pad`) a tile's stage of `sweep` at step `step` of the chunk
/// (a C expression; the context `f2s_x` in scope) starts with: the time
/// variable at that step, and the layout of each grid only read whose
/// bounds hold it.
std::string print_c_tile_step_scalars(const TimeLoop &t, const TimeTilePlan &p, const Kernel &sweep,
                                      const std::string &step, const std::string &pad);

/// `(void)` of every argument of `k` and of its grids' layouts
/// (print_c_prologue's locals), which a tile's task may not read.
std::string print_c_tile_unused(const Kernel &k);

/// A sweep's code in a step-by-step variant: the C function of one of its
/// variants (its args struct printed elsewhere, once) and how to call it.
struct SweepCall {
  std::string variant;    ///< c_variant_name(sweep, variant) is the function's name
  std::vector<long> tune; ///< its tuning values
  int threads = 1;
};

/// The loop run step by step as a variant `f2s_<loop>_<variant>(const struct
/// f2s_<loop>_args *a, const long *tune, int nthreads)` (tune and nthreads
/// unused), each sweep by `calls[i]` (in the order of t.sweeps()) through an
/// entry point of its own (`f2s_<variant>_<sweep>`), the loop itself by
/// print_c_time_loop. The sweeps' args structs and variant functions must
/// precede it. What a time-tiled variant is checked against (the serial
/// sweeps) and timed against (the sweeps' tuned variants).
std::string print_c_time_loop_variant(const TimeLoop &t, const std::vector<const Kernel *> &sweeps,
                                      const std::vector<SweepCall> &calls,
                                      const std::string &variant);

} // namespace f2s
