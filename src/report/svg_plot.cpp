#include "report/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/units.hpp"
#include "report/markup.hpp"

namespace flux::report {
namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
                                    "#393b79", "#e7969c", "#637939", "#fdae6b", "#843c39"};
constexpr int kLeft = 70, kTop = 36, kBottom = 50, kLegend = 190;

// Marker outlines around (0,0), as relative SVG path data; each is drawn filled and then hollow,
// which gives twelve markers that differ in shape or fill.
constexpr const char* kMarkerShapes[] = {
    "m-3.5,0a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0z",   // circle
    "m-3.2,-3.2h6.4v6.4h-6.4z",                        // square
    "m0,-4.3l4.3,7.4h-8.6z",                           // triangle up
    "m0,-4.6l4.6,4.6l-4.6,4.6l-4.6,-4.6z",             // diamond
    "m0,4.3l4.3,-7.4h-8.6z",                           // triangle down
    "m-1.3,-4.3h2.6v3h3v2.6h-3v3h-2.6v-3h-3v-2.6h3z",  // plus
};
constexpr std::size_t kMarkers = 2 * std::size(kMarkerShapes);

struct Style {
  std::string color;
  std::size_t marker = 0;  // < kMarkers
};

std::string marker_path(double px, double py, const Style& st) {
  const std::size_t n = std::size(kMarkerShapes);
  const bool hollow = st.marker >= n;
  return fmt::format(R"(<path d="M{:.2f},{:.2f}{}" fill="{}" stroke="{}" stroke-width="1.5"/>)"
                     "\n",
                     px, py, kMarkerShapes[st.marker % n], hollow ? "white" : st.color, st.color);
}

std::string number(double v) {
  if (std::abs(v) < 1e-12) return "0";
  return fmt::format("{:.6g}", v);
}

bool usable(double v, bool log) {
  return std::isfinite(v) && (!log || v > 0.0);
}

// Maps data values to pixels along one axis.
struct Scale {
  double lo = 0.0, hi = 1.0;
  bool log = false;
  double px0 = 0.0, px1 = 1.0;  // pixel of lo and of hi

  double operator()(double v) const {
    const double a = log ? std::log10(lo) : lo, b = log ? std::log10(hi) : hi;
    const double t = ((log ? std::log10(v) : v) - a) / (b - a);
    return px0 + t * (px1 - px0);
  }
};

Scale make_scale(const PlotAxis& axis, const std::vector<double>& values, double px0, double px1) {
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values)
    if (usable(v, axis.log)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (!(lo <= hi)) lo = axis.log ? 1.0 : 0.0, hi = axis.log ? 10.0 : 1.0;
  if (axis.from_zero && !axis.log && lo > 0.0) lo = 0.0;
  lo = axis.min.value_or(lo);
  hi = axis.max.value_or(hi);
  if (axis.log) lo = std::max(lo, std::numeric_limits<double>::min());
  if (hi <= lo) {  // constant data: widen around it
    const double pad = axis.log ? 0.0 : (lo == 0.0 ? 1.0 : std::abs(lo) * 0.1);
    lo = axis.log ? lo / 2.0 : lo - pad;
    hi = axis.log ? hi * 2.0 : hi + pad;
  }
  return {lo, hi, axis.log, px0, px1};
}

std::vector<double> all_values(const LinePlot& plot, bool x) {
  std::vector<double> v;
  for (const PlotSeries& s : plot.series)
    v.insert(v.end(), (x ? s.x : s.y).begin(), (x ? s.x : s.y).end());
  return v;
}

std::vector<double> ticks(const PlotAxis& axis, const Scale& s) {
  return axis.unit == AxisUnit::bytes ? byte_ticks(s.lo, s.hi, s.log)
                                      : axis_ticks(s.lo, s.hi, s.log);
}

void draw_axes(std::string& out, const LinePlot& plot, const Scale& sx, const Scale& sy) {
  for (double t : ticks(plot.x, sx)) {
    const double px = sx(t);
    out += fmt::format(R"(<line x1="{0:.2f}" y1="{1}" x2="{0:.2f}" y2="{2}" stroke="#e5e5e5"/>)"
                       R"(<text x="{0:.2f}" y="{3}" text-anchor="middle">{4}</text>)"
                       "\n",
                       px, sy.px1, sy.px0, sy.px0 + 16, tick_label(t, plot.x.unit));
  }
  for (double t : ticks(plot.y, sy)) {
    const double py = sy(t);
    out += fmt::format(R"(<line x1="{0}" y1="{1:.2f}" x2="{2}" y2="{1:.2f}" stroke="#e5e5e5"/>)"
                       R"(<text x="{3}" y="{4:.2f}" text-anchor="end">{5}</text>)"
                       "\n",
                       sx.px0, py, sx.px1, sx.px0 - 6, py + 4, tick_label(t, plot.y.unit));
  }
  out += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="none" stroke="#333"/>)"
                     "\n",
                     sx.px0, sy.px1, sx.px1 - sx.px0, sy.px0 - sy.px1);
  out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}</text>)"
                     "\n",
                     (sx.px0 + sx.px1) / 2, plot.height - 12, escape_markup(plot.x.label));
  out += fmt::format(
      R"svg(<text transform="translate(16,{}) rotate(-90)" text-anchor="middle">{}</text>)svg"
      "\n",
      (sy.px0 + sy.px1) / 2, escape_markup(plot.y.label));
  out += fmt::format(R"(<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>)"
                     "\n",
                     (sx.px0 + sx.px1) / 2, escape_markup(plot.title));
}

// One polyline per run of two or more usable points, so gaps in the data show as gaps (a lone
// point shows only as its marker). Returns whether anything was drawn.
bool draw_series(std::string& out, const PlotSeries& s, const Style& st, const Scale& sx,
                 const Scale& sy) {
  const std::string dash = s.dashed ? R"( stroke-dasharray="6,4")" : "";
  std::string points, markers;
  int run = 0;
  bool drawn = false;
  auto flush = [&] {
    if (run >= 2) {
      out += fmt::format(R"(<polyline fill="none" stroke="{}" stroke-width="2"{} points="{}"/>)"
                         "\n",
                         st.color, dash, points);
      drawn = true;
    }
    points.clear();
    run = 0;
  };
  const std::size_t n = std::min(s.x.size(), s.y.size());
  for (std::size_t k = 0; k < n; ++k) {
    if (!usable(s.x[k], sx.log) || !usable(s.y[k], sy.log)) {
      flush();
      continue;
    }
    const double px = sx(s.x[k]), py = sy(s.y[k]);
    points += fmt::format("{}{:.2f},{:.2f}", points.empty() ? "" : " ", px, py);
    ++run;
    if (s.markers) markers += marker_path(px, py, st), drawn = true;
  }
  flush();
  out += markers;  // on top of the lines
  return drawn;
}

// One entry per series that drew something: its line (dashed as drawn) and its marker.
void draw_legend(std::string& out, const LinePlot& plot, const std::vector<Style>& styles,
                 const std::vector<bool>& drawn, double x0) {
  double y = kTop + 12;
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    if (!drawn[k]) continue;
    const std::string dash = plot.series[k].dashed ? R"( stroke-dasharray="6,4")" : "";
    out += fmt::format(R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2"{}/>)",
                       x0, y, x0 + 26, y, styles[k].color, dash);
    if (plot.series[k].markers) out += marker_path(x0 + 13, y, styles[k]);
    out += fmt::format(R"(<text x="{}" y="{}">{}</text>)"
                       "\n",
                       x0 + 32, y + 4, escape_markup(plot.series[k].name));
    y += 20;
  }
}

// Colours: a series' own, else the next palette colour that no series asked for by name, so a
// chart keeps distinct colours up to the palette's length; markers: one per series in turn.
std::vector<Style> series_styles(const LinePlot& plot) {
  std::vector<Style> styles;
  std::size_t next = 0;
  auto taken = [&](const char* c) {
    return std::any_of(plot.series.begin(), plot.series.end(),
                       [&](const PlotSeries& s) { return s.color == c; });
  };
  for (const PlotSeries& s : plot.series) {
    Style st{s.color, styles.size() % kMarkers};
    for (std::size_t tries = 0; st.color.empty() && tries < std::size(kPalette); ++tries) {
      const char* c = kPalette[next++ % std::size(kPalette)];
      if (!taken(c)) st.color = c;
    }
    if (st.color.empty()) st.color = kPalette[styles.size() % std::size(kPalette)];
    styles.push_back(std::move(st));
  }
  return styles;
}

// The largest of B, KiB, ..., TiB not above v (B for v < 1 KiB).
double binary_unit(double v) {
  double u = 1.0;
  while (u * 1024.0 <= v * (1 + 1e-12) && u < 1099511627776.0) u *= 1024.0;
  return u;
}

}  // namespace

std::vector<double> axis_ticks(double lo, double hi, bool log, int target) {
  std::vector<double> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) || (log && lo <= 0.0)) return ticks;
  if (log) {
    const bool fine = std::log10(hi / lo) < 3.0;
    std::vector<double> linear = axis_ticks(lo, hi, false, target);
    if (fine && std::log10(hi / lo) < 0.4) return linear;  // fewer than two 1-2-5 steps
    for (int e = static_cast<int>(std::floor(std::log10(lo))); e <= std::ceil(std::log10(hi)); ++e)
      for (double m : {1.0, 2.0, 5.0}) {
        const double t = m * std::pow(10.0, e);
        if ((fine || m == 1.0) && t >= lo * (1 - 1e-12) && t <= hi * (1 + 1e-12))
          ticks.push_back(t);
      }
    return ticks.size() >= 2 ? ticks : linear;
  }
  // step = m x 10^e; ticks are computed as k·m scaled by 10^e in one operation (dividing for
  // negative e), so 0.6 prints as 0.6 and not 0.6000000000000001.
  const double raw = (hi - lo) / std::max(target, 1);
  const int e = static_cast<int>(std::floor(std::log10(raw)));
  double m = 10.0;
  for (double c : {1.0, 2.0, 5.0})
    if (c * std::pow(10.0, e) >= raw) {
      m = c;
      break;
    }
  const double scale = std::pow(10.0, std::abs(e));
  auto tick = [&](long long k) {
    const double km = static_cast<double>(k) * m;
    return e < 0 ? km / scale : km * scale;
  };
  const double step = tick(1);
  for (long long k = static_cast<long long>(std::ceil(lo / step - 1e-9));
       tick(k) <= hi + step * 1e-9; ++k)
    ticks.push_back(tick(k));
  // The 1-2-5 step above range/target can leave as few as two ticks: ask for a finer one.
  if (ticks.size() < 4 && target < 24) return axis_ticks(lo, hi, false, target * 2);
  return ticks;
}

std::vector<double> byte_ticks(double lo, double hi, bool log, int target) {
  std::vector<double> ticks;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi) || (log && lo <= 0.0)) return ticks;
  if (!log || hi / lo < 8.0) {  // linear, or too narrow for three powers of two
    const double u = binary_unit(std::max(std::abs(lo), std::abs(hi)));
    for (double t : axis_ticks(lo / u, hi / u, false, target)) ticks.push_back(t * u);
    return ticks;
  }
  const int k0 = static_cast<int>(std::ceil(std::log2(lo) - 1e-9));
  const int k1 = static_cast<int>(std::floor(std::log2(hi) + 1e-9));
  auto fits = [&](int stride) { return (k1 - k0) / stride + 1 <= target + 4; };
  int stride = 1;
  for (int m = 1; !fits(stride); m *= 10)
    for (int c : {1, 2, 5})
      if (!fits(stride)) stride = c * m;
  for (int k = k0; k <= k1; ++k)
    if (k % stride == 0) ticks.push_back(std::ldexp(1.0, k));
  return ticks;
}

std::string tick_label(double v, AxisUnit unit) {
  if (unit == AxisUnit::none) return number(v);
  if (std::abs(v) < 1e-15) return "0";
  std::string s = unit == AxisUnit::seconds ? format_time(v) : format_bytes(v);
  const std::size_t at = s.find_first_not_of("0123456789.-+e");
  std::string suffix = s.substr(at);
  if (suffix == "us") suffix = "µs";
  return s.substr(0, at) + " " + suffix;
}

std::string render_svg(const LinePlot& plot) {
  const double right = plot.width - kLegend;
  const Scale sx = make_scale(plot.x, all_values(plot, true), kLeft, right);
  const Scale sy = make_scale(plot.y, all_values(plot, false), plot.height - kBottom, kTop);
  const std::vector<Style> styles = series_styles(plot);
  std::string out = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" width="{0}" height="{1}" viewBox="0 0 {0} {1}" )"
      R"(font-family="sans-serif" font-size="12">)"
      "\n"
      R"(<rect width="{0}" height="{1}" fill="white"/>)"
      "\n",
      plot.width, plot.height);
  draw_axes(out, plot, sx, sy);
  // Clip the data to the plot area (padded so markers on the border stay whole).
  out += fmt::format(
      R"(<clipPath id="plot-area"><rect x="{}" y="{}" width="{}" height="{}"/></clipPath>)"
      "\n"
      R"svg(<g clip-path="url(#plot-area)">)svg"
      "\n",
      sx.px0 - 4, sy.px1 - 4, right - sx.px0 + 8, sy.px0 - sy.px1 + 8);
  std::vector<bool> drawn;
  for (std::size_t k = 0; k < plot.series.size(); ++k)
    drawn.push_back(draw_series(out, plot.series[k], styles[k], sx, sy));
  out += "</g>\n";
  draw_legend(out, plot, styles, drawn, right + 14);
  out += "</svg>\n";
  return out;
}

}  // namespace flux::report
