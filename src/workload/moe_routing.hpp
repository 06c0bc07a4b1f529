#pragma once
// MoE routing: how many tokens each EP rank sends to each expert, per MoE layer
// (docs/workload.md). Seeded generators: uniform, Zipf(alpha) over a per-layer random
// expert popularity order, Dirichlet(alpha) per source rank, and "hot-k" (k hot experts receive a
// given share). Every token picks top-k *distinct* experts, so each source row sums to exactly
// tokens * k. The importer reads measured loads (JSON flux.expert-load/1 or CSV
// `layer,src_rank,expert,tokens`). Dispatch traffic: bytes[i][j] = token_bytes * sum of load[i][x]
// over experts x placed on rank j (contiguous placement); combine is its transpose.
// Complexity: generation O(ranks * tokens * k * log E).
#include <cstdint>
#include <string>
#include <vector>

#include "workload/scenario.hpp"

namespace flux::workload {

using ExpertLoad = std::vector<std::vector<std::int64_t>>;  // [src rank][expert] -> tokens

// `stream` distinguishes independent draws (layer, micro-batch, group); `layer` fixes the
// popularity order shared by all sources of that layer.
[[nodiscard]] ExpertLoad generate_routing(const MoeRoutingConfig& cfg, int ranks, int experts,
                                          int tokens_per_rank, int topk, int layer,
                                          std::uint64_t stream);

struct ExpertLoadTable {
  int ranks = 0;
  int experts = 0;
  std::vector<ExpertLoad> layers;  // indexed by MoE layer
};

[[nodiscard]] ExpertLoadTable read_expert_load(const std::string& path);
[[nodiscard]] ExpertLoadTable parse_expert_load_csv(const std::string& text,
                                                    const std::string& label);
[[nodiscard]] ExpertLoadTable parse_expert_load_json(const std::string& text,
                                                     const std::string& label);

// Expert x lives on rank x / (experts / ranks).
[[nodiscard]] std::vector<std::vector<double>> dispatch_bytes(const ExpertLoad& load,
                                                              double token_bytes);
// Token-assignments each rank's experts process.
[[nodiscard]] std::vector<double> tokens_received(const ExpertLoad& load);

}  // namespace flux::workload
