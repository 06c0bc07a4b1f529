#include "report_html/chart_util.hpp"

#include <algorithm>
#include <cmath>

namespace flux {

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

}  // namespace flux
