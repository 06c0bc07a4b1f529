#include "matrix/exact_schedule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "core/rng.hpp"
#include "matrix/bounds.hpp"
#include "matrix/verify.hpp"
#include "random_schedule.hpp"

namespace flux {
namespace {

ExactResult solve(const Matrix& d, int s, double delta) {
  return exact_matrix_schedule({.time = d, .switches = s, .delta = delta});
}

TEST(ExactSchedule, OneEntrySplitsEvenly) {
  for (int s : {1, 2, 3})
    for (double delta : {0.0, 0.1}) {
      const ExactResult r = solve(Matrix(1, 0.9), s, delta);
      ASSERT_EQ(r.status, ExactStatus::optimal);
      EXPECT_NEAR(r.makespan, delta + 0.9 / s, 1e-9);
    }
}

TEST(ExactSchedule, TwoPortsOneSwitchClosedForm) {
  // n = 2, s = 1: only the identity and the swap exist; each used one costs delta + its max entry.
  Rng rng(5);
  for (int trial = 0; trial < 10; ++trial) {
    const Matrix d = testing::random_demand(2, 0.7, rng);
    const double delta = rng.uniform(0.0, 0.2);
    const double id = std::max(d(0, 0), d(1, 1)), swap = std::max(d(0, 1), d(1, 0));
    const double expected = (id > 0 ? delta + id : 0) + (swap > 0 ? delta + swap : 0);
    const ExactResult r = solve(d, 1, delta);
    ASSERT_EQ(r.status, ExactStatus::optimal);
    EXPECT_NEAR(r.makespan, expected, 1e-9);
  }
}

TEST(ExactSchedule, AllZeroIsEmpty) {
  const ExactResult r = solve(Matrix(3), 2, 0.1);
  EXPECT_EQ(r.status, ExactStatus::optimal);
  EXPECT_EQ(r.makespan, 0.0);
  EXPECT_TRUE(r.schedule.slots.empty());
}

TEST(ExactSchedule, RefusesLargeInstances) {
  EXPECT_EQ(solve(Matrix(6, 1.0), 2, 0.1).status, ExactStatus::too_large);
  EXPECT_EQ(solve(Matrix(3, 1.0), 5, 0.1).status, ExactStatus::too_large);
}

// Ground truth for the bounds: LB1 <= LB2 <= OPT <= any valid schedule, and the optimum itself
// passes the verifier. Prints how tight LB2 is (docs/results/matrix-cli.md quotes it).
TEST(ExactSchedule, BoundsBelowOptimumBelowValidSchedules) {
  Rng rng(2026);
  double sum_ratio = 0, max_ratio = 1;
  int count = 0, tight = 0;
  for (int trial = 0; trial < 80; ++trial) {
    const int n = 2 + static_cast<int>(rng.below(3));
    const int s = 1 + static_cast<int>(rng.below(3));
    const double delta = std::array{0.0, 0.01, 0.05, 0.2}[rng.below(4)];
    // CBC needs seconds on dense 4 x 4 matrices with s = 3 (72 symmetric binaries); sparse
    // ones keep the suite fast and still exercise splitting across three switches.
    const double density = n == 4 && s == 3 ? rng.uniform(0.2, 0.45) : rng.uniform(0.3, 1.0);
    const Matrix d = testing::random_demand(n, density, rng);
    const ExactResult r = solve(d, s, delta);
    ASSERT_EQ(r.status, ExactStatus::optimal) << "trial " << trial;
    const VerifyReport v = verify_matrix_schedule(d, r.schedule);
    EXPECT_TRUE(v.valid()) << v.to_text();
    const MatrixBounds b = matrix_lower_bounds(d, s, delta);
    EXPECT_LE(b.lb1, b.lb2 * (1 + 1e-12));
    EXPECT_LE(b.lb2, r.makespan * (1 + 1e-9)) << "n=" << n << " s=" << s << " delta=" << delta;
    for (int k = 0; k < 5; ++k)
      EXPECT_LE(r.makespan, testing::random_valid_schedule(d, s, delta, rng).makespan * (1 + 1e-9));
    if (b.bound > 0) {
      const double ratio = r.makespan / b.bound;
      sum_ratio += ratio;
      max_ratio = std::max(max_ratio, ratio);
      tight += ratio < 1 + 1e-6;
      ++count;
    }
  }
  std::printf("OPT/LB2 over %d instances: mean %.4f, max %.4f, tight %d\n", count,
              sum_ratio / count, max_ratio, tight);
}

}  // namespace
}  // namespace flux
