#pragma once
// flux.sweep/1 (docs/formats.md): a grid of simulator runs. Named axes, each a value list over one
// target (a scenario field, a fabric field, the scheduler, a scheduler option, the seed), on a base
// scenario (or workload file) and a base fabric, with optional zip groups of axes that advance
// together and the output files wanted per cell. read_sweep checks every field and every axis value
// against the reader of what it changes (scenario, fabric, the registry's option tables) and throws
// InputError naming the sweep file and the JSON pointer.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace flux::sweep {

enum class AxisTarget { scenario, fabric, scheduler, option, seed };

struct SweepAxis {
  std::string name;
  AxisTarget target = AxisTarget::scenario;
  std::string path;  // JSON pointer into the scenario or fabric; the key of an option
  std::vector<nlohmann::json> values;
};

struct Sweep {
  std::string file;  // the sweep file, for messages and relative paths
  std::string name;
  // Exactly one base workload: a scenario (JSON, patched per cell) or a workload file.
  nlohmann::json scenario;     // null when the base is a workload file
  std::string scenario_label;  // the file the scenario came from (resolves its relative paths)
  std::string workload_file;   // resolved against the sweep file's folder
  nlohmann::json fabric;
  std::string scheduler;  // the base scheduler ("" when an axis sets it)
  nlohmann::json options = nlohmann::json::object();  // option key -> value, the base values
  std::vector<SweepAxis> axes;
  std::vector<std::vector<std::size_t>> zips;  // indices into axes; each axis in at most one
  std::vector<std::string> outputs;            // file names beside summary.json
};

// The files a cell can write besides summary.json.
[[nodiscard]] const std::vector<std::string>& sweep_output_files();

[[nodiscard]] Sweep read_sweep(const std::string& path);
[[nodiscard]] Sweep parse_sweep(const std::string& text, const std::string& label);

// Every scheduler name the sweep may run: the base one and the scheduler axis's values.
[[nodiscard]] std::vector<std::string> sweep_schedulers(const Sweep& sweep);

}  // namespace flux::sweep
