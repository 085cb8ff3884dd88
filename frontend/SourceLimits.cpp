#include "frontend/SourceLimits.h"

#include "ast/IR.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>

namespace f2s::fe {

void check_source_limits(const std::string &text, const std::string &path, bool fixed_form) {
  int depth = 0;
  int line = 1;
  size_t line_start = 0;
  size_t statement_chars = 0;
  int statement_line = 1;
  char quote = 0;
  for (size_t p = 0; p < text.size(); ++p) {
    char c = text[p];
    if (c == '\n') {
      // A statement goes on when this line ends with '&' (free form) or the
      // next has a continuation mark in column 6 (fixed form).
      size_t end = p;
      while (end > line_start &&
             (text[end - 1] == ' ' || text[end - 1] == '\t' || text[end - 1] == '\r'))
        --end;
      bool continued = !fixed_form && end > line_start && text[end - 1] == '&';
      if (fixed_form && p + 6 < text.size()) {
        std::string next = text.substr(p + 1, 6);
        continued = next.find('\n') == std::string::npos && next[5] != ' ' && next[5] != '0' &&
                    next[0] != 'c' && next[0] != 'C' && next[0] != '*' && next[0] != '!';
      }
      if (!continued) {
        depth = 0;
        statement_chars = 0;
        statement_line = line + 1;
        quote = 0;
      }
      ++line;
      line_start = p + 1;
      continue;
    }
    if (++statement_chars > kMaxStatementChars)
      throw UserError(SourceLoc{path, statement_line, 1},
                      "This statement is longer than " + std::to_string(kMaxStatementChars) +
                          " characters, the most f2stencil reads; split it with temporaries");
    if (fixed_form && p == line_start && (c == 'c' || c == 'C' || c == '*')) {
      // A comment line: skip to its end.
      size_t nl = text.find('\n', p);
      p = (nl == std::string::npos ? text.size() : nl) - 1;
      continue;
    }
    if (quote) {
      if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == '!') {
      size_t nl = text.find('\n', p);
      p = (nl == std::string::npos ? text.size() : nl) - 1;
    } else if (c == '(') {
      if (++depth > kMaxParenDepth)
        throw UserError(SourceLoc{path, line, static_cast<int>(p - line_start) + 1},
                        "This expression is nested more than " + std::to_string(kMaxParenDepth) +
                            " parentheses deep, too deeply nested for f2stencil; split it with "
                            "temporaries");
    } else if (c == ')') {
      depth = depth > 0 ? depth - 1 : 0;
    }
  }
}

} // namespace f2s::fe

namespace f2s::fe {

namespace {

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

struct PpToken {
  std::string text;
  int column;        // 1-based, on the directive's line
  std::string macro; // the macro whose expansion gave it, empty if literal
};

/// Splits a directive's expression the way Flang's prescanner does for the
/// operators that matter here: names, numbers, `.op.`, two-character
/// operators, then single characters.
std::vector<PpToken> tokenize_expression(const std::string &line, size_t from) {
  static const char *kPairs[] = {"**", "<<", ">>", "<=", ">=", "==", "/=", "!=", "&&", "||"};
  std::vector<PpToken> tokens;
  size_t p = from;
  while (p < line.size()) {
    char c = line[p];
    size_t start = p;
    if (c == ' ' || c == '\t' || c == '\r') {
      ++p;
      continue;
    }
    if (is_name_char(c)) {
      while (p < line.size() && is_name_char(line[p]))
        ++p;
    } else if (c == '.' && p + 1 < line.size() &&
               std::isalpha(static_cast<unsigned char>(line[p + 1]))) {
      size_t q = p + 1;
      while (q < line.size() && std::isalpha(static_cast<unsigned char>(line[q])))
        ++q;
      p = q < line.size() && line[q] == '.' ? q + 1 : p + 1;
    } else {
      p += 1;
      for (const char *pair : kPairs)
        if (line.compare(start, 2, pair) == 0)
          p = start + 2;
    }
    // Macro names keep their case; `.NOT.` and `DEFINED` are read in any.
    std::string text = line.substr(start, p - start);
    std::string lower = text;
    for (char &ch : lower)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (lower[0] == '.' || lower == "defined")
      text = lower;
    tokens.push_back({text, static_cast<int>(start) + 1, ""});
  }
  return tokens;
}

/// The operators Flang's ExpressionValue reads only between two operands.
bool is_binary_only(const std::string &t) {
  static const char *kOps[] = {"**", "*",  "/",  "%",  "<<", ">>", "&",  "^",  "|", "<",
                               "<=", "==", "/=", "!=", ">=", ">",  "&&", "||", "?", ","};
  for (const char *op : kOps)
    if (t == op)
      return true;
  return false;
}

bool is_binary(const std::string &t) {
  return is_binary_only(t) || t == "+" || t == "-" || t == ":" ||
         (t.size() > 2 && t.front() == '.' && t != ".not.");
}

} // namespace

void check_if_expressions(const std::string &text, const std::string &path,
                          const std::vector<std::string> &defines) {
  std::map<std::string, std::string> macros;
  for (const std::string &d : defines) {
    auto eq = d.find('=');
    macros[d.substr(0, eq)] = eq == std::string::npos ? "1" : d.substr(eq + 1);
  }
  int line_no = 0;
  for (size_t start = 0; start < text.size();) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string::npos ? text.size() : nl;
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    size_t p = line.find_first_not_of(" \t");
    if (p == std::string::npos || line[p] != '#')
      continue;
    p = line.find_first_not_of(" \t", p + 1);
    if (p == std::string::npos)
      continue;
    size_t name_end = p;
    while (name_end < line.size() && is_name_char(line[name_end]))
      ++name_end;
    std::string directive = line.substr(p, name_end - p);
    for (char &ch : directive)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    size_t arg = line.find_first_not_of(" \t", name_end);
    size_t arg_end = arg;
    while (arg != std::string::npos && arg_end < line.size() && is_name_char(line[arg_end]))
      ++arg_end;
    std::string name = arg == std::string::npos ? "" : line.substr(arg, arg_end - arg);
    if (directive == "define" && !name.empty() && is_name_start(name[0])) {
      // A function-like macro (NAME immediately followed by '(') is left out:
      // its uses are read as an operand.
      if (arg_end < line.size() && line[arg_end] == '(')
        macros.erase(name);
      else
        macros[name] = line.substr(arg_end);
      continue;
    }
    if (directive == "undef") {
      macros.erase(name);
      continue;
    }
    if (directive != "if" && directive != "elif")
      continue;
    std::vector<PpToken> tokens = tokenize_expression(line, name_end);
    bool expect_operand = true;
    int expansions = 0;
    for (size_t i = 0; i < tokens.size(); ++i) {
      const PpToken t = tokens[i];
      if (!expect_operand) {
        if (t.text == ")")
          continue;
        if (!is_binary(t.text))
          break; // the end, a comment, or an error Flang reports itself
        expect_operand = true;
        continue;
      }
      if (t.text == "(" || t.text == "+" || t.text == "-" || t.text == "!" || t.text == "~" ||
          t.text == ".not.")
        continue;
      if (t.text == "defined") {
        // `defined NAME` and `defined(NAME)`: NAME is not expanded.
        size_t k = i + 1;
        if (k < tokens.size() && tokens[k].text == "(")
          k += 2;
        i = std::min(k, tokens.size() - 1);
        expect_operand = false;
        continue;
      }
      auto macro = macros.find(t.text);
      if (is_name_start(t.text[0]) && macro != macros.end() && ++expansions <= 64) {
        std::vector<PpToken> replacement = tokenize_expression(macro->second, 0);
        for (PpToken &r : replacement) {
          r.column = t.column;
          r.macro = t.macro.empty() ? t.text : t.macro;
        }
        tokens.erase(tokens.begin() + static_cast<long>(i));
        // A macro defined empty: what follows takes its place, and an error
        // there is the macro's.
        if (replacement.empty() && i < tokens.size() && tokens[i].macro.empty())
          tokens[i] = {tokens[i].text, t.column, t.text};
        tokens.insert(tokens.begin() + static_cast<long>(i), replacement.begin(),
                      replacement.end());
        --i;
        continue;
      }
      if (is_binary_only(t.text))
        throw UserError(
            SourceLoc{path, line_no, t.column},
            "This #" + directive + " expression has the operator '" + t.text + "'" +
                (t.macro.empty() ? "" : " (at the expansion of macro '" + t.macro + "')") +
                " where an operand belongs, which Flang's preprocessor cannot read; "
                "write an operand before it");
      expect_operand = false;
    }
  }
}

} // namespace f2s::fe

namespace f2s::fe {

namespace {

/// Where the parenthesis opening at `open` closes in `s`, or npos.
size_t matching_paren(const std::string &s, size_t open) {
  int depth = 0;
  for (size_t p = open; p < s.size(); ++p) {
    if (s[p] == '(')
      ++depth;
    else if (s[p] == ')' && --depth == 0)
      return p;
  }
  return std::string::npos;
}

/// `s` (lower case, blanks removed) is `<head>(...)<tail>` exactly.
bool paren_then(const std::string &s, const std::string &head, const std::string &tail) {
  if (s.compare(0, head.size(), head) != 0 || s.size() <= head.size() || s[head.size()] != '(')
    return false;
  size_t close = matching_paren(s, head.size());
  return close != std::string::npos && s.substr(close + 1) == tail;
}

/// A statement (lower case, blanks removed, no construct name) that opens a
/// block construct this check follows.
bool opens_construct(const std::string &s) {
  if (s.compare(0, 2, "do") == 0) {
    std::string rest = s.substr(2);
    if (!rest.empty() && rest[0] == ',')
      rest = rest.substr(1);
    if (rest.empty())
      return true;
    if (std::isdigit(static_cast<unsigned char>(rest[0])))
      return false; // DO with a label: ends on its labelled statement
    if (paren_then(rest, "while", "") || paren_then(rest, "concurrent", ""))
      return true;
    size_t eq = rest.find('=');
    if (eq == std::string::npos || eq == 0 ||
        !std::all_of(rest.begin(), rest.begin() + static_cast<long>(eq), is_name_char))
      return false;
    int depth = 0;
    for (size_t p = eq; p < rest.size(); ++p) {
      depth += rest[p] == '(' ? 1 : rest[p] == ')' ? -1 : 0;
      if (rest[p] == ',' && depth == 0)
        return true; // `do i = 1, n`, not the assignment `doi = 1`
    }
    return false;
  }
  return paren_then(s, "if", "then") || paren_then(s, "selectcase", "") ||
         paren_then(s, "selecttype", "") || paren_then(s, "selectrank", "") ||
         paren_then(s, "associate", "") || s == "block";
}

bool closes_construct(const std::string &s) {
  for (const char *end : {"enddo", "endif", "endselect", "endassociate", "endblock"})
    if (s.compare(0, std::strlen(end), end) == 0 &&
        (s.size() == std::strlen(end) || is_name_char(s[std::strlen(end)])))
      return s.compare(0, 12, "endblockdata") != 0;
  return false;
}

bool ends_unit(const std::string &s) {
  if (s == "end")
    return true;
  for (const char *end : {"endsubroutine", "endfunction", "endprogram", "endmodule"})
    if (s.compare(0, std::strlen(end), end) == 0)
      return true;
  return false;
}

} // namespace

void check_unclosed_constructs(const std::string &text, const std::string &path, bool fixed_form) {
  std::vector<SourceLoc> open;
  auto check = [&](const std::string &where) {
    if (static_cast<int>(open.size()) > kMaxUnclosedConstructs)
      throw UserError(open.front(), "This construct and " + std::to_string(open.size() - 1) +
                                        " more inside it have no END statement before " + where +
                                        ", more than Flang can read in reasonable time; close "
                                        "each with its END statement");
    open.clear();
  };
  int line_no = 0;
  for (size_t start = 0; start < text.size();) {
    size_t nl = text.find('\n', start);
    size_t end = nl == std::string::npos ? text.size() : nl;
    std::string line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (fixed_form) {
      if (!line.empty() && line[0] == '\t')
        line = "      " + line.substr(1); // a tab for the label field
      if (line.empty() || std::strchr("cC*!#", line[0]) ||
          (line.size() > 5 && line[5] != ' ' && line[5] != '0'))
        continue; // a comment, a directive or a continuation line
      line = line.size() > 6 ? line.substr(6) : "";
    }
    // Lower case, blanks and the comment removed (quotes are rare in the
    // statements that matter, and a '!' in one only shortens it).
    std::string s;
    size_t first = std::string::npos;
    for (size_t p = 0; p < line.size() && line[p] != '!'; ++p) {
      if (line[p] == ' ' || line[p] == '\t' || line[p] == '\r')
        continue;
      if (first == std::string::npos)
        first = p;
      s += static_cast<char>(std::tolower(static_cast<unsigned char>(line[p])));
    }
    if (!fixed_form) {
      size_t digits = s.find_first_not_of("0123456789");
      s = digits == std::string::npos ? "" : s.substr(digits); // a statement label
      if (!s.empty() && s[0] == '#')
        continue;
    }
    // A construct name, `name: do`.
    size_t colon = s.find(':');
    if (colon != std::string::npos && colon > 0 && s.compare(colon, 2, "::") != 0 &&
        is_name_start(s[0]) &&
        std::all_of(s.begin(), s.begin() + static_cast<long>(colon), is_name_char))
      s = s.substr(colon + 1);
    if (opens_construct(s)) {
      int column = static_cast<int>(first) + 1 + (fixed_form ? 6 : 0);
      open.push_back(SourceLoc{path, line_no, column});
    } else if (closes_construct(s)) {
      if (!open.empty())
        open.pop_back();
    } else if (ends_unit(s)) {
      check("the END of its program unit");
    }
  }
  check("the end of the file");
}

} // namespace f2s::fe
