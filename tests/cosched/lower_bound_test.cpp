#include "cosched/lower_bound.hpp"

#include <gtest/gtest.h>

#include "core/rng.hpp"

#include <fmt/format.h>

#include "cosched/exhaustive.hpp"
#include "cosched/flux_scheduler.hpp"
#include "cosched/greedy.hpp"
#include "tiny_instances.hpp"

namespace flux::cosched {
namespace {

using testing::compute;
using testing::make_fabric;
using testing::make_workload;
using testing::send;

TEST(LowerBound, ExactForOneGpuFanningOutOverTwoSwitches) {
  // GPU 0 sends 4 independent messages of p = 3 to GPUs 1..4 on σ = 2 OCSes, τ = 1, first
  // set-up paid: each port does τ, p, τ, p, so OPT = 2p + 2τ = 8 and the energy bound is exact.
  const auto w = make_workload(5, {send(0, 1, 3), send(0, 2, 3), send(0, 3, 3), send(0, 4, 3)});
  const auto inst = make_instance(w, make_fabric(5, 2, 1.0));
  const FluxBound b = flux_lower_bound(inst);
  EXPECT_DOUBLE_EQ(b.critical_path, 4.0);  // τ + p
  EXPECT_DOUBLE_EQ(b.value, 8.0);
  EXPECT_DOUBLE_EQ(exhaustive_optimum(inst).iteration_time, 8.0);
  EXPECT_EQ(b.source, BoundSource::port_energy);
  EXPECT_EQ(b.gpu, 0);
  EXPECT_EQ(b.messages, 4);
  EXPECT_EQ(b.circuits, 4);
  EXPECT_DOUBLE_EQ(b.load, 12.0);
  EXPECT_DOUBLE_EQ(b.window_begin, 1.0);
  EXPECT_DOUBLE_EQ(b.window_end, 8.0);
  EXPECT_EQ(describe(b), "port energy gpu 0 [1s, 8s]: 4 messages, 4 circuits, load 12s");
}

TEST(LowerBound, SetUpPigeonholeCatchesThreeCircuitsOnTwoPorts) {
  // GPU 0 sends p = 1 to GPUs 1, 2, 3 at once, σ = 2, τ = 5, free first circuits: two sends share
  // a port and need a set-up between them, OPT = 1 + 5 + 1. The energy bound only gives
  // (3 + 5) / 2, and (3 + 2·5) / 2 with a split circuit's second set-up (it cannot tell that a
  // circuit of one message cannot be split).
  const auto w = make_workload(4, {send(0, 1, 1), send(0, 2, 1), send(0, 3, 1)});
  const auto inst = make_instance(w, make_fabric(4, 2, 5.0, {.initial_free = true}));
  const FluxBound b = flux_lower_bound(inst);
  EXPECT_DOUBLE_EQ(b.value, 7.0);
  EXPECT_DOUBLE_EQ(exhaustive_optimum(inst).iteration_time, 7.0);
  EXPECT_EQ(b.source, BoundSource::setup_pigeonhole);
  EXPECT_EQ(describe(b), "set-up pigeonhole gpu 0: tasks 100, 101, 102 use 3 circuits on 2 ports");
  EXPECT_DOUBLE_EQ(flux_lower_bound(inst, {.pigeonhole_reach = 0}).value, 6.5);
}

// GPU 0's sends on σ = 2 OCSes with free first circuits: the port-energy bound, raised by its
// whole-or-split case analysis, equals the exhaustive optimum `opt`.
FluxBound expect_whole_or_split_exact(std::vector<workload::Task> sends, double tau, double opt) {
  const auto inst = make_instance(make_workload(4, std::move(sends)),
                                  make_fabric(4, 2, tau, {.initial_free = true}));
  const FluxBound b = flux_lower_bound(inst);
  EXPECT_DOUBLE_EQ(b.value, opt);
  EXPECT_DOUBLE_EQ(exhaustive_optimum(inst).iteration_time, opt);
  EXPECT_EQ(b.source, BoundSource::port_energy);
  EXPECT_TRUE(b.whole_circuits);
  return b;
}

TEST(LowerBound, SplittingACircuitCostsOneMoreSetUp) {
  // GPU 0 sends two messages of p = 2 to each of GPUs 1, 2, 3; τ = 1. Spread evenly, the load of
  // 12 and one set-up give (12 + 1) / 2 = 6.5. Whole circuits put two on one port
  // (2 + 2 + 1 + 2 + 2 = 9); splitting one costs a second set-up, (12 + 2) / 2 = 7, and OPT
  // attains it: each port carries a whole circuit, τ, and one message of the third.
  std::vector<workload::Task> sends;
  for (int to = 1; to <= 3; ++to) sends.push_back(send(0, to, 2)), sends.push_back(send(0, to, 2));
  EXPECT_EQ(describe(expect_whole_or_split_exact(sends, 1.0, 7.0)),
            "port energy gpu 0 [0s, 7s]: 6 messages, 3 circuits, load 12s, whole circuits or one "
            "more set-up");
}

TEST(LowerBound, AWholeCircuitHoldsItsPortForItsWholeLoad) {
  // Five messages of p = 2 to GPU 1 and one of p = 1 to GPUs 2 and 3; τ = 5. Splitting the big
  // circuit costs two set-ups, (12 + 2τ) / 2 = 11; kept whole it holds one port for 10, which OPT
  // attains (the other port: 1, τ, 1). Every other family stays lower: the energy sum
  // (12 + τ) / 2 = 8.5, the pigeonhole 2 + τ + 1 = 8.
  std::vector<workload::Task> sends(5, send(0, 1, 2));
  sends.push_back(send(0, 2, 1));
  sends.push_back(send(0, 3, 1));
  expect_whole_or_split_exact(sends, 5.0, 10.0);
}

TEST(LowerBound, FluxScheduleReportsIt) {
  // Rolling horizon (no MILP bound): the report's bound is the port-energy bound, and it proves
  // the schedule optimal.
  const auto w = make_workload(5, {send(0, 1, 3), send(0, 2, 3), send(0, 3, 3), send(0, 4, 3)});
  const auto inst = make_instance(w, make_fabric(5, 2, 1.0));
  FluxOptions o;
  o.monolithic_limit = 0;
  o.window_messages = 2;
  const FluxResult r = flux_schedule(inst, o);
  EXPECT_DOUBLE_EQ(r.report.objective, 8.0);
  EXPECT_DOUBLE_EQ(r.report.bound, 8.0);
  EXPECT_DOUBLE_EQ(r.report.gap, 0.0);
  EXPECT_EQ(r.report.bound_source.rfind("port energy gpu 0", 0), 0u) << r.report.bound_source;
}

TEST(LowerBound, DuplexDirectionsOverlapSimplexSidesAreSeparate) {
  // 0→1 and 1→0 (p = 4) share one duplex circuit: 4 of port time, not 8. With σ = 1 and a free
  // first circuit, adding 0→2 (p = 2) forces a set-up: OPT = 4 + τ + 2 = 8 both ways.
  const auto w = make_workload(3, {send(0, 1, 4), send(1, 0, 4), send(0, 2, 2)});
  for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex}) {
    const auto inst = make_instance(w, make_fabric(3, 1, 2.0, kind, true));
    const FluxBound b = flux_lower_bound(inst);
    EXPECT_DOUBLE_EQ(b.value, 8.0);
    EXPECT_DOUBLE_EQ(exhaustive_optimum(inst).iteration_time, 8.0);
    EXPECT_EQ(b.side, kind == fabric::CircuitKind::duplex ? "ports" : "tx");
    EXPECT_EQ(b.circuits, 2);
  }
}

TEST(LowerBound, HeadsDelayEveryFirstSendByTau) {
  const auto w = make_workload(2, {compute(0, 0.5), send(0, 1, 2, {0}), compute(1, 1, {1})});
  const auto paid = make_instance(w, make_fabric(2, 2, 3.0));
  EXPECT_DOUBLE_EQ(paid.critical_path, 3.5);
  EXPECT_EQ(flux_heads(paid), (std::vector<double>{0.0, 3.0, 5.0}));
  EXPECT_DOUBLE_EQ(flux_lower_bound(paid).value, 6.0);
  EXPECT_EQ(describe(flux_lower_bound(paid)), "critical path");
  const auto free = make_instance(w, make_fabric(2, 2, 3.0, fabric::CircuitKind::duplex, true));
  EXPECT_DOUBLE_EQ(flux_lower_bound(free).value, 3.5);
}

TEST(LowerBound, TailsCloseTheWindow) {
  // Three fan-out sends from GPU 0 each followed by 5 of compute at the receiver, σ = 1, τ = 1:
  // S = all three with b = 5: C ≥ 1 + 5 + (3·2 + 2·1) = 14, which is optimal.
  std::vector<workload::Task> t;
  for (int j = 1; j <= 3; ++j) {
    t.push_back(send(0, j, 2));
    t.push_back(compute(j, 5, {static_cast<int>(t.size()) - 1}));
  }
  const auto inst = make_instance(make_workload(4, t), make_fabric(4, 1, 1.0));
  EXPECT_DOUBLE_EQ(flux_lower_bound(inst).value, 14.0);
  EXPECT_DOUBLE_EQ(exhaustive_optimum(inst).iteration_time, 14.0);
}

// GPU 0 receives from GPUs 1..3, computes, and sends back to each, which then computes (p = 1
// everywhere, τ = 1, σ = 1, free first circuits). The port of GPU 0 must serve three circuits
// before its compute and three after it: OPT = (3 + 2τ) + 1 + (3 + 2τ) + 1 = 12 — the fan-in
// raises the compute's head to 5, the fan-out its tail to 6.
workload::Workload hub_fan_in_fan_out() {
  std::vector<workload::Task> t{send(1, 0, 1), send(2, 0, 1), send(3, 0, 1),
                                compute(0, 1, {0, 1, 2})};
  for (int j = 1; j <= 3; ++j) {
    t.push_back(send(0, j, 1, {3}));
    t.push_back(compute(j, 1, {static_cast<int>(t.size()) - 1}));
  }
  return make_workload(4, t);
}

TEST(LowerBound, BurstHeadsAndTailsChargeAFanInThenAFanOut) {
  for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex}) {
    const auto inst = make_instance(hub_fan_in_fan_out(),
                                    make_fabric(4, 1, 1.0, {.kind = kind, .initial_free = true}));
    const FluxBound b = flux_lower_bound(inst);
    // Exact: one set-up more (or one message fewer in the overlap) would exceed the optimum.
    EXPECT_DOUBLE_EQ(b.value, 12.0);
    EXPECT_DOUBLE_EQ(exhaustive_optimum(inst).iteration_time, 12.0);
    EXPECT_EQ(b.source, BoundSource::burst_path);
    EXPECT_EQ(describe(b), "set-up bursts: path through task 103, heads +4s, tails +4s");
    EXPECT_LT(flux_lower_bound(inst, {.bursts = false}).value, 12.0);
  }
}

TEST(LowerBound, BurstPortCountBeatsEnergyWhenSetUpsDominate) {
  // GPU 0 receives p = 1 from GPUs 1..5 on σ = 2, τ = 4 (first set-up paid), then computes 1.
  // Energy: τ + (5 + 3τ)/2 = 12.5; some port takes 3 circuits: τ + 2τ + 3 = 15, + 1 = 16.
  std::vector<workload::Task> t;
  for (int j = 1; j <= 5; ++j) t.push_back(send(j, 0, 1));
  t.push_back(compute(0, 1, {0, 1, 2, 3, 4}));
  const auto inst = make_instance(make_workload(6, t), make_fabric(6, 2, 4.0));
  const FluxBound b = flux_lower_bound(inst);
  EXPECT_DOUBLE_EQ(b.value, 16.0);
  EXPECT_DOUBLE_EQ(exhaustive_optimum(inst).iteration_time, 16.0);
  EXPECT_EQ(b.source, BoundSource::burst_path);
}

// A pipeline hop between two TP rings of three GPUs at σ = 2 (p = 1 everywhere, τ = 2, free first
// circuits): GPU 0 sends to 1 and receives from 2 (its ring step), computes, sends the hop to GPU
// 3, which computes and then sends to 4 and receives from 5, and computes. Both ports of GPU 0 hold
// a ring circuit, so the hop starts τ after they end (at 3, not 2); one ring message of GPU 3
// shares the hop's port and starts τ after the hop ends (at 6, not 5, the compute in between
// hides half of τ): OPT = 8. Family 3 charges the first set-up, family 5 both.
workload::Workload pipeline_hop_between_rings() {
  return make_workload(
      6, {send(0, 1, 1), send(2, 0, 1), compute(0, 1, {0, 1}), send(0, 3, 1, {2}),
          compute(3, 1, {3}), send(3, 4, 1, {4}), send(5, 3, 1, {4}), compute(3, 1, {5, 6})});
}

TEST(LowerBound, SetUpChainsChargeBothSetUpsOfAPipelineHop) {
  const auto inst =
      make_instance(pipeline_hop_between_rings(), make_fabric(6, 2, 2.0, {.initial_free = true}));
  const FluxBound b = flux_lower_bound(inst);
  EXPECT_DOUBLE_EQ(b.value, 8.0);
  EXPECT_DOUBLE_EQ(exhaustive_optimum(inst).iteration_time, 8.0);
  EXPECT_EQ(b.source, BoundSource::setup_chain);
  EXPECT_EQ(describe(b),
            "set-up chains: path through task 103, heads +1s, tails +1s, 2 chained pigeonholes");
  const FluxBound without = flux_lower_bound(inst, {.setup_chains = false});
  EXPECT_DOUBLE_EQ(without.value, 7.0);  // the sender's set-up only (family 3)
  EXPECT_EQ(without.source, BoundSource::setup_pigeonhole);
}

struct Tally {
  int cases = 0, energy_wins = 0, pigeonhole_wins = 0, burst_wins = 0, chain_raises = 0, exact = 0;
};

void check_against_optimum(const CoschedInstance& inst, const std::string& label, Tally& tally) {
  const FluxBound b = flux_lower_bound(inst);
  const FluxBound thin = flux_lower_bound(inst, {.max_head_thresholds = 2});
  const double opt = exhaustive_optimum(inst).iteration_time;
  EXPECT_GE(b.value, inst.critical_path - 1e-12) << label;
  EXPECT_GE(b.value, b.critical_path) << label;
  EXPECT_LE(b.value, opt * (1 + 1e-12)) << label;
  EXPECT_LE(thin.value, b.value) << label;
  EXPECT_LE(flux_lower_bound(inst, {.bursts = false}).value, b.value) << label;
  const double without_chains = flux_lower_bound(inst, {.setup_chains = false}).value;
  EXPECT_LE(without_chains, b.value) << label;
  EXPECT_LE(flux_lower_bound(inst, {.bursts = false, .setup_chains = true}).value,
            opt * (1 + 1e-12))
      << label;
  ++tally.cases;
  tally.chain_raises += b.value > without_chains * (1 + 1e-12);
  tally.burst_wins += b.source == BoundSource::burst_path || b.burst_times;
  tally.energy_wins += b.source == BoundSource::port_energy;
  tally.pigeonhole_wins += b.source == BoundSource::setup_pigeonhole;
  tally.exact += b.value >= opt * (1 - 1e-12);
}

TEST(LowerBound, NeverExceedsTheExhaustiveOptimumOnTinyRandomDags) {
  Tally tally;
  for (std::uint64_t seed = 1; seed <= 8; ++seed)
    for (int gpus : {3, 4})
      for (double edges : {0.05, 0.25}) {
        const auto w = testing::random_workload(seed, gpus, 6, edges);
        for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex})
          for (bool free : {false, true})
            for (double tau : {0.0, 0.5, 2.0})
              for (int ocs : {1, 2})
                check_against_optimum(
                    make_instance(w, make_fabric(gpus, ocs, tau, kind, free)),
                    fmt::format("seed {} gpus {} edges {} {} free {} tau {} ocs {}", seed, gpus,
                                edges, kind == fabric::CircuitKind::duplex ? "duplex" : "simplex",
                                free, tau, ocs),
                    tally);
      }
  // Both port families must matter (not just the critical path) and be tight on some cases.
  const std::string counts =
      fmt::format("{} cases: energy {}, pigeonhole {}, chains raise {}, exact {}", tally.cases,
                  tally.energy_wins, tally.pigeonhole_wins, tally.chain_raises, tally.exact);
  EXPECT_GT(tally.energy_wins, tally.cases / 4) << counts;
  EXPECT_GT(tally.pigeonhole_wins, tally.cases / 50) << counts;
  EXPECT_GT(tally.chain_raises, 0) << counts;
  EXPECT_GT(tally.exact, tally.cases / 4) << counts;
}

TEST(LowerBound, NeverExceedsTheExhaustiveOptimumOnTinyPipelineHops) {
  // The hop between two rings with seeded sizes 1..4 and durations 1..3, an extra random
  // dependency or none: three circuits at GPUs 0 and 3 in a chain of ancestors, the shape family 5
  // reasons about. It must raise the bound on a good share of them.
  Tally tally;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Rng rng(seed);
    auto w = pipeline_hop_between_rings();
    for (auto& task : w.tasks) {
      if (task.kind == workload::TaskKind::send)
        task.bytes = static_cast<double>(1 + rng.below(3));
      else
        task.duration = static_cast<double>(1 + rng.below(2));
    }
    if (seed % 2 == 0) w.tasks[6].after.push_back(0);  // a ring message waits for the other ring
    for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex})
      for (bool free : {false, true})
        for (double tau : {0.5, 2.0, 4.0})
          for (int ocs : {1, 2})
            check_against_optimum(
                make_instance(w,
                              make_fabric(w.gpus, ocs, tau, {.kind = kind, .initial_free = free})),
                fmt::format("seed {} {} free {} tau {} ocs {}", seed,
                            kind == fabric::CircuitKind::duplex ? "duplex" : "simplex", free, tau,
                            ocs),
                tally);
  }
  const std::string counts = fmt::format("{} cases: chains raise {}, exact {}", tally.cases,
                                         tally.chain_raises, tally.exact);
  EXPECT_GT(tally.chain_raises, tally.cases / 8) << counts;
  EXPECT_GT(tally.exact, tally.cases / 10) << counts;
}

// An MoE-shaped round on `gpus` GPUs: each GPU computes, sends to every other (dispatch), and
// computes again once all its incoming messages are in; seeded sizes 1..4 and durations 1..3.
workload::Workload all_to_all_workload(std::uint64_t seed, int gpus) {
  Rng rng(seed);
  std::vector<workload::Task> t;
  for (int g = 0; g < gpus; ++g) t.push_back(compute(g, static_cast<double>(1 + rng.below(3))));
  std::vector<std::vector<int>> incoming(gpus);
  for (int g = 0; g < gpus; ++g) incoming[g].push_back(g);  // compute is in order on a GPU
  for (int g = 0; g < gpus; ++g)
    for (int j = 0; j < gpus; ++j)
      if (j != g) {
        incoming[j].push_back(static_cast<int>(t.size()));
        t.push_back(send(g, j, static_cast<double>(1 + rng.below(4)), {g}));
      }
  for (int g = 0; g < gpus; ++g)
    t.push_back(compute(g, static_cast<double>(1 + rng.below(3)), incoming[g]));
  return make_workload(gpus, t);
}

TEST(LowerBound, NeverExceedsTheExhaustiveOptimumOnTinyAllToAlls) {
  // All-to-alls on 3 GPUs, and a hub's fan-in then fan-out with random sizes: the shapes family 4
  // reasons about. It must attain the bound on some of them.
  Tally tally;
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    Rng rng(seed);
    auto hub = hub_fan_in_fan_out();
    for (auto& task : hub.tasks)
      if (task.kind == workload::TaskKind::send) task.bytes = static_cast<double>(1 + rng.below(4));
    for (const auto& w : {all_to_all_workload(seed, 3), hub})
      for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex})
        for (bool free : {false, true})
          for (double tau : {0.5, 2.0})
            for (int ocs : {1, 2})
              check_against_optimum(
                  make_instance(
                      w, make_fabric(w.gpus, ocs, tau, {.kind = kind, .initial_free = free})),
                  fmt::format("seed {} gpus {} {} free {} tau {} ocs {}", seed, w.gpus,
                              kind == fabric::CircuitKind::duplex ? "duplex" : "simplex", free, tau,
                              ocs),
                  tally);
  }
  const std::string counts =
      fmt::format("{} cases: bursts {}, exact {}", tally.cases, tally.burst_wins, tally.exact);
  EXPECT_GT(tally.burst_wins, tally.cases / 4) << counts;
  EXPECT_GT(tally.exact, tally.cases / 10) << counts;
}

CoschedInstance paper_instance(double tau) {
  static const workload::Workload w = testing::paper_workload();
  return make_instance(w, make_fabric(8, 2, tau, {.rate = testing::kLinkRate}));
}

TEST(LowerBound, BelowFluxGreedyOnThePaperWorkload) {
  for (double tau : {1e-6, 1e-5, 1e-4, 1e-3}) {
    const auto inst = paper_instance(tau);
    const FluxBound b = flux_lower_bound(inst);
    const double greedy = iteration_time(inst, flux_greedy(inst));
    EXPECT_GE(b.value, inst.critical_path) << tau;
    EXPECT_LE(b.value, greedy) << tau;
    const FluxBound all = flux_lower_bound(inst, {.max_head_thresholds = 0});
    EXPECT_GE(all.value, b.value) << tau;
    EXPECT_LE(all.value, greedy) << tau;
  }
}

TEST(LowerBound, AnExpiredDeadlineKeepsTheBoundValid) {
  // A deadline that has passed before the bound starts: the port families and families 4 and 5
  // stop at once and only the critical path with heads remains. It must still be at most the
  // optimum, and the full bound at least it.
  const Deadline expired = Deadline::after(-1.0);
  for (std::uint64_t seed = 1; seed <= 6; ++seed)
    for (double tau : {0.5, 2.0}) {
      const auto inst =
          make_instance(testing::random_workload(seed, 4, 6, 0.25), make_fabric(4, 2, tau));
      const FluxBound cut = flux_lower_bound(inst, {.deadline = expired});
      const FluxBound full = flux_lower_bound(inst, {.deadline = Deadline::after(3600.0)});
      EXPECT_FALSE(cut.complete);
      EXPECT_TRUE(full.complete);
      EXPECT_DOUBLE_EQ(cut.value, cut.critical_path) << seed;
      EXPECT_LE(cut.value, full.value) << seed;
      EXPECT_LE(full.value, exhaustive_optimum(inst).iteration_time * (1 + 1e-12)) << seed;
      EXPECT_DOUBLE_EQ(full.value, flux_lower_bound(inst).value) << seed;  // far: no change
    }
  const auto inst = paper_instance(1e-5);
  const FluxBound cut = flux_lower_bound(inst, {.deadline = expired});
  EXPECT_GE(cut.value, inst.critical_path);
  EXPECT_LE(cut.value, flux_lower_bound(inst).value);
  EXPECT_LE(cut.value, iteration_time(inst, flux_greedy(inst)));
}

}  // namespace
}  // namespace flux::cosched
