#include "matrix_baselines/eclipse.hpp"

#include <gtest/gtest.h>

#include "matrix/generators.hpp"
#include "test_support.hpp"

namespace flux::matrix_baselines {
namespace {

void expect_valid_decomposition(const Matrix& d, const matrix::Decomposition& dec) {
  ASSERT_EQ(dec.perms.size(), dec.weights.size());
  for (double w : dec.weights) EXPECT_GT(w, 0.0);
  testing::expect_covers(testing::rebuild(dec, d.n()), d, 1e-9 * d.max_line_sum());
}

TEST(Eclipse, TerminatesOnConstantMatrices) {
  for (int n : {1, 3, 8}) {
    const Matrix d(n, 0.25);  // every entry equal: the case that spins the reference loop
    const matrix::Decomposition dec = eclipse_decomposition(d, {.delta = 0.01});
    expect_valid_decomposition(d, dec);
    EXPECT_EQ(static_cast<int>(dec.perms.size()), n);  // n disjoint perfect matchings of 0.25
  }
}

TEST(Eclipse, TerminatesOnEveryGenerator) {
  for (const std::string& kind : matrix::generator_kinds()) {
    matrix::GeneratorOptions opt;
    opt.n = 32;  // the smallest size every kind accepts (gpt)
    opt.tokens = 256;
    const Matrix d = generate_matrix(kind, opt, 7);
    expect_valid_decomposition(d, eclipse_decomposition(d, {.delta = 0.02}));
  }
}

TEST(Eclipse, SinglePermutationIsOneStep) {
  Matrix d(6);
  for (int i = 0; i < 6; ++i) d(i, (i + 1) % 6) = 0.4;
  const matrix::Decomposition dec = eclipse_decomposition(d, {.delta = 0.05});
  ASSERT_EQ(dec.perms.size(), 1u);
  EXPECT_DOUBLE_EQ(dec.weights[0], 0.4);
}

TEST(Eclipse, LargeDeltaPrefersFewLongSlices) {
  // Two permutations 0.5 and 0.01 on overlapping rows: with a large δ the best ratio serves the
  // long one whole first; with δ = 0 short thresholds become attractive and K does not shrink.
  const Matrix d = testing::permutation_sum(10, 4, 2);
  const auto k_big = eclipse_decomposition(d, {.delta = 1.0}).perms.size();
  const auto k_small = eclipse_decomposition(d, {.delta = 1e-4}).perms.size();
  EXPECT_LE(k_big, k_small);
}

TEST(Eclipse, ScheduleIsVerified) {
  const Matrix d = testing::random_sparse(15, 0.3, 11);
  const matrix::MatrixProblem p{.time = d, .switches = 4, .delta = 0.02};
  const matrix::MatrixResult r = eclipse_schedule(p);
  testing::expect_verified(d, r);
  EXPECT_EQ(r.schedule.algorithm, "eclipse");
}

}  // namespace
}  // namespace flux::matrix_baselines
