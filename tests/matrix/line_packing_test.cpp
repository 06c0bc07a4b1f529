#include "matrix/line_packing.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/rng.hpp"
#include "matrix/bounds.hpp"

namespace flux::matrix {
namespace {

// Switches a group of entries needs at makespan t when its pieces form one connected chain.
int switches_for(const std::vector<double>& group, double delta, double t) {
  double size = 0.0;
  for (const double d : group) size += d + delta;
  return std::max(1, static_cast<int>(std::ceil((size - delta) / (t - delta) - 1e-12)));
}

// Independent reference: every set partition of the entries (restricted growth strings), each
// group on its own switches, feasible when the switches add up to at most s.
bool brute_force_feasible(const std::vector<double>& entries, int s, double delta, double t) {
  if (t <= delta) return false;
  const std::size_t k = entries.size();
  std::vector<std::size_t> label(k, 0);
  while (true) {
    std::vector<std::vector<double>> groups;
    for (std::size_t e = 0; e < k; ++e) {
      if (label[e] >= groups.size()) groups.resize(label[e] + 1);
      groups[label[e]].push_back(entries[e]);
    }
    int used = 0;
    for (const auto& g : groups) used += switches_for(g, delta, t);
    if (used <= s) return true;
    // Next restricted growth string: label[e] <= 1 + max(label[0..e-1]).
    std::size_t e = k;
    while (e-- > 1) {
      const std::size_t top = *std::max_element(label.begin(), label.begin() + e);
      if (label[e] <= top) {
        ++label[e];
        std::fill(label.begin() + e + 1, label.end(), 0);
        break;
      }
    }
    if (e == 0) return false;
  }
}

// The least feasible t by bisection on the reference.
double brute_force_threshold(const std::vector<double>& entries, int s, double delta) {
  double lo = delta, hi = delta;
  for (const double d : entries) hi += d + delta;
  for (int step = 0; step < 80; ++step) {
    const double mid = 0.5 * (lo + hi);
    (brute_force_feasible(entries, s, delta, mid) ? hi : lo) = mid;
  }
  return hi;
}

TEST(LinePacking, ThreeHalvesOnTwoSwitchesNeedOneSplit) {
  const std::vector<double> line{0.5, 0.5, 0.5};
  LinePacking p(line, 2, 0.1);
  long long work = 1'000'000'000;
  EXPECT_TRUE(p.infeasible(0.949, work));   // the LP proves it (both greedy packings fail)
  EXPECT_FALSE(p.infeasible(0.951, work));  // a packing exists: 0.5 + 0.25 | 0.25 + 0.5
  EXPECT_NEAR(brute_force_threshold(line, 2, 0.1), 0.95, 1e-12);
}

TEST(LinePacking, EntryLargerThanAllSwitchesIsInfeasible) {
  const std::vector<double> line{1.0};
  LinePacking p(line, 4, 0.1);
  long long work = 0;                      // no LP needed
  EXPECT_TRUE(p.infeasible(0.34, work));   // 4 x (0.34 - 0.1) < 1
  EXPECT_FALSE(p.infeasible(0.36, work));  // four pieces of 0.25 fit
}

// Never claims infeasible where the reference finds a packing, and proves most T just below the
// reference's threshold (the LP relaxation is near exact on small lines).
TEST(LinePacking, AgreesWithBruteForceOnSmallLines) {
  Rng rng(77);
  int below = 0, proven = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int k = 1 + static_cast<int>(rng.below(6));
    const int s = 1 + static_cast<int>(rng.below(4));
    const double delta = rng.uniform(0.0, 0.3);
    std::vector<double> line(static_cast<std::size_t>(k));
    for (double& d : line) d = rng.uniform(0.01, 1.0);
    const double opt = brute_force_threshold(line, s, delta);
    LinePacking p(line, s, delta);
    long long work = 1'000'000'000;
    for (const double f : {1.0 + 1e-9, 1.01, 1.2}) {
      EXPECT_FALSE(p.infeasible(opt * f, work)) << "trial " << trial << " t = " << opt * f;
    }
    if (opt * 0.99 > delta) {
      ++below;
      proven += p.infeasible(opt * 0.99, work);
      EXPECT_TRUE(p.infeasible(opt * 0.5, work) || opt * 0.5 <= delta) << "trial " << trial;
    }
    // As LB4 on a matrix with this one row: between LB2 and the optimum of the line.
    Matrix m(k);
    for (int j = 0; j < k; ++j) m(0, j) = line[static_cast<std::size_t>(j)];
    const MatrixBounds b = matrix_lower_bounds(m, s, delta);
    EXPECT_LE(b.lb4, opt * (1 + 1e-9)) << "trial " << trial;
    EXPECT_GE(b.lb4, b.lb2);
  }
  EXPECT_GE(proven, below * 9 / 10) << proven << " of " << below;
}

}  // namespace
}  // namespace flux::matrix
