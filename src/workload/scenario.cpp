#include "workload/scenario.hpp"

#include <fmt/format.h>

#include <filesystem>
#include <initializer_list>
#include <string_view>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/file_input.hpp"
#include "core/json_reader.hpp"
#include "workload/scenario_echo.hpp"
#include "workload/scenario_size.hpp"

namespace flux::workload {
namespace {

constexpr EnumNames kCollectiveAlgorithms{
    EnumName{CollectiveAlgorithm::ring, "ring"},
    EnumName{CollectiveAlgorithm::halving_doubling, "halving_doubling"},
    EnumName{CollectiveAlgorithm::direct, "direct"}};

constexpr std::int64_t kBig = std::int64_t{1} << 40;

void read_int(const JsonNode& obj, std::string_view key, int& out, int lo = 1) {
  if (auto n = obj.find(key)) out = static_cast<int>(n->integer(lo, 1 << 30));
}
void read_bool(const JsonNode& obj, std::string_view key, bool& out) {
  if (auto n = obj.find(key)) out = n->boolean();
}

ModelConfig parse_model(const JsonNode& node) {
  node.expect_keys({"preset", "num_layers", "hidden_size", "ffn_hidden_size", "num_attention_heads",
                    "num_query_groups", "kv_channels", "vocab_size", "max_position_embeddings",
                    "swiglu", "add_bias_linear", "normalization", "qk_layernorm",
                    "untie_embeddings_and_output_weights", "num_experts", "moe_router_topk",
                    "moe_ffn_hidden_size", "moe_shared_expert_intermediate_size",
                    "moe_first_dense_layers"});
  ModelConfig m;
  if (auto p = node.find("preset")) {
    const ModelConfig* preset = find_model_preset(p->string());
    if (!preset) {
      std::string names;
      for (const auto& x : model_presets()) names += (names.empty() ? "" : ", ") + x.name;
      p->fail("a model preset (" + names + ")");
    }
    m = *preset;
    m.published_parameters = 0;  // overrides may change the model
  }
  read_int(node, "num_layers", m.num_layers);
  read_int(node, "hidden_size", m.hidden_size);
  read_int(node, "ffn_hidden_size", m.ffn_hidden_size);
  read_int(node, "num_attention_heads", m.num_attention_heads);
  read_int(node, "num_query_groups", m.num_query_groups);
  read_int(node, "kv_channels", m.kv_channels);
  if (auto n = node.find("vocab_size")) m.vocab_size = n->integer(1, kBig);
  read_int(node, "max_position_embeddings", m.max_position_embeddings, 0);
  read_bool(node, "swiglu", m.gated_linear_unit);
  read_bool(node, "add_bias_linear", m.add_bias_linear);
  read_bool(node, "qk_layernorm", m.qk_layernorm);
  read_bool(node, "untie_embeddings_and_output_weights", m.untie_embeddings_and_output_weights);
  if (auto n = node.find("normalization")) {
    const std::string v = n->string();
    if (v != "LayerNorm" && v != "RMSNorm") n->fail("'LayerNorm' or 'RMSNorm'");
    m.layernorm = v == "LayerNorm";
  }
  read_int(node, "num_experts", m.num_experts, 0);
  read_int(node, "moe_router_topk", m.moe_router_topk, 0);
  read_int(node, "moe_ffn_hidden_size", m.moe_ffn_hidden_size, 0);
  read_int(node, "moe_shared_expert_intermediate_size", m.moe_shared_expert_intermediate_size, 0);
  read_int(node, "moe_first_dense_layers", m.moe_first_dense_layers, 0);
  if (m.num_query_groups == 0) m.num_query_groups = m.num_attention_heads;
  if (m.name.empty()) m.name = "custom";
  for (auto [key, value] : {std::pair{"num_layers", m.num_layers},
                            {"hidden_size", m.hidden_size},
                            {"ffn_hidden_size", m.ffn_hidden_size},
                            {"num_attention_heads", m.num_attention_heads}})
    if (value <= 0)
      throw InputError(node.file(), node.pointer() + "/" + key, "a positive integer (or a preset)");
  if (m.vocab_size <= 0)
    throw InputError(node.file(), node.pointer() + "/vocab_size",
                     "a positive integer (or a preset)");
  if (m.num_experts > 0 && (m.moe_router_topk < 1 || m.moe_router_topk > m.num_experts))
    throw InputError(node.file(), node.pointer() + "/moe_router_topk", "1 <= topk <= num_experts");
  return m;
}

std::array<Dim, kDims> parse_order(const JsonNode& node) {
  const std::string text = node.string();
  static constexpr std::array<std::string_view, kDims> names = {"tp", "cp", "ep", "dp", "pp"};
  std::array<Dim, kDims> order{};
  std::array<bool, kDims> seen{};
  std::size_t pos = 0;
  for (int i = 0; i < kDims; ++i) {
    const std::size_t dash = text.find('-', pos);
    const std::string_view token = std::string_view(text).substr(
        pos, dash == std::string::npos ? std::string::npos : dash - pos);
    int d = 0;
    while (d < kDims && names[static_cast<std::size_t>(d)] != token) ++d;
    if (d == kDims || seen[static_cast<std::size_t>(d)] ||
        (i < kDims - 1) == (dash == std::string::npos))
      node.fail("a permutation of tp-cp-ep-dp-pp joined by '-'");
    seen[static_cast<std::size_t>(d)] = true;
    order[static_cast<std::size_t>(i)] = static_cast<Dim>(d);
    pos = dash + 1;
  }
  return order;
}

ParallelConfig parse_parallel(const JsonNode& node) {
  node.expect_keys({"world_size", "tensor_model_parallel_size", "pipeline_model_parallel_size",
                    "context_parallel_size", "expert_model_parallel_size",
                    "virtual_pipeline_model_parallel_size", "sequence_parallel", "rank_order"});
  ParallelConfig p;
  p.world_size = static_cast<int>(node["world_size"].integer(1, 1 << 20));
  read_int(node, "tensor_model_parallel_size", p.tensor_model_parallel_size);
  read_int(node, "pipeline_model_parallel_size", p.pipeline_model_parallel_size);
  read_int(node, "context_parallel_size", p.context_parallel_size);
  read_int(node, "expert_model_parallel_size", p.expert_model_parallel_size);
  read_int(node, "virtual_pipeline_model_parallel_size", p.virtual_pipeline_model_parallel_size);
  read_bool(node, "sequence_parallel", p.sequence_parallel);
  if (auto n = node.find("rank_order")) p.order = parse_order(*n);
  const long long model =
      1LL * p.tensor_model_parallel_size * p.pipeline_model_parallel_size * p.context_parallel_size;
  if (p.world_size % model != 0)
    throw InputError(
        node.file(), node.pointer() + "/world_size",
        fmt::format("a multiple of tp * pp * cp = {} (data parallelism is derived), got {}", model,
                    p.world_size));
  if (p.data_parallel_size() % p.expert_model_parallel_size != 0)
    throw InputError(
        node.file(), node.pointer() + "/expert_model_parallel_size",
        fmt::format("a divisor of the derived data-parallel size {}", p.data_parallel_size()));
  return p;
}

double dtype_bytes(const JsonNode& n) {
  const std::string v = n.string();
  if (v == "bf16" || v == "fp16") return 2;
  if (v == "fp32") return 4;
  n.fail("'bf16', 'fp16' or 'fp32'");
}

TrainingConfig parse_training(const JsonNode& node) {
  node.expect_keys({"micro_batch_size", "global_batch_size", "seq_length", "params_dtype",
                    "accumulate_allreduce_grads_in_fp32", "recompute_granularity",
                    "use_distributed_optimizer", "ddp_bucket_size"});
  TrainingConfig t;
  t.micro_batch_size = static_cast<int>(node["micro_batch_size"].integer(1, 1 << 20));
  t.global_batch_size = static_cast<int>(node["global_batch_size"].integer(1, 1 << 30));
  t.seq_length = static_cast<int>(node["seq_length"].integer(1, 1 << 24));
  if (auto n = node.find("params_dtype")) t.bytes_per_element = dtype_bytes(*n);
  bool fp32_grads = false;
  read_bool(node, "accumulate_allreduce_grads_in_fp32", fp32_grads);
  t.bytes_per_gradient = fp32_grads ? 4 : t.bytes_per_element;
  if (auto n = node.find("recompute_granularity")) {
    const std::string v = n->string();
    if (v != "none" && v != "full") n->fail("'none' or 'full'");
    t.recompute_full = v == "full";
  }
  read_bool(node, "use_distributed_optimizer", t.use_distributed_optimizer);
  if (auto n = node.find("ddp_bucket_size")) t.ddp_bucket_size = n->positive();
  return t;
}

HardwareConfig parse_hardware(const JsonNode& node) {
  node.expect_keys({"gpu", "peak_flops", "memory_bandwidth", "mfu"});
  HardwareConfig h;
  h.gpu = "custom";
  if (auto g = node.find("gpu")) {
    const GpuConfig* preset = find_gpu_preset(g->string());
    if (!preset) g->fail("a GPU preset (a100, h100, h200, b200)");
    h.gpu = preset->name;
    h.peak_flops = preset->peak_flops;
    h.memory_bandwidth = preset->memory_bandwidth;
  }
  if (auto n = node.find("peak_flops")) h.peak_flops = n->positive();
  if (auto n = node.find("memory_bandwidth")) h.memory_bandwidth = n->positive();
  if (auto n = node.find("mfu")) h.mfu = n->positive();
  if (h.mfu > 1) node["mfu"].fail("a fraction in (0, 1]");
  if (h.peak_flops <= 0 || h.memory_bandwidth <= 0)
    throw InputError(node.file(), node.pointer() + "/gpu",
                     "a GPU preset or both peak_flops and memory_bandwidth");
  return h;
}

CollectiveAlgorithm parse_algorithm(const JsonNode& n, bool all_to_all) {
  const std::string v = n.string();
  if (all_to_all) {
    if (kCollectiveAlgorithms.find(v) != CollectiveAlgorithm::direct)
      n.fail("'direct' (all-to-all is sent directly)");
    return CollectiveAlgorithm::direct;
  }
  if (const auto a = kCollectiveAlgorithms.find(v); a && *a != CollectiveAlgorithm::direct)
    return *a;
  n.fail("'ring' or 'halving_doubling'");
}

CollectiveConfig parse_collectives(const JsonNode& node) {
  node.expect_keys({"tp", "dp", "cp", "ep"});
  CollectiveConfig c;
  if (auto n = node.find("tp")) c.tp = parse_algorithm(*n, false);
  if (auto n = node.find("dp")) c.dp = parse_algorithm(*n, false);
  if (auto n = node.find("cp")) {
    if (n->string() != "ring") n->fail("'ring' (context parallelism passes K/V around a ring)");
  }
  if (auto n = node.find("ep")) c.ep = parse_algorithm(*n, true);
  return c;
}

MoeRoutingConfig parse_moe(const JsonNode& node, const std::string& scenario_path) {
  node.expect_keys({"routing", "zipf_alpha", "dirichlet_alpha", "hot_experts", "hot_fraction",
                    "seed", "expert_load"});
  MoeRoutingConfig m;
  if (auto n = node.find("routing")) {
    const std::string v = n->string();
    if (v == "uniform")
      m.kind = RoutingKind::uniform;
    else if (v == "zipf")
      m.kind = RoutingKind::zipf;
    else if (v == "dirichlet")
      m.kind = RoutingKind::dirichlet;
    else if (v == "hot")
      m.kind = RoutingKind::hot;
    else if (v == "file")
      m.kind = RoutingKind::file;
    else
      n->fail("'uniform', 'zipf', 'dirichlet', 'hot' or 'file'");
  }
  if (auto n = node.find("zipf_alpha")) m.zipf_alpha = n->non_negative();
  if (auto n = node.find("dirichlet_alpha")) m.dirichlet_alpha = n->positive();
  read_int(node, "hot_experts", m.hot_experts);
  if (auto n = node.find("hot_fraction")) m.hot_fraction = n->non_negative();
  if (m.hot_fraction > 1) node["hot_fraction"].fail("a fraction in [0, 1]");
  if (auto n = node.find("seed")) m.seed = static_cast<std::uint64_t>(n->integer(0, kBig));
  if (auto n = node.find("expert_load")) {
    const std::filesystem::path file(n->string());
    m.expert_load_file = file.is_absolute()
                             ? file.string()
                             : (std::filesystem::path(scenario_path).parent_path() / file).string();
  }
  if (m.kind == RoutingKind::file && m.expert_load_file.empty())
    throw InputError(node.file(), node.pointer() + "/expert_load", "a file for routing 'file'");
  return m;
}

}  // namespace

const char* to_string(CollectiveAlgorithm a) {
  return kCollectiveAlgorithms.name(a);
}

Scenario parse_scenario(const std::string& text, const std::string& label) {
  JsonNode root = JsonNode::parse(text, label);
  root.expect_format("flux.scenario", 1);
  root.expect_keys({"format", "name", "model", "parallelism", "training", "hardware", "collectives",
                    "moe", "derived"});
  Scenario s;
  if (auto n = root.find("name")) s.name = n->string();
  s.model = parse_model(root["model"]);
  s.parallel = parse_parallel(root["parallelism"]);
  s.training = parse_training(root["training"]);
  s.hardware = parse_hardware(root["hardware"]);
  if (auto n = root.find("collectives")) s.collectives = parse_collectives(*n);
  if (auto n = root.find("moe")) s.moe = parse_moe(*n, label);
  validate_scenario(s, label);
  check_scenario_size(s, label);
  if (auto n = root.find("derived")) check_scenario_derived(s, *n);
  return s;
}

Scenario read_scenario(const std::string& path) {
  return parse_scenario(read_file(path), path);
}

}  // namespace flux::workload
