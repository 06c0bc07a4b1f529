#include "cli/workload_source.hpp"

#include "core/error.hpp"
#include "fabric/workload_fit.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"
#include "workload/workload_io.hpp"

namespace flux::cli {

void WorkloadSource::add_to(CLI::App& cmd, bool positional) {
  // The `flux workload` commands also take the file as their positional argument.
  auto* w = cmd.add_option(positional ? "workload,--workload" : "--workload", workload,
                           "flux.workload/1 file");
  auto* s = cmd.add_option("--scenario", scenario,
                           "or a flux.scenario/1 file, generated on the fly (no workload file)");
  w->excludes(s);
}

void WorkloadSource::check() const {
  if (workload.empty() == scenario.empty())
    throw InputError("", "--workload", "exactly one of --workload FILE or --scenario FILE");
}

workload::Workload WorkloadSource::load() const {
  check();
  return scenario.empty() ? workload::read_workload(workload)
                          : workload::build_workload(workload::read_scenario(scenario));
}

workload::Workload WorkloadSource::load_for(const fabric::Fabric& f) const {
  check();
  if (scenario.empty()) return workload::read_workload(workload);
  const workload::Scenario s = workload::read_scenario(scenario);
  fabric::check_gpu_count(s.parallel.world_size, f, scenario, "/parallelism/world_size");
  return workload::build_workload(s);
}

void WorkloadSource::stream(workload::TaskSink& sink) const {
  check();
  if (scenario.empty())
    replay_workload(workload::read_workload(workload), sink);
  else
    workload::build_workload(workload::read_scenario(scenario), sink);
}

}  // namespace flux::cli
