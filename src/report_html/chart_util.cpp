#include "report_html/chart_util.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "report/svg_plot.hpp"

namespace flux::report_html {

Spec value_scale(const std::vector<double>& values) {
  double lo = INFINITY, hi = 0;
  bool zero = false;
  for (double v : values) {
    if (v > 0) {
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    } else {
      zero = true;
    }
  }
  if (hi <= 0 || hi / lo <= 10) return {{"type", "linear"}};
  if (zero) return {{"type", "symlog"}, {"constant", lo}};
  return {{"type", "log"}};
}

Spec unit_spec(Spec values, int width) {
  return {{"$schema", "https://vega.github.io/schema/vega-lite/v6.json"},
          {"width", width},
          {"data", {{"values", std::move(values)}}}};
}

Spec zoom_param() {
  return {{"name", "zoom"},
          {"select", {{"type", "interval"}, {"encodings", {"x"}}}},
          {"bind", "scales"}};
}

namespace {

// Vega expression: `v` (base units) as "<mantissa> <unit>" with the largest unit not above it.
std::string unit_label_expr(double base_per_value, bool bytes) {
  const std::string v = fmt::format("(datum.value * {:.12g})", base_per_value);
  const std::vector<std::pair<double, const char*>> units =
      bytes ? std::vector<std::pair<double, const char*>>{{1099511627776.0, "TiB"},
                                                          {1073741824.0, "GiB"},
                                                          {1048576.0, "MiB"},
                                                          {1024.0, "KiB"},
                                                          {1.0, "B"}}
            : std::vector<std::pair<double, const char*>>{
                  {1.0, "s"}, {1e-3, "ms"}, {1e-6, "µs"}, {1e-9, "ns"}, {1e-12, "ps"}};
  std::string expr = "datum.value == 0 ? '0' : ";
  for (std::size_t k = 0; k + 1 < units.size(); ++k)
    expr +=
        fmt::format("{0} >= {1:.17g} * (1 - 1e-9) ? format({0} / {1:.17g}, '~g') + ' {2}' : ", v,
                    units[k].first, units[k].second);
  return expr + fmt::format("format({0} / {1:.17g}, '~g') + ' {2}'", v, units.back().first,
                            units.back().second);
}

}  // namespace

// Six significant digits are more than a chart resolves.
static double round6(double v) {
  if (v == 0 || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, 5 - std::floor(std::log10(std::fabs(v))));
  return std::round(v * scale) / scale;
}

double mib(double bytes) {
  return round6(bytes / (1024.0 * 1024.0));
}

double ms(double seconds) {
  return round6(seconds * 1e3);
}

Spec human_axis(const std::vector<double>& values, ChartUnit unit, bool log) {
  const bool bytes = unit == ChartUnit::mebibytes;
  const double base = bytes ? 1048576.0 : unit == ChartUnit::milliseconds ? 1e-3 : 1e-6;
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (std::isfinite(v) && (!log || v > 0))
      lo = std::min(lo, v * base), hi = std::max(hi, v * base);
  if (!log) lo = std::min(lo, 0.0);  // a linear quantitative scale starts at zero
  Spec ticks = Spec::array();
  if (hi > lo)
    for (double t : bytes ? report::byte_ticks(lo, hi, log) : report::axis_ticks(lo, hi, log))
      ticks.push_back(round6(t / base));
  Spec axis = {{"labelExpr", unit_label_expr(base, bytes)}};
  if (!ticks.empty()) axis["values"] = std::move(ticks);
  return axis;
}

}  // namespace flux::report_html
