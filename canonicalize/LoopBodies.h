// What the canonicalization passes share: a loop body's statements, and a
// loop rebuilt around another body.
#pragma once

#include "ast/IR.h"

#include <vector>

namespace f2s {

/// The statements of a loop body: a Block's, or the single statement.
inline std::vector<Stmt> statements(const Stmt &body) {
  if (const Block *b = as<Block>(body))
    return b->stmts;
  return {body};
}

/// `f` around `body`, with its bounds, execution and direction (a backward
/// sweep stays one).
inline Stmt with_body(const For *f, Stmt body) {
  return For::reversed(std::make_shared<const For>(f->var, f->lo, f->hi, f->step, f->exec,
                                                   std::move(body), f->loc, f->dist),
                       f->reverse);
}

} // namespace f2s
