// Forward and backward pass of one transformer layer across a pipeline stage (stage_pass.hpp):
// Megatron tensor parallelism around attention and MLP, ring attention for context parallelism,
// and expert-parallel all-to-alls around the routed experts of a MoE layer.
#include <fmt/format.h>

#include "workload/stage_pass.hpp"

namespace flux::workload {
namespace {

ExpertLoad routing_for(const BuildContext& c, int moe_layer, int microbatch, int leader) {
  if (c.measured) return c.measured->layers[static_cast<std::size_t>(moe_layer)];
  const auto stream =
      (static_cast<std::uint64_t>(moe_layer) * 1000003u + static_cast<std::uint64_t>(microbatch)) *
          static_cast<std::uint64_t>(c.layout.world()) +
      static_cast<std::uint64_t>(leader);
  return generate_routing(c.s.moe, c.s.parallel.expert_model_parallel_size, c.s.model.num_experts,
                          c.moe_tokens, c.s.model.moe_router_topk, moe_layer, stream);
}

// The routing of every EP group of the stage for (layer, micro-batch), in stage-rank order of the
// groups' leaders. Drawn once in forward and kept until the backward has used it.
const std::vector<ExpertLoad>& stage_routing(BuildContext& c, const StagePass& p, int layer) {
  auto [it, fresh] = c.routing_cache.try_emplace({layer, p.microbatch});
  if (!fresh) return it->second;
  const int moe_layer = layer - c.s.model.moe_first_dense_layers;
  for (int r : p.ranks)
    if (c.layout.coord(r, Dim::ep) == 0)
      it->second.push_back(routing_for(c, moe_layer, p.microbatch, r));
  return it->second;
}

std::vector<std::vector<double>> transpose(const std::vector<std::vector<double>>& a) {
  std::vector<std::vector<double>> t(a.size(), std::vector<double>(a.size()));
  for (std::size_t i = 0; i < a.size(); ++i)
    for (std::size_t j = 0; j < a.size(); ++j) t[j][i] = a[i][j];
  return t;
}

// Dispatch (or, for `reverse`, combine) all-to-all in every EP group of the stage; returns the
// token-assignments each stage rank's experts process.
std::vector<double> expert_all_to_all(BuildContext& c, StagePass& p, int layer,
                                      const std::vector<ExpertLoad>& loads, bool reverse,
                                      const std::string& what) {
  std::vector<double> tokens(p.ranks.size(), 0.0);
  std::size_t group = 0;
  CollectiveSpec spec;
  spec.algorithm = CollectiveAlgorithm::direct;
  spec.name = fmt::format("L{}.mb{}.{}.{}", layer, p.microbatch, p.phase, what);
  spec.tags = TaskTags{layer, p.microbatch, p.phase, "ep", -1};
  for (int r : p.ranks) {
    if (c.layout.coord(r, Dim::ep) != 0) continue;
    spec.ranks = c.layout.group(r, {Dim::ep});
    const ExpertLoad& load = loads[group++];
    auto bytes = dispatch_bytes(load, c.cm.token_bytes);
    if (reverse) bytes = transpose(bytes);
    const std::vector<double> got = tokens_received(load);
    std::vector<Deps> ready;
    for (int g : spec.ranks) ready.push_back(ready_deps(c, p, g));
    std::vector<Deps> done = all_to_all(c.em, spec, bytes, ready);
    for (std::size_t k = 0; k < spec.ranks.size(); ++k) {
      const auto i = static_cast<std::size_t>(c.local[static_cast<std::size_t>(spec.ranks[k])]);
      p.wait[i] = std::move(done[k]);
      tokens[i] = got[k];
    }
  }
  return tokens;
}

void experts(BuildContext& c, StagePass& p, int layer, const std::vector<double>& tokens) {
  std::vector<double> seconds(tokens.size());
  for (std::size_t i = 0; i < tokens.size(); ++i) seconds[i] = c.cm.experts_fwd(tokens[i]);
  compute_each(c, p, layer, "experts", seconds);
}

void moe_block(BuildContext& c, StagePass& p, int layer, bool forward) {
  // Forward: router (+ shared experts), dispatch, experts, combine. Backward runs the mirror image:
  // the combine's gradient travels like the dispatch and vice versa.
  if (forward) compute_all(c, p, layer, "router", c.cm.moe_dense_part_fwd);
  const std::vector<ExpertLoad>& loads = stage_routing(c, p, layer);
  const auto tokens =
      expert_all_to_all(c, p, layer, loads, false, forward ? "ep-dispatch" : "ep-combine");
  experts(c, p, layer, tokens);
  (void)expert_all_to_all(c, p, layer, loads, true, forward ? "ep-combine" : "ep-dispatch");
  if (!forward) {
    compute_all(c, p, layer, "router", c.cm.moe_dense_part_fwd);
    c.routing_cache.erase({layer, p.microbatch});  // the backward is its last use
  }
}

void cp_ring(BuildContext& c, StagePass& p, int layer, const std::string& what) {
  group_collective(c, p, {Dim::cp}, CollectiveKind::ring_pass, c.kv_bytes,
                   CollectiveAlgorithm::ring, "cp", layer, what);
}

// Attention between Megatron's TP operators; ring attention receives the other CP ranks' K/V
// first and, in backward, returns their gradients afterwards.
void attention_block(BuildContext& c, StagePass& p, int layer, bool forward) {
  const bool cp = c.s.parallel.context_parallel_size > 1;
  tp_before(c, p, layer, "attn");
  if (cp) cp_ring(c, p, layer, "attn.cp-kv");
  compute_all(c, p, layer, "attn", c.cm.attention_fwd);
  if (cp && !forward) cp_ring(c, p, layer, "attn.cp-dkv");
  tp_after(c, p, layer, "attn");
}

void mlp_block(BuildContext& c, StagePass& p, int layer, bool forward) {
  tp_before(c, p, layer, "mlp");
  if (c.s.model.is_moe_layer(layer))
    moe_block(c, p, layer, forward);
  else
    compute_all(c, p, layer, "mlp", c.cm.dense_mlp_fwd);
  tp_after(c, p, layer, "mlp");
}

}  // namespace

void layer_forward(BuildContext& c, StagePass& p, int layer) {
  attention_block(c, p, layer, true);
  mlp_block(c, p, layer, true);
}

void layer_backward(BuildContext& c, StagePass& p, int layer,
                    const std::function<void(bool attention)>& on_gradients) {
  if (c.s.training.recompute_full) {
    // Full recomputation replays the forward, its TP collectives included, before the backward.
    StagePass replay = p;
    replay.phase = "recompute";
    replay.factor = 1;
    layer_forward(c, replay, layer);
    p.wait = std::move(replay.wait);
  }
  mlp_block(c, p, layer, false);
  on_gradients(false);
  attention_block(c, p, layer, false);
  on_gradients(true);
}

}  // namespace flux::workload
