#include "rewrite/Rewrite.h"

#include "ast/Analysis.h"
#include "codegen/Interfaces.h"
#include "rewrite/CallSummaries.h"
#include "rewrite/DataRegions.h"
#include "rewrite/SourceText.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <sstream>

namespace f2s {

namespace {

using namespace source_text;

/// An OpenMP or OpenACC directive line: its sentinel ("omp" or "acc") and
/// the text after it (in fixed form from column 6, which marks a
/// continuation line).
struct DirectiveLine {
  std::string sentinel;
  std::string body;
};

std::optional<DirectiveLine> directive_line(const std::string &line, bool fixed) {
  auto p = sentinel_at(line, fixed);
  if (!p || *p + 5 > line.size())
    return std::nullopt;
  std::string name = lower(line.substr(*p + 2, 3));
  if (name != "omp" && name != "acc")
    return std::nullopt;
  std::string body = line.substr(*p + 5);
  if (fixed && *p == 0 && line.size() > kFixedWidth)
    body = line.substr(*p + 5, kFixedWidth - 5);
  if (!fixed && !body.empty() && body[0] != ' ' && body[0] != '\t' && body[0] != '&')
    return std::nullopt;
  return DirectiveLine{name, body};
}

// ------------------------------------------------------------ directives

/// One OpenMP or OpenACC directive, its continuation lines included.
struct Directive {
  int first = 0, last = 0; ///< 0-based lines
  std::string sentinel;    ///< "omp" or "acc"
  std::string construct;   ///< "parallel do", "end parallel do", "simd", ...
  std::string clauses;     ///< what follows the construct's name
  size_t column = 0;       ///< of the sentinel on the first line
  std::string spelling;    ///< the sentinel as written, `!$omp`, `C$OMP`

  bool is_end() const { return construct.rfind("end", 0) == 0; }
  std::string head() const { return spelling + " " + construct; }
};

const std::vector<std::string> kConstructWords = {
    "end",  "parallel", "do",       "simd",   "target",   "teams",
    "loop", "kernels",  "serial",   "single", "master",   "distribute",
    "data", "critical", "taskloop", "enddo",  "workshare"};

/// The directives of lines [from, to), which are all comments.
std::vector<Directive> directives_in(const Lines &lines, int from, int to, bool fixed) {
  std::vector<Directive> found;
  bool continues = false;
  for (int l = from; l < to; ++l) {
    auto d = directive_line(lines.text[l], fixed);
    if (!d) {
      continues = false;
      continue;
    }
    std::string body = d->body;
    bool continuation = fixed ? !body.empty() && body[0] != ' ' && body[0] != '0' : continues;
    if (fixed && !body.empty())
      body = body.substr(1);
    size_t bang = body.find('!');
    body = body.substr(0, bang);
    while (!body.empty() && (body.back() == ' ' || body.back() == '\t'))
      body.pop_back();
    continues = !fixed && !body.empty() && body.back() == '&';
    if (continues)
      body.pop_back();
    if (!body.empty() && body.find_first_not_of(" \t") != std::string::npos &&
        body[body.find_first_not_of(" \t")] == '&')
      body[body.find_first_not_of(" \t")] = ' ';
    if (continuation && !found.empty() && found.back().sentinel == d->sentinel) {
      found.back().last = l;
      found.back().clauses += " " + lower(body);
      continue;
    }
    Directive dir;
    dir.first = dir.last = l;
    dir.sentinel = d->sentinel;
    dir.column = *sentinel_at(lines.text[l], fixed);
    dir.spelling = lines.text[l].substr(dir.column, 5);
    std::istringstream words(lower(body));
    std::string word, rest;
    bool naming = true;
    while (words >> word) {
      std::string bare = word.substr(0, word.find('('));
      if (naming && bare == word &&
          std::find(kConstructWords.begin(), kConstructWords.end(), word) != kConstructWords.end())
        dir.construct += (dir.construct.empty() ? "" : " ") + (word == "enddo" ? "end do" : word);
      else {
        naming = false;
        rest += (rest.empty() ? "" : " ") + word;
      }
    }
    dir.clauses = rest;
    found.push_back(dir);
  }
  return found;
}

/// A construct that applies to the DO loop after it (WORKSHARE: to the
/// array assignment after it, an annotated copy's region).
bool is_loop_construct(const Directive &d) {
  static const std::vector<std::string> omp = {"parallel workshare",
                                               "workshare",
                                               "parallel do",
                                               "parallel do simd",
                                               "do",
                                               "do simd",
                                               "simd",
                                               "parallel loop",
                                               "loop",
                                               "target parallel do",
                                               "target teams distribute parallel do",
                                               "target teams distribute parallel do simd",
                                               "teams distribute parallel do",
                                               "distribute parallel do",
                                               "taskloop"};
  static const std::vector<std::string> acc = {"parallel loop", "kernels loop", "serial loop",
                                               "loop"};
  const auto &names = d.sentinel == "omp" ? omp : acc;
  return std::find(names.begin(), names.end(), d.construct) != names.end();
}

/// A construct that runs a block in parallel (a region of threads or a
/// device's compute region).
bool is_parallel_block(const Directive &d) {
  if (d.sentinel == "omp")
    return d.construct == "parallel";
  return d.construct == "parallel" || d.construct == "kernels" || d.construct == "serial";
}

/// Whether the text at 1-based `line` and `column` spells `head` (lower
/// case, blanks left out), as far as the line goes: a statement's first
/// characters as Flang read them, which a macro call there does not spell.
bool spells(const Lines &lines, int line, int column, const std::string &head) {
  if (line < 1 || line > lines.size() || column < 1)
    return false;
  const std::string &text = lines.text[line - 1];
  std::string spelled;
  for (size_t i = column - 1; i < text.size() && spelled.size() < head.size(); ++i)
    if (text[i] != ' ' && text[i] != '\t')
      spelled += static_cast<char>(std::tolower(static_cast<unsigned char>(text[i])));
  return spelled.size() >= std::min<size_t>(2, head.size()) &&
         head.compare(0, spelled.size(), spelled) == 0;
}

class FileRewriter {
public:
  FileRewriter(const std::string &text, const std::string &path, const std::string &module)
      : lines_(text), path_(path), module_(module) {}

  void region(const RegionCall &call);
  /// region() for an implicit copy (SourceRegion::implicit): false, with
  /// nothing changed, where its text cannot be replaced; it stays the host's.
  bool implicit_region(const RegionCall &call);
  void uses(const std::vector<const RegionCall *> &unit);
  void data_regions(const std::vector<const RegionCall *> &calls, const HostUnits &units,
                    const CallSummaries &summaries);
  RewrittenSource finish();

private:
  [[noreturn]] void refuse(const RegionCall &c, const std::string &why) const {
    throw UserError(SourceLoc{path_, c.region.directive_line, 1},
                    "Cannot rewrite this '!$f2s stencil' region: " + why);
  }
  void warn(int line0, size_t column, const std::string &what) {
    warnings_.push_back(path_ + ":" + std::to_string(line0 + 1) + ":" + std::to_string(column + 1) +
                        ": warning: " + what);
  }
  /// The directives around the nest: removed, made SINGLE, or reported;
  /// the comments to put above the call, and the lines to put after it.
  void directives(const RegionCall &c, bool fixed, const std::string &indent, std::string &comments,
                  std::string &after);

  Lines lines_;
  std::string path_, module_;
  std::vector<Edit> edits_;
  std::vector<std::string> warnings_;
  /// By unit: the data procedures its USE names (DataRegionEdits::uses).
  std::map<int, std::vector<std::string>> data_uses_;
};

void FileRewriter::region(const RegionCall &c) {
  const SourceRegion &r = c.region;
  if (!r.refusal.empty())
    throw UserError(r.refusal_loc, r.refusal);
  const bool fixed = r.fixed_form;
  const int dir = r.directive_line - 1, do_line = r.do_line - 1, end = r.end_line - 1;
  if (dir < 0 || do_line < dir || (do_line == dir && !r.implicit) || end < do_line ||
      end >= lines_.size() || r.do_column < 1)
    throw UserError(SourceLoc{path_, r.directive_line, 1},
                    "Cannot rewrite this '!$f2s stencil' region: its positions do not fit the file "
                    "(was it changed since it was read?)");
  const std::string &first = lines_.text[do_line];
  // The DO and end statements must be the file's own text, not a macro's.
  size_t at = static_cast<size_t>(r.do_column - 1);
  if (!spells(lines_, r.do_line, r.do_column, r.do_head))
    refuse(c, "its DO statement at line " + std::to_string(r.do_line) +
                  " comes from a macro expansion, whose text cannot be replaced; write the DO "
                  "statement out");
  if (!spells(lines_, r.end_start_line, r.end_start_column, r.end_head))
    refuse(c, "the statement that ends its nest at line " + std::to_string(r.end_start_line) +
                  " comes from a macro expansion, whose text cannot be replaced; write it out");
  // Before the DO: a label (fixed form: columns 1-5) or a construct name.
  // Flang's position of a labelled DO may be its label's.
  std::string label;
  std::string before = first.substr(0, std::min(at, first.size()));
  if (fixed) {
    label = first.substr(0, std::min<size_t>(5, first.size()));
    before = before.size() > 6 ? before.substr(6) : "";
  } else {
    size_t p = first_nonblank(first);
    size_t q = p;
    while (q < first.size() && std::isdigit(static_cast<unsigned char>(first[q])))
      ++q;
    if (q > p && q < first.size() && (first[q] == ' ' || first[q] == '\t')) {
      label = first.substr(p, q - p);
      before = at > q ? first.substr(q, at - q) : "";
    }
  }
  // Fixed form keeps the label where it was in columns 1-5 (a tab ends it).
  label = label.substr(0, label.find('\t'));
  if (blank(label))
    label.clear();
  if (!label.empty() && label.find_first_not_of("0123456789 \t") != std::string::npos)
    refuse(c, "line " + std::to_string(r.do_line) + " holds more than its DO statement");
  std::string name = before;
  name.erase(0, name.find_first_not_of(" \t"));
  while (!name.empty() && (name.back() == ' ' || name.back() == '\t'))
    name.pop_back();
  if (!name.empty() && name.back() != ':')
    refuse(c, "line " + std::to_string(r.do_line) +
                  " holds another statement before the DO; put the DO on a line of its own");
  // After the end statement: a comment at most.
  const std::string &last = lines_.text[end];
  std::string after_end = static_cast<size_t>(r.end_column) < last.size()
                              ? last.substr(static_cast<size_t>(r.end_column))
                              : std::string();
  if (fixed && r.end_column < static_cast<int>(kFixedWidth))
    after_end = after_end.substr(0, kFixedWidth - r.end_column);
  else if (fixed)
    after_end.clear();
  size_t p = first_nonblank(after_end);
  if (p < after_end.size() && after_end[p] != '!' &&
      !(after_end[p] == ';' && blank(after_end.substr(p + 1))))
    refuse(c,
           "line " + std::to_string(r.end_line) +
               " holds another statement after the end of the nest; put it on a line of its own");
  // A cpp conditional must not start or end inside the nest.
  int depth = 0;
  for (int l = dir; l <= end; ++l) {
    depth += cpp_depth_change(lines_.text[l]);
    std::string word = lower(lines_.text[l].substr(first_nonblank(lines_.text[l])));
    bool branch = word.rfind("#else", 0) == 0 || word.rfind("#elif", 0) == 0;
    if (depth < 0 || (depth == 0 && branch))
      refuse(c, "a cpp conditional (line " + std::to_string(l + 1) +
                    ") starts before the region and ends inside it; keep the nest's text and "
                    "the directive inside one branch");
  }
  if (depth != 0)
    refuse(c, "a cpp conditional starts inside the nest and ends after it; keep it inside");

  const std::string indent = indent_of(first, fixed, at);
  const std::string nl = lines_.newline;
  // The directive, kept as a comment that names no region; an implicit
  // copy gets one, so that the output says what became a call.
  std::string kept;
  if (r.implicit) {
    kept = (fixed ? std::string() : indent) + kRewrittenSentinel +
           " (no directive) a copy between the library's calls, which the library runs";
  } else {
    kept = lines_.text[dir];
    auto sentinel = sentinel_at(kept, fixed);
    if (!sentinel || lower(kept.substr(*sentinel + 1, 4)) != "$f2s")
      refuse(c,
             "line " + std::to_string(r.directive_line) + " does not hold its '!$f2s' directive");
    kept.replace(*sentinel, 5, kRewrittenSentinel);
  }
  std::string comments, after;
  directives(c, fixed, indent, comments, after);
  std::string text = kept + nl + comments;
  std::string callee = r.local_name.empty() ? c.kernel : r.local_name;
  std::string args;
  for (const std::string &a : c.arguments)
    args += (args.empty() ? "" : ", ") + a;
  text += statement(fixed, label, indent, "call " + callee + "(" + args + ")", nl);
  text += after;
  if (r.shared_end) {
    // The label of the statement that ended the nest, which an enclosing DO
    // ends on too.
    std::string end_label;
    if (fixed)
      end_label = last.substr(0, std::min<size_t>(5, last.size()));
    else
      for (size_t i = first_nonblank(last);
           i < last.size() && std::isdigit(static_cast<unsigned char>(last[i])); ++i)
        end_label += last[i];
    if (blank(end_label) || end_label.find_first_not_of("0123456789 ") != std::string::npos)
      refuse(c, "the statement that ends its nest (line " + std::to_string(r.end_line) +
                    ") also ends an enclosing DO, but carries no label");
    text += statement(fixed, end_label, indent, "continue", nl);
  }
  edits_.push_back(Edit{dir, end + 1, text});
}

bool FileRewriter::implicit_region(const RegionCall &c) {
  size_t edits = edits_.size(), warnings = warnings_.size();
  try {
    region(c);
    return true;
  } catch (const UserError &) {
    edits_.resize(edits);
    warnings_.resize(warnings);
    return false;
  }
}

void FileRewriter::directives(const RegionCall &c, bool fixed, const std::string &indent,
                              std::string &comments, std::string &after) {
  const SourceRegion &r = c.region;
  const int dir = r.directive_line - 1, do_line = r.do_line - 1, end = r.end_line - 1;
  // Openers: above the `!$f2s` line, and between it and the DO (nearest
  // last); closers: below the nest's end (nearest first).
  std::vector<Directive> openers = directives_in(lines_, gap_start(lines_, dir, fixed), dir, fixed);
  for (const Directive &d : directives_in(lines_, dir + 1, do_line, fixed))
    openers.push_back(d);
  std::vector<Directive> closers =
      directives_in(lines_, end + 1, gap_end(lines_, end + 1, fixed), fixed);
  const std::string nl = lines_.newline;
  auto comment = [&](const std::string &what) { comments += indent + "! " + what + nl; };
  auto remove = [&](const Directive &d) {
    if (d.first > dir && d.last < do_line)
      return; // inside the replaced lines
    edits_.push_back(Edit{d.first, d.last + 1, ""});
  };
  auto lines_of = [](const Directive &d) {
    return d.first == d.last
               ? "line " + std::to_string(d.first + 1)
               : "lines " + std::to_string(d.first + 1) + "-" + std::to_string(d.last + 1);
  };
  size_t ci = 0;
  bool made_single = false;
  std::vector<bool> handled(openers.size(), false);
  for (int oi = static_cast<int>(openers.size()) - 1; oi >= 0; --oi) {
    const Directive &o = openers[oi];
    if (o.is_end())
      break;
    auto closes = [&](const Directive &opener) {
      return ci < closers.size() && closers[ci].construct == "end " + opener.construct;
    };
    if (is_loop_construct(o)) {
      const Directive *closer = closes(o) ? &closers[ci++] : nullptr;
      bool worksharing = (o.sentinel == "omp" && (o.construct == "do" || o.construct == "do simd" ||
                                                  o.construct == "workshare")) ||
                         (o.sentinel == "acc" && o.construct == "loop");
      handled[oi] = true;
      if (worksharing && oi > 0 && is_parallel_block(openers[oi - 1]) &&
          openers[oi - 1].sentinel == o.sentinel && closes(openers[oi - 1])) {
        // A parallel region that holds the nest alone: it goes with it.
        const Directive &region = openers[--oi];
        handled[oi] = true;
        remove(region);
        remove(o);
        if (closer)
          remove(*closer);
        remove(closers[ci++]);
        comment("f2stencil --rewrite removed '" + region.head() + "' (" + lines_of(region) +
                ") and its '" + o.head() + "' around the nest: the library runs it in parallel");
        continue;
      }
      if (worksharing && o.sentinel == "omp") {
        // In a region that does more, one thread calls; the others wait at
        // the end of SINGLE, as they waited at the end of DO.
        bool nowait = closer && closer->clauses.find("nowait") != std::string::npos;
        std::string open = o.spelling + " single", close = o.spelling + " end single";
        std::string lead = lines_.text[o.first].substr(0, o.column);
        if (o.first > dir && o.last < do_line)
          comments += lead + open + nl;
        else
          edits_.push_back(Edit{o.first, o.last + 1, lead + open + nl});
        std::string closing = lead + close + (nowait ? " nowait" : "") + nl;
        if (closer)
          edits_.push_back(Edit{closer->first, closer->last + 1, closing});
        else
          after += closing;
        comment("f2stencil --rewrite made '" + o.head() + "' (" + lines_of(o) + ") '" + open +
                "': the library runs the nest in parallel, called by one thread");
        made_single = true;
        warn(o.first, o.column,
             "'" + o.head() +
                 "' is in a parallel region that does more than the nest of the "
                 "region at line " +
                 std::to_string(r.directive_line) + "; it became '" + open +
                 "', and the parallel region is left as it is");
        continue;
      }
      remove(o);
      if (closer)
        remove(*closer);
      comment("f2stencil --rewrite removed '" + o.head() + "' (" + lines_of(o) +
              ") around the nest: the library runs it in parallel");
      if (worksharing)
        break; // an OpenACC LOOP whose compute region does more: reported below
      continue;
    }
    if (is_parallel_block(o) && closes(o)) {
      handled[oi] = true;
      remove(o);
      remove(closers[ci++]);
      comment("f2stencil --rewrite removed '" + o.head() + "' (" + lines_of(o) +
              ") around the nest: the library runs it in parallel");
      continue;
    }
    break;
  }
  // The nearest parallel region left: it covers more than the nest.
  for (int oi = static_cast<int>(openers.size()) - 1; oi >= 0; --oi) {
    const Directive &o = openers[oi];
    if (handled[oi])
      continue;
    if (o.first > dir && o.last < do_line)
      refuse(c, "the directive '" + o.head() + "' at " + lines_of(o) +
                    " is between '!$f2s' and the DO but does not cover exactly the nest; move "
                    "it above the '!$f2s' line");
    if (is_parallel_block(o) && !o.is_end() && !made_single)
      warn(o.first, o.column,
           "'" + o.head() + "' also covers statements other than the nest of the region at line " +
               std::to_string(r.directive_line) + ", so --rewrite left it as it is" +
               (o.sentinel == "acc" ? "; the call is now inside an OpenACC compute region: move "
                                      "it out"
                                    : ""));
    break;
  }
}

void FileRewriter::uses(const std::vector<const RegionCall *> &unit) {
  const SourceRegion &r = unit.front()->region;
  const bool fixed = r.fixed_form;
  std::string only;
  for (const RegionCall *c : unit) {
    std::string item =
        c->region.local_name.empty() ? c->kernel : c->region.local_name + " => " + c->kernel;
    only += (only.empty() ? "" : ", ") + item;
  }
  // After line `after` (0-based: before line `after`).
  int at = r.use_after_line;
  if (at == 0) {
    at = r.unit_line - 1;
    for (const RegionCall *c : unit)
      at = std::min(at, c->region.directive_line - 1);
  } else {
    // Not inside a cpp conditional that starts after the unit's first line
    // (`#ifdef MPI` / `use mpi` / `#endif`): after its #endif.
    int depth = 0;
    for (int l = r.unit_line - 1; l < at; ++l)
      depth += cpp_depth_change(lines_.text[l]);
    for (; depth > 0 && at < lines_.size(); ++at) {
      const std::string &line = lines_.text[at];
      std::string word = lower(line.substr(first_nonblank(line)));
      if (!is_cpp(line) && !is_comment(line, fixed) && word.rfind("use", 0) != 0)
        throw UserError(SourceLoc{path_, r.directive_line, 1},
                        "Cannot rewrite this '!$f2s stencil' region: the USE statements of its "
                        "program unit end inside a cpp conditional (line " +
                            std::to_string(at + 1) + "), where the USE of the library cannot go");
      depth += cpp_depth_change(line);
    }
  }
  // Indented as the next statement.
  std::string indent = fixed ? "      " : "  ";
  for (int l = at; l < lines_.size(); ++l)
    if (!is_comment(lines_.text[l], fixed) && !is_cpp(lines_.text[l])) {
      indent = indent_of(lines_.text[l], fixed, first_nonblank(lines_.text[l]));
      break;
    }
  std::string text =
      statement(fixed, "", indent, "use " + module_ + ", only: " + only, lines_.newline);
  if (auto d = data_uses_.find(r.unit_line); d != data_uses_.end()) {
    std::string data;
    for (const std::string &n : d->second)
      data += ", " + n;
    text =
        statement(fixed, "", indent, "use " + module_ + ", only: " + only + data, lines_.newline) +
        statement(fixed, "", indent, "use, intrinsic :: iso_c_binding, only: c_size_t",
                  lines_.newline);
  }
  edits_.push_back(Edit{at, at, text, -100});
}

void FileRewriter::data_regions(const std::vector<const RegionCall *> &calls,
                                const HostUnits &units, const CallSummaries &summaries) {
  if (units.empty())
    return;
  bool fixed = calls.empty() ? units.front().fixed_form : calls.front()->region.fixed_form;
  DataRegionEdits d = data_region_edits(lines_, path_, fixed, calls, units, module_, &summaries);
  edits_.insert(edits_.end(), d.edits.begin(), d.edits.end());
  data_uses_ = std::move(d.uses);
  warnings_.insert(warnings_.end(), d.warnings.begin(), d.warnings.end());
}

RewrittenSource FileRewriter::finish() {
  std::stable_sort(edits_.begin(), edits_.end(), [](const Edit &a, const Edit &b) {
    return a.first != b.first ? a.first < b.first : a.order < b.order;
  });
  RewrittenSource out;
  int line = 0;
  for (const Edit &e : edits_) {
    if (e.first < line)
      throw UserError(SourceLoc{path_, e.first + 1, 1},
                      "Cannot rewrite '" + path_ +
                          "': two edits of --rewrite overlap at this line (two regions share a "
                          "directive?)");
    for (; line < e.first; ++line)
      out.text += lines_.text[line] + lines_.ends[line];
    out.text += e.text;
    line = e.last;
  }
  for (; line < lines_.size(); ++line)
    out.text += lines_.text[line] + lines_.ends[line];
  out.warnings = std::move(warnings_);
  return out;
}

} // namespace

RegionCall region_call(const Kernel &k) {
  RegionCall c{k.source, k.name, {}, {}};
  // A time loop's signature holds its sweeps' nests in a block: every grid
  // counts as written.
  std::vector<std::string> written;
  bool nest = k.body && k.body->kind == StmtKind::For;
  if (nest)
    written = analyze(k).write_set;
  for (const Variable *v : module_arguments(k)) {
    c.arguments.push_back(v->name);
    if (v->is_grid())
      c.grids.push_back(GridArgument{v->name, v->decl,
                                     !nest || std::find(written.begin(), written.end(), v->name) !=
                                                  written.end()});
  }
  return c;
}

std::vector<RegionCall> replaceable_calls(const std::string &text, const std::string &path,
                                          const std::vector<RegionCall> &calls,
                                          const std::string &module) {
  std::vector<RegionCall> kept;
  for (const RegionCall &c : calls)
    if (!c.region.implicit || FileRewriter(text, path, module).implicit_region(c))
      kept.push_back(c);
  return kept;
}

RewrittenSource rewrite_source(const std::string &text, const std::string &path,
                               const std::vector<RegionCall> &calls, const std::string &module,
                               const HostUnits *units, const CallSummaries *summaries) {
  FileRewriter rewriter(text, path, module);
  std::vector<const RegionCall *> ordered;
  for (const RegionCall &c : calls)
    ordered.push_back(&c);
  std::stable_sort(ordered.begin(), ordered.end(), [](const RegionCall *a, const RegionCall *b) {
    return a->region.directive_line < b->region.directive_line;
  });
  std::map<int, std::vector<const RegionCall *>> by_unit;
  std::vector<const RegionCall *> replaced;
  for (const RegionCall *c : ordered) {
    if (c->region.implicit) {
      if (!rewriter.implicit_region(*c))
        continue;
    } else {
      rewriter.region(*c);
    }
    replaced.push_back(c);
    by_unit[c->region.unit_line].push_back(c);
  }
  ordered = std::move(replaced);
  if (units && summaries) {
    rewriter.data_regions(ordered, *units, *summaries);
  } else if (units) {
    // The procedures of this file alone.
    std::map<std::string, HostUnits> file_units = {{path, *units}};
    CallSummaries here(file_units, {{path, ordered}}, module);
    settle_self_updates(here, {{path, text}}, module);
    rewriter.data_regions(ordered, file_units.at(path), here);
  }
  for (const auto &[line, unit] : by_unit)
    rewriter.uses(unit);
  return rewriter.finish();
}

std::vector<std::string> settle_self_updates(CallSummaries &summaries,
                                             const std::map<std::string, std::string> &texts,
                                             const std::string &module) {
  std::vector<std::string> warnings;
  std::map<std::string, Lines> lines;
  for (const auto &[path, text] : texts)
    lines.emplace(path, Lines(text));
  // Each round forbids what failed; the procedures that counted on those
  // are summarized again, and may fail in turn.
  for (int round = 0; round < 64; ++round) {
    std::vector<std::pair<const HostUnit *, std::string>> failed;
    for (const auto &[path, units] : summaries.units()) {
      auto l = lines.find(path);
      if (l == lines.end() || units.empty())
        continue;
      for (auto &f : failed_self_updates(l->second, path, units.front().fixed_form, units, module,
                                         summaries)) {
        warnings.push_back(path + ":" + std::to_string(f.first->first_line) + ":1: warning: '" +
                           f.first->name +
                           "' does not bring its arrays to the host and back itself, so its "
                           "callers hold none of them around its CALL: " +
                           f.second);
        failed.push_back(std::move(f));
      }
    }
    if (failed.empty())
      break;
    for (const auto &f : failed)
      summaries.forbid_updating_itself(*f.first);
  }
  return warnings;
}

std::vector<int> rewritten_directive_lines(const std::string &text) {
  std::vector<int> found;
  Lines lines(text);
  const std::string marker = lower(kRewrittenSentinel);
  for (int l = 0; l < lines.size(); ++l) {
    const std::string &line = lines.text[l];
    if (lower(line.substr(first_nonblank(line), marker.size())) == marker)
      found.push_back(l + 1);
  }
  return found;
}

} // namespace f2s
