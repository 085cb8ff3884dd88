#include "rewrite/DataRegions.h"

#include "rewrite/CallSummaries.h"
#include "rewrite/Rewrite.h"

#include <algorithm>
#include <functional>
#include <set>

namespace f2s {

namespace {

using namespace source_text;
using Names = std::set<std::string>;

/// Why a unit gets no data region.
struct NoRegion {
  int line;
  std::string why;
};

/// Where a statement is: the blocks from the unit's body down to it.
struct Step {
  const std::vector<HostStmt> *block;
  size_t index;
  bool operator==(const Step &o) const { return block == o.block && index == o.index; }
};
using Path = std::vector<Step>;

const HostStmt &at(const Step &s) {
  return (*s.block)[s.index];
}

/// The bytes of array `x`, in the kind the data procedures take. Not
/// C_SIZEOF, which gfortran takes for explicit-shape and assumed-size
/// arrays only (an ALLOCATABLE one is not interoperable).
std::string bytes_of(const std::string &x) {
  return "size(" + x + ", kind=c_size_t) * storage_size(" + x + ") / 8";
}

/// The path to the statement that starts at `line`: a region's DO, or the
/// assignment of an annotated copy.
bool find_do(const std::vector<HostStmt> &block, int line, Path &path) {
  for (size_t i = 0; i < block.size(); ++i) {
    const HostStmt &s = block[i];
    path.push_back({&block, i});
    if (s.line == line)
      return true;
    for (const auto &b : s.blocks)
      if (find_do(b, line, path))
        return true;
    path.pop_back();
  }
  return false;
}

bool is_loop(const HostStmt &s) {
  return s.kind == HostStmt::Kind::Do || s.kind == HostStmt::Kind::DoWhile;
}

/// Every label on a statement of the subtree.
void labels_in(const HostStmt &s, Names &into) {
  if (!s.label.empty())
    into.insert(s.label);
  for (const auto &b : s.blocks)
    for (const HostStmt &i : b)
      labels_in(i, into);
}

/// The subtree's names, definitions, calls and allocations, merged.
void merge(const HostStmt &s, HostStmt &into) {
  into.names.insert(s.names.begin(), s.names.end());
  into.defines.insert(s.defines.begin(), s.defines.end());
  into.allocates.insert(s.allocates.begin(), s.allocates.end());
  into.calls.insert(into.calls.end(), s.calls.begin(), s.calls.end());
  for (const auto &b : s.blocks)
    for (const HostStmt &i : b)
      merge(i, into);
}

class UnitRegion {
public:
  UnitRegion(const Lines &lines, bool fixed, const std::string &module, const HostUnit &unit,
             const std::vector<const RegionCall *> &calls, const CallSummaries *summaries)
      : lines_(lines), fixed_(fixed), module_(module), unit_(unit), calls_(calls),
        summaries_(summaries) {}

  /// The edits (none: no array to enter); throws NoRegion saying why the
  /// unit gets none. `wide`: the region spans every call of a procedure that
  /// holds library calls, those outside loops too (a program's set-up and
  /// final calls before and after its iteration loop, which otherwise copy
  /// their arrays each); else only those in loops place it.
  std::vector<Edit> plan(bool wide);
  /// The updates "if present" of a procedure that brings its arrays itself
  /// (ProcedureSummary::updates_itself, summary `q`): around each host
  /// statement of its whole body, with no enter or exit.
  std::vector<Edit> plan_self(const ProcedureSummary &q);
  /// The data procedures the edits call, for the unit's USE.
  std::vector<std::string> uses() const;

private:
  [[noreturn]] void refuse(int line, const std::string &why) const { throw NoRegion{line, why}; }

  /// A region's nest, or the assignment of an annotated copy: a call; or a
  /// CALL of a procedure whose library calls find their arrays present and
  /// whose other code touches none of them (a device call).
  bool is_region_nest(const HostStmt &s) const {
    return nest_lines_.count(s.line) > 0 || device_calls_.count(&s) > 0;
  }
  /// The CALL statement's call of a procedure with library calls, or null.
  const HostStmt::Call *library_procedure_call(const HostStmt &s) const;
  /// The names, in this unit, of the arrays `ids` of the summary of the
  /// procedure `call` calls: its dummies' actual arguments (`whole`: the
  /// arrays passed, else every name in them) and the module or COMMON
  /// arrays the unit sees.
  Names names_here(const std::set<ArrayId> &ids, const HostStmt::Call &call,
                   const ProcedureSummary &q, bool whole) const;
  /// Classifies `calls` (CALLs of procedures with library calls, inside
  /// the region) as device calls, or refuses.
  void device_calls(const std::vector<const HostStmt *> &calls);
  /// The calls of procedures with library calls, in loops (where, alone,
  /// each would copy its arrays every time), and every such call.
  void find_library_procedure_calls(const std::vector<HostStmt> &block, bool in_loop,
                                    std::vector<const HostStmt *> &in_loops,
                                    std::vector<const HostStmt *> &all) const;
  bool holds_region(const HostStmt &s) const {
    if (is_region_nest(s))
      return true;
    for (const auto &b : s.blocks)
      for (const HostStmt &i : b)
        if (holds_region(i))
          return true;
    return false;
  }

  /// The entered arrays a host statement (or construct, merged) may read
  /// and may define. `after`: a statement after the region, where a
  /// procedure's library calls read their arrays from the host (inside, a
  /// statement that does more than call such a procedure is refused).
  void touches(const HostStmt &merged, Names &reads, Names &defines, bool after = false) const;
  /// The arrays the region wrote that nothing after its end reads, so its
  /// exit frees them without copying them back: in the main program, whose
  /// end ends them, when the region is at the top of its body and nothing
  /// after it jumps back; empty elsewhere.
  Names dead_after(const std::vector<HostStmt> &block, size_t hi) const;

  /// The statements block[lo..hi], which hold calls or are between them.
  void device_block(const std::vector<HostStmt> &block, size_t lo, size_t hi, int parent_last);
  /// A statement, or a construct without calls taken whole.
  /// `fresh`: the arrays already brought to the host since the last call
  /// on this straight path.
  /// Returns the entered arrays it may define, whose update to the device
  /// device_block puts after it or after the statements that follow it.
  Names host_statement(const HostStmt &s, Names &fresh);
  /// `text` after statement `s`, which ends at `parent_last` or before.
  void after(const HostStmt &s, const std::string &text, int parent_last);
  /// The jumps inside host construct `top` (and `top` itself): before each
  /// that leaves `top`, the updates of what `top` defines; before each that
  /// leaves the region, its exits too.
  void jumps_in(const HostStmt &s, const HostStmt &top, size_t top_depth, const Names &defined);
  /// The loop an EXIT or CYCLE goes to, as an index into loops_; -1: a loop
  /// outside the region.
  int jump_target(const HostStmt &s) const;
  /// Lines `before` and `after` statement `s`, its label moved in front when
  /// something is put before it; `jump`: lines to run just before its jump
  /// (a logical IF becomes an IF construct for them).
  void emit(const HostStmt &s, std::string before, const std::string &after,
            const std::string &jump = "");

  std::string call(const std::string &what, const std::string &array, const std::string &indent,
                   const std::string &label = "") const {
    return statement(fixed_, label, indent,
                     "call " + module_ + "_data_" + what + "(" + array + ", " + bytes_of(array) +
                         ")",
                     lines_.newline);
  }
  std::string calls(const std::string &what, const Names &arrays, const std::string &indent) const {
    std::string out;
    if (self_ && (what == "update_host" || what == "update_device")) {
      for (const std::string &a : entered_order_) {
        if (!arrays.count(a))
          continue;
        auto d = designators_.find(a);
        for (const std::string &from : d == designators_.end() ? Names{a} : d->second)
          out += statement(fixed_, "", indent,
                           "call " + module_ + "_data_" + what + "_if_present(" + from + ")",
                           lines_.newline);
      }
      if (!out.empty())
        used_.insert(what + "_if_present");
      return out;
    }
    for (const std::string &a : entered_order_)
      if (arrays.count(a))
        out += call(what, a, indent);
    if (!out.empty())
      used_.insert(what);
    return out;
  }
  /// The end of the region: arrays a call may have written are copied back
  /// (exit); the others are current on the host (every host definition was
  /// sent to the device, never the reverse) and are only freed (delete).
  /// `dead`: written arrays nothing reads afterwards, freed too.
  std::string exits(const std::string &indent, const Names &dead = {}) const {
    if (self_)
      return ""; // nothing entered: a caller's region exits
    Names kept;
    for (const std::string &a : entered_)
      if (!written_.count(a) || dead.count(a))
        kept.insert(a);
    std::string out;
    for (const std::string &a : entered_order_)
      out += kept.count(a) ? call("delete", a, indent) : call("exit", a, indent);
    // Each exit (the region's end, each jump out of it) adds what it calls:
    // the set it frees may differ.
    if (kept.size() < entered_.size())
      used_.insert("exit");
    if (!kept.empty())
      used_.insert("delete");
    return out;
  }
  std::string indent(const HostStmt &s) const {
    return indent_of(lines_.text[s.line - 1], fixed_, static_cast<size_t>(s.column - 1));
  }
  void check_line_alone(const HostStmt &s) const;

  const Lines &lines_;
  bool fixed_;
  std::string module_;
  const HostUnit &unit_;
  const std::vector<const RegionCall *> &calls_;
  const CallSummaries *summaries_;
  std::set<const HostStmt *> device_calls_;
  /// plan_self: updates "if present", each of an array from the first
  /// element that the statement at hand passes (`designators_`, else the
  /// array's own name) to the end of the present array holding it.
  bool self_ = false;
  std::map<std::string, Names> designators_;
  std::set<int> nest_lines_;
  std::map<int, const RegionCall *> nest_calls_;
  Names entered_, written_;
  std::vector<std::string> entered_order_;
  Names inside_labels_;
  std::vector<const HostStmt *> loops_; ///< the DO constructs of the region around the walk
  const HostStmt *region_loop_ = nullptr;
  const HostStmt *region_first_ = nullptr;
  std::string pending_jump_; ///< jumps_in's lines for the host statement itself
  std::vector<Edit> edits_;
  mutable std::set<std::string> used_;
  Names library_procedures_;
};

void UnitRegion::touches(const HostStmt &m, Names &reads, Names &defines, bool after) const {
  for (const std::string &n : m.names)
    if (entered_.count(n))
      reads.insert(n);
  for (const std::string &n : m.defines)
    if (entered_.count(n))
      defines.insert(n);
  for (const HostStmt::Call &c : m.calls) {
    const std::string &p = c.procedure;
    if (entered_.count(p) || unit_.arrays.count(p) || unit_.statement_functions.count(p) ||
        (library_procedures_.count(p) && !after) || p.rfind(module_ + "_data_", 0) == 0)
      continue;
    if (!c.statement && intrinsic_functions().count(p))
      continue;
    // `w(1)` of a module's or COMMON's array: read, its names are the
    // statement's.
    if (summaries_ && !c.statement && summaries_->resolve(unit_, p).find(':') != std::string::npos)
      continue;
    bool dummy = std::find(unit_.dummies.begin(), unit_.dummies.end(), p) != unit_.dummies.end();
    if (const ProcedureSummary *q = summaries_ && !dummy ? summaries_->find(p) : nullptr) {
      // A procedure of the files given: what its code may touch, mapped to
      // this unit's names (its library calls are the device's).
      for (const std::string &a : names_here(q->passes, c, *q, true))
        if (entered_.count(a) && after)
          reads.insert(a);
        else if (entered_.count(a))
          refuse(m.line, "'" + p + "', called at line " + std::to_string(m.line) +
                             ", runs library calls on '" + a +
                             "' inside a statement that does more than CALL it");
      for (const std::string &a : names_here(q->allocates, c, *q, true))
        if (entered_.count(a) && !after)
          refuse(m.line, "'" + a + "' may be allocated or deallocated by '" + p +
                             "', called at line " + std::to_string(m.line) +
                             " between the calls that keep it on the device");
      for (const std::string &a : names_here(q->reads, c, *q, false))
        if (entered_.count(a))
          reads.insert(a);
      for (const std::string &a : names_here(q->defines, c, *q, true))
        if (entered_.count(a))
          defines.insert(a);
      if (!q->reaches_all)
        continue;
    }
    Names reached;
    for (const std::string &n : c.names)
      if (entered_.count(n))
        reached.insert(n);
    if (!(c.statement && intrinsic_subroutines().count(p)))
      for (const std::string &a : entered_) {
        auto d = unit_.arrays.find(a);
        bool private_to_unit = d != unit_.arrays.end() && !d->second.shared;
        if (!private_to_unit || unit_.internal_procedures.count(p))
          reached.insert(a);
      }
    reads.insert(reached.begin(), reached.end());
    defines.insert(reached.begin(), reached.end());
  }
}

void UnitRegion::check_line_alone(const HostStmt &s) const {
  // Another statement on its first line before it, or on its last line
  // after it (`x = 1; y = u(1)`): the lines put before or after it would
  // land on the wrong side of the other one.
  for (int l : {s.line, s.last_line}) {
    const std::string &text = lines_.text[l - 1];
    bool quoted = false;
    char quote = 0;
    for (size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (quoted) {
        quoted = c != quote;
        continue;
      }
      if (c == '\'' || c == '"') {
        quoted = true;
        quote = c;
      } else if (c == '!' && !(fixed_ && i == 5)) {
        break;
      } else if (c == ';') {
        refuse(l, "line " + std::to_string(l) +
                      " holds two statements, and a data update must go between them; put "
                      "them on lines of their own");
      }
    }
  }
}

void UnitRegion::emit(const HostStmt &s, std::string before, const std::string &after,
                      const std::string &jump) {
  if (!jump.empty() && s.action_line == 0)
    before += jump;
  if (before.empty() && after.empty() && jump.empty())
    return;
  if (!s.in_main || s.line < 1 || s.last_line > lines_.size())
    refuse(s.line, "a statement that needs a data update or exit around it is not in the file "
                   "itself (an INCLUDE file or a macro)");
  if (s.do_terminal)
    refuse(s.line, "the statement at line " + std::to_string(s.line) +
                       " ends a label DO loop and needs a data update or exit around it; end "
                       "the loop on a CONTINUE of its own");
  check_line_alone(s);
  const std::string nl = lines_.newline;
  std::string first = lines_.text[s.line - 1];
  bool label_moved = false;
  if (!before.empty() && !s.label.empty()) {
    // A jump to the label must run the lines before too: the label goes to
    // a CONTINUE in front of them.
    size_t p = first.find(s.label);
    if (p == std::string::npos || p + 1 > static_cast<size_t>(s.column))
      refuse(s.line, "the label of line " + std::to_string(s.line) + " is not on its line");
    // Fixed form: the label field as written (`   30`).
    std::string label = fixed_ ? first.substr(0, std::min<size_t>(5, first.size())) : s.label;
    if (label.find_first_not_of("0123456789 ") != std::string::npos)
      label = s.label;
    first.replace(p, s.label.size(), std::string(s.label.size(), ' '));
    before = statement(fixed_, label, indent(s), "continue", nl) + before;
    label_moved = true;
  }
  if (!before.empty())
    edits_.push_back(Edit{s.line - 1, s.line - 1, before, -10});
  if (!jump.empty() && s.action_line != 0) {
    // `IF (c) GO TO 10` becomes `IF (c) THEN`, the lines, `GO TO 10`, `END IF`.
    const std::string ind = indent(s);
    std::string out;
    for (int l = s.line; l <= s.action_line; ++l) {
      std::string text = l == s.line ? first : lines_.text[l - 1];
      if (l < s.action_line) {
        out += text + lines_.ends[l - 1];
        continue;
      }
      size_t cut = static_cast<size_t>(s.action_column - 1);
      std::string head = text.substr(0, cut);
      while (!head.empty() && (head.back() == ' ' || head.back() == '\t'))
        head.pop_back();
      if (head.size() + 5 <= (fixed_ ? kFixedWidth : kFreeWidth))
        out += head + " then" + nl;
      else
        out += head + (fixed_ ? nl + "     &then" : " &" + nl + ind + "  then") + nl;
      out += jump;
      out += statement(fixed_, "", ind + "  ", text.substr(cut), nl);
    }
    for (int l = s.action_line + 1; l <= s.last_line; ++l)
      out += lines_.text[l - 1] + lines_.ends[l - 1];
    out += statement(fixed_, "", ind, "end if", nl);
    edits_.push_back(Edit{s.line - 1, s.last_line, out, 0});
  } else if (label_moved) {
    edits_.push_back(Edit{s.line - 1, s.line, first + lines_.ends[s.line - 1], 0});
  }
  if (!after.empty())
    edits_.push_back(Edit{s.last_line, s.last_line, after, -30});
}

int UnitRegion::jump_target(const HostStmt &s) const {
  for (int i = static_cast<int>(loops_.size()) - 1; i >= 0; --i)
    if (s.targets.empty() || loops_[i]->name == s.targets[0])
      return i;
  return -1;
}

void UnitRegion::jumps_in(const HostStmt &s, const HostStmt &top, size_t top_depth,
                          const Names &defined) {
  if (s.jump == HostStmt::Jump::Unknown)
    refuse(s.line, "the statement at line " + std::to_string(s.line) +
                       " may jump anywhere (an assigned GO TO, or a jump inside a construct "
                       "--rewrite takes whole)");
  if (!s.branch_labels.empty())
    refuse(s.line, "the statement at line " + std::to_string(s.line) +
                       " may branch (ERR=, END=, EOR= or an alternate return), and a data update "
                       "after it could be skipped");
  bool leaves_top = false, leaves_region = false;
  if (s.jump == HostStmt::Jump::Return) {
    leaves_top = leaves_region = true;
  } else if (s.jump == HostStmt::Jump::Exit || s.jump == HostStmt::Jump::Cycle) {
    int t = jump_target(s);
    bool exit = s.jump == HostStmt::Jump::Exit;
    leaves_region = t < 0 || (loops_[t] == region_loop_ && exit);
    leaves_top = t < static_cast<int>(top_depth) || (loops_[t] == &top && exit);
  } else if (s.jump == HostStmt::Jump::GoTo) {
    Names here;
    labels_in(top, here);
    size_t out_of_top = 0, out_of_region = 0;
    for (const std::string &t : s.targets) {
      out_of_top += !here.count(t);
      out_of_region += !inside_labels_.count(t);
    }
    if ((out_of_top && out_of_top != s.targets.size()) ||
        (out_of_region && out_of_region != s.targets.size()))
      refuse(s.line, "the GO TO at line " + std::to_string(s.line) +
                         " may jump both inside and outside the code around the calls");
    leaves_top = out_of_top > 0;
    leaves_region = out_of_region > 0;
  }
  if (&s == &top && s.jump != HostStmt::Jump::None)
    leaves_top = true; // its own updates after it are skipped
  std::string text, ind = indent(s) + (s.action_line ? "  " : "");
  if (leaves_top)
    text += calls("update_device", defined, ind);
  if (leaves_region)
    text += exits(ind);
  if (&s != &top)
    emit(s, "", "", text);
  else
    pending_jump_ = text;
  bool loop = is_loop(s);
  if (loop)
    loops_.push_back(&s);
  for (const auto &b : s.blocks)
    for (const HostStmt &i : b)
      jumps_in(i, top, top_depth, defined);
  if (loop)
    loops_.pop_back();
}

Names UnitRegion::host_statement(const HostStmt &s, Names &fresh) {
  HostStmt merged;
  merge(s, merged);
  merged.line = s.line;
  for (const std::string &a : merged.allocates)
    if (entered_.count(a))
      refuse(s.line, "'" + a + "' is allocated, deallocated or pointed at at line " +
                         std::to_string(s.line) + ", between the calls that keep it on the device");
  Names reads, defines;
  touches(merged, reads, defines);
  Names stale;
  for (const std::string &a : reads)
    if (written_.count(a))
      stale.insert(a);
  for (const std::string &a : defines)
    if (written_.count(a))
      stale.insert(a); // a partial definition keeps the rest of the array
  if (self_) {
    // Each statement brings its part and sends it back right after (a
    // later statement's part may start before it: bringing that would
    // overwrite what this one defined).
    designators_.clear();
    for (const std::string &a : entered_) {
      Names &from = designators_[a];
      if (!merged.names.count(a) && !merged.defines.count(a))
        for (const HostStmt::Call &c : merged.calls)
          for (const HostStmt::Call::Arg &arg : c.args)
            if (arg.base == a) {
              // An element (sequence association): from there on. A
              // section would be passed as a copy: the whole array.
              bool element = arg.text.size() > a.size() && arg.text.compare(0, a.size(), a) == 0 &&
                             arg.text[a.size()] == '(' &&
                             arg.text.find_first_of(":%") == std::string::npos;
              from.insert(element ? arg.text : a);
            }
      if (from.empty() || from.count(a))
        from = {a};
    }
  } else {
    for (const std::string &a : fresh)
      stale.erase(a);
    fresh.insert(reads.begin(), reads.end());
    fresh.insert(defines.begin(), defines.end());
  }
  pending_jump_.clear();
  jumps_in(s, s, loops_.size(), defines);
  emit(s, calls("update_host", stale, indent(s)), "", pending_jump_);
  return defines;
}

void UnitRegion::after(const HostStmt &s, const std::string &text, int parent_last) {
  if (text.empty())
    return;
  if (s.last_line == parent_last)
    refuse(s.line, "the statement at line " + std::to_string(s.line) +
                       " ends the label DO loop around it and needs a data update after it; end "
                       "the loop on a CONTINUE of its own");
  emit(s, "", text);
}

/// Whether `s` or a statement inside it may jump (STOP aside).
bool jumps(const HostStmt &s) {
  if (s.jump != HostStmt::Jump::None && s.jump != HostStmt::Jump::Stop)
    return true;
  for (const auto &b : s.blocks)
    for (const HostStmt &i : b)
      if (jumps(i))
        return true;
  return false;
}

/// Whether `s` or a statement inside it may go to a label (GO TO, an
/// assigned GO TO, an I/O statement's ERR= or END=).
bool goes_to_labels(const HostStmt &s) {
  if (s.jump == HostStmt::Jump::GoTo || s.jump == HostStmt::Jump::Unknown ||
      !s.branch_labels.empty())
    return true;
  for (const auto &b : s.blocks)
    for (const HostStmt &i : b)
      if (goes_to_labels(i))
        return true;
  return false;
}

Names UnitRegion::dead_after(const std::vector<HostStmt> &block, size_t hi) const {
  if (!unit_.is_program || &block != &unit_.body)
    return {};
  Names reads, defines;
  for (size_t i = hi + 1; i < block.size(); ++i) {
    if (goes_to_labels(block[i]))
      return {};
    HostStmt merged;
    merge(block[i], merged);
    touches(merged, reads, defines, true);
  }
  Names dead;
  for (const std::string &a : written_)
    if (!reads.count(a))
      dead.insert(a);
  return dead;
}

void UnitRegion::device_block(const std::vector<HostStmt> &block, size_t lo, size_t hi,
                              int parent_last) {
  // On a straight path, an array brought to the host stays current there
  // until the next call, and one the host defined need go to the device
  // only before the next call, label or jump, or the block's end: once for
  // a run of statements.
  Names fresh, pending;
  const HostStmt *last_host = nullptr;
  auto flush = [&] {
    if (!pending.empty())
      after(*last_host, calls("update_device", pending, indent(*last_host)), parent_last);
    pending.clear();
  };
  for (size_t i = lo; i <= hi && i < block.size(); ++i) {
    const HostStmt &s = block[i];
    if (s.line == 0)
      refuse(unit_.first_line, "it holds a construct --rewrite does not read (OpenMP, OpenACC)");
    if (!s.label.empty()) {
      flush();
      fresh.clear();
    }
    if (is_region_nest(s)) {
      flush();
      fresh.clear();
      continue;
    }
    if (!holds_region(s)) {
      if (jumps(s))
        flush();
      Names defined = host_statement(s, fresh);
      pending.insert(defined.begin(), defined.end());
      last_host = &s;
      if (self_)
        flush();
      continue;
    }
    flush();
    fresh.clear();
    // A construct around calls: its headers are host code, run before its
    // blocks (IF and ELSE IF conditions, DO bounds, SELECT CASE's selector).
    if (s.kind == HostStmt::Kind::Opaque || s.blocks.empty())
      refuse(s.line, "a call is inside a construct --rewrite does not follow (line " +
                         std::to_string(s.line) + ")");
    designators_.clear(); // a header reads whole arrays
    HostStmt header;
    header.line = s.line;
    header.names = s.names;
    header.defines = s.defines;
    header.calls = s.calls;
    Names reads, defines;
    touches(header, reads, defines);
    if (!defines.empty())
      refuse(s.line, "the statement at line " + std::to_string(s.line) +
                         " around calls may define an array the calls pass (a function's "
                         "argument)");
    Names stale;
    for (const std::string &a : reads)
      if (written_.count(a))
        stale.insert(a);
    if (s.kind == HostStmt::Kind::DoWhile && !stale.empty())
      refuse(s.line, "the DO WHILE at line " + std::to_string(s.line) +
                         " reads an array that the calls inside it write");
    // The region's first statement runs right after the enter.
    if (&s != region_first_)
      emit(s, calls("update_host", stale, indent(s)), "");
    bool loop = is_loop(s);
    if (loop)
      loops_.push_back(&s);
    for (const auto &b : s.blocks)
      if (!b.empty())
        device_block(b, 0, b.size() - 1, loop ? s.last_line : 0);
    if (loop)
      loops_.pop_back();
  }
  flush();
}

const HostStmt::Call *UnitRegion::library_procedure_call(const HostStmt &s) const {
  if (!summaries_ || s.kind != HostStmt::Kind::Action || s.action_line)
    return nullptr;
  for (const HostStmt::Call &c : s.calls)
    if (c.statement) {
      if (std::find(unit_.dummies.begin(), unit_.dummies.end(), c.procedure) != unit_.dummies.end())
        return nullptr; // a dummy procedure
      const ProcedureSummary *q = summaries_->find(c.procedure);
      return q && q->library ? &c : nullptr;
    }
  return nullptr;
}

Names UnitRegion::names_here(const std::set<ArrayId> &ids, const HostStmt::Call &call,
                             const ProcedureSummary &q, bool whole) const {
  Names out;
  for (const ArrayId &id : ids) {
    if (id.empty() || id[0] != '#') {
      if (std::string n = summaries_->name_in(unit_, id); !n.empty())
        out.insert(n);
      continue;
    }
    int j = std::stoi(id.substr(1));
    for (size_t i = 0; i < call.args.size(); ++i) {
      if (CallSummaries::dummy_of(*q.unit, call, i) != j)
        continue;
      if (whole && !call.args[i].base.empty())
        out.insert(call.args[i].base);
      else if (!whole)
        out.insert(call.args[i].names.begin(), call.args[i].names.end());
    }
  }
  return out;
}

void UnitRegion::find_library_procedure_calls(const std::vector<HostStmt> &block, bool in_loop,
                                              std::vector<const HostStmt *> &in_loops,
                                              std::vector<const HostStmt *> &all) const {
  for (const HostStmt &s : block) {
    if (library_procedure_call(s)) {
      all.push_back(&s);
      if (in_loop)
        in_loops.push_back(&s);
    }
    for (const auto &b : s.blocks)
      find_library_procedure_calls(b, in_loop || is_loop(s), in_loops, all);
  }
}

void UnitRegion::device_calls(const std::vector<const HostStmt *> &calls) {
  // Each such call runs on the device as it is when the procedure's host
  // code touches none of the entered arrays; else its host code would read
  // what its own library calls left on the device, which no update around
  // the CALL can order.
  for (const HostStmt *s : calls) {
    const HostStmt::Call &c = *library_procedure_call(*s);
    const ProcedureSummary *q = summaries_->find(c.procedure);
    // (A procedure that brings its arrays itself: what it does not bring.)
    Names host = names_here(q->updates_itself ? q->not_brought : q->reads, c, *q, false);
    if (!q->updates_itself) {
      for (const std::string &a : names_here(q->defines, c, *q, true))
        host.insert(a);
      for (const std::string &a : names_here(q->allocates, c, *q, true))
        host.insert(a);
    }
    // (Reaching any array it could see: all of an internal procedure's
    // host.)
    if (q->reaches_all)
      for (const std::string &a : entered_)
        if (!unit_.arrays.count(a) || unit_.arrays.at(a).shared ||
            unit_.internal_procedures.count(c.procedure))
          host.insert(a);
    for (const std::string &a : host) {
      if (!entered_.count(a))
        continue;
      int line = 0;
      for (const auto &[id, l] : q->host_lines)
        if (!line && names_here({id}, c, *q, false).count(a))
          line = l;
      refuse(s->line,
             "'" + c.procedure + "', called at line " + std::to_string(s->line) +
                 ", runs library calls and host code" +
                 (line ? " (" + q->file + ":" + std::to_string(line) + ")" : std::string()) +
                 " on '" + a + "', which updates around the CALL cannot order");
    }
    if (!s->branch_labels.empty())
      refuse(s->line, "the CALL at line " + std::to_string(s->line) + " may branch");
    // What the host evaluates for the CALL: subscripts and expressions.
    HostStmt args;
    args.line = s->line;
    for (const HostStmt::Call::Arg &a : c.args)
      for (const std::string &n : a.names)
        if (n != a.base)
          args.names.insert(n);
    for (const HostStmt::Call &other : s->calls)
      if (&other != &c)
        args.calls.push_back(other);
    Names reads, defines;
    touches(args, reads, defines);
    if (!reads.empty() || !defines.empty())
      refuse(s->line, "the arguments of the CALL at line " + std::to_string(s->line) +
                          " read or define an array the calls keep on the device");
    device_calls_.insert(s);
  }
}

std::vector<Edit> UnitRegion::plan_self(const ProcedureSummary &q) {
  self_ = true;
  for (const ArrayId &id : q.brought) {
    std::string n =
        id[0] == '#' ? unit_.dummies.at(std::stoi(id.substr(1))) : summaries_->name_in(unit_, id);
    if (!n.empty() && entered_.insert(n).second)
      entered_order_.push_back(n);
  }
  // Any of them may be newer on the device when it is called inside a
  // caller's region.
  written_ = entered_;
  if (entered_.empty() || unit_.body.empty())
    return {};
  std::vector<const HostStmt *> in_loops, all;
  find_library_procedure_calls(unit_.body, false, in_loops, all);
  device_calls(all);
  for (const HostStmt &s : unit_.body)
    labels_in(s, inside_labels_);
  device_block(unit_.body, 0, unit_.body.size() - 1, 0);
  return edits_;
}

std::vector<Edit> UnitRegion::plan(bool wide) {
  for (const RegionCall *c : calls_) {
    nest_lines_.insert(c->region.do_line);
    nest_calls_[c->region.do_line] = c;
    library_procedures_.insert(c->region.local_name.empty() ? c->kernel : c->region.local_name);
  }
  // The arrays: those the calls pass, in the order of the calls.
  for (const RegionCall *c : calls_)
    for (const GridArgument &g : c->grids) {
      if (entered_.insert(g.name).second)
        entered_order_.push_back(g.name);
      if (g.written)
        written_.insert(g.name);
      auto d = unit_.arrays.find(g.name);
      bool whole = d == unit_.arrays.end()
                       ? g.decl == ArrayDecl::Explicit || g.decl == ArrayDecl::Allocatable
                       : d->second.shape == HostArray::Shape::Explicit ||
                             d->second.shape == HostArray::Shape::Allocatable;
      if (d != unit_.arrays.end() && d->second.aliased)
        refuse(c->region.directive_line,
               "'" + g.name +
                   "' is a TARGET or in EQUIVALENCE: a statement may change it under another "
                   "name, which the updates around host statements would not see");
      if (!whole)
        refuse(c->region.directive_line,
               "'" + g.name +
                   "' is not an explicit-shape or ALLOCATABLE array, which the data procedures "
                   "take whole (an assumed-shape or POINTER array may not be contiguous, an "
                   "assumed-size one has no size)");
    }
  // Calls of procedures that hold library calls: those in loops place the
  // region as the unit's own calls do (one outside any loop would gain
  // nothing from it).
  std::vector<const HostStmt *> in_loops, procedure_calls;
  find_library_procedure_calls(unit_.body, false, in_loops, procedure_calls);
  if (calls_.empty() && in_loops.empty())
    return {};
  const std::vector<const HostStmt *> &placing = wide ? procedure_calls : in_loops;
  // The region: the outermost DO around every call, else the statements
  // from the first that holds a call to the last.
  std::vector<Path> paths;
  for (const RegionCall *c : calls_) {
    Path p;
    if (!find_do(unit_.body, c->region.do_line, p))
      refuse(c->region.directive_line, "the nest at line " + std::to_string(c->region.do_line) +
                                           " is inside a construct --rewrite does not follow");
    paths.push_back(p);
  }
  for (const HostStmt *s : placing) {
    Path p;
    if (!find_do(unit_.body, s->line, p) || &at(p.back()) != s)
      refuse(s->line, "the CALL at line " + std::to_string(s->line) +
                          " shares its line with another statement");
    paths.push_back(p);
  }
  size_t common = 0;
  for (bool same = true; same; ++common)
    for (const Path &p : paths)
      if (p.size() <= common || !(p[common] == paths[0][common])) {
        same = false;
        break;
      }
  --common;
  const std::vector<HostStmt> *block = &unit_.body;
  size_t lo = 0, hi = 0;
  const HostStmt *region_loop = nullptr;
  for (size_t d = 0; d < common && !region_loop; ++d)
    if (is_loop(at(paths[0][d]))) {
      region_loop = &at(paths[0][d]);
      block = paths[0][d].block;
      lo = hi = paths[0][d].index;
    }
  if (!region_loop) {
    bool one_block = true;
    for (const Path &p : paths)
      one_block = one_block && p.size() > common && p[common].block == paths[0][common].block;
    if (one_block) {
      block = paths[0][common].block;
      lo = hi = paths[0][common].index;
      for (const Path &p : paths) {
        lo = std::min(lo, p[common].index);
        hi = std::max(hi, p[common].index);
      }
    } else {
      block = paths[0][common - 1].block;
      lo = hi = paths[0][common - 1].index;
    }
  }
  // A call alone, in no loop: a region would only make it run on the GPU
  // with its copies each time. Without one it runs as before (on the GPU if
  // a caller's region holds its arrays already).
  if (calls_.size() == 1 && in_loops.empty() && lo == hi && is_region_nest((*block)[lo]))
    return {};
  // The arrays of the procedures called inside: those the unit can name
  // and the data procedures can take whole (the others are copied by the
  // calls that pass them, as before).
  std::set<const HostStmt *> inside;
  std::function<void(const HostStmt &)> mark = [&](const HostStmt &s) {
    inside.insert(&s);
    for (const auto &b : s.blocks)
      for (const HostStmt &i : b)
        mark(i);
  };
  for (size_t i = lo; i <= hi; ++i)
    mark((*block)[i]);
  std::vector<std::pair<const HostStmt *, const ProcedureSummary *>> device;
  for (const HostStmt *s : procedure_calls) {
    if (!inside.count(s))
      continue;
    const HostStmt::Call &c = *library_procedure_call(*s);
    const ProcedureSummary *q = summaries_->find(c.procedure);
    device.emplace_back(s, q);
    Names written = names_here(q->passes_written, c, *q, true);
    // In the order of the arguments, then the module and COMMON arrays.
    Names passed = names_here(q->passes, c, *q, true);
    std::vector<std::string> ordered;
    for (const HostStmt::Call::Arg &arg : c.args)
      if (passed.count(arg.base) &&
          std::find(ordered.begin(), ordered.end(), arg.base) == ordered.end())
        ordered.push_back(arg.base);
    for (const std::string &a : passed)
      if (std::find(ordered.begin(), ordered.end(), a) == ordered.end())
        ordered.push_back(a);
    for (const std::string &a : ordered) {
      const HostArray *d = summaries_->declaration(unit_, a);
      if (!d || d->aliased ||
          (d->shape != HostArray::Shape::Explicit && d->shape != HostArray::Shape::Allocatable))
        continue;
      if (entered_.insert(a).second)
        entered_order_.push_back(a);
      if (written.count(a))
        written_.insert(a);
    }
  }
  if (entered_.empty())
    return {};
  std::vector<const HostStmt *> inside_calls;
  for (const auto &[s, q] : device)
    inside_calls.push_back(s);
  device_calls(inside_calls);
  // Labels inside, and jumps into it from outside.
  for (size_t i = lo; i <= hi; ++i)
    labels_in((*block)[i], inside_labels_);
  std::function<void(const std::vector<HostStmt> &, bool)> scan =
      [&](const std::vector<HostStmt> &b, bool inside) {
        for (size_t i = 0; i < b.size(); ++i) {
          bool in = inside || (&b == block && i >= lo && i <= hi);
          const HostStmt &s = b[i];
          if (!in) {
            for (const std::string &t : s.targets)
              if (s.jump == HostStmt::Jump::GoTo && inside_labels_.count(t))
                refuse(s.line, "the GO TO at line " + std::to_string(s.line) +
                                   " jumps into the code around the calls from outside it");
            for (const std::string &t : s.branch_labels)
              if (inside_labels_.count(t))
                refuse(s.line, "line " + std::to_string(s.line) +
                                   " may branch into the code around the calls from outside it");
          }
          for (const auto &inner : s.blocks)
            scan(inner, in);
        }
      };
  scan(unit_.body, false);
  // Inside.
  region_loop_ = region_loop;
  region_first_ = &(*block)[lo];
  device_block(*block, lo, hi, 0);
  // Enter before the first statement, exit after the last.
  const HostStmt &first = (*block)[lo], &last = (*block)[hi];
  int enter_at = first.line - 1;
  if (auto n = nest_calls_.find(first.line); n != nest_calls_.end())
    enter_at = gap_start(lines_, n->second->region.directive_line - 1, fixed_);
  int exit_at = last.last_line;
  if (auto n = nest_calls_.find(last.line); n != nest_calls_.end())
    exit_at = gap_end(lines_, n->second->region.end_line, fixed_);
  if (last.do_terminal)
    refuse(last.line, "the code around the calls ends on the statement a label DO loop ends on");
  edits_.push_back(Edit{enter_at, enter_at, calls("enter", entered_, indent(first)), -20});
  edits_.push_back(Edit{exit_at, exit_at, exits(indent(first), dead_after(*block, hi)), -25});
  return edits_;
}

std::vector<std::string> UnitRegion::uses() const {
  std::vector<std::string> names;
  for (const char *what : {"enter", "update_host", "update_device", "exit", "delete",
                           "update_host_if_present", "update_device_if_present"})
    if (used_.count(what))
      names.push_back(module_ + "_data_" + what);
  return names;
}

/// `use <module>, only: <data procedures>` and the kind they take, for a
/// unit that holds no call of its own (the others get theirs with the
/// kernels' USE).
Edit use_edit(const Lines &lines, bool fixed, const HostUnit &unit, const std::string &module,
              const std::vector<std::string> &procedures) {
  int at = unit.use_after_line > 0 ? unit.use_after_line : unit.first_line - 1;
  std::string indent = fixed ? "      " : "  ";
  for (int l = at; l < lines.size(); ++l)
    if (!is_comment(lines.text[l], fixed) && !is_cpp(lines.text[l])) {
      indent = indent_of(lines.text[l], fixed, first_nonblank(lines.text[l]));
      break;
    }
  std::string only;
  for (const std::string &p : procedures)
    only += (only.empty() ? "" : ", ") + p;
  return Edit{at, at,
              statement(fixed, "", indent, "use " + module + ", only: " + only, lines.newline) +
                  statement(fixed, "", indent, "use, intrinsic :: iso_c_binding, only: c_size_t",
                            lines.newline),
              -100};
}

} // namespace

std::vector<std::pair<const HostUnit *, std::string>>
failed_self_updates(const Lines &lines, const std::string &path, bool fixed, const HostUnits &units,
                    const std::string &module, const CallSummaries &summaries) {
  std::vector<std::pair<const HostUnit *, std::string>> failed;
  static const std::vector<const RegionCall *> none;
  for (const HostUnit &unit : units) {
    const ProcedureSummary *self = unit.is_module ? nullptr : summaries.find(unit.name);
    if (!self || self->unit != &unit || !self->updates_itself)
      continue;
    UnitRegion region(lines, fixed, module, unit, none, &summaries);
    try {
      region.plan_self(*self);
      if (unit.use_after_line < 0)
        failed.emplace_back(&unit, "its header or last USE statement is not in the file itself");
    } catch (const NoRegion &no) {
      failed.emplace_back(&unit, path + ":" + std::to_string(no.line) + ": " + no.why);
    }
  }
  return failed;
}

DataRegionEdits data_region_edits(const Lines &lines, const std::string &path, bool fixed,
                                  const std::vector<const RegionCall *> &calls,
                                  const HostUnits &units, const std::string &module,
                                  const CallSummaries *summaries) {
  DataRegionEdits out;
  // Each call in the innermost unit around it.
  std::map<const HostUnit *, std::vector<const RegionCall *>> by_unit;
  for (const RegionCall *c : calls) {
    const HostUnit *best = nullptr;
    for (const HostUnit &u : units)
      if (!u.is_module && u.first_line <= c->region.do_line && c->region.do_line <= u.last_line &&
          (!best || u.last_line - u.first_line < best->last_line - best->first_line))
        best = &u;
    if (best)
      by_unit[best].push_back(c);
  }
  // In source order; with the summaries, every unit (one without calls of
  // its own may call procedures that hold them).
  for (const HostUnit &unit : units) {
    auto own = by_unit.find(&unit);
    if (unit.is_module || (own == by_unit.end() && !summaries))
      continue;
    static const std::vector<const RegionCall *> none;
    const std::vector<const RegionCall *> &unit_calls = own == by_unit.end() ? none : own->second;
    const ProcedureSummary *self = summaries ? summaries->find(unit.name) : nullptr;
    if (self && (self->unit != &unit || !self->updates_itself))
      self = nullptr;
    // The region around the loops; then, where there is one, the wider one
    // that takes in the calls outside them too, if it can be written (not
    // across an ALLOCATE between the calls or a jump into them). A unit
    // without the first gets none: its calls outside loops run where their
    // arrays are (the CPU, or the device inside a caller's region), rather
    // than copying them each time the unit is called.
    UnitRegion narrow(lines, fixed, module, unit, unit_calls, summaries),
        wider(lines, fixed, module, unit, unit_calls, summaries);
    const UnitRegion *region = &narrow;
    try {
      std::vector<Edit> edits = self ? narrow.plan_self(*self) : narrow.plan(false);
      if (!self && summaries && !edits.empty()) {
        try {
          std::vector<Edit> wide = wider.plan(true);
          if (!wide.empty()) {
            edits = std::move(wide);
            region = &wider;
          }
        } catch (const NoRegion &) {
        }
      }
      if (edits.empty())
        continue;
      if (unit_calls.empty() && unit.use_after_line < 0)
        throw NoRegion{unit.first_line, "its header or last USE statement is not in the file "
                                        "itself (an INCLUDE file or a macro), so --rewrite "
                                        "cannot add the USE of the data procedures after it"};
      out.edits.insert(out.edits.end(), edits.begin(), edits.end());
      if (unit_calls.empty())
        out.edits.push_back(use_edit(lines, fixed, unit, module, region->uses()));
      else
        out.uses[unit_calls.front()->region.unit_line] = region->uses();
    } catch (const NoRegion &no) {
      // Its callers' regions count on its updates: none may be written.
      if (self)
        throw UserError(SourceLoc{path, no.line, 1},
                        "Cannot write the data updates of '" + unit.name +
                            "', which the data regions of its callers count on: " + no.why +
                            " (rewrite with --no-data-regions)");
      out.warnings.push_back(
          path + ":" + std::to_string(no.line) + ":1: warning: no data region in '" +
          (unit.name.empty() ? std::string("the main program") : unit.name) + "': " + no.why +
          (unit_calls.empty()
               ? "; the library calls of the procedures it calls copy their arrays to the device "
                 "and back each time, unless a caller's region holds them"
               : "; its calls copy their arrays to the device and back each time, unless a "
                 "caller's region holds them"));
    }
  }
  return out;
}

} // namespace f2s
