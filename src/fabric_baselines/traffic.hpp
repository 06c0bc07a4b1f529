#pragma once
// Traffic matrices of a workload: bytes i → j summed over send tasks (the
// iteration's aggregate TM when all sends are taken), and
// the symmetrised form max(D, Dᵀ) that duplex circuits serve. O(tasks + n²).
#include <vector>

#include "core/matrix.hpp"
#include "workload/workload.hpp"

namespace flux {

// The demand a circuit planner must serve: bytes, but a zero-byte send counts as one byte since it
// still needs its circuit. All sends, or only the given task indices (compute tasks ignored).
[[nodiscard]] Matrix circuit_demand(const Workload& w);
[[nodiscard]] Matrix circuit_demand(const Workload& w, const std::vector<int>& tasks);
[[nodiscard]] Matrix symmetrized(const Matrix& d);

}  // namespace flux
