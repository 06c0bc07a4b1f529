#include <gtest/gtest.h>

#include <numeric>

#include "core/error.hpp"
#include "workload/dag_builder.hpp"
#include "workload/moe_routing.hpp"
#include "workload/validate.hpp"

namespace flux::workload {
namespace {

MoeRoutingConfig config(RoutingKind kind) {
  MoeRoutingConfig c;
  c.kind = kind;
  c.zipf_alpha = 1.2;
  c.dirichlet_alpha = 0.3;
  c.hot_experts = 2;
  c.hot_fraction = 0.8;
  c.seed = 7;
  return c;
}

TEST(MoeRouting, EveryGeneratorRoutesTokensTimesTopkDistinctExperts) {
  for (RoutingKind k :
       {RoutingKind::uniform, RoutingKind::zipf, RoutingKind::dirichlet, RoutingKind::hot}) {
    const ExpertLoad load = generate_routing(config(k), 4, 16, 512, 4, 3, 99);
    ASSERT_EQ(load.size(), 4u);
    for (const auto& row : load) {
      EXPECT_EQ(std::accumulate(row.begin(), row.end(), std::int64_t{0}), 512 * 4);
      for (auto tokens : row) EXPECT_LE(tokens, 512);  // an expert is picked once per token
    }
    // MoE traffic (local share included) = tokens x top-k x hidden x bytes.
    const auto bytes = dispatch_bytes(load, 4096 * 2);
    double sum = 0;
    for (const auto& row : bytes) sum += std::accumulate(row.begin(), row.end(), 0.0);
    EXPECT_DOUBLE_EQ(sum, 4.0 * 512 * 4 * 4096 * 2);
  }
}

TEST(MoeRouting, SeededAndSkewed) {
  const auto a = generate_routing(config(RoutingKind::hot), 2, 8, 1000, 1, 0, 5);
  EXPECT_EQ(a, generate_routing(config(RoutingKind::hot), 2, 8, 1000, 1, 0, 5));
  EXPECT_NE(a, generate_routing(config(RoutingKind::hot), 2, 8, 1000, 1, 0, 6));
  // Two hot experts get ~80 % of 1000 top-1 tokens.
  std::vector<std::int64_t> row = a[0];
  std::sort(row.rbegin(), row.rend());
  EXPECT_NEAR(static_cast<double>(row[0] + row[1]) / 1000, 0.8, 0.06);
}

TEST(MoeRouting, ImportsCsvAndJson) {
  const ExpertLoadTable csv =
      read_expert_load(std::string(FLUX_TEST_DATA_DIR) + "/workload/expert_load.csv");
  EXPECT_EQ(csv.ranks, 2);
  EXPECT_EQ(csv.experts, 4);
  ASSERT_EQ(csv.layers.size(), 2u);
  EXPECT_EQ(csv.layers[0][0][0], 3);
  EXPECT_EQ(csv.layers[1][1][3], 4);
  const ExpertLoadTable json = parse_expert_load_json(
      R"({"format": "flux.expert-load/1", "ranks": 2, "experts": 4, "load": [
          {"layer": 0, "src_rank": 1, "expert": 2, "tokens": 5}]})",
      "l.json");
  EXPECT_EQ(json.layers[0][1][2], 5);
  EXPECT_THROW((void)parse_expert_load_csv("0,0,x,1\n", "l.csv"), InputError);
  EXPECT_THROW((void)parse_expert_load_json(
                   R"({"format": "flux.expert-load/1", "ranks": 2, "experts": 4,
                       "load": [{"layer": 0, "src_rank": 2, "expert": 0, "tokens": 1}]})",
                   "l.json"),
               InputError);
}

Scenario moe_scenario() {
  Scenario s;
  s.model = *find_model_preset("mixtral-8x7b");
  s.model.num_layers = 2;
  s.parallel.world_size = 4;
  s.parallel.expert_model_parallel_size = 4;
  s.training.global_batch_size = 4;
  s.training.seq_length = 256;
  s.hardware = {"a100", 312e12, 2e12, 0.5};
  validate_scenario(s, "moe");
  return s;
}

TEST(MoeRouting, ExpertParallelTrafficInTheDag) {
  const Scenario s = moe_scenario();
  const Workload w = build_workload(s);
  EXPECT_NO_THROW(validate_workload(w, "moe"));
  double ep = 0;
  for (const Task& t : w.tasks)
    if (t.group == "ep") ep += t.bytes;
  // 4 all-to-alls per MoE layer; everything routed leaves the rank except the local share, so
  // the total is below 4 x L x ranks x T x k x h x B and, for uniform routing, near 3/4 of it.
  const double routed = 4.0 * 2 * 4 * 256 * 2 * 4096 * 2;
  EXPECT_LT(ep, routed);
  EXPECT_NEAR(ep / routed, 0.75, 0.05);
}

TEST(MoeRouting, MeasuredLoadsDriveTheAllToAll) {
  // tests/data/workload/expert_load.csv: 2 EP ranks, 4 experts (2 per rank). Layer 0 sends one
  // token 0 -> 1 (expert 3) and two 1 -> 0 (expert 1); layer 1 routes everything locally.
  Scenario s = moe_scenario();
  s.model.num_experts = 4;
  s.parallel.world_size = 2;
  s.parallel.expert_model_parallel_size = 2;
  s.training.global_batch_size = 2;
  s.moe.kind = RoutingKind::file;
  s.moe.expert_load_file = std::string(FLUX_TEST_DATA_DIR) + "/workload/expert_load.csv";
  validate_scenario(s, "moe");
  const Workload w = build_workload(s);
  double ep = 0;
  int sends = 0;
  for (const Task& t : w.tasks) {
    if (t.group != "ep") continue;
    ep += t.bytes;
    ++sends;
  }
  // Per micro-batch (1): 4 all-to-alls of layer 0, each moving 3 tokens of h * 2 bytes.
  EXPECT_DOUBLE_EQ(ep, 4 * 3 * 4096.0 * 2);
  EXPECT_EQ(sends, 4 * 2);
  s.model.num_layers = 4;  // the file has only 2 MoE layers
  EXPECT_THROW((void)build_workload(s), InputError);
}

}  // namespace
}  // namespace flux::workload
