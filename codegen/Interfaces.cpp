#include "codegen/Interfaces.h"

#include "ast/Analysis.h"
#include "ast/IRPrinter.h"
#include "codegen/CMpiPrinter.h"
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
    return "c_int"; // 0 or 1: the wrapper converts the caller's LOGICAL
  }
  return "?";
}

const char *fortran_type(Type t) {
  return t == Type::Int32 || t == Type::Bool ? "integer" : "real";
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

/// One free-form line of at most `limit` characters: a comment is continued
/// on comment lines; a statement is cut after the last ", " that fits, or
/// else anywhere (in a name or a character literal too), with '&' at the end
/// of the line and '&' at the start of the next, where the statement resumes
/// at the next character.
std::string wrap_line(const std::string &line, size_t limit) {
  size_t indent = line.find_first_not_of(' ');
  if (line.size() <= limit || indent == std::string::npos || indent + 16 > limit)
    return line + "\n";
  std::string pad(indent, ' ');
  if (line[indent] == '!') {
    std::string out, rest = line.substr(indent);
    while (pad.size() + rest.size() > limit) {
      size_t room = limit - pad.size(), cut = rest.rfind(' ', room);
      cut = cut == std::string::npos || cut < 3 ? room : cut;
      out += pad + rest.substr(0, cut) + "\n";
      rest = "! " + rest.substr(cut == room ? cut : cut + 1);
    }
    return out + pad + rest + "\n";
  }
  std::string out, rest = line.substr(indent), cont = pad + "    ";
  bool quoted = false; // in a character literal where `rest` starts
  for (std::string lead = pad; lead.size() + rest.size() > limit;) {
    size_t room = limit - lead.size() - 2, cut = std::string::npos;
    bool q = quoted;
    for (size_t i = 0; i < room; ++i) {
      q = rest[i] == '\'' ? !q : q;
      if (!q && rest[i] == ',' && rest[i + 1] == ' ')
        cut = i + 1;
    }
    if (cut != std::string::npos) {
      out += lead + rest.substr(0, cut) + " &\n";
      rest = rest.substr(cut + 1);
      quoted = false;
    } else {
      out += lead + rest.substr(0, room) + "&\n";
      rest = "&" + rest.substr(room);
      quoted = q;
    }
    lead = cont;
  }
  return out + (out.empty() ? pad : cont) + rest + "\n";
}

std::string comment_lines(const std::string &prefix, const std::string &text) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out += prefix + line + "\n";
  return out;
}

/// A LOGICAL grid is passed as the caller's default LOGICAL array, whose
/// elements are 4-byte 0 or 1 in gfortran: `logical(c_int)`, which gfortran
/// accepts in a BIND(C) interface, so that no copy is made.
std::string c_decl(const Variable &v) {
  if (v.is_grid() && v.type == Type::Bool)
    return "logical(c_int)";
  return std::string(fortran_type(v.type)) + "(" + iso_c_kind(v.type) + ")";
}

/// The declared bounds of a grid, `lo:hi, ...`.
std::string explicit_dims(const Variable &v) {
  std::string dims;
  for (int d = 0; d < v.rank(); ++d)
    dims += (d ? ", " : "") + print_expr(v.dims[d].lo) + ":" + print_expr(v.dims[d].hi);
  return dims;
}

/// A grid as the wrapper takes it: as the source declared it.
std::string wrapper_dims(const Variable &v) {
  std::string dims;
  for (int d = 0; d < v.rank(); ++d) {
    dims += d ? ", " : "";
    if (v.decl == ArrayDecl::Explicit || v.decl == ArrayDecl::AssumedSize)
      dims += print_expr(v.dims[d].lo) + ":" + print_expr(v.dims[d].hi);
    else if (v.decl == ArrayDecl::AssumedShape)
      dims += print_expr(v.dims[d].lo) + ":";
    else
      dims += ":";
  }
  return dims;
}

/// `subroutine name(args) ... end subroutine`: a BIND(C) interface, or with
/// `wrap` the wrapper that calls it with the bounds of the grids.
std::string print_procedure(const EntryPoint &e, const std::set<std::string> &written, bool wrap,
                            const std::string &interface_name) {
  const Kernel &k = *e.kernel;
  std::ostringstream out;
  std::string names = e.halo_exchange ? "f2s_comm" : "", call = names;
  for (const Variable *v : wrap ? module_arguments(k) : std::vector<const Variable *>{})
    names += (names.empty() ? "" : ", ") + v->name;
  for (const Variable &v : k.args) {
    if (!wrap)
      names += (names.empty() ? "" : ", ") + v.name;
    // `ubound(a,1)` without a blank, so that long lines break between
    // arguments only.
    std::string actual =
        v.bound_of ? std::string(v.bound_of->upper ? "ubound(" : "lbound(") + v.bound_of->grid +
                         "," + std::to_string(v.bound_of->dim) + ")"
        // Only LOGICAL scalars are converted: a mask array is
        // passed in place as logical(c_int).
        : !v.is_grid() && v.type == Type::Bool ? "merge(1_c_int,0_c_int," + v.name + ")"
                                               : v.name;
    call += (call.empty() ? "" : ", ") + actual;
  }
  std::string indent = wrap ? "  " : "    ";
  std::string name = wrap ? e.fortran_name : interface_name;
  out << comment_lines(indent + "! ", e.comment);
  out << fortran_line(indent, "subroutine " + name + "(" + names + ")" +
                                  (wrap ? "" : " bind(C, name='" + e.symbol + "')"));
  if (!wrap)
    out << indent << "  import :: c_int, c_float, c_double\n";
  if (e.halo_exchange)
    out << indent << "  integer" << (wrap ? "" : "(c_int)") << ", intent(in) :: f2s_comm\n";
  // Scalars first: the grids' bounds name them, and an interface body has
  // the default implicit types.
  // A reduction's scalar is passed by reference: its value in is the
  // starting value, its value out the result.
  for (const Variable &v : k.args)
    if (wrap && v.swaps_of)
      out << indent << "  integer(c_int) :: " << v.name << "\n";
    else if (!v.is_grid() && !(wrap && v.bound_of))
      out << fortran_line(indent + "  ", (wrap && v.type == Type::Bool ? "logical" : c_decl(v)) +
                                             (k.find_reduction(v.name) ? ", intent(inout) :: "
                                              : wrap                   ? ", intent(in) :: "
                                                                       : ", value :: ") +
                                             v.name);
  for (const Variable &v : k.args) {
    if (!v.is_grid())
      continue;
    std::string attrs = !wrap                              ? ""
                        : v.decl == ArrayDecl::Allocatable ? ", allocatable"
                        : v.decl == ArrayDecl::Pointer     ? ", pointer"
                                                           : "";
    attrs += written.count(v.name) ? ", intent(inout) :: " : ", intent(in) :: ";
    out << fortran_line(indent + "  ", c_decl(v) + attrs + v.name + "(" +
                                           (wrap ? wrapper_dims(v) : explicit_dims(v)) + ")");
  }
  // A time loop's pointer swaps happened to the C procedure's copies of the
  // pointers: an odd count of them leaves the caller's exchanged, as the
  // loop would have.
  for (const Variable &v : wrap ? k.args : std::vector<Variable>{})
    if (v.swaps_of) {
      const Variable &a = *k.find_arg(v.swaps_of->first);
      std::string shape;
      for (int d = 0; d < a.rank(); ++d)
        shape += d ? ", :" : ":";
      out << fortran_line(indent + "  ",
                          c_decl(a) + ", pointer :: " + v.name + "_tmp(" + shape + ")");
    }
  if (wrap)
    out << fortran_line(indent + "  ", "call " + interface_name + "(" + call + ")");
  for (const Variable &v : wrap ? k.args : std::vector<Variable>{})
    if (v.swaps_of) {
      const auto &[a, b] = *v.swaps_of;
      out << indent << "  if (mod(" << v.name << ", 2) /= 0) then\n"
          << indent << "    " << v.name << "_tmp => " << a << "\n"
          << indent << "    " << a << " => " << b << "\n"
          << indent << "    " << b << " => " << v.name << "_tmp\n"
          << indent << "  end if\n";
    }
  out << indent << "end subroutine " << name << "\n\n";
  return out.str();
}

} // namespace

std::string wrap_fortran_lines(const std::string &text) {
  // gfortran's default -ffree-line-length-132.
  const size_t limit = 132;
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    out += wrap_line(line, limit);
  return out;
}

bool needs_wrapper(const Kernel &k) {
  return std::any_of(k.args.begin(), k.args.end(), [](const Variable &v) {
    return (v.decl != ArrayDecl::Explicit && v.decl != ArrayDecl::AssumedSize) ||
           (!v.is_grid() && v.type == Type::Bool) || v.swaps_of;
  });
}

std::vector<const Variable *> module_arguments(const Kernel &k) {
  const bool wrap = needs_wrapper(k);
  std::vector<const Variable *> args;
  for (const Variable &v : k.args)
    if ((!wrap || !v.bound_of) && !v.swaps_of)
      args.push_back(&v);
  return args;
}

std::string print_fortran_module(const std::string &module_name,
                                 const std::vector<EntryPoint> &entries,
                                 const std::string &header_comment) {
  std::ostringstream out, wrappers;
  out << comment_lines("! ", header_comment);
  out << "module " << module_name << "\n";
  out << "  use, intrinsic :: iso_c_binding, only: c_int, c_float, c_double\n";
  out << "  implicit none\n  private\n";
  for (const EntryPoint &e : entries) {
    out << "  public :: " << e.fortran_name << "\n";
    if (needs_wrapper(*e.kernel))
      out << "  public :: " << e.fortran_name << "_explicit\n";
  }
  out << "\n  interface\n";
  for (const EntryPoint &e : entries) {
    KernelFacts facts = analyze(*e.kernel);
    std::set<std::string> written(facts.write_set.begin(), facts.write_set.end());
    if (e.halo_exchange) // it writes the halo of every grid it exchanges
      for (const Variable &v : e.kernel->args)
        if (v.is_grid())
          written.insert(v.name);
    // A kernel with assumed-shape or allocatable grids: the BIND(C) procedure
    // takes their bounds (`<name>_explicit`), and a wrapper under the plain
    // name passes LBOUND and UBOUND, so that the call looks like the source's.
    bool wrap = needs_wrapper(*e.kernel);
    std::string interface_name = wrap ? e.fortran_name + "_explicit" : e.fortran_name;
    out << print_procedure(e, written, false, interface_name);
    if (wrap)
      wrappers << print_procedure(e, written, true, interface_name);
  }
  out << "  end interface\n";
  if (!wrappers.str().empty())
    out << "\ncontains\n\n" << wrappers.str();
  out << "end module " << module_name << "\n";
  return wrap_fortran_lines(out.str());
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
      << " * hold the starting value on entry and the result on return. A LOGICAL\n"
      << " * scalar is an int, 1 for .TRUE. and 0 for .FALSE.\n */\n";
  out << "#ifndef " << guard << "\n#define " << guard << "\n\n#include <stdint.h>\n\n";
  out << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const EntryPoint &e : entries) {
    out << "/* " << e.comment << " */\n"
        << (e.halo_exchange ? print_c_exchange_prototype(*e.kernel, e.symbol)
                            : print_c_entry_prototype(*e.kernel, e.symbol))
        << ";\n\n";
  }
  out << "#ifdef __cplusplus\n}\n#endif\n\n#endif\n";
  return out.str();
}

} // namespace f2s
