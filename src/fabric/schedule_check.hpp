#pragma once
// The certificate checker of circuit schedules: every scheduler's output and
// every replayed file goes through it. Static part (no DAG timing): no port on two circuits at
// once; a port that changes partner is dark τ before the new circuit (and before its first one
// unless initial_config_free); each hop lies inside a circuit joining its endpoints on its OCS and
// runs no faster than B (end − start ≥ α + bytes/B); two hops in the same direction of one port
// never overlap; every message delivers its bytes, relayed bytes leave an intermediate only after
// they arrived. Returns one sentence per violation naming the task and the port.
// Cost: O((circuits + hops) log(circuits + hops)).
#include <cstdint>
#include <string>
#include <vector>

#include "fabric/fabric.hpp"
#include "fabric/timed_schedule.hpp"
#include "workload/workload.hpp"

namespace flux::fabric {

// Times compare with this tolerance: 1e-9 × max(iteration time, τ), at least 2 ps
// to absorb the rounding of seconds to picoseconds.
[[nodiscard]] Time time_tolerance(Time iteration_time, const Fabric& f);

// With `reconfigurations`, also counts them (count_reconfigurations) on the same pass over the
// ports, which the metrics then need not make again.
[[nodiscard]] std::vector<std::string> check_schedule(const TimedSchedule& s,
                                                      const workload::Workload& w, const Fabric& f,
                                                      Time tol,
                                                      std::int64_t* reconfigurations = nullptr);

// Port circuit changes: per port, one per change of partner, plus one first set-up
// per used port unless the initial configuration is free.
[[nodiscard]] std::int64_t count_reconfigurations(const std::vector<TimedCircuit>& circuits,
                                                  const Fabric& f);

// "port (gpu 3, ocs 1)" (duplex) or "TX port (gpu 3, ocs 1)" (simplex).
[[nodiscard]] std::string describe_port(const Fabric& f, int gpu, int sw, bool tx);

}  // namespace flux::fabric
