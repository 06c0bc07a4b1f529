#include "workload/presets.hpp"

namespace flux::workload {
namespace {

ModelConfig gpt3(const char* name, int layers, int hidden, int heads, double published) {
  ModelConfig m;
  m.name = name;
  m.num_layers = layers;
  m.hidden_size = hidden;
  m.ffn_hidden_size = 4 * hidden;
  m.num_attention_heads = heads;
  m.num_query_groups = heads;
  m.vocab_size = 50257;
  m.max_position_embeddings = 2048;
  m.gated_linear_unit = false;
  m.add_bias_linear = true;
  m.layernorm = true;
  m.untie_embeddings_and_output_weights = false;
  m.published_parameters = published;
  return m;
}

ModelConfig llama(const char* name, int layers, int hidden, int ffn, int heads, int kv,
                  std::int64_t vocab, double published) {
  ModelConfig m;
  m.name = name;
  m.num_layers = layers;
  m.hidden_size = hidden;
  m.ffn_hidden_size = ffn;
  m.num_attention_heads = heads;
  m.num_query_groups = kv;
  m.vocab_size = vocab;
  m.published_parameters = published;
  return m;
}

ModelConfig moe(ModelConfig m, int experts, int topk, int expert_ffn) {
  m.num_experts = experts;
  m.moe_router_topk = topk;
  m.moe_ffn_hidden_size = expert_ffn;
  return m;
}

ModelConfig qwen3(const char* name, int layers, int hidden, int heads, int expert_ffn,
                  double published) {
  ModelConfig m =
      moe(llama(name, layers, hidden, 3 * hidden, heads, 4, 151936, published), 128, 8, expert_ffn);
  m.kv_channels = 128;  // Qwen3 fixes the head dimension; heads * 128 != hidden
  m.qk_layernorm = true;
  return m;
}

ModelConfig deepseek_v3() {
  ModelConfig m = moe(llama("deepseek-v3", 61, 7168, 18432, 128, 128, 129280, 671e9), 256, 8, 2048);
  m.moe_shared_expert_intermediate_size = 2048;
  m.moe_first_dense_layers = 3;
  m.q_lora_rank = 1536;
  m.kv_lora_rank = 512;
  m.qk_head_dim = 128;
  m.qk_pos_emb_head_dim = 64;
  m.v_head_dim = 128;
  return m;
}

std::vector<ModelConfig> make_models() {
  // GPT-3 1.3B: the paper lists 24 heads of 128, which does not multiply to 2048; Megatron
  // configurations use 16 x 128 (the parameter count does not depend on the split).
  return {gpt3("gpt3-125m", 12, 768, 12, 125e6),
          gpt3("gpt3-350m", 24, 1024, 16, 350e6),
          gpt3("gpt3-760m", 24, 1536, 16, 760e6),
          gpt3("gpt3-1.3b", 24, 2048, 16, 1.3e9),
          gpt3("gpt3-2.7b", 32, 2560, 32, 2.7e9),
          gpt3("gpt3-6.7b", 32, 4096, 32, 6.7e9),
          gpt3("gpt3-13b", 40, 5120, 40, 13e9),
          gpt3("gpt3-175b", 96, 12288, 96, 175e9),
          llama("llama3-8b", 32, 4096, 14336, 32, 8, 128256, 8.03e9),
          llama("llama3-70b", 80, 8192, 28672, 64, 8, 128256, 70.6e9),
          llama("llama3-405b", 126, 16384, 53248, 128, 8, 128256, 405e9),
          moe(llama("mixtral-8x7b", 32, 4096, 14336, 32, 8, 32000, 46.7e9), 8, 2, 14336),
          qwen3("qwen3-30b-a3b", 48, 2048, 32, 768, 30.5e9),
          qwen3("qwen3-235b-a22b", 94, 4096, 64, 1536, 235e9),
          deepseek_v3()};
}

double attention_parameters(const ModelConfig& m) {
  const double h = m.hidden_size, a = m.num_attention_heads;
  if (m.q_lora_rank > 0) {  // MLA: low-rank Q and KV projections with their norms
    const double ql = m.q_lora_rank, kl = m.kv_lora_rank, rope = m.qk_pos_emb_head_dim;
    const double qk = m.qk_head_dim + rope;
    return h * ql + ql + ql * a * qk + h * (kl + rope) + kl +
           kl * a * (m.qk_head_dim + m.v_head_dim) + a * m.v_head_dim * h;
  }
  const double d = m.head_dim(), g = m.num_query_groups;
  double p = 2 * h * a * d + 2 * h * g * d;  // Q, O and K, V
  if (m.add_bias_linear) p += a * d + 2 * g * d + h;
  if (m.qk_layernorm) p += 2 * d;
  return p;
}

double mlp_parameters(const ModelConfig& m, double ffn) {
  const double h = m.hidden_size;
  double p = (m.gated_linear_unit ? 3 : 2) * h * ffn;
  if (m.add_bias_linear) p += ffn + h;
  return p;
}

}  // namespace

ParameterCount parameter_count(const ModelConfig& m) {
  const double h = m.hidden_size;
  const double norm = m.layernorm ? 2 * h : h;
  ParameterCount c;
  c.embedding = static_cast<double>(m.vocab_size) * h + m.max_position_embeddings * h;
  c.output =
      (m.untie_embeddings_and_output_weights ? static_cast<double>(m.vocab_size) * h : 0) + norm;
  c.attention = attention_parameters(m) + norm;
  c.dense_mlp = mlp_parameters(m, m.ffn_hidden_size) + norm;
  if (m.num_experts > 0) {
    c.moe_experts = m.num_experts * mlp_parameters(m, m.moe_ffn_hidden_size);
    c.moe_other = h * m.num_experts + norm;
    if (m.moe_shared_expert_intermediate_size > 0)
      c.moe_other += mlp_parameters(m, m.moe_shared_expert_intermediate_size);
  }
  c.total = c.embedding + c.output;
  for (int l = 0; l < m.num_layers; ++l)
    c.total += c.attention + (m.is_moe_layer(l) ? c.moe_experts + c.moe_other : c.dense_mlp);
  return c;
}

std::vector<ParamTensor> layer_parameter_tensors(const ModelConfig& m, int layer) {
  const ParameterCount c = parameter_count(m);
  const double h = m.hidden_size;
  std::vector<ParamTensor> out;
  // A linear layer's weight (+ bias) as Megatron fuses it; fc1 carries gate and up together.
  auto fc2 = [&](double ffn) { return ffn * h + (m.add_bias_linear ? h : 0); };
  if (m.is_moe_layer(layer)) {
    const double expert = c.moe_experts / m.num_experts;
    const double expert_fc2 = fc2(m.moe_ffn_hidden_size);
    for (int x = 0; x < m.num_experts; ++x) {
      out.push_back({expert_fc2, true});
      out.push_back({expert - expert_fc2, true});
    }
    out.push_back({c.moe_other, false});
  } else {
    out.push_back({fc2(m.ffn_hidden_size), false});
    out.push_back({c.dense_mlp - fc2(m.ffn_hidden_size), false});
  }
  const double out_dim = m.q_lora_rank > 0 ? 1.0 * m.num_attention_heads * m.v_head_dim
                                           : 1.0 * m.num_attention_heads * m.head_dim();
  const double proj = out_dim * h + (m.add_bias_linear ? h : 0);
  out.push_back({proj, false});
  out.push_back({c.attention - proj, false});
  return out;
}

const std::vector<ModelConfig>& model_presets() {
  static const std::vector<ModelConfig> models = make_models();
  return models;
}

const std::vector<GpuConfig>& gpu_presets() {
  // Dense bf16 tensor-core peak and HBM bandwidth from the vendor data sheets (SXM parts).
  static const std::vector<GpuConfig> gpus = {{"a100", 312e12, 2.039e12},
                                              {"h100", 989e12, 3.35e12},
                                              {"h200", 989e12, 4.8e12},
                                              {"b200", 2250e12, 8e12}};
  return gpus;
}

const ModelConfig* find_model_preset(const std::string& name) {
  for (const auto& m : model_presets())
    if (m.name == name) return &m;
  return nullptr;
}

const GpuConfig* find_gpu_preset(const std::string& name) {
  for (const auto& g : gpu_presets())
    if (g.name == name) return &g;
  return nullptr;
}

}  // namespace flux::workload
