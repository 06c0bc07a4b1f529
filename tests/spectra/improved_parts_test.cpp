// Unit tests of the building blocks of the improved `spectra`: wrap-around split, improved
// EQUALIZE and the threshold decomposition.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "matrix/algorithm.hpp"
#include "matrix/generators.hpp"
#include "spectra/bottleneck_decompose.hpp"
#include "spectra/equalize_improved.hpp"
#include "spectra/support.hpp"
#include "spectra/wraparound.hpp"
#include "spectra_test_util.hpp"

namespace flux::spectra {
namespace {

double makespan(const matrix::SwitchPlan& p) {
  return *std::max_element(p.load.begin(), p.load.end());
}

// Σ piece durations per permutation = its weight; loads = Σ(δ + duration).
void expect_consistent(const matrix::SwitchPlan& plan, const std::vector<double>& w, double delta) {
  std::vector<double> total(w.size(), 0.0);
  for (std::size_t m = 0; m < plan.pieces.size(); ++m) {
    double load = 0.0;
    for (const matrix::Piece& p : plan.pieces[m]) {
      EXPECT_GT(p.duration, 0.0);
      total[static_cast<std::size_t>(p.perm)] += p.duration;
      load += delta + p.duration;
    }
    EXPECT_NEAR(load, plan.load[m], 1e-12);
  }
  for (std::size_t l = 0; l < w.size(); ++l) EXPECT_NEAR(total[l], w[l], 1e-12);
}

TEST(Wraparound, McNaughtonWithoutDelayIsOptimal) {
  const std::vector<double> w = {0.5, 0.3, 0.1, 0.1};
  std::vector<int> order(4);
  std::iota(order.begin(), order.end(), 0);
  const matrix::SwitchPlan plan = wraparound_plan(w, order, 2, 0.0);
  expect_consistent(plan, w, 0.0);
  EXPECT_NEAR(makespan(plan), 0.5, 1e-9);  // max(Σw/s, max w) = 0.5
}

TEST(Wraparound, PaysDeltaPerPieceAndFindsTheBestCut) {
  // One permutation of 1.0 on 4 switches with δ = 0.1: four pieces, T = (1 + 4·0.1)/4 = 0.35.
  const matrix::SwitchPlan plan = wraparound_plan({1.0}, {0}, 4, 0.1);
  expect_consistent(plan, {1.0}, 0.1);
  EXPECT_NEAR(makespan(plan), 0.35, 1e-9);
  EXPECT_EQ(plan.splits, 3);
}

TEST(EqualizeImproved, MergesDuplicatePiecesAndNeverRaisesTheMakespan) {
  Rng rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const int k = 1 + static_cast<int>(rng.below(12));
    const int s = 1 + static_cast<int>(rng.below(8));
    const double delta = rng.uniform(0.0, 0.05);
    std::vector<double> w(static_cast<std::size_t>(k));
    for (double& x : w) x = rng.uniform(0.001, 0.5);
    std::sort(w.rbegin(), w.rend());
    matrix::SwitchPlan plan = matrix::lpt_assign(w, s, delta);
    equalize_reference(plan, delta);
    const double before = makespan(plan);
    equalize_improved(plan, delta);
    expect_consistent(plan, w, delta);
    EXPECT_LE(makespan(plan), before + 1e-12);
    for (const auto& sw : plan.pieces)  // at most one piece per permutation per switch
      for (std::size_t a = 0; a < sw.size(); ++a)
        for (std::size_t b = a + 1; b < sw.size(); ++b) EXPECT_NE(sw[a].perm, sw[b].perm);
  }
}

TEST(EqualizeImproved, MovesAWholePieceWhereTheReferenceStops) {
  // Two switches, δ = 0.01, three pieces of 0.2 on switch 0. The reference wants to move
  // x = 0.31 > every piece, so it stops at 0.63. Moving one piece whole and then splitting one
  // reaches 0.32 = (0.6 + 4·0.01)/2, the optimum with one split.
  matrix::SwitchPlan plan;
  plan.pieces = {{{0, 0.2}, {1, 0.2}, {2, 0.2}}, {}};
  plan.load = {0.63, 0.0};
  matrix::SwitchPlan ref = plan;
  equalize_reference(ref, 0.01);
  EXPECT_NEAR(makespan(ref), 0.63, 1e-12);
  equalize_improved(plan, 0.01);
  expect_consistent(plan, {0.2, 0.2, 0.2}, 0.01);
  EXPECT_NEAR(makespan(plan), 0.32, 1e-12);
}

// An n × n sum of `count` random weighted permutations.
Matrix sum_of_permutations(int n, int count, std::uint64_t seed) {
  matrix::GeneratorOptions opt;
  opt.permutations = count;
  opt.n = n;
  return generate_permutations(opt, seed);
}

TEST(BottleneckDecompose, RecoversAFewWeightedPermutations) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Matrix d = sum_of_permutations(24, 5, seed);
    const matrix::Decomposition dec =
        bottleneck_decompose(d, {.delta = 0.01, .max_permutations = 64});
    testing::expect_covering_decomposition(d, dec);
    EXPECT_LE(static_cast<int>(dec.perms.size()), 5);
    const double total = std::accumulate(dec.weights.begin(), dec.weights.end(), 0.0);
    EXPECT_NEAR(total, 1.0, 1e-9);  // the weights of a sum of permutations, exactly
  }
}

TEST(BottleneckDecompose, GivesUpBeyondTheLimit) {
  const Matrix d = matrix::generate_synthetic({}, 1);  // needs hundreds of threshold matchings
  EXPECT_TRUE(bottleneck_decompose(d, {.delta = 0.01, .max_permutations = 17}).perms.empty());
}

// A sparse matrix whose entries span many magnitudes (so that the order of additions shows in the
// sums' last bits), with −0 among its zeros.
Matrix sparse_random(int n, double density, std::uint64_t seed) {
  Rng rng(seed);
  Matrix d(n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double u = rng.uniform();
      if (u < density)
        d(i, j) = rng.uniform() * std::pow(10.0, rng.uniform(-6.0, 6.0));
      else if (u < 2 * density)
        d(i, j) = -0.0;
    }
  return d;
}

TEST(Support, LargestEntryAndLineSumsAreTheDenseMatrices) {
  for (const int n : {1, 7, 33, 200})
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const Matrix d = sparse_random(n, 0.1 * static_cast<double>(seed), seed);
      const Support s = make_support(d);
      // The same doubles, bit for bit: the planners compare them with strict thresholds.
      EXPECT_EQ(largest_entry(s), d.max_entry()) << n << " " << seed;
      EXPECT_EQ(max_line_sum(s), d.max_line_sum()) << n << " " << seed;
    }
  const Matrix zero(5, -0.0);
  EXPECT_FALSE(std::signbit(largest_entry(make_support(zero))));
  EXPECT_EQ(max_line_sum(make_support(zero)), 0.0);
}

// The support by the definition: every entry above `tol`, row by row.
Support support_by_scan(const Matrix& d, double tol) {
  Support s;
  s.n = d.n();
  s.row_start.push_back(0);
  for (int i = 0; i < d.n(); ++i) {
    for (int j = 0; j < d.n(); ++j)
      if (d(i, j) > tol) {
        s.col.push_back(j);
        s.value.push_back(d(i, j));
      }
    s.row_start.push_back(s.size());
  }
  return s;
}

void expect_same_support(const Support& a, const Support& b) {
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.row_start, b.row_start);
  EXPECT_EQ(a.col, b.col);
  EXPECT_EQ(a.value, b.value);
}

// Sizes around the scan's blocks of eight, and entries of every kind in the blocks and the tail.
TEST(Support, BlockedScanFindsEveryEntryAndRejectsWhatCheckProblemRejects) {
  for (const int n : {1, 7, 8, 9, 17, 33, 200})
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const Matrix d = sparse_random(n, 0.05 * static_cast<double>(seed), seed);
      expect_same_support(make_support(d), support_by_scan(d, 0.0));
      expect_same_support(make_support(d, 1e-3), support_by_scan(d, 1e-3));
      const matrix::MatrixProblem p{d, 2, 0.01};
      expect_same_support(make_checked_support(p), support_by_scan(d, 0.0));
      for (const double bad : {-1e-300, std::nan(""), std::numeric_limits<double>::infinity()})
        for (const int j : {0, n / 2, n - 1}) {
          matrix::MatrixProblem q = p;
          q.time(n - 1, j) = bad;
          EXPECT_THROW((void)make_checked_support(q), InputError) << n << " " << j << " " << bad;
          EXPECT_THROW(matrix::check_problem(q), InputError) << n << " " << j << " " << bad;
        }
    }
  matrix::MatrixProblem bad_delta{Matrix(3), 1, -1.0};
  EXPECT_THROW((void)make_checked_support(bad_delta), InputError);
}

// A caller that built the demand from its entries lists where they are; the support read from
// the list is the scan's, also when the list names places that hold zero (a symmetrised entry
// whose direction carries nothing) and rows with nothing listed before, between and after.
TEST(Support, ListedPositionsGiveTheScannedSupport) {
  for (const int n : {1, 9, 64})
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const Matrix d = sparse_random(n, 0.1, seed);
      matrix::MatrixProblem p{d, 2, 0.01};
      p.positions.emplace();
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (d(i, j) > 0.0 || (i + j) % 11 == 0) p.positions->emplace_back(i, j);
      expect_same_support(make_checked_support(p), support_by_scan(d, 0.0));
      if (p.positions->empty()) continue;
      matrix::MatrixProblem bad = p;  // a listed entry that is invalid is still rejected
      bad.time(p.positions->back().first, p.positions->back().second) = -1.0;
      EXPECT_THROW((void)make_checked_support(bad), InputError) << n;
    }
  matrix::MatrixProblem unsorted{Matrix(3, 1.0), 1, 0.0};
  unsorted.positions = {{{1, 0}, {0, 2}}};
  EXPECT_THROW((void)make_checked_support(unsorted), std::logic_error);
  unsorted.positions = {{{0, 1}, {0, 3}}};  // outside the matrix
  EXPECT_THROW((void)make_checked_support(unsorted), std::logic_error);
}

TEST(Support, ResidualSupportIsTheDenseResidualsSupport) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Matrix d = sparse_random(50, 0.2, seed);
    const Support s = make_support(d);
    Rng rng(seed);
    std::vector<double> residual(s.value.size());
    for (double& r : residual) r = rng.uniform() < 0.3 ? 0.0 : rng.uniform() * 1e-3;
    const double tol = 2e-4;
    Matrix dense(50);
    for (int i = 0; i < 50; ++i)
      for (int e = s.row_start[static_cast<std::size_t>(i)];
           e < s.row_start[static_cast<std::size_t>(i) + 1]; ++e)
        if (residual[static_cast<std::size_t>(e)] > tol)
          dense(i, s.col[static_cast<std::size_t>(e)]) = residual[static_cast<std::size_t>(e)];
    const Support r = residual_support(s, residual, tol);
    ASSERT_GT(r.size(), 0);
    expect_same_support(r, make_support(dense));
  }
}

TEST(BottleneckDecompose, OnTheSupportAsOnTheMatrix) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Matrix d = sum_of_permutations(40, 4, seed);
    const BottleneckOptions bo{.delta = 0.01, .max_permutations = 64};
    const matrix::Decomposition dense = bottleneck_decompose(d, bo);
    const matrix::Decomposition sparse = bottleneck_decompose(make_support(d), bo);
    ASSERT_FALSE(dense.perms.empty());
    EXPECT_EQ(sparse.perms, dense.perms);
    EXPECT_EQ(sparse.weights, dense.weights);
  }
}

}  // namespace
}  // namespace flux::spectra
