// Every Flux schedule replays in the simulator without violation, with the iteration time the
// scheduler computed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <utility>
#include <vector>

#include "cosched/flux_scheduler.hpp"
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

}  // namespace
}  // namespace flux::cosched
