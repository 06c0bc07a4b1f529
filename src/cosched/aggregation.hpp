#pragma once
// Message aggregation, a scalability device of the MILP: fewer messages, fewer conflict pairs.
// Merges sends the DAG lets travel as one, on one circuit, back to back:
//   chains   — send b whose only predecessor is send a, a's only successor b, same src → dst;
//   siblings — sends with the same src → dst, the same predecessors and the same successors.
// A merged send lasts Σ p_i (its bytes carry the extra latencies, (k − 1)·α·B), so expanding it —
// the parts one after the other from its start on its OCS — tiles its interval exactly and is a
// feasible schedule of the original workload with the same iteration time. Aggregation restricts
// the search (the parts can no longer run on two OCSes at once), so it is an option, off by
// default, and a schedule built with it has no proven bound. Complexity O((V + E) log V).
#include <vector>

#include "cosched/instance.hpp"
#include "cosched/placement.hpp"

namespace flux::cosched {

struct Aggregation {
  workload::Workload workload;          // the aggregated DAG
  std::vector<std::vector<int>> parts;  // per aggregated task: original task indices, in order
  int merged = 0;                       // sends absorbed into another
};

[[nodiscard]] Aggregation aggregate_messages(const CoschedInstance& inst);

// Placements of the original messages from those of the aggregated instance.
[[nodiscard]] std::vector<Placement> expand_placements(const CoschedInstance& original,
                                                       const CoschedInstance& aggregated,
                                                       const Aggregation& agg,
                                                       const std::vector<Placement>& placements);

}  // namespace flux::cosched
