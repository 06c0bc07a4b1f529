#include "cli/workload_source.hpp"

#include "core/error.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"
#include "workload/workload_io.hpp"

namespace flux::cli {

void WorkloadSource::add_to(CLI::App& cmd, bool positional) {
  workload_arg_ = positional ? "workload" : "--workload";
  auto* w = cmd.add_option(workload_arg_, workload, "flux.workload/1 file");
  auto* s = cmd.add_option("--scenario", scenario,
                           "or a flux.scenario/1 file, generated on the fly (no workload file)");
  w->excludes(s);
}

void WorkloadSource::check() const {
  if (workload.empty() == scenario.empty())
    throw InputError("", workload_arg_,
                     "exactly one of " +
                         (workload_arg_ == "workload" ? std::string("a workload FILE")
                                                      : workload_arg_ + " FILE") +
                         " or --scenario FILE");
}

Workload WorkloadSource::load() const {
  check();
  return scenario.empty() ? read_workload(workload) : build_workload(read_scenario(scenario));
}

void WorkloadSource::stream(TaskSink& sink) const {
  check();
  if (scenario.empty())
    replay_workload(read_workload(workload), sink);
  else
    build_workload(read_scenario(scenario), sink);
}

}  // namespace flux::cli
