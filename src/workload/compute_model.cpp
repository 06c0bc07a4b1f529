#include "workload/compute_model.hpp"

#include <algorithm>

namespace flux::workload {

double roofline_seconds(double flops, double bytes, const HardwareConfig& hw) {
  return std::max(flops / (hw.peak_flops * hw.mfu), bytes / hw.memory_bandwidth);
}

double ComputeModel::experts_fwd(double tokens) const {
  return roofline_seconds(tokens * expert_flops_per_token,
                          expert_weight_bytes + 2 * tokens * token_bytes, hardware);
}

ComputeModel compute_model(const Scenario& s) {
  const ModelConfig& m = s.model;
  const ParallelConfig& p = s.parallel;
  const TrainingConfig& tr = s.training;
  const ParameterCount pc = parameter_count(m);
  const double t = p.tensor_model_parallel_size;
  const double B = tr.bytes_per_element;
  const double h = m.hidden_size;
  const double seq_local = static_cast<double>(tr.seq_length) / p.context_parallel_size;
  const double tokens = tr.micro_batch_size * seq_local;
  const double act = 4 * tokens * h * B / t;  // input and output, read and written

  ComputeModel c;
  c.hardware = s.hardware;
  c.token_bytes = h * B;
  auto matmul = [&](double params) {
    return roofline_seconds(2 * tokens * params / t, params * B / t + act, s.hardware);
  };
  const double d_qk = m.q_lora_rank > 0 ? m.qk_head_dim + m.qk_pos_emb_head_dim : m.head_dim();
  const double d_v = m.q_lora_rank > 0 ? m.v_head_dim : m.head_dim();
  const double core = 2 * tokens * tr.seq_length * m.num_attention_heads * (d_qk + d_v) / t;
  c.attention_fwd = roofline_seconds(2 * tokens * pc.attention / t + core,
                                     pc.attention * B / t + act, s.hardware);
  c.dense_mlp_fwd = matmul(pc.dense_mlp);
  c.moe_dense_part_fwd = matmul(pc.moe_other);
  c.head_fwd = matmul(static_cast<double>(m.vocab_size) * h);
  c.embedding_fwd = roofline_seconds(0, 2 * tokens * h * B, s.hardware);
  if (m.num_experts > 0) {
    const double per_expert = pc.moe_experts / m.num_experts;
    c.expert_flops_per_token = 2 * per_expert;
    c.expert_weight_bytes =
        per_expert * B * m.num_experts / p.expert_model_parallel_size;  // expert TP = 1
  }
  c.reduce_seconds_per_byte = 3 / s.hardware.memory_bandwidth;  // read two operands, write one
  c.optimizer_seconds_per_param = 16 / s.hardware.memory_bandwidth;
  return c;
}

}  // namespace flux::workload
