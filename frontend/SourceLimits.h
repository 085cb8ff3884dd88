// Limits on the shape of source text that keep the front end's recursion
// bounded: Flang's parser descends once per level of parentheses, and the
// parse tree of `a + b + c + ...` is as deep as the expression is long.
#pragma once

#include <string>

namespace f2s::fe {

/// Deepest nesting of parentheses read (real codes use a few dozen levels).
inline constexpr int kMaxParenDepth = 256;
/// Longest statement read, continuation lines joined, in characters (a
/// Fortran 2018 statement may have 255 continuation lines of 132).
inline constexpr size_t kMaxStatementChars = 100000;

/// Throws UserError at the first place where `text` (the file at `path`)
/// nests parentheses deeper than kMaxParenDepth or has a statement longer
/// than kMaxStatementChars. Comments and character literals are skipped.
void check_source_limits(const std::string &text, const std::string &path, bool fixed_form);

} // namespace f2s::fe
