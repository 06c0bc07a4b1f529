#pragma once
// The simulator's own form of a circuit schedule: integer picoseconds, task indices instead of
// file ids, and every message as a list of hops (an atomic message is one hop; a split message
// has several; a two-hop VLB message has hops via an intermediate GPU). Converts to and from
// flux.circuit-schedule/1.
#include <cstdint>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/hop_lists.hpp"
#include "fabric/sim_time.hpp"
#include "workload/workload.hpp"

namespace flux::fabric {

struct TimedCircuit {
  Time up = 0, down = 0;
  int sw = 0;
  int a = 0, b = 0;  // simplex: a sends, b receives
};

// When the hosts hand a send to its source NIC. A scheduler that gives the hosts a per-message
// timetable before the iteration (Flux, flux-greedy, any replayed schedule file) lets them post
// each message at its planned start, so the data waits in GPU memory; every other scheduler cannot
// know when a circuit will serve a message and posts it as soon as it is ready. The producer of a
// schedule sets this, and the NIC buffer metrics follow it.
enum class Posting { ready, timetable };
[[nodiscard]] const char* to_string(Posting p);

struct TimedSchedule {
  std::string scheduler;
  Posting posting = Posting::ready;
  HopLists hops;  // [task index] -> hops; empty for compute tasks
  std::vector<TimedCircuit> circuits;
  Time iteration_time = 0;
  // Set by a scheduler that lists every circuit it plays when that list passed its cap
  // (max_circuit_records) and it listed only the circuits that carried a hop instead: the
  // reconfigurations and the utilization then describe the circuits in use.
  bool used_circuits_only = false;
};

// What a scheduler returns: its schedule and the events its own run took.
struct ScheduleRun {
  TimedSchedule schedule;
  std::int64_t events = 0;
};

// The one hop of an atomic placement of `task` on OCS `sw` from `start` seconds: α + bytes/B.
[[nodiscard]] Hop atomic_hop(int sw, double start, const workload::Task& task,
                             const LinkTiming& lt);

// An atomic placement becomes one hop of α + bytes/B. The result posts by timetable: a schedule
// file is a timetable the hosts can follow. `file` names the schedule in errors; a
// message naming a missing or non-send task, a missing message, or a duplicate is an InputError.
[[nodiscard]] TimedSchedule to_timed(const CircuitSchedule& s, const workload::Workload& w,
                                     const Fabric& f, const std::string& file);
// The circuit intervals in picoseconds.
[[nodiscard]] std::vector<TimedCircuit> timed_circuits(
    const std::vector<CircuitInterval>& circuits);
// A message that is one full-rate hop from src to dst is written as atomic, others as pieces.
[[nodiscard]] CircuitSchedule to_circuit_schedule(const TimedSchedule& s,
                                                  const workload::Workload& w, const Fabric& f);
// Same with the hops given apart (a replay keeps them in its trace, not in its schedule).
[[nodiscard]] CircuitSchedule to_circuit_schedule(const TimedSchedule& s, const HopLists& hops,
                                                  const workload::Workload& w, const Fabric& f);

}  // namespace flux::fabric
