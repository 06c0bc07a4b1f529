// The run check of tests/support/sim_checks.hpp can fail: a sound run passes, and each property it
// recomputes from the workload catches a run doctored to break it.
#include "support/sim_checks.hpp"

#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "schedulers/registry.hpp"
#include "support/fabrics.hpp"
#include "support/workloads.hpp"

namespace flux::schedulers {
namespace {

using testing::expect_complete_run;

struct CheckedRun {
  workload::Workload w;
  fabric::Fabric f;
  fabric::SimResult r;
};

CheckedRun ring_run() {
  CheckedRun run{testing::ring_allreduce(4, 8e6),
                 testing::make_fabric(4, 2, 1e-5, {.rate = testing::kLinkRate}),
                 {}};
  run.r = simulate(run.w, run.f, "rotornet");
  return run;
}

TEST(SimChecks, PassesASoundRun) {
  const CheckedRun run = ring_run();
  expect_complete_run(run.w, run.f, run.r);
}

TEST(SimChecks, CatchesLostBytesAnEarlyHopAWrongIterationTimeAndAnImpossibleRate) {
  CheckedRun lost = ring_run();
  lost.r.trace.hops[0].back().bytes /= 2;
  EXPECT_NONFATAL_FAILURE(expect_complete_run(lost.w, lost.f, lost.r), "s0");
  CheckedRun early = ring_run();
  const int later = 4;  // a send of the second step: ready only after its predecessor
  ASSERT_GT(early.r.trace.ready[later], 1000);
  early.r.trace.hops[later].front().start = 0;
  EXPECT_NONFATAL_FAILURE(expect_complete_run(early.w, early.f, early.r), "ready");
  CheckedRun slow = ring_run();
  slow.r.metrics.iteration_time *= 2;
  EXPECT_NONFATAL_FAILURE(expect_complete_run(slow.w, slow.f, slow.r), "iteration_time");
  // The same run claimed on links 1000 times slower: faster than its ports allow.
  const CheckedRun fast = ring_run();
  fabric::Fabric slower = fast.f;
  slower.link_rate /= 1000;
  EXPECT_NONFATAL_FAILURE(expect_complete_run(fast.w, slower, fast.r), "busiest");
}

}  // namespace
}  // namespace flux::schedulers
