#pragma once
// Every workload scheduler of the fabric by name (DESIGN §4, reference/flux.md §4): the CLI, the
// lead's comparison table, the bench and the tests go through this list and simulate().
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "fabric/replay.hpp"
#include "fabric/timed_schedule.hpp"

namespace flux {

struct SchedulerOptions {
  double duty_cycle = 0.9;  // rotornet*: share of a slot that carries data, in (0, 1)
  double slot = 0.0;        // rotornet*: slot length in s; 0 = τ / (1 − duty_cycle)
  double frame = 0.0;       // bvn: periodic frame length in s; 0 = one-shot (the decomposition's)
  std::string topology;     // static: "0-1,2-3/1-2,3-0" (one list per OCS); empty = heaviest
  std::string phase_algorithm = "spectra";  // spectra-phase: matrix scheduler for each phase
};

struct Scheduler {
  std::string name;
  std::string description;
  std::function<ScheduleRun(const Workload&, const Fabric&, const SchedulerOptions&)> run;
  bool electrical = false;  // no circuits: hops are not checked against ports
};

[[nodiscard]] const std::vector<Scheduler>& schedulers();
[[nodiscard]] const Scheduler* find_scheduler(std::string_view name);  // nullptr if unknown

// Runs `scheduler` and replays its schedule through the checker and the metrics: the one entry
// point for "this workload on this fabric under that scheduler". Bad input (a workload that does
// not fit, an unknown scheduler, options out of range, a static topology missing a circuit) is an
// InputError; a scheduler whose schedule fails the checker is a bug (std::logic_error).
[[nodiscard]] SimResult simulate(const Workload& w, const Fabric& f, std::string_view scheduler,
                                 const SchedulerOptions& opt = {},
                                 const std::string& workload_file = "workload");

}  // namespace flux
