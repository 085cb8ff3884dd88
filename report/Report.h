// The HTML report of a library's tuning record (<lib>.json, harness/Package.cpp):
// for every kernel and target, the kernel (source position, IR, flops,
// compulsory bytes, intensity), a roofline with every candidate, heat maps of
// the search space, the search's counts and failures, and the choice each
// tuned size got. One file: Vega (libjs-vega) and the data are inlined, so it
// opens offline and fetches nothing. Made from the record alone, so that
// `f2stencil report DIR` rebuilds it from an earlier run's record.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>

namespace f2s {

/// A record that is missing or cannot be read; the message says how to get one.
class ReportError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The report of `record` as one HTML page.
std::string render_report(const nlohmann::json &record);

/// Writes DIR/<lib>.html from DIR/<lib>.json and returns its path. With `lib`
/// empty, the record is the one file DIR/<name>.json whose "library" is
/// <name>. Throws ReportError when DIR holds no such record or it is not one.
std::filesystem::path write_report(const std::filesystem::path &dir, const std::string &lib = "");

} // namespace f2s
