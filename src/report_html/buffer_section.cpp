// NIC buffer over time: the total over all GPUs and the busiest GPUs' curves, peaks marked.
// nic_buffer.csv has one row per (breakpoint, GPU whose buffer changed), linear in between.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/units.hpp"
#include "report_html/chart_util.hpp"
#include "report_html/sections.hpp"

namespace flux::report_html {
namespace {

constexpr int kBusiest = 8;          // GPUs drawn one by one
constexpr int kGrid = 1500;          // points of the total curve
constexpr std::size_t kKeep = 3000;  // points per GPU curve before it is thinned

using Series = std::vector<std::pair<double, double>>;  // (time, bytes), by time

std::vector<Series> per_gpu(const std::vector<BufferRow>& rows, int gpus) {
  std::vector<Series> out(static_cast<std::size_t>(gpus));
  for (const BufferRow& b : rows) out[static_cast<std::size_t>(b.gpu)].push_back({b.time, b.nic});
  for (Series& s : out)
    std::stable_sort(s.begin(), s.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

// Value of a piecewise-linear series at `t` (0 before its first point, held after its last);
// `at` walks forward with increasing t.
double value_at(const Series& s, double t, std::size_t& at) {
  while (at < s.size() && s[at].first <= t) ++at;
  if (at == 0) return 0;
  if (at == s.size()) return s.back().second;
  const auto [t0, v0] = s[at - 1];
  const auto [t1, v1] = s[at];
  return t1 > t0 ? v0 + (v1 - v0) * (t - t0) / (t1 - t0) : v1;
}

// A long curve keeps, per time bucket, its lowest and highest points: the shape and the peak
// survive.
Series thinned(const Series& s, double end) {
  if (s.size() <= kKeep) return s;
  const std::size_t buckets = kKeep / 2;
  Series out;
  std::size_t i = 0;
  for (std::size_t b = 0; b < buckets && i < s.size(); ++b) {
    const double until = end * static_cast<double>(b + 1) / static_cast<double>(buckets);
    std::size_t lo = i, hi = i;
    for (; i < s.size() && (s[i].first <= until || b + 1 == buckets); ++i) {
      if (s[i].second < s[lo].second) lo = i;
      if (s[i].second > s[hi].second) hi = i;
    }
    out.push_back(s[std::min(lo, hi)]);
    if (lo != hi) out.push_back(s[std::max(lo, hi)]);
  }
  return out;
}

Spec line_chart(Spec values, Spec peaks, const char* title, bool by_gpu) {
  Spec spec = unit_spec(std::move(values), 1100);
  spec["height"] = 220;
  const Spec x = {{"field", "t"}, {"type", "quantitative"}, {"title", "time (ms)"}};
  const Spec y = {{"field", "v"}, {"type", "quantitative"}, {"title", title}};
  Spec line = {{"params", {zoom_param()}},
               {"mark", {{"type", "line"}, {"interpolate", "linear"}, {"tooltip", true}}},
               {"encoding", {{"x", x}, {"y", y}}}};
  if (by_gpu) line["encoding"]["color"] = {{"field", "gpu"}, {"type", "nominal"}, {"title", "GPU"}};
  spec["layer"] = {line,
                   {{"data", {{"values", peaks}}},
                    {"mark",
                     {{"type", "point"},
                      {"shape", "triangle-down"},
                      {"size", 120},
                      {"filled", true},
                      {"color", "#d62728"},
                      {"tooltip", true}}},
                    {"encoding", {{"x", x}, {"y", y}}}},
                   {{"data", {{"values", peaks}}},
                    {"mark",
                     {{"type", "text"},
                      {"align", "left"},
                      {"baseline", "top"},
                      {"dx", 10},
                      {"dy", 4},
                      {"color", "#d62728"},
                      {"fontWeight", "bold"}}},
                    {"encoding", {{"x", x}, {"y", y}, {"text", {{"field", "label"}}}}}}};
  return spec;
}

Block buffer_block(const RunData& r) {
  const std::vector<Series> series = per_gpu(*r.buffer, r.gpus);
  double end = 0;
  for (const BufferRow& b : *r.buffer) end = std::max(end, b.time);
  // Total on a uniform grid (each GPU interpolated), and its peak on that grid.
  std::vector<double> total(kGrid + 1, 0.0);
  for (const Series& s : series) {
    std::size_t at = 0;
    for (int k = 0; k <= kGrid; ++k) total[k] += value_at(s, end * k / kGrid, at);
  }
  Spec tv = Spec::array();
  int tk = 0;
  for (int k = 0; k <= kGrid; ++k) {
    tv.push_back({{"t", ms(end * k / kGrid)}, {"v", mib(total[k])}});
    if (total[k] > total[tk]) tk = k;
  }
  Spec tpeak = {{{"t", ms(end * tk / kGrid)},
                 {"v", mib(total[tk])},
                 {"label", "peak " + format_bytes(total[tk])}}};
  // The busiest GPUs by their own peak.
  std::vector<std::pair<double, int>> peaks;
  for (int g = 0; g < r.gpus; ++g) {
    double p = 0;
    for (const auto& [t, v] : series[static_cast<std::size_t>(g)]) p = std::max(p, v);
    if (p > 0) peaks.push_back({-p, g});
  }
  std::sort(peaks.begin(), peaks.end());
  // GPUs of one parallel group often have the very same curve: each curve is drawn once.
  std::vector<std::pair<double, int>> distinct;
  int repeats = 0;
  for (const auto& pg : peaks) {
    if (distinct.size() == kBusiest) break;
    const Series& s = series[static_cast<std::size_t>(pg.second)];
    const bool seen = std::any_of(distinct.begin(), distinct.end(), [&](const auto& d) {
      return series[static_cast<std::size_t>(d.second)] == s;
    });
    if (seen)
      ++repeats;
    else
      distinct.push_back(pg);
  }
  peaks = std::move(distinct);
  Spec gv = Spec::array(), gpeak = Spec::array();
  for (const auto& [neg, g] : peaks) {
    const Series& s = series[static_cast<std::size_t>(g)];
    for (const auto& [t, v] : thinned(s, end))
      gv.push_back({{"gpu", g}, {"t", ms(t)}, {"v", mib(v)}});
    auto top = std::max_element(s.begin(), s.end(),
                                [](const auto& a, const auto& b) { return a.second < b.second; });
    if (g == peaks.front().second)
      gpeak.push_back({{"t", ms(top->first)},
                       {"v", mib(top->second)},
                       {"label", fmt::format("peak {} (GPU {})", format_bytes(-neg), g)}});
  }
  Spec spec = {{"$schema", "https://vega.github.io/schema/vega-lite/v6.json"},
               {"vconcat",
                {line_chart(tv, tpeak, "all GPUs (MiB)", false),
                 line_chart(gv, gpeak, "busiest GPUs (MiB)", true)}}};
  spec["vconcat"][0].erase("$schema");
  spec["vconcat"][1].erase("$schema");
  const std::string note = fmt::format(
      "<h3>{}</h3>\n<p class=note>Top: the sum over all {} GPUs, sampled at {} evenly spaced "
      "times. Bottom: the {} GPUs with the highest peak{}{}.</p>\n",
      report::escape_markup(r.label), r.gpus, kGrid + 1, peaks.size(),
      repeats ? fmt::format(" with distinct curves; {} GPUs busier than the last one shown "
                            "repeat a curve shown and are skipped",
                            repeats)
              : "",
      r.buffer->size() > kKeep ? fmt::format("; curves longer than {} points keep each time "
                                             "bucket's lowest and highest point",
                                             kKeep)
                               : "");
  return {note, Chart{spec}};
}

}  // namespace

std::optional<Section> buffer_section(const ReportInputs& in) {
  Section s{"buffer", "NIC buffer over time", {}};
  for (const RunData& r : in.runs)
    if (r.buffer && !r.buffer->empty()) s.blocks.push_back(buffer_block(r));
  if (s.blocks.empty()) return std::nullopt;
  return s;
}

}  // namespace flux::report_html
