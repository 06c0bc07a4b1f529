#include "matrix_baselines/bvn.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "test_support.hpp"

namespace flux::matrix_baselines {
namespace {

TEST(Bvn, RebuildsAnEqualLineSumMatrixExactly) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Matrix d = testing::permutation_sum(20, 6, seed);
    Matrix sum(d.n());
    double total = 0.0;
    int count = 0;
    const BvnStats st = bvn_decompose(d, [&](const std::vector<int>& perm, double w) {
      EXPECT_GT(w, 0.0);
      std::vector<char> used(perm.size(), 0);
      for (int i = 0; i < d.n(); ++i) {
        const int j = perm[static_cast<std::size_t>(i)];
        ASSERT_TRUE(j >= 0 && j < d.n() && !used[static_cast<std::size_t>(j)]);
        used[static_cast<std::size_t>(j)] = 1;
        sum(i, j) += w;
      }
      total += w;
      ++count;
    });
    EXPECT_EQ(st.permutations, count);
    const double tol = 1e-9 * d.max_line_sum();
    for (int i = 0; i < d.n(); ++i)
      for (int j = 0; j < d.n(); ++j) {
        EXPECT_NEAR(sum(i, j), d(i, j), tol);  // already equal line sums: nothing stuffed
        EXPECT_NEAR(sum(i, j), st.stuffed(i, j), tol);
      }
    EXPECT_NEAR(total, d.max_line_sum(), tol);
    EXPECT_LE(count, static_cast<int>(d.nonzeros()) - 2 * d.n() + 2);  // Brualdi's bound
  }
}

TEST(Bvn, StuffedMatrixCoversDAndHasEqualLineSums) {
  const Matrix d = testing::random_sparse(25, 0.15, 9);
  const matrix::Decomposition dec = bvn_decomposition(d);
  const Matrix sum = testing::rebuild(dec, d.n());
  const double tol = 1e-9 * d.max_line_sum();
  testing::expect_covers(sum, d, tol);
  for (double v : sum.row_sums()) EXPECT_NEAR(v, d.max_line_sum(), tol);
  for (double v : sum.col_sums()) EXPECT_NEAR(v, d.max_line_sum(), tol);
  for (std::size_t k = 1; k < dec.weights.size(); ++k)
    EXPECT_GE(dec.weights[k - 1], dec.weights[k]);
}

TEST(Bvn, SinglePermutationNeedsOneSlice) {
  Matrix d(5);
  for (int i = 0; i < 5; ++i) d(i, (i + 2) % 5) = 0.7;
  const matrix::Decomposition dec = bvn_decomposition(d);
  ASSERT_EQ(dec.perms.size(), 1u);
  EXPECT_NEAR(dec.weights[0], 0.7, 1e-12);
}

TEST(Bvn, ZeroMatrixGivesEmptySchedule) {
  const matrix::MatrixResult r = bvn_schedule({.time = Matrix(4), .switches = 2, .delta = 0.1});
  EXPECT_TRUE(r.schedule.slots.empty());
  EXPECT_EQ(r.schedule.makespan, 0.0);
}

TEST(Bvn, ScheduleIsVerifiedAndMatchesLptLoads) {
  const Matrix d = testing::random_sparse(16, 0.3, 4);
  const matrix::MatrixProblem p{.time = d, .switches = 3, .delta = 0.02};
  const matrix::MatrixResult r = bvn_schedule(p);
  testing::expect_verified(d, r);
  EXPECT_EQ(r.schedule.algorithm, "bvn");
  // Single switch: BvN's makespan is exactly L + K·δ.
  const matrix::MatrixResult one = bvn_schedule({.time = d, .switches = 1, .delta = 0.02});
  EXPECT_NEAR(one.schedule.makespan, d.max_line_sum() + one.permutations * 0.02, 1e-9);
}

}  // namespace
}  // namespace flux::matrix_baselines

namespace flux::matrix_baselines {
namespace {

TEST(Bvn, RefusesInputsWhoseScheduleWouldNotFitInMemory) {
  // Dense n = 1024: ~n^2 permutations of n ports = 2^30 entries. A clear error, not an OOM.
  const matrix::MatrixProblem p{.time = Matrix(1024, 1.0), .switches = 4, .delta = 0.01};
  EXPECT_THROW((void)bvn_schedule(p), InputError);
}

}  // namespace
}  // namespace flux::matrix_baselines
