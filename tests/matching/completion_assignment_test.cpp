#include "matching/completion_assignment.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/matrix.hpp"
#include "core/rng.hpp"
#include "matching/assignment.hpp"

namespace flux::matching {
namespace {

constexpr double kForbidden = 1e9;

// Random DECOMPOSE-like instance: sparse negative costs, some closed lines, some forbidden pairs.
SparseAssignmentProblem random_problem(int n, double density, Rng& rng) {
  SparseAssignmentProblem p;
  p.n = n;
  p.row_open.resize(static_cast<std::size_t>(n));
  p.col_open.resize(static_cast<std::size_t>(n));
  for (auto& o : p.row_open) o = rng.uniform() < 0.7;
  for (auto& o : p.col_open) o = rng.uniform() < 0.7;
  // A hidden permutation guarantees feasibility even when every line is closed.
  const std::vector<int> hidden = rng.permutation(n);
  p.row_start.push_back(0);
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const bool open_pair =
          p.row_open[static_cast<std::size_t>(i)] && p.col_open[static_cast<std::size_t>(j)];
      if (j != hidden[static_cast<std::size_t>(i)] && rng.uniform() >= density) continue;
      p.col.push_back(j);
      // Closed-line pairs may carry any cost; open-open pairs must be <= 0 (the precondition).
      const double c = rng.uniform() < 0.2 ? 0.0 : -std::floor(rng.uniform() * 8.0) / 8.0;
      p.cost.push_back(open_pair ? c : c + (rng.uniform() < 0.3 ? 0.5 : 0.0));
    }
    p.row_start.push_back(static_cast<int>(p.col.size()));
  }
  return p;
}

Matrix dense_costs(const SparseAssignmentProblem& p) {
  Matrix c(p.n, kForbidden);
  for (int i = 0; i < p.n; ++i)
    for (int j = 0; j < p.n; ++j)
      if (p.row_open[static_cast<std::size_t>(i)] && p.col_open[static_cast<std::size_t>(j)])
        c(i, j) = 0.0;
  for (int i = 0; i < p.n; ++i)
    for (int e = p.row_start[static_cast<std::size_t>(i)];
         e < p.row_start[static_cast<std::size_t>(i) + 1]; ++e)
      c(i, p.col[static_cast<std::size_t>(e)]) = p.cost[static_cast<std::size_t>(e)];
  return c;
}

// r is a valid permutation of allowed pairs with the dense Hungarian's optimal cost.
void expect_optimal(const SparseAssignmentProblem& p, const SparseAssignmentResult& r, int trial) {
  SCOPED_TRACE("trial " + std::to_string(trial));
  const int n = p.n;
  ASSERT_TRUE(r.feasible);
  const Matrix c = dense_costs(p);
  const Assignment dense = min_cost_assignment(c);
  ASSERT_LT(dense.cost, kForbidden / 2);
  std::vector<char> used(static_cast<std::size_t>(n), 0);
  double cost = 0.0;
  for (int i = 0; i < n; ++i) {
    const int j = r.row_to_col[static_cast<std::size_t>(i)];
    ASSERT_GE(j, 0);
    ASSERT_FALSE(used[static_cast<std::size_t>(j)]);
    used[static_cast<std::size_t>(j)] = 1;
    ASSERT_LT(c(i, j), kForbidden);
    cost += c(i, j);
  }
  EXPECT_NEAR(cost, dense.cost, 1e-9);
  EXPECT_NEAR(r.cost, dense.cost, 1e-9);
}

TEST(CompletionAssignment, MatchesDenseHungarianOptimum) {
  Rng rng(42);
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 1 + static_cast<int>(rng.below(30));
    const SparseAssignmentProblem p = random_problem(n, rng.uniform() * 0.3, rng);
    std::vector<double> v(static_cast<std::size_t>(n), 0.0);
    if (trial % 2) {
      for (auto& x : v) x = rng.uniform(-2.0, 2.0);  // arbitrary warm start must not matter
    }
    const SparseAssignmentResult r = completion_assignment(p, v);
    expect_optimal(p, r, trial);
  }
}

// p with costs raised and pairs removed only, as between two DECOMPOSE steps: explicit edges
// are dropped or raised (open-open pairs stay <= 0), and some open lines close.
SparseAssignmentProblem raised(const SparseAssignmentProblem& p, Rng& rng) {
  SparseAssignmentProblem q = p;
  for (auto* open : {&q.row_open, &q.col_open})
    for (auto& o : *open) o = o && rng.uniform() >= 0.15;
  q.col.clear();
  q.cost.clear();
  q.row_start.assign(1, 0);
  for (int i = 0; i < p.n; ++i) {
    for (int e = p.row_start[static_cast<std::size_t>(i)];
         e < p.row_start[static_cast<std::size_t>(i) + 1]; ++e) {
      const int j = p.col[static_cast<std::size_t>(e)];
      const bool open_pair =
          q.row_open[static_cast<std::size_t>(i)] && q.col_open[static_cast<std::size_t>(j)];
      if (rng.uniform() < 0.2) continue;  // dropped: a filler at 0 if both lines are open
      double c = p.cost[static_cast<std::size_t>(e)];
      if (rng.uniform() < 0.4) c += std::floor(rng.uniform() * 4.0) / 8.0;
      q.col.push_back(j);
      q.cost.push_back(open_pair ? std::min(c, 0.0) : c);
    }
    q.row_start.push_back(static_cast<int>(q.col.size()));
  }
  return q;
}

TEST(CompletionAssignment, WarmResolveAfterRaisedCostsIsOptimal) {
  Rng rng(7);
  CompletionWorkspace ws;
  int resolved = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const int n = 1 + static_cast<int>(rng.below(30));
    SparseAssignmentProblem p = random_problem(n, rng.uniform() * 0.4, rng);
    std::vector<double> v(static_cast<std::size_t>(n), 0.0);
    if (!ws.solve(p, v).feasible) continue;
    for (int step = 0; step < 4; ++step) {  // a chain of raises, each re-solved warm
      p = raised(p, rng);
      const SparseAssignmentResult& r = ws.resolve(p, v);
      if (min_cost_assignment(dense_costs(p)).cost >= kForbidden / 2) {
        EXPECT_FALSE(r.feasible);
        break;
      }
      expect_optimal(p, r, trial);
      ++resolved;
    }
  }
  EXPECT_GT(resolved, 300);  // the chains are not cut short by infeasibility
}

TEST(CompletionAssignment, EveryRowReductionBudgetIsOptimal) {
  // The budget only decides how many rows the row reduction settles before the Dijkstra phase.
  Rng rng(11);
  for (int trial = 0; trial < 120; ++trial) {
    const int n = 1 + static_cast<int>(rng.below(30));
    const SparseAssignmentProblem p = random_problem(n, rng.uniform() * 0.3, rng);
    for (int steps : {0, 1, 16, 64}) {
      SCOPED_TRACE("steps " + std::to_string(steps));
      std::vector<double> v(static_cast<std::size_t>(n), 0.0);
      expect_optimal(p, completion_assignment(p, v, {.reduction_steps_per_row = steps}), trial);
      CompletionWorkspace ws({.reduction_steps_per_row = steps});
      std::vector<double> w(static_cast<std::size_t>(n), 0.0);
      (void)ws.solve(p, w);
      const SparseAssignmentProblem q = raised(p, rng);
      const SparseAssignmentResult& r = ws.resolve(q, w);
      if (min_cost_assignment(dense_costs(q)).cost < kForbidden / 2) expect_optimal(q, r, trial);
    }
  }
}

TEST(CompletionAssignment, EdgesPastTheLastRowAreIgnored) {
  // DECOMPOSE keeps its edge arrays at full size across steps: only row_start's ranges count.
  Rng rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const int n = 2 + static_cast<int>(rng.below(20));
    const SparseAssignmentProblem p = random_problem(n, 0.2, rng);
    SparseAssignmentProblem padded = p;
    for (int k = 0; k < 7; ++k) {
      padded.col.push_back(static_cast<int>(rng.below(static_cast<std::uint64_t>(n))));
      padded.cost.push_back(-100.0);  // would win every row if it were read
    }
    std::vector<double> v(static_cast<std::size_t>(n), 0.0), w = v;
    const SparseAssignmentResult a = completion_assignment(p, v);
    const SparseAssignmentResult b = completion_assignment(padded, w);
    EXPECT_EQ(a.row_to_col, b.row_to_col);
    EXPECT_EQ(a.cost, b.cost);
  }
}

TEST(CompletionAssignment, ReportsInfeasible) {
  SparseAssignmentProblem p;
  p.n = 2;
  p.row_open = {0, 0};
  p.col_open = {0, 0};
  p.row_start = {0, 1, 2};
  p.col = {0, 0};  // both rows can only use column 0
  p.cost = {-1.0, -1.0};
  std::vector<double> v(2, 0.0);
  EXPECT_FALSE(completion_assignment(p, v).feasible);
}

TEST(CompletionAssignment, AllOpenEmptyGraphIsAnyPermutation) {
  SparseAssignmentProblem p;
  p.n = 5;
  p.row_open.assign(5, 1);
  p.col_open.assign(5, 1);
  p.row_start.assign(6, 0);
  std::vector<double> v(5, 0.0);
  const auto r = completion_assignment(p, v);
  ASSERT_TRUE(r.feasible);
  EXPECT_EQ(r.cost, 0.0);
}

}  // namespace
}  // namespace flux::matching
