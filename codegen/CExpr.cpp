#include "codegen/CExpr.h"

#include <cstdio>

namespace f2s {

std::string c_name(const std::string &fortran_name) {
  // Fortran names are lower case (Flang's cooked source), so no user name in
  // C starts like the printer's own names (f2s_..., F2S_..., a, tune, I), a
  // C keyword, a libm function or a macro GCC predefines (unix, linux).
  return "F_" + fortran_name;
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
