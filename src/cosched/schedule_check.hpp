#pragma once
// Independent certificate checker for atomic circuit schedules (flux.circuit-schedule/1) of a
// co-scheduling instance: every send placed once on an existing OCS, no send before its
// predecessors finish, same-port messages on one switch separated by τ when their circuits differ
// and not overlapping in one direction when they share it, no port used before τ unless the
// initial configuration is free, every message inside an up interval of its circuit, the circuit
// intervals of a port τ apart when they change, and the reported iteration time recomputed.
// It checks pairs directly (no list scheduling) so that it does not share the schedulers' logic.
// Complexity O(V + E + Σ_port users² + circuits²).
#include <string>
#include <vector>

#include "cosched/instance.hpp"
#include "fabric/fabric.hpp"

namespace flux {

// Returns the violations found (empty = feasible), each a readable sentence.
[[nodiscard]] std::vector<std::string> check_circuit_schedule(const CoschedInstance& inst,
                                                              const CircuitSchedule& schedule);

}  // namespace flux
