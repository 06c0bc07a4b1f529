#include "matrix_baselines/per_port_greedy.hpp"

#include <gtest/gtest.h>

#include "matrix/generators.hpp"
#include "test_support.hpp"

namespace flux::matrix_baselines {
namespace {

TEST(PerPortGreedy, OneCircuitPerEntryStartingAfterDelta) {
  Matrix m(3);
  m(0, 1) = 0.5;
  m(1, 2) = 0.2;
  m(2, 0) = 0.1;
  std::vector<matrix::PortCircuit> out;
  const double end = per_port_greedy(m, 0, 0.05, out);
  ASSERT_EQ(out.size(), 3u);  // one permutation: all three start together at δ
  for (const matrix::PortCircuit& c : out) EXPECT_DOUBLE_EQ(c.start, 0.05);
  EXPECT_DOUBLE_EQ(end, 0.55);
}

TEST(PerPortGreedy, FreedPortsTakeTheLargestEntryAfterTheirDelay) {
  // Row 0 sends 0.4 to output 0 and 0.1 to output 1; row 1 sends 0.3 to output 1.
  // At δ = 0.1 the max-weight matching runs (0,0) until 0.5 and (1,1) until 0.4. Output 1 is ready
  // again at 0.4 + δ = 0.5, input 0 only at 0.5 + δ = 0.6: (0,1) runs from 0.6 to 0.7.
  Matrix m(2);
  m(0, 0) = 0.4;
  m(0, 1) = 0.1;
  m(1, 1) = 0.3;
  std::vector<matrix::PortCircuit> out;
  const double end = per_port_greedy(m, 1, 0.1, out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[2].src, 0);
  EXPECT_EQ(out[2].dst, 1);
  EXPECT_EQ(out[2].sw, 1);
  EXPECT_DOUBLE_EQ(out[2].start, 0.6);
  EXPECT_DOUBLE_EQ(end, 0.7);
}

TEST(PerPortGreedy, PerSwitchLoadServesEachEntryExactlyOnce) {
  const Matrix d = testing::random_sparse(10, 0.4, 3);
  matrix::MatrixSchedule plan;
  plan.switches = 2;
  plan.slots = {{0, 0.1, 2.1, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
                {1, 0.1, 1.1, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}};
  const auto load = per_switch_load(d, plan);
  for (int i = 0; i < d.n(); ++i) {
    EXPECT_NEAR(load[0](i, i) + load[1](i, i), d(i, i), 1e-12);
    EXPECT_NEAR(load[0](i, i), 2.0 * load[1](i, i), 1e-12);  // in proportion to the durations
    for (int j = 0; j < d.n(); ++j) {
      if (j != i) {
        EXPECT_EQ(load[0](i, j) + load[1](i, j), 0.0);
      }
    }
  }
}

// All ports free up together after every round of an all-to-all. A largest-first greedy pairing
// strands ports there (n = 16 took 1.47x the bound); pairing the ready ports by a maximum
// matching keeps every round a perfect matching: n - 1 rounds of δ + 1/(n - 1), the bound.
TEST(PerPortGreedy, AllToAllNeedsNoMoreRoundsThanPorts) {
  for (int n : {4, 8, 16}) {
    matrix::GeneratorOptions opt;
    opt.n = n;
    const Matrix d = generate_matrix("alltoall", opt, 1);
    std::vector<matrix::PortCircuit> out;
    const double delta = 0.01;
    EXPECT_NEAR(per_port_greedy(d, 0, delta, out), (n - 1) * delta + 1.0, 1e-9) << n;
  }
}

}  // namespace
}  // namespace flux::matrix_baselines
