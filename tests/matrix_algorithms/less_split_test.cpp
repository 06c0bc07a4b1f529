#include "matrix_algorithms/less_split.hpp"

#include <gtest/gtest.h>

#include "matrix/generators.hpp"
#include "test_support.hpp"

namespace flux {
namespace {

void expect_shares(const Matrix& d, const std::vector<Matrix>& parts) {
  const double tol = 1e-9 * d.max_line_sum();
  const auto rows = d.row_sums(), cols = d.col_sums();
  Matrix sum(d.n());
  for (const Matrix& part : parts) {
    const auto pr = part.row_sums(), pc = part.col_sums();
    for (int k = 0; k < d.n(); ++k) {
      EXPECT_NEAR(pr[static_cast<std::size_t>(k)], rows[static_cast<std::size_t>(k)] / parts.size(),
                  tol);
      EXPECT_NEAR(pc[static_cast<std::size_t>(k)], cols[static_cast<std::size_t>(k)] / parts.size(),
                  tol);
    }
    for (int i = 0; i < d.n(); ++i)
      for (int j = 0; j < d.n(); ++j) {
        EXPECT_GE(part(i, j), 0.0);
        if (d(i, j) == 0.0) {
          EXPECT_EQ(part(i, j), 0.0);
        }
        sum(i, j) += part(i, j);
      }
  }
  for (int i = 0; i < d.n(); ++i)
    for (int j = 0; j < d.n(); ++j) EXPECT_NEAR(sum(i, j), d(i, j), tol);
}

TEST(LessSplit, PartsCarryEqualSharesOfEveryLine) {
  GeneratorOptions opt;
  opt.n = 40;
  const Matrix d = generate_matrix("synthetic", opt, 3);
  for (int s : {1, 2, 3, 4, 5, 8}) {
    Rng rng(s);
    const auto parts = less_split(d, s, rng);
    ASSERT_EQ(static_cast<int>(parts.size()), s);
    expect_shares(d, parts);
  }
}

TEST(LessSplit, CutLeavesAForestOfSharedEntries) {
  // Entries split between D1 and D - D1 form an acyclic bipartite graph: at most 2n - 1 of them.
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Matrix d = test::random_sparse(30, 0.3, seed);
    Rng rng(seed);
    const Matrix d1 = alternating_cycle_cut(d, 0.5, rng);
    int shared = 0;
    for (int i = 0; i < d.n(); ++i)
      for (int j = 0; j < d.n(); ++j)
        if (d1(i, j) > 0.0 && d1(i, j) < d(i, j)) ++shared;
    EXPECT_LE(shared, 2 * d.n() - 1);
    EXPECT_LT(d1.nonzeros(), d.nonzeros());  // much sparser than D/2
  }
}

TEST(LessSplit, HalvesOfTwoPermutationsAreThePermutations) {
  // D = P + Q with disjoint supports and equal weights: the loose graph is a union of even cycles,
  // so each half ends up a single permutation (every row keeps exactly one entry).
  Matrix d(8);
  for (int i = 0; i < 8; ++i) d(i, i) = d(i, (i + 3) % 8) = 0.5;
  Rng rng(4);
  const Matrix d1 = alternating_cycle_cut(d, 0.5, rng);
  EXPECT_EQ(d1.max_line_nonzeros(), 1);
  EXPECT_EQ(d1.nonzeros(), 8);
}

TEST(LessSplit, SameSeedSameParts) {
  const Matrix d = test::random_sparse(20, 0.3, 2);
  Rng a(9), b(9), c(10);
  const auto parts = less_split(d, 4, a);
  EXPECT_EQ(parts, less_split(d, 4, b));
  EXPECT_NE(parts, less_split(d, 4, c));
}

}  // namespace
}  // namespace flux
