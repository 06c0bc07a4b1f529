// The permutation pool: a valid cover of D, rounding never below an entry, and on random sparse
// matrices (where DECOMPOSE's Δ permutations overshoot) a shorter `spectra` than `spectra-ref`.
#include "spectra/pool_decompose.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "spectra/decompose.hpp"
#include "spectra/spectra.hpp"
#include "spectra_test_util.hpp"

namespace flux::spectra {
namespace {

using testing::sparse50;

TEST(PoolDecompose, RoundingIsUpwardOnTheSupportAndKeepsFewLevels) {
  const Matrix d = sparse50(1);
  const Support s = make_support(d);
  const Support q = round_up_geometric(s, 8);
  EXPECT_EQ(q.row_start, s.row_start);  // the same entries
  EXPECT_EQ(q.col, s.col);
  std::vector<double> levels;
  for (int i = 0; i < d.n(); ++i)
    for (int e = q.row_start[static_cast<std::size_t>(i)];
         e < q.row_start[static_cast<std::size_t>(i) + 1]; ++e) {
      const double v = q.value[static_cast<std::size_t>(e)];
      EXPECT_GE(v, d(i, q.col[static_cast<std::size_t>(e)]));
      levels.push_back(v);
    }
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  EXPECT_LE(levels.size(), 9u);  // 8 steps above the smallest entry
}

TEST(PoolDecompose, CoversTheDemandAndLastsLessThanTheGreedyPermutations) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const Matrix d = sparse50(seed);
    const Support s = make_support(d);
    const matrix::Decomposition greedy = spectra_decompose(s);
    const matrix::Decomposition pool = pool_decompose(s, greedy, {.switches = 4, .delta = 0.01});
    ASSERT_FALSE(pool.perms.empty()) << seed;
    testing::expect_covering_decomposition(d, pool);
    double total = 0, greedy_total = 0;
    for (double w : pool.weights) {
      EXPECT_GT(w, 0.0);
      total += w;
    }
    for (double w : greedy.weights) greedy_total += w;
    // More permutations than Δ, each δ = 0.01, in exchange for a much smaller total.
    EXPECT_GT(pool.perms.size(), greedy.perms.size()) << seed;
    EXPECT_LT(total, 0.9 * greedy_total) << seed;
  }
}

TEST(PoolDecompose, SpectraBeatsTheReferenceOnRandomSparse) {
  int better = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed)
    for (int s : {4, 16}) {
      const matrix::MatrixProblem p = testing::problem(sparse50(seed), s, 0.01);
      const matrix::MatrixResult a = spectra_improved(p), r = spectra_reference(p);
      testing::expect_valid_schedule(p, a);
      EXPECT_LE(a.schedule.makespan, r.schedule.makespan);
      better += a.schedule.makespan < 0.97 * r.schedule.makespan;
    }
  EXPECT_GE(better, 4);  // 3-12 % shorter on 4 of the 6 (about 2.5 % on the others)
}

}  // namespace
}  // namespace flux::spectra
