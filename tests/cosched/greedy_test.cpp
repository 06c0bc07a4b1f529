#include "cosched/greedy.hpp"

#include <gtest/gtest.h>

#include "cosched/exhaustive.hpp"
#include "cosched/schedule_check.hpp"
#include "tiny_instances.hpp"

namespace flux {
namespace {

using testing::compute;
using testing::make_fabric;
using testing::make_workload;
using testing::send;

CircuitSchedule checked(const CoschedInstance& inst, const std::vector<Placement>& pl) {
  auto s = make_circuit_schedule(inst, pl, "test");
  const auto errors = check_circuit_schedule(inst, s);
  EXPECT_TRUE(errors.empty()) << errors.front();
  return s;
}

TEST(Greedy, HidesReconfigurationBehindCompute) {
  // 0->1, then 1 ms compute on GPU 1, then 1->2: port 1 re-points during the compute.
  const auto w = make_workload(3, {send(0, 1, 2), compute(1, 5, {0}), send(1, 2, 2, {1})});
  const auto inst = make_instance(w, make_fabric(3, 1, 3.0, CircuitKind::duplex, true));
  const auto pl = flux_greedy(inst);
  EXPECT_DOUBLE_EQ(pl[0].start, 0.0);
  EXPECT_DOUBLE_EQ(pl[1].start, 7.0);
  EXPECT_DOUBLE_EQ(checked(inst, pl).iteration_time, 9.0);
  EXPECT_EQ(count_reconfigurations(inst, pl), 1);
}

TEST(Greedy, ReusesACircuitAndPaysTheFirstSetUp) {
  // Two sends 0->1 back to back on one OCS: one set-up (τ = 1), then reuse.
  const auto w = make_workload(2, {send(0, 1, 2), send(0, 1, 3, {0})});
  const auto inst = make_instance(w, make_fabric(2, 1, 1.0));
  const auto pl = flux_greedy(inst);
  EXPECT_DOUBLE_EQ(pl[0].start, 1.0);
  EXPECT_DOUBLE_EQ(pl[1].start, 3.0);
  const auto s = checked(inst, pl);
  EXPECT_DOUBLE_EQ(s.iteration_time, 6.0);
  ASSERT_EQ(s.circuits.size(), 1u);
  EXPECT_EQ(count_reconfigurations(inst, pl), 2);  // both ports set up once
}

TEST(Greedy, SpreadsIndependentSendsOverSwitches) {
  const auto w = make_workload(3, {send(0, 1, 4), send(0, 2, 4)});
  const auto inst = make_instance(w, make_fabric(3, 2, 1.0));
  const auto pl = flux_greedy(inst);
  EXPECT_NE(pl[0].sw, pl[1].sw);
  EXPECT_DOUBLE_EQ(checked(inst, pl).iteration_time, 5.0);
}

TEST(Greedy, DuplexOppositeDirectionsOverlapSimplexToo) {
  const auto w = make_workload(2, {send(0, 1, 4), send(1, 0, 4)});
  for (auto kind : {CircuitKind::duplex, CircuitKind::simplex}) {
    const auto inst = make_instance(w, make_fabric(2, 1, 1.0, kind));
    const auto pl = flux_greedy(inst);
    EXPECT_DOUBLE_EQ(checked(inst, pl).iteration_time, 5.0);
  }
}

TEST(Greedy, EverySeededRandomScheduleIsFeasibleAndNoBetterThanOptimal) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto w = testing::random_workload(seed, 4, 6);
    for (auto kind : {CircuitKind::duplex, CircuitKind::simplex}) {
      const auto inst = make_instance(w, make_fabric(4, 2, 1.5, kind, seed % 2 == 0));
      const auto pl = flux_greedy(inst);
      const double greedy = checked(inst, pl).iteration_time;
      const auto best = exhaustive_optimum(inst);
      checked(inst, best.placements);
      EXPECT_LE(best.iteration_time, greedy + 1e-9) << "seed " << seed;
      EXPECT_GE(best.iteration_time, inst.critical_path - 1e-9);
    }
  }
}

TEST(Greedy, PlacesOnlyTheWindowAfterFixedMessages) {
  const auto w = make_workload(2, {send(0, 1, 2), send(0, 1, 2, {0}), send(1, 0, 1, {1})});
  const auto inst = make_instance(w, make_fabric(2, 1, 1.0));
  const auto first = flux_greedy(inst, {}, {}, {1, 0, 0});
  EXPECT_EQ(first[0].sw, 0);
  EXPECT_EQ(first[1].sw, -1);
  EXPECT_EQ(first[2].sw, -1);
  const auto all = flux_greedy(inst, {}, first, {0, 1, 1});
  EXPECT_DOUBLE_EQ(all[0].start, first[0].start);
  EXPECT_DOUBLE_EQ(checked(inst, all).iteration_time, 6.0);
}

}  // namespace
}  // namespace flux

namespace flux {
namespace {

TEST(ScheduleCheck, CatchesBrokenSchedules) {
  using testing::make_fabric;
  using testing::make_workload;
  using testing::send;
  const auto w = make_workload(3, {send(0, 1, 2), send(1, 2, 2)});
  const auto inst = make_instance(w, make_fabric(3, 1, 1.0));
  const auto good = make_circuit_schedule(inst, flux_greedy(inst), "test");
  EXPECT_TRUE(check_circuit_schedule(inst, good).empty());
  auto no_gap = good;
  no_gap.messages[1].start = no_gap.messages[0].start + 2.5;  // needs 2 + τ = 3
  EXPECT_FALSE(check_circuit_schedule(inst, no_gap).empty());
  auto missing = good;
  missing.messages.pop_back();
  EXPECT_FALSE(check_circuit_schedule(inst, missing).empty());
  auto wrong_time = good;
  wrong_time.iteration_time += 1.0;
  EXPECT_FALSE(check_circuit_schedule(inst, wrong_time).empty());
  auto no_circuit = good;
  no_circuit.circuits.clear();
  EXPECT_FALSE(check_circuit_schedule(inst, no_circuit).empty());
}

}  // namespace
}  // namespace flux
