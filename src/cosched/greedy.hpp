#pragma once
// flux-greedy: event-driven list scheduling of a training-iteration DAG on per-port OCSes with
// circuit-reuse look-ahead. Tasks are released in order of
// ready time (ties: longest remaining path first); compute tasks start when ready; a message goes
// to the OCS where it can start earliest — a port that must change circuit pays τ after its last
// use, which hides τ behind compute whenever the port idles. Ties prefer a switch that already
// holds the circuit, then one whose torn-down circuits have no pending messages, then the one
// whose displaced circuits are next needed latest (Belady).
// It is the MILP's warm start, upper bound and fallback. Complexity O((V + E) log V + M·σ).
#include <vector>

#include "cosched/instance.hpp"
#include "cosched/placement.hpp"

namespace flux::cosched {

struct GreedyOptions {
  bool lookahead = true;       // false: first switch among equally early ones
  std::vector<int> switch_of;  // when not empty: the OCS of every message, fixed in advance
};

// Schedules the messages marked in `to_place` (all when empty) after the already `fixed` ones
// (placements with sw >= 0; they keep their times and switches and come first on every port).
// Messages neither fixed nor placed stay unplaced (sw = -1) and hold back their descendants.
[[nodiscard]] std::vector<Placement> flux_greedy(const CoschedInstance& inst,
                                                 const GreedyOptions& options = {},
                                                 const std::vector<Placement>& fixed = {},
                                                 const std::vector<char>& to_place = {});

}  // namespace flux::cosched
