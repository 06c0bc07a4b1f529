#include "sweep/cell_inputs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "core/error.hpp"
#include "fabric/fabric_io.hpp"
#include "schedulers/registry.hpp"

namespace flux::sweep {

namespace {

using Json = nlohmann::json;

bool is_index(const std::string& token, std::size_t size) {
  if (token.empty() || token.size() > 9 ||
      !std::all_of(token.begin(), token.end(), [](char c) { return std::isdigit(c); }))
    return false;
  return std::stoul(token) < size;
}

// Sets the field at `pointer`, creating missing object members on the way (the reader decides
// whether they are allowed); an array element must exist. False if the path runs into a scalar.
bool set_field(Json& doc, const std::string& pointer, const Json& value) {
  const Json::json_pointer ptr(pointer);
  Json* node = &doc;
  std::vector<std::string> tokens;
  for (Json::json_pointer p = ptr; !p.empty(); p.pop_back()) tokens.push_back(p.back());
  std::reverse(tokens.begin(), tokens.end());
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    Json* next = nullptr;
    if (node->is_object())
      next = &(*node)[tokens[i]];
    else if (node->is_array() && is_index(tokens[i], node->size()))
      next = &(*node)[std::stoul(tokens[i])];
    else
      return false;
    if (i + 1 < tokens.size() && next->is_null()) *next = Json::object();
    node = next;
  }
  *node = value;
  return true;
}

bool has_field(const Json& doc, const std::string& pointer) {
  try {
    return doc.contains(Json::json_pointer(pointer));
  } catch (const Json::exception&) {
    return false;
  }
}

const OptionSpec* option_of(const std::string& scheduler, const std::string& key) {
  const schedulers::WorkloadScheduler* s = schedulers::find_workload_scheduler(scheduler);
  return s ? find_option(s->options, key) : nullptr;
}

// `value` for option `key` against every scheduler of the sweep that declares it; false when none
// does.
bool check_option_value(const Sweep& sweep, const std::string& key, const JsonNode& value) {
  bool declared = false;
  for (const std::string& name : sweep_schedulers(sweep))
    if (const OptionSpec* spec = option_of(name, key)) {
      declared = true;
      try {
        (void)option_from_json(*spec, value.raw(), key);
      } catch (const InputError& e) {
        throw InputError(value.file(), value.pointer(),
                         fmt::format("expected {} for {}", e.expected(), name));
      }
    }
  return declared;
}

std::string option_keys(const Sweep& sweep) {
  std::vector<std::string> keys;
  for (const std::string& name : sweep_schedulers(sweep))
    for (const OptionSpec& spec : schedulers::workload_scheduler(name).options)
      if (std::find(keys.begin(), keys.end(), spec.key) == keys.end()) keys.push_back(spec.key);
  return keys.empty() ? "(none)" : fmt::format("{}", fmt::join(keys, ", "));
}

// One scenario or fabric value, patched into the base and read back.
void check_document_value(const Sweep& sweep, const SweepAxis& axis, const JsonNode& field,
                          const JsonNode& value) {
  CellInputs cell = base_inputs(sweep);
  const char* what = axis.target == AxisTarget::scenario ? "scenario" : "fabric";
  const bool existed =
      has_field(axis.target == AxisTarget::scenario ? cell.scenario : cell.fabric, axis.path);
  try {
    apply_axis(cell, axis, value.raw());
  } catch (const InputError& e) {
    throw InputError(field.file(), field.pointer(),
                     fmt::format("expected a field of the base {}: {}", what, e.expected()));
  }
  try {
    if (axis.target == AxisTarget::scenario)
      (void)cell_scenario(cell.scenario, sweep.scenario_label);
    else
      (void)cell_fabric(cell.fabric, sweep.file);
  } catch (const InputError& e) {
    // The reader's own message already reads "expected ..., got ...".
    if (!existed && e.field() == axis.path)
      throw InputError(field.file(), field.pointer(),
                       fmt::format("expected a field the base {} has: {} is not one ({})", what,
                                   axis.path, e.expected()));
    throw InputError(value.file(), value.pointer(),
                     fmt::format("a value the {} accepts at {}: {}{}", what, axis.path,
                                 e.field() == axis.path ? "" : e.field() + ": ", e.expected()));
  }
}

void check_axis(const Sweep& sweep, const SweepAxis& axis, const JsonNode& node) {
  const JsonNode field = node["field"], values = node["values"];
  if (axis.target == AxisTarget::scenario && sweep.scenario.is_null())
    field.fail("no scenario axis: the base is a workload file, not a scenario");
  if (axis.target == AxisTarget::option && !sweep_schedulers(sweep).empty() &&
      !check_option_value(sweep, axis.path, values.at(0)))
    throw InputError(field.file(), field.pointer(),
                     fmt::format("expected an option of the sweep's schedulers: {}, got \"{}\"",
                                 option_keys(sweep), axis.path));
  for (std::size_t j = 0; j < axis.values.size(); ++j) {
    const JsonNode v = values.at(j);
    switch (axis.target) {
      case AxisTarget::scheduler:
        try {
          (void)schedulers::workload_scheduler(v.string());
        } catch (const InputError& e) {
          throw InputError(v.file(), v.pointer(), "expected " + e.expected());
        }
        break;
      case AxisTarget::option:
        (void)check_option_value(sweep, axis.path, v);
        break;
      case AxisTarget::seed:
        (void)v.integer(0, std::int64_t{1} << 53);
        break;
      case AxisTarget::scenario:
      case AxisTarget::fabric:
        check_document_value(sweep, axis, field, v);
        break;
    }
  }
}

}  // namespace

workload::Scenario cell_scenario(const Json& doc, const std::string& label) {
  return workload::parse_scenario(doc.dump(), label);
}

fabric::Fabric cell_fabric(const Json& doc, const std::string& label) {
  return fabric::parse_fabric(doc.dump(), label);
}

CellInputs base_inputs(const Sweep& sweep) {
  CellInputs cell;
  cell.scenario = sweep.scenario;
  cell.fabric = sweep.fabric;
  cell.scheduler = sweep.scheduler;
  cell.options = sweep.options;
  return cell;
}

void apply_axis(CellInputs& cell, const SweepAxis& axis, const Json& value) {
  cell.axes[axis.name] = value;
  switch (axis.target) {
    case AxisTarget::scheduler:
      cell.scheduler = value.get<std::string>();
      break;
    case AxisTarget::option:
      cell.options[axis.path] = value;
      break;
    case AxisTarget::seed:  // settle() places it once the scheduler is known
      break;
    case AxisTarget::scenario:
      if (!set_field(cell.scenario, axis.path, value))
        throw InputError("", axis.path, "a path through objects and existing array elements");
      break;
    case AxisTarget::fabric:
      if (!set_field(cell.fabric, axis.path, value))
        throw InputError("", axis.path, "a path through objects and existing array elements");
      break;
  }
}

void settle(CellInputs& cell, const Sweep& sweep) {
  for (auto it = cell.options.begin(); it != cell.options.end();)
    it = option_of(cell.scheduler, it.key()) ? std::next(it) : cell.options.erase(it);
  for (const SweepAxis& axis : sweep.axes) {
    Json& value = cell.axes[axis.name];
    if (axis.target == AxisTarget::option && !cell.options.contains(axis.path)) value = nullptr;
    if (axis.target != AxisTarget::seed) continue;
    bool used = false;
    if (option_of(cell.scheduler, "seed")) {
      cell.options["seed"] = value;
      used = true;
    }
    if (cell.scenario.is_object() && cell.scenario.contains("moe") &&
        cell.scenario["moe"].is_object()) {
      cell.scenario["moe"]["seed"] = value;
      used = true;
    }
    if (!used) value = nullptr;
  }
}

OptionValues cell_options(const CellInputs& cell) {
  const schedulers::WorkloadScheduler& s = schedulers::workload_scheduler(cell.scheduler);
  OptionValues given;
  for (const auto& [key, value] : cell.options.items()) {
    const OptionSpec* spec = find_option(s.options, key);
    if (spec == nullptr) throw InputError("", key, "an option of " + cell.scheduler);
    given.set(key, option_from_json(*spec, value, key));
  }
  return given;
}

void check_sweep_values(const Sweep& sweep, const JsonNode& root) {
  if (sweep_schedulers(sweep).empty())
    root.fail("a \"scheduler\", or an axis on field \"scheduler\"");
  const JsonNode axes = root["axes"];
  // Scheduler names first: option checks look them up.
  for (std::size_t i = 0; i < sweep.axes.size(); ++i)
    if (sweep.axes[i].target == AxisTarget::scheduler) check_axis(sweep, sweep.axes[i], axes.at(i));
  if (auto options = root.find("options"))
    for (const auto& [key, value] : sweep.options.items())
      if (!check_option_value(sweep, key, (*options)[key]))
        throw InputError(
            sweep.file, (*options)[key].pointer(),
            fmt::format("expected an option of the sweep's schedulers: {}", option_keys(sweep)));
  for (std::size_t i = 0; i < sweep.axes.size(); ++i)
    if (sweep.axes[i].target != AxisTarget::scheduler) check_axis(sweep, sweep.axes[i], axes.at(i));
}

}  // namespace flux::sweep
