#include "schedulers/registry.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/error.hpp"
#include "core/heap.hpp"
#include "core/units.hpp"
#include "fabric/run_budget.hpp"
#include "fabric/workload_fit.hpp"
#include "schedulers/fabric_schedulers.hpp"
#include "schedulers/flux_schedulers.hpp"

namespace flux::schedulers {

const std::vector<WorkloadScheduler>& workload_schedulers() {
  static const std::vector<WorkloadScheduler> list = {
      static_scheduler(), rotornet_scheduler(false), rotornet_scheduler(true),
      bvn_scheduler(),    bvn_periodic_scheduler(),  spectra_phase_scheduler(),
      ideal_scheduler(),  flux_scheduler(),          flux_greedy_scheduler(),
  };
  return list;
}

const WorkloadScheduler* find_workload_scheduler(std::string_view name) {
  for (const WorkloadScheduler& s : workload_schedulers())
    if (s.name == name) return &s;
  return nullptr;
}

const WorkloadScheduler& workload_scheduler(std::string_view name) {
  if (const WorkloadScheduler* s = find_workload_scheduler(name)) return *s;
  std::string names;
  for (const WorkloadScheduler& known : workload_schedulers())
    names += (names.empty() ? "" : ", ") + known.name;
  throw InputError("", "scheduler", fmt::format("one of {}, got \"{}\"", names, name));
}

SchedulerResult run_scheduler(const WorkloadScheduler& scheduler, const SchedulingInput& input,
                              const OptionValues& given) {
  SchedulerResult result;
  result.scheduler = scheduler.name;
  result.options = resolve_options(scheduler.options, given);
  const ConfiguredScheduler run = scheduler.make(result.options);
  check_workload_fits(input.workload, input.fabric, input.label);
  check_scheduler_budget(input.fabric, scheduler.name, input.fabric_label);
  SchedulerOutput out;
  {
    ProgressStage stage(input.progress, scheduler.name);
    try {
      out = run(input);
    } catch (const fabric::ScheduleOverBudget& over) {
      fabric::refuse_schedule(over, scheduler.name, input.fabric_label);
    }
    if (out.solver)
      stage.finish(fmt::format("{}: objective {}, bound {}, gap {:.2f}%",
                               to_string(out.solver->status), format_time(out.solver->objective),
                               format_time(out.solver->bound), 100 * out.solver->gap));
  }
  // The scheduler's own state is gone: its pages go back before the replay's stages, which hold
  // the schedule's arrays.
  release_free_heap();
  check_output_budget(out.run.schedule, scheduler.name, input.fabric_label, input.outputs);
  fabric::SimOptions replay_options;
  replay_options.check_circuits = !scheduler.electrical;
  replay_options.keep_buffer_series = input.outputs.buffer_curves;
  replay_options.keep_circuits = input.outputs.any();
  replay_options.engine.progress = &input.progress;
  replay_options.engine.stage = "replay";
  result.sim =
      replay_timed(input.workload, input.fabric, std::move(out.run.schedule), replay_options);
  if (!result.sim.ok)
    throw std::logic_error(fmt::format("scheduler {} produced an infeasible schedule: {}",
                                       scheduler.name, result.sim.violations.front()));
  if (!out.without_engine) result.sim.metrics.events = out.run.events;
  result.solver = std::move(out.solver);
  result.placed = std::move(out.placed);
  return result;
}

fabric::SimResult simulate(const workload::Workload& w, const fabric::Fabric& f,
                           std::string_view scheduler, const OptionValues& given,
                           const std::string& workload_file) {
  return run_scheduler(workload_scheduler(scheduler), {w, f, workload_file}, given).sim;
}

}  // namespace flux::schedulers
