#pragma once
// Built-in model and GPU presets, and the parameter count of a model configuration.
// Model shapes follow the public configs (GPT-3: Brown et al. 2020 Table 2.1; Llama 3, Mixtral,
// Qwen3, DeepSeek-V3: their config.json). Field names
// follow Megatron-LM's arguments. parameter_count() is exact for the layer structure described
// (embeddings, attention incl. GQA/MLA, dense/gated MLP, MoE experts + router + shared experts,
// norms, biases), so tests can compare it with the published totals.
#include <cstdint>
#include <string>
#include <vector>

namespace flux::workload {

struct ModelConfig {
  std::string name;
  int num_layers = 0;
  int hidden_size = 0;
  int ffn_hidden_size = 0;
  int num_attention_heads = 0;
  int num_query_groups = 0;  // KV heads (GQA); = heads for MHA
  int kv_channels = 0;       // head dimension; 0 = hidden / heads
  std::int64_t vocab_size = 0;
  int max_position_embeddings = 0;  // learned position table rows (GPT); 0 = rotary
  bool gated_linear_unit = true;    // SwiGLU MLP (3 matrices) vs GELU (2)
  bool add_bias_linear = false;
  bool layernorm = false;  // LayerNorm (weight + bias) instead of RMSNorm (weight)
  bool qk_layernorm = false;
  bool untie_embeddings_and_output_weights = true;
  // Mixture of experts (num_experts = 0: dense).
  int num_experts = 0;
  int moe_router_topk = 0;
  int moe_ffn_hidden_size = 0;
  int moe_shared_expert_intermediate_size = 0;
  int moe_first_dense_layers = 0;  // DeepSeek-V3: the first 3 layers are dense
  // Multi-head latent attention (DeepSeek); q_lora_rank = 0 means ordinary attention.
  int q_lora_rank = 0;
  int kv_lora_rank = 0;
  int qk_head_dim = 0;  // non-rotary part
  int qk_pos_emb_head_dim = 0;
  int v_head_dim = 0;
  double published_parameters = 0;  // for the preset test; 0 when unknown

  int head_dim() const { return kv_channels > 0 ? kv_channels : hidden_size / num_attention_heads; }
  bool is_moe_layer(int layer) const { return num_experts > 0 && layer >= moe_first_dense_layers; }
};

// Parameter counts of the pieces the workload model needs (whole model, not sharded).
struct ParameterCount {
  double embedding = 0;    // input embedding (+ learned positions)
  double output = 0;       // output layer (0 when tied) + final norm
  double attention = 0;    // one layer: projections, biases, norms of the attention block
  double dense_mlp = 0;    // one dense layer's MLP + its norm
  double moe_experts = 0;  // one MoE layer: routed experts only
  double moe_other = 0;    // one MoE layer: router, shared experts, norm
  double total = 0;
};

[[nodiscard]] ParameterCount parameter_count(const ModelConfig& m);

// One parameter tensor as Megatron-core registers it (the unit DP buckets never split), whole,
// not sharded. `expert`: a routed expert's tensor (reduced over the expert-data-parallel group).
struct ParamTensor {
  double elems = 0;
  bool expert = false;
};
// The tensors of transformer layer `layer` in the order backward produces their gradients:
// MLP (fc2, then fc1 with its norm; per routed expert fc2, fc1; router and shared experts),
// then attention (output projection, then QKV with its norm) — always the last two. They sum to
// the layer's share of parameter_count().
[[nodiscard]] std::vector<ParamTensor> layer_parameter_tensors(const ModelConfig& m, int layer);

struct GpuConfig {
  std::string name;
  double peak_flops = 0;        // dense bf16, FLOP/s
  double memory_bandwidth = 0;  // HBM, bytes/s
};

[[nodiscard]] const std::vector<ModelConfig>& model_presets();
[[nodiscard]] const std::vector<GpuConfig>& gpu_presets();
// nullptr when unknown.
[[nodiscard]] const ModelConfig* find_model_preset(const std::string& name);
[[nodiscard]] const GpuConfig* find_gpu_preset(const std::string& name);

}  // namespace flux::workload
