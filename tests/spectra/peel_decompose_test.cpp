// Peeled decompositions: a valid cover with the peeled permutations at the cap, each serving the
// most residual demand up to the cap (a hand instance), and on random sparse matrices a much
// shorter `spectra` at large δ on many switches, where the other decompositions leave
// single-slot switches idle; and a shorter `spectra` on wide-flow synthetic n = 64, peeled
// outside column generation's gate.
#include "spectra/peel_decompose.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "spectra_test_util.hpp"

namespace flux::spectra {
namespace {

using testing::sparse50;

TEST(PeelDecompose, PeelsTheMatchingServingTheMostUpToTheCap) {
  // The diagonal serves min(.3, .2) twice = .4 against the anti-diagonal's .2; after it, .1 is
  // left on each of the four entries, which DECOMPOSE covers with two permutations of .1.
  Matrix d(2);
  d(0, 0) = 0.3;
  d(1, 1) = 0.3;
  d(0, 1) = 0.1;
  d(1, 0) = 0.1;
  const std::vector<matrix::Decomposition> decs = peel_decompose(make_support(d), 0.2, 1);
  ASSERT_FALSE(decs.empty());
  const matrix::Decomposition& peeled = decs.front();
  testing::expect_covering_decomposition(d, peeled);
  ASSERT_EQ(peeled.perms.size(), 3u);
  EXPECT_DOUBLE_EQ(peeled.weights[0], 0.2);
  EXPECT_EQ(peeled.perms[0], (matrix::Permutation{0, 1}));
  EXPECT_NEAR(peeled.weights[1] + peeled.weights[2], 0.2, 1e-12);
  for (const matrix::Decomposition& dec : decs) testing::expect_covering_decomposition(d, dec);
}

TEST(PeelDecompose, CoversRandomSparseWithCountPermutationsAtTheCap) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE(seed);
    const Matrix d = sparse50(seed);
    const Support s = make_support(d);
    const double cap = 0.1;
    const int count = 16;
    const std::vector<matrix::Decomposition> decs = peel_decompose(s, cap, count);
    // As peeled; re-weighted for the least total; and with the tail recoloured, re-weighted.
    ASSERT_EQ(decs.size(), 3u);
    for (const matrix::Decomposition& dec : decs) {
      testing::expect_covering_decomposition(d, dec);
      for (double w : dec.weights) EXPECT_GT(w, 0.0);
    }
    // Random sparse n = 50 has far more than 16 x 0.1 of demand: every peel is at the cap.
    EXPECT_EQ(std::count(decs.front().weights.begin(), decs.front().weights.end(), cap), count);
  }
}

TEST(PeelDecompose, SpectraMuchShorterOnManySwitchesAtLargeDelta) {
  // In `flux matrix bench` (mean makespan over these seeds / mean LB3, docs/results/spectra.md
  // §9.2): s = 16, δ = .08 went 1.371 -> 1.166 with the peeled decompositions; s = 4, δ = .04
  // 1.268 -> 1.196.
  testing::expect_mean_ratio_below(sparse50, 16, 0.08, 1.25);
  testing::expect_mean_ratio_below(sparse50, 4, 0.04, 1.24);
}

TEST(PeelDecompose, SpectraShorterOnWideFlowSynthetic) {
  // In `flux matrix bench` (mean makespan over these seeds / mean LB3, docs/results/spectra.md
  // §9.3): s = 16, δ = .01 went 1.2125 -> 1.1665 with the wide gate; s = 8, δ = .02 1.1983 ->
  // 1.1833.
  testing::expect_mean_ratio_below(testing::synthetic64_wide, 16, 0.01, 1.19);
  testing::expect_mean_ratio_below(testing::synthetic64_wide, 8, 0.02, 1.19);
}

}  // namespace
}  // namespace flux::spectra
