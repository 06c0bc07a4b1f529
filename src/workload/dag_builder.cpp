#include "workload/dag_builder.hpp"

#include <fmt/format.h>

#include <array>
#include <stdexcept>

#include "workload/pipeline_schedule.hpp"
#include "workload/stage_pass.hpp"

namespace flux::workload {
namespace {

struct ReleasedBucket {
  int stage = 0;
  bool expert = false;
  double elems = 0;
  int index = 0;
};

class IterationBuilder {
 public:
  IterationBuilder(const Scenario& s, TaskEmitter& em);
  void run();

 private:
  std::size_t key(int stage, const PipelineOp& op) const {
    return static_cast<std::size_t>(((stage * v_ + op.chunk) * m_ + op.microbatch) * 2 +
                                    (op.forward ? 1 : 0));
  }
  bool is_last(int stage, int chunk) const { return stage == p_ - 1 && chunk == v_ - 1; }
  void run_op(int stage, const PipelineOp& op);
  void forward(StagePass& pass, int stage, const PipelineOp& op);
  void backward(StagePass& pass, int stage, const PipelineOp& op);
  void send_pp(StagePass& pass, int stage, const PipelineOp& op);
  void add_gradients(int stage, int chunk, double dense, double expert);
  void release(int stage, bool expert, double elems, CollectiveKind kind, int index = -1);
  void flush(int stage, int chunk);
  void tied_embeddings();
  void optimizer();

  BuildContext c_;
  ParameterCount pc_;
  int p_, v_, m_, layers_per_chunk_;
  double bucket_elems_;
  std::vector<std::vector<int>> stage_ranks_;
  std::vector<char> done_;
  std::vector<std::vector<int>> inbox_;         // by key: incoming PP send per stage rank
  std::vector<std::array<double, 2>> pending_;  // by stage * v + chunk: dense, expert elems
  std::vector<ReleasedBucket> released_;
  std::vector<Deps> dp_done_;                  // by global rank
  std::vector<std::array<double, 2>> params_;  // by stage: dense, expert parameters per rank
};

IterationBuilder::IterationBuilder(const Scenario& s, TaskEmitter& em)
    : c_(s, em),
      pc_(parameter_count(s.model)),
      p_(s.parallel.pipeline_model_parallel_size),
      v_(s.parallel.virtual_pipeline_model_parallel_size),
      m_(s.num_microbatches()),
      layers_per_chunk_(s.model.num_layers / (p_ * v_)) {
  const int dp = s.parallel.data_parallel_size();
  bucket_elems_ = s.training.ddp_bucket_size > 0 ? s.training.ddp_bucket_size
                                                 : std::max(4e7, 1e6 * dp);  // Megatron default
  for (int st = 0; st < p_; ++st) stage_ranks_.push_back(c_.layout.stage_ranks(st));
  const auto ops = static_cast<std::size_t>(p_ * v_ * m_ * 2);
  done_.assign(ops, 0);
  inbox_.resize(ops);
  pending_.assign(static_cast<std::size_t>(p_ * v_), {0.0, 0.0});
  dp_done_.resize(static_cast<std::size_t>(c_.layout.world()));
  params_.assign(static_cast<std::size_t>(p_), {0.0, 0.0});
}

void IterationBuilder::run() {
  std::vector<std::vector<PipelineOp>> schedule;
  for (int st = 0; st < p_; ++st) schedule.push_back(pipeline_schedule(st, p_, m_, v_));
  std::vector<std::size_t> next(static_cast<std::size_t>(p_), 0);
  // Emit stage by stage as far as each stage's inputs exist: predecessors always come first.
  for (bool finished = false; !finished;) {
    bool progress = false;
    finished = true;
    for (int st = 0; st < p_; ++st) {
      auto& k = next[static_cast<std::size_t>(st)];
      const auto& ops = schedule[static_cast<std::size_t>(st)];
      while (k < ops.size()) {
        int from = 0;
        PipelineOp from_op;
        if (pipeline_input(st, p_, v_, ops[k], from, from_op) && !done_[key(from, from_op)]) break;
        run_op(st, ops[k]);
        done_[key(st, ops[k])] = 1;
        ++k;
        progress = true;
      }
      finished = finished && k == ops.size();
    }
    if (!finished && !progress) throw std::logic_error("pipeline schedule deadlocks");
  }
  tied_embeddings();
  optimizer();
}

void IterationBuilder::run_op(int stage, const PipelineOp& op) {
  StagePass pass;
  pass.ranks = stage_ranks_[static_cast<std::size_t>(stage)];
  pass.microbatch = op.microbatch;
  pass.phase = op.forward ? "fwd" : "bwd";
  pass.factor = op.forward ? 1 : ComputeModel::kBackwardFactor;
  pass.wait.resize(pass.ranks.size());
  auto& inbox = inbox_[key(stage, op)];
  for (std::size_t i = 0; i < inbox.size(); ++i) pass.wait[i] = {inbox[i]};
  std::vector<int>().swap(inbox);
  if (op.forward)
    forward(pass, stage, op);
  else
    backward(pass, stage, op);
}

void IterationBuilder::forward(StagePass& pass, int stage, const PipelineOp& op) {
  if (stage == 0 && op.chunk == 0) {
    compute_all(c_, pass, -1, "embed", c_.cm.embedding_fwd);
    tp_after(c_, pass, -1, "embed");  // vocab-parallel embedding sums its partial lookups
  }
  const int first = op.chunk * (c_.s.model.num_layers / v_) + stage * layers_per_chunk_;
  for (int l = first; l < first + layers_per_chunk_; ++l) layer_forward(c_, pass, l);
  if (is_last(stage, op.chunk)) {
    tp_before(c_, pass, -1, "head");
    compute_all(c_, pass, -1, "head", c_.cm.head_fwd);
  } else {
    send_pp(pass, stage, op);
  }
}

void IterationBuilder::backward(StagePass& pass, int stage, const PipelineOp& op) {
  const bool last_mb = op.microbatch == m_ - 1;  // gradients are complete after the last one
  const ModelConfig& m = c_.s.model;
  const double t = c_.s.parallel.tensor_model_parallel_size;
  if (is_last(stage, op.chunk)) {
    compute_all(c_, pass, -1, "head", c_.cm.head_fwd);
    tp_after(c_, pass, -1, "head");
    const bool tied_copy = !m.untie_embeddings_and_output_weights && p_ > 1;
    const double vh = static_cast<double>(m.vocab_size) * m.hidden_size;
    if (last_mb) add_gradients(stage, op.chunk, (pc_.output + (tied_copy ? vh : 0)) / t, 0);
  }
  const int first = op.chunk * (m.num_layers / v_) + stage * layers_per_chunk_;
  for (int l = first + layers_per_chunk_ - 1; l >= first; --l) {
    const std::vector<ParamTensor> tensors = layer_parameter_tensors(m, l);
    // The last two tensors are attention's; routed experts are not tensor-parallel and this
    // rank holds num_experts / EP of them, two tensors each, all of the same sizes.
    layer_backward(c_, pass, l, [&](bool attention) {
      if (!last_mb) return;
      int local_expert_tensors = 2 * m.num_experts / c_.s.parallel.expert_model_parallel_size;
      const std::size_t from = attention ? tensors.size() - 2 : 0;
      const std::size_t to = attention ? tensors.size() : tensors.size() - 2;
      for (std::size_t k = from; k < to; ++k) {
        if (!tensors[k].expert)
          add_gradients(stage, op.chunk, tensors[k].elems / t, 0);
        else if (local_expert_tensors-- > 0)
          add_gradients(stage, op.chunk, 0, tensors[k].elems);
      }
    });
  }
  if (stage == 0 && op.chunk == 0) {
    compute_all(c_, pass, -1, "embed", c_.cm.embedding_fwd);
    if (last_mb) add_gradients(stage, op.chunk, pc_.embedding / t, 0);
  } else {
    send_pp(pass, stage, op);
  }
  if (last_mb) flush(stage, op.chunk);
}

void IterationBuilder::send_pp(StagePass& pass, int stage, const PipelineOp& op) {
  PipelineOp to = op;
  int to_stage = 0;
  if (op.forward) {
    to_stage = stage < p_ - 1 ? stage + 1 : 0;
    if (stage == p_ - 1) ++to.chunk;
  } else {
    to_stage = stage > 0 ? stage - 1 : p_ - 1;
    if (stage == 0) --to.chunk;
  }
  // Megatron-core sends the whole activation, or its sequence shard under sequence parallelism.
  const double bytes =
      c_.act_bytes /
      (c_.s.parallel.sequence_parallel ? c_.s.parallel.tensor_model_parallel_size : 1);
  const TaskTags tags{-1, op.microbatch, pass.phase, "pp", c_.em.new_collective()};
  const std::string name =
      fmt::format("mb{}.{}.pp.c{}.s{}-s{}", op.microbatch, pass.phase, op.chunk, stage, to_stage);
  auto& inbox = inbox_[key(to_stage, to)];
  inbox.resize(pass.ranks.size());
  for (std::size_t i = 0; i < pass.ranks.size(); ++i) {
    const int r = pass.ranks[i];
    const int dst = c_.layout.with(r, Dim::pp, to_stage);
    inbox[static_cast<std::size_t>(c_.local[static_cast<std::size_t>(dst)])] =
        c_.em.send(r, dst, bytes, name, tags, ready_deps(c_, pass, r));
  }
}

void IterationBuilder::add_gradients(int stage, int chunk, double dense, double expert) {
  params_[static_cast<std::size_t>(stage)][0] += dense;
  params_[static_cast<std::size_t>(stage)][1] += expert;
  auto& pending = pending_[static_cast<std::size_t>(stage * v_ + chunk)];
  pending[0] += dense;
  pending[1] += expert;
  const auto kind = c_.s.training.use_distributed_optimizer ? CollectiveKind::reduce_scatter
                                                            : CollectiveKind::all_reduce;
  for (int e = 0; e < 2; ++e) {
    if (pending[static_cast<std::size_t>(e)] < bucket_elems_) continue;
    release(stage, e == 1, pending[static_cast<std::size_t>(e)], kind);
    pending[static_cast<std::size_t>(e)] = 0;
  }
}

void IterationBuilder::flush(int stage, int chunk) {
  auto& pending = pending_[static_cast<std::size_t>(stage * v_ + chunk)];
  const auto kind = c_.s.training.use_distributed_optimizer ? CollectiveKind::reduce_scatter
                                                            : CollectiveKind::all_reduce;
  for (int e = 0; e < 2; ++e)
    if (pending[static_cast<std::size_t>(e)] > 0)
      release(stage, e == 1, pending[static_cast<std::size_t>(e)], kind);
  pending = {0.0, 0.0};
}

// One bucket's collective over every data-parallel group of the stage. It waits for the compute
// that produced the gradients but does not block later compute (overlap with backward).
void IterationBuilder::release(int stage, bool expert, double elems, CollectiveKind kind,
                               int index) {
  const bool grads = kind != CollectiveKind::all_gather;
  if (grads) {
    index = static_cast<int>(released_.size());
    released_.push_back({stage, expert, elems, index});
  }
  StagePass dp;
  dp.ranks = stage_ranks_[static_cast<std::size_t>(stage)];
  dp.wait.resize(dp.ranks.size());
  dp.microbatch = -1;
  dp.phase = "dp";
  const double bytes =
      elems * (grads ? c_.s.training.bytes_per_gradient : c_.s.training.bytes_per_element);
  const std::string name = fmt::format("s{}.{}{}{}", stage, expert ? "expert-" : "",
                                       grads ? "grad-bucket" : "param-ag", index);
  if (expert)
    group_collective(c_, dp, {Dim::tp, Dim::cp, Dim::dp}, kind, bytes, c_.s.collectives.dp, "dp",
                     -1, name, false);
  else
    group_collective(c_, dp, {Dim::cp, Dim::ep, Dim::dp}, kind, bytes, c_.s.collectives.dp, "dp",
                     -1, name, false);
  for (std::size_t i = 0; i < dp.ranks.size(); ++i) {
    auto& done = dp_done_[static_cast<std::size_t>(dp.ranks[i])];
    done.insert(done.end(), dp.wait[i].begin(), dp.wait[i].end());
  }
}

// Tied input and output embeddings on the first and last stage are kept equal by an all-reduce
// of their gradients (V * h / t elements) between each pair.
void IterationBuilder::tied_embeddings() {
  const ModelConfig& m = c_.s.model;
  if (m.untie_embeddings_and_output_weights || p_ == 1) return;
  CollectiveSpec spec;
  spec.algorithm = CollectiveAlgorithm::ring;
  spec.reduce_in_stream = false;
  spec.bytes = static_cast<double>(m.vocab_size) * m.hidden_size /
               c_.s.parallel.tensor_model_parallel_size * c_.s.training.bytes_per_gradient;
  spec.name = "dp.embedding-ar";
  spec.tags = TaskTags{-1, -1, "dp", "emb", -1};
  for (int r : stage_ranks_[0]) {
    spec.ranks = {r, c_.layout.with(r, Dim::pp, p_ - 1)};
    const auto done =
        all_reduce(c_.em, spec, {c_.em.tail_deps(spec.ranks[0]), c_.em.tail_deps(spec.ranks[1])});
    for (int k = 0; k < 2; ++k) {
      auto& d = dp_done_[static_cast<std::size_t>(spec.ranks[static_cast<std::size_t>(k)])];
      d.insert(d.end(), done[static_cast<std::size_t>(k)].begin(),
               done[static_cast<std::size_t>(k)].end());
    }
  }
}

// Adam step on the rank's parameters (its 1/DP shard with the distributed optimizer), then, with
// the distributed optimizer, the all-gather of the updated parameters bucket by bucket.
void IterationBuilder::optimizer() {
  const bool sharded = c_.s.training.use_distributed_optimizer;
  // The distributed optimizer shards each parameter over the group that reduces its gradients.
  const RankLayout& l = c_.layout;
  const double dense_shards = sharded ? l.size(Dim::cp) * l.size(Dim::ep) * l.size(Dim::dp) : 1;
  const double expert_shards = sharded ? l.size(Dim::tp) * l.size(Dim::cp) * l.size(Dim::dp) : 1;
  const TaskTags tags{-1, -1, "optimizer", "", -1};
  for (int r = 0; r < l.world(); ++r) {
    const auto& params = params_[static_cast<std::size_t>(l.coord(r, Dim::pp))];
    const double local = params[0] / dense_shards + params[1] / expert_shards;
    c_.em.compute(r, local * c_.cm.optimizer_seconds_per_param, "optimizer", tags,
                  dp_done_[static_cast<std::size_t>(r)]);
  }
  if (!sharded) return;
  const std::vector<ReleasedBucket> buckets = released_;
  for (const ReleasedBucket& b : buckets)
    release(b.stage, b.expert, b.elems, CollectiveKind::all_gather, b.index);
}

struct CountingSink final : TaskSink {
  void add(const Task&) override { ++count; }
  std::size_t count = 0;
};

}  // namespace

void build_workload(const Scenario& s, TaskSink& sink) {
  TaskEmitter em(sink, s.parallel.world_size);
  IterationBuilder(s, em).run();
  em.finish();
}

Workload build_workload(const Scenario& s) {
  // Generating twice, counting first, costs less than growing the task array by doubling: on the
  // 18.5 M-task iteration (96 B a task) that copied it 6 times, 3 GB written into fresh pages
  // that the kernel cleared first, for a generation pass of about 1 s.
  CountingSink counter;
  build_workload(s, counter);
  WorkloadSink sink(counter.count);
  build_workload(s, sink);
  return sink.take();
}

}  // namespace flux::workload
