#pragma once
// slack-gap-fill: a constructive co-scheduling heuristic that protects the critical path and
// fits everything else into the ports' idle gaps, paying τ only where a gap is long enough.
//  1. Heads r_m (flux_heads: with the first set-up), tails q_m, slack_m = CP − (r_m + p_m + q_m)
//     with CP the critical path from those heads.
//  2. Critical messages (slack ≤ critical_slack · CP) are planned at the earliest time at which
//     one OCS can carry them beside what is planned already: a different circuit on a shared port
//     stays τ away, the same circuit only serialises one direction. On the TP rings of the Flux
//     paper's workload this pins each ring circuit to one OCS. Either in head order, each from
//     its head r_m (CriticalPlan::at_heads), or in topological order, each from the planned end
//     of its predecessors (CriticalPlan::after_predecessors; compute and the other messages
//     counted from when they are ready). The second keeps the plan consistent with the DAG where
//     port conflicts push critical messages past their heads — with 2 OCS and a large τ every
//     pipeline hop between two TP rings does — so that the gaps found in step 3 are where the
//     critical messages will really be; the first plans each critical message as early as it
//     could ever go, which is better where such conflicts are rare.
//  3. The other messages, in topological order, take the earliest such gap after their planned
//     predecessors end (compute tasks as soon as ready).
//     Optionally (home_slack) every message of steps 2 and 3 goes on its circuit's home OCS, a
//     static edge colouring of the circuits (circuit_coloring.hpp), unless another OCS fits it
//     more than home_slack · τ earlier. Earliest fits alone spread the messages of one ring step
//     that are ready together over all OCSes, so the next step's circuit is set up again on each;
//     home OCSes keep a ring's circuits apart and in place.
//  4. The plan's start order and OCS choice are list-scheduled (schedule_in_order), so the result
//     is feasible whatever the plan; the plan only guides it.
// Unlike flux-greedy (earliest start now, in ready order) it never lets a message with slack
// take a port the critical path is about to need: slack plays the part of
// the MILP's time windows. Complexity O(M · σ · B + (V + E) + M log M), B = planned messages
// per port.
#include <vector>

#include "core/deadline.hpp"
#include "cosched/instance.hpp"
#include "cosched/placement.hpp"

namespace flux::cosched {

enum class CriticalPlan { at_heads, after_predecessors };

struct GapFillOptions {
  double critical_slack = 1e-9;  // relative to the critical path: planned first
  CriticalPlan critical_plan = CriticalPlan::at_heads;
  double home_slack = -1.0;  // in τ; < 0: every message on the OCS where it fits earliest
  Deadline deadline{};       // a plan not finished when it passes is dropped
};

// Every message placed; empty when the deadline passed before the plan was complete.
[[nodiscard]] std::vector<Placement> slack_gap_fill(const CoschedInstance& inst,
                                                    const GapFillOptions& options = {});

}  // namespace flux::cosched
