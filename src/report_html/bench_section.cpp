// The τ sweep of `flux bench flux`: iteration time and peak NIC buffer against τ per scheduler.
#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "report_html/chart_util.hpp"
#include "report_html/sections.hpp"

namespace flux {
namespace {

// A failed case has an empty or "nan" cell: it is left out of the chart, not an error.
std::optional<double> cell(const CsvTable& t, std::size_t row, std::size_t col) {
  const std::string& s = t.text(row, col);
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

Spec sweep_chart(const CsvTable& t, const char* column, const char* title, double unit) {
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
                      {"value", *v / unit}});
    all.push_back(*v / unit);
    taus.push_back(*x);
  }
  Spec spec = unit_spec(values, 320);
  spec["mark"] = {{"type", "line"}, {"point", true}, {"tooltip", true}};
  spec["encoding"] = {{"x",
                       {{"field", "tau_us"},
                        {"type", "quantitative"},
                        {"title", "τ (µs)"},
                        {"scale", value_scale(taus)}}},
                      {"y",
                       {{"field", "value"},
                        {"type", "quantitative"},
                        {"title", title},
                        {"scale", value_scale(all)}}},
                      {"color", {{"field", "scheduler"}, {"type", "nominal"}}},
                      {"column", {{"field", "layers"}, {"type", "ordinal"}, {"title", "layers"}}}};
  return spec;
}

}  // namespace

std::optional<Section> bench_section(const ReportInputs& in) {
  if (in.benches.empty()) return std::nullopt;
  Section s{"bench", "τ sweep (flux bench flux)", {}};
  for (const NamedBench& b : in.benches) {
    s.blocks.push_back(
        {fmt::format("<h3>{}</h3>\n", escape_markup(b.source)),
         Chart{sweep_chart(b.table, "iteration_time_s", "iteration time (ms)", 1e-3)}});
    s.blocks.push_back({"", Chart{sweep_chart(b.table, "peak_nic_buffer_B", "peak NIC buffer (MiB)",
                                              1024.0 * 1024.0)}});
  }
  return s;
}

}  // namespace flux
