#pragma once
// The Flux co-scheduling MILP (docs/models.md) over one window of messages, with these
// scalability devices: order binaries only for free (DAG-incomparable) conflict pairs, a plain gap
// row for DAG-ordered pairs, h = 0 between messages of one circuit (reuse), time windows
// [ES, LS] from the warm start's objective that turn free pairs into ordered ones or drop them,
// pair-specific big-M, and symmetry breaking across identical OCSes.
//   min C   s.t.  C ≥ t_v + p_v + tail_v                  (window frontier tasks)
//                 t_v ≥ t_u + p_u                          (DAG edges inside the window)
//                 Σ_s x_{m,s} = 1
//                 t_m ≥ e_{m,s} − M(1 − x_{m,s})           (port state left by fixed messages;
//                                                           first set-up τ unless free)
//                 t_b ≥ t_a + p_a + h − M(2 − x_as − x_bs)             (ordered pairs, ∀s)
//                 t_b ≥ t_a + p_a + h − M(1 − z) − M(2 − x_as − x_bs)  (free pairs, ∀s, and the
//                 t_a ≥ t_b + p_b + h − M z     − M(2 − x_as − x_bs)    reverse)
// With no fixed messages and the window = all messages this is the monolithic model and C is
// the iteration time. Times are scaled so that the warm start's objective is 1000 units.
// Size: O(M·σ) binaries for x, one binary per surviving free pair, O(pairs·σ) rows.
#include <vector>

#include "cosched/conflicts.hpp"
#include "cosched/instance.hpp"
#include "cosched/placement.hpp"
#include "milp/model.hpp"

namespace flux::cosched {

struct FluxMilpOptions {
  bool prune = true;              // time windows from the warm start (else bounds [ES, H])
  bool symmetry_breaking = true;  // only applied when every OCS starts in the same state
  bool forbid_reuse = false;      // ablation: τ between any two messages on a port
  // Weight of Σ t_m (window messages) next to C, in model units: > 0 makes a window solve prefer
  // early starts among placements of equal C (rolling horizon); 0 keeps min C exactly.
  double start_weight = 0.0;
};

struct FluxModelStats {
  int messages = 0, tasks = 0;
  int pairs_ordered = 0, pairs_free = 0;  // rows kept (ordered incl. pruned-to-ordered)
  int pairs_pruned = 0;                   // dropped: windows never interact
  int pairs_separated = 0;                // both orders impossible: never on one OCS
  int pruned_to_ordered = 0;              // free pairs ordered by their time windows
};

struct FluxModel {
  milp::Model milp;
  double time_unit = 1.0;               // seconds per model time unit
  std::vector<int> t_col;               // per task, -1 = outside the model
  std::vector<std::vector<int>> x_col;  // per message, empty = outside the window
  struct OrderVar {
    int col, a, b;  // 1 iff a starts before b
  };
  std::vector<OrderVar> z;
  std::vector<int> frontier;        // tasks bounding C
  std::vector<int> symmetry_order;  // window messages whose first use fixes switch labels
  int c_col = -1;
  FluxModelStats stats;
};

// `placed` holds the fixed messages (sw >= 0) and, for window messages, a feasible warm start
// (for instance flux-greedy's) that sets the upper bound and the big-M values.
[[nodiscard]] FluxModel build_flux_model(const CoschedInstance& inst, const Ancestry& closure,
                                         const std::vector<char>& window,
                                         const std::vector<Placement>& placed,
                                         const FluxMilpOptions& options);

// The model's value of placements (fixed + window); C is their window objective.
[[nodiscard]] std::vector<double> encode_solution(const FluxModel& model,
                                                  const CoschedInstance& inst,
                                                  std::vector<Placement> placements);

// max over frontier tasks of end + tail (seconds): what the window model minimises.
[[nodiscard]] double window_objective(const FluxModel& model, const CoschedInstance& inst,
                                      const std::vector<Placement>& placements);

struct WindowDecision {
  std::vector<int> switch_of;  // per message (window messages set, others -1)
  std::vector<int> order;      // window messages by start time
};
[[nodiscard]] WindowDecision decode_solution(const FluxModel& model, const CoschedInstance& inst,
                                             const std::vector<double>& values);

}  // namespace flux::cosched
