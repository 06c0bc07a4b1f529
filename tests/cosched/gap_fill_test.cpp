#include "cosched/gap_fill.hpp"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "cosched/exhaustive.hpp"
#include "cosched/greedy.hpp"
#include "cosched/lower_bound.hpp"
#include "replay_check.hpp"
#include "tiny_instances.hpp"
#include "workload/dag_builder.hpp"
#include "workload/scenario.hpp"

namespace flux::cosched {
namespace {

using testing::checked_time;
using testing::make_fabric;
using testing::make_workload;
using testing::send;

TEST(GapFill, KeepsThePortForTheCriticalPathAndFillsTheGap) {
  // Critical chain: 1 of compute on GPU 0, 0→1, 6 of compute on GPU 1, 0→1 (p = 2 each); 0→2
  // (p = 2) is ready at once but has slack. One OCS, τ = 1. flux-greedy sends 0→2 first and
  // delays the chain by 3; gap-fill puts 0→2 between the two critical sends: OPT = 1 + 2 + 6 + 2.
  const auto w = make_workload(3, {testing::compute(0, 1), send(0, 1, 2, {0}),
                                   testing::compute(1, 6, {1}), send(0, 1, 2, {2}), send(0, 2, 2)});
  const auto inst = make_instance(w, make_fabric(3, 1, 1.0));
  const auto pl = slack_gap_fill(inst);
  EXPECT_DOUBLE_EQ(checked_time(inst, pl), 11.0);
  EXPECT_DOUBLE_EQ(pl[2].start, 4.0);
  EXPECT_DOUBLE_EQ(flux_lower_bound(inst).value, 11.0);
  EXPECT_DOUBLE_EQ(iteration_time(inst, flux_greedy(inst)), 14.0);
}

TEST(GapFill, APlanNotFinishedByTheDeadlineIsDropped) {
  const workload::Workload w = testing::paper_workload();
  const auto inst = make_instance(w, make_fabric(8, 2, 1e-5, {.rate = testing::kLinkRate}));
  for (const CriticalPlan plan : {CriticalPlan::at_heads, CriticalPlan::after_predecessors}) {
    EXPECT_TRUE(
        slack_gap_fill(inst, {.critical_plan = plan, .deadline = Deadline::after(-1.0)}).empty());
    // A deadline far away changes nothing.
    const auto far =
        slack_gap_fill(inst, {.critical_plan = plan, .deadline = Deadline::after(3600.0)});
    const auto plain = slack_gap_fill(inst, {.critical_plan = plan});
    ASSERT_EQ(far.size(), plain.size());
    for (std::size_t m = 0; m < far.size(); ++m) {
      EXPECT_EQ(far[m].sw, plain[m].sw);
      EXPECT_EQ(far[m].start, plain[m].start);
    }
  }
}

TEST(GapFill, FeasibleOnTinyRandomDags) {
  int optimal = 0, cases = 0;
  for (std::uint64_t seed = 1; seed <= 10; ++seed)
    for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex})
      for (double tau : {0.0, 1.5}) {
        const auto w = testing::random_workload(seed, 4, 6, 0.1);
        const auto inst = make_instance(w, make_fabric(4, 2, tau, kind, seed % 2 == 0));
        const double t = checked_time(inst, slack_gap_fill(inst));
        const double opt = exhaustive_optimum(inst).iteration_time;
        EXPECT_GE(t, opt - 1e-9) << seed;
        optimal += t <= opt + 1e-9;
        ++cases;
        // With home OCSes too: still a valid schedule (checked_time replays and checks it).
        for (const double home : {0.0, 2.0})
          EXPECT_GE(checked_time(inst, slack_gap_fill(inst, {.home_slack = home})), opt - 1e-9);
      }
  EXPECT_GT(optimal, cases / 3) << optimal << " of " << cases;
}

TEST(GapFill, ProvablyOptimalOnThePaperWorkloadUpTo100us) {
  const workload::Workload w = testing::paper_workload();
  for (double tau : {1e-6, 1e-5, 1e-4, 1e-3}) {
    const auto inst = make_instance(w, make_fabric(8, 2, tau, {.rate = testing::kLinkRate}));
    const double t = checked_time(inst, slack_gap_fill(inst));
    const double bound = flux_lower_bound(inst).value;
    const double greedy = iteration_time(inst, flux_greedy(inst));
    EXPECT_LE(t, greedy) << tau;
    // Attains the lower bound (so it is optimal) up to τ = 100 µs; 5.0 % above it at 1 ms.
    EXPECT_LE(t, bound * (tau <= 1e-4 ? 1 + 1e-9 : 1.06)) << tau;
  }
}

// GPT-3 175B cut to `layers` layers with sequence-parallel TP, PP and DP on tp · pp · dp GPUs,
// 2 micro-batches per data-parallel rank.
workload::Workload gpt3_175b(int layers, int tp, int pp, int dp) {
  return workload::build_workload(
      workload::parse_scenario(fmt::format(R"({{
    "format": "flux.scenario/1", "name": "GPT-3 175B, {0} layers, TP{1} x PP{2} x DP{3}",
    "model": {{"preset": "gpt3-175b", "num_layers": {0}}},
    "parallelism": {{"world_size": {4}, "tensor_model_parallel_size": {1},
                    "pipeline_model_parallel_size": {2}, "sequence_parallel": true}},
    "training": {{"micro_batch_size": 1, "global_batch_size": {5}, "seq_length": 2048,
                 "params_dtype": "bf16", "accumulate_allreduce_grads_in_fp32": true,
                 "use_distributed_optimizer": true}},
    "hardware": {{"gpu": "a100", "mfu": 0.45}}}})",
                                           layers, tp, pp, dp, tp * pp * dp, 2 * dp),
                               "test"));
}

// TP4 × PP2 × DP2 on 16 GPUs, 4 layers, 2 OCS, τ = 1 ms: the TP rings take both ports, so every
// pipeline hop waits τ for a port, and everything after it in the pipeline is later than its head.
// Planned at their heads, the TP ring steps after a hop sit too early in the plan, the
// data-parallel buckets fill the gaps between them that are not there, and realised in that order
// the buckets split the rings (2τ each): 38 % above the bound. Planned from their predecessors'
// planned ends, the gaps are the real ones.
TEST(GapFill, PlanningAfterPredecessorsKeepsDataParallelStepsOutOfTheRings) {
  const auto inst =
      make_instance(gpt3_175b(4, 4, 2, 2), make_fabric(16, 2, 1e-3, {.rate = testing::kLinkRate}));
  const double bound = flux_lower_bound(inst).value;
  const double at_heads = checked_time(inst, slack_gap_fill(inst));
  const double after =
      checked_time(inst, slack_gap_fill(inst, {.critical_plan = CriticalPlan::after_predecessors}));
  EXPECT_GT(at_heads, 1.3 * bound);
  EXPECT_LE(after, 1.02 * bound);
  EXPECT_LE(after, iteration_time(inst, flux_greedy(inst)));
}

// TP4 × PP2 × DP4 on 32 GPUs, 2 layers, 2 OCS, τ = 1 ms: each GPU's data-parallel ring has two
// partners. Earliest fits send the steps of buckets that are ready together on both OCSes at
// once, so both ports point at one partner and the other partner's step waits for a set-up,
// again at every step; home OCSes keep one partner's circuit on each OCS.
TEST(GapFill, HomeOcsesSaveSetUpsOnDataParallelRings) {
  const auto inst =
      make_instance(gpt3_175b(2, 4, 2, 4), make_fabric(32, 2, 1e-3, {.rate = testing::kLinkRate}));
  const GapFillOptions after{.critical_plan = CriticalPlan::after_predecessors};
  GapFillOptions home = after;
  home.home_slack = 2.0;
  const double earliest = checked_time(inst, slack_gap_fill(inst, after));
  const double at_home = checked_time(inst, slack_gap_fill(inst, home));
  EXPECT_LT(at_home, 0.97 * earliest);                      // 194.2 against 203.5 ms
  EXPECT_LE(at_home, 1.05 * flux_lower_bound(inst).value);  // 186.1 ms
}

TEST(GapFill, HandlesComputeOnlyAndZeroByteSends) {
  const auto only_compute = make_instance(
      make_workload(2, {testing::compute(0, 2), testing::compute(1, 3)}), make_fabric(2, 1, 1.0));
  EXPECT_TRUE(slack_gap_fill(only_compute).empty());
  EXPECT_DOUBLE_EQ(flux_lower_bound(only_compute).value, 3.0);
  // Zero-byte sends still need their circuits: 0→1 and 0→2 on one OCS are τ apart.
  const auto zero = make_instance(make_workload(3, {send(0, 1, 0), send(0, 2, 0)}),
                                  make_fabric(3, 1, 1.0, fabric::CircuitKind::simplex, true));
  EXPECT_DOUBLE_EQ(checked_time(zero, slack_gap_fill(zero)), 1.0);
  EXPECT_DOUBLE_EQ(flux_lower_bound(zero).value, 1.0);
}

}  // namespace
}  // namespace flux::cosched
