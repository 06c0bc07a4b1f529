#pragma once
// The options of the fabric's baseline schedulers, as they read them. Their names, defaults,
// ranges and help live in one options table per scheduler (schedulers/fabric_schedulers.cpp),
// which fills this struct; errors that only show in context name the option's key.
#include <string>

#include "fabric/replay.hpp"  // the engine and ScheduleRun, which every scheduler here uses
#include "fabric/run_budget.hpp"

namespace flux::fabric {

struct SchedulerOptions {
  double duty_cycle = 0.9;  // rotornet*: share of a slot that carries data, in (0, 1)
  double slot = 0.0;        // rotornet*: slot length in s; 0 = τ / (1 − duty_cycle)
  double frame = 0.0;       // bvn: periodic frame length in s; 0 = one-shot (the decomposition's)
  std::string topology;     // static: "0-1,2-3/1-2,3-0" (one list per OCS); empty = heaviest
  std::string phase_algorithm = "spectra";  // spectra-phase: matrix scheduler for each phase
  Progress* progress = nullptr;  // where the scheduler's own simulation reports (not an option)
  // The files the caller writes (not an option): a periodic scheduler stops once the circuit
  // records it keeps pass what they may hold (max_circuit_records).
  CircuitOutputs outputs{};
};

}  // namespace flux::fabric
