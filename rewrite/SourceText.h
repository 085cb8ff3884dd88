// The text of a Fortran source file as --rewrite edits it: lines with their
// own line ends, what kind of line each is (comment, cpp), statements printed
// in the file's source form, and line edits. Shared by rewrite/Rewrite.cpp
// and rewrite/DataRegions.cpp; nothing here knows of regions.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace f2s::source_text {

/// Fixed form reads columns 1 to 72 only.
constexpr size_t kFixedWidth = 72;
/// gfortran's default free-form line length.
constexpr size_t kFreeWidth = 132;

/// The file as lines, each with the newline it ended with.
struct Lines {
  std::vector<std::string> text;
  std::vector<std::string> ends;
  std::string newline = "\n"; ///< the file's own, for added lines

  explicit Lines(const std::string &all) {
    size_t at = 0;
    while (at < all.size()) {
      size_t nl = all.find('\n', at);
      std::string line = all.substr(at, nl == std::string::npos ? std::string::npos : nl - at);
      std::string end = nl == std::string::npos ? "" : "\n";
      if (!line.empty() && line.back() == '\r') {
        line.pop_back();
        end = "\r" + end;
      }
      text.push_back(line);
      ends.push_back(end);
      at = nl == std::string::npos ? all.size() : nl + 1;
    }
    if (!ends.empty() && !ends.front().empty())
      newline = ends.front();
  }
  int size() const { return static_cast<int>(text.size()); }
};

/// Lines [first, last) replaced by `text` (complete lines, each ending in a
/// newline); first == last inserts before `first`.
struct Edit {
  int first = 0, last = 0;
  std::string text;
  int order = 0; ///< among insertions at one place
};

std::string lower(std::string s);
bool blank(const std::string &s);
size_t first_nonblank(const std::string &s);

/// A cpp line (`#ifdef`, `#include`, ...).
bool is_cpp(const std::string &line);
/// The kind of `#if...`, `#else`/`#elif` or `#endif` line: +1, 0, -1; also 0
/// for any other line.
int cpp_depth_change(const std::string &line);
/// Where a comment-form sentinel (`!$omp`, `c$acc`, `!$f2s`) starts on
/// `line`, if the line starts with one.
std::optional<size_t> sentinel_at(const std::string &line, bool fixed);
/// A line Fortran ignores: blank, or a comment (not a directive and not
/// OpenMP's `!$ ` conditional compilation, which holds a statement).
bool is_comment(const std::string &line, bool fixed);
/// The first line [0-based) of the comment lines that end just before
/// `line`: the gap between the statement before and `line`.
int gap_start(const Lines &lines, int line, bool fixed);
/// The first line at or after `line` that is not a comment.
int gap_end(const Lines &lines, int line, bool fixed);

/// `text` as fixed-form lines: `label` in columns 1-5, the statement from
/// column 7 at `indent`, cut after a comma to end by column 72, each
/// continuation with '&' in column 6.
std::string fixed_form_statement(const std::string &label, size_t indent, const std::string &text,
                                 const std::string &nl);
/// A statement as the file's form wants it (free form: cut with '&' before
/// column 132).
std::string statement(bool fixed, const std::string &label, const std::string &indent,
                      const std::string &text, const std::string &nl);
/// Columns of leading white space, a tab in fixed form's label field
/// counting as reaching column 6.
size_t indent_columns(const std::string &line, bool fixed);
/// The indentation of a statement on `line`: its leading blanks (fixed
/// form: in columns, at least 6, as spaces).
std::string indent_of(const std::string &line, bool fixed, size_t statement_column);

} // namespace f2s::source_text
