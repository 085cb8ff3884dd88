#include "codegen/Interfaces.h"

#include "ast/Analysis.h"
#include "ast/IRPrinter.h"
#include "codegen/CPrinter.h"

#include <algorithm>
#include <set>
#include <sstream>

namespace f2s {

namespace {

const char *iso_c_kind(Type t) {
  switch (t) {
  case Type::Int32:
    return "c_int";
  case Type::Float32:
    return "c_float";
  case Type::Float64:
    return "c_double";
  case Type::Bool:
    break; // no argument is LOGICAL
  }
  return "?";
}

const char *fortran_type(Type t) {
  return t == Type::Int32 ? "integer" : "real";
}

/// Free-form lines may hold 132 characters; longer ones are continued with
/// '&' after a comma, indented under the first.
std::string fortran_line(const std::string &indent, const std::string &text) {
  const size_t limit = 100;
  std::string out, line = indent + text;
  while (line.size() > limit) {
    size_t cut = line.rfind(", ", limit - 2);
    if (cut == std::string::npos || cut <= indent.size())
      break;
    out += line.substr(0, cut + 1) + " &\n";
    line = indent + "    " + line.substr(cut + 2);
  }
  return out + line + "\n";
}

std::string comment_lines(const std::string &prefix, const std::string &text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out += prefix + line + "\n";
  return out;
}

} // namespace

std::string print_fortran_module(const std::string &module_name,
                                 const std::vector<EntryPoint> &entries,
                                 const std::string &header_comment) {
  std::ostringstream out;
  out << comment_lines("! ", header_comment);
  out << "module " << module_name << "\n";
  out << "  use, intrinsic :: iso_c_binding, only: c_int, c_float, c_double\n";
  out << "  implicit none\n  private\n";
  for (const EntryPoint &e : entries)
    out << "  public :: " << e.fortran_name << "\n";
  out << "\n  interface\n";
  for (const EntryPoint &e : entries) {
    const Kernel &k = *e.kernel;
    KernelFacts facts = analyze(k);
    std::set<std::string> written(facts.write_set.begin(), facts.write_set.end());
    std::string names;
    for (size_t i = 0; i < k.args.size(); ++i)
      names += (i ? ", " : "") + k.args[i].name;
    out << comment_lines("    ! ", e.comment);
    out << fortran_line("    ", "subroutine " + e.fortran_name + "(" + names + ") bind(C, name='" +
                                    e.symbol + "')");
    out << "      import :: c_int, c_float, c_double\n";
    for (const Variable &v : k.args) {
      std::string decl = std::string(fortran_type(v.type)) + "(" + iso_c_kind(v.type) + ")";
      if (k.find_reduction(v.name)) {
        // The nest reduces into it: the value in is the starting value.
        out << fortran_line("      ", decl + ", intent(inout) :: " + v.name);
        continue;
      }
      if (!v.is_grid()) {
        out << fortran_line("      ", decl + ", value :: " + v.name);
        continue;
      }
      std::string dims;
      for (int d = 0; d < v.rank(); ++d)
        dims += (d ? ", " : "") + print_expr(v.dims[d].lo) + ":" + print_expr(v.dims[d].hi);
      decl += written.count(v.name) ? ", intent(inout) :: " : ", intent(in) :: ";
      out << fortran_line("      ", decl + v.name + "(" + dims + ")");
    }
    out << "    end subroutine " << e.fortran_name << "\n\n";
  }
  out << "  end interface\nend module " << module_name << "\n";
  return out.str();
}

std::string print_c_header(const std::string &lib_name, const std::vector<EntryPoint> &entries,
                           const std::string &header_comment) {
  std::string guard = lib_name + "_H";
  std::transform(guard.begin(), guard.end(), guard.begin(), ::toupper);
  std::ostringstream out;
  out << "/*\n"
      << comment_lines(" * ", header_comment) << " *\n"
      << " * Grids are Fortran (column-major) arrays passed by their first element;\n"
      << " * scalars are passed by value, except the scalars a kernel reduces into\n"
      << " * (sums, maxima, minima over the nest), which are passed by address and\n"
      << " * hold the starting value on entry and the result on return.\n */\n";
  out << "#ifndef " << guard << "\n#define " << guard << "\n\n#include <stdint.h>\n\n";
  out << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const EntryPoint &e : entries) {
    out << "/* " << e.comment << " */\n" << print_c_entry_prototype(*e.kernel, e.symbol) << ";\n\n";
  }
  out << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return out.str();
}

} // namespace f2s
