#include "codegen/CExpr.h"

#include <cstdio>
#include <set>

namespace f2s {

namespace {

// C keywords and the library functions the generated code calls: a Fortran
// variable with one of these names gets a suffix in C.
const std::set<std::string> &reserved_c_names() {
  static const std::set<std::string> names = {
      "auto",     "break",  "case",    "char",     "const",    "continue", "default",  "do",
      "double",   "else",   "enum",    "extern",   "float",    "for",      "goto",     "if",
      "inline",   "int",    "long",    "register", "restrict", "return",   "short",    "signed",
      "sizeof",   "static", "struct",  "switch",   "typedef",  "union",    "unsigned", "void",
      "volatile", "while",  "bool",    "main",     "a",        "tune",     "nthreads", "sqrt",
      "sqrtf",    "fabs",   "fabsf",   "abs",      "exp",      "expf",     "sin",      "sinf",
      "cos",      "cosf",   "int32_t", "int64_t",  "NULL"};
  return names;
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
  case Type::Bool:
    return "int";
  }
  return "?";
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

} // namespace f2s
