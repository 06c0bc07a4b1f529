#include "matrix_baselines/less_split.hpp"

#include <gtest/gtest.h>

#include "matrix/generators.hpp"
#include "test_support.hpp"

namespace flux::matrix_baselines {
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
  matrix::GeneratorOptions opt;
  opt.n = 40;
  const Matrix d = generate_matrix("synthetic", opt, 3);
  for (int s : {1, 2, 3, 4, 5, 8}) {
    Rng rng(s);
    const auto parts = less_split(d, s, rng);
    ASSERT_EQ(static_cast<int>(parts.size()), s);
    expect_shares(d, parts);
  }
}

// Union-find over rows 0..n-1 and columns n..2n-1.
int root(std::vector<int>& parent, int v) {
  while (parent[static_cast<std::size_t>(v)] != v) v = parent[static_cast<std::size_t>(v)];
  return v;
}

TEST(LessSplit, CutLeavesAForestOfSharedEntries) {
  // Entries split between D1 and D - D1 must form an acyclic bipartite graph (so at most 2n - 1
  // of them), with either cycle search, on sparse and on fully dense matrices.
  for (CycleSearch search : {CycleSearch::restart, CycleSearch::resume})
    for (double density : {0.3, 1.0})
      for (std::uint64_t seed = 1; seed <= 4; ++seed) {
        const Matrix d = testing::random_sparse(30, density, seed);
        Rng rng(seed);
        const Matrix d1 = alternating_cycle_cut(d, 0.5, rng, search);
        const auto rows = d.row_sums(), rows1 = d1.row_sums();
        for (int i = 0; i < d.n(); ++i)
          EXPECT_NEAR(rows1[static_cast<std::size_t>(i)], 0.5 * rows[static_cast<std::size_t>(i)],
                      1e-9);
        std::vector<int> parent(60);
        for (int v = 0; v < 60; ++v) parent[static_cast<std::size_t>(v)] = v;
        for (int i = 0; i < d.n(); ++i)
          for (int j = 0; j < d.n(); ++j) {
            if (!(d1(i, j) > 0.0 && d1(i, j) < d(i, j))) continue;
            const int a = root(parent, i), b = root(parent, 30 + j);
            ASSERT_NE(a, b) << "shared entries close a cycle at (" << i << ", " << j << ")";
            parent[static_cast<std::size_t>(a)] = b;
          }
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
  const Matrix d = testing::random_sparse(20, 0.3, 2);
  Rng a(9), b(9), c(10);
  const auto parts = less_split(d, 4, a);
  EXPECT_EQ(parts, less_split(d, 4, b));
  EXPECT_NE(parts, less_split(d, 4, c));
}

}  // namespace
}  // namespace flux::matrix_baselines
