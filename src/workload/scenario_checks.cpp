// validate_scenario: the cross-field rules of a flux.scenario/1 file (scenario.hpp).
#include <fmt/format.h>

#include "core/error.hpp"
#include "workload/scenario.hpp"

namespace flux::workload {
namespace {

bool power_of_two(int x) {
  return x > 0 && (x & (x - 1)) == 0;
}

struct Checker {
  const std::string& label;
  void require(bool ok, const char* field, const std::string& why) const {
    if (!ok) throw InputError(label, field, why);
  }
};

void check_model_split(const Scenario& s, const Checker& c) {
  const ModelConfig& m = s.model;
  const ParallelConfig& p = s.parallel;
  const int stages = p.pipeline_model_parallel_size * p.virtual_pipeline_model_parallel_size;
  c.require(m.num_layers % stages == 0, "/model/num_layers",
            fmt::format("a multiple of pipeline stages x virtual stages = {}, got {}", stages,
                        m.num_layers));
  c.require(p.virtual_pipeline_model_parallel_size == 1 || p.pipeline_model_parallel_size > 1,
            "/parallelism/virtual_pipeline_model_parallel_size",
            "1 unless pipeline_model_parallel_size > 1 (interleaving needs a pipeline)");
  c.require(m.head_dim() > 0, "/model/hidden_size",
            fmt::format("at least num_attention_heads = {} (or kv_channels set): heads of "
                        "dimension 0 have no attention to compute",
                        m.num_attention_heads));
  const int t = p.tensor_model_parallel_size;
  c.require(m.num_attention_heads % t == 0, "/parallelism/tensor_model_parallel_size",
            fmt::format("a divisor of num_attention_heads = {}", m.num_attention_heads));
  c.require(m.q_lora_rank > 0 || m.num_query_groups % t == 0,
            "/parallelism/tensor_model_parallel_size",
            fmt::format("a divisor of num_query_groups = {}", m.num_query_groups));
  c.require(m.num_experts > 0 || p.expert_model_parallel_size == 1,
            "/parallelism/expert_model_parallel_size", "1 for a dense model (num_experts = 0)");
  if (m.num_experts > 0) {
    c.require(m.num_experts % p.expert_model_parallel_size == 0,
              "/parallelism/expert_model_parallel_size",
              fmt::format("a divisor of num_experts = {}", m.num_experts));
    c.require(t == 1 || p.sequence_parallel, "/parallelism/sequence_parallel",
              "true: Megatron requires sequence parallelism for MoE with tensor parallelism");
    c.require(s.moe.hot_experts <= m.num_experts, "/moe/hot_experts", "at most num_experts");
  }
}

void check_batch(const Scenario& s, const Checker& c) {
  const ParallelConfig& p = s.parallel;
  const TrainingConfig& t = s.training;
  const long long per_step = 1LL * t.micro_batch_size * p.data_parallel_size();
  c.require(t.global_batch_size % per_step == 0, "/training/global_batch_size",
            fmt::format("a multiple of micro_batch_size x data-parallel size = {}, got {}",
                        per_step, t.global_batch_size));
  c.require(t.seq_length % p.context_parallel_size == 0, "/training/seq_length",
            fmt::format("a multiple of context_parallel_size = {}", p.context_parallel_size));
  const int local = t.seq_length / p.context_parallel_size;
  c.require(!p.sequence_parallel || local % p.tensor_model_parallel_size == 0,
            "/training/seq_length",
            "divisible by tp x cp when sequence parallelism splits it across TP ranks");
  if (p.virtual_pipeline_model_parallel_size > 1) {
    const long long m = t.global_batch_size / per_step;
    c.require(m % p.pipeline_model_parallel_size == 0, "/training/global_batch_size",
              "a number of micro-batches divisible by the pipeline size (interleaved schedule)");
  }
}

void check_algorithms(const Scenario& s, const Checker& c) {
  const ParallelConfig& p = s.parallel;
  const bool hd = s.collectives.tp == CollectiveAlgorithm::halving_doubling;
  c.require(!hd || power_of_two(p.tensor_model_parallel_size), "/collectives/tp",
            "'ring' unless the TP size is a power of two (halving-doubling pairs i XOR 2^k)");
  const bool dhd = s.collectives.dp == CollectiveAlgorithm::halving_doubling;
  const int dp_group = p.data_parallel_size() * p.context_parallel_size;
  const int expert_dp = dp_group / p.expert_model_parallel_size;
  c.require(!dhd || (power_of_two(dp_group) && power_of_two(expert_dp)), "/collectives/dp",
            "'ring' unless the data-parallel group sizes are powers of two");
}

}  // namespace

void validate_scenario(const Scenario& s, const std::string& label) {
  const Checker c{label};
  check_model_split(s, c);
  check_batch(s, c);
  check_algorithms(s, c);
}

}  // namespace flux::workload
