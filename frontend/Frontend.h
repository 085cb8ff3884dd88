// Reading Fortran: the only interface of the front end. Nothing outside
// frontend/ sees Flang; this header exposes f2stencil's own IR only.
#pragma once

#include "ast/IR.h"
#include "ast/TimeLoop.h"
#include "frontend/HostAccesses.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

struct FrontendOptions {
  /// Directories searched by INCLUDE lines and #include, in order, after
  /// the including file's own folder.
  std::vector<std::string> include_dirs;
  /// Preprocessor macros, `NAME` (defined as 1) or `NAME=VALUE`.
  std::vector<std::string> defines;
  /// Every file's source form: true for fixed, false for free; empty: by
  /// each file's extension (see lower_file).
  std::optional<bool> fixed_form;
  /// The kind of default REAL (`real`, implicit REAL, literals such as
  /// `0.5`): 8 for a code built with gfortran's -fdefault-real-8.
  int default_real_kind = 4;
  /// The kind of DOUBLE PRECISION and of literals such as `1d0`: 16 under
  /// gfortran's -fdefault-real-8 alone (a type the IR cannot hold), 8 with
  /// -fdefault-double-8 too.
  int double_precision_kind = 8;
  /// Also outline the program units of each file with a region
  /// (LoweredFiles::host_units), for --rewrite's data regions.
  bool outline_host_units = false;
  /// Also lower, as kernels of their own, the array assignments that no
  /// directive annotates but that copy an array or section (`p(2:n-1, :) =
  /// wrk(2:n-1, :)`) inside a DO loop holding a region, where --rewrite puts
  /// them between the library's calls: SourceRegion::implicit. A statement
  /// that is not such a copy is no problem; it stays the host's.
  bool implicit_copies = false;
};

/// Reads one Fortran file with Flang's parser and lowers every
/// `!$f2s stencil` region in it to a kernel, in source order. Unless
/// `options.fixed_form` says, the file is fixed form when its extension is
/// .f, .for, .ftn, .f77 or .fpp (in any case), else free form; `#` lines are
/// preprocessed in either. A parse error names the form and how it was
/// chosen.
///
/// Throws UserError, naming file:line:column, for every problem found (see
/// lower_files_collecting): Flang's own parse errors, a directive that is not
/// followed by a DO construct, an unknown clause, a construct the IR cannot
/// express (CALL, IF, a non-affine subscript, an unknown variable, a
/// non-perfect nest, ...), or a file with no annotated region at all.
std::vector<Kernel> lower_file(const std::string &path, const FrontendOptions &options = {});

/// lower_file for several files, read as one program: a region may use a
/// module that any of the files defines, whatever their order. The kernels
/// come file by file, in source order. A file with no annotated region is
/// allowed (it may only hold modules); having none in any file is an error.
/// A region that relies on a module none of the files defines is refused at
/// that module's USE statement.
std::vector<Kernel> lower_files(const std::vector<std::string> &paths,
                                const FrontendOptions &options = {});

/// The kernels of the regions that lowered, and every problem of the others.
struct LoweredFiles {
  /// Every region's kernel, and every time loop's sweeps, in source order.
  std::vector<Kernel> kernels;
  /// The `!$f2s stencil timesteps` loops, in source order.
  std::vector<TimeLoop> time_loops;
  std::vector<Diagnostic> problems;
  /// With FrontendOptions::outline_host_units, the program units of each
  /// file that has a region, by its path as given: what --rewrite's data
  /// regions read (frontend/HostAccesses.h).
  std::map<std::string, HostUnits> host_units;
};

/// lower_files, going on past a refused region as a compiler goes on past an
/// error: each statement of a region, each region and each procedure's
/// temporaries are checked on their own, so that one run reports every
/// independent problem with its position. Throws UserError only where nothing
/// more could be checked: a file that cannot be read or parsed (the parse
/// errors of every file at once), or no annotated region at all. A problem in
/// a region's nest itself (a DO WHILE, a fourth loop) ends that region only.
LoweredFiles lower_files_collecting(const std::vector<std::string> &paths,
                                    const FrontendOptions &options = {});

} // namespace f2s
