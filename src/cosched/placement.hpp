#pragma once
// Atomic message placements and what follows from them: list scheduling of messages in a given
// order on given switches (earliest start after everything earlier on the same ports — the
// semi-active schedule of an order), and the flux.circuit-schedule/1 with its circuit intervals.
// Reference: DESIGN §1.2, §2.5; reference/flux.md §3.4. Complexity O(V + E + M log M).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cosched/instance.hpp"
#include "fabric/fabric.hpp"

namespace flux {

struct Placement {
  int sw = -1;
  double start = 0.0;
};

// Places messages in `order` (message indices, a linear extension of the DAG restricted to
// messages; it may stop early — a prefix-closed subset) on `switch_of[m]`, each at its earliest
// start; unlisted messages stay unplaced (sw = -1). Compute tasks run as soon as ready.
// Returns nullopt when `order` contradicts the DAG or lists a message twice. Given the start order
// and switches of any feasible schedule, the result is feasible and no later for every task (a left
// shift).
[[nodiscard]] std::optional<std::vector<Placement>> schedule_in_order(
    const CoschedInstance& inst, const std::vector<int>& switch_of, const std::vector<int>& order);

// Message indices sorted by start time (ties: topological position), for `schedule_in_order`.
[[nodiscard]] std::vector<int> start_order(const CoschedInstance& inst,
                                           const std::vector<Placement>& placements);

// Iteration time of the placements (last task end).
[[nodiscard]] double iteration_time(const CoschedInstance& inst,
                                    const std::vector<Placement>& placements);

// The schedule file: one atomic entry per send, and the circuit intervals the placements imply.
// A port switches as late as possible (dark during the τ before its next circuit's first use);
// a circuit is up while both of its ports point at each other.
[[nodiscard]] CircuitSchedule make_circuit_schedule(const CoschedInstance& inst,
                                                    const std::vector<Placement>& placements,
                                                    const std::string& scheduler);

// Port reconfigurations the placements need: the simulator's count (fabric/schedule_check) on
// the circuits of `make_circuit_schedule`.
[[nodiscard]] std::int64_t count_reconfigurations(const CoschedInstance& inst,
                                                  const std::vector<Placement>& placements);

}  // namespace flux
