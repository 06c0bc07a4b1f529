#include "fabric/scheduler.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "core/error.hpp"
#include "fabric/bvn_frame.hpp"
#include "fabric/ideal.hpp"
#include "fabric/rotornet.hpp"
#include "fabric/run_budget.hpp"
#include "fabric/spectra_phase.hpp"
#include "fabric/static_topology.hpp"
#include "fabric/workload_fit.hpp"

namespace flux {

const std::vector<Scheduler>& schedulers() {
  using W = const Workload&;
  using F = const Fabric&;
  using O = const SchedulerOptions&;
  static const std::vector<Scheduler> list = {
      {"static", "fixed circuits per OCS (--topology, or the heaviest pairs)",
       [](W w, F f, O o) { return schedule_static(w, f, o); }},
      {"rotornet", "RotorNet-Direct: round-robin matchings, slot τ/(1-duty)",
       [](W w, F f, O o) { return schedule_rotornet(w, f, o, false); }},
      {"rotornet-vlb", "RotorLB: RotorNet with two-hop relaying through the current neighbour",
       [](W w, F f, O o) { return schedule_rotornet(w, f, o, true); }},
      {"bvn", "BvN on the aggregate traffic matrix, one-shot frame (--frame for periodic)",
       [](W w, F f, O o) { return schedule_bvn(w, f, o); }},
      {"spectra-phase", "Spectra on each communication phase's demand as it becomes ready",
       [](W w, F f, O o) { return schedule_spectra_phase(w, f, o); }},
      {"ideal", "ideal electrical fabric: non-blocking sigma*B per GPU, max-min fair, no tau",
       [](W w, F f, O) { return schedule_ideal(w, f); }, true},
  };
  return list;
}

const Scheduler* find_scheduler(std::string_view name) {
  for (const Scheduler& s : schedulers())
    if (s.name == name) return &s;
  return nullptr;
}

SimResult simulate(const Workload& w, const Fabric& f, std::string_view scheduler,
                   const SchedulerOptions& opt, const std::string& workload_file) {
  const Scheduler* s = find_scheduler(scheduler);
  if (s == nullptr) {
    std::string names;
    for (const Scheduler& known : schedulers()) names += (names.empty() ? "" : ", ") + known.name;
    throw InputError("", "--scheduler", fmt::format("one of {}, got \"{}\"", names, scheduler));
  }
  check_workload_fits(w, f, workload_file);
  check_scheduler_budget(f, s->name);
  ScheduleRun run = s->run(w, f, opt);
  check_output_budget(run.schedule, s->name);
  SimOptions replay_options;
  replay_options.check_circuits = !s->electrical;
  SimResult r = replay_timed(w, f, std::move(run.schedule), replay_options);
  if (!r.ok)
    throw std::logic_error(fmt::format("scheduler {} produced an infeasible schedule: {}", s->name,
                                       r.violations.front()));
  r.metrics.events = run.events;
  return r;
}

}  // namespace flux
