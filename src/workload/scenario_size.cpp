#include "workload/scenario_size.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/limits.hpp"
#include "workload/compute_model.hpp"
#include "workload/size_limit.hpp"

namespace flux::workload {

namespace {

// Tasks each rank emits per micro-batch and layer, at least: forward and backward compute, and
// the sends of the per-layer collectives (two TP all-reduces or all-gather + reduce-scatter pairs
// per pass, 2 (t - 1) ring steps each; a ring-attention pass of c - 1 steps per pass; two
// all-to-alls of e - 1 sends per pass in MoE layers). DP buckets and pipeline sends are left out.
double tasks_per_layer(const Scenario& s) {
  const ParallelConfig& p = s.parallel;
  const double t = p.tensor_model_parallel_size, c = p.context_parallel_size,
               e = p.expert_model_parallel_size;
  const double moe = s.model.num_experts > 0 ? 1 : 0;
  return 2 + 2 * (2 * 2 * (t - 1)) + 2 * (c - 1) + moe * 2 * 2 * (e - 1);
}

}  // namespace

double estimated_task_count(const Scenario& s) {
  return static_cast<double>(s.parallel.world_size) * s.num_microbatches() *
         (static_cast<double>(s.model.num_layers) / s.parallel.pipeline_model_parallel_size) *
         tasks_per_layer(s);
}

void check_scenario_size(const Scenario& s, const std::string& label) {
  const double ranks = s.parallel.world_size;
  const double micro = s.num_microbatches();
  const double layers = static_cast<double>(s.model.num_layers) /
                        s.parallel.pipeline_model_parallel_size;  // per rank
  const double per_layer = tasks_per_layer(s);
  check_generated_size(
      estimated_task_count(s), label, "/model/num_layers",
      fmt::format("{:g} ranks x {:g} micro-batches x {:g} layers per stage x {:g} tasks per layer "
                  "(lower num_layers, global_batch_size or world_size)",
                  ranks, micro, layers, per_layer));
  // One rank's compute alone, at least its attention per layer forward and backward.
  const ComputeModel cm = compute_model(s);
  const double serial = micro * layers * cm.attention_fwd * (1 + ComputeModel::kBackwardFactor);
  if (!(serial <= kMaxSeconds))
    throw InputError(label, "/hardware/mfu",
                     fmt::format("an iteration within the simulator's clock range ({:g} s): at "
                                 "mfu {:g} one rank computes for at least {:.3g} s",
                                 kMaxSeconds, s.hardware.mfu, serial));
  // The largest messages: a micro-batch's activations between stages and a gradient bucket.
  const double activations = cm.token_bytes * s.training.micro_batch_size * s.training.seq_length;
  if (!(activations <= kMaxBytes))
    throw InputError(label, "/training/micro_batch_size",
                     fmt::format("a micro-batch whose activations fit 2^53 bytes, got {:.3g} bytes",
                                 activations));
  const double bucket = s.training.ddp_bucket_size * s.training.bytes_per_gradient;
  if (!(bucket <= kMaxBytes))
    throw InputError(label, "/training/ddp_bucket_size",
                     fmt::format("a bucket of at most 2^53 bytes, got {:.3g} bytes", bucket));
}

}  // namespace flux::workload
