#include "matrix_baselines/integer_demand.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_support.hpp"

namespace flux::matrix_baselines {
namespace {

TEST(IntegerDemand, QuantizeRoundsUpWithinOneQuantum) {
  const Matrix d = testing::random_sparse(12, 0.4, 3);
  const IntegerDemand q = quantize_up(d);
  EXPECT_DOUBLE_EQ(q.quantum, std::ldexp(d.max_line_sum(), -kQuantumBits));
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) {
      const double back = static_cast<double>(q.at(i, j)) * q.quantum;
      EXPECT_GE(back, d(i, j));
      EXPECT_LT(back - d(i, j), q.quantum * 1.000001);
      EXPECT_EQ(q.at(i, j) == 0, d(i, j) == 0.0);
    }
}

TEST(IntegerDemand, ZeroMatrixHasZeroQuantum) {
  const IntegerDemand q = quantize_up(Matrix(4));
  EXPECT_EQ(q.quantum, 0.0);
  EXPECT_EQ(line_sum(q), 0);
}

void expect_stuffed(const IntegerDemand& before, const IntegerDemand& after) {
  std::int64_t target = 0;
  for (auto v : before.row_sums()) target = std::max(target, v);
  for (auto v : before.col_sums()) target = std::max(target, v);
  for (auto v : after.row_sums()) EXPECT_EQ(v, target);
  for (auto v : after.col_sums()) EXPECT_EQ(v, target);
  for (std::size_t k = 0; k < before.a.size(); ++k) EXPECT_GE(after.a[k], before.a[k]);
}

TEST(IntegerDemand, QuickStuffEqualisesEveryLineExactly) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const IntegerDemand q = quantize_up(testing::random_sparse(15, 0.2, seed));
    IntegerDemand plain = q, shuffled = q;
    quick_stuff(plain);
    Rng rng(seed);
    quick_stuff(shuffled, {.rng = &rng});
    expect_stuffed(q, plain);
    expect_stuffed(q, shuffled);
  }
}

TEST(IntegerDemand, QuickStuffPadsTheSupportFirst) {
  // Existing entry (0, 1) is padded first; only the slack left over creates the new entry (1, 1).
  IntegerDemand m;
  m.n = 2;
  m.a = {1, 2, 3, 0};  // rows 3, 3; columns 4, 2
  quick_stuff(m);
  EXPECT_EQ(m.a, (std::vector<std::int64_t>{1, 3, 3, 1}));
  IntegerDemand diag;
  diag.n = 2;
  diag.a = {5, 0, 0, 2};
  quick_stuff(diag);
  EXPECT_EQ(diag.a, (std::vector<std::int64_t>{5, 0, 0, 5}));
}

TEST(IntegerDemand, PeelSubtractsTheSmallestEntryOnThePermutation) {
  IntegerDemand m;
  m.n = 2;
  m.a = {4, 1, 2, 7};
  EXPECT_EQ(peel_permutation(m, {0, 1}), 4);
  EXPECT_EQ(m.a, (std::vector<std::int64_t>{0, 1, 2, 3}));
}

// Byte demand divided by a rate that is not a power of two (bytes / rate * rate is not exact in
// floating point) still counts exactly its bytes; a fraction of a byte rounds up, a positive
// entry is never dropped.
TEST(IntegerDemand, ByteDemandIsCountedInWholeBytes) {
  const double rate = 1e11;
  Matrix d(2);
  d(0, 1) = 123456789.0 / rate;
  d(1, 0) = 3.0 / rate;
  d(1, 1) = 2.5 / rate;
  d(0, 0) = 1e-9 / rate;
  const IntegerDemand q = quantize_demand(d, 1.0 / rate);
  EXPECT_DOUBLE_EQ(q.quantum, 1.0 / rate);
  EXPECT_EQ(q.a, (std::vector<std::int64_t>{1, 123456789, 3, 3}));
  EXPECT_EQ(quantize_demand(d, 0.0).quantum, quantize_up(d).quantum);  // no byte: fine quantum
}

}  // namespace
}  // namespace flux::matrix_baselines
