#pragma once
// Traffic matrices of a workload: bytes i → j summed over send tasks (the
// iteration's aggregate TM when all sends are taken), and
// the symmetrised form max(D, Dᵀ) that duplex circuits serve. O(tasks + n²).
#include <span>
#include <tuple>
#include <utility>
#include <vector>

#include "core/matrix.hpp"
#include "workload/workload.hpp"

namespace flux::fabric_baselines {

// The demand a circuit planner must serve: bytes, but a zero-byte send counts as one byte since it
// still needs its circuit. All sends, or only the given task indices (compute tasks ignored).
[[nodiscard]] Matrix circuit_demand(const workload::Workload& w);
[[nodiscard]] Matrix circuit_demand(const workload::Workload& w, const std::vector<int>& tasks);
[[nodiscard]] Matrix symmetrized(const Matrix& d);

// The same demand as its non-zero entries (from, to, bytes) in row-major order, each summed in
// the order circuit_demand sums it, so that dense() of them equals circuit_demand exactly.
// O(tasks · log) instead of O(n²): a key for plans of equal demands.
using DemandEntries = std::vector<std::tuple<int, int, double>>;
[[nodiscard]] DemandEntries circuit_demand_entries(const workload::Workload& w,
                                                   const std::vector<int>& tasks);
[[nodiscard]] Matrix dense(int n, const DemandEntries& entries);
// symmetrized(dense(n, entries)) in O(n² zeroing + entries), without reading the n² matrix.
[[nodiscard]] Matrix symmetrized(int n, const DemandEntries& entries);
// What those two do to a matrix that is zero at the entries' places: sets m(from, to) = bytes,
// and with `symmetric` also m(to, from), each the larger of the two directions. `m` is n x n,
// row-major; its other entries are left as they are.
void write_demand(std::span<double> m, int n, const DemandEntries& entries, bool symmetric);
// The places write_demand sets, row-major, each once.
[[nodiscard]] std::vector<std::pair<int, int>> demand_places(const DemandEntries& entries,
                                                             bool symmetric);

}  // namespace flux::fabric_baselines
