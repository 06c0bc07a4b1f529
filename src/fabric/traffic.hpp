#pragma once
// Traffic matrices of a workload: bytes i → j summed over send tasks (reference/flux.md §4.3), and
// the symmetrised form max(D, Dᵀ) that duplex circuits serve. O(tasks + n²).
#include <vector>

#include "core/matrix.hpp"
#include "workload/workload.hpp"

namespace flux {

// All sends of the iteration (the aggregate TM).
[[nodiscard]] Matrix traffic_matrix(const Workload& w);
// Only the given task indices (compute tasks among them are ignored).
[[nodiscard]] Matrix traffic_matrix(const Workload& w, const std::vector<int>& tasks);
[[nodiscard]] Matrix symmetrized(const Matrix& d);

}  // namespace flux
