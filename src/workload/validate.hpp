#pragma once
// Structural checks of a workload DAG (flux.workload/1, docs/formats.md) and a topological order.
// validate_workload throws InputError naming the offending tasks by file id: send endpoints in
// range and distinct, predecessors in range, no cycle (the cycle's ids are listed), and the
// compute tasks of each GPU totally ordered by the `after` edges (the two unordered ids are named).
// Complexity: O(V + E) for the order and cycle search; the per-GPU chain check is O(V + E) when
// consecutive compute tasks are linked directly (as every generator emits them) and falls back
// to a backward search bounded by the tasks between the two compute tasks otherwise.
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "workload/workload.hpp"

namespace flux::workload {

// Successor lists in compressed (CSR) form, 4 bytes per edge — the graph can have tens of
// millions of edges: the successors of task t are target[offset[t] .. offset[t + 1]), in index
// order. O(V + E).
struct Successors {
  std::vector<std::size_t> offset;
  std::vector<int> target;
  [[nodiscard]] std::span<const int> operator[](std::size_t t) const {
    return {target.data() + offset[t], offset[t + 1] - offset[t]};
  }
};
[[nodiscard]] Successors successors(const Workload& w);

// Whether the predecessors of task `t`, at `index` in Workload::tasks, all come before it, as
// generators and importers emit them. Where every task's do, the index order is topological.
[[nodiscard]] inline bool predecessors_before(const Task& t, std::size_t index) {
  return std::all_of(t.after.begin(), t.after.end(),
                     [&](int p) { return p >= 0 && static_cast<std::size_t>(p) < index; });
}

// Kahn's algorithm; ties broken by index so the order is deterministic. Returns an empty vector
// when the graph has a cycle. `s` (successors(w)) when the caller has it already.
[[nodiscard]] std::vector<int> topological_order(const Workload& w);
[[nodiscard]] std::vector<int> topological_order(const Workload& w, const Successors& s);

// topological_order(), or an InputError at `label`/tasks naming a cycle of `after` edges.
// Task fields must be valid (indices in range), as validate_workload checks first.
[[nodiscard]] std::vector<int> checked_topological_order(const Workload& w,
                                                         const std::string& label);
[[nodiscard]] std::vector<int> checked_topological_order(const Workload& w, const Successors& s,
                                                         const std::string& label);

// Ids of one cycle (in edge order), empty if the graph is acyclic.
[[nodiscard]] std::vector<std::int64_t> find_cycle(const Workload& w);

void validate_workload(const Workload& w, const std::string& label);

}  // namespace flux::workload
