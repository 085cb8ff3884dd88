#include "codegen/CGpuEntry.h"

#include "codegen/CPrinter.h"

#include <cassert>
#include <sstream>

namespace f2s {

std::string print_c_gpu_entry(const Kernel &k, const std::string &symbol,
                              const std::string &selector, const std::vector<SizedCall> &calls,
                              const std::string &cpu_path, const std::string &comment,
                              bool check_aliasing) {
  assert(!calls.empty() && "a GPU entry runs a variant");
  std::ostringstream out;
  out << "/* " << comment << " */\n" << print_c_entry_head(k, symbol, EntryForm::Public);
  out << "  const int f2s_alias = "
      << (check_aliasing ? c_aliasing_check_name(k) + "(&a)" : std::string("0")) << ";\n";
  // The run function counts the size in the CUDA part's profile when the
  // call runs on the GPU; the CPU code counts its own (print_c_call).
  out << print_c_call_size(k, "a.", "  ");
  auto run = [&](const SizedCall &c, const std::string &pad) {
    out << pad << c_variant_name(k, c.variant) << "_run(&a, f2s_alias, " << cpu_path
        << ", &f2s_size);\n";
  };
  if (calls.size() == 1) {
    run(calls[0], "  ");
    out << "}\n\n";
    return out.str();
  }
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
    out << labels << " /* " << call.comment << " */\n";
    run(call, "    ");
    out << "    return;\n";
  }
  out << "  }\n}\n\n";
  return out.str();
}

} // namespace f2s
