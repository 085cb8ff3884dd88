#include "codegen/CPrinter.h"

#include "ast/Analysis.h"
#include "ast/IRPrinter.h"
#include "runtime/RuntimeText.h"

#include <cassert>
#include <cstdio>
#include <set>
#include <sstream>

namespace f2s {

namespace {

// C keywords and the library functions the generated code calls: a Fortran
// variable with one of these names gets a suffix in C.
const std::set<std::string> &reserved_c_names() {
  static const std::set<std::string> names = {
      "auto",    "break",   "case",     "char",     "const",    "continue", "default", "do",
      "double",  "else",    "enum",     "extern",   "float",    "for",      "goto",    "if",
      "inline",  "int",     "long",     "register", "restrict", "return",   "short",   "signed",
      "sizeof",  "static",  "struct",   "switch",   "typedef",  "union",    "unsigned", "void",
      "volatile", "while",  "bool",     "main",     "a",        "tune",     "nthreads", "sqrt",
      "sqrtf",   "fabs",    "fabsf",    "abs",      "exp",      "expf",     "sin",     "sinf",
      "cos",     "cosf",    "int32_t",  "int64_t",  "NULL"};
  return names;
}

std::string c_float_literal(double v, Type t) {
  char buf[64];
  if (t == Type::Float32)
    std::snprintf(buf, sizeof buf, "%.9g", static_cast<float>(v));
  else
    std::snprintf(buf, sizeof buf, "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  return t == Type::Float32 ? s + "f" : s;
}

const char *c_math_suffix(Type t) { return t == Type::Float32 ? "f" : ""; }

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
      return "-" + wrap(as<Unary>(e)->a, precedence(as<Unary>(e)->a) < 4);
    case ExprKind::Binary:
      return print_binary(as<Binary>(e), e);
    case ExprKind::Call:
      return print_call(as<Call>(e));
    }
    return "?";
  }

  /// `g[linear index]`, column-major from the declared lower bounds.
  std::string grid_element(const std::string &grid, const std::vector<Index> &index) const {
    std::string g = c_name(grid), linear;
    for (size_t d = 0; d < index.size(); ++d) {
      const Index &ix = index[d];
      std::string term;
      if (ix.var.empty())
        term = std::to_string(ix.offset);
      else {
        term = ix.coeff == 1 ? c_name(ix.var) : std::to_string(ix.coeff) + "*" + c_name(ix.var);
        if (ix.offset)
          term += (ix.offset > 0 ? " + " : " - ") + std::to_string(std::abs(ix.offset));
      }
      term += " - f2s_" + g + "_lo" + std::to_string(d);
      linear += d == 0 ? "(" + term + ")"
                       : " + f2s_" + g + "_s" + std::to_string(d) + "*(" + term + ")";
    }
    return g + "[" + linear + "]";
  }

private:
  static int precedence(const Expr &e) {
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
    const char *op = b->op == BinaryOp::Add   ? " + "
                     : b->op == BinaryOp::Sub ? " - "
                     : b->op == BinaryOp::Mul ? "*"
                                              : "/";
    return wrap(b->a, precedence(b->a) < p) + op + wrap(b->b, precedence(b->b) <= p);
  }

  // x**n with integer n is expanded by GCC's middle end from __builtin_powi
  // exactly as gfortran expands it, so the products round the same way.
  std::string print_pow(const Binary *b) const {
    std::string base = print(b->a), exponent = print(b->b);
    switch (b->a->type) {
    case Type::Float64:
      return "__builtin_powi(" + base + ", (int)(" + exponent + "))";
    case Type::Float32:
      return "__builtin_powif(" + base + ", (int)(" + exponent + "))";
    case Type::Int32:
      return "f2s_ipow(" + base + ", " + exponent + ")";
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
    default:
      return std::string(intrinsic_name(c->fn)) + c_math_suffix(t) + "(" + args(0) + ")";
    }
  }

  const Kernel &kernel_;
};

/// Prints the statements of one variant.
class CStmtPrinter {
public:
  CStmtPrinter(const Kernel &k, std::ostringstream &out) : exprs_(k), out_(out) {}

  void print(const Stmt &s, int indent) {
    std::string pad(2 * indent, ' ');
    if (const Block *b = as<Block>(s)) {
      for (const Stmt &c : b->stmts)
        print(c, indent);
    } else if (const For *f = as<For>(s)) {
      print_for(f, indent);
    } else if (const Store *st = as<Store>(s)) {
      out_ << pad << "/* " << print_stmt(s).substr(0, print_stmt(s).size() - 1) << " */\n";
      out_ << pad << exprs_.grid_element(st->grid, st->index) << " = " << exprs_.print(st->value)
           << ";\n";
    } else if (const Assign *a = as<Assign>(s)) {
      out_ << pad << c_name(a->var) << " = " << exprs_.print(a->value) << ";\n";
    }
  }

private:
  void print_for(const For *f, int indent) {
    std::string pad(2 * indent, ' ');
    std::string v = c_name(f->var);
    std::string lo = exprs_.print(f->lo), hi = exprs_.print(f->hi), step = exprs_.print(f->step);
    const IntImm *unit = as<IntImm>(f->step);
    bool unit_step = unit && unit->value == 1;
    if (f->exec == LoopExec::Parallel) {
      // Thread f2s_tid of f2s_nthreads takes a contiguous range of the trips.
      std::string p = "f2s_" + v + "_";
      out_ << pad << "{\n";
      out_ << pad << "  const long " << p << "lo = " << lo << ", " << p << "hi = " << hi << ", "
           << p << "step = " << step << ";\n";
      out_ << pad << "  const long " << p << "trips = " << p << "hi >= " << p << "lo ? (" << p
           << "hi - " << p << "lo) / " << p << "step + 1 : 0;\n";
      out_ << pad << "  const long " << p << "first = " << p << "trips * f2s_tid / f2s_nthreads, "
           << p << "end = " << p << "trips * (f2s_tid + 1) / f2s_nthreads;\n";
      out_ << pad << "  for (long " << p << "t = " << p << "first; " << p << "t < " << p
           << "end; ++" << p << "t) {\n";
      out_ << pad << "    const long " << v << " = " << p << "lo + " << p << "t * " << p
           << "step;\n";
      print(f->body, indent + 2);
      out_ << pad << "  }\n" << pad << "}\n";
      return;
    }
    out_ << pad << "for (long " << v << " = " << lo << "; " << v << " <= " << hi << "; "
         << (unit_step ? "++" + v : v + " += " + step) << ") {\n";
    print(f->body, indent + 1);
    out_ << pad << "}\n";
  }

  CExprPrinter exprs_;
  std::ostringstream &out_;
};

bool has_parallel_loop(const Stmt &s) {
  if (const For *f = as<For>(s))
    return f->exec == LoopExec::Parallel || has_parallel_loop(f->body);
  if (const Block *b = as<Block>(s))
    for (const Stmt &c : b->stmts)
      if (has_parallel_loop(c))
        return true;
  return false;
}

bool is_written(const Kernel &k, const std::string &grid) {
  KernelFacts facts = analyze(k);
  for (const std::string &w : facts.write_set)
    if (w == grid)
      return true;
  return false;
}

std::string grid_pointer_type(const Kernel &k, const Variable &v) {
  return std::string(is_written(k, v.name) ? "" : "const ") + c_type(v.type) + " *";
}

/// Local copies of the arguments, the layout of every grid, the tuning
/// parameters and the temporaries, at the top of a variant's body.
void print_prologue(const Kernel &k, std::ostringstream &out) {
  CExprPrinter exprs(k);
  for (const Variable &v : k.args) {
    std::string n = c_name(v.name);
    if (!v.is_grid()) {
      out << "  const " << c_type(v.type) << " " << n << " = a->" << n << ";\n";
      continue;
    }
    out << "  " << grid_pointer_type(k, v) << "restrict " << n << " = a->" << n << ";\n";
  }
  for (const Variable &v : k.args) {
    if (!v.is_grid())
      continue;
    std::string n = "f2s_" + c_name(v.name);
    out << "  /* " << v.name << ": column-major, declared (";
    for (int d = 0; d < v.rank(); ++d)
      out << (d ? ", " : "") << print_expr(v.dims[d].lo) << ":" << print_expr(v.dims[d].hi);
    out << ") */\n";
    for (int d = 0; d < v.rank(); ++d)
      out << "  const long " << n << "_lo" << d << " = " << exprs.print(v.dims[d].lo) << ";\n";
    for (int d = 1; d < v.rank(); ++d) {
      std::string extent = "((long)(" + exprs.print(v.dims[d - 1].hi) + ") - " + n + "_lo" +
                           std::to_string(d - 1) + " + 1)";
      out << "  const long " << n << "_s" << d << " = "
          << (d == 1 ? extent : n + "_s" + std::to_string(d - 1) + " * " + extent) << ";\n";
    }
  }
  for (size_t t = 0; t < k.tuning.size(); ++t) {
    std::string n = c_name(k.tuning[t].name);
    out << "  const long " << n << " = tune[" << t << "] > 0 ? tune[" << t << "] : 1;\n";
  }
  for (const Variable &v : k.temps)
    out << "  " << c_type(v.type) << " " << c_name(v.name) << ";\n";
}

} // namespace

std::string c_name(const std::string &fortran_name) {
  // Names the printer makes itself all start with f2s_ and never end in _.
  if (reserved_c_names().count(fortran_name) || fortran_name.rfind("f2s_", 0) == 0)
    return fortran_name + "_";
  return fortran_name;
}

const char *c_type(Type t) {
  switch (t) {
  case Type::Int32:
    return "int32_t";
  case Type::Float32:
    return "float";
  case Type::Float64:
    return "double";
  }
  return "?";
}

std::string print_c_prelude() {
  std::ostringstream out;
  out << "/* Generated by f2stencil: do not edit. */\n"
         "#include <math.h>\n#include <stdint.h>\n#include <stdlib.h>\n\n";
  out << runtime_c_text() << "\n";
  for (const char *t : {"long", "float", "double"}) {
    out << "static inline " << t << " f2s_min_" << t << "(" << t << " x, " << t
        << " y) { return y < x ? y : x; }\n";
    out << "static inline " << t << " f2s_max_" << t << "(" << t << " x, " << t
        << " y) { return y > x ? y : x; }\n";
  }
  out << "static inline long f2s_ipow(long b, long e) {\n"
         "  long r = 1;\n"
         "  if (e < 0) /* Fortran: integer division 1/b**|e| */\n"
         "    return b == 1 ? 1 : b == -1 ? (e % 2 ? -1 : 1) : 0;\n"
         "  for (; e > 0; e >>= 1, b *= b)\n"
         "    if (e & 1)\n"
         "      r *= b;\n"
         "  return r;\n"
         "}\n\n";
  return out.str();
}

std::string print_c_args_struct(const Kernel &k) {
  std::ostringstream out;
  out << "/* The arguments of kernel '" << k.name << "', in the order of its Fortran interface. */\n";
  out << "struct f2s_" << k.name << "_args {\n";
  for (const Variable &v : k.args) {
    if (v.is_grid())
      out << "  " << grid_pointer_type(k, v) << c_name(v.name) << ";\n";
    else
      out << "  " << c_type(v.type) << " " << c_name(v.name) << ";\n";
  }
  out << "};\n\n";
  return out.str();
}

std::string print_c_expr(const Kernel &k, const Expr &e) { return CExprPrinter(k).print(e); }

std::string c_variant_name(const Kernel &k, const std::string &variant) {
  return "f2s_" + k.name + "_" + variant;
}

std::string print_c_variant(const Kernel &k, const std::string &variant) {
  std::ostringstream out;
  std::string fn = c_variant_name(k, variant);
  std::string args = "const struct f2s_" + k.name + "_args *a";
  out << "/* Kernel '" << k.name << "', variant '" << variant << "':\n";
  std::string ir = print_kernel(k);
  for (size_t pos = 0; pos < ir.size();) {
    size_t nl = ir.find('\n', pos);
    out << " *   " << ir.substr(pos, nl - pos) << "\n";
    pos = nl == std::string::npos ? ir.size() : nl + 1;
  }
  out << " */\n";

  std::ostringstream body;
  print_prologue(k, body);
  CStmtPrinter(k, body).print(k.body, 1);

  if (!has_parallel_loop(k.body)) {
    out << "static void " << fn << "(" << args << ", const long *tune, int nthreads) {\n"
        << "  (void)tune;\n  (void)nthreads;\n"
        << body.str() << "}\n\n";
    return out.str();
  }
  out << "struct " << fn << "_shared {\n  " << args << ";\n  const long *tune;\n};\n\n";
  out << "static void " << fn << "_task(int f2s_tid, int f2s_nthreads, void *f2s_arg) {\n"
      << "  const struct " << fn << "_shared *f2s_shared = f2s_arg;\n"
      << "  " << args << " = f2s_shared->a;\n"
      << "  const long *tune = f2s_shared->tune;\n"
      << "  (void)tune;\n"
      << body.str() << "}\n\n";
  out << "static void " << fn << "(" << args << ", const long *tune, int nthreads) {\n"
      << "  struct " << fn << "_shared f2s_shared = {a, tune};\n"
      << "  f2s_parallel_run(nthreads, " << fn << "_task, &f2s_shared);\n"
      << "}\n\n";
  return out.str();
}

std::string print_c_entry_prototype(const Kernel &k, const std::string &symbol) {
  std::string s = "void " + symbol + "(";
  for (size_t i = 0; i < k.args.size(); ++i) {
    const Variable &v = k.args[i];
    s += i ? ", " : "";
    s += v.is_grid() ? grid_pointer_type(k, v) + c_name(v.name)
                     : std::string(c_type(v.type)) + " " + c_name(v.name);
  }
  return s + ")";
}

std::string print_c_entry(const Kernel &k, const std::string &symbol, const std::string &variant,
                          const std::vector<long> &tune, int threads, const std::string &comment) {
  std::ostringstream out;
  out << "/* " << comment << " */\n";
  out << print_c_entry_prototype(k, symbol) << " {\n";
  out << "  const struct f2s_" << k.name << "_args a = {";
  for (size_t i = 0; i < k.args.size(); ++i)
    out << (i ? ", " : "") << c_name(k.args[i].name);
  out << "};\n";
  if (tune.empty()) {
    out << "  static const long tune[1] = {0}; /* no tuning parameters */\n";
  } else {
    out << "  static const long tune[" << tune.size() << "] = {";
    for (size_t i = 0; i < tune.size(); ++i)
      out << (i ? ", " : "") << tune[i];
    out << "};\n";
  }
  out << "  " << c_variant_name(k, variant) << "(&a, tune, f2s_num_threads(" << threads
      << "));\n}\n\n";
  return out.str();
}

} // namespace f2s
