#include "cosched/greedy.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "cosched/exhaustive.hpp"
#include "fabric/replay.hpp"
#include "replay_check.hpp"
#include "tiny_instances.hpp"

namespace flux::cosched {
namespace {

using testing::checked_schedule;
using testing::compute;
using testing::make_fabric;
using testing::make_workload;
using testing::send;

TEST(Greedy, HidesReconfigurationBehindCompute) {
  // 0->1, then 1 ms compute on GPU 1, then 1->2: port 1 re-points during the compute.
  const auto w = make_workload(3, {send(0, 1, 2), compute(1, 5, {0}), send(1, 2, 2, {1})});
  const auto inst = make_instance(w, make_fabric(3, 1, 3.0, fabric::CircuitKind::duplex, true));
  const auto pl = flux_greedy(inst);
  EXPECT_DOUBLE_EQ(pl[0].start, 0.0);
  EXPECT_DOUBLE_EQ(pl[1].start, 7.0);
  EXPECT_DOUBLE_EQ(checked_schedule(inst, pl).iteration_time, 9.0);
  EXPECT_EQ(count_reconfigurations(inst, pl), 1);
}

TEST(Greedy, ReusesACircuitAndPaysTheFirstSetUp) {
  // Two sends 0->1 back to back on one OCS: one set-up (τ = 1), then reuse.
  const auto w = make_workload(2, {send(0, 1, 2), send(0, 1, 3, {0})});
  const auto inst = make_instance(w, make_fabric(2, 1, 1.0));
  const auto pl = flux_greedy(inst);
  EXPECT_DOUBLE_EQ(pl[0].start, 1.0);
  EXPECT_DOUBLE_EQ(pl[1].start, 3.0);
  const auto s = checked_schedule(inst, pl);
  EXPECT_DOUBLE_EQ(s.iteration_time, 6.0);
  ASSERT_EQ(s.circuits.size(), 1u);
  EXPECT_EQ(count_reconfigurations(inst, pl), 2);  // both ports set up once
}

TEST(Greedy, SpreadsIndependentSendsOverSwitches) {
  const auto w = make_workload(3, {send(0, 1, 4), send(0, 2, 4)});
  const auto inst = make_instance(w, make_fabric(3, 2, 1.0));
  const auto pl = flux_greedy(inst);
  EXPECT_NE(pl[0].sw, pl[1].sw);
  EXPECT_DOUBLE_EQ(checked_schedule(inst, pl).iteration_time, 5.0);
}

TEST(Greedy, DuplexOppositeDirectionsOverlapSimplexToo) {
  const auto w = make_workload(2, {send(0, 1, 4), send(1, 0, 4)});
  for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex}) {
    const auto inst = make_instance(w, make_fabric(2, 1, 1.0, kind));
    const auto pl = flux_greedy(inst);
    EXPECT_DOUBLE_EQ(checked_schedule(inst, pl).iteration_time, 5.0);
  }
}

TEST(Greedy, EverySeededRandomScheduleIsFeasibleAndNoBetterThanOptimal) {
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    const auto w = testing::random_workload(seed, 4, 6);
    for (auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex}) {
      const auto inst = make_instance(w, make_fabric(4, 2, 1.5, kind, seed % 2 == 0));
      const auto pl = flux_greedy(inst);
      const double greedy = checked_schedule(inst, pl).iteration_time;
      const auto best = exhaustive_optimum(inst);
      checked_schedule(inst, best.placements);
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
  EXPECT_DOUBLE_EQ(checked_schedule(inst, all).iteration_time, 6.0);
}

std::vector<std::string> violations(const CoschedInstance& inst, const fabric::CircuitSchedule& s) {
  return replay(inst.workload, inst.fabric, s).violations;
}

bool names(const std::vector<std::string>& lines, const std::string& a, const std::string& b = "") {
  return std::any_of(lines.begin(), lines.end(), [&](const std::string& l) {
    return l.find(a) != std::string::npos && l.find(b) != std::string::npos;
  });
}

// Exactly one violation, naming `a` and `b`: the schedule fails for the reason it was broken.
void expect_only(const CoschedInstance& inst, const fabric::CircuitSchedule& s,
                 const std::string& a, const std::string& b) {
  const auto lines = violations(inst, s);
  EXPECT_EQ(lines.size(), 1u);
  EXPECT_TRUE(names(lines, a, b)) << (lines.empty() ? "no violation" : lines.front());
}

// The simulator's checker (fabric/schedule_check + replay) is the one certificate of Flux
// schedules: each broken copy of a feasible greedy schedule fails for the reason it was broken.
TEST(ScheduleCheck, CatchesBrokenSchedules) {
  const auto w = make_workload(3, {send(0, 1, 2), send(1, 2, 2)});
  const auto inst = make_instance(w, make_fabric(3, 1, 1.0));
  const auto good = checked_schedule(inst, flux_greedy(inst));
  // Both sends need port 1: one at τ = 1, the other after it ends (3) and port 1 re-points (τ).
  const int first = good.messages[0].start < good.messages[1].start ? 0 : 1, second = 1 - first;
  ASSERT_DOUBLE_EQ(good.messages[first].start, 1.0);
  ASSERT_DOUBLE_EQ(good.messages[second].start, 4.0);
  ASSERT_DOUBLE_EQ(good.iteration_time, 6.0);
  ASSERT_EQ(good.circuits.size(), 2u);
  ASSERT_DOUBLE_EQ(good.circuits[1].up, 4.0);

  auto no_gap = good;  // the second send and its circuit half τ after the first one ends
  no_gap.messages[second].start = no_gap.circuits[1].up = 3.5;
  no_gap.iteration_time = no_gap.circuits[1].down = 5.5;
  expect_only(inst, no_gap, "port (gpu 1, ocs 0)", "less than τ");

  auto missing = good;
  missing.messages.pop_back();
  EXPECT_THROW((void)replay(inst.workload, inst.fabric, missing), InputError);
  auto twice = good;
  twice.messages.push_back(twice.messages[0]);
  EXPECT_THROW((void)replay(inst.workload, inst.fabric, twice), InputError);

  auto wrong_time = good;
  wrong_time.iteration_time += 1.0;
  expect_only(inst, wrong_time, "reports an iteration time of 7 s", "last task at 6 s");

  auto no_circuit = good;
  no_circuit.circuits.clear();
  const auto circuit_errors = violations(inst, no_circuit);
  EXPECT_TRUE(names(circuit_errors, "task 100", "no circuit from gpu 0 to gpu 1"));
  EXPECT_TRUE(names(circuit_errors, "task 101", "no circuit from gpu 1 to gpu 2"));
}

TEST(ScheduleCheck, CatchesASendBeforeItsPredecessorFinishes) {
  // 0->1, then 2->3 after it: no shared port, only the DAG orders them.
  const auto w = make_workload(4, {send(0, 1, 2), send(2, 3, 2, {0})});
  const auto inst = make_instance(w, make_fabric(4, 1, 1.0, fabric::CircuitKind::duplex, true));
  auto early = checked_schedule(inst, flux_greedy(inst));
  ASSERT_DOUBLE_EQ(early.messages[1].start, 2.0);
  early.messages[1].start = 1.0;
  early.iteration_time = 3.0;  // ends at 3 and cannot end before it is ready at 2
  expect_only(inst, early, "task 101", "DAG order");
}

}  // namespace
}  // namespace flux::cosched
