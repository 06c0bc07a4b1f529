#pragma once
// Where a command's training iteration comes from: a flux.workload/1 file (`--workload FILE`, or
// a positional FILE for the `flux workload` commands), a flux.scenario/1 file generated on the
// fly (`--scenario`), or, for `simulate` and `cosched`, a Chakra trace set or an ASTRA-sim text
// workload imported on the fly (`--chakra`, `--astra`); either loaded whole or streamed task by
// task into a TaskSink. Building from the scenario or the trace skips the JSON round trip, which
// is what makes the largest scenarios (GPT-3 175B on 1,024 GPUs, 18.5 M tasks) simulable: their
// workload file is several GB of JSON. An imported trace's tasks are the same as those of the
// file `flux workload import` writes from it.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "workload/task_sink.hpp"
#include "workload/workload.hpp"
#include "workload/workload_importers.hpp"

namespace flux::cli {

// A Chakra trace set (`--chakra PREFIX`) or an ASTRA-sim / SimAI text workload (`--astra FILE`),
// with the options that say how to read it.
struct ImportSource {
  std::string chakra, astra, gpu, cpu_nodes = "skip";
  workload::AstraImportOptions astra_options;
  workload::ChakraImportOptions chakra_options;

  // --chakra, --astra and their options; returns the two source options.
  std::pair<CLI::Option*, CLI::Option*> add_to(CLI::App& cmd);
  [[nodiscard]] bool given() const { return !chakra.empty() || !astra.empty(); }
  [[nodiscard]] const std::string& label() const { return astra.empty() ? chakra : astra; }
  [[nodiscard]] workload::Workload load(workload::ImportReport& report) const;
  // The files load() reads, for provenance.
  [[nodiscard]] std::vector<std::string> input_files() const;
};

struct WorkloadSource {
  std::string workload, scenario;
  ImportSource imported;

  // `positional`: the workload file is the command's positional argument, not `--workload`.
  // `importable`: --chakra and --astra are sources too.
  void add_to(CLI::App& cmd, bool positional = false, bool importable = false);
  // Both throw InputError unless exactly one source is given, or for a bad file. An imported
  // trace's summary counts are printed.
  [[nodiscard]] workload::Workload load() const;
  // The same for a run on `f`: a scenario for another GPU count is refused before it is built.
  [[nodiscard]] workload::Workload load_for(const fabric::Fabric& f) const;
  void stream(workload::TaskSink& sink) const;
  // The file named in reports and error messages.
  [[nodiscard]] const std::string& label() const {
    return imported.given() ? imported.label() : scenario.empty() ? workload : scenario;
  }
  // The files a run reads its iteration from, then `more` (its other inputs), for provenance.
  [[nodiscard]] std::vector<std::string> input_files(std::vector<std::string> more = {}) const;

 private:
  void check() const;
  [[nodiscard]] workload::Workload import() const;
  bool importable_ = false;
};

}  // namespace flux::cli
