#include "ast/IRPrinter.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <sstream>

namespace f2s {

namespace {

/// Eq or Ne on two Bools: Fortran's `.eqv.` or `.neqv.`.
bool is_equivalence(const Binary *b) {
  return (b->op == BinaryOp::Eq || b->op == BinaryOp::Ne) && b->a->type == Type::Bool;
}

// Fortran's precedence: unary minus binds like binary minus; below the
// arithmetic come the comparisons, .not., .and., .or. and .eqv./.neqv.
int precedence(const Expr &e) {
  if (const Binary *b = as<Binary>(e)) {
    if (is_equivalence(b))
      return -4;
    switch (b->op) {
    case BinaryOp::Or:
      return -3;
    case BinaryOp::And:
      return -2;
    case BinaryOp::Lt:
    case BinaryOp::Le:
    case BinaryOp::Gt:
    case BinaryOp::Ge:
    case BinaryOp::Eq:
    case BinaryOp::Ne:
      return 0;
    case BinaryOp::Add:
    case BinaryOp::Sub:
      return 1;
    case BinaryOp::Mul:
    case BinaryOp::Div:
      return 2;
    case BinaryOp::Pow:
      return 3;
    }
  }
  if (const Unary *u = as<Unary>(e))
    return u->op == UnaryOp::Not ? -1 : 1;
  if (const IntImm *i = as<IntImm>(e); i && i->value < 0)
    return 1;
  return 4;
}

const char *op_text(BinaryOp op) {
  switch (op) {
  case BinaryOp::Add:
    return " + ";
  case BinaryOp::Sub:
    return " - ";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Pow:
    return "**";
  case BinaryOp::Lt:
    return " < ";
  case BinaryOp::Le:
    return " <= ";
  case BinaryOp::Gt:
    return " > ";
  case BinaryOp::Ge:
    return " >= ";
  case BinaryOp::Eq:
    return " == ";
  case BinaryOp::Ne:
    return " /= ";
  case BinaryOp::And:
    return " .and. ";
  case BinaryOp::Or:
    return " .or. ";
  }
  return "?";
}

std::string parenthesize(const Expr &e, bool needed) {
  std::string s = print_expr(e);
  return needed ? "(" + s + ")" : s;
}

std::string print_grid_access(const std::string &grid, const std::vector<Index> &index) {
  std::string s = grid + "(";
  for (size_t d = 0; d < index.size(); ++d)
    s += (d ? ", " : "") + print_index(index[d]);
  return s + ")";
}

void print_stmt_to(std::ostringstream &out, const Stmt &s, int indent) {
  std::string pad(2 * indent, ' ');
  if (const Block *b = as<Block>(s)) {
    for (const Stmt &c : b->stmts)
      print_stmt_to(out, c, indent);
  } else if (const For *f = as<For>(s)) {
    out << pad;
    if (f->exec != LoopExec::Serial)
      out << loop_exec_name(f->exec) << " ";
    if (f->exec == LoopExec::Groups || f->exec == LoopExec::Members) {
      // The dealing: [collapse N, chunk E(, group E)].
      out << "[collapse " << f->dist.collapse << ", chunk "
          << (f->dist.chunk ? print_expr(f->dist.chunk) : "1");
      if (f->exec == LoopExec::Groups)
        out << ", group " << (f->dist.group ? print_expr(f->dist.group) : "1");
      out << "] ";
    }
    if (f->reverse)
      out << "reverse ";
    out << "for " << f->var << " = " << print_expr(f->lo) << ", " << print_expr(f->hi);
    const IntImm *unit = as<IntImm>(f->step);
    if (!unit || unit->value != 1)
      out << ", " << print_expr(f->step);
    out << " {\n";
    print_stmt_to(out, f->body, indent + 1);
    out << pad << "}\n";
  } else if (const Store *st = as<Store>(s)) {
    out << pad << print_grid_access(st->grid, st->index) << " = " << print_expr(st->value) << "\n";
  } else if (const Assign *a = as<Assign>(s)) {
    out << pad << a->var << " = " << print_expr(a->value) << "\n";
  } else if (const IfThenElse *c = as<IfThenElse>(s)) {
    out << pad << "if " << print_expr(c->cond) << " {\n";
    print_stmt_to(out, c->then_case, indent + 1);
    if (c->else_case) {
      out << pad << "} else {\n";
      print_stmt_to(out, c->else_case, indent + 1);
    }
    out << pad << "}\n";
  }
}

std::string print_variable(const Variable &v) {
  std::string s = v.name + ": " + type_name(v.type);
  if (!v.is_grid())
    return s;
  s += "(";
  for (size_t d = 0; d < v.dims.size(); ++d)
    s += (d ? ", " : "") + print_expr(v.dims[d].lo) + ":" + print_expr(v.dims[d].hi);
  return s + ")";
}

} // namespace

std::string print_float_literal(double v, Type t) {
  char buf[64];
  auto res = t == Type::Float32 ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v))
                                : std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  size_t e = s.find('e');
  std::string mantissa = s.substr(0, e), exponent = e == std::string::npos ? "" : s.substr(e + 1);
  if (mantissa.find('.') == std::string::npos)
    mantissa += ".0";
  if (t == Type::Float32)
    return exponent.empty() ? mantissa : mantissa + "e" + exponent;
  return mantissa + "d" + (exponent.empty() ? "0" : exponent);
}

std::string print_index(const Index &ix) {
  if (ix.var.empty() && ix.sym.empty() && ix.inner.empty())
    return std::to_string(ix.offset);
  std::string s = ix.var.empty()  ? ""
                  : ix.coeff == 1 ? ix.var
                                  : std::to_string(ix.coeff) + "*" + ix.var;
  if (!ix.sym.empty()) {
    int64_t c = ix.sym_coeff;
    std::string term = (c == 1 || c == -1 ? "" : std::to_string(c < 0 ? -c : c) + "*") + ix.sym;
    s += s.empty() ? (c < 0 ? "-" : "") + term : (c < 0 ? " - " : " + ") + term;
  }
  if (!ix.inner.empty()) {
    int64_t c = ix.inner_coeff;
    std::string term = (c == 1 || c == -1 ? "" : std::to_string(c < 0 ? -c : c) + "*") + ix.inner;
    s += s.empty() ? (c < 0 ? "-" : "") + term : (c < 0 ? " - " : " + ") + term;
  }
  if (ix.offset > 0)
    s += " + " + std::to_string(ix.offset);
  else if (ix.offset < 0)
    s += " - " + std::to_string(-ix.offset);
  return s;
}

std::string print_access(const std::vector<Index> &index, const Kernel &k) {
  std::string s = "(";
  for (size_t d = 0; d < index.size(); ++d) {
    std::string ix = print_index(source_index(index[d], k.strides));
    ix.erase(std::remove(ix.begin(), ix.end(), ' '), ix.end());
    s += (d ? "," : "") + ix;
  }
  return s + ")";
}

std::string print_expr(const Expr &e) {
  assert(e && "printing a null expression");
  switch (e->kind) {
  case ExprKind::IntImm:
    if (e->type == Type::Bool)
      return as<IntImm>(e)->value ? ".true." : ".false.";
    return std::to_string(as<IntImm>(e)->value);
  case ExprKind::FloatImm:
    return print_float_literal(as<FloatImm>(e)->value, e->type);
  case ExprKind::Var:
    return as<Var>(e)->name;
  case ExprKind::GridRef: {
    const GridRef *g = as<GridRef>(e);
    return print_grid_access(g->grid, g->index);
  }
  case ExprKind::Unary: {
    const Unary *u = as<Unary>(e);
    if (u->op == UnaryOp::Not)
      return ".not. " + parenthesize(u->a, precedence(u->a) < -1);
    return "-" + parenthesize(u->a, precedence(u->a) <= 1);
  }
  case ExprKind::Binary: {
    const Binary *b = as<Binary>(e);
    int p = precedence(e);
    // `**` groups right to left, everything else left to right.
    bool right_assoc = b->op == BinaryOp::Pow;
    bool left_parens = right_assoc ? precedence(b->a) <= p : precedence(b->a) < p;
    bool right_parens = right_assoc ? precedence(b->b) < p : precedence(b->b) <= p;
    const char *op = !is_equivalence(b)      ? op_text(b->op)
                     : b->op == BinaryOp::Eq ? " .eqv. "
                                             : " .neqv. ";
    return parenthesize(b->a, left_parens) + op + parenthesize(b->b, right_parens);
  }
  case ExprKind::Call: {
    const Call *c = as<Call>(e);
    std::string s = std::string(intrinsic_name(c->fn)) + "(";
    for (size_t i = 0; i < c->args.size(); ++i)
      s += (i ? ", " : "") + print_expr(c->args[i]);
    // REAL(x) says which kind it makes, as the source may not.
    if (c->fn == Intrinsic::Real)
      s += c->type == Type::Float32 ? ", 4" : ", 8";
    return s + ")";
  }
  case ExprKind::Select: {
    const Select *m = as<Select>(e);
    return "merge(" + print_expr(m->a) + ", " + print_expr(m->b) + ", " + print_expr(m->cond) + ")";
  }
  }
  return "?";
}

std::string print_stmt(const Stmt &s, int indent) {
  std::ostringstream out;
  print_stmt_to(out, s, indent);
  return out.str();
}

std::string print_kernel(const Kernel &k) {
  std::ostringstream out;
  out << "kernel " << k.name << "(";
  for (size_t i = 0; i < k.args.size(); ++i)
    out << (i ? ", " : "") << print_variable(k.args[i]);
  out << ")\n";
  for (const Variable &t : k.temps)
    out << "  temp " << print_variable(t) << "\n";
  for (const Variable &t : k.tuning)
    out << "  tuning " << print_variable(t) << "\n";
  for (const Reduction &r : k.reductions)
    out << "  reduce " << reduce_op_name(r.op) << " " << r.var << ": " << type_name(r.type) << "\n";
  if (!k.tune_size.empty()) {
    out << "  tune_size(";
    const auto sizes =
        k.tune_sizes.size() > 1 ? k.tune_sizes : std::vector<std::vector<int64_t>>{k.tune_size};
    for (size_t s = 0; s < sizes.size(); ++s)
      for (size_t i = 0; i < sizes[s].size(); ++i)
        out << (s && !i ? "; " : i ? ", " : "") << sizes[s][i];
    out << ")\n";
  }
  // The loop over a strided variable counts trips; the source's value is this.
  for (const SourceStride &st : k.strides)
    out << "  source " << st.var << " = " << print_index(Index{st.var, st.step, st.lo}) << "\n";
  if (!k.source_order.empty()) {
    out << "  source order";
    for (size_t n = 0; n < k.source_order.size(); ++n)
      out << (n ? ", " : " ") << k.source_order[n];
    out << "\n";
  }
  if (k.ordered)
    out << "  ordered " << k.ordered->var << ": " << k.ordered->reason << "\n";
  // The point is a column: its statements run in order, loops over `var` too.
  if (k.column) {
    out << "  columns in order along " << k.column->var << "\n";
    for (const Variable &w : k.column->work)
      out << "  work " << print_variable(w) << "\n";
  }
  // Substituted into the point: the source's array is not touched.
  for (const std::string &b : k.line_buffers)
    out << "  line_buffer " << b << "\n";
  // Private to each point, as temporaries: the source's array is not touched.
  for (const PointArray &a : k.point_arrays)
    out << "  point_array " << a.name << "\n";
  if (k.indexing == Indexing::RowPointers)
    out << "  indexing row_pointers\n";
  for (const std::string &g : k.streamed)
    out << "  stream " << g << "\n";
  if (!k.prefetch_distance.empty())
    out << "  prefetch distance " << k.prefetch_distance << "\n";
  for (const SharedPlanes &p : k.shared_planes) {
    out << "  shared " << p.grid;
    for (int a = 0; a < 3; ++a)
      out << " "
          << "xyz"[a] << "[" << p.lo[a] << ":" << p.hi[a] << "]";
    out << (p.corners ? "" : " no_corners") << "\n";
  }
  for (const RegisterColumn &c : k.register_columns)
    out << "  registers " << c.grid << " z[" << c.lo << ":" << c.hi << "]\n";
  out << print_stmt(k.body, 1);
  return out.str();
}

} // namespace f2s
