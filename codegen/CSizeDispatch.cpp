#include "codegen/CSizeDispatch.h"

#include "codegen/CPrinter.h"

#include <cassert>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace f2s {

namespace {

std::string number(double v) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

std::string tune_array(const std::string &name, const std::vector<long> &tune) {
  if (tune.empty())
    return "  static const long " + name + "[1] = {0}; /* no tuning parameters */\n";
  std::string s = "  static const long " + name + "[" + std::to_string(tune.size()) + "] = {";
  for (size_t i = 0; i < tune.size(); ++i)
    s += (i ? ", " : "") + std::to_string(tune[i]);
  return s + "};\n";
}

} // namespace

double working_set_bytes(const std::vector<int64_t> &extents, int64_t bytes_per_point) {
  double points = 1;
  for (int64_t e : extents)
    points *= static_cast<double>(e);
  return points * static_cast<double>(bytes_per_point);
}

std::vector<double> dispatch_bounds(const std::vector<TunedSize> &sizes) {
  std::vector<double> bounds;
  for (size_t i = 0; i + 1 < sizes.size(); ++i)
    bounds.push_back(std::sqrt(sizes[i].bytes * sizes[i + 1].bytes));
  return bounds;
}

std::string size_name(const std::vector<int64_t> &extents) {
  std::string s;
  for (int64_t e : extents)
    s += (s.empty() ? "" : "x") + std::to_string(e);
  return s;
}

std::string print_c_size_selector(const Kernel &k, const std::string &args_of,
                                  const std::string &selector, const std::vector<TunedSize> &sizes,
                                  int64_t bytes_per_point) {
  std::vector<const For *> loops = perfect_nest(k.body);
  assert(!loops.empty() && "a tuned kernel is a perfect nest");
  std::ostringstream out;
  // Why nearest on a log scale: what changes the best variant is which cache
  // level the working set fits in, and those levels are factors apart (32 KiB,
  // 1 MiB, 32 MiB, memory), so a call at half a tuned size is as near to it as
  // one at twice; halfway on a linear scale would send calls well inside the
  // smaller size's cache level to the larger size's variant.
  out << "/* Kernel '" << k.name << "' was tuned at " << sizes.size()
      << " sizes; a call runs the variant tuned at the size nearest its own by working set ("
      << bytes_per_point
      << " bytes per point: every grid element the point reads or writes, once), on a log "
         "scale: cache levels are factors apart, so the bounds are the geometric means of "
         "neighbouring sizes' working sets. */\n";
  out << "static int " << selector << "(const struct f2s_" << args_of << "_args *a) {\n";
  out << print_c_scalar_locals(k, "a->", "  ");
  out << "  double points = 1;\n";
  for (const For *f : loops)
    out << "  { /* loop '" << f->var << "' */\n    const long trips = (long)("
        << print_c_expr(k, f->hi) << ") - (long)(" << print_c_expr(k, f->lo)
        << ") + 1;\n    points *= trips > 0 ? (double)trips : 0.0;\n  }\n";
  out << "  const double bytes = " << bytes_per_point << ".0 * points;\n";
  std::vector<double> bounds = dispatch_bounds(sizes);
  for (size_t i = 0; i < bounds.size(); ++i)
    out << "  if (bytes <= " << number(bounds[i]) << ") /* " << size_name(sizes[i].extents) << ": "
        << number(sizes[i].bytes) << " bytes; " << size_name(sizes[i + 1].extents) << ": "
        << number(sizes[i + 1].bytes) << " */\n    return " << i << ";\n";
  out << "  return " << sizes.size() - 1 << "; /* " << size_name(sizes.back().extents)
      << " */\n}\n\n";
  return out.str();
}

std::string print_c_sized_entry(const Kernel &k, const std::string &symbol,
                                const std::string &selector, const std::vector<SizedCall> &calls,
                                const std::string &comment, AliasedCalls aliased, EntryForm form) {
  std::ostringstream out;
  out << "/* " << comment << " */\n" << print_c_entry_head(k, symbol, form);
  for (size_t c = 0; c < calls.size(); ++c)
    out << tune_array("tune_" + std::to_string(c), calls[c].tune);
  out << "  const double f2s_t0 = f2s_call_begin();\n";
  out << "  switch (" << selector << "(&a)) {\n";
  for (size_t c = 0; c < calls.size(); ++c) {
    const SizedCall &call = calls[c];
    const bool last = c + 1 == calls.size();
    std::string labels;
    for (size_t i = 0; i < call.sizes.size(); ++i)
      labels += (labels.empty() ? "  " : " ") +
                (last && i + 1 == call.sizes.size() ? std::string("default")
                                                    : "case " + std::to_string(call.sizes[i])) +
                ":";
    out << labels << " /* " << call.comment << " */\n"
        << print_c_call(k, call.variant, "tune_" + std::to_string(c), call.threads, aliased,
                        "    ");
  }
  out << "  }\n}\n\n";
  return out.str();
}

std::string print_c_size_query(const Kernel &k, const std::string &symbol,
                               const std::string &selector, const std::vector<TunedSize> &sizes) {
  std::string prototype = print_c_entry_prototype(k, symbol);
  assert(prototype.rfind("void ", 0) == 0 && "an entry returns nothing");
  std::ostringstream out;
  out << "/* Which tuned size of '" << k.name << "' a call with these arguments runs the variant "
      << "of: 0 for " << size_name(sizes.front().extents) << ", ..., " << sizes.size() - 1
      << " for " << size_name(sizes.back().extents) << ". */\n";
  std::string head = print_c_entry_head(k, symbol, EntryForm::Public);
  out << "int " << head.substr(5) << "  return " << selector << "(&a);\n}\n\n";
  return out.str();
}

} // namespace f2s
