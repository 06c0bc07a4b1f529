#include "cosched/aggregation.hpp"

#include <gtest/gtest.h>

#include "cosched/flux_scheduler.hpp"
#include "replay_check.hpp"
#include "tiny_instances.hpp"

namespace flux::cosched {
namespace {

using testing::compute;
using testing::make_fabric;
using testing::make_workload;
using testing::send;

TEST(Aggregation, MergesChainsAndSiblingsOnly) {
  // 0->1 chain of two (tasks 1, 2); siblings 0->2 (tasks 3, 4) after task 0; 4->... not merged:
  // task 5 has the same pair as 3/4 but another predecessor.
  const auto w =
      make_workload(3, {compute(0, 1), send(0, 1, 2, {0}), send(0, 1, 3, {1}), send(0, 2, 1, {0}),
                        send(0, 2, 1, {0}), send(0, 2, 1, {2}), compute(2, 1, {3, 4, 5})});
  fabric::Fabric f = make_fabric(3, 2, 1.0);
  f.latency = 0.5;
  const auto inst = make_instance(w, f);
  const Aggregation agg = aggregate_messages(inst);
  EXPECT_EQ(agg.merged, 2);
  ASSERT_EQ(agg.workload.tasks.size(), 5u);
  const auto small = make_instance(agg.workload, f);
  EXPECT_EQ(small.message_count(), 3);
  // The merged chain lasts as long as its parts back to back: 2 latencies + 5 bytes.
  const int chain = small.messages[0];
  EXPECT_DOUBLE_EQ(small.duration[chain], 0.5 + 2 + 0.5 + 3);
  EXPECT_DOUBLE_EQ(small.critical_path, inst.critical_path);
}

TEST(Aggregation, ExpandedSchedulesAreFeasibleAndKeepTheirIterationTime) {
  for (std::uint64_t seed = 1; seed <= 15; ++seed) {
    auto w = testing::random_workload(seed, 3, 10);
    // Add chains and siblings the random DAG rarely has.
    const int n = static_cast<int>(w.tasks.size());
    w.tasks.push_back(send(0, 1, 2, {n - 1}));
    w.tasks.push_back(send(0, 1, 2, {n}));
    w.tasks.push_back(send(2, 1, 1, {n - 1}));
    w.tasks.push_back(send(2, 1, 1, {n - 1}));
    w = make_workload(3, w.tasks);
    fabric::Fabric f = make_fabric(3, 2, 1.0);
    f.latency = 0.25;
    const auto inst = make_instance(w, f);
    const Aggregation agg = aggregate_messages(inst);
    EXPECT_GE(agg.merged, 2);
    const auto small = make_instance(agg.workload, f);
    const auto pl = flux_greedy(small);
    const auto expanded = expand_placements(inst, small, agg, pl);
    const auto s = testing::checked_schedule(inst, expanded, "flux");
    EXPECT_NEAR(s.iteration_time, iteration_time(small, pl), 1e-9);
    if (seed > 3) continue;  // the MILP path: a few seeds, short budget
    FluxOptions o;
    o.aggregate = true;
    o.solver.time_limit = 0.5;
    const auto r = flux_schedule(inst, o);
    testing::checked_schedule(inst, r.placements, "f");
    EXPECT_LE(r.report.bound, r.report.objective);
  }
}

}  // namespace
}  // namespace flux::cosched
