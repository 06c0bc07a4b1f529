#pragma once
// Where a command's training iteration comes from: a flux.workload/1 file (`--workload`) or a
// flux.scenario/1 file built in memory (`--scenario`). Building from the scenario skips the JSON
// round trip, which is what makes the largest scenarios (GPT-3 175B on 1,024 GPUs, 18.5 M tasks)
// simulable: their workload file is several GB of JSON.
#include <CLI/CLI.hpp>

#include <string>

#include "workload/workload.hpp"

namespace flux::cli {

struct WorkloadSource {
  std::string workload, scenario;

  void add_to(CLI::App& cmd);
  // Throws InputError unless exactly one source is given, or for a bad file.
  [[nodiscard]] Workload load() const;
  // The file named in reports and error messages.
  [[nodiscard]] const std::string& label() const { return scenario.empty() ? workload : scenario; }
};

}  // namespace flux::cli
