#pragma once
// Exhaustive search for tiny co-scheduling instances: the exact optimum of the Flux model, used to
// certify the MILP. Every optimal schedule is the semi-active schedule of its own start order and
// switch assignment (the MILP constraints only compare starts pairwise), so trying every switch
// assignment (the first message pinned to OCS 0: identical switches) with every linear extension
// of the message order finds the optimum. Complexity O(σ^(M−1) · L · (V + E)), L = number of
// linear extensions ≤ M!; intended for M ≤ 8.
#include <vector>

#include "cosched/instance.hpp"
#include "cosched/placement.hpp"

namespace flux::cosched {

struct ExhaustiveResult {
  std::vector<Placement> placements;
  double iteration_time = 0.0;
  long long evaluated = 0;  // schedules tried
};

// Precondition: at most 10 messages (more is rejected with std::invalid_argument).
[[nodiscard]] ExhaustiveResult exhaustive_optimum(const CoschedInstance& inst);

}  // namespace flux::cosched
