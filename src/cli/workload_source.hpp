#pragma once
// Where a command's training iteration comes from: a flux.workload/1 file (`--workload FILE`, or
// a positional FILE for the `flux workload` commands) or a flux.scenario/1 file generated on the
// fly (`--scenario`), either loaded whole or streamed task by task into a TaskSink. Building from
// the scenario skips the JSON round trip, which is what makes the largest scenarios (GPT-3 175B on
// 1,024 GPUs, 18.5 M tasks) simulable: their workload file is several GB of JSON.
#include <CLI/CLI.hpp>

#include <string>

#include "fabric/fabric.hpp"
#include "workload/task_sink.hpp"
#include "workload/workload.hpp"

namespace flux::cli {

struct WorkloadSource {
  std::string workload, scenario;

  // `positional`: the workload file is the command's positional argument, not `--workload`.
  void add_to(CLI::App& cmd, bool positional = false);
  // Both throw InputError unless exactly one source is given, or for a bad file.
  [[nodiscard]] workload::Workload load() const;
  // The same for a run on `f`: a scenario for another GPU count is refused before it is built.
  [[nodiscard]] workload::Workload load_for(const fabric::Fabric& f) const;
  void stream(workload::TaskSink& sink) const;
  // The file named in reports and error messages.
  [[nodiscard]] const std::string& label() const { return scenario.empty() ? workload : scenario; }

 private:
  void check() const;
};

}  // namespace flux::cli
