#include "workload/moe_routing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "core/rng.hpp"

namespace flux::workload {
namespace {

// Popularity weights of the experts for one source rank.
std::vector<double> expert_weights(const MoeRoutingConfig& cfg, int experts, Rng& layer_rng,
                                   Rng& rng) {
  std::vector<double> w(static_cast<std::size_t>(experts), 1.0);
  // The layer's popularity order is shared by all sources; per-source noise comes from `rng`.
  const std::vector<int> order = layer_rng.permutation(experts);
  switch (cfg.kind) {
    case RoutingKind::zipf:
      for (int r = 0; r < experts; ++r)
        w[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] =
            1.0 / std::pow(r + 1.0, cfg.zipf_alpha);
      break;
    case RoutingKind::dirichlet:
      w = rng.dirichlet(experts, cfg.dirichlet_alpha);
      break;
    case RoutingKind::hot: {
      const int hot = std::min(cfg.hot_experts, experts);
      for (int r = 0; r < experts; ++r)
        w[static_cast<std::size_t>(order[static_cast<std::size_t>(r)])] =
            r < hot ? cfg.hot_fraction / hot
                    : (experts > hot ? (1 - cfg.hot_fraction) / (experts - hot) : 0.0);
      break;
    }
    case RoutingKind::uniform:
    case RoutingKind::file:
      break;
  }
  return w;
}

// Picks one expert not in `chosen` with probability proportional to its weight.
int pick(const std::vector<double>& cum, const std::vector<double>& w,
         const std::vector<int>& chosen, Rng& rng) {
  auto taken = [&](int x) { return std::find(chosen.begin(), chosen.end(), x) != chosen.end(); };
  for (int attempt = 0; attempt < 32; ++attempt) {  // rejection: cheap while k << E
    const double u = rng.uniform() * cum.back();
    const int x = static_cast<int>(std::upper_bound(cum.begin(), cum.end(), u) - cum.begin());
    if (x < static_cast<int>(w.size()) && !taken(x)) return x;
  }
  double rest = 0;  // skewed weights: draw exactly from the remaining experts
  for (std::size_t x = 0; x < w.size(); ++x)
    if (!taken(static_cast<int>(x))) rest += w[x];
  double u = rng.uniform() * rest;
  int last = -1;
  for (std::size_t x = 0; x < w.size(); ++x) {
    if (taken(static_cast<int>(x))) continue;
    last = static_cast<int>(x);
    if (rest > 0 && (u -= w[x]) < 0) return last;
  }
  return last;
}

}  // namespace

ExpertLoad generate_routing(const MoeRoutingConfig& cfg, int ranks, int experts,
                            int tokens_per_rank, int topk, int layer, std::uint64_t stream) {
  ExpertLoad load(static_cast<std::size_t>(ranks),
                  std::vector<std::int64_t>(static_cast<std::size_t>(experts), 0));
  std::vector<int> chosen;
  for (int i = 0; i < ranks; ++i) {
    Rng layer_rng(cfg.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(layer));
    Rng rng(cfg.seed ^ (stream * 0xD1B54A32D192ED03ULL + static_cast<std::uint64_t>(i) + 1));
    const std::vector<double> w = expert_weights(cfg, experts, layer_rng, rng);
    std::vector<double> cum(w.size());
    std::partial_sum(w.begin(), w.end(), cum.begin());
    for (int token = 0; token < tokens_per_rank; ++token) {
      chosen.clear();
      for (int k = 0; k < topk; ++k) chosen.push_back(pick(cum, w, chosen, rng));
      for (int x : chosen) ++load[static_cast<std::size_t>(i)][static_cast<std::size_t>(x)];
    }
  }
  return load;
}

std::vector<std::vector<double>> dispatch_bytes(const ExpertLoad& load, double token_bytes) {
  const std::size_t ranks = load.size();
  std::vector<std::vector<double>> bytes(ranks, std::vector<double>(ranks, 0.0));
  for (std::size_t i = 0; i < ranks; ++i) {
    const std::size_t per_rank = load[i].size() / ranks;
    for (std::size_t x = 0; x < load[i].size(); ++x)
      bytes[i][x / per_rank] += static_cast<double>(load[i][x]) * token_bytes;
  }
  return bytes;
}

std::vector<double> tokens_received(const ExpertLoad& load) {
  const std::size_t ranks = load.size();
  std::vector<double> got(ranks, 0.0);
  for (const auto& row : load)
    for (std::size_t x = 0; x < row.size(); ++x)
      got[x / (row.size() / ranks)] += static_cast<double>(row[x]);
  return got;
}

}  // namespace flux::workload
