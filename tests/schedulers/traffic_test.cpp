// The demand matrices the per-phase and static planners start from: the sparse form must equal
// the dense one entry for entry (spectra-phase keys its plans on it and symmetrises it directly),
// and the tiled symmetrisation must equal max(D, Dᵀ) on sizes that do not fill its tiles.
#include "fabric_baselines/traffic.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

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

}  // namespace
}  // namespace flux::schedulers
