// Demand heatmaps (bytes each GPU sends each other GPU in a run's flows.csv, or a flux.demand/1
// matrix) and the slots of matrix schedules per switch with the δ gaps before them.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/matrix.hpp"
#include "report_html/chart_util.hpp"
#include "report_html/sections.hpp"

namespace flux::report_html {
namespace {

constexpr int kMaxCells = 64;  // a larger matrix is summed over blocks of ports

Matrix flow_demand(const RunData& r) {
  Matrix m(r.gpus);
  for (const FlowRow& f : *r.flows) m(f.src, f.dst) += f.bytes;
  return m;
}

Block heatmap(const Matrix& m, const std::string& title, const char* unit, double scale) {
  const int n = m.n();
  const int block = (n + kMaxCells - 1) / kMaxCells;
  const int cells = (n + block - 1) / block;
  Matrix sum(cells);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) sum(i / block, j / block) += m(i, j);
  Spec values = Spec::array();
  for (int i = 0; i < cells; ++i)
    for (int j = 0; j < cells; ++j)
      if (sum(i, j) > 0)
        values.push_back({{"src", i * block}, {"dst", j * block}, {"v", sum(i, j) / scale}});
  Spec spec = unit_spec(values, 16 * cells < 300 ? 300 : std::min(16 * cells, 640));
  spec["height"] = spec["width"];
  const std::string axis = block > 1 ? fmt::format(" (blocks of {})", block) : "";
  spec["mark"] = {{"type", "rect"}, {"tooltip", true}};
  spec["encoding"] = {{"x",
                       {{"field", "dst"},
                        {"type", "ordinal"},
                        {"title", "destination" + axis},
                        {"scale", {{"domain", Spec::array()}}}}},
                      {"y", {{"field", "src"}, {"type", "ordinal"}, {"title", "source" + axis}}},
                      {"color",
                       {{"field", "v"},
                        {"type", "quantitative"},
                        {"title", unit},
                        {"scale", {{"scheme", "viridis"}, {"type", "sqrt"}}}}}};
  Spec domain = Spec::array();
  for (int i = 0; i < cells; ++i) domain.push_back(i * block);
  spec["encoding"]["x"]["scale"]["domain"] = domain;
  spec["encoding"]["y"]["scale"] = {{"domain", domain}};
  std::string note = fmt::format("<h3>{}</h3>\n", report::escape_markup(title));
  if (block > 1)
    note += fmt::format(
        "<p class=note>Aggregated: {} ports summed over blocks of {} "
        "({} × {} cells).</p>\n",
        n, block, cells, cells);
  return {note, Chart{spec}};
}

// Slots (all-stop) or circuits (per-port) per switch against time, δ before each one dark.
Block slots_chart(const std::string& source, const matrix::MatrixSchedule& s) {
  Spec values = Spec::array();
  const bool per_port = s.reconfiguration == matrix::Reconfiguration::per_port;
  // `order` sorts rows by number (port 2 before port 10).
  auto add = [&](const std::string& row, int order, double start, double end,
                 const std::string& what) {
    if (s.delta > 0)
      values.push_back({{"row", row},
                        {"o", order},
                        {"s", std::max(0.0, start - s.delta)},
                        {"e", start},
                        {"k", "δ (reconfiguring)"}});
    values.push_back({{"row", row}, {"o", order}, {"s", start}, {"e", end}, {"k", what}});
  };
  if (per_port)
    for (const matrix::PortCircuit& c : s.circuits)
      add(fmt::format("switch {} · port {}", c.sw, c.src), c.sw * (s.n + 1) + c.src, c.start, c.end,
          "circuit");
  else
    for (const matrix::Slot& sl : s.slots)
      add(fmt::format("switch {}", sl.sw), sl.sw, sl.start, sl.end, "slot");
  Spec spec = unit_spec(values, 1100);
  spec["height"] = {{"step", per_port ? 10 : 22}};
  spec["params"] = {zoom_param()};
  spec["mark"] = {{"type", "bar"}, {"tooltip", true}, {"stroke", "#fff"}, {"strokeWidth", 0.5}};
  spec["encoding"] = {{"y",
                       {{"field", "row"},
                        {"type", "nominal"},
                        {"title", nullptr},
                        {"sort", {{"field", "o"}, {"op", "min"}}}}},
                      {"x",
                       {{"field", "s"},
                        {"type", "quantitative"},
                        {"title", s.rate == 1.0 ? "time (normalised)" : "time (s)"}}},
                      {"x2", {{"field", "e"}}},
                      {"color",
                       {{"field", "k"},
                        {"type", "nominal"},
                        {"title", nullptr},
                        {"scale",
                         {{"domain", {per_port ? "circuit" : "slot", "δ (reconfiguring)"}},
                          {"range", {"#4c78a8", "#222"}}}}}}};
  const std::string note = fmt::format(
      "<h3>{} ({}, {} ports, {} switches, δ = {:.4g})</h3>\n<p class=note>Makespan {:.6g}, "
      "lower bound {:.6g}. Each bar is one {} held by a switch; black: δ before it.</p>\n",
      report::escape_markup(source), report::escape_markup(s.algorithm), s.n, s.switches, s.delta,
      s.makespan, s.lower_bound, per_port ? "circuit" : "configuration (a matching)");
  return {note, Chart{spec, values.size() > kCanvasAbove}};
}

}  // namespace

std::optional<Section> matrix_section(const ReportInputs& in) {
  Section s{"matrices", "Demand and matrix schedules", {}};
  std::set<std::string> workloads;  // runs of one workload share one demand: drawn once
  for (const RunData& r : in.runs) {
    if (!r.flows || r.flows->empty()) continue;
    std::string workload = r.summary ? (*r.summary)["scenario"].value("workload", "") : "";
    if (!workload.empty() && !workloads.insert(workload).second) continue;
    s.blocks.push_back(heatmap(flow_demand(r),
                               fmt::format("Bytes sent per GPU pair in one iteration: {}{}",
                                           workload.empty() ? r.label : workload,
                                           workload.empty() ? "" : " (every run of it)"),
                               "MiB", 1024.0 * 1024.0));
  }
  for (const auto& [path, d] : in.demands)
    s.blocks.push_back(heatmap(d.matrix, "Demand matrix " + path,
                               d.unit == matrix::DemandUnit::bytes ? "MiB" : "normalised",
                               d.unit == matrix::DemandUnit::bytes ? 1024.0 * 1024.0 : 1.0));
  for (const auto& [path, m] : in.matrix_schedules) s.blocks.push_back(slots_chart(path, m));
  if (s.blocks.empty()) return std::nullopt;
  return s;
}

}  // namespace flux::report_html
