#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <set>

#include "workload/dag_builder.hpp"
#include "workload/presets.hpp"
#include "workload/validate.hpp"
#include "workload/workload_stats.hpp"

namespace flux::workload {
namespace {

const std::string kExamples = std::string(FLUX_TEST_DATA_DIR) + "/../../examples/";

Scenario flux_paper(int layers) {
  Scenario s = read_scenario(kExamples + "llama3-8b-" + std::to_string(layers) + "l-tp4-dp2.json");
  return s;
}

// Predecessors come first, the DAG is valid (acyclic, compute chains), and ids are indices.
void expect_well_formed(const Workload& w) {
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    ASSERT_EQ(w.tasks[i].id, static_cast<std::int64_t>(i));
    for (int p : w.tasks[i].after) ASSERT_LT(p, static_cast<int>(i));
  }
  EXPECT_NO_THROW(validate_workload(w, "built"));
}

double group_bytes(const Workload& w, const std::string& group) {
  double sum = 0;
  for (const Task& t : w.tasks)
    if (t.kind == TaskKind::send && t.group == group) sum += t.bytes;
  return sum;
}

TEST(DagBuilder, FluxPaperScenarioIsWellFormed) {
  const Scenario s = flux_paper(8);
  EXPECT_EQ(s.parallel.data_parallel_size(), 2);
  EXPECT_EQ(s.num_microbatches(), 1);
  const Workload w = build_workload(s);
  EXPECT_EQ(w.gpus, 8);
  expect_well_formed(w);
}

TEST(DagBuilder, TensorParallelBytesMatchRingAllReduceFormula) {
  const Scenario s = flux_paper(8);
  const Workload w = build_workload(s);
  const double S = 1.0 * 2048 * 4096 * 2;  // b * s * h * bf16 = 16 MiB
  EXPECT_EQ(S, 16.0 * 1024 * 1024);
  const int t = 4, L = 8, m = 1, tp_groups = 2;
  // Per micro-batch: 2 all-reduces per layer forward + 2 backward, the embedding's forward and
  // the output layer's backward; each rank sends 2(t-1)/t * S per all-reduce.
  const double all_reduces = (4.0 * L + 2) * m;
  EXPECT_DOUBLE_EQ(group_bytes(w, "tp"), tp_groups * t * all_reduces * 2 * (t - 1) / t * S);
}

TEST(DagBuilder, RingAllReduceHasTwoPMinusOneStepsOfSOverP) {
  const Workload w = build_workload(flux_paper(8));
  std::map<std::int64_t, std::vector<const Task*>> by_collective;
  for (const Task& t : w.tasks)
    if (t.kind == TaskKind::send && t.group == "tp") by_collective[t.collective].push_back(&t);
  ASSERT_FALSE(by_collective.empty());
  for (const auto& [id, sends] : by_collective) {
    ASSERT_EQ(sends.size(), 4u * 2 * 3) << id;  // p ranks x 2(p-1) steps
    std::map<std::pair<int, int>, int> pairs;
    for (const Task* t : sends) {
      EXPECT_DOUBLE_EQ(t->bytes, 16.0 * 1024 * 1024 / 4);
      ++pairs[{t->src, t->dst}];
    }
    EXPECT_EQ(pairs.size(), 4u);  // one ring: i -> i+1 only
    for (const auto& [pair, count] : pairs) EXPECT_EQ(count, 6);
  }
}

TEST(DagBuilder, DataParallelBytesMatchGradientAllReduce) {
  const Scenario s = flux_paper(8);
  const Workload w = build_workload(s);
  const double psi = parameter_count(s.model).total / 4;  // TP shard of all parameters
  const int d = 2, dp_groups = 4;
  // Ring all-reduce over d ranks: each rank sends 2(d-1)/d of the bf16 gradient shard.
  EXPECT_NEAR(group_bytes(w, "dp"), dp_groups * d * 2.0 * (d - 1) / d * psi * 2, 1.0);
  // The Flux paper's workload: a TP shard of the gradients is about 1.40 GB with 8 layers.
  EXPECT_NEAR(psi * 2 / 1e9, 1.40, 0.05);
}

TEST(DagBuilder, DataParallelBucketsOverlapBackward) {
  const Workload w = build_workload(flux_paper(8));
  // The first gradient bucket leaves before the last backward compute of its GPU finishes.
  int first_dp = -1, last_bwd = -1;
  for (std::size_t i = 0; i < w.tasks.size(); ++i) {
    const Task& t = w.tasks[i];
    if (t.group == "dp" && first_dp < 0) first_dp = static_cast<int>(i);
    if (t.kind == TaskKind::compute && t.phase == "bwd") last_bwd = static_cast<int>(i);
  }
  ASSERT_GE(first_dp, 0);
  EXPECT_LT(first_dp, last_bwd);
  // The output layer (131 M elements per rank) fills the first 25 M-element bucket; the next one
  // holds the last layer's MLP and leaves right after the MLP backward, before its attention.
  std::vector<const Task*> firsts;
  for (const Task& t : w.tasks)
    if (t.group == "dp" && t.name.view().find(".rs0") != std::string_view::npos && t.src == 0)
      firsts.push_back(&t);
  ASSERT_GE(firsts.size(), 2u);
  const Task& after_mlp = w.tasks[static_cast<std::size_t>(firsts[1]->after.back())];
  EXPECT_NE(after_mlp.name.view().find("L7.mb0.bwd.mlp"), std::string_view::npos) << after_mlp.name;
  const WorkloadStats st = workload_stats(w);
  EXPECT_GT(st.compute_critical_path, 0.0);
  EXPECT_GE(st.compute_critical_path, st.max_gpu_compute * (1 - 1e-12));
}

TEST(DagBuilder, ComputeDurationsFollowTheRoofline) {
  const Scenario s = flux_paper(8);
  const Workload w = build_workload(s);
  // Llama-3 8B attention forward on one TP4 rank: (2 * 2048 * P_attn + 2*2048*2048*32*256) / 4
  // FLOPs at 312 TFLOP/s * 0.5.
  const double p_attn = 2.0 * 4096 * 4096 + 2.0 * 4096 * 1024 + 4096;
  const double flops = (2 * 2048 * p_attn + 2.0 * 2048 * 2048 * 32 * 256) / 4;
  int seen = 0;
  for (const Task& t : w.tasks) {
    if (t.name == "L0.mb0.fwd.attn") {
      EXPECT_NEAR(t.duration, flops / 156e12, 1e-9);
      ++seen;
    }
    if (t.name == "L0.mb0.bwd.attn") {
      EXPECT_NEAR(t.duration, 2 * flops / 156e12, 1e-9);
      ++seen;
    }
  }
  EXPECT_EQ(seen, 16);  // 8 GPUs, forward and backward
}

Scenario pipeline_scenario(int pp, int vpp, int gbs) {
  Scenario s = flux_paper(8);
  s.parallel.world_size = 8;
  s.parallel.tensor_model_parallel_size = 2;
  s.parallel.pipeline_model_parallel_size = pp;
  s.parallel.virtual_pipeline_model_parallel_size = vpp;
  s.training.global_batch_size = gbs;
  validate_scenario(s, "test");
  return s;
}

TEST(DagBuilder, PipelineSendsActivationsAndGradients) {
  const Scenario s = pipeline_scenario(2, 1, 8);  // d = 2, m = 4
  const Workload w = build_workload(s);
  expect_well_formed(w);
  // Per micro-batch one activation and one gradient per rank of a stage (4 ranks), b*s*h*2 bytes.
  int sends = 0;
  for (const Task& t : w.tasks)
    if (t.group == "pp") {
      ++sends;
      EXPECT_DOUBLE_EQ(t.bytes, 2048.0 * 4096 * 2);
    }
  EXPECT_EQ(sends, 2 * 4 * 4);
}

TEST(DagBuilder, InterleavedPipelineIsWellFormed) {
  const Scenario s = pipeline_scenario(2, 2, 8);
  const Workload w = build_workload(s);
  expect_well_formed(w);
  int sends = 0;
  for (const Task& t : w.tasks) sends += t.group == "pp";
  // Each micro-batch crosses 2*2 - 1 stage boundaries each way, on 4 rank pairs.
  EXPECT_EQ(sends, 4 * 3 * 2 * 4);
}

TEST(DagBuilder, SequenceParallelHalvingDoublingKeepsBytes) {
  Scenario s = flux_paper(8);
  const double ring = group_bytes(build_workload(s), "tp");
  s.parallel.sequence_parallel = true;
  const double sp = group_bytes(build_workload(s), "tp");
  s.collectives.tp = CollectiveAlgorithm::halving_doubling;
  const Workload hd = build_workload(s);
  expect_well_formed(hd);
  // AG + RS moves the same bytes as an all-reduce, except that the vocab-parallel embedding only
  // reduce-scatters (half an all-reduce): 2 groups x 2(t-1)/t x S x t / 2.
  EXPECT_DOUBLE_EQ(sp, ring - 2 * 3.0 * 16 * 1024 * 1024);
  EXPECT_DOUBLE_EQ(group_bytes(hd, "tp"), sp);
  for (const Task& t : hd.tasks) {
    if (t.kind == TaskKind::send && t.group == "tp" &&
        t.name.view().find(".rs0") != std::string_view::npos) {
      EXPECT_EQ(t.src ^ t.dst, 2);  // first halving step pairs i with i XOR p/2
    }
  }
}

TEST(DagBuilder, ContextParallelRingPassesKeysAndValues) {
  Scenario s = flux_paper(8);
  s.parallel.tensor_model_parallel_size = 2;
  s.parallel.context_parallel_size = 2;
  s.training.global_batch_size = 2;
  validate_scenario(s, "test");
  const Workload w = build_workload(s);
  expect_well_formed(w);
  // Per layer: 1 step forward, 2 backward (K/V and dK/dV), on 4 CP pairs x 2 directions.
  const double kv = 1.0 * 1024 * 2 * 1024 * 2 / 2;  // b * s/c * 2 * h_kv * B / t
  EXPECT_DOUBLE_EQ(group_bytes(w, "cp"), 8.0 * 3 * 4 * 2 * kv);
}

TEST(DagBuilder, FullRecomputeRepeatsForwardCollectives) {
  Scenario s = flux_paper(8);
  const double base = group_bytes(build_workload(s), "tp");
  s.training.recompute_full = true;
  const Workload w = build_workload(s);
  expect_well_formed(w);
  const double per_ar = 2 * 3.0 * 16 * 1024 * 1024;  // per group and all-reduce
  EXPECT_DOUBLE_EQ(group_bytes(w, "tp") - base, 2 * 2 * 8 * per_ar);
}

TEST(DagBuilder, EveryFeatureTogetherStaysWellFormed) {
  // MoE with TP, CP, PP (interleaved), EP, SP, full recompute, distributed optimizer and
  // halving-doubling on 32 GPUs.
  Scenario s;
  s.model = *find_model_preset("mixtral-8x7b");
  s.model.num_layers = 4;
  s.parallel.world_size = 32;
  s.parallel.tensor_model_parallel_size = 2;
  s.parallel.context_parallel_size = 2;
  s.parallel.pipeline_model_parallel_size = 2;
  s.parallel.virtual_pipeline_model_parallel_size = 2;
  s.parallel.expert_model_parallel_size = 2;
  s.parallel.sequence_parallel = true;
  s.training.global_batch_size = 8;  // dp = 4, m = 2
  s.training.seq_length = 512;
  s.training.recompute_full = true;
  s.training.use_distributed_optimizer = true;
  s.collectives.tp = CollectiveAlgorithm::halving_doubling;
  s.collectives.dp = CollectiveAlgorithm::halving_doubling;
  s.hardware = {"h100", 989e12, 3.35e12, 0.4};
  s.moe.kind = RoutingKind::dirichlet;
  validate_scenario(s, "all");
  const Workload w = build_workload(s);
  expect_well_formed(w);
  const WorkloadStats st = workload_stats(w);
  for (const char* g : {"tp", "cp", "pp", "ep", "dp"})
    EXPECT_GT(st.bytes_per_group.count(g), 0u) << g;
  EXPECT_GT(st.bytes_per_phase.at("recompute"), 0);
  EXPECT_GT(st.compute_critical_path, st.max_gpu_compute * 0.5);
}

}  // namespace
}  // namespace flux::workload
