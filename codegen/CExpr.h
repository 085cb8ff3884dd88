// Internal to codegen/: printing IR expressions as C for one kernel.
#pragma once

#include "ast/IR.h"
#include "codegen/CPrinter.h"

#include <cstdlib>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace f2s {

/// A C literal that rounds exactly as the Fortran literal of kind `t` does.
std::string c_float_literal(double v, Type t);

/// `base`**n for a constant n, in type `t`, as the products gfortran's code
/// computes when optimizing: GCC expands x**n into a chain of multiplications
/// (the same chain for every n). Printing the chain, rather than
/// __builtin_powi, keeps each product rounded where GCC can fold the base as a
/// constant (it folds a whole powi with one rounding, seed 140748), and gives
/// CUDA the same products. A GNU statement expression (GCC and nvcc).
std::string c_power_chain(const std::string &base, long long n, Type t);

/// "f" for the single-precision libm functions, "" for double.
inline const char *c_math_suffix(Type t) {
  return t == Type::Float32 ? "f" : "";
}

/// Prints expressions of one kernel; knows how each grid is laid out.
class CExprPrinter {
public:
  explicit CExprPrinter(const Kernel &k) : kernel_(k) {}

  std::string print(const Expr &e) const {
    switch (e->kind) {
    case ExprKind::IntImm:
      return std::to_string(as<IntImm>(e)->value);
    case ExprKind::FloatImm:
      return c_float_literal(as<FloatImm>(e)->value, e->type);
    case ExprKind::Var:
      return c_name(as<Var>(e)->name);
    case ExprKind::GridRef: {
      const GridRef *g = as<GridRef>(e);
      return grid_element(g->grid, g->index);
    }
    case ExprKind::Unary:
      return (as<Unary>(e)->op == UnaryOp::Not ? "!" : "-") +
             wrap(as<Unary>(e)->a, precedence(as<Unary>(e)->a) < 4);
    case ExprKind::Binary:
      return print_binary(as<Binary>(e), e);
    case ExprKind::Call:
      return print_call(as<Call>(e));
    case ExprKind::Select: {
      // MERGE's operands are free of side effects, so evaluating only the
      // one taken is the same as evaluating both.
      const Select *m = as<Select>(e);
      return "(" + print(m->cond) + " ? " + wrap(m->a, precedence(m->a) < 4) + " : " +
             wrap(m->b, precedence(m->b) < 4) + ")";
    }
    }
    return "?";
  }

  /// `g[linear index]`, column-major from the declared lower bounds; or
  /// `row[x]` when a row pointer of the innermost loop holds the element.
  std::string grid_element(const std::string &grid, const std::vector<Index> &index) const {
    if (element_hook_)
      if (auto text = element_hook_(grid, index))
        return *text;
    if (auto row = row_of(grid, index))
      return *row + "[" + subscript(index[0]) + "]";
    return element_at(grid, index, subscript(index[0]));
  }

  /// The element of `grid` at `index` with the x subscript `x` (C text).
  std::string element_at(const std::string &grid, const std::vector<Index> &index,
                         const std::string &x) const {
    std::string g = c_name(grid), linear;
    for (size_t d = 0; d < index.size(); ++d) {
      std::string term =
          (d == 0 ? x : subscript(index[d])) + " - f2s_" + g + "_lo" + std::to_string(d);
      linear +=
          d == 0 ? "(" + term + ")" : " + f2s_" + g + "_s" + std::to_string(d) + "*(" + term + ")";
    }
    return g + "[" + linear + "]";
  }

  /// One subscript: `i + 1`, `2*i`, `3`.
  static std::string subscript(const Index &ix) {
    if (ix.var.empty() && ix.sym.empty() && ix.inner.empty())
      return std::to_string(ix.offset);
    std::string term = ix.var.empty()  ? ""
                       : ix.coeff == 1 ? c_name(ix.var)
                                       : std::to_string(ix.coeff) + "*" + c_name(ix.var);
    // A plane or an offset at a run-time position (Index::sym): the scalar
    // argument, times its factor.
    if (!ix.sym.empty())
      term += (term.empty() ? "" : " + ") +
              (ix.sym_coeff == 1 ? c_name(ix.sym)
                                 : "(" + std::to_string(ix.sym_coeff) + ")*" + c_name(ix.sym));
    // The variable of a loop inside the point (Index::inner).
    if (!ix.inner.empty())
      term +=
          (term.empty() ? "" : " + ") +
          (ix.inner_coeff == 1 ? c_name(ix.inner)
                               : "(" + std::to_string(ix.inner_coeff) + ")*" + c_name(ix.inner));
    if (ix.offset)
      term += (ix.offset > 0 ? " + " : " - ") + std::to_string(std::abs(ix.offset));
    return term;
  }

  /// The row of an element: its grid and every subscript but x. Elements of
  /// one row are contiguous.
  static std::string row_key(const std::string &grid, const std::vector<Index> &index) {
    std::string key = grid;
    for (size_t d = 1; d < index.size(); ++d)
      key += "|" + index[d].var + "*" + std::to_string(index[d].coeff) + "+" +
             std::to_string(index[d].sym_coeff) + "*" + index[d].sym + "+" +
             std::to_string(index[d].inner_coeff) + "*" + index[d].inner + "+" +
             std::to_string(index[d].offset);
    return key;
  }

  /// Row pointers in scope (row_key -> C name) for elements whose x subscript
  /// is `x_var` plus a constant; set by the statement printer around an
  /// innermost loop, cleared after it.
  void set_rows(std::string x_var, std::map<std::string, std::string> rows) {
    row_x_var_ = std::move(x_var);
    rows_ = std::move(rows);
  }

  /// The row pointer that holds the element, if one is in scope.
  std::optional<std::string> row_of(const std::string &grid,
                                    const std::vector<Index> &index) const {
    if (rows_.empty() || index.empty() || index[0].var != row_x_var_ || index[0].coeff != 1)
      return std::nullopt;
    auto it = rows_.find(row_key(grid, index));
    if (it == rows_.end())
      return std::nullopt;
    return it->second;
  }

  /// Elements the caller holds elsewhere (the CUDA printer: planes staged in
  /// shared memory): the hook returns their C text, or nothing for the grid's
  /// own memory. Null: none.
  using ElementHook =
      std::function<std::optional<std::string>(const std::string &, const std::vector<Index> &)>;
  void set_element_hook(ElementHook hook) { element_hook_ = std::move(hook); }

private:
  static int precedence(const Expr &e) {
    // Eq and Ne on Bools: `.eqv.` and `.neqv.`, below `.or.` in Fortran.
    if (const Binary *b = as<Binary>(e);
        b && (b->op == BinaryOp::Eq || b->op == BinaryOp::Ne) && b->a->type == Type::Bool)
      return -3;
    if (const Binary *b = as<Binary>(e); b && b->op == BinaryOp::Or)
      return -2;
    if (const Binary *b = as<Binary>(e); b && b->op == BinaryOp::And)
      return -1;
    if (const Binary *b = as<Binary>(e); b && is_comparison(b->op))
      return 0;
    if (const Binary *b = as<Binary>(e))
      return b->op == BinaryOp::Add || b->op == BinaryOp::Sub ? 1 : b->op == BinaryOp::Pow ? 4 : 2;
    if (const IntImm *i = as<IntImm>(e); i && i->value < 0)
      return 3;
    if (const FloatImm *f = as<FloatImm>(e); f && f->value < 0)
      return 3;
    return e->kind == ExprKind::Unary ? 3 : 4;
  }

  std::string wrap(const Expr &e, bool parens) const {
    std::string s = print(e);
    return parens ? "(" + s + ")" : s;
  }

  std::string print_binary(const Binary *b, const Expr &self) const {
    if (b->op == BinaryOp::Pow)
      return print_pow(b);
    // Left to right, as Fortran groups them; a right operand of the same
    // precedence keeps its parentheses (a + (b + c) is not (a + b) + c).
    int p = precedence(self);
    if (p == -3) {
      // `.eqv.`/`.neqv.` bind more loosely than `.or.` in Fortran but more
      // tightly than `||` as `==`/`!=` in C: every operand that is itself a
      // comparison or a logical operation keeps its parentheses.
      return wrap(b->a, precedence(b->a) <= 0) + c_operator(b->op) +
             wrap(b->b, precedence(b->b) <= 0);
    }
    if (p <= 0) {
      // Comparisons and logical operators: Fortran forbids chaining
      // comparisons, so only .and./.or. nest; every operand of lower
      // precedence than the operator is parenthesized.
      return wrap(b->a, precedence(b->a) < p) + c_operator(b->op) +
             wrap(b->b, precedence(b->b) <= p);
    }
    const char *op = b->op == BinaryOp::Add   ? " + "
                     : b->op == BinaryOp::Sub ? " - "
                     : b->op == BinaryOp::Mul ? "*"
                                              : "/";
    return wrap(b->a, precedence(b->a) < p) + op + wrap(b->b, precedence(b->b) <= p);
  }

  static const char *c_operator(BinaryOp op) {
    switch (op) {
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
      return " != ";
    case BinaryOp::And:
      return " && ";
    case BinaryOp::Or:
      return " || ";
    default:
      return " ? ";
    }
  }

  // x**n with integer n: a constant n as gfortran's chain of products; a
  // variable one through __builtin_powi, which gfortran calls too (libgcc's
  // repeated squaring; CUDA's f2s_powi does the same).
  std::string print_pow(const Binary *b) const {
    std::string base = print(b->a), exponent = print(b->b);
    // A REAL exponent: both operands in the promoted type (C converts the
    // arguments as Fortran's mixed-mode rules do), then the library's pow,
    // which gfortran calls too.
    if (b->b->type != Type::Int32)
      return std::string("pow") + c_math_suffix(b->type) + "(" + base + ", " + exponent + ")";
    if (b->a->type != Type::Int32 && b->b->kind == ExprKind::IntImm)
      return c_power_chain(base, as<IntImm>(b->b)->value, b->a->type);
    switch (b->a->type) {
    case Type::Float64:
      return "__builtin_powi(" + base + ", (int)(" + exponent + "))";
    case Type::Float32:
      return "__builtin_powif(" + base + ", (int)(" + exponent + "))";
    case Type::Int32:
      return "f2s_ipow(" + base + ", " + exponent + ")";
    case Type::Bool:
      break;
    }
    return "?";
  }

  std::string print_call(const Call *c) const {
    Type t = c->type;
    auto args = [&](size_t from) {
      std::string s;
      for (size_t i = from; i < c->args.size(); ++i)
        s += (i > from ? ", " : "") + print(c->args[i]);
      return s;
    };
    switch (c->fn) {
    case Intrinsic::Min:
    case Intrinsic::Max: {
      // MIN(a, b, c) = min(min(a, b), c), evaluated in the promoted type.
      std::string fn = std::string(c->fn == Intrinsic::Min ? "f2s_min_" : "f2s_max_") +
                       (t == Type::Int32 ? "long" : c_type(t));
      std::string s = print(c->args[0]);
      for (size_t i = 1; i < c->args.size(); ++i)
        s = fn + "(" + s + ", " + print(c->args[i]) + ")";
      return s;
    }
    case Intrinsic::Abs:
      return (t == Type::Int32 ? std::string("labs") : std::string("fabs") + c_math_suffix(t)) +
             "(" + args(0) + ")";
    case Intrinsic::Sign:
      // gfortran's SIGN(a, b) for reals is copysign: b = -0.0 gives -|a|.
      if (t != Type::Int32)
        return std::string("copysign") + c_math_suffix(t) + "(" + args(0) + ")";
      return "(" + wrap(c->args[1], false) + " >= 0 ? labs(" + print(c->args[0]) + ") : -labs(" +
             print(c->args[0]) + "))";
    case Intrinsic::Mod:
      // Both C's % and fmod truncate toward zero, as Fortran's MOD does.
      if (t != Type::Int32)
        return std::string("fmod") + c_math_suffix(t) + "(" + args(0) + ")";
      return "(" + wrap(c->args[0], precedence(c->args[0]) < 4) + " % " +
             wrap(c->args[1], precedence(c->args[1]) < 4) + ")";
    case Intrinsic::Real:
      return std::string("((") + c_type(t) + ")(" + args(0) + "))";
    case Intrinsic::Int: // C's conversion truncates toward zero, as INT does
      return "((int)(" + args(0) + "))";
    case Intrinsic::Nint: // half away from zero, as gfortran's lround
      return std::string("((int)lround") + c_math_suffix(c->args[0]->type) + "(" + args(0) + "))";
    case Intrinsic::Floor:
      return std::string("((int)floor") + c_math_suffix(c->args[0]->type) + "(" + args(0) + "))";
    case Intrinsic::Ceiling:
      return std::string("((int)ceil") + c_math_suffix(c->args[0]->type) + "(" + args(0) + "))";
    case Intrinsic::Aint:
      return std::string("trunc") + c_math_suffix(t) + "(" + args(0) + ")";
    case Intrinsic::Anint:
      return std::string("round") + c_math_suffix(t) + "(" + args(0) + ")";
    default:
      return std::string(intrinsic_name(c->fn)) + c_math_suffix(t) + "(" + args(0) + ")";
    }
  }

  const Kernel &kernel_;
  std::string row_x_var_;
  std::map<std::string, std::string> rows_;
  ElementHook element_hook_;
};

} // namespace f2s
