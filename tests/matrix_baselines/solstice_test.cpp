#include "matrix_baselines/solstice.hpp"

#include <gtest/gtest.h>

#include "matrix_baselines/bvn.hpp"
#include "test_support.hpp"

namespace flux::matrix_baselines {
namespace {

TEST(Solstice, RebuildsTheStuffedMatrixAndCoversD) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Matrix d = testing::random_sparse(20, 0.25, seed);
    const matrix::Decomposition dec = solstice_decomposition(d, seed);
    const Matrix sum = testing::rebuild(dec, d.n());
    const double tol = 1e-9 * d.max_line_sum();
    testing::expect_covers(sum, d, tol);
    for (double v : sum.row_sums()) EXPECT_NEAR(v, d.max_line_sum(), tol);
    for (double v : sum.col_sums()) EXPECT_NEAR(v, d.max_line_sum(), tol);
  }
}

TEST(Solstice, BigSliceTakesLargePermutationsWhole) {
  // Weights 8, 4, 2, 1 on four disjoint-support permutations: every threshold step finds exactly
  // one of them, so BigSlice returns the four, largest first.
  const int n = 6;
  Matrix d(n);
  const double w[] = {8, 4, 2, 1};
  for (int l = 0; l < 4; ++l)
    for (int i = 0; i < n; ++i) d(i, (i + l) % n) += w[l];
  const matrix::Decomposition dec = solstice_decomposition(d, 1);
  ASSERT_EQ(dec.perms.size(), 4u);
  for (int l = 0; l < 4; ++l) EXPECT_NEAR(dec.weights[static_cast<std::size_t>(l)], w[l], 1e-9);
}

TEST(Solstice, UsesNoMorePermutationsThanBvnOnSkewedDemand) {
  const Matrix d = testing::permutation_sum(30, 8, 5);
  EXPECT_LE(solstice_decomposition(d, 1).perms.size(), bvn_decomposition(d).perms.size());
}

TEST(Solstice, ScheduleIsVerifiedAndSeeded) {
  const Matrix d = testing::random_sparse(14, 0.3, 8);
  const matrix::MatrixProblem p{.time = d, .switches = 4, .delta = 0.01};
  const matrix::MatrixResult a = solstice_schedule(p, {.seed = 3});
  testing::expect_verified(d, a);
  EXPECT_EQ(a.schedule.makespan, solstice_schedule(p, {.seed = 3}).schedule.makespan);
}

}  // namespace
}  // namespace flux::matrix_baselines
