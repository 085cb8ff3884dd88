#include "harness/TimeTileTuner.h"

#include "ast/Evaluate.h"
#include "codegen/CPrinter.h"
#include "codegen/CSizeDispatch.h"
#include "codegen/CTimeStream.h"
#include "codegen/CTimeTile.h"
#include "codegen/CudaHarnessPrinter.h"
#include "codegen/CudaPrinter.h"
#include "codegen/CudaTimeStream.h"
#include "codegen/CudaTimeTile.h"
#include "harness/CudaTuner.h"
#include "harness/ProblemSize.h"
#include "strategy/MachineModel.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>

namespace f2s {

namespace {

/// The steps a tuning run takes: the harness runs the serial steps once per
/// candidate as its reference, so few, but on the GPU a multiple of every T
/// the candidates take but 5 and 7 (1-4, 6, 8, 12): a streaming chunk's
/// length is a constant of the kernel that runs the full chunks, and a
/// call's last, shorter chunk runs a slower instance that reads it, so with
/// 8 steps T = 12 was measured as that instance alone and T = 6 as one chunk
/// of each, not as a call of many steps runs them. On the CPU, 16: its
/// chunks are as even as can be and even in number (codegen/CTimeTile), so
/// 8 steps ran T = 8 as two chunks of 4 and measured T = 4 under T = 8's
/// name.
constexpr int64_t kTuningTrips = 24;
constexpr int64_t kCpuTuningTrips = 16;

const KernelBuild &build_named(const std::vector<KernelBuild> &builds, const std::string &name) {
  for (const KernelBuild &b : builds)
    if (b.kernel.name == name)
      return b;
  throw std::logic_error("time tiling: no build of sweep '" + name + "'");
}

const Choice &choice_for(const KernelBuild &b, const std::string &target) {
  for (const Choice &c : b.choices)
    if (c.code.variant.target == target)
      return c;
  throw std::logic_error("time tiling: no " + target + " choice for '" + b.kernel.name + "'");
}

/// The sweep that spans every dimension, whose tuning size sizes the loop.
const Kernel &sizing_sweep(const TimeTilePlan &p, const std::vector<KernelBuild> &builds) {
  for (const TileStage &s : p.stages)
    if (std::none_of(s.vars.begin(), s.vars.end(), [](const std::string &v) { return v.empty(); }))
      return build_named(builds, s.sweep).kernel;
  return build_named(builds, p.stages.front().sweep).kernel;
}

} // namespace

ProblemSize time_loop_tuning_size(const TimeLoop &t, const Kernel &sweep, int64_t trips) {
  ProblemSize ps = problem_size_for(sweep, sweep.tune_size);
  std::map<std::string, std::string> by_name;
  size_t i = 0;
  for (const Variable &v : sweep.args)
    if (!v.is_grid())
      by_name[v.name] = ps.scalar_values.at(i++);
  // The bound that is a scalar makes `trips` steps: the upper one of a
  // loop counting up, the lower one of a loop counting down (DO it = nt, 1, -1).
  // (-1 is a negation of 1 in the IR: the step and the fixed bound are
  // folded.)
  const std::map<std::string, int64_t> none;
  std::optional<int64_t> step = eval_int(t.step, none);
  const Var *var_bound = nullptr;
  std::optional<int64_t> fixed_bound;
  if (step && *step > 0) {
    var_bound = as<Var>(t.hi);
    fixed_bound = eval_int(t.lo, none);
  } else if (step && *step < 0) {
    var_bound = as<Var>(t.lo);
    fixed_bound = eval_int(t.hi, none);
  }
  if (var_bound && fixed_bound) {
    // Up: hi = lo + (trips - 1) * step; down: lo = hi - (trips - 1) * step.
    ps.ints[var_bound->name] = *fixed_bound + (*step > 0 ? 1 : -1) * (trips - 1) * *step;
    by_name[var_bound->name] = std::to_string(ps.ints[var_bound->name]);
  }
  ProblemSize out;
  out.extents = ps.extents;
  out.ints = ps.ints;
  for (const Variable &v : t.signature.args) {
    if (v.is_grid())
      continue;
    auto it = by_name.find(v.name);
    if (t.writes_scalar(v.name))
      out.scalar_values.push_back("0");
    else if (it != by_name.end())
      out.scalar_values.push_back(it->second);
    else if (v.type == Type::Int32)
      out.scalar_values.push_back("1");
    else
      out.scalar_values.push_back("0.5");
  }
  return out;
}

namespace {

/// The model's input at `size`; with the streaming form's ring bytes for T
/// up to `stream_steps` where the grids have two dimensions or more.
TimeTileSpaceInput space_input(const TimeLoop &t, const TimeTilePlan &p, const ProblemSize &size,
                               long stream_steps = 0) {
  TimeTileSpaceInput in;
  if (p.rank >= 2 && stream_steps > 0) {
    in.stream_bytes_per_column.assign(stream_steps + 1, 0);
    for (long T = 1; T <= stream_steps; ++T)
      in.stream_bytes_per_column[T] = c_time_stream_bytes_per_column(t, p, static_cast<int>(T));
  }
  for (const std::string &g : p.state)
    in.element_bytes.push_back(type_bytes(t.signature.find_arg(g)->type));
  const Variable *first = t.signature.find_arg(p.state.front());
  for (const Dim &d : first->dims) {
    std::optional<int64_t> lo = eval_int(d.lo, size.ints), hi = eval_int(d.hi, size.ints);
    in.extents.push_back(lo && hi ? std::max<int64_t>(*hi - *lo + 1, 1) : 256);
  }
  return in;
}

std::vector<const Kernel *> sweep_kernels(const TimeLoop &t,
                                          const std::vector<KernelBuild> &builds) {
  std::vector<const Kernel *> out;
  for (const std::string &s : t.sweeps())
    out.push_back(&build_named(builds, s).kernel);
  return out;
}

/// The name of the loop's tiled variant of form `form` on `target`.
std::string tiled_variant(const std::string &target, CTimeTileForm form) {
  return target + (form == CTimeTileForm::Streaming ? "_streamed" : "_tiled");
}

/// The variant code of the loop's tiled form, with its tuning parameters
/// (streaming: its pipeline for chunks of at most `stream_steps` steps).
VariantCode tiled_code(const TimeLoop &t, const TimeTilePlan &p,
                       const std::vector<const Kernel *> &sweeps, const std::string &target,
                       CTimeTileForm form = CTimeTileForm::Overlapped,
                       int stream_steps = kCTimeStreamSteps) {
  const std::string variant = tiled_variant(target, form);
  VariantCode code;
  code.variant = {target, variant.substr(target.size() + 1), {}, {}};
  code.ir = t.signature;
  code.ir.tuning.clear();
  auto param = [](std::string name) {
    Variable v;
    v.name = std::move(name);
    v.type = Type::Int32;
    return v;
  };
  code.ir.tuning.push_back(param("f2s_time_tile"));
  for (int d = 0; d < p.rank; ++d)
    code.ir.tuning.push_back(param("f2s_tile" + std::to_string(d)));
  code.c_name = c_variant_name(t.signature, variant);
  code.c_function = print_c_tile_box_helpers() + print_c_tile_regions(t, p) +
                    print_c_time_tiled(t, p, sweeps, variant, form, stream_steps);
  return code;
}

/// Of a tuning whose variant 0 is the steps: the steps' time into
/// c.steps_s, and the index of the fastest verified tiled result, if any.
std::optional<size_t> steps_and_fastest_tile(const KernelTuning &kt, TimeTileChoice &c) {
  std::optional<size_t> best;
  for (size_t i = 0; i < kt.results.size(); ++i) {
    const CandidateResult &r = kt.results[i];
    if (r.status != CandidateStatus::Verified)
      continue;
    if (r.candidate.variant == 0)
      c.steps_s = r.seconds;
    else if (!best || r.seconds < kt.results[*best].seconds)
      best = i;
  }
  return best;
}

std::map<std::string, long> tune_map(const VariantCode &code, const std::vector<long> &tune) {
  std::map<std::string, long> m;
  for (size_t i = 0; i < tune.size(); ++i)
    m[code.ir.tuning[i].name] = tune[i];
  return m;
}

} // namespace

TimeTileChoice choose_time_tiles(const TimeLoop &t, const TimeTilePlan &plan,
                                 const std::vector<KernelBuild> &builds, const CpuModel &machine,
                                 const TimeTileRequest &request) {
  TimeTileChoice c;
  c.loop = t.signature.name;
  c.target = request.target;
  const Kernel &sizer = sizing_sweep(plan, builds);
  ProblemSize size = time_loop_tuning_size(t, sizer, kCpuTuningTrips);
  const bool force_stream =
      request.forced > 0 && c_time_tile_form(request.form, plan) == CTimeTileForm::Streaming;
  // The streaming form's pipeline is printed for chunks of at most
  // kCTimeStreamSteps steps when tuned, of T when forced.
  const long stream_steps = force_stream ? request.forced : kCTimeStreamSteps;
  TimeTileSpaceInput in = space_input(t, plan, size, stream_steps);
  // Measured at the tuning size, tiles are cut to it; forced, the loop may
  // run at any size, and a tile wider than a call's domain is the domain.
  if (!request.tune)
    std::fill(in.extents.begin(), in.extents.end(), int64_t{1} << 30);
  std::vector<TimeTileCandidate> space = time_tile_candidates(plan, in, machine);
  std::vector<TimeTileCandidate> streams = time_stream_candidates(plan, in, machine);
  c.steps_bytes = steps_bytes_per_point_step(plan, in);
  int threads = request.target == "c" ? 1 : 0;
  if (request.forced > 0) {
    const std::vector<TimeTileCandidate> &from = force_stream ? streams : space;
    auto it = std::find_if(from.begin(), from.end(),
                           [&](const TimeTileCandidate &k) { return k.tune[0] == request.forced; });
    // Streaming, the tile is sized when the call's size is known: all of x
    // (3D) and even shares of the next dimension among the threads, all of
    // the slowest (CTimeTile.h's extents of 0).
    std::vector<long> tune = {request.forced};
    for (int d = 0; d < plan.rank; ++d)
      tune.push_back(force_stream ? 0 : it != from.end() ? it->tune[1 + d] : d == 0 ? 64 : 8);
    c.tiled = true;
    c.tune = tune;
    c.threads = threads;
    c.form =
        c_time_tile_form_name(force_stream ? CTimeTileForm::Streaming : CTimeTileForm::Overlapped);
    c.tiled_bytes = it != from.end() && !force_stream ? it->bytes_per_point_step : 0;
    c.why = "--time-tile=" + std::to_string(request.forced) + ", " + c.form;
    return c;
  }
  if (!request.tune || (space.empty() && streams.empty())) {
    c.why = space.empty() && streams.empty() ? "no tile's buffers fit the cache a thread has"
                                             : "not tuned";
    return c;
  }

  // The steps with each sweep's choice, and the tiled candidates of both
  // forms, against the steps with serial sweeps.
  std::vector<const Kernel *> sweeps = sweep_kernels(t, builds);
  std::string reference;
  std::vector<SweepCall> serial, chosen;
  std::string chosen_code;
  for (const std::string &s : t.sweeps()) {
    const Kernel &k = build_named(builds, s).kernel;
    const Choice &ch = choice_for(build_named(builds, s), request.target);
    reference += print_c_args_struct(k) + print_c_variant(k, "reference");
    serial.push_back({"reference", {}, 1});
    chosen_code += ch.code.c_function;
    chosen.push_back({ch.code.variant.target + "_" + ch.code.variant.name,
                      tune_values(ch.code, ch.candidate), ch.candidate.threads});
  }
  reference += print_c_time_loop_variant(t, sweeps, serial, "reference");
  SearchSpace ss;
  std::vector<VariantCode> variants(1);
  variants[0].variant = {request.target, "steps", {}, {}};
  variants[0].ir = t.signature;
  variants[0].ir.tuning.clear();
  variants[0].c_name = c_variant_name(t.signature, request.target + "_steps");
  variants[0].c_function =
      chosen_code + print_c_time_loop_variant(t, sweeps, chosen, request.target + "_steps");
  ss.candidates.push_back({0, threads, {}});
  // Each form's most promising candidates (the model's order), as variant
  // 1 and 2 where it has any, taken in turn so that a tuning budget that
  // stops early has measured both: in 3D the streaming form's first (the
  // overlapped tiles redo their halo in every dimension), in 2D the
  // overlapped form's (measured faster on the heat loop).
  const size_t most = 12;
  std::vector<const std::vector<TimeTileCandidate> *> forms;
  std::vector<const std::vector<TimeTileCandidate> *> order = {&space, &streams};
  if (plan.rank >= 3)
    std::swap(order[0], order[1]);
  for (const std::vector<TimeTileCandidate> *list : order) {
    if (list->empty())
      continue;
    CTimeTileForm form = list == &streams ? CTimeTileForm::Streaming : CTimeTileForm::Overlapped;
    variants.push_back(tiled_code(t, plan, sweeps, request.target, form));
    forms.push_back(list);
  }
  for (size_t i = 0; i < most; ++i)
    for (size_t f = 0; f < forms.size(); ++f)
      if (i < forms[f]->size())
        ss.candidates.push_back({f + 1, threads, tune_map(variants[f + 1], (*forms[f])[i].tune)});
  for (VariantCode &v : variants) {
    v.harness_reference = reference;
    ss.variants.push_back(v.variant);
  }
  ss.considered = space.size() + streams.size() + 1;
  TuneOptions o = request.options;
  o.log = nullptr;
  // A budget the sweeps' tuning may well spend on the steps alone at a
  // size beyond the caches (one serial reference run of 16 steps at 512^3
  // takes seconds) still leaves one tile of each form measured.
  o.always_measured = 1 + forms.size();
  KernelTuning kt = tune_kernel(t.signature, ss, variants, size, o);
  c.trips = kCpuTuningTrips;
  std::optional<size_t> best_tiled = steps_and_fastest_tile(kt, c);
  const TimeTileCandidate *best = nullptr;
  if (best_tiled) {
    const CandidateResult &r = kt.results[*best_tiled];
    c.tiled_s = r.seconds;
    c.tune = tune_values(variants[r.candidate.variant], r.candidate);
    for (const TimeTileCandidate &k : *forms[r.candidate.variant - 1])
      if (k.tune == c.tune)
        best = &k;
    if (best)
      c.tiled_bytes = best->bytes_per_point_step;
    c.form = c_time_tile_form_name(forms[r.candidate.variant - 1] == &streams
                                       ? CTimeTileForm::Streaming
                                       : CTimeTileForm::Overlapped);
  }
  c.tiled = best_tiled && (c.steps_s <= 0 || c.tiled_s < c.steps_s);
  c.threads = threads;
  // Of the tiles, those measured (a budget may stop before the last).
  std::set<size_t> tried;
  for (const CandidateResult &r : kt.results)
    if (r.candidate.variant != 0)
      tried.insert(r.index);
  char of[80] = "";
  if (tried.size() < ss.candidates.size() - 1)
    std::snprintf(of, sizeof of, "; %zu more not measured within --budget",
                  ss.candidates.size() - 1 - tried.size());
  char buf[280];
  std::snprintf(buf, sizeof buf,
                "measured at %s, %lld steps: step by step %.3g s, tiled %.3g s (%s, best of %zu%s)",
                size_name(sizer.tune_size).c_str(), static_cast<long long>(kCpuTuningTrips),
                c.steps_s, c.tiled_s, best ? best->describe().c_str() : "none verified",
                tried.size(), of);
  c.why = buf;
  // Grids that fit the last-level cache at the tuning size make the steps
  // run from the cache there: larger calls, from memory, gain more from tiles
  // than this measured.
  double state_bytes = 0, points = 1;
  for (int64_t e : in.extents)
    points *= static_cast<double>(e);
  for (int b : in.element_bytes)
    state_bytes += b * points;
  if (const CacheLevel *llc = machine.last_level_cache();
      llc && state_bytes <= static_cast<double>(llc->size_bytes))
    c.why += "; at this size the grids fit the last-level cache, so the steps ran from it: tune "
             "at a size that does not (--tune-size) to choose for larger calls";
  c.tuning = std::move(kt);
  return c;
}

namespace {

/// The tiles of `form` with T = `steps` that fit a block's limits, the
/// likeliest first: overlapped, a fixed list (wide in x, a warp's row of points,
/// coalesced; then as deep as 100 KiB of shared memory allows: the halo of
/// T steps is redone by the blocks beside), 256 threads a block;
/// streaming, the tiles whose columns are whole warps first, then the
/// slowest dimension walked in segments and a thread per column
/// of the block's plane where that fits (its planes in registers), the
/// registers of the block within the GPU's 64 Ki (a kernel's own about 40
/// a thread), then as wide as the shared memory allows. `last`, when none
/// fits, receives the smallest of the list.
std::vector<CudaTimeTileParams> fitting_cuda_tiles(const TimeLoop &t, const TimeTilePlan &plan,
                                                   CudaTimeTileForm form, int steps,
                                                   CudaTimeTileParams *last = nullptr) {
  const bool streaming = form == CudaTimeTileForm::Streaming;
  std::vector<std::vector<int64_t>> list;
  if (streaming)
    // Segments of the slowest dimension (128 planes in 3D, 256 rows in 2D)
    // give a grid enough blocks to fill the GPU (a 2D tile 512 wide walking
    // all of 4096 rows made 8 blocks); each redoes the T steps' halo at its
    // two ends, a few percent at these lengths.
    list = plan.rank == 3
               ? std::vector<std::vector<int64_t>>{{64, 16, 128}, {32, 16, 128}, {32, 8, 128},
                                                   {16, 16, 128}, {16, 8, 128},  {8, 8, 128},
                                                   {8, 4, 128}}
               : std::vector<std::vector<int64_t>>{
                     {512, 256}, {256, 256}, {128, 256}, {64, 256}, {32, 256}};
  else if (plan.rank == 1)
    list = {{4096}, {2048}, {1024}, {512}, {256}};
  else if (plan.rank == 2)
    list = {{128, 64}, {64, 64}, {128, 32}, {64, 32}, {32, 32}, {32, 16}, {32, 8}};
  else
    list = {{64, 16, 16}, {32, 16, 16}, {32, 16, 8}, {32, 8, 8}, {32, 8, 4}, {16, 8, 4}};
  if (streaming) {
    // First the tiles whose columns, with the halo of T steps, are whole
    // warps, one a thread: 256 wide in 2D, 32x32 in 3D, less the halo. A
    // block of 256 to 1024 threads then wastes no lane, and in 2D a block
    // of 256 keeps its registers under 255 a thread where 512 and more spill
    // (2D heat at T = 8: 96 registers and 1.4 KiB of spills at 544 threads,
    // bench/RESULTS.md).
    std::vector<std::vector<int64_t>> warp_tiles;
    auto less_halo = [&](int64_t width, int d) {
      return width - int64_t(steps) * (plan.reach_lo[d] + plan.reach_hi[d]);
    };
    if (plan.rank == 3) {
      warp_tiles = {{less_halo(32, 0), less_halo(32, 1), 128},
                    {less_halo(32, 0), less_halo(16, 1), 128}};
    } else if (plan.rank == 2) {
      warp_tiles = {{less_halo(256, 0), 256}, {less_halo(512, 0), 256}};
    }
    std::erase_if(warp_tiles, [&](const std::vector<int64_t> &tile) {
      return std::any_of(tile.begin(), tile.end(), [](int64_t e) { return e < 8; }) ||
             std::find(list.begin(), list.end(), tile) != list.end();
    });
    list.insert(list.begin(), warp_tiles.begin(), warp_tiles.end());
  }
  std::vector<CudaTimeTileParams> out;
  for (const std::vector<int64_t> &tile : list) {
    CudaTimeTileParams p;
    p.form = form;
    p.steps = steps;
    p.tile = tile;
    p.threads = 256;
    if (!streaming) {
      if (cuda_time_tile_shared_bytes(t, plan, p) <= 100 * 1024)
        out.push_back(p);
      if (last)
        *last = p;
      continue;
    }
    // Streaming: a thread holds 1 or 2 columns. Two columns a thread take
    // a tile twice as wide in a block (less of the halo of T steps redone)
    // with half the barriers per point, for more registers a thread; the
    // tuner measures which pays. (Four a thread never won on an H100: 3D
    // and 2D Jacobi, bench/RESULTS.md.)
    const int64_t columns = cuda_time_stream_columns(plan, p);
    bool any = false;
    for (int64_t m : {1, 2}) {
      p.threads = static_cast<int>((columns + m - 1) / m + 31) / 32 * 32;
      if (p.threads > 1024 || (m > 1 && (columns + m - 2) / (m - 1) <= p.threads))
        continue; // too many threads, or no fewer than m - 1 columns a thread takes
      int64_t regs = cuda_time_stream_registers(t, plan, p) + kStreamKernelRegisters;
      if (regs <= 255 && regs * p.threads <= kMultiprocessorRegisters &&
          cuda_time_tile_shared_bytes(t, plan, p) <= 100 * 1024) {
        out.push_back(p);
        any = true;
      }
    }
    if (last && !any) {
      *last = p;
      last->threads = static_cast<int>(std::min<int64_t>(1024, (columns + 31) / 32 * 32));
    }
  }
  return out;
}

/// The model's bytes per point of the domain and step of a GPU candidate:
/// each chunk of T steps loads every state grid over its blocks' need
/// boxes and stores it over their output boxes (streaming: the slowest
/// dimension whole, so no halo along it, and a grid the chunk reads only
/// outside its first writer's domain, b of a ping-pong, not at all).
double cuda_tile_bytes(const TimeLoop &t, const TimeTilePlan &plan, const CudaTimeTileParams &p) {
  double bytes = 0;
  const bool streaming = p.form == CudaTimeTileForm::Streaming;
  const std::vector<bool> moved =
      streaming ? cuda_time_stream_moved(t, plan, p) : std::vector<bool>(plan.state.size(), true);
  for (size_t k = 0; k < plan.state.size(); ++k) {
    const std::string &g = plan.state[k];
    if (!moved[k]) // moved outside its first writer's domain only: a boundary
      continue;
    const Variable *v = t.signature.find_arg(g);
    double need = 1, out = 1;
    for (int d = 0; d < plan.rank; ++d) {
      if (streaming && d == plan.rank - 1)
        continue;
      need *= static_cast<double>(p.tile[d] + p.steps * (plan.reach_lo[d] + plan.reach_hi[d]));
      out *= static_cast<double>(p.tile[d]);
    }
    bytes += (v ? type_bytes(v->type) : 8) * (need / out + 1) / p.steps;
  }
  return bytes;
}

const Kernel &sweep_named(const std::vector<const Kernel *> &sweeps, const std::string &name) {
  for (const Kernel *k : sweeps)
    if (k->name == name)
      return *k;
  throw std::logic_error("time tiling: no sweep '" + name + "'");
}

/// "overlapped T=2 64x16x16", "streaming T=4 32x16x128" (the last: the
/// segment of the slowest dimension a block walks; left out when the
/// block walks all of it), ", 2 columns a thread" where a streaming
/// thread holds more than one.
std::string describe_cuda_tile(const TimeTilePlan &plan, const CudaTimeTileParams &p) {
  const bool streaming = p.form == CudaTimeTileForm::Streaming;
  std::string s = std::string(cuda_time_tile_form_name(p.form)) + " T=" + std::to_string(p.steps);
  int shown = streaming && p.tile.back() <= 0 ? plan.rank - 1 : plan.rank;
  for (int d = 0; d < shown; ++d)
    s += (d ? "x" : " ") + std::to_string(p.tile[d]);
  if (streaming) {
    int64_t m = (cuda_time_stream_columns(plan, p) + p.threads - 1) / p.threads;
    if (m > 1)
      s += ", " + std::to_string(m) + " columns a thread";
  }
  return s;
}

} // namespace

TimeTileChoice choose_cuda_time_tiles(const TimeLoop &t, const TimeTilePlan &plan, long forced,
                                      const std::string &form) {
  TimeTileChoice c;
  c.loop = t.signature.name;
  c.target = "cuda";
  // The steps' bytes depend on the grids' element sizes only, not on a size.
  c.steps_bytes = steps_bytes_per_point_step(plan, space_input(t, plan, ProblemSize{}));
  if (forced <= 0) {
    c.why = "GPU time tiles are chosen by tuning, or with --time-tile=N";
    return c;
  }
  CudaTimeTileParams p;
  std::vector<CudaTimeTileParams> fit =
      fitting_cuda_tiles(t, plan, cuda_time_tile_form(form, plan), static_cast<int>(forced), &p);
  // Streaming: the widest tile whose thread holds one column, where one
  // fits: two columns a thread spill registers (the 3D ping-pong at T = 1:
  // 32x16 one column a thread ran 13% faster than 64x16 two, H200).
  auto one_column = std::find_if(fit.begin(), fit.end(), [&](const CudaTimeTileParams &q) {
    return q.form == CudaTimeTileForm::Streaming && cuda_time_stream_columns(plan, q) <= q.threads;
  });
  if (one_column != fit.end())
    p = *one_column;
  else if (!fit.empty())
    p = fit.front();
  c.tiled = true;
  c.tune = {forced};
  c.tune.insert(c.tune.end(), p.tile.begin(), p.tile.end());
  c.threads = p.threads;
  c.form = cuda_time_tile_form_name(p.form);
  c.tiled_bytes = cuda_tile_bytes(t, plan, p);
  c.why = "--time-tile=" + std::to_string(forced) + ", " + c.form + ", " +
          std::to_string(cuda_time_tile_shared_bytes(t, plan, p)) +
          " bytes of shared memory a block";
  return c;
}

std::vector<CudaTimeTileParams> cuda_time_tile_candidates(const TimeLoop &t,
                                                          const TimeTilePlan &plan) {
  std::vector<CudaTimeTileParams> out;
  std::vector<CudaTimeTileForm> forms = {CudaTimeTileForm::Overlapped};
  if (plan.rank >= 2)
    forms.push_back(CudaTimeTileForm::Streaming);
  for (CudaTimeTileForm form : forms)
    for (int steps : {1, 2, 3, 4, 6, 8, 12}) {
      // T = 12 streams in 2D only: a 2D heat tile ran fastest there by hand
      // (bench/gpu/probe_time_stream.cu, H200); in 3D its halo is most of
      // a 32x32 block.
      if (steps == 12 && (form != CudaTimeTileForm::Streaming || plan.rank != 2))
        continue;
      // T = 1 streams a step's sweeps through one pass: a ping-pong's or a
      // copy back's second grid then stays where it is (only its boundary
      // moves), half the steps' traffic. Overlapped T = 1 gains nothing.
      if (steps == 1 && form != CudaTimeTileForm::Streaming)
        continue;
      // The two widest tiles, each with every thread count that fits.
      std::vector<std::vector<int64_t>> tiles;
      for (const CudaTimeTileParams &p : fitting_cuda_tiles(t, plan, form, steps)) {
        if (std::find(tiles.begin(), tiles.end(), p.tile) == tiles.end())
          tiles.push_back(p.tile);
        if (tiles.size() > 2)
          break;
        out.push_back(p);
      }
    }
  return out;
}

std::vector<VariantCode> cuda_time_loop_variants(const TimeLoop &t, const TimeTilePlan &plan,
                                                 const std::vector<const Kernel *> &sweeps,
                                                 const std::vector<const VariantCode *> &chosen,
                                                 std::vector<CudaTimeTileParams> &params) {
  // The serial steps, as the CPU's tuning checks against.
  std::string reference;
  std::vector<SweepCall> serial;
  for (const std::string &name : t.sweeps()) {
    const Kernel &k = sweep_named(sweeps, name);
    reference += print_c_args_struct(k) + print_c_variant(k, "reference");
    serial.push_back({"reference", {}, 1});
  }
  reference += print_c_time_loop_variant(t, sweeps, serial, "reference");

  auto loop_variant = [&](const std::string &name) {
    VariantCode v;
    v.variant = {"cuda", name, {}, {}};
    v.ir = t.signature;
    v.ir.tuning.clear();
    v.c_name = c_variant_name(t.signature, "cuda_" + name);
    v.harness_reference = reference;
    return v;
  };
  std::vector<VariantCode> variants;
  // The steps: each sweep's CUDA launcher on the harness's device copies of
  // the grids, in the loop's order (print_c_time_loop_variant), as the
  // library's procedure runs them with the grids resident.
  {
    VariantCode v = loop_variant("steps");
    std::vector<CudaSweepCode> code;
    for (const VariantCode *c : chosen)
      code.push_back({&c->ir, c->cuda_source, c->variant.target + "_" + c->variant.name});
    v.cuda_source = print_cuda_time_loop_steps(t, sweeps, code, "cuda_steps");
    v.cuda_call = c_variant_name(t.signature, "cuda_steps") + "(&d, NULL, 1);";
    variants.push_back(std::move(v));
  }
  // The tiled procedures map the host grids themselves: the harness enters
  // them into the residency table, as a data region does.
  for (size_t i = 0; i < params.size(); ++i) {
    CudaTimeTileParams &p = params[i];
    p.symbol = "f2s_tuned_" + t.signature.name + "_" + std::to_string(i);
    p.fallback.clear();
    p.comment = "candidate " + describe_cuda_tile(plan, p);
    VariantCode v = loop_variant(describe_cuda_tile(plan, p));
    v.cuda_source = print_cuda_time_tiled_loop(t, plan, sweeps, p);
    v.cuda_call = print_cuda_harness_entry_call(t.signature, p.symbol);
    v.cuda_resident = true;
    variants.push_back(std::move(v));
  }
  return variants;
}

TimeTileChoice tune_cuda_time_tiles(const TimeLoop &t, const TimeTilePlan &plan,
                                    const std::vector<KernelBuild> &builds,
                                    const TuneOptions &options) {
  TimeTileChoice c;
  c.loop = t.signature.name;
  c.target = "cuda";
  const Kernel &sizer = sizing_sweep(plan, builds);
  ProblemSize size = time_loop_tuning_size(t, sizer, kTuningTrips);
  c.steps_bytes = steps_bytes_per_point_step(plan, space_input(t, plan, size));
  std::vector<const Kernel *> sweeps = sweep_kernels(t, builds);
  std::vector<const VariantCode *> chosen;
  for (const std::string &s : t.sweeps())
    chosen.push_back(&choice_for(build_named(builds, s), "cuda").code);
  std::vector<CudaTimeTileParams> params = cuda_time_tile_candidates(t, plan);
  std::vector<VariantCode> variants = cuda_time_loop_variants(t, plan, sweeps, chosen, params);
  SearchSpace space;
  for (size_t i = 0; i < variants.size(); ++i) {
    space.variants.push_back(variants[i].variant);
    space.candidates.push_back({i, 0, {}});
  }
  space.considered = space.candidates.size();

  TuneOptions o = options;
  o.log = nullptr;
  o.live = nullptr;
  KernelTuning kt;
  kt.kernel = t.signature.name;
  kt.size = size;
  kt.space = space;
  kt.search = "exhaustive";
  auto start = std::chrono::steady_clock::now();
  tune_cuda(t.signature, space, variants, size, o, kt.results);
  kt.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::optional<size_t> best = steps_and_fastest_tile(kt, c);
  c.trips = kTuningTrips;
  std::string best_name = "none verified";
  if (best) {
    const CudaTimeTileParams &p = params[kt.results[*best].candidate.variant - 1];
    c.tiled_s = kt.results[*best].seconds;
    c.tune = {p.steps};
    c.tune.insert(c.tune.end(), p.tile.begin(), p.tile.end());
    c.threads = p.threads;
    c.form = cuda_time_tile_form_name(p.form);
    c.tiled_bytes = cuda_tile_bytes(t, plan, p);
    best_name = describe_cuda_tile(plan, p);
  }
  // The steps win a tie, and whenever they were not measured the tiles are
  // not trusted either (something is wrong with the harness).
  c.tiled = best && c.steps_s > 0 && c.tiled_s < c.steps_s;
  if (!c.tiled) {
    c.tune.clear();
    c.form.clear();
    c.threads = 0;
  }
  char buf[240];
  std::snprintf(buf, sizeof buf,
                "measured on the GPU at %s, %lld steps: step by step %.3g s, tiled %.3g s (%s, "
                "best of %zu)",
                size_name(sizer.tune_size).c_str(), static_cast<long long>(kTuningTrips), c.steps_s,
                c.tiled_s, best_name.c_str(), params.size());
  c.why = buf;
  c.tuning = std::move(kt);
  return c;
}

std::string print_time_tiled_code(const TimeLoop &t, const TimeTilePlan &plan,
                                  const std::vector<const Kernel *> &sweeps,
                                  const TimeTileChoice &c) {
  CTimeTileForm form = c_time_tile_form(c.form, plan);
  int steps = form == CTimeTileForm::Streaming && !c.tune.empty()
                  ? static_cast<int>(std::max<long>(c.tune[0], 1))
                  : kCTimeStreamSteps;
  return tiled_code(t, plan, sweeps, c.target, form, steps).c_function;
}

std::string print_time_tiled_entry(const TimeLoop &t, const TimeTilePlan &plan,
                                   const TimeTileChoice &c, const std::string &symbol,
                                   const std::string &comment) {
  return print_c_entry(t.signature, symbol, tiled_variant(c.target, c_time_tile_form(c.form, plan)),
                       c.tune, c.threads, comment);
}

} // namespace f2s
