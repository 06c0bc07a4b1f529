#include "sweep/sweep_dir.hpp"

#include <filesystem>
#include <system_error>

#include "core/error.hpp"
#include "core/file_output.hpp"
#include "core/json_reader.hpp"

namespace flux::sweep {

namespace fs = std::filesystem;

std::string SweepDir::plan_file() const {
  return (fs::path(root) / "plan.json").string();
}

std::string SweepDir::cells() const {
  return (fs::path(root) / "cells").string();
}

std::string SweepDir::cell(const std::string& id) const {
  return (fs::path(cells()) / id).string();
}

std::string SweepDir::partial_prefix(const std::string& id) const {
  return ".partial-" + id + "-";
}

namespace {

nlohmann::ordered_json plan_document(const Sweep& sweep, const SweepPlan& plan) {
  nlohmann::ordered_json axes = nlohmann::ordered_json::array(),
                         cells = nlohmann::ordered_json::array();
  for (const SweepAxis& a : sweep.axes) axes.push_back(a.name);
  for (const SweepCell& c : plan.cells) cells.push_back({{"id", c.id}, {"axes", c.params["axes"]}});
  return {{"format", "flux.sweep-plan/1"}, {"name", sweep.name}, {"axes", axes}, {"cells", cells}};
}

}  // namespace

void prepare_sweep_dir(const SweepDir& dir, const Sweep& sweep, const SweepPlan& plan) {
  prepare_output_dir(dir.root, "--out-dir");
  prepare_output_dir(dir.cells(), "--out-dir");
  const std::string text = plan_document(sweep, plan).dump(1) + "\n";
  if (fs::exists(dir.plan_file())) {
    const SweepPlanFile old = read_plan_file(dir);
    bool same = old.cells.size() == plan.cells.size();
    for (std::size_t i = 0; same && i < plan.cells.size(); ++i)
      same = old.cells[i].id == plan.cells[i].id;
    if (!same)
      throw InputError(dir.plan_file(), "/cells",
                       "the cells of this sweep: the folder holds another sweep (use a new --out)");
  }
  write_file_now(dir.plan_file(), text);  // the same cells: refreshes the file in one rename
}

SweepPlanFile read_plan_file(const SweepDir& dir) {
  const JsonNode root = JsonNode::load(dir.plan_file());
  root.expect_keys({"format", "name", "axes", "cells"});
  root.expect_format("flux.sweep-plan", 1);
  SweepPlanFile plan;
  const JsonNode axes = root["axes"], cells = root["cells"];
  if (!axes.is_array()) axes.fail("an array of axis names");
  for (std::size_t i = 0; i < axes.size(); ++i) plan.axes.push_back(axes.at(i).string());
  if (!cells.is_array()) cells.fail("an array of cells");
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const JsonNode c = cells.at(i);
    c.expect_keys({"id", "axes"});
    PlannedCell cell{c["id"].string(), c["axes"].raw()};
    if (cell.id.size() != 16 || cell.id.find_first_not_of("0123456789abcdef") != std::string::npos)
      c["id"].fail("16 lowercase hex digits");
    if (!cell.axes.is_object()) c["axes"].fail("an object of axis values");
    plan.cells.push_back(std::move(cell));
  }
  return plan;
}

}  // namespace flux::sweep
