// Finding `!$f2s` directives in the raw text of a source file.
//
// To Flang's prescanner `!$f2s` is an ordinary comment, so the directives
// never reach the parse tree: they are read here from the file's text, line
// by line, and attached to the next DO construct by the lowering.
#pragma once

#include "ast/IR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace f2s {

/// One `!$f2s stencil [name(ident)] [tune_size(n1,n2[,n3])]` line.
struct StencilDirective {
  SourceLoc loc;                   ///< the `!` of `!$f2s`
  std::optional<std::string> name; ///< lower case
  SourceLoc name_loc;
  std::vector<int64_t> tune_size; ///< empty when the clause is absent
  SourceLoc tune_size_loc;        ///< the clause's keyword
};

/// Every `!$f2s` directive of `text` (the contents of `path`), in line order.
/// A directive is a comment line whose first non-blank characters are `!$f2s`
/// (case-insensitive). Throws UserError for a directive other than STENCIL,
/// an unknown or repeated clause, or a malformed clause.
std::vector<StencilDirective> find_directives(const std::string &text, const std::string &path);

} // namespace f2s
