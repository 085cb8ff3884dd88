#include "report/Report.h"

#include "report/VegaScript.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <vector>

namespace f2s {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// ------------------------------------------------------------- escaping

/// `s` as HTML text or a quoted attribute value.
std::string esc(const std::string &s) {
  std::string out;
  for (char c : s)
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += c;
    }
  return out;
}

/// `j` as the text of a <script type="application/json">: '<', '>' and '&'
/// only occur inside JSON strings, where their \u escapes mean the same, so
/// no "</script>" or "<!--" in a kernel name or path can end the element.
std::string script_json(const json &j) {
  std::string text = j.dump(-1, ' ', true, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text)
    switch (c) {
    case '<':
      out += "\\u003c";
      break;
    case '>':
      out += "\\u003e";
      break;
    case '&':
      out += "\\u0026";
      break;
    default:
      out += c;
    }
  return out;
}

std::string num(double v, const char *format = "%.3g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

/// A machine's figure: "3000", "88.3" (whole above 100, no exponent).
std::string whole(double v) {
  return num(v, v >= 100 ? "%.0f" : "%.3g");
}

std::string str(const json &j, const char *key, const std::string &otherwise = "") {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : otherwise;
}

double real(const json &j, const char *key, double otherwise = 0) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : otherwise;
}

/// "48×48×48" of [48, 48, 48].
std::string size_text(const json &extents) {
  std::string s;
  if (extents.is_array())
    for (const json &e : extents)
      s += (s.empty() ? "" : "×") + e.dump();
  return s;
}

std::string megabytes(double bytes) {
  return num(bytes * 1e-6) + " MB";
}

// --------------------------------------------------------------- the page

/// One Vega view and what the test of the report counts in it: the items of
/// the mark named `mark` (data-mark, data-marks on its element).
struct Plot {
  std::string id;
  std::string mark;
  size_t marks = 0;
  json spec;
};

struct Page {
  std::ostringstream body;
  std::vector<Plot> plots;

  void plot(const std::string &mark, size_t marks, json spec, const std::string &caption) {
    std::string id = "plot" + std::to_string(plots.size() + 1);
    body << "<figure><div class=\"plot\" id=\"" << id << "\" data-mark=\"" << esc(mark)
         << "\" data-marks=\"" << marks << "\"></div><figcaption>" << caption
         << "</figcaption></figure>\n";
    plots.push_back({id, mark, marks, std::move(spec)});
  }
};

/// The candidates of `target` in a kernel's record, in the order measured.
std::vector<const json *> candidates_of(const json &kj, const std::string &target) {
  std::vector<const json *> out;
  if (kj.contains("candidates"))
    for (const json &c : kj["candidates"])
      if (str(c, "target") == target)
        out.push_back(&c);
  return out;
}

bool verified(const json &c) {
  return c.value("verified", false);
}

/// The targets of a kernel's record, in the order their candidates were
/// measured, then those chosen without tuning.
std::vector<std::string> targets_of(const json &kj) {
  std::vector<std::string> out;
  auto add = [&](const std::string &t) {
    if (!t.empty() && t != "default" && std::find(out.begin(), out.end(), t) == out.end())
      out.push_back(t);
  };
  if (kj.contains("candidates"))
    for (const json &c : kj["candidates"])
      add(str(c, "target"));
  if (kj.contains("chosen") && kj["chosen"].is_object())
    for (const auto &[t, id] : kj["chosen"].items())
      add(t);
  return out;
}

/// The chosen candidate of `target`: the verified one the record names.
const json *winner_of(const json &kj, const std::string &target) {
  if (!kj.contains("chosen") || !kj["chosen"].contains(target))
    return nullptr;
  std::string id = str(kj["chosen"], target.c_str());
  for (const json *c : candidates_of(kj, target))
    if (verified(*c) && str(*c, "id") == id)
      return c;
  return nullptr;
}

// --------------------------------------------------------------- roofline

/// Intensity (flop per compulsory byte) against GFlop/s, log-log: the roof
/// at bandwidth `gbps` up to the arithmetic peak `peak` (0: none known),
/// this kernel's bound where it meets the kernel's intensity, every verified
/// candidate as a point, the winner a red diamond.
json roofline_spec(const std::vector<const json *> &points, const json *winner, double intensity,
                   double gbps, double peak) {
  json values = json::array();
  double low = HUGE_VAL, high = 0;
  for (const json *c : points) {
    double g = real(*c, "gflops");
    values.push_back(
        {{"x", intensity}, {"y", g}, {"id", str(*c, "id")}, {"ms", real(*c, "time_s") * 1e3}});
    low = std::min(low, g);
    high = std::max(high, g);
  }
  double bound = peak > 0 ? std::min(gbps * intensity, peak) : gbps * intensity;
  // Wide enough to show the ridge point, where the bandwidth meets the peak.
  double x0 = intensity / 16, x1 = std::max(intensity * 16, peak > 0 ? 2 * peak / gbps : 0);
  // The roof's corners: the bandwidth's slope, then the flat peak from the
  // ridge point on (where it falls inside the plot).
  auto roof = [&](double x) { return peak > 0 ? std::min(gbps * x, peak) : gbps * x; };
  json roof_points = json::array({{{"x", x0}, {"y", roof(x0)}}});
  if (peak > 0 && peak / gbps > x0 && peak / gbps < x1)
    roof_points.push_back({{"x", peak / gbps}, {"y", peak}});
  roof_points.push_back({{"x", x1}, {"y", roof(x1)}});
  json win = json::array();
  if (winner)
    win.push_back({{"x", intensity}, {"y", real(*winner, "gflops")}, {"id", str(*winner, "id")}});
  auto encode_xy = [](json extra) {
    extra["x"] = {{"scale", "x"}, {"field", "x"}};
    extra["y"] = {{"scale", "y"}, {"field", "y"}};
    return json{{"enter", extra}};
  };
  return {
      {"width", 420},
      {"height", 260},
      {"padding", 8},
      {"data",
       {{{"name", "points"}, {"values", values}},
        {{"name", "winner_data"}, {"values", win}},
        {{"name", "roof_data"}, {"values", roof_points}},
        {{"name", "bound_data"},
         {"values",
          {{{"x", intensity},
            {"y", bound},
            {"label", "bound " + num(bound) + " GFlop/s at " + num(gbps) + " GB/s" +
                          (peak > 0 && bound >= peak ? " (the peak)" : "")}}}}}}},
      {"scales",
       {{{"name", "x"}, {"type", "log"}, {"domain", {x0, x1}}, {"range", "width"}},
        {{"name", "y"},
         {"type", "log"},
         {"domain", {std::min(low, bound) / 4, std::max({high * 4, bound * 4, peak * 2})}},
         {"range", "height"}}}},
      {"axes",
       {{{"orient", "bottom"}, {"scale", "x"}, {"title", "intensity (flop per compulsory byte)"}},
        {{"orient", "left"}, {"scale", "y"}, {"title", "GFlop/s"}}}},
      {"marks",
       {{{"type", "line"},
         {"name", "roof"},
         {"from", {{"data", "roof_data"}}},
         {"clip", true},
         {"encode", encode_xy({{"stroke", {{"value", "#555"}}}, {"strokeWidth", {{"value", 2}}}})}},
        {{"type", "rule"},
         {"name", "intensity"},
         {"from", {{"data", "bound_data"}}},
         {"encode",
          {{"enter",
            {{"x", {{"scale", "x"}, {"field", "x"}}},
             {"y", {{"value", 0}}},
             {"y2", {{"signal", "height"}}},
             {"stroke", {{"value", "#aaa"}}},
             {"strokeDash", {{"value", {4, 4}}}}}}}}},
        {{"type", "symbol"},
         {"name", "candidates"},
         {"from", {{"data", "points"}}},
         {"encode", encode_xy({{"size", {{"value", 50}}},
                               {"fill", {{"value", "#4c78a8"}}},
                               {"fillOpacity", {{"value", 0.35}}},
                               {"tooltip", {{"field", "id"}}}})}},
        {{"type", "symbol"},
         {"name", "bound"},
         {"from", {{"data", "bound_data"}}},
         {"encode", encode_xy({{"shape", {{"value", "triangle-down"}}},
                               {"size", {{"value", 90}}},
                               {"fill", {{"value", "#555"}}}})}},
        {{"type", "text"},
         {"name", "bound_label"},
         {"from", {{"data", "bound_data"}}},
         {"encode", encode_xy({{"text", {{"field", "label"}}},
                               {"dx", {{"value", 8}}},
                               {"dy", {{"value", -6}}},
                               {"fill", {{"value", "#333"}}}})}},
        {{"type", "symbol"},
         {"name", "winner"},
         {"from", {{"data", "winner_data"}}},
         {"encode", encode_xy({{"shape", {{"value", "diamond"}}},
                               {"size", {{"value", 160}}},
                               {"fill", {{"value", "#d62728"}}},
                               {"tooltip", {{"field", "id"}}}})}},
        {{"type", "text"},
         {"name", "winner_label"},
         {"from", {{"data", "winner_data"}}},
         {"encode", encode_xy({{"text", {{"value", "winner"}}},
                               {"dx", {{"value", 10}}},
                               {"dy", {{"value", 4}}},
                               {"fill", {{"value", "#d62728"}}}})}}}}};
}

// ---------------------------------------------------------- search space

/// The block parameters a heat map can show, in their axis order.
const std::vector<std::string> kBlockParams = {"cx", "cy", "cz", "bx", "by"};

/// The two block parameters of `cands` with the most distinct values (the
/// slower axes on a tie), in axis order; fewer when they have fewer.
std::vector<std::string> heat_axes(const std::vector<const json *> &cands) {
  std::vector<std::pair<size_t, size_t>> ranked; // (distinct values, position)
  for (size_t i = 0; i < kBlockParams.size(); ++i) {
    std::set<long> values;
    for (const json *c : cands)
      if ((*c)["params"].contains(kBlockParams[i]))
        values.insert((*c)["params"][kBlockParams[i]].get<long>());
    if (!values.empty())
      ranked.push_back({values.size(), i});
  }
  std::sort(ranked.begin(), ranked.end(), std::greater<>());
  if (ranked.size() > 2)
    ranked.resize(2);
  std::sort(ranked.begin(), ranked.end(), [](auto a, auto b) { return a.second < b.second; });
  std::vector<std::string> axes;
  for (auto [n, i] : ranked)
    axes.push_back(kBlockParams[i]);
  return axes;
}

struct Cell {
  double best_s = HUGE_VAL; ///< the fastest verified candidate of the cell
  std::string best_id;
  size_t measured = 0, failed = 0;
  bool winner = false;
};

/// A heat map of the best time over two block parameters (each cell the
/// fastest candidate with those values, whatever the others), each cell
/// labelled with its time over the winner's; the winner's cell outlined in
/// red, cells where every candidate failed grey with a cross.
json heatmap_spec(const std::map<std::pair<long, long>, Cell> &cells, const std::string &xname,
                  const std::string &yname, double tmin, double tmax, double winner_s) {
  json values = json::array(), win = json::array();
  std::set<long> xs, ys;
  for (const auto &[at, cell] : cells) {
    bool failed = cell.best_s == HUGE_VAL;
    std::string label = failed ? "✗" : num(cell.best_s / winner_s, "%.2f") + "×";
    json v = {{"x", std::to_string(at.first)},
              {"y", std::to_string(at.second)},
              {"failed", failed},
              {"label", label},
              {"ms", failed ? tmin * 1e3 : cell.best_s * 1e3},
              {"id", failed ? std::to_string(cell.failed) + " failed" : cell.best_id}};
    // The slower half of the (reversed) scale is dark: white labels there.
    v["dark"] = !failed && cell.best_s - tmin > 0.5 * (tmax - tmin);
    values.push_back(v);
    if (cell.winner)
      win.push_back(v);
    xs.insert(at.first);
    ys.insert(at.second);
  }
  json xdomain = json::array(), ydomain = json::array();
  for (long x : xs)
    xdomain.push_back(std::to_string(x));
  for (auto y = ys.rbegin(); y != ys.rend(); ++y)
    ydomain.push_back(std::to_string(*y));
  tmax = std::max(tmax, tmin * 1.01);
  auto band = [](const char *axis, const json &domain) {
    return json{{"name", axis},
                {"type", "band"},
                {"domain", domain},
                {"range", axis == std::string("x") ? "width" : "height"},
                {"padding", 0.05}};
  };
  json cell_xy = {{"x", {{"scale", "x"}, {"field", "x"}}},
                  {"width", {{"scale", "x"}, {"band", 1}}},
                  {"y", {{"scale", "y"}, {"field", "y"}}},
                  {"height", {{"scale", "y"}, {"band", 1}}}};
  json cell_enc = cell_xy;
  cell_enc["fill"] = json::array(
      {{{"test", "datum.failed"}, {"value", "#d0d0d0"}}, {{"scale", "color"}, {"field", "ms"}}});
  cell_enc["tooltip"] = {{"field", "id"}};
  json win_enc = cell_xy;
  win_enc["fill"] = {{"value", "transparent"}};
  win_enc["stroke"] = {{"value", "#d62728"}};
  win_enc["strokeWidth"] = {{"value", 3}};
  json text_enc = {
      {"x", {{"scale", "x"}, {"field", "x"}, {"band", 0.5}}},
      {"y", {{"scale", "y"}, {"field", "y"}, {"band", 0.5}}},
      {"text", {{"field", "label"}}},
      {"align", {{"value", "center"}}},
      {"baseline", {{"value", "middle"}}},
      {"fontSize", {{"value", 10}}},
      {"fill", json::array({{{"test", "datum.dark"}, {"value", "#fff"}}, {{"value", "#111"}}})}};
  size_t columns = std::max<size_t>(xs.size(), 1), rows = std::max<size_t>(ys.size(), 1);
  return {
      {"width", std::min<size_t>(60 * columns, 520)},
      {"height", std::min<size_t>(26 * rows, 400)},
      {"padding", 8},
      {"data",
       {{{"name", "cell_data"}, {"values", values}}, {{"name", "winner_data"}, {"values", win}}}},
      {"scales",
       {band("x", xdomain),
        band("y", ydomain),
        {{"name", "color"},
         {"type", "linear"},
         {"zero", false},
         {"domain", {tmin * 1e3, tmax * 1e3}},
         {"range", {{"scheme", "viridis"}}},
         {"reverse", true}}}},
      {"axes",
       {{{"orient", "bottom"}, {"scale", "x"}, {"title", xname}},
        {{"orient", "left"}, {"scale", "y"}, {"title", yname}}}},
      {"legends",
       {{{"fill", "color"},
         {"title", "best time (ms)"},
         {"type", "gradient"},
         {"format", ".3g"},
         {"gradientLength", std::clamp<size_t>(26 * rows, 60, 200)}}}},
      {"marks",
       {{{"type", "rect"},
         {"name", "cells"},
         {"from", {{"data", "cell_data"}}},
         {"encode", {{"enter", cell_enc}}}},
        {{"type", "rect"},
         {"name", "winner"},
         {"from", {{"data", "winner_data"}}},
         {"encode", {{"enter", win_enc}}}},
        {{"type", "text"},
         {"name", "ratios"},
         {"from", {{"data", "cell_data"}}},
         {"encode", {{"enter", text_enc}}}}}}};
}

/// Heat maps of `cands` (one target's), one per thread count on a CPU, one
/// for all launch shapes on the GPU (whose other parameters, points per
/// thread and streaming, are each cell's best).
void heat_maps(Page &page, const std::string &target, const std::vector<const json *> &cands,
               const json *winner) {
  std::vector<std::string> axes = heat_axes(cands);
  if (axes.size() < 2 || !winner) {
    page.body << "<p class=\"note\">No heat map: "
              << (winner ? "the candidates measured vary fewer than two block parameters"
                         : "no candidate was verified")
              << ".</p>\n";
    return;
  }
  const bool by_threads = target != "cuda";
  std::map<long, std::map<std::pair<long, long>, Cell>> facets;
  double tmin = HUGE_VAL, tmax = 0;
  size_t outside = 0;
  for (const json *c : cands) {
    const json &p = (*c)["params"];
    if (!p.contains(axes[0]) || !p.contains(axes[1])) {
      ++outside;
      continue;
    }
    long facet = by_threads ? p.value("threads", 1L) : 0;
    Cell &cell = facets[facet][{p[axes[0]].get<long>(), p[axes[1]].get<long>()}];
    ++cell.measured;
    if (c == winner)
      cell.winner = true;
    if (!verified(*c)) {
      ++cell.failed;
      continue;
    }
    double t = real(*c, "time_s");
    if (t < cell.best_s) {
      cell.best_s = t;
      cell.best_id = str(*c, "id");
    }
  }
  // The colours span the times shown, the cells' best, alike in every map
  // of the target.
  for (const auto &[facet, cells] : facets)
    for (const auto &[at, cell] : cells)
      if (cell.best_s != HUGE_VAL) {
        tmin = std::min(tmin, cell.best_s);
        tmax = std::max(tmax, cell.best_s);
      }
  if (tmin == HUGE_VAL)
    return;
  double winner_s = real(*winner, "time_s");
  if (outside)
    page.body << "<p class=\"note\">" << outside << " candidate" << (outside == 1 ? "" : "s")
              << " without both " << esc(axes[0]) << " and " << esc(axes[1])
              << " (e.g. the plain parallel nest) " << (outside == 1 ? "is" : "are")
              << " in the table only.</p>\n";
  for (const auto &[facet, cells] : facets) {
    std::string caption = by_threads
                              ? (facet ? std::to_string(facet) + " thread" + (facet == 1 ? "" : "s")
                                       : std::string("all processors"))
                              : std::string("every launch shape");
    caption += ": best time over " + esc(axes[0]) + " × " + esc(axes[1]) +
               ", each cell labelled with its time over the winner's (the winner's cell outlined "
               "in red; ✗: every candidate of the cell failed)";
    page.plot("cells", cells.size(), heatmap_spec(cells, axes[0], axes[1], tmin, tmax, winner_s),
              caption);
  }
}

// ----------------------------------------------------------------- tables

void counts_table(Page &page, const json &kj, const std::string &target,
                  const std::vector<const json *> &cands) {
  const json &search = kj.contains("search") ? kj["search"] : json::object();
  std::map<std::string, size_t> by_status;
  for (const json *c : cands)
    ++by_status[str(*c, "status")];
  long enumerated = -1;
  if (search.contains("enumerated_by_target") && search["enumerated_by_target"].contains(target))
    enumerated = search["enumerated_by_target"][target].get<long>();
  auto row = [&](const std::string &what, const std::string &n) {
    page.body << "<tr><th>" << what << "</th><td>" << n << "</td></tr>\n";
  };
  page.body << "<table class=\"counts\">\n";
  if (enumerated >= 0)
    row("enumerated (candidates of " + esc(target) + ")", std::to_string(enumerated));
  row("measured", std::to_string(cands.size()) +
                      (enumerated >= 0 ? " (" + std::to_string(enumerated - cands.size()) +
                                             " left unmeasured by the search)"
                                       : ""));
  row("built", std::to_string(cands.size() - by_status["build failed"]));
  row("verified and timed", std::to_string(by_status["verified"]));
  for (const char *s : {"wrong result", "crashed", "timed out", "build failed"})
    if (by_status[s])
      row(s, std::to_string(by_status[s]));
  page.body << "</table>\n";
}

void failures_table(Page &page, const std::vector<const json *> &cands) {
  std::vector<const json *> failed;
  for (const json *c : cands)
    if (!verified(*c))
      failed.push_back(c);
  if (failed.empty()) {
    page.body << "<p>No candidate failed.</p>\n";
    return;
  }
  page.body
      << "<table class=\"failures\"><tr><th>candidate</th><th>status</th><th>reason</th></tr>\n";
  for (const json *c : failed) {
    std::string reason = str(*c, "detail");
    if (c->contains("max_rel_err"))
      reason += (reason.empty() ? "" : "; ") + std::string("largest relative error ") +
                num(real(*c, "max_rel_err"), "%.3e");
    page.body << "<tr><td><code>" << esc(str(*c, "id")) << "</code></td><td>"
              << esc(str(*c, "status")) << "</td><td>" << esc(reason) << "</td></tr>\n";
  }
  page.body << "</table>\n";
}

void candidates_table(Page &page, std::vector<const json *> cands, const json *winner) {
  std::stable_sort(cands.begin(), cands.end(), [](const json *a, const json *b) {
    return verified(*a) != verified(*b)
               ? verified(*a)
               : real(*a, "time_s", HUGE_VAL) < real(*b, "time_s", HUGE_VAL);
  });
  // CUDA candidates say what the copies to and from the GPU, which their
  // time leaves out, cost (harness/CudaPackage.cpp).
  bool transfers =
      std::any_of(cands.begin(), cands.end(), [](const json *c) { return c->contains("h2d_s"); });
  page.body << "<details><summary>All " << cands.size()
            << " candidates measured, fastest first</summary>\n<table class=\"candidates\">"
               "<tr><th>candidate</th><th>time (ms)</th><th>GFlop/s</th><th>GB/s</th>"
            << (transfers ? "<th>to GPU (ms)</th><th>from GPU (ms)</th>" : "")
            << "<th>status</th></tr>\n";
  for (const json *c : cands) {
    bool ok = verified(*c);
    page.body << "<tr" << (c == winner ? " class=\"winner\"" : "") << "><td><code>"
              << esc(str(*c, "id")) << "</code></td><td>"
              << (ok ? num(real(*c, "time_s") * 1e3, "%.4g") : "") << "</td><td>"
              << (ok ? num(real(*c, "gflops")) : "") << "</td><td>"
              << (ok ? num(real(*c, "gbps")) : "") << "</td>";
    if (transfers)
      page.body << "<td>" << (c->contains("h2d_s") ? num(real(*c, "h2d_s") * 1e3, "%.4g") : "")
                << "</td><td>" << (c->contains("d2h_s") ? num(real(*c, "d2h_s") * 1e3, "%.4g") : "")
                << "</td>";
    page.body << "<td>" << esc(str(*c, "status")) << "</td></tr>\n";
  }
  page.body << "</table></details>\n";
}

// --------------------------------------------------------------- sections

/// What the record says of one target of kernel record `kj` (the kernel's,
/// or one of its sizes').
/// `bounds`: the record's measured bounds of the machine `target` runs on
/// (harness/MachineBounds.h), or null.
void target_section(Page &page, const json &kj, const json &facts, const std::string &target,
                    const json *bounds) {
  std::vector<const json *> cands = candidates_of(kj, target);
  const json *winner = winner_of(kj, target);
  page.body << "<h4>Target " << esc(target) << "</h4>\n";
  std::string chosen = kj.contains("chosen") ? str(kj["chosen"], target.c_str()) : "";
  page.body << "<p>Chosen: <code>" << esc(chosen) << "</code>";
  if (winner)
    page.body << ", " << num(real(*winner, "time_s") * 1e3, "%.4g") << " ms, "
              << num(real(*winner, "gflops")) << " GFlop/s, " << num(real(*winner, "gbps"))
              << " GB/s";
  page.body << ".</p>\n";
  if (!kj.value("tuned", false)) {
    page.body << "<p class=\"note\">Not tuned (--no-tune): nothing was measured.</p>\n";
    return;
  }
  counts_table(page, kj, target, cands);

  std::vector<const json *> timed;
  double gbps = 0;
  for (const json *c : cands)
    if (verified(*c) && real(*c, "gflops") > 0) {
      timed.push_back(c);
      gbps = std::max(gbps, real(*c, "gbps"));
    }
  double intensity = real(facts, "intensity");
  if (!timed.empty() && intensity > 0) {
    std::string caption = "Roofline of " + esc(target) + ": each of the " +
                          std::to_string(timed.size()) +
                          " verified candidates at the kernel's intensity (" + num(intensity) +
                          " flop per compulsory byte), the winner a red diamond. ";
    double peak = 0;
    if (bounds && real(*bounds, "gbps") > 0) {
      gbps = real(*bounds, "gbps");
      peak = real(*bounds, "gflops");
      caption += "The roof is the machine's measured bandwidth (" + whole(gbps) +
                 " GB/s) and peak (" + whole(peak) + " GFlop/s): " + esc(str(*bounds, "method")) +
                 (bounds->value("reused", false) ? ", from the tuning cache" : "");
    } else {
      caption += "The record holds no separately measured bandwidth or peak of the machine: the "
                 "roof is the best bandwidth a candidate of this target attained (" +
                 num(gbps) + " GB/s), and the bound its product with the intensity";
    }
    if (winner) {
      double bound = peak > 0 ? std::min(gbps * intensity, peak) : gbps * intensity;
      caption += "; the winner reaches " + num(100 * real(*winner, "gflops") / bound, "%.0f") +
                 "% of the bound";
    }
    page.plot("candidates", timed.size(), roofline_spec(timed, winner, intensity, gbps, peak),
              caption);
  }
  heat_maps(page, target, cands, winner);
  page.body << "<h5>Failed candidates</h5>\n";
  failures_table(page, cands);
  candidates_table(page, cands, winner);
}

/// The search's counts that concern every target of `kj`.
void search_summary(Page &page, const json &kj) {
  if (!kj.contains("search"))
    return;
  const json &s = kj["search"];
  page.body << "<p>Search: " << esc(str(s, "method")) << ", " << num(real(s, "seconds"), "%.1f")
            << " s";
  if (s.value("budget_exhausted", false))
    page.body << ", stopped by the budget";
  if (s.value("reused", false))
    page.body << ", every measurement taken from the tuning cache";
  else if (real(s, "reused_measurements") > 0)
    page.body << ", " << s["reused_measurements"].dump()
              << " measurements taken from the tuning cache";
  // --search=compare: how close the cheap search came to the exhaustive one,
  // on the CPU and on the GPU.
  for (const char *key : {"comparison", "cuda_comparison"}) {
    if (!s.contains(key) || !s[key].is_object())
      continue;
    const json &c = s[key];
    page.body << "; the " << esc(str(c, "cheap")) << " search measured "
              << c.value("cheap_measured", 0L) << " candidates and found "
              << num(real(c, "cheap_best_s") * 1e3, "%.4g") << " ms, the "
              << (c.value("exhaustive_complete", false) ? "exhaustive"
                                                        : "exhaustive search (cut short by the "
                                                          "budget)")
              << " best is " << num(real(c, "exhaustive_best_s") * 1e3, "%.4g") << " ms";
  }
  // Records before the counts were kept have the space in words only.
  if (!s.contains("pruned") || !s["pruned"].is_object()) {
    page.body << ". Space: " << esc(str(s, "space")) << ".</p>\n";
    return;
  }
  page.body << ".</p>\n";
  // What each engine considered and why it left some out; a run without a
  // CPU target (--target=cuda) has no CPU search to speak of.
  auto engine = [&](const char *who, const char *considered, const char *pruned, const char *what) {
    if (s.value(considered, 0L) <= 0)
      return;
    page.body << "<p>The " << who << " engine considered " << s.value(considered, 0L) << " "
              << what;
    if (!s.contains(pruned) || !s[pruned].is_object() || s[pruned].empty()) {
      page.body << " and pruned none.</p>\n";
      return;
    }
    page.body << " and pruned:</p><ul>\n";
    for (const auto &[why, n] : s[pruned].items())
      page.body << "<li>" << n.dump() << ": " << esc(why) << "</li>\n";
    page.body << "</ul>\n";
  };
  engine("CPU", "considered", "pruned", "parameter combinations");
  engine("GPU", "cuda_considered", "cuda_pruned", "launch shapes and mappings");
}

void per_size_table(Page &page, const json &sizes, const std::vector<std::string> &targets) {
  page.body << "<table class=\"sizes\"><tr><th>tuned at</th><th>working set</th><th>runs calls "
               "whose working set is</th>";
  for (const std::string &t : targets)
    page.body << "<th>" << esc(t) << " choice</th>";
  page.body << "</tr>\n";
  for (const json &sj : sizes) {
    std::string from = sj.contains("calls_from_bytes") && sj["calls_from_bytes"].is_number()
                           ? "over " + megabytes(real(sj, "calls_from_bytes"))
                           : "",
                upto = sj.contains("calls_up_to_bytes") && sj["calls_up_to_bytes"].is_number()
                           ? "up to " + megabytes(real(sj, "calls_up_to_bytes"))
                           : "";
    page.body << "<tr><td>" << esc(size_text(sj["tune_size"])) << "</td><td>"
              << megabytes(real(sj, "working_set_bytes")) << "</td><td>"
              << (from.empty() && upto.empty()
                      ? "any"
                      : from + (from.empty() || upto.empty() ? "" : ", ") + upto)
              << "</td>";
    for (const std::string &t : targets)
      page.body << "<td><code>" << esc(sj.contains("chosen") ? str(sj["chosen"], t.c_str()) : "")
                << "</code></td>";
    page.body << "</tr>\n";
  }
  page.body << "</table>\n";
}

/// A label for a time-tile candidate: "steps", or "T=8 128x64".
std::string time_tile_label(const json &c) {
  if (str(c, "variant") != "tiled" || !c.contains("tune") || !c["tune"].is_object())
    return str(c, "variant");
  const json &tune = c["tune"];
  std::string label = "T=" + std::to_string(tune.value("f2s_time_tile", 0L)) + " ";
  for (int d = 0; tune.contains("f2s_tile" + std::to_string(d)); ++d)
    label += (d ? "x" : "") + std::to_string(tune["f2s_tile" + std::to_string(d)].get<long>());
  return label;
}

/// A time loop's temporal blocking: the plan or why there is none, and per
/// target the choice, the model's traffic, and a bar for every candidate
/// measured (the steps among them), the chosen one outlined.
void time_tiling_section(Page &page, const json &tiling) {
  if (!tiling.value("possible", false)) {
    page.body << "<p>Not tiled in time: " << esc(str(tiling, "reason")) << "</p>\n";
    return;
  }
  page.body << "<details><summary>Time-tiling plan</summary><pre class=\"ir\">"
            << esc(str(tiling, "plan")) << "</pre></details>\n";
  for (const json &c : tiling.value("choices", json::array())) {
    std::string target = str(c, "target");
    page.body << "<h3>Time tiles on <code>" << esc(target) << "</code></h3>\n<p>";
    if (c.value("tiled", false)) {
      std::string tile;
      for (const json &e : c.value("tile", json::array()))
        tile += (tile.empty() ? "" : "x") + std::to_string(e.get<long>());
      page.body << "Chose tiles of " << esc(tile) << " points, " << c.value("time_tile", 0L)
                << " steps a trip to memory"
                << (c.contains("form") ? " (" + esc(str(c, "form")) + ")" : "") << ": ";
    } else {
      page.body << "Kept the steps: ";
    }
    page.body << esc(str(c, "why")) << "</p>\n";
    if (c.contains("model_bytes_per_point_step"))
      page.body << "<p class=\"note\">The model's memory traffic per point and step: "
                << num(real(c["model_bytes_per_point_step"], "steps")) << " bytes step by step, "
                << num(real(c["model_bytes_per_point_step"], "tiled")) << " tiled.</p>\n";
    json values = json::array(), win = json::array();
    std::vector<const json *> failed;
    std::map<std::string, int> labels;
    double chosen =
        real(c.value("measured", json::object()), c.value("tiled", false) ? "tiled_s" : "steps_s");
    static const json kNone = json::array();
    const json &all = c.contains("candidates") ? c["candidates"] : kNone;
    for (const json &cand : all) {
      if (str(cand, "status") != "verified") {
        failed.push_back(&cand);
        continue;
      }
      // Two candidates may share a label (a tile measured with two forms):
      // the band scale needs each its own.
      std::string label = time_tile_label(cand);
      if (++labels[label] > 1)
        label += " (" + std::to_string(labels[label]) + ")";
      json v = {{"label", label},
                {"ms", real(cand, "seconds") * 1e3},
                {"steps", str(cand, "variant") == "steps"}};
      values.push_back(v);
      if (chosen > 0 && win.empty() && real(cand, "seconds") == chosen)
        win.push_back(v);
    }
    if (!values.empty()) {
      std::sort(values.begin(), values.end(),
                [](const json &a, const json &b) { return a["ms"] < b["ms"]; });
      json bar = {{"y", {{"scale", "y"}, {"field", "label"}}},
                  {"height", {{"scale", "y"}, {"band", 1}}},
                  {"x", {{"scale", "x"}, {"value", 0}}},
                  {"x2", {{"scale", "x"}, {"field", "ms"}}}};
      json fill = bar;
      fill["fill"] =
          json::array({{{"test", "datum.steps"}, {"value", "#ff7f0e"}}, {{"value", "#1f77b4"}}});
      fill["tooltip"] = {{"signal", "datum.label + ': ' + format(datum.ms, '.3g') + ' ms'"}};
      json outline = bar;
      outline["fill"] = {{"value", "transparent"}};
      outline["stroke"] = {{"value", "#d62728"}};
      outline["strokeWidth"] = {{"value", 3}};
      json spec = {{"width", 420},
                   {"height", std::min<size_t>(16 * values.size() + 10, 600)},
                   {"padding", 8},
                   {"data",
                    {{{"name", "bar_data"}, {"values", values}},
                     {{"name", "winner_data"}, {"values", win}}}},
                   {"scales",
                    {{{"name", "y"},
                      {"type", "band"},
                      {"domain", {{"data", "bar_data"}, {"field", "label"}}},
                      {"range", "height"},
                      {"padding", 0.1}},
                     {{"name", "x"},
                      {"type", "linear"},
                      {"domain", {{"data", "bar_data"}, {"field", "ms"}}},
                      {"range", "width"},
                      {"zero", true},
                      {"nice", true}}}},
                   {"axes",
                    {{{"orient", "bottom"}, {"scale", "x"}, {"title", "ms for the steps measured"}},
                     {{"orient", "left"}, {"scale", "y"}, {"labelFontSize", 9}}}},
                   {"marks",
                    {{{"type", "rect"},
                      {"name", "bars"},
                      {"from", {{"data", "bar_data"}}},
                      {"encode", {{"enter", fill}}}},
                     {{"type", "rect"},
                      {"name", "winner"},
                      {"from", {{"data", "winner_data"}}},
                      {"encode", {{"enter", outline}}}}}}};
      const json &m = c.value("measured", json::object());
      page.plot("bars", values.size(), spec,
                "Every time-tile candidate measured on " + esc(target) + " at the tuning size, " +
                    std::to_string(m.value("trips", 0L)) +
                    " steps a call: the steps in orange, tiles in blue (T = steps a trip, then "
                    "the tile), the chosen one outlined in red.");
    }
    if (!failed.empty()) {
      page.body << "<ul class=\"failures\">\n";
      for (const json *f : failed)
        page.body << "<li><code>" << esc(time_tile_label(*f))
                  << "</code>: " << esc(str(*f, "status"))
                  << (f->contains("detail") ? ", " + esc(str(*f, "detail")) : "") << "</li>\n";
      page.body << "</ul>\n";
    }
  }
}

/// The record's measured bounds of the machine `target` runs on, or null.
const json *bounds_of(const json &record, const std::string &target) {
  if (!record.contains("bounds") || !record["bounds"].is_object())
    return nullptr;
  const char *which = target == "cuda" ? "gpu" : "cpu";
  return record["bounds"].contains(which) ? &record["bounds"][which] : nullptr;
}

void kernel_section(Page &page, const json &kj, const json &record) {
  const json &facts = kj.contains("facts") ? kj["facts"] : json::object();
  std::string name = str(kj, "name");
  page.body << "<section class=\"kernel\"><h2>Kernel <code>" << esc(name) << "</code></h2>\n";
  double read = real(facts, "read_bytes_per_point"), write = real(facts, "write_bytes_per_point");
  page.body << "<table class=\"facts\">\n"
            << "<tr><th>source</th><td><code>" << esc(str(kj, "source")) << "</code> (in "
            << esc(str(kj, "procedure")) << ")</td></tr>\n"
            << "<tr><th>flops per point</th><td>" << num(real(facts, "flops_per_point"), "%g")
            << "</td></tr>\n"
            << "<tr><th>compulsory bytes per point</th><td>" << num(read + write, "%g") << " ("
            << num(read, "%g") << " read, " << num(write, "%g") << " written; "
            << num(real(facts, "write_allocate_bytes_per_point"), "%g")
            << " more where a write allocates its line)</td></tr>\n"
            << "<tr><th>intensity</th><td>" << num(real(facts, "intensity")) << " flop/byte ("
            << num(real(facts, "intensity_with_write_allocate"))
            << " with write allocation)</td></tr>\n";
  if (kj.contains("extents"))
    page.body << "<tr><th>tuned at</th><td>" << esc(size_text(kj["extents"])) << "</td></tr>\n";
  if (kj.contains("ordered") && kj["ordered"].is_object())
    page.body << "<tr><th>ordered loop</th><td><code>" << esc(str(kj["ordered"], "loop"))
              << "</code>: " << esc(str(kj["ordered"], "reason")) << "</td></tr>\n";
  if (kj.contains("column") && kj["column"].is_object()) {
    std::string work;
    for (const auto &w : kj["column"].value("work_arrays", nlohmann::json::array()))
      work += (work.empty() ? "" : ", ") + w.get<std::string>();
    page.body << "<tr><th>columns</th><td>in order along <code>" << esc(str(kj["column"], "loop"))
              << "</code>, each with its own work arrays <code>" << esc(work)
              << "</code></td></tr>\n";
  }
  page.body << "</table>\n";
  if (kj.contains("ir"))
    page.body << "<details><summary>IR (as --emit=ir prints it)</summary><pre class=\"ir\">"
              << esc(str(kj, "ir")) << "</pre></details>\n";

  std::vector<std::string> targets = targets_of(kj);
  if (kj.contains("sizes") && kj["sizes"].is_array() && !kj["sizes"].empty()) {
    page.body << "<h3>Per-size variants</h3>\n<p>Tuned at " << kj["sizes"].size()
              << " sizes; each call runs the choices of the size nearest its own by working "
                 "set.</p>\n";
    per_size_table(page, kj["sizes"], targets);
    for (const json &sj : kj["sizes"]) {
      page.body << "<h3>At " << esc(size_text(sj["tune_size"])) << "</h3>\n";
      search_summary(page, sj);
      for (const std::string &t : targets_of(sj))
        target_section(page, sj, facts, t, bounds_of(record, t));
    }
  } else {
    search_summary(page, kj);
    for (const std::string &t : targets)
      target_section(page, kj, facts, t, bounds_of(record, t));
  }
  page.body << "</section>\n";
}

const char *kStyle = R"(
body { font-family: sans-serif; margin: 2em auto; padding: 0 1.5em; max-width: 72em; color: #222; }
code, pre { font-family: monospace; }
pre.ir { background: #f6f6f6; padding: 0.6em; overflow-x: auto; }
table { border-collapse: collapse; margin: 0.6em 0; }
th, td { border: 1px solid #ddd; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
tr.winner td { background: #fde0e0; }
figure { display: inline-block; margin: 0.5em 1.5em 0.5em 0; vertical-align: top; max-width: 36em; }
figcaption { font-size: 0.85em; color: #444; }
.note { color: #666; }
section.kernel { border-top: 2px solid #888; margin-top: 2em; }
)";

/// Draws every plot with Vega's SVG renderer; a plot that fails says so on
/// the console (which the report's test reads). Sets data-plots-drawn on
/// <body> once all are drawn.
const char *kDrawScript = R"(
(function () {
  var plots = JSON.parse(document.getElementById('f2s-plots').textContent);
  var drawn = 0;
  function done() {
    if (++drawn === plots.length) document.body.setAttribute('data-plots-drawn', String(drawn));
  }
  if (!plots.length) document.body.setAttribute('data-plots-drawn', '0');
  plots.forEach(function (p) {
    try {
      new vega.View(vega.parse(p.spec), {renderer: 'svg', container: '#' + p.id, hover: true})
        .runAsync().then(done, function (e) { console.error('plot ' + p.id + ': ' + e); });
    } catch (e) {
      console.error('plot ' + p.id + ': ' + e);
    }
  });
})();
)";

} // namespace

std::string render_report(const json &record) {
  Page page;
  std::string lib = str(record, "library");
  page.body << "<h1>Tuning report of <code>" << esc(lib)
            << "</code></h1>\n<table class=\"facts\">\n";
  auto row = [&](const std::string &what, const std::string &text) {
    if (!text.empty())
      page.body << "<tr><th>" << what << "</th><td>" << text << "</td></tr>\n";
  };
  std::string sources;
  if (record.contains("sources"))
    for (const json &s : record["sources"])
      sources += (sources.empty() ? "" : ", ") +
                 ("<code>" + esc(s.is_string() ? s.get<std::string>() : s.dump()) + "</code>");
  row("sources", sources);
  auto measured = [&](const char *target) -> std::string {
    const json *b = bounds_of(record, target);
    if (!b)
      return "";
    return whole(real(*b, "gbps")) + " GB/s, " + whole(real(*b, "gflops")) + " GFlop/s (" +
           esc(str(*b, "method")) + ")";
  };
  row("CPU", esc(str(record, "machine")));
  row("CPU measured", measured("pthreads"));
  row("GPU", esc(str(record, "gpu")));
  row("GPU measured", measured("cuda"));
  std::string cflags;
  if (record.contains("cflags"))
    for (const json &f : record["cflags"])
      cflags += (cflags.empty() ? "" : " ") + esc(f.is_string() ? f.get<std::string>() : "");
  row("C flags", cflags.empty() ? "" : "<code>" + cflags + "</code>");
  row("made by", esc(str(record, "generator")));
  page.body << "</table>\n";
  // A time loop is one procedure over sweeps that have sections of their
  // own below: its section says which, in the order of a step.
  if (record.contains("time_loops") && record["time_loops"].is_array())
    for (const json &t : record["time_loops"]) {
      std::string sweeps;
      if (t.contains("sweeps"))
        for (const json &sw : t["sweeps"])
          sweeps +=
              (sweeps.empty() ? "" : ", ") +
              ("<code>" + esc(sw.is_string() ? sw.get<std::string>() : sw.dump()) + "</code>");
      page.body << "<section class=\"kernel\"><h2>Time loop <code>" << esc(str(t, "name"))
                << "</code></h2>\n<table class=\"facts\">\n"
                << "<tr><th>source</th><td><code>" << esc(str(t, "source")) << "</code> (in "
                << esc(str(t, "procedure")) << ")</td></tr>\n"
                << "<tr><th>each step runs</th><td>" << sweeps
                << " (each a kernel below)</td></tr>\n</table>\n"
                << "<details><summary>IR (as --emit=ir prints it)</summary><pre class=\"ir\">"
                << esc(str(t, "ir")) << "</pre></details>\n";
      if (t.contains("time_tiling") && t["time_tiling"].is_object())
        time_tiling_section(page, t["time_tiling"]);
      page.body << "</section>\n";
    }
  if (record.contains("kernels"))
    for (const json &kj : record["kernels"])
      kernel_section(page, kj, record);

  json plots = json::array();
  for (const Plot &p : page.plots)
    plots.push_back({{"id", p.id}, {"spec", p.spec}});
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<title>f2stencil report: " << esc(lib) << "</title>\n<style>" << kStyle
       << "</style>\n</head>\n<body>\n"
       << page.body.str() << "<script type=\"application/json\" id=\"f2s-plots\">"
       << script_json(plots) << "</script>\n<script>\n"
       << vega_script() << "\n</script>\n<script>" << kDrawScript
       << "</script>\n</body>\n</html>\n";
  return html.str();
}

fs::path write_report(const fs::path &dir, const std::string &lib) {
  fs::path record_path;
  std::string how_to = "; build a library into it with 'f2stencil -o " + dir.string() +
                       " FILE.f90', which writes the record and the report";
  if (!lib.empty()) {
    record_path = dir / (lib + ".json");
  } else {
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
      throw ReportError("'" + dir.string() + "' is not a directory" + how_to);
    std::vector<fs::path> records;
    for (const fs::directory_entry &e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".json")
        continue;
      std::ifstream in(e.path());
      json j = json::parse(in, nullptr, false);
      if (!j.is_discarded() && j.is_object() && j.contains("kernels") &&
          str(j, "library") == e.path().stem().string())
        records.push_back(e.path());
    }
    if (records.empty())
      throw ReportError("'" + dir.string() + "' holds no tuning record (<library>.json)" + how_to);
    if (records.size() > 1) {
      std::sort(records.begin(), records.end());
      throw ReportError("'" + dir.string() + "' holds the records of several libraries ('" +
                        records[0].filename().string() + "', '" + records[1].filename().string() +
                        "'); give the output directory of one library");
    }
    record_path = records.front();
  }
  std::ifstream in(record_path);
  if (!in)
    throw ReportError("Cannot read the tuning record '" + record_path.string() + "'" + how_to);
  json record = json::parse(in, nullptr, false);
  if (record.is_discarded() || !record.is_object() || !record.contains("kernels"))
    throw ReportError("'" + record_path.string() +
                      "' is not a tuning record of f2stencil; build the library again to "
                      "write one");
  fs::path out = record_path;
  out.replace_extension(".html");
  std::ofstream html(out, std::ios::binary);
  html << render_report(record);
  if (!html.flush())
    throw ReportError("Cannot write '" + out.string() + "'");
  return out;
}

} // namespace f2s
