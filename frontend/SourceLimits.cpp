#include "frontend/SourceLimits.h"

#include "ast/IR.h"

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
