// scenario_to_json: the effective configuration of a scenario (presets resolved, defaults filled,
// derived values added), so every run can record exactly what it modelled. Every input is written
// explicitly and the derived values go to their own object, so the echo is itself a scenario that
// reads back unchanged.
#include "workload/scenario_echo.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/json_reader.hpp"
#include "workload/presets.hpp"

namespace flux::workload {
namespace {

const char* dim_name(Dim d) {
  static constexpr const char* kNames[] = {"tp", "cp", "ep", "dp", "pp"};
  return kNames[static_cast<int>(d)];
}

const char* routing_name(RoutingKind k) {
  static constexpr const char* kNames[] = {"uniform", "zipf", "dirichlet", "hot", "file"};
  return kNames[static_cast<int>(k)];
}

nlohmann::ordered_json model_json(const ModelConfig& m) {
  nlohmann::ordered_json j;
  // The preset also carries what has no key of its own (multi-head latent attention); the
  // explicit fields after it override the rest.
  if (find_model_preset(m.name)) j["preset"] = m.name;
  j.update(nlohmann::ordered_json{
      {"num_layers", m.num_layers},
      {"hidden_size", m.hidden_size},
      {"ffn_hidden_size", m.ffn_hidden_size},
      {"num_attention_heads", m.num_attention_heads},
      {"num_query_groups", m.num_query_groups},
      {"kv_channels", m.head_dim()},
      {"vocab_size", m.vocab_size},
      {"max_position_embeddings", m.max_position_embeddings},
      {"swiglu", m.gated_linear_unit},
      {"add_bias_linear", m.add_bias_linear},
      {"normalization", m.layernorm ? "LayerNorm" : "RMSNorm"},
      {"qk_layernorm", m.qk_layernorm},
      {"untie_embeddings_and_output_weights", m.untie_embeddings_and_output_weights},
      {"num_experts", m.num_experts},
      {"moe_router_topk", m.moe_router_topk},
      {"moe_ffn_hidden_size", m.moe_ffn_hidden_size},
      {"moe_shared_expert_intermediate_size", m.moe_shared_expert_intermediate_size},
      {"moe_first_dense_layers", m.moe_first_dense_layers}});
  return j;
}

nlohmann::ordered_json derived_json(const Scenario& s) {
  return {{"parameters", parameter_count(s.model).total},
          {"data_parallel_size", s.parallel.data_parallel_size()},
          {"num_microbatches", s.num_microbatches()},
          {"bytes_per_element", s.training.bytes_per_element},
          {"bytes_per_gradient", s.training.bytes_per_gradient}};
}

}  // namespace

std::string scenario_to_json(const Scenario& s) {
  const ParallelConfig& p = s.parallel;
  const TrainingConfig& t = s.training;
  std::string order;
  for (Dim d : p.order) {
    if (!order.empty()) order += '-';
    order += dim_name(d);
  }
  nlohmann::ordered_json j;
  j["format"] = "flux.scenario/1";
  j["name"] = s.name;
  j["model"] = model_json(s.model);
  j["parallelism"] = {
      {"world_size", p.world_size},
      {"tensor_model_parallel_size", p.tensor_model_parallel_size},
      {"pipeline_model_parallel_size", p.pipeline_model_parallel_size},
      {"context_parallel_size", p.context_parallel_size},
      {"expert_model_parallel_size", p.expert_model_parallel_size},
      {"virtual_pipeline_model_parallel_size", p.virtual_pipeline_model_parallel_size},
      {"sequence_parallel", p.sequence_parallel},
      {"rank_order", order}};
  // fp16 and bf16 are both two bytes, all the model distinguishes.
  j["training"] = {{"micro_batch_size", t.micro_batch_size},
                   {"global_batch_size", t.global_batch_size},
                   {"seq_length", t.seq_length},
                   {"params_dtype", t.bytes_per_element == 4 ? "fp32" : "bf16"},
                   {"accumulate_allreduce_grads_in_fp32", t.bytes_per_gradient == 4},
                   {"recompute_granularity", t.recompute_full ? "full" : "none"},
                   {"use_distributed_optimizer", t.use_distributed_optimizer}};
  if (t.ddp_bucket_size > 0) j["training"]["ddp_bucket_size"] = t.ddp_bucket_size;
  if (s.hardware.gpu != "custom") j["hardware"]["gpu"] = s.hardware.gpu;
  j["hardware"]["peak_flops"] = s.hardware.peak_flops;
  j["hardware"]["memory_bandwidth"] = s.hardware.memory_bandwidth;
  j["hardware"]["mfu"] = s.hardware.mfu;
  j["collectives"] = {{"tp", to_string(s.collectives.tp)},
                      {"dp", to_string(s.collectives.dp)},
                      {"cp", to_string(s.collectives.cp)},
                      {"ep", to_string(s.collectives.ep)}};
  j["moe"] = {{"routing", routing_name(s.moe.kind)},      {"zipf_alpha", s.moe.zipf_alpha},
              {"dirichlet_alpha", s.moe.dirichlet_alpha}, {"hot_experts", s.moe.hot_experts},
              {"hot_fraction", s.moe.hot_fraction},       {"seed", s.moe.seed}};
  if (!s.moe.expert_load_file.empty()) j["moe"]["expert_load"] = s.moe.expert_load_file;
  j["derived"] = derived_json(s);
  return j.dump(2) + "\n";
}

void check_scenario_derived(const Scenario& s, const JsonNode& derived) {
  const nlohmann::ordered_json want = derived_json(s);
  if (!derived.is_object()) derived.fail("an object of derived values");
  for (const auto& [key, value] : derived.raw().items()) {
    const std::string pointer = derived.pointer() + "/" + key;
    if (!want.contains(key)) throw InputError(derived.file(), pointer, "a known field (typo?)");
    // Both sides are dumped by the same library, so equal values print equally.
    if (value.dump() != want[key].dump())
      throw InputError(derived.file(), pointer,
                       fmt::format("{} as derived from the scenario, got {} (derived values are "
                                   "not inputs: drop `derived` after editing)",
                                   want[key].dump(), value.dump()));
  }
}

}  // namespace flux::workload
