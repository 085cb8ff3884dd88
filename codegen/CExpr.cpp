#include "codegen/CExpr.h"

#include <cstdio>
#include <set>

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

namespace {

// For 2 <= n < 256, GCC computes x**n as x**(n - s) * x**s with s below, each
// power once (powi_as_mults in tree-ssa-math-opts). Derived from GCC's own
// expansion (`gcc -O2 -fdump-tree-optimized` of __builtin_powi(x, n) for
// every n), and checked bitwise against it by CPrinter.PowerChainsRoundAsGcc.
constexpr unsigned char kPowiSplit[256] = {
    0,   0,  1,   1,  2,   2,  3,   3,  4,   3,  5,   5,  6,   3,   7,   6,   8,   1,  9,   3,
    10,  9,  11,  10, 12,  8,  13,  9,  14,  5,  15,  5,  16,  16,  17,  16,  18,  4,  19,  13,
    20,  16, 21,  3,  22,  18, 23,  3,  24,  17, 25,  17, 26,  24,  27,  11,  28,  26, 29,  25,
    30,  1,  31,  27, 32,  1,  33,  33, 34,  23, 35,  34, 36,  8,   37,  25,  38,  29, 39,  10,
    40,  32, 41,  40, 42,  34, 43,  29, 44,  25, 45,  44, 46,  34,  47,  19,  48,  32, 49,  33,
    50,  34, 51,  37, 52,  35, 53,  33, 54,  5,  55,  37, 56,  49,  57,  46,  58,  39, 59,  51,
    60,  60, 61,  43, 62,  50, 63,  59, 64,  64, 65,  3,  66,  4,   67,  45,  68,  64, 69,  8,
    70,  47, 71,  55, 72,  17, 73,  49, 74,  17, 75,  30, 76,  51,  77,  31,  78,  25, 79,  53,
    80,  64, 81,  3,  82,  66, 83,  33, 84,  83, 85,  76, 86,  13,  87,  75,  88,  64, 89,  81,
    90,  74, 91,  61, 92,  74, 93,  85, 94,  63, 95,  41, 96,  65,  97,  65,  98,  64, 99,  4,
    100, 73, 101, 80, 102, 41, 103, 69, 104, 64, 105, 65, 106, 104, 107, 66,  108, 17, 109, 73,
    110, 51, 111, 66, 112, 97, 113, 97, 114, 47, 115, 99, 116, 33,  117, 103, 118, 79, 119, 33,
    120, 1,  121, 81, 122, 98, 123, 95, 124, 83, 125, 37, 126, 115, 127, 102,
};

// The C name of x**k inside one chain.
std::string chain_name(unsigned long long k) {
  return "f2s_pw" + std::to_string(k);
}

// Declares x**k (and the powers it is built from) once, in GCC's order.
void emit_power(unsigned long long k, const char *type, std::set<unsigned long long> &done,
                std::string &out) {
  if (done.count(k))
    return;
  unsigned long long a, b;
  if (k < 256) {
    b = kPowiSplit[k];
    a = k - b;
  } else if (k & 1) {
    b = k & 7; // GCC's window of three bits above its table
    a = k - b;
  } else {
    a = b = k / 2;
  }
  emit_power(a, type, done, out);
  emit_power(b, type, done, out);
  out += std::string(type) + " " + chain_name(k) + " = " + chain_name(a) + " * " + chain_name(b) +
         "; ";
  done.insert(k);
}

} // namespace

std::string c_power_chain(const std::string &base, long long n, Type t) {
  const char *type = c_type(t);
  std::string one = c_float_literal(1.0, t);
  if (n == 0)
    return one;
  unsigned long long m = n < 0 ? 0ull - static_cast<unsigned long long>(n) : n;
  if (m == 1)
    return n < 0 ? "(" + one + " / (" + base + "))" : "(" + base + ")";
  std::string out = "({ " + std::string(type) + " " + chain_name(1) + " = " + base + "; ";
  std::set<unsigned long long> done = {1};
  emit_power(m, type, done, out);
  out += (n < 0 ? one + " / " : std::string()) + chain_name(m) + "; })";
  return out;
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
