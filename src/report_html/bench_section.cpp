// The τ sweep of `flux bench flux`: iteration time and peak NIC buffer against τ per scheduler.
#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "report_html/chart_util.hpp"
#include "report_html/sections.hpp"

namespace flux::report_html {
namespace {

// A failed case has an empty or "nan" cell: it is left out of the chart, not an error.
std::optional<double> cell(const report::CsvTable& t, std::size_t row, std::size_t col) {
  const std::string& s = t.text(row, col);
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

// Human-unit axes, and a marker shape beside the colour per scheduler so that nine of them stay
// apart.
Spec sweep_chart(const report::CsvTable& t, const char* column, const char* title, ChartUnit unit) {
  const double scale = unit == ChartUnit::mebibytes ? 1048576.0 : 1e-3;
  const std::size_t layers = t.column("layers"), tau = t.column("tau_s"),
                    sched = t.column("scheduler"), value = t.column(column);
  Spec values = Spec::array();
  std::vector<double> all, taus;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    auto v = cell(t, r, value);
    auto x = cell(t, r, tau);
    if (!v || !x) continue;
    values.push_back({{"layers", t.text(r, layers)},
                      {"tau_us", *x * 1e6},
                      {"scheduler", t.text(r, sched)},
                      {"value", *v / scale}});
    all.push_back(*v / scale);
    taus.push_back(*x * 1e6);
  }
  const Spec xscale = value_scale(taus), yscale = value_scale(all);
  const Spec x = {{"field", "tau_us"},
                  {"type", "quantitative"},
                  {"title", "reconfiguration delay τ"},
                  {"scale", xscale},
                  {"axis", human_axis(taus, ChartUnit::microseconds, xscale["type"] == "log")}};
  const Spec y = {{"field", "value"},
                  {"type", "quantitative"},
                  {"title", title},
                  {"scale", yscale},
                  {"axis", human_axis(all, unit, yscale["type"] == "log")}};
  // Lines and points in two layers, so that one legend shows each scheduler's colour and shape.
  const Spec color = {
      {"field", "scheduler"}, {"type", "nominal"}, {"scale", {{"scheme", "tableau10"}}}};
  Spec line_color = color;
  line_color["legend"] = nullptr;
  const Spec lines = {{"mark", {{"type", "line"}}}, {"encoding", {{"color", line_color}}}};
  const Spec points = {
      {"mark", {{"type", "point"}, {"filled", true}, {"size", 50}, {"tooltip", true}}},
      {"encoding", {{"color", color}, {"shape", {{"field", "scheduler"}, {"type", "nominal"}}}}}};
  Spec spec = unit_spec(values, 320);
  spec.erase("width");
  spec["facet"] = {{"column", {{"field", "layers"}, {"type", "ordinal"}, {"title", "layers"}}}};
  spec["spec"] = {
      {"width", 320}, {"encoding", {{"x", x}, {"y", y}}}, {"layer", Spec::array({lines, points})}};
  return spec;
}

}  // namespace

std::optional<Section> bench_section(const ReportInputs& in) {
  if (in.benches.empty()) return std::nullopt;
  Section s{"bench", "τ sweep (flux bench flux)", {}};
  for (const NamedBench& b : in.benches) {
    s.blocks.push_back({fmt::format("<h3>{}</h3>\n", report::escape_markup(b.source)),
                        Chart{sweep_chart(b.table, "iteration_time_s", "iteration time",
                                          ChartUnit::milliseconds)}});
    s.blocks.push_back({"", Chart{sweep_chart(b.table, "peak_nic_buffer_B", "peak NIC buffer",
                                              ChartUnit::mebibytes)}});
  }
  return s;
}

}  // namespace flux::report_html
