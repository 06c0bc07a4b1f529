#pragma once
// One cell's inputs: the base scenario (or workload file), fabric, scheduler and options of a
// sweep with one value of each axis applied. Scenario and fabric fields are patched into their
// JSON documents and read back by the ordinary strict readers, so an axis can reach any field they
// accept and nothing else.
#include <nlohmann/json.hpp>
#include <string>

#include "core/json_reader.hpp"
#include "core/options.hpp"
#include "fabric/fabric.hpp"
#include "sweep/sweep_file.hpp"
#include "workload/scenario.hpp"

namespace flux::sweep {

struct CellInputs {
  nlohmann::json axes = nlohmann::json::object();  // name -> value; null where it changed nothing
  nlohmann::json scenario;                         // null when the base is a workload file
  nlohmann::json fabric;
  std::string scheduler;
  nlohmann::json options = nlohmann::json::object();  // given options, only the scheduler's own
};

[[nodiscard]] workload::Scenario cell_scenario(const nlohmann::json& doc, const std::string& label);
[[nodiscard]] fabric::Fabric cell_fabric(const nlohmann::json& doc, const std::string& label);

[[nodiscard]] CellInputs base_inputs(const Sweep& sweep);
void apply_axis(CellInputs& cell, const SweepAxis& axis, const nlohmann::json& value);
// After every axis: options (base or axis) the cell's scheduler does not declare are dropped and
// their axis value nulled; the seed goes to the scheduler's `seed` option and the scenario's
// moe.seed where they exist.
void settle(CellInputs& cell, const Sweep& sweep);
// The scheduler's given options, each checked against its table; InputError on the key.
[[nodiscard]] OptionValues cell_options(const CellInputs& cell);

// Checks the base options and every axis value on its own against what it changes (see
// sweep_file.hpp); errors name the sweep file and the value's JSON pointer.
void check_sweep_values(const Sweep& sweep, const JsonNode& root);

}  // namespace flux::sweep
