#include "fabric/metrics.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <utility>
#include <vector>

#include "fabric/schedule_check.hpp"

#include "support/fabrics.hpp"
#include "support/workloads.hpp"

namespace flux::fabric {
namespace {

using testing::make_fabric;
using testing::WorkloadBuilder;

// GPU 0 sends 3 MB and receives 1 MB; GPU 1 receives 5 MB: the busiest direction is GPU 1's
// receive side, over σ = 2 links of 1e6 B/s.
TEST(Metrics, VolumeBoundIsTheBusiestDirectionOverSigmaLinks) {
  WorkloadBuilder b(3);
  b.send(0, 1, 2e6);
  b.send(0, 2, 1e6);
  b.send(2, 1, 3e6);
  b.send(1, 0, 1e6);
  const Fabric f = make_fabric(3, 2, 1e-3, {.rate = 1e6});
  EXPECT_DOUBLE_EQ(volume_bound(b.w, f), 5e6 / 2e6);
}

// The iteration bound is the larger of the critical path (sends at α + bytes / σB) and the
// volume bound: a long compute chain dominates a light message, a heavy GPU a short chain.
TEST(Metrics, IterationLowerBoundIsTheLargerOfPathAndVolume) {
  WorkloadBuilder chain(2);
  const int c = chain.compute(0, 4.0);
  chain.send(0, 1, 1e6, {c});
  const Fabric f = make_fabric(2, 1, 0.0, {.rate = 1e6, .alpha = 0.5});
  EXPECT_DOUBLE_EQ(critical_path_length(chain.w, f.latency, f.ocs * f.link_rate), 4.0 + 0.5 + 1.0);
  EXPECT_DOUBLE_EQ(iteration_lower_bound(chain.w, f), 5.5);

  WorkloadBuilder heavy(2);
  heavy.send(0, 1, 3e6);
  heavy.send(0, 1, 3e6);
  EXPECT_DOUBLE_EQ(volume_bound(heavy.w, f), 6.0);
  EXPECT_DOUBLE_EQ(iteration_lower_bound(heavy.w, f), 6.0);
}

// The critical path does not depend on the order of the task array: tasks listed after one of
// their successors (past the first two here) give the same length as the chain 0 -> 1 -> 3 -> 2.
TEST(Metrics, CriticalPathOfTasksNotListedPredecessorsFirst) {
  WorkloadBuilder b(2);
  const int first = b.compute(0, 2.0);
  const int second = b.compute(0, 1.0, {first});
  const int last = b.compute(0, 4.0);
  const int third = b.compute(1, 3.0, {second});
  b.w.tasks[static_cast<std::size_t>(last)].after = {third};
  EXPECT_DOUBLE_EQ(critical_path_length(b.w, 0.0, 0.0), 2.0 + 1.0 + 3.0 + 4.0);
}

// Detached from the records, the circuits' up-time is still the sum over every record in order,
// min(down, end) - up, for each end from the earliest one on, to the last bit: records that come
// down after the earliest end sit among those that do not (a long first circuit, one in the
// middle), so the kept tail starts at the first of them. An end before the earliest is a logic
// error; the reconfigurations are counted unless given.
TEST(Metrics, CircuitFiguresSumTheUpTimeOfTheRecordsForEveryLaterEnd) {
  const Fabric f = make_fabric(4, 2, 0.0);
  std::vector<TimedCircuit> circuits = {{0, 700001, 0, 0, 1},      {3, 100007, 1, 2, 3},
                                        {100011, 250013, 0, 2, 3}, {100011, 900017, 1, 0, 1},
                                        {250013, 400019, 0, 0, 1}, {250013, 300023, 1, 2, 3},
                                        {400019, 800029, 0, 2, 3}, {700001, 999983, 0, 0, 1}};
  const Time earliest = 600000;
  const std::vector<Time> ends = {earliest, 700001, 850000, 999983, 2000000};
  const auto sum = [&](Time end) {
    double want = 0.0;
    for (const TimedCircuit& c : circuits) want += to_seconds(std::min(c.down, end) - c.up);
    return want;
  };
  CircuitFigures figures(circuits, f);
  EXPECT_EQ(figures.reconfigurations(), count_reconfigurations(circuits, f));
  EXPECT_FALSE(figures.none());
  for (const Time end : ends) EXPECT_EQ(figures.up_time(end), sum(end)) << end;
  figures.detach(earliest);
  const std::vector<TimedCircuit> records = std::exchange(circuits, {});
  for (const Time end : ends) {
    circuits = records;
    const double want = sum(end);
    circuits.assign(circuits.size(), TimedCircuit{});  // the figures must not read them
    EXPECT_EQ(figures.up_time(end), want) << end;
  }
  EXPECT_THROW((void)figures.up_time(earliest - 1), std::logic_error);
  EXPECT_EQ(CircuitFigures(records, f, 42).reconfigurations(), 42);
  EXPECT_TRUE(CircuitFigures({}, f).none());
}

}  // namespace
}  // namespace flux::fabric
