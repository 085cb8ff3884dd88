#include "canonicalize/ColumnNest.h"

#include "canonicalize/FoldConstants.h"
#include "canonicalize/LoopBodies.h"
#include "canonicalize/SinkScalars.h"

#include <algorithm>
#include <cassert>

namespace f2s {

namespace {

/// Whether `body` holds a loop over `var` among its statements.
bool holds_column(const Stmt &body, const std::string &var) {
  std::vector<Stmt> stmts = statements(body);
  return std::any_of(stmts.begin(), stmts.end(), [&](const Stmt &s) {
    const For *f = as<For>(s);
    return f && f->var == var;
  });
}

/// The nest at `s` with the column replaced by `marker`, and the column.
Stmt shell(const Stmt &s, const std::string &var, const Stmt &marker, Stmt &column) {
  const For *f = as<For>(s);
  if (!f)
    return s;
  if (holds_column(f->body, var)) {
    column = f->body;
    return with_body(f, marker);
  }
  std::vector<Stmt> out;
  for (const Stmt &c : statements(f->body))
    out.push_back(shell(c, var, marker, column));
  return with_body(f, out.size() == 1 ? out.front() : Block::make(std::move(out), f->body->loc));
}

/// `s` with the statement `marker` replaced by the column's statements.
Stmt restore(const Stmt &s, const Stmt &marker, const Stmt &column) {
  if (const For *f = as<For>(s))
    return with_body(f, restore(f->body, marker, column));
  const Block *b = as<Block>(s);
  if (!b)
    return s == marker ? column : s;
  std::vector<Stmt> out;
  for (const Stmt &c : b->stmts) {
    if (c != marker) {
      out.push_back(restore(c, marker, column));
      continue;
    }
    for (const Stmt &inner : statements(column))
      out.push_back(inner);
  }
  return Block::make(std::move(out), b->loc);
}

} // namespace

Stmt canonicalize_column(const Stmt &nest, const std::string &column_var) {
  // SinkScalars works on perfect nests whose point has no loop: it sees the
  // column as one statement (an assignment to no variable), which it keeps
  // after the scalars it moves.
  Stmt marker = Assign::make("", IntImm::make(0));
  Stmt column;
  Stmt outer = shell(nest, column_var, marker, column);
  assert(column && "the front end found the column's loops in the nest");
  return fold_constants(restore(sink_scalars(outer, column), marker, column));
}

} // namespace f2s
