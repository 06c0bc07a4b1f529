#pragma once
// Builds one training iteration of a scenario as a flux.workload/1 DAG (modelling choices in
// docs/workload.md). Per pipeline stage the
// Megatron 1F1B order (interleaved with virtual stages); per layer forward and backward compute by
// roofline (compute_model.hpp); TP all-reduces, or all-gather + reduce-scatter with sequence
// parallelism, expanded into ring or halving-doubling steps with reduction tasks; ring attention
// for CP; EP all-to-all from the routing; PP sends of activations and gradients; DP gradient
// buckets released as the last micro-batch's backward produces them (overlapping backward), the
// tied-embedding all-reduce, the optimizer step and, with the distributed optimizer, the parameter
// all-gather. Every task carries layer, micro-batch, phase, group and collective tags.
// Tasks stream into the sink in an order where predecessors come first; memory is O(GPUs x
// micro-batches), independent of the number of tasks. Time: O(tasks).
#include "workload/scenario.hpp"
#include "workload/task_sink.hpp"
#include "workload/workload.hpp"

namespace flux::workload {

void build_workload(const Scenario& s, TaskSink& sink);
[[nodiscard]] Workload build_workload(const Scenario& s);

}  // namespace flux::workload
