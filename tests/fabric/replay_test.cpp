#include "fabric/replay.hpp"

#include <gtest/gtest.h>

#include <utility>

#include "core/error.hpp"
#include "fabric/schedule_check.hpp"
#include "support/fabrics.hpp"
#include "support/workloads.hpp"

namespace flux::fabric {
namespace {

using testing::kLinkRate;
using testing::make_fabric;
using testing::WorkloadBuilder;

// Whether a line of `lines` contains both `a` and `b`.
bool contains(const std::vector<std::string>& lines, const std::string& a,
              const std::string& b = "") {
  for (const std::string& l : lines)
    if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
  return false;
}

TEST(Replay, OneMessageOnPresetCircuitTakesAlphaPlusBytesOverB) {
  WorkloadBuilder b(2);
  b.send(0, 1, 4e6);
  Fabric f = make_fabric(2, 1, 1e-5, {.rate = kLinkRate, .alpha = 1e-6, .initial_free = true});
  CircuitSchedule s{"test", {{0, 0, 0.0, {}}}, {{0, 0, 1, 0.0, 1.0}}, 1e-6 + 4e6 / kLinkRate};
  SimResult r = replay(b.w, f, s);
  ASSERT_TRUE(r.ok) << r.violations.front();
  EXPECT_NEAR(r.metrics.iteration_time, 1e-6 + 4e6 / kLinkRate, 1e-12);
  EXPECT_EQ(r.metrics.reconfigurations, 0);
  EXPECT_DOUBLE_EQ(r.metrics.bytes_delivered, 4e6);
  EXPECT_NEAR(r.metrics.peak_nic_buffer, 1e5, 1e-3);  // streamed: only the 1 µs window
  EXPECT_NEAR(r.metrics.peak_nic_buffer_eager, 4e6, 1e-3);
}

// Without keep_circuits the replay drops the circuit records once checked, and its metrics are
// those of the run that keeps them (the circuit up past the end, clamped, in the utilization).
TEST(Replay, DroppingTheCircuitsKeepsTheMetrics) {
  WorkloadBuilder b(3);
  b.send(0, 1, 4e6);
  b.send(1, 2, 2e6);
  Fabric f = make_fabric(3, 2, 1e-5, {.rate = kLinkRate, .alpha = 1e-6, .initial_free = true});
  CircuitSchedule s{"test",
                    {{0, 0, 0.0, {}}, {1, 1, 0.0, {}}},
                    {{0, 0, 1, 0.0, 1.0}, {1, 1, 2, 0.0, 1.0}},
                    1e-6 + 4e6 / kLinkRate};
  SimOptions drop;
  drop.keep_circuits = false;
  const SimResult kept = replay(b.w, f, s), dropped = replay(b.w, f, s, drop);
  ASSERT_TRUE(kept.ok) << kept.violations.front();
  ASSERT_TRUE(dropped.ok) << dropped.violations.front();
  EXPECT_EQ(kept.schedule.circuits.size(), 2u);
  EXPECT_TRUE(dropped.schedule.circuits.empty());
  EXPECT_GT(kept.metrics.circuit_utilization, 0.0);
  EXPECT_EQ(dropped.metrics.circuit_utilization, kept.metrics.circuit_utilization);
  EXPECT_EQ(dropped.metrics.reconfigurations, kept.metrics.reconfigurations);
  EXPECT_EQ(dropped.metrics.iteration_time, kept.metrics.iteration_time);
}

TEST(Replay, FirstCircuitCostsTauUnlessInitialConfigurationIsFree) {
  WorkloadBuilder b(2);
  b.send(0, 1, 1e6);
  const double tau = 1e-5;
  Fabric f = make_fabric(2, 1, tau, {.rate = kLinkRate});
  CircuitSchedule s{"test", {{0, 0, tau, {}}}, {{0, 0, 1, tau, 1.0}}, tau + 1e6 / kLinkRate};
  SimResult r = replay(b.w, f, s);
  ASSERT_TRUE(r.ok) << r.violations.front();
  EXPECT_NEAR(r.metrics.iteration_time, tau + 1e6 / kLinkRate, 1e-12);
  EXPECT_EQ(r.metrics.reconfigurations, 2);  // one first set-up per used port
  EXPECT_NEAR(r.metrics.dark_time, 2 * tau, 1e-15);

  CircuitSchedule early{"test", {{0, 0, 0.0, {}}}, {{0, 0, 1, 0.0, 1.0}}, 1e6 / kLinkRate};
  SimResult bad = replay(b.w, f, early);
  EXPECT_FALSE(bad.ok);
  EXPECT_TRUE(contains(bad.violations, "port (gpu 0, ocs 0)", "reconfiguration delay"));
  f.initial_config_free = true;
  EXPECT_TRUE(replay(b.w, f, early).ok);
}

TEST(Replay, RejectsSendBeforeItIsReadyNamingTaskAndPort) {
  WorkloadBuilder b(2);
  int c = b.compute(0, 1e-3);
  b.send(0, 1, 1e6, {c});
  Fabric f = make_fabric(2, 1, 0.0, {.rate = kLinkRate});
  // The send cannot finish before it is ready: the replay ends it at 1 ms.
  CircuitSchedule s{"test", {{1, 0, 5e-4, {}}}, {{0, 0, 1, 0.0, 1.0}}, 1e-3};
  SimResult r = replay(b.w, f, s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.violations, "task 1 (s1)", "port (gpu 0, ocs 0)"));
  EXPECT_TRUE(contains(r.violations, "DAG order"));
}

TEST(Replay, RejectsPortOnTwoCircuitsAndMissingTau) {
  WorkloadBuilder b(3);
  b.send(0, 1, 1e6);
  b.send(0, 2, 1e6);
  Fabric f = make_fabric(3, 1, 1e-5, {.rate = kLinkRate, .initial_free = true});
  CircuitSchedule overlap{"test",
                          {{0, 0, 0.0, {}}, {1, 0, 2e-5, {}}},
                          {{0, 0, 1, 0.0, 1e-4}, {0, 0, 2, 5e-5, 1e-3}},
                          3e-5};
  SimResult r = replay(b.w, f, overlap);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.violations, "port (gpu 0, ocs 0) is on two circuits"));
  EXPECT_TRUE(contains(r.violations, "task 1 (s1)", "no circuit from gpu 0 to gpu 2"));

  CircuitSchedule no_tau{"test",
                         {{0, 0, 0.0, {}}, {1, 0, 2e-5, {}}},
                         {{0, 0, 1, 0.0, 1.5e-5}, {0, 0, 2, 2e-5, 1e-3}},
                         3e-5};
  SimResult r2 = replay(b.w, f, no_tau);
  EXPECT_FALSE(r2.ok);
  EXPECT_TRUE(contains(r2.violations, "port (gpu 0, ocs 0)", "less than τ"));
  // gpu 1's port keeps pointing at 0: it is not charged (the fabric model), so only gpu 0 is named.
  EXPECT_FALSE(contains(r2.violations, "port (gpu 1, ocs 0)"));
}

TEST(Replay, RejectsTwoSendsInOneDirectionButAllowsBothDirectionsOfDuplex) {
  WorkloadBuilder b(2);
  b.send(0, 1, 1e6);
  b.send(0, 1, 1e6);
  b.send(1, 0, 1e6);
  Fabric f = make_fabric(2, 1, 0.0, {.rate = kLinkRate, .initial_free = true});
  CircuitSchedule s{
      "test", {{0, 0, 0.0, {}}, {1, 0, 0.0, {}}, {2, 0, 0.0, {}}}, {{0, 0, 1, 0.0, 1.0}}, 1e-5};
  SimResult r = replay(b.w, f, s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.violations, "task 0 (s0) and task 1 (s1) send at once"));
  EXPECT_FALSE(contains(r.violations, "task 2"));
  s.messages[1].start = 1e6 / kLinkRate;
  s.iteration_time = 2e6 / kLinkRate;
  EXPECT_TRUE(replay(b.w, f, s).ok);
}

TEST(Replay, SplitPiecesMustCarryAllBytesNoFasterThanB) {
  WorkloadBuilder b(2);
  b.send(0, 1, 2e6);
  Fabric f = make_fabric(2, 2, 0.0, {.rate = kLinkRate, .initial_free = true});
  const double half = 1e6 / kLinkRate;
  MessagePlacement m{0, -1, 0.0, {{0, 0.0, half, 1e6}, {1, 0.0, half, 1e6}}};
  CircuitSchedule s{"test", {m}, {{0, 0, 1, 0.0, 1.0}, {1, 0, 1, 0.0, 1.0}}, half};
  SimResult r = replay(b.w, f, s);
  ASSERT_TRUE(r.ok) << r.violations.front();
  EXPECT_NEAR(r.metrics.iteration_time, half, 1e-12);
  s.messages[0].pieces[1].bytes = 5e5;
  EXPECT_TRUE(contains(replay(b.w, f, s).violations, "task 0 (s0)", "1500000 bytes leave"));
  s.messages[0].pieces[1].bytes = 2e6;
  EXPECT_TRUE(contains(replay(b.w, f, s).violations, "faster than"));
}

TEST(Replay, ReportedIterationTimeMustBeTheOneTheReplayReaches) {
  // Compute 1 ms on GPU 1 after a 10 µs send: the iteration ends at 1.01 ms (+ τ for the set-up).
  WorkloadBuilder b(2);
  int s0 = b.send(0, 1, 1e6);
  b.compute(1, 1e-3, {s0});
  const double tau = 1e-5, end = tau + 1e6 / kLinkRate + 1e-3;
  Fabric f = make_fabric(2, 1, tau, {.rate = kLinkRate});
  CircuitSchedule s{"test", {{0, 0, tau, {}}}, {{0, 0, 1, tau, end}}, end};
  ASSERT_TRUE(replay(b.w, f, s).ok);
  s.iteration_time = end * (1 + 1e-10);  // rounding to picoseconds stays inside the tolerance
  EXPECT_TRUE(replay(b.w, f, s).ok);
  for (double wrong : {end - 1e-3, end + 1e-6, 0.0}) {
    s.iteration_time = wrong;
    SimResult r = replay(b.w, f, s);
    EXPECT_FALSE(r.ok) << wrong;
    ASSERT_EQ(r.violations.size(), 1u) << wrong;
    EXPECT_TRUE(contains(r.violations, "reports an iteration time", "replay ends the last task"));
  }
}

TEST(Replay, TimedScheduleWithoutHopsPerTaskIsAViolationNotACrash) {
  WorkloadBuilder b(2);
  b.send(0, 1, 1e6);
  TimedSchedule s;
  SimResult r = replay_timed(b.w, make_fabric(2, 1, 0.0, {.rate = kLinkRate}), s);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(contains(r.violations, "hops for 0 tasks, the workload has 1"));
}

TEST(Replay, ScheduleNamingAMissingTaskIsInputError) {
  WorkloadBuilder b(2);
  b.send(0, 1, 1e6);
  Fabric f = make_fabric(2, 1, 0.0, {.rate = kLinkRate});
  CircuitSchedule s{"test", {{7, 0, 0.0, {}}}, {}, 0.0};
  EXPECT_THROW((void)replay(b.w, f, s, {}, "s.json"), InputError);
  CircuitSchedule none{"test", {}, {}, 0.0};
  EXPECT_THROW((void)replay(b.w, f, none, {}, "s.json"), InputError);
}

// Two sends at once in one direction of a port are reported port by port, in the order (OCS,
// GPU), each pair in time order and naming its two tasks; hops on no port of the fabric (a
// scheduler's bug) are checked the same way, in their place in that order.
TEST(ScheduleCheck, ReportsOverlapsInPortOrderIncludingHopsOnNoPort) {
  WorkloadBuilder b(3);
  for (int i = 0; i < 8; ++i) b.send(i % 2, 2, 1e6);
  const Fabric f = make_fabric(3, 2, 0.0, {.rate = kLinkRate, .initial_free = true});
  TimedSchedule s;
  s.hops = HopLists(b.w.tasks.size());
  auto hop = [&](int task, int sw, int from, Time start, Time end) {
    s.hops.add(static_cast<std::size_t>(task), {sw, from, 2, start, end, 1e6});
  };
  hop(7, 1, 0, 0, 100);  // added out of the order of ports and of tasks
  hop(5, 1, 0, 50, 150);
  hop(2, 0, 1, 10, 20);
  hop(0, 0, 1, 15, 30);
  hop(0, 0, 1, 40, 50);  // no overlap
  hop(3, 5, 0, 0, 100);  // OCS 5 does not exist
  hop(1, 5, 0, 0, 100);
  hop(4, -1, 0, 0, 10);
  hop(6, -1, 0, 5, 10);
  s.hops.seal();
  std::vector<std::string> overlaps;
  for (const std::string& v : check_schedule(s, b.w, f, 0))
    if (v.find("send at once") != std::string::npos) overlaps.push_back(v);
  const std::vector<std::string> want = {
      "task 4 (s4) and task 6 (s6) send at once on port (gpu 0, ocs -1)",
      "task 2 (s2) and task 0 (s0) send at once on port (gpu 1, ocs 0)",
      "task 7 (s7) and task 5 (s5) send at once on port (gpu 0, ocs 1)",
      "task 1 (s1) and task 3 (s3) send at once on port (gpu 0, ocs 5)"};
  ASSERT_EQ(overlaps.size(), want.size());
  for (std::size_t i = 0; i < want.size(); ++i)
    EXPECT_EQ(overlaps[i].rfind(want[i], 0), 0u) << overlaps[i];
}

// A hop's circuit is looked for on the hop's own port (OCS, sending GPU): found on the first and
// the last port that have circuits, a circuit to another GPU or none on the port is reported.
TEST(ScheduleCheck, FindsEachHopsCircuitOnItsPort) {
  WorkloadBuilder b(3);
  for (const auto& [src, dst] : {std::pair{0, 1}, {1, 2}, {1, 2}, {2, 0}}) b.send(src, dst, 1e6);
  TimedSchedule s;
  s.circuits = {{0, 100, 0, 0, 1}, {0, 100, 1, 1, 2}};
  s.hops = HopLists(b.w.tasks.size());
  s.hops.add(0, {0, 0, 1, 10, 20, 1e6});
  s.hops.add(1, {1, 1, 2, 10, 20, 1e6});
  s.hops.add(2, {0, 1, 2, 30, 40, 1e6});  // port (gpu 1, ocs 0) is on a circuit to gpu 0
  s.hops.add(3, {0, 2, 0, 30, 40, 1e6});  // port (gpu 2, ocs 0) is on none
  s.hops.seal();
  const Fabric f = make_fabric(3, 2, 0.0, {.rate = kLinkRate, .initial_free = true});
  std::vector<std::string> uncovered;
  for (const std::string& v : check_schedule(s, b.w, f, 0))
    if (v.find("covers") != std::string::npos) uncovered.push_back(v);
  ASSERT_EQ(uncovered.size(), 2u);
  EXPECT_EQ(uncovered[0].rfind("task 2 (s2): no circuit from gpu 1 to gpu 2", 0), 0u)
      << uncovered[0];
  EXPECT_EQ(uncovered[1].rfind("task 3 (s3): no circuit from gpu 2 to gpu 0", 0), 0u)
      << uncovered[1];
}

// Hops are checked against their circuits port by port, but reported in the order of the tasks,
// a hop's rate before its circuit; the same when a circuit off the fabric's ports makes the check
// sort every port use at once instead of filing them by port.
TEST(ScheduleCheck, ReportsUncoveredHopsInTaskOrderWhicheverPortComesFirst) {
  WorkloadBuilder b(3);
  for (const auto& [src, dst] : {std::pair{2, 0}, {0, 1}}) b.send(src, dst, 1e6);
  TimedSchedule s;
  s.circuits = {{0, 100, 0, 0, 1}};
  s.hops = HopLists(b.w.tasks.size());
  s.hops.add(0, {0, 2, 0, 10, 11, 1e6});   // port (gpu 2, ocs 0) has no circuit
  s.hops.add(1, {0, 0, 1, 90, 120, 1e6});  // past the circuit's end (both too fast for 1 MB)
  s.hops.seal();
  const Fabric f = make_fabric(3, 1, 0.0, {.rate = kLinkRate, .initial_free = true});
  const std::vector<std::pair<std::string, std::string>> want = {
      {"task 0 (s0): ", "is faster than"},
      {"task 0 (s0): ", "no circuit from gpu 2 to gpu 0"},
      {"task 1 (s1): ", "is faster than"},
      {"task 1 (s1): ", "no circuit from gpu 0 to gpu 1"}};
  for (const bool off_fabric : {false, true}) {
    if (off_fabric) s.circuits.push_back({0, 10, 0, 5, 6});  // gpus 5 and 6 of a 3-GPU fabric
    std::vector<std::string> v;
    for (const std::string& x : check_schedule(s, b.w, f, 0))
      if (x.rfind("task", 0) == 0) v.push_back(x);
    ASSERT_EQ(v.size(), want.size()) << ::testing::PrintToString(v);
    for (std::size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(v[i].rfind(want[i].first, 0), 0u) << v[i];
      EXPECT_NE(v[i].find(want[i].second), std::string::npos) << v[i];
    }
  }
}

// The check reports the same violations, in the same order, however the hops were added: task
// after task (kept as they are), one run per task in reverse, or interleaved across tasks (both
// filed by task).
TEST(ScheduleCheck, ReportsTheSameWhateverOrderTheHopsWereAddedIn) {
  const int gpus = 4, sends = 40;
  WorkloadBuilder b(gpus);
  std::vector<std::vector<Hop>> lists;
  for (int i = 0; i < sends; ++i) {
    const int src = i % gpus, dst = (i + 1 + i / gpus % 3) % gpus;
    b.send(src, dst, 2e6);
    const Time start = 100 * (i % 7);  // same-port sends overlap
    // Two pieces, the second often on an OCS whose circuits do not join src and dst.
    lists.push_back({{i % 2, src, dst, start, start + 10, 1e6},
                     {(i / 3) % 2, src, dst, start + 20, start + 30, 1e6}});
  }
  const Fabric f = make_fabric(gpus, 2, 0.0, {.rate = kLinkRate, .initial_free = true});
  std::vector<TimedCircuit> circuits;
  for (int a = 0; a < gpus; ++a) circuits.push_back({0, 1000, 0, a, (a + 1) % gpus});
  auto check = [&](const std::vector<std::pair<int, int>>& added) {  // (task, piece)
    TimedSchedule s;
    s.circuits = circuits;
    s.hops = HopLists(b.w.tasks.size());
    for (const auto& [t, k] : added)
      s.hops.add(static_cast<std::size_t>(t), lists[static_cast<std::size_t>(t)][k]);
    s.hops.seal();
    return check_schedule(s, b.w, f, 0);
  };
  std::vector<std::pair<int, int>> in_order, reversed, interleaved;
  for (int t = 0; t < sends; ++t) in_order.insert(in_order.end(), {{t, 0}, {t, 1}});
  for (int t = sends; t-- > 0;) reversed.insert(reversed.end(), {{t, 0}, {t, 1}});
  for (int k = 0; k < 2; ++k)
    for (int t = 0; t < sends; ++t) interleaved.emplace_back(t, k);
  const std::vector<std::string> want = check(in_order);
  EXPECT_TRUE(contains(want, "send at once"));
  EXPECT_TRUE(contains(want, "no circuit from"));
  EXPECT_EQ(check(reversed), want);
  EXPECT_EQ(check(interleaved), want);
}

// A simplex GPU's two ports are checked RX before TX (the order of one sort of every port use):
// GPU 1 receives on two circuits at once and sends on two at once.
TEST(ScheduleCheck, ReportsSimplexPortsReceiveSideFirst) {
  WorkloadBuilder b(3);
  const Fabric f = make_fabric(3, 1, 0.0, CircuitKind::simplex, true);
  TimedSchedule s;
  s.circuits = {{0, 10, 0, 1, 0}, {5, 15, 0, 1, 2}, {0, 10, 0, 0, 1}, {5, 15, 0, 2, 1}};
  s.hops = HopLists(0);
  s.hops.seal();
  const std::vector<std::string> v = check_schedule(s, b.w, f, 0);
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[0].rfind("RX port (gpu 1, ocs 0) is on two circuits at once", 0), 0u) << v[0];
  EXPECT_EQ(v[1].rfind("TX port (gpu 1, ocs 0) is on two circuits at once", 0), 0u) << v[1];
}

// A port's reconfigurations: its first set-up (unless free) and every change of partner, counted
// per port of either kind of circuit; circuits on ports the fabric does not have count the same.
TEST(ScheduleCheck, CountsReconfigurationsPortByPort) {
  const std::vector<TimedCircuit> circuits = {
      {0, 10, 0, 0, 1}, {20, 30, 0, 0, 2}, {40, 50, 0, 1, 2}, {60, 70, 0, 0, 1}};
  EXPECT_EQ(count_reconfigurations(circuits, make_fabric(3, 1, 0.0, CircuitKind::duplex)), 8);
  EXPECT_EQ(count_reconfigurations(circuits, make_fabric(3, 1, 0.0, CircuitKind::duplex, true)), 5);
  EXPECT_EQ(count_reconfigurations(circuits, make_fabric(3, 1, 0.0, CircuitKind::simplex)), 7);
  std::vector<TimedCircuit> off = circuits;
  off.push_back({0, 10, 0, 5, 6});  // gpus 5 and 6 of a 3-GPU fabric
  EXPECT_EQ(count_reconfigurations(off, make_fabric(3, 1, 0.0, CircuitKind::duplex)), 10);
}

// The schedule check counts the same reconfigurations on its pass over the ports, which the
// metrics of a replay then take instead of counting again.
TEST(ScheduleCheck, CountsTheReconfigurationsOfTheMetrics) {
  WorkloadBuilder b(3);
  TimedSchedule s;
  s.circuits = {{0, 10, 0, 0, 1}, {20, 30, 0, 0, 2}, {40, 50, 0, 1, 2}, {60, 70, 0, 0, 1}};
  s.hops = HopLists(0);
  s.hops.seal();
  for (const bool off_fabric : {false, true}) {
    if (off_fabric) s.circuits.push_back({0, 10, 0, 5, 6});
    for (const Fabric& f : {make_fabric(3, 1, 0.0, CircuitKind::duplex),
                            make_fabric(3, 1, 0.0, CircuitKind::duplex, true),
                            make_fabric(3, 1, 0.0, CircuitKind::simplex)}) {
      std::int64_t counted = -1;
      (void)check_schedule(s, b.w, f, 0, &counted);
      EXPECT_EQ(counted, count_reconfigurations(s.circuits, f)) << off_fabric;
      EXPECT_GT(counted, 0);
    }
  }
}

}  // namespace
}  // namespace flux::fabric
