// Time loops: a `!$f2s stencil timesteps` region, a DO loop over time steps
// whose body runs sweeps, each a kernel of its own (tuned, packaged and
// callable like any other), and what moves data between them.
#pragma once

#include "ast/IR.h"

#include <string>
#include <vector>

namespace f2s {

enum class TimeStmtKind : uint8_t {
  Sweep,  ///< run a sweep (a nest of the body, or an array copy, lowered to a kernel)
  Assign, ///< `scalar = expression` between sweeps
  ExitIf, ///< `IF (condition) EXIT`: the loop ends there
  /// `tmp => a; a => b; b => tmp`: POINTER grids `var` and `other` exchange
  /// targets (and bounds); `counter`, an argument, counts the exchanges.
  Swap,
};

/// One statement of a time step, in source order.
struct TimeStmt {
  TimeStmtKind kind = TimeStmtKind::Sweep;
  std::string sweep;   ///< Sweep: the name of its kernel
  std::string var;     ///< Assign: the scalar assigned; Swap: the first pointer
  Expr value;          ///< Assign: its value; ExitIf: the condition
  std::string other;   ///< Swap: the second pointer
  std::string counter; ///< Swap: the argument that counts the swaps
  SourceLoc loc;
};

/// A DO loop over time: `do var = lo, hi, step` around `body`, run whole by
/// one library procedure. The expressions are over the scalars of
/// `signature.args` (and `var`).
struct TimeLoop {
  /// The library procedure's face: name (from the name(...) clause or
  /// <procedure>_<n>), procedure, loc (the directive), source (the DO
  /// construct, for --rewrite), and args: every variable the loop uses, in
  /// the order a kernel's are (the procedure's dummies, then declaration
  /// order, then bound arguments). The scalars the loop writes (the time
  /// variable, scalars assigned between sweeps, the sweeps' reductions) are
  /// its `reductions`, which makes them INTENT(INOUT) and passed by
  /// reference as a kernel's reductions are; their op means nothing here.
  /// `body`: every sweep's nest in a Block, in source order (what the
  /// analyses read the grids it reads and writes from). No loop over time.
  Kernel signature;
  std::string var; ///< the time variable, an INTEGER the loop leaves as Fortran's DO does
  Expr lo, hi, step;
  std::vector<TimeStmt> body;

  /// The sweeps' kernel names, in the order of the body, each once.
  std::vector<std::string> sweeps() const;
  /// Whether the loop writes scalar `name` (so takes it by reference).
  bool writes_scalar(const std::string &name) const;
};

/// The loop in the IR printer's notation, its sweeps by name:
///
///   time_loop heat_steps(nx, ny, nt, u, unew, it)
///     for it = 1 .. nt step 1
///       sweep heat_steps_1
///       sweep heat_steps_2
std::string print_time_loop(const TimeLoop &t);

} // namespace f2s
