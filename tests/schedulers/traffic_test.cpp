// The demand matrices the per-phase and static planners start from: the sparse form must equal
// the dense one entry for entry (spectra-phase keys its plans on it and symmetrises it directly),
// and the tiled symmetrisation must equal max(D, Dᵀ) on sizes that do not fill its tiles. The
// per-phase planner, which plans demands one after another in one reused matrix and tells the
// matrix scheduler where the entries are, must give plan_frame's frames for the dense matrix.
#include "fabric_baselines/traffic.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "core/error.hpp"
#include "fabric_baselines/matrix_frame.hpp"
#include "support/fabrics.hpp"
#include "support/workloads.hpp"

namespace flux::schedulers {
namespace {

TEST(Traffic, DemandEntriesAreTheDenseDemandExactly) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const workload::Workload w = testing::random_workload(seed, 9, 80, 0.25, {.bytes = 1e6});
    std::vector<int> tasks(w.tasks.size());
    std::iota(tasks.begin(), tasks.end(), 0);
    tasks.resize(tasks.size() / 2 + 1);  // a part of the sends, and compute tasks among them
    const fabric_baselines::DemandEntries e = fabric_baselines::circuit_demand_entries(w, tasks);
    EXPECT_TRUE(std::is_sorted(e.begin(), e.end()));
    EXPECT_FALSE(e.empty());
    EXPECT_EQ(fabric_baselines::dense(w.gpus, e), fabric_baselines::circuit_demand(w, tasks));
    EXPECT_EQ(fabric_baselines::dense(w.gpus, e).nonzeros(), static_cast<long long>(e.size()));
    EXPECT_EQ(fabric_baselines::symmetrized(w.gpus, e),
              fabric_baselines::symmetrized(fabric_baselines::circuit_demand(w, tasks)));
  }
}

TEST(Traffic, SymmetrizedIsTheEntrywiseMaxWithTheTranspose) {
  for (int n : {1, 5, 64, 65, 130}) {
    Matrix d(n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) d(i, j) = static_cast<double>((i * 7 + j * 13) % 11);
    const Matrix s = fabric_baselines::symmetrized(d);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) ASSERT_EQ(s(i, j), std::max(d(i, j), d(j, i))) << n;
  }
}

void expect_same_frame(const fabric_baselines::Frame& a, const fabric_baselines::Frame& b) {
  EXPECT_EQ(a.length, b.length);
  ASSERT_EQ(a.windows.size(), b.windows.size());
  for (std::size_t sw = 0; sw < a.windows.size(); ++sw) {
    ASSERT_EQ(a.windows[sw].size(), b.windows[sw].size()) << sw;
    for (std::size_t k = 0; k < a.windows[sw].size(); ++k) {
      EXPECT_EQ(a.windows[sw][k].up, b.windows[sw][k].up);
      EXPECT_EQ(a.windows[sw][k].end, b.windows[sw][k].end);
      EXPECT_EQ(a.windows[sw][k].circuits, b.windows[sw][k].circuits);
    }
  }
}

TEST(EntryPlanner, PlansOneAfterAnotherAsPlanFrameDoesOnTheDenseMatrix) {
  for (const auto kind : {fabric::CircuitKind::duplex, fabric::CircuitKind::simplex})
    for (const std::string algorithm : {"spectra", "spectra-ref", "bvn"}) {
      const fabric::Fabric f =
          testing::make_fabric(12, 2, 1e-5, {.rate = testing::kLinkRate, .kind = kind});
      fabric_baselines::EntryPlanner planner(f, algorithm, "phase_algorithm");
      for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        // Parts of a random DAG's sends: a few pairs of the twelve GPUs, or many.
        const workload::Workload w = testing::random_workload(
            seed, 12, 10 + 15 * static_cast<int>(seed), 0.3, {.bytes = 1e6});
        std::vector<int> tasks(w.tasks.size());
        std::iota(tasks.begin(), tasks.end(), 0);
        tasks.resize(tasks.size() / (seed % 3 + 1));
        const fabric_baselines::DemandEntries e =
            fabric_baselines::circuit_demand_entries(w, tasks);
        if (e.empty()) continue;
        SCOPED_TRACE(algorithm + " seed " + std::to_string(seed));
        expect_same_frame(planner.plan(e),
                          fabric_baselines::plan_frame(fabric_baselines::circuit_demand(w, tasks),
                                                       f, algorithm, "phase_algorithm"));
      }
    }
}

// A plan that throws (here on an infinite entry) leaves the reused matrix zero: bvn reads every
// entry of it, so what a failed plan left would fail or change the next.
TEST(EntryPlanner, APlanThatFailsLeavesNothingBehindForTheNextPlan) {
  const fabric::Fabric f = testing::make_fabric(6, 1, 1e-5, {.rate = testing::kLinkRate});
  const fabric_baselines::DemandEntries bad{{0, 1, 5e5}, {2, 3, INFINITY}};
  const fabric_baselines::DemandEntries good{{1, 2, 2e6}, {4, 5, 1e6}};
  for (const std::string algorithm : {"bvn", "spectra"}) {
    fabric_baselines::EntryPlanner planner(f, algorithm, "phase_algorithm");
    EXPECT_THROW((void)planner.plan(bad), InputError) << algorithm;
    expect_same_frame(planner.plan(good),
                      fabric_baselines::plan_frame(fabric_baselines::dense(6, good), f, algorithm,
                                                   "phase_algorithm"));
  }
  fabric_baselines::EntryPlanner unknown(f, "nope", "phase_algorithm");
  EXPECT_THROW((void)unknown.plan(good), InputError);
}

}  // namespace
}  // namespace flux::schedulers
