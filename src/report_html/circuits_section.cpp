// Per-OCS circuit timeline: a row per (OCS, GPU port), a bar per circuit coloured by the partner
// GPU, and the dark interval τ before each change of partner (the rule the simulator's Chrome
// trace uses). Zoomable in time; controls pick the OCS and the range of GPUs shown.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/units.hpp"
#include "report_html/chart_util.hpp"
#include "report_html/sections.hpp"

namespace flux::report_html {
namespace {

constexpr std::size_t kMaxBars = 150000;  // keeps a 1,024-GPU page within a few MB here
constexpr int kRowsShown = 32;            // GPUs shown at first on a large fabric

struct Bar {
  int sw, gpu, partner;
  double start, end;
  bool dark;
};

bool initial_config_free(const RunData& r) {
  if (!r.summary) return false;
  const auto* f = &(*r.summary)["scenario"]["fabric"];
  return f->is_object() && f->value("initial_config_free", false);
}

std::vector<Bar> bars(const RunData& r) {
  std::vector<CircuitRow> circuits = *r.circuits;
  std::stable_sort(circuits.begin(), circuits.end(),
                   [](const CircuitRow& a, const CircuitRow& b) { return a.up < b.up; });
  const bool free_start = initial_config_free(r);
  std::map<std::pair<int, int>, int> partner;  // current partner of (switch, gpu)
  std::vector<Bar> out;
  for (const CircuitRow& c : circuits)
    for (auto [g, other] : {std::pair{c.a, c.b}, std::pair{c.b, c.a}}) {
      auto it = partner.find({c.sw, g});
      const bool changed = it == partner.end() ? !free_start : it->second != other;
      partner[{c.sw, g}] = other;
      if (changed && r.tau > 0)
        out.push_back({c.sw, g, other, std::max(0.0, c.up - r.tau), c.up, true});
      out.push_back({c.sw, g, other, c.up, c.down, false});
    }
  return out;
}

// The GPUs kept when the bars exceed the budget: the lowest ids whose bars fit.
int gpus_kept(const std::vector<Bar>& all, int gpus) {
  std::vector<std::size_t> per_gpu(static_cast<std::size_t>(gpus), 0);
  for (const Bar& b : all) ++per_gpu[static_cast<std::size_t>(b.gpu)];
  std::size_t total = 0;
  for (int g = 0; g < gpus; ++g) {
    total += per_gpu[static_cast<std::size_t>(g)];
    if (total > kMaxBars) return std::max(g, 1);
  }
  return gpus;
}

Spec controls(const RunData& r, int kept) {
  Spec options = {-1}, labels = {"all"};
  for (int s = 0; s < r.ocs; ++s) {
    options.push_back(s);
    labels.push_back(fmt::format("{}", s));
  }
  const bool large = kept > kRowsShown;
  return {
      {{"name", "ocs_pick"},
       {"value", large ? 0 : -1},
       {"bind", {{"input", "select"}, {"options", options}, {"labels", labels}, {"name", "OCS "}}}},
      {{"name", "gpu_from"},
       {"value", 0},
       {"bind",
        {{"input", "range"}, {"min", 0}, {"max", kept - 1}, {"step", 1}, {"name", "first GPU "}}}},
      {{"name", "gpu_count"},
       {"value", std::min(kept, kRowsShown)},
       {"bind",
        {{"input", "range"},
         {"min", 1},
         {"max", std::min(kept, 256)},
         {"step", 1},
         {"name", "GPUs shown "}}}}};
}

// The typical circuit length, to tell whether circuits are thinner than a pixel.
double median_length(const std::vector<Bar>& all) {
  std::vector<double> lengths;
  for (const Bar& b : all)
    if (!b.dark) lengths.push_back(b.end - b.start);
  if (lengths.empty()) return 0;
  std::nth_element(lengths.begin(), lengths.begin() + lengths.size() / 2, lengths.end());
  return lengths[lengths.size() / 2];
}

constexpr int kWidth = 1100;  // pixels of the time axis

Chart gantt(const RunData& r, const std::vector<Bar>& all, int kept, bool thin) {
  Spec values = Spec::array();
  std::size_t marks = 0;
  for (const Bar& b : all) {
    if (b.gpu >= kept) continue;
    values.push_back({{"sw", b.sw},
                      {"gpu", b.gpu},
                      {"p", b.partner},
                      {"s", ms(b.start)},
                      {"e", ms(b.end)},
                      {"d", b.dark ? 1 : 0}});
    ++marks;
  }
  Spec spec = unit_spec(values, kWidth);
  spec["height"] = {{"step", r.gpus > kRowsShown ? 9 : 13}};
  spec["params"] = controls(r, kept);
  spec["transform"] = {{{"filter",
                         "(ocs_pick < 0 || datum.sw == ocs_pick) && datum.gpu >= gpu_from && "
                         "datum.gpu < gpu_from + gpu_count"}},
                       {{"calculate", "'ocs ' + datum.sw + ' · gpu ' + datum.gpu"}, {"as", "port"}},
                       {{"calculate", "datum.sw * 1e7 + datum.gpu"}, {"as", "order"}}};
  const Spec y = {{"field", "port"},
                  {"type", "nominal"},
                  {"title", nullptr},
                  {"sort", {{"field", "order"}, {"op", "min"}}}};
  Spec x = {{"field", "s"}, {"type", "quantitative"}, {"title", "time (ms)"}};
  Spec partner = r.gpus <= 20 ? Spec{{"field", "p"},
                                     {"type", "nominal"},
                                     {"title", "partner GPU"},
                                     {"scale", {{"scheme", "category20"}}}}
                              : Spec{{"field", "p"},
                                     {"type", "quantitative"},
                                     {"title", "partner GPU"},
                                     {"scale", {{"scheme", "rainbow"}}}};
  Spec circuits = {{"y", y}, {"x", x}, {"x2", {{"field", "e"}}}, {"color", partner}};
  if (thin) {  // a stroke in the bar's colour keeps a sub-pixel bar visible
    circuits["stroke"] = partner;
    circuits["stroke"]["legend"] = nullptr;
  }
  spec["layer"] = {
      {{"params", {zoom_param()}},
       {"transform", {{{"filter", "datum.d == 0"}}}},
       {"mark", {{"type", "bar"}, {"tooltip", true}, {"clip", true}}},
       {"encoding", circuits}},
      {{"transform", {{{"filter", "datum.d == 1"}}}},
       {"mark", {{"type", "bar"}, {"color", "#222"}, {"tooltip", true}, {"clip", true}}},
       {"encoding", {{"y", y}, {"x", x}, {"x2", {{"field", "e"}}}}}}};
  return {spec, marks > kCanvasAbove};
}

}  // namespace

std::optional<Section> circuits_section(const ReportInputs& in) {
  Section s{"circuits", "Circuit timeline per OCS", {}};
  s.blocks.push_back(
      {"<p class=note>One row per OCS port (an OCS and a GPU), a bar per circuit coloured by the "
       "GPU at its other end; black: the port is dark for τ before a change of partner. Drag to "
       "pan, scroll to zoom in time; the controls under a chart pick the OCS and the GPUs shown."
       "</p>\n",
       std::nullopt});
  for (const RunData& r : in.runs) {
    if (!r.circuits || r.circuits->empty()) continue;
    const std::vector<Bar> all = bars(r);
    const int kept = gpus_kept(all, r.gpus);
    std::string head = fmt::format("<h3>{}</h3>\n", report::escape_markup(r.label));
    if (kept < r.gpus)
      head += fmt::format(
          "<p class=note>Aggregated: {} circuit bars in all; GPUs 0–{} are kept ({} GPUs) to "
          "keep the page small.</p>\n",
          all.size(), kept - 1, kept);
    double end = 0;
    for (const Bar& b : all) end = std::max(end, b.end);
    const double typical = median_length(all);
    const bool thin = typical * kWidth < end;
    if (thin)
      head += fmt::format(
          "<p class=note>Circuits here last about {} of a {} iteration, less than "
          "a pixel: each bar is outlined so that it shows at least one pixel wide. Zoom in to "
          "see their lengths.</p>\n",
          format_time(typical), format_time(end));
    s.blocks.push_back({head, gantt(r, all, kept, thin)});
  }
  if (s.blocks.size() == 1) return std::nullopt;
  return s;
}

}  // namespace flux::report_html
