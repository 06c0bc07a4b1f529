#include "sweep/sweep_results.hpp"

#include <filesystem>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "report/csv.hpp"

namespace flux::sweep {

namespace fs = std::filesystem;

namespace {

using Json = nlohmann::json;

struct Metric {
  const char* key;     // in summary.json
  const char* column;  // in the table
};

// The run's metrics as flux.summary/1 names them, with their units.
constexpr Metric kMetrics[] = {{"iteration_time", "iteration_time_s"},
                               {"compute_critical_path", "compute_critical_path_s"},
                               {"exposed_comm", "exposed_comm_s"},
                               {"lower_bound", "lower_bound_s"},
                               {"peak_nic_buffer", "peak_nic_buffer_B"},
                               {"mean_nic_buffer", "mean_nic_buffer_B"},
                               {"peak_nic_buffer_total", "peak_nic_buffer_total_B"},
                               {"peak_waiting_bytes", "peak_waiting_B"},
                               {"peak_hbm_held", "peak_hbm_held_B"},
                               {"peak_nic_buffer_eager", "peak_nic_buffer_eager_B"},
                               {"reconfigurations", "reconfigurations"},
                               {"dark_time", "dark_time_s"},
                               {"circuit_utilization", "circuit_utilization"},
                               {"bytes_injected", "bytes_injected_B"},
                               {"bytes_delivered", "bytes_delivered_B"},
                               {"hops", "hops"},
                               {"events", "events"}};
// The solver block of schedulers that solve an optimisation problem (empty for the others).
constexpr Metric kSolver[] = {{"status", "solver_status"},
                              {"objective", "solver_objective_s"},
                              {"bound", "solver_bound_s"},
                              {"gap", "solver_gap"}};

std::string field_text(const Json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return v.dump();
  if (v.is_number()) return fmt::format("{}", v.get<double>());
  return v.dump();
}

enum class CellState { done, failed, missing };

struct CellRecord {
  CellState state = CellState::missing;
  double wall = 0;
  std::string error;
};

CellRecord read_status(const SweepDir& dir, const std::string& id) {
  const fs::path file = fs::path(dir.cell(id)) / "status.json";
  if (!fs::exists(dir.cell(id))) return {};
  const JsonNode root = JsonNode::load(file.string());
  root.expect_keys({"format", "id", "status", "wall_s", "error"});
  root.expect_format("flux.sweep-cell", 1);
  CellRecord r;
  const std::string status = root["status"].string();
  if (status != "done" && status != "failed") root["status"].fail("\"done\" or \"failed\"");
  r.state = status == "done" ? CellState::done : CellState::failed;
  r.wall = root["wall_s"].non_negative();
  if (auto e = root.find("error")) r.error = e->string();
  return r;
}

}  // namespace

SweepStatus sweep_status(const SweepDir& dir) {
  const SweepPlanFile plan = read_plan_file(dir);
  SweepStatus s;
  s.cells = plan.cells.size();
  for (const PlannedCell& c : plan.cells) {
    const CellState state = read_status(dir, c.id).state;
    (state == CellState::done ? s.done : state == CellState::failed ? s.failed : s.missing)++;
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir.cells(), ec))
    if (entry.path().filename().string().rfind(".partial-", 0) == 0) ++s.partial;
  return s;
}

std::string merge_sweep(const SweepDir& dir) {
  const SweepPlanFile plan = read_plan_file(dir);
  std::string out;
  auto field = [&out](std::string_view text, bool first = false) {
    if (!first) out += ',';
    report::append_csv_field(out, text);
  };
  field("cell", true);
  field("status");
  for (const std::string& a : plan.axes) field(a);
  for (const Metric& m : kMetrics) field(m.column);
  for (const Metric& m : kSolver) field(m.column);
  field("wall_s");
  field("error");
  out += '\n';
  auto member = [](const Json& j, const char* key) {
    return j.is_object() && j.contains(key) ? j[key] : Json();
  };
  for (const PlannedCell& c : plan.cells) {
    const CellRecord r = read_status(dir, c.id);
    field(c.id, true);
    field(r.state == CellState::done     ? "done"
          : r.state == CellState::failed ? "failed"
                                         : "missing");
    for (const std::string& a : plan.axes) field(field_text(member(c.axes, a.c_str())));
    Json summary;
    if (r.state == CellState::done)
      summary = JsonNode::load((fs::path(dir.cell(c.id)) / "summary.json").string()).raw();
    for (const Metric& m : kMetrics) field(field_text(member(summary, m.key)));
    const Json solver = member(summary, "solver");
    for (const Metric& m : kSolver) field(field_text(member(solver, m.key)));
    field(r.state == CellState::missing ? "" : fmt::format("{}", r.wall));
    field(r.error);
    out += '\n';
  }
  return out;
}

}  // namespace flux::sweep
