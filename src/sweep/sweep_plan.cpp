#include "sweep/sweep_plan.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdlib>
#include <set>

#include "core/error.hpp"
#include "core/sha256.hpp"
#include "workload/scenario_size.hpp"

namespace flux::sweep {

namespace {

using Json = nlohmann::json;

// The grid's dimensions: a zip group or a lone axis each, in order of their first axis.
std::vector<std::vector<std::size_t>> dimensions(const Sweep& sweep) {
  std::vector<std::vector<std::size_t>> dims;
  std::set<std::size_t> zipped;
  for (std::size_t a = 0; a < sweep.axes.size(); ++a) {
    if (zipped.count(a)) continue;
    std::vector<std::size_t> dim = {a};
    for (const auto& group : sweep.zips)
      if (group.front() == a || std::find(group.begin(), group.end(), a) != group.end())
        dim = group;
    for (std::size_t m : dim) zipped.insert(m);
    dims.push_back(dim);
  }
  return dims;
}

Json params_of(const Sweep& sweep, const CellInputs& cell) {
  Json p = {{"axes", cell.axes},
            {"fabric", cell.fabric},
            {"scheduler", cell.scheduler},
            {"options", cell.options},
            {"outputs", sweep.outputs}};
  if (sweep.scenario.is_null())
    p["workload"] = sweep.workload_file;
  else
    p["scenario"] = cell.scenario;
  return p;
}

std::string axis_text(const Json& v) {
  return v.is_string() ? v.get<std::string>() : v.dump();
}

}  // namespace

std::string cell_text(const Sweep& sweep, const SweepCell& c) {
  std::string line = c.id + " ";
  for (const SweepAxis& a : sweep.axes) {
    const Json& v = c.params["axes"][a.name];
    line += fmt::format(" {}={}", a.name, v.is_null() ? "-" : axis_text(v));
  }
  return line;
}

SweepPlan plan_sweep(const Sweep& sweep) {
  const auto dims = dimensions(sweep);
  double total = 1;
  for (const auto& d : dims) total *= static_cast<double>(sweep.axes[d.front()].values.size());
  if (total > static_cast<double>(kMaxSweepCells))
    throw InputError(sweep.file, "/axes",
                     fmt::format("at most {} cells, this grid has {:g}", kMaxSweepCells, total));
  SweepPlan plan;
  plan.combinations = static_cast<std::size_t>(total);
  std::set<std::string> seen;
  std::vector<std::size_t> at(dims.size(), 0);
  for (std::size_t n = 0; n < plan.combinations; ++n) {
    CellInputs cell = base_inputs(sweep);
    for (std::size_t d = 0; d < dims.size(); ++d)
      for (std::size_t a : dims[d]) {
        try {
          apply_axis(cell, sweep.axes[a], sweep.axes[a].values[at[d]]);
        } catch (const InputError& e) {  // an earlier axis replaced an object by a value
          throw InputError(sweep.file, fmt::format("/axes/{}/field", a),
                           fmt::format("{} (with the other axes' values)", e.expected()));
        }
      }
    settle(cell, sweep);
    Json params = params_of(sweep, cell);
    std::string id = sha256_hex(params.dump()).substr(0, 16);
    if (seen.insert(id).second) plan.cells.push_back({std::move(id), std::move(params)});
    for (std::size_t d = dims.size(); d-- > 0;) {  // the last dimension varies fastest
      if (++at[d] < sweep.axes[dims[d].front()].values.size()) break;
      at[d] = 0;
    }
  }
  return plan;
}

CellInputs inputs_of(const SweepCell& cell) {
  CellInputs in;
  in.axes = cell.params["axes"];
  in.scenario = cell.params.value("scenario", Json());
  in.fabric = cell.params["fabric"];
  in.scheduler = cell.params["scheduler"].get<std::string>();
  in.options = cell.params["options"];
  return in;
}

Shard parse_shard(const std::string& text, const std::string& label) {
  Shard s;
  const auto slash = text.find('/');
  const char* end = text.data() + text.size();
  bool ok = slash != std::string::npos;
  if (ok) {
    auto r1 = std::from_chars(text.data(), text.data() + slash, s.index);
    auto r2 = std::from_chars(text.data() + slash + 1, end, s.count);
    ok = r1.ec == std::errc() && r1.ptr == text.data() + slash && r2.ec == std::errc() &&
         r2.ptr == end && s.count >= 1 && s.index < s.count;
  }
  if (!ok) throw InputError("", label, fmt::format("I/N with 0 <= I < N, got \"{}\"", text));
  return s;
}

Shard shard_from_environment() {
  const char* id = std::getenv("SLURM_ARRAY_TASK_ID");
  const char* count = std::getenv("SLURM_ARRAY_TASK_COUNT");
  if (!id || !count) return {};
  const char* min = std::getenv("SLURM_ARRAY_TASK_MIN");
  std::size_t index = 0;
  const std::string i = id, m = min ? min : "0";
  const auto r = std::from_chars(i.data(), i.data() + i.size(), index);
  std::size_t first = 0;
  (void)std::from_chars(m.data(), m.data() + m.size(), first);
  if (r.ec != std::errc() || index < first)
    throw InputError("", "SLURM_ARRAY_TASK_ID", "a task id at or above SLURM_ARRAY_TASK_MIN");
  return parse_shard(fmt::format("{}/{}", index - first, count), "SLURM_ARRAY_TASK_COUNT");
}

std::vector<std::size_t> shard_cells(std::size_t cells, Shard shard) {
  std::vector<std::size_t> out;
  for (std::size_t i = shard.index; i < cells; i += shard.count) out.push_back(i);
  return out;
}

std::string describe_plan(const Sweep& sweep, const SweepPlan& plan, std::size_t examples) {
  std::string out =
      fmt::format("{}: {} cells", sweep.name.empty() ? sweep.file : sweep.name, plan.cells.size());
  if (plan.combinations != plan.cells.size())
    out += fmt::format(" ({} combinations, equal ones merged)", plan.combinations);
  out += "\naxes:";
  for (const SweepAxis& a : sweep.axes) out += fmt::format(" {} ({})", a.name, a.values.size());
  out += "\n";
  for (std::size_t i = 0; i < plan.cells.size() && i < examples; ++i)
    out += "  " + cell_text(sweep, plan.cells[i]) + "\n";
  if (plan.cells.size() > examples) out += "  ...\n";
  if (sweep.scenario.is_null())
    return out + fmt::format("every cell replays the workload file {}\n", sweep.workload_file);
  double largest = -1;
  std::size_t at = 0, bad = 0;
  std::string first_error;
  for (std::size_t i = 0; i < plan.cells.size(); ++i) {
    try {
      const double tasks = estimated_task_count(
          cell_scenario(plan.cells[i].params["scenario"], sweep.scenario_label));
      if (tasks > largest) largest = tasks, at = i;
    } catch (const InputError& e) {
      if (bad++ == 0) first_error = e.what();
    }
  }
  if (largest >= 0)
    out += fmt::format("largest cell: {:.3g} tasks at least (scenario-size estimate): {}\n",
                       largest, cell_text(sweep, plan.cells[at]));
  if (bad)
    out += fmt::format("{} cells will fail (their scenario does not read); first: {}\n", bad,
                       first_error);
  return out;
}

}  // namespace flux::sweep
