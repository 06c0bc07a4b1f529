// Per-GPU timeline: compute slices, the messages each GPU sends (while on the wire) and the time
// they waited for a circuit after they were ready (stalls), with the critical path outlined.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "report_html/chart_util.hpp"
#include "report_html/critical_path.hpp"
#include "report_html/sections.hpp"

namespace flux::report_html {
namespace {

constexpr int kMaxGpus = 32;                // rows drawn; a larger run shows a chosen few
constexpr std::size_t kMergeAbove = 30000;  // items past which neighbouring slices merge
constexpr std::size_t kNamesBelow = 20000;  // items below which each carries its task name

enum Lane { kCompute = 0, kSend = 1, kWait = 2 };
const char* const kLaneNames[] = {"compute", "send", "waiting for a circuit"};

struct Item {
  int gpu;
  Lane lane;
  double start, end;
  bool critical;
  const std::string* name;
  int merged = 1;
};

// The GPUs drawn: all of a small run; else the critical path's GPUs first, then the lowest ids.
std::vector<int> shown_gpus(const RunData& r, const CriticalPath& p) {
  std::vector<int> out;
  auto add = [&out](int g) {
    if (static_cast<int>(out.size()) < kMaxGpus &&
        std::find(out.begin(), out.end(), g) == out.end())
      out.push_back(g);
  };
  for (std::size_t i : p.compute) add((*r.compute)[i].gpu);
  for (std::size_t i : p.flows) add((*r.flows)[i].src);
  for (int g = 0; g < r.gpus; ++g) add(g);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Item> items(const RunData& r, const CriticalPath& p, const std::vector<int>& gpus) {
  std::vector<char> shown(static_cast<std::size_t>(r.gpus), 0);
  for (int g : gpus) shown[static_cast<std::size_t>(g)] = 1;
  std::vector<char> crit_c(r.compute ? r.compute->size() : 0, 0),
      crit_f(r.flows ? r.flows->size() : 0, 0);
  for (std::size_t i : p.compute) crit_c[i] = 1;
  for (std::size_t i : p.flows) crit_f[i] = 1;
  std::vector<Item> out;
  if (r.compute)
    for (std::size_t i = 0; i < r.compute->size(); ++i) {
      const ComputeSlice& c = (*r.compute)[i];
      if (shown[static_cast<std::size_t>(c.gpu)])
        out.push_back({c.gpu, kCompute, c.start, c.end, crit_c[i] != 0, &c.name});
    }
  if (r.flows)
    for (std::size_t i = 0; i < r.flows->size(); ++i) {
      const FlowRow& f = (*r.flows)[i];
      if (!shown[static_cast<std::size_t>(f.src)]) continue;
      out.push_back({f.src, kSend, f.start, f.finish, crit_f[i] != 0, &f.name});
      if (f.start > f.ready)
        out.push_back({f.src, kWait, f.ready, f.start, crit_f[i] != 0, &f.name});
    }
  return out;
}

// Neighbouring slices of one lane closer than `gap` become one bar (critical ones stay).
std::vector<Item> merged(std::vector<Item> in, double gap) {
  std::sort(in.begin(), in.end(), [](const Item& a, const Item& b) {
    return std::tie(a.gpu, a.lane, a.start) < std::tie(b.gpu, b.lane, b.start);
  });
  std::vector<Item> out;
  for (const Item& it : in) {
    Item* last = out.empty() ? nullptr : &out.back();
    if (last && !it.critical && !last->critical && last->gpu == it.gpu && last->lane == it.lane &&
        it.start <= last->end + gap) {
      last->end = std::max(last->end, it.end);
      last->merged += it.merged;
      last->name = nullptr;
    } else {
      out.push_back(it);
    }
  }
  return out;
}

Chart timeline(const std::vector<Item>& all, bool names) {
  Spec values = Spec::array();
  for (const Item& it : all) {
    Spec v = {{"g", it.gpu},
              {"l", kLaneNames[it.lane]},
              {"s", ms(it.start)},
              {"e", ms(it.end)},
              {"c", it.critical ? 1 : 0}};
    if (names && it.name) v["n"] = *it.name;
    if (it.merged > 1) v["merged"] = it.merged;
    values.push_back(std::move(v));
  }
  Spec spec = unit_spec(values, 1100);
  spec["height"] = {{"step", 24}};
  const Spec y = {{"field", "g"}, {"type", "ordinal"}, {"title", "GPU"}};
  const Spec x = {{"field", "s"}, {"type", "quantitative"}, {"title", "time (ms)"}};
  const Spec lanes = {kLaneNames[0], kLaneNames[1], kLaneNames[2]};
  const Spec offset = {{"field", "l"}, {"type", "nominal"}, {"scale", {{"domain", lanes}}}};
  Spec tooltip = {{{"field", "n"}, {"title", "task"}},
                  {{"field", "l"}, {"title", "what"}},
                  {{"field", "s"}, {"title", "start (ms)"}},
                  {{"field", "e"}, {"title", "end (ms)"}}};
  spec["layer"] = {
      {{"params", {zoom_param()}},
       {"mark", {{"type", "bar"}}},
       {"encoding",
        {{"y", y},
         {"yOffset", offset},
         {"x", x},
         {"x2", {{"field", "e"}}},
         {"color",
          {{"field", "l"},
           {"type", "nominal"},
           {"title", nullptr},
           {"scale", {{"domain", lanes}, {"range", {"#4c78a8", "#f58518", "#e45756"}}}}}},
         {"tooltip", tooltip}}}},
      {{"transform", {{{"filter", "datum.c == 1"}}}},
       {"mark",
        {{"type", "bar"},
         {"fill", nullptr},
         {"fillOpacity", 0},
         {"stroke", "#000"},
         {"strokeWidth", 2}}},
       {"encoding",
        {{"y", y},
         {"yOffset", offset},
         {"x", x},
         {"x2", {{"field", "e"}}},
         {"tooltip", tooltip}}}}};
  return {spec, values.size() > kCanvasAbove};
}

}  // namespace

std::optional<Section> gpu_section(const ReportInputs& in) {
  Section s{"gpus", "GPU timeline and critical path", {}};
  s.blocks.push_back(
      {"<p class=note>Per GPU: compute (blue), the messages it sends while on the wire (orange) "
       "and the time a ready message waited for its circuit (red: a stall). Gaps in the compute "
       "lane are the GPU idle. Outlined in black: the critical path, recovered from the trace "
       "(the outputs hold no dependency edges): from the activity that ends last, each step goes "
       "back to whatever ended last on that GPU by the time the current activity could start — "
       "its previous compute slice or a message that arrived.</p>\n",
       std::nullopt});
  for (const RunData& r : in.runs) {
    if (!r.compute && !r.flows) continue;
    static const std::vector<ComputeSlice> no_compute;
    static const std::vector<FlowRow> no_flows;
    const CriticalPath p = trace_critical_path(r.compute ? *r.compute : no_compute,
                                               r.flows ? *r.flows : no_flows, r.gpus);
    const std::vector<int> gpus = shown_gpus(r, p);
    std::vector<Item> all = items(r, p, gpus);
    std::string head = fmt::format(
        "<h3>{}</h3>\n<p class=note>Critical path: {} compute slices "
        "and {} messages.",
        report::escape_markup(r.label), p.compute.size(), p.flows.size());
    if (static_cast<int>(gpus.size()) < r.gpus)
      head += fmt::format(
          " Shown: {} of {} GPUs (those on the critical path first, then the "
          "lowest ids).",
          gpus.size(), r.gpus);
    if (all.size() > kMergeAbove) {
      double end = 0;
      for (const Item& it : all) end = std::max(end, it.end);
      const std::size_t before = all.size();
      all = merged(std::move(all), end / 4000);
      head += fmt::format(
          " Aggregated: slices of one lane less than {:.3g} ms apart are drawn "
          "as one bar ({} slices, {} bars).",
          end / 4000 * 1e3, before, all.size());
    }
    s.blocks.push_back({head + "</p>\n", timeline(all, all.size() < kNamesBelow)});
  }
  if (s.blocks.size() == 1) return std::nullopt;
  return s;
}

}  // namespace flux::report_html
