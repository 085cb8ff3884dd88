#include "rewrite/SourceText.h"

#include "codegen/Interfaces.h"

#include <algorithm>
#include <cctype>

namespace f2s::source_text {

std::string lower(std::string s) {
  for (char &c : s)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool blank(const std::string &s) {
  return s.find_first_not_of(" \t") == std::string::npos;
}

size_t first_nonblank(const std::string &s) {
  size_t p = s.find_first_not_of(" \t");
  return p == std::string::npos ? s.size() : p;
}

// ------------------------------------------------------------ line classes

/// A cpp line (`#ifdef`, `#include`, ...).
bool is_cpp(const std::string &line) {
  size_t p = first_nonblank(line);
  return p < line.size() && line[p] == '#';
}

/// The kind of `#if...`, `#else`/`#elif` or `#endif` line: +1, 0, -1; also 0
/// for any other line.
int cpp_depth_change(const std::string &line) {
  if (!is_cpp(line))
    return 0;
  std::string word;
  for (size_t p = line.find_first_not_of(" \t", first_nonblank(line) + 1);
       p < line.size() && std::isalpha(static_cast<unsigned char>(line[p])); ++p)
    word += static_cast<char>(std::tolower(static_cast<unsigned char>(line[p])));
  if (word == "if" || word == "ifdef" || word == "ifndef")
    return 1;
  return word == "endif" ? -1 : 0;
}

/// Where a comment-form sentinel (`!$omp`, `c$acc`, `!$f2s`) starts on
/// `line`, if the line starts with one: column 1 in fixed form (`!`, `c`,
/// `C` or `*`), the first non-blank character (`!`) in free form.
std::optional<size_t> sentinel_at(const std::string &line, bool fixed) {
  size_t p = fixed ? 0 : first_nonblank(line);
  if (fixed && p < line.size() && line[p] != '!' && line[p] != 'c' && line[p] != 'C' &&
      line[p] != '*') {
    // gfortran takes `!$f2s` and `!$omp` further right in fixed form too.
    p = first_nonblank(line);
    if (p == 5 || p >= line.size() || line[p] != '!')
      return std::nullopt;
  }
  if (p + 1 >= line.size() ||
      (fixed ? std::string("!cC*").find(line[p]) == std::string::npos : line[p] != '!'))
    return std::nullopt;
  if (line[p + 1] != '$')
    return std::nullopt;
  return p;
}

/// A line Fortran ignores: blank, or a comment (not a directive and not
/// OpenMP's `!$ ` conditional compilation, which holds a statement).
bool is_comment(const std::string &line, bool fixed) {
  if (blank(line))
    return true;
  if (auto p = sentinel_at(line, fixed)) {
    // `!$` followed by a blank or a digit is a statement to OpenMP.
    if (*p + 2 >= line.size())
      return true;
    char next = line[*p + 2];
    return next != ' ' && next != '\t' && !std::isdigit(static_cast<unsigned char>(next));
  }
  if (fixed && (line[0] == 'c' || line[0] == 'C' || line[0] == '*' || line[0] == '!'))
    return true;
  size_t p = first_nonblank(line);
  return line[p] == '!' && !(fixed && p == 5);
}

/// The first line [0-based) of the comment lines that end just before
/// `line`: the gap between the statement before and `line`.
int gap_start(const Lines &lines, int line, bool fixed) {
  int l = line;
  while (l > 0 && is_comment(lines.text[l - 1], fixed))
    --l;
  return l;
}

int gap_end(const Lines &lines, int line, bool fixed) {
  int l = line;
  while (l < lines.size() && is_comment(lines.text[l], fixed))
    ++l;
  return l;
}

// ------------------------------------------------------------------- edits

/// `text` as fixed-form lines: `label` in columns 1-5, the statement from
/// column 7 at `indent`, cut after a comma (else anywhere: blanks mean
/// nothing in fixed form) to end by column 72, each continuation with '&' in
/// column 6.
std::string fixed_form_statement(const std::string &label, size_t indent, const std::string &text,
                                 const std::string &nl) {
  std::string lead = label.substr(0, 5);
  lead.resize(6, ' ');
  lead += std::string(indent > 6 ? indent - 6 : 0, ' ');
  std::string cont = "     &" + std::string(indent > 6 ? indent - 6 + 4 : 4, ' ');
  std::string out, rest = text;
  for (std::string l = lead; l.size() + rest.size() > kFixedWidth; l = cont) {
    size_t room = kFixedWidth - l.size();
    size_t cut = rest.rfind(", ", room - 1);
    cut = cut == std::string::npos || cut == 0 ? room : cut + 1;
    out += l + rest.substr(0, cut) + nl;
    rest = rest.substr(cut);
    rest.erase(0, rest.find_first_not_of(' '));
  }
  return out + (out.empty() ? lead : cont) + rest + nl;
}

/// A statement as the file's form wants it.
std::string statement(bool fixed, const std::string &label, const std::string &indent,
                      const std::string &text, const std::string &nl) {
  if (fixed)
    return fixed_form_statement(label, indent.size(), text, nl);
  std::string lines = wrap_fortran_lines((label.empty() ? "" : label + " ") + indent + text);
  if (nl != "\n") {
    std::string out;
    for (char c : lines)
      out += c == '\n' ? nl : std::string(1, c);
    return out;
  }
  return lines;
}

/// Columns of leading white space, a tab in fixed form's label field
/// counting as reaching column 6.
size_t indent_columns(const std::string &line, bool fixed) {
  size_t cols = 0;
  for (char c : line) {
    if (c == ' ')
      ++cols;
    else if (c == '\t')
      cols = fixed && cols < 6 ? 6 : cols + 1;
    else
      break;
  }
  return cols;
}

/// The indentation of a statement on `line`: its leading blanks (fixed
/// form: in columns, at least 6, as spaces).
std::string indent_of(const std::string &line, bool fixed, size_t statement_column) {
  if (fixed) {
    std::string after_label = line.size() > 6 ? line.substr(6) : "";
    size_t cols = std::max<size_t>(6, 6 + indent_columns(after_label, false));
    if (line.find('\t') != std::string::npos && line.find('\t') < 6)
      cols = 6 + indent_columns(line.substr(line.find('\t') + 1), false);
    return std::string(cols, ' ');
  }
  size_t p = std::min(first_nonblank(line), statement_column);
  return line.substr(0, p);
}

} // namespace f2s::source_text
