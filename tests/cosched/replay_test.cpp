// Every Flux schedule replays in the simulator without violation, with the iteration time the
// scheduler computed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "cosched/flux_scheduler.hpp"
#include "cosched/lower_bound.hpp"
#include "fabric/replay.hpp"
#include "tiny_instances.hpp"

namespace flux::cosched {
namespace {

// The fabric model's reconfiguration count straight from the placements, without the circuit
// intervals: per (OCS, port), the partners of its sends in start order; one reconfiguration per
// change of partner, plus one first set-up per used port unless the initial configuration is free.
std::int64_t reconfigurations_by_port(const CoschedInstance& inst,
                                      const std::vector<Placement>& pl) {
  const bool simplex = inst.fabric.circuit == fabric::CircuitKind::simplex;
  std::map<std::tuple<int, int, bool>, std::vector<std::pair<double, int>>> uses;
  for (int m = 0; m < inst.message_count(); ++m) {
    const workload::Task& t = inst.message_task(m);
    uses[{pl[m].sw, t.src, false}].emplace_back(pl[m].start, t.dst);
    uses[{pl[m].sw, t.dst, simplex}].emplace_back(pl[m].start, t.src);
  }
  std::int64_t count = 0;
  for (auto& [port, list] : uses) {
    std::sort(list.begin(), list.end());
    count += inst.fabric.initial_config_free ? 0 : 1;
    for (std::size_t k = 1; k < list.size(); ++k) count += list[k].second != list[k - 1].second;
  }
  return count;
}

void expect_replays(const CoschedInstance& inst, const std::vector<Placement>& pl) {
  const fabric::CircuitSchedule s = make_circuit_schedule(inst, pl, "flux");
  const fabric::SimResult r = replay(inst.workload, inst.fabric, s);
  ASSERT_TRUE(r.ok) << (r.violations.empty() ? "" : r.violations.front());
  EXPECT_NEAR(r.metrics.iteration_time, s.iteration_time, 1e-9 * s.iteration_time);
  EXPECT_EQ(r.metrics.reconfigurations, reconfigurations_by_port(inst, pl));
  EXPECT_EQ(count_reconfigurations(inst, pl), r.metrics.reconfigurations);
}

TEST(Replay, GreedyMilpAndRollingHorizonSchedulesReplay) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const auto w = testing::random_workload(seed, 5, 12);
    for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex}) {
      // Odd seeds: sends as long as compute; even: ns sends, µs reconfiguration, s compute.
      const fabric::Fabric f = testing::make_fabric(5, 2, seed % 2 ? 0.7 : 1e-6,
                                                    {.rate = seed % 2 ? 1.0 : 1e9,
                                                     .alpha = seed % 2 ? 0.1 : 2e-9,
                                                     .kind = kind,
                                                     .initial_free = seed % 4 == 0});
      const auto inst = make_instance(w, f);
      expect_replays(inst, flux_greedy(inst));
      FluxOptions o;
      o.solver.time_limit = 2.0;
      expect_replays(inst, flux_schedule(inst, o).placements);
      o.window_messages = 5;
      o.monolithic_limit = 0;
      expect_replays(inst, flux_schedule(inst, o).placements);
    }
  }
}

TEST(Replay, TheTimedScheduleIsTheFileFormConverted) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed)
    for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex}) {
      const auto inst = make_instance(testing::random_workload(seed, 5, 12),
                                      testing::make_fabric(5, 2, 0.7, {.kind = kind}));
      const auto pl = flux_greedy(inst);
      const fabric::TimedSchedule direct = make_timed_schedule(inst, pl, "flux-greedy");
      const fabric::TimedSchedule via_file = fabric::to_timed(
          make_circuit_schedule(inst, pl, "flux-greedy"), inst.workload, inst.fabric, "file");
      EXPECT_EQ(direct.scheduler, via_file.scheduler);
      EXPECT_EQ(direct.posting, via_file.posting);
      EXPECT_EQ(direct.iteration_time, via_file.iteration_time);
      ASSERT_EQ(direct.circuits.size(), via_file.circuits.size());
      for (std::size_t k = 0; k < direct.circuits.size(); ++k) {
        const auto &a = direct.circuits[k], &b = via_file.circuits[k];
        EXPECT_EQ(std::tie(a.up, a.down, a.sw, a.a, a.b), std::tie(b.up, b.down, b.sw, b.a, b.b));
      }
      ASSERT_EQ(direct.hops.size(), via_file.hops.size());
      for (std::size_t t = 0; t < direct.hops.size(); ++t) {
        ASSERT_EQ(direct.hops[t].size(), via_file.hops[t].size()) << t;
        for (std::size_t h = 0; h < direct.hops[t].size(); ++h) {
          const fabric::Hop &a = direct.hops[t][h], &b = via_file.hops[t][h];
          EXPECT_EQ(std::tie(a.sw, a.from, a.to, a.start, a.end, a.bytes),
                    std::tie(b.sw, b.from, b.to, b.start, b.end, b.bytes));
        }
      }
    }
  const auto inst =
      make_instance(testing::random_workload(1, 5, 12), testing::make_fabric(5, 2, 0.7));
  EXPECT_THROW((void)make_timed_schedule(inst, std::vector<Placement>(inst.message_count()), "x"),
               std::logic_error);
}

TEST(Replay, FluxPastItsTimeLimitStillReturnsAVerifiedScheduleAndAValidBound) {
  // A limit that has passed before the bound and the other first incumbents start (1 ns):
  // flux-greedy's schedule stands, the slack-gap-fills are skipped, the bound keeps only what it
  // finished, and the note says so.
  const workload::Workload w = testing::paper_workload();
  for (double tau : {1e-5, 1e-3}) {
    const auto inst =
        make_instance(w, testing::make_fabric(8, 2, tau, {.rate = testing::kLinkRate}));
    FluxOptions o;
    o.solver.time_limit = 1e-9;
    const FluxResult r = flux_schedule(inst, o);
    expect_replays(inst, r.placements);
    EXPECT_DOUBLE_EQ(r.report.objective, r.report.greedy_objective) << tau;
    EXPECT_DOUBLE_EQ(r.report.objective, iteration_time(inst, r.placements)) << tau;
    EXPECT_LE(r.report.bound, r.report.objective) << tau;
    EXPECT_GE(r.report.bound, inst.critical_path) << tau;
    EXPECT_LE(r.report.bound, flux_lower_bound(inst).value) << tau;
    EXPECT_NE(r.report.note.find("slack-gap-fill"), std::string::npos) << r.report.note;
    EXPECT_NE(r.report.note.find("lower bound stopped early"), std::string::npos) << r.report.note;
    EXPECT_EQ(r.report.windows, 0) << tau;
  }
}

}  // namespace
}  // namespace flux::cosched
