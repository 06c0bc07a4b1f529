#pragma once
// Set-up chains: family 5 of the Flux lower bound (lower_bound.hpp). The set-up pigeonhole of
// family 3 raised along the DAG: σ + 1 messages of one GPU side on pairwise different circuits
// that are all ancestors of a task v put two on one port, so v cannot start before the later of
// that pair ends, τ after the earlier one. If v is itself a message at that side, σ ancestors
// suffice (v is the (σ + 1)-th). This raises v's head; over descendants in reversed time, its
// tail. What it charges: a GPU whose σ ports hold its TP ring circuits pays τ before a pipeline
// hop (sender side) and τ before its next ring step after one (receiver side), once per hop.
// Proof in setup_chain.cpp. Per task and GPU side it keeps the σ + 1 latest-ending ancestor
// messages on distinct circuits (merged from its neighbours), so a pass costs
// O(Σ_v (d_v · σ) log(d_v · σ) + σ²) time and O(V · σ) memory.
#include <vector>

#include "cosched/instance.hpp"

namespace flux::cosched {

// One pass, forward (heads, over ancestors) or backward (tails, over descendants in reversed time).
class SetupChains {
 public:
  SetupChains(const CoschedInstance& inst, bool forward);
  // A valid lower bound on time[v] (head if forward, tail if backward) from the companions of v,
  // which it records for v's successors (predecessors if backward). Call for every task in
  // topological order (reversed if backward), with `time` final for the tasks visited before.
  [[nodiscard]] double visit(int v, const std::vector<double>& time);

 private:
  struct Sides {
    int side[4];
    int count = 0;
  };
  [[nodiscard]] Sides sides_of(int v) const;
  // The partner GPU of message task m at `side`, or -1 when m does not use that side.
  [[nodiscard]] int partner(int m, int side) const;
  [[nodiscard]] double bound_at(int v, int side, const std::vector<int>& picked,
                                const std::vector<double>& time) const;

  const CoschedInstance& inst_;
  bool forward_;
  int keep_;                              // σ + 1 companions per side
  std::vector<long long> first_;          // task -> its first companion slot in `companion_`
  std::vector<int> companion_;            // task indices, -1 = empty
  std::vector<int> candidates_, picked_;  // scratch
};

}  // namespace flux::cosched
