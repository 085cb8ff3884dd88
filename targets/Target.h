// A target: one way of running a kernel (serial C, threads, the GPU, and next
// their time-tiled forms), behind the one interface the driver loops over.
// A target owns its machine model, the engine that enumerates its candidates
// and composes their passes (strategy/), the code of each (harness/Variants,
// codegen/), the harness that verifies and times them, and what its choices
// add to the packaged library. A new target is a new subclass in its own
// files and one line in targets/Targets.cpp; docs/targets.md says how.
#pragma once

#include "harness/Package.h"
#include "harness/TimeTileChoice.h"
#include "harness/Tuner.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

class TuningDb;
struct CpuModel;
struct TimeLoop;
struct TimeTilePlan;

/// Fortran names have at most 63 characters.
constexpr size_t kMaxFortranName = 63;

/// What the driver decided for the whole run, the same for every target.
struct TargetRun {
  bool tune = true; ///< false: each target's default candidate, nothing timed
  /// false: the library's sources are the output (--emit), so no compiler is
  /// run and none need be installed.
  bool build = true;
  /// The machine f2stencil runs on; the library's threads are placed on it.
  const CpuModel *host = nullptr;
  std::filesystem::path work_dir; ///< harnesses go here (when tuning)
  /// Compilations at once, time limit, repetitions, C flags and budget; a
  /// target sets the work directory, placement, log and progress of each
  /// kernel's tuning itself.
  TuneOptions tune_options;
  std::string search = "model"; ///< --search: "model", "exhaustive" or "compare"
  /// --candidates: only candidates whose description matches this regular
  /// expression are enumerated (SearchSpace::keep_matching); empty: all.
  std::string candidates;
  TuningDb *db = nullptr;                            ///< the tuning cache; null: none
  bool retune = false;                               ///< measure again what the cache holds
  bool exact = false;                                ///< no candidate that reassociates sums
  std::function<void(const std::string &)> progress; ///< one line per step
};

/// What --time-tile and --time-tile-form ask of every target's time loops.
struct TimeTileAsk {
  long forced = 0;  ///< --time-tile=N; 0: auto (measured when tuning, else the steps)
  std::string form; ///< --time-tile-form: "overlapped", "streaming" or empty (the default)
};

class Target {
public:
  virtual ~Target() = default;

  /// The --target names this target builds, in the order they were asked
  /// for. Each kernel gets one choice per name, exported as K_<name>.
  virtual const std::vector<std::string> &names() const = 0;

  /// Whether the library exports K_first_touch (zero in every grid, written
  /// by the threads that compute it) when this target is asked for.
  virtual bool first_touch() const = 0;

  /// Throws UserError when the library's name leaves no room for the names
  /// this target's procedures take from it.
  virtual void check_library_name(const std::string &lib_name) const { (void)lib_name; }

  /// Before the first kernel: probes the machine, when the target has one to
  /// probe, and says what it tunes on.
  virtual void begin(const TargetRun &run) { (void)run; }

  /// Adds this target's choice for each of its names to `b`, and to each of
  /// b.other_sizes (the kernel at its other tuning sizes): the fastest
  /// verified candidate when run.tune, the default candidate otherwise.
  /// What was measured joins b.tuning.
  virtual void add_choices(KernelBuild &b, const TargetRun &run) = 0;

  /// How this target runs time loop `t`, whose steps `plan` can tile
  /// (harness/TimeTileTuner.h): tiled in time where `ask` forces it or,
  /// when run.tune, where its tiles measured faster than the steps; step
  /// by step otherwise, saying why. After add_choices (the steps call each
  /// sweep's choice). Nothing where the target does not tile in time.
  virtual std::optional<TimeTileChoice> time_tile_choice(const TimeLoop &t,
                                                         const TimeTilePlan &plan,
                                                         const std::vector<KernelBuild> &builds,
                                                         const TimeTileAsk &ask,
                                                         const TargetRun &run) {
    (void)t, (void)plan, (void)builds, (void)ask, (void)run;
    return std::nullopt;
  }

  /// The lines --emit=ir prints after a loop's plan, before the choices,
  /// on how this target would tile it (each "  " and a newline); empty by
  /// default.
  virtual std::string describe_time_tiling(const TimeTilePlan &plan, const TimeTileAsk &ask) const {
    (void)plan, (void)ask;
    return {};
  }

  /// Adds to the library's files what this target's choices need beyond
  /// the C functions package_library wrote (sources in another language,
  /// procedures of its own, its time-tiled loops, facts for the record).
  virtual void package(LibraryFiles &files, const PackageInfo &info,
                       const std::vector<KernelBuild> &builds, const std::vector<TimeLoop> &loops,
                       const std::vector<TimeTileChoice> &tiles) const {
    (void)files, (void)info, (void)builds, (void)loops, (void)tiles;
  }
};

} // namespace f2s
