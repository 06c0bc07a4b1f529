#pragma once
// Compute durations of one micro-batch on one rank by a roofline with MFU:
// t = max(FLOPs / (peak * MFU), bytes moved / HBM bandwidth).
// FLOPs per layer follow Narayanan et al. (SC'21), as Megatron-LM counts them: every
// matrix multiply costs 2 FLOPs per parameter per token (so a dense GPT layer is 24·b·s·h²),
// plus the attention core 2·b·s_q·s_kv·a·(d_qk + d_v) (= 4·b·s²·h for MHA, no causal discount,
// as in Megatron's formula). Tensor parallelism divides matrix work by t, context parallelism
// divides the local query length by c. Backward = 2 x forward. Bytes are weights read once plus
// the layer's input and output activations. Complexity: O(1).
#include "workload/scenario.hpp"

namespace flux::workload {

struct ComputeModel {
  double embedding_fwd = 0;  // seconds
  double attention_fwd = 0;
  double dense_mlp_fwd = 0;
  double moe_dense_part_fwd = 0;  // router + shared experts of a MoE layer
  double head_fwd = 0;            // output layer + loss
  double expert_flops_per_token = 0;
  double expert_weight_bytes = 0;  // this rank's experts
  double reduce_seconds_per_byte = 0;
  double optimizer_seconds_per_param = 0;  // mixed-precision Adam: ~16 bytes per parameter
  double token_bytes = 0;                  // one token's hidden vector
  HardwareConfig hardware;

  static constexpr double kBackwardFactor = 2;
  // Routed experts on this rank processing `tokens` token-assignments.
  [[nodiscard]] double experts_fwd(double tokens) const;
};

[[nodiscard]] double roofline_seconds(double flops, double bytes, const HardwareConfig& hw);
[[nodiscard]] ComputeModel compute_model(const Scenario& s);

}  // namespace flux::workload
