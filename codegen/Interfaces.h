// The two faces of a generated library: a Fortran module of explicit
// BIND(C) interfaces, and a C header declaring the same entry points.
#pragma once

#include "ast/IR.h"

#include <string>
#include <vector>

namespace f2s {

/// One procedure the library exports.
struct EntryPoint {
  const Kernel *kernel;
  std::string fortran_name; ///< the name Fortran code calls
  std::string symbol;       ///< the C symbol behind it
  std::string comment;      ///< one line: what it runs
  /// The kernel's halo exchange (codegen/CMpiPrinter): a leading `f2s_comm`,
  /// the Fortran handle of a Cartesian communicator (INTEGER, by reference),
  /// then the kernel's arguments, every grid INTENT(INOUT).
  bool halo_exchange = false;
};

/// Whether a kernel has grids whose bounds its callers do not spell, or
/// LOGICAL scalars, which the C side takes as an int of 0 or 1 (a default
/// LOGICAL's bits are the compiler's), or a time loop's swap counters
/// (Variable::swaps_of): then the module declares each of its entry points
/// `E` as a wrapper that passes the bounds, converts the LOGICALs and swaps
/// the caller's pointers as the loop did, around the BIND(C) interface
/// `E_explicit`.
bool needs_wrapper(const Kernel &k);

/// The dummy arguments of the module's procedure `K` for kernel `k`, in
/// order: what a Fortran call of `K` passes (the wrapper's, without the bound
/// arguments and swap counters, where the kernel needs a wrapper; else every
/// argument).
std::vector<const Variable *> module_arguments(const Kernel &k);

/// `module <name>` with one interface per entry point: scalars by VALUE, grids
/// as explicit-shape arrays with the kernel's declared bounds, INTENT(IN)
/// for grids only read and INTENT(INOUT) for grids written (points the
/// kernel does not write keep their values).
std::string print_fortran_module(const std::string &module_name,
                                 const std::vector<EntryPoint> &entries,
                                 const std::string &header_comment);

/// Free-form Fortran text with every line of more than 132 characters (the
/// length gfortran accepts by default) continued with '&' on lines that fit:
/// after a comma where one fits, else anywhere, names and character literals
/// included. Comment lines are continued as comments.
std::string wrap_fortran_lines(const std::string &text);

/// `<name>.h`: the prototypes of the entry points, for C and C++ callers.
std::string print_c_header(const std::string &lib_name, const std::vector<EntryPoint> &entries,
                           const std::string &header_comment);

} // namespace f2s
