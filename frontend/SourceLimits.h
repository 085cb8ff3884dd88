// Limits on the shape of source text that keep the front end's recursion
// bounded: Flang's parser descends once per level of parentheses, and the
// parse tree of `a + b + c + ...` is as deep as the expression is long.
#pragma once

#include <string>
#include <vector>

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

/// Throws UserError where an `#if` or `#elif` expression has a binary
/// operator (`&`, `*`, `==`, ...) where an operand belongs, as in `#if&FOO`,
/// `#if (* 2)` or `#if FOO == 1` with FOO defined empty: Flang 19's
/// preprocessor aborts on that shape (CRASH_NO_CASE in ExpressionValue)
/// instead of reporting it. Object-like macros from `#define` lines above
/// and from `defines` (NAME or NAME=VALUE, as -D gives them) are expanded
/// first, as Flang does; an expression continued with a backslash is
/// checked on its first line only.
void check_if_expressions(const std::string &text, const std::string &path,
                          const std::vector<std::string> &defines);

/// Most block constructs (DO, IF ... THEN, SELECT, ASSOCIATE, BLOCK) a
/// program unit may leave without their END statement: Flang 19's parser
/// retries each unclosed construct's alternatives, twice the time per level
/// (14 unclosed DOs take seconds, 20 minutes).
inline constexpr int kMaxUnclosedConstructs = 8;

/// Throws UserError at the outermost unclosed construct of a program unit
/// that leaves more than kMaxUnclosedConstructs block constructs without
/// their END statement.
void check_unclosed_constructs(const std::string &text, const std::string &path, bool fixed_form);

} // namespace f2s::fe
