#pragma once
// Replay of a given circuit schedule: the entry point for Flux's MILP and
// greedy output and the last step of every scheduler here. The schedule is checked first
// (schedule_check: ports, τ, circuits, rates, bytes); then the DAG runs in the engine with every
// send placed exactly as given, which checks DAG order (no hop leaves a GPU before the send is
// ready) and recomputes the iteration time the schedule reports. Any violation makes the result
// not ok, lists the offending tasks and ports, and leaves the metrics empty — an infeasible
// schedule produces no numbers.
#include <optional>
#include <string>
#include <vector>

#include "fabric/engine.hpp"
#include "fabric/metrics.hpp"

namespace flux::fabric {

struct SimOptions {
  EngineOptions engine;
  bool check_circuits = true;  // false for the ideal electrical fabric (no circuits, no ports)
  // Keep the NIC-buffer curves the metrics sweep over (SimResult::buffer_series) for the files
  // that show them; without, those files sweep again.
  bool keep_buffer_series = false;
  // Keep the circuit records in SimResult::schedule, for the files that list them; without, they
  // go once checked and counted for the metrics, before the DAG is played.
  bool keep_circuits = true;
};

struct SimResult {
  bool ok = false;
  std::vector<std::string> violations;  // empty when ok
  SimMetrics metrics;                   // only when ok
  Trace trace;  // after a finished run, trace.hops holds the schedule's hops
  // The schedule that was replayed; its hops moved into the trace, its circuits dropped without
  // SimOptions::keep_circuits.
  TimedSchedule schedule;
  // With SimOptions::keep_buffer_series, when ok: the curves of nic_buffer(…, series).
  std::optional<std::vector<BufferSample>> buffer_series;
};

// Throws InputError when the workload does not fit the fabric or a message names a missing task
// (`schedule_file` names the schedule in that error).
[[nodiscard]] SimResult replay(const workload::Workload& w, const Fabric& f,
                               const CircuitSchedule& s, const SimOptions& opt = {},
                               const std::string& schedule_file = "circuit schedule");

// Same on the simulator's own form; precondition: check_workload_fits. Hops not sized to the
// tasks are a violation.
[[nodiscard]] SimResult replay_timed(const workload::Workload& w, const Fabric& f, TimedSchedule s,
                                     const SimOptions& opt = {});

}  // namespace flux::fabric
