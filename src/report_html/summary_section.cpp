// The summary table and the scheduler comparison.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/units.hpp"
#include "report_html/chart_util.hpp"
#include "report_html/sections.hpp"

namespace flux::report_html {
namespace {

double metric(const RunData& r, const char* key) {
  const auto& s = *r.summary;
  return s.contains(key) && s[key].is_number() ? s[key].get<double>() : NAN;
}

// Iteration time over the ideal run's (the electrical fabric, no reconfiguration), or over the
// lower bound when no ideal run was given.
struct Reference {
  double ideal = NAN;
  const char* name = "vs ideal";
};

Reference reference(const std::vector<const RunData*>& runs) {
  for (const RunData* r : runs)
    if ((*r->summary)["scheduler"].value("name", "") == "ideal")
      return {metric(*r, "iteration_time"), "vs ideal"};
  return {NAN, "vs lower bound"};
}

double versus(const RunData& r, const Reference& ref) {
  const double base = std::isnan(ref.ideal) ? metric(r, "lower_bound") : ref.ideal;
  return base > 0 ? metric(r, "iteration_time") / base : NAN;
}

std::string solver_text(const RunData& r) {
  const auto& s = *r.summary;
  if (!s.contains("solver") || !s["solver"].is_object()) return "";
  const auto& v = s["solver"];
  std::string out = v.value("status", "");
  if (v.contains("gap") && v["gap"].is_number())
    out += fmt::format(", gap {:.3g}%", 100 * v["gap"].get<double>());
  return out;
}

std::string table(const std::vector<const RunData*>& runs, const Reference& ref) {
  std::string out = fmt::format(
      "<table><tr><th class=k>run</th><th>iteration</th><th>{}</th><th>lower bound</th>"
      "<th>peak NIC buffer</th><th>reconfigurations</th><th>utilisation</th>"
      "<th class=k>posting</th><th class=k>solver</th></tr>\n",
      ref.name);
  for (const RunData* r : runs) {
    const auto& s = *r->summary;
    out += fmt::format(
        "<tr><td class=k>{}</td><td>{}</td><td>{:.3f}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{:.3f}</td><td class=k>{}</td><td class=k>{}</td></tr>\n",
        report::escape_markup(r->label), format_time(metric(*r, "iteration_time")), versus(*r, ref),
        format_time(metric(*r, "lower_bound")), format_bytes(metric(*r, "peak_nic_buffer")),
        metric(*r, "reconfigurations"), metric(*r, "circuit_utilization"),
        report::escape_markup(s["scheduler"].value("posting", "")),
        report::escape_markup(solver_text(*r)));
  }
  return out + "</table>\n";
}

struct Measure {
  const char* title;
  std::function<double(const RunData&)> value;
};

// One horizontal bar chart per measure, side by side, each with its own scale.
Spec comparison(const std::vector<const RunData*>& runs, const Reference& ref) {
  const std::vector<Measure> measures = {
      {"iteration time (ms)", [](const RunData& r) { return ms(metric(r, "iteration_time")); }},
      {ref.name, [&ref](const RunData& r) { return versus(r, ref); }},
      {"peak NIC buffer (MiB)", [](const RunData& r) { return mib(metric(r, "peak_nic_buffer")); }},
      {"reconfigurations", [](const RunData& r) { return metric(r, "reconfigurations"); }},
      {"circuit utilisation", [](const RunData& r) { return metric(r, "circuit_utilization"); }}};
  Spec order = Spec::array();
  for (const RunData* r : runs) order.push_back(r->label);
  Spec charts = Spec::array();
  for (const Measure& m : measures) {
    Spec values = Spec::array();
    std::vector<double> all;
    for (const RunData* r : runs) {
      const double v = m.value(*r);
      if (!std::isfinite(v)) continue;
      values.push_back({{"run", r->label}, {"value", v}});
      all.push_back(v);
    }
    Spec x = {{"field", "value"},
              {"type", "quantitative"},
              {"title", m.title},
              {"scale", value_scale(all)}};
    // A bar on a log axis needs a base above zero: the power of ten below the smallest value.
    Spec x2 = {{"datum", 0}};
    if (x["scale"]["type"] != "linear") {
      double lo = INFINITY;
      for (double v : all)
        if (v > 0) lo = std::min(lo, v);
      const double base = std::pow(10.0, std::ceil(std::log10(lo)) - 1);  // below, never at, lo
      x["scale"]["domainMin"] = base;
      x["axis"] = {{"labelOverlap", "greedy"}, {"tickCount", 4}};
      if (x["scale"]["type"] == "log") x2["datum"] = base;
    }
    charts.push_back(
        {{"width", 150},
         {"data", {{"values", values}}},
         {"mark", {{"type", "bar"}, {"tooltip", true}}},
         {"encoding",
          {{"y", {{"field", "run"}, {"type", "nominal"}, {"sort", order}, {"title", nullptr}}},
           {"x", x},
           {"x2", x2},
           {"color",
            {{"field", "run"}, {"type", "nominal"}, {"sort", order}, {"legend", nullptr}}}}}});
  }
  return {{"$schema", "https://vega.github.io/schema/vega-lite/v6.json"},
          {"hconcat", charts},
          {"resolve", {{"scale", {{"y", "shared"}}}}}};
}

}  // namespace

std::optional<Section> summary_section(const ReportInputs& in) {
  std::vector<const RunData*> runs;
  for (const RunData& r : in.runs)
    if (r.summary) runs.push_back(&r);
  if (runs.empty()) return std::nullopt;
  const Reference ref = reference(runs);
  Section s{"summary", "Summary and scheduler comparison", {}};
  s.blocks.push_back({table(runs, ref), std::nullopt});
  s.blocks.push_back(
      {"<p class=note>Each measure on its own axis; an axis is logarithmic where the values span "
       "more than a decade.</p>\n",
       Chart{comparison(runs, ref)}});
  return s;
}

}  // namespace flux::report_html
