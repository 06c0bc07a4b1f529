#include "workload/stage_pass.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace flux::workload {
namespace {

std::string task_name(const StagePass& p, int layer, const std::string& what) {
  if (p.microbatch < 0) return fmt::format("{}.{}", p.phase, what);
  return layer >= 0 ? fmt::format("L{}.mb{}.{}.{}", layer, p.microbatch, p.phase, what)
                    : fmt::format("mb{}.{}.{}", p.microbatch, p.phase, what);
}

void check_measured(const ExpertLoadTable& t, const Scenario& s, const std::string& file) {
  const int moe_layers = s.model.num_layers - s.model.moe_first_dense_layers;
  if (t.ranks != s.parallel.expert_model_parallel_size)
    throw InputError(file, "src_rank",
                     fmt::format("{} source ranks (the EP size), got {}",
                                 s.parallel.expert_model_parallel_size, t.ranks));
  if (t.experts > s.model.num_experts)
    throw InputError(file, "expert",
                     fmt::format("experts below num_experts = {}", s.model.num_experts));
  if (static_cast<int>(t.layers.size()) < moe_layers)
    throw InputError(
        file, "layer",
        fmt::format("loads for all {} MoE layers, got {}", moe_layers, t.layers.size()));
}

}  // namespace

BuildContext::BuildContext(const Scenario& scenario, TaskEmitter& emitter)
    : s(scenario), layout(scenario.parallel), cm(compute_model(scenario)), em(emitter) {
  const ParallelConfig& par = s.parallel;
  const ModelConfig& m = s.model;
  const double t = par.tensor_model_parallel_size;
  const double B = s.training.bytes_per_element;
  const double seq_local = static_cast<double>(s.training.seq_length) / par.context_parallel_size;
  act_bytes = s.training.micro_batch_size * seq_local * m.hidden_size * B;
  const double kv_width = m.q_lora_rank > 0
                              ? static_cast<double>(m.num_attention_heads) *
                                    (m.qk_head_dim + m.qk_pos_emb_head_dim + m.v_head_dim)
                              : 2.0 * m.num_query_groups * m.head_dim();
  kv_bytes = s.training.micro_batch_size * seq_local * kv_width * B / t;
  moe_tokens =
      static_cast<int>(s.training.micro_batch_size * seq_local / (par.sequence_parallel ? t : 1));
  local.assign(static_cast<std::size_t>(layout.world()), 0);
  for (int st = 0; st < par.pipeline_model_parallel_size; ++st) {
    const auto ranks = layout.stage_ranks(st);
    for (std::size_t i = 0; i < ranks.size(); ++i)
      local[static_cast<std::size_t>(ranks[i])] = static_cast<int>(i);
  }
  if (m.num_experts > 0 && s.moe.kind == RoutingKind::file) {
    measured = read_expert_load(s.moe.expert_load_file);
    check_measured(*measured, s, s.moe.expert_load_file);
    measured->experts = m.num_experts;
    for (auto& layer : measured->layers)
      for (auto& row : layer) row.resize(static_cast<std::size_t>(m.num_experts), 0);
  }
}

Deps ready_deps(const BuildContext& c, const StagePass& p, int r) {
  Deps d = p.wait[static_cast<std::size_t>(c.local[static_cast<std::size_t>(r)])];
  if (c.em.tail(r) >= 0) d.push_back(c.em.tail(r));
  return d;
}

void compute_each(BuildContext& c, StagePass& p, int layer, const std::string& what,
                  const std::vector<double>& seconds) {
  const std::string name = task_name(p, layer, what);
  const TaskTags tags{layer, p.microbatch, p.phase, "", -1};
  for (std::size_t i = 0; i < p.ranks.size(); ++i) {
    c.em.compute(p.ranks[i], seconds[i] * p.factor, name, tags, p.wait[i]);
    p.wait[i].clear();
  }
}

void compute_all(BuildContext& c, StagePass& p, int layer, const std::string& what,
                 double seconds) {
  compute_each(c, p, layer, what, std::vector<double>(p.ranks.size(), seconds));
}

void group_collective(BuildContext& c, StagePass& p, std::initializer_list<Dim> vary,
                      CollectiveKind kind, double bytes, CollectiveAlgorithm algorithm,
                      const char* group, int layer, const std::string& what, bool in_stream) {
  CollectiveSpec spec;
  spec.reduce_in_stream = in_stream;
  spec.bytes = bytes;
  spec.algorithm = algorithm;
  spec.reduce_seconds_per_byte = c.cm.reduce_seconds_per_byte;
  spec.name = task_name(p, layer, what);
  spec.tags = TaskTags{layer, p.microbatch, p.phase, group, -1};
  for (std::size_t i = 0; i < p.ranks.size(); ++i) {
    const int r = p.ranks[i];
    bool leader = true;
    for (Dim d : vary) leader = leader && c.layout.coord(r, d) == 0;
    if (!leader) continue;
    spec.ranks = c.layout.group(r, vary);
    std::vector<Deps> ready;
    for (int g : spec.ranks) ready.push_back(ready_deps(c, p, g));
    std::vector<Deps> done;
    switch (kind) {
      case CollectiveKind::all_reduce:
        done = all_reduce(c.em, spec, ready);
        break;
      case CollectiveKind::reduce_scatter:
        done = reduce_scatter(c.em, spec, ready);
        break;
      case CollectiveKind::all_gather:
        done = all_gather(c.em, spec, ready);
        break;
      case CollectiveKind::ring_pass:
        done = ring_pass(c.em, spec, ready);
        break;
    }
    for (std::size_t k = 0; k < spec.ranks.size(); ++k)
      p.wait[static_cast<std::size_t>(c.local[static_cast<std::size_t>(spec.ranks[k])])] =
          std::move(done[k]);
  }
}

void tp_before(BuildContext& c, StagePass& p, int layer, const std::string& what) {
  if (!c.s.parallel.sequence_parallel) return;
  group_collective(c, p, {Dim::tp}, CollectiveKind::all_gather, c.act_bytes, c.s.collectives.tp,
                   "tp", layer, what + ".tp-ag");
}

void tp_after(BuildContext& c, StagePass& p, int layer, const std::string& what) {
  const bool sp = c.s.parallel.sequence_parallel;
  group_collective(c, p, {Dim::tp},
                   sp ? CollectiveKind::reduce_scatter : CollectiveKind::all_reduce, c.act_bytes,
                   c.s.collectives.tp, "tp", layer, what + (sp ? ".tp-rs" : ".tp-ar"));
}

}  // namespace flux::workload
