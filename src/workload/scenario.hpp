#pragma once
// flux.scenario/1: a training setup described with Megatron-LM's argument names
// (docs/formats.md, docs/workload.md). Sections: model (a preset plus overrides, or all fields),
// parallelism (TP, PP, CP, EP, virtual stages, sequence parallelism, rank order; DP is derived),
// training (micro/global batch, sequence, dtype, recompute, distributed optimizer, DDP bucket),
// hardware (GPU preset or peak FLOP/s and memory bandwidth, MFU), collectives (algorithm per group)
// and moe (routing generator or measured expert-load file). parse_scenario validates every field
// and every divisibility rule and throws InputError naming the field.
#include <array>
#include <cstdint>
#include <string>

#include "workload/presets.hpp"

namespace flux::workload {

enum class CollectiveAlgorithm { ring, halving_doubling, direct };
const char* to_string(CollectiveAlgorithm a);

// Mesh dimensions in Megatron's rank order; the first varies fastest.
enum class Dim { tp, cp, ep, dp, pp };
inline constexpr int kDims = 5;

struct ParallelConfig {
  int world_size = 1;
  int tensor_model_parallel_size = 1;
  int pipeline_model_parallel_size = 1;
  int context_parallel_size = 1;
  int expert_model_parallel_size = 1;
  int virtual_pipeline_model_parallel_size = 1;
  bool sequence_parallel = false;
  std::array<Dim, kDims> order = {Dim::tp, Dim::cp, Dim::ep, Dim::dp, Dim::pp};
  // Derived, as in Megatron: world / (tp * pp * cp).
  int data_parallel_size() const {
    return world_size /
           (tensor_model_parallel_size * pipeline_model_parallel_size * context_parallel_size);
  }
};

struct TrainingConfig {
  int micro_batch_size = 1;
  int global_batch_size = 1;
  int seq_length = 2048;
  double bytes_per_element = 2;   // params_dtype (activations and parameters)
  double bytes_per_gradient = 2;  // 4 with accumulate_allreduce_grads_in_fp32
  bool recompute_full = false;    // recompute_granularity = "full"
  bool use_distributed_optimizer = false;
  double ddp_bucket_size = 0;  // elements; 0 = Megatron's default max(4e7, 1e6 * dp)
};

struct HardwareConfig {
  std::string gpu;              // preset name or "custom"
  double peak_flops = 0;        // FLOP/s
  double memory_bandwidth = 0;  // bytes/s
  double mfu = 0.5;             // achieved fraction of peak on matrix multiplies
};

struct CollectiveConfig {
  CollectiveAlgorithm tp = CollectiveAlgorithm::ring;
  CollectiveAlgorithm dp = CollectiveAlgorithm::ring;
  CollectiveAlgorithm cp = CollectiveAlgorithm::ring;
  CollectiveAlgorithm ep = CollectiveAlgorithm::direct;
};

enum class RoutingKind { uniform, zipf, dirichlet, hot, file };

struct MoeRoutingConfig {
  RoutingKind kind = RoutingKind::uniform;
  double zipf_alpha = 1.0;
  double dirichlet_alpha = 1.0;
  int hot_experts = 1;
  double hot_fraction = 0.5;  // share of routed tokens that go to the hot experts
  std::uint64_t seed = 1;
  std::string expert_load_file;  // kind == file; relative to the scenario file
};

struct Scenario {
  std::string name;
  ModelConfig model;
  ParallelConfig parallel;
  TrainingConfig training;
  HardwareConfig hardware;
  CollectiveConfig collectives;
  MoeRoutingConfig moe;

  // Derived: global batch / (micro batch * data-parallel size).
  int num_microbatches() const {
    return training.global_batch_size / (training.micro_batch_size * parallel.data_parallel_size());
  }
};

[[nodiscard]] Scenario read_scenario(const std::string& path);
[[nodiscard]] Scenario parse_scenario(const std::string& text, const std::string& label);
// The cross-field rules (degrees divide layers, heads, batch, sequence, experts; power-of-two
// groups for halving-doubling); parse_scenario calls it, builders of Scenario structs in code
// should.
void validate_scenario(const Scenario& s, const std::string& label);
// The effective configuration for the record (presets resolved, defaults filled in, derived
// values such as the DP size, micro-batches and parameter count in a `derived` object). It reads
// back as the same scenario: parse_scenario checks `derived` against its own derivation.
[[nodiscard]] std::string scenario_to_json(const Scenario& s);

}  // namespace flux::workload
