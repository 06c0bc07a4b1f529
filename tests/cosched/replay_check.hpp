#pragma once
// The certificate of the cosched tests: a placement's flux.circuit-schedule/1 goes through the
// simulator's checker and replay (fabric/schedule_check, fabric/replay: every send placed once,
// ports, τ gaps, circuits, DAG order, the reported iteration time recomputed) without violation —
// the same check every scheduler's output and every replayed file passes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cosched/placement.hpp"
#include "fabric/replay.hpp"

namespace flux::testing {

inline fabric::CircuitSchedule checked_schedule(const cosched::CoschedInstance& inst,
                                                const std::vector<cosched::Placement>& placements,
                                                const std::string& scheduler = "test") {
  fabric::CircuitSchedule s = cosched::make_circuit_schedule(inst, placements, scheduler);
  const fabric::SimResult r = replay(inst.workload, inst.fabric, s);
  EXPECT_TRUE(r.ok) << (r.violations.empty() ? "" : r.violations.front());
  return s;
}

// The iteration time of a checked schedule.
inline double checked_time(const cosched::CoschedInstance& inst,
                           const std::vector<cosched::Placement>& placements) {
  return checked_schedule(inst, placements).iteration_time;
}

}  // namespace flux::testing
