#include "spectra/lp_weights.hpp"

#include <gtest/gtest.h>

#include <numeric>

namespace flux::spectra {
namespace {

// n = 3. P0 = identity, P1 = (0->0, 1->2, 2->1), P2 = (0->1, 1->0, 2->2)... (0,0) is shared by
// P0 and P1, so the LP must trade them off against their single-permutation entries.
TEST(LpWeights, SolvesCoupledRowsOptimally) {
  Matrix d(3);
  d(0, 0) = 1.0;  // P0 or P1
  d(1, 1) = 0.3;  // P0 only
  d(1, 2) = 0.2;  // P1 only
  const std::vector<matrix::Permutation> perms = {{0, 1, 2}, {0, 2, 1}};
  const Support s = make_support(d);
  const std::vector<double> w = lp_min_total_weights(s, perms);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_NEAR(w[0] + w[1], 1.0, 1e-9);
  EXPECT_GE(w[0], 0.3 - 1e-12);
  EXPECT_GE(w[1], 0.2 - 1e-12);
  EXPECT_GE(w[0] + w[1], 1.0);  // exact coverage after the repair pass
}

TEST(LpWeights, PresolveAloneWhenEveryRowIsMetAtTheBounds) {
  Matrix d(2);
  d(0, 0) = 0.5;
  d(1, 1) = 0.4;  // P0 only: lb0 = 0.5
  d(0, 1) = 0.7;
  d(1, 0) = 0.1;  // P1 only: lb1 = 0.7
  const std::vector<matrix::Permutation> perms = {{0, 1}, {1, 0}};
  const std::vector<double> w = lp_min_total_weights(make_support(d), perms);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_DOUBLE_EQ(w[0], 0.5);
  EXPECT_DOUBLE_EQ(w[1], 0.7);
}

TEST(LpWeights, RepairRaisesUncoveredEntries) {
  Matrix d(2);
  d(0, 0) = 0.5;
  d(1, 1) = 0.5;
  std::vector<double> w = {0.25};
  EXPECT_EQ(repair_coverage(make_support(d), {{0, 1}}, w), 1);
  EXPECT_DOUBLE_EQ(w[0], 0.5);
}

}  // namespace
}  // namespace flux::spectra
