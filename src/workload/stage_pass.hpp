#pragma once
// Internal to the DAG builder: the ranks of one pipeline stage advance through a forward or
// backward pass in lockstep. `wait[i]` is what stage rank i's next task waits for besides its
// compute chain (a received activation, a collective's last step); compute tasks consume it,
// collectives replace it with their completion.
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "workload/collectives.hpp"
#include "workload/compute_model.hpp"
#include "workload/moe_routing.hpp"
#include "workload/rank_layout.hpp"
#include "workload/task_emitter.hpp"

namespace flux::workload {

struct BuildContext {
  BuildContext(const Scenario& scenario, TaskEmitter& emitter);
  const Scenario& s;
  RankLayout layout;
  ComputeModel cm;
  TaskEmitter& em;
  std::optional<ExpertLoadTable> measured;  // routing file, when configured
  std::vector<int> local;                   // global rank -> index within its stage
  double act_bytes = 0;                     // b * (s / c) * h * B: a TP collective's buffer
  double kv_bytes = 0;                      // K and V of the local sequence, per TP rank
  int moe_tokens = 0;                       // tokens each EP rank routes per micro-batch
  // Routing drawn in a layer's forward, reused by its backward: (layer, micro-batch) -> loads.
  std::map<std::pair<int, int>, std::vector<ExpertLoad>> routing_cache;
};

struct StagePass {
  std::vector<int> ranks;  // ranks of the stage, ascending
  std::vector<Deps> wait;
  int microbatch = 0;
  const char* phase = "fwd";
  double factor = 1;  // compute multiplier: 1 forward, 2 backward
};

// What rank `r`'s next send waits for: its pending inputs and its last compute task.
[[nodiscard]] Deps ready_deps(const BuildContext& c, const StagePass& p, int r);

// Per-rank durations (size = ranks) or one duration for all.
void compute_all(BuildContext& c, StagePass& p, int layer, const std::string& what, double seconds);
void compute_each(BuildContext& c, StagePass& p, int layer, const std::string& what,
                  const std::vector<double>& seconds);

enum class CollectiveKind { all_reduce, reduce_scatter, all_gather, ring_pass };

// Runs one collective per group of the stage; `vary` selects the group dimensions. `in_stream`:
// reductions are compute tasks on the chain (collectives that block compute); overlapped
// collectives (DP) leave the compute stream alone (collectives.hpp).
void group_collective(BuildContext& c, StagePass& p, std::initializer_list<Dim> vary,
                      CollectiveKind kind, double bytes, CollectiveAlgorithm algorithm,
                      const char* group, int layer, const std::string& what, bool in_stream = true);

// The TP communication before / after a tensor-parallel block (Megatron's f and g operators;
// identical in forward and backward): with sequence parallelism all-gather before and
// reduce-scatter after, otherwise nothing before and all-reduce after.
void tp_before(BuildContext& c, StagePass& p, int layer, const std::string& what);
void tp_after(BuildContext& c, StagePass& p, int layer, const std::string& what);

void layer_forward(BuildContext& c, StagePass& p, int layer);
// `on_gradients(attention)` runs after the MLP block's backward (false) and after the attention
// block's backward (true): the moments Megatron's hooks see those parameters' gradients.
void layer_backward(BuildContext& c, StagePass& p, int layer,
                    const std::function<void(bool attention)>& on_gradients);

}  // namespace flux::workload
