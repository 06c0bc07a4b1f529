#include "sweep/sweep_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>

#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "fabric/sim_report.hpp"
#include "schedulers/registry.hpp"
#include "sweep/cell_inputs.hpp"

namespace flux::sweep {

namespace {

using Json = nlohmann::json;

// Longer value lists are refused before anything is checked per value (the number of cells has
// its own cap, kMaxSweepCells).
constexpr std::size_t kMaxValuesPerAxis = 100000;

std::string resolve(const std::string& sweep_file, const std::string& path) {
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(sweep_file).parent_path() / p).lexically_normal().string();
}

// A base input given as a file path (relative to the sweep file) or inline: its JSON and the
// label its relative paths and messages use.
std::pair<Json, std::string> base_document(const JsonNode& node, const std::string& sweep_file) {
  if (node.raw().is_string()) {
    const std::string path = resolve(sweep_file, node.string());
    return {JsonNode::load(path).raw(), path};
  }
  if (!node.is_object()) node.fail("a file path or an inline object");
  return {node.raw(), sweep_file};
}

// The base scenario and fabric must read on their own; an inline one's errors name the sweep
// file at its place in it.
template <class Check>
void check_base(const JsonNode& node, const Check& check) {
  try {
    check();
  } catch (const InputError& e) {
    if (!node.raw().is_object()) throw;
    throw InputError(node.file(), node.pointer() + e.field(), e.expected());
  }
}

AxisTarget parse_target(const JsonNode& node, std::string& path) {
  const std::string field = node.string();
  if (field == "scheduler") return AxisTarget::scheduler;
  if (field == "seed") return AxisTarget::seed;
  const auto slash = field.find('/');
  const std::string head = field.substr(0, slash);
  path = slash == std::string::npos ? "" : field.substr(slash);
  if (head == "option" && path.size() > 1) {
    path = path.substr(1);
    return AxisTarget::option;
  }
  if ((head == "scenario" || head == "fabric") && path.size() > 1 && path != "/format") {
    try {
      (void)Json::json_pointer(path);
    } catch (const Json::exception&) {
      node.fail("a JSON pointer after \"scenario\" or \"fabric\"");
    }
    return head == "scenario" ? AxisTarget::scenario : AxisTarget::fabric;
  }
  node.fail("\"scheduler\", \"seed\", \"option/KEY\", \"scenario/POINTER\" or \"fabric/POINTER\"");
}

std::vector<Json> parse_values(const JsonNode& node) {
  if (!node.is_array() || node.size() == 0) node.fail("a non-empty array of values");
  if (node.size() > kMaxValuesPerAxis)
    node.fail(fmt::format("at most {} values", kMaxValuesPerAxis));
  std::vector<Json> values;
  for (std::size_t i = 0; i < node.size(); ++i) {
    if (node.at(i).raw().is_null()) node.at(i).fail("a value (null sets nothing)");
    values.push_back(node.at(i).raw());
  }
  return values;
}

// Names become CSV columns beside the fixed ones.
void check_axis_name(const JsonNode& node, const std::string& name,
                     const std::set<std::string>& seen) {
  if (name.empty() || name.size() > 64 || !std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
      }))
    node.fail("a name of 1 to 64 letters, digits, '_', '-' or '.'");
  if (seen.count(name) || name == "cell" || name == "status" || name == "wall_s" || name == "error")
    node.fail("a name no other axis (nor the cell, status, wall_s or error column) has");
}

SweepAxis parse_axis(const JsonNode& node, std::set<std::string>& names,
                     std::set<std::string>& fields) {
  node.expect_keys({"name", "field", "values"});
  SweepAxis axis;
  axis.name = node["name"].string();
  check_axis_name(node["name"], axis.name, names);
  names.insert(axis.name);
  axis.target = parse_target(node["field"], axis.path);
  if (!fields.insert(node["field"].string()).second)
    node["field"].fail("a field no other axis sets");
  axis.values = parse_values(node["values"]);
  return axis;
}

std::vector<std::vector<std::size_t>> parse_zips(const JsonNode& node,
                                                 const std::vector<SweepAxis>& axes) {
  if (!node.is_array() || node.size() == 0) node.fail("a non-empty array of axis-name lists");
  std::vector<std::vector<std::size_t>> zips;
  std::set<std::size_t> used;
  for (std::size_t g = 0; g < node.size(); ++g) {
    const JsonNode group = node.at(g);
    if (!group.is_array() || group.size() < 2) group.fail("an array of at least two axis names");
    std::vector<std::size_t> members;
    for (std::size_t k = 0; k < group.size(); ++k) {
      const std::string name = group.at(k).string();
      auto it = std::find_if(axes.begin(), axes.end(),
                             [&](const SweepAxis& a) { return a.name == name; });
      if (it == axes.end()) group.at(k).fail("the name of an axis");
      const auto index = static_cast<std::size_t>(it - axes.begin());
      if (!used.insert(index).second) group.at(k).fail("an axis in no other zip group");
      if (it->values.size() != axes[members.empty() ? index : members[0]].values.size())
        group.at(k).fail(fmt::format("an axis with as many values as \"{}\" ({})",
                                     axes[members[0]].name, axes[members[0]].values.size()));
      members.push_back(index);
    }
    zips.push_back(std::move(members));
  }
  return zips;
}

std::vector<std::string> parse_outputs(const JsonNode& node) {
  if (!node.is_array() || node.size() == 0)
    node.fail("a non-empty array of file names (omit it for summary.json only)");
  std::vector<std::string> outputs;
  for (std::size_t i = 0; i < node.size(); ++i) {
    const std::string name = node.at(i).string();
    const auto& known = sweep_output_files();
    if (name != "summary.json" && std::find(known.begin(), known.end(), name) == known.end())
      node.at(i).fail(fmt::format("summary.json or one of {}", fmt::join(known, ", ")));
    if (name != "summary.json" && std::find(outputs.begin(), outputs.end(), name) == outputs.end())
      outputs.push_back(name);
  }
  return outputs;
}

void read_bases(const JsonNode& root, Sweep& s) {
  const bool has_scenario = root.has("scenario"), has_workload = root.has("workload");
  if (has_scenario == has_workload)
    root.fail("exactly one of \"scenario\" (file or object) and \"workload\" (file)");
  if (has_scenario) {
    const JsonNode node = root["scenario"];
    std::tie(s.scenario, s.scenario_label) = base_document(node, s.file);
    check_base(node, [&] { (void)cell_scenario(s.scenario, s.scenario_label); });
  } else {
    s.workload_file = resolve(s.file, root["workload"].string());
    // Only looked for: a workload file can be gigabytes, each cell reads it.
    if (!std::filesystem::is_regular_file(s.workload_file))
      root["workload"].fail("a flux.workload/1 file (not found: " + s.workload_file + ")");
  }
  const JsonNode fabric = root["fabric"];
  std::string fabric_label;
  std::tie(s.fabric, fabric_label) = base_document(fabric, s.file);
  check_base(fabric, [&] { (void)cell_fabric(s.fabric, fabric_label); });
}

}  // namespace

const std::vector<std::string>& sweep_output_files() {
  return fabric::sim_output_files();
}

std::vector<std::string> sweep_schedulers(const Sweep& sweep) {
  std::vector<std::string> names;
  if (!sweep.scheduler.empty()) names.push_back(sweep.scheduler);
  for (const SweepAxis& a : sweep.axes)
    if (a.target == AxisTarget::scheduler)
      for (const Json& v : a.values)
        if (v.is_string() &&
            std::find(names.begin(), names.end(), v.get<std::string>()) == names.end())
          names.push_back(v.get<std::string>());
  return names;
}

Sweep parse_sweep(const std::string& text, const std::string& label) {
  const JsonNode root = JsonNode::parse(text, label);
  root.expect_keys({"format", "name", "scenario", "workload", "fabric", "scheduler", "options",
                    "axes", "zip", "outputs"});
  root.expect_format("flux.sweep", 1);
  Sweep s;
  s.file = label;
  if (auto n = root.find("name")) s.name = n->string();
  read_bases(root, s);
  if (auto n = root.find("scheduler")) {
    s.scheduler = n->string();
    try {
      (void)schedulers::workload_scheduler(s.scheduler);
    } catch (const InputError& e) {
      throw InputError(n->file(), n->pointer(), "expected " + e.expected());
    }
  }
  if (auto n = root.find("options")) {
    if (!n->is_object()) n->fail("an object of scheduler options");
    s.options = n->raw();
  }
  const JsonNode axes = root["axes"];
  if (!axes.is_array() || axes.size() == 0) axes.fail("a non-empty array of axes");
  std::set<std::string> names, fields;
  for (std::size_t i = 0; i < axes.size(); ++i)
    s.axes.push_back(parse_axis(axes.at(i), names, fields));
  if (auto n = root.find("zip")) s.zips = parse_zips(*n, s.axes);
  if (auto n = root.find("outputs")) s.outputs = parse_outputs(*n);
  check_sweep_values(s, root);
  return s;
}

Sweep read_sweep(const std::string& path) {
  return parse_sweep(read_file(path), path);
}

}  // namespace flux::sweep
