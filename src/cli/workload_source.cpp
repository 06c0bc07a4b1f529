#include "cli/workload_source.hpp"

#include "core/error.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"
#include "workload/workload_io.hpp"

namespace flux::cli {

void WorkloadSource::add_to(CLI::App& cmd) {
  auto* w = cmd.add_option("--workload", workload, "flux.workload/1 file");
  auto* s = cmd.add_option("--scenario", scenario,
                           "or a flux.scenario/1 file, built in memory (no workload file)");
  w->excludes(s);
}

Workload WorkloadSource::load() const {
  if (workload.empty() == scenario.empty())
    throw InputError("", "--workload", "exactly one of --workload FILE or --scenario FILE");
  return scenario.empty() ? read_workload(workload) : build_workload(read_scenario(scenario));
}

}  // namespace flux::cli
