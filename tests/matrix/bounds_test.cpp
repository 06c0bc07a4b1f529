#include "matrix/bounds.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "core/rng.hpp"
#include "matrix/verify.hpp"
#include "random_schedule.hpp"

namespace flux::matrix {
namespace {

constexpr double kDeltas[] = {0.01, 0.02, 0.04, 0.08};

// GPT-32 exactly as the Spectra paper defines it, normalised to max line sum 1.
Matrix gpt32() {
  Matrix d(32);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      if (i != j && i / 2 == j / 2) d(i, j) += 680.0 * 125 / 1024;
      if (std::abs(i - j) == 8) d(i, j) += 16.0 * 125 / 1024;
      if ((i % 8 < 6 && j == i + 2) || (i % 8 >= 6 && j == i - 6)) d(i, j) += 741.0 / 1024;
      if (std::abs(i - j) == 24) d(i, j) += 96.0 / 1024;
    }
  return d.scaled(1.0 / d.max_line_sum());
}

// The Spectra paper's synthetic benchmark without noise and without collisions: 4 large flows of
// 0.175 and 12 small ones of 0.025 per port (cyclic shifts 1..16 of n = 100).
Matrix clean_synthetic() {
  Matrix d(100);
  for (int i = 0; i < 100; ++i)
    for (int r = 1; r <= 16; ++r) d(i, (i + r) % 100) = r <= 4 ? 0.7 / 4 : 0.3 / 12;
  return d;
}

TEST(Bounds, AllZeroIsZero) {
  const MatrixBounds b = matrix_lower_bounds(Matrix(5), 4, 0.1);
  EXPECT_EQ(b.lb1, 0.0);
  EXPECT_EQ(b.lb2, 0.0);
  EXPECT_EQ(b.bound, 0.0);
}

TEST(Bounds, Lb1ByHand) {
  // Row 0: load 6 over 2 entries; column 3: load 8 over 2 entries; s = 2, delta = 0.5.
  Matrix d(4);
  d(0, 1) = 5, d(0, 3) = 1, d(1, 0) = 2, d(1, 2) = 3, d(2, 3) = 7, d(3, 0) = 1, d(3, 1) = 1,
       d(3, 2) = 1;
  EXPECT_DOUBLE_EQ(lower_bound_lb1(d, 2, 0.5), (8 + 0.5 * 2) / 2);
  EXPECT_DOUBLE_EQ(lower_bound_lb1(d, 1, 0.5), 8 + 0.5 * 2);  // row 3: 3 + 0.5 * 3 is less
  // Entry 7 on s = 4 switches: a slot lasts at most T - 0.5, so it needs several slots.
  // LB1 = (8 + 0.5 * 4) / 4 = 2.5, T - delta = 2 < 7 -> 4 slots for it, 5 in column 3: 2.625.
  EXPECT_DOUBLE_EQ(lower_bound_lb1(d, 4, 0.5), 2.5);
  EXPECT_NEAR(lower_bound_lb2(d, 4, 0.5), 2.625, 1e-9);
}

TEST(Bounds, OneEntryIsExact) {
  // One entry d on s switches: the optimum splits it evenly, delta + d / s; both bounds reach it.
  Matrix d(1, 0.9);
  for (int s : {1, 2, 3, 7})
    for (double delta : {0.0, 0.05, 0.3}) {
      EXPECT_NEAR(lower_bound_lb1(d, s, delta), delta + 0.9 / s, 1e-12);
      EXPECT_NEAR(lower_bound_lb2(d, s, delta), delta + 0.9 / s, 1e-12);
    }
}

TEST(Bounds, UniformAllToAll) {
  // n = 8, zero diagonal, every off-diagonal entry 1/7: k_p = 7, L_p = 1. With m slots per entry
  // (all entries alike) T must satisfy T - delta >= 1 / (7 m) and T >= (1 + delta max(7m, s)) / s,
  // so LB2 = min over m of the larger of the two.
  Matrix d(8, 1.0 / 7);
  for (int i = 0; i < 8; ++i) d(i, i) = 0;
  for (int s : {1, 4, 7, 16})
    for (double delta : kDeltas) {
      double expected = INFINITY;
      for (int m = 1; m <= 100; ++m)
        expected = std::min(expected,
                            std::max(delta + 1.0 / (7 * m), (1 + delta * std::max(7 * m, s)) / s));
      const MatrixBounds b = matrix_lower_bounds(d, s, delta);
      EXPECT_NEAR(b.lb1, (1 + delta * std::max(7, s)) / s, 1e-12);
      EXPECT_NEAR(b.lb2, expected, 1e-9) << "s=" << s << " delta=" << delta;
      if (s <= 7) {
        EXPECT_NEAR(b.lb2, b.lb1, 1e-9);  // 1/7 fits one slot of length LB1 - delta
      }
    }
}

TEST(Bounds, ReferenceTableGpt32) {
  // The Spectra paper's bound example, values printed to 4 digits.
  const double lb1_s4[] = {.26, .27, .29, .33}, lb2_s4[] = {.2675, .285, .32, .39};
  const double lb1_s16[] = {.0725, .0825, .1025, .1425}, lb2_s16[] = {.0737, .085, .1075, .1477};
  const Matrix d = gpt32();
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(lower_bound_lb1(d, 4, kDeltas[k]), lb1_s4[k], 1e-9);
    EXPECT_NEAR(lower_bound_lb2(d, 4, kDeltas[k]), lb2_s4[k], 1e-9);  // exact values in the table
    EXPECT_NEAR(lower_bound_lb1(d, 16, kDeltas[k]), lb1_s16[k], 1e-9);
    EXPECT_NEAR(lower_bound_lb2(d, 16, kDeltas[k]), lb2_s16[k], 5e-5);
  }
}

TEST(Bounds, ReferenceTableCleanSynthetic) {
  // The Spectra paper's bound table: s = 4 LB1 = LB2 = .29/.33/.41/.57; s = 16 LB1
  // .0725/.0825/.1025/.1425 and LB2 .0775/.0925/.1225 — the table's .1701 at delta = .08 is for
  // noisy matrices whose large entries exceed .175; without noise the breakpoint T - delta = .175 /
  // 2 gives .1675.
  const double s4[] = {.29, .33, .41, .57}, lb1_s16[] = {.0725, .0825, .1025, .1425};
  const double lb2_s16[] = {.0775, .0925, .1225, .1675};
  const Matrix d = clean_synthetic();
  for (int k = 0; k < 4; ++k) {
    EXPECT_NEAR(lower_bound_lb1(d, 4, kDeltas[k]), s4[k], 1e-9);
    EXPECT_NEAR(lower_bound_lb2(d, 4, kDeltas[k]), s4[k], 1e-9);
    EXPECT_NEAR(lower_bound_lb1(d, 16, kDeltas[k]), lb1_s16[k], 1e-9);
    EXPECT_NEAR(lower_bound_lb2(d, 16, kDeltas[k]), lb2_s16[k], 1e-9);
  }
}

TEST(Bounds, Lb3PricesTheBusiestLineWithTheMostSlots) {
  // Row 0 carries one entry of 1 (the busiest line), row 1 four entries of 0.1 (the most slots).
  // Per line: row 0 needs (1 + 0.1 * 2) / 2 = 0.6 (LB1 = LB2), but every valid schedule has at
  // least 4 slots (row 1) and at least 1 of duration (row 0): 2 T >= 1 + 0.1 * 4, T >= 0.7.
  // 0.7 is reached: four slots of 0.25, each pairing (0,0) with one entry of row 1, two per
  // switch.
  Matrix d(5);
  d(0, 0) = 1.0;
  for (int j = 1; j <= 4; ++j) d(1, j) = 0.1;
  const MatrixBounds b = matrix_lower_bounds(d, 2, 0.1);
  EXPECT_NEAR(b.lb1, 0.6, 1e-12);
  EXPECT_NEAR(b.lb2, 0.6, 1e-12);
  EXPECT_NEAR(b.lb3, 0.7, 1e-12);
  EXPECT_EQ(b.all_stop, b.lb3);
  EXPECT_EQ(b.for_model(Reconfiguration::all_stop), b.lb3);
  EXPECT_EQ(b.for_model(Reconfiguration::per_port), b.lb2);
  EXPECT_EQ(lower_bound_lb3(d, 2, 0.1), b.lb3);
}

TEST(Bounds, Lb3StaysAtTheOptimumOnASplitBreakpoint) {
  // One entry of 0.9 on s = 3, delta = 0.05, plus a row of three entries of 0.01. The optimum is
  // 0.35: one slot of 0.3 per switch, each pairing (0,0) with one entry of row 1. At T = 0.35
  // the entry needs exactly 0.9 / 0.3 = 3 slots, a breakpoint where rounding must not count a
  // fourth (that would lift LB3 above the optimum).
  Matrix d(4);
  d(0, 0) = 0.9;
  for (int j = 1; j <= 3; ++j) d(1, j) = 0.01;
  EXPECT_NEAR(lower_bound_lb3(d, 3, 0.05), 0.35, 1e-12);
}

TEST(Bounds, EachBoundNeverBelowThePreviousAndBoundIsMax) {
  Rng rng(3);
  for (int trial = 0; trial < 200; ++trial) {
    const Matrix d = testing::random_demand(1 + static_cast<int>(rng.below(12)), 0.5, rng);
    const int s = 1 + static_cast<int>(rng.below(16));
    const double delta = rng.uniform(0.0, 0.2);
    const MatrixBounds b = matrix_lower_bounds(d, s, delta);
    EXPECT_GE(b.lb2, b.lb1 * (1 - 1e-12));
    EXPECT_GE(b.lb3, b.lb2 * (1 - 1e-12));
    EXPECT_GE(b.lb4, b.lb2);
    EXPECT_EQ(b.bound, std::max({b.lb1, b.lb2, b.lb4}));
    EXPECT_EQ(b.all_stop, std::max({b.lb1, b.lb2, b.lb3, b.lb4}));
  }
}

TEST(Bounds, NeverAboveRandomValidSchedules) {
  Rng rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng.below(10));
    const Matrix d = testing::random_demand(n, rng.uniform(0.1, 1.0), rng);
    const int s = 1 + static_cast<int>(rng.below(8));
    const double delta = rng.uniform() < 0.2 ? 0.0 : rng.uniform(0.0, 0.3);
    const MatrixSchedule sched = testing::random_valid_schedule(d, s, delta, rng);
    ASSERT_TRUE(verify_matrix_schedule(d, sched).valid())
        << verify_matrix_schedule(d, sched).to_text();
    EXPECT_LE(matrix_lower_bounds(d, s, delta).all_stop, sched.makespan * (1 + 1e-12));
  }
}

}  // namespace
}  // namespace flux::matrix
