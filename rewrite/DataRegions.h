// --rewrite's data regions: in each program unit whose nests became calls of
// a GPU-capable library, the arrays those calls pass stay on the device from
// before the outermost loop that holds the calls to after it, and the host
// statements in between see them through updates (OpenACC's enter data,
// update host/device, exit data, as the library's `<lib>_data_*` procedures
// do them; docs/rewrite.md, "Data regions").
//
// The rule, conservative and simple enough to be checked by reading:
// - entered: every array a call of the unit passes (E); "call-written": every
//   array some call of the unit may write (W);
// - before a host statement (a statement, or a construct that holds no call,
//   taken whole) that mentions an array of W: update it to the host; after
//   one that may define an array of E: update it to the device (once for a
//   run of such statements: before the next call, label or jump, or at the
//   end of the block). A CALL of a
//   procedure that is not the library's mentions and defines every array of E
//   it receives (an element `u(ir(k))` stands for its whole array) and every
//   one it could reach (not a local or dummy of the unit; all of them for an
//   internal procedure). So the device copy is always current at a call, and
//   the host copy at a host statement that touches it.
// - before every RETURN, EXIT, CYCLE or GO TO that leaves the region, as at
//   its end: an update to the device of what the enclosing host construct
//   defined, then an exit (copy back) of every array of W and a delete of
//   the others (their host copy is current). STOP leaves nothing to copy.
// - a unit whose one call is in no loop gets no region (it would only copy
//   around that call).
// - CALLs of procedures defined in the files given are seen through their
//   summaries (rewrite/CallSummaries.h): updates of what their host code
//   touches only. A unit that calls, in a loop, procedures holding library
//   calls gets a region too (a caller's): it enters the arrays those calls
//   pass that it can name, and a CALL of a procedure whose host code touches
//   none of them runs with no update. A procedure that brings its arrays
//   itself (ProcedureSummary::updates_itself) gets updates "if present"
//   around each host statement of its body, of the part from the element it
//   passes to the end of the present array, and no enter or exit.
// A unit where this cannot be done safely gets no region and a warning (its
// calls copy their arrays as they did before): an array the data procedures
// cannot take whole (assumed-shape, assumed-size, POINTER), a jump into the
// region, a DO WHILE whose condition reads an array a call writes, ...
#pragma once

#include "frontend/HostAccesses.h"
#include "rewrite/SourceText.h"

#include <map>
#include <string>
#include <vector>

namespace f2s {

struct RegionCall;
class CallSummaries;

/// What the data regions of one file add to --rewrite's edits.
struct DataRegionEdits {
  std::vector<source_text::Edit> edits;
  /// By the unit's first line (SourceRegion::unit_line): the library's data
  /// procedures its USE must name besides the kernels; a unit listed here
  /// also needs `use, intrinsic :: iso_c_binding, only: c_sizeof`.
  std::map<int, std::vector<std::string>> uses;
  /// "file:line:column: warning: ..." for each unit left without a region.
  std::vector<std::string> warnings;
};

/// The units of the file `path` (its `lines`, its `units`) that `summaries`
/// say bring their arrays themselves but whose updates cannot be written
/// (a statement they cannot go around), each with why: for
/// CallSummaries::forbid_updating_itself, before anything is rewritten.
std::vector<std::pair<const HostUnit *, std::string>>
failed_self_updates(const source_text::Lines &lines, const std::string &path, bool fixed,
                    const HostUnits &units, const std::string &module,
                    const CallSummaries &summaries);

/// The data regions of the file `path` (its `lines`, in source form
/// `fixed`) for its `calls` of the library `module`, whose program units
/// the front end outlined as `units`. Every edit lies outside the lines the
/// calls replace (the nests, their directives and the gaps of comments
/// around them). With `summaries` (the procedures of every file given), a
/// unit that calls procedures holding library calls in a loop gets a region
/// too (a caller's region), whose USE of the data procedures is among the
/// edits.
DataRegionEdits data_region_edits(const source_text::Lines &lines, const std::string &path,
                                  bool fixed, const std::vector<const RegionCall *> &calls,
                                  const HostUnits &units, const std::string &module,
                                  const CallSummaries *summaries = nullptr);

} // namespace f2s
