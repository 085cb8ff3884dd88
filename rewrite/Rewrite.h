// --rewrite: a source file with each annotated loop nest replaced by a call
// of its kernel in the generated library, as the user would edit it by hand.
//
// The edit is textual, on the file as the user wrote it (cpp lines, comments
// and spacing kept), at the positions the front end recorded for each region
// (SourceRegion); Flang's parse tree is not needed here.
#pragma once

#include "ast/IR.h"
#include "frontend/HostAccesses.h"

#include <map>
#include <string>
#include <vector>

namespace f2s {

class CallSummaries;

/// What replaces the comment sentinel of a rewritten `!$f2s` directive (the
/// directive is kept as this comment above the call): f2stencil finds no
/// region in a line that starts so, and says that the file was rewritten.
inline constexpr const char *kRewrittenSentinel = "!f2s rewritten:";

/// An array a call passes, as the data regions need it.
struct GridArgument {
  std::string name;
  ArrayDecl decl = ArrayDecl::Explicit;
  bool written = true; ///< the call may write it
};

/// One annotated nest and the call that replaces it.
struct RegionCall {
  SourceRegion region;
  std::string kernel;                 ///< the module procedure the call names
  std::vector<std::string> arguments; ///< its actual arguments, in order
  std::vector<GridArgument> grids;    ///< the arrays among them
};

/// The call of kernel `k`: the dummies of the module's procedure `k.name`
/// (codegen's module_arguments), passed by their names in the source. Its
/// grids are written when the nest writes them (every grid of a time loop).
RegionCall region_call(const Kernel &k);

struct RewrittenSource {
  std::string text;
  /// "file:line:column: warning: ..." lines: OpenMP or OpenACC directives
  /// left as they were because they cover more than a nest.
  std::vector<std::string> warnings;
};

/// `text` (the contents of the file `path`) with, for each of `calls` (its
/// regions, in any order):
/// - the lines from the `!$f2s` directive to the statement that ends the
///   nest replaced by the directive kept as a `!f2s rewritten:` comment and
///   `call <kernel>(<arguments>)` at the nest's indentation and label, in
///   the file's source form (fixed form: columns 7 to 72, continued with '&'
///   in column 6; free form: '&' before column 132), followed by the label's
///   CONTINUE where an enclosing DO ends on the same statement;
/// - the OpenMP or OpenACC directives (and their END directives) that cover
///   exactly the nest removed, with a comment above the call that says so;
///   `!$omp do` in a parallel region with other statements becomes
///   `!$omp single`, so that one thread calls; a directive that covers other
///   statements too is left alone and reported in `warnings`;
/// - `use <module>, only: <kernels>` added once per program unit, after its
///   USE statements (else its header), outside a cpp conditional that ends
///   there.
/// - with `units` (the file's program units, frontend/HostAccesses.h): the
///   data regions of rewrite/DataRegions.h around the calls, and the data
///   procedures and `c_size_t` in each unit's USE; units where they cannot
///   be written safely are reported in `warnings`. The regions of callers
///   (units that call procedures holding library calls) see the procedures
///   of `summaries` (every file given; built from `units` and `calls`
///   alone when null), which must have been built from these `units`.
/// Everything else is kept byte for byte. Throws UserError, naming the
/// region, where the text cannot be replaced safely (a region the front end
/// marked so, a DO statement from a macro, another statement on the nest's
/// first or last line, a cpp conditional that the nest cuts, a directive
/// between `!$f2s` and the DO that must stay); nothing is returned then.
RewrittenSource rewrite_source(const std::string &text, const std::string &path,
                               const std::vector<RegionCall> &calls, const std::string &module,
                               const HostUnits *units = nullptr,
                               const CallSummaries *summaries = nullptr);

/// `calls` less the implicit copies (SourceRegion::implicit) whose text
/// rewrite_source could not replace (a statement sharing its line, ...):
/// those stay host statements, and every analysis of the file (the regions
/// of callers included) must see them so, not as calls.
std::vector<RegionCall> replaceable_calls(const std::string &text, const std::string &path,
                                          const std::vector<RegionCall> &calls,
                                          const std::string &module);

/// Settles which procedures of `summaries` bring their arrays themselves
/// (ProcedureSummary::updates_itself): the updates of each are planned in
/// its file's text (`texts`, by path), and one whose updates cannot be
/// written is forbidden to, until none fails, so that no caller's region
/// counts on updates that will not be there. Returns a "file:line:column:
/// warning: ..." line for each forbidden one.
std::vector<std::string> settle_self_updates(CallSummaries &summaries,
                                             const std::map<std::string, std::string> &texts,
                                             const std::string &module);

/// The 1-based lines of `text` that hold a directive kept by --rewrite (a
/// `!f2s rewritten:` comment), in order.
std::vector<int> rewritten_directive_lines(const std::string &text);

} // namespace f2s
